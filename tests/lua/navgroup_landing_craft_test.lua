-- tests/lua/navgroup_landing_craft_test.lua — 37.D LANDING CRAFT/BARGE
-- DAMAGE (scripts/navgroup/landing_craft.lua): the roll for each LC, LB and
-- NT that disembarks, its modifiers, each result for each kind of craft,
-- damaged craft, and the scenario's own SUCCESS TABLE. The stand-in SUCCESS
-- TABLE: 0 or less D, 1 F*, 2-3 F, 4-5 S, 6+ S*.
local t = require "keel.testing"
local F = dofile("tests/lua/navgroup_landing_fixture.lua")

local refused = F.refused

-- one craft of `kind` lands one infantry unit at `beach`; the unit's die 6,
-- the craft's `die`: world, group, craft, its roll record
local function one(kind, die, opts)
  opts = opts or {}
  local w = F.world { globals = opts.globals, families = opts.families }
  for _, d in ipairs(opts.defenders or {}) do F.unit_at(w, d, opts.beach or "A:0502", "Axis") end
  local g, craft = F.fleet(w, "Force", { kind, "LC" }, opts.beach or "A:0502")
  local u = F.troop(w, "Inf", craft[1])
  F.plan(w, opts.beach or "A:0502", { u })
  w.game.dice:force(6, die)
  local ok, why = F.land(w, g, { u })
  t.ok(ok, why)
  local r = F.rolls(w, "landing_craft_damage")
  return w, g, craft[1], r[#r]
end

t.test("37.D-1: each LC, LB and NT that disembarks cargo rolls once, with every modifier of Table 3", function()
  local w = F.world()
  local g, craft = F.fleet(w, "Force", { "LC", "LB", "NT", "TF", "LC" }, "A:0502")
  local units = { F.troop(w, "A", craft[1]), F.troop(w, "B", craft[2]), F.troop(w, "C", craft[3]),
                  F.troop(w, "D", craft[4], { marine = true }), F.troop(w, "E", craft[1]) }
  F.plan(w, "A:0502", units)
  w.game.dice:force(6, 6, 6, 6, 6, 6, 6, 6)
  t.ok(F.land(w, g, units))
  local r = F.rolls(w, "landing_craft_damage")
  t.eq(#r, 3, "the LC (once, for two units), the LB, the NT; not the TF, not the idle LC")
  t.eq(F.mods(r[1]), { calm_seas = 3 })
  t.eq(F.mods(r[2]), { calm_seas = 3, landing_barge = -1 })
  t.eq(F.mods(r[3]), { calm_seas = 3, naval_transport = -3 })
  t.eq(r[1].rule, "37.D")
  -- into an occupied hex with coastal mountains, in rough seas, under a CD
  local _, _, _, rec = one("LC", 6, { beach = "A:0503", defenders = { "Def" }, globals = { sea = "rough" } })
  t.eq(F.mods(rec), { enemy_occupied = -1, cliffs_mountains = -1, rough_seas = 1 })
  local _, _, _, rec2 = one("LC", 6, { beach = "A:0505" })
  t.eq(F.mods(rec2).cd_strength, -2, "the port's CD of 2, in the hex")
  local _, _, _, rec3 = one("LC", 6, { beach = "A:0504" })
  t.eq(F.mods(rec3).cd_strength, -1, "next to it: half its value")
end)

t.test("37.D-2: each result as the table gives it for an LC: D destroyed, F* and F damaged (flipped), S unharmed, S* 5 MPs off next step", function()
  -- A:0503, defended, rough seas: +1 -1 -1 = -1
  local opts = { beach = "A:0503", defenders = { "Def" }, globals = { sea = "rough" } }
  local w, _, lc, rec = one("LC", 1, opts)
  t.eq(rec.result.code, "D")
  t.eq(w.game:get(lc, "loc"), "dead")
  t.eq(w.game:get_value(lc, "permanently_eliminated"), nil, "an LC is destroyed, not permanently eliminated")
  w, _, lc, rec = one("LC", 2, opts)
  t.eq({ rec.result.code, w.game:get(lc, "face") }, { "F*", "damaged" })
  w, _, lc, rec = one("LC", 3, opts)
  t.eq({ rec.result.code, w.game:get(lc, "face") }, { "F", "damaged" })
  w, _, lc, rec = one("LC", 6, opts)
  t.eq({ rec.result.code, w.game:get(lc, "face"), (w.game:get(lc, "loc")) }, { "S", "full", "hex" })
  -- S*: calm seas, +3
  w, _, lc, rec = one("LC", 3)
  t.eq(rec.result.code, "S*")
  t.eq(w.game:get_value(lc, "unload_credit_next"), 5)
end)

t.test("37.D-2b: each result for an LB: D permanently eliminated, F* destroyed, F damaged", function()
  local opts = { beach = "A:0503", defenders = { "Def" }, globals = { sea = "rough" } }   -- -1, and -1 for an LB
  local w, _, lb, rec = one("LB", 1, opts)
  t.eq({ rec.result.code, w.game:get(lb, "loc"), w.game:get_value(lb, "permanently_eliminated") }, { "D", "dead", true })
  w, _, lb, rec = one("LB", 3, opts)
  t.eq({ rec.result.code, w.game:get(lb, "loc"), w.game:get_value(lb, "permanently_eliminated") }, { "F*", "dead", nil })
  w, _, lb, rec = one("LB", 4, opts)
  t.eq({ rec.result.code, w.game:get(lb, "face") }, { "F", "damaged" })
end)

t.test("37.D-2c: each result for an NT: D permanently eliminated, F* and F destroyed, S 30 extra MPs, S* unharmed", function()
  local opts = { beach = "A:0503", defenders = { "Def" }, globals = { sea = "rough" } }   -- -1, and -3 for an NT
  local w, _, nt, rec = one("NT", 4, opts)
  t.eq({ rec.result.code, w.game:get(nt, "loc"), w.game:get_value(nt, "permanently_eliminated") }, { "D", "dead", true })
  w, _, nt, rec = one("NT", 5, opts)
  t.eq({ rec.result.code, w.game:get(nt, "loc") }, { "F*", "dead" })
  w, _, nt, rec = one("NT", 6, opts)
  t.eq({ rec.result.code, w.game:get(nt, "loc") }, { "F", "dead" })
  -- calm seas: +3 -3
  local g
  w, g, _, rec = one("NT", 4)
  t.eq(rec.result.code, "S")
  t.eq(w.game:group_get_value(g, "mp_spent"), 60 + 30, "the assault's 60, and 30 extra")
  t.ok(F.said(w, "S: Force.1 spends 30 extra MPs"))
  w, g, nt, rec = one("NT", 6)
  t.eq({ rec.result.code, w.game:get(nt, "face"), w.game:group_get_value(g, "mp_spent") }, { "S*", "full", 60 })
end)

t.test("37.D-3: a great success takes 5 MPs off unloading and transfers from NTs in the next naval movement step (and -1 on the landing table)", function()
  local w, g, lc = one("LC", 3)
  t.eq(w.game:get_value(lc, "unload_credit_next"), 5)
  t.eq(w.q("activity_cost", g, "transfer_nt_to_lc", { column = "LC" }), 30, "not in this step")
  w.emit("naval_step_end", { side = "Allied", step = 1 })
  w.emit("naval_step_start", { side = "Allied", step = 2 })
  t.eq(w.game:get_value(lc, "unload_credit"), 5)
  t.eq(w.q("activity_cost", g, "transfer_nt_to_lc", { column = "LC" }), 25)
  t.eq(w.q("activity_cost", g, "ed_port", { column = "LC" }), 10)
  t.eq(w.q("activity_cost", g, "replenish"), 15, "not other activities")
  w.emit("naval_step_end", { side = "Allied", step = 2 })
  t.eq(w.game:get_value(lc, "unload_credit"), nil, "that step only")
end)

t.test("37.D-4: a damaged LC/LB carries nothing until repaired: no landing, no naval transport, no planning capacity", function()
  local w = F.world()
  local g, craft = F.fleet(w, "Force", { "LC" }, "A:0502")
  local u = F.troop(w, "Inf", craft[1])
  F.plan(w, "A:0502", { u })
  w.game:flip(craft[1], "damaged")
  refused(w, "37.D: Force.1 is damaged and carries nothing until repaired (Inf aboard)", function() return F.land(w, g, { u }) end)
  refused(w, "37.D: Force's landing craft are damaged", function()
    return w.act("spend", { group = g, activity = "transfer_nt_to_lc" }) end)
  t.eq(w.q("planning_capacity", "Allied", 9), 0)
  t.ok(w.act("spend", { group = g, activity = "replenish" }), "other activities go on")
  -- repaired (another chapter flips it back): it lands
  w.game:flip(craft[1], "full")
  w.game.dice:force(6, 6)
  t.ok(F.land(w, g, { u }))
end)

t.test("37.D-5: the SUCCESS TABLE is the scenario's: its own table replaces the stand-in", function()
  local _, _, lc, rec = one("LC", 3, { families = { "navgroup_success" } })
  t.eq(rec.result.code, "F", "3 + 3 = 6: F on the scenario's table (S* on the stand-in)")
  t.eq(rec.range, "6 or less")
  t.ok(lc)
end)

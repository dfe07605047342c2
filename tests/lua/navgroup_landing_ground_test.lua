-- tests/lua/navgroup_landing_ground_test.lua — 37.B GROUND OPERATIONS
-- (scripts/navgroup/landing_ground.lua): the Landing Effects Table with each
-- of its modifiers and notes, its results (the 2-8 X example), Table 1's
-- multipliers, and items 2-13 with their examples (the reserve division, the
-- invading regiment). Forced dice; refused orders leave the hash unchanged.
local t = require "keel.testing"
local keel = require "keel"
local F = dofile("tests/lua/navgroup_landing_fixture.lua")

local refused = F.refused

-- land `units` (made by make(w, craft)) from one LC group at beach, the dice forced
local function landing(w, beach, make, dice, opts)
  opts = opts or {}
  local g, craft = F.fleet(w, "Force", opts.types or { "LC" }, beach)
  local units = make(w, craft)
  F.plan(w, beach, units)
  w.game.dice:force(table.unpack(dice))
  local ok, id = F.land(w, g, units, { attack = opts.attack })
  t.ok(ok, id)
  return id, units, g, craft
end

local function last_mods(w)
  local r = F.rolls(w, "amphibious_landing_effects")
  return F.mods(r[#r]), r[#r]
end

-- ---- item 13: the 2-8 X example ----------------------------------------------------------

t.test("37.B (13)-1: the 2-8 X example, a landing with a modified 1: a +3 MP marker, 1 SP from the pool, 1/2 SP lands with it", function()
  local w = F.world { sp_pool = 6 }
  local g, craft = F.fleet(w, "Force", { "LC" }, "A:0509")
  local div = F.troop(w, "Division", craft[1], { re = 4, reserve = false })
  local x = F.troop(w, "2-8 X", craft[1], { re = 1, strength = 2, mp = 8, reserve = false })
  F.plan(w, "A:0509", { div, x })
  -- first the division: the beach's 3 REs are used, so the brigade's landing is an amphibious one
  w.game.dice:force(6, 6)
  t.ok(F.land(w, g, { div }))
  t.eq(w.kv("sp_pool", "Allied"), 2, "the division's four REs took four SPs")
  w.game.dice:force(2, 6)   -- 2 +3 (LC) -3 (not intrinsic) -1 (before Nov 43) = 1
  local lost = w.kv("sp_lost", "Allied")
  local ok, id = F.land(w, g, { x })
  t.ok(ok, id)
  local mods, rec = last_mods(w)
  t.eq(rec.modified, 1)
  t.eq(mods, { landing_craft = 3, before_nov_43 = -1, not_intrinsic = -3 })
  t.eq(w.q("landing", id, "assault"), false)
  t.eq(w.game:get_marker(x, "mp_penalty"), 3)
  t.eq(w.kv("sp_pool", "Allied"), 1, "one SP removed from the theatre pool")
  t.eq(w.game:get_value(x, "sp"), 12, "1/2 SP (12/24) placed with the unit")
  t.eq(w.kv("sp_lost", "Allied") - lost, 12, "the remainder (1/2) is eliminated")
  t.ok(F.said(w, "1 SP from Allied's theatre pool (1 left) for 2-8 X (½ S): 1/2 SP lands with it"))
end)

t.test("37.B (13)-2: the 2-8 X example, an assault with a modified -2: a +6 MP marker, 1/6 SP lands with it", function()
  local w = F.world { sp_pool = 5, globals = { sea = "rough" } }
  local id, units = landing(w, "A:0502", function(ww, craft)
    return { F.troop(ww, "2-8 X", craft[1], { re = 1, strength = 2, mp = 8 }) }
  end, { 2, 6 })  -- 2 +3 (LC) -3 (not intrinsic) -1 (before Nov 43) -3 (rough seas) = -2
  local x = units[1]
  local mods, rec = last_mods(w)
  t.eq(rec.modified, -2)
  t.eq(mods.rough_seas, -3)
  t.eq(w.q("landing", id, "assault"), true)
  t.eq(w.game:get_marker(x, "mp_penalty"), 6)
  t.eq(w.kv("sp_pool", "Allied"), 4)
  t.eq(w.game:get_value(x, "sp"), 4, "1/6 SP (4/24): the SPs land with the assaulting unit, in its own partial ZOC")
end)

t.test("37.B results: + # MP doubled on a motorized unit; E eliminates the SP; NE lands it all; no SP in the pool, none", function()
  local w = F.world { sp_pool = 2 }
  landing(w, "A:0502", function(ww, craft)
    return { F.troop(ww, "Motor", craft[1], { motorized = true }) }
  end, { 5, 6 }, { types = { "NT", "LC" } })   -- 5 -3 (not intrinsic) -1 (before Nov 43) = 1: +3 MP, doubled
  local u = w.units.Motor
  t.eq(w.game:get_marker(u, "mp_penalty"), 6)
  t.ok(F.said(w, "Motor: a \"+6 MP\" marker (doubled: motorized)"))
  -- E: -4 or less
  local w2 = F.world { sp_pool = 2, globals = { sea = "rough" } }
  landing(w2, "A:0502", function(ww, craft)
    return { F.troop(ww, "Guns", craft[1], { artillery = true, he = true }) }
  end, { 1, 6 })   -- 1 +3 -3 -1 -3 (rough) -2 (artillery) -3 (HE) = -8
  t.eq(F.rolls(w2, "amphibious_landing_effects")[1].result.Unit.mp, 10)
  t.eq(w2.game:get_value(w2.units.Guns, "sp"), 0, "E: the SP is eliminated")
  t.eq(w2.kv("sp_pool", "Allied"), 1)
  -- NE: a 6 with marines
  local w3 = F.world { sp_pool = 0, globals = { year = 1944 } }
  landing(w3, "A:0502", function(ww, craft)
    return { F.troop(ww, "Marines", craft[1], { marine = true }) }
  end, { 6, 6 })
  t.eq(w3.game:get_marker(w3.units.Marines, "mp_penalty"), 0)
  t.ok(F.said(w3, "Marines lands safely (NE)"))
  t.ok(F.said(w3, "Allied's theatre pool has no SP for Marines"))
end)

t.test("37.B note 2: half of the SPs landed are lost unless disembarked in a friendly partial ZOC", function()
  local w = F.world { sp_pool = 5, globals = { year = 1944 } }
  -- a unit that exerts no ZOC lands alone on an empty enemy beach: no friendly ZOC there
  landing(w, "A:0502", function(ww, craft)
    return { F.troop(ww, "HQ", craft[1], { zoc = "none", marine = true }) }
  end, { 6, 6 })
  t.eq(w.game:get_value(w.units.HQ, "sp"), 12, "NE, then halved: 1/2")
  t.ok(F.said(w, "halved: not disembarked in a friendly partial ZOC, note 2"))
end)

-- ---- item 1: the modifiers ---------------------------------------------------------------

t.test("37.B (1)-1: every landing unit rolls on the Landing Effects Table", function()
  local w = F.world()
  landing(w, "A:0502", function(ww, craft)
    return { F.troop(ww, "A", craft[1]), F.troop(ww, "B", craft[1]), F.troop(ww, "C", craft[1]) }
  end, { 6, 5, 4, 6 })
  local r = F.rolls(w, "amphibious_landing_effects")
  t.eq(#r, 3)
  t.eq({ r[1].die, r[2].die, r[3].die }, { 6, 5, 4 })
  t.eq(r[1].rule, "37.B")
end)

t.test("37.B (1)-2: the capture modifiers: port captured earlier this turn (+size), previous phase (+2), previous friendly player-turn (+3)", function()
  local function capture(w, label)
    local h = w.hex(label)
    local old = w.game:get_owner(h)
    w.game:set_owner(h, "Allied")
    w.emit("owner_changed", { hex = h, side = "Allied", old = old })
  end
  local function land_at(w, label, dice)
    local g, craft = F.fleet(w, "Force", { "LC" }, label)
    local u = F.troop(w, "Div", craft[1], { re = 4, reserve = false })
    F.plan(w, label, { u })
    w.game.dice:force(table.unpack(dice))
    t.ok(F.land(w, g, { u }))
    return (last_mods(w))
  end
  -- the port (major: 3) taken in this movement phase
  local w = F.world()
  w.emit("player_turn_start", { side = "Allied" })
  w.emit("movement_phase", { side = "Allied" })
  capture(w, "A:0505")
  local m = land_at(w, "A:0505", { 6, 6 })
  t.eq(m.port_captured_this_turn, 3)
  t.eq(m.captured_previous_phase, nil)
  t.eq(m.cd_level, nil, "the CD is the Allies' now")
  -- taken in the initial phase: the port and the previous phase
  local w2 = F.world()
  w2.emit("player_turn_start", { side = "Allied" })
  w2.emit("initial_phase", { side = "Allied" })
  capture(w2, "A:0505")
  w2.emit("movement_phase", { side = "Allied" })
  m = land_at(w2, "A:0505", { 6, 6 })
  t.eq({ m.port_captured_this_turn, m.captured_previous_phase }, { 3, 2 })
  -- a hex taken in a previous friendly player-turn
  local w3 = F.world()
  w3.emit("player_turn_start", { side = "Allied" })
  capture(w3, "A:0502")
  w3.emit("player_turn_start", { side = "Axis" })
  w3.emit("player_turn_start", { side = "Allied" })
  m = land_at(w3, "A:0502", { 6, 6 })
  t.eq({ m.captured_previous_turn, m.port_captured_this_turn, m.captured_previous_phase }, { 3, nil, nil })
end)

t.test("37.B (1)-3: the defenders' largest +# MP marker; occupied before reaction; ZOCs (partial, full, double); an enemy fort", function()
  local w = F.world()
  F.unit_at(w, "D1", "A:0502", "Axis", { reserve = true })
  F.unit_at(w, "D2", "A:0502", "Axis")
  w.game:set_marker(w.units.D1, "mp_penalty", 2)
  w.game:set_marker(w.units.D2, "mp_penalty", 5)
  landing(w, "A:0502", function(ww, craft) return { F.troop(ww, "Inf", craft[1]) } end, { 6, 6 })
  local m = last_mods(w)
  t.eq(m.defender_mp_marker, 5)
  t.eq(m.occupied_before_reaction, -1)
  t.eq(m.full_zoc, -2, "the defenders' full ZOC in their hex")
  -- a partial ZOC from next door; a double ZOC
  local w2 = F.world()
  F.unit_at(w2, "Screen", "A:0503", "Axis", { zoc = "partial" })
  landing(w2, "A:0502", function(ww, craft) return { F.troop(ww, "Inf", craft[1]) } end, { 6, 6 })
  t.eq(last_mods(w2).partial_zoc, -1)
  local w3 = F.world()
  F.unit_at(w3, "Corps", "A:0503", "Axis", { zoc = "double" })
  landing(w3, "A:0502", function(ww, craft) return { F.troop(ww, "Inf", craft[1]) } end, { 6, 6 })
  t.eq(last_mods(w3).double_zoc, -3)
  -- the fort at A:0507, Axis-owned
  local w4 = F.world()
  landing(w4, "A:0507", function(ww, craft) return { F.troop(ww, "Inf", craft[1]) } end, { 6, 6 })
  t.eq(last_mods(w4).enemy_fort, -1)
end)

t.test("37.B (1)-4: the unit's kind and carrier: LC +3 / LB +2 (not for intrinsic units), commando, marine, mountain, c/m-artillery-cavalry, not intrinsic, heavy equipment", function()
  local w = F.world()
  landing(w, "A:0502", function(ww, craft)
    return { F.troop(ww, "Cdo", craft[1], { commando = true }), F.troop(ww, "Mar", craft[2], { marine = true }),
             F.troop(ww, "Mtn", craft[1], { mountain = true }), F.troop(ww, "Cav", craft[2], { cavalry = true }),
             F.troop(ww, "Tank", craft[1], { cm = true, he = true }) }
  end, { 6, 6, 6, 6, 6, 6, 6 }, { types = { "LC", "LB" } })
  local r = F.rolls(w, "amphibious_landing_effects")
  local cdo, mar, mtn, cav, tank = F.mods(r[1]), F.mods(r[2]), F.mods(r[3]), F.mods(r[4]), F.mods(r[5])
  t.eq({ cdo.commando, cdo.landing_craft, cdo.not_intrinsic }, { 2, 3, -3 })
  t.eq({ mar.marine, mar.landing_barge, mar.not_intrinsic }, { 2, nil, nil }, "marines are intrinsically amphibious")
  t.eq(mtn.mountain, 1)
  t.eq({ cav.cm_artillery_cavalry, cav.landing_barge }, { -2, 2 })
  t.eq({ tank.cm_artillery_cavalry, tank.heavy_equipment }, { -2, -3 })
end)

t.test("37.B (1)-5: the date (before Nov 1 43), restricted waters, CD levels in the hex (not suppressed), non-clear terrain, rough seas", function()
  local w = F.world { globals = { year = 1943, month = 10 } }
  landing(w, "A:0502", function(ww, craft) return { F.troop(ww, "Inf", craft[1]) } end, { 6, 6 })
  t.eq(last_mods(w).before_nov_43, -1)
  local w2 = F.world { globals = { year = 1943, month = 11 } }
  landing(w2, "A:0502", function(ww, craft) return { F.troop(ww, "Inf", craft[1]) } end, { 6, 6 })
  t.eq(last_mods(w2).before_nov_43, nil)
  -- from the restricted waters of A:0401 into the beach next to it
  local w3 = F.world()
  local g, craft = F.fleet(w3, "Force", { "LC" }, "A:0401")
  local u = F.troop(w3, "Inf", craft[1])
  local beach
  for _, h in ipairs(keel.hex.neighbors(w3.hex("A:0401"))) do
    if w3.board:contains(h) and w3.board:get_terrain(h) == "coastal" and not beach then beach = h end
  end
  F.plan(w3, w3.board:format(beach), { u })
  w3.game.dice:force(6, 6)
  t.ok(w3.act("land", { group = g, units = { u }, hex = beach }))
  t.eq(last_mods(w3).restricted_waters, -1)
  -- the port's CD (2), one level suppressed
  local w4 = F.world()
  w4.set_kv("cd_suppressed", w4.hex("A:0505"), 1)
  landing(w4, "A:0505", function(ww, c) return { F.troop(ww, "Inf", c[1]) } end, { 6, 6 })
  t.eq(last_mods(w4).cd_level, -1)
  -- mountains at A:0503, in rough seas
  local w5 = F.world { globals = { sea = "rough" } }
  landing(w5, "A:0503", function(ww, c) return { F.troop(ww, "Inf", c[1]) } end, { 6, 6 })
  local m = last_mods(w5)
  t.eq({ m.non_clear_terrain, m.rough_seas }, { -1, -3 })
end)

t.test("37.B (1)-6: -1 for each 5 MP reduction of the naval cost (37.D great successes), at most half the cost", function()
  local w = F.world()
  local g, craft = F.fleet(w, "Force", { "LC", "LC" }, "A:0502")
  local u = F.troop(w, "Inf", craft[1])
  F.plan(w, "A:0502", { u })
  w.game:set_value(craft[1], "unload_credit", 5)
  w.game:set_value(craft[2], "unload_credit", 5)
  w.game.dice:force(6, 6)
  local ok, id = F.land(w, g, { u })
  t.ok(ok, id)
  t.eq(w.q("landing", id, "cost"), 35, "45 less 10")
  t.eq(last_mods(w).mp_reduction, -2)
  -- declined
  local w2 = F.world()
  local g2, craft2 = F.fleet(w2, "Force", { "LC" }, "A:0502")
  local u2 = F.troop(w2, "Inf", craft2[1])
  F.plan(w2, "A:0502", { u2 })
  w2.game:set_value(craft2[1], "unload_credit", 5)
  w2.game.dice:force(6, 6)
  t.ok(F.land(w2, g2, { u2 }, { reduce = false }))
  t.eq(last_mods(w2).mp_reduction, nil)
  t.eq(w2.game:group_get_value(g2, "mp_spent"), 45)
  -- at most half: ten credits on a 30 MP landing take off 15
  local w3 = F.world()
  local g3, craft3 = F.fleet(w3, "Force", { "LC", "LC", "LC", "LC", "LC", "LC" }, "A:0509")
  local u3 = F.troop(w3, "Inf", craft3[1], { reserve = false })
  for _, c in ipairs(craft3) do w3.game:set_value(c, "unload_credit", 5) end
  local cost, _, red = w3.q("landing_cost", g3, { u3 }, w3.hex("A:0509"), false)
  t.eq({ cost, red }, { 15, 15 })
end)

t.test("37.B note 1: the table is used on any turn a landing's MP cost is reduced: a friendly beach within its limit", function()
  local w = F.world()
  local g, craft = F.fleet(w, "Force", { "LC" }, "A:0509")
  local u = F.troop(w, "Inf", craft[1], { reserve = false })
  F.plan(w, "A:0509", { u })
  refused(w, "within its 3 RE limit", function() return F.land(w, g, { u }) end)
  w.game:set_value(craft[1], "unload_credit", 5)
  w.game.dice:force(6, 6)
  t.ok(F.land(w, g, { u }), "its cost is reduced: it lands, and rolls")
  t.eq(#F.rolls(w, "amphibious_landing_effects"), 1)
end)

-- ---- Table 1 ------------------------------------------------------------------------

t.test("37.B Table 1-1: strength multipliers by unit, carrier, terrain, sea and weather multiply, then the note's 1/2", function()
  local function factor(w, u) local n, d = w.q("strength_factor", u) return n .. "/" .. d end
  local w = F.world()
  landing(w, "A:0502", function(ww, craft)
    return { F.troop(ww, "Inf LC", craft[1]), F.troop(ww, "Inf LB", craft[2]), F.troop(ww, "Inf NT", craft[3]),
             F.troop(ww, "Cav", craft[1], { cavalry = true }), F.troop(ww, "Tank", craft[1], { armour = true, cm = true, he = true }),
             F.troop(ww, "Mar", craft[3], { marine = true }) }
  end, { 6, 6, 6, 6, 6, 6, 6, 6, 6 }, { types = { "LC", "LB", "NT" } })
  t.eq(factor(w, w.units["Inf LC"]), "1/2", "x1 landing craft, x1/2 transported by sea")
  t.eq(factor(w, w.units["Inf LB"]), "3/8", "x3/4 landing barge")
  t.eq(factor(w, w.units["Inf NT"]), "1/4", "x1/2 NT")
  t.eq(factor(w, w.units.Cav), "1/4", "x1/2 cavalry")
  t.eq(factor(w, w.units.Tank), "1/4", "x1/2 armour (non-amphibious)")
  t.eq(factor(w, w.units.Mar), "1/4", "x1 intrinsic, x1/2 NT")
  -- cliffs or mountains, rough seas, heavy snow: all of them
  local w2 = F.world { globals = { sea = "rough", weather = "heavy snow" } }
  landing(w2, "A:0503", function(ww, craft) return { F.troop(ww, "Cav", craft[1], { cavalry = true }) } end,
    { 6, 6 }, { types = { "LB" } })
  t.eq(factor(w2, w2.units.Cav), "3/128", "1/2 cavalry x 3/4 LB x 1/2 cliffs x 1/2 rough x 1/2 snow x 1/2 transport")
  -- how long: Table 1 for the player-turn, the note's 1/2 until the next enemy combat phase
  w.emit("player_turn_end", { side = "Allied" })
  t.eq(factor(w, w.units["Inf NT"]), "1/2")
  w.emit("combat_phase", { side = "Allied" })
  t.eq(factor(w, w.units["Inf NT"]), "1/2", "its own side's combat phase does not end it")
  w.emit("combat_phase", { side = "Axis" })
  t.eq(factor(w, w.units["Inf NT"]), "1/1")
end)

t.test("37.B (2)-1: a unit transported by NTs to a landing (not an assault) halves its combat strength, then the note's 1/2", function()
  local w = F.world()
  local g, craft = F.fleet(w, "Force", { "NT", "LC" }, "A:0509")
  local a = F.troop(w, "By NT", craft[1], { re = 2, reserve = false })
  local b = F.troop(w, "By LC", craft[2], { re = 2, reserve = false })
  F.plan(w, "A:0509", { a, b })
  w.game.dice:force(6, 6, 6, 6)
  t.ok(F.land(w, g, { a, b }))
  t.eq({ w.q("strength_factor", a) }, { 1, 4, select(3, w.q("strength_factor", a)) })
  local n, d = w.q("strength_factor", b)
  t.eq(n .. "/" .. d, "1/2")
end)

t.test("37.B Table 1-2: RE size x2 heavy equipment, x4 cavalry and c/m (the larger), amphibious armour only as heavy equipment", function()
  local w = F.world()
  local _, craft = F.fleet(w, "Force", { "LC" }, "A:0502")
  local inf = F.troop(w, "Inf", craft[1], { re = 1 })
  local guns = F.troop(w, "Guns", craft[1], { re = 1, he = true })
  local cav = F.troop(w, "Cav", craft[1], { re = 1, cavalry = true })
  local pz = F.troop(w, "Pz", craft[1], { re = 2, cm = true, he = true })
  local dd = F.troop(w, "DD tanks", craft[1], { re = 1, cm = true, amphibious_armour = true })
  t.eq({ w.q("transport_re", inf), w.q("transport_re", guns), w.q("transport_re", cav), w.q("transport_re", pz),
         w.q("transport_re", dd) }, { 1, 2, 4, 8, 2 })
end)

-- ---- items 3 to 12 --------------------------------------------------------------------------

-- an assault at A:0502 held by `defenders` ({name, values}), the Allies
-- landing Inf (1 RE) and c/m Tanks; the probe family resolves ground combat
local function assault(opts)
  opts = opts or {}
  local w = F.world { families = { "navgroup_landing_probe" }, globals = opts.globals, sp_pool = opts.sp_pool }
  for _, d in ipairs(opts.defenders or {}) do F.unit_at(w, d[1], "A:0502", "Axis", d[2]) end
  local id = landing(w, "A:0502", function(ww, craft)
    return { F.troop(ww, "Inf", craft[1]), F.troop(ww, "Tanks", craft[1], { cm = true, he = true }) }
  end, { 6, 6, 6 }, { attack = opts.attack })
  return w, id
end

t.test("37.B (3)-1: the defenders may make hasty attacks against the units making an amphibious assault", function()
  local w = assault { defenders = { { "Def" } } }
  F.unit_at(w, "Reserve", "A:0503", "Axis")
  t.ok(w.act("hasty_attack", { hex = w.hex("A:0502"), units = { w.units.Reserve } }))
  t.eq(w.game:get_global("probe_kind"), "hasty attack")
  t.eq(w.game:get_global("probe_defenders"), 2, "the assaulting units defend")
  local w2 = F.world()
  F.unit_at(w2, "Reserve", "A:0503", "Axis")
  refused(w2, "37.B item 3: hasty attacks are against units making an amphibious assault",
    function() return w2.act("hasty_attack", { hex = w2.hex("A:0502"), units = { w2.units.Reserve } }) end)
end)

t.test("37.B (4)-1: units assaulting an occupied hex must attack its defenders, in the combat phase", function()
  local w = assault { defenders = { { "Def" } }, attack = nil }
  local inf, tanks = w.units.Inf, w.units.Tanks
  t.eq({ w.game:get_value(inf, "must_attack"), w.game:get_value(tanks, "must_attack") }, { true, true })
  refused(w, "37.B: attacks are made in the combat phase", function()
    return w.act("amphibious_attack", { hex = w.hex("A:0502"), units = { inf, tanks } }) end)
  w.emit("combat_phase", { side = "Allied" })
  refused(w, "37.B item 4: Tanks made an amphibious assault into an occupied hex and must attack",
    function() return w.act("amphibious_attack", { hex = w.hex("A:0502"), units = { inf } }) end)
  -- the phase cannot end without the attack
  local before = w.game:hash()
  local ok, err = pcall(w.emit, "exploitation_phase", { side = "Allied" })
  t.ok(not ok and tostring(err):find("37 (e): the units that landed at A:0502 have not attacked", 1, true), tostring(err))
  t.eq(w.game:hash(), before)
  t.ok(w.act("amphibious_attack", { hex = w.hex("A:0502"), units = { inf, tanks } }))
  w.emit("exploitation_phase", { side = "Allied" })
end)

t.test("37.B (4)-2: no unit that landed to attack is left in the hex (a hasty attack took them): no attack is required", function()
  local w = assault { defenders = { { "Def" } } }
  w.emit("combat_phase", { side = "Allied" })
  w.game:eliminate(w.units.Inf)
  w.game:eliminate(w.units.Tanks)
  local ok, err = pcall(w.emit, "exploitation_phase", { side = "Allied" })
  t.ok(ok, tostring(err))
  -- one of them left: it must still attack
  local w2 = assault { defenders = { { "Def" } } }
  w2.emit("combat_phase", { side = "Allied" })
  w2.game:eliminate(w2.units.Tanks)
  ok, err = pcall(w2.emit, "exploitation_phase", { side = "Allied" })
  t.ok(not ok and tostring(err):find("37 (e): the units that landed at A:0502 have not attacked", 1, true), tostring(err))
end)

t.test("37.B (4)-3: in a game with a sequence of play the combat phase does not end before the required attack", function()
  local scenario = require "keel.scenario"
  local spec = scenario.load("scenarios/salerno_1943.lua")
  local run = scenario.start(spec)
  local i = 1
  while not (spec.orders[i][1] == "end_phase" and spec.orders[i].expect and spec.orders[i].expect.vetoed) do
    assert(#select(2, run:play(i, spec.orders[i])) == 0)
    i = i + 1
  end
  local game = run.game
  t.eq(game:get_global("phase"), "combat")
  local listed
  for _, e in ipairs(run.set:legal_actions(game, "Allied")) do if e.name == "end_phase" then listed = e end end
  t.eq(listed.available, false, "the pass is not offered")
  t.ok(listed.reason:find("37 (e), item 4: the units that landed at S:0708 must attack", 1, true), listed.reason)
  local before = game:hash()
  local ok, why, kind = run.set:act(game, "end_phase", {}, "Allied")
  t.eq({ ok or false, kind }, { false, "vetoed" }, why)
  t.eq(game:hash(), before, "refused: the state unchanged")
  t.ok(run.set:act(game, "amphibious_attack", { hex = run.board:hex("S:0708"),
    units = { run.units["141st RCT"], run.units["142nd RCT"] } }, "Allied"))
  t.ok(run.set:act(game, "end_phase", {}, "Allied"))
  t.eq(game:get_global("phase"), "supply", "on, past the exploitation phase (nothing to do there)")
end)

t.test("37.B (5)-1: no planned attack or attack from overstack for assaulting units, unless SPs come from an army/front HQ or special supply", function()
  local w = assault { defenders = { { "Def" } } }
  local units = { w.units.Inf, w.units.Tanks }
  w.emit("combat_phase", { side = "Allied" })
  refused(w, "37.B item 5: units making an amphibious assault may not use a planned attack", function()
    return w.act("amphibious_attack", { hex = w.hex("A:0502"), units = units, planned = true }) end)
  refused(w, "may not use an attack from overstack", function()
    return w.act("amphibious_attack", { hex = w.hex("A:0502"), units = units, overstack = true, sp_source = "pool" }) end)
  t.ok(w.act("amphibious_attack", { hex = w.hex("A:0502"), units = units, planned = true, sp_source = "hq" }))
end)

t.test("37.B (6)-1: attacker casualties on an initially defended beach are combat isolated: disruptions eliminate", function()
  local w = assault { defenders = { { "Garrison" } } }
  t.eq(w.q("landing", 1, "initially_defended"), true)
  w.game:set_global("probe_result", "disrupt_attackers")
  w.emit("combat_phase", { side = "Allied" })
  t.ok(w.act("amphibious_attack", { hex = w.hex("A:0502"), units = { w.units.Inf, w.units.Tanks } }))
  t.eq(w.game:get(w.units.Inf, "loc"), "dead", "disrupted, classed as combat isolated: eliminated")
  t.eq(w.game:get_value(w.units.Inf, "loss_class"), "combat isolated")
  t.ok(F.said(w, "Inf disrupted: eliminated, combat isolated (item 6)"))
end)

t.test("37.B (6)-2: the reserve-division example: a division in reserve that moved in during the reaction phase: losses taken normally", function()
  local w = assault {}
  t.eq(w.q("landing", 1, "initially_defended"), false)
  -- the reserve division reacts into the hex
  local div = F.unit_at(w, "Reserve division", "A:0503", "Axis", { reserve = true, re = 3 })
  w.game:move(div, "hex", w.hex("A:0502"))
  w.game:set_global("probe_result", "disrupt_attackers")
  w.emit("combat_phase", { side = "Allied" })
  t.ok(w.act("amphibious_attack", { hex = w.hex("A:0502"), units = { w.units.Inf, w.units.Tanks } }))
  t.eq(w.game:get(w.units.Inf, "loc"), "hex", "disrupted, not eliminated")
  t.eq(w.game:get_marker(w.units.Inf, "disrupted"), 1)
  -- a unit in reserve (or a CD) in the hex at the landing does not make it initially defended either
  local w2 = assault { defenders = { { "In reserve", { reserve = true } } } }
  t.eq(w2.q("landing", 1, "initially_defended"), false)
end)

t.test("37.B (7)-1: units eliminated aboard during an assault are combat isolated only if the beach is initially defended", function()
  local function sunk_assault(defended)
    local w = F.world { families = { "navgroup_landing_probe" } }
    if defended then F.unit_at(w, "Garrison", "A:0504", "Axis") end
    local g, craft = F.fleet(w, "Force", { "LC", "LC" }, "A:0504")
    local a = F.troop(w, "Lost", craft[1])
    local b = F.troop(w, "Saved", craft[2])
    F.plan(w, "A:0504", { a, b })
    w.game:set_global("probe_sink", craft[1])   -- the CD at A:0505 sinks it as the landing's MPs are spent
    w.game.dice:force(6, 6, 6)
    t.ok(F.land(w, g, { a, b }))
    return w, a, b
  end
  local w, a, b = sunk_assault(true)
  t.eq(w.game:get(a, "loc"), "dead")
  t.eq(w.game:get_value(a, "loss_class"), "combat isolated")
  t.eq(w.game:get(b, "loc"), "hex", "the other one lands")
  local w2, a2 = sunk_assault(false)
  t.eq(w2.game:get_value(a2, "loss_class"), "normal")
end)

t.test("37.B (8)-1: units assaulting an occupied hex are assumed to have paid its terrain costs, and force dual ownership", function()
  local w = assault { defenders = { { "Def" } } }
  local h = w.hex("A:0502")
  t.eq({ w.q("hex_owners", h) }, { "Axis", "Allied" })
  t.eq(w.game:get_owner(h), "Axis")
  t.eq({ w.game:get(w.units.Inf, "loc") }, { "hex", h })
  t.ok(F.said(w, "item 8: the landing units enter A:0502 (terrain costs paid) and force dual ownership"))
  -- an empty enemy beach is taken
  local w2 = assault {}
  t.eq({ w2.q("hex_owners", w2.hex("A:0502")) }, { "Allied" })
end)

t.test("37.B (9)-1: the invading-regiment example: a partial ZOC in its hex, none next to it; reacting into it costs 1 MP unless a screening unit is there", function()
  local w = F.world()
  local _, units = landing(w, "A:0502", function(ww, craft) return { F.troop(ww, "Regiment", craft[1]) } end, { 6, 6 })
  local reg = units[1]
  local h, next_door = w.hex("A:0502"), w.hex("A:0503")
  t.eq({ w.q("unit_zoc", reg) }, { 1, 0 })
  t.eq(w.q("zoc_level", "Allied", h), 1)
  t.eq(w.q("zoc_level", "Allied", next_door), 0)
  t.eq(w.q("zoc_entry_mp", "Allied", h), 1, "a unit reacting into the hex spends 1 MP for the ZOC")
  -- a screening unit in the hex (one that did not just land) exerts its full ZOC
  F.unit_at(w, "Screen", "A:0502", "Allied")
  t.eq(w.q("zoc_level", "Allied", h), 2)
  t.ok(w.q("zoc_entry_mp", "Allied", h) > 1)
  -- during the player-turn of the landing only
  w.emit("player_turn_end", { side = "Allied" })
  t.eq({ w.q("unit_zoc", reg) }, { 2, 2 })
end)

t.test("37.B (10)-1: landing units trace to a special supply source by spending theatre SPs (no port or NT capacity)", function()
  local w = F.world { sp_pool = 3 }
  local _, units = landing(w, "A:0502", function(ww, craft)
    return { F.troop(ww, "A", craft[1], { re = 1 }), F.troop(ww, "B", craft[1], { re = 2 }) }
  end, { 6, 6, 6 })
  t.eq(w.kv("sp_pool", "Allied"), 0, "item 13 took three")
  w.game:set_keyed("sp_pool", "Allied", 2)
  refused(w, "37.B item 10: special supply is traced in the supply judgement phase",
    function() return w.act("special_supply", { units = units }) end)
  w.emit("supply_phase", { side = "Allied" })
  refused(w, "special supply costs 3 SPs from the theatre pool, 2 there", function()
    return w.act("special_supply", { units = units }) end)
  t.ok(w.act("special_supply", { units = { units[1] } }))
  t.eq(w.game:get_value(units[1], "supply"), "special")
  t.eq(w.kv("sp_pool", "Allied"), 1)
  t.ok(F.said(w, "no port or NT capacity used"))
  local stay = F.unit_at(w, "Old hand", "A:0509", "Allied")
  refused(w, "Old hand did not land this player-turn", function() return w.act("special_supply", { units = { stay } }) end)
end)

t.test("37.B (11)-1: units attack at full strength by spending theatre SPs", function()
  local w = assault { defenders = { { "Def" } }, sp_pool = 3 }
  local units = { w.units.Inf, w.units.Tanks }
  w.emit("combat_phase", { side = "Allied" })
  w.game:set_keyed("sp_pool", "Allied", 1)
  refused(w, "37.B item 11: a full-strength attack costs 2 SPs from the theatre pool, 1 there", function()
    return w.act("amphibious_attack", { hex = w.hex("A:0502"), units = units, full_strength = true }) end)
  w.game:set_keyed("sp_pool", "Allied", 2)
  t.ok(w.act("amphibious_attack", { hex = w.hex("A:0502"), units = units, full_strength = true }))
  t.eq(w.game:get_global("probe_full"), true)
  t.eq(w.kv("sp_pool", "Allied"), 0)
end)

t.test("37.B (12)-1: all landing units lose their reserve status", function()
  local w = assault {}
  t.eq(w.game:get_value(w.units.Inf, "reserve"), nil)
  t.eq(w.game:get_value(w.units.Tanks, "reserve"), nil)
end)

t.test("37.B-1: overruns and combat in the hex as after an airborne landing; the default ground combat records, no casualties", function()
  local w = assault { defenders = { { "Def" } } }
  w.emit("combat_phase", { side = "Allied" })
  t.ok(w.act("amphibious_attack", { hex = w.hex("A:0502"), units = { w.units.Inf, w.units.Tanks } }))
  t.eq(w.game:get_global("probe_airborne"), true)
  -- without a scenario's combat chapter
  local w2 = F.world()
  F.unit_at(w2, "Def", "A:0502", "Axis")
  landing(w2, "A:0502", function(ww, craft) return { F.troop(ww, "Inf", craft[1]) } end, { 6, 6 })
  w2.emit("combat_phase", { side = "Allied" })
  local ok, text = w2.act("amphibious_attack", { hex = w2.hex("A:0502"), units = { w2.units.Inf } })
  t.ok(ok)
  t.ok(text:find("ground combat recorded", 1, true), text)
  t.eq(w2.kv("ground_combat", 1), text)
  t.eq(w2.game:get(w2.units.Def, "loc"), "hex")
end)

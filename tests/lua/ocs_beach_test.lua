-- tests/lua/ocs_beach_test.lua — OCS 18.6 Beach Assaults
-- (scripts/ocs/beach_assaults.lua): the restrictions (A-H), the defender's
-- choice to resolve the landing on the ALT (18.6b) and its consequences.
-- Ground combat is another chapter's: the default hook records the combat;
-- tests/families/variants/ocs_ground_combat.lua stands in for a scenario's.
local t = require "keel.testing"
local F = dofile("tests/lua/ocs_fixture.lua")

local GC = "tests/families/variants/ocs_ground_combat.lua"

local function inf(g, name, side, values)
  local v = { re = 1, ma = 4, attack = 2, mode = "combat" }
  for k, x in pairs(values or {}) do v[k] = x end
  return F.unit(g, { name = name, type = "inf", side = side or "Allied", values = v })
end

-- Axis Pz Gren holds A:0505; Allied 1 and 2 Bn aboard an LCT at A:0404, an
-- SP aboard an LCI at A:0405; the Allied Combat Phase has begun.
local function scene(opts)
  local set, g, said = F.setup(opts)
  local pz = F.unit(g, { name = "Pz Gren", type = "inf", side = "Axis", at = "A:0505", values = { re = 1, attack = 3 } })
  local a, b = inf(g, "1 Bn"), inf(g, "2 Bn")
  local lct = F.unit(g, { name = "LCT", type = "LC", side = "Allied", at = "A:0404", points = 2 })
  g:embark(a, lct); g:embark(b, lct)
  local sp = F.unit(g, { name = "SP", type = "SP", side = "Allied", points = 2 })
  local lci = F.unit(g, { name = "LCI", type = "LC", side = "Allied", at = "A:0405", points = 2 })
  g:embark(sp, lci)
  F.phase(set, g, "combat_phase", "Allied")
  return { set = set, g = g, said = said, pz = pz, a = a, b = b, lct = lct, sp = sp, lci = lci, hex = F.hex(g, "A:0505") }
end

t.test("18.6-1: a Beach Assault goes in against a coastal hex that holds enemy combat units", function()
  local s = scene()
  F.refused(s.set, s.g, "announce_beach_assault", { hex = F.hex(s.g, "A:0506"), units = { s.a } }, "18.6: A:0506 holds no enemy combat units: land by ALT (18.5)")
  F.refused(s.set, s.g, "announce_beach_assault", { hex = F.hex(s.g, "A:0605"), units = { s.a } }, "18.6: a Beach Assault goes in against a coastal hex")
end)

t.test("18.6a-1: Beach Assaults are resolved in the friendly Combat Phase", function()
  local s = scene()
  F.phase(s.set, s.g, "movement_phase", "Allied")
  F.refused(s.set, s.g, "announce_beach_assault", { hex = s.hex, units = { s.a } }, "18.6a: Beach Assaults are resolved in the friendly Combat Phase (now the movement phase of Allied)")
end)

t.test("18.6a-2: A) the attackers are in Combat Mode, stacked in the same hex, no more than 3 RE", function()
  local s = scene()
  local g = s.g
  g:set_value(s.b, "mode", "move")
  F.refused(s.set, g, "announce_beach_assault", { hex = s.hex, units = { s.a, s.b } }, "18.6a A: 2 Bn is not in Combat Mode")
  g:set_value(s.b, "mode", "combat")
  local c = inf(g, "3 Bn", "Allied", { re = 2 })
  g:embark(c, s.lci)
  F.refused(s.set, g, "announce_beach_assault", { hex = s.hex, units = { s.a, c } }, "18.6a A: the attacking units must be stacked in the same hex")
  local big = inf(g, "Bde", "Allied", { re = 2 })
  local lst = F.unit(g, { name = "LCT 2", type = "LC", side = "Allied", at = "A:0404", points = 3 })
  g:embark(big, lst)
  F.refused(s.set, g, "announce_beach_assault", { hex = s.hex, units = { s.a, s.b, big } }, "18.6a A: the attacking units total 4 RE (no more than 3)")
  F.ok(s.set, g, "announce_beach_assault", { hex = s.hex, units = { s.a, big } })
end)

t.test("18.6a-3: G) no Beach Assault together with units that have already landed", function()
  local s = scene()
  local landed = inf(s.g, "Cdo")
  s.g:move(landed, "hex", F.hex(s.g, "A:0504"))
  F.refused(s.set, s.g, "announce_beach_assault", { hex = s.hex, units = { s.a, landed } },
    "18.6a G: a Beach Assault is made only by units aboard landing craft, never with units that have already landed (Cdo)")
end)

t.test("18.6a-4: B) combat supply only from landing craft carrying SP in the same or an adjacent hex; the default records the combat", function()
  local s = scene()
  local g = s.g
  F.ok(s.set, g, "announce_beach_assault", { hex = s.hex, units = { s.a, s.b } })
  F.refused(s.set, g, "resolve_beach_assault", { hex = s.hex }, "18.6a B: combat supply for a Beach Assault is drawn only from landing craft carrying SP")
  F.refused(s.set, g, "resolve_beach_assault", { hex = s.hex, supply = s.lct }, "18.6a B: LCT carries no SP")
  local far = F.unit(g, { name = "LCI 2", type = "LC", side = "Allied", at = "A:0101", points = 1 })
  local sp2 = F.unit(g, { name = "SP 2", type = "SP", side = "Allied", points = 1 })
  g:embark(sp2, far)
  F.refused(s.set, g, "resolve_beach_assault", { hex = s.hex, supply = far }, "18.6a B: LCI 2 is not in the same or an adjacent hex")
  F.ok(s.set, g, "resolve_beach_assault", { hex = s.hex, supply = s.lci })
  t.eq(g:get(s.sp, "points"), 1, "1 SP drawn from the craft")
  t.eq(g:get_keyed("supply", 1), "1 SP for combat supply of the Beach Assault at A:0505 (18.6a B)")
  t.eq(g:get_keyed("ground_combat", 1), "Beach Assault at A:0505: 1 Bn, 2 Bn against Pz Gren, beach terrain (attackers x1/2), "
    .. "attacker options as step losses: recorded (the ground combat chapter decides)")
  t.eq({ F.at(g, s.a) }, { s.lct, "unit" }, "nothing decided: still aboard")
end)

t.test("18.6a-5: C) attacker options are taken as step losses; D) an Exploit marker earned is kept; the attackers come ashore with no after-landing move", function()
  local s = scene { variants = { GC } }
  local g = s.g
  g:set_value(s.a, "steps", 2)
  g:set_global("gc_dislodged", true)
  g:set_global("gc_attacker_options", 1)
  g:set_global("gc_exploit", true)
  g:set_global("gc_defender_steps", 1)
  F.ok(s.set, g, "announce_beach_assault", { hex = s.hex, units = { s.a, s.b } })
  F.ok(s.set, g, "resolve_beach_assault", { hex = s.hex, supply = s.lci })
  t.eq({ g:get_global("gc_terrain"), g:get_global("gc_multiplier_num"), g:get_global("gc_multiplier_den"), g:get_global("gc_options_as_steps") },
    { "beach", 1, 2, true })
  t.eq(g:get_value(s.a, "steps"), 1, "the option is a step loss")
  t.eq(g:get(s.pz, "loc"), "dead")
  t.eq({ (F.at(g, s.a)), (F.at(g, s.b)) }, { "A:0505", "A:0505" })
  t.eq({ g:get_marker(s.a, "Exploit"), g:get_marker(s.b, "Exploit") }, { 1, 1 })
  F.phase(s.set, g, "movement_phase", "Allied")
  t.eq(g:get_value(s.a, "landed_by"), "beach assault")
end)

t.test("18.6a-6: E) if the defenders are not dislodged, every attacking unit and its landing craft are destroyed", function()
  local s = scene { variants = { GC } }
  local g = s.g
  g:set_global("gc_dislodged", false)
  F.ok(s.set, g, "announce_beach_assault", { hex = s.hex, units = { s.a, s.b } })
  F.ok(s.set, g, "resolve_beach_assault", { hex = s.hex, supply = s.lci })
  t.eq({ g:get(s.a, "loc"), g:get(s.b, "loc"), g:get(s.lct, "loc"), (g:get(s.lci, "loc")) }, { "dead", "dead", "dead", "hex" })
  t.eq(g:get(s.pz, "loc"), "hex")
end)

t.test("18.6a-7: F) the defender chooses the beach's nominal hexside (attackers x1/2) or the hex's terrain", function()
  local s = scene { variants = { GC } }
  local g = s.g
  g:set_global("gc_dislodged", true)
  F.ok(s.set, g, "announce_beach_assault", { hex = s.hex, units = { s.a } })
  F.refused(s.set, g, "beach_assault_choice", { hex = s.hex, alt = false, terrain = "cliffs" }, "18.6a F: the defender chooses the beach's nominal hexside")
  F.ok(s.set, g, "beach_assault_choice", { hex = s.hex, alt = false, terrain = "hex" })
  F.ok(s.set, g, "resolve_beach_assault", { hex = s.hex, supply = s.lci })
  t.eq({ g:get_global("gc_terrain"), g:get_global("gc_multiplier_num"), g:get_global("gc_multiplier_den") }, { "hex", 1, 1 })
end)

t.test("18.6a-8: H) defenders all destroyed by a barrage: the assault is resolved on the ALT, with no after-landing movement", function()
  local s = scene()
  local g = s.g
  F.ok(s.set, g, "announce_beach_assault", { hex = s.hex, units = { s.a, s.b } })
  g:eliminate(s.pz)                   -- the barrage of the Combat Phase
  local sp_before = g:get(s.sp, "points")
  g.dice:force(6, 6)                  -- 12 - 1 (close) = 11: NE
  F.ok(s.set, g, "resolve_beach_assault", { hex = s.hex })
  t.eq({ (F.at(g, s.a)), g:get_value(s.a, "landed_by") }, { "A:0505", "beach assault" })
  t.ok(g:journal_text():find('"reason":"ALT for the Beach Assault at A:0505 (18.6a H)"', 1, true))
  t.eq(g:get(s.sp, "points"), sp_before, "no combat supply")
  t.eq(g:count_keyed("ground_combat"), 0, "no combat")
  F.refused(s.set, g, "after_landing_move", { unit = s.a, path = { "A:0605" } }, "no after-landing movement")
end)

t.test("18.6b-1: the defender resolves the landing on the ALT: the defenders are destroyed whatever the result, no supply is spent, the attackers advance", function()
  local s = scene()
  local g = s.g
  F.ok(s.set, g, "announce_beach_assault", { hex = s.hex, units = { s.a, s.b } })
  F.ok(s.set, g, "beach_assault_choice", { hex = s.hex, alt = true })
  g.dice:force(1, 1, 2, 2)            -- 2 - 1 = 1: L2; picks 1d3 = 2 (1 Bn), then 1d2 = 2 (2 Bn)
  F.ok(s.set, g, "resolve_beach_assault", { hex = s.hex })
  t.eq(g:get(s.pz, "loc"), "dead", "destroyed regardless of the ALT result")
  t.eq({ g:get(s.a, "loc"), (g:get(s.b, "loc")) }, { "dead", "dead" }, "the L2 took both battalions")
  t.eq(g:get(s.sp, "points"), 2, "no supply spent")
  t.ok(g:journal_text():find('"reason":"ALT instead of a Beach Assault at A:0505 (18.6b)"', 1, true))
end)

t.test("18.6b-2: the choice is made once, before any die is rolled or supply paid (refused after, state unchanged)", function()
  local s = scene()
  local g = s.g
  F.ok(s.set, g, "announce_beach_assault", { hex = s.hex, units = { s.a } })
  F.ok(s.set, g, "beach_assault_choice", { hex = s.hex, alt = false })
  F.refused(s.set, g, "beach_assault_choice", { hex = s.hex, alt = true }, "18.6b: the decision cannot be changed once made")
  F.ok(s.set, g, "resolve_beach_assault", { hex = s.hex, supply = s.lci })
  F.refused(s.set, g, "beach_assault_choice", { hex = s.hex, alt = true },
    "18.6b: the choice is made before any die is rolled or supply paid: this assault is resolved")
  F.refused(s.set, g, "resolve_beach_assault", { hex = s.hex, supply = s.lci }, "18.6a: no Beach Assault is announced against A:0505")
end)

t.test("18.6b-3: on the ALT the unloaded units advance into the vacated hex, with no after-landing movement", function()
  local s = scene()
  local g = s.g
  F.ok(s.set, g, "announce_beach_assault", { hex = s.hex, units = { s.a, s.b } })
  F.ok(s.set, g, "beach_assault_choice", { hex = s.hex, alt = true })
  g.dice:force(6, 6)                  -- 12 - 1 = 11: NE
  F.ok(s.set, g, "resolve_beach_assault", { hex = s.hex })
  t.eq({ (F.at(g, s.a)), (F.at(g, s.b)), (g:get(s.pz, "loc")) }, { "A:0505", "A:0505", "dead" })
  F.refused(s.set, g, "after_landing_move", { unit = s.a, path = { "A:0605" } }, "18.6: 1 Bn landed by a Beach Assault: no after-landing movement")
end)

-- tests/lua/ocs_combat_test.lua — OCS 18.3 Naval Combat (scripts/ocs/combat.lua):
-- ship barrages (once a segment, ground once a turn: the Reaction-Phase
-- example), ground and naval targets, the strength arithmetic (planes x2,
-- the Protection Rating, rounding down), naval damage (hits, DG, landing
-- craft, the DUKW cargo loss example), torpedo bombers, ship flak and
-- coastal artillery. Dice are forced so that every result is exact.
--
-- The stand-in Barrage Table (2d6): column 1-2: 10+ DG; 3-5: 8-11 DG, 12 1;
-- 6-9: 5-9 DG, 10+ 1; 10+: 7- DG, 8-11 1, 12 2.
local t = require "keel.testing"
local F = dofile("tests/lua/ocs_fixture.lua")

local function segment(set, g, phase, side)
  F.phase(set, g, phase, side)
  F.phase(set, g, "barrage_segment", side)
end

local function ship(g, name, ty, side, at, values, extra)
  local spec = { name = name, type = ty, side = side, at = at, values = values }
  for k, v in pairs(extra or {}) do spec[k] = v end
  return F.unit(g, spec)
end

-- the last line of narration that mentions `text`
local function said_line(said, text)
  for i = #said, 1, -1 do if said[i]:find(text, 1, true) then return said[i] end end
  return "(nothing said about " .. text .. ")"
end

local BB = { barrage = 12, range = 4, protection = 3, flak = 2 }
local DD = { barrage = 3, range = 2, flak = 1 }

-- ---- 18.3a ---------------------------------------------------------------------------------

t.test("18.3a-1: a ship barrages once per friendly Barrage Segment: a second target in the same phase is refused", function()
  local set, g = F.setup()
  local bb = ship(g, "Warspite", "BB", "Allied", "A:0203", BB)
  local d1 = ship(g, "Lupo", "DD", "Axis", "A:0403", DD)
  local d2 = ship(g, "Sagittario", "DD", "Axis", "A:0404", DD)
  F.phase(set, g, "exploitation_phase", "Allied")
  F.refused(set, g, "barrage", { units = { bb }, target = d1 }, "18.3a: barrages are fired in a friendly Barrage Segment (none is in progress)")
  F.phase(set, g, "barrage_segment", "Allied")
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { bb }, target = d1 })
  F.refused(set, g, "barrage", { units = { bb }, target = d2 }, "18.3a: Warspite has fired in this Barrage Segment")
  segment(set, g, "reaction_phase", "Axis")
  local d3 = ship(g, "Folgore", "DD", "Axis", "A:0303", DD)
  F.refused(set, g, "barrage", { units = { bb }, target = d3 }, "18.3a: Warspite barrages in its side's Barrage Segments (this one is Axis's)")
end)

t.test("18.3a-2: A) a ship fires at naval targets in every friendly Barrage Segment it does not fire at a ground target", function()
  local set, g = F.setup()
  local bb = ship(g, "Warspite", "BB", "Allied", "A:0203", BB)
  local d1 = ship(g, "Lupo", "DD", "Axis", "A:0403", DD)
  F.phase(set, g, "turn_start", "Allied")
  for _, ph in ipairs({ "movement_phase", "exploitation_phase" }) do
    segment(set, g, ph, "Allied")
    g.dice:force(1, 1)
    F.ok(set, g, "barrage", { units = { bb }, target = d1 })
  end
  segment(set, g, "reaction_phase", "Allied")             -- in the Axis player-turn
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { bb }, target = d1 })
end)

t.test("18.3a-3: B) the Reaction-Phase example: a ship that barrages an enemy air base in its Reaction Phase fires at no ground target in Movement or Exploitation", function()
  local set, g = F.setup()
  local bb = ship(g, "Warspite", "BB", "Allied", "A:0402", BB)
  local dd = ship(g, "Lupo", "DD", "Axis", "A:0401", DD)
  F.unit(g, { name = "Pz Gren", type = "inf", side = "Axis", at = "A:0603" })
  F.phase(set, g, "turn_start", "Axis")
  segment(set, g, "reaction_phase", "Allied")             -- in the Axis player-turn
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { bb }, hex = F.hex(g, "A:0703"), facility = "airbase" })
  segment(set, g, "movement_phase", "Allied")             -- the Allied player-turn, same game turn
  F.refused(set, g, "barrage", { units = { bb }, hex = F.hex(g, "A:0603") },
    "18.3a B: Warspite has fired at a ground target this game turn (in the reaction phase)")
  segment(set, g, "exploitation_phase", "Allied")
  F.refused(set, g, "barrage", { units = { bb }, hex = F.hex(g, "A:0603") }, "18.3a B")
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { bb }, target = dd })
  F.phase(set, g, "turn_start", "Axis")
  segment(set, g, "reaction_phase", "Allied")
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { bb }, hex = F.hex(g, "A:0603") })
end)

t.test("18.3a-4: a target in range; the firer's range is counted from its hex (a plane's from its base)", function()
  local set, g = F.setup()
  local dd = ship(g, "Jervis", "DD", "Allied", "A:0101", DD)
  local en = ship(g, "Lupo", "DD", "Axis", "A:0404", DD)
  segment(set, g, "exploitation_phase", "Allied")
  F.refused(set, g, "barrage", { units = { dd }, target = en }, "18.3a: Jervis at A:0101 is out of range (5 hexes, range 2)")
end)

-- ---- 18.3b ---------------------------------------------------------------------------------

t.test("18.3b-1: naval barrages against ground units are reduced (the adjustments' x1/2), against facilities not; ships fire together from different hexes", function()
  local set, g, said = F.setup()
  local bb = ship(g, "Warspite", "BB", "Allied", "A:0402", BB)
  local ca = ship(g, "Uganda", "CL", "Allied", "A:0404", { barrage = 6, range = 3 })
  F.unit(g, { name = "Pz Gren", type = "inf", side = "Axis", at = "A:0603" })
  segment(set, g, "exploitation_phase", "Allied")
  g.dice:force(4, 6)
  F.ok(set, g, "barrage", { units = { bb, ca }, hex = F.hex(g, "A:0603") })
  t.ok(said_line(said, "barrage at"):find("strength 9 -> column 6-9", 1, true), said_line(said, "barrage at"))   -- (12 + 6) / 2
  t.eq(g:get_keyed("ground_barrage", 1), "ground units at A:0603: 1")
  segment(set, g, "exploitation_phase", "Allied")
  local ca2 = ship(g, "Orion", "CL", "Allied", "A:0402", { barrage = 6, range = 3 })
  g.dice:force(6, 6)
  F.ok(set, g, "barrage", { units = { ca2 }, hex = F.hex(g, "A:0703"), facility = "airbase" })
  t.ok(said_line(said, "barrage at"):find("strength 6 -> column 6-9", 1, true), "a facility: no reduction: " .. said_line(said, "barrage at"))
  t.eq(g:get_keyed("ground_barrage", 2), "airbase at A:0703: 1")
end)

t.test("18.3b-2: a ground barrage needs enemy ground units in the hex, or the facility it names", function()
  local set, g = F.setup()
  local bb = ship(g, "Warspite", "BB", "Allied", "A:0402", BB)
  segment(set, g, "exploitation_phase", "Allied")
  F.refused(set, g, "barrage", { units = { bb }, hex = F.hex(g, "A:0603") }, "18.3b: no enemy ground units at A:0603")
  F.refused(set, g, "barrage", { units = { bb }, hex = F.hex(g, "A:0603"), facility = "airbase" }, "18.3b: no airbase at A:0603")
  F.refused(set, g, "barrage", { units = { bb } }, "name either a naval target or a ground hex")
end)

-- ---- 18.3c ---------------------------------------------------------------------------------

t.test("18.3c-1: enemy ships are barraged only by naval units, planes and coastal artillery", function()
  local set, g = F.setup()
  local art = F.unit(g, { name = "Field Regt", type = "art", side = "Allied", at = "A:0505", values = { barrage = 5, range = 3 } })
  local en = ship(g, "Lupo", "DD", "Axis", "A:0404", DD)
  segment(set, g, "exploitation_phase", "Allied")
  F.refused(set, g, "barrage", { units = { art }, target = en }, "coastal artillery is the only ground unit that fires with this order")
  local lc = F.unit(g, { name = "LCT", type = "LC", side = "Allied", at = "A:0403", points = 2, values = { barrage = 1 } })
  F.refused(set, g, "barrage", { units = { lc }, target = en }, "18.4: LCT is a landing craft: it has no Barrage Strength")
end)

t.test("18.3c-2: no ship is targeted by more than one barrage in a phase; a unit's strength is not split", function()
  local set, g = F.setup()
  local bb = ship(g, "Warspite", "BB", "Allied", "A:0203", BB)
  local dd = ship(g, "Jervis", "DD", "Allied", "A:0303", DD)
  local en = ship(g, "Lupo", "DD", "Axis", "A:0403", DD)
  segment(set, g, "exploitation_phase", "Allied")
  F.refused(set, g, "barrage", { units = { bb, bb }, target = en }, "18.3c: the strength of a barraging unit cannot be split (Warspite named twice)")
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { bb }, target = en })
  F.refused(set, g, "barrage", { units = { dd }, target = en }, "18.3c: no ship can be targeted by more than one barrage in a phase (Lupo has been)")
  segment(set, g, "movement_phase", "Allied")             -- another phase
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { dd }, target = en })
end)

t.test("18.3c-3: the firing player sees the ships of a stack, not their cargoes", function()
  local set, g = F.setup()
  local lst = ship(g, "LST 1", "LST", "Axis", "A:0404", nil, { points = 2 })
  local inf = F.unit(g, { name = "Bersaglieri", type = "inf", side = "Axis" })
  g:embark(inf, lst)
  ship(g, "Lupo", "DD", "Axis", "A:0404", DD)
  local seen = set:query(g, "ships_seen", F.hex(g, "A:0404"), "Axis")
  t.eq(#seen, 2)
  t.eq({ seen[1].name, seen[1].type, seen[1].points, seen[2].name }, { "LST 1", "LST", 2, "Lupo" })
  for _, s in ipairs(seen) do
    for k in pairs(s) do t.ok(k ~= "cargo", "no cargo shown") end
  end
end)

t.test("18.3c-4: two planes combine against one ship or attack two; any number of barrages at the ships of one hex", function()
  local set, g = F.setup()
  local function plane(name) return F.unit(g, { name = name, type = "air", side = "Allied", at = "A:0303", values = { barrage = 2, range = 8 } }) end
  local p1, p2, p3, p4 = plane("A"), plane("B"), plane("C"), plane("D")
  local s1 = ship(g, "Lupo", "DD", "Axis", "A:0404", DD)
  local s2 = ship(g, "Sagittario", "DD", "Axis", "A:0404", DD)
  local s3 = ship(g, "Folgore", "DD", "Axis", "A:0404", DD)
  local bb = ship(g, "Warspite", "BB", "Allied", "A:0203", BB)
  segment(set, g, "exploitation_phase", "Allied")
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { p1, p2 }, target = s1 })
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { p3 }, target = s2 })
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { p4 }, target = s3 })
  F.refused(set, g, "barrage", { units = { bb }, target = s3 }, "(Folgore has been)")
end)

t.test("18.3c-5: B) planes x2, C) the total divided by the Protection Rating (1 if none), rounded down; below the first column no effect and no roll", function()
  local set, g, said = F.setup()
  local function plane(name, s) return F.unit(g, { name = name, type = "air", side = "Allied", at = "A:0303", values = { barrage = s, range = 8 } }) end
  local cl = ship(g, "Uganda", "CL", "Allied", "A:0303", { barrage = 7, range = 3 })
  local bb = ship(g, "Littorio", "BB", "Axis", "A:0404", { protection = 2 })
  local ca = ship(g, "Trento", "CA", "Axis", "A:0404", { protection = 3 })
  local dd = ship(g, "Lupo", "DD", "Axis", "A:0404", {})
  local dd2 = ship(g, "Freccia", "DD", "Axis", "A:0403", { protection = 2 })
  local p1, p2, p3 = plane("A", 3), plane("B", 2), plane("C", 1)
  segment(set, g, "movement_phase", "Allied")
  local function strength_said() return said_line(said, "barrage at") end
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { cl }, target = bb })
  t.ok(strength_said():find("strength 3 -> column 3-5", 1, true), "7 / 2 = 3.5, rounded down: " .. strength_said())
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { p1, p2 }, target = ca })
  t.ok(strength_said():find("strength 3 -> column 3-5", 1, true), "(3 + 2) x 2 / 3 = 3.33: " .. strength_said())
  g.dice:force(6, 6)
  F.ok(set, g, "barrage", { units = { p3 }, target = dd })
  t.ok(strength_said():find("strength 2 -> column 1-2", 1, true), "1 x 2 / 1 (none printed): " .. strength_said())
  t.eq(g:get_marker(dd, "DG"), 1)
  segment(set, g, "exploitation_phase", "Allied")
  local lone = plane("E", 1)
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { lone }, target = dd2 })
  t.ok(said_line(said, "barrage at"):find("strength 1 -> column 1-2", 1, true), said_line(said, "barrage at"))
  local cl2 = ship(g, "Orion", "CL", "Allied", "A:0303", { barrage = 1, range = 3 })
  F.phase(set, g, "turn_start")                           -- the next game turn's
  segment(set, g, "exploitation_phase", "Allied")
  local before = #g:journal_lines()
  F.ok(set, g, "barrage", { units = { cl2 }, target = dd2 })
  t.ok(said_line(said, "barrage at"):find("strength 0 -> below the first column: no effect, no roll", 1, true), "1 / 2 = 0: " .. said_line(said, "barrage at"))
  local rolled = false
  for i = before + 1, #g:journal_lines() do
    if g:journal_lines()[i]:find('"ev":"roll"', 1, true) then rolled = true end
  end
  t.eq(rolled, false)
end)

t.test("18.3c-6: A) the only shift is the aircraft's distance from its base", function()
  local set, g, said = F.setup()
  local near = F.unit(g, { name = "Near", type = "air", side = "Allied", at = "A:0303", values = { barrage = 3, range = 8 } })
  local far = F.unit(g, { name = "Far", type = "air", side = "Allied", at = "A:0101", values = { barrage = 3, range = 8 } })
  local s1 = ship(g, "Lupo", "DD", "Axis", "A:0404", DD)
  local s2 = ship(g, "Freccia", "DD", "Axis", "A:0406", DD)
  segment(set, g, "exploitation_phase", "Allied")
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { near }, target = s1 })
  t.ok(said_line(said, "barrage at"):find("strength 6 -> column 6-9", 1, true), said_line(said, "barrage at"))
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { far }, target = s2 })
  t.ok(said_line(said, "barrage at"):find("strength 6, shift -1 -> column 3-5", 1, true), "7 hexes from its base, range 8: " .. said_line(said, "barrage at"))
end)

t.test("18.3c-7: D) all the landing craft of a stack are one ship for target and DG", function()
  local set, g = F.setup()
  local bb = ship(g, "Littorio", "BB", "Axis", "A:0203", BB)
  local dd = ship(g, "Lupo", "DD", "Axis", "A:0303", DD)
  local l1 = ship(g, "LCT 1", "LC", "Allied", "A:0403", nil, { points = 2 })
  local l2 = ship(g, "LCI 2", "LC", "Allied", "A:0403", nil, { points = 3 })
  segment(set, g, "exploitation_phase", "Axis")
  g.dice:force(1, 1)                  -- 12 -> column 10+, 2: DG
  F.ok(set, g, "barrage", { units = { bb }, target = l1 })
  t.eq({ g:get_marker(l1, "DG"), g:get_marker(l2, "DG") }, { 1, 1 }, "a DG for the whole stack")
  F.refused(set, g, "barrage", { units = { dd }, target = l2 }, "18.3c: no ship can be targeted by more than one barrage in a phase (LCT 1 has been)")
end)

-- ---- 18.3d ---------------------------------------------------------------------------------

t.test("18.3d-1: A) a hit flips a ship to its damaged side and DGs it; a second hit sinks it", function()
  local set, g = F.setup()
  local bb = ship(g, "Warspite", "BB", "Allied", "A:0203", BB)
  local cl = ship(g, "Uganda", "CL", "Allied", "A:0303", { barrage = 9, range = 3 })
  local en = ship(g, "Trento", "CA", "Axis", "A:0403", {})
  segment(set, g, "movement_phase", "Allied")
  g.dice:force(4, 4)                  -- 12 -> 10+: 8 -> 1 hit
  F.ok(set, g, "barrage", { units = { bb }, target = en })
  t.eq({ g:get(en, "face"), g:get_marker(en, "DG") }, { "damaged", 1 })
  segment(set, g, "exploitation_phase", "Allied")
  g.dice:force(5, 5)                  -- 9 -> 6-9: 10 -> 1 hit
  F.ok(set, g, "barrage", { units = { cl }, target = en })
  t.eq(g:get(en, "loc"), "dead")
end)

t.test("18.3d-2: C) the first DG does no damage; a second removes the marker and applies a hit", function()
  local set, g = F.setup()
  local bb = ship(g, "Warspite", "BB", "Allied", "A:0203", BB)
  local en = ship(g, "Littorio", "BB", "Axis", "A:0403", {})
  segment(set, g, "movement_phase", "Allied")
  g.dice:force(3, 3)                  -- 10+: 6 -> DG
  F.ok(set, g, "barrage", { units = { bb }, target = en })
  t.eq({ g:get(en, "face"), g:get_marker(en, "DG") }, { "full", 1 })
  segment(set, g, "exploitation_phase", "Allied")
  g.dice:force(3, 3)
  F.ok(set, g, "barrage", { units = { bb }, target = en })
  t.eq(g:get(en, "face"), "damaged", "the second DG is a hit")
  t.eq(g:get_marker(en, "DG"), 1, "whose own DG marks it again")
end)

t.test("18.3d-3: a DG on a damaged ship: a further DG result sinks it; a DG'd ship that takes a hit takes two", function()
  local set, g = F.setup()
  local bb = ship(g, "Warspite", "BB", "Allied", "A:0203", BB)
  local dmg = ship(g, "Littorio", "BB", "Axis", "A:0403", {}, { face = "damaged", markers = { DG = 1 } })
  local dg = ship(g, "Vittorio Veneto", "BB", "Axis", "A:0404", {}, { markers = { DG = 1 } })
  local clean = ship(g, "Roma", "BB", "Axis", "A:0402", {}, { face = "damaged" })
  segment(set, g, "movement_phase", "Allied")
  g.dice:force(3, 3)
  F.ok(set, g, "barrage", { units = { bb }, target = dmg })
  t.eq(g:get(dmg, "loc"), "dead", "damaged + DG, then a DG: sunk")
  segment(set, g, "exploitation_phase", "Allied")
  g.dice:force(4, 4)                  -- 1 hit
  F.ok(set, g, "barrage", { units = { bb }, target = dg })
  t.eq(g:get(dg, "loc"), "dead", "the hit flips it; the hit's DG is its second: another hit sinks it")
  F.phase(set, g, "turn_start", "Allied")
  segment(set, g, "movement_phase", "Allied")
  g.dice:force(3, 3)
  F.ok(set, g, "barrage", { units = { bb }, target = clean })
  t.eq({ g:get(clean, "face"), g:get_marker(clean, "DG"), (g:get(clean, "loc")) }, { "damaged", 1, "hex" }, "a first DG on a damaged ship")
end)

t.test("18.3d-4: B) a hit on landing craft takes a point from a craft chosen at random, an LST becomes Landing Craft, every craft in the hex is DG", function()
  local set, g = F.setup()
  local bb = ship(g, "Littorio", "BB", "Axis", "A:0203", BB)
  local lst = ship(g, "LST 301", "LST", "Allied", "A:0403", nil, { points = 3 })
  local lc = ship(g, "LCT 7", "LC", "Allied", "A:0403", nil, { points = 2 })
  segment(set, g, "exploitation_phase", "Axis")
  g.dice:force(4, 4, 1)               -- 1 hit; the pick 1d2 = 1: the LST
  F.ok(set, g, "barrage", { units = { bb }, target = lc })
  t.eq({ g:get(lst, "type"), g:get(lst, "points") }, { "LC", 2 }, "the LST converts to Landing Craft of the reduced value")
  t.eq(g:get(lc, "points"), 2, "the other craft is untouched")
  t.eq({ g:get_marker(lst, "DG"), g:get_marker(lc, "DG") }, { 1, 1 })
  t.ok(g:journal_text():find('"reason":"which landing craft is hit (18.3d)"', 1, true), "the target is rolled for")
end)

t.test("18.3d-5: the DUKW example: a 2-point DUKW with a regiment and an SP takes a loss: 1 point left, a roll picks the lost cargo", function()
  local set, g = F.setup()
  local bb = ship(g, "Littorio", "BB", "Axis", "A:0203", BB)
  local dukw = ship(g, "DUKW", "DUKW", "Allied", "A:0403", nil, { points = 2 })
  local regt = F.unit(g, { name = "Regiment", type = "inf", side = "Allied", values = { re = 1, air_transportable = true } })
  local sp = F.unit(g, { name = "SP", type = "SP", side = "Allied", points = 1 })
  g:embark(regt, dukw); g:embark(sp, dukw)
  segment(set, g, "exploitation_phase", "Axis")
  g.dice:force(4, 4, 2)               -- 1 hit (one craft: no pick); the cargo roll 1d2 = 2: the SP
  F.ok(set, g, "barrage", { units = { bb }, target = dukw })
  t.eq(g:get(dukw, "points"), 1)
  t.eq({ g:get(sp, "loc"), (g:get(regt, "loc")) }, { "dead", "unit" }, "the SP is lost, the regiment aboard")
  t.ok(g:journal_text():find('"reason":"which cargo is lost with DUKW"', 1, true))
end)

t.test("18.3d-6: a stack of landing craft with a DG takes a hit: the point, then the hit's DG is a second one: another point", function()
  local set, g = F.setup()
  local bb = ship(g, "Littorio", "BB", "Axis", "A:0203", BB)
  local lc = ship(g, "LCT 7", "LC", "Allied", "A:0403", nil, { points = 3, markers = { DG = 1 } })
  segment(set, g, "exploitation_phase", "Axis")
  g.dice:force(4, 4)
  F.ok(set, g, "barrage", { units = { bb }, target = lc })
  t.eq({ g:get(lc, "points"), g:get_marker(lc, "DG") }, { 1, 1 })
end)

t.test("18.3d-7: damaged ships cannot be repaired", function()
  local set, g = F.setup { families = { "ocs_probe" } }
  local bb = ship(g, "Warspite", "BB", "Allied", "A:0203", BB, { face = "damaged" })
  local tank = F.unit(g, { name = "Sherman", type = "arm", side = "Allied", at = "A:0603", face = "damaged" })
  F.refused(set, g, "repair", { unit = bb }, "vetoed by rule 18.3d (Naval Damage): 18.3d: damaged ships cannot be repaired (Warspite)")
  F.ok(set, g, "repair", { unit = tank })
end)

-- ---- 18.3e-18.3g ---------------------------------------------------------------------------

t.test("18.3e-1: torpedo bombers barrage ships only, never land targets (coastal artillery included)", function()
  local set, g = F.setup()
  local tb = F.unit(g, { name = "Swordfish", type = "air", side = "Allied", at = "A:0303", values = { barrage = 2, range = 8, torpedo = true } })
  F.unit(g, { name = "Pz Gren", type = "inf", side = "Axis", at = "A:0603" })
  local bat = F.unit(g, { name = "Batteria", type = "CoastArty", side = "Axis", at = "A:0504", values = { barrage = 4, range = 3 } })
  local en = ship(g, "Lupo", "DD", "Axis", "A:0404", DD)
  segment(set, g, "exploitation_phase", "Allied")
  F.refused(set, g, "barrage", { units = { tb }, hex = F.hex(g, "A:0603") }, "18.3e: Swordfish is a torpedo bomber: it barrages ships only, never land targets")
  F.refused(set, g, "barrage", { units = { tb }, hex = F.hex(g, "A:0703"), facility = "airbase" }, "18.3e")
  F.refused(set, g, "barrage", { units = { tb }, target = bat }, "18.3g C: only ships fire at coastal artillery")
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { tb }, target = en })
end)

t.test("18.3f-1: ship flak adds to the flak rolls against every air barrage in the hex, not just at the targeted ship", function()
  local set, g = F.setup()
  local p = F.unit(g, { name = "Ju 87", type = "air", side = "Axis", at = "A:0203", values = { barrage = 2, range = 8 } })
  local bb = ship(g, "Warspite", "BB", "Allied", "A:0404", BB)          -- flak 2
  ship(g, "Jervis", "DD", "Allied", "A:0404", DD)                        -- flak 1
  ship(g, "LCT", "LC", "Allied", "A:0404", { flak = 9 }, { points = 2 }) -- landing craft have no flak (18.4)
  segment(set, g, "exploitation_phase", "Axis")
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { p }, target = bb })
  t.eq(g:get_keyed("flak", 1), "ship flak 3 at A:0404 joins the flak roll against 1 air unit(s)")
  t.eq(set:query(g, "ship_flak", F.hex(g, "A:0404"), "Allied"), 3)
end)

t.test("18.3g-1: A) coastal artillery fires at ships in every segment it does not fire at ground targets, at no supply cost", function()
  local set, g = F.setup()
  local bat = F.unit(g, { name = "Batteria", type = "CoastArty", side = "Axis", at = "A:0504", values = { barrage = 4, range = 3 } })
  local en = ship(g, "Jervis", "DD", "Allied", "A:0404", DD)
  for _, ph in ipairs({ "reaction_phase", "combat_phase" }) do
    segment(set, g, ph, "Axis")
    g.dice:force(1, 1)
    F.ok(set, g, "barrage", { units = { bat }, target = en })
  end
  t.eq(g:count_keyed("supply"), 0, "no supply cost")
end)

t.test("18.3g-2: B) coastal artillery fires at ground targets by the normal artillery rules, at the normal supply cost, and at no ship in that phase", function()
  local set, g = F.setup()
  local bat = F.unit(g, { name = "Batteria", type = "CoastArty", side = "Axis", at = "A:0504", values = { barrage = 4, range = 3 } })
  local en = ship(g, "Jervis", "DD", "Allied", "A:0404", DD)
  F.unit(g, { name = "Commando", type = "inf", side = "Allied", at = "A:0505" })
  segment(set, g, "combat_phase", "Axis")
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { bat }, hex = F.hex(g, "A:0505") })
  t.eq(g:get_keyed("supply", 1), "1 SP for Batteria's ground barrage (18.3g B)")
  -- the OCS turn has one Barrage Segment a phase (so 18.3a refuses a second
  -- barrage first); 18.3g B's own answer for a sequence with more:
  F.refused(set, g, "barrage", { units = { bat }, target = en }, "18.3a: Batteria has fired in this Barrage Segment")
  t.eq(set:query(g, "coastal_artillery_refusal", bat, true), "18.3g B: Batteria fired at a ground target in this phase: no fire at ships")
  t.eq(set:query(g, "coastal_artillery_refusal", bat, false), nil)
end)

t.test("18.3g-3: C) ships fire at coastal artillery as a naval target: a step loss eliminates it, a DG is ignored; only ships", function()
  local set, g, said = F.setup()
  local bat = F.unit(g, { name = "Batteria", type = "CoastArty", side = "Axis", at = "A:0504", values = { barrage = 4, range = 3 } })
  F.unit(g, { name = "Pz Gren", type = "inf", side = "Axis", at = "A:0504" })
  local bb = ship(g, "Warspite", "BB", "Allied", "A:0203", BB)
  local pl = F.unit(g, { name = "Beaufighter", type = "air", side = "Allied", at = "A:0303", values = { barrage = 4, range = 8 } })
  segment(set, g, "movement_phase", "Allied")
  F.refused(set, g, "barrage", { units = { pl }, target = bat }, "18.3g C: only ships fire at coastal artillery as a naval target (Beaufighter is not a ship)")
  g.dice:force(3, 3)                  -- 10+: DG -> ignored
  F.ok(set, g, "barrage", { units = { bb }, target = bat })
  t.eq({ g:get(bat, "loc"), g:get_marker(bat, "DG") }, { "hex", 0 })
  t.ok(said_line(said, "DG ignored"):find("Batteria: DG ignored", 1, true))
  segment(set, g, "exploitation_phase", "Allied")
  local cl = ship(g, "Uganda", "CL", "Allied", "A:0403", { barrage = 12, range = 3 })
  g.dice:force(4, 4)                  -- 1: a step loss
  F.ok(set, g, "barrage", { units = { cl }, target = bat })
  t.eq(g:get(bat, "loc"), "dead")
end)

t.test("18.3-charts-1: a scenario's own Barrage Table (a family listing a table of that name) replaces the stand-in", function()
  local set, g = F.setup { families = { "ocs_game" } }
  t.ok(set:table("barrage_table").title:find("TEST BARRAGE TABLE", 1, true))
  local bb = ship(g, "Warspite", "BB", "Allied", "A:0203", BB)
  local en = ship(g, "Lupo", "DD", "Axis", "A:0403", DD)
  segment(set, g, "exploitation_phase", "Allied")
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { bb }, target = en })
  t.eq(g:get(en, "face"), "damaged", "a 2 is a hit on the game's table")
  t.eq(set:query(g, "transport_size", F.unit(g, { name = "Bde", type = "inf", side = "Allied", values = { re = 2 } })), 4)
end)

t.test("26-ocs-segments: 2.2's segments: no air or naval barrage in the Combat Phase's, no artillery in the Movement Phase's", function()
  local set, g = F.setup()
  local bb = ship(g, "Warspite", "BB", "Allied", "A:0203", BB)
  local pl = F.unit(g, { name = "Beaufighter", type = "air", side = "Allied", at = "A:0303", values = { barrage = 4, range = 8 } })
  local bat = F.unit(g, { name = "Batteria", type = "CoastArty", side = "Allied", at = "A:0505", values = { barrage = 4, range = 3 } })
  local en = ship(g, "Lupo", "DD", "Axis", "A:0403", DD)
  F.unit(g, { name = "Pz Gren", type = "inf", side = "Axis", at = "A:0605" })
  segment(set, g, "combat_phase", "Allied")
  F.refused(set, g, "barrage", { units = { bb }, target = en },
    "2.2: the Combat Phase's Barrage Segment is the artillery's: Warspite fires no air or naval barrage in it")
  F.refused(set, g, "barrage", { units = { pl }, hex = F.hex(g, "A:0605") }, "Beaufighter fires no air or naval barrage")
  t.eq(set:query(g, "firer_refusal", bat, false), nil, "coastal artillery fires at ground targets there")
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { bat }, target = en })   -- and at ships (18.3g A: every friendly segment)
  segment(set, g, "movement_phase", "Allied")
  F.refused(set, g, "barrage", { units = { bat }, hex = F.hex(g, "A:0605") },
    "2.2: the Movement Phase's Barrage Segment is for air and naval barrages: Batteria fires at ground targets by the "
    .. "artillery rules, not in it")
  t.eq(set:query(g, "firer_refusal", bat, true), nil, "at ships it may")
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { bb }, hex = F.hex(g, "A:0605") })
  segment(set, g, "exploitation_phase", "Allied")
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { bat }, hex = F.hex(g, "A:0605") })   -- every kind in the Exploitation Phase's
end)

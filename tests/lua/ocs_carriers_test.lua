-- tests/lua/ocs_carriers_test.lua — OCS 18.2 Aircraft Carriers
-- (scripts/ocs/carriers.lua): capacity (numbered and named carriers),
-- refit (a damaged carrier refits 2), carrier planes flying from and moving
-- with their carrier, and the screen against surface gunfire.
local t = require "keel.testing"
local F = dofile("tests/lua/ocs_fixture.lua")

local function plane(g, name, values)
  local v = { barrage = 2, range = 10 }
  for k, x in pairs(values or {}) do v[k] = x end
  return F.unit(g, { name = name, type = "air", side = "Allied", values = v })
end

local function aboard(g, list, cv) for _, p in ipairs(list) do g:embark(p, cv) end end

t.test("18.2a-1: a carrier with a number supports that many aircraft, Inactive and Active together", function()
  local set, g = F.setup()
  local cv = F.unit(g, { name = "Illustrious", type = "CV", side = "Allied", at = "A:0202", values = { ["capacity.planes"] = 2 } })
  local a = plane(g, "Swordfish A")
  local b = plane(g, "Swordfish B", { inactive = true })
  local c = plane(g, "Fulmar")
  F.ok(set, g, "base_plane", { plane = a, carrier = cv })
  F.ok(set, g, "base_plane", { plane = b, carrier = cv })
  F.refused(set, g, "base_plane", { plane = c, carrier = cv },
    "18.2a: Illustrious supports 2 aircraft, Active and Inactive, and has 2 aboard")
  t.eq(#set:query(g, "planes_aboard", cv), 2)
end)

t.test("18.2a-2: a carrier without a number takes only the planes with its name on them", function()
  local set, g = F.setup()
  local cv = F.unit(g, { name = "Enterprise", type = "CV", side = "Allied", at = "A:0202" })
  local own = plane(g, "VT-6", { carrier = "Enterprise" })
  local other = plane(g, "VT-8", { carrier = "Hornet" })
  local land = plane(g, "B-25")
  F.ok(set, g, "base_plane", { plane = own, carrier = cv })
  F.refused(set, g, "base_plane", { plane = other, carrier = cv }, "only planes with the carrier's name on them use Enterprise (VT-8 is of Hornet)")
  F.refused(set, g, "base_plane", { plane = land, carrier = cv }, "(B-25 is not a carrier plane)")
  local bb = F.unit(g, { name = "Nelson", type = "BB", side = "Allied", at = "A:0202" })
  F.refused(set, g, "base_plane", { plane = own, carrier = bb }, "18.2a: Nelson is not a carrier")
end)

t.test("18.2b-1: a carrier refits all its planes in the Aircraft Refit Phase, at no SP cost", function()
  local set, g, said = F.setup()
  local cv = F.unit(g, { name = "Illustrious", type = "CV", side = "Allied", at = "A:0202", values = { ["capacity.planes"] = 4 } })
  local ps = { plane(g, "A", { inactive = true }), plane(g, "B", { inactive = true }), plane(g, "C", { inactive = true }), plane(g, "D") }
  aboard(g, ps, cv)
  F.phase(set, g, "movement_phase", "Allied")
  F.refused(set, g, "refit", { carrier = cv }, "18.2b: carriers refit in their side's Aircraft Refit Phase (now the movement phase of Allied)")
  F.phase(set, g, "aircraft_refit_phase", "Allied")
  F.ok(set, g, "refit", { carrier = cv })
  for _, p in ipairs(ps) do t.eq(g:get_value(p, "inactive"), nil) end
  t.ok(said[#said]:find("Illustrious refits A, B, C (no SP cost)", 1, true), said[#said])
  t.eq(g:count_keyed("supply"), 0, "no supply spent")
  F.refused(set, g, "refit", { carrier = cv }, "18.2b: Illustrious has refitted in this phase")
end)

t.test("18.2b-2: a damaged carrier refits only 2 planes, whatever its rating; the player may name them", function()
  local set, g = F.setup()
  local cv = F.unit(g, { name = "Formidable", type = "CV", side = "Allied", at = "A:0202", face = "damaged",
                         values = { ["capacity.planes"] = 4 } })
  local ps = { plane(g, "A", { inactive = true }), plane(g, "B", { inactive = true }), plane(g, "C", { inactive = true }),
               plane(g, "D", { inactive = true }) }
  aboard(g, ps, cv)
  F.phase(set, g, "aircraft_refit_phase", "Allied")
  F.refused(set, g, "refit", { carrier = cv, planes = { ps[1], ps[2], ps[3] } },
    "18.2b: Formidable is damaged and refits only 2 planes, whatever its rating")
  F.ok(set, g, "refit", { carrier = cv, planes = { ps[3], ps[4] } })
  t.eq({ g:get_value(ps[1], "inactive"), g:get_value(ps[2], "inactive"), g:get_value(ps[3], "inactive"), g:get_value(ps[4], "inactive") },
    { true, true, nil, nil })
  F.phase(set, g, "aircraft_refit_phase", "Allied")
  F.ok(set, g, "refit", { carrier = cv })
  t.eq({ g:get_value(ps[1], "inactive"), g:get_value(ps[2], "inactive") }, { nil, nil }, "unnamed: the first two Inactive ones")
  F.phase(set, g, "aircraft_refit_phase", "Allied")
  F.refused(set, g, "refit", { carrier = cv }, "18.2b: Formidable has no Inactive plane aboard to refit")
  local out = plane(g, "E", { inactive = true })
  F.refused(set, g, "refit", { carrier = cv, planes = { out } }, "18.2b: E is not aboard Formidable")
end)

t.test("18.2c-1: carrier planes fly and project Patrol Zones from the carrier's hex, move with it (no mission), and sink with it", function()
  local set, g = F.setup()
  local cv = F.unit(g, { name = "Illustrious", type = "CV", side = "Allied", at = "A:0202", values = { ["capacity.planes"] = 2 } })
  local p = plane(g, "Swordfish")
  aboard(g, { p }, cv)
  t.eq(g.board:format(set:query(g, "mission_hex", p)), "A:0202")
  F.phase(set, g, "movement_phase", "Allied")
  F.ok(set, g, "move", { unit = cv, path = { "A:0302", "A:0402" } })
  t.eq(g.board:format(set:query(g, "patrol_zone_center", p)), "A:0402", "the Patrol Zone moves with the carrier")
  t.eq({ F.at(g, p) }, { cv, "unit" }, "still aboard")
  t.eq(g:get_value(p, "inactive"), nil, "tagging along is not a mission")
  t.eq(set:query(g, "carrier_of", p), cv)
  g:eliminate(cv)
  t.eq(select(2, F.at(g, p)), "dead", "the carrier's move to the dead pile takes its planes")
end)

t.test("18.2c-2: a carrier moves before or after its planes fly their missions in the same segment", function()
  local set, g = F.setup()
  local cv = F.unit(g, { name = "Illustrious", type = "CV", side = "Allied", at = "A:0101", values = { ["capacity.planes"] = 2 } })
  local p1, p2 = plane(g, "Swordfish A", { range = 2 }), plane(g, "Swordfish B", { range = 2 })
  aboard(g, { p1, p2 }, cv)
  local dd1 = F.unit(g, { name = "Lupo", type = "DD", side = "Axis", at = "A:0403" })
  local dd2 = F.unit(g, { name = "Sagittario", type = "DD", side = "Axis", at = "A:0405" })
  F.phase(set, g, "reaction_phase", "Allied")
  F.phase(set, g, "barrage_segment", "Allied")
  F.refused(set, g, "barrage", { units = { p1 }, target = dd1 }, "out of range")
  F.ok(set, g, "move", { unit = cv, path = { "A:0201", "A:0302" } })
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { p1 }, target = dd1 })
  F.ok(set, g, "move", { unit = cv, path = { "A:0303", "A:0304" } })
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { p2 }, target = dd2 })
  t.eq({ g:get_value(p1, "inactive"), g:get_value(p2, "inactive") }, { true, true }, "a mission flown: Inactive until refitted")
end)

t.test("18.2d-1: surface gunfire may not target a carrier while a non-carrier surface ship is in range; planes and coastal artillery may", function()
  local set, g = F.setup()
  local cv = F.unit(g, { name = "Aquila", type = "CV", side = "Axis", at = "A:0404" })
  local dd = F.unit(g, { name = "Lupo", type = "DD", side = "Axis", at = "A:0104" })
  local bb = F.unit(g, { name = "Warspite", type = "BB", side = "Allied", at = "A:0204", values = { barrage = 12, range = 3 } })
  local sw = plane(g, "Swordfish", { range = 6 })
  g:move(sw, "hex", F.hex(g, "A:0201"))
  local ca = F.unit(g, { name = "Batteria", type = "CoastArty", side = "Allied", at = "A:0504", values = { barrage = 4, range = 2 } })
  F.phase(set, g, "combat_phase", "Allied")
  F.phase(set, g, "barrage_segment", "Allied")
  F.refused(set, g, "barrage", { units = { bb }, target = cv }, "18.2d: Aquila is screened: Lupo is in range of Warspite")
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { sw }, target = cv })
  t.eq(g:get(cv, "face"), "full")
  g:move(dd, "hex", F.hex(g, "A:0108"))    -- the screen steams out of Warspite's range
  F.phase(set, g, "combat_phase", "Allied")
  F.phase(set, g, "barrage_segment", "Allied")
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { bb }, target = cv })
  F.phase(set, g, "exploitation_phase", "Allied")
  F.phase(set, g, "barrage_segment", "Allied")
  g:move(dd, "hex", F.hex(g, "A:0403"))
  g.dice:force(1, 1)
  F.ok(set, g, "barrage", { units = { ca }, target = cv })
end)

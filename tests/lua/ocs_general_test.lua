-- tests/lua/ocs_general_test.lua — OCS 18.1 General Naval Rules and the family plumbing
-- (scripts/ocs/general.lua): supply, stacking, where ships and landing craft
-- go, naval DG, phasing and speed. Every illegal move is refused with its
-- rule id and the state hash unchanged.
local t = require "keel.testing"
local F = dofile("tests/lua/ocs_fixture.lua")

-- n steps back and forth between two adjacent sea hexes, ending on `b`
local function shuttle(n, a, b)
  local path = {}
  for i = 1, n do path[i] = (i % 2 == 1) and b or a end
  return path
end

t.test("ocs-phases-1: the phase and segment come from the sequence of play's globals: name, whose, a stamp; an event without a side is an error", function()
  local set, g = F.setup()
  t.eq({ set:query(g, "phase") }, { nil, nil, "none" }, "no phase yet")
  F.phase(set, g, "turn_start", "Allied")
  t.eq(g:get_global("turn"), 1)
  F.phase(set, g, "movement_phase", "Allied")
  t.eq({ set:query(g, "phase") }, { "movement", "Allied", "1 Allied movement" })
  t.eq(set:query(g, "barrage_segment"), nil, "the Movement Segment is no Barrage Segment")
  F.phase(set, g, "barrage_segment", "Allied")
  t.eq({ set:query(g, "barrage_segment") }, { "Allied", "1 Allied movement movement_barrage", "air_naval" })
  F.phase(set, g, "combat_phase", "Allied")
  t.eq(set:query(g, "barrage_segment"), nil, "a new phase ends the segment")
  F.phase(set, g, "barrage_segment", "Allied")
  t.eq({ set:query(g, "barrage_segment") }, { "Allied", "1 Allied combat artillery_barrage", "artillery" })
  t.raises(function() set:emit(g, "barrage_segment", { side = "Axis" }) end, "the segment is Allied's, not Axis's")
  -- the Reaction Phase is the non-phasing player's: Axis reacts in the Allied player-turn
  F.phase(set, g, "reaction_phase", "Axis")
  t.eq(g:get_global("phasing"), "Allied")
  t.eq({ set:query(g, "phase") }, { "reaction", "Axis", "1 Allied reaction" })
  t.raises(function() set:emit(g, "reaction_phase", {}) end, "needs data.side")
  t.raises(function() set:emit(g, "barrage_segment", { side = "Axis" }) end, "not in a barrage step")
end)

t.test("18.1a-1: ships never need supply; ground units follow their own chapter", function()
  local set, g = F.setup()
  local bb = F.unit(g, { name = "Warspite", type = "BB", side = "Allied", at = "A:0202" })
  local lc = F.unit(g, { name = "LCT", type = "LC", side = "Allied", at = "A:0202", points = 2 })
  local inf = F.unit(g, { name = "46 Div", type = "inf", side = "Allied", at = "A:0602" })
  t.eq({ set:query(g, "needs_supply", bb), set:query(g, "needs_supply", lc), set:query(g, "needs_supply", inf) },
    { false, false, true })
end)

t.test("18.1b-1: there is no limit to the number of ships in a hex", function()
  local set, g = F.setup()
  F.phase(set, g, "movement_phase", "Allied")
  local fleet = {}
  for i = 1, 25 do fleet[i] = F.unit(g, { name = "DD " .. i, type = "DD", side = "Allied", at = "A:0202" }) end
  F.unit(g, { name = "Nelson", type = "BB", side = "Allied", at = "A:0302" })
  F.ok(set, g, "move", { units = fleet, path = { "A:0302" } })
  t.eq(#set:query(g, "units_at", F.hex(g, "A:0302")), 26)
end)

t.test("18.1b-2: ships cannot stack with enemy ships (refused, state unchanged)", function()
  local set, g = F.setup()
  F.phase(set, g, "movement_phase", "Allied")
  local bb = F.unit(g, { name = "Warspite", type = "BB", side = "Allied", at = "A:0202" })
  F.unit(g, { name = "Lupo", type = "DD", side = "Axis", at = "A:0302" })
  F.refused(set, g, "move", { unit = bb, path = { "A:0302" } }, "18.1b: ships cannot stack with enemy ships (Lupo at A:0302)")
  F.refused(set, g, "move", { unit = bb, path = { "A:0302", "A:0402" } }, "18.1b", "nor pass through it")
end)

t.test("18.1b-3: ships enter hexes with enemy non-combat units, never with enemy combat units", function()
  local set, g = F.setup()
  F.phase(set, g, "movement_phase", "Allied")
  local lc = F.unit(g, { name = "LCT", type = "LC", side = "Allied", at = "A:0403", points = 2 })
  F.unit(g, { name = "Pz Gren", type = "inf", side = "Axis", at = "A:0503" })
  F.unit(g, { name = "Axis SP", type = "SP", side = "Axis", at = "A:0505", points = 1 })
  F.unit(g, { name = "Axis trucks", type = "truck", side = "Axis", at = "A:0505" })
  F.refused(set, g, "move", { unit = lc, path = { "A:0503" } }, "18.1b: ships cannot stack with enemy combat units (Pz Gren at A:0503)")
  F.ok(set, g, "move", { unit = lc, path = { "A:0404", "A:0505" } })
  t.eq(F.at(g, lc), "A:0505")
  local sp = F.unit(g, { name = "Flak", type = "inf", side = "Axis", at = "A:0507", values = { combat = false } })
  t.eq(set:query(g, "is_combat_unit", sp), false, "a unit marked non-combat")
end)

t.test("18.1c-2: most ships enter all-sea hexes only", function()
  local set, g = F.setup()
  F.phase(set, g, "movement_phase", "Allied")
  local bb = F.unit(g, { name = "Warspite", type = "BB", side = "Allied", at = "A:0404" })
  F.refused(set, g, "move", { unit = bb, path = { "A:0504" } }, "18.1c: Warspite enters all-sea hexes only; A:0504 is coastal")
  F.refused(set, g, "move", { unit = bb, path = { "A:0403", "A:0603" } }, "not next to")
end)

t.test("18.1c-3: landing craft also enter coastal hexes and either hex of an estuary hexside, not a river's", function()
  local set, g = F.setup()
  F.phase(set, g, "movement_phase", "Allied")
  local lc = F.unit(g, { name = "LCT", type = "LC", side = "Allied", at = "A:0402", points = 2 })
  t.eq(set:query(g, "estuary_hex", F.hex(g, "A:0602")), true)
  t.eq(set:query(g, "estuary_hex", F.hex(g, "A:0603")), true)
  t.eq(set:query(g, "estuary_hex", F.hex(g, "A:0606")), false, "a river hexside is no estuary")
  F.ok(set, g, "move", { unit = lc, path = { "A:0502", "A:0602", "A:0603" } })
  t.eq(F.at(g, lc), "A:0603", "across what looks like an all-land hexside")
  F.refused(set, g, "move", { unit = lc, path = { "A:0703" } },
    "18.1c: landing craft enter all-sea and coastal hexes and hexes bordering an estuary; A:0703 is all-land")
  local lc2 = F.unit(g, { name = "LCT 2", type = "LC", side = "Allied", at = "A:0506", points = 1 })
  F.refused(set, g, "move", { unit = lc2, path = { "A:0606" } }, "A:0606 is all-land")
end)

t.test("18.1d-1: DG markers come off a player's ships in that player's Clean Up Phase; ship values are not affected", function()
  local set, g = F.setup()
  local bb = F.unit(g, { name = "Warspite", type = "BB", side = "Allied", at = "A:0202", markers = { DG = 1 },
                         values = { barrage = 12, protection = 4 } })
  local dd = F.unit(g, { name = "Lupo", type = "DD", side = "Axis", at = "A:0204", markers = { DG = 1 } })
  local inf = F.unit(g, { name = "46 Div", type = "inf", side = "Allied", at = "A:0602", markers = { DG = 1 } })
  t.eq(set:query(g, "printed", bb, "barrage"), 12, "a DG ship keeps its values")
  t.eq(set:query(g, "is_dg", bb), true)
  F.phase(set, g, "clean_up_phase", "Axis")
  t.eq({ g:get_marker(bb, "DG"), g:get_marker(dd, "DG") }, { 1, 0 }, "the Axis Clean Up clears Axis ships only")
  F.phase(set, g, "clean_up_phase", "Allied")
  t.eq(g:get_marker(bb, "DG"), 0)
  t.eq(g:get_marker(inf, "DG"), 1, "ground units' DG is not a naval marker")
end)

t.test("18.1d-2: ships have no modes", function()
  local set, g = F.setup()
  local bb = F.unit(g, { name = "Warspite", type = "BB", side = "Allied", at = "A:0202" })
  local inf = F.unit(g, { name = "46 Div", type = "inf", side = "Allied", at = "A:0602" })
  t.eq({ set:query(g, "has_modes", bb), set:query(g, "has_modes", inf) }, { false, true })
end)

t.test("18.1e-1: ships move in their side's Movement, Exploitation and Reaction Phases, 1 MP a hex, no reserve marker", function()
  local set, g = F.setup()
  local bb = F.unit(g, { name = "Warspite", type = "BB", side = "Allied", at = "A:0202" })
  F.refused(set, g, "move", { unit = bb, path = { "A:0302" } }, "18.1e: no phase has begun")
  for _, ev in ipairs({ "movement_phase", "exploitation_phase", "reaction_phase" }) do
    F.phase(set, g, ev, "Allied")
    F.ok(set, g, "move", { unit = bb, path = { "A:0302", "A:0202" } })
    t.eq(set:query(g, "mp_spent", bb), 2, ev .. ": 1 MP a hex")
  end
  F.phase(set, g, "combat_phase", "Allied")
  F.refused(set, g, "move", { unit = bb, path = { "A:0302" } },
    "18.1e: ships move in their side's Movement, Exploitation and Reaction Phases (now the combat phase of Allied)")
  F.phase(set, g, "movement_phase", "Axis")
  F.refused(set, g, "move", { unit = bb, path = { "A:0302" } }, "(now the movement phase of Axis)")
end)

t.test("18.1f-1: most ships move 20 hexes a phase, slow ships (white stripe) 10", function()
  local set, g = F.setup()
  F.phase(set, g, "movement_phase", "Allied")
  local bb = F.unit(g, { name = "Warspite", type = "BB", side = "Allied", at = "A:0101" })
  local old = F.unit(g, { name = "Ramillies", type = "BB", side = "Allied", at = "A:0104", values = { slow = true } })
  t.eq({ set:query(g, "speed", bb), set:query(g, "speed", old) }, { 20, 10 })
  F.ok(set, g, "move", { unit = bb, path = shuttle(19, "A:0101", "A:0201") })
  F.refused(set, g, "move", { unit = bb, path = { "A:0101", "A:0201" } }, "18.1f: Warspite has 1 MP left this phase; the path costs 2")
  F.ok(set, g, "move", { unit = bb, path = { "A:0101" } })
  F.refused(set, g, "move", { unit = old, path = shuttle(11, "A:0104", "A:0204") }, "18.1f: Ramillies has 10 MP left")
  F.phase(set, g, "exploitation_phase", "Allied")
  F.ok(set, g, "move", { unit = bb, path = shuttle(20, "A:0101", "A:0201") })
end)

t.test("18.1f-2: a damaged single-ship counter is slow; a damaged multi-ship counter keeps its speed; the damaged side says", function()
  local set, g = F.setup()
  local bb = F.unit(g, { name = "Warspite", type = "BB", side = "Allied", at = "A:0101", face = "damaged" })
  local dds = F.unit(g, { name = "8th DF", type = "DD", side = "Allied", at = "A:0101", face = "damaged",
                          values = { multi_ship = true } })
  local odd = F.unit(g, { name = "Abdiel", type = "CL", side = "Allied", at = "A:0101", face = "damaged",
                          values = { multi_ship = true, ["damaged.slow"] = true } })
  t.eq({ set:query(g, "speed", bb), set:query(g, "speed", dds), set:query(g, "speed", odd) }, { 10, 20, 10 })
end)

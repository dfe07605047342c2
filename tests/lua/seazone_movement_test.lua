-- tests/lua/seazone_movement_test.lua — the sea-zone family (scripts/seazone)
-- on the showcase map: the printed values of each unit (sea_units.tbl), the
-- opening section's movement (units.sea-units), naval bases (stand-in),
-- the submarines' and frigates' movement characteristics, and the turn
-- sequence stand-in. Refused orders leave the state hash unchanged.
local F = dofile("tests/lua/seazone_fixture.lua")
local t = F.t

-- a unit's printed block through the family's query
local function block(w, utype)
  local d = w.q("unit_data", utype)
  return { d.cost.Allies, d.cost.Opfor, d.attack, d.defense, d.move }
end

local function empty() return F.world { units = { { "X", "frigate", "Allies", "SZ 1", power = "USA" } } } end

-- ---- the printed values --------------------------------------------------------------

t.test("units.aircraft-carriers: cost 30+/12+, attack 1, defense 4, move 2; 2 hits (capital ship)", function()
  local w = empty()
  t.eq(block(w, "carrier"), { 30, 12, 1, 4, 2 })
  t.eq(w.q("unit_data", "carrier").hits, 2)
end)

t.test("units.amphibious-assault-ships: cost 10+/6+, attack 0, defense 1, move 2", function()
  t.eq(block(empty(), "assault_ship"), { 10, 6, 0, 1, 2 })
end)

t.test("units.cruisers: cost 14+/8+, attack 4, defense 4, move 2; 2 hits (capital ship)", function()
  local w = empty()
  t.eq(block(w, "cruiser"), { 14, 8, 4, 4, 2 })
  t.eq(w.q("unit_data", "cruiser").hits, 2)
end)

t.test("units.destroyers: cost 12+/6+, attack 3, defense 3, move 2", function()
  t.eq(block(empty(), "destroyer"), { 12, 6, 3, 3, 2 })
end)

t.test("units.frigates: cost 10+/6+, attack 2, defense 2, move 2", function()
  t.eq(block(empty(), "frigate"), { 10, 6, 2, 2, 2 })
end)

t.test("units.submarines: cost 18+/9+, attack 2, defense 2, move 2", function()
  t.eq(block(empty(), "submarine"), { 18, 9, 2, 2, 2 })
end)

-- ---- units.sea-units ----------------------------------------------------------------------

t.test("units.sea-units: surface warships are cruisers, carriers, frigates, destroyers, assault ships; submarines are warships only", function()
  local w = F.world { units = {
    { "CV", "carrier", "Allies", "SZ 1" }, { "CA", "cruiser", "Allies", "SZ 1" }, { "FF", "frigate", "Allies", "SZ 1" },
    { "DD", "destroyer", "Allies", "SZ 1" }, { "LHA", "assault_ship", "Allies", "SZ 1" }, { "SS", "submarine", "Allies", "SZ 1" },
    { "F", "fighter", "Allies", "SZ 1" } } }
  for _, n in ipairs { "CV", "CA", "FF", "DD", "LHA" } do
    t.eq(w.q("is_surface_warship", w.u[n]), true, n)
    t.eq(w.q("is_warship", w.u[n]), true, n)
  end
  t.eq(w.q("is_surface_warship", w.u.SS), false)
  t.eq(w.q("is_warship", w.u.SS), true)
  t.eq(w.q("is_warship", w.u.F), false)
end)

t.test("units.sea-units: sea zones and territories are the map's areas (territories are land)", function()
  local w = empty()
  t.eq(w.q("is_sea_zone", w.area("SZ 1")), true)
  t.eq(w.q("is_territory", w.area("Homeland")), true)
  t.eq(w.q("is_sea_zone", w.area("Isle")), false)
  t.eq(w.q("owner_of", w.area("Coastland")), "Opfor")
  t.eq(w.q("owner_of", w.area("Homeland")), "Allies")
end)

t.test("units.sea-units: sea units move up to two sea zones", function()
  local w = F.world { units = { { "DD", "destroyer", "Allies", "SZ 1" } } }
  w.ok("move", { units = { "DD" }, path = { "SZ 2", "SZ 3" } })
  t.eq(w.where("DD"), "SZ 3")
  w.refused("move", { units = { "DD" }, path = { "SZ 4" } }, "units.sea-units", "would move 3 sea zones this turn; it may move 2")
end)

t.test("units.sea-units: a move of 3 sea zones without a naval base is refused, state unchanged", function()
  local w = F.world { units = { { "DD", "destroyer", "Allies", "SZ 1" } } }
  w.refused("move", { units = { "DD" }, path = { "SZ 2", "SZ 3", "SZ 4" } }, "units.sea-units",
    "3 only when departing from a zone an operative friendly naval base serves")
end)

t.test("units.sea-units: three sea zones when departing from a zone an operative friendly naval base serves", function()
  local w = F.world { units = { { "DD", "destroyer", "Allies", "SZ 1" }, { "NB", "naval_base", "Allies", "Homeland" } } }
  t.eq(w.q("allowance", w.u.DD), 3)
  w.ok("move", { units = { "DD" }, path = { "SZ 2", "SZ 3", "SZ 4" } })
  t.eq(w.where("DD"), "SZ 4")
end)

t.test("units.sea-units: the third zone counts from where the ship departed, split moves included", function()
  local w = F.world { units = { { "DD", "destroyer", "Allies", "SZ 1" }, { "NB", "naval_base", "Allies", "Homeland" } } }
  w.ok("move", { units = { "DD" }, path = { "SZ 2" } })
  t.eq(w.q("allowance", w.u.DD), 3, "departed from SZ 1")
  w.ok("move", { units = { "DD" }, path = { "SZ 3", "SZ 4" } })
  w.refused("move", { units = { "DD" }, path = { "SZ 6" } }, "units.sea-units", "would move 4 sea zones")
end)

t.test("units.sea-units: no move into a territory; each zone adjacent to the one before", function()
  local w = F.world { units = { { "DD", "destroyer", "Allies", "SZ 1" } } }
  w.refused("move", { units = { "DD" }, path = { "Homeland" } }, "units.sea-units", "sea units cannot move into territories")
  w.refused("move", { units = { "DD" }, path = { "SZ 3" } }, "units.sea-units", "SZ 3 is not adjacent to SZ 1")
  w.refused("move", { units = { "DD" }, path = { "Atlantis" } }, "units.sea-units", "'Atlantis' is not a sea zone")
end)

t.test("units.sea-units: hostile zones (enemy units other than submarines) stop movement and start combat", function()
  local w = F.world { units = { { "DD", "destroyer", "Allies", "SZ 1" }, { "K", "frigate", "Opfor", "SZ 2" } } }
  w.refused("move", { units = { "DD" }, path = { "SZ 2", "SZ 3" } }, "units.sea-units", "cannot move through hostile SZ 2")
  w.ok("move", { units = { "DD" }, path = { "SZ 2" } })
  t.eq(w.value("DD", "attacking_turn"), w.stamp(), "combat pending")
  w.refused("move", { units = { "DD" }, path = { "SZ 3" } }, "units.sea-units", "it is in combat there")
end)

t.test("units.sea-units: a noncombat move may not end in a hostile zone", function()
  local w = F.world { phase = "noncombat_move", units = { { "DD", "destroyer", "Allies", "SZ 1" }, { "K", "frigate", "Opfor", "SZ 2" } } }
  w.refused("move", { units = { "DD" }, path = { "SZ 2" } }, "units.sea-units", "cannot end a noncombat move in hostile SZ 2")
end)

t.test("units.sea-units: only the power whose turn it is moves, in the move phases, from one zone", function()
  local w = F.world { power = "USA", units = { { "DD", "destroyer", "Allies", "SZ 1", power = "USA" },
    { "HMS", "destroyer", "Allies", "SZ 1", power = "UK" }, { "D2", "destroyer", "Allies", "SZ 5", power = "USA" },
    { "F", "fighter", "Allies", "SZ 1", power = "USA" } } }
  w.refused("move", { units = { "HMS" }, path = { "SZ 2" } }, "units.sea-units", "belongs to UK; it is USA's turn")
  w.refused("move", { units = { "DD", "D2" }, path = { "SZ 2" } }, "units.sea-units", "start in one sea zone")
  w.refused("move", { units = { "F" }, path = { "SZ 2" } }, "units.sea-units", "not a sea unit")
  w.game.state:push_rule("test"); w.game:set_phase("conduct_combat"); w.game.state:pop_rule()
  w.refused("move", { units = { "DD" }, path = { "SZ 2" } }, "units.sea-units", "Combat Move or Noncombat Move phase")
end)

t.test("units.sea-units: a unit that moved in Combat Move does not move in Noncombat Move", function()
  local w = F.world { units = { { "DD", "destroyer", "Allies", "SZ 1" } } }
  w.ok("move", { units = { "DD" }, path = { "SZ 2" } })
  w.ok("end_phase", {})
  w.ok("end_phase", {})
  w.refused("move", { units = { "DD" }, path = { "SZ 1" } }, "units.sea-units", "moved in the combat move this turn")
end)

t.test("units.sea-units: carrying: assault ships carry land units, carriers fighters and helicopters, never strategic bombers", function()
  local w = F.world { units = { { "CV", "carrier", "Allies", "SZ 1" }, { "LHA", "assault_ship", "Allies", "SZ 1" },
    { "F", "fighter", "Allies", "SZ 1" }, { "H", "helicopter", "Allies", "SZ 1" }, { "B", "strategic_bomber", "Allies", "SZ 1" },
    { "I", "infantry", "Allies", "Homeland" } } }
  t.eq(w.q("may_carry", w.u.CV, w.u.F), true)
  t.eq(w.q("may_carry", w.u.CV, w.u.H), true)
  t.eq(w.q("may_carry", w.u.CV, w.u.B), false)
  t.eq(w.q("may_carry", w.u.CV, w.u.I), false)
  t.eq(w.q("may_carry", w.u.LHA, w.u.I), true)
  t.eq(w.q("may_carry", w.u.LHA, w.u.F), false)
end)

-- ---- naval bases (stand-in) ------------------------------------------------------------------

t.test("naval-bases: an inoperative base serves no zone; an enemy base is not friendly", function()
  local w = F.world { units = { { "DD", "destroyer", "Allies", "SZ 1" }, { "NB", "naval_base", "Allies", "Homeland" },
    { "EB", "naval_base", "Opfor", "Coastland" }, { "D4", "destroyer", "Allies", "SZ 4" } } }
  t.eq(w.q("serving_base", w.area("SZ 1"), "Allies"), w.u.NB)
  t.eq(w.q("serving_base", w.area("SZ 4"), "Allies"), nil, "Coastland's base is the Opfor's")
  t.eq(w.q("serving_base", w.area("SZ 4"), "Opfor"), w.u.EB)
  w.refused("set_operative", { base = "NB", operative = false }, nil, "the scenario's own order")
  w.ok("set_operative", { base = "NB", operative = false }, "scenario")
  t.eq(w.q("allowance", w.u.DD), 2)
  w.refused("move", { units = { "DD" }, path = { "SZ 2", "SZ 3", "SZ 4" } }, "units.sea-units", "would move 3")
end)

t.test("naval-bases: a damaged capital ship in a served zone is repaired when its power's turn begins", function()
  local w = F.world { phase = "mobilize", units = { { "CA", "cruiser", "Allies", "SZ 1", face = "damaged" },
    { "CA2", "cruiser", "Allies", "SZ 3", face = "damaged" }, { "NB", "naval_base", "Allies", "Homeland" } } }
  w.ok("end_phase", {})   -- the Allies' only player-turn ends: the next turn's begins
  t.eq({ w.game:get_turn(), w.game:get_phase() }, { 2, "combat_move" })
  t.eq(w.face("CA"), "full")
  t.eq(w.face("CA2"), "damaged", "SZ 3 is not served")
end)

-- ---- the turn sequence (stand-in) --------------------------------------------------------------

t.test("turn-sequence: the family declares the four cited phases, a stand-in with its citation", function()
  local seq = F.set().sequence
  t.ok(seq.cite:find("STAND-IN", 1, true) and seq.cite:find("002_37d6fae90ae806a5.txt", 1, true), seq.cite)
  local names = {}
  for i, ph in ipairs(seq.phases) do
    names[i] = ph.name
    t.eq({ ph.start, ph["end"] }, { "phase_start", "phase_end" }, ph.name)
  end
  t.eq(names, { "combat_move", "conduct_combat", "noncombat_move", "mobilize" })
  t.eq({ seq.player_turn.start, seq.player_turn["end"] }, { "player_turn_start", "player_turn_end" })
end)

t.test("turn-sequence: phases run combat move, conduct combat, noncombat move, mobilize; then the next power's turn", function()
  local w = F.world { units = { { "DD", "destroyer", "Allies", "SZ 1", power = "USA" },
    { "K", "cruiser", "Opfor", "SZ 6", power = "Russia" } } }
  t.eq({ w.game:get_turn(), w.game:get_global("power"), w.game:get_global("phasing"), w.game:get_phase() },
    { 1, "USA", "Allies", "combat_move" })
  local why, kind = w.refused("end_phase", {}, nil, "Allies is to act, not Opfor", "Opfor")
  t.eq(kind, "side", why)
  local seen = {}
  for _ = 1, 4 do
    w.ok("end_phase", {})
    seen[#seen + 1] = w.game:get_phase()
  end
  t.eq(seen, { "conduct_combat", "noncombat_move", "mobilize", "combat_move" })
  t.eq({ w.game:get_turn(), w.game:get_global("power"), w.game:get_global("phasing") }, { 1, "Russia", "Opfor" })
  t.eq(w.stamp(), "1/Russia", "per-turn facts are stamped with the power's turn")
  for _ = 1, 4 do w.ok("end_phase", {}, "Opfor") end
  t.eq({ w.game:get_turn(), w.game:get_global("power"), w.stamp() }, { 2, "USA", "2/USA" })
end)

t.test("turn-sequence: Mobilize New Units places the power's units waiting off the map", function()
  local w = F.world { phase = "noncombat_move", units = { { "DD", "destroyer", "Allies", "SZ 1", power = "USA" },
    { "New", "destroyer", "Allies", nil, power = "USA", values = { mobilize_zone = 2 } },
    { "Theirs", "destroyer", "Opfor", nil, power = "Russia", values = { mobilize_zone = 3 } } } }
  t.eq(w.where("New"), "off")
  w.ok("end_phase", {})
  t.eq(w.game:get_phase(), "mobilize")
  t.eq(w.where("New"), w.board:zones()[2])
  t.eq(w.value("New", "mobilize_zone"), nil)
  t.eq(w.where("Theirs"), "off", "not on the USA's turn")
end)

-- ---- submarines and frigates moving ------------------------------------------------------------

t.test("units.submarines.treat-hostile-sea-zones-as-friendly: a submarine moves through a hostile zone", function()
  local w = F.world { power = "Russia", units = { { "U1", "submarine", "Opfor", "SZ 4", power = "Russia" },
    { "DD", "destroyer", "Allies", "SZ 3", power = "USA" } } }
  w.ok("move", { units = { "U1" }, path = { "SZ 3", "SZ 2" } })
  t.eq(w.where("U1"), "SZ 2")
  t.eq(w.value("U1", "attacking_turn"), nil, "no combat: it ended in a friendly zone")
end)

t.test("units.submarines.treat-hostile-sea-zones-as-friendly: ending a combat move in a hostile zone, combat occurs", function()
  local w = F.world { power = "Russia", units = { { "U1", "submarine", "Opfor", "SZ 4", power = "Russia" },
    { "DD", "destroyer", "Allies", "SZ 2", power = "USA" } } }
  w.ok("move", { units = { "U1" }, path = { "SZ 3", "SZ 2" } })
  t.eq(w.value("U1", "attacking_turn"), w.stamp())
end)

t.test("units.submarines.treat-hostile-sea-zones-as-friendly: in noncombat too, and it may end there", function()
  local w = F.world { phase = "noncombat_move", power = "Russia", units = { { "U1", "submarine", "Opfor", "SZ 4", power = "Russia" },
    { "DD", "destroyer", "Allies", "SZ 3", power = "USA" } } }
  w.ok("move", { units = { "U1" }, path = { "SZ 3" } })
  t.eq(w.where("U1"), "SZ 3")
end)

t.test("units.frigates.anti-sub-vessel: a submarine entering a frigate's zone must end its movement there", function()
  local w = F.world { power = "Russia", units = { { "U1", "submarine", "Opfor", "SZ 4", power = "Russia" },
    { "FF", "frigate", "Allies", "SZ 3", power = "USA" } } }
  w.refused("move", { units = { "U1" }, path = { "SZ 3", "SZ 2" } }, "units.frigates.anti-sub-vessel",
    "must end its movement in SZ 3, where enemy FF (frigate) is")
  w.ok("move", { units = { "U1" }, path = { "SZ 3" } })
  t.eq(w.value("U1", "attacking_turn"), w.stamp(), "ending its combat move with an enemy frigate: combat")
end)

t.test("units.frigates.anti-sub-vessel: in noncombat movement too", function()
  local w = F.world { phase = "noncombat_move", power = "Russia", units = { { "U1", "submarine", "Opfor", "SZ 4", power = "Russia" },
    { "FF", "frigate", "Allies", "SZ 3", power = "USA" } } }
  w.refused("move", { units = { "U1" }, path = { "SZ 3", "SZ 2" } }, "units.frigates.anti-sub-vessel", "must end its movement in SZ 3")
end)

t.test("units.frigates.anti-sub-vessel: a friendly frigate does not stop a submarine", function()
  local w = F.world { power = "Russia", units = { { "U1", "submarine", "Opfor", "SZ 4", power = "Russia" },
    { "FF", "frigate", "Opfor", "SZ 3", power = "China" } } }
  w.ok("move", { units = { "U1" }, path = { "SZ 3", "SZ 2" } })
end)

t.test("units.submarines.does-not-block-enemy-movement: a zone holding only enemy submarines does not stop movement", function()
  local w = F.world { units = { { "DD", "destroyer", "Allies", "SZ 1" }, { "U1", "submarine", "Opfor", "SZ 2" } } }
  t.eq(w.q("is_hostile", w.area("SZ 2"), "Allies"), false)
  w.ok("move", { units = { "DD" }, path = { "SZ 2", "SZ 3" } })
  t.eq(w.where("DD"), "SZ 3")
end)

t.test("units.submarines.does-not-block-enemy-movement: ending a combat move there, the player says whether to attack", function()
  local w = F.world { units = { { "DD", "destroyer", "Allies", "SZ 1" }, { "D2", "destroyer", "Allies", "SZ 1" },
    { "U1", "submarine", "Opfor", "SZ 2" } } }
  w.refused("move", { units = { "DD" }, path = { "SZ 2" } }, "units.submarines.does-not-block-enemy-movement",
    "holds only enemy submarines")
  w.ok("move", { units = { "DD" }, path = { "SZ 2" }, attack = false })
  t.eq(w.value("DD", "attacking_turn"), nil)
  w.ok("move", { units = { "D2" }, path = { "SZ 2" }, attack = true })
  t.eq(w.value("D2", "attacking_turn"), w.stamp())
end)

t.test("units.submarines.does-not-block-enemy-movement: noncombat moves may end there", function()
  local w = F.world { phase = "noncombat_move", units = { { "DD", "destroyer", "Allies", "SZ 1" }, { "U1", "submarine", "Opfor", "SZ 2" } } }
  w.ok("move", { units = { "DD" }, path = { "SZ 2" } })
  t.eq(w.where("DD"), "SZ 2")
end)

-- tests/lua/seazone_assault_test.lua — Amphibious Assault Ships (scripts/seazone/
-- assault_ships.lua), offshore bombardment by cruisers and destroyers
-- (cruisers.lua, destroyers.lua, the Amphibious Assaults stand-in) and the
-- missiles sitrep (missile_standin.lua). On the showcase map: Homeland
-- (Allies) touches SZ 1 and SZ 5; Isle (Opfor) SZ 2, 3, 5, 6; Coastland
-- (Opfor) SZ 4.
local F = dofile("tests/lua/seazone_fixture.lua")
local t = F.t

local function fleet(phase, extra, opts)
  local units = {
    { "Wasp", "assault_ship", "Allies", "SZ 1", power = "USA" },
    { "Inf1", "infantry", "Allies", "Homeland", power = "USA" }, { "Inf2", "infantry", "Allies", "Homeland", power = "USA" },
    { "Inf3", "infantry", "Allies", "Homeland", power = "USA" }, { "Tank", "tank", "Allies", "Homeland", power = "USA" },
    { "Arty", "artillery", "Allies", "Homeland", power = "USA" }, { "NB", "naval_base", "Allies", "Homeland", power = "USA" },
    { "IC", "industrial_complex", "Allies", "Homeland", power = "USA" }, { "F", "fighter", "Allies", "Homeland", power = "USA" },
    { "Tommy", "infantry", "Allies", "Homeland", power = "UK" },
  }
  for _, u in ipairs(extra or {}) do units[#units + 1] = u end
  opts = opts or {}
  return F.world { power = opts.power or "USA", phase = phase or "combat_move", units = units, globals = opts.globals }
end

-- ---- units.amphibious-assault-ships.combat-value ------------------------------------------

t.test("units.amphibious-assault-ships.combat-value: an attacking assault ship never fires; a defending one fires at 1", function()
  local w = F.world { power = "USA", units = {
    { "Wasp", "assault_ship", "Allies", "SZ 1", power = "USA" }, { "DD", "destroyer", "Allies", "SZ 1", power = "USA" },
    { "Tarawa", "assault_ship", "Opfor", "SZ 2", power = "Russia" } } }
  w.ok("move", { units = { "Wasp", "DD" }, path = { "SZ 2" } })
  w.ok("end_phase", {})
  w.force(6, 1)   -- step 3: only DD rolls (6); step 4: Tarawa rolls (1: a hit at defense 1)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  local rolls = {}
  for _, l in ipairs(w.game:journal_lines()) do
    local why = l:match('"ev":"roll".-"reason":"([^"]+)"')
    if why then rolls[#rolls + 1] = why end
  end
  t.eq(rolls, { "DD (destroyer) fires (hits on 3 or less)", "Tarawa (assault_ship) fires (hits on 1 or less)" })
  t.eq(w.where("Wasp"), "dead", "the defending ship's hit took the cheapest attacker")
end)

-- ---- units.amphibious-assault-ships.carry-land-units-as-cargo --------------------------------

t.test("units.amphibious-assault-ships.carry-land-units-as-cargo: any one land unit plus one infantry", function()
  local w = fleet()
  w.ok("embark", { unit = "Tank", ship = "Wasp" })
  w.refused("embark", { unit = "Arty", ship = "Wasp" }, "units.amphibious-assault-ships.carry-land-units-as-cargo",
    "not two non-infantry units")
  w.ok("embark", { unit = "Inf1", ship = "Wasp" })
  w.refused("embark", { unit = "Inf2", ship = "Wasp" }, "units.amphibious-assault-ships.carry-land-units-as-cargo", "is full")
  t.eq({ w.where("Tank"), w.where("Inf1") }, { "aboard Wasp", "aboard Wasp" })
end)

t.test("units.amphibious-assault-ships.carry-land-units-as-cargo: two infantry is a full load", function()
  local w = fleet()
  w.ok("embark", { unit = "Inf1", ship = "Wasp" })
  w.ok("embark", { unit = "Inf2", ship = "Wasp" })
  w.refused("embark", { unit = "Inf3", ship = "Wasp" }, "units.amphibious-assault-ships.carry-land-units-as-cargo", "is full")
end)

t.test("units.amphibious-assault-ships.carry-land-units-as-cargo: never an industrial complex, airbase or naval base; only land units", function()
  local w = fleet()
  w.refused("embark", { unit = "IC", ship = "Wasp" }, "units.amphibious-assault-ships.carry-land-units-as-cargo",
    "cannot carry an industrial complex, an airbase or a naval base")
  w.refused("embark", { unit = "NB", ship = "Wasp" }, "units.amphibious-assault-ships.carry-land-units-as-cargo", "naval base")
  w.refused("embark", { unit = "F", ship = "Wasp" }, "units.amphibious-assault-ships.carry-land-units-as-cargo", "only land units")
end)

t.test("units.amphibious-assault-ships.carry-land-units-as-cargo: loading is a land unit's entire move", function()
  local w = fleet()
  w.game.state:push_rule("t"); w.game:set_value(w.u.Inf1, "moved_turn", w.stamp()); w.game.state:pop_rule()
  w.refused("embark", { unit = "Inf1", ship = "Wasp" }, "units.amphibious-assault-ships.carry-land-units-as-cargo",
    "loading is a land unit's entire move")
  w.ok("embark", { unit = "Inf2", ship = "Wasp" })
  t.eq(w.value("Inf2", "moved_turn"), w.stamp())
end)

t.test("units.amphibious-assault-ships.carry-land-units-as-cargo: the land unit must be beside the ship's sea zone", function()
  local w = fleet("combat_move", { { "Far", "infantry", "Allies", "Isle", power = "USA" } })
  w.refused("embark", { unit = "Far", ship = "Wasp" }, "units.amphibious-assault-ships.carry-land-units-as-cargo", "not in a territory next to SZ 1")
end)

t.test("units.amphibious-assault-ships.carry-land-units-as-cargo: friendly powers' units load on their controller's turn", function()
  local w = fleet()
  w.refused("embark", { unit = "Tommy", ship = "Wasp" }, "units.amphibious-assault-ships.carry-land-units-as-cargo",
    "it loads on its controller's turn")
  w.game.state:push_rule("t"); w.game:set_global("power", "UK"); w.game.state:pop_rule()
  w.ok("embark", { unit = "Tommy", ship = "Wasp" })
end)

t.test("units.amphibious-assault-ships.carry-land-units-as-cargo: ... are carried on your turn and offload on a later turn of their controller", function()
  local w = fleet("noncombat_move", nil, { power = "UK" })
  w.ok("embark", { unit = "Tommy", ship = "Wasp" })
  w.refused("offload", { ship = "Wasp", to = "Homeland" }, "units.amphibious-assault-ships.carry-land-units-as-cargo",
    "offloads on a later turn of its controller")
  w.to_turn_of("USA")
  w.ok("move", { units = { "Wasp" }, path = { "SZ 5" } })
  t.eq(w.where("Tommy"), "aboard Wasp", "carried on the ship owner's turn")
  w.ok("end_phase", {}); w.ok("end_phase", {})
  w.refused("offload", { ship = "Wasp", to = "Homeland", units = { "Tommy" } },
    "units.amphibious-assault-ships.carry-land-units-as-cargo", "it offloads on its controller's turn")
  w.to_turn_of("UK")
  w.ok("end_phase", {}); w.ok("end_phase", {})
  w.ok("offload", { ship = "Wasp", to = "Homeland" })
  t.eq(w.where("Tommy"), "Homeland")
end)

t.test("units.amphibious-assault-ships.carry-land-units-as-cargo: cargo does not fight and is destroyed with its ship", function()
  local w = F.world { power = "Russia", units = {
    { "Kirov", "cruiser", "Opfor", "SZ 2", power = "Russia" },
    { "Wasp", "assault_ship", "Allies", "SZ 1", power = "USA" },
    { "Inf1", "infantry", "Allies", nil, power = "USA", aboard = "Wasp" } } }
  w.ok("move", { units = { "Kirov" }, path = { "SZ 1" } })
  w.ok("end_phase", {})
  w.force(1, 6)
  w.ok("battle", { zone = "SZ 1", attacker = "cheapest", defender = "cheapest" })
  t.eq({ w.where("Wasp"), w.where("Inf1") }, { "dead", "dead" })
  t.eq(w.value("Inf1", "battle_role"), nil, "never on the battle strip")
end)

-- ---- units.amphibious-assault-ships.loading-and-offloading ------------------------------------

t.test("units.amphibious-assault-ships.loading-and-offloading: pick up, move one zone, pick up, move one more, offload", function()
  local w = fleet("noncombat_move", { { "Marine", "infantry", "Allies", "Homeland", power = "USA" } })
  w.ok("embark", { unit = "Tank", ship = "Wasp" })
  w.ok("move", { units = { "Wasp" }, path = { "SZ 5" } })
  w.ok("embark", { unit = "Marine", ship = "Wasp" })
  w.ok("move", { units = { "Wasp" }, path = { "SZ 1" } })
  w.ok("offload", { ship = "Wasp", to = "Homeland" })
  t.eq({ w.where("Tank"), w.where("Marine") }, { "Homeland", "Homeland" })
end)

t.test("units.amphibious-assault-ships.loading-and-offloading: after offloading it cannot move, load or offload again (bridging)", function()
  local w = fleet("noncombat_move")
  w.ok("embark", { unit = "Inf1", ship = "Wasp" })
  w.ok("offload", { ship = "Wasp", to = "Homeland" })
  w.refused("move", { units = { "Wasp" }, path = { "SZ 2" } }, "units.amphibious-assault-ships.loading-and-offloading", "cannot move again")
  w.refused("embark", { unit = "Inf2", ship = "Wasp" }, "units.amphibious-assault-ships.loading-and-offloading",
    "cannot move, load or offload again")
end)

t.test("units.amphibious-assault-ships.loading-and-offloading: a second offload in one turn is refused, state unchanged", function()
  local w = fleet("noncombat_move")
  w.ok("embark", { unit = "Inf1", ship = "Wasp" })
  w.ok("embark", { unit = "Inf2", ship = "Wasp" })
  w.ok("offload", { ship = "Wasp", to = "Homeland", units = { "Inf1" } })
  w.refused("offload", { ship = "Wasp", to = "Homeland", units = { "Inf2" } }, "units.amphibious-assault-ships.loading-and-offloading",
    "already offloaded into Homeland this turn")
end)

t.test("units.amphibious-assault-ships.loading-and-offloading: an offload in a hostile sea zone is refused, state unchanged", function()
  local w = fleet("noncombat_move", { { "Kirov", "cruiser", "Opfor", "SZ 1", power = "Russia" } })
  t.eq(w.q("is_hostile", w.area("SZ 1"), "Allies"), true)
  w.game.state:push_rule("t"); w.game:move(w.u.Inf1, "unit", w.u.Wasp); w.game.state:pop_rule()
  w.refused("offload", { ship = "Wasp", to = "Homeland" }, "units.amphibious-assault-ships.loading-and-offloading",
    "is in a hostile sea zone (SZ 1): it cannot offload there")
  w.refused("embark", { unit = "Inf2", ship = "Wasp" }, "units.amphibious-assault-ships.loading-and-offloading",
    "in a hostile sea zone: it cannot load")
end)

t.test("units.amphibious-assault-ships.loading-and-offloading: submarines are ignored: a zone of enemy submarines is not hostile", function()
  local w = fleet("noncombat_move", { { "U1", "submarine", "Opfor", "SZ 1", power = "Russia" } })
  w.ok("embark", { unit = "Inf1", ship = "Wasp" })
  w.ok("offload", { ship = "Wasp", to = "Homeland" })
end)

t.test("units.amphibious-assault-ships.loading-and-offloading: never onto another amphibious assault ship (a sea zone)", function()
  local w = fleet("noncombat_move", { { "Tarawa", "assault_ship", "Allies", "SZ 5", power = "USA" } })
  w.ok("embark", { unit = "Inf1", ship = "Wasp" })
  w.refused("offload", { ship = "Wasp", to = "SZ 5" }, "units.amphibious-assault-ships.loading-and-offloading",
    "never onto another amphibious assault ship")
end)

t.test("units.amphibious-assault-ships.loading-and-offloading: a ship that retreated cannot offload that turn", function()
  local w = fleet("noncombat_move")
  w.game.state:push_rule("t")
  w.game:move(w.u.Inf1, "unit", w.u.Wasp)
  w.game:set_value(w.u.Wasp, "retreated_turn", w.stamp())
  w.game.state:pop_rule()
  w.refused("offload", { ship = "Wasp", to = "Homeland" }, "units.amphibious-assault-ships.loading-and-offloading", "retreated this turn")
end)

t.test("units.amphibious-assault-ships.loading-and-offloading: cargo stays at sea only if loaded earlier or in this Noncombat Move", function()
  local w = fleet("combat_move")
  w.ok("embark", { unit = "Inf1", ship = "Wasp" })
  w.ok("end_phase", {})
  w.ok("end_phase", {})
  w.refused("end_phase", {}, "units.amphibious-assault-ships.loading-and-offloading", "cannot remain at sea with it")
  w.ok("offload", { ship = "Wasp", to = "Homeland" })
  w.ok("end_phase", {})
end)

t.test("units.amphibious-assault-ships.amphibious-assaults: cargo loaded in Combat Move is not left aboard by a partial offload", function()
  local w = fleet("combat_move")
  w.ok("embark", { unit = "Inf1", ship = "Wasp" })
  w.ok("embark", { unit = "Tank", ship = "Wasp" })
  w.ok("end_phase", {})
  w.ok("end_phase", {})
  w.refused("offload", { ship = "Wasp", to = "Homeland", units = { "Inf1" } },
    "units.amphibious-assault-ships.amphibious-assaults", "Tank (tank) was loaded in Combat Move and cannot remain at sea")
  w.ok("offload", { ship = "Wasp", to = "Homeland" })
  t.eq({ w.where("Inf1"), w.where("Tank") }, { "Homeland", "Homeland" })
  w.ok("end_phase", {})
end)

t.test("units.amphibious-assault-ships.amphibious-assaults: a ship with Combat Move cargo keeps an assault or a friendly shore within reach", function()
  -- SZ 2 touches only Isle (hostile): Wasp could still assault it, so it may go there
  local w = fleet("combat_move")
  w.ok("embark", { unit = "Inf1", ship = "Wasp" })
  w.ok("move", { units = { "Wasp" }, path = { "SZ 2" } })
  w.ok("end_phase", {})
  w.refused("end_phase", {}, "units.amphibious-assault-ships.amphibious-assaults", "in the amphibious assault")
  -- SZ 2 then SZ 3 (two zones, no base serves SZ 2): no zone left to reach Homeland, and the
  -- Isle assault would have to be made from SZ 3, which is possible; but SZ 1 > SZ 2 > SZ 3 > SZ 4 ends
  -- next to Coastland only: allowed. A ship that moved away from every shore is refused.
  local w2 = fleet("combat_move")
  w2.ok("embark", { unit = "Inf1", ship = "Wasp" })
  w2.ok("move", { units = { "Wasp" }, path = { "SZ 2", "SZ 3", "SZ 4" } })
  t.eq(w2.where("Wasp"), "SZ 4", "next to Coastland: an assault")
  local w3 = fleet("noncombat_move", { { "Old", "infantry", "Allies", nil, power = "USA", aboard = "Wasp",
    values = { loaded_turn = w.stamp(), loaded_phase = "combat" } } })
  w3.refused("move", { units = { "Wasp" }, path = { "SZ 2" } }, "units.amphibious-assault-ships.amphibious-assaults",
    "could neither assault a hostile territory nor offload into a friendly one")
  w3.ok("move", { units = { "Wasp" }, path = { "SZ 5" } })
end)

t.test("units.amphibious-assault-ships.loading-and-offloading: loaded in Noncombat Move, or on an earlier turn, it stays aboard", function()
  local w = fleet("noncombat_move", { { "Old", "infantry", "Allies", nil, power = "USA", aboard = "Wasp",
    values = { loaded_turn = 0, loaded_phase = "combat" } } })
  w.ok("embark", { unit = "Inf1", ship = "Wasp" })
  w.ok("end_phase", {})
  t.eq({ w.where("Inf1"), w.where("Old") }, { "aboard Wasp", "aboard Wasp" })
end)

-- ---- units.amphibious-assault-ships.amphibious-assaults ------------------------------------

-- an assault on Coastland (Opfor) from SZ 4: Wasp carries what it loaded on an earlier turn
local function assault(phase, extra)
  local units = {
    { "Wasp", "assault_ship", "Allies", "SZ 4", power = "USA" },
    { "Inf1", "infantry", "Allies", nil, power = "USA", aboard = "Wasp", values = { loaded_turn = 0, loaded_phase = "noncombat" } },
    { "Tank", "tank", "Allies", nil, power = "USA", aboard = "Wasp", values = { loaded_turn = 0, loaded_phase = "noncombat" } },
    { "Belknap", "cruiser", "Allies", "SZ 4", power = "USA" }, { "Spruance", "destroyer", "Allies", "SZ 4", power = "USA" },
    { "Def1", "infantry", "Opfor", "Coastland", power = "Russia" }, { "Def2", "infantry", "Opfor", "Coastland", power = "Russia" },
    { "DefT", "tank", "Opfor", "Coastland", power = "Russia" },
  }
  for _, u in ipairs(extra or {}) do units[#units + 1] = u end
  return F.world { power = "USA", phase = phase or "conduct_combat", units = units }
end

t.test("units.amphibious-assault-ships.amphibious-assaults: the only time it offloads into a hostile territory is an assault in Conduct Combat", function()
  local w = assault("noncombat_move")
  w.refused("offload", { ship = "Wasp", to = "Coastland" }, "units.amphibious-assault-ships.amphibious-assaults",
    "offloads into a hostile territory only in an amphibious assault")
  local w2 = assault("conduct_combat")
  w2.ok("offload", { ship = "Wasp", to = "Coastland" })
  t.eq({ w2.where("Inf1"), w2.where("Tank") }, { "Coastland", "Coastland" })
  t.eq(w2.value("Tank", "assault_turn"), w2.stamp())
end)

t.test("units.amphibious-assault-ships.amphibious-assaults: it offloads everything loaded in Combat Move, or retreats", function()
  local w = assault("conduct_combat", { { "Fresh", "infantry", "Allies", nil, power = "USA", aboard = "Spruance" } })
  w.game.state:push_rule("t")
  w.game:move(w.u.Tank, "zone", w.area("Homeland"))
  w.game:move(w.u.Fresh, "unit", w.u.Wasp)
  w.game:set_value(w.u.Fresh, "loaded_turn", w.stamp())
  w.game:set_value(w.u.Fresh, "loaded_phase", "combat")
  w.game.state:pop_rule()
  w.refused("offload", { ship = "Wasp", to = "Coastland", units = { "Inf1" } }, "units.amphibious-assault-ships.amphibious-assaults",
    "Fresh (infantry) was loaded in Combat Move")
  w.ok("offload", { ship = "Wasp", to = "Coastland", units = { "Fresh" } })
  t.eq(w.where("Inf1"), "aboard Wasp", "units aboard since the start of the turn may stay")
end)

t.test("units.amphibious-assault-ships.amphibious-assaults: a ship that fought the sea combat must offload its Combat Move cargo or have retreated", function()
  local w = assault("conduct_combat")
  w.game.state:push_rule("t")
  w.game:set_value(w.u.Inf1, "loaded_turn", w.stamp())
  w.game:set_value(w.u.Inf1, "loaded_phase", "combat")
  w.game:set_value(w.u.Wasp, "sea_combat_turn", w.stamp())
  w.game.state:pop_rule()
  w.refused("end_phase", {}, "units.amphibious-assault-ships.amphibious-assaults", "must offload Inf1 (infantry)")
  w.game.state:push_rule("t"); w.game:set_value(w.u.Wasp, "retreated_turn", w.stamp()); w.game.state:pop_rule()
  w.ok("end_phase", {})
end)

t.test("units.amphibious-assault-ships.amphibious-assaults: only the ship's power's units aboard since the start of the turn join", function()
  local w = assault("conduct_combat", { { "Tommy", "infantry", "Allies", nil, power = "UK", aboard = "Wasp" } })
  w.game.state:push_rule("t"); w.game:move(w.u.Tank, "zone", w.area("Homeland")); w.game.state:pop_rule()
  w.refused("offload", { ship = "Wasp", to = "Coastland", units = { "Inf1", "Tommy" } }, nil, "Tommy (infantry) belongs to UK")
end)

t.test("units.amphibious-assault-ships.amphibious-assaults: the sea combat comes first: no offload from a hostile zone", function()
  local w = assault("conduct_combat", { { "Kirov", "cruiser", "Opfor", "SZ 4", power = "Russia" } })
  w.refused("offload", { ship = "Wasp", to = "Coastland" }, "units.amphibious-assault-ships.loading-and-offloading", "hostile sea zone")
end)

-- ---- offshore bombardment -------------------------------------------------------------------

t.test("units.cruisers.offshore-bombardment: a cruiser hits on 4 or less; casualties go behind the casualty strip", function()
  local w = assault()
  w.ok("offload", { ship = "Wasp", to = "Coastland" })
  w.force(4)
  w.ok("bombard", { ships = { "Belknap" }, territory = "Coastland", defender = "cheapest" })
  t.eq(w.value("Def1", "casualty"), true, "the cheapest defender, behind the strip")
  t.eq(w.where("Def1"), "Coastland", "it still fights the land combat")
  w.ok("land_combat", { territory = "Coastland" })
  t.eq(w.where("Def1"), "dead", "removed after the land combat")
end)

t.test("units.cruisers.offshore-bombardment: a roll of 5 misses", function()
  local w = assault()
  w.ok("offload", { ship = "Wasp", to = "Coastland" })
  w.force(5)
  w.ok("bombard", { ships = { "Belknap" }, territory = "Coastland", defender = "cheapest" })
  for _, n in ipairs { "Def1", "Def2", "DefT" } do t.eq(w.value(n, "casualty"), nil, n) end
end)

t.test("units.destroyers.offshore-bombardment: a destroyer hits on 3 or less (4 misses)", function()
  local w = assault()
  w.ok("offload", { ship = "Wasp", to = "Coastland" })
  w.force(4, 3)   -- Belknap (4: a cruiser's hit), Spruance (3: a destroyer's hit)
  w.ok("bombard", { ships = { "Belknap", "Spruance" }, territory = "Coastland" })
  t.eq(w.game:get_global("choice_side"), "Opfor")
  w.ok("casualties", { units = { "Def1", "Def2" } })
  w = assault()
  w.ok("offload", { ship = "Wasp", to = "Coastland" })
  w.force(4, 5)   -- Spruance 4: a miss for a destroyer; Belknap 5: a miss
  w.ok("bombard", { ships = { "Spruance", "Belknap" }, territory = "Coastland" })
  t.eq(w.game:get_global("choice_side"), nil, "no hit")
  w = assault()
  w.ok("offload", { ship = "Wasp", to = "Coastland" })
  w.force(3, 6)
  w.ok("bombard", { ships = { "Spruance", "Belknap" }, territory = "Coastland" })
  t.eq(w.game:get_global("choice_side"), "Opfor", "without a policy, the defender chooses")
  w.refused("casualties", { units = { "Def1", "Def2" } }, "general-combat", "name 1 casualty")
  w.ok("casualties", { units = { "DefT" } })
  t.eq(w.value("DefT", "casualty"), true)
end)

t.test("units.cruisers.offshore-bombardment: only from the sea zone of the offloading ships", function()
  local w = assault("conduct_combat", { { "Far", "cruiser", "Allies", "SZ 3", power = "USA" } })
  w.ok("offload", { ship = "Wasp", to = "Coastland" })
  w.refused("bombard", { ships = { "Far" }, territory = "Coastland" }, "amphibious-assaults.step-2",
    "not in the sea zone of the assault ships that offloaded")
end)

t.test("units.cruisers.offshore-bombardment: not after a sea combat before the assault", function()
  local w = assault()
  w.game.state:push_rule("t"); w.game:set_value(w.u.Belknap, "sea_combat_turn", w.stamp()); w.game.state:pop_rule()
  w.ok("offload", { ship = "Wasp", to = "Coastland" })
  w.refused("bombard", { ships = { "Belknap" }, territory = "Coastland" }, "amphibious-assaults.step-2", "was in a sea combat")
end)

t.test("units.destroyers.offshore-bombardment: once per turn, and one ship per land unit offloaded", function()
  local w = assault("conduct_combat", { { "Arleigh", "destroyer", "Allies", "SZ 4", power = "USA" } })
  w.ok("offload", { ship = "Wasp", to = "Coastland" })
  w.refused("bombard", { ships = { "Spruance", "Arleigh", "Belknap" }, territory = "Coastland" }, "amphibious-assaults.step-2",
    "one per land unit offloaded there (2)")
  w.force(6, 6)
  w.ok("bombard", { ships = { "Spruance", "Arleigh" }, territory = "Coastland" })
  w.refused("bombard", { ships = { "Spruance" }, territory = "Coastland" }, "amphibious-assaults.step-2", "already bombarded this turn")
end)

t.test("units.destroyers.offshore-bombardment: the one-ship-per-land-unit limit is a total for the assault, not per order", function()
  local w = assault("conduct_combat", { { "Arleigh", "destroyer", "Allies", "SZ 4", power = "USA" } })
  w.ok("offload", { ship = "Wasp", to = "Coastland" })
  w.force(6, 6)
  w.ok("bombard", { ships = { "Spruance", "Arleigh" }, territory = "Coastland" })
  w.refused("bombard", { ships = { "Belknap" }, territory = "Coastland" }, "amphibious-assaults.step-2",
    "2 ships may bombard: one per land unit offloaded there (2); 2 have bombarded")
  t.eq(w.value("Belknap", "bombarded_turn"), nil, "the third ship did not bombard")
end)

t.test("units.cruisers.offshore-bombardment: one order, then a second within the total", function()
  local w = assault("conduct_combat", { { "Arleigh", "destroyer", "Allies", "SZ 4", power = "USA" } })
  w.ok("offload", { ship = "Wasp", to = "Coastland" })
  w.force(6)
  w.ok("bombard", { ships = { "Belknap" }, territory = "Coastland" })
  w.force(6)
  w.ok("bombard", { ships = { "Spruance" }, territory = "Coastland" })
  w.refused("bombard", { ships = { "Arleigh" }, territory = "Coastland" }, "amphibious-assaults.step-2",
    "one per land unit offloaded there (2)")
end)

t.test("amphibious-assaults.step-2: bombardment only where an assault is being made, before its land combat", function()
  local w = assault()
  w.refused("bombard", { ships = { "Belknap" }, territory = "Coastland" }, "amphibious-assaults.step-2", "no amphibious assault")
  w.ok("offload", { ship = "Wasp", to = "Coastland" })
  w.ok("land_combat", { territory = "Coastland" })
  w.refused("bombard", { ships = { "Belknap" }, territory = "Coastland" }, "amphibious-assaults.step-2", "no amphibious assault")
end)

t.test("amphibious-assaults.land-combat: the land combat is another chapter's: the event is emitted for its rules", function()
  local w = assault()
  w.ok("offload", { ship = "Wasp", to = "Coastland" })
  w.ok("land_combat", { territory = "Coastland" })
  local seen = false
  for _, l in ipairs(w.game:journal_lines()) do if l:find('"land_combat"', 1, true) then seen = true end end
  t.ok(seen, "land_combat in the journal")
end)

-- ---- missiles (sitrep) ------------------------------------------------------------------------

local function missiles(on)
  return F.world { power = "USA", globals = { sitrep_missiles = on }, units = {
    { "Belknap", "cruiser", "Allies", "SZ 1", power = "USA" }, { "Spruance", "destroyer", "Allies", "SZ 1", power = "USA" },
    { "Seawolf", "submarine", "Allies", "SZ 1", power = "USA" }, { "Perry", "frigate", "Allies", "SZ 1", power = "USA" },
    { "M1", "missile", "Allies", "Homeland", power = "USA" }, { "M2", "missile", "Allies", "Homeland", power = "USA" },
    { "M3", "missile", "Allies", "Homeland", power = "USA" }, { "M4", "missile", "Allies", "Homeland", power = "USA" } } }
end

t.test("units.cruisers.missiles: a cruiser transports one cruise missile when the sitrep is in play", function()
  local w = missiles(false)
  w.refused("embark_missile", { missile = "M1", ship = "Belknap" }, "missile", "the missiles sitrep is not in play")
  w = missiles(true)
  w.ok("embark_missile", { missile = "M1", ship = "Belknap" })
  w.refused("embark_missile", { missile = "M2", ship = "Belknap" }, "missile", "already carries its missile")
  w.refused("embark_missile", { missile = "M2", ship = "Perry" }, "missile", "not for this unit")
end)

t.test("units.destroyers.missiles: a destroyer transports and launches one cruise missile", function()
  local w = missiles(true)
  w.ok("embark_missile", { missile = "M1", ship = "Spruance" })
  w.ok("launch_missile", { ship = "Spruance", target = "Isle" })
  t.eq(w.where("M1"), "dead", "spent")
  w.refused("launch_missile", { ship = "Spruance", target = "Isle" }, "missile", "carries no missile")
end)

t.test("units.submarines.missiles: a submarine transports one cruise missile", function()
  local w = missiles(true)
  w.ok("embark_missile", { missile = "M1", ship = "Seawolf" })
  t.eq(w.where("M1"), "aboard Seawolf")
end)

-- ---- marine transport by helicopters (sitrep) -----------------------------------------------------

local function helo(on)
  return F.world { power = "USA", phase = "noncombat_move", globals = { sitrep_marine_transport = on }, units = {
    { "Wasp", "assault_ship", "Allies", "SZ 1", power = "USA" },
    { "Seal", "special_force", "Allies", nil, power = "USA", aboard = "Wasp" },
    { "Tank", "tank", "Allies", nil, power = "USA", aboard = "Wasp" },
    { "Huey", "helicopter", "Allies", "SZ 1", power = "USA" },
    { "Tarawa", "assault_ship", "Allies", "SZ 1", power = "USA" } } }
end

t.test("units.amphibious-assault-ships.marine-transport-by-helicopters: a helicopter lifts one special force off an assault ship into a territory", function()
  local w = helo(true)
  w.ok("heli_embark", { unit = "Seal", helicopter = "Huey" })
  w.ok("fly", { unit = "Huey", path = { "Homeland" } })
  t.eq(w.where("Seal"), "aboard Huey")
  w.ok("heli_offload", { unit = "Seal" })
  t.eq(w.where("Seal"), "Homeland")
end)

t.test("units.amphibious-assault-ships.marine-transport-by-helicopters: one special force, LAV or artillery unit; not in play unless switched on", function()
  local w = helo(true)
  w.refused("heli_embark", { unit = "Tank", helicopter = "Huey" }, "units.amphibious-assault-ships.marine-transport-by-helicopters",
    "one special force, LAV or artillery unit")
  w.ok("heli_embark", { unit = "Seal", helicopter = "Huey" })
  w.refused("heli_offload", { unit = "Seal", ship = "Wasp" }, "units.amphibious-assault-ships.marine-transport-by-helicopters",
    "not two non-infantry units")
  w.ok("heli_offload", { unit = "Seal", ship = "Tarawa" })
  t.eq(w.where("Seal"), "aboard Tarawa", "into a sea zone: onto the fleet's assault ship")
  w = helo(false)
  w.refused("heli_embark", { unit = "Seal", helicopter = "Huey" }, "units.amphibious-assault-ships.marine-transport-by-helicopters",
    "not in play")
end)

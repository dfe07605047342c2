-- tests/lua/seazone_carriers_test.lua — Aircraft Carriers (scripts/seazone/carriers.lua):
-- Capital Ship, Carry Aircraft, Air Defense, each sentence of the text.
-- Battles are fought through the General Combat stand-in with forced dice
-- (one die per firing unit, in unit id order within a step).
local F = dofile("tests/lua/seazone_fixture.lua")
local t = F.t

-- a USA carrier group in SZ 2 attacked by Opfor ships from SZ 3, in Conduct Combat
local function attacked(units, opts)
  opts = opts or {}
  local w = F.world { power = "Russia", units = units, seed = opts.seed }
  return w
end

local function to_combat(w)
  w.ok("end_phase", {})
  t.eq(w.game:get_phase(), "conduct_combat")
end

-- ---- units.aircraft-carriers.capital-ship ------------------------------------------------

t.test("units.aircraft-carriers.capital-ship: the first hit turns a carrier on its side, the second destroys it", function()
  local w = attacked {
    { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" }, { "Udaloy", "destroyer", "Opfor", "SZ 3", power = "Russia" },
    { "Nimitz", "carrier", "Allies", "SZ 2", power = "USA" } }
  w.ok("move", { units = { "Kirov", "Udaloy" }, path = { "SZ 2" } })
  to_combat(w)
  -- round 1: Kirov hits (1), Udaloy misses (6); Nimitz defends (6: miss)
  w.force(1, 6, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  t.eq(w.face("Nimitz"), "damaged")
  t.eq(w.where("Nimitz"), "SZ 2")
  t.eq(w.value("Nimitz", "casualty"), nil, "a defending carrier hit once stays on the strip")
  w.force(1, 6, 6)
  w.ok("battle", { zone = "SZ 2" })
  t.eq(w.where("Nimitz"), "dead")
end)

t.test("units.aircraft-carriers.capital-ship: a defending carrier hit once still fires, behind the strip only on its second hit", function()
  local w = attacked {
    { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" }, { "Udaloy", "destroyer", "Opfor", "SZ 3", power = "Russia" },
    { "Nimitz", "carrier", "Allies", "SZ 2", power = "USA" } }
  w.ok("move", { units = { "Kirov", "Udaloy" }, path = { "SZ 2" } })
  to_combat(w)
  -- both attackers hit: Nimitz takes two hits in step 3, goes behind the strip, fires in step 4 (1: hit)
  w.force(1, 1, 1)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest" })
  t.eq(w.where("Nimitz"), "dead", "removed in step 5")
  t.eq(w.face("Kirov"), "damaged", "the casualty fired back; the attacker's policy soaks it with the cruiser")
  t.eq(w.where("Udaloy"), "SZ 2")
end)

t.test("units.aircraft-carriers.capital-ship: even a submarine's Surprise Strike only damages an undamaged carrier", function()
  local w = attacked {
    { "U1", "submarine", "Opfor", "SZ 3", power = "Russia" }, { "Nimitz", "carrier", "Allies", "SZ 2", power = "USA" } }
  w.ok("move", { units = { "U1" }, path = { "SZ 2" } })
  to_combat(w)
  w.force(1)           -- Surprise Strike: hit
  w.force(6)           -- step 4: Nimitz misses
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  t.eq(w.face("Nimitz"), "damaged")
  t.eq(w.where("Nimitz"), "SZ 2")
end)

t.test("units.aircraft-carriers.capital-ship: a carrier that survived with one hit is repaired visiting an operative friendly naval base", function()
  local w = F.world { phase = "mobilize", units = { { "Nimitz", "carrier", "Allies", "SZ 5", power = "USA", face = "damaged" },
    { "NB", "naval_base", "Allies", "Homeland", power = "USA" } } }
  w.ok("set_operative", { base = "NB", operative = false }, "scenario")
  w.to_turn_of("USA")
  t.eq(w.face("Nimitz"), "damaged", "the base is not operative")
  w.ok("set_operative", { base = "NB", operative = true }, "scenario")
  w.to_turn_of("USA")
  t.eq(w.face("Nimitz"), "full")
end)

-- ---- units.aircraft-carriers.carry-aircraft ----------------------------------------------

local function group(phase)
  return F.world { power = "USA", phase = phase or "noncombat_move", units = {
    { "Nimitz", "carrier", "Allies", "SZ 2", power = "USA" },
    { "F1", "fighter", "Allies", "SZ 2", power = "USA" }, { "F2", "fighter", "Allies", "SZ 2", power = "USA" },
    { "F3", "fighter", "Allies", "SZ 2", power = "USA" }, { "B1", "strategic_bomber", "Allies", "SZ 2", power = "USA" },
    { "H1", "helicopter", "Allies", "SZ 2", power = "USA" } } }
end

t.test("units.aircraft-carriers.carry-aircraft: up to two fighters or helicopters; landing takes effect in Mobilize New Units", function()
  local w = group()
  w.ok("land", { unit = "F1", carrier = "Nimitz" })
  w.ok("land", { unit = "H1", carrier = "Nimitz" })
  t.eq(w.where("F1"), "SZ 2", "not aboard before Mobilize New Units")
  w.ok("end_phase", {})
  t.eq({ w.where("F1"), w.where("H1") }, { "aboard Nimitz", "aboard Nimitz" })
end)

t.test("units.aircraft-carriers.carry-aircraft: a third plane onto a carrier is refused, state unchanged", function()
  local w = group()
  w.ok("land", { unit = "F1", carrier = "Nimitz" })
  w.ok("land", { unit = "F2", carrier = "Nimitz" })
  w.refused("land", { unit = "F3", carrier = "Nimitz" }, "units.aircraft-carriers.carry-aircraft",
    "already carries or expects 2 air units")
end)

t.test("units.aircraft-carriers.carry-aircraft: a third plane is refused when two are already aboard", function()
  local w = F.world { power = "USA", phase = "noncombat_move", units = {
    { "Nimitz", "carrier", "Allies", "SZ 2", power = "USA" },
    { "F1", "fighter", "Allies", nil, power = "USA", aboard = "Nimitz" }, { "F2", "fighter", "Allies", nil, power = "UK", aboard = "Nimitz" },
    { "F3", "fighter", "Allies", "SZ 2", power = "USA" } } }
  w.refused("land", { unit = "F3", carrier = "Nimitz" }, "units.aircraft-carriers.carry-aircraft", "capacity")
end)

t.test("units.aircraft-carriers.carry-aircraft: never a strategic bomber, state unchanged", function()
  local w = group()
  w.refused("land", { unit = "B1", carrier = "Nimitz" }, "units.aircraft-carriers.carry-aircraft", "never strategic bombers")
end)

t.test("units.aircraft-carriers.carry-aircraft: friendly powers' air units too; the carrier must be friendly", function()
  local w = F.world { power = "UK", phase = "noncombat_move", units = {
    { "Nimitz", "carrier", "Allies", "SZ 2", power = "USA" }, { "Spit", "fighter", "Allies", "SZ 2", power = "UK" },
    { "Kuz", "carrier", "Opfor", "SZ 2", power = "Russia" } } }
  w.refused("land", { unit = "Spit", carrier = "Kuz" }, "units.aircraft-carriers.carry-aircraft", "not friendly")
  w.ok("land", { unit = "Spit", carrier = "Nimitz" })
end)

t.test("units.aircraft-carriers.carry-aircraft: a friendly power's air units are cargo on the carrier owner's turn and move with it", function()
  local w = F.world { power = "USA", units = {
    { "Nimitz", "carrier", "Allies", "SZ 2", power = "USA" },
    { "Spit", "fighter", "Allies", nil, power = "UK", aboard = "Nimitz" } } }
  w.refused("fly", { unit = "Spit", path = { "SZ 3" } }, nil, "UK's turn")
  w.ok("move", { units = { "Nimitz" }, path = { "SZ 3" } })
  t.eq(w.where("Spit"), "aboard Nimitz")
  t.eq(w.q("area_of", w.u.Spit), w.area("SZ 3"))
end)

t.test("units.aircraft-carriers.carry-aircraft: on their own turn, air units launch before the carrier moves", function()
  local w = F.world { power = "USA", units = {
    { "Nimitz", "carrier", "Allies", "SZ 2", power = "USA" },
    { "Hornet", "fighter", "Allies", nil, power = "USA", aboard = "Nimitz" },
    { "Spit", "fighter", "Allies", nil, power = "UK", aboard = "Nimitz" } } }
  w.ok("move", { units = { "Nimitz" }, path = { "SZ 3" } })
  t.eq(w.where("Hornet"), "SZ 2", "launched, left behind to make a noncombat move later")
  t.eq(w.where("Spit"), "aboard Nimitz")
  w.ok("fly", { unit = "Hornet", path = { "SZ 3" } })
end)

t.test("units.aircraft-carriers.carry-aircraft: a damaged carrier has no air operations: no take-off, no landing", function()
  local w = F.world { power = "USA", phase = "noncombat_move", units = {
    { "Nimitz", "carrier", "Allies", "SZ 2", power = "USA", face = "damaged" },
    { "Hornet", "fighter", "Allies", nil, power = "USA", aboard = "Nimitz" },
    { "F2", "fighter", "Allies", "SZ 2", power = "USA" } } }
  w.refused("fly", { unit = "Hornet", path = { "SZ 3" } }, "units.aircraft-carriers.carry-aircraft", "no air units may take off")
  w.refused("land", { unit = "F2", carrier = "Nimitz" }, "units.aircraft-carriers.carry-aircraft", "no air units may land on it")
end)

t.test("units.aircraft-carriers.carry-aircraft: guests aboard when it was damaged are trapped until it is repaired", function()
  local w = F.world { power = "UK", units = {
    { "Nimitz", "carrier", "Allies", "SZ 1", power = "USA", face = "damaged" },
    { "Spit", "fighter", "Allies", nil, power = "UK", aboard = "Nimitz" },
    { "NB", "naval_base", "Allies", "Homeland", power = "USA" } } }
  w.refused("fly", { unit = "Spit", path = { "SZ 2" } }, "units.aircraft-carriers.carry-aircraft", "until it is repaired")
  w.to_turn_of("USA")
  t.eq(w.face("Nimitz"), "full")
  w.to_turn_of("UK")
  w.ok("fly", { unit = "Spit", path = { "SZ 2" } })
end)

t.test("units.aircraft-carriers.carry-aircraft: air units and carrier must end their movement in the same sea zone", function()
  local w = group()
  w.ok("land", { unit = "F1", carrier = "Nimitz" })
  w.ok("move", { units = { "Nimitz" }, path = { "SZ 3", "SZ 4" } })
  -- F1 planned to land on Nimitz, which left: F1 has no landing space, and Nimitz cannot come back
  w.ok("end_phase", {})
  t.eq(w.where("F1"), "dead", "not in an eligible landing space at the end of Noncombat Move")
end)

t.test("units.aircraft-carriers.carry-aircraft: a carrier must move to provide a landing space an air unit would not otherwise have", function()
  local w = F.world { power = "USA", phase = "noncombat_move", units = {
    { "Nimitz", "carrier", "Allies", "SZ 1", power = "USA" }, { "F1", "fighter", "Allies", "SZ 3", power = "USA" } } }
  w.refused("end_phase", {}, "units.aircraft-carriers.carry-aircraft", "Nimitz (carrier) can and must move to SZ 3")
  w.ok("move", { units = { "Nimitz" }, path = { "SZ 2", "SZ 3" } })
  w.refused("end_phase", {}, "units.aircraft-carriers.carry-aircraft", "it lands there (land)")
  w.ok("land", { unit = "F1", carrier = "Nimitz" })
  w.ok("end_phase", {})
  t.eq(w.where("F1"), "aboard Nimitz")
end)

t.test("units.aircraft-carriers.carry-aircraft: no carrier must come for a strategic bomber, which never lands on one", function()
  local w = F.world { power = "USA", phase = "noncombat_move", units = {
    { "Nimitz", "carrier", "Allies", "SZ 5", power = "USA" }, { "B1", "strategic_bomber", "Allies", "SZ 5", power = "USA" } } }
  w.ok("end_phase", {})
  t.eq(w.where("B1"), "dead", "no landing space at the end of Noncombat Move")
end)

t.test("units.aircraft-carriers.carry-aircraft: an air unit no carrier can reach is destroyed at the end of Noncombat Move", function()
  local w = F.world { power = "USA", phase = "noncombat_move", units = {
    { "Nimitz", "carrier", "Allies", "SZ 1", power = "USA" }, { "F1", "fighter", "Allies", "SZ 4", power = "USA" },
    { "F2", "fighter", "Allies", "Homeland", power = "USA" } } }
  w.ok("end_phase", {})
  t.eq(w.where("F1"), "dead")
  t.eq(w.where("F2"), "Homeland", "a friendly territory is a landing space")
end)

t.test("units.aircraft-carriers.carry-aircraft: a sea zone where a new carrier will be placed is a landing space", function()
  local w = F.world { power = "USA", phase = "noncombat_move", units = {
    { "New", "carrier", "Allies", nil, power = "USA", values = { mobilize_zone = 2 } },
    { "F1", "fighter", "Allies", "SZ 1", power = "USA" } } }
  t.eq(w.area("SZ 1"), 2)
  w.ok("land", { unit = "F1", carrier = "New" })
  w.ok("end_phase", {})
  t.eq(w.where("New"), "SZ 1", "placed in Mobilize New Units")
  t.eq(w.where("F1"), "aboard New")
end)

t.test("units.aircraft-carriers.carry-aircraft: a carrier that took part in combat does not move in Noncombat Move", function()
  local w = F.world { power = "USA", phase = "noncombat_move", units = {
    { "Nimitz", "carrier", "Allies", "SZ 1", power = "USA", values = { sea_combat_turn = "1/USA" } } } }
  w.refused("move", { units = { "Nimitz" }, path = { "SZ 2" } }, "units.aircraft-carriers.carry-aircraft", "took part in combat")
end)

-- ---- units.aircraft-carriers.air-defense --------------------------------------------------

local function carrier_attacked(extra)
  local units = {
    { "U1", "submarine", "Opfor", "SZ 3", power = "Russia" }, { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" },
    { "Nimitz", "carrier", "Allies", "SZ 2", power = "USA" },
    { "Hornet", "fighter", "Allies", nil, power = "USA", aboard = "Nimitz" },
    { "Spit", "fighter", "Allies", nil, power = "UK", aboard = "Nimitz" } }
  for _, u in ipairs(extra or {}) do units[#units + 1] = u end
  local w = F.world { power = "Russia", units = units }
  w.ok("move", { units = { "U1", "Kirov" }, path = { "SZ 2" } })
  to_combat(w)
  return w
end

t.test("units.aircraft-carriers.air-defense: an undamaged carrier's aircraft (a friendly power's too) defend in the air", function()
  local w = carrier_attacked()
  -- Surprise Strike: U1 misses (6); step 3: Kirov misses (6); step 4: Nimitz, Hornet, Spit miss
  w.force(6, 6, 6, 6, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  t.eq({ w.where("Hornet"), w.where("Spit") }, { "SZ 2", "SZ 2" }, "in the air during the battle")
  t.eq(w.value("Hornet", "battle_role"), "defender")
  t.eq(w.value("Spit", "defending_from"), w.u.Nimitz)
end)

t.test("units.aircraft-carriers.air-defense: aircraft may be chosen as casualties rather than the carrier", function()
  local w = carrier_attacked()
  w.force(6, 1, 6, 6, 6)   -- Kirov hits in step 3
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", rounds = 1 })
  t.eq(w.game:get_global("choice_side"), "Allies", "the defender chooses")
  w.ok("casualties", { units = { "Spit" } })
  t.eq(w.value("Spit", "casualty"), true)
  t.eq(w.face("Nimitz"), "full")
end)

t.test("units.aircraft-carriers.air-defense: aircraft on a carrier cannot be a submarine hit's casualty", function()
  local w = carrier_attacked()
  w.force(1)               -- U1's Surprise Strike hits
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", rounds = 1 })
  w.refused("casualties", { units = { "Hornet" } }, "general-combat", "do not fit the hits")
  w.ok("casualties", { units = { "Nimitz" } })
  t.eq(w.face("Nimitz"), "damaged")
end)

t.test("units.aircraft-carriers.air-defense: after the battle they land on the same carrier if it is undamaged", function()
  local w = carrier_attacked()
  w.force(6, 6, 6, 6, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  w.ok("retreat", { to = "SZ 3" })
  t.eq({ w.where("Hornet"), w.where("Spit") }, { "aboard Nimitz", "aboard Nimitz" })
end)

t.test("units.aircraft-carriers.air-defense: if their carrier is damaged they must land elsewhere in Noncombat Move, first", function()
  local w = carrier_attacked { { "Vinson", "carrier", "Allies", "SZ 5", power = "USA" },
    { "Sovremenny", "destroyer", "Opfor", "SZ 6", power = "Russia" } }
  w.force(1, 6, 6, 6, 6)   -- Surprise Strike damages Nimitz; nothing else hits
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  w.ok("retreat", { to = "SZ 3" })
  t.eq(w.face("Nimitz"), "damaged")
  t.eq({ w.value("Hornet", "must_reland"), w.value("Spit", "must_reland") }, { true, true })
  w.ok("end_phase", {})
  t.eq(w.game:get_phase(), "noncombat_move")
  -- their owner lands them first, in its own window, before the acting player moves
  local st = w.set:status(w.game)
  t.eq({ st.phasing, st.active[1], st.window and st.window.title }, { "Opfor", "Allies", "landing after combat" })
  local why, kind = w.refused("move", { units = { "Sovremenny" }, path = { "SZ 4" } }, nil, "Allies is to act, not Opfor",
    "Opfor")
  t.eq(kind, "side", why)
  w.refused("end_phase", {}, "units.aircraft-carriers.air-defense", "Hornet (fighter) must land first")
  w.refused("reland", { unit = "Hornet", carrier = "Nimitz" }, "units.aircraft-carriers.air-defense", "cannot land there")
  w.ok("reland", { unit = "Hornet", carrier = "Vinson" })
  t.eq(w.active(), "Allies", "Spit has yet to land")
  w.refused("reland", { unit = "Spit", to = "Isle" }, "units.aircraft-carriers.air-defense", "cannot land there")
  w.ok("reland", { unit = "Spit", carrier = "Vinson" })
  t.eq({ w.where("Hornet"), w.where("Spit") }, { "aboard Vinson", "aboard Vinson" })
  t.eq({ w.active(), w.set:status(w.game).window }, { "Opfor", nil }, "the window closed with the last landing")
  w.ok("move", { units = { "Sovremenny" }, path = { "SZ 4" } })
  w.ok("end_phase", {})
end)

t.test("units.aircraft-carriers.air-defense: the acting player's own air units land before its noncombat moves", function()
  local w = F.world { power = "USA", phase = "conduct_combat", units = {
    { "Nimitz", "carrier", "Allies", "SZ 1", power = "USA", face = "damaged" },
    { "Hornet", "fighter", "Allies", "SZ 1", power = "USA", values = { must_reland = true } },
    { "DD", "destroyer", "Allies", "SZ 2", power = "USA" }, { "K", "cruiser", "Opfor", "SZ 6", power = "Russia" } } }
  w.ok("end_phase", {})
  t.eq({ w.active(), w.set:status(w.game).window }, { "Allies", nil }, "no window: it is the Allies' own phase")
  w.refused("move", { units = { "DD" }, path = { "SZ 3" } }, "units.aircraft-carriers.air-defense", "must land first")
  w.ok("reland", { unit = "Hornet", to = "Homeland" })
  w.ok("move", { units = { "DD" }, path = { "SZ 3" } })
end)

t.test("units.aircraft-carriers.air-defense: ... or move one space to a friendly territory; or, told nothing, be destroyed", function()
  local w = F.world { power = "Russia", units = {
    { "U1", "submarine", "Opfor", "SZ 2", power = "Russia" },
    { "Nimitz", "carrier", "Allies", "SZ 1", power = "USA" },
    { "Hornet", "fighter", "Allies", nil, power = "USA", aboard = "Nimitz" },
    { "Spit", "fighter", "Allies", nil, power = "UK", aboard = "Nimitz" } } }
  w.ok("move", { units = { "U1" }, path = { "SZ 1" } })
  to_combat(w)
  w.force(1, 6, 6, 6)
  w.ok("battle", { zone = "SZ 1", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  w.ok("retreat", { to = "SZ 2" })
  w.ok("end_phase", {})
  w.ok("reland", { unit = "Hornet", to = "Homeland" })
  w.ok("reland", { unit = "Spit" })
  t.eq({ w.where("Hornet"), w.where("Spit") }, { "Homeland", "dead" })
end)

t.test("units.aircraft-carriers.air-defense: with no carrier or territory within one space they are destroyed", function()
  local w = F.world { power = "Russia", units = {
    { "U1", "submarine", "Opfor", "SZ 6", power = "Russia" },
    { "Nimitz", "carrier", "Allies", "SZ 4", power = "USA" },
    { "Hornet", "fighter", "Allies", nil, power = "USA", aboard = "Nimitz" } } }
  w.ok("move", { units = { "U1" }, path = { "SZ 4" } })
  to_combat(w)
  w.force(1, 6, 6)
  w.ok("battle", { zone = "SZ 4", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  w.ok("retreat", { to = "SZ 6" })
  w.ok("end_phase", {})
  t.eq(w.where("Hornet"), "dead", "SZ 4's neighbours: SZ 3, SZ 6 (no carrier) and Coastland (enemy)")
end)

t.test("units.aircraft-carriers.air-defense: aboard a damaged carrier air units are cargo: they do not defend and are lost with it", function()
  local w = F.world { power = "Russia", units = {
    { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" },
    { "Nimitz", "carrier", "Allies", "SZ 2", power = "USA", face = "damaged" },
    { "Hornet", "fighter", "Allies", nil, power = "USA", aboard = "Nimitz" } } }
  w.ok("move", { units = { "Kirov" }, path = { "SZ 2" } })
  to_combat(w)
  w.force(1, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest" })
  t.eq(w.where("Nimitz"), "dead")
  t.eq(w.where("Hornet"), "dead")
  t.eq(w.value("Hornet", "battle_role"), nil)
end)

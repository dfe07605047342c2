-- tests/lua/seazone_combat_test.lua — sea battles: the General Combat stand-in
-- (scripts/seazone/combat_standin.lua, one rule per step), the submarines'
-- and frigates' battle characteristics, casualty choice by order or declared
-- policy. Dice are forced: one die per firing unit, in unit id order within
-- a step (step 2: every striking submarine of both sides).
local F = dofile("tests/lua/seazone_fixture.lua")
local t = F.t

-- Opfor attacks SZ 2 from SZ 3 with `att` (names of Opfor units in SZ 3), Allies defend in SZ 2
local function battle(units, att, opts)
  opts = opts or {}
  local w = F.world { power = "Russia", units = units }
  w.ok("move", { units = att, path = { "SZ 2" }, attack = opts.attack })
  w.ok("end_phase", {})
  return w
end

local function rolls(w)
  local out = {}
  for _, l in ipairs(w.game:journal_lines()) do
    local rule, why = l:match('"ev":"roll","rule":"([^"]+)","reason":"([^"]+)"')
    if why then out[#out + 1] = rule:match("step%-%d") .. " " .. why:match("^(%S+)") end
  end
  return out
end

-- ---- units.submarines.surprise-strike -----------------------------------------------------------

t.test("units.submarines.surprise-strike: attacking and defending submarines fire before any other unit (step 2)", function()
  local w = battle({ { "U1", "submarine", "Opfor", "SZ 3", power = "Russia" }, { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" },
    { "Dallas", "submarine", "Allies", "SZ 2", power = "USA" }, { "DD", "destroyer", "Allies", "SZ 2", power = "USA" } }, { "U1", "Kirov" })
  w.force(6, 6, 6, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  t.eq(rolls(w), { "step-2 U1", "step-2 Dallas", "step-3 Kirov", "step-4 DD" })
end)

t.test("units.submarines.surprise-strike: its casualties are removed before they can fire", function()
  local w = battle({ { "U1", "submarine", "Opfor", "SZ 3", power = "Russia" }, { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" },
    { "DD", "destroyer", "Allies", "SZ 2", power = "USA" } }, { "U1", "Kirov" })
  w.force(2)   -- U1 hits (2 or less): DD is lost at once
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest" })
  t.eq(w.where("DD"), "dead")
  t.eq(rolls(w), { "step-2 U1" }, "DD never fired; Kirov had nothing left to fire at")
end)

t.test("units.submarines.surprise-strike: with no submarine eligible on either side there is no step 2", function()
  local w = battle({ { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" }, { "DD", "destroyer", "Allies", "SZ 2", power = "USA" } },
    { "Kirov" })
  w.force(6, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  t.eq(rolls(w), { "step-3 Kirov", "step-4 DD" })
  local said = table.concat(w.said, "\n")
  t.ok(said:find("no submarine may make a Surprise Strike: no step 2", 1, true), "narrated")
end)

t.test("units.submarines.surprise-strike: an enemy frigate in the battle cancels it; the submarine fires in its side's step", function()
  local w = battle({ { "U1", "submarine", "Opfor", "SZ 3", power = "Russia" },
    { "Dallas", "submarine", "Allies", "SZ 2", power = "USA" }, { "Perry", "frigate", "Allies", "SZ 2", power = "USA" } }, { "U1" })
  w.force(6, 6, 6, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  t.eq(rolls(w), { "step-2 Dallas", "step-3 U1", "step-4 Perry" }, "Dallas keeps its Surprise Strike: U1 brought no frigate")
end)

t.test("units.frigates.anti-sub-vessel: a frigate of a power friendly to the attacker that only is in the zone does not take part", function()
  local w = F.world { power = "Russia", units = {
    { "U1", "submarine", "Opfor", "SZ 3", power = "Russia" }, { "Ally", "frigate", "Opfor", "SZ 2", power = "China" },
    { "Dallas", "submarine", "Allies", "SZ 2", power = "USA" } } }
  w.ok("move", { units = { "U1" }, path = { "SZ 2" }, attack = true })
  w.ok("end_phase", {})
  w.force(6, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  t.eq(rolls(w), { "step-2 U1", "step-2 Dallas" }, "Dallas keeps its Surprise Strike")
  t.eq(w.q("frigate_in_battle", "Opfor"), nil)
end)

t.test("units.frigates.anti-sub-vessel: a frigate in the battle cancels Surprise Strike, Submersible and Cannot Be Hit by Air Units", function()
  local w = battle({ { "Perry", "frigate", "Opfor", "SZ 3", power = "Russia" }, { "MiG", "fighter", "Opfor", "SZ 3", power = "Russia" },
    { "Dallas", "submarine", "Allies", "SZ 2", power = "USA" } }, { "Perry" }, { attack = true })
  w.game.state:push_rule("t"); w.game:move(w.u.MiG, "zone", w.area("SZ 2")); w.game:set_value(w.u.MiG, "attacking_turn", w.stamp())
  w.game.state:pop_rule()
  w.force(6, 1, 6)   -- Perry misses, MiG hits, (Dallas in step 4)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  t.eq(rolls(w)[1], "step-3 Perry", "no Surprise Strike for Dallas")
  t.eq(w.where("Dallas"), "dead", "the fighter's hit went to the submarine: a frigate friendly to it is in the battle")
end)

-- ---- units.submarines.submersible ----------------------------------------------------------------

t.test("units.submarines.submersible: instead of firing it submerges: off the strip, it neither fires nor is hit", function()
  local w = battle({ { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" }, { "Dallas", "submarine", "Allies", "SZ 2", power = "USA" },
    { "DD", "destroyer", "Allies", "SZ 2", power = "USA" } }, { "Kirov" })
  w.force(6, 6, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  w.ok("submerge", { units = { "Dallas" } })
  w.force(1, 6)
  w.ok("battle", { zone = "SZ 2", rounds = 1 })
  t.eq(w.where("Dallas"), "SZ 2", "back on the map")
  t.eq(w.where("DD"), "dead", "Kirov's hit could only go to DD")
  t.eq(rolls(w), { "step-2 Dallas", "step-3 Kirov", "step-4 DD", "step-3 Kirov", "step-4 DD" },
    "Dallas did not roll in round 2; DD, behind the casualty strip, still fired")
end)

t.test("units.submarines.submersible: a declared policy can submerge them when they are alone", function()
  local w = battle({ { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" }, { "Dallas", "submarine", "Allies", "SZ 2", power = "USA" } },
    { "Kirov" }, { attack = true })
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = { order = "cheapest", submerge = "alone" } })
  t.eq(w.where("Dallas"), "SZ 2", "submerged at once, back on the map after the battle")
  t.eq(w.value("Dallas", "submerged"), nil, "battle values cleared")
  t.eq(rolls(w), {}, "nothing rolled")
end)

t.test("units.submarines.submersible: not with an enemy frigate in the battle", function()
  local w = battle({ { "Perry", "frigate", "Opfor", "SZ 3", power = "Russia" }, { "Dallas", "submarine", "Allies", "SZ 2", power = "USA" } },
    { "Perry" }, { attack = true })
  w.force(6, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  w.refused("submerge", { units = { "Dallas" } }, "general-combat", "cannot submerge: enemy Perry (frigate) is in the battle")
end)

-- ---- units.submarines.cannot-hit-air-units / cannot-be-hit-by-air-units ------------------------------

t.test("units.submarines.cannot-hit-air-units: a submarine's hit cannot go to an air unit", function()
  local w = battle({ { "U1", "submarine", "Opfor", "SZ 3", power = "Russia" },
    { "F1", "fighter", "Allies", "SZ 2", power = "USA" }, { "DD", "destroyer", "Allies", "SZ 2", power = "USA" } }, { "U1" })
  w.force(1)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", rounds = 1 })
  w.refused("casualties", { units = { "F1" } }, "general-combat", "submarines cannot hit air units")
  w.ok("casualties", { units = { "DD" } })
end)

t.test("units.submarines.cannot-hit-air-units: with only air units left, the submarine's hits are lost", function()
  local w = battle({ { "U1", "submarine", "Opfor", "SZ 3", power = "Russia" }, { "F1", "fighter", "Allies", "SZ 2", power = "USA" } },
    { "U1" }, { attack = true })
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest" })
  t.eq(w.where("F1"), "SZ 2")
  t.eq(w.where("U1"), "SZ 2")
  t.ok(table.concat(w.said, "\n"):find("no side can hit the other", 1, true), "neither can hurt the other: the battle ends")
end)

t.test("units.submarines.cannot-be-hit-by-air-units: an air unit's hit cannot go to a submarine without a frigate friendly to it", function()
  local w = F.world { power = "Russia", units = {
    { "MiG", "fighter", "Opfor", "Isle", power = "Russia" }, { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" },
    { "Dallas", "submarine", "Allies", "SZ 2", power = "USA" }, { "DD", "destroyer", "Allies", "SZ 2", power = "USA" } } }
  w.ok("fly", { unit = "MiG", path = { "SZ 2" } })
  w.ok("move", { units = { "Kirov" }, path = { "SZ 2" } })
  w.ok("end_phase", {})
  w.force(6, 1, 6)   -- step 2: Dallas misses; step 3 in id order: MiG hits, Kirov misses
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", rounds = 1 })
  w.refused("casualties", { units = { "Dallas" } }, "general-combat", "do not fit the hits")
  w.ok("casualties", { units = { "DD" } })
end)

-- ---- the General Combat stand-in, step by step ----------------------------------------------------

local function duel()
  return battle({ { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" }, { "Udaloy", "destroyer", "Opfor", "SZ 3", power = "Russia" },
    { "DD", "destroyer", "Allies", "SZ 2", power = "USA" }, { "FF", "frigate", "Allies", "SZ 2", power = "USA" } }, { "Kirov", "Udaloy" })
end

t.test("general-combat.step-1: the attacking units and every defending unit go on the battle strip", function()
  local w = duel()
  w.force(6, 6, 6, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  for _, n in ipairs { "Kirov", "Udaloy" } do t.eq(w.value(n, "battle_role"), "attacker", n) end
  for _, n in ipairs { "DD", "FF" } do t.eq(w.value(n, "battle_role"), "defender", n) end
end)

t.test("general-combat.step-3: the defender's casualties go behind the casualty strip and still fire (step 4)", function()
  local w = duel()
  w.force(1, 1, 1, 6)   -- both attackers hit; DD and FF become casualties; DD fires back and hits
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  t.eq(rolls(w), { "step-3 Kirov", "step-3 Udaloy", "step-4 DD", "step-4 FF" })
  t.eq({ w.where("DD"), w.where("FF") }, { "dead", "dead" }, "removed in step 5")
  t.eq(w.face("Kirov"), "damaged", "DD's hit: the attacker's policy soaks it with the cruiser")
end)

t.test("general-combat.step-4: the attacker's casualties are removed at once", function()
  local w = duel()
  w.force(6, 6, 1, 1)
  w.ok("battle", { zone = "SZ 2", attacker = { order = { "destroyer", "cruiser" } }, defender = "cheapest", rounds = 1 })
  t.eq(w.where("Udaloy"), "dead")
  t.eq(w.face("Kirov"), "damaged", "the second hit: destroyers first, then a hit on the cruiser")
end)

t.test("general-combat.step-5: the defender's casualties are removed after the defenders fired", function()
  local w = duel()
  w.force(1, 6, 6, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = { order = { "frigate", "destroyer" } }, rounds = 1 })
  t.eq(w.where("FF"), "dead")
  t.eq(w.where("DD"), "SZ 2")
end)

t.test("general-combat.step-6: the attacker presses the attack or retreats to an adjacent friendly sea zone", function()
  local w = duel()
  w.force(6, 6, 6, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  t.eq(w.game:get_global("battle_wait"), "decision")
  w.refused("end_phase", {}, "general-combat", "not over")
  w.refused("retreat", { to = "SZ 4" }, "general-combat", "not adjacent")
  w.ok("retreat", { to = "SZ 3" })
  t.eq({ w.where("Kirov"), w.where("Udaloy") }, { "SZ 3", "SZ 3" })
  t.eq(w.value("Kirov", "retreated_turn"), w.stamp())
  w.ok("end_phase", {})
end)

t.test("general-combat.step-6: a declared retreat happens when the attacker is down to its threshold", function()
  local w = duel()
  w.force(6, 6, 1, 6)   -- DD hits: Udaloy lost (destroyers first); one attacker left
  w.ok("battle", { zone = "SZ 2", defender = "cheapest",
    attacker = { order = { "destroyer", "cruiser" }, retreat_at = 1, retreat_to = "SZ 3" } })
  t.eq(w.where("Kirov"), "SZ 3")
  t.eq(w.game:get_global("battle_zone"), nil, "concluded")
end)

t.test("general-combat.step-7: the battle concludes: values cleared, participants marked as having fought", function()
  local w = duel()
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest" })
  t.eq(w.game:get_global("battle_zone"), nil)
  for _, n in ipairs { "Kirov", "Udaloy", "DD", "FF" } do
    if w.where(n) ~= "dead" then
      t.eq(w.value(n, "sea_combat_turn"), w.stamp(), n)
      t.eq(w.value(n, "battle_role"), nil, n)
    end
  end
  w.ok("end_phase", {})
end)

t.test("general-combat: a battle order needs a pending attack, in Conduct Combat, and complete policies (state unchanged)", function()
  local w = duel()
  w.refused("battle", { zone = "SZ 5" }, "general-combat", "no attack is pending in SZ 5")
  w.refused("battle", { zone = "SZ 2", attacker = { order = { "cruiser" } } }, "general-combat", "does not name destroyer")
  w.refused("battle", { zone = "SZ 2", attacker = "bravest" }, "general-combat", "no casualty policy named 'bravest'")
  w.refused("battle", { zone = "SZ 2", attacker = { order = { "damage:destroyer", "destroyer", "cruiser" } } }, "general-combat",
    "not a capital ship")
  w.refused("end_phase", {}, "general-combat", "has not been fought")
end)

t.test("general-combat: without a policy the owner names the casualties; the count and the units must fit", function()
  local w = duel()
  w.force(1, 1)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", rounds = 1 })
  t.eq(w.game:get_global("choice_side"), "Allies")
  w.refused("casualties", { units = { "DD" } }, "general-combat", "2 hit(s) can be assigned")
  w.refused("casualties", { units = { "DD", "Kirov" } }, "general-combat", "cannot be a casualty now")
  w.refused("casualties", { units = { "DD", "DD" } }, "general-combat", "cannot take 2 hits")
  w.force(6, 6)
  w.ok("casualties", { units = { "FF", "DD" } })
  t.eq({ w.where("DD"), w.where("FF") }, { "dead", "dead" })
end)

t.test("general-combat: a capital ship named twice takes both hits", function()
  local w = battle({ { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" }, { "Udaloy", "destroyer", "Opfor", "SZ 3", power = "Russia" },
    { "CA", "cruiser", "Allies", "SZ 2", power = "USA" }, { "DD", "destroyer", "Allies", "SZ 2", power = "USA" } }, { "Kirov", "Udaloy" })
  w.force(1, 1)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", rounds = 1 })
  w.force(6, 6)
  w.ok("casualties", { units = { "CA", "CA" } })
  t.eq(w.value("CA", "casualty"), true)
  t.eq(w.face("CA"), "damaged")
end)

t.test("general-combat: twice names a casualty's second hit, as the candidates of a listing can say it", function()
  local function fight()
    local w = battle({ { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" }, { "Udaloy", "destroyer", "Opfor", "SZ 3", power = "Russia" },
      { "CA", "cruiser", "Allies", "SZ 2", power = "USA" } }, { "Kirov", "Udaloy" })
    w.force(1, 1)
    w.ok("battle", { zone = "SZ 2", attacker = "cheapest", rounds = 1 })
    return w
  end
  local w = fight()
  local listed
  for _, e in ipairs(w.set:legal_actions(w.game, "Allies")) do if e.name == "casualties" then listed = e end end
  t.eq(listed.available, true, "the only legal choice, CA twice, is offered: " .. tostring(listed.reason))
  local twice
  for _, q in ipairs(listed.params) do if q.name == "twice" then twice = q end end
  t.eq(twice.choices[1].domain[1].value, w.u.CA)
  w.refused("casualties", { units = { "CA" } }, "general-combat", "must be: name 2 casualties, not 1")
  w.refused("casualties", { units = { "CA" }, twice = { "Kirov" } }, "general-combat", "only when it is named among the casualties")
  w.force(6, 6)
  w.ok("casualties", { units = { "CA" }, twice = { "CA" } })
  t.eq({ w.face("CA"), w.where("CA") }, { "damaged", "dead" }, "damaged, then behind the strip, removed in step 5")
  local w2 = fight()
  w2.force(6, 6)
  w2.ok("casualties", { units = { "CA", "CA" } })
  t.eq({ w2.face("CA"), w2.where("CA") }, { "damaged", "dead" }, "named twice in units: the same")
  t.eq(w2.game:hash_hex(), w.game:hash_hex())
end)

t.test("general-combat.step-3: the defender names its casualties in its own decision window", function()
  local w = battle({ { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" }, { "Udaloy", "destroyer", "Opfor", "SZ 3", power = "Russia" },
    { "DD", "destroyer", "Allies", "SZ 2", power = "USA" }, { "FF", "frigate", "Allies", "SZ 2", power = "USA" } }, { "Kirov", "Udaloy" })
  w.force(1, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", rounds = 1 })
  local st = w.set:status(w.game)
  t.eq({ st.phasing, st.active, st.window and st.window.side, st.window and st.window.title },
    { "Opfor", { "Allies" }, "Allies", "casualties" })
  t.eq(st.window.actions, { "casualties", "submerge" })
  local _, kind = w.refused("retreat", { to = "SZ 3" }, nil, "Allies is to act, not Opfor", "Opfor")
  t.eq(kind, "side", "the attacker waits for the defender's choice")
  w.refused("end_phase", {}, "general-combat", "Allies has casualties to choose", "Allies")
  w.ok("casualties", { units = { "FF" } }, "Allies")
  st = w.set:status(w.game)
  t.eq({ st.active, st.window }, { { "Opfor" }, nil }, "the window closed with the choice")
  t.eq(w.where("FF"), "dead")
end)

-- ---- units.cruisers.capital-ship --------------------------------------------------------------

t.test("units.cruisers.capital-ship: the first hit turns a cruiser on its side, the second destroys it", function()
  local w = battle({ { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" }, { "Udaloy", "destroyer", "Opfor", "SZ 3", power = "Russia" },
    { "CA", "cruiser", "Allies", "SZ 2", power = "USA" } }, { "Kirov", "Udaloy" })
  w.force(1, 6, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  t.eq(w.face("CA"), "damaged")
  t.eq(w.value("CA", "casualty"), nil, "a defending cruiser hit once is not moved behind the casualty strip")
  w.force(6, 1, 6)
  w.ok("battle", { zone = "SZ 2" })
  t.eq(w.where("CA"), "dead")
end)

t.test("units.cruisers.capital-ship: even a submarine's Surprise Strike only damages an undamaged cruiser", function()
  local w = battle({ { "U1", "submarine", "Opfor", "SZ 3", power = "Russia" }, { "CA", "cruiser", "Allies", "SZ 2", power = "USA" } },
    { "U1" }, { attack = true })
  w.force(1, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  t.eq(w.face("CA"), "damaged")
  t.eq(w.where("CA"), "SZ 2")
end)

t.test("units.cruisers.capital-ship: a cruiser that survived with one hit is repaired visiting an operative friendly naval base", function()
  local w = F.world { phase = "mobilize", units = { { "CA", "cruiser", "Allies", "SZ 5", power = "USA", face = "damaged" },
    { "NB", "naval_base", "Allies", "Homeland", power = "USA" }, { "EB", "naval_base", "Opfor", "Isle", power = "Russia" },
    { "CA2", "cruiser", "Allies", "SZ 6", power = "USA", face = "damaged" } } }
  w.to_turn_of("Russia")
  t.eq(w.face("CA"), "damaged", "not on Russia's turn")
  w.to_turn_of("USA")
  t.eq(w.face("CA"), "full", "SZ 5 touches Homeland's base")
  t.eq(w.face("CA2"), "damaged", "SZ 6 touches only the Opfor's base on Isle")
end)

t.test("units.submarines.cannot-be-hit-by-air-units: ... unless a frigate friendly to the air units is in the battle", function()
  local w = F.world { power = "Russia", units = {
    { "MiG", "fighter", "Opfor", "Isle", power = "Russia" }, { "Neustrashimy", "frigate", "Opfor", "SZ 3", power = "Russia" },
    { "Dallas", "submarine", "Allies", "SZ 2", power = "USA" }, { "DD", "destroyer", "Allies", "SZ 2", power = "USA" } } }
  w.ok("fly", { unit = "MiG", path = { "SZ 2" } })
  w.ok("move", { units = { "Neustrashimy" }, path = { "SZ 2" } })
  w.ok("end_phase", {})
  w.force(1, 6)   -- step 3 in id order: MiG hits, the frigate misses
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", rounds = 1 })
  w.ok("casualties", { units = { "Dallas" } })
  t.eq(w.value("Dallas", "casualty"), true)
end)

-- ---- variants replace a step by its id --------------------------------------------------------

t.test("general-combat.step-2: a variant replaces the step by its id: submarines then fire with their side", function()
  local set = F.set { variants = { "tests/families/variants/seazone_no_surprise_strike.lua" } }
  local w = F.world { set = set, power = "Russia", units = {
    { "U1", "submarine", "Opfor", "SZ 3", power = "Russia" }, { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" },
    { "Dallas", "submarine", "Allies", "SZ 2", power = "USA" }, { "DD", "destroyer", "Allies", "SZ 2", power = "USA" } } }
  w.ok("move", { units = { "U1", "Kirov" }, path = { "SZ 2" } })
  w.ok("end_phase", {})
  w.force(6, 6, 6, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  t.eq(rolls(w), { "step-3 U1", "step-3 Kirov", "step-4 Dallas", "step-4 DD" })
end)

t.test("general-combat: a policy need not name the aircraft aboard a damaged carrier (cargo, never casualties)", function()
  local w = battle({ { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" },
    { "CV", "carrier", "Allies", "SZ 2", power = "USA", face = "damaged" },
    { "F1", "fighter", "Allies", nil, power = "USA", aboard = "CV" } }, { "Kirov" })
  w.refused("battle", { zone = "SZ 2", attacker = "cheapest", defender = { order = { "fighter" } } }, "general-combat",
    "does not name carrier")
  w.force(6, 6)
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = { order = { "carrier" } }, rounds = 1 })
end)

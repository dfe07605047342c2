-- tests/lua/navgroup_combat_test.lua — 32.D MOVEMENT AND COMBAT (scripts/navgroup/combat.lua):
-- when submarine, surface and CD combat start (every trigger and non-trigger),
-- the payload protocol (ev.combat / ev.combats), and the default resolution
-- (records, rounds, MPs) with the hooks a scenario uses to resolve combat.
-- The rules are driven by emitting the contract's events directly.
local t = require "keel.testing"
local keel = require "keel"
local F = dofile("tests/lua/navgroup_fixture.lua")
local H = F.H

-- Allied (phasing) moving group at (0,0); the fixture's helpers do the rest.
local setup = F.setup

local function enters(set, g, grp, to, spent, extra)
  local ev = { group = grp, from = nil, to = to, cost = 1, spent = spent or 1 }
  for k, v in pairs(extra or {}) do ev[k] = v end
  return F.emit(set, g, "group_enters_hex", ev)
end

local function spends(set, g, grp, hex, mp, spent, activity, left)
  return F.emit(set, g, "mp_spent", { group = grp, hex = hex, mp = mp, spent = spent,
                                      activity = activity or "enter", left_hex = left or false, night = false })
end

-- ---- 32.D.1 submarine combat -----------------------------------------------------------

t.test("32.D.1-1: a phasing non-submarine group entering a hex in an enemy submarine's combat zone starts submarine combat", function()
  local set, g = setup()
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(0, 0))
  local sub = F.group(g, "U", "Axis", { "SUB" }, H(3, 0))
  t.eq(F.combats(enters(set, g, tf, H(1, 0))), {}, "two hexes away: outside the zone")
  local ev = enters(set, g, tf, H(2, 0), 2)
  t.eq(F.combats(ev), { "submarine:" .. sub })
  t.eq(ev.combat.kind, "submarine")
  t.eq(ev.combat.enemy, sub)
  t.eq(F.combats(enters(set, g, tf, H(3, 0), 3)), { "submarine:" .. sub }, "the sub's own hex is in its zone")
end)

t.test("32.D.1-2: a non-phasing group entering the zone starts it too (phasing or non-phasing)", function()
  local set, g = setup { phasing = "Axis" }
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(0, 0), { reserve = true })
  local sub = F.group(g, "U", "Axis", { "SUB" }, H(2, 0))
  t.eq(F.combats(enters(set, g, tf, H(1, 0))), { "submarine:" .. sub })
end)

t.test("32.D.1-3: submarine groups ignore enemy submarine groups (adjacent, or in their hex)", function()
  local set, g = setup()
  local mine = F.group(g, "S", "Allied", { "SUB" }, H(0, 0))
  F.group(g, "U", "Axis", { "SUB" }, H(2, 0))
  t.eq(F.combats(enters(set, g, mine, H(1, 0))), {})
  t.eq(F.combats(enters(set, g, mine, H(2, 0), 2)), {})
  t.eq(F.combats(spends(set, g, mine, H(2, 0), 15, 17, "replenish")), {})
end)

t.test("32.D.1-4: only non-submarine activity starts it: a moving submarine near enemy surface groups starts nothing", function()
  local set, g = setup()
  local mine = F.group(g, "S", "Allied", { "SUB" }, H(0, 0))
  F.group(g, "TF", "Axis", { "TF" }, H(2, 0))
  t.eq(F.combats(enters(set, g, mine, H(1, 0))), {}, "no submarine combat, and no surface combat (32.D.2 note)")
end)

t.test("32.D.1-5: a phasing group starting the step in the zone starts it by spending MPs in its hex without leaving", function()
  local set, g = setup()
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(0, 0))
  local sub = F.group(g, "U", "Axis", { "SUB" }, H(1, 0))
  F.emit(set, g, "naval_step_start", { side = "Allied", step = 1 })
  t.eq(F.combats(spends(set, g, tf, H(0, 0), 15, 15, "replenish")), { "submarine:" .. sub })
  t.eq(F.combats(spends(set, g, tf, H(0, 0), 5, 20, "lay_mine")), {}, "once per step for the same enemy")
  F.emit(set, g, "naval_step_start", { side = "Allied", step = 2 })
  t.eq(F.combats(spends(set, g, tf, H(0, 0), 5, 5, "lay_mine")), { "submarine:" .. sub }, "a new step")
end)

t.test("32.D.1-6: not when the group has left its hex, nor for a non-phasing group, a friendly sub, or an enemy sub in port", function()
  local set, g = setup()
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(0, 0))
  F.group(g, "U", "Axis", { "SUB" }, H(3, 0))
  F.emit(set, g, "naval_step_start", { side = "Allied", step = 1 })
  enters(set, g, tf, H(1, 0))                       -- moved on: it left its hex
  t.eq(F.combats(spends(set, g, tf, H(1, 0), 15, 16, "replenish")), {}, "left its start hex this step")
  local other = F.group(g, "R", "Axis", { "TF" }, H(5, 0))
  F.group(g, "S", "Allied", { "SUB" }, H(5, 1))
  t.eq(F.combats(spends(set, g, other, H(5, 0), 15, 15, "replenish")), {}, "a non-phasing group starting nothing by spending")
  F.group(g, "Own", "Allied", { "SUB" }, H(10, 1))
  F.group(g, "Harbour", "Axis", { "SUB" }, H(10, 2), { in_port = true })
  local nt = F.group(g, "NT", "Allied", { "NT" }, H(10, 0))
  t.eq(F.combats(enters(set, g, nt, H(10, 1))), {}, "a friendly sub, and an enemy sub in port")
end)

t.test("32.D.1-7: submarine combat suspends movement; the default resolution records one round; movement resumes", function()
  local set, g, said = setup()
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(0, 0), { mp_spent = 3 })
  local sub = F.group(g, "U", "Axis", { "SUB" }, H(2, 0))
  local ev = enters(set, g, tf, H(1, 0), 3)
  local c = ev.combat
  local nc = F.emit(set, g, "naval_combat", { group = tf, hex = H(1, 0), kind = c.kind, enemy = c.enemy, round = 1 })
  t.eq(nc.occurred, true)
  t.eq(nc.rounds, 1)
  t.eq(nc.mp, 0, "the first round is free")
  t.eq(nc.resume, true, "MPs left: movement resumes")
  t.eq(g:count_keyed("naval_combat"), 1)
  t.eq(g:get_keyed("naval_combat", 1), "round 1 of submarine combat: TF with enemy U at A:0101: engagement recorded")
  t.eq({ g:group_get_name(tf), g:group_get_name(sub) }, { "TF", "U" }, "named by the groups' names")
  t.ok(said[#said]:find("^32.D: round 1 of submarine combat"), "narrated with the rule id")
  t.ok(g:journal_text():find('"ev":"keyed","rule":"32.D","map":"naval_combat","key":[1],"old":null,"new":"round 1 of submarine', 1, true),
    "journaled")
end)

-- ---- 32.D.2 surface combat -------------------------------------------------------------

t.test("32.D.2-1: a non-submarine group (phasing or not) entering an enemy naval group's combat zone starts surface combat", function()
  local set, g = setup()
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(0, 0))
  local en = F.group(g, "E", "Axis", { "TF", "NT" }, H(3, 0))
  t.eq(F.combats(enters(set, g, tf, H(1, 0))), {})
  t.eq(F.combats(enters(set, g, tf, H(2, 0), 2)), { "surface:" .. en })
  -- the non-phasing side entering the phasing group's zone
  local r = F.group(g, "R", "Axis", { "CG" }, H(0, 3), { reserve = true })
  t.eq(F.combats(enters(set, g, r, H(0, 1))), { "surface:" .. tf }, "the Axis group enters the zone of the TF at (0,0)")
end)

t.test("32.D.2-2: submarine groups never take part in surface combat; both kinds can start on one entry", function()
  local set, g = setup()
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(0, 0))
  local sub = F.group(g, "U", "Axis", { "SUB" }, H(2, 0))
  t.eq(F.combats(enters(set, g, tf, H(1, 0))), { "submarine:" .. sub }, "no surface combat with a submarine group")
  local en = F.group(g, "E", "Axis", { "TF" }, H(2, -1))
  local ev = enters(set, g, tf, H(1, 0), 2)
  t.eq(F.combats(ev), { "submarine:" .. sub, "surface:" .. en }, "in rule order: 32.D.1, then 32.D.2")
  t.eq(ev.combat, ev.combats[1], "ev.combat is the first")
end)

t.test("32.D.2-3: a cargo group ignores enemy cargo groups, even in their hex; other pairings fight", function()
  local set, g = setup()
  local cargo = F.group(g, "C", "Allied", { "NT", "LC" }, H(0, 0))
  local ecargo = F.group(g, "EC", "Axis", { "NT" }, H(2, 0))
  t.eq(F.combats(enters(set, g, cargo, H(1, 0))), {})
  t.eq(F.combats(enters(set, g, cargo, H(2, 0), 2)), {}, "entering the enemy cargo group's hex")
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(0, 0))
  t.eq(F.combats(enters(set, g, tf, H(1, 0))), { "surface:" .. ecargo }, "combat group vs cargo")
  local mixed = F.group(g, "M", "Allied", { "TF", "NT" }, H(0, 0))
  t.eq(F.combats(enters(set, g, mixed, H(1, 0))), { "surface:" .. ecargo }, "mixed group vs cargo")
  local etf = F.group(g, "ETF", "Axis", { "TF" }, H(0, 5))
  local c2 = F.group(g, "C2", "Allied", { "LB" }, H(0, 3))
  t.eq(F.combats(enters(set, g, c2, H(0, 4))), { "surface:" .. etf }, "cargo vs combat group")
end)

t.test("32.D.2-4: no combat if the moving units have no MPs left", function()
  local set, g, said = setup()
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(0, 0), { mp_spent = 15 })
  F.group(g, "E", "Axis", { "TF" }, H(2, 0))
  t.eq(F.combats(enters(set, g, tf, H(1, 0), 15)), {}, "entered with its last MP")
  t.ok(said[#said]:find("spent all its MPs", 1, true))
  t.eq(F.combats(enters(set, g, tf, H(1, 0), 14)), { "surface:2" }, "one MP left")
  local nc = F.emit(set, g, "naval_combat", { group = tf, hex = H(1, 0), kind = "surface", enemy = 2, round = 1 })
  t.eq(nc.occurred, false, "the resolution checks again")
  t.eq(g:count_keyed("naval_combat"), 0)
end)

t.test("32.D.2-5: a phasing group starting the step in the zone starts surface combat by spending MPs without leaving", function()
  local set, g = setup()
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(0, 0))
  local en = F.group(g, "E", "Axis", { "TF" }, H(0, 1))
  F.emit(set, g, "naval_step_start", { side = "Allied", step = 1 })
  t.eq(F.combats(spends(set, g, tf, H(0, 0), 5, 5, "lay_mine")), { "surface:" .. en })
  t.eq(F.combats(spends(set, g, tf, H(0, 0), 5, 10, "lay_mine")), {}, "once per step")
  -- a group that has spent everything starts nothing
  local tf2 = F.group(g, "TF2", "Allied", { "TF" }, H(1, 1))
  t.eq(F.combats(spends(set, g, tf2, H(1, 1), 15, 15, "replenish")), {}, "no MPs left after the activity")
end)

t.test("32.D.2-6: each round after the first costs 1 MP (32.A.3); movement resumes if MPs remain", function()
  local set, g = setup { variants = { "tests/families/variants/navgroup_rounds.lua" } }
  local tf = F.group(g, "TF", "Allied", { "TF", "NT" }, H(0, 0), { mp_spent = 4 })
  local en = F.group(g, "E", "Axis", { "TF" }, H(1, 0))
  local nc = F.emit(set, g, "naval_combat", { group = tf, hex = H(0, 0), kind = "surface", enemy = en, round = 1 })
  t.eq(nc.rounds, 3)
  t.eq(nc.mp, 2)
  t.eq(g:group_get_value(tf, "mp_spent"), 6)
  t.eq(nc.resume, true)
  t.eq(g:count_keyed("naval_combat"), 3, "three rounds recorded")
  t.ok(g:get_keyed("naval_combat", 3):find("^round 3 of surface combat"))
  -- one MP left: the second round is fought, there is none for a third
  local tf2 = F.group(g, "TF2", "Allied", { "TF" }, H(0, 0), { mp_spent = 14 })
  nc = F.emit(set, g, "naval_combat", { group = tf2, hex = H(0, 0), kind = "surface", enemy = en, round = 1 })
  t.eq(nc.rounds, 2)
  t.eq(nc.mp, 1)
  t.eq(g:group_get_value(tf2, "mp_spent"), 15)
  t.eq(nc.resume, false, "no MPs: movement does not resume")
end)

t.test("32.D-1: the combat zone is data: a variant widens it", function()
  local set, g = setup { variants = { "tests/families/variants/navgroup_rounds.lua" } }
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(0, 0))
  local en = F.group(g, "E", "Axis", { "TF" }, H(3, 0))
  local sub = F.group(g, "U", "Axis", { "SUB" }, H(0, 3))
  t.eq(F.combats(enters(set, g, tf, H(1, 0))), { "surface:" .. en }, "naval zone: 2 hexes")
  t.eq(set:query(g, "in_combat_zone", H(0, 3), H(0, 1), "submarine"), false, "submarine zone still 1")
  t.eq(#set:query(g, "combat_zone", H(0, 0), "naval"), 19)
  t.eq(#set:query(g, "combat_zone", H(0, 0), "cd"), 7, "default: the hex and its six neighbours")
  t.ok(sub)
end)

t.test("32.D-2: resolution is a hook: a variant wraps resolve_naval_combat, or a scenario's rule resolves it", function()
  local set, g = setup { variants = { "tests/families/variants/navgroup_resolver.lua" } }
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(0, 0))
  local en = F.group(g, "E", "Axis", { "TF" }, H(1, 0))
  local nc = F.emit(set, g, "naval_combat", { group = tf, hex = H(0, 0), kind = "surface", enemy = en, round = 1 })
  t.eq(nc.rounds, 2)
  t.eq(nc.mp, 1)
  t.ok(g:get_keyed("naval_combat", 2):find("hit (default said: engagement recorded)", 1, true))
  set, g = setup { families = { "navgroup_resolver" } }
  tf = F.group(g, "TF", "Allied", { "TF" }, H(0, 0))
  en = F.group(g, "E", "Axis", { "TF" }, H(1, 0))
  nc = F.emit(set, g, "naval_combat", { group = tf, hex = H(0, 0), kind = "surface", enemy = en, round = 1 })
  t.eq(nc.rounds, 4)
  t.eq(nc.mp, 3)
  t.eq(g:group_get_value(tf, "mp_spent"), 3)
  t.ok(g:get_keyed("naval_combat", 4):find(": miss$"))
end)

t.test("32.D-3: combat rounds are MPs spent (mp_spent, activity 'combat round') and do not start new group combats", function()
  local set, g = setup { variants = { "tests/families/variants/navgroup_rounds.lua" } }
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(0, 0))
  local en = F.group(g, "E", "Axis", { "TF" }, H(1, 0))
  F.group(g, "U", "Axis", { "SUB" }, H(0, 1))
  F.emit(set, g, "naval_step_start", { side = "Allied", step = 1 })
  F.emit(set, g, "naval_combat", { group = tf, hex = H(0, 0), kind = "surface", enemy = en, round = 1 })
  t.eq(g:count_keyed("naval_combat"), 3, "three rounds, no submarine combat started by the rounds' MPs")
end)

-- ---- 32.D.3 CD combat --------------------------------------------------------------------

-- An Axis CD unit (level `level`) at (0,0); an Allied group at (3,0).
local function cd_setup(level, opts)
  local set, g, said = setup(opts)
  local cd = g:unit_new { name = "CD", type = "CD", side = "Axis", at = { "hex", H(0, 0) }, values = { cd = level or 2 } }
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(3, 0), { allowance = 30 })
  return set, g, tf, cd, said
end

-- Spend MPs one at a time in `hex` and list the fire points reached.
local function fire_log(set, g, grp, hex, n, start)
  local log = {}
  for i = 1, n do
    local ev = spends(set, g, grp, hex, 1, (start or 0) + i, i == 1 and "enter" or "lay_mine", i == 1)
    for _, c in ipairs(ev.combats or {}) do log[#log + 1] = ("%s@%d"):format(c.fired_by, c.at_mp) end
  end
  return log
end

t.test("32.D.3-1: by the CD when a naval unit spends its first 2 MPs in its combat zone, the entry cost included", function()
  local set, g, tf = cd_setup(2)
  local ev = spends(set, g, tf, H(2, 0), 1, 1, "enter", true)
  t.eq(F.combats(ev), {}, "(2,0) is outside the zone")
  ev = spends(set, g, tf, H(1, 0), 1, 2, "enter", true)
  t.eq(F.combats(ev), {}, "first MP in the zone")
  ev = spends(set, g, tf, H(1, -1), 1, 3, "enter", true)
  t.eq(F.combats(ev), { "cd:cd" }, "second MP in the zone")
  t.eq(ev.combat.cd, H(0, 0))
  t.eq(ev.combat.at_mp, 2)
  t.eq(ev.combat.return_fire, true, "the other side may fire back")
  -- a coastal hex costing 2 to enter: the CD fires on entry
  local tf2 = F.group(g, "TF2", "Allied", { "TF" }, H(2, 0))
  t.eq(F.combats(spends(set, g, tf2, H(1, 0), 2, 2, "enter", true)), { "cd:cd" })
end)

t.test("32.D.3-2: then by the CD every 5 MPs after the first 2 (7, 12, ...), and by the naval unit at 5 MPs in the zone (10, 15, ...)", function()
  local set, g, tf = cd_setup(2)
  t.eq(fire_log(set, g, tf, H(1, 0), 15), { "cd@2", "group@5", "cd@7", "group@10", "cd@12", "group@15" })
end)

t.test("32.D.3-3: by the naval unit when it spends 5 MPs in the zone, the entry included; one activity can cross several points", function()
  local set, g, tf = cd_setup(2)
  local ev = spends(set, g, tf, H(1, 0), 2, 2, "enter", true)
  t.eq(F.combats(ev), { "cd:cd" })
  ev = spends(set, g, tf, H(1, 0), 3, 5, "lay_mine")
  t.eq(F.combats(ev), { "cd:group" }, "5 MPs in the zone: the group fires")
  local tf2 = F.group(g, "TF2", "Allied", { "TF" }, H(3, 0), { allowance = 45 })
  ev = spends(set, g, tf2, H(1, 0), 15, 15, "replenish")
  t.eq(#ev.combats, 6)
  ev = spends(set, g, tf2, H(1, 0), 15, 30, "replenish")
  local at = {}
  for i, c in ipairs(ev.combats) do at[i] = c.fired_by .. "@" .. c.at_mp end
  t.eq(at, { "cd@17", "group@20", "cd@22", "group@25", "cd@27", "group@30" }, "15 more MPs: points 16..30 crossed, in order")
end)

t.test("32.D.3-4: a CD firing into an adjacent hex has its value halved; in its own hex, full", function()
  local set, g, tf = cd_setup(3)
  local ev = spends(set, g, tf, H(1, 0), 2, 2, "enter", true)
  t.eq(ev.combat.value, 1.5)
  t.eq(ev.combat.halved, true)
  t.eq(ev.combat.level, 3)
  local tf2 = F.group(g, "TF2", "Allied", { "TF" }, H(1, 0))
  ev = spends(set, g, tf2, H(0, 0), 2, 2, "enter", true)
  t.eq(ev.combat.value, 3)
  t.eq(ev.combat.halved, false)
  set, g, tf = cd_setup(4)
  t.eq(spends(set, g, tf, H(1, 0), 2, 2, "enter", true).combat.value, 2, "an even level halves to an integer")
  -- naval_combat without the value (as the move action passes it): 32.D finds it
  local nc = F.emit(set, g, "naval_combat", { group = tf, hex = H(1, 0), kind = "cd", cd = H(0, 0), fired_by = "cd", round = 1 })
  t.eq({ nc.value, nc.halved, nc.resolved }, { 2, true, true })
  t.ok(g:get_keyed("naval_combat", 1):find("the CD at A:0000 (value 2, halved) fires on TF at A:0101", 1, true),
    g:get_keyed("naval_combat", 1))
end)

t.test("32.D.3-5: leaving the zone starts the count again; a friendly CD does not fire", function()
  local set, g, tf = cd_setup(2)
  spends(set, g, tf, H(1, 0), 1, 1, "enter", true)
  spends(set, g, tf, H(2, 0), 1, 2, "enter", true)         -- out of the zone
  t.eq(F.combats(spends(set, g, tf, H(1, 0), 1, 3, "enter", true)), {}, "first MP of a new visit")
  t.eq(F.combats(spends(set, g, tf, H(1, 0), 1, 4, "lay_mine")), { "cd:cd" })
  local ax = F.group(g, "AX", "Axis", { "TF" }, H(2, 0))
  t.eq(F.combats(spends(set, g, ax, H(1, 0), 2, 2, "enter", true)), {}, "an Axis group and the Axis CD")
end)

t.test("32.D.3-6: effects on movement as surface combat: no CD combat when the MPs are all spent", function()
  local set, g, tf = cd_setup(2)
  g:group_set_value(tf, "mp_spent", 28)
  local ev = spends(set, g, tf, H(1, 0), 2, 30, "enter", true)
  t.eq(F.combats(ev), {}, "the entry spent the last of its 30 MPs")
end)

t.test("32.D.3-7: the board's coast defences fire at the enemies of the hex's owner (suez.map: Port Said, CD 2, Allied)", function()
  local b = assert(keel.board.load("scenarios/maps/suez.map"))
  local set, g = setup { board = b, phasing = "Axis" }
  local ps = b:hex("19A:3413")
  local nb
  for _, h in ipairs(keel.hex.neighbors(ps)) do
    if b:contains(h) and b:get_terrain(h) ~= "land" then nb = h; break end
  end
  local ax = F.group(g, "AX", "Axis", { "TF" }, nb)
  local ev = spends(set, g, ax, nb, 2, 2, "enter", true)
  t.eq(F.combats(ev), { "cd:cd" })
  t.eq(ev.combat.cd, ps)
  t.eq(ev.combat.value, 1, "adjacent: 2 halved")
  local al = F.group(g, "AL", "Allied", { "TF" }, nb)
  t.eq(F.combats(spends(set, g, al, nb, 2, 2, "enter", true)), {}, "the Allied CD does not fire at Allied groups")
end)

t.test("32.D.3-8: combat rounds fought in a CD's zone count as MPs spent there: the CD fires when they reach its point", function()
  local set, g = setup { variants = { "tests/families/variants/navgroup_resolver.lua" } }
  g:unit_new { name = "CD", type = "CD", side = "Axis", at = { "hex", H(0, 0) }, values = { cd = 2 } }
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(1, 0), { mp_spent = 1 })
  local en = F.group(g, "E", "Axis", { "TF" }, H(2, 0))
  spends(set, g, tf, H(1, 0), 1, 1, "enter", true)
  local nc = F.emit(set, g, "naval_combat", { group = tf, hex = H(1, 0), kind = "surface", enemy = en, round = 1 })
  t.eq(nc.rounds, 2)
  t.eq(g:count_keyed("naval_combat"), 4, "two surface rounds (the second's MP is the 2nd in the zone), then the CD's two")
  t.ok(g:get_keyed("naval_combat", 3):find("^round 1 of CD combat: the CD at A:0000 %(value 1, halved%) fires on TF at A:0101"),
    g:get_keyed("naval_combat", 3))
end)

-- ---- the payload protocol ----------------------------------------------------------------

t.test("32.D-4: the payload protocol: ev.combat is the first combat, ev.combats all; nothing set when no combat starts", function()
  local set, g = setup()
  local tf = F.group(g, "TF", "Allied", { "TF" }, H(0, 0))
  local ev = enters(set, g, tf, H(1, 0))
  t.eq(ev.combat, nil)
  t.eq(ev.combats, nil)
  t.eq(ev.stop, nil)
end)

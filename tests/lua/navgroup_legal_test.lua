-- tests/lua/navgroup_legal_test.lua — what Rule 32 tells a user interface:
-- the parameter domains of the navgroup family's actions (move, spend,
-- split, combine, react ...) and what a side sees of the other side's naval
-- groups (32.B), at points of the showcase scenarios/suez_1942.lua.
local t = require "keel.testing"
local scenario = require "keel.scenario"

local SPEC = scenario.load("scenarios/suez_1942.lua")

-- the showcase played up to (not including) order `upto`
local function at(upto)
  local run = scenario.start(SPEC)
  for i = 1, upto - 1 do
    local outcome, problems = run:play(i, SPEC.orders[i])
    assert(#problems == 0, outcome.message)   -- as the scenario expects (some orders are refused)
  end
  return run
end

local D = dofile("tests/lua/domains_fixture.lua")
local param, values = D.param, D.values

local function action(run, side, name) return D.listed(run.set, run.game, side, name) end

local function choice(p, given_group) return D.choice(p, { group = given_group }) end

local function find(domain, value)
  for _, c in ipairs(domain) do if c.value == value then return c end end
end

t.test("32.A-7: move offers the phasing group and every hex its MPs reach, each with its MP cost", function()
  local run = at(3)   -- the Axis naval step has started
  local regia = run.groups.Regia
  local move = action(run, "Axis", "move")
  t.eq(move.available, true)
  t.eq(move.checked, true)
  t.eq(values(param(move, "group").domain), { regia })
  local to = choice(param(move, "to"), regia)
  t.eq(find(to, "19A:3407").cost, 1, "the next all-sea hex")
  t.eq(find(to, "19A:3412").cost, 6, "the scenario's first move: six hexes along the row")
  t.eq(find(to, "19A:3406"), nil, "not the hex it is in")
  for _, c in ipairs(to) do t.ok(c.cost >= 1 and c.cost <= 15, "within the 15 MPs: " .. c.value) end
  -- every destination listed is a legal order; one beyond the reach is not
  local ok = run.set:check(run.game, "move", { group = regia, to = "19A:3412" })
  t.eq(ok, nil)
end)

t.test("32.A-8: a group that has spent its MPs has no destination: move not available, with the reason", function()
  local run = at(3)
  local regia = run.groups.Regia
  run.game:group_set_value(regia, "mp_spent", 15)
  local move = action(run, "Axis", "move")
  t.eq(move.available, false)
  t.eq(move.kind, "domain")
  t.ok(move.reason:find("32.A: the group has no MPs left", 1, true), move.reason)
end)

t.test("32.A.3-6: spend offers the activities of the cost summary the group's units may do, with their costs", function()
  local run = at(3)
  local spend = action(run, "Axis", "spend")
  local acts = choice(param(spend, "activity"), run.groups.Regia)
  t.eq(find(acts, "replenish").cost, 15)
  t.eq(find(acts, "lay_mine").cost, 5)
  t.eq(find(acts, "enter_all_sea"), nil, "movement rows are the move action's")
  t.eq(find(acts, "combat_round"), nil, "combat rounds are 32.D's")
  t.eq(find(acts, "prepare_pi_half"), nil, "30 MPs: more than the 15 left")
end)

t.test("32.A.1-5: split offers a group with two units or more and its units; combine the groups in one hex", function()
  local run = at(13)   -- the Allied naval step has started
  local split = action(run, "Allied", "split")
  t.eq(values(param(split, "group").domain), { run.groups.Convoy })
  t.eq(values(choice(param(split, "units"), run.groups.Convoy)), { run.units["Convoy WS-1"], run.units["Convoy WS-2"] })
  local combine = action(run, "Allied", "combine")
  t.eq(combine.available, false)
  t.eq(combine.reason, "no value for parameter 'into': 32.A.1: no other group of its side in the same hex")
  run = at(17)         -- Escort and Convoy at 19A:3412
  combine = action(run, "Allied", "combine")
  t.eq(combine.available, true)
  t.ok(find(choice(param(combine, "into"), run.groups.Convoy), run.groups.Escort), "the scenario's combine is offered")
end)

t.test("32.C-11: react: the activated reserve may react, against the phasing group", function()
  local run = at(3)
  -- the Axis naval step: not the Allies' to decide, and no reserve activated (32.C)
  t.ok(run.set:may(run.game, "react", "Allied"):find("Axis is to act, not Allied", 1, true))
  local why, kind, by = run.set:check(run.game, "react", { group = run.groups.Reserve, against = run.groups.Regia })
  t.eq({ kind, by and by.rule }, { "illegal", "32.C" }, why)
  run = at(5)          -- 32.B's great success has activated the reserve in Alexandria: the Allied window
  local react = action(run, "Allied", "react")
  t.eq(react.available, true)
  t.eq(values(param(react, "group").domain), { run.groups.Reserve })
  t.eq(values(choice(param(react, "against"), run.groups.Reserve)), { run.groups.Regia })
  t.ok(run.set:may(run.game, "react", "Axis"), "never the phasing side")
end)

t.test("32.A.6.a-6: close_suez says why it is not available, and is offered when the rule allows it", function()
  local run = at(31)   -- turn 3, the Allied initial phase: the canal is temporarily closed
  local close = action(run, "Allied", "close_suez")
  t.eq(close.available, false)
  t.eq(close.refused, { rule = "32.A.6.a", family = "navgroup",
                        reason = "32.A.6.a: only an open canal is temporarily closed" })
  t.eq(action(at(23), "Allied", "close_suez").available, true)
end)

t.test("32.B-17: the other side's naval groups are unknown counters; a success reveals the TF count", function()
  local run = at(3)
  local v = run.set:view_for(run.game, "Allied")
  local regia
  for _, g in ipairs(v.groups) do if g.id == run.groups.Regia then regia = g end end
  t.eq(regia.known, false)
  t.eq(regia.name, nil, "its name is not told")
  t.eq(regia.units, nil, "nor its units")
  t.eq(regia.side, "Axis")
  t.eq(regia.at, "19A:3406")
  t.eq(regia.facts, { found = false })
  for _, u in ipairs(v.units) do t.ok(u.side == "Allied" or u.type == "PZ", "no Axis ship listed: " .. tostring(u.name)) end
  run = at(5)          -- Regia has been found (32.B S*: no TF count) ...
  v = run.set:view_for(run.game, "Allied")
  for _, g in ipairs(v.groups) do if g.id == run.groups.Regia then regia = g end end
  t.eq(regia.facts.found, true)
  -- ... the Axis sees it in full
  local axis = run.set:view_for(run.game, "Axis")
  for _, g in ipairs(axis.groups) do if g.id == run.groups.Regia then regia = g end end
  t.eq(regia.known, true)
  t.eq(regia.name, "Regia")
end)

t.test("32.B-18: a group the rules make known (group value known) is seen in full by the other side", function()
  local run = at(3)
  run.game:group_set_value(run.groups.Regia, "known", true)
  local v = run.set:view_for(run.game, "Allied")
  for _, g in ipairs(v.groups) do
    if g.id == run.groups.Regia then t.eq(g.known, true); t.eq(g.name, "Regia") end
  end
end)

t.test("37-9: land offers the phasing side's group and the units its craft carry, planned ones only", function()
  local F = dofile("tests/lua/navgroup_landing_fixture.lua")
  local w = F.world()
  local g, craft = F.fleet(w, "Force", { "LC", "LC" }, "A:0502")
  local planned = F.troop(w, "Planned", craft[1])
  local other = F.troop(w, "Unplanned", craft[2])
  F.plan(w, "A:0502", { planned })
  local land
  for _, e in ipairs(w.set:legal_actions(w.game, "Allied")) do if e.name == "land" then land = e end end
  t.eq(land.available, true)
  t.eq(values(param(land, "group").domain), { g })
  local units = values(choice(param(land, "units"), g))
  t.eq(units, { planned }, "the unit without a plan is carried but may not land (37.C): left out")
  t.ok(other ~= planned)
  for _, e in ipairs(w.set:legal_actions(w.game, "Axis")) do
    if e.name == "land" then t.eq(e.available, false) end
  end
end)

-- tests/lua/fuzz_rules_test.lua — keel fuzz-rules (issue 29): every showcase
-- played briefly by random players with every check, the faults it must
-- flag (a fixture family with one fault of each kind), and the faults it
-- found, kept as regressions.
local t = require "keel.testing"
local fz = require "keel.cli.fuzz_rules"
local scenario = require "keel.scenario"

local function kinds(found)
  local out = {}
  for i, f in ipairs(found) do out[i] = f.kind end
  return out
end

local function show(found)
  local out = {}
  for _, f in ipairs(found) do out[#out + 1] = ("%s seed %d step %d %s: %s"):format(f.scenario, f.seed, f.step, f.kind,
    f.message) end
  return table.concat(out, "\n")
end

-- (make test: one game per showcase, `actions` checked at the first order
-- and every 40th; `make fuzz-rules` plays 1,000 each)
for _, path in ipairs(fz.SHOWCASES) do
  t.test("29-fuzz-showcase: " .. path .. " plays to its end with nothing flagged", function()
    local found, n = fz.game(path, 1, { steps = 2000, actions_every = 40 })
    t.eq(#found, 0, show(found))
    t.ok(n > 0)
  end)
end

t.test("29-fuzz-flags: a rule error, with its seed, step and a command that plays it again", function()
  local found = fz.game("tests/scenarios/fuzz_error.lua", 1, { steps = 50 })
  t.eq(kinds(found), { "error" })
  t.ok(found[1].message:find("FZ.1", 1, true), found[1].message)
  t.ok(found[1].step >= 3)
  t.eq(found[1].command, "keel fuzz-rules tests/scenarios/fuzz_error.lua --seed 1 --games 1 --steps 50")
end)

t.test("29-fuzz-flags: a dead end (nothing legal, not even passing)", function()
  local found = fz.game("tests/scenarios/fuzz_dead.lua", 1, { steps = 50 })
  t.eq(kinds(found), { "dead-end" })
  t.ok(found[1].message:find("not even passing", 1, true))
end)

t.test("29-fuzz-flags: a journal that does not replay to the same hashes", function()
  local found = fz.game("tests/scenarios/fuzz_replay.lua", 1, { steps = 50 })
  t.eq(kinds(found), { "replay" })
  t.ok(found[1].message:find("diverges", 1, true), found[1].message)
end)

t.test("29-fuzz-flags: a game past MAX steps", function()
  local found = fz.game("tests/scenarios/fuzz_long.lua", 1, { steps = 20 })
  t.eq(kinds(found), { "steps" })
  t.eq(found[1].step, 21)
end)

t.test("29-fuzz-cli: keel fuzz-rules prints each finding with the command, exits 1; 0 when clean", function()
  local status, out = t.sh(t.keel_bin .. " fuzz-rules tests/scenarios/fuzz_dead.lua --games 2 --seed 4 --steps 30")
  t.eq(status, 1, out)
  t.ok(out:find("seed 4, step %d+: dead%-end") ~= nil, out)
  t.ok(out:find("reproduce: keel fuzz-rules tests/scenarios/fuzz_dead.lua --seed 5 --games 1 --steps 30", 1, true), out)
  t.ok(out:find("fuzz-rules: 2 finding(s)", 1, true), out)
  status, out = t.sh(t.keel_bin .. " fuzz-rules scenarios/seabox_house_rules.lua --games 1 --quiet")
  t.eq(status, 0, out)
  t.ok(out:find("1 games, %d+ orders, 0 finding") ~= nil, out)
  status, out = t.sh(t.keel_bin .. " fuzz-rules --games 0")
  t.eq(status, 2, out)
end)

-- found by keel fuzz-rules (the random player): a parameter whose domain
-- depends on an optional one left out (barrage's facility on hex) must get
-- no candidates, not a domain called with nil
t.test("29-fuzz-found-1: ocs_salerno seed 1: barrage's facility is drawn only with a hex", function()
  local found = fz.game("scenarios/ocs_salerno.lua", 1, { steps = 2000, actions_every = 0 })
  t.eq(#found, 0, show(found))
  local run = scenario.start(scenario.load("scenarios/ocs_salerno.lua"), { seed = 1 })
  local set, game = run.set, run.game
  local random = require "keel.players.random"
  local dice = require("keel").dice.new(3)
  -- to the first point where the Allies may barrage
  for _ = 1, 40 do
    local side = set:status(game).active[1]
    if side == "Allied" and set:may(game, "barrage", side) == nil then break end
    t.ok(set:act(game, "end_phase", {}, side))
  end
  t.eq(set:may(game, "barrage", "Allied"), nil)
  for _ = 1, 30 do random._time_action(set, game, "Allied", dice, "barrage") end
end)

-- found by a designer's player (doc/examples/players/busy.lua) in keel play:
-- combine_craft compared the phase keys (texts) with < and with -1
t.test("18.4d-combine-phase: combining craft passes on this phase's entry, keys compared as texts", function()
  local run = scenario.start(scenario.load("scenarios/ocs_salerno.lua"), { seed = 1 })
  local set, game = run.set, run.game
  for _ = 1, 10 do
    if set:may(game, "combine_craft", "Allied") == nil then break end
    t.ok(set:act(game, "end_phase", {}, set:status(game).active[1]))
  end
  t.eq(set:status(game).step, "movement_segment")
  local key = ("%d %s %s"):format(game:get_global("turn"), game:get_global("phasing"), game:get_global("phase"))
  -- LCI 124 (12) entered a hex this phase; LCT Flotilla (8) did not (no value)
  game:set_value(12, "entered_phase", key)
  local ok, why = set:act(game, "combine_craft", { craft = 12, into = 8 }, "Allied")
  t.ok(ok, require("keel.errors").format(why))
  t.eq(game:get_value(8, "entered_phase"), key)
  -- a value of an earlier phase is no entry this phase: not passed on
  local run2 = scenario.start(scenario.load("scenarios/ocs_salerno.lua"), { seed = 1 })
  for _ = 1, 10 do
    if run2.set:may(run2.game, "combine_craft", "Allied") == nil then break end
    t.ok(run2.set:act(run2.game, "end_phase", {}, run2.set:status(run2.game).active[1]))
  end
  run2.game:set_value(12, "entered_phase", "0 Axis movement")
  run2.game:set_value(8, "move_ended_phase", "0 Axis movement")
  t.ok(run2.set:act(run2.game, "combine_craft", { craft = 12, into = 8 }, "Allied"))
  t.eq(run2.game:get_value(8, "entered_phase"), nil)
  t.eq(run2.game:get_value(8, "move_ended_phase"), "0 Axis movement")
end)

-- tests/lua/player_test.lua — keel.player and the built-in players (issue
-- 29): the contract (specs, decide never changes the game, reproducible
-- for a seed), what random draws and how often, greedy's evaluation,
-- mcts, the human menu, a designer's player in the sandbox, keel play.
local t = require "keel.testing"
local player = require "keel.player"
local scenario = require "keel.scenario"
local keys = require "keel.keys"

local FIXTURE = "tests/scenarios/player_fixture.lua"

local function start(path, seed)
  local run = scenario.start(scenario.load(path), { seed = seed })
  return run.set, run.game, run
end

-- play n orders with random players (to reach a game in play)
local function advance(set, game, n, seed)
  local p = player.new("random", { seed = seed or 1 })
  for _ = 1, n do
    if game:result().over then break end
    local side = set:status(game).active[1]
    local name, params = p:decide(set, game, side)
    assert(set:act(game, name, params, side))
  end
end

t.test("29-player-spec: kinds, options, bad specs refused with the reason", function()
  t.eq(player.parse("mcts:iterations=200,c=0.5"), { kind = "mcts", options = { iterations = 200, c = 0.5 } })
  t.eq(player.parse("x/y.lua"), { kind = "script", path = "x/y.lua", options = {} })
  t.fails("unknown player 'minimax'", player.new("minimax"))
  t.fails("option 'iterations=': name=value expected", player.new("mcts:iterations="))
  t.fails("unknown option 'depth'", player.new("mcts:depth=3"))
  t.fails("option iterations: a whole number expected", player.new("mcts:iterations=1.5"))
  t.fails("option sample: 0 is out of range", player.new("greedy:sample=0"))
  t.fails("unknown option 'x'", player.new("random:x=1"))
  t.fails("a player's seed must be a whole number", player.new("random", { seed = 0.5 }))
  t.ok(player.new("human"))
end)

t.test("29-player-decide: no player changes the game (state, journal, dice); the order is accepted", function()
  for _, path in ipairs { "scenarios/suez_1942.lua", "scenarios/seazone_trident.lua", FIXTURE } do
    local set, game = start(path, 3)
    advance(set, game, 6)
    for _, spec in ipairs { "random", "greedy:sample=6", "mcts:iterations=12,playout=3" } do
      local side = set:status(game).active[1]
      local hash, journal, dice = game:hash(), game:journal_text(), game.dice:save()
      local p = assert(player.new(spec, { seed = 5 }))
      local name, params = p:decide(set, game, side)
      t.eq(game:hash(), hash, spec)
      t.eq(game:journal_text() == journal, true, spec .. ": the journal unchanged")
      t.eq(game.dice:save() == dice, true, spec .. ": the dice unchanged")
      local ok, why = set:act(game, name, params, side)
      t.ok(ok, ("%s in %s: %s"):format(spec, path, tostring(why)))
    end
  end
end)

t.test("29-player-decide: a side not to act is refused", function()
  local set, game = start(FIXTURE, 1)
  t.raises(function() player.new("random"):decide(set, game, "Blue") end, "Blue is not to act now")
end)

t.test("29-player-seed: the same seed and budget give the same order; games replay", function()
  local set, game = start("scenarios/suez_1942.lua", 2)
  advance(set, game, 4)
  local side = set:status(game).active[1]
  for _, spec in ipairs { "random", "greedy:sample=8", "mcts:iterations=15,playout=2" } do
    local a = { assert(player.new(spec, { seed = 9 })):decide(set, game, side) }
    local b = { assert(player.new(spec, { seed = 9 })):decide(set, game, side) }
    t.eq(player.order_key(a[1], a[2]), player.order_key(b[1], b[2]), spec)
  end
  -- a different seed gives another stream (some order of 20 differs)
  set, game = start(FIXTURE, 1)
  side = "Red"
  local same = true
  local p1, p2 = player.new("random", { seed = 1 }), player.new("random", { seed = 2 })
  for _ = 1, 20 do
    local a, ap = p1:decide(set, game, side)
    local b, bp = p2:decide(set, game, side)
    if player.order_key(a, ap) ~= player.order_key(b, bp) then same = false end
  end
  t.eq(same, false)
end)

t.test("29-player-uniform: random is uniform over available actions, then over each one's candidates", function()
  local set, game = start(FIXTURE, 1)
  local p = player.new("random", { seed = 11 })
  local count, N = {}, 6000
  for _ = 1, N do
    local name, params = p:decide(set, game, "Red")
    local k = player.order_key(name, params)
    count[k] = (count[k] or 0) + 1
  end
  local by_action = {}
  for k, n in pairs(count) do
    local a = k:match("^(%S+)")
    by_action[a] = (by_action[a] or 0) + n
  end
  -- never is not available; choose, sparse (found by enumeration), pair, end_phase are: 1/4 each
  t.eq(keys.sorted(by_action), { "choose", "end_phase", "pair", "sparse" })
  local function near(got, prob, what)   -- within 5 standard deviations of N*prob
    local sd = math.sqrt(N * prob * (1 - prob))
    t.ok(math.abs(got - N * prob) < 5 * sd, ("%s: %d, expected about %.0f"):format(what, got, N * prob))
  end
  for a, n in pairs(by_action) do near(n, 1 / 4, a) end
  -- choose: its 6 legal orders of 12 (no domain depends on another): uniform over them
  for _, k in ipairs { "choose a=1 b=1", "choose a=1 b=3", "choose a=2 b=2", "choose a=3 b=1", "choose a=3 b=3",
                       "choose a=4 b=2" } do
    near(count[k] or 0, 1 / 24, k)
  end
  t.eq(count["sparse x=137"], by_action.sparse)
  -- pair: first uniform, then second uniform among the candidates given first
  near(count["pair first=1 second=1"], 1 / 12, "pair 1 1")
  near(count["pair first=2 second=2"], 1 / 24, "pair 2 2")
  near(count["pair first=3 second=3"], 1 / 36, "pair 3 3")
end)

t.test("29-player-greedy: the best order by the scenario's evaluate", function()
  local set, game = start(FIXTURE, 1)
  -- Red's evaluate is the score: choose a=3 b=3 (9) beats every other order
  local p = player.new("greedy:sample=200,samples=1", { seed = 3 })
  local name, params = p:decide(set, game, "Red")
  t.eq(player.order_key(name, params), "choose a=3 b=3")
  -- Blue has no evaluate: its value is its score (0) less Red's: it keeps Red's score down
  assert(set:act(game, "end_phase", {}, "Red"))
  name = p:decide(set, game, "Blue")
  t.ok(name ~= "choose", name)
end)

t.test("29-player-evaluate: the scenario field is checked like scores", function()
  local spec = { rules = { "player_fixture" }, path = { "../../families" }, evaluate = { Red = { glob = "x" } } }
  t.raises(function() scenario.check(spec, "tests/lua/data/x.lua") end, "evaluate.Red")
  local ok = pcall(scenario.check, { rules = { "player_fixture" }, evaluate = { Red = { global = "x" } } }, "x.lua")
  t.ok(ok)
end)

t.test("29-player-mcts: wins the fixture against random; hidden groups dealt again keep their sizes", function()
  local wins = 0
  for seed = 1, 6 do
    local set, game = start(FIXTURE, seed)
    local ps = { Red = player.new("mcts:iterations=60,playout=4", { seed = seed }),
                 Blue = player.new("random", { seed = seed }) }
    while not game:result().over do
      local side = set:status(game).active[1]
      local name, params = ps[side]:decide(set, game, side)
      assert(set:act(game, name, params, side))
    end
    if game:result().winner == "Red" then wins = wins + 1 end
  end
  t.ok(wins >= 5, ("mcts won %d of 6"):format(wins))
  -- Suez: the Allies see the Axis groups as unknown counters
  local set, game = start("scenarios/suez_1942.lua", 1)
  local mcts = require "keel.players.mcts"
  local hidden = mcts.hidden(set, game, "Allied")
  if hidden then
    for _, pool in ipairs(hidden) do
      local n = 0
      for _, g in ipairs(pool.groups) do n = n + g.size end
      t.eq(n, #pool.units)
    end
  end
end)

-- a fake terminal: lines to read, what was written
local function terminal(lines)
  local i, out = 0, {}
  return {
    read = function() i = i + 1; return lines[i] end,
    write = function(self, ...) for _, s in ipairs { ... } do out[#out + 1] = s end; return self end,
    flush = function() end,
    text = function() return table.concat(out) end,
  }
end

t.test("29-player-human: a numbered menu, each parameter from its candidates; bad answers asked again", function()
  local set, game = start(FIXTURE, 1)
  local term = terminal { "0", "x", "1", "3" }
  local p = player.new("human", { input = term, output = term })
  p.input, p.output = term, term
  -- the menu: choose, end_phase, pair, sparse (never is not offered)
  local name, params = p:decide(set, game, "Red")
  local text = term.text()
  t.ok(text:find("1. choose", 1, true) and text:find("4. sparse", 1, true), text)
  t.ok(not text:find("never", 1, true), text)
  t.ok(text:find("a number from 1 to 4, please", 1, true), text)
  t.eq(name, "choose")
  -- not every combination of a and b is legal: the legal orders are offered as they are
  t.ok(text:find("choose: which order?", 1, true) and text:find('3. {"a":2,"b":2}', 1, true), text)
  t.eq(params, { a = 2, b = 2 })
  t.ok(set:act(game, name, params, "Red"))
  -- the end of the input passes
  local q = player.new("human")
  local eof = terminal {}
  q.input, q.output = eof, eof
  t.eq({ q:decide(set, game, "Red") }, { "end_phase", {} })
end)

local SCRIPT_DIR = t.tmpdir()
local function script(name, text)
  local path = SCRIPT_DIR .. "/" .. name
  assert(require("keel").file.write(path, text))
  return path
end

t.test("29-player-script: a designer's player in the sandbox, under the CPU limit of a decision", function()
  local set, game = start(FIXTURE, 1)
  local p = assert(player.new("doc/examples/players/busy.lua", { seed = 1 }))
  for _ = 1, 20 do
    if game:result().over then break end
    local side = set:status(game).active[1]
    local name, params = p:decide(set, game, side)
    t.ok(set:act(game, name, params, side))
  end
  t.fails("a player file returns { decide = function(info) ... end }",
    player.new(script("none.lua", "return 42")))
  t.fails("os", player.new(script("os.lua", "local now = os.time() return { decide = function() return now end }")))
  local loop = assert(player.new(script("loop.lua", "return { decide = function() while true do end end }")))
  local saved = require("keel").sandbox.limits { cpu = 0.2 }
  local ok, err = pcall(loop.decide, loop, set, game, set:status(game).active[1])
  require("keel").sandbox.limits { cpu = saved.cpu }
  t.eq(ok, false)
  t.ok(tostring(err):find("loop.lua: decide:", 1, true) and tostring(err):find("CPU limit", 1, true), tostring(err))
  local bad = assert(player.new(script("bad.lua", 'return { decide = function() return "never", { x = 1 } end }')))
  t.raises(function() bad:decide(set, game, set:status(game).active[1]) end, "which is refused: illegal never")
  -- the file sees the view, the offered actions and the status; never the game
  local spy = assert(player.new(script("spy.lua", [[
    return { decide = function(info)
      assert(info.game == nil and info.view.side == info.side and info.status.active[1] == info.side)
      assert(#info.actions > 0 and info.random(3) <= 3)
      return "end_phase"
    end }]])))
  local side = set:status(game).active[1]
  t.eq({ spy:decide(set, game, side) }, { "end_phase", {} })
end)

t.test("29-player-guide: the guide shows the example player file as it is", function()
  local guide = t.read_file("doc/guide.md")
  local body = guide:match("<!%-%- player file: doc/examples/players/busy.lua %-%->\n```lua\n(.-)\n```")
  t.ok(body, "the example in doc/guide.md")
  t.eq(body .. "\n", t.read_file("doc/examples/players/busy.lua"))
end)

t.test("29-play-cli: keel play ends the game with the result line; its journal replays", function()
  local j = SCRIPT_DIR .. "/play.jsonl"
  local status, out = t.sh(t.keel_bin .. " play scenarios/suez_1942.lua --player Axis=greedy:sample=4 " ..
    "--player Allied=mcts:iterations=4,playout=2 --seed 5 --journal " .. j)
  t.eq(status, 0, out)
  t.ok(out:find("players: Axis greedy:sample=4, Allied mcts:iterations=4,playout=2", 1, true), out)
  t.ok(out:find("\norder 1: ", 1, true), out)
  t.ok(out:find("\nresult: winner %a+, scores ") ~= nil or out:find("\nresult: a draw", 1, true) ~= nil, out)
  status, out = t.sh(t.keel_bin .. " replay " .. j)
  t.eq(status, 0, out)
  t.ok(out:find("every state hash matches", 1, true), out)
  -- the same seed plays the same game
  local _, a = t.sh(t.keel_bin .. " play scenarios/seabox_house_rules.lua --seed 3 --quiet")
  local _, b = t.sh(t.keel_bin .. " play scenarios/seabox_house_rules.lua --seed 3 --quiet")
  t.eq(a, b)
  t.ok(a:find("played: %d+ order%(s%); state %x+\nresult: ") ~= nil, a)
  -- a human at a terminal whose input ends passes
  status, out = t.sh(t.keel_bin .. " play scenarios/seabox_house_rules.lua --player Allied=human --quiet </dev/null")
  t.eq(status, 0, out)
  status, out = t.sh(t.keel_bin .. " play scenarios/suez_1942.lua --player Nobody=random")
  t.eq(status, 1, out)
  t.ok(out:find("--player Nobody: not a side of this game (sides: Axis, Allied)", 1, true), out)
  status, out = t.sh(t.keel_bin .. " play scenarios/suez_1942.lua --player Axis=minimax")
  t.eq(status, 2, out)
  t.ok(out:find("unknown player 'minimax'", 1, true), out)
end)

t.test("29-play-all: every showcase ends with every built-in player", function()
  for _, path in ipairs(require("keel.cli.fuzz_rules").SHOWCASES) do
    for _, spec in ipairs { "greedy:sample=3,samples=1", "mcts:iterations=3,playout=1" } do
      local set, game = start(path, 1)
      local sides = require("keel.sequence").side_names(set.sequence)
      local ps = {}
      for i, s in ipairs(sides) do
        ps[s] = assert(player.new(i == 1 and spec or "random", { seed = player.side_seed(1, i) }))
      end
      local n = 0
      while not game:result().over and n < 3000 do
        local side = set:status(game).active[1]
        local name, params = ps[side]:decide(set, game, side)
        local ok, why = set:act(game, name, params, side)
        t.ok(ok, ("%s %s: %s"):format(path, spec, tostring(why)))
        n = n + 1
      end
      t.ok(game:result().over, path .. " " .. spec)
    end
  end
end)

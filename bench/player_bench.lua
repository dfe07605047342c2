-- bench/player_bench.lua — the players' speed (issue 29), each figure
-- beside a reference measured in the same run:
--   * whole games by two random players, per showcase, in games per
--     second, beside the scripted `keel run` of the same scenario (its
--     recorded orders played, the same rule set shared);
--   * a random draw (one order, no listing) beside set:legal_actions (every
--     legal order listed) of the same position;
--   * mcts iterations per second per showcase;
--   * what search plays on: game:begin() + game:rollback(mark) (the
--     "copy"), and an order applied then rolled back, beside a copy by
--     save_text/load_text of the state.
-- Targets (issue 29): Suez >= 100 random games/s, mcts >= 2,000
-- iterations/s, a copy <= 20 µs. The strength figures are
-- bench/player_strength.lua (make bench-strength).
package.path = "bench/?.lua;" .. package.path
local lib = require "lib"
local scenario = require "keel.scenario"
local player = require "keel.player"
local random = require "keel.players.random"

local SHOWCASES = require("keel.cli.fuzz_rules").SHOWCASES
local fmt = string.format

-- the best of three timings (a shared machine: noise only adds time)
local function best(fn, min_s)
  local t = math.huge
  for _ = 1, 3 do
    collectgarbage("collect")
    t = math.min(t, lib.time(fn, min_s))
  end
  return t
end

local function random_game(spec, set, seed)
  local run = scenario.start(spec, { set = set, seed = seed })
  local game = run.game
  local ps = {}
  for i, s in ipairs(require("keel.sequence").side_names(set.sequence)) do
    ps[s] = player.new("random", { seed = player.side_seed(seed, i) })
  end
  local n = 0
  while not game:result().over do
    local side = set:status(game).active[1]
    local name, params = ps[side]:decide(set, game, side)
    assert(set:act(game, name, params, side))
    n = n + 1
  end
  game.state:close()
  return n
end

print("== random games per showcase (two random players), beside the scripted keel run")
for _, path in ipairs(SHOWCASES) do
  local spec = scenario.load(path)
  local set = scenario.rule_set(spec, {})
  local seed, orders = 0, 0
  local per_game = best(function(n)
    for _ = 1, n do
      seed = seed + 1
      orders = orders + random_game(spec, set, seed)
    end
  end, 0.5)
  local scripted = best(function(n)
    for _ = 1, n do
      local run = scenario.start(spec, { set = set })
      run:play_all()
      run.game.state:close()
    end
  end, 0.3)
  lib.compare(fmt("%s: a random game (%.0f games/s)", path:match("([^/]+)%.lua$"), 1 / per_game), per_game,
    "scripted run", scripted)
end

-- a position a few orders into the game
local function position(path, steps)
  local spec = scenario.load(path)
  local run = scenario.start(spec, { seed = 3 })
  local set, game = run.set, run.game
  local p = player.new("random", { seed = 1 })
  for _ = 1, steps do
    local side = set:status(game).active[1]
    local name, params = p:decide(set, game, side)
    assert(set:act(game, name, params, side))
  end
  return set, game, set:status(game).active[1]
end

print("== one random order, beside listing every legal order (set:legal_actions)")
for _, path in ipairs(SHOWCASES) do
  local set, game, side = position(path, 5)
  local dice = require("keel").dice.new(1)
  local draw = best(function(n) for _ = 1, n do random.sample(set, game, side, dice) end end, 0.2)
  local list = best(function(n) for _ = 1, n do set:legal_actions(game, side) end end, 0.2)
  lib.compare(path:match("([^/]+)%.lua$") .. ": a random order", draw, "legal_actions", list)
end

print("== mcts iterations per second (iterations=100, playout=8)")
for _, path in ipairs(SHOWCASES) do
  local set, game, side = position(path, 5)
  local p = player.new("mcts:iterations=100", { seed = 1 })
  local per = best(function(n) for _ = 1, n do p:decide(set, game, side) end end, 0.5) / 100
  print(fmt("%-44s keel %10s | %.0f iterations/s (target 2,000 on suez_1942)",
    path:match("([^/]+)%.lua$") .. ": an mcts iteration:", lib.fmt_time(per), 1 / per))
end

print("== what a search plays on: begin + rollback, an order applied and rolled back, a copy")
for _, path in ipairs { "scenarios/suez_1942.lua", "scenarios/seazone_trident.lua" } do
  local set, game, side = position(path, 5)
  local st = game.state
  local name, params = random.sample(set, game, side, require("keel").dice.new(2))
  local mark_t = best(function(n) for _ = 1, n do game:rollback(game:begin()) end end, 0.2)
  local apply_t = best(function(n)
    for _ = 1, n do
      local m = game:begin()
      assert(set:act(game, name, params, side))
      game:rollback(m)
    end
  end, 0.2)
  local copy_t = best(function(n)
    local keel = require "keel"
    for _ = 1, n do
      local text = st:save_text({})
      local copy = keel.state.load_text(text)
      copy:close()
    end
  end, 0.2)
  local short = path:match("([^/]+)%.lua$")
  lib.compare(short .. ": begin + rollback (the copy)", mark_t, "save+load copy", copy_t)
  lib.compare(short .. ": " .. name .. " applied + rolled back", apply_t, "save+load copy", copy_t)
end

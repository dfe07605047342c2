-- bench/player_strength.lua — the players' strength (issue 29), `make
-- bench-strength` (slow: its own target). For each showcase, G pairs of
-- games (default 10; the first argument): in a pair, the same seed is
-- played twice with the sides swapped, the tested player against random;
-- the figure is the tested player's score (a win 1, a draw 1/2) with a
-- 95% interval (Wilson's), beside random against random on the same seeds
-- (the reference: what the side and the dice give alone). A scenario
-- where that reference already decides (one side wins whoever plays it)
-- is decided by its sides and dice, not by the players.
--   bin/keel script bench/player_strength.lua [PAIRS] [PLAYER ...] [-- SCENARIO ...]
package.path = "bench/?.lua;" .. package.path
local scenario = require "keel.scenario"
local player = require "keel.player"
local sequence = require "keel.sequence"

local args = { ... }
local pairs_n = tonumber(args[1]) or 10
local tested, paths = {}, {}
local into = tested
for i = 2, #args do
  if args[i] == "--" then into = paths else into[#into + 1] = args[i] end
end
if #tested == 0 then tested = { "mcts:iterations=30,playout=4", "greedy:sample=8,samples=1" } end
if #paths == 0 then paths = require("keel.cli.fuzz_rules").SHOWCASES end

-- play one game: who plays each side (specs by side); the winner (nil: a draw)
local function play(spec, set, seed, specs)
  local run = scenario.start(spec, { set = set, seed = seed })
  local game = run.game
  local ps = {}
  for i, s in ipairs(sequence.side_names(set.sequence)) do
    ps[s] = assert(player.new(specs[s] or "random", { seed = player.side_seed(seed, i) }))
  end
  local n = 0
  while not game:result().over and n < 5000 do
    local side = set:status(game).active[1]
    local name, params = ps[side]:decide(set, game, side)
    assert(set:act(game, name, params, side))
    n = n + 1
  end
  local w = game:result().winner
  game.state:close()
  return w
end

-- Wilson's 95% interval of a proportion
local function wilson(score, n)
  if n == 0 then return 0, 1 end
  local z, p = 1.96, score / n
  local d = 1 + z * z / n
  local c = (p + z * z / (2 * n)) / d
  local h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
  return math.max(0, c - h), math.min(1, c + h)
end

for _, path in ipairs(paths) do
  local spec = scenario.load(path)
  local set = scenario.rule_set(spec, {})
  local sides = sequence.side_names(set.sequence)
  local a, b = sides[1], sides[2]
  -- the reference: random against random, the same seeds; wins by side
  local ref = { [a] = 0, [b] = 0, draw = 0 }
  for k = 1, 2 * pairs_n do
    local w = play(spec, set, k, {})
    ref[w or "draw"] = ref[w or "draw"] + 1
  end
  print(("%s: random vs random, %d games: %s wins %d, %s wins %d, draws %d%s"):format(path, 2 * pairs_n, a, ref[a],
    b, ref[b], ref.draw, (ref[a] == 2 * pairs_n or ref[b] == 2 * pairs_n) and
    " — decided by the sides and dice alone with random play" or ""))
  for _, t in ipairs(tested) do
    local score, n = 0, 0
    local t0 = os.clock()
    for k = 1, pairs_n do
      for _, side in ipairs { a, b } do   -- the sides swapped: the pair
        local w = play(spec, set, k, { [side] = t })
        score = score + (w == side and 1 or w == nil and 0.5 or 0)
        n = n + 1
      end
    end
    local lo, hi = wilson(score, n)
    print(("  %-34s against random: %.0f%% of %d games (95%%: %.0f%%-%.0f%%), %.1f s"):format(t, 100 * score / n,
      n, 100 * lo, 100 * hi, os.clock() - t0))
  end
end

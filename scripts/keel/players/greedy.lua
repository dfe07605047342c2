--- keel.players.greedy — tries orders in the game itself (inside
-- game:begin()/rollback: nothing reaches the game) and keeps the best by
-- the evaluation (keel.player.evaluate: the scenario's `evaluate` for the
-- side, else its victory scores; a game won or lost outweighs any value).
--
-- Options: sample=N (the orders tried: up to N distinct orders drawn by
-- the random sampler, default 24 — a bounded sample, as listing every
-- legal order costs more than playing them), samples=K (each order played
-- K times under K samples of the dice drawn from the player's stream,
-- values averaged: chance by sampling, default 2). Ties go to the order
-- drawn first (the draws are in random order).
local player = require "keel.player"
local random = require "keel.players.random"
local sequence = require "keel.sequence"

local M = {}

M.OPTIONS = { sample = { integer = true, min = 1, max = 10000 }, samples = { integer = true, min = 1, max = 1000 } }

function M.init(self, options)
  local ok, why = player.check_options(options, M.OPTIONS)
  if not ok then return nil, why end
  self.sample = options.sample or 24
  self.samples = options.samples or 2
  return true
end

-- the value of the game to `side` now: a win or loss first, then the evaluation
local WIN = 1e12
local function value(set, game, side)
  if sequence.is_over(game) then
    local w = game:get_keyed("result", "winner")
    if w == nil then return 0 end
    return w == side and WIN or -WIN
  end
  return player.evaluate(set, game)[side]
end

--- The orders the player weighs: distinct orders drawn for `side`, in the
--- order drawn. (Changes nothing.)
function M.candidates(self, set, game, side)
  local out, seen = {}, {}
  for _ = 1, self.sample do
    local name, params = random.sample(set, game, side, self.dice, self.memo)
    if not name then break end
    local k = player.order_key(name, params)
    if not seen[k] then
      seen[k] = true
      out[#out + 1] = { name = name, params = params }
    end
  end
  return out
end

local function search(self, set, game, side, cands)
  local best, best_v
  for _, c in ipairs(cands) do
    local total, n = 0, 0
    for _ = 1, self.samples do
      local mark = game:begin()
      game.dice:load(player.chance_dice(self.dice))
      local ok = set:act(game, c.name, c.params, side)
      if ok then total, n = total + value(set, game, side), n + 1 end
      game:rollback(mark)
    end
    if n > 0 then
      local v = total / n
      if best_v == nil or v > best_v then best, best_v = c, v end
    end
  end
  return best
end

function M.decide(self, set, game, side)
  self.memo = { memo = { n = 0 } }
  local cands = M.candidates(self, set, game, side)
  if #cands == 0 then return nil, "no action is available" end
  if #cands == 1 then return cands[1].name, cands[1].params end
  local best = player.searching(set, game, search, self, set, game, side, cands)
  best = best or cands[1]
  return best.name, best.params
end

return M

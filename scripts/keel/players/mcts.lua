--- keel.players.mcts — information-set Monte Carlo tree search.
--
-- Each iteration plays on the game itself inside game:begin()/rollback
-- (nothing reaches the game, its journal or its dice) and:
--  1. samples chance: the game's dice are loaded with a fresh stream drawn
--     from the player's (the search never reads the dice the game will roll);
--  2. determinizes what the side cannot see: the units of the enemy groups
--     its view shows as unknown counters (keel.visibility) are dealt again
--     among those groups, each keeping its number of units and its place —
--     a deal consistent with what the side sees (markers, counts);
--  3. descends the tree of orders (nodes are information sets: the orders
--     played from the root, whoever played them), choosing by UCB1 among
--     the children that the side to act may play in this determinization
--     (an order set:act refuses here is passed over), with progressive
--     widening: a node visited n times has at most ceil(widen * n^alpha)
--     children; below that a new order is drawn by the random sampler;
--  4. plays out at most `playout` random orders (a truncated playout) and
--     scores the position for every side (keel.player.rewards: win 1,
--     loss 0, draw 1/2, else the evaluation squashed into (0.05, 0.95));
--  5. adds each side's reward to the children it chose.
-- The order played is the root's child visited most (ties: the first made).
--
-- Options: iterations=N (default 200), ms=T (a time budget instead: not
-- reproducible, given only when asked), playout=N (default 8), c=X (UCB1
-- exploration, default 0.7), widen=X (default 2), alpha=X (default 0.5),
-- scale=X (the evaluation worth 3/4, default 10).
local player = require "keel.player"
local random = require "keel.players.random"
local sequence = require "keel.sequence"

local sqrt, log, ceil = math.sqrt, math.log, math.ceil
local ipairs = ipairs

local M = {}

M.OPTIONS = {
  iterations = { integer = true, min = 0, max = 100000000 }, ms = { min = 0, max = 3600000 },
  playout = { integer = true, min = 0, max = 100000 }, c = { min = 0, max = 100 },
  widen = { min = 0.01, max = 1000 }, alpha = { min = 0, max = 1 }, scale = { min = 1e-9, max = 1e12 },
}

function M.init(self, options)
  local ok, why = player.check_options(options, M.OPTIONS)
  if not ok then return nil, why end
  self.iterations = options.iterations or 200
  self.ms = options.ms
  self.playout = options.playout or 8
  self.c = options.c or 0.7
  self.widen = options.widen or 2
  self.alpha = options.alpha or 0.5
  self.scale = options.scale or 10
  return true
end

-- ---- determinization ----------------------------------------------------------------

--- What `side` cannot see that a search deals again: for each other side,
--- its groups the view shows as unknown counters ({id, size, loc, where},
--- at least two), and their units. nil when there is nothing to deal.
---@return table|nil
function M.hidden(set, game, side)
  if not (set.queries and set.queries.group_visibility) then return nil end
  local view = set:view_for(game, side)
  local st = game.state
  local by_side, sides = {}, {}
  for _, g in ipairs(view.groups) do
    if g.known == false and g.side ~= side then
      local members = st:group_units(g.id)
      if #members > 0 then
        local loc, where = st:get(members[1], "loc")
        local pool = by_side[g.side]
        if not pool then pool = { groups = {}, units = {} }; by_side[g.side] = pool; sides[#sides + 1] = g.side end
        pool.groups[#pool.groups + 1] = { id = g.id, size = #members, loc = loc, where = where }
        for _, u in ipairs(members) do pool.units[#pool.units + 1] = u end
      end
    end
  end
  local out = {}
  for _, s in ipairs(sides) do
    if #by_side[s].groups >= 2 then out[#out + 1] = by_side[s] end
  end
  return #out > 0 and out or nil
end

-- Deal the hidden units again among their groups (inside a search).
local function determinize(game, hidden, dice)
  local st = game.state
  for _, pool in ipairs(hidden) do
    local units = { table.unpack(pool.units) }
    for i = #units, 2, -1 do
      local j = dice:range(i)
      units[i], units[j] = units[j], units[i]
    end
    for _, g in ipairs(pool.groups) do
      for _, u in ipairs(st:group_units(g.id)) do st:group_remove(g.id, u) end
    end
    local k = 1
    for _, g in ipairs(pool.groups) do
      for _ = 1, g.size do
        local u = units[k]
        k = k + 1
        st:group_add(g.id, u)
        local loc, where = st:get(u, "loc")
        if loc ~= g.loc or where ~= g.where then st:move(u, g.loc, g.where) end
      end
    end
  end
end

-- ---- the tree -------------------------------------------------------------------------

local function new_node(name, params, side, key)
  return { name = name, params = params, side = side, key = key, n = 0, w = 0, children = {}, by_key = {} }
end

-- Draw a new order for `side` at `node`: its child (new or met before).
local function expand(self, set, game, node, side)
  local name, params = random.sample(set, game, side, self.dice, self.memo)
  if not name then return nil end
  local key = side .. "|" .. player.order_key(name, params)
  local child = node.by_key[key]
  if not child then
    child = new_node(name, params, side, key)
    node.by_key[key] = child
    node.children[#node.children + 1] = child
  end
  return child, true
end

-- The children of `node` for `side` by UCB1, best first.
local function ranked(self, node, side)
  local list = {}
  local ln = log(node.n + 1)
  for _, ch in ipairs(node.children) do
    if ch.side == side then
      local u = ch.n == 0 and math.huge or (ch.w / ch.n + self.c * sqrt(ln / ch.n))
      list[#list + 1] = { ch = ch, u = u }
    end
  end
  table.sort(list, function(a, b) return a.u > b.u end)
  return list
end

local function iterate(self, set, game, root, hidden)
  local mark = game:begin()
  game.dice:load(player.chance_dice(self.dice))
  if hidden then determinize(game, hidden, self.dice) end
  local path = {}
  local node = root
  while not sequence.is_over(game) do
    local side = player.to_act(set, game)
    if not side then break end
    local chosen, fresh
    local limit = ceil(self.widen * (node.n + 1) ^ self.alpha)
    local mine = 0
    for _, ch in ipairs(node.children) do if ch.side == side then mine = mine + 1 end end
    if mine < limit then
      chosen, fresh = expand(self, set, game, node, side)
      if chosen and not set:act(game, chosen.name, chosen.params, side) then chosen = nil end
    end
    if not chosen then
      for _, r in ipairs(ranked(self, node, side)) do
        if set:act(game, r.ch.name, r.ch.params, side) then chosen = r.ch; break end
      end
    end
    if not chosen then   -- nothing known is playable here: a new one
      chosen, fresh = expand(self, set, game, node, side)
      if not chosen or not set:act(game, chosen.name, chosen.params, side) then break end
    end
    path[#path + 1] = chosen
    node = chosen
    if fresh and chosen.n == 0 then break end
  end
  -- the playout, truncated
  for _ = 1, self.playout do
    if sequence.is_over(game) then break end
    local side = player.to_act(set, game)
    if not side then break end
    local name, params = random.sample(set, game, side, self.dice, self.memo)
    if not name or not set:act(game, name, params, side) then break end
  end
  local r = player.rewards(set, game, self.scale)
  game:rollback(mark)
  root.n = root.n + 1
  for _, ch in ipairs(path) do
    ch.n = ch.n + 1
    ch.w = ch.w + (r[ch.side] or 0)
  end
end

local function search(self, set, game, side)
  self.memo = { memo = { n = 0 } }
  local root = new_node(nil, nil, nil, nil)
  local hidden = M.hidden(set, game, side)
  local clock = os.clock
  local stop = self.ms and (clock() + self.ms / 1000) or nil
  local i = 0
  while true do
    if stop then
      if clock() >= stop then break end
    elseif i >= self.iterations then
      break
    end
    iterate(self, set, game, root, hidden)
    i = i + 1
  end
  self.last = { iterations = i, children = #root.children }
  local best
  for _, ch in ipairs(root.children) do
    if ch.side == side and (best == nil or ch.n > best.n) then best = ch end
  end
  return best
end

function M.decide(self, set, game, side)
  local best = player.searching(set, game, search, self, set, game, side)
  if best then return best.name, best.params end
  return random.sample(set, game, side, self.dice, self.memo)
end

return M

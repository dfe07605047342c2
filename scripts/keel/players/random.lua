--- keel.players.random — the random player, and the sampler other players
-- draw orders with: uniform over the available actions, then over each
-- one's candidates, without listing every legal order.
--
-- How an order is drawn (M.sample), for `side`:
--  1. the actions the sequence of play lets the side take now
--     (set:may), in a uniformly random order (Fisher-Yates on the
--     player's dice);
--  2. the first of them that is available gives the order: an action is
--     available when some order of it passes set:check; one whose
--     required parameter has no domain cannot be drawn (nothing to draw
--     its value from) and counts as not available;
--  3. within an action, the proposal q: each parameter with a domain, in
--     the order its domains are asked (keel.orders.param_order), takes one
--     of its choices uniformly — each candidate of the domain given the
--     values drawn before; for a list ("units"), each non-empty set of
--     its candidates of at most `max` elements; for an optional one, also
--     leaving it out; none when a parameter it depends on is left out — and the order is checked as set:check checks it.
--     Refused, another is drawn, up to M.TRIES times; then every order of
--     the proposal's tree is enumerated and checked (at most
--     M.MAX_CHECKS) and one of the legal ones is picked with probability
--     proportional to q.
--
-- Why it ends and what it draws: each draw is finite (finite domains), an
-- action tries at most M.TRIES draws and one enumeration, and there are
-- finitely many actions, so a decision ends. The first available action of
-- a uniformly random order of the actions is uniform over the available
-- actions. Within the action, rejection sampling from q accepts x with
-- probability q(x) / q(L) (L: the legal orders), and the enumeration picks
-- x with probability q(x) / q(L) too, so the order is drawn from q
-- conditioned on legality either way: uniform over each parameter's
-- candidates, given the parameters before, among the legal orders (the
-- uniform distribution over L when no domain depends on another).
-- tests/lua/player_test.lua checks the frequencies (players-uniform).
local orders = require "keel.orders"
local sequence = require "keel.sequence"
local player = require "keel.player"
local errors = require "keel.errors"

local type, ipairs, pcall = type, ipairs, pcall

local M = {}

--- Draws of the proposal per action before its orders are enumerated.
M.TRIES = 8
--- Orders checked at most when an action's orders are enumerated (as keel.legal).
M.MAX_CHECKS = 5000

-- the parameters of an action in the order their domains are asked, and
-- whether one required has no domain; kept per declaration table
local shape_of = setmetatable({}, { __mode = "k" })
local function shape(decl)
  local s = shape_of[decl]
  if s then return s end
  s = { order = {}, free = false }
  for _, pname in ipairs(orders.param_order(decl)) do
    local p = decl[pname]
    if p.domain then
      s.order[#s.order + 1] = pname
    elseif not p.optional then
      s.free = true
    end
  end
  shape_of[decl] = s
  return s
end

local function key_of(v)
  if type(v) == "table" then
    local xs = {}
    for i, x in ipairs(v) do xs[i] = tostring(x) end
    return "{" .. table.concat(xs, ",") .. "}"
  end
  return type(v) .. ":" .. tostring(v)
end

-- The candidates of a parameter given the values drawn so far (asked once
-- per given value per decision): a list of values, duplicates dropped.
local NONE = {}
local function candidates(D, pname, p, params)
  local given, gk = {}, pname
  for _, d in ipairs(p.depends) do
    -- what it depends on is left out: no candidates (as keel.legal offers it)
    if params[d] == nil then return NONE end
    given[d] = params[d]
    gk = gk .. "\0" .. key_of(params[d])
  end
  local hit = D.cache[gk]
  if hit then return hit end
  local list = D.set:_call(D.rule, p.domain, D.game, given, D.side)
  local out, seen = {}, {}
  if type(list) == "table" then
    for _, c in ipairs(list) do
      local v = c
      if type(c) == "table" and c.value ~= nil then v = c.value end
      local k = key_of(v)
      if not seen[k] then seen[k] = true; out[#out + 1] = v end
    end
  end
  D.cache[gk] = out
  return out
end

-- n choose k (k small; exact while it fits)
local function choose(n, k)
  local c = 1
  for i = 1, k do c = c * (n - i + 1) // i end
  return c
end

-- The number of choices of a parameter with n candidates.
local function count_choices(p, n)
  local c = p.optional and 1 or 0
  if p.type == "units" then
    for size = 1, math.min(n, p.max or n) do c = c + choose(n, size) end
  else
    c = c + n
  end
  return c
end

-- A uniform integer in 1..n from the player's dice (n may pass 2^30: two draws).
local function uniform(dice, n)
  if n <= 0x3fffffff then return dice:range(n) end
  local hi = (n - 1) // 0x40000000 + 1
  while true do
    local v = (dice:range(hi) - 1) * 0x40000000 + dice:range(0x40000000)
    if v <= n then return v end
  end
end

-- The r-th set (1-based) of `size` elements of 1..n in lexicographic order.
local function unrank(n, size, r)
  local out, start = {}, 1
  r = r - 1
  for i = 1, size do
    local x = start
    while true do
      local c = choose(n - x, size - i)
      if r < c then break end
      r = r - c
      x = x + 1
    end
    out[i] = x
    start = x + 1
  end
  return out
end

-- Draw one choice of parameter p among its candidates: the value (nil:
-- left out), uniformly over count_choices.
local function draw(dice, p, cands)
  local n = #cands
  local total = count_choices(p, n)
  if total == 0 then return false end
  local r = uniform(dice, total)
  if p.optional then
    if r == 1 then return nil end
    r = r - 1
  end
  if p.type ~= "units" then return cands[r] end
  for size = 1, math.min(n, p.max or n) do
    local c = choose(n, size)
    if r <= c then
      local idx = unrank(n, size, r)
      local s = {}
      for i, j in ipairs(idx) do s[i] = cands[j] end
      return s
    end
    r = r - c
  end
end

-- Is the order legal (parameters, legality, vetoes)? nil, or the reason.
local function refused(D, params)
  local why = orders.check_params(D.set, D.game, D.name, params)
  if why then return why end
  local ok, w = pcall(D.set._check_action, D.set, D.game, D.name, params, true)
  if not ok then return errors.format(w) end
  return w
end

local function copy(t)
  local out = {}
  for k, v in pairs(t) do out[k] = type(v) == "table" and { table.unpack(v) } or v end
  return out
end

-- One draw of the proposal: params, or false when some required
-- parameter has no candidate.
local function propose(D)
  local params = {}
  for _, pname in ipairs(D.shape.order) do
    local p = D.decl[pname]
    local v = draw(D.dice, p, candidates(D, pname, p, params))
    if v == false then return false end
    params[pname] = v
  end
  return params
end

-- Every order of the proposal's tree with its probability q, checked:
-- the legal ones and their weights (at most MAX_CHECKS checked).
local function enumerate(D)
  local legal, weights, checks = {}, {}, 0
  local order = D.shape.order
  local function visit(i, params, q)
    if checks >= M.MAX_CHECKS then return end
    local pname = order[i]
    if not pname then
      checks = checks + 1
      local c = copy(params)
      if not refused(D, c) then legal[#legal + 1] = c; weights[#weights + 1] = q end
      return
    end
    local p = D.decl[pname]
    local cands = candidates(D, pname, p, params)
    local total = count_choices(p, #cands)
    if total == 0 then return end
    local w = q / total
    if p.optional then visit(i + 1, params, w) end
    if p.type == "units" then
      local n = #cands
      for size = 1, math.min(n, p.max or n) do
        for r = 1, choose(n, size) do
          if checks >= M.MAX_CHECKS then return end
          local s = {}
          for k, j in ipairs(unrank(n, size, r)) do s[k] = cands[j] end
          params[pname] = s
          visit(i + 1, params, w)
        end
      end
    else
      for _, v in ipairs(cands) do
        params[pname] = v
        visit(i + 1, params, w)
      end
    end
    params[pname] = nil
  end
  visit(1, {}, 1.0)
  return legal, weights, checks
end

-- Enumerations kept by state (its hash), side and action within one
-- search (opts.memo, a table the caller makes per decision, so that what
-- a player draws never depends on an earlier decision): the legal orders
-- and their weights (none: not available). Legality depends on the state
-- alone, so a search that draws again from a state it met (greedy's
-- sample, a tree's nodes) draws from the same list, and the draw is q
-- conditioned on legality as before. At most MEMO_SIZE kept per memo.
M.MEMO_SIZE = 4096
local function remember(memo, key, legal, weights)
  if memo.n >= M.MEMO_SIZE then return end
  memo[key] = { legal = legal, weights = weights }
  memo.n = memo.n + 1
end

-- one of the legal orders, with probability proportional to its weight
local function pick(dice, legal, weights)
  if #legal == 1 then return copy(legal[1]) end
  local total = 0
  for _, w in ipairs(weights) do total = total + w end
  local x = (dice:range(0x40000000) - 0.5) / 0x40000000 * total
  for i, w in ipairs(weights) do
    x = x - w
    if x < 0 then return copy(legal[i]) end
  end
  return copy(legal[#legal])
end

-- An order of action `name` drawn from q conditioned on legality, or nil
-- when it has none (D: the decision's state).
local function sample_action(D, name)
  local a = D.set.actions[name]
  D.name, D.rule, D.decl = name, a.rule, a.def.params
  D.shape = shape(D.decl)
  if D.shape.free then return nil end
  local memo = D.memo
  local key = memo and (D.hash .. "\0" .. D.side .. "\0" .. name)
  local kept = memo and memo[key]
  if kept then
    if #kept.legal == 0 then return nil end
    return pick(D.dice, kept.legal, kept.weights)
  end
  D.cache = {}
  for _ = 1, M.TRIES do
    local params = propose(D)
    if params == false then break end
    local why = refused(D, params)
    if not why then return params end
    if D.refused then D.refused[#D.refused + 1] = { name = name, params = params, why = why } end
  end
  local t0 = M.stats and os.clock()
  local legal, weights, checks = enumerate(D)
  if M.stats then
    local e = M.stats[name] or { n = 0, checks = 0, t = 0, found = 0 }
    M.stats[name] = e
    e.n, e.checks, e.t, e.found = e.n + 1, e.checks + checks, e.t + os.clock() - t0, e.found + #legal
  end
  if memo then remember(memo, key, legal, weights) end
  if #legal == 0 then return nil end
  return pick(D.dice, legal, weights)
end

-- The actions `side` (active now) may take, as sequence.allowed gives
-- them: they depend on the declarations and the position alone (phase,
-- step, phasing side, the innermost window), so they are kept per set and
-- position (a new list each call: the caller shuffles it).
local allowed_of = setmetatable({}, { __mode = "k" })
local function allowed(set, game, side)
  local c = allowed_of[set]
  if not c or c.actions ~= set.actions then
    c = { actions = set.actions, lists = {} }
    allowed_of[set] = c
  end
  local w = game:get_global("seq_windows")
  local key = ("%s\0%s\0%s\0%s\0%s"):format(tostring(game:get_global("seq_phase")),
    tostring(game:get_global("seq_step")), tostring(game:get_global("phasing")), side,
    w and (tostring(game:get_keyed("window", { w, "side" })) .. "\0" .. tostring(game:get_keyed("window", { w, "actions" })))
      or "")
  local list = c.lists[key]
  if not list then
    list = {}
    for _, name in ipairs(sequence.allowed(set, game, side)) do
      if name ~= sequence.START_GAME then list[#list + 1] = name end
    end
    c.lists[key] = list
  end
  return { table.unpack(list) }
end

-- (inside the entry point, state frozen)
local function sample_body(set, game, side, dice, opts)
  local names = allowed(set, game, side)
  for i = #names, 2, -1 do   -- Fisher-Yates
    local j = dice:range(i)
    names[i], names[j] = names[j], names[i]
  end
  local D = { set = set, game = game, side = side, dice = dice, refused = opts and opts.refused,
              memo = opts and opts.memo, hash = opts and opts.memo and tostring(game.state:hash()) }
  for _, name in ipairs(names) do
    local params = sample_action(D, name)
    if params then return name, params end
  end
  return nil, "no action is available"
end

--- Draw one order for `side` (see the module's notes): name, params, or
--- nil and why when no action is available. opts.refused, when given,
--- collects the orders drawn and refused ({name, params, why}: the fuzzer
--- submits them); opts.memo (a table with n = 0, one per decision) keeps
--- enumerations by state. Changes nothing.
---@param set table
---@param game table
---@param side string
---@param dice any a keel dice stream (the player's)
---@param opts? {refused?: table, memo?: table}
---@return string|nil name, table|string params_or_why
function M.sample(set, game, side, dice, opts)
  local ok, name, params = player.frozen(set, game, sample_body, set, game, side, dice, opts)
  if not ok then error(name, 0) end
  return name, params
end

-- (bench and tests: one action's draw, or nil)
function M._time_action(set, game, side, dice, name)
  local ok, params = player.frozen(set, game, function()
    return sample_action({ set = set, game = game, side = side, dice = dice, hash = tostring(game.state:hash()), memo = { n = 0 } }, name)
  end)
  if not ok then error(params, 0) end
  return params ~= nil
end

-- ---- the player ----------------------------------------------------------------

function M.init(_, options)
  return player.check_options(options, {})
end

function M.decide(self, set, game, side)
  return M.sample(set, game, side, self.dice, self.refused and { refused = self.refused } or nil)
end

return M

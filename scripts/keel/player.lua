--- keel.player — who decides: a player gives one order for a side of a game.
--
--   local player = require "keel.player"
--   local p = assert(player.new("mcts:iterations=200", { seed = 7 }))
--   local name, params = p:decide(set, game, side)   -- never changes `game`
--   set:act(game, name, params, side)
--
-- A spec is what a command line says: `random`, `greedy`, `mcts`, `human`
-- (each with options `kind:k=v,k=v`), or the path of a designer's player
-- (a Lua file, run in the sandbox with CPU and memory limits per decision:
-- keel.players.script). Every built-in player plays every family with no
-- per-family code: it reads the sequence of play (set:status, set:may),
-- the actions' parameter domains and the legality checks, and for search
-- it plays orders on the game itself inside game:begin()/rollback(mark),
-- which puts the state, its journal and the dice back (cheaper than a copy:
-- bench/player_bench.lua). A player's own randomness is a keel dice stream
-- seeded by its seed: the same seed, options and game give the same order.
--
-- What players value (keel.player.evaluate): the scenario's `evaluate` for
-- a side when it declares one (score terms, as `scores` are declared),
-- else its victory scores: the side's own less the best other side's. A
-- game over is worth a win, a loss or a draw. Guide: doc/players.md.
local keel = require "keel"
local sequence = require "keel.sequence"
local sorted_keys = require("keel.keys").sorted

local type, ipairs, tostring, error = type, ipairs, tostring, error

local M = {}

--- The built-in players (keel.players.<kind>).
M.KINDS = { "random", "greedy", "mcts", "human" }
local KIND = {}
for _, k in ipairs(M.KINDS) do KIND[k] = true end

local Player = {}
Player.__index = Player
M.Player = Player

-- "3" -> 3, "0.5" -> 0.5, "true"/"false", else the text
local function option_value(v)
  local n = tonumber(v)
  if n then return math.tointeger(n) or n end
  if v == "true" then return true elseif v == "false" then return false end
  return v
end

--- Read a player spec: "kind" or "kind:k=v,k=v" or a path to a .lua file.
--- { kind =, options = {k = v}, path = } or nil and why.
---@param text string
---@return table|nil spec, string? why
function M.parse(text)
  if type(text) ~= "string" or text == "" then
    return nil, "a player expected: random, greedy, mcts, human or a player file (.lua)"
  end
  if text:match("%.lua$") then return { kind = "script", path = text, options = {} } end
  local kind, rest = text:match("^([%a_]+):(.*)$")
  kind = kind or text
  if not KIND[kind] then
    return nil, ("unknown player '%s' (players: %s, or a player file ending in .lua)"):format(kind,
      table.concat(M.KINDS, ", "))
  end
  local options = {}
  if rest then
    for item in (rest .. ","):gmatch("([^,]*),") do
      local k, v = item:match("^([%a_][%w_]*)=(.+)$")
      if not k then
        return nil, ("player %s: option '%s': name=value expected"):format(kind, item)
      end
      options[k] = option_value(v)
    end
  end
  return { kind = kind, options = options }
end

--- A player from its spec (M.parse's text). opts.seed seeds its dice
--- stream (default 0); opts.input / opts.output are the human player's
--- streams (default io.stdin / io.stdout). nil and why on a bad spec or
--- option.
---@param spec string
---@param opts? {seed?: integer, input?: any, output?: any, cpu?: number}
---@return table|nil player, string? why
function M.new(spec, opts)
  opts = opts or {}
  local s, why = M.parse(spec)
  if not s then return nil, why end
  local seed = math.tointeger(opts.seed or 0)
  if not seed then return nil, "a player's seed must be a whole number" end
  local impl = require("keel.players." .. s.kind)
  local self = setmetatable({ kind = s.kind, spec = spec, seed = seed, options = s.options, path = s.path,
                              dice = keel.dice.new(seed), input = opts.input, output = opts.output,
                              cpu = opts.cpu }, Player)
  local ok, err = impl.init(self, s.options)
  if not ok then return nil, ("player %s: %s"):format(s.kind, tostring(err)) end
  self.impl = impl
  return self
end

--- Check an option table against what a kind takes: the known names and
--- that each is a number in range. true, or nil and why.
---@param options table
---@param known table<string, {min?: number, max?: number, integer?: boolean, text?: boolean}>
function M.check_options(options, known)
  for _, k in ipairs(sorted_keys(options)) do
    local want = known[k]
    if not want then return nil, ("unknown option '%s' (options: %s)"):format(k, table.concat(sorted_keys(known), ", ")) end
    local v = options[k]
    if not want.text then
      if type(v) ~= "number" or (want.integer and math.type(v) ~= "integer") then
        return nil, ("option %s: %s expected, got %s"):format(k, want.integer and "a whole number" or "a number",
          tostring(v))
      end
      if (want.min and v < want.min) or (want.max and v > want.max) then
        return nil, ("option %s: %s is out of range (%s..%s)"):format(k, tostring(v), tostring(want.min or ""),
          tostring(want.max or ""))
      end
    end
  end
  return true
end

--- One order for `side`, which must be active now: name, params. The game
--- is as before (its state hash, journal and dice): checked, an error
--- otherwise. nil and why when the side has nothing it may do (a dead end).
---@param set table
---@param game table
---@param side string
---@return string|nil name, table|string params_or_why
function Player:decide(set, game, side)
  local active = set:status(game).active
  local ok = false
  for _, s in ipairs(active) do if s == side then ok = true end end
  if not ok then
    error(("player %s: %s is not to act now (active: %s)"):format(self.spec, tostring(side),
      #active > 0 and table.concat(active, ", ") or "nobody: the game is over or not started"), 2)
  end
  local st = game.state
  local hash, size, dice = st:hash(), st:journal_size(), game.dice:save()
  local narrate = set.narrate
  set.narrate = false   -- what a player looks at or tries is not the game's narration
  local res = table.pack(pcall(self.impl.decide, self, set, game, side))
  set.narrate = narrate
  if not res[1] then error(res[2], 0) end
  local name, params = res[2], res[3]
  if st:hash() ~= hash or st:journal_size() ~= size or game.dice:save() ~= dice then
    error(("player %s changed the game while deciding (state, journal or dice)"):format(self.spec), 2)
  end
  return name, params
end

-- ---- helpers for players -------------------------------------------------------

--- Run fn(...) with the state frozen (no change, no action) inside the
--- set's entry point, as set:check does: ok, results... or false, error.
---@param set table
---@param game table
---@param fn function
function M.frozen(set, game, fn, a1, a2, a3, a4, a5)
  set:_ready()
  local st = game.state
  if st:is_frozen() then return true, fn(a1, a2, a3, a4, a5) end
  st:set_frozen(true)
  local res = table.pack(set:_enter(fn, a1, a2, a3, a4, a5))
  st:set_frozen(false)
  return table.unpack(res, 1, res.n)
end

--- Run fn(...) where a search may play orders on the game: narration off,
--- inside game:begin()/rollback(mark) (the state, the journal, the actions
--- and the dice as before afterwards, whatever fn did or raised).
---@param set table
---@param game table
---@param fn function
function M.searching(set, game, fn, ...)
  local narrate = set.narrate
  set.narrate = false
  local mark = game:begin()
  local res = table.pack(pcall(fn, ...))
  game:rollback(mark)
  set.narrate = narrate
  if not res[1] then error(res[2], 0) end
  return table.unpack(res, 2, res.n)
end

-- the value of one score term for `side` (keel.sequence's terms)
local function term_value(set, game, side, t)
  if t.keyed then return tonumber(game:get_keyed(t.keyed[1], t.keyed[2])) or 0 end
  if t.global then return tonumber(game:get_global(t.global)) or 0 end
  if t.query then return tonumber(set:_query(game, t.query, side)) or 0 end
  local n = 0
  for _, h in ipairs(t.owns) do
    local id = math.type(h) == "integer" and h or (game.board and game.board:hex(h))
    if id and game:get_owner(id) == side then n = n + (t.points or 1) end
  end
  return n
end

local function sum_terms(set, game, side, terms)
  local v = 0
  for _, t in ipairs(terms) do v = v + term_value(set, game, side, t) end
  return v
end

-- (inside the entry point) the value of the game for each side
local function values_of(set, game, sides)
  local spec = set.game_spec or {}
  local out = {}
  local scores = {}
  for _, s in ipairs(sides) do
    scores[s] = spec.scores and spec.scores[s] and sum_terms(set, game, s, spec.scores[s]) or 0
  end
  for _, s in ipairs(sides) do
    if spec.evaluate and spec.evaluate[s] then
      out[s] = sum_terms(set, game, s, spec.evaluate[s])
    else
      local best
      for _, o in ipairs(sides) do
        if o ~= s and (best == nil or scores[o] > best) then best = scores[o] end
      end
      out[s] = scores[s] - (best or 0)
    end
  end
  return out
end

--- What the game is worth to each side now, as numbers: the scenario's
--- `evaluate` terms for a side that has them, else its score less the best
--- other side's. Changes nothing.
---@param set table
---@param game table
---@return table<string, number>
function M.evaluate(set, game)
  local sides = sequence.side_names(set.sequence)
  local ok, v = M.frozen(set, game, values_of, set, game, sides)
  if not ok then error(v, 0) end
  return v
end

--- The rewards of each side in 0..1: 1 for a win, 0 for a loss, 1/2 for a
--- draw; a game not over, its evaluation squashed into (0.05, 0.95), so
--- that any end outweighs any position (scale: the value worth 3/4).
---@param set table
---@param game table
---@param scale? number
---@return table<string, number>
function M.rewards(set, game, scale)
  local sides = sequence.side_names(set.sequence)
  local out = {}
  if sequence.is_over(game) then
    local w = game:get_keyed("result", "winner")
    for _, s in ipairs(sides) do out[s] = w == nil and 0.5 or (w == s and 1 or 0) end
    return out
  end
  local v = M.evaluate(set, game)
  scale = scale or 10
  for _, s in ipairs(sides) do
    local x = v[s] / scale
    out[s] = 0.5 + 0.45 * (x / (1 + math.abs(x)))
  end
  return out
end

--- A key telling orders apart (name and parameters, in key order).
---@param name string
---@param params table
---@return string
function M.order_key(name, params)
  local parts = { name }
  for _, k in ipairs(sorted_keys(params or {})) do
    local v = params[k]
    if type(v) == "table" then
      local xs = {}
      for i, x in ipairs(v) do xs[i] = tostring(x) end
      v = "{" .. table.concat(xs, ",") .. "}"
    end
    parts[#parts + 1] = k .. "=" .. tostring(v)
  end
  return table.concat(parts, " ")
end

--- The seed of the player of a game's i-th side (keel play, keel fuzz-rules):
--- a game's seed gives its players' seeds.
---@param seed integer the game's seed
---@param i integer the side's place in the sequence's sides
---@return integer
function M.side_seed(seed, i) return seed * 16 + i end

--- The side that decides now (the first active one), or nil when none.
function M.to_act(set, game)
  return sequence.active(set, game)[1]
end

--- A fresh dice state text for a search's sample of chance, from the
--- player's stream: the game's dice are loaded with it inside a search, so
--- a search never reads the dice the game will roll.
---@param dice any the player's stream
---@return string
function M.chance_dice(dice)
  return keel.dice.new(dice:range(0x3fffffff)):save()
end

return M

--- keel.rules — a rule set at play: the entry points (act, check, emit,
-- query) a host or the CLI calls, each run as one action under the
-- sandbox's limits, and what a rule's functions get (ctx, and the game
-- through a facade with the game's state methods only: no files, no
-- journal, no undo).
--
--   local rules = require "keel.rules"
--   local set = rules.load { families = { "toy27" }, path = { "tests/families" } }
--   local ok, why, kind = set:act(game, "bomb", { group = 1 })
--
-- The families, rules and dispatch lists a set holds: keel.registry (a set
-- inherits its methods). Orders, what set:act and set:emit play and replay
-- plays again: keel.orders. Errors: keel.errors. House-rule variants:
-- keel.variant. Guide: doc/guide.md; API: doc/api/rules.md.
local sandbox = require "keel.sandbox"
local errors = require "keel.errors"
local registry = require "keel.registry"
local orders = require "keel.orders"
local rules_movement = require "keel.rules_movement"
local pick = require "keel.pick"

local M = {}

local Set = setmetatable({}, { __index = registry.Registry })
Set.__index = Set
M.Set = Set

local type, ipairs, pairs, error, tostring = type, ipairs, pairs, error, tostring
local xpcall = xpcall
local unpack, pack = table.unpack, table.pack

-- ---- sets --------------------------------------------------------------------------

--- A new, empty rule set.
---@param opts? {path?: string[], narrate?: fun(kind: string, data: table)}
---@return table set
function M.new(opts)
  opts = opts or {}
  local self = registry.new(opts, Set)
  self.narrate = opts.narrate
  self._running = {}        -- stack of rules whose code is running
  self._depth = 0
  self._facades = setmetatable({}, { __mode = "k" })
  self._movement = rules_movement.new(self)   -- ctx:profile, reach, path, mover ...
  self._ctx = {}
  self._handler = function(e) return self:_error_handler(e) end
  return self
end

-- ---- the game as rules see it ----------------------------------------------------------

--- Game methods a rule may call through ctx.game.
M.game_methods = {
  "get_unit", "units", "get", "set", "get_value", "set_value", "get_marker", "set_marker", "add_marker",
  "remove_marker", "move", "add_hits", "flip", "reduce_points", "split", "combine", "eliminate",
  "sink", "embark", "cargo", "cargo_check", "drop_excess", "unit_new", "group_new", "group_add",
  "group_remove", "group_units", "group_get_name", "group_get_value", "group_set_value", "groups_of",
  "groups", "get_global", "set_global", "get_turn", "set_turn", "get_phase", "set_phase", "get_segment",
  "set_segment", "get_step", "set_step", "get_owner", "set_owner", "hash", "hash_hex", "get_rule",
  "get_keyed", "set_keyed", "count_keyed", "at_keyed",
}
--- Board methods a rule may call through ctx.game.board (queries only).
M.board_methods = {
  "hex", "format", "side", "format_side", "numbering", "contains", "hexes", "get_terrain",
  "get_features", "get_coasts", "water_neighbors", "riverine_neighbors", "strait_passage", "get_port",
  "ports", "find_place", "place_name", "places", "get_cd", "box_of", "get_seaboxes",
  "box_hexes", "get_zone", "zones", "zone_neighbors", "tags", "has_tag", "tagged", "stats",
}

local function facade_of(obj, methods, name)
  local f = {}
  for _, m in ipairs(methods) do
    local fn = obj[m]
    if type(fn) == "function" then
      f[m] = function(_, ...) return fn(obj, ...) end
    end
  end
  return f, name
end

-- Game methods that only pass their arguments on to the state's method of
-- this name, with their number of arguments: the facade calls the state.
local DIRECT = {
  get = { "get", 2 }, set = { "set", 3 }, get_value = { "get_value", 2 }, set_value = { "set_value", 3 },
  get_marker = { "get_marker", 2 }, set_marker = { "set_marker", 3 }, add_marker = { "add_marker", 3 },
  move = { "move", 3 }, reduce_points = { "reduce_points", 2 }, split = { "split", 2 },
  combine = { "combine", 2 }, eliminate = { "eliminate", 1 }, sink = { "eliminate", 1 },
  cargo = { "cargo", 1 }, cargo_check = { "cargo_check", 2 }, group_add = { "group_add", 3 },
  group_remove = { "group_remove", 2 }, group_units = { "group_units", 1 },
  group_get_name = { "group_get_name", 1 }, group_get_value = { "group_get_value", 2 },
  group_set_value = { "group_set_value", 3 }, groups_of = { "groups_of", 1 },
  get_global = { "get_global", 1 }, set_global = { "set_global", 2 }, get_owner = { "get_owner", 1 },
  hash = { "hash", 0 }, hash_hex = { "hash_hex", 0 }, get_rule = { "get_rule", 0 },
  count_keyed = { "count_keyed", 1 }, at_keyed = { "at_keyed", 2 },
}
local direct_by_arity = {
  [0] = function(st, fn) return function() return fn(st) end end,
  function(st, fn) return function(_, a) return fn(st, a) end end,
  function(st, fn) return function(_, a, b) return fn(st, a, b) end end,
  function(st, fn) return function(_, a, b, c) return fn(st, a, b, c) end end,
}

-- The opts a rule's roll hands the dice: one table, filled again for each
-- roll (the dice read it at once, before any other code runs), so that a
-- roll makes no table. Only stream and reason come from the rule's opts;
-- the rule is the ctx's (nil: the rule in force).
local roll_opts = {}
local function dice_opts(opts, rule)
  local o = roll_opts
  o.rule = rule
  if opts then o.stream, o.reason = opts.stream, opts.reason
  else o.stream, o.reason = nil, nil end
  return o
end

-- The board as rules see it: one facade per board, shared by every game on
-- it (a board never changes), so that what a rule works out from the board
-- alone it may keep, keyed by ctx.game.board, from one game to the next.
local board_facades = setmetatable({}, { __mode = "k" })
function Set._board_facade(_, board)
  local f = board_facades[board]
  if not f then
    f = sandbox.readonly((facade_of(board, M.board_methods)), "game.board")
    board_facades[board] = f
  end
  return f
end

function Set:facade(game)
  local f = self._facades[game]
  if f then return f end
  local g = facade_of(game, M.game_methods)
  local st = game.state
  for m, d in pairs(DIRECT) do
    if g[m] then g[m] = direct_by_arity[d[2]](st, st[d[1]]) end
  end
  local proxy
  -- a filter gets the facade, never the game itself
  g.units = function(_, filter)
    if filter == nil then return game:units() end
    return game:units(function(_, id) return filter(proxy, id) end)
  end
  g.roll = function(_, expr, opts)
    return game:roll(expr, dice_opts(opts, nil))   -- the rule in force
  end
  -- a hex that changes hands is news every rule may hook: owner_changed
  g.set_owner = function(_, hex, side)
    local old = game:get_owner(hex)
    game:set_owner(hex, side)
    if old ~= side then self:_dispatch(game, "owner_changed", { hex = hex, side = side, old = old }) end
  end
  if game.board then g.board = self:_board_facade(game.board) end
  f = sandbox.readonly(g, "game")
  proxy = f
  self._facades[game] = f
  return f
end

-- ---- ctx: what a rule's function gets -------------------------------------------------

-- A ctx is read-only; its methods are shared by every ctx and find the
-- ctx's rule, game and rule set in a private table keyed by the ctx: nothing
-- in it leads a script to the game object itself (which can save files and
-- load code), and making a ctx makes no closures.
local bound = setmetatable({}, { __mode = "k" })   -- ctx -> {set=, r=, game=}
local call   -- set, rule, fn, game, ... -> what fn returns (Set._call, below)

local function binding(ctx)
  local b = bound[ctx]
  if not b then error("a ctx method is called on its ctx (ctx:name(...))", 3) end
  return b
end

local function tbl(set, name)
  local t = set:table(name)
  if not t then error(("no table named '%s' in this rule set"):format(tostring(name)), 3) end
  return t
end

-- a roll narrated: its record (game.dice:get_record()) to the narration
local function narrated(narrate, r, game, ...)
  narrate("roll", { rule = r, record = game.dice:get_record() })
  return ...
end

-- a table's result cell as rules see it (read-only), one per cell
local result_views = setmetatable({}, { __mode = "k" })

local ctx_methods = {
  --- ctx:roll("2d6", {reason=}) -> total, face1, ..., faceN
  roll = function(self, expr, opts)
    local b = bound[self] or binding(self)
    local narrate, game = b.set.narrate, b.game
    if not narrate then return game:roll(expr, dice_opts(opts, b.r.id)) end
    return narrated(narrate, b.r, game, game:roll(expr, dice_opts(opts, b.r.id)))
  end,
  --- ctx:table(name) -> the table (read-only)
  table = function(self, name)
    return sandbox.readonly(tbl(binding(self).set, name), "table " .. tostring(name))
  end,
  --- ctx:resolve(name, modifiers, {reason=}) -> result (the record goes to the narration)
  resolve = function(self, name, modctx, opts)
    local b = bound[self] or binding(self)
    local set = b.set
    local t = set.tables[name] or set:table(name) or tbl(set, name)
    local reason, stream, extra
    if opts then reason, stream, extra = opts.reason, opts.stream, opts.modifier end
    if extra ~= nil and math.type(extra) ~= "integer" then error("opts.modifier: integer expected", 2) end
    -- a table whose rows come from another (the SUCCESS TABLE) uses the set's: a scenario's own
    local rows = t.rows_from and set:table(t.rows_from) or nil
    local narrate = set.narrate
    local result, rec = t:_resolve(b.game.dice, modctx or {}, b.r.id or t.rule, reason or name, stream, extra,
      rows, narrate ~= nil)
    if narrate then narrate("resolve", { rule = b.r, record = rec }) end
    local view = result ~= nil and result_views[result]
    if view then return view end
    if type(result) == "table" then
      view = sandbox.readonly(result, "result")
      result_views[result] = view
      return view
    end
    return result
  end,
  emit = function(self, event, data)
    local b = binding(self)
    return b.set:_dispatch(b.game, event, data or {})
  end,
  query = function(self, name, ...)
    local b = bound[self] or binding(self)
    local set = b.set
    local q = set.queries[name]
    if not q then error(("no rule answers query '%s'"):format(tostring(name)), 2) end
    return call(set, q.rule, q.fn, b.game, ...)
  end,
  get_value = function(self, key) return binding(self).r.values[key] end,
  --- ctx:pick(items, {count=, reason=}) -> item (or the list of `count` items): a random pick (keel.pick)
  pick = function(self, items, opts)
    local b = binding(self)
    local set, r, game = b.set, b.r, b.game
    opts = opts or {}
    local picked = pick.draw(function(sides)
      local total = game:roll("1d" .. sides, dice_opts(opts, r.id))
      if set.narrate then set.narrate("roll", { rule = r, record = game.dice:get_record() }) end
      return total
    end, items, opts.count or 1)
    if opts.count then return picked end
    return picked[1]
  end,
  say = function(self, fmt, ...)
    local b = binding(self)
    local ok, text = pcall(string.format, fmt, ...)
    if b.set.narrate then b.set.narrate("say", { rule = b.r, text = ok and text or tostring(fmt) }) end
  end,
}
for name, fn in pairs(rules_movement.ctx_methods(function(ctx)
  local b = binding(ctx)
  return b.set._movement, b.game
end)) do
  ctx_methods[name] = fn
end
local ctx_method_names = {}
for name in pairs(ctx_methods) do ctx_method_names[#ctx_method_names + 1] = name end
table.sort(ctx_method_names)

-- what ctx.rule shows of a rule: one per rule
local rule_views = setmetatable({}, { __mode = "k" })

function Set:_make_ctx(r, game)
  local view = rule_views[r]
  if not view then
    view = { id = r.id, title = r.title, values = r.values, file = r.file, line = r.line }
    rule_views[r] = view
  end
  local c = { game = self:facade(game), rule = view }
  for i = 1, #ctx_method_names do
    local name = ctx_method_names[i]
    c[name] = ctx_methods[name]
  end
  local ctx = sandbox.readonly(c, "ctx")
  bound[ctx] = { set = self, r = r, game = game }
  return ctx
end

function Set:_say(kind, data)
  if self.narrate then self.narrate(kind, data) end
end

function Set:_ctx_for(r, game)
  local entry = self._ctx[r]
  if entry and entry.game == game then return entry.ctx end
  local c = self:_make_ctx(r, game)
  self._ctx[r] = { game = game, ctx = c }
  return c
end

-- ---- running rule code -----------------------------------------------------------------

function Set:_error_handler(e)
  local r = self._running[#self._running]
  return errors.from(e, r and r.id or nil, true, self._entry_fn)
end

-- the state's push_rule and pop_rule, called as functions (no method lookup
-- on the userdata per call); taken from the first state seen
local push_rule, pop_rule
local function state_methods(st)
  local methods = getmetatable(st).__index
  push_rule, pop_rule = methods.push_rule, methods.pop_rule
end

local function finish(running, n, st, ok, ...)
  pop_rule(st)
  running[n] = nil
  if not ok then error((...), 0) end
  return ...
end

-- Call fn(ctx, ...) of rule r with r in force for the journal.
function call(self, r, fn, game, ...)
  local running, st = self._running, game.state
  local n = #running + 1
  running[n] = r
  self._last = r
  if not push_rule then state_methods(st) end
  push_rule(st, r.id)
  local entry = self._ctx[r]
  local ctx = entry and entry.game == game and entry.ctx or self:_ctx_for(r, game)
  return finish(running, n, st, xpcall(fn, self._handler, ctx, ...))
end
Set._call = call

function Set:_dispatch(game, event, data)
  if not self.event_names[event] then
    error(("unknown event '%s'"):format(tostring(event)), 2)
  end
  local list = self.handlers[event]
  if not list then return end
  for i = 1, #list do
    local h = list[i]
    if self.narrate then self.narrate("fire", { rule = h.rule, event = event }) end
    self:_call(h.rule, h.fn, game, data)
  end
end

function Set:_query(game, name, ...)
  local q = self.queries[name]
  if not q then error(("no rule answers query '%s'"):format(tostring(name)), 2) end
  return self:_call(q.rule, q.fn, game, ...)
end

-- Run body(...) as the outermost entry point: under the sandbox's limits,
-- returning ok, results... or false, error, kind.
-- what _enter returns: ok, results... or false, error, kind
local function entered(self, ok, ...)
  self._depth = 0
  if self._running[1] ~= nil then self._running = {} end
  if ok then return ok, ... end
  local e, kind = ...
  -- a stop the rules swallowed and returned from: the rule that ran last
  if not errors.is_error(e) then e = errors.from(e, self._last and self._last.id) end
  errors.set_kind(e, kind)
  return false, e, kind
end

function Set:_enter(body, ...)
  if self._depth > 0 then return true, body(...) end
  self._entry_fn = body
  self._depth = 1
  self._last = nil
  return entered(self, sandbox.xprotect(body, self._handler, ...))
end

--- Send an event to the rules, as one action of the game (all or nothing,
--- undoable, journaled as the order `emit` so that `keel replay` plays it).
--- Raises the rule error when a rule fails or a limit is reached.
---@param game table
---@param event string
---@param data? table
-- the body of set:emit: an order (journaled, undoable, replayable)
local function emit_body(self, game, event, data)
  return self:play(game, orders.EMIT, { event = event, data = data })
end

function Set:emit(game, event, data)
  self:_ready()
  data = data or {}
  if not self.event_names[event] then error(("unknown event '%s'"):format(tostring(event)), 2) end
  local ok, err = self:_enter(emit_body, self, game, event, data)
  if not ok then error(err, 0) end
end

--- Ask a query: the rule that answers it runs (read-only by convention).
function Set:query(game, name, ...)
  self:_ready()
  local args = pack(...)
  local function body() return self:_query(game, name, unpack(args, 1, args.n)) end
  local res = pack(self:_enter(body))
  if not res[1] then error(res[2], 0) end
  return unpack(res, 2, res.n)
end

-- Who refused an order: the rule (id, or nil for plumbing), its family and
-- the rule's own reason, for callers that show them apart (keel.serve).
local function refusal(r, reason)
  return { rule = r.id, family = r.family, reason = reason }
end

-- legality, then vetoes: nil when the action may go ahead, else reason,
-- kind and who refused ({rule=, family=, reason=})
function Set:_check_action(game, name, params, quiet)
  local a = self.actions[name]
  local r = a.rule
  if a.def.legal then
    local ok, reason = self:_call(r, a.def.legal, game, params)
    if ok == false or type(ok) == "string" then
      reason = type(ok) == "string" and ok or reason or "not allowed"
      return ("illegal %s (%s %s): %s"):format(name, registry.who(r), r.title or "", reason), "illegal",
        refusal(r, tostring(reason))
    end
  end
  local vetoes = self.vetoes[name]
  for i = 1, vetoes and #vetoes or 0 do
    local v = vetoes[i]
    local reason = self:_call(v.rule, v.fn, game, params)
    if reason then
      if type(reason) ~= "string" then reason = "vetoed" end
      if not quiet then self:_say("veto", { rule = v.rule, action = name, reason = reason }) end
      return ("%s vetoed by rule %s (%s): %s"):format(name, v.rule.id, v.rule.title or "", reason), "vetoed",
        refusal(v.rule, reason)
    end
  end
end

--- May the action be taken? nil when yes, else the reason, its kind
--- ("unknown", "params", "illegal", "vetoed", or a failure's) and, for
--- "illegal" and "vetoed", who refused: {rule = id (nil for family
--- plumbing), family =, reason = the rule's own words}. Changes nothing.
function Set:check(game, name, params)
  self:_ready()
  params = params or {}
  if not self.actions[name] then return ("unknown action '%s'"):format(tostring(name)), "unknown" end
  local reason = orders.check_params(self, game, name, params)
  if reason then return reason, "params" end
  local function body() return self:_check_action(game, name, params) end
  local ok, why, kind, by = self:_enter(body)
  if not ok then return errors.format(why), kind end
  return why, kind, by
end

--- The actions of the set for `side` (nil: any side), each with its
--- parameters, the values their domains enumerate, every candidate order
--- checked as set:check does, and why an action is not available
--- (keel.legal). Changes nothing.
---@param game table
---@param side? string
---@return table[] entries, in action name order
function Set:legal_actions(game, side)
  self:_ready()
  local res = pack(self:_enter(function() return require("keel.legal").list(self, game, side) end))
  if not res[1] then error(res[2], 0) end
  return res[2]
end

--- Play an order again, as replay does: keel.orders.play (no legality
--- check, no vetoes).
Set.play = orders.play

--- Take a player action: parameters checked, legality, vetoes, then its
--- effect as one undoable action of the game (journaled as an order).
--- Returns true, results... or nil, reason, kind (kind: "unknown",
--- "params", "illegal", "vetoed", "error", "cpu", "budget", "memory") and,
--- for "illegal" and "vetoed", who refused (as set:check gives it).
---@param game table
---@param name string
---@param params? table
-- the body of set:act, run under the limits by _enter
local function act_body(self, game, name, params)
  local why, kind, by = self:_check_action(game, name, params)
  if why then return false, why, kind, by end
  if self.narrate then self.narrate("action", { rule = self.actions[name].rule, action = name, params = params }) end
  return true, self:play(game, name, params)
end

local function acted(ok, done, ...)
  if not ok then return nil, done, ... end      -- an error or a limit: error, kind
  if not done then return nil, ... end          -- illegal or vetoed: reason, kind, refusal
  return true, ...
end

function Set:act(game, name, params)
  self:_ready()
  params = params or {}
  if not self.actions[name] then return nil, ("unknown action '%s'"):format(tostring(name)), "unknown" end
  local reason = orders.check_params(self, game, name, params)
  if reason then return nil, reason, "params" end
  return acted(self:_enter(act_body, self, game, name, params))
end

--- What `side` may see of the game: units, groups and the declared status
--- lines, as the families' visibility queries allow (keel.visibility).
---@param game table
---@param side string
---@return table view
function Set:view_for(game, side)
  self:_ready()
  local res = pack(self:_enter(function() return require("keel.visibility").view(self, game, side) end))
  if not res[1] then error(res[2], 0) end
  return res[2]
end

--- A set with these families and variants loaded; variants that conflict
--- are refused here, when the game is set up, not at its first order.
--- opts.blame(kind, i, err), when given, gets the error of the i-th family
--- ("families") or variant ("variants") that fails to load, to raise it
--- with the caller's own place (a scenario names its field).
---@param opts {families: string[], variants?: string[], path?: string[], narrate?: function,
---  blame?: fun(kind: string, i: integer, err: any)}
function M.load(opts)
  local set = M.new(opts)
  local blame = opts.blame
  local function step(fn, kind, i, arg)
    if not blame then return fn(set, arg) end
    local ok, e = pcall(fn, set, arg)
    if not ok then blame(kind, i, e) end
  end
  for i, f in ipairs(opts.families or {}) do step(set.load_family, "families", i, f) end
  for i, v in ipairs(opts.variants or {}) do step(set.apply_variant, "variants", i, v) end
  set:finalize()
  set:check_conflicts()
  return set
end

return M

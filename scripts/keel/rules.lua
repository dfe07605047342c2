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
local tables = require "keel.tables"
local sequence = require "keel.sequence"

local M = {}

local Set = setmetatable({}, { __index = registry.Registry })
Set.__index = Set
M.Set = Set

local type, ipairs, pairs, error, tostring = type, ipairs, pairs, error, tostring
local xpcall = xpcall
local xprotect = sandbox.xprotect
local unpack, pack = table.unpack, table.pack
local setupvalue = debug.setupvalue
local PUSHED <const>, LAST <const> = 1, 2   -- set._rs (M.new)
local new_query = require("keel").rules.new_query
local hexlib = require("keel").hex

-- ---- sets --------------------------------------------------------------------------

--- A new, empty rule set.
---@param opts? {path?: string[], narrate?: fun(kind: string, data: table)}
---@return table set
function M.new(opts)
  opts = opts or {}
  local self = registry.new(opts, Set)
  self.narrate = opts.narrate or false   -- false, not nil: read on every action, found without a miss
  -- the rules whose code is running (#_running of them, the innermost
  -- last), each as its frame: { rule, fn, its ctx, the game's record, the
  -- atom of its id once pushed } (fn false for a rule call's frame, kept
  -- per rule in the set's record of a game; a query's resolution is its
  -- frame: below)
  self._running = {}
  -- the rule stack's counters (below), one array that the C half reads and
  -- writes too (keel.rules.new_query): the first rs[PUSHED] rules running
  -- are pushed on the state's rule stack, rs[LAST] is the frame of the rule
  -- that ran last (false: none yet)
  self._rs = { 0, false }
  self._depth = 0
  self._facades = setmetatable({}, { __mode = "k" })
  self._movement = rules_movement.new(self)   -- ctx:profile, reach, path, mover ...
  self._recs = setmetatable({}, { __mode = "k" })   -- game -> what the set keeps for it (below)
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
  "set_segment", "get_step", "set_step", "get_owner", "set_owner", "hash", "hash_hex", "get_version", "get_rule",
  "get_keyed", "set_keyed", "count_keyed", "at_keyed",
}
--- Board methods a rule may call through ctx.game.board (queries only).
M.board_methods = {
  "hex", "format", "side", "format_side", "numbering", "contains", "hexes", "get_terrain",
  "get_features", "get_coasts", "water_neighbors", "riverine_neighbors", "strait_passage", "get_port",
  "ports", "find_place", "place_name", "places", "get_cd", "cds", "box_of", "get_seaboxes",
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
-- this name: the facade holds the state's method bound to the state
-- (st:bind, a C function: no Lua call in between); those that change the
-- state or read the rule in force first push the rules of queries running
-- (sync, below).
local DIRECT = {
  get = "get", set = "set", get_value = "get_value", set_value = "set_value",
  get_marker = "get_marker", set_marker = "set_marker", add_marker = "add_marker",
  move = "move", reduce_points = "reduce_points", split = "split",
  combine = "combine", eliminate = "eliminate", sink = "eliminate",
  cargo = "cargo", cargo_check = "cargo_check", group_add = "group_add",
  group_remove = "group_remove", group_units = "group_units",
  group_get_name = "group_get_name", group_get_value = "group_get_value",
  group_set_value = "group_set_value", groups_of = "groups_of",
  get_global = "get_global", set_global = "set_global", get_owner = "get_owner",
  hash = "hash", hash_hex = "hash_hex", get_version = "get_version", get_rule = "get_rule",
  count_keyed = "count_keyed", at_keyed = "at_keyed", get_keyed = "get_keyed", set_keyed = "set_keyed",
  groups = "group_ids",
}
-- the facade's methods that neither change the state nor read the rule in force
local READS = {
  get = true, get_value = true, get_marker = true, cargo = true, cargo_check = true, group_units = true,
  group_get_name = true, group_get_value = true, groups_of = true, get_global = true, get_owner = true,
  hash = true, hash_hex = true, get_version = true, count_keyed = true, at_keyed = true, get_unit = true, units = true,
  groups = true, get_turn = true, get_phase = true, get_segment = true, get_step = true, get_keyed = true,
}
local sync   -- set: push the rules of the queries running (below)

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
    local methods = facade_of(board, M.board_methods)
    -- a keel board's C methods bound to it (board:bind): no Lua call in between
    local bind = type(board) == "userdata" and board.bind
    if bind then
      for m in pairs(methods) do
        local ok, fn = pcall(bind, board, m)
        if ok then methods[m] = fn end
      end
    end
    f = sandbox.readonly(methods, "game.board")
    board_facades[board] = f
  end
  return f
end

function Set:facade(game)
  local f = self._facades[game]
  if f then return f end
  local g = {}
  local st = game.state
  local rs, running = self._rs, self._running
  local methods = M.game_methods
  for i = 1, #methods do
    local m = methods[i]
    local method = game[m]
    if type(method) == "function" then
      local fn = DIRECT[m] and st:bind(DIRECT[m]) or function(_, ...) return method(game, ...) end
      if not READS[m] then
        local inner = fn
        fn = function(_, ...)
          if rs[PUSHED] < #running then sync(self) end
          return inner(nil, ...)
        end
      end
      g[m] = fn
    end
  end
  local unit_ids = st:bind("unit_ids")
  local proxy
  -- a filter gets the facade, never the game itself
  g.units = function(_, filter)
    if filter == nil or type(filter) == "table" then return unit_ids(nil, filter) end
    return game:units(function(_, id) return filter(proxy, id) end)
  end
  g.roll = function(_, expr, opts)
    if rs[PUSHED] < #running then sync(self) end
    return game:roll(expr, dice_opts(opts, nil))   -- the rule in force
  end
  -- a hex that changes hands is news every rule may hook: owner_changed
  g.set_owner = function(_, hex, side)
    if rs[PUSHED] < #running then sync(self) end
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

-- A ctx is read-only; its methods are shared by every ctx (its proxy reads
-- them from ctx_methods: a ctx holds only game, rule and query) and find the
-- ctx's rule, game and rule set in a private table keyed by the ctx: nothing
-- in it leads a script to the game object itself (which can save files and
-- load code). Its one closure is its query (the hottest method: no lookup).
local bound = setmetatable({}, { __mode = "k" })   -- ctx -> {set=, r=, game=}
local call   -- set, rule, fn, game, ... -> what fn returns (Set._call, below)
local rec_of, ctx_of   -- below
-- the state set:legal_actions, set:check or a view has frozen now and a
-- token of that look (ctx:cache asks the state's version once per look)
local frozen_now = { false, false }
local catching = sandbox.catching   -- [1] > 0: a script may catch an error (keel.sandbox)

-- A query as a ctx of game `b.game` asks it: { rule, function, the ctx of
-- its rule in that game, the game's record, (the atom of its id) }, kept
-- in the game's record (rec.queries) until the set's queries change
-- (finalize, a variant); it is also the query's frame on the set's stack
-- (_running).
local query_of

-- ctx:query(name, ...) as the ctx bound to b asks it, every case: an
-- entry point's call, or one a script could catch the error of, runs
-- protected (call); else the query's rule runs as the innermost rule
-- (below: how a query between rules runs), through the ctx's own query
-- (keel.rules.new_query, kernel/l_rules.c: the fast path, in C).
local function ask(b, name, ...)
  local q = b.rec.queries[name] or query_of(b, name)
  local set = b.set
  if #set._running == 0 or catching[1] > 0 then return call(set, q[1], q[2], b.game, ...) end
  return b.query(b.ctx, name, ...)
end

function query_of(b, name)
  local q = b.set.queries[name]
  if not q then error(("no rule answers query '%s'"):format(tostring(name)), 3) end
  local rec = b.rec
  local e = { q.rule, q.fn, rec.ctxs[q.rule] or ctx_of(b.set, rec, q.rule), rec }
  rec.queries[name] = e
  return e
end

local function binding(ctx)
  local b = bound[ctx]
  if not b then error("a ctx method is called on its ctx (ctx:name(...))", 3) end
  return b
end

-- A dice table as rules see it (ctx:table): read-only, one view per
-- table. Its methods run on the table itself, not on the view (a method
-- given the view reads it through the proxy: `next` and keel.tables'
-- C walk find it empty, so a bound table's modifiers went unseen), and
-- hand back read-only values (a row, a cell: the table's own) and views
-- of the tables they make (t:bind).
local table_views = setmetatable({}, { __mode = "k" })
local table_view
local function viewed(...)
  if select("#", ...) == 1 and type((...)) ~= "table" then return (...) end   -- a total, a text
  local r = table.pack(...)
  for i = 1, r.n do
    local v = r[i]
    if type(v) == "table" then
      r[i] = getmetatable(v) == tables.Table and table_view(v) or sandbox.readonly(v, "table value")
    end
  end
  return table.unpack(r, 1, r.n)
end
function table_view(t)
  local view = table_views[t]
  if view then return view end
  local methods = {}
  for name, fn in pairs(tables.Table) do
    if type(fn) == "function" and name:sub(1, 1) ~= "_" then
      methods[name] = function(_, ...) return viewed(fn(t, ...)) end
    end
  end
  view = sandbox.readonly(t, "table " .. tostring(t.name), methods)
  table_views[t] = view
  return view
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

local KNOWN_NIL = {}   -- an answer of nil, as ctx:known keeps it
local ctx_methods
ctx_methods = {
  --- ctx:roll("2d6", {reason=}) -> total, face1, ..., faceN
  roll = function(self, expr, opts)
    local b = bound[self] or binding(self)
    local set = b.set
    if set._rs[PUSHED] < #set._running then sync(set) end
    local narrate, game = set.narrate, b.game
    if not narrate then return game:roll(expr, dice_opts(opts, b.r.id)) end
    return narrated(narrate, b.r, game, game:roll(expr, dice_opts(opts, b.r.id)))
  end,
  --- ctx:table(name) -> the table (read-only)
  table = function(self, name)
    return table_view(tbl(binding(self).set, name))
  end,
  --- ctx:resolve(name, modifiers, {reason=}) -> result (the record goes to the narration)
  resolve = function(self, name, modctx, opts)
    local b = bound[self] or binding(self)
    local set = b.set
    if set._rs[PUSHED] < #set._running then sync(set) end
    local t = set.tables[name] or set:table(name) or tbl(set, name)
    local reason, stream, extra
    if opts then reason, stream, extra = opts.reason, opts.stream, opts.modifier end
    if extra ~= nil and math.type(extra) ~= "integer" then error("opts.modifier: integer expected", 2) end
    -- a table whose rows come from another (the SUCCESS TABLE) uses the set's: a scenario's own
    local rows = t.rows_from and set:table(t.rows_from) or nil
    local narrate = set.narrate
    local result, rec = t:_resolve(b.game.dice, modctx or {}, b.r.id or t.rule, reason or name, stream, extra,
      rows, narrate and true or false)
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
    local b = bound[self] or binding(self)
    return b.set:_dispatch(b.game, event, data or {})
  end,
  query = function(self, name, ...) return ask(bound[self] or binding(self), name, ...) end,   -- the general path
  --- ctx:open_window { side =, actions = {...}, title = }: a decision window for a side (keel.sequence)
  open_window = function(self, opts)
    local b = binding(self)
    if b.set._rs[PUSHED] < #b.set._running then sync(b.set) end
    return sequence.open_window(self, opts, b.r.id)
  end,
  --- ctx:close_window(): close the innermost decision window; false when none is open
  close_window = function(self)
    local b = binding(self)
    if b.set._rs[PUSHED] < #b.set._running then sync(b.set) end
    return sequence.close_window(self)
  end,
  --- ctx:status(): where the game is in its sequence of play (keel.sequence.status)
  status = function(self)
    local b = binding(self)
    return sequence.status(b.set, b.game)
  end,
  -- a value that is a table comes as the read-only view ctx.rule.values
  -- shows (one proxy per table): a rule never changes its own values
  get_value = function(self, key)
    local v = binding(self).r.values[key]
    if type(v) == "table" then v = sandbox.readonly(v, "ctx.rule.values." .. tostring(key)) end
    return v
  end,
  --- ctx:pick(items, {count=, reason=}) -> item (or the list of `count` items): a random pick (keel.pick)
  pick = function(self, items, opts)
    local b = binding(self)
    local set, r, game = b.set, b.r, b.game
    opts = opts or {}
    if set._rs[PUSHED] < #set._running then sync(set) end
    local picked = pick.draw(function(sides)
      local total = game:roll("1d" .. sides, dice_opts(opts, r.id))
      if set.narrate then set.narrate("roll", { rule = r, record = game.dice:get_record() }) end
      return total
    end, items, opts.count or 1)
    if opts.count then return picked end
    return picked[1]
  end,
  --- ctx:cache(name) -> a table the rule set keeps for this game while its
  --- state is unchanged: emptied (a new table) as soon as the state's
  --- version moves (keel_state_get_version). What a rule works out from
  --- the state alone — reach, plans, who is where — it may keep there
  --- under a key and find again: listing legal actions runs with the state
  --- frozen, so every domain and check of one listing shares it. Every
  --- rule of the set that names the same cache shares the table; a
  --- family names its caches after itself ("navgroup.reach").
  cache = function(self, name)
    local b = bound[self] or binding(self)
    if type(name) ~= "string" then error("ctx:cache(name): a name (string) expected", 2) end
    local rec, st = b.rec, b.game.state
    local caches = rec.caches
    -- (within one frozen look the version is asked once: it cannot move)
    if not (caches and st == frozen_now[1] and rec.cache_look == frozen_now[2] and rec.cache_state == st) then
      local version = st:get_version()
      if not caches or rec.cache_version ~= version or rec.cache_state ~= st then
        caches = {}
        rec.caches, rec.cache_version, rec.cache_state = caches, version, st
      end
      if st == frozen_now[1] then rec.cache_look = frozen_now[2] end
    end
    local t = caches[name]
    if not t then t = {}; caches[name] = t end
    return t
  end,
  --- ctx:known(name, a, b) -> ctx:query(name, a, b)'s answer for the state
  --- as it is, asked once while the state is unchanged (ctx:cache): what a
  --- listing of the legal actions (the state frozen) asks of every
  --- candidate order again and again. For queries of at most two arguments
  --- whose answer is a value, or a table no caller changes.
  known = function(self, name, a, b)
    local c = ctx_methods.cache(self, "keel.known")
    local t = c[name]
    if not t then t = {}; c[name] = t end
    local k = a == nil and KNOWN_NIL or a
    if b ~= nil then
      local sub = t[k]
      if not sub then sub = {}; t[k] = sub end
      t, k = sub, b
    end
    local v = t[k]
    if v == nil then
      if a == nil then v = self:query(name)
      elseif b == nil then v = self:query(name, a)
      else v = self:query(name, a, b) end
      t[k] = v == nil and KNOWN_NIL or v
      return v
    end
    if v == KNOWN_NIL then return nil end
    return v
  end,
  --- ctx:label(kind, v) -> how narration names a hex (the board's name for
  --- it: "19A:3406", a place), a unit or a group (its name) or a sea zone
  --- (its name, by index in board:zones()); the one way families name them.
  label = function(self, kind, v)
    local game = (bound[self] or binding(self)).game
    if kind == "hex" then
      local board = game.board
      if math.type(v) == "integer" then
        if board and board:contains(v) then return board:format(v) end
        if hexlib.is_valid(v) then return hexlib.tostring(v) end
      end
      return tostring(v)
    elseif kind == "unit" then
      return tostring(game:get(v, "name"))
    elseif kind == "group" then
      return tostring(game:group_get_name(v))
    elseif kind == "zone" then
      return game.board and game.board:zones()[v] or ("area " .. tostring(v))
    end
    error("ctx:label(kind, value): kind \"hex\", \"unit\", \"group\" or \"zone\" expected, got " .. tostring(kind), 2)
  end,
  say = function(self, fmt, ...)
    local b = bound[self] or binding(self)
    local narrate = b.set.narrate
    if not narrate then return end   -- no one listens: nothing to format
    if b.set._rs[PUSHED] < #b.set._running then sync(b.set) end
    local ok, text = pcall(string.format, fmt, ...)
    narrate("say", { rule = b.r, text = ok and text or tostring(fmt) })
  end,
}
-- (the movement methods read the board and the owners; a mover's
-- callbacks change the state, so a mover first pushes the queries' rules)
for name, fn in pairs(rules_movement.ctx_methods(function(ctx, changes)
  local b = bound[ctx] or binding(ctx)
  local set = b.set
  if changes and set._rs[PUSHED] < #set._running then sync(set) end
  return set._movement, b.game
end)) do
  ctx_methods[name] = fn
end

function Set:_make_ctx(r, game)
  -- what ctx.rule shows of the rule: sealed, as the ctx is (its values a
  -- read-only proxy shared by every ctx of the rule)
  local values = r.values
  if type(values) == "table" then values = sandbox.readonly(values, "ctx.rule.values") end
  local view = sandbox.seal({ id = r.id, title = r.title, values = values, file = r.file, line = r.line },
    "ctx.rule")
  local b = { set = self, r = r, game = game, rec = rec_of(self, game) }
  -- the one closure of a ctx: its query (C), which finds its binding
  -- without a lookup; every case it does not take goes to ask
  local query = new_query(false, b.rec.queries, self._running, b.rec, catching,
    ctx_methods.query, self._rs)
  -- the ctx is sealed, not a proxy: ctx.game is a plain read (it is made
  -- for this rule alone, moved from game to game with the set's record);
  -- the other methods are the shared ones
  local ctx = sandbox.seal({ game = self:facade(game), rule = view, query = query }, "ctx", ctx_methods)
  setupvalue(query, 1, ctx)
  b.ctx, b.query = ctx, query
  bound[ctx] = b
  return ctx
end

function Set:_say(kind, data)
  if self.narrate then self.narrate(kind, data) end
end

-- ---- running rule code -----------------------------------------------------------------

-- What the set keeps per game it runs rules of (made on the first call for
-- the game): the state's push_rule and pop_rule bound to it (st:bind), the
-- ctx of each rule, the frame of each rule's calls (its ctx and the atom
-- of its id once pushed: pushed again without an intern) and the queries
-- resolved.
local function new_rec(self, game)
  local st = game.state
  local rec = { game = game, push = st:bind("push_rule"), pop = st:bind("pop_rule"), ctxs = {}, frames = {},
                queries = {} }
  self._recs[game] = rec
  return rec
end

-- Move a record to another game: its ctxs show that game, its frames and
-- queries drop the atoms they kept (atoms are a state's own). A set that
-- plays one game after another (a study, a bench) so keeps the ctxs,
-- frames and queries it made for the first.
local function rebind(self, rec, game)
  self._recs[rec.game] = nil
  local st = game.state
  rec.game, rec.push, rec.pop = game, st:bind("push_rule"), st:bind("pop_rule")
  rec.caches = nil   -- another game's state: ctx:cache starts afresh
  local facade = self:facade(game)
  for _, ctx in pairs(rec.ctxs) do   -- each on its own: the order is of no account
    bound[ctx].game = game
    ctx.game = facade   -- a key the sealed ctx has: kernel code sets it again
  end
  for _, f in pairs(rec.frames) do f[5] = nil end
  for _, q in pairs(rec.queries) do q[5] = nil end
  self._recs[game] = rec
end

-- The record of a game: its own, else the one the set used last, moved
-- to it when no rule code is running (while some runs, its frames hold
-- that record: a game met then, such as one a host's narrate asks about,
-- gets a record of its own).
function rec_of(self, game)
  local rec = self._recs[game]
  if not rec then
    rec = self._rec
    if rec and self._running[1] == nil then rebind(self, rec, game) else rec = new_rec(self, game) end
  end
  self._rec = rec
  return rec
end

function ctx_of(self, rec, r)
  local ctx = self:_make_ctx(r, rec.game)
  rec.ctxs[r] = ctx
  return ctx
end

function Set:_ctx_for(r, game)
  local rec = rec_of(self, game)
  return rec.ctxs[r] or ctx_of(self, rec, r)
end

--- Forget the ctx made for rule r in every game (a variant changed r).
local function forget_queries(rec)   -- in place: a ctx's query holds the table
  local qs = rec.queries
  for name in pairs(qs) do qs[name] = nil end
end

function Set:_forget_ctx(r)
  for _, rec in pairs(self._recs) do
    rec.ctxs[r] = nil
    rec.frames[r] = nil
    forget_queries(rec)
  end
end

--- Build the dispatch lists (keel.registry); the queries each game's
--- record resolved are resolved again.
function Set:finalize()
  registry.Registry.finalize(self)
  for _, rec in pairs(self._recs) do forget_queries(rec) end
  return self
end

-- The rules whose code runs are _running[1..#_running] (the innermost last), each
-- a frame with its game's record; the message handler of an error names
-- the innermost. A rule call pushes its rule on the state's rule stack (the
-- rule in force, journaled with every change) and runs protected: on its
-- way out, by a return or an error, it pops what was pushed above it and
-- drops the calls above it from the stack. A query asked by a rule's code
-- where no script can catch its error (keel.sandbox.catching) is cheaper:
-- no protected call (an error goes on to the enclosing rule call, whose
-- handler names the query's rule: it is still the innermost) and no push
-- until the query (or kernel code for it) changes the state or reads the
-- rule in force: then sync pushes the rules not pushed yet, in order.
local function push(f)
  local atom = f[5]
  if atom then f[4].push(nil, atom) else f[5] = f[4].push(nil, f[1].id) end
end

-- the frame of rule r's calls in the game of rec
local function frame_of(self, rec, r)
  local f = { r, false, rec.ctxs[r] or ctx_of(self, rec, r), rec }
  rec.frames[r] = f
  return f
end

function sync(self)
  local running, rs = self._running, self._rs
  local n = #running
  for i = rs[PUSHED] + 1, n do push(running[i]) end
  rs[PUSHED] = n
end

-- back to n0 rules running: pop what was pushed above them
local function unwind(self, n0)
  local rs, running = self._rs, self._running
  local pushed = rs[PUSHED]
  if pushed > n0 then
    for i = pushed, n0 + 1, -1 do running[i][4].pop() end
    rs[PUSHED] = n0
  end
  for i = #running, n0 + 1, -1 do running[i] = nil end
end

function Set:_error_handler(e)
  local running = self._running
  local f = running[#running]
  local r = f and f[1]
  return errors.from(e, r and r.id or nil, true, self._entry_fn)
end

local function finish(self, n0, ok, ...)
  local rs, running = self._rs, self._running
  if ok and rs[PUSHED] == n0 + 1 then   -- the common way out: pop this call's rule
    running[n0 + 1][4].pop()
    rs[PUSHED] = n0
    running[n0 + 1] = nil
    return ...
  end
  unwind(self, n0)
  if not ok then error((...), 0) end
  return ...
end

-- the way out of a rule call that ran unprotected: it returned (its rule
-- is popped if it was pushed)
local function returned(self, n0, ...)
  if self._rs[PUSHED] > n0 then unwind(self, n0) else self._running[n0 + 1] = nil end
  return ...
end

-- Call fn(ctx, ...) of rule r with r in force for the journal. Within
-- another rule's call, where no script can catch an error (catching), the
-- call runs as a query between rules does: unprotected (an error goes on
-- to the enclosing rule call, whose handler names this rule, the
-- innermost, and whose way out unwinds it), its rule pushed only when its
-- code changes the state or reads the rule in force (sync). An event
-- handler that looks and returns so costs no push and pop.
function call(self, r, fn, game, ...)
  local rec = self._rec
  if rec == nil or rec.game ~= game then rec = rec_of(self, game) end
  local rs, running = self._rs, self._running
  local n0 = #running
  local n = n0 + 1
  local f = rec.frames[r] or frame_of(self, rec, r)
  if n0 > 0 and catching[1] <= 0 then
    running[n] = f
    rs[LAST] = f
    return returned(self, n0, fn(f[3], ...))
  end
  if rs[PUSHED] < n0 then sync(self) end
  running[n] = f
  rs[LAST] = f
  local atom = f[5]
  if atom then rec.push(nil, atom) else f[5] = rec.push(nil, r.id) end
  rs[PUSHED] = n
  return finish(self, n0, xpcall(fn, self._handler, f[3], ...))
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
    call(self, h.rule, h.fn, game, data)
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
  if self._running[1] ~= nil then unwind(self, 0) end
  if catching[1] ~= 0 then sandbox.reset_catching() end
  if ok then return ok, ... end
  local e, kind = ...
  -- a stop the rules swallowed and returned from: the rule that ran last
  local last = self._rs[LAST]
  if not errors.is_error(e) then e = errors.from(e, last and last[1].id) end
  errors.set_kind(e, kind)
  return false, e, kind
end

-- (a body takes at most five arguments: no vararg frame on every entry)
function Set:_enter(body, a1, a2, a3, a4, a5)
  if self._depth > 0 then   -- within a running entry point (a host's narrate)
    if self._rs[PUSHED] < #self._running then sync(self) end
    return true, body(a1, a2, a3, a4, a5)
  end
  self._entry_fn = body
  self._depth = 1
  self._rs[LAST] = false
  return entered(self, xprotect(body, self._handler, a1, a2, a3, a4, a5))
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
local frozen   -- below
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

-- Run body under the set's entry point with the game's state frozen (no
-- change, no action) and its dice untouched: what only looks at a game
-- (legal actions, checks, views, status) provably changes nothing. A roll
-- made meanwhile is undone and reported.
function frozen(self, game, body)
  local st, dice = game.state, game.dice
  local saved = game:_dice_state()   -- kept from the last action while the dice stand: no save per listing
  local before = dice:get_version()
  local was_st, was_look = frozen_now[1], frozen_now[2]
  st:set_frozen(true)
  frozen_now[1], frozen_now[2] = st, {}
  local res = pack(self:_enter(body))
  frozen_now[1], frozen_now[2] = was_st, was_look
  st:set_frozen(false)
  if dice:get_version() ~= before then
    dice:load(saved)
    if res[1] then
      return false, errors.from("a rule rolled dice while orders were only being listed or checked "
        .. "(a domain, legal check or query must not roll)", nil), "error"
    end
  end
  return unpack(res, 1, res.n)
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
  local ok, why, kind, by = frozen(self, game, body)
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
  local names = self.sequence and sequence.allowed(self, game, side) or nil
  local res = pack(frozen(self, game, function() return require("keel.legal").list(self, game, side, names) end))
  if not res[1] then error(res[2], 0) end
  return res[2]
end

--- Where the game is in its sequence of play: turn, phase, step, phasing,
--- active (the sides that must decide now), window, over, result
--- (keel.sequence.status). Changes nothing.
---@param game table
---@return table
function Set:status(game)
  self:_ready()
  return sequence.status(self, game)
end

--- May `side` take action `name` now, as the sequence of play says? nil,
--- or the reason and its kind ("side", "phase", "over"); see keel.sequence.may.
function Set:may(game, name, side)
  self:_ready()
  if not self.actions[name] then return ("unknown action '%s'"):format(tostring(name)), "unknown" end
  return sequence.may(self, game, name, side)
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
local play_ready = orders.play_ready
local function act_body(self, game, name, params, side)
  local a = self.actions[name]
  if a.def.legal or self.vetoes[name] then   -- else nothing to check
    -- (a failure on the way leaves the state frozen: Set:act thaws it)
    local st = game.state
    st:set_frozen(true)
    local why, kind, by = self:_check_action(game, name, params)
    st:set_frozen(false)
    if why then return false, why, kind, by end
  end
  if self.narrate then self.narrate("action", { rule = a.rule, action = name, params = params, side = side }) end
  return true, play_ready(self, game, name, params, side)
end

-- what _enter returned, the state thawed when a legality check failed
-- (raised) while it was frozen
local function thawed(game, ...)
  local st = game.state
  if st:is_frozen() and not (...) then st:set_frozen(false) end
  return ...
end

local function acted(ok, done, ...)
  if not ok then return nil, done, ... end      -- an error or a limit: error, kind
  if not done then return nil, ... end          -- illegal or vetoed: reason, kind, refusal
  return true, ...
end

function Set:act(game, name, params, side)
  if self._dirty or self.conflicts[1] ~= nil then self:_ready() end
  params = params or {}
  if not self.actions[name] then return nil, ("unknown action '%s'"):format(tostring(name)), "unknown" end
  if self.sequence then
    local why, kind = sequence.may(self, game, name, side)
    if why then return nil, why, kind end
  end
  local reason = orders.check_params(self, game, name, params)
  if reason then return nil, reason, "params" end
  return acted(thawed(game, self:_enter(act_body, self, game, name, params, side)))
end

--- What `side` may see of the game: units, groups and the declared status
--- lines, as the families' visibility queries allow (keel.visibility).
---@param game table
---@param side string
---@return table view
function Set:view_for(game, side)
  self:_ready()
  local res = pack(frozen(self, game, function() return require("keel.visibility").view(self, game, side) end))
  if not res[1] then error(res[2], 0) end
  return res[2]
end

--- A set with these families and variants loaded; variants that conflict
--- are refused here, when the game is set up, not at its first order.
--- opts.blame(kind, i, err), when given, gets the error of the i-th family
--- ("families") or variant ("variants") that fails to load, to raise it
--- with the caller's own place (a scenario names its field).
---@param opts {families: string[], variants?: string[], path?: string[], narrate?: function,
---  blame?: fun(kind: string, i: integer, err: any), game?: table}
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
  if blame then
    local ok, e = pcall(sequence.install, set, opts.game)
    if not ok then blame("game", 1, e) end
  else
    sequence.install(set, opts.game)
  end
  set:finalize()
  set:check_conflicts()
  return set
end

return M

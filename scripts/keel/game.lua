--- keel.game — one game: the kernel's state (keel.state) + its journal +
-- the dice (+ a board when given), with transactions, actions (the unit of
-- undo), save and load. Rules and orders (the unit of replay) are the rule
-- set's (keel.rules, keel.orders); a game is set up by keel.scenario.
--
--   local game = require("keel.game").new { seed = 7 }
--   local bb = game:unit_new { name = "Warspite", type = "BB", side = "Allied",
--                              values = { strength = 5 } }
--   game:action("barrage", function(g) g:add_hits(bb, 3) end, { rule = "27.A.3" })
--   game:undo(1)
--
-- Every change is journaled with the rule that made it; see doc/game.md
-- (API: doc/api/game.md) and doc/journal.md.
local keel = require "keel"
local json = require "keel.json"
local errors = require "keel.errors"
local map = require "keel.map"
local sorted_keys = require("keel.keys").sorted

local kstate = keel.state
local encode = kstate.json
local type, tostring, error = type, tostring, error

local M = {}
M.JOURNAL_VERSION = 1

local Game = {}
Game.__index = Game
M.Game = Game

local function new_dice(seed) return keel.dice.new(seed) end

local json_line = kstate.json_line

--- One journal line: {"ev":EV, then fields in the order given}.
---@param ev string
---@param fields table array of {key, value}
local function line(ev, fields)
  local args, n = {}, 0
  for i = 1, #fields do
    local f = fields[i]
    args[n + 1], args[n + 2] = f[1], f[2]
    n = n + 2
  end
  return json_line(ev, table.unpack(args, 1, n))
end
M.line = line

-- ---- creation ------------------------------------------------------------------

--- A new game.
---@param opts? {seed?: integer, board?: any, dice?: any, scenario?: string, variants?: string[], journal?: boolean,
---  state?: any, limits?: {cpu: number, memory: integer}}
---@return table game
function M.new(opts)
  opts = opts or {}
  local seed = math.tointeger(opts.seed or 0)
  if not seed then error("keel.game.new: seed must be an integer", 2) end
  local self = setmetatable({
    state = opts.state or kstate.new(),
    seed = seed,
    scenario = opts.scenario,
    variants = opts.variants or {},
    board = opts.board,
    rule_files = {},          -- array of {path, hash}, in the order declared
    _acts = {},               -- per undoable action, two texts: the dice before it, after it
    _redo = {},
    _rule_stack = {},
  }, Game)
  self.dice = opts.dice or new_dice(seed)
  if opts.dice_state then self.dice:load(opts.dice_state) end
  self.dice:set_journal(self.state)   -- every roll journaled, in C (no record made)
  if opts.journal == false then self.state:journal_enable(false) end
  local header = {
    { "format", "keel-journal" }, { "version", M.JOURNAL_VERSION },
    { "keel", keel.version }, { "lua", keel.lua_version }, { "lpeg", tostring(keel.lpeg_version) },
    { "scenario", self.scenario }, { "seed", seed }, { "variants", self.variants },
  }
  -- the limits the game is played under (keel run; replay plays under them)
  if opts.limits then header[#header + 1] = { "limits", { cpu = opts.limits.cpu, memory = opts.limits.memory } } end
  header[#header + 1] = { "loaded", opts.loaded }
  if opts.journal_text then
    -- a save that keeps its game's journal: the journal goes on from it, as
    -- if the game had never been saved (no header of its own)
    for l in opts.journal_text:gmatch("[^\n]+") do self.state:journal_append(l) end
  else
    self.state:journal_append(line("header", header))
  end
  if self.board then self:seed_ownership(self.board) end
  return self
end

--- Seed hex ownership with the owners the board's map file declares
-- (keel.map.seed_owners; the board holds none), in map order, and journal it
-- as one event: the hexes owned after it, and the state hash.
function Game:seed_ownership(board)
  local st = self.state
  st:journal_enable(false)
  map.seed_owners(board, st)
  st:journal_enable(true)
  st:journal_append(line("owners", { { "from", "board" }, { "count", st:count_owned() }, { "hash", st:hash_hex() } }))
end

-- ---- rule files ------------------------------------------------------------------

-- Rule files under keel's own scripts folder are named "<keel>/family/file"
-- in journals and saves, so that the same game gives the same journal
-- wherever keel is built or installed; other paths are kept as given.
local KEEL_PREFIX = "<keel>/"

local portable_of = {}   -- path -> its portable name (keel.script_dir never changes)
local function portable_path(path)
  local name = portable_of[path]
  if name then return name end
  local dir = keel.script_dir .. "/"
  name = path
  if path:sub(1, #dir) == dir then name = KEEL_PREFIX .. path:sub(#dir + 1) end
  portable_of[path] = name
  return name
end

local function real_path(path)
  if path:sub(1, #KEEL_PREFIX) == KEEL_PREFIX then return keel.script_dir .. "/" .. path:sub(#KEEL_PREFIX + 1) end
  return path
end
M.portable_path, M.real_path = portable_path, real_path

--- Record a rule file the game's rules were loaded from: its hash goes in
--- the journal (a `rule_file` line) and in saves. Runtime plumbing: the
--- rule set (set:declare_files) and keel.scenario call it, with the hash
--- of the text they loaded (else the file is read and hashed now).
---@param path string
---@param hash? string
---@return string hash
function Game:add_rule_file(path, hash)
  local h = hash
  if not h then
    local text, err = keel.file.read(path)
    if not text then error("add_rule_file: " .. tostring(err), 2) end
    h = kstate.hash_bytes(text)
  end
  local name = portable_path(path)
  self.rule_files[#self.rule_files + 1] = { name, h }
  self.state:journal_append(json_line("rule_file", "path", name, "hash", h))
  return h
end

-- ---- the rule in force, transactions, actions ------------------------------------

--- The rule whose code is running (its id), or nil.
function Game:get_rule() return self.state:get_rule() end

--- Run fn(game) with `rule` as the rule in force (no transaction).
function Game:with_rule(rule, fn, ...)
  local st = self.state
  st:push_rule(rule)
  local ok, a, b, c = pcall(fn, self, ...)
  st:pop_rule()
  if not ok then error(a, 0) end
  return a, b, c
end

--- Roll through the game's dice: the total and each die's face. The roll
--- is journaled with opts.rule, else the rule in force; its record is
--- game.dice:get_record().
---@param expr string e.g. "2d6", "1d6+1"
---@param opts? {stream?: string, rule?: string, reason?: string}
---@return integer total, integer ... faces
function Game:roll(expr, opts)
  return self.dice:roll(expr, opts)
end

-- The dice's saved state (text), made again only when the dice changed
-- since the last one (dice:get_version): an action that rolls nothing
-- costs no save.
local function dice_state(self)
  local d = self.dice
  local v = d:get_version()
  if v ~= self._dice_version then
    self._dice_text, self._dice_version = d:save(), v
  end
  return self._dice_text
end
--- The dice's saved state, kept while the dice do not change (for
--- keel.rules, which puts the dice back after a listing that rolled).
Game._dice_state = dice_state

-- A body that returned normally while its action is stopping (its script
-- swallowed the stop, or a refused allocation, in tail position) failed.
local stop_message = keel.sandbox.stop_message
local function stopped(res)
  if res[1] then
    local stop = stop_message()
    if stop then return { false, stop, n = 2 } end
  end
  return res
end

local function traceback_handler(rule)
  return function(e) return errors.from(e, rule, true) end
end

--- All or nothing: run fn(game, ...); if it raises (or hits a limit, or
--- runs out of memory) the state, the journal and the dice are exactly as
--- before, and the error names file, line and rule id.
---@param fn fun(game: table, ...): any
---@param opts? {rule?: string}
function Game:transaction(fn, opts, ...)
  local rule = opts and opts.rule
  local st = self.state
  local dice_before = dice_state(self)
  local level = st:begin()
  if rule then st:push_rule(rule) end
  local res = stopped(table.pack(xpcall(fn, traceback_handler(rule or st:get_rule()), self, ...)))
  if res[1] then
    if rule then st:pop_rule() end
    st:commit(level)
    return table.unpack(res, 2, res.n)
  end
  local err = errors.from(res[2], rule or st:get_rule())
  st:rollback(level)
  self.dice:load(dice_before)
  st:journal_append(line("rollback", { { "rule", err.rule }, { "error", err.message } }))
  error(err, 0)
end

--- Like transaction, but returns false, error instead of raising.
function Game:try(fn, opts, ...)
  local res = table.pack(pcall(self.transaction, self, fn, opts, ...))
  if res[1] then return true, table.unpack(res, 2, res.n) end
  return false, res[2]
end

local function trim(t, n) for i = #t, n + 1, -1 do t[i] = nil end end
-- the dice records of the first n actions are kept (two texts an action:
-- no table per action for the collector to walk)
local function trim_records(t, n) trim(t, 2 * n) end

-- The dice records of the undoable actions are the last 2n entries of
-- self._acts: the state drops the actions past its undo depth, and the
-- records before self._acts_off are theirs, stale. keep_last marks all but
-- the last n stale; the array is moved down (compact) only with no
-- transaction open and once the stale part is half of it, so a long game
-- holds the records of about twice the undo depth, at a constant cost per
-- action.
local function keep_last(self, n)
  local acts = self._acts
  local off = #acts - 2 * n
  if off > (self._acts_off or 0) then self._acts_off = off end
end
local function compact(self)
  local acts, off = self._acts, self._acts_off or 0
  if off < 64 or off * 2 < #acts then return end
  local len = #acts
  table.move(acts, off + 1, len, 1)
  trim(acts, len - off)
  self._acts_off = 0
end

-- The state's methods an action calls, bound to the state (st:bind: no
-- lookup or check of the state per call), the atom of each rule id pushed
-- (keel.state push_rule) and the dice's get_version: made on the game's
-- first action, again when the game's state or dice is another.
local ACTION_METHODS = { "begin", "commit", "push_rule", "pop_rule", "action_begin", "action_end", "count_actions" }
local function bound_of(self)
  local st = self.state
  local b = { st = st, atoms = {}, dice = self.dice, dice_version = self.dice.get_version }
  for _, m in ipairs(ACTION_METHODS) do b[m] = st:bind(m) end
  self._bound = b
  return b
end

-- an action's body: its journal lines around fn(game, ...)
local function action_end(b, ...)
  b.action_end()
  return ...
end
local function action_body(self, b, name, order_json, by, fn, ...)
  b.action_begin(nil, name, order_json, by)
  return action_end(b, fn(self, ...))
end

-- the message handler of an action in force for `rule`, one per rule
local handlers = setmetatable({}, { __mode = "v" })
local NO_RULE = {}
local function handler_for(rule)
  local key = rule == nil and NO_RULE or rule
  local h = handlers[key]
  if not h then
    h = traceback_handler(rule)
    handlers[key] = h
  end
  return h
end

-- what an action does once its body returned (ok) or raised
local function action_done(self, b, name, order, rule, level, dice_before, ok, ...)
  if ok then
    -- a body that returned while its action is stopping failed (keel.sandbox)
    local stop = stop_message()
    if stop then return action_done(self, b, name, order, rule, level, dice_before, false, stop) end
    if rule then b.pop_rule() end
    b.commit(nil, level)
    local acts = self._acts
    local n = b.count_actions()
    -- records of actions the state no longer holds (past its undo depth,
    -- or a change outside any action ended the history): stale
    if #acts - (self._acts_off or 0) > 2 * (n - 1) then keep_last(self, n - 1) end
    if level == 1 and self._acts_off then compact(self) end   -- level 1: no transaction left open
    local after = self._dice_text
    local d = self.dice
    if (d == b.dice and b.dice_version(d) or d:get_version()) ~= self._dice_version then after = dice_state(self) end
    local k = #acts
    acts[k + 1], acts[k + 2] = dice_before, after
    if self._redo[1] ~= nil then self._redo = {} end
    if self._streamed and level == 1 then
      local fok, ferr = self.state:journal_flush(false)
      if not fok then error("journal: " .. tostring(ferr), 0) end
    end
    return ...
  end
  local st = self.state
  local err = errors.from((...), rule or st:get_rule())
  st:rollback(level)
  self.dice:load(dice_before)
  st:journal_append(line("rollback", { { "rule", err.rule }, { "error", err.message },
    { "name", name }, { "order", order } }))
  error(err, 0)
end

-- Game:action with the rule, the order and the side that gave it as
-- arguments (keel.orders plays every order through it: no options table
-- per order).
function Game:_action(name, fn, rule, order, by, ...)
  local b = self._bound
  local dice = self.dice
  if b == nil or b.st ~= self.state or b.dice ~= dice then b = bound_of(self) end
  local dice_before = self._dice_text   -- dice_state(self), without a call when nothing rolled
  if b.dice_version(dice) ~= self._dice_version then dice_before = dice_state(self) end
  local level = b.begin()
  local order_json = order ~= nil and encode(order) or nil
  if rule then
    local atom = b.atoms[rule]
    if atom then b.push_rule(nil, atom) else b.atoms[rule] = b.push_rule(nil, rule) end
  end
  local h = rule and handlers[rule] or handler_for(rule or self.state:get_rule())
  return action_done(self, b, name, order, rule, level, dice_before,
    xpcall(action_body, h, self, b, name, order_json, by, fn, ...))
end

--- An action: the unit of undo. Runs fn(game, ...) as a transaction;
--- journals its name, its order (when given) and the state hash after it.
---@param name string
---@param fn fun(game: table, ...): any
---@param opts? {rule?: string, order?: any}
function Game:action(name, fn, opts, ...)
  if opts then return self:_action(name, fn, opts.rule, opts.order, nil, ...) end
  return self:_action(name, fn, nil, nil, nil, ...)
end

-- Move the dice records of the last n actions of `from` onto `to` (the
-- last first); returns the texts before and after the last one moved.
local function move_records(from, to, n)
  local before, after
  for _ = 1, n do
    local k = #from
    if k < 2 then break end
    local b, a = from[k - 1], from[k]
    from[k], from[k - 1] = nil, nil
    local j = #to
    to[j + 1], to[j + 2] = b, a
    before, after = b, a
  end
  return before, after
end

--- Begin a transaction around whole actions: game:rollback(mark) puts the
--- state, the journal, the actions and what can be redone, and the dice
--- back as they are now (keel serve takes back an order it cannot answer);
--- game:commit(mark) keeps what was done. Innermost first.
---@return table mark
function Game:begin()
  return { level = self.state:begin(), dice = dice_state(self), acts = #self._acts, redo = self._redo,
           acts_off = self._acts_off }
end

--- Keep what was done since game:begin().
---@param mark table
function Game:commit(mark) self.state:commit(mark.level) end

--- Take back everything since game:begin(), actions and all.
---@param mark table
function Game:rollback(mark)
  self.state:rollback(mark.level)
  trim(self._acts, mark.acts)
  self._acts_off = mark.acts_off
  self._redo = mark.redo    -- an action ended since made a new (empty) list
  self.dice:load(mark.dice)
end

--- Undo the last n actions (default 1): state and dice as before them.
function Game:undo(n)
  n = n or 1
  local can = self.state:count_actions()
  if self.loaded_from and math.type(n) == "integer" and n > can then
    -- the actions played before the save are in its journal, not in the
    -- undo history: say so rather than "0 actions can be undone"
    if self.saved_journal then
      error(("undo %d: %d action(s) can be undone; the game was loaded from %s and the %d action(s) before "
        .. "that save are in its journal, not in the undo history (keel.scenario.resume plays the save's "
        .. "journal again to undo past the save)"):format(n, can, self.loaded_from, self.loaded_actions), 2)
    end
    error(("undo %d: %d action(s) can be undone; the game was loaded from %s, a save that keeps neither the "
      .. "%d action(s) before it nor its journal"):format(n, can, self.loaded_from, self.loaded_actions), 2)
  end
  keep_last(self, can)
  self.state:undo(n)
  local before = move_records(self._acts, self._redo, n)
  if before then self.dice:load(before) end
end

--- Redo the last n undone actions (default 1).
function Game:redo(n)
  n = n or 1
  trim_records(self._redo, self.state:count_redos())
  self.state:redo(n)
  local _, after = move_records(self._redo, self._acts, n)
  if after then self.dice:load(after) end
end

-- ---- hash, journal ------------------------------------------------------------------

--- The 64-bit state hash (a Lua integer); hash_hex gives 16 hex digits.
function Game:hash() return self.state:hash() end
function Game:hash_hex() return self.state:hash_hex() end

--- A number that changes with every change to the state (undo and rollback
--- included) and never comes back: what rule code worked out from the
--- state holds while it stands.
---@return integer
function Game:get_version() return self.state:get_version() end

--- The journal's lines after the first `from` (default 0: all of them)
--- as an array (JSON text, no newlines), and the number of lines so far.
--- Only those lines are copied; a streamed journal holds only the lines it
--- has not written (and those journal_keep keeps).
---@param from? integer
---@return string[] lines, integer count
function Game:journal_lines(from)
  local out = {}
  local text, count = self.state:journal_since(from or 0)
  for l in text:gmatch("[^\n]+") do out[#out + 1] = l end
  return out, count
end

--- The text of the journal's lines after the first `from` (nothing copied
--- but them) and the number of lines so far.
---@param from integer
---@return string text, integer count
function Game:journal_since(from) return self.state:journal_since(from) end

--- How many lines and bytes the journal has (written to its file or held).
---@return integer lines, integer bytes
function Game:journal_count() return self.state:journal_count() end

--- The whole journal as one string: a copy of all of it, for tests and
--- short games; long ones read journal_since or stream it (stream_journal).
---@return string
function Game:journal_text() return self.state:journal() end

--- Write the journal to a file (atomically). A streamed journal is
--- written out whole to its own file instead, which is then closed.
function Game:write_journal(path)
  if self._streamed then return self:close_journal() end
  return self.state:journal_write(path)
end

--- Stream the journal to a file: what it has so far, and every line after
--- it as actions end, the state dropping what it wrote (a long game holds
--- only its last lines). close_journal writes the rest and closes it.
---@param path string
---@return boolean|nil ok, string? why
function Game:stream_journal(path)
  local ok, why = self.state:journal_stream(path)
  if not ok then return nil, why end
  self._streamed, self._stream_path = true, path
  return self.state:journal_flush(true)
end

--- Lines from `from` on stay held once a streamed journal wrote them (a
--- reader such as keel.narrator that has yet to read them); nil: none.
---@param from integer|nil
function Game:journal_keep(from) self.state:journal_keep(from) end

--- Write what a streamed journal still holds and close its file.
---@return boolean|nil ok, string? why
function Game:close_journal()
  self._streamed, self._stream_path = nil, nil
  return self.state:journal_close()
end

--- How many actions stay undoable (keel.state's undo depth: 1000 by
--- default, doc/state.md); older ones are dropped as the game goes on.
---@param n integer
function Game:set_undo_depth(n)
  self.state:set_undo_depth(n)
  keep_last(self, self.state:count_actions())
  compact(self)
end
---@return integer
function Game:get_undo_depth() return self.state:get_undo_depth() end

-- ---- units -------------------------------------------------------------------------

--- A new unit. spec: name, type, side, values {name = number|string|boolean},
--- markers {name = count}, points, face, hits, at = {kind, where}.
---@return integer id
function Game:unit_new(spec)
  local st = self.state
  local id = st:unit_new(spec.name, spec.type, spec.side)
  if spec.values then
    for _, k in ipairs(sorted_keys(spec.values)) do st:set_value(id, k, spec.values[k]) end
  end
  if spec.markers then
    for _, k in ipairs(sorted_keys(spec.markers)) do st:set_marker(id, k, spec.markers[k]) end
  end
  if spec.face then st:set(id, "face", spec.face) end
  if spec.hits then st:set(id, "hits", spec.hits) end
  if spec.points then st:set(id, "points", spec.points) end
  if spec.at then st:move(id, spec.at[1], spec.at[2]) end
  return id
end

--- A snapshot of a unit: id, name, type, side, face, hits, points, loc,
--- where, values, markers (a fresh table; changing it changes nothing).
function Game:get_unit(id)
  local st = self.state
  local u = st:get_unit(id)
  u.values = st:values(id)
  u.markers = st:markers(id)
  return u
end

--- Unit ids in id order, optionally only those a filter matches: a table
--- {loc =, at =, side =, type =} answered by the kernel's index (loc: off,
--- hex, port, box, zone, unit or dead; at: where, for those with one; at
--- a hex without loc: on the map there or in its port), or a function
--- filter(game, id).
---@param filter? table|fun(game: table, id: integer): boolean
---@return integer[]
function Game:units(filter)
  if not filter then return self.state:unit_ids() end
  if type(filter) == "table" then return self.state:unit_ids(filter) end
  local out = {}
  for id = 1, self.state:count_units() do
    if filter(self, id) then out[#out + 1] = id end
  end
  return out
end

function Game:get(id, field) return self.state:get(id, field) end
function Game:set(id, field, v) return self.state:set(id, field, v) end
function Game:get_value(id, key) return self.state:get_value(id, key) end
function Game:set_value(id, key, v) return self.state:set_value(id, key, v) end
function Game:get_marker(id, key) return self.state:get_marker(id, key) end
function Game:set_marker(id, key, n) return self.state:set_marker(id, key, n) end
function Game:add_marker(id, key, n) return self.state:add_marker(id, key, n) end
--- Remove n of a marker (all of it when n is nil); returns how many were there.
function Game:remove_marker(id, key, n)
  local c = self.state:get_marker(id, key)
  self.state:set_marker(id, key, n and math.max(0, c - n) or 0)
  return c
end
function Game:move(id, kind, where) return self.state:move(id, kind, where) end

-- damage primitives
function Game:add_hits(id, n) return self.state:add_hits(id, n or 1) end
--- Flip a counter: to `face` when given, else full <-> damaged.
function Game:flip(id, face)
  local st = self.state
  if not face then face = st:get(id, "face") == "full" and "damaged" or "full" end
  st:set(id, "face", face)
  return face
end
function Game:reduce_points(id, n) return self.state:reduce_points(id, n) end
function Game:split(id, points) return self.state:split(id, points) end
function Game:combine(a, b) return self.state:combine(a, b) end
function Game:eliminate(id) return self.state:eliminate(id) end
Game.sink = Game.eliminate

-- cargo
--- Put `cargo` inside `carrier`.
function Game:embark(cargo, carrier) return self.state:move(cargo, "unit", carrier) end
function Game:cargo(carrier) return self.state:cargo(carrier) end
--- Capacity check in one measure over one carrier or several carrying
--- together: {capacity, used, over, excess = {ids}}.
function Game:cargo_check(carriers, measure) return self.state:cargo_check(carriers, measure) end
--- Eliminate the cargo in excess of capacity; returns the ids eliminated.
function Game:drop_excess(carriers, measure)
  local rep = self.state:cargo_check(carriers, measure)
  for _, id in ipairs(rep.excess) do self.state:eliminate(id) end
  return rep.excess
end

-- groups
--- A new group: spec.name, plus attributes (kind, known, reserve, mp ...).
function Game:group_new(spec)
  if type(spec) == "string" then spec = { name = spec } end
  local st = self.state
  local g = st:group_new(spec.name)
  local keys = sorted_keys(spec)
  for _, k in ipairs(keys) do
    if k ~= "name" and k ~= "units" then st:group_set_value(g, k, spec[k]) end
  end
  for _, u in ipairs(spec.units or {}) do st:group_add(g, u) end
  return g
end
function Game:group_add(g, u, pos) return self.state:group_add(g, u, pos) end
function Game:group_remove(g, u) return self.state:group_remove(g, u) end
function Game:group_units(g, in_play) return self.state:group_units(g, in_play) end
function Game:group_get_name(g) return self.state:group_get_name(g) end
function Game:group_get_value(g, k) return self.state:group_get_value(g, k) end
function Game:group_set_value(g, k, v) return self.state:group_set_value(g, k, v) end
function Game:groups_of(u) return self.state:groups_of(u) end
--- Group ids in id order; with a filter table (as units'), the groups
--- holding a unit it matches (the groups at a hex, of a side ...).
---@param filter? table
---@return integer[]
function Game:groups(filter) return self.state:group_ids(filter) end

-- game-wide values
function Game:get_global(k) return self.state:get_global(k) end
function Game:set_global(k, v) return self.state:set_global(k, v) end
for _, k in ipairs({ "turn", "phase", "segment", "step" }) do
  Game["get_" .. k] = function(self) return self.state:get_global(k) end
  Game["set_" .. k] = function(self, v) return self.state:set_global(k, v) end
end
function Game:get_owner(hex) return self.state:get_owner(hex) end
function Game:set_owner(hex, side) return self.state:set_owner(hex, side) end

-- keyed values: structured rule data (doc/state.md), a map name and a key of
-- 1..3 integer/string parts: `g:set_keyed("zoc", {"Axis", hex}, 2)` rather
-- than a global named "zoc:Axis:<label>".

--- The value of a key in a keyed map, nil when none. A key may be a
--- read-only proxy (a rule's values, as ctx hands them out).
---@param name string the map's name
---@param key integer|string|(integer|string)[]
function Game:get_keyed(name, key) return self.state:get_keyed(name, key) end
--- Set a key of a keyed map (nil removes it); journaled (`keyed`), undone, hashed, saved.
function Game:set_keyed(name, key, v) return self.state:set_keyed(name, key, v) end
--- How many keys a keyed map holds (0 for a map never set).
function Game:count_keyed(name) return self.state:count_keyed(name) end
--- The i-th key (an array of parts) and value of a keyed map, in key order.
function Game:at_keyed(name, i) return self.state:at_keyed(name, i) end

--- How the game ended, as its state holds it (keel.sequence writes it when
--- a victory condition is met or the last turn ends): { over, winner (a
--- side; nil for a draw or a game not over), scores = {side = n}, reason }.
---@return {over: boolean, winner?: string, scores: table<string, number>, reason?: string}
function Game:result() return require("keel.sequence").result(self) end

-- ---- save and load ----------------------------------------------------------------

--- Save the whole game atomically: state, dice position, seed, scenario,
--- variants, versions and the hash of every rule file in use.
---@return boolean|nil ok, string? reason
function Game:save(path)
  if type(path) ~= "string" or path == "" then
    return nil, ("a save needs a file name, not %s"):format(path == "" and "an empty path" or type(path))
  end
  local meta = {
    { "keel", keel.version }, { "lua", keel.lua_version }, { "lpeg", tostring(keel.lpeg_version) },
    { "seed", tostring(self.seed) }, { "scenario", self.scenario or "" },
    { "variants", encode(self.variants) }, { "dice", self.dice:save() },
    { "actions", tostring(self.state:action_number()) },
  }
  for _, rf in ipairs(self.rule_files) do meta[#meta + 1] = { "rule_file", rf[2] .. " " .. rf[1] } end
  -- the game's journal so far, with its hash: a loaded game goes on with it
  -- as one game (its journal replays whole, from the setup)
  -- (a streamed journal is in its file: written out to it first, read whole)
  local journal
  if self._streamed then
    self.state:journal_flush(true)
    journal = self._stream_path and keel.file.read(self._stream_path) or ""
  else
    journal = self.state:journal()
  end
  if journal:find('^{"ev":"header","format":"keel%-journal"') then
    meta[#meta + 1] = { "journal_hash", kstate.hash_bytes(journal) }
    meta[#meta + 1] = { "journal", journal }
  end
  return self.state:save(path, meta)
end

--- Load a saved game; nil and a reason for a damaged, truncated or
--- foreign file. The game's `warnings` lists rule files that changed
--- since the save, and version differences.
---@return table|nil game, string? reason
function M.load(path, opts)
  opts = opts or {}
  local st, meta = kstate.load(path)
  if not st then return nil, meta end
  local function refuse(why) st:close(); return nil, path .. ": " .. why end
  local m, rule_files = {}, {}
  for _, kv in ipairs(meta) do
    if kv[1] == "rule_file" then
      rule_files[#rule_files + 1] = kv[2]
    elseif m[kv[1]] ~= nil then
      return refuse(("meta %q is given twice"):format(kv[1]))
    else
      m[kv[1]] = kv[2]
    end
  end
  local seed = m.seed and m.seed:match("^%-?%d+$") and math.tointeger(tonumber(m.seed))
  if not seed or not m.dice then return refuse("save has no seed or dice state") end
  -- the variants: a JSON list of file names (a save that says otherwise is damaged)
  local vok, variants = pcall(json.decode, m.variants or "[]")
  local list_ok = vok and type(variants) == "table"
  if list_ok then
    local n = 0
    for _ in pairs(variants) do n = n + 1 end
    for i = 1, n do if type(variants[i]) ~= "string" then list_ok = false end end
  end
  if not list_ok then
    return refuse(('meta "variants": a JSON list of variant files expected, got %s'):format(
      #m.variants > 40 and (("%q"):format(m.variants:sub(1, 40)) .. "...") or ("%q"):format(m.variants)))
  end
  -- the number of the last action: the game's actions go on from it (never reused)
  local actions = 0
  if m.actions ~= nil then
    actions = m.actions:match("^%d+$") and math.tointeger(tonumber(m.actions))
    if not actions then
      return refuse(('meta "actions": a whole number >= 0 expected, got %q'):format(m.actions:sub(1, 40)))
    end
  end
  st:set_action_number(actions)
  -- the journal the save keeps (saves of keel 0.1.0 before it have none: a
  -- journal written after loading one starts at the save, "loaded")
  local journal = m.journal
  if journal ~= nil then
    if m.journal_hash ~= kstate.hash_bytes(journal) then
      return refuse('meta "journal": its hash is not meta "journal_hash" (a damaged or edited journal)')
    end
    local hok, header = pcall(json.decode, journal:match("^[^\n]*"))
    if not hok or type(header) ~= "table" or header.ev ~= "header" or header.seed ~= seed
        or (header.scenario or "") ~= m.scenario then
      return refuse('meta "journal": not the journal of this game (its header\'s scenario and seed are not the save\'s)')
    end
  end
  local ok, game = pcall(M.new, {
    state = st, seed = seed, scenario = m.scenario ~= "" and m.scenario or nil, variants = variants,
    dice = opts.dice, dice_state = m.dice, loaded = path, board = nil, journal_text = journal,
  })
  if not ok then st:close(); return nil, path .. ": " .. tostring(game) end
  game.loaded_from, game.loaded_actions, game.saved_journal = path, actions, journal ~= nil
  game.warnings = {}
  if m.keel ~= keel.version then
    game.warnings[#game.warnings + 1] = ("saved by keel %s, loaded by keel %s"):format(tostring(m.keel), keel.version)
  end
  for _, rf in ipairs(rule_files) do
    local h, p = rf:match("^(%x+) (.*)$")
    if h then
      game.rule_files[#game.rule_files + 1] = { p, h }
      local text = keel.file.read(real_path(p))
      local now = text and kstate.hash_bytes(text)
      if now ~= h then
        game.warnings[#game.warnings + 1] = ("rule file %s %s since the save"):format(p, text and "changed" or "is missing")
      end
    end
  end
  return game
end

return M

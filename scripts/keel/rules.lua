--- keel.rules — rule families, rules, events, actions and queries: the rule
-- set a game plays with.
--
-- A rule family is a folder (under scripts/ or a folder of the search path)
-- holding manifest.lua, one file per rule area, and tables/*.tbl:
--
--   -- scripts/toy27/manifest.lua
--   return family { name = "toy27", rulebook = "Rule 27 (toy)",
--                   depends = {}, files = { "ships.lua", "damage.lua" },
--                   tables = { "bombing.tbl" }, events = { "bombing_hits" } }
--
--   -- scripts/toy27/damage.lua
--   rule {
--     id = "27.A.3", title = "Damage",
--     values = { ... },
--     on = { unit_hit = function(ctx, ev) ... end },
--     actions = { bomb = { params = { target = "unit" }, legal = ..., effect = ... } },
--     vetoes = { move = function(ctx, p) return "reason" end },
--     queries = { sunk_at = function(ctx, unit) ... end },
--   }
--
-- Every script runs in its own sandboxed environment (keel.sandbox) and
-- every entry point (act, emit, query) runs as one action under the
-- sandbox's limits. Rules reach the game through `ctx.game`, a facade with
-- the game's state methods only (no files, no journal, no undo).
-- House-rule variants: keel.variant. Guide: doc/guide.md; API: doc/api/rules.md.
local keel = require "keel"
local sandbox = require "keel.sandbox"
local game_mod = require "keel.game"
local movement = require "keel.movement"
local pick = require "keel.pick"

local M = {}

local Set = {}
Set.__index = Set
M.Set = Set

local type, pairs, ipairs, error, tostring = type, pairs, ipairs, error, tostring
local rawget, xpcall = rawget, xpcall
local sort, concat, unpack, pack = table.sort, table.concat, table.unpack, table.pack
local getinfo = debug.getinfo

--- The kernel's events, in the order of a player-turn. Families declare
--- more in their manifest (`events = {...}`).
M.events = {
  "game_start", "turn_start", "player_turn_start",
  "initial_phase", "movement_phase", "naval_step_start", "group_enters_hex",
  "mp_spent", "naval_step_end", "combat_phase", "unit_hit", "unit_sunk",
  "exploitation_phase", "player_turn_end", "turn_end", "owner_changed",
}

--- Where families are looked for, after a set's own `path`.
M.path = { keel.script_dir }

local KEEL_DIR = "@" .. keel.script_dir .. "/keel/"

-- ---- errors ------------------------------------------------------------------------

local function is_script_source(src)
  if src:sub(1, 7) == "=[load]" then return true end
  return src:sub(1, 1) == "@" and src:sub(1, #KEEL_DIR) ~= KEEL_DIR
end

--- The message of an error value, without calling any of a script's
--- metamethods (an error object's __tostring could loop forever).
local function raw_message(e)
  if type(e) == "string" then return e end
  if type(e) == "table" then
    local m = rawget(e, "message")
    if type(m) == "string" then return m end
    return "(error object is a table)"
  end
  return "(error object is a " .. type(e) .. ")"
end

-- Walk the stack from the caller of rule_error up to the entry point: the
-- frames of script files only, as "file:line: in function 'name'" (the
-- kernel's own frames in between, message handlers included, are skipped).
local function script_frames(stop_fn)
  local out = {}
  for lv = 3, 90 do
    local info = getinfo(lv, "Slnf")
    if not info or info.func == stop_fn then break end
    if is_script_source(info.source) and (info.currentline or 0) > 0 then
      local what = info.name and ("function '" .. info.name .. "'")
        or (info.what == "main" and "main chunk")
        or ("function <%s:%d>"):format(info.short_src, info.linedefined)
      out[#out + 1] = ("%s:%d: in %s"):format(info.short_src, info.currentline, what)
    end
  end
  return out
end

--- Turn what a rule raised into a keel error: message "file:line: rule ID:
--- text", fields rule, file, line, reason, traceback (script frames only).
local Error = getmetatable(game_mod.make_error("", ""))

local function rule_error(e, rule_id, level, stop_fn)
  if game_mod.is_error(e) then return e end
  local msg = raw_message(e)
  local file, lnum, rest = msg:match("^([^\n]-):(%d+): (.*)$")
  rest = rest or msg
  local frames = level and script_frames(stop_fn) or {}
  -- a position inside the kernel's own Lua says less than the script's line
  if file and file:match("keel/[%w_/]+%.lua$") and frames[1] then file = nil end
  if not file and frames[1] then file, lnum = frames[1]:match("^(.-):(%d+):") end
  if rest == "not enough memory" then rest = "memory limit exceeded (Lua: not enough memory)" end
  local rid, rrest = rest:match("^rule ([%w][%w%._%-]*): (.*)$")
  if rid then rule_id, rest = rid, rrest end
  local where = file and (file .. ":" .. lnum .. ": ") or ""
  return setmetatable({
    message = where .. (rule_id and ("rule " .. rule_id .. ": ") or "") .. rest,
    rule = rule_id, file = file, line = tonumber(lnum), reason = rest, traceback = frames,
  }, Error)
end
M.rule_error = rule_error

--- The text a person sees: the message, then the script frames.
---@param err any
---@return string
function M.format_error(err)
  local msg = raw_message(err)
  if type(err) == "table" and type(rawget(err, "traceback")) == "table" and #err.traceback > 0 then
    return msg .. "\nscript traceback:\n  " .. concat(err.traceback, "\n  ")
  end
  return msg
end

-- ---- sets --------------------------------------------------------------------------

--- A new, empty rule set.
---@param opts? {path?: string[], narrate?: fun(kind: string, data: table)}
---@return table set
function M.new(opts)
  opts = opts or {}
  local path = {}
  for _, p in ipairs(opts.path or {}) do path[#path + 1] = p end
  for _, p in ipairs(M.path) do path[#path + 1] = p end
  local self = setmetatable({
    path = path,
    families = {},        -- name -> family
    family_order = {},    -- names, in load order
    rules = {},           -- id -> rule
    order = {},           -- ids, in load order
    plumbing = {},        -- family plumbing (rules without an id), in load order
    variants = {},        -- in the order applied
    conflicts = {},
    event_names = {},
    tables = {},          -- name -> table object (a variant may swap in a changed copy)
    table_changes = {},   -- name -> {variant=, file=, line=, what=}
    files = {},           -- every script file loaded, in order
    narrate = opts.narrate,
    _loading = {},
    _seq = 0,
    _running = {},        -- stack of rules whose code is running
    _depth = 0,
    _facades = setmetatable({}, { __mode = "k" }),
    _engines = setmetatable({}, { __mode = "k" }),   -- game -> keel.movement engine
    _profiles = {},                                  -- "table|column|rows" -> profile proxy
    _real = setmetatable({}, { __mode = "k" }),      -- profile proxy -> profile
    _ctx = {},
    _dirty = true,
  }, Set)
  for _, ev in ipairs(M.events) do self.event_names[ev] = true end
  self._handler = function(e) return self:_error_handler(e) end
  return self
end

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() return true end
  return false
end

--- Find a family's folder on the search path.
function Set:find_family(name)
  if type(name) ~= "string" or not name:match("^[%w_%-]+$") then
    return nil, ("bad family name %q (letters, digits, '_' and '-')"):format(tostring(name))
  end
  for _, root in ipairs(self.path) do
    local dir = root .. "/" .. name
    if exists(dir .. "/manifest.lua") then return dir end
  end
  return nil, ("no rule family '%s' (looked for %s/manifest.lua in %s)"):format(
    name, name, concat(self.path, ", "))
end

-- Run a script file in env as one protected action; raise a rule error.
function Set:_run_file(path, env, what)
  local fn, err = sandbox.loadfile(path, env)
  if not fn then error(rule_error(err, what), 0) end
  self.files[#self.files + 1] = path
  local res = pack(sandbox.xprotect(fn, function(e) return rule_error(e, what, 2) end))
  if not res[1] then
    local e = res[2]
    if not game_mod.is_error(e) then e = rule_error(e, what) end
    error(e, 0)
  end
  return unpack(res, 2, res.n)
end

local FAMILY_FIELDS = { name = true, rulebook = true, depends = true, files = true,
                        tables = true, events = true, description = true }

local function check_fields(spec, allowed, what)
  local bad = {}
  for k in pairs(spec) do if not allowed[k] then bad[#bad + 1] = tostring(k) end end
  if #bad > 0 then
    sort(bad)
    local names = {}
    for k in pairs(allowed) do names[#names + 1] = k end
    sort(names)
    error(("%s: unknown field%s %s (expected: %s)"):format(what, #bad > 1 and "s" or "",
      concat(bad, ", "), concat(names, ", ")), 3)
  end
end

local function string_list(v, what)
  if v == nil then return {} end
  if type(v) ~= "table" then error(what .. " must be a list of strings", 3) end
  local out = {}
  for i, s in ipairs(v) do
    if type(s) ~= "string" then error(("%s[%d] must be a string"):format(what, i), 3) end
    out[i] = s
  end
  return out
end

--- Load a family (and what it depends on, first). Loading twice is a no-op.
---@param name string
---@return table family
function Set:load_family(name)
  if self.families[name] then return self.families[name] end
  if self._loading[name] then
    error(("rule family '%s' depends on itself (through %s)"):format(name, concat(self._loading_stack, " -> ")), 0)
  end
  local dir, err = self:find_family(name)
  if not dir then error(err, 0) end
  self._loading[name] = true
  self._loading_stack = self._loading_stack or {}
  self._loading_stack[#self._loading_stack + 1] = name
  local manifest_path = dir .. "/manifest.lua"
  local spec
  local env = sandbox.env { extra = {
    family = function(s)
      if type(s) ~= "table" then error("family{...} expects a table", 2) end
      check_fields(s, FAMILY_FIELDS, "family")
      spec = s
      return s
    end,
  } }
  local ret = self:_run_file(manifest_path, env, nil)
  spec = spec or ret
  if type(spec) ~= "table" then
    error(manifest_path .. ": a manifest returns family { name = ..., files = {...} }", 0)
  end
  if spec.name ~= name then
    error(("%s: the family is named %q but lives in folder '%s'"):format(manifest_path,
      tostring(spec.name), name), 0)
  end
  local fam = {
    name = name, dir = dir, rulebook = spec.rulebook, description = spec.description,
    depends = string_list(spec.depends, "depends"), files = string_list(spec.files, "files"),
    tables = {}, table_files = string_list(spec.tables, "tables"),
  }
  for _, dep in ipairs(fam.depends) do self:load_family(dep) end
  for _, ev in ipairs(string_list(spec.events, "events")) do self.event_names[ev] = true end
  self:_load_tables(fam)
  self.families[name] = fam
  self.family_order[#self.family_order + 1] = name
  for _, f in ipairs(fam.files) do self:_load_rule_file(fam, dir .. "/" .. f) end
  self._loading[name] = nil
  self._loading_stack[#self._loading_stack] = nil
  self._dirty = true
  return fam
end

-- Tables load with their family, through keel.tables (doc/tables.md).
function Set:_load_tables(fam)
  if #fam.table_files == 0 then return end
  local ok, tables = pcall(require, "keel.tables")
  if not ok then
    error(("%s: rule family '%s' lists tables, but keel.tables is not available"):format(
      fam.dir, fam.name), 0)
  end
  for _, f in ipairs(fam.table_files) do
    local path = fam.dir .. "/tables/" .. f
    local list = tables.load_file(path)
    self.files[#self.files + 1] = path
    for _, t in ipairs(list) do
      fam.tables[t.name] = t
      self.tables[t.name] = t
    end
  end
end

-- ---- rules ---------------------------------------------------------------------------

local RULE_FIELDS = { id = true, title = true, priority = true, values = true, on = true,
                      actions = true, vetoes = true, queries = true, notes = true }
local ACTION_FIELDS = { params = true, legal = true, effect = true, title = true, rule = true }
local PARAM_TYPES = { unit = true, hex = true, integer = true, number = true, string = true,
                      boolean = true, table = true, any = true, group = true, units = true }

local function check_id(id, what)
  if type(id) ~= "string" or not id:match("^[%w][%w%._%-]*$") then
    error(("%s: a rule id like \"27.A.3\" expected, got %s"):format(what, type(id) == "string"
      and ("%q"):format(id) or type(id)), 3)
  end
end

local function handler_of(v, what)
  if type(v) == "function" then return v, nil end
  if type(v) == "table" and type(v[1]) == "function" then
    local p = v.priority
    if p ~= nil and math.type(p) ~= "integer" then error(what .. ": priority must be an integer", 4) end
    return v[1], p
  end
  error(what .. ": a function (or { fn, priority = n }) expected", 4)
end

--- Check a rule spec and turn it into the tables the set keeps. Used for
--- base rules and by variants (replace, add).
function Set:_normalize(spec, id, where)
  local what = id and ("rule " .. id) or ("rule without id (%s:%d)"):format(where.file, where.line)
  check_fields(spec, RULE_FIELDS, what)
  if spec.title ~= nil and type(spec.title) ~= "string" then error(what .. ": title must be a string", 3) end
  local prio = spec.priority or 0
  if math.type(prio) ~= "integer" then error(what .. ": priority must be an integer", 3) end
  local r = { id = id, title = spec.title, priority = prio, notes = spec.notes,
              file = where.file, line = where.line, on = {}, actions = {}, vetoes = {}, queries = {},
              values = {}, changes = {}, origin = where.origin or "base" }
  if spec.values ~= nil then
    if type(spec.values) ~= "table" then error(what .. ": values must be a table", 3) end
    r.values = spec.values
  end
  for ev, h in pairs(spec.on or {}) do
    if not self.event_names[ev] then
      local known = {}
      for k in pairs(self.event_names) do known[#known + 1] = k end
      sort(known)
      error(("%s: unknown event '%s' (known: %s; a family declares more in its manifest)"):format(
        what, tostring(ev), concat(known, ", ")), 3)
    end
    local fn, p = handler_of(h, what .. ": on." .. ev)
    r.on[ev] = { fn = fn, priority = p }
  end
  for name, a in pairs(spec.actions or {}) do
    if name == "emit" then error(what .. ": 'emit' is the kernel's order for events; name the action otherwise", 3) end
    if type(a) ~= "table" then error(what .. ": actions." .. tostring(name) .. " must be a table", 3) end
    check_fields(a, ACTION_FIELDS, what .. ": action " .. tostring(name))
    if type(a.effect) ~= "function" then error(what .. ": action " .. name .. " needs an effect function", 3) end
    if a.legal ~= nil and type(a.legal) ~= "function" then
      error(what .. ": action " .. name .. ": legal must be a function", 3)
    end
    local params = {}
    for pname, ptype in pairs(a.params or {}) do
      local base, opt = tostring(ptype):match("^(%a+)(%??)$")
      if not base or not PARAM_TYPES[base] then
        error(("%s: action %s: parameter '%s' has unknown type %q (types: unit, group, hex, integer, "
          .. "number, string, boolean, table, any; add '?' if optional)")
          :format(what, name, tostring(pname), tostring(ptype)), 3)
      end
      params[pname] = { type = base, optional = opt == "?" }
    end
    r.actions[name] = { params = params, legal = a.legal, effect = a.effect, title = a.title }
  end
  for name, fn in pairs(spec.vetoes or {}) do
    if type(fn) ~= "function" then error(what .. ": vetoes." .. tostring(name) .. " must be a function", 3) end
    r.vetoes[name] = fn
  end
  for name, fn in pairs(spec.queries or {}) do
    if type(fn) ~= "function" then error(what .. ": queries." .. tostring(name) .. " must be a function", 3) end
    r.queries[name] = fn
  end
  return r
end

function Set:_add_rule(r)
  if r.id == nil then   -- family plumbing: no rulebook id, so not one of the set's rules
    self._seq = self._seq + 1
    r.seq = self._seq
    self.plumbing[#self.plumbing + 1] = r
    self._dirty = true
    return r
  end
  if self.rules[r.id] then
    local o = self.rules[r.id]
    error(rule_error(("%s:%d: defined twice (first at %s:%d)"):format(r.file, r.line, o.file, o.line), r.id), 0)
  end
  self._seq = self._seq + 1
  r.seq = self._seq
  self.rules[r.id] = r
  self.order[#self.order + 1] = r.id
  self._dirty = true
  return r
end

--- Where the caller of a definition function is (a script file and line).
local function caller(level)
  local info = getinfo(level + 1, "Sl")
  return { file = info and info.short_src or "?", line = info and info.currentline or 0 }
end
M.caller = caller

function Set:_load_rule_file(fam, path)
  local loading = true
  local env = sandbox.env { extra = {
    rule = function(spec)
      if not loading then error("rule{...} may only be called while its file loads", 2) end
      if type(spec) ~= "table" then error("rule{...} expects a table", 2) end
      if spec.id ~= nil then check_id(spec.id, "rule") end   -- no id: family plumbing
      local where = caller(2)
      local r = self:_normalize(spec, spec.id, where)
      r.family = fam.name
      return self:_add_rule(r).id
    end,
  } }
  self:_run_file(path, env, nil)
  loading = false
end

-- ---- dispatch tables ------------------------------------------------------------------

--- How messages name a rule: "rule 27.A.3", or for family plumbing (a
--- rule{} without an id) its family's name.
function M.who(r) return r.id and ("rule " .. r.id) or (r.family or "plumbing") end

local function by_priority(a, b)
  if a.priority ~= b.priority then return a.priority > b.priority end
  return a.seq < b.seq
end

--- Build the dispatch lists: for each event its handlers by priority
--- (higher first), then load order; actions, vetoes and queries by name.
function Set:finalize()
  local handlers, actions, vetoes, queries = {}, {}, {}, {}
  local all = {}
  for _, id in ipairs(self.order) do all[#all + 1] = self.rules[id] end
  for _, r in ipairs(self.plumbing) do all[#all + 1] = r end
  for _, r in ipairs(all) do
    if not r.disabled then
      for ev, h in pairs(r.on) do
        handlers[ev] = handlers[ev] or {}
        local list = handlers[ev]
        list[#list + 1] = { rule = r, fn = h.fn, priority = h.priority or r.priority, seq = r.seq }
      end
      for name, a in pairs(r.actions) do
        if actions[name] then
          error(("%s (%s:%d) defines action '%s', which %s already defines"):format(
            M.who(r), r.file, r.line, name, M.who(actions[name].rule)), 0)
        end
        actions[name] = { rule = r, def = a }
      end
      for name, fn in pairs(r.vetoes) do
        vetoes[name] = vetoes[name] or {}
        local list = vetoes[name]
        list[#list + 1] = { rule = r, fn = fn, priority = r.priority, seq = r.seq }
      end
      for name, fn in pairs(r.queries) do
        if queries[name] then
          error(("%s (%s:%d) defines query '%s', which %s already defines"):format(
            M.who(r), r.file, r.line, name, M.who(queries[name].rule)), 0)
        end
        queries[name] = { rule = r, fn = fn }
      end
    end
  end
  for _, list in pairs(handlers) do sort(list, by_priority) end
  for _, list in pairs(vetoes) do sort(list, by_priority) end
  self.handlers, self.actions, self.vetoes, self.queries = handlers, actions, vetoes, queries
  self._dirty = false
  return self
end

function Set:_ready()
  if self._dirty then self:finalize() end
  if #self.conflicts > 0 then error(self.conflicts[1].message, 0) end
end

-- ---- the game as rules see it ----------------------------------------------------------

--- Game methods a rule may call through ctx.game.
M.game_methods = {
  "unit", "units", "get", "set", "value", "set_value", "marker", "set_marker", "add_marker",
  "remove_marker", "move", "add_hits", "flip", "reduce_points", "split", "combine", "eliminate",
  "sink", "load", "cargo", "cargo_check", "drop_excess", "unit_new", "group_new", "group_add",
  "group_remove", "group_units", "group_name", "group_get", "group_set", "groups_of", "groups", "global",
  "set_global", "turn", "set_turn", "phase", "set_phase", "segment", "set_segment", "step",
  "set_step", "owner", "set_owner", "hash", "hash_hex", "rule",
}
--- Board methods a rule may call through ctx.game.board (queries only).
M.board_methods = {
  "hex", "label", "side", "side_label", "numbering", "contains", "hexes", "terrain",
  "features", "coasts", "water_neighbors", "riverine_neighbors", "strait_passage", "port",
  "ports", "place", "place_name", "places", "owner", "owners", "cd", "box", "seaboxes",
  "box_hexes", "zone", "zones", "zone_neighbors", "tags", "has_tag", "tagged", "stats",
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

function Set:facade(game)
  local f = self._facades[game]
  if f then return f end
  local g = facade_of(game, M.game_methods)
  local proxy
  -- a filter gets the facade, never the game itself
  g.units = function(_, filter)
    if filter == nil then return game:units() end
    return game:units(function(_, id) return filter(proxy, id) end)
  end
  g.roll = function(_, expr, opts)
    opts = opts or {}
    return game:roll(expr, { stream = opts.stream, reason = opts.reason, rule = game.state:rule() })
  end
  -- a hex that changes hands is news every rule may hook: owner_changed
  g.set_owner = function(_, hex, side)
    local old = game:owner(hex)
    game:set_owner(hex, side)
    if old ~= side then self:_dispatch(game, "owner_changed", { hex = hex, side = side, old = old }) end
  end
  if game.board then g.board = sandbox.readonly((facade_of(game.board, M.board_methods)), "game.board") end
  f = sandbox.readonly(g, "game")
  proxy = f
  self._facades[game] = f
  return f
end

-- ---- movement: keel.movement behind ctx (rules cannot require) ------------------------

-- The engine of a game's board. Before a search whose conditions depend on
-- owners, the board's owners are brought in line with the game's (rules
-- change owners in the state; the cost maps read the board).
function Set:_engine(game, sync)
  local board = game.board
  if not board then error("movement: this game has no board", 3) end
  local eng = self._engines[game]
  if not eng then
    eng = movement.new(board)
    self._engines[game] = eng
  end
  if sync then
    local changed = false
    for _, h in ipairs(board:hexes()) do
      local want = game:owner(h) or false
      if board:owner(h) ~= want and pcall(board.set_owner, board, h, want) then changed = true end
    end
    if changed then eng:invalidate() end
  end
  return eng
end

-- A profile (from a table column) as scripts see it: read-only.
function Set:_profile(tname, column, rows)
  local key = tostring(tname) .. "|" .. tostring(column) .. "|" .. tostring(rows)
  local p = self._profiles[key]
  if p then return p end
  local t = self:table(tname)
  if not t then error(("no table named '%s' in this rule set"):format(tostring(tname)), 3) end
  if type(rows) ~= "table" then error("profile: rows {enter=, cross=, river=, water_route=} expected", 3) end
  local plain = { enter = {}, cross = {}, river = rows.river, water_route = rows.water_route }
  for k, v in pairs(rows.enter or {}) do plain.enter[k] = v end
  for k, v in pairs(rows.cross or {}) do plain.cross[k] = v end
  local real = movement.profile_from_table(t, column, plain)
  p = sandbox.readonly(real, "profile " .. tostring(column))
  self._real[p] = real
  self._profiles[key] = p
  return p
end

-- a script's {profile=, friendly=, conditions=, ...} with the real profile
function Set:_what(what)
  if type(what) ~= "table" then error("movement: a group {profile=, ...} or a profile expected", 3) end
  local real = self._real[what]
  if real then return real, false end
  local p = self._real[what.profile]
  if not p then error("movement: group.profile must come from ctx:profile", 3) end
  local w = {}
  for k, v in pairs(what) do w[k] = v end
  w.profile = p
  local c = what.conditions
  local sync = what.friendly ~= nil or (c ~= nil and (c.friendly or c.friendly_only or c.both_friendly)) ~= nil
  return w, sync
end

-- a mover as scripts see it: its methods, never the engine or the board
local MOVER_METHODS = { "step", "move_along", "move_to", "spend", "resume", "stop", "can_enter" }
local function mover_proxy(mv)
  local p = {}
  for _, m in ipairs(MOVER_METHODS) do
    p[m] = function(_, ...) return mv[m](mv, ...) end
  end
  p.journal = function() return sandbox.readonly(mv:journal(), "journal") end
  p.state = function() return mv.state end
  p.position = function()
    local g = mv.group
    return { hex = g.hex, coast = g.coast, spent = g.spent, allowance = g.allowance }
  end
  return sandbox.readonly(p, "mover")
end

-- a river graph as scripts see it
local function river_proxy(rg)
  return sandbox.readonly({
    has = function(_, n) return rg:has(n) end,
    nodes = function() return rg:nodes() end,
    cost = function(_, a, b) return rg:cost(a, b) end,
    reach = function(_, start, budget, opts) return rg:reach(start, budget, opts) end,
    path = function(_, from, to, budget, opts) return rg:path(from, to, budget, opts) end,
  }, "river graph")
end

function Set:_movement_ctx(c, game)
  local set = self
  --- ctx:profile(table, column, rows) -> profile (read-only)
  c.profile = function(_, tname, column, rows) return set:_profile(tname, column, rows) end
  --- ctx:reach(group|profile, start, budget, opts) -> keel.Reach | nil, reason
  c.reach = function(_, what, start, budget, opts)
    local w, sync = set:_what(what)
    return set:_engine(game, sync):reach(w, start, budget, opts)
  end
  --- ctx:path(group|profile, from, to, budget, opts) -> path, cost | nil, reason
  c.path = function(_, what, from, to, budget, opts)
    local w, sync = set:_what(what)
    return set:_engine(game, sync):path(w, from, to, budget, opts)
  end
  --- ctx:step_cost(group|profile, from, to, coast) -> cost, coast | nil, reason
  c.step_cost = function(_, what, from, to, coast)
    local w, sync = set:_what(what)
    local eng = set:_engine(game, sync)
    local a, why = movement.resolve(eng.board, from)
    if not a then return nil, why end
    local b, why2 = movement.resolve(eng.board, to)
    if not b then return nil, why2 end
    return eng:costmap(w):step(a, b, coast or 0)
  end
  --- ctx:mover(group, callbacks, opts) -> mover (callbacks get the mover and the event)
  c.mover = function(_, group, callbacks, opts)
    local w, sync = set:_what(group)
    local eng = set:_engine(game, sync)
    local proxy
    local cbs = {}
    for name, fn in pairs(callbacks or {}) do
      cbs[name] = function(_, ev) return fn(proxy, ev) end
    end
    local mv, why = eng:mover(w, cbs, opts)
    if not mv then return nil, why end
    proxy = mover_proxy(mv)
    return proxy
  end
  --- ctx:river_graph(profile) -> river graph (32.A.6: hexes and hexsides)
  c.river_graph = function(_, profile)
    local real = set._real[profile]
    if not real then error("river_graph: a profile from ctx:profile expected", 2) end
    return river_proxy(set:_engine(game, false):river_graph(real))
  end
end

-- ---- ctx: what a rule's function gets -------------------------------------------------

-- A ctx is read-only and its methods close over the real game and rule:
-- nothing in it leads a script to the game object itself (which can save
-- files and load code).
function Set:_make_ctx(r, game)
  local set = self
  local function tbl(name)
    local t = set:table(name)
    if not t then error(("no table named '%s' in this rule set"):format(tostring(name)), 3) end
    return t
  end
  local c = {
    game = self:facade(game),
    rule = { id = r.id, title = r.title, values = r.values, file = r.file, line = r.line },
    --- ctx:roll("2d6", {reason=}) -> total, record
    roll = function(_, expr, opts)
      opts = opts or {}
      local total, rec = game:roll(expr, { stream = opts.stream, reason = opts.reason, rule = r.id })
      if set.narrate then set.narrate("roll", { rule = r, record = rec }) end
      return total, rec
    end,
    --- ctx:table(name) -> the table (read-only)
    table = function(_, name) return sandbox.readonly(tbl(name), "table " .. tostring(name)) end,
    --- ctx:resolve(name, modifiers, {reason=}) -> result, record
    resolve = function(_, name, modctx, opts)
      opts = opts or {}
      local t = tbl(name)
      -- a table whose rows come from another (the SUCCESS TABLE) uses the set's: a scenario's own
      local rows = t.rows_from and set:table(t.rows_from) or nil
      local result, rec = t:resolve(game.dice, modctx or {}, { rule = r.id,
        reason = opts.reason or name, stream = opts.stream, modifier = opts.modifier, rows = rows })
      if set.narrate then set.narrate("resolve", { rule = r, record = rec }) end
      if type(result) == "table" then result = sandbox.readonly(result, "result") end
      return result, sandbox.readonly(rec, "record")
    end,
    emit = function(_, event, data) return set:_dispatch(game, event, data or {}) end,
    query = function(_, name, ...) return set:_query(game, name, ...) end,
    value = function(_, key) return r.values[key] end,
    --- ctx:pick(items, {count=, reason=}) -> item (or the list of `count` items): a random pick (keel.pick)
    pick = function(_, items, opts)
      opts = opts or {}
      local picked = pick.draw(function(sides)
        local total, rec = game:roll("1d" .. sides, { stream = opts.stream, reason = opts.reason, rule = r.id })
        if set.narrate then set.narrate("roll", { rule = r, record = rec }) end
        return total
      end, items, opts.count or 1)
      if opts.count then return picked end
      return picked[1]
    end,
    say = function(_, fmt, ...)
      local ok, text = pcall(string.format, fmt, ...)
      if set.narrate then set.narrate("say", { rule = r, text = ok and text or tostring(fmt) }) end
    end,
  }
  self:_movement_ctx(c, game)
  return sandbox.readonly(c, "ctx")
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
  return rule_error(e, r and r.id or nil, 3, self._entry_fn)
end

local function finish(running, st, ok, ...)
  st:pop_rule()
  running[#running] = nil
  if not ok then error((...), 0) end
  return ...
end

-- Call fn(ctx, ...) of rule r with r in force for the journal.
function Set:_call(r, fn, game, ...)
  local running, st = self._running, game.state
  running[#running + 1] = r
  st:push_rule(r.id)
  local entry = self._ctx[r]
  local ctx = entry and entry.game == game and entry.ctx or self:_ctx_for(r, game)
  return finish(running, st, xpcall(fn, self._handler, ctx, ...))
end

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
function Set:_enter(body, ...)
  if self._depth > 0 then return true, body(...) end
  self._entry_fn = body
  self._depth = 1
  local res = pack(sandbox.xprotect(body, self._handler, ...))
  self._depth = 0
  self._running = {}
  if not res[1] then
    local e = res[2]
    if not game_mod.is_error(e) then e = rule_error(e, nil) end
    e.kind = res[3]
    return false, e, res[3]
  end
  return unpack(res, 1, res.n)
end

--- The kind of a failure raised by emit or query: "error", "cpu",
--- "budget" or "memory".
function M.kind_of(err)
  return type(err) == "table" and rawget(err, "kind") or "error"
end

--- Send an event to the rules, as one action of the game (all or nothing,
--- undoable, journaled as the order `emit` so that `keel replay` plays it).
--- Raises the rule error when a rule fails or a limit is reached.
---@param game table
---@param event string
---@param data? table
function Set:emit(game, event, data)
  self:_ready()
  data = data or {}
  if not self.event_names[event] then error(("unknown event '%s'"):format(tostring(event)), 2) end
  self:_define_orders(game)
  local function body()
    -- an order of the game (journaled, undoable, replayable)
    return game:play("emit", { event = event, data = data })
  end
  local res = pack(self:_enter(body))
  if not res[1] then error(res[2], 0) end
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

local check_param
function check_param(game, p, v)
  local t = p.type
  if t == "any" then return true end
  if t == "unit" then
    return math.type(v) == "integer" and v >= 1 and v <= game.state:unit_count(), "a unit id"
  elseif t == "units" then
    if type(v) ~= "table" then return false, "a list of unit ids" end
    for _, u in ipairs(v) do
      if not check_param(game, { type = "unit" }, u) then return false, "a list of unit ids" end
    end
    return true
  elseif t == "group" then
    return math.type(v) == "integer" and v >= 1 and v <= game.state:group_count(), "a group id"
  elseif t == "hex" then
    return math.type(v) == "integer" and keel.hex.is_valid(v), "a hex"
  elseif t == "integer" then
    return math.type(v) == "integer", "an integer"
  end
  return type(v) == t, "a " .. t
end

--- Check an action's parameters: nil when fine, else the reason.
local function sorted_keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = k end
  sort(ks, function(x, y) return tostring(x) < tostring(y) end)
  return ks
end

function Set:check_params(game, name, params)
  local a = self.actions[name]
  for _, pname in ipairs(sorted_keys(a.def.params)) do
    local p = a.def.params[pname]
    local v = params[pname]
    if v == nil then
      if not p.optional then return ("action '%s' needs parameter '%s'"):format(name, pname) end
    else
      local ok, want = check_param(game, p, v)
      if not ok then return ("action '%s': parameter '%s' must be %s"):format(name, pname, want) end
    end
  end
  local extra = {}
  for k in pairs(params) do if not a.def.params[k] then extra[#extra + 1] = tostring(k) end end
  if #extra > 0 then
    sort(extra)
    return ("action '%s' has no parameter %s"):format(name, concat(extra, ", "))
  end
end

-- legality, then vetoes: nil when the action may go ahead, else reason, kind
function Set:_check_action(game, name, params)
  local a = self.actions[name]
  local r = a.rule
  if a.def.legal then
    local ok, reason = self:_call(r, a.def.legal, game, params)
    if ok == false or type(ok) == "string" then
      reason = type(ok) == "string" and ok or reason or "not allowed"
      return ("illegal %s (%s %s): %s"):format(name, M.who(r), r.title or "", reason), "illegal"
    end
  end
  for _, v in ipairs(self.vetoes[name] or {}) do
    local reason = self:_call(v.rule, v.fn, game, params)
    if reason then
      if type(reason) ~= "string" then reason = "vetoed" end
      self:_say("veto", { rule = v.rule, action = name, reason = reason })
      return ("%s vetoed by rule %s (%s): %s"):format(name, v.rule.id, v.rule.title or "", reason), "vetoed"
    end
  end
end

--- May the action be taken? nil when yes, else the reason and its kind
--- ("unknown", "params", "illegal", "vetoed"). Changes nothing.
function Set:check(game, name, params)
  self:_ready()
  params = params or {}
  if not self.actions[name] then return ("unknown action '%s'"):format(tostring(name)), "unknown" end
  local reason = self:check_params(game, name, params)
  if reason then return reason, "params" end
  local function body() return self:_check_action(game, name, params) end
  local ok, why, kind = self:_enter(body)
  if not ok then return M.format_error(why), kind end
  return why, kind
end

-- Make each action an order of the game, so that `keel replay` can play it.
function Set:_define_orders(game)
  if game._rules_orders == self then return end
  for name, a in pairs(self.actions) do
    game:define_order(name, function(g, params)
      return self:_call(a.rule, a.def.effect, g, params)
    end, { rule = a.rule.id })
  end
  game:define_order("emit", function(g, args)
    return self:_dispatch(g, args.event, args.data or {})
  end)
  game._rules_orders = self
end

--- Take a player action: parameters checked, legality, vetoes, then its
--- effect as one undoable action of the game (journaled as an order).
--- Returns true, results... or nil, reason, kind (kind: "unknown",
--- "params", "illegal", "vetoed", "error", "cpu", "budget", "memory").
---@param game table
---@param name string
---@param params? table
function Set:act(game, name, params)
  self:_ready()
  params = params or {}
  if not self.actions[name] then return nil, ("unknown action '%s'"):format(tostring(name)), "unknown" end
  local reason = self:check_params(game, name, params)
  if reason then return nil, reason, "params" end
  self:_define_orders(game)
  local function body()
    local why, kind = self:_check_action(game, name, params)
    if why then return false, why, kind end
    self:_say("action", { rule = self.actions[name].rule, action = name, params = params })
    return true, game:play(name, params)
  end
  local res = pack(self:_enter(body))
  if not res[1] then return nil, res[2], res[3] end
  if not res[2] then return nil, res[3], res[4] end
  return true, unpack(res, 3, res.n)
end

--- A table of the set by name (as changed by variants), falling back on
--- keel.tables' registry.
function Set:table(name)
  local t = self.tables[name]
  if t then return t end
  local ok, tables = pcall(require, "keel.tables")
  if ok then return (tables.get(name)) end
end

--- The rule with this id (the set's record: read it, do not change it).
function Set:rule(id) return self.rules[id] end

--- Active rule ids in load order (disabled ones left out unless `all`).
function Set:ids(all)
  local out = {}
  for _, id in ipairs(self.order) do
    if all or not self.rules[id].disabled then out[#out + 1] = id end
  end
  return out
end

--- Apply a variant file (see keel.variant).
function Set:apply_variant(path)
  return require("keel.variant").apply(self, path)
end

--- Rule files and variants in use, for the game's journal and saves.
function Set:declare_files(game)
  for _, f in ipairs(self.files) do game:use_rule_file(f) end
end

--- A set with these families and variants loaded.
---@param opts {families: string[], variants?: string[], path?: string[], narrate?: function}
function M.load(opts)
  local set = M.new(opts)
  for _, f in ipairs(opts.families or {}) do set:load_family(f) end
  for _, v in ipairs(opts.variants or {}) do set:apply_variant(v) end
  set:finalize()
  return set
end

return M

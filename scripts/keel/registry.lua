--- keel.registry — the rule registry of a rule set: rule families found on
-- the search path and loaded in the sandbox (manifest, tables, rule files),
-- their rules checked and kept by id, and the dispatch lists built from
-- them. keel.rules runs what is registered here; keel.variant changes it.
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
-- Every file runs in its own sandboxed environment (keel.sandbox), as one
-- protected call under the sandbox's limits. API: doc/api/rules.md.
local keel = require "keel"
local sandbox = require "keel.sandbox"
local errors = require "keel.errors"
local orders = require "keel.orders"
local view_spec = require "keel.view_spec"
local sorted_keys = require("keel.keys").sorted

local M = {}

--- The registry's methods; keel.rules' rule sets inherit them.
local Registry = {}
Registry.__index = Registry
M.Registry = Registry

local type, pairs, ipairs, error, tostring = type, pairs, ipairs, error, tostring
local sort, concat, unpack, pack = table.sort, table.concat, table.unpack, table.pack
local getinfo = debug.getinfo

--- The kernel's events, in the order of a player-turn. Families declare
--- more in their manifest (`events = {...}`).
M.events = {
  "game_start", "turn_start", "player_turn_start",
  "initial_phase", "movement_phase", "naval_step_start", "group_enters_hex",
  "mp_spent", "naval_step_end", "combat_phase", "unit_hit", "unit_sunk",
  "exploitation_phase", "player_turn_end", "turn_end", "owner_changed",
  "game_end",
}

--- Where families are looked for, after a set's own `path`.
M.path = { keel.script_dir }

--- A new, empty registry, as an object of `class` (a class that inherits
--- Registry: keel.rules' Set).
---@param opts? {path?: string[]}
---@param class? table
---@return table
function M.new(opts, class)
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
    hashes = {},          -- file -> the hash of its text as loaded
    _loading = {},
    _seq = 0,
    _dirty = true,
  }, class or Registry)
  for _, ev in ipairs(M.events) do self.event_names[ev] = true end
  return self
end

-- ---- families ------------------------------------------------------------------------

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() return true end
  return false
end

--- Find a family's folder on the search path.
function Registry:find_family(name)
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

--- The rule families on a search path (default M.path): the folders that
--- hold a manifest.lua, sorted; a name in two folders counts once. Host
--- tools that look a table up by name alone (keel odds) open these.
---@param path? string[]
---@return string[]
function M.family_names(path)
  local seen, out = {}, {}
  for _, root in ipairs(path or M.path) do
    local p = io.popen("ls -1 '" .. (root:gsub("'", "'\\''")) .. "' 2>/dev/null")
    if p then
      for name in p:lines() do
        if not seen[name] and name:match("^[%w_%-]+$") and exists(root .. "/" .. name .. "/manifest.lua") then
          seen[name] = true
          out[#out + 1] = name
        end
      end
      p:close()
    end
  end
  sort(out)
  return out
end

-- A file the set's rules come from, with the hash of the text loaded (the
-- game journals it: set:declare_files).
function Registry:_add_file(path, hash)
  self.files[#self.files + 1] = path
  self.hashes[path] = hash
end

-- What depends on a file's text alone is kept per process, keyed by the
-- hash of the text (the one the journal gives it; a changed file is a new
-- key): its compiled chunk, and the tables parsed from a table file. Rule
-- sets loaded again (a fresh game, a study's worker) compile and parse
-- nothing twice.
local compiled = {}      -- chunk name -> { [hash] = main function }
local hashed = {}        -- path -> { text =, hash = } of the text read last
local parsed = {}        -- path -> { [hash] = tables }
local upvaluejoin = debug.upvaluejoin
local none = nil   -- luacheck: ignore (an upvalue holding nil)
local function no_env() return none end

-- The compiled chunk of `text` (hash `h`) with `env` as its _ENV: one main
-- function per text, its _ENV joined to env's for this run. Call it at
-- once (the next load of the same text joins another environment); the
-- functions a run defines keep the environment they were defined in.
--- The compiled chunk of `text` (its hash `h`, keel.state.hash_bytes) with
--- `env` as its _ENV, compiled once per process: call it at once.
local function load_chunk(text, h, chunkname, env)
  local by = compiled[chunkname]
  if not by then by = {}; compiled[chunkname] = by end
  local fn = by[h]
  if fn then
    upvaluejoin(fn, 1, function() return env end, 1)
    return fn
  end
  local err
  fn, err = sandbox.load(text, chunkname, env)
  if fn then by[h] = fn end
  return fn, err
end

M.load_chunk = load_chunk

--- The hash of a file's text (keel.state.hash_bytes), hashed again only
--- when the text differs from the one read last from that path (a string
--- comparison is much cheaper than the hash).
---@param path string
---@param text string
---@return string hash
local function hash_text(path, text)
  local e = hashed[path]
  if e and e.text == text then return e.hash end
  local h = keel.state.hash_bytes(text)
  hashed[path] = { text = text, hash = h }
  return h
end
M.hash_text = hash_text

--- A file's text (keel.file.read), the very string read last from that path
--- when the text is the same: no new string of it is made, and hash_text
--- finds it by identity.
---@param path string
---@param max? integer
---@return string|nil text, string? reason
local function read_text(path, max)
  local e = hashed[path]
  return keel.file.read(path, max, e and e.text)
end
M.read_text = read_text

-- Run a script file in env as one protected action; raise a rule error.
function Registry:_run_file(path, env, what)
  local text, err = read_text(path)
  local fn, h
  if text then
    h = hash_text(path, text)
    fn, err = load_chunk(text, h, "@" .. path, env)
  end
  if not fn then error(errors.from(err, what), 0) end
  self:_add_file(path, h)
  local res = pack(sandbox.xprotect(fn, function(e) return errors.from(e, what, true) end))
  upvaluejoin(fn, 1, no_env, 1)   -- the cached chunk keeps no environment alive
  if not res[1] then
    local e = res[2]
    if not errors.is_error(e) then e = errors.from(e, what) end
    error(e, 0)
  end
  return unpack(res, 2, res.n)
end

local FAMILY_FIELDS = { name = true, rulebook = true, depends = true, files = true,
                        tables = true, events = true, description = true, view = true, sequence = true }

local function check_fields(spec, allowed, what)
  local bad
  for k in pairs(spec) do
    if not allowed[k] then
      bad = bad or {}
      bad[#bad + 1] = tostring(k)
    end
  end
  if bad then
    sort(bad)
    local names = sorted_keys(allowed)
    error(("%s: unknown field%s %s (expected: %s)"):format(what, #bad > 1 and "s" or "",
      concat(bad, ", "), concat(names, ", ")), 3)
  end
end

-- A manifest's fields are read raw, once its file has run: whatever
-- metamethods a manifest put on its tables would run outside any action's
-- limits (a __index or __len that never returns would hang the loader).
local function raw_string(spec, k, file)
  local v = rawget(spec, k)
  if v ~= nil and type(v) ~= "string" then error(("%s: %s must be a string, got a %s"):format(file, k, type(v)), 0) end
  return v
end

local function string_list(spec, k, file)
  local v = rawget(spec, k)
  if v == nil then return {} end
  if type(v) ~= "table" then error(("%s: %s must be a list of strings, got a %s"):format(file, k, type(v)), 0) end
  local out = {}
  local i = 1
  local s = rawget(v, 1)
  while s ~= nil do
    if type(s) ~= "string" then error(("%s: %s[%d] must be a string, got a %s"):format(file, k, i, type(s)), 0) end
    out[i] = s
    i = i + 1
    s = rawget(v, i)
  end
  return out
end

--- Load a family (and what it depends on, first). Loading twice is a no-op.
---@param name string
---@return table family
function Registry:load_family(name)
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
  local fname = raw_string(spec, "name", manifest_path)
  if fname ~= name then
    error(("%s: the family is named %s but lives in folder '%s'"):format(manifest_path,
      fname and ("%q"):format(fname) or "nothing", name), 0)
  end
  local fam = {
    name = name, dir = dir, rulebook = raw_string(spec, "rulebook", manifest_path),
    description = raw_string(spec, "description", manifest_path),
    depends = string_list(spec, "depends", manifest_path), files = string_list(spec, "files", manifest_path),
    tables = {}, table_files = string_list(spec, "tables", manifest_path),
    -- what a counter and the status panel show (keel.view_spec, doc/viewer.md), read raw
    view = rawget(spec, "view") ~= nil and view_spec.check(
      sandbox.plain(rawget(spec, "view"), function(path, what)
        local parts = {}
        for i, k in ipairs(path) do parts[i] = tostring(k) end
        error(("%s: view.%s: %s"):format(manifest_path, concat(parts, "."), what), 0)
      end), manifest_path) or nil,
  }
  -- the sequence of play the family's chapter implies (keel.sequence), read raw
  if rawget(spec, "sequence") ~= nil then
    local function bad(path, what)
      local parts = {}
      for i, k in ipairs(path) do parts[i] = tostring(k) end
      error(("%s: %s: %s"):format(manifest_path, concat(parts, "."), what), 0)
    end
    fam.sequence = require("keel.sequence").check(sandbox.plain(rawget(spec, "sequence"), bad), bad)
  end
  for _, dep in ipairs(fam.depends) do self:load_family(dep) end
  for _, ev in ipairs(string_list(spec, "events", manifest_path)) do self.event_names[ev] = true end
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
function Registry:_load_tables(fam)
  if #fam.table_files == 0 then return end
  local ok, tables = pcall(require, "keel.tables")
  if not ok then
    error(("%s: rule family '%s' lists tables, but keel.tables is not available"):format(
      fam.dir, fam.name), 0)
  end
  for _, f in ipairs(fam.table_files) do
    local path = fam.dir .. "/tables/" .. f
    local text, err = read_text(path)
    if not text then error(("cannot read table file: %s"):format(err), 0) end
    local h = hash_text(path, text)
    local by = parsed[path]
    if not by then by = {}; parsed[path] = by end
    local list = by[h]
    if not list then
      list = tables.parse(text, path)
      by[h] = list
    end
    self:_add_file(path, h)
    for _, t in ipairs(list) do
      fam.tables[t.name] = t
      self.tables[t.name] = t
    end
  end
end

-- ---- rules ---------------------------------------------------------------------------

local RULE_FIELDS = { id = true, title = true, priority = true, values = true, on = true,
                      actions = true, vetoes = true, queries = true, notes = true, standin = true }
local ACTION_FIELDS = { params = true, legal = true, effect = true, title = true, rule = true, side = true,
                        phases = true }

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

local NONE = {}   -- what a rule spec lacks is walked as this (never written)

local function chapter_text(v) return type(v) == "string" and v:find("%S") ~= nil end

-- A rule's `standin`: the chapter the rule stands in for (a text the rules
-- do not contain), or { [part] = chapter } for the values, queries, actions
-- or handlers of a rulebook rule that stand in for another chapter's. Kept
-- as a copy: a string, or a table the set owns.
local function standin_of(v, r, what)
  if type(v) == "string" then
    if not chapter_text(v) then error(what .. ": standin must name the chapter the rule stands in for", 4) end
    return v
  end
  if type(v) ~= "table" then
    error(what .. ": standin must be the chapter it stands in for (a string), or { part = chapter } for parts " ..
      "of the rule (its values, queries, actions or handlers)", 4)
  end
  local out = {}
  for _, k in ipairs(sorted_keys(v)) do
    local chapter = v[k]
    if type(k) ~= "string" or not chapter_text(chapter) then
      error(("%s: standin.%s must name the chapter that part stands in for"):format(what, tostring(k)), 4)
    end
    if r.values[k] == nil and not r.queries[k] and not r.actions[k] and not r.on[k] then
      error(("%s: standin.%s: the rule has no value, query, action or handler named %s"):format(what, k, k), 4)
    end
    out[k] = chapter
  end
  if next(out) == nil then error(what .. ": standin {} names no part", 4) end
  return out
end

--- Check a rule spec and turn it into the tables the set keeps. Used for
--- base rules and by variants (replace, add).
function Registry:_normalize(spec, id, where)
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
  for ev, h in pairs(spec.on or NONE) do
    if not self.event_names[ev] then
      local known = sorted_keys(self.event_names)
      error(("%s: unknown event '%s' (known: %s; a family declares more in its manifest)"):format(
        what, tostring(ev), concat(known, ", ")), 3)
    end
    local fn, p = handler_of(h, what .. ": on." .. ev)
    r.on[ev] = { fn = fn, priority = p }
  end
  for name, a in pairs(spec.actions or NONE) do
    if name == orders.EMIT then error(what .. ": 'emit' is the kernel's order for events; name the action otherwise", 3) end
    if type(a) ~= "table" then error(what .. ": actions." .. tostring(name) .. " must be a table", 3) end
    check_fields(a, ACTION_FIELDS, what .. ": action " .. tostring(name))
    if type(a.effect) ~= "function" then error(what .. ": action " .. name .. " needs an effect function", 3) end
    if a.legal ~= nil and type(a.legal) ~= "function" then
      error(what .. ": action " .. name .. ": legal must be a function", 3)
    end
    local params = {}
    if a.params ~= nil and type(a.params) ~= "table" then
      error(what .. ": action " .. name .. ": params must be a table { name = type or { type =, domain = } }", 3)
    end
    for pname, decl in pairs(a.params or NONE) do
      if type(pname) ~= "string" then error(what .. ": action " .. name .. ": parameters are named", 3) end
      local p, why = orders.parse_param(decl)
      if not p then error(("%s: action %s: parameter '%s': %s"):format(what, name, pname, why), 3) end
      params[pname] = p
    end
    local why = orders.check_depends(params)
    if why then error(("%s: action %s: %s"):format(what, name, why), 3) end
    -- who may take it and when (keel.sequence): a side word or a side's name, phase and step names
    local side = a.side
    if side ~= nil and (type(side) ~= "string" or side == "") then
      error(what .. ": action " .. name .. ': side must be "phasing", "other", "any", "scenario" or a side\'s name', 3)
    end
    local phases
    if a.phases ~= nil then
      if type(a.phases) ~= "table" then error(what .. ": action " .. name .. ": phases must be a list of names", 3) end
      phases = {}
      for i, ph in ipairs(a.phases) do
        if type(ph) ~= "string" then error(("%s: action %s: phases[%d] must be a phase's or step's name"):format(
          what, name, i), 3) end
        phases[ph] = true
      end
    end
    r.actions[name] = { params = params, legal = a.legal, effect = a.effect, title = a.title, side = side,
                        phases = phases }
  end
  for name, fn in pairs(spec.vetoes or NONE) do
    if type(fn) ~= "function" then error(what .. ": vetoes." .. tostring(name) .. " must be a function", 3) end
    r.vetoes[name] = fn
  end
  for name, fn in pairs(spec.queries or NONE) do
    if type(fn) ~= "function" then error(what .. ": queries." .. tostring(name) .. " must be a function", 3) end
    r.queries[name] = fn
  end
  if spec.standin ~= nil then r.standin = standin_of(spec.standin, r, what) end
  return r
end

function Registry:_add_rule(r)
  if r.id == nil then   -- family plumbing: no rulebook id, so not one of the set's rules
    self._seq = self._seq + 1
    r.seq = self._seq
    self.plumbing[#self.plumbing + 1] = r
    self._dirty = true
    return r
  end
  if self.rules[r.id] then
    local o = self.rules[r.id]
    error(errors.from(("%s:%d: defined twice (first at %s:%d)"):format(r.file, r.line, o.file, o.line), r.id), 0)
  end
  self._seq = self._seq + 1
  r.seq = self._seq
  self.rules[r.id] = r
  self.order[#self.order + 1] = r.id
  self._dirty = true
  return r
end

-- the file a function was defined in (its short_src), per function: the
-- rules of a file are defined by one chunk, so it is asked once a file
local src_of = setmetatable({}, { __mode = "k" })

--- Where the caller of a definition function is (a script file and line).
local function caller(level)
  local info = getinfo(level + 1, "fl")
  if not info then return { file = "?", line = 0 } end
  local fn = info.func
  local src = src_of[fn]
  if not src then
    src = getinfo(fn, "S").short_src
    src_of[fn] = src
  end
  return { file = src, line = info.currentline }
end
M.caller = caller

function Registry:_load_rule_file(fam, path)
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
function Registry:finalize()
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

--- Refuse a set whose variants conflict (two change one rule or table and
--- the later does not say it overrides): raises every conflict's message.
--- keel.rules.load and the entry points call it; `keel rules` lists them.
function Registry:check_conflicts()
  local n = #self.conflicts
  if n == 1 then error(self.conflicts[1].message, 0) end
  if n > 1 then
    local lines = {}
    for i, c in ipairs(self.conflicts) do lines[i] = "  " .. c.message end
    error(("%d conflicts between variants:\n%s"):format(n, concat(lines, "\n")), 0)
  end
end

function Registry:_ready()
  if self._dirty then self:finalize() end
  if #self.conflicts > 0 then self:check_conflicts() end
end

--- A table of the set by name (as changed by variants), or nil. A table
--- whose rows come from another (`rows from`) comes linked to this set's
--- table of that name (a scenario's own SUCCESS TABLE): Table:rows_table
--- and the odds of it read that one. The one way to a family's tables.
---@param name string
---@return table|nil
function Registry:table(name)
  local t = self.tables[name]
  if not t or not t.rows_from then return t end
  local src = self.tables[t.rows_from]
  local linked = self._linked
  if not linked then linked = {}; self._linked = linked end
  local l = linked[name]
  if not (l and l.of == t and l.src == src) then
    l = { of = t, src = src, table = require("keel.tables").link(t, src) }
    linked[name] = l
  end
  return l.table
end

--- The rule with this id (the set's record: read it, do not change it).
function Registry:rule(id) return self.rules[id] end

--- What the families declare a counter and the status panel show, merged
--- in load order (keel.view_spec.merge; doc/viewer.md).
function Registry:view()
  local views = {}
  for i, name in ipairs(self.family_order) do views[i] = self.families[name].view or false end
  return view_spec.merge(views)
end

--- Active rule ids in load order (disabled ones left out unless `all`).
function Registry:ids(all)
  local out = {}
  for _, id in ipairs(self.order) do
    if all or not self.rules[id].disabled then out[#out + 1] = id end
  end
  return out
end

--- Apply a variant file (see keel.variant).
function Registry:apply_variant(path)
  return require("keel.variant").apply(self, path)
end

--- Rule files and variants in use, for the game's journal and saves.
function Registry:declare_files(game)
  for _, f in ipairs(self.files) do game:add_rule_file(f, self.hashes[f]) end
end

return M

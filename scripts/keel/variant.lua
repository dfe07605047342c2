--- keel.variant — house-rule variants. A variant is a file that names its
-- base family and replaces, wraps or disables rules by id, changes values
-- or table rows, or adds rules — never editing the base files:
--
--   variant { name = "Dave's campaign", base = "toy27",
--             overrides = { "27.C.4" } }   -- rules an earlier variant changed too
--   set_values("27.C.2", { naval_steps = 6 })
--   disable("27.B.6", "not used in this campaign")
--   wrap("27.A.3", { on = { unit_hit = function(orig, ctx, ev) ... orig(ctx, ev) end } })
--   replace("27.C.4", { title = "Exploitation Phase", on = { ... } })
--   add { id = "H.1", title = "No US organisation problems", on = { ... } }
--   set_row("bombing_hits", "4-6", "2")
--
-- Several variants stack in the order given. Two variants changing the same
-- rule (or table) is a conflict unless the later one lists it in
-- `overrides`; a rule set with a conflict refuses to play, and `keel rules`
-- reports it. Guide: doc/guide.md; API: doc/api/rules.md.
local sandbox = require "keel.sandbox"
local registry = require "keel.registry"
local errors = require "keel.errors"
local sorted_keys = require("keel.keys").sorted

local M = {}

local type, pairs, ipairs, error, tostring = type, pairs, ipairs, error, tostring
local sort, concat = table.sort, table.concat

local VARIANT_FIELDS = { name = true, base = true, overrides = true, description = true }
local WRAP_FIELDS = { on = true, actions = true, vetoes = true, queries = true }

local function fmt_value(v)
  if type(v) == "string" then return ("%q"):format(v) end
  if type(v) == "table" then return "{...}" end
  return tostring(v)
end

local function known_keys(t)
  local out = sorted_keys(t)
  for i, k in ipairs(out) do out[i] = tostring(k) end
  return #out > 0 and concat(out, ", ") or "none"
end

-- Merge `new` into `values`, refusing top-level keys the rule does not have
-- (a typo); nested tables are data and take new keys. The changes are
-- listed as "key old -> new".
local function merge_values(values, new, prefix, out, id)
  for _, k in ipairs(sorted_keys(new)) do
    local v = new[k]
    local name = prefix .. tostring(k)
    if values[k] == nil and prefix == "" then   -- nested tables are data: new keys are fine
      error(("rule %s has no value '%s' (its values: %s)"):format(id, name, known_keys(values)), 0)
    end
    if type(v) == "table" and type(values[k]) == "table" then
      merge_values(values[k], v, name .. ".", out, id)
    else
      out[#out + 1] = ("%s %s -> %s"):format(name, fmt_value(values[k]), fmt_value(v))
      values[k] = v
    end
  end
end

local function copy(t)
  local out = {}
  for k, v in pairs(t) do out[k] = v end
  return setmetatable(out, getmetatable(t))
end

--- Apply the variant file at `path` to a rule set.
---@param set table a keel.rules set
---@param path string
---@return table variant {name=, base=, path=, changes={...}}
function M.apply(set, path)
  local v = { path = path, overrides = {}, changes = {} }
  set._changed_by = set._changed_by or {}

  local function here(level) return registry.caller(level + 1) end

  local function need_decl()
    if not v.name then
      error("a variant file begins with variant { name = ..., base = ... }", 3)
    end
  end

  local function the_rule(id, what)
    need_decl()
    if type(id) ~= "string" then error(what .. ": a rule id expected as the first argument", 3) end
    local r = set.rules[id]
    if not r then
      error(("%s: no rule %s in the rule set (family %s)"):format(what, id, v.base), 3)
    end
    return r
  end

  -- Log a change of `key` (a rule id, or "table NAME"): a conflict when
  -- another variant changed it already, unless this one overrides it.
  local function record(key, kind, where, detail, r)
    local prev = set._changed_by[key]
    if prev and prev.variant ~= v.name and not v.overrides[key] then
      set.conflicts[#set.conflicts + 1] = {
        key = key, variant = v.name, other = prev.variant,
        message = ("%s:%d: variant '%s' changes %s, which variant '%s' already changed (%s:%d); " ..
          "if it means to, add overrides = { %q } to its variant { ... }"):format(where.file, where.line,
          v.name, key, prev.variant, prev.file, prev.line, key),
      }
    end
    set._changed_by[key] = { variant = v.name, file = where.file, line = where.line }
    local change = { key = key, kind = kind, variant = v.name, file = where.file, line = where.line,
                     detail = detail, overrides = prev and prev.variant ~= v.name and prev.variant or nil }
    v.changes[#v.changes + 1] = change
    if r then r.changes[#r.changes + 1] = change end
    set._dirty = true
    return change
  end

  local function replace_rule(old, new)
    new.seq, new.family = old.seq, old.family
    new.changes = old.changes
    new.base_file, new.base_line = old.base_file or old.file, old.base_line or old.line
    set.rules[old.id] = new
    set:_forget_ctx(old)
  end

  local api = {}

  --- variant { name = ..., base = "family", overrides = { ids... } }
  function api.variant(spec)
    if v.name then error("variant{...} is given twice", 2) end
    if type(spec) ~= "table" then error("variant{...} expects a table", 2) end
    for k in pairs(spec) do
      if not VARIANT_FIELDS[k] then
        error(("variant: unknown field '%s' (expected: base, description, name, overrides)"):format(tostring(k)), 2)
      end
    end
    if type(spec.name) ~= "string" or spec.name == "" then error("variant: a name is needed", 2) end
    if type(spec.base) ~= "string" then error("variant: base names the rule family it changes", 2) end
    if spec.description ~= nil and type(spec.description) ~= "string" then
      error("variant: description must be a string", 2)
    end
    for _, other in ipairs(set.variants) do
      if other.name == spec.name then error(("variant: a variant named '%s' is already applied"):format(spec.name), 2) end
    end
    v.name, v.base, v.description = spec.name, spec.base, spec.description
    for _, id in ipairs(spec.overrides or {}) do v.overrides[id] = true end
    local ok, err = pcall(set.load_family, set, spec.base)
    if not ok then error(errors.format(err), 2) end
    local w = here(1)
    v.file, v.line = w.file, w.line
  end

  --- set_values(id, { key = value, ... }): change values of a rule.
  function api.set_values(id, values)
    local r = the_rule(id, "set_values")
    if type(values) ~= "table" then error("set_values: a table of values expected", 2) end
    local lines = {}
    local ok, err = pcall(merge_values, r.values, values, "", lines, id)
    if not ok then error("set_values: " .. tostring(err), 2) end
    record(id, "values", here(1), concat(lines, ", "), r)
  end

  --- disable(id [, reason]): the rule no longer runs.
  function api.disable(id, reason)
    local r = the_rule(id, "disable")
    r.disabled = true
    r.disabled_reason = reason
    record(id, "disabled", here(1), reason, r)
  end

  --- replace(id, spec): a new body for the rule (title and values kept
  --- unless given).
  function api.replace(id, spec)
    local old = the_rule(id, "replace")
    if type(spec) ~= "table" then error("replace: a rule spec table expected", 2) end
    local where = here(1)
    local s = copy(spec)
    s.id = nil
    local ok, new = pcall(set._normalize, set, s, id, { file = where.file, line = where.line, origin = v.name })
    if not ok then error(errors.format(new), 2) end
    new.title = spec.title or old.title
    if spec.values == nil then new.values = old.values end
    new.disabled = false
    replace_rule(old, new)
    record(id, "replaced", where, spec.title and ("title: " .. spec.title) or nil, new)
  end

  --- wrap(id, { on = { ev = function(orig, ctx, ...) end }, actions = { name = { legal =, effect = } },
  --- vetoes = {...}, queries = {...} }): each wrapper gets the function it wraps first.
  function api.wrap(id, spec)
    local r = the_rule(id, "wrap")
    if type(spec) ~= "table" then error("wrap: a table of wrappers expected", 2) end
    for k in pairs(spec) do
      if not WRAP_FIELDS[k] then
        error(("wrap: unknown field '%s' (expected: actions, on, queries, vetoes)"):format(tostring(k)), 2)
      end
    end
    local function wrapped(orig, w)
      if type(w) ~= "function" then error("wrap: wrappers are functions(orig, ctx, ...)", 3) end
      orig = orig or function() end
      return function(ctx, ...) return w(orig, ctx, ...) end
    end
    local parts = {}
    for ev, w in pairs(spec.on or {}) do
      local h = r.on[ev]
      if not h then error(("wrap: rule %s has no handler for event '%s' (it hooks: %s)"):format(
        id, tostring(ev), known_keys(r.on)), 2) end
      r.on[ev] = { fn = wrapped(h.fn, w), priority = h.priority }
      parts[#parts + 1] = "on " .. ev
    end
    for name, ws in pairs(spec.actions or {}) do
      local a = r.actions[name]
      if not a then error(("wrap: rule %s has no action '%s'"):format(id, tostring(name)), 2) end
      if type(ws) ~= "table" then error("wrap: actions." .. name .. " = { legal = fn, effect = fn }", 2) end
      local na = copy(a)
      if ws.legal then na.legal = wrapped(a.legal, ws.legal) end
      if ws.effect then na.effect = wrapped(a.effect, ws.effect) end
      r.actions[name] = na
      parts[#parts + 1] = "action " .. name
    end
    for kind, field in pairs({ vetoes = "veto", queries = "query" }) do
      for name, w in pairs(spec[kind] or {}) do
        local orig = r[kind][name]
        if not orig then error(("wrap: rule %s has no %s '%s'"):format(id, field, tostring(name)), 2) end
        r[kind][name] = wrapped(orig, w)
        parts[#parts + 1] = field .. " " .. name
      end
    end
    sort(parts)
    set:_forget_ctx(r)
    record(id, "wrapped", here(1), concat(parts, ", "), r)
  end

  --- add { id = ..., title = ..., ... }: a new rule.
  function api.add(spec)
    need_decl()
    if type(spec) ~= "table" or type(spec.id) ~= "string" then error("add: a rule spec with an id expected", 2) end
    if set.rules[spec.id] then
      local o = set.rules[spec.id]
      error(("add: rule %s already exists (%s:%d); use replace or wrap"):format(spec.id, o.file, o.line), 2)
    end
    local where = here(1)
    local ok, r = pcall(set._normalize, set, spec, spec.id, { file = where.file, line = where.line, origin = v.name })
    if not ok then error(errors.format(r), 2) end
    r.family = v.base
    set:_add_rule(r)
    record(spec.id, "added", where, nil, r)
  end

  --- set_row(table, row, cell...): change one row's results ("4-6" or a row name).
  function api.set_row(name, row, ...)
    need_decl()
    local t = set:table(name)
    if not t then error(("set_row: no table named '%s'"):format(tostring(name)), 2) end
    local tables = require "keel.tables"
    local cells = { ... }
    if #cells ~= #t.columns then
      error(("set_row: table %s has %d column(s) (%s), got %d cell(s)"):format(name, #t.columns,
        concat(t.columns, " "), #cells), 2)
    end
    local new = copy(t)
    new.rows = {}
    local found, old_text
    for i, rw in ipairs(t.rows) do
      local label = rw.key or tables.range_text(rw.range)
      if label == row then
        local nr = copy(rw)
        nr.cells = {}
        local olds = {}
        for j, text in ipairs(cells) do
          local c = tables.parse_cell(tostring(text))
          if not c then error(("set_row: cell %q does not parse"):format(tostring(text)), 2) end
          nr.cells[j] = c
          nr[t.columns[j]] = c
          olds[j] = rw.cells[j] and rw.cells[j].text or "?"
        end
        old_text = concat(olds, " ")
        new.rows[i] = nr
        found = nr
      else
        new.rows[i] = rw
      end
    end
    if not found then
      local labels = {}
      for _, rw in ipairs(t.rows) do labels[#labels + 1] = rw.key or tables.range_text(rw.range) end
      error(("set_row: table %s has no row '%s' (rows: %s)"):format(name, tostring(row), concat(labels, ", ")), 2)
    end
    if t.by_key then
      new.by_key = copy(t.by_key)
      if found.key then new.by_key[found.key] = found end
    end
    -- a dice table finds a roll's row through its indexes: they point at the new row too
    local old_row = t.rows[found.index]
    if t.sorted then
      new.sorted = {}
      for i, rw in ipairs(t.sorted) do new.sorted[i] = rw == old_row and found or rw end
    end
    if t.by_roll then
      new.by_roll = {}
      for roll, rw in pairs(t.by_roll) do new.by_roll[roll] = rw == old_row and found or rw end
    end
    set.tables[name] = new
    record("table " .. name, "row", here(1), ("%s: %s -> %s"):format(row, old_text, concat(cells, " ")))
  end

  -- the calls work while the file loads, never later (from a wrapper, mid-game)
  local loading = true
  local guarded = {}
  for name, fn in pairs(api) do
    guarded[name] = function(...)
      if not loading then error(name .. " may only be called while the variant file loads", 2) end
      return fn(...)
    end
  end
  local env = sandbox.env { extra = guarded }
  local ok, err = pcall(set._run_file, set, path, env, nil)
  loading = false
  if not ok then error(err, 0) end
  if not v.name then
    error(path .. ": a variant file begins with variant { name = ..., base = ... }", 0)
  end
  set.variants[#set.variants + 1] = v
  set._dirty = true
  return v
end

return M

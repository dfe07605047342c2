--- keel.view_spec — the `view` declarations of rule families: what a
-- counter and the status panel show (doc/viewer.md). The rules runtime
-- (keel.registry) checks a manifest's `view` with M.check and merges a
-- set's with M.merge; the renderer (keel.counter) draws what they say. This
-- module knows the symbol names but draws nothing, so the runtime needs no
-- renderer.
--
--   view = {
--     types = { TF = { symbol = "warship", title = "task force", values = { "strength" } } },
--     marks = { { marker = "step", label = "-%d Step" }, { value = "reacting", label = "React" } },
--     sides = { Allied = "#1f4e9c" },
--     status = { { key = "suez", label = "Suez Canal" }, { keyed = "vp", label = "VP %s" } },
--   }
-- luacheck: max line length 160
local concat = table.concat
local type, pairs, ipairs, tostring, error = type, pairs, ipairs, tostring, error

local M = {}

--- The symbols a unit type may name, sorted: keel.counter draws each of
--- them (it checks, when it loads, that it draws exactly these).
M.SYMBOL_NAMES = { "air", "armor", "artillery", "carrier", "coastal", "flotilla", "headquarters", "infantry",
                   "landing", "mech", "recon", "submarine", "supply", "transport", "warship" }
local known_symbol = {}
for _, n in ipairs(M.SYMBOL_NAMES) do known_symbol[n] = true end

--- The symbol names a family may give its unit types, sorted (a new list).
---@return string[]
function M.symbol_names()
  local out = {}
  for i, n in ipairs(M.SYMBOL_NAMES) do out[i] = n end
  return out
end

local function bad(where, msg) error(where .. ": view." .. msg, 0) end

local function is_list_of_strings(v)
  if type(v) ~= "table" then return false end
  local n = 0
  for _ in pairs(v) do n = n + 1 end
  if n ~= #v then return false end
  for _, s in ipairs(v) do if type(s) ~= "string" then return false end end
  return true
end

local VIEW_FIELDS = { types = true, marks = true, sides = true, status = true }

--- Check a family's `view` declaration; returns it. Errors name `where`
--- (the manifest) and what was expected.
---@param v table
---@param where string
---@return table
function M.check(v, where)
  if type(v) ~= "table" then bad(where, " must be a table { types =, marks =, sides =, status = }") end
  for k in pairs(v) do
    if not VIEW_FIELDS[k] then bad(where, tostring(k) .. ": unknown field (expected: marks, sides, status, types)") end
  end
  for t, d in pairs(v.types or {}) do
    local w = "types." .. tostring(t)
    if type(t) ~= "string" or type(d) ~= "table" then bad(where, w .. " must be { symbol =, title =, values = }") end
    for k in pairs(d) do
      if k ~= "symbol" and k ~= "title" and k ~= "values" then
        bad(where, w .. "." .. tostring(k) .. ": unknown field (expected: symbol, title, values)")
      end
    end
    if d.symbol ~= nil and not known_symbol[d.symbol] then
      bad(where, ("%s.symbol: unknown symbol %q (known: %s)"):format(w, tostring(d.symbol), concat(M.symbol_names(), ", ")))
    end
    if d.title ~= nil and type(d.title) ~= "string" then bad(where, w .. ".title must be a string") end
    if d.values ~= nil and not is_list_of_strings(d.values) then bad(where, w .. ".values must be a list of value names") end
  end
  for i, m in ipairs(v.marks or {}) do
    local w = ("marks[%d]"):format(i)
    if type(m) ~= "table" or (type(m.marker) ~= "string") == (type(m.value) ~= "string") then
      bad(where, w .. " must be { marker = NAME, label = ... } or { value = NAME, label = ... }")
    end
    if m.label ~= nil and type(m.label) ~= "string" then bad(where, w .. ".label must be a string") end
  end
  for s, c in pairs(v.sides or {}) do
    if type(s) ~= "string" or type(c) ~= "string" or not c:match("^#%x%x%x%x%x%x$") then
      bad(where, ("sides.%s must be a colour \"#rrggbb\""):format(tostring(s)))
    end
  end
  for i, s in ipairs(v.status or {}) do
    if type(s) ~= "table" or (type(s.key) ~= "string") == (type(s.keyed) ~= "string")
      or (s.count ~= nil and (s.keyed == nil or type(s.count) ~= "boolean")) then
      bad(where, ("status[%d] must be { key = GLOBAL, label = TEXT } or { keyed = MAP, count = BOOLEAN, label = TEXT }")
        :format(i))
    end
    if s.label ~= nil and type(s.label) ~= "string" then bad(where, ("status[%d].label must be a string"):format(i)) end
  end
  return v
end

--- The kernel's own status lines (game-wide values every game may have).
M.KERNEL_STATUS = {
  { key = "turn", label = "turn" }, { key = "phase", label = "phase" },
  { key = "segment", label = "segment" }, { key = "step", label = "step" },
}

--- One view from the families' declarations, in load order: types and
--- sides by name (a later family's entry wins), marks and status lines
--- appended (a status key once).
---@param views table[] each a checked `view` (nil entries skipped)
---@return table spec {types=, marks=, sides=, status=}
function M.merge(views)
  local spec = { types = {}, marks = {}, sides = {}, status = {} }
  local seen = {}
  local function add_status(s)
    local id = s.key or ("keyed " .. s.keyed .. (s.count and " count" or ""))
    if not seen[id] then
      seen[id] = true
      spec.status[#spec.status + 1] = { key = s.key, keyed = s.keyed, count = s.count, label = s.label or s.key or s.keyed }
    end
  end
  for _, s in ipairs(M.KERNEL_STATUS) do add_status(s) end
  for i = 1, #views do
    local v = views[i]
    if v then
      for t, d in pairs(v.types or {}) do spec.types[t] = d end
      for s, c in pairs(v.sides or {}) do spec.sides[s] = c end
      for _, m in ipairs(v.marks or {}) do spec.marks[#spec.marks + 1] = m end
      for _, s in ipairs(v.status or {}) do add_status(s) end
    end
  end
  return spec
end

return M

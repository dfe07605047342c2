-- tests/lua/schema_check.lua — a small JSON Schema checker for the tests:
-- the keywords doc/protocol.schema.json uses ($ref to #/$defs, type,
-- properties, required, additionalProperties, items, enum, const, oneOf,
-- anyOf, minimum, minLength, maxLength; description and title ignored).
-- A keyword it does not know is an error, so the schema cannot use one
-- unchecked.
--
--   local check = dofile("tests/lua/schema_check.lua")
--   local v = check.new(json.decode(schema_text))
--   local ok, why = v:validate(value, "#/$defs/response")
local M = {}

local KNOWN = { ["$schema"] = true, ["$defs"] = true, ["$ref"] = true, title = true, description = true,
  type = true, properties = true, required = true, additionalProperties = true, items = true, enum = true,
  const = true, oneOf = true, anyOf = true, minimum = true, minLength = true, maxLength = true }

local function is_array(v)
  if type(v) ~= "table" then return false end
  local n = 0
  for _ in pairs(v) do n = n + 1 end
  for i = 1, n do if v[i] == nil then return false end end
  return true
end

local function is_object(v)
  if type(v) ~= "table" then return false end
  if next(v) == nil then return true end       -- {} and [] decode alike
  for k in pairs(v) do if type(k) ~= "string" then return false end end
  return true
end

local function type_ok(t, v)
  if t == "string" then return type(v) == "string" end
  if t == "integer" then return math.type(v) == "integer" end
  if t == "number" then return type(v) == "number" end
  if t == "boolean" then return type(v) == "boolean" end
  if t == "array" then return is_array(v) end
  if t == "object" then return is_object(v) end
  if t == "null" then return false end
  error("schema: unknown type " .. tostring(t))
end

local function equal(a, b)
  if type(a) ~= type(b) then return false end
  if type(a) ~= "table" then return a == b end
  for k, v in pairs(a) do if not equal(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end

local Checker = {}
Checker.__index = Checker

function M.new(root) return setmetatable({ root = root }, Checker) end

function Checker:resolve(ref)
  local name = ref:match("^#/%$defs/([%w_]+)$")
  if not name or not self.root["$defs"][name] then error("schema: cannot resolve " .. ref) end
  return self.root["$defs"][name]
end

--- nil when v fits schema s, else "path: why".
function Checker:check(s, v, path)
  if s == true or (type(s) == "table" and next(s) == nil) then return nil end
  for k in pairs(s) do if not KNOWN[k] then error("schema: keyword " .. k .. " is not checked (" .. path .. ")") end end
  if s["$ref"] then return self:check(self:resolve(s["$ref"]), v, path) end
  if s.const ~= nil and not equal(s.const, v) then
    return ("%s: %s expected, got %s"):format(path, tostring(s.const), tostring(v))
  end
  if s.enum then
    local found = false
    for _, e in ipairs(s.enum) do if equal(e, v) then found = true end end
    if not found then return ("%s: one of %s expected, got %s"):format(path, table.concat(s.enum, ", "), tostring(v)) end
  end
  if s.type then
    local types = type(s.type) == "table" and s.type or { s.type }
    local any = false
    for _, t in ipairs(types) do if type_ok(t, v) then any = true end end
    if not any then return ("%s: %s expected, got %s"):format(path, table.concat(types, " or "), type(v)) end
  end
  if s.minimum and type(v) == "number" and v < s.minimum then return path .. ": below " .. s.minimum end
  if s.minLength and type(v) == "string" and #v < s.minLength then return path .. ": too short" end
  if s.maxLength and type(v) == "string" and #v > s.maxLength then return path .. ": too long" end
  if type(v) == "table" then
    for _, k in ipairs(s.required or {}) do
      if v[k] == nil then return ("%s: field %s is required"):format(path, k) end
    end
    if s.properties or s.additionalProperties ~= nil then
      local keys = {}
      for k in pairs(v) do keys[#keys + 1] = k end
      table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
      for _, k in ipairs(keys) do
        local sub = s.properties and s.properties[k]
        if sub == nil then
          if s.additionalProperties == false then return ("%s: unknown field %s"):format(path, tostring(k)) end
          sub = s.additionalProperties
        end
        if sub ~= nil then
          local why = self:check(sub, v[k], path .. "." .. tostring(k))
          if why then return why end
        end
      end
    end
    if s.items and is_array(v) then
      for i, x in ipairs(v) do
        local why = self:check(s.items, x, path .. "[" .. i .. "]")
        if why then return why end
      end
    end
  end
  if s.oneOf or s.anyOf then
    local list = s.oneOf or s.anyOf
    local matched, whys = 0, {}
    for i, sub in ipairs(list) do
      local why = self:check(sub, v, path)
      if why then whys[#whys + 1] = ("  (%d) %s"):format(i, why) else matched = matched + 1 end
    end
    if matched == 0 then return ("%s: fits none of the alternatives:\n%s"):format(path, table.concat(whys, "\n")) end
    if s.oneOf and matched > 1 then return ("%s: fits %d alternatives, one expected"):format(path, matched) end
  end
  return nil
end

--- true, or false and why, for a value against a definition ("#/$defs/response").
function Checker:validate(v, ref)
  local why = self:check({ ["$ref"] = ref }, v, "$")
  if why then return false, why end
  return true
end

return M

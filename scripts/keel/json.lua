--- keel.json — JSON for keel's journals, saves and test vectors.
--
-- decode(text) -> value | nil, "line:col: what was expected"
-- encode(value) -> text, through the kernel's encoder (keel.state.json), so
-- the journal and everything else write JSON the same way.
local M = {}

local byte, sub, find = string.byte, string.sub, string.find
local concat = table.concat
local kstate_json = require("keel").state.json

--- A marker for JSON null (decode maps null to M.null, encode writes it).
M.null = setmetatable({}, { __tostring = function() return "null" end })

local function where(s, i)
  local line, col = 1, 1
  for p = 1, i - 1 do
    if byte(s, p) == 10 then line, col = line + 1, 1 else col = col + 1 end
  end
  return line .. ":" .. col
end

local decode_value

local function skip(s, i)
  local _, e = find(s, "^[ \t\r\n]*", i)
  return e + 1
end

local escapes = { ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }

local function utf8_of(cp) return utf8.char(cp) end

local function decode_string(s, i)
  local out, j = {}, i + 1
  while true do
    local k = find(s, '["\\]', j)
    if not k then error({ at = i, msg = "unterminated string" }) end
    out[#out + 1] = sub(s, j, k - 1)
    if byte(s, k) == 34 then return concat(out), k + 1 end
    local e = sub(s, k + 1, k + 1)
    if escapes[e] then
      out[#out + 1] = escapes[e]
      j = k + 2
    elseif e == "u" then
      local hex = sub(s, k + 2, k + 5)
      if not hex:match("^%x%x%x%x$") then error({ at = k, msg = "bad \\u escape" }) end
      out[#out + 1] = utf8_of(tonumber(hex, 16))
      j = k + 6
    else
      error({ at = k, msg = "bad escape" })
    end
  end
end

function decode_value(s, i, depth)
  if depth > 200 then error({ at = i, msg = "nesting too deep" }) end
  i = skip(s, i)
  local c = sub(s, i, i)
  if c == "{" then
    local obj = {}
    i = skip(s, i + 1)
    if sub(s, i, i) == "}" then return obj, i + 1 end
    while true do
      if sub(s, i, i) ~= '"' then error({ at = i, msg = "expected a string key" }) end
      local k
      k, i = decode_string(s, i)
      i = skip(s, i)
      if sub(s, i, i) ~= ":" then error({ at = i, msg = "expected ':'" }) end
      obj[k], i = decode_value(s, i + 1, depth + 1)
      i = skip(s, i)
      local d = sub(s, i, i)
      if d == "}" then return obj, i + 1 end
      if d ~= "," then error({ at = i, msg = "expected ',' or '}'" }) end
      i = skip(s, i + 1)
    end
  elseif c == "[" then
    local arr, n = {}, 0
    i = skip(s, i + 1)
    if sub(s, i, i) == "]" then return arr, i + 1 end
    while true do
      n = n + 1
      arr[n], i = decode_value(s, i, depth + 1)
      i = skip(s, i)
      local d = sub(s, i, i)
      if d == "]" then return arr, i + 1 end
      if d ~= "," then error({ at = i, msg = "expected ',' or ']'" }) end
      i = i + 1
    end
  elseif c == '"' then
    return decode_string(s, i)
  elseif find(s, "^true", i) then return true, i + 4
  elseif find(s, "^false", i) then return false, i + 5
  elseif find(s, "^null", i) then return M.null, i + 4
  else
    local num = s:match("^-?%d+%.?%d*[eE]?[-+]?%d*", i)
    if not num or num == "" or num == "-" then error({ at = i, msg = "expected a value" }) end
    local v = math.tointeger(tonumber(num)) or tonumber(num)
    if not v then error({ at = i, msg = "bad number" }) end
    if not num:find("[.eE]") then v = math.tointeger(tonumber(num)) or v end
    return v, i + #num
  end
end

--- Decode a JSON text.
---@param text string
---@return any value, string? err
function M.decode(text)
  if type(text) ~= "string" then return nil, "json: text expected" end
  local ok, v, i = pcall(decode_value, text, 1, 0)
  if not ok then
    if type(v) == "table" then return nil, where(text, v.at) .. ": " .. v.msg end
    error(v, 0)
  end
  i = skip(text, i)
  if i <= #text then return nil, where(text, i) .. ": unexpected text after the value" end
  return v
end

--- Encode a value as JSON: the kernel's deterministic encoder (object keys
-- sorted, integers as integers, floats shortest round-trip; see
-- keel.state.json). M.null encodes as null at the top level; a table cannot
-- hold it (decoded nulls are made nil before values are encoded again).
---@param v any
---@return string
function M.encode(v)
  if v == nil or v == M.null then return "null" end
  return kstate_json(v)
end

return M

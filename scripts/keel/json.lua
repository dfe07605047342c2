--- keel.json — JSON for keel's journals, saves and test vectors.
--
-- decode(text) -> value | nil, "line:col: what was expected"
-- encode(value [, key_order]) -> text: object keys in `key_order` first (in
-- that order), then the rest sorted, so output is the same on every run.
-- Integers print as integers; floats with %.17g (round-trip exact).
local M = {}

local byte, sub, find, char = string.byte, string.sub, string.find, string.char
local concat = table.concat

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

local function quote(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    local map = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
    return map[c] or ("\\u%04x"):format(byte(c))
  end) .. '"'
end
M.quote = quote

local function is_array(t)
  local n = #t
  if n == 0 then return next(t) == nil and getmetatable(t) ~= nil and getmetatable(t).__jsonarray or false end
  for k in pairs(t) do
    if math.type(k) ~= "integer" or k < 1 or k > n then return false end
  end
  return true
end

--- Mark a table so that it encodes as an array even when empty.
function M.array(t) return setmetatable(t or {}, { __jsonarray = true }) end

local encode

local function encode_number(v)
  if math.type(v) == "integer" then return tostring(v) end
  if v ~= v or v == math.huge or v == -math.huge then error("json: cannot encode " .. tostring(v)) end
  if v == math.floor(v) and math.abs(v) < 2^53 then return ("%.1f"):format(v) end
  return ("%.17g"):format(v)
end

function encode(v, order, out)
  local t = type(v)
  if v == M.null or v == nil then out[#out + 1] = "null"
  elseif t == "boolean" then out[#out + 1] = tostring(v)
  elseif t == "number" then out[#out + 1] = encode_number(v)
  elseif t == "string" then out[#out + 1] = quote(v)
  elseif t == "table" then
    if is_array(v) then
      out[#out + 1] = "["
      for i = 1, #v do
        if i > 1 then out[#out + 1] = "," end
        encode(v[i], order, out)
      end
      out[#out + 1] = "]"
    else
      local keys, seen = {}, {}
      for _, k in ipairs(order or {}) do
        if v[k] ~= nil then keys[#keys + 1] = k; seen[k] = true end
      end
      local rest = {}
      for k in pairs(v) do
        if not seen[k] then
          if type(k) ~= "string" then error("json: object keys must be strings, got " .. type(k)) end
          rest[#rest + 1] = k
        end
      end
      table.sort(rest)
      for _, k in ipairs(rest) do keys[#keys + 1] = k end
      out[#out + 1] = "{"
      for i, k in ipairs(keys) do
        if i > 1 then out[#out + 1] = "," end
        out[#out + 1] = quote(k)
        out[#out + 1] = ":"
        encode(v[k], order, out)
      end
      out[#out + 1] = "}"
    end
  else
    error("json: cannot encode a " .. t)
  end
end

--- Encode a value; object keys listed in `order` come first, the rest sorted.
---@param v any
---@param order? string[]
---@return string
function M.encode(v, order)
  local out = {}
  encode(v, order, out)
  return concat(out)
end

return M

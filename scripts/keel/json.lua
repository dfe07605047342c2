--- keel.json — JSON for keel's journals, saves, the protocol, the lab and
-- test vectors: the one encoder and the one decoder.
--
-- decode(text [, opts]) -> value | nil, "line:col: what was expected"
-- encode(value [, opts]) -> text, through the kernel's encoder
-- (keel.state.json), so the journal and everything else write JSON the same
-- way; opts.pretty: indented, for people (keel lab's results).
-- array(t) -> t marked as an array (an empty one is written []); null, the
-- value written null, in a table too.
local M = {}

local byte, sub, find = string.byte, string.sub, string.find
local concat = table.concat
local kstate = require("keel").state
local kstate_json = kstate.json

--- JSON null: what decode gives for null (unless opts.nulls is false) and
--- what encode writes as null, at the top or inside a table (an array may
--- hold it: {1, json.null, 3} is [1,null,3]). The kernel's marker
--- (keel.state.json_null): read-only, tostring gives "null".
M.null = kstate.json_null

--- Mark t as a JSON array, and return it: written as an array whatever it
--- holds, [] when empty (an unmarked empty table is {}). Its keys must be
--- 1..n (the encoder raises otherwise). A table with a metatable of its own
--- cannot be marked.
---@generic T: table
---@param t? T a new table when nil
---@return T
function M.array(t) return kstate.json_array(t or {}) end

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

-- a \u escape's code point as UTF-8: a surrogate pair is one character; a
-- lone surrogate (no character of its own) is U+FFFD, so that a decoded
-- string is valid UTF-8
local function utf8_of(cp) return utf8.char(cp) end
local REPLACEMENT = utf8.char(0xfffd)

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
      local cp = tonumber(hex, 16)
      j = k + 6
      if cp >= 0xd800 and cp <= 0xdfff then
        local low = cp <= 0xdbff and s:match("^\\u([dD][c-fC-F]%x%x)", j)
        if low then
          cp = 0x10000 + ((cp - 0xd800) << 10) + (tonumber(low, 16) - 0xdc00)
          j = j + 6
        else
          cp = nil
        end
      end
      out[#out + 1] = cp and utf8_of(cp) or REPLACEMENT
    else
      error({ at = k, msg = "bad escape" })
    end
  end
end

local nulls = M.null   -- what null decodes to, for the decode under way

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
  elseif find(s, "^null", i) then return nulls, i + 4
  else
    local num = s:match("^-?%d+%.?%d*[eE]?[-+]?%d*", i)
    if not num or num == "" or num == "-" then error({ at = i, msg = "expected a value" }) end
    local v = math.tointeger(tonumber(num)) or tonumber(num)
    if not v then error({ at = i, msg = "bad number" }) end
    if not num:find("[.eE]") then v = math.tointeger(tonumber(num)) or v end
    return v, i + #num
  end
end

--- Decode a JSON text. null decodes to json.null, or with opts.nulls =
--- false to nil: an object's null field is absent, an array's null a hole
--- (the text "null" itself decodes to nil and no error).
---@param text string
---@param opts? {nulls?: boolean}
---@return any value, string? err
function M.decode(text, opts)
  if type(text) ~= "string" then return nil, "json: text expected" end
  if opts and opts.nulls == false then nulls = nil else nulls = M.null end
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
--- sorted, integers as integers, floats shortest round-trip, strings as
--- valid UTF-8; see keel.state.json). nil and json.null are null; a table
--- marked by json.array is an array, [] when empty; other tables are arrays
--- (keys 1..n, n >= 1) or objects (string keys; {} when empty). Raises
--- "json: ..." for what has no JSON form: NaN, infinities, functions,
--- mixed keys, nesting deeper than 64 (a cycle). opts.pretty: two spaces a
--- level, arrays of scalars and objects of scalars up to 100 bytes on one
--- line, ", " and ": " between items.
---@param v any
---@param opts? {pretty?: boolean}
---@return string
function M.encode(v, opts)
  return kstate_json(v, opts ~= nil and opts.pretty == true)
end

return M

--- keel.json — JSON for keel's journals and tools.
-- encode: keel.state.json (C; object keys sorted, deterministic numbers).
-- decode: an LPeg grammar; JSON null becomes json.null (a sentinel) inside
-- arrays, and is left out of objects; integers stay Lua integers.
local lpeg = require "lpeg"
local keel = require "keel"

local P, S, R, C, Cs, Ct, Cc, Cg, Cf, V = lpeg.P, lpeg.S, lpeg.R, lpeg.C, lpeg.Cs, lpeg.Ct, lpeg.Cc, lpeg.Cg, lpeg.Cf, lpeg.V
local tonumber, utf8_char = tonumber, utf8.char

local M = {}

--- The value JSON null decodes to inside arrays.
M.null = setmetatable({}, { __tostring = function() return "null" end })

--- Encode a Lua value (tables: arrays 1..n or string-keyed objects).
---@param v any
---@return string
function M.encode(v) return keel.state.json(v) end

local ws = S(" \t\r\n") ^ 0
local escapes = { ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }
local hex4 = R("09", "af", "AF") ^ 4
local esc = (P("\\") * C(S('"\\/bfnrt'))) / escapes
  + (P("\\u") * C(hex4)) / function(h) return utf8_char(tonumber(h, 16)) end
local str = P('"') * Cs((esc + (P(1) - S('"\\') - R("\0\31"))) ^ 0) * P('"')
local int = P("-") ^ -1 * (P("0") + R("19") * R("09") ^ 0)
local frac = P(".") * R("09") ^ 1
local exp = S("eE") * S("+-") ^ -1 * R("09") ^ 1
local number = C(int * (frac + exp) ^ 1) / tonumber + C(int) / function(s) return math.tointeger(tonumber(s)) or tonumber(s) end

local function setfield(t, k, v) if v ~= M.null then t[k] = v end return t end

local grammar = P { "doc",
  doc = ws * V "value" * ws * -1,
  value = str + number + V "object" + V "array"
    + P("true") * Cc(true) + P("false") * Cc(false) + P("null") * Cc(M.null),
  member = ws * Cg(str * ws * P(":") * ws * V "value"),
  object = P("{") * Cf(Ct("") * (V "member" * (ws * P(",") * V "member") ^ 0) ^ -1, setfield) * ws * P("}"),
  array = P("[") * ws * Ct((V "value" * (ws * P(",") * ws * V "value") ^ 0) ^ -1) * ws * P("]"),
}

--- Decode one JSON text; nil and a reason when it does not parse.
---@param s string
---@return any|nil value, string? reason
function M.decode(s)
  if type(s) ~= "string" then return nil, "json: string expected" end
  local v = grammar:match(s)
  if v == nil then return nil, "json: does not parse" end
  if v == M.null then return nil end
  return v
end

return M

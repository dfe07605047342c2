--- keel.dice_expr — dice expressions parsed with LPeg: `d6`, `1d6`, `2d6`,
-- `2d6+3`, `1d6-1`, `d10`, `3d6` (also `2D6`, and spaces around the sign).
--
--   local dx = require "keel.dice_expr"
--   local e = dx.parse("2d6+3")   --> {count=2, sides=6, modifier=3, text="2d6+3"}
--   local e, err = dx.parse("2d")   --> nil, 'dice expression "2d": column 3: expected ...'
--
-- The grammar is compiled once, when the module loads. `M.pattern` is the
-- same grammar for embedding in other LPeg grammars (keel.tables): it
-- captures one expression table, or raises a position error (see M.perror).
local lpeg = require "lpeg"
local P, R, S, C, Cc, Cp, Cmt = lpeg.P, lpeg.R, lpeg.S, lpeg.C, lpeg.Cc, lpeg.Cp, lpeg.Cmt
local error, tonumber, type, setmetatable = error, tonumber, type, setmetatable

local M = {}

M.MAX_COUNT = 100      -- as KEEL_DICE_MAX_COUNT
M.MAX_SIDES = 1000     -- as KEEL_DICE_MAX_SIDES
M.MAX_MODIFIER = 1000000

--- A position error raised inside an LPeg match: {pos=, expected=} (or
-- message= instead of expected=). Top-level parsers catch it and say where.
local perror_mt = { __tostring = function(e)
  return ("at byte %d: %s"):format(e.pos, e.message or ("expected " .. e.expected))
end }

---@param pos integer byte offset in the subject
---@param expected string what should have been there
function M.perror(pos, expected)
  error(setmetatable({ pos = pos, expected = expected }, perror_mt), 0)
end

--- Like perror, for a message that is not "expected ...".
function M.pmessage(pos, message)
  error(setmetatable({ pos = pos, message = message }, perror_mt), 0)
end

function M.is_perror(e) return type(e) == "table" and getmetatable(e) == perror_mt end

--- A pattern that raises "expected <what>" at the current position.
---@param what string
function M.expect(what)
  -- the trailing P(1) is never reached (the function raises); it tells
  -- LPeg that the pattern cannot match the empty string, so it may sit
  -- inside loops
  return Cmt(P(0), function(_, i) M.perror(i, what) end) * P(1)
end
local expect = M.expect

local function int_in(lo, hi, what)
  return Cmt(Cp() * C(R"09"^1), function(_, i, start, digits)
    local n = tonumber(digits)
    if #digits > 9 or n < lo or n > hi then
      M.pmessage(start, ("%s %s out of range %d..%d"):format(what, digits, lo, hi))
    end
    return i, n
  end)
end

local blank = S" \t"^0
local count = int_in(1, M.MAX_COUNT, "dice count")
local sides = int_in(2, M.MAX_SIDES, "number of sides")
local modnum = int_in(0, M.MAX_MODIFIER, "modifier")

local modifier = C(S"+-") * blank * (modnum + expect"a number after the sign") /
  function(sign, n) return sign == "-" and -n or n end

local function build(c, s, m)
  local text = c .. "d" .. s
  if m > 0 then text = text .. "+" .. m elseif m < 0 then text = text .. m end
  return { count = c, sides = s, modifier = m, text = text }
end

--- The embeddable pattern: one dice expression (no surrounding blanks).
M.pattern = ((count + Cc(1)) * (S"dD" + expect"'d' (as in 2d6)") *
  (sides + expect"the number of sides after 'd' (as in 2d6)") *
  ((blank * #S"+-" * modifier) + Cc(0))) / build

local whole = blank * (M.pattern + expect"a dice expression such as 2d6, d10 or 1d6-1") *
  blank * (-P(1) + expect"the end of the expression (or +N / -N)")

--- Parse a dice expression.
---@param text string
---@return table|nil expr {count=, sides=, modifier=, text=canonical}
---@return string|nil err 'dice expression "..": column N: expected ...'
function M.parse(text)
  if type(text) ~= "string" then
    return nil, ("dice expression expected, got %s"):format(type(text))
  end
  local ok, res = pcall(lpeg.match, whole, text)
  if ok then return res end
  if not M.is_perror(res) then error(res, 0) end
  return nil, ("dice expression %q: column %d: %s"):format(text, res.pos,
    res.message or ("expected " .. res.expected))
end

--- Parse or raise the error message.
---@param text string
---@return table
function M.check(text)
  local e, err = M.parse(text)
  if not e then error(err, 2) end
  return e
end

--- The most dice of `sides` faces whose outcomes (sides ^ dice) fit a Lua
--- integer: the limit of exact odds.
---@param faces integer >= 1
---@return integer
function M.max_dice(faces)
  if faces < 2 then return math.maxinteger end   -- one outcome, however many dice
  local n, outcomes = 0, 1
  while outcomes <= math.maxinteger // faces do n, outcomes = n + 1, outcomes * faces end
  return n
end

--- The error of too many dice for exact odds, naming the input and the limit.
---@param text string the dice as the user wrote them (2d6, "40 dice")
---@param n integer dice
---@param faces integer faces per die
---@return string
function M.too_many(text, n, faces)
  return ("%s: %d^%d outcomes do not fit a 64-bit integer, the limit of exact odds (at most %d dice of %d sides)")
    :format(text, faces, n, M.max_dice(faces), faces)
end

--- Distribution of the total of an expression: counts[total] (integers)
-- and the number of outcomes (sides ^ count), exactly. Raises, before any
-- work, when the outcomes do not fit a 64-bit integer (the message names
-- the expression and the limit).
---@param e table a parsed expression
---@return table<integer, integer> counts, integer outcomes, integer lo, integer hi
function M.distribution(e)
  if e.count > M.max_dice(e.sides) then error(M.too_many(e.text, e.count, e.sides), 0) end
  local dist = { [0] = 1 }
  local lo, hi, outcomes = 0, 0, 1
  for _ = 1, e.count do
    local nd = {}
    for v = lo, hi do
      local c = dist[v]
      for f = 1, e.sides do nd[v + f] = (nd[v + f] or 0) + c end
    end
    dist, lo, hi, outcomes = nd, lo + 1, hi + e.sides, outcomes * e.sides
  end
  local out = {}
  for v = lo, hi do out[v + e.modifier] = dist[v] end
  return out, outcomes, lo + e.modifier, hi + e.modifier
end

return M

--- keel.pick — a random pick among things (ships of a stack, landing craft,
-- lost cargo) with the kernel's dice, so that every pick is a journaled roll
-- that replays, and its odds are exact.
--
--   local pick = require "keel.pick"
--   local got, idx = pick.draw(function(n) return dice:roll("1d" .. n) end, { "SP", "regiment" })
--   pick.chance(4, 2)                  --> 1/2: each of 4 items is among 2 drawn
--
-- A draw of k items out of n rolls 1dn, then 1d(n-1) over the items left,
-- and so on (no roll when one item is left to choose from, none when all are
-- taken): every item, and every ordered k-subset, is equally likely.
-- Rules reach it as `ctx:pick(items, {count=, reason=})` (doc/api/pick.md).
local odds = require "keel.odds"

local type, error, math_type = type, error, math.type

local M = {}

--- Draw `count` distinct items of `items` uniformly at random, in draw order.
---@param roll fun(sides: integer, draw: integer): integer a die of `sides` faces (2..), rolled for the `draw`-th pick
---@param items any[] the things to choose among (a list; not changed)
---@param count? integer how many (default 1; at most #items)
---@return any[] picked, integer[] indexes the picks and their places in `items`
function M.draw(roll, items, count)
  if type(roll) ~= "function" then error("pick.draw: a roll function expected", 2) end
  if type(items) ~= "table" then error("pick.draw: a list of items expected", 2) end
  count = count or 1
  if math_type(count) ~= "integer" or count < 0 then
    error("pick.draw: count must be a non-negative integer", 2)
  end
  local n = #items
  if count > n then error(("pick.draw: %d items asked of %d"):format(count, n), 2) end
  local left = {}
  for i = 1, n do left[i] = i end
  local picked, indexes = {}, {}
  for d = 1, count do
    local k = 1
    if #left > 1 then
      k = roll(#left, d)
      if math_type(k) ~= "integer" or k < 1 or k > #left then
        error(("pick.draw: the roll gave %s, expected 1..%d"):format(tostring(k), #left), 2)
      end
    end
    local idx = table.remove(left, k)
    picked[d], indexes[d] = items[idx], idx
  end
  return picked, indexes
end

--- The chance that a given item is among `count` drawn of `n`: count/n.
---@param n integer
---@param count? integer default 1
---@return table Fraction (keel.odds)
function M.chance(n, count)
  count = count or 1
  if math_type(n) ~= "integer" or n < 1 or math_type(count) ~= "integer" or count < 0 or count > n then
    error("pick.chance: 0 <= count <= n, n >= 1 expected", 2)
  end
  return odds.fraction(count, n)
end

return M

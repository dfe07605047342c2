--- keel.keys — the one total order of table keys, for everything that must
-- not depend on pairs() order (state changes, dice, journals, messages).
--
--   local keys = require "keel.keys"
--   for _, k in ipairs(keys.sorted(spec.values)) do ... end
--
-- The order: numbers first, by value (integers and floats compared as
-- numbers; a float key equal to an integer is that integer in Lua); then
-- strings, by byte (the order of `<` on strings, locale-free in keel);
-- then false, then true. Any other key (a table, a function, a userdata,
-- a coroutine) has no order that is the same in every process, and is
-- refused with an error naming its type.
local type, pairs, sort, error = type, pairs, table.sort, error

local M = {}

local RANK = { number = 1, string = 2, boolean = 3 }

--- Is a before b in keel's order of keys? (Both numbers, strings or booleans.)
---@param a number|string|boolean
---@param b number|string|boolean
---@return boolean
function M.is_before(a, b)
  local ra, rb = RANK[type(a)], RANK[type(b)]
  if ra ~= rb then return ra < rb end
  if ra == 3 then return a == false and b == true end
  return a < b
end

--- The keys of t, in keel's order of keys.
---@param t table
---@return any[]
function M.sorted(t)
  local ks, n, strings = {}, 0, true
  for k in pairs(t) do
    local tk = type(k)
    if tk ~= "string" then
      if not RANK[tk] then
        error(("keel.keys: a key of type %s has no order (keys are numbers, strings or booleans)")
          :format(tk), 2)
      end
      strings = false
    end
    n = n + 1
    ks[n] = k
  end
  -- names only (the common case): Lua's own < is keel's order, and needs no
  -- comparator called from Lua
  if strings then sort(ks) else sort(ks, M.is_before) end
  return ks
end

return M

--- keel.pick — a random pick from a list with the kernel's dice: "choose a
-- ship at random" (27.A.3), "a unit at random", any uniform choice among
-- candidates a rule has listed. The roll is an ordinary dice roll (1..n,
-- journaled and replayed like any other); a list of one needs no roll.
-- Rules call it as ctx:pick(list, {reason=}) (doc/api/rules.md).
--
--   local pick = require "keel.pick"
--   local ship, i, rec = pick.one(game.dice, { a, b, c }, { rule = "27.A.3", reason = "which NT" })
local error, type, tostring = error, type, tostring

local M = {}

--- One item of `list`, each with the same chance: item, index, record
--- (the roll's record; nil when the list has one item).
---@param dice keel.Dice
---@param list any[] the candidates, in a fixed order (never pairs() order)
---@param opts? {stream?: string, rule?: string, reason?: string}
---@return any item, integer index, table|nil record
function M.one(dice, list, opts)
  if type(list) ~= "table" then error("pick: a list of candidates expected, got " .. type(list), 2) end
  local n = #list
  if n == 0 then error("pick: no candidates to pick from" .. (opts and opts.reason and (" (" .. tostring(opts.reason) .. ")") or ""), 2) end
  if n == 1 then return list[1], 1, nil end
  local i, rec = dice:range(n, opts)
  return list[i], i, rec
end

return M

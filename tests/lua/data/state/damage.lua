-- tests/lua/data/state/damage.lua — the 27.A.3 damage model as a rule file
-- (the replay test edits a copy of this file to make a game diverge).
local game = ...
local M = {}

--- 27.A.3: each hit does 1 point of damage; a ship whose hits reach its
--- strength is sunk (cargo with it).
function M.hit(g, unit, n)
  g:with_rule("27.A.3", function()
    local hits = g:add_hits(unit, n)
    if hits >= g:value(unit, "strength") then g:sink(unit) end
  end)
end

--- 18.3d C: a second DG removes the marker and applies a hit.
function M.dg(g, unit)
  g:with_rule("18.3d", function()
    if g:add_marker(unit, "DG", 1) >= 2 then
      g:remove_marker(unit, "DG")
      M.hit(g, unit, 1)
    end
  end)
end

local _ = game
return M

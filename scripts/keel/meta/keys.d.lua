---@meta keel.keys
-- LuaLS definitions for keel.keys (scripts/keel/keys.lua).

---@class keel.keyslib
local keyslib = {}
---@param a number|string|boolean
---@param b number|string|boolean
---@return boolean
function keyslib.is_before(a, b) end
---@param t table
---@return (number|string|boolean)[]
function keyslib.sorted(t) end

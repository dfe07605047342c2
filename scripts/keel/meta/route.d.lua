---@meta keel
-- LuaLS definitions for keel.route (kernel/l_route.c).

---@class keel
---@field route keel.routelib

---@class keel.routelib
---@field BLOCKED integer a cost that forbids entering or crossing
---@field COST_MAX integer the largest finite cost
local routelib = {}

---@class keel.CostMapSpec
---@field q0? integer first q of the box
---@field r0? integer first r of the box
---@field width integer 1..16384
---@field height integer 1..16384
---@field enter? integer cost to enter every hex (default 1)
---@field cross? integer cost to cross every hexside (default 0)

---@param spec keel.CostMapSpec
---@return keel.CostMap
function routelib.costmap(spec) end

---@class keel.CostMap
local CostMap = {}
---@param h keel.Hex
---@param cost integer
---@return keel.CostMap self
function CostMap:set_enter(h, cost) end
---@param h keel.Hex
---@return integer|nil cost, string? reason
function CostMap:enter_cost(h) end
---@param s keel.Side
---@param cost integer
---@return keel.CostMap self
function CostMap:set_cross(s, cost) end
---@param s keel.Side
---@return integer|nil cost, string? reason
function CostMap:cross_cost(s) end
---@param h keel.Hex
---@param dir integer 0..5
---@param coast integer 0..3 (0: any)
---@return keel.CostMap self
function CostMap:set_coast(h, dir, coast) end
---@param start keel.Hex
---@param budget integer MPs
---@param coast? integer the coast the group is on (0: either)
---@return keel.Reach|nil, string? reason
function CostMap:reach(start, budget, coast) end

---@class keel.Reach
local Reach = {}
---@return integer
function Reach:count() end
---@param h keel.Hex
---@return integer|nil cost, string? reason
function Reach:cost(h) end
---@param h keel.Hex
---@return keel.Hex[]|nil path, string? reason
function Reach:path(h) end
---@return keel.Hex[]
function Reach:hexes() end

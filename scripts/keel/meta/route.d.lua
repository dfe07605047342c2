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
function CostMap:get_enter(h) end
---@param s keel.Side
---@param cost integer
---@return keel.CostMap self
function CostMap:set_cross(s, cost) end
---@param s keel.Side
---@return integer|nil cost, string? reason
function CostMap:get_cross(s) end
---@param h keel.Hex
---@param dir integer 0..5
---@param coast integer 0..3 (0: any)
---@return keel.CostMap self
function CostMap:set_coast(h, dir, coast) end
---@class keel.ReachOpts
---@field coast? integer the coast the group is on (0: either)
---@field blocked? keel.Hex[] hexes that may not be entered (this search only)
---@field stop? keel.Hex[] hexes that may be entered but not left (the start excepted)
---@field allow? fun(h: keel.Hex): boolean the slow path: asked once per candidate hex per search

---@param start keel.Hex
---@param budget integer MPs
---@param opts? integer|keel.ReachOpts a coast, or options
---@return keel.Reach|nil, string? reason
function CostMap:reach(start, budget, opts) end
---@param from keel.Hex
---@param to keel.Hex adjacent
---@param coast? integer the coast `from` was entered on
---@return integer|nil cost, integer|string coast_or_reason
function CostMap:step(from, to, coast) end
---@return boolean
function CostMap:has_coasts() end

---@class keel.MoveProfile
---@field enter table<string, integer> cost by terrain class (unlisted: blocked)
---@field cross? table<string, integer> cost by hexside feature (water classes unlisted: blocked)
---@field water_route? boolean follow water routes and coasts (27.B.5)

---@class keel.MoveConditions
---@field owners? keel.State the game state friendly_only and both_friendly read hex owners from (read once, as the map is built)
---@field friendly? string[] sides friendly to the group (as the state names them)
---@field friendly_only? string[] terrain classes entered only when friendly-owned
---@field both_friendly? string[] side features or names crossed only when both hexes are friendly (straits: through passages)
---@field closed? string[] side features or names never crossed

---@param board keel.Board
---@param profile keel.MoveProfile
---@param conditions? keel.MoveConditions
---@return keel.CostMap
function routelib.from_board(board, profile, conditions) end

--- The hexes whose owners a cost map under `conditions` reads, in cell order.
---@param board keel.Board
---@param conditions keel.MoveConditions
---@return integer[]
function routelib.owner_hexes(board, conditions) end

---@class keel.GraphSpec
---@field nodes integer[] node keys (distinct)
---@field edges? integer[][] {from, to, cost?} directed edges (cost default 1)

---@param spec keel.GraphSpec
---@return keel.Graph
function routelib.graph(spec) end

---@class keel.Graph
local Graph = {}
---@param start integer key
---@param budget integer
---@param opts? keel.ReachOpts blocked/stop/allow by key
---@return keel.Reach|nil, string? reason
function Graph:reach(start, budget, opts) end
---@param key integer
---@return integer[]|nil keys, integer[]|string costs_or_reason
function Graph:neighbors(key) end
---@return integer nodes, integer edges
function Graph:count() end
---@param key integer
---@return boolean
function Graph:has_node(key) end
--- Free what the graph owns now (also done by the garbage collector and __close).
function Graph:close() end

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

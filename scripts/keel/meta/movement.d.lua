---@meta keel.movement
-- LuaLS definitions for scripts/keel/movement.lua (the movement engine).

---@class keel.movement
---@field BLOCKED integer
---@field EVENTS string[] "mp_spent", "hex_entered", "stop"
---@field NAVAL_ROWS table the MP Cost Summary's movement rows (32.A.3)
local movement = {}

---@class keel.Group
---@field profile keel.MoveProfile a movement.profile
---@field friendly? string[] sides friendly to the group (as the game state names them)
---@field conditions? keel.MoveConditions
---@field hex? keel.Hex|string where the group is (a mover updates it)
---@field coast? integer the coast it is on
---@field allowance? integer MPs per step (default 15)
---@field spent? integer MPs spent so far

---@param spec {name: string, enter: table<string, integer|false>, cross?: table<string, integer|false>, water_route?: boolean}
---@return keel.MoveProfile
function movement.profile(spec) end
---@param tbl table a keyed keel.tables table
---@param column string
---@param rows table {enter=, cross=, river=, water_route=}
---@return keel.MoveProfile
function movement.profile_from_table(tbl, column, rows) end
--- An engine for one game: what depends on the board alone is shared by
--- every engine on the board; cost maps that read owners follow the state.
---@param board keel.Board
---@param state? keel.State who owns each hex (needed for friendly_only / both_friendly)
---@return keel.MoveEngine
function movement.new(board, state) end
---@param names string[]
---@param adjacent table {a, b, cost?} pairs
---@return {graph: keel.Graph, key: table<string, integer>, name: table<integer, string>}
function movement.area_graph(names, adjacent) end
---@return table<string, integer>|nil costs, keel.Reach|string reach_or_reason
function movement.area_reach(ag, from, budget, opts) end

---@class keel.MoveEngine
local Engine = {}
---@return keel.CostMap
function Engine:costmap(what) end
---@param what keel.Group|keel.MoveProfile
---@param start keel.Hex|string
---@param budget? integer default: the group's allowance less spent
---@param opts? keel.ReachOpts
---@return keel.Reach|nil, string? reason
function Engine:reach(what, start, budget, opts) end
---@return keel.Hex[]|nil path, integer|string cost_or_reason
function Engine:path(what, from, to, budget, opts) end
---@return keel.Graph
function Engine:box_graph() end
function Engine:zone_graph() end
---@param group keel.Group
---@param callbacks? {mp_spent?: function, hex_entered?: function, stop?: function}
---@param opts? keel.ReachOpts
---@return keel.Mover|nil, string? reason
function Engine:mover(group, callbacks, opts) end

---@class keel.Mover
---@field group keel.Group
---@field state "ready"|"moving"|"paused"|"stopped"
local Mover = {}
---@return "moved"|"stopped"|"paused"|nil, string? reason
function Mover:step(to) end
---@return "done"|"stopped"|"paused"|nil, string? reason
function Mover:move_along(path) end
---@return "done"|"stopped"|"paused"|nil, string? reason
function Mover:move_to(dest) end
---@return "spent"|"stopped"|"paused"|nil, string? reason
function Mover:spend(n, cause) end
---@return "done"|"stopped"|"paused"|nil, string? reason
function Mover:resume() end
function Mover:stop(reason) end
---@return integer|nil cost, integer|string coast_or_reason
function Mover:can_enter(to) end
---@return table[] steps {n=, cause=, hex=, from=, mp=, spent=, by=, reason=}
function Mover:journal() end

---@class keel.RiverGraph
local RiverGraph = {}
--- Every node, {kind = "hex"|"side", id = n}.
---@return table[]
function RiverGraph:nodes() end
---@return boolean
function RiverGraph:has_node(node) end
--- The cost of one move between two linked nodes, or nil.
---@return integer|nil
function RiverGraph:cost(a, b) end
--- Nodes reached: {kind=, id=, cost=} in settled order. opts: blocked/stop = {node...}, allow = function(kind, id).
function RiverGraph:reach(start, budget, opts) end
--- The cheapest river route: {node...}, cost | nil, reason.
function RiverGraph:path(from, to, budget, opts) end

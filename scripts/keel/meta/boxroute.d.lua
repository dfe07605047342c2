---@meta keel.boxroute
-- LuaLS definitions for scripts/keel/boxroute.lua (water routes counted in
-- sea boxes).

---@class keel.boxroute
---@field MAX_BOXES integer the largest box budget of a search
local boxroute = {}
---@param board keel.Board
---@param opts? {enter?: table<string, boolean>}
---@return keel.BoxNet
function boxroute.new(board, opts) end
---@param board keel.Board
---@param enter? table<string, boolean>
---@return keel.BoxNet read-only, as ctx:boxroute() gives it
function boxroute.script_view(board, enter) end

---@class keel.BoxNet
local Net = {}
---@param from integer|string
---@param to integer|string
---@param opts? {coast?: integer, boxes?: integer}
---@return integer[]|nil hexes, integer|string boxes_or_reason, integer? coast
function Net:path(from, to, opts) end
---@param hexes (integer|string)[]
---@param opts? {coast?: integer}
---@return integer|nil boxes, integer|string coast_or_reason, integer? failing_index
function Net:trace(hexes, opts) end
---@param from integer|string
---@param boxes integer
---@param opts? {coast?: integer}
---@return keel.BoxReach|nil, string? reason
function Net:reach(from, boxes, opts) end
---@return boolean adjacent, integer? coast
function Net:adjacent(a, b, coast) end
---@return integer[]
function Net:neighbors(hex, coast) end

---@class keel.BoxReach
local Reach = {}
---@return integer|nil
function Reach:boxes(hex) end
---@return integer|nil
function Reach:coast(hex) end
---@return integer[]|nil, string?
function Reach:path(hex) end
---@return integer[]
function Reach:hexes() end

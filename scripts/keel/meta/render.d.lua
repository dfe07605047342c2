---@meta keel.render
-- LuaLS definitions for keel.render (scripts/keel/render.lua): boards as SVG.

---@class keel.RenderUnit
---@field hex integer
---@field label string
---@field side? string

---@class keel.render
---@field layers table<string, fun(ctx: table)> the named layers
---@field DEFAULT_LAYERS string[]
local render = {}

---@param board keel.Board
---@param opts? {size?: number, title?: string, layers?: (string|fun(ctx: table))[], extra_layers?: (string|fun(ctx: table))[], legend?: boolean}
---@return string svg
function render.svg(board, opts) end
---@param units keel.RenderUnit[]
---@return fun(ctx: table) layer
function render.units_layer(units) end
---@param hexes integer[] first to last
---@return fun(ctx: table) layer
function render.path_layer(hexes) end
---@param game table a keel.game
---@return keel.RenderUnit[]
function render.game_units(game) end
---@param board keel.Board
---@return table<integer, integer> zone index -> the hex its units are drawn at
function render.zone_anchors(board) end
---@param side string
---@return string colour
function render.unit_color(side) end
---@param s string
---@return string escaped for XML
function render.esc(s) end

return render

---@meta
-- LuaLS definitions for keel.board (kernel/l_board.c), keel.map and keel.render.

---@alias keel.HexArg integer|string  a hex, a label "15B:2407" or a place name
---@alias keel.SideArg integer|string a hexside or a label "33:1223/1224"
---@alias keel.BoardLayer "terrain"|"zone"|"tag"

---@class keel.WaterStep
---@field hex integer   the hex entered
---@field coast integer the coast of that hex the step arrives on
---@field dir integer   direction 0..5 from the hex left
---@field side integer  the hexside crossed

---@class keel.Features
---@field water "all-water"|"partial-water"|"all-land"|"none"
---@field riverine? "river"|"major-river"|"great-river"|"canal"|"lake"
---@field narrow_strait boolean
---@field estuary boolean
---@field prohibited boolean
---@field name? string
---@field bits integer

---@class keel.Port
---@field hex integer
---@field size "minor"|"standard"|"major"|"great"
---@field capacity? integer
---@field inland boolean

---@class keel.Board
local Board = {}

---@param name string
---@param col integer
---@param row integer
---@param cols integer
---@param rows integer
---@return true|nil ok, string? reason
function Board:add_section(name, col, row, cols, rows) end
---@param name string
---@return true
function Board:set_default_terrain(name) end
---@param hex keel.HexArg
---@param terrain string
---@return true|nil ok, string? reason
function Board:set_terrain(hex, terrain) end
---@param layer keel.BoardLayer
---@param from keel.HexArg
---@param to keel.HexArg
---@param value string|integer terrain name, zone index, tag id
---@return true|nil ok, string? reason, integer? hex
function Board:fill(layer, from, to, value) end
---@param layer keel.BoardLayer
---@param first integer
---@param symbols string
---@param legend table<string, string|integer>
---@param start? integer
---@return true|nil ok, string? reason, integer? index, integer? column
function Board:fill_row(layer, first, symbols, legend, start) end
---@param side keel.SideArg
---@param bits integer
---@return true|nil ok, string? reason
function Board:add_side(side, bits) end
---@param name string
---@return integer|nil id, string? reason
function Board:side_name_id(name) end
---@param hex keel.HexArg
---@param coasts integer[]
---@return true|nil ok, string? reason
function Board:set_coasts(hex, coasts) end
---@param hex keel.HexArg
---@param size string
---@param capacity? integer
---@param inland? boolean
---@return true|nil ok, string? reason
function Board:add_port(hex, size, capacity, inland) end
---@param name string
---@param hex keel.HexArg
---@return true|nil ok, string? reason
function Board:add_place(name, hex) end
---@param hex keel.HexArg
---@param level integer
---@return true|nil ok, string? reason
function Board:set_cd(hex, level) end
---@param radius integer
---@param origin keel.HexArg
---@return true|nil ok, string? reason
function Board:set_seaboxes(radius, origin) end
---@param name string
---@return integer|nil index, string? reason
function Board:add_zone(name) end
---@param hex keel.HexArg
---@param index integer
---@return true|nil ok, string? reason
function Board:set_zone(hex, index) end
---@param name string
---@return integer|nil id, string? reason
function Board:tag_id(name) end
---@param hex keel.HexArg
---@param id integer
---@return true|nil ok, string? reason
function Board:add_tag(hex, id) end
---@param crossing keel.SideArg
---@param strait keel.SideArg
---@return true|nil ok, string? reason
function Board:add_strait_passage(crossing, strait) end
---@return keel.Board|nil board, string? reason
function Board:finish() end

---@param x keel.HexArg
---@return integer|nil hex, string? reason
function Board:hex(x) end
---@param hex keel.HexArg
---@return string|nil label, string? reason
function Board:format(hex) end
---@param a keel.SideArg|keel.HexArg
---@param b? keel.HexArg
---@return integer|nil side, string? reason
function Board:side(a, b) end
---@param side keel.SideArg
---@return string|nil label, string? reason
function Board:format_side(side) end
---@return {pointy: boolean, shift: "odd"|"even", digits: integer, first_col: integer, first_row: integer, sections: string[]}
function Board:numbering() end
---@param hex keel.HexArg
---@return boolean
function Board:contains(hex) end
---@return integer[]
function Board:hexes() end

---@param hex keel.HexArg
---@return string|nil terrain, string? reason
function Board:get_terrain(hex) end
---@param a keel.SideArg|keel.HexArg
---@param b? keel.HexArg
---@return keel.Features|nil, string? reason
function Board:get_features(a, b) end
---@param hex keel.HexArg
---@return integer[]|nil coasts, string? reason
function Board:get_coasts(hex) end
---@param hex keel.HexArg
---@param coast? integer
---@return keel.WaterStep[]|nil steps, string? reason
function Board:water_neighbors(hex, coast) end
---@param side keel.SideArg
---@return integer[]|nil sides, string? reason
function Board:riverine_neighbors(side) end
---@return integer[] sides every riverine hexside, in side order
function Board:riverine_sides() end
---@param from keel.HexArg
---@param to keel.HexArg
---@return integer[]|nil hexes, string? reason
function Board:rect_hexes(from, to) end
---@param side keel.SideArg
---@return integer|nil strait, string? reason
function Board:strait_passage(side) end
---@param hex keel.HexArg
---@return keel.Port|nil port, string? reason
function Board:get_port(hex) end
---@return keel.Port[]
function Board:ports() end
---@param name string
---@return integer|nil hex, string? reason
function Board:find_place(name) end
---@param hex keel.HexArg
---@return string|nil name, string? reason
function Board:place_name(hex) end
---@return {name: string, hex: integer}[]
function Board:places() end
---@param hex keel.HexArg
---@return integer|nil level, string? reason
function Board:get_cd(hex) end
--- Every coast defence of the board (level above 0), in the order of hexes().
---@return {hex: integer, level: integer}[]
function Board:cds() end
---@param hex keel.HexArg
---@return integer|nil box, string? reason
function Board:box_of(hex) end
---@return integer|nil radius, integer|string origin
function Board:get_seaboxes() end
---@param box integer
---@return integer[]
function Board:box_hexes(box) end
---@param hex keel.HexArg
---@return string|false|nil zone, string? reason
function Board:get_zone(hex) end
---@return string[]
function Board:zones() end
---@param name string
---@return string[]|nil zones, string? reason
function Board:zone_neighbors(name) end
---@param hex keel.HexArg
---@return string[]|nil tags, string? reason
function Board:tags(hex) end
---@param hex keel.HexArg
---@param name string
---@return boolean|nil, string? reason
function Board:has_tag(hex, name) end
---@param name string
---@return integer[]
function Board:tagged(name) end
---@return {hexes: integer, cells: integer, bytes: integer, bytes_per_hex: number}
function Board:stats() end
--- Method `name` bound to this board: f(any, ...) is b:name(...), a C
--- function with no check of the board (the rules' facade).
---@param name string
---@return function
function Board:bind(name) end
function Board:close() end

---@class keel.board
---@field SIDE table<string, integer>
---@field TERRAIN table<string, integer>
---@field COAST_MAX integer
local board = {}
---@param numbering? {pointy?: boolean, shift?: "odd"|"even", digits?: integer, first_col?: integer, first_row?: integer}
---@return keel.Board
function board.new(numbering) end
--- opts.shared: the process's one board for the file (games share it; never close it)
---@param path string
---@param opts? {shared?: boolean}
---@return keel.Board|nil board, string? err
function board.load(path, opts) end
---@param text string
---@param name? string
---@return keel.Board|nil board, string? err
function board.load_string(text, name) end

---@class keel.map
local map = {}
--- The owners a game on this board starts with, as its map file declares
--- them (a board holds no owners): one entry per owner statement, in map
--- order, a later one winning for a hex both name.
---@param b keel.Board
---@return {side: string, hexes: integer[]}[]
function map.get_owners(b) end

---Set those owners in a state, statement by statement (`st:set_owner`):
---what keel.game seeds a new game with.
---@param b keel.Board
---@param st keel.State
function map.seed_owners(b, st) end

return board

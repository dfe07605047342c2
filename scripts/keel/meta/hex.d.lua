---@meta keel
-- LuaLS definitions for `require "keel"` and its geometry modules:
-- keel.hex, keel.grid, keel.seaboxes, keel.areas. Kept in step with
-- kernel/l_keel.c, l_hex.c, l_grid.c, l_seaboxes.c, l_areas.c.
-- Other modules (board, dice, state, ...) add their fields in their own files.

---A hex: axial (q, r) packed in a Lua integer; usable as a table key.
---@alias keel.Hex integer
---A hexside: the side between two adjacent hexes; one id from either hex.
---@alias keel.Side integer
---A sea box: packed like a hex, in the overlay's own axial coordinates.
---@alias keel.Box integer
---@alias keel.OffsetConvention "odd-q"|"even-q"|"odd-r"|"even-r"
---@alias keel.DoubledConvention "doubled-q"|"doubled-r"

---@class keel.Layout
---@field pointy? boolean   false: flat-top (default)
---@field size? number|number[]  hex size, or {x, y}
---@field origin? number[]  {x, y}

---@class keel
---@field version string      keel's version
---@field lua_version string  e.g. "Lua 5.4.4"
---@field lpeg_version string e.g. "1.0.2"
---@field script_dir string   where keel's Lua scripts are
---@field hex keel.hexlib
---@field grid keel.gridlib
---@field seaboxes keel.seaboxeslib
---@field areas keel.areaslib
local keel = {}

--- Seconds on a monotonic wall clock (a float): for progress lines and
--- benchmarks in host scripts; rules never see it.
---@return number
function keel.clock() end

---@class keel.hexlib
---@field COORD_MAX integer largest |q|, |r|, |s|
local hex = {}

---@param q integer
---@param r integer
---@return keel.Hex
function hex.from_qr(q, r) end
---@param q integer
---@param r integer
---@param s integer must make q + r + s == 0
---@return keel.Hex
function hex.from_qrs(q, r, s) end
---@param h keel.Hex
---@return integer q, integer r
function hex.to_qr(h) end
---@param h keel.Hex
---@return integer q, integer r, integer s
function hex.to_qrs(h) end
---@param x any
---@return boolean
function hex.is_valid(x) end
---@param h keel.Hex
---@return string "(q,r,s)"
function hex.tostring(h) end
---@param a keel.Hex
---@param b keel.Hex
---@return keel.Hex
function hex.add(a, b) end
---@param a keel.Hex
---@param b keel.Hex
---@return keel.Hex
function hex.subtract(a, b) end
---@param h keel.Hex
---@param k integer
---@return keel.Hex
function hex.scale(h, k) end
---@param h keel.Hex
---@param dir integer 0..5
---@return keel.Hex
function hex.neighbor(h, dir) end
---@param h keel.Hex
---@return keel.Hex[] six neighbours in direction order 0..5
function hex.neighbors(h) end
---@param h keel.Hex
---@param dir integer 0..5
---@return keel.Hex
function hex.diagonal(h, dir) end
---@param dir integer 0..5
---@return integer dq, integer dr
function hex.direction(dir) end
---@param a keel.Hex
---@param b keel.Hex
---@return integer|nil dir, string? reason  nil when not adjacent
function hex.direction_to(a, b) end
---@param a keel.Hex
---@param b keel.Hex
---@return integer
function hex.distance(a, b) end
---@param h keel.Hex
---@param steps integer 60-degree steps, positive = left (counter-clockwise)
---@param center? keel.Hex default (0,0)
---@return keel.Hex
function hex.rotate(h, steps, center) end
---@param q number
---@param r number
---@param s number
---@return keel.Hex
function hex.round(q, r, s) end
---@param a keel.Hex
---@param b keel.Hex
---@return keel.Hex[] distance+1 hexes from a to b (deterministic ties)
function hex.line(a, b) end
---@param center keel.Hex
---@param radius integer
---@return keel.Hex[] 6*radius hexes (1 for radius 0)
function hex.ring(center, radius) end
---@param center keel.Hex
---@param radius integer
---@return keel.Hex[] center, then ring 1, ring 2, ...
function hex.spiral(center, radius) end
hex.disk = hex.spiral
---@param h keel.Hex
---@param dir integer 0..5
---@return keel.Side
function hex.side_of(h, dir) end
---@param a keel.Hex
---@param b keel.Hex adjacent to a (raises otherwise)
---@return keel.Side
function hex.side_between(a, b) end
---@param s keel.Side
---@return keel.Hex a, keel.Hex b
function hex.side_hexes(s) end
---@param s keel.Side
---@return integer dir 0..2, as seen from the side's first hex
function hex.side_direction(s) end
---@param h keel.Hex
---@return keel.Side[] six sides in direction order
function hex.sides(h) end
---@param x any
---@return boolean
function hex.is_side(x) end
---@param h keel.Hex
---@param conv keel.OffsetConvention
---@return integer col, integer row
function hex.to_offset(h, conv) end
---@param conv keel.OffsetConvention
---@param col integer
---@param row integer
---@return keel.Hex
function hex.from_offset(conv, col, row) end
---@param h keel.Hex
---@param conv keel.DoubledConvention
---@return integer col, integer row
function hex.to_doubled(h, conv) end
---@param conv keel.DoubledConvention
---@param col integer
---@param row integer col + row even
---@return keel.Hex
function hex.from_doubled(conv, col, row) end
---@param layout keel.Layout
---@param h keel.Hex
---@return number x, number y
function hex.to_pixel(layout, h) end
---@param layout keel.Layout
---@param x number
---@param y number
---@return number q, number r, number s fractional; pass to hex.round
function hex.from_pixel(layout, x, y) end
---@param layout keel.Layout
---@param h keel.Hex
---@return number[] {x1, y1, ..., x6, y6}
function hex.corners(layout, h) end

---@class keel.GridSection
---@field name string 1..15 of A-Z a-z 0-9 _ -
---@field col? integer global column offset of the section (even on flat maps)
---@field row? integer global row offset (even on pointy maps)
---@field cols? integer columns in the section (0: unbounded)
---@field rows? integer rows in the section (0: unbounded)

---@class keel.GridSpec
---@field orientation? "flat"|"pointy"
---@field shift? "odd"|"even" which printed columns (rows) are shoved down (right)
---@field digits? integer digits per coordinate, 1..4 (default 2)
---@field first_col? integer default 1
---@field first_row? integer default 1
---@field sections? keel.GridSection[]

---@class keel.gridlib
local gridlib = {}
---@param spec keel.GridSpec
---@return keel.Grid
function gridlib.new(spec) end

---@class keel.Grid
local Grid = {}
---@param label string "[SECTION:]CCRR"
---@return keel.Hex|nil, string? reason
function Grid:parse(label) end
---@param h keel.Hex
---@return string|nil label, string? reason
function Grid:format(h) end
---@param label string "33:1223/1224"
---@return keel.Side|nil, string? reason
function Grid:parse_side(label) end
---@param s keel.Side
---@return string|nil label, string? reason
function Grid:format_side(s) end
---@param h keel.Hex
---@return string|nil section, string? reason
function Grid:section_of(h) end
---@return string[]
function Grid:sections() end
---@return table {orientation, shift, digits, first_col, first_row}
function Grid:numbering() end
--- Free what the grid owns now (also done by the garbage collector and __close).
function Grid:close() end

---@class keel.seaboxeslib
local seaboxeslib = {}
---@param spec? {radius?: integer, origin?: keel.Hex} radius 2 (5 across) by default
---@return keel.SeaBoxes
function seaboxeslib.new(spec) end

---@class keel.SeaBoxes
local SeaBoxes = {}
---@param h keel.Hex
---@return keel.Box
function SeaBoxes:box_of(h) end
---@param b keel.Box
---@return keel.Hex
function SeaBoxes:center(b) end
---@param b keel.Box
---@return keel.Hex[]
function SeaBoxes:hexes(b) end
---@param b keel.Box
---@return keel.Box[]
function SeaBoxes:neighbors(b) end
---@param a keel.Box
---@param b keel.Box
---@return integer boxes apart
function SeaBoxes:distance(a, b) end
---@return integer
function SeaBoxes:radius() end
---@return keel.Hex
function SeaBoxes:origin() end

---@class keel.areaslib
local areaslib = {}
---@return keel.Areas
function areaslib.new() end

---@class keel.Areas
local Areas = {}
---@param name string
---@param hexes? keel.Hex[]
---@return keel.Areas self
function Areas:add(name, hexes) end
---@param a string
---@param b string
---@return keel.Areas self
function Areas:connect(a, b) end
---@return keel.Areas self
function Areas:connect_by_hexes() end
---@param h keel.Hex
---@return string|nil name, string? reason
function Areas:area_of(h) end
---@param name string
---@return keel.Hex[] ascending id order
function Areas:hexes(name) end
---@param name string
---@param h keel.Hex
---@return boolean
function Areas:contains(name, h) end
---@param a string
---@param b string
---@return boolean
function Areas:adjacent(a, b) end
---@param name string
---@return string[]
function Areas:neighbors(name) end
---@param a string
---@param b string
---@return integer|nil steps, string? reason
function Areas:distance(a, b) end
---@return string[]
function Areas:names() end
--- Free what the areas own now (also done by the garbage collector and __close).
function Areas:close() end

return keel

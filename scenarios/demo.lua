-- scenarios/demo.lua — a short tour of keel's hex geometry (the main job
-- until the showcase scenario lands): labels, distance, rings, hexsides
-- and sea boxes on a two-section map numbered like a printed wargame map.
local keel = require "keel"
local hex = keel.hex

local grid = keel.grid.new {
  orientation = "flat", shift = "even", digits = 2, first_col = 1, first_row = 1,
  sections = {
    { name = "15A", col = 0, row = 0, cols = 34, rows = 40 },
    { name = "15B", col = 34, row = 0, cols = 34, rows = 40 },
  },
}
local function L(h) return grid:label(h) or hex.tostring(h) end

local a = assert(grid:parse("15B:2407"))
local b = assert(grid:parse("15B:2508"))
print(("15B:2407 is axial %s; 15B:2508 is %s"):format(hex.tostring(a), hex.tostring(b)))
print(("distance 15B:2407 -> 15B:2508: %d hex"):format(hex.distance(a, b)))
local side = hex.side_between(a, b)
print(("their hexside prints as %s"):format(grid:side_label(side)))

local ring = {}
for _, h in ipairs(hex.ring(a, 1)) do ring[#ring + 1] = L(h) end
print("the six hexes around 15B:2407: " .. table.concat(ring, " "))

local line = {}
for _, h in ipairs(hex.line(a, assert(grid:parse("15A:3010")))) do line[#line + 1] = L(h) end
print("a line to 15A:3010 across the section edge: " .. table.concat(line, " "))

local boxes = keel.seaboxes.new { radius = 2, origin = assert(grid:parse("15A:0303")) }
local box = boxes:box_of(a)
print(("15B:2407 lies in sea box %s (19 hexes, 5 across), centred on %s"):format(
  hex.tostring(box), L(boxes:center(box))))
print(("sea-box distance from 15A:0303 to 15B:2407: %d boxes"):format(
  boxes:distance(boxes:box_of(assert(grid:parse("15A:0303"))), box)))

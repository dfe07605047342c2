-- bench/hex_bench.lua — neighbour, distance and label work: keel (C through
-- the binding) beside a pure-Lua implementation of the same operations,
-- measured in the same run. Bulk operations (ring/spiral) are where C wins;
-- a single tiny call costs about what a Lua function call costs.
local keel = require "keel"
local lib = dofile("bench/lib.lua")
local hex = keel.hex

-- ---- the pure-Lua reference: same packing, same algorithms ------------------
local ref = {}
local dirs = { { 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, 0 }, { -1, 1 }, { 0, 1 } }
function ref.pack(q, r) return (q << 32) | (r & 0xffffffff) end
function ref.q(h) return h >> 32 | (h < 0 and ~(-1 >> 32) or 0) end
local function sx(v) return v >= 0x80000000 and v - 0x100000000 or v end
function ref.unpack(h) return sx((h >> 32) & 0xffffffff), sx(h & 0xffffffff) end
function ref.neighbor(h, d)
  local q, r = ref.unpack(h)
  local v = dirs[d + 1]
  return ref.pack(q + v[1], r + v[2])
end
function ref.distance(a, b)
  local aq, ar = ref.unpack(a)
  local bq, br = ref.unpack(b)
  local dq, dr = aq - bq, ar - br
  return math.max(math.abs(dq), math.abs(dr), math.abs(dq + dr))
end
function ref.spiral(c, radius)
  local out = { c }
  local cq, cr = ref.unpack(c)
  for k = 1, radius do
    local q, r = cq - k, cr + k
    for d = 1, 6 do
      for _ = 1, k do
        out[#out + 1] = ref.pack(q, r)
        q, r = q + dirs[d][1], r + dirs[d][2]
      end
    end
  end
  return out
end
-- flat, even-q labels "CCRR", one section
function ref.label(h)
  local q, r = ref.unpack(h)
  local col, row = q, r + (q + (q & 1)) // 2
  return ("%02d%02d"):format(col, row)
end
function ref.parse(s)
  local c, r = s:match("^(%d%d)(%d%d)$")
  c, r = tonumber(c), tonumber(r)
  return ref.pack(c, r - (c + (c & 1)) // 2)
end

local grid = keel.grid.new { orientation = "flat", shift = "even", digits = 2, first_col = 0, first_row = 0 }
local probe = hex.from_qr(17, 9)
assert(ref.label(probe) == grid:format(probe) and ref.parse("1718") == grid:parse("1718"))
assert(ref.distance(probe, hex.from_qr(-4, 3)) == hex.distance(probe, hex.from_qr(-4, 3)))

local N = 1000
local hexes = {}
for i = 1, N do hexes[i] = hex.from_qr(i % 50, (i * 7) % 40) end

local sink = 0
local function per_op(fn) return lib.time(function(n) for _ = 1, n do fn() end end) / N end

lib.compare("neighbor (per call)", per_op(function()
  for i = 1, N do sink = sink + hex.neighbor(hexes[i], i % 6) end
end), "pure Lua", per_op(function()
  for i = 1, N do sink = sink + ref.neighbor(hexes[i], i % 6) end
end))

lib.compare("distance (per call)", per_op(function()
  for i = 2, N do sink = sink + hex.distance(hexes[i], hexes[i - 1]) end
end), "pure Lua", per_op(function()
  for i = 2, N do sink = sink + ref.distance(hexes[i], hexes[i - 1]) end
end))

lib.compare("label print (per call)", per_op(function()
  for i = 1, N do sink = sink + #grid:format(hexes[i]) end
end), "pure Lua", per_op(function()
  for i = 1, N do sink = sink + #ref.label(hexes[i]) end
end))

local labels = {}
for i = 1, N do labels[i] = grid:format(hexes[i]) end
lib.compare("label parse (per call)", per_op(function()
  for i = 1, N do sink = sink + grid:parse(labels[i]) end
end), "pure Lua", per_op(function()
  for i = 1, N do sink = sink + ref.parse(labels[i]) end
end))

local c = hex.from_qr(0, 0)
local per_hex = 3 * 20 * 21 + 1
lib.compare("spiral radius 20 (per hex)", lib.time(function(n)
  for _ = 1, n do sink = sink + #hex.spiral(c, 20) end
end) / per_hex, "pure Lua", lib.time(function(n)
  for _ = 1, n do sink = sink + #ref.spiral(c, 20) end
end) / per_hex)

assert(sink ~= 0)

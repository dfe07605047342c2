-- hex_test.lua — keel.hex, keel.grid, keel.seaboxes and keel.areas from Lua:
-- the Red Blob Games conformance vectors, labels, hexsides, sea boxes
-- (27.B.2), sea zones (27.B.1), and the errors a rule author sees.
local keel = require "keel"
local json = require "keel.json"
local t = require "keel.testing"
local hex = keel.hex

local f = assert(io.open("tests/conformance/redblob-hex.json"))
local V = assert(json.decode(f:read("a")))
f:close()

local function cube(c) return hex.from_qrs(c[1], c[2], c[3]) end

t.test("redblob: hex_add and hex_subtract", function()
  for _, c in ipairs(V.hex_add) do t.eq(hex.add(cube(c.a), cube(c.b)), cube(c.expect)) end
  for _, c in ipairs(V.hex_subtract) do t.eq(hex.subtract(cube(c.a), cube(c.b)), cube(c.expect)) end
end)

t.test("redblob: directions, neighbors, diagonals", function()
  for d = 0, 5 do
    local dq, dr = hex.direction(d)
    t.eq({ dq, dr, -dq - dr }, V.hex_directions[d + 1])
    t.eq(hex.diagonal(hex.from_qr(0, 0), d), cube(V.hex_diagonals[d + 1]))
  end
  for _, c in ipairs(V.hex_neighbor) do t.eq(hex.neighbor(cube(c.hex), c.direction), cube(c.expect)) end
  for _, c in ipairs(V.hex_diagonal_neighbor) do t.eq(hex.diagonal(cube(c.hex), c.direction), cube(c.expect)) end
end)

t.test("redblob: distance and rotation", function()
  for _, c in ipairs(V.hex_distance) do t.eq(hex.distance(cube(c.a), cube(c.b)), c.expect) end
  for _, c in ipairs(V.hex_rotate_right) do t.eq(hex.rotate(cube(c.hex), -1), cube(c.expect)) end
  for _, c in ipairs(V.hex_rotate_left) do t.eq(hex.rotate(cube(c.hex), 1), cube(c.expect)) end
end)

t.test("redblob: hex_round", function()
  for _, c in ipairs(V.hex_round) do
    local q, r, s = 0, 0, 0
    if c.lerp then
      local a, b, x = c.lerp.a, c.lerp.b, c.lerp.t
      q, r, s = a[1] * (1 - x) + b[1] * x, a[2] * (1 - x) + b[2] * x, a[3] * (1 - x) + b[3] * x
    else
      for _, w in ipairs(c.weights) do
        q, r, s = q + w[1][1] * w[2], r + w[1][2] * w[2], s + w[1][3] * w[2]
      end
    end
    t.eq(hex.round(q, r, s), cube(c.expect))
  end
end)

t.test("redblob: hex_linedraw", function()
  for _, c in ipairs(V.hex_linedraw) do
    local want = {}
    for i, e in ipairs(c.expect) do want[i] = cube(e) end
    t.eq(hex.line(cube(c.a), cube(c.b)), want)
  end
end)

t.test("redblob: layout round trip, flat and pointy", function()
  for _, c in ipairs(V.layout_roundtrip) do
    local layout = { pointy = c.orientation == "pointy", size = c.size, origin = c.origin }
    local x, y = hex.to_pixel(layout, cube(c.hex))
    t.eq(hex.round(hex.from_pixel(layout, x, y)), cube(c.hex))
  end
end)

t.test("redblob: offset and doubled coordinates", function()
  local rt = V.offset_roundtrip
  for _, conv in ipairs(rt.conventions) do
    t.eq(hex.from_offset(conv, hex.to_offset(cube(rt.cube), conv)), cube(rt.cube), conv)
    t.eq({ hex.to_offset(hex.from_offset(conv, rt.offset[1], rt.offset[2]), conv) }, rt.offset, conv)
  end
  for _, c in ipairs(V.qoffset_from_cube) do
    t.eq({ hex.to_offset(cube(c.cube), c.offset .. "-q") }, c.expect)
  end
  for _, c in ipairs(V.qoffset_to_cube) do
    t.eq(hex.from_offset(c.offset .. "-q", c.col_row[1], c.col_row[2]), cube(c.expect))
  end
  local drt = V.doubled_roundtrip
  for _, conv in ipairs(drt.conventions) do
    t.eq(hex.from_doubled(conv, hex.to_doubled(cube(drt.cube), conv)), cube(drt.cube), conv)
    t.eq({ hex.to_doubled(hex.from_doubled(conv, drt.doubled[1], drt.doubled[2]), conv) }, drt.doubled)
  end
  for _, c in ipairs(V.qdoubled_from_cube) do t.eq({ hex.to_doubled(cube(c.cube), "doubled-q") }, c.expect) end
  for _, c in ipairs(V.qdoubled_to_cube) do t.eq(hex.from_doubled("doubled-q", c.doubled[1], c.doubled[2]), cube(c.expect)) end
  for _, c in ipairs(V.rdoubled_from_cube) do t.eq({ hex.to_doubled(cube(c.cube), "doubled-r") }, c.expect) end
  for _, c in ipairs(V.rdoubled_to_cube) do t.eq(hex.from_doubled("doubled-r", c.doubled[1], c.doubled[2]), cube(c.expect)) end
end)

t.test("hex: a hex is a plain integer usable as a table key", function()
  local a, b = hex.from_qr(-3, 7), hex.from_qr(-3, 7)
  t.eq(math.type(a), "integer")
  local seen = { [a] = "here" }
  t.eq(seen[b], "here")
  t.eq({ hex.to_qrs(a) }, { -3, 7, -4 })
  t.eq(hex.tostring(a), "(-3,7,-4)")
end)

t.test("hex: ring and spiral in a fixed order", function()
  local c = hex.from_qr(0, 0)
  local ring = hex.ring(c, 2)
  t.eq(#ring, 12)
  t.eq(ring[1], hex.from_qr(-2, 2))
  local spiral = hex.spiral(c, 2)
  t.eq(#spiral, 19)
  t.eq(spiral[1], c)
  t.eq(hex.spiral(c, 2), spiral)
end)

t.test("hexside: same id from either hex; six sides; the two hexes back", function()
  local a = hex.from_qr(4, -1)
  local sides = hex.sides(a)
  for d = 0, 5 do
    local b = hex.neighbor(a, d)
    local s = hex.side_between(a, b)
    t.eq(s, hex.side_between(b, a))
    t.eq(s, sides[d + 1])
    local x, y = hex.side_hexes(s)
    t.ok((x == a and y == b) or (x == b and y == a))
    t.eq(hex.direction_to(x, y), hex.side_direction(s))
  end
  t.ok(hex.is_side(sides[1]))
  t.ok(not hex.is_side(3))
end)

t.test("hex errors: clear messages, nil and a reason for expected outcomes", function()
  t.raises(function() hex.neighbor(hex.from_qr(0, 0), 9) end, "direction 0..5 expected, got 9")
  t.raises(function() hex.distance("x", 1) end, "hex (integer) expected")
  t.raises(function() hex.from_qrs(1, 1, 1) end, "q + r + s must be 0")
  t.raises(function() hex.side_between(hex.from_qr(0, 0), hex.from_qr(3, 0)) end,
    "are 3 apart; a hexside needs adjacent hexes")
  t.raises(function() hex.from_offset("odd-x", 1, 1) end, "invalid option 'odd-x'")
  t.raises(function() hex.from_qr(1 << 40, 0) end, "out of range")
  t.fails("not adjacent", hex.direction_to(hex.from_qr(0, 0), hex.from_qr(2, 0)))
end)

-- ---- grids: printed labels --------------------------------------------------

local function crete_grid()
  return keel.grid.new {
    orientation = "flat", shift = "even", digits = 2,
    sections = { { name = "15A", col = 0, row = 0, cols = 34, rows = 40 },
                 { name = "15B", col = 34, row = 0, cols = 34, rows = 40 } },
  }
end

t.test("27.B.5-labels: 15B:2407 and 15B:2508 are adjacent on an even-shift map", function()
  local g = crete_grid()
  local a, b = assert(g:parse("15B:2407")), assert(g:parse("15B:2508"))
  t.eq(hex.distance(a, b), 1)
  t.eq(g:format(a), "15B:2407")
  t.eq(g:format_side(hex.side_between(b, a)), "15B:2407/2508")
  t.eq(g:parse_side("15B:2508/2407"), hex.side_between(a, b))
  t.eq(g:section_of(b), "15B")
  t.eq(g:sections(), { "15A", "15B" })
end)

t.test("labels round-trip on every orientation and shift, across sections", function()
  for _, o in ipairs { "flat", "pointy" } do
    for _, s in ipairs { "odd", "even" } do
      local g = keel.grid.new { orientation = o, shift = s, digits = 2, first_col = 1, first_row = 1,
        sections = { { name = "A", col = 0, row = 0, cols = 12, rows = 12 },
                     { name = "B", col = 12, row = 12, cols = 12, rows = 12 } } }
      for _, sec in ipairs { "A", "B" } do
        for c = 1, 12 do
          for r = 1, 12 do
            local label = ("%s:%02d%02d"):format(sec, c, r)
            t.eq(g:format(assert(g:parse(label))), label, o .. "/" .. s)
          end
        end
      end
    end
  end
end)

t.test("32.A.5-labels: 33:1223/1224 is a hexside; 1225-1224-1324 is a path of adjacent hexes", function()
  local g = keel.grid.new { orientation = "flat", shift = "even", digits = 2,
    sections = { { name = "33", col = 0, row = 0 } } }
  local s = assert(g:parse_side("33:1223/1224"))
  local a, b = hex.side_hexes(s)
  t.eq({ g:format(math.min(a, b)), g:format(math.max(a, b)) }, { "33:1223", "33:1224" })
  t.eq(hex.distance(g:parse("33:1225"), g:parse("33:1224")), 1)
  t.eq(hex.distance(g:parse("33:1224"), g:parse("33:1324")), 1)
end)

t.test("grid errors: what was given and what was expected", function()
  local g = crete_grid()
  t.fails('label "15B:24O7": unexpected character at 7; expected [SECTION:]CCRR (2 digits each)',
    g:parse("15B:24O7"))
  t.fails("unknown map section at character 1 (known: 15A 15B)", g:parse("19A:3413"))
  t.fails("outside its map section", g:parse("15B:3541"))
  t.fails("not adjacent", g:parse_side("15B:2407/2409"))
  t.fails("twice, joined by '/'", g:parse_side("15B:2407+2408"))
  t.fails("not on the board", g:format(hex.from_qr(900, 900)))
  t.raises(function() keel.grid.new { orientation = "round" } end, 'orientation must be "flat" or "pointy"')
  t.raises(function() keel.grid.new { digits = 7 } end, "field 'digits': an integer from 1 to 4 expected, got 7")
  t.raises(function()
    keel.grid.new { sections = { { name = "A" }, { name = "A", col = 10 } } }
  end, 'section "A" is defined twice')
  t.raises(function() keel.grid.new { sections = { { name = "A", col = 3 } } } end,
    "offset must be even")
end)

-- ---- sea boxes ------------------------------------------------------------------

t.test("27.B.2: sea boxes are hexagons 5 hexes across (19 hexes); every hex in one box", function()
  local origin = hex.from_qr(10, -4)
  local sb = keel.seaboxes.new { radius = 2, origin = origin }
  local b0 = sb:box_of(origin)
  t.eq(#sb:hexes(b0), 19)
  t.eq(sb:center(b0), origin)
  for _, h in ipairs(hex.spiral(origin, 12)) do
    local b = sb:box_of(h)
    t.ok(hex.distance(sb:center(b), h) <= 2, "hex within 2 of its box centre")
  end
  for _, nb in ipairs(sb:neighbors(b0)) do
    t.eq(sb:distance(b0, nb), 1)
    t.eq(hex.distance(sb:center(nb), origin), 5)
  end
end)

t.test("27.B.2: sea-box distance counts boxes crossed", function()
  local sb = keel.seaboxes.new {}
  local o = hex.from_qr(0, 0)
  t.eq(sb:distance(sb:box_of(o), sb:box_of(hex.from_qr(2, 0))), 0)
  t.eq(sb:distance(sb:box_of(o), sb:box_of(hex.from_qr(3, 0))), 1)
  t.eq(sb:distance(sb:box_of(o), sb:box_of(hex.from_qr(15, -6))), 3)
  t.raises(function() keel.seaboxes.new { radius = -1 } end, "radius must be 0..1024")
end)

-- ---- areas (sea zones) -------------------------------------------------------------

t.test("27.B.1: three sea zones as hex sets and as a graph", function()
  local z = keel.areas.new()
  local H = hex.from_qr
  z:add("Atlantic Ocean", { H(0, 0), H(0, 1) })
  z:add("Mediterranean Sea", { H(1, 0), H(1, 1), H(2, 0) })
  z:add("Red Sea", { H(6, 0) })
  z:connect_by_hexes()
  z:connect("Mediterranean Sea", "Red Sea")          -- through the Suez Canal
  t.eq(z:area_of(H(1, 1)), "Mediterranean Sea")
  t.fails("in no area", z:area_of(H(9, 9)))
  t.ok(z:contains("Red Sea", H(6, 0)))
  t.ok(z:adjacent("Atlantic Ocean", "Mediterranean Sea"))
  t.ok(not z:adjacent("Atlantic Ocean", "Red Sea"))
  t.eq(z:neighbors("Mediterranean Sea"), { "Atlantic Ocean", "Red Sea" })
  t.eq(z:distance("Atlantic Ocean", "Red Sea"), 2)
  t.eq(z:hexes("Mediterranean Sea"), { H(1, 0), H(1, 1), H(2, 0) })
  t.eq(z:names(), { "Atlantic Ocean", "Mediterranean Sea", "Red Sea" })
  t.raises(function() z:hexes("Pacific") end, 'unknown area "Pacific"')
  t.raises(function() z:add("Red Sea", { H(0, 0) }) end, 'already belongs to "Atlantic Ocean"')
  z:add("Lake")
  t.fails("no path", z:distance("Lake", "Red Sea"))
end)

t.test("hex-extremes-1: every keel.hex function refuses extreme integers cleanly (no overflow)", function()
  -- each call either returns or raises a Lua error; the sanitizer build
  -- aborts on signed overflow, so this also proves there is none
  local big = { math.maxinteger, math.mininteger, math.maxinteger - 1, -math.maxinteger,
    hex.COORD_MAX + 1, -(hex.COORD_MAX + 1), 0, 1, -1 }
  local names = {}
  for name, fn in pairs(hex) do if type(fn) == "function" then names[#names + 1] = name end end
  table.sort(names)
  local calls = 0
  for _, name in ipairs(names) do
    for _, a in ipairs(big) do
      for _, b in ipairs(big) do
        for _, c in ipairs({ 0, 1, math.maxinteger, math.mininteger }) do
          pcall(hex[name], a, b, c)
          pcall(hex[name], hex.from_qr(1, 2), a, b)
          calls = calls + 2
        end
      end
    end
  end
  t.ok(calls > 1000, "calls made")
  t.raises(function() hex.from_qrs(math.maxinteger, 1, 0) end, "out of range")
  t.raises(function() hex.from_qrs(1, 1, math.mininteger) end, "q + r + s must be 0")
  t.raises(function() hex.from_doubled("doubled-q", math.maxinteger, 1) end, "out of range")
end)


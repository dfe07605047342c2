-- tests/lua/board_test.lua — keel.board and keel.map: the sample maps answer
-- what the rule texts imply (test names carry the rule id), labels, the
-- owners a map declares (game state's starting owners; a board has none),
-- misuse, and the doc's worked example.
local t = require "keel.testing"
local keel = require "keel"
local map = require "keel.map"
local hex = keel.hex

local function load(name)
  local b, err = map.load("scenarios/maps/" .. name .. ".map")
  t.ok(b, err)
  return b
end

local function labels(b, list, key)
  local out = {}
  for _, x in ipairs(list) do out[#out + 1] = b:format(key and x[key] or x) end
  table.sort(out)
  return out
end

-- the owner a map declares for a hex (a label or place name), false for none
local function owner(b, at)
  local h = math.type(at) == "integer" and at or assert(b:hex(at))
  local side = false
  for _, o in ipairs(map.get_owners(b)) do
    for _, x in ipairs(o.hexes) do if x == h then side = o.side end end   -- a later one wins
  end
  return side
end

local function contains(list, v)
  for _, x in ipairs(list) do if x == v then return true end end
  return false
end

local MAPS = { "crete", "suez", "corinth", "straits", "sevilla", "eastmed" }

t.test("map-1: every sample map loads", function()
  for _, m in ipairs(MAPS) do
    local b = load(m)
    t.ok(b:stats().hexes > 0, m)
    b:close()
  end
end)

-- 27.B.5 -------------------------------------------------------------------
for _, m in ipairs { "crete", "eastmed" } do
  t.test("27.B.5-1: (" .. m .. ") a ship in 15B:2407 may enter 15B:2508, a minor port on Crete", function()
    local b = load(m)
    local from = b:hex("15B:2407")
    t.eq(b:get_terrain(from), "all-sea")
    local steps = b:water_neighbors(from)
    local into
    for _, s in ipairs(steps) do if b:format(s.hex) == "15B:2508" then into = s end end
    t.ok(into, "2508 is a water neighbour of 2407")
    t.eq(b:get_terrain("15B:2508"), "coastal")
    t.eq(b:get_port("15B:2508").size, "minor")
    t.ok(b:has_tag("15B:2508", "crete"))
  end)

  t.test("27.B.5-2: (" .. m .. ") ...but may not continue into any sea hex on the south side of Crete", function()
    local b = load(m)
    local steps = b:water_neighbors("15B:2407")
    local coast
    for _, s in ipairs(steps) do if b:format(s.hex) == "15B:2508" then coast = s.coast end end
    local onward = b:water_neighbors("15B:2508", coast)
    t.eq(labels(b, onward, "hex"), { "15B:2407", "15B:2507", "15B:2607" })
    for _, s in ipairs(onward) do
      t.ok(b:get_terrain(s.hex) == "all-sea" and keel.hex.to_qr(s.hex) and
        select(2, b:format(s.hex):match("(%d%d)(%d%d)$")) <= "07", "north of Crete: " .. b:format(s.hex))
    end
    -- the south coast is a different water body of the same hex
    local south = b:water_neighbors("15B:2508", b:get_coasts("15B:2508")[6])   -- S side (direction 5)
    t.eq(labels(b, south, "hex"), { "15B:2509" })
    t.ok(b:get_coasts("15B:2508")[6] ~= coast, "two coasts separated by land")
  end)

  t.test("27.B.5-3: (" .. m .. ") no water route across Crete's land", function()
    local b = load(m)
    t.eq(b:get_features("15B:2408/2508").water, "all-land")
    for _, s in ipairs(b:water_neighbors("15B:2508")) do
      t.ok(b:format(s.hex) ~= "15B:2408" and b:format(s.hex) ~= "15B:2608")
    end
  end)
end

t.test("27.B.1-1: sea zones: a hex is in at most one zone, zones are named", function()
  local b = load("eastmed")
  t.eq(b:zones(), { "Aegean Sea", "Mediterranean Sea", "Red Sea" })   -- first use order
  t.eq(b:get_zone("15B:2407"), "Aegean Sea")
  t.eq(b:get_zone("15B:2509"), "Mediterranean Sea")
  t.eq(b:get_zone("19A:3820"), "Red Sea")
  t.eq(b:get_zone("15B:0101"), false)
  t.ok(contains(b:zone_neighbors("Aegean Sea"), "Mediterranean Sea"))
  t.eq(b:zone_neighbors("Red Sea"), {})
end)

t.test("27.B.2-1: sea boxes 5 hexes across (radius 2) overlay the map", function()
  local b = load("eastmed")
  local r, origin = b:get_seaboxes()
  t.eq(r, 2)
  t.eq(b:format(origin), "15B:2407")
  t.eq(b:box_of("15B:2407"), b:box_of("15B:2509"))        -- two hexes from the centre
  t.ok(b:box_of("15B:2407") ~= b:box_of("15B:2707"))      -- three hexes away
  t.eq(#b:box_hexes(b:box_of("15B:2407")), 19)
  local nb, why = load("corinth"):box_of("15B:0813")
  t.fails("no sea boxes", nb, why)
end)

-- 32.A.5 -------------------------------------------------------------------
t.test("32.A.5-1: the narrow strait is the 33:1223/1224 hexside, its hexes enemy (Axis) owned", function()
  local b = load("straits")
  t.ok(b:get_features("33:1223/1224").narrow_strait)
  t.eq(owner(b, "33:1223"), "Axis")
  t.eq(owner(b, "33:1224"), "Axis")
  t.eq(owner(b, "33:1225"), false)
end)

t.test("32.A.5-2: 33:1225-1224-1324 is a water route, and its second step passes the strait", function()
  local b = load("straits")
  local c
  for _, s in ipairs(b:water_neighbors("33:1225")) do
    if b:format(s.hex) == "33:1224" then c = s.coast end
  end
  t.ok(c, "1225 -> 1224")
  local step
  for _, s in ipairs(b:water_neighbors("33:1224", c)) do
    if b:format(s.hex) == "33:1324" then step = s end
  end
  t.ok(step, "1224 -> 1324 on the same coast")
  t.eq(b:strait_passage(step.side), b:side("33:1223/1224"))
  t.fails("passes no narrow strait", b:strait_passage("33:1224/1225"))
  -- who may pass depends on the owners of 33:1223 and 1224: game state
  -- (movement_test 32.A.5-2, 32.A.5-3), never the board's
  t.eq(b.set_owner, nil)
end)

-- 32.A.6 -------------------------------------------------------------------
t.test("32.A.6-1: 23A:3228 is sea, 23A:3227 coastal (2 MPs), the river starts at 23A:3227/3327", function()
  local b = load("sevilla")
  t.eq(b:get_terrain("23A:3228"), "all-sea")
  t.eq(b:get_terrain("23A:3227"), "coastal")
  t.ok(contains(labels(b, b:water_neighbors("23A:3228"), "hex"), "23A:3227"))
  t.eq(b:get_features("23A:3227/3327").riverine, "major-river")
end)

t.test("32.A.6-2: the river route 3227/3327, 3327/3226, then 4 hexsides to 3224/3225 at Sevilla", function()
  local b = load("sevilla")
  local route = { "23A:3227/3327", "23A:3327/3226", "23A:3226/3326", "23A:3326/3225",
    "23A:3225/3325", "23A:3224/3225" }
  for i = 1, #route - 1 do
    local next_sides = b:riverine_neighbors(route[i])
    t.ok(contains(next_sides, b:side(route[i + 1])), route[i] .. " -> " .. route[i + 1])
  end
  t.eq(#route - 2, 4, "4 MPs after the first two hexsides")
  local sevilla = b:find_place("Sevilla")
  t.eq(b:format(sevilla), "23A:3224")
  local p = b:get_port(sevilla)
  t.eq(p.inland, true)
  t.eq(p.size, "standard")
  -- 3224/3225 is the first hexside adjacent to the inland port: no further upriver
  local a, c = hex.side_hexes(b:side("23A:3224/3225"))
  t.ok(a == sevilla or c == sevilla)
  local a2, c2 = hex.side_hexes(b:side("23A:3225/3325"))
  t.ok(a2 ~= sevilla and c2 ~= sevilla)
end)

-- 32.A.6.a -----------------------------------------------------------------
for _, m in ipairs { "suez", "eastmed" } do
  t.test("32.A.6.a-1: (" .. m .. ") the Suez Canal runs from Port Said (19A:3413) to Suez (19A:3718)", function()
    local b = load(m)
    t.eq(b:format(b:find_place("Port Said")), "19A:3413")
    t.eq(b:format(b:find_place("Suez")), "19A:3718")
    t.eq(b:place_name("19A:3413"), "Port Said")
    -- collect the canal's hexsides and walk them end to end
    local canal = {}
    for _, h in ipairs(b:hexes()) do
      for d = 0, 2 do
        local s = hex.side_of(h, d)
        local f = b:get_features(s)
        if f and f.riverine == "canal" and f.name == "Suez" then canal[#canal + 1] = s end
      end
    end
    t.eq(#canal, 12)
    local ps, suez = b:find_place("Port Said"), b:find_place("Suez")
    local start
    for _, s in ipairs(canal) do
      local a, c = hex.side_hexes(s)
      if a == ps or c == ps then start = s end
    end
    t.ok(start, "a canal hexside touches Port Said")
    local seen, cur, n = { [start] = true }, start, 1
    while true do
      local nxt
      for _, s in ipairs(b:riverine_neighbors(cur)) do
        if not seen[s] and b:get_features(s).name == "Suez" then nxt = s end
      end
      if not nxt then break end
      seen[nxt] = true
      cur, n = nxt, n + 1
    end
    t.eq(n, #canal, "one connected chain")
    local a, c = hex.side_hexes(cur)
    t.ok(a == suez or c == suez, "the chain ends at Suez")
    -- canal hexsides are not water routes for ordinary movement
    t.eq(b:get_features(start).water, "all-land")
  end)

  t.test("32.A.6.a-2: (" .. m .. ") the Egyptian Delta is a tagged region; hexes Allied at the start", function()
    local b = load(m)
    local delta = b:tagged("delta")
    t.eq(#delta, 30)   -- 19A:2812..3316: 5 columns by 6 rows
    t.ok(b:has_tag("Cairo", "delta"))
    t.eq(b:has_tag("Port Said", "delta"), false)
    t.eq(owner(b, "Cairo"), "Allied")
    local sides = {}
    for i, o in ipairs(map.get_owners(b)) do sides[i] = o.side end
    t.ok(contains(sides, "Allied"), m .. ": an Allied owner statement")
  end)
end

-- 32.A.6.a.1 ---------------------------------------------------------------
for _, m in ipairs { "corinth", "eastmed" } do
  t.test("32.A.6.a.1-1: (" .. m .. ") the Corinth Canal is the 15B:0813/0814 hexside", function()
    local b = load(m)
    local f = b:get_features("15B:0813/0814")
    t.eq(f.riverine, "canal")
    t.eq(f.name, "Corinth")
    t.eq(f.water, "all-land")
    t.eq(b:get_features("15B:0813", "15B:0814").name, "Corinth")
  end)

  t.test("32.A.6.a.1-2: (" .. m .. ") without the canal the two gulfs are separate waters", function()
    local b = load(m)
    local c813 = {}
    for _, c in ipairs(b:get_coasts("15B:0813")) do if c > 0 then c813[c] = true end end
    local n = 0
    for _ in pairs(c813) do n = n + 1 end
    t.eq(n, 2, "0813 has two coasts")
    -- entering 0813 from the Gulf of Corinth (0714) leads back west only
    local coast
    for _, s in ipairs(b:water_neighbors("15B:0714")) do
      if b:format(s.hex) == "15B:0813" then coast = s.coast end
    end
    t.ok(coast)
    for _, s in ipairs(b:water_neighbors("15B:0813", coast)) do
      t.ok(b:format(s.hex) ~= "15B:0914", "no way into the Saronic Gulf")
    end
  end)
end

-- 18.1c / 32.A: the rest of the data the rules name -------------------------
t.test("18.1c-1: estuary and prohibited hexsides are data; a prohibited side is no water route", function()
  local b = load("suez")
  local f = b:get_features("19A:3012/3112")
  t.ok(f.estuary and f.prohibited)
  t.eq(f.water, "partial-water")
  for _, s in ipairs(b:water_neighbors("19A:3012")) do t.ok(b:format(s.hex) ~= "19A:3112") end
  t.eq(b:get_features("19A:3013/3113").riverine, "great-river")
  t.eq(b:get_terrain("19A:3515"), "lake")
end)

t.test("32.B.5-1: ports have sizes and capacities; coast defences have levels", function()
  local b = load("suez")
  local p = b:get_port("Port Said")
  t.eq(p.size, "major")
  t.eq(p.capacity, 4)
  t.eq(p.inland, false)
  t.eq(b:get_cd("Port Said"), 2)
  t.eq(b:get_cd("Cairo"), 0)
  t.fails("no port", b:get_port("Cairo"))
  t.eq(#b:ports(), 3)
  -- every coast defence, in board order: as get_cd over every hex says
  local want = {}
  for _, h in ipairs(b:hexes()) do
    local lv = b:get_cd(h)
    if lv > 0 then want[#want + 1] = { hex = h, level = lv } end
  end
  t.ok(#want > 0, "the suez map has coast defences")
  t.eq(b:cds(), want)
end)

-- labels and the API -----------------------------------------------------
t.test("board-1: labels both ways, places, off-board queries give nil and a reason", function()
  local b = load("eastmed")
  local h = b:hex("15B:2407")
  t.eq(b:format(h), "15B:2407")
  t.eq(b:format(b:hex("19A:3413")), "19A:3413")
  t.eq(b:hex("Port Said"), b:hex("19A:3413"))
  t.eq(b:format_side(b:side("15B:2407", "15B:2508")), "15B:2407/2508")
  t.fails("not on the board", b:get_terrain("15B:3399"))
  t.fails("unknown map section", b:hex("99Z:0101"))
  t.fails("malformed label", b:get_terrain("15B:24O7"))
  t.fails("not on the board", b:get_terrain(hex.from_qr(1000, 1000)))
  t.fails("not adjacent", b:side("15B:2407", "15B:2409"))
  t.fails("not found", b:find_place("Atlantis"))
  t.eq(b:contains("15B:2407"), true)
  t.eq(b:contains("15B:9999"), false)
  t.eq(tostring(b), "keel.Board (1600 hexes)")
  t.eq(b:numbering().sections, { "15B", "19A" })
end)

t.test("board-2: misuse raises", function()
  local b = load("crete")
  t.raises(function() b:get_terrain({}) end, "bad argument #1 to 'get_terrain'")
  t.raises(function() b:set_terrain("15B:2508", "all-sea") end, "board is finished")
  t.raises(function() b:water_neighbors("15B:2508", 99) end, "coast 0..15")
  local nb = keel.board.new{}
  t.raises(function() nb:get_terrain("0101") end, "not finished")
  b:close()
  t.raises(function() b:get_terrain("15B:2508") end, "closed")
  t.eq(tostring(b), "keel.Board (closed)")
end)

t.test("board-3: a finished board never changes; the owners a map declares are data beside it", function()
  local b = load("suez")
  for _, m in ipairs { "owner", "set_owner", "owners", "add_owner" } do t.eq(b[m], nil, m) end
  t.raises(function() b:fill("terrain", "19A:3413", "19A:3413", "all-sea") end, "board is finished")
  local owners = map.get_owners(b)
  t.eq(owner(b, "Port Said"), "Allied")
  -- suez.map: owner Allied 19A:2812..3616 19A:3718
  t.eq({ owners[1].side, #owners[1].hexes, owners[2].side, #owners[2].hexes }, { "Allied", 9 * 5, "Allied", 1 })
  owners[1].side, owners[1].hexes[1] = "Martians", nil   -- the caller's copies
  t.eq(map.get_owners(b)[1].side, "Allied")
  t.eq(#map.get_owners(b)[1].hexes, 45)
  t.eq(#map.get_owners(keel.board.load_string("hexes flat\nsection A at 0 0 size 2 2\n")), 0, "no owners declared")
  -- a rectangle's hexes, row by row, only those on the board
  t.eq(labels(b, b:rect_hexes("19A:3920", "19A:4021")), { "19A:3920", "19A:3921", "19A:4020", "19A:4021" })
  t.eq(#b:rect_hexes("19A:2809", "19A:4021"), b:stats().hexes)
  t.fails("rect_hexes", b:rect_hexes("19A:4021", "19A:2809"))
end)

t.test("board-3b: a shared board is one per map file and process, built again when the file changes", function()
  local path = os.tmpname()
  local function write(text) local f = assert(io.open(path, "wb")); f:write(text); f:close() end
  write("hexes flat\nsection A at 0 0 size 2 2\nowner Blue A:0101\n")
  local a = assert(map.load(path, { shared = true }))
  t.ok(map.load(path, { shared = true }) == a, "the same board")
  t.ok(map.load(path) ~= a, "a plain load builds a board of its own")
  t.eq(owner(a, "A:0101"), "Blue")
  write("hexes flat\nsection A at 0 0 size 2 2\nowner Red A:0101\n")
  local b = assert(map.load(path, { shared = true }))
  t.ok(b ~= a, "the file changed: a new board")
  t.eq({ owner(a, "A:0101"), owner(b, "A:0101") }, { "Blue", "Red" })
  os.remove(path)
end)

t.test("board-4: bytes per hex stay within 32", function()
  local b = load("eastmed")
  local s = b:stats()
  t.eq(s.hexes, 1600)
  t.ok(s.bytes_per_hex <= 32, ("%.1f bytes per hex"):format(s.bytes_per_hex))
end)

t.test("board-5: keel.board.load and load_string go through keel.map", function()
  local b = assert(keel.board.load("scenarios/maps/crete.map"))
  t.eq(b:get_terrain("15B:2508"), "coastal")
  local b2 = assert(keel.board.load_string("hexes flat\nsection A at 0 0 size 2 2\nhex A:0101 coastal\n"))
  t.eq(b2:get_terrain("A:0101"), "coastal")
  t.eq(b2:get_terrain("A:0202"), "all-land")
  t.fails("No such file", keel.board.load("scenarios/maps/nope.map"))
end)

t.test("board-6: the worked example of doc/map-format.md loads and says what the doc says", function()
  local text = t.read_file("doc/map-format.md")
  local example = text:match("```keel%-map\n(.-)```")
  t.ok(example, "doc has a ```keel-map block")
  local b, err = map.load_string(example, "doc/map-format.md")
  t.ok(b, err)
  t.eq(b:get_terrain("A:0202"), "coastal")
  t.eq(b:get_terrain("A:0302"), "all-land")
  t.eq(b:get_terrain("A:0504"), "restricted")
  t.eq(b:get_port("Harbour Town").size, "major")
  t.eq(b:get_features("A:0302/0402").riverine, "river")
  t.eq(owner(b, "A:0302"), "Blue")
  t.eq(b:get_zone("A:0101"), "North Sea")
  t.ok(b:has_tag("A:0302", "capital"))
end)

t.test("board-7: fill and fill_row set a layer over a rectangle or a row as the one-hex calls do", function()
  local b = keel.board.new { shift = "even" }
  assert(b:add_section("A", 0, 0, 6, 4))
  local z = assert(b:add_zone("Z"))
  local tag = assert(b:tag_id("t"))
  t.ok(b:fill("tag", "A:0101", "A:0201", tag))
  t.ok(b:fill("zone", "A:0102", "A:0602", z))
  local ok, why, at = b:fill("zone", "A:0502", "A:0503", z)
  t.eq(ok, nil)
  t.ok(why:find("defined twice", 1, true), why)
  t.eq(b:format(at), "A:0502")
  t.raises(function() b:fill("owner", "A:0101", "A:0101", "Blue") end, "invalid option 'owner'")
  t.raises(function() b:fill("river", "A:0101", "A:0101", 1) end, "invalid option 'river'")
  t.raises(function() b:fill("zone", "A:0101", "A:0101", 0) end, "zone index >= 1")
  t.fails("not on the board", b:fill("tag", "A:0101", "A:0701", tag))
  -- a row: spaces and tabs are not columns, '_' leaves its hex
  t.ok(b:fill_row("terrain", b:hex("A:0101"), ". _c\tL", { ["."] = "all-sea", c = "coastal", L = "all-land" }))
  local legend = { ["."] = "all-sea" }
  local ok2, why2, i, col = b:fill_row("terrain", b:hex("A:0104"), "..Q.", legend)
  t.eq({ ok2, i, col }, { nil, 3, 3 })
  t.ok(why2:find("no legend entry for 'Q'", 1, true), why2)
  legend.Q = "lake"
  t.ok(b:fill_row("terrain", b:hex("A:0104"), "..Q.", legend, 3))   -- columns 1, 2 were set
  local ok3, why3, i3, col3 = b:fill_row("terrain", b:hex("A:0301"), " .", legend)
  t.eq({ ok3, i3, col3 }, { nil, 2, 1 })
  t.ok(why3:find("terrain: ", 1, true) and why3:find("defined twice", 1, true), why3)
  t.eq(select(3, b:fill_row("terrain", b:hex("A:0502"), "...", legend)), 3)   -- column 07 is off the board
  t.raises(function() b:fill_row("terrain", b:hex("A:0103"), ".", { ["."] = "swamp" }) end, "unknown terrain 'swamp'")
  t.raises(function() b:fill_row("terrain", b:hex("A:0103"), ".", { [".."] = "lake" }) end, "one-character symbols")
  assert(b:finish())
  t.ok(b:has_tag("A:0201", "t"))
  t.eq(b:get_zone("A:0602"), "Z")
  t.eq(b:get_zone("A:0503"), false)
  t.eq({ b:get_terrain("A:0101"), b:get_terrain("A:0201"), b:get_terrain("A:0301"), b:get_terrain("A:0401") },
    { "all-sea", "all-land", "coastal", "all-land" })
  t.eq({ b:get_terrain("A:0104"), b:get_terrain("A:0304"), b:get_terrain("A:0404") }, { "all-sea", "lake", "all-sea" })
  t.raises(function() b:fill("tag", "A:0101", "A:0101", tag) end, "board is finished")
  t.raises(function() b:fill_row("zone", b:hex("A:0101"), "zz_z", { z = 1 }) end, "board is finished")
  b:close()
end)

t.test("board-8: owners, zones and tags from grids and rectangles land on the hexes their labels name", function()
  local b = assert(map.load_string(table.concat({
    "hexes pointy odd digits 2 first 1 1",
    "section A at 0 0 size 4 3", "section B at 0 4 size 4 3",
    "legend owner {", " r Red", " b Blue", "}",
    "legend zone {", ' n "North"', " s South", "}",
    "owners at B:0101 {", "  _ b r b", "  r", "}",
    "zones at A:0201 {", "  n n _", "  s", "}",
    "owner Green A:0102..0203 B:0403",
    'tag "x y" A:0103..0303',
    "zone South B:0303..0403",
  }, "\n") .. "\n", "t.map"))
  local function layer(get, sec)
    local out = {}
    for r = 1, 3 do
      local row = {}
      for c = 1, 4 do row[c] = tostring(get(b, ("%s:%02d%02d"):format(sec, c, r))) end
      out[r] = table.concat(row, " ")
    end
    return out
  end
  t.eq(layer(owner, "A"), { "false false false false", "Green Green false false", "Green Green false false" })
  t.eq(layer(owner, "B"), { "false Blue Red Blue", "Red false false false", "false false false Green" })
  t.eq(layer(b.get_zone, "A"), { "false North North false", "false South false false", "false false false false" })
  t.eq(layer(b.get_zone, "B"), { "false false false false", "false false false false", "false false South South" })
  t.eq(labels(b, b:tagged("x y")), { "A:0103", "A:0203", "A:0303" })
end)

t.test("board-bounds-1: script integers are range-checked, never truncated to C's int", function()
  t.raises(function() keel.board.new { first_col = 1 << 32 } end, "field 'first_col': an integer from 0 to 9999")
  t.raises(function() keel.grid.new { first_row = -1 } end, "field 'first_row'")
  t.raises(function() keel.grid.new { digits = 5 } end, "field 'digits': an integer from 1 to 4")
  local b = keel.board.new { digits = 2 }
  t.ok(b:add_section("A", 0, 0, 4, 4))
  local h = b:hex("A:0101")
  t.raises(function() b:add_port(h, "minor", 1 << 40) end, "capacity from 0 to 2147483647")
  t.raises(function() b:set_coasts(h, { 1 << 33 }) end, "coasts[1]: a coast number from 0 to")
  t.raises(function() b:add_tag(h, -5) end, "tag id expected")
end)


t.test("board-bind: a method bound to its board answers as the method does", function()
  local b = load("eastmed")
  local h = b:hex("19A:3412")
  local get_terrain, format = b:bind("get_terrain"), b:bind("format")
  t.eq(get_terrain(nil, h), b:get_terrain(h))
  t.eq(format({}, h), "19A:3412", "the first argument is not looked at")
  t.raises(function() b:bind("close") end, "no method 'close' to bind")
  t.raises(function() b:bind("nothing") end, "no method 'nothing' to bind")
  t.raises(function() get_terrain(nil, 1 << 62) end, "not a valid hex")
end)

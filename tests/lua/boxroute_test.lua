-- boxroute_test.lua — keel.boxroute (water routes counted in sea boxes, with
-- the coast a route arrives on), from Lua and through a rule's ctx.
local keel = require "keel"
local t = require "keel.testing"
local boxroute = require "keel.boxroute"
local rules = require "keel.rules"
local game_mod = require "keel.game"

local function crete() return assert(keel.board.load("scenarios/maps/crete.map")) end
local function labels(b, hexes)
  local out = {}
  for i, h in ipairs(hexes) do out[i] = b:format(h) end
  return out
end

-- a strip of sea 30 hexes long, boxes of radius 2 (5 across)
local STRIP = [[
map "strip"
hexes flat even digits 2 first 1 1
section A at 0 0 size 30 3
default all-sea
hex A:1001 all-land
hex A:1002 all-land
seaboxes radius 2 origin A:0102
]]

t.test("boxroute: a route counts the sea boxes it enters, not its hexes", function()
  local b = assert(keel.board.load_string(STRIP, "strip.map"))
  local net = boxroute.new(b)
  local path, boxes = net:path("A:0102", "A:0102")
  t.eq(labels(b, path), { "A:0102" })
  t.eq(boxes, 0)
  -- along the row: every box entered counts once
  for _, to in ipairs({ "A:0202", "A:0402", "A:0602", "A:1202", "A:2002", "A:3002" }) do
    local p, n = net:path("A:0102", to)
    t.ok(p, to)
    local want = 0
    for i = 2, #p do if b:box_of(p[i]) ~= b:box_of(p[i - 1]) then want = want + 1 end end
    t.eq(n, want, to)
    t.ok(#p - 1 >= keel.hex.distance(b:hex("A:0102"), b:hex(to)), "no shorter than the hex distance")
  end
  -- the same as trace of the path found
  local p = net:path("A:0102", "A:3002")
  t.eq(net:trace(p), select(2, net:path("A:0102", "A:3002")))
end)

t.test("boxroute: fewest boxes first, then fewest hexes; the same route on every run", function()
  local b = crete()
  local net = boxroute.new(b)
  local p1, n1 = net:path("15B:2303", "15B:3012")
  local p2, n2 = boxroute.new(b):path("15B:2303", "15B:3012")
  t.eq(p1, p2)
  t.eq(n1, n2)
  -- no route with fewer boxes exists: the reach one box short misses it
  local r = net:reach("15B:2303", n1 - 1)
  t.eq(r:boxes("15B:3012"), nil)
  t.eq(net:reach("15B:2303", n1):boxes("15B:3012"), n1)
  t.ok(rawequal(net, boxroute.new(b)), "one network per board and terrain set")
end)

t.test("boxroute: a network keeps its reaches: the same search is made once, the same answer", function()
  local b = crete()
  local net = boxroute.new(b)
  local r1 = net:reach("15B:2303", 5)
  t.ok(rawequal(net:reach("15B:2303", 5), r1), "asked again: the reach kept")
  t.ok(not rawequal(net:reach("15B:2303", 4), r1), "another bound: another search")
  local path = net:path("15B:2303", "15B:3012")
  t.eq(net:path("15B:2303", "15B:3012"), path)
  -- past REACHES_KEPT the network starts afresh: same answers, new searches
  local hexes = r1:hexes()
  for i = 1, boxroute.REACHES_KEPT do net:reach(hexes[i % #hexes + 1], i % 7) end
  local r2 = net:reach("15B:2303", 5)
  t.ok(not rawequal(r2, r1), "forgotten after REACHES_KEPT others")
  t.eq(r2:hexes(), hexes)
  t.ok(net.n_reaches <= boxroute.REACHES_KEPT)
end)

t.test("boxroute: the 27.B.5 example: 15B:2407 -> 15B:2508, then not to the south side of Crete", function()
  local b = crete()
  local net = boxroute.new(b)
  local boxes, coast = net:trace({ "15B:2407", "15B:2508" })
  t.eq(boxes, 0)
  local north = coast
  local ok, why, at = net:trace({ "15B:2407", "15B:2508", "15B:2509" })
  t.eq(ok, nil)
  t.eq(at, 3)
  t.ok(why:find("entered on another coast", 1, true), why)
  -- the ship in port keeps its coast: from Heraklion's north coast the
  -- south side is reached only round an end of the island
  t.ok(not net:adjacent("15B:2508", "15B:2509", north))
  t.ok(net:adjacent("15B:2508", "15B:2407", north))
  t.ok(net:adjacent("15B:2508", "15B:2509"), "a ship placed in port (no coast yet) may leave by either coast")
  local p = net:path("15B:2508", "15B:2509", { coast = north })
  t.ok(#p > 2, "round the island")
  -- never across land
  t.fails("the hexside between them is land", net:trace({ "15B:2408", "15B:2508" }))
  t.fails("ships may not enter it", net:trace({ "15B:2203", "15B:2103" }))
  t.fails("is not adjacent", net:trace({ "15B:2407", "15B:2409" }))
end)

t.test("boxroute: naval adjacency and neighbours follow water routes", function()
  local b = crete()
  local net = boxroute.new(b)
  local nb = labels(b, net:neighbors("15B:2508"))
  t.ok(#nb >= 2)
  for _, l in ipairs(nb) do t.ok(l ~= "15B:2408" and l ~= "15B:2608", "no neighbour across Crete's spine: " .. l) end
  t.eq(net:adjacent("15B:2407", "15B:2406"), true)
  t.eq(net:adjacent("15B:2407", "15B:2409"), false)
end)

t.test("boxroute: errors name what is wrong", function()
  local b = crete()
  local net = boxroute.new(b)
  t.fails("not a hex ships may enter", net:path("15B:2003", "15B:2103"))
  t.fails("no coast 7", net:path("15B:2407", "15B:2406", { coast = 7 }))
  t.fails("within 0 sea boxes", net:path("15B:2407", "15B:3012", { boxes = 0 }))
  t.raises(function() net:reach("15B:2407", -1) end, "boxes 0..")
  local nobox = assert(keel.board.load_string("map \"x\"\nhexes flat even\nsection A at 0 0 size 3 3\ndefault all-sea\n", "x.map"))
  t.raises(function() boxroute.new(nobox) end, "no sea boxes")
end)

t.test("ctx:boxroute: the game board's network, read-only; ctx:pick journaled with the rule's id", function()
  local dir = t.tmpdir()
  os.execute("mkdir -p " .. dir .. "/probe")
  local f = assert(io.open(dir .. "/probe/manifest.lua", "w"))
  f:write('return family { name = "probe", files = { "r.lua" } }\n')
  f:close()
  f = assert(io.open(dir .. "/probe/r.lua", "w"))
  f:write([[
rule { id = "P.1", title = "probe",
  queries = {
    pick3 = function(ctx) return ctx:pick({ "a", "b", "c" }, { reason = "probe pick" }) end,
    boxes = function(ctx, a, b) return select(2, ctx:boxroute():path(a, b)) end,
    poke = function(ctx) ctx:boxroute().path = nil end,
  },
}
]])
  f:close()
  local set = rules.load { families = { "probe" }, path = { dir } }
  local g = game_mod.new { seed = 3, board = crete() }
  g.dice:force(3)
  t.eq(set:query(g, "pick3"), "c")
  t.ok(g:journal_text():find('"rule":"P.1"', 1, true))
  t.ok(g:journal_text():find('"reason":"probe pick"', 1, true))
  t.eq(set:query(g, "boxes", "15B:2407", "15B:2508"), 0)
  t.raises(function() set:query(g, "poke") end, "read-only")
end)

-- The Rule 27 showcase (scenarios/seabox_crete_1941.lua) on its map
-- (scenarios/maps/seabox_med.map): the map's sea zones and boxes, the run
-- with every expectation met, and the picture with the sea-box overlay. Its
-- journal is compared byte for byte in golden_test.lua.
local t = require "keel.testing"
local keel = require "keel"

t.test("27.B.1: the showcase map has the three sea zones, overlaid with sea boxes 5 hexes across", function()
  local b = assert(keel.board.load("scenarios/maps/seabox_med.map"))
  t.eq(b:zones(), { "Atlantic Ocean", "Mediterranean Sea", "Red Sea" })
  t.eq((b:get_seaboxes()), 2)
  t.eq(b:get_zone(b:hex("14A:0220")), "Atlantic Ocean")
  t.eq(b:get_zone(b:hex("15B:2407")), "Mediterranean Sea")
  t.eq(b:get_zone(b:hex("19A:3922")), "Red Sea")
  t.eq({ b:get_terrain(b:hex("15B:2508")), b:get_port(b:hex("15B:2508")).size }, { "coastal", "minor" })
  local kasos, owner = b:hex("Kasos"), nil
  for _, o in ipairs(require("keel.map").get_owners(b)) do
    for _, h in ipairs(o.hexes) do if h == kasos then owner = o.side end end
  end
  t.eq({ b:get_cd(kasos), owner }, { 2, "Axis" })
  local net = require("keel.boxroute").new(b)
  t.ok(net:path("Gibraltar", "Alexandria"), "the Atlantic and the Mediterranean meet at Gibraltar")
  t.fails("no water route", net:path("Alexandria", "19A:3922"))
end)

t.test("showcase: every order as expected; the SVG draws the sea boxes and the units", function()
  local svg = t.tmpdir() .. "/crete.svg"
  local status, out = t.sh(t.keel_bin .. " run scenarios/seabox_crete_1941.lua --svg " .. svg)
  t.eq(status, 0, out)
  t.ok(out:find("result: 45 order(s), 45 as expected, 0 not", 1, true), out)
  t.ok(out:find("result: winner Allied, scores Allied 2 (2 RE or more of the Allies ashore at Heraklion", 1, true), out)
  t.ok(out:find("bombing hit 2 of 3: to the SF", 1, true))
  t.ok(out:find("reduced to its cadre 2-6* Inf cadre", 1, true))
  t.ok(out:find("passes 15B:2909 outside the coast defence zone of 15B:3008 (CD 2), reduced by night", 1, true))
  t.ok(out:find("Force B is known to the enemy while it stays at 15B:2407", 1, true))
  t.ok(out:find("Force B has left 15B:2407: unknown to the enemy again", 1, true))
  local text = assert(t.read_file(svg))
  t.ok(text:find('<g id="seaboxes"', 1, true), "the sea-box overlay")
  t.ok(text:find("sea box outline", 1, true), "in the legend")
  t.ok(text:find('<g id="units"', 1, true), "the units")
end)

-- ---- games played by random legal orders (issue 26) ------------------------------------

local scenario = require "keel.scenario"
local D = dofile("tests/lua/domains_fixture.lua")

-- Play `path` by random orders for the side to decide (a seeded dice
-- stream picks uniformly an available action, then one of its orders),
-- at most `limit` orders: every order offered is accepted, and listing
-- leaves the state hash unchanged. The run and the number of orders.
local function random_play(path, seed, limit)
  local run = scenario.start(scenario.load(path))
  local set, game = run.set, run.game
  local dice = keel.dice.new(seed)
  -- 1..n uniformly (dice have at most 1000 sides: two rolls, and a retry past a whole multiple of n)
  local function pick(n)
    if n == 1 then return 1 end
    if n <= 1000 then return (dice:roll("1d" .. n)) end
    local top = 1000000 - 1000000 % n
    while true do
      local v = ((dice:roll("1d1000")) - 1) * 1000 + (dice:roll("1d1000")) - 1
      if v < top then return v % n + 1 end
    end
  end
  local n = 0
  while n < limit do
    local status = set:status(game)
    if status.over then break end
    local side = status.active[1]
    local before = game:hash_hex()
    local entries = set:legal_actions(game, side)
    t.eq(game:hash_hex(), before, "listing the legal actions leaves the state as it was")
    local offered = {}
    for _, e in ipairs(entries) do
      if e.available ~= false then
        local orders = D.orders(e)
        if #orders > 0 then offered[#offered + 1] = orders end
      end
    end
    t.ok(#offered > 0, "the side to decide always has an order (end_phase at least)")
    local orders = offered[pick(#offered)]
    local o = orders[pick(#orders)]
    local ok, why = set:act(game, o.action, o.params, side)
    t.ok(ok, ("order %d: %s by %s: %s"):format(n + 1, o.action, side, tostring(why)))
    n = n + 1
  end
  return run, n
end

t.test("26-seabox-random-play: the house rules game, played by random legal orders, ends with a result", function()
  for _, seed in ipairs { 1, 2 } do
    local run, n = random_play("scenarios/seabox_house_rules.lua", seed, 200)
    local r = run.game:result()
    t.ok(r.over, ("seed %d: over after %d orders"):format(seed, n))
    t.ok(r.scores.Allied ~= nil and r.scores.Axis ~= nil, "both sides scored")
    t.ok(r.reason:find("the higher score", 1, true) or r.reason:find("no victory condition", 1, true), r.reason)
  end
end)

t.test("26-seabox-random-play: Crete, 12 random legal orders: each accepted, listing changes nothing", function()
  local run, n = random_play("scenarios/seabox_crete_1941.lua", 6, 12)
  t.eq(n, 12)
  t.eq(run.game:get_global("turn"), 1)
end)

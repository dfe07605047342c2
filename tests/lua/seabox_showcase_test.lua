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

-- route_test.lua — keel.route from Lua: cost maps, reach sets, paths, the
-- 27.B.5 two-coast hex, and the errors a rule author sees.
local keel = require "keel"
local t = require "keel.testing"
local hex, route = keel.hex, keel.route
local H = hex.from_qr

local function sea(size)
  return route.costmap { q0 = -size, r0 = -size, width = 2 * size + 1, height = 2 * size + 1,
                         enter = 1, cross = 0 }
end

t.test("route: reach on open sea covers the disk within the budget, in cost order", function()
  local m = sea(10)
  local r = m:reach(H(0, 0), 3)
  t.eq(r:count(), 37)
  local last = 0
  for _, h in ipairs(r:hexes()) do
    local c = r:cost(h)
    t.eq(c, hex.distance(h, H(0, 0)))
    t.ok(c >= last)
    last = c
  end
  t.fails("not reachable", r:cost(H(4, 0)))
  t.fails("not reachable", r:path(H(9, 9)))
end)

t.test("route: enter and crossing costs; prohibited hexsides; the cheapest path", function()
  local m = sea(6)
  m:set_enter(H(1, 0), 3)
  m:set_cross(hex.side_between(H(0, 0), H(0, 1)), route.BLOCKED)
  t.eq(m:enter_cost(H(1, 0)), 3)
  t.eq(m:cross_cost(hex.side_between(H(0, 1), H(0, 0))), route.BLOCKED)
  local r = m:reach(H(0, 0), 10)
  t.eq(r:cost(H(1, 0)), 3)
  t.eq(r:cost(H(0, 1)), 2)
  local p = r:path(H(0, 1))
  t.eq(#p, 3)
  t.eq(p[1], H(0, 0))
  t.eq(p[3], H(0, 1))
  t.eq(hex.distance(p[1], p[2]) + hex.distance(p[2], p[3]), 2)
end)

t.test("27.B.5-route: a hex with two coasts is left only on the coast it was entered from", function()
  local m = sea(6)
  for d = 0, 5 do m:set_coast(H(0, 0), d, (d == 0 or d == 1 or d == 5) and 2 or 1) end
  for _, h in ipairs { H(0, -1), H(0, 1), H(1, -1), H(-1, 1) } do m:set_enter(h, route.BLOCKED) end
  local r = m:reach(H(-1, 0), 20)
  t.eq(r:cost(H(0, 0)), 1)
  t.ok(r:cost(H(1, 0)) > 2, "not straight through the two-coast hex")
  for _, h in ipairs(r:path(H(1, 0))) do t.ok(h ~= H(0, 0)) end
  t.eq(m:reach(H(0, 0), 20):cost(H(1, 0)), 1)       -- from port: either coast
  t.ok(m:reach(H(0, 0), 20, 1):cost(H(1, 0)) > 2)   -- on the west coast: round about
end)

t.test("route: the same reach twice gives the same order and paths", function()
  local m = sea(8)
  local a, b = m:reach(H(0, 0), 5), m:reach(H(0, 0), 5)
  t.eq(a:hexes(), b:hexes())
  for _, h in ipairs(a:hexes()) do t.eq(a:path(h), b:path(h)) end
end)

t.test("route: misuse raises with what was expected; off the map is nil and a reason", function()
  local m = sea(2)
  t.raises(function() m:set_enter(H(0, 0), -1) end, "cost 0..65520 or keel.route.BLOCKED expected, got -1")
  t.raises(function() m:set_enter(H(9, 9), 1) end, "hex is not on the board")
  t.raises(function() m:set_coast(H(0, 0), 7, 1) end, "direction 0..5 expected")
  t.raises(function() m:reach(H(0, 0), -3) end, "budget 0..1048576 expected")
  t.raises(function() route.costmap { width = 0, height = 3 } end, "width and height must be 1..16384")
  t.fails("not on the board", m:reach(H(5, 5), 3))
end)

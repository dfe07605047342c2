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
  t.eq(m:get_enter(H(1, 0)), 3)
  t.eq(m:get_cross(hex.side_between(H(0, 1), H(0, 0))), route.BLOCKED)
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

-- a map with every kind of edge: costs 1..5, 254 and 300 (the search adds
-- those itself), blocked hexes and sides; `zero` adds 0-cost hexes
local function mixed(size, zero)
  local m, x = sea(size), 12345
  local function roll(n) x = (x * 1103515245 + 12345) % 2147483648; return x % n end
  local costs = { 1, 2, 3, 5, 1, 1, 254, 300, route.BLOCKED, zero and 0 or 1 }
  for q = -size, size do
    for r = -size, size do
      local h = H(q, r)
      m:set_enter(h, costs[roll(#costs) + 1])
      if roll(4) == 0 and q < size then
        m:set_cross(hex.side_between(h, H(q + 1, r)), roll(2) == 0 and route.BLOCKED or 2)
      end
    end
  end
  return m
end

-- the plain Dijkstra a reach must agree with, over m:step
local function dijkstra(m, size, start, budget)
  local dist, done = { [start] = 0 }, {}
  while true do
    local u
    for h, d in pairs(dist) do
      if not done[h] and (not u or d < dist[u] or (d == dist[u] and h < u)) then u = h end
    end
    if not u then return dist end
    done[u] = true
    for _, v in ipairs(hex.neighbors(u)) do
      local q, r = hex.to_qr(v)
      if math.abs(q) <= size and math.abs(r) <= size then
        local c = m:step(u, v)
        if c and dist[u] + c <= budget and (not dist[v] or dist[u] + c < dist[v]) then
          dist[v] = dist[u] + c
        end
      end
    end
  end
end

t.test("route: reach agrees with a plain Dijkstra, small and large budgets; ties go to the lower hex id", function()
  for _, zero in ipairs { false, true } do
    local m = mixed(6, zero)
    for _, budget in ipairs { 0, 4, 9, 253, 254, 300, 700 } do
      local want, r = dijkstra(m, 6, H(0, 0), budget), m:reach(H(0, 0), budget)
      local n = 0
      for _ in pairs(want) do n = n + 1 end
      t.eq(r:count(), n)
      for h, c in pairs(want) do
        t.eq(r:cost(h), c)
        local p = r:path(h)
        t.eq(p[#p], h)
        if #p > 1 and not zero then   -- the predecessor: the lowest id of the cheapest
          local best
          for _, v in ipairs(hex.neighbors(h)) do
            local s = want[v] and m:step(v, h)
            if s and want[v] + s == c and (not best or v < best) then best = v end
          end
          t.eq(p[#p - 1], best)
        end
      end
    end
  end
end)

t.test("route: a reach set answers after a collection and after close; an aborted search leaves no trace", function()
  local m = mixed(6)
  local r = m:reach(H(0, 0), 40)
  local cost, path = r:cost(H(3, 3)), r:path(H(3, 3))
  collectgarbage()
  collectgarbage()
  t.eq(r:cost(H(3, 3)), cost)
  getmetatable(r).__close(r)   -- drops the index
  t.eq(r:path(H(3, 3)), path)
  do
    local c <close> = m:reach(H(0, 0), 40)
    t.eq(c:cost(H(3, 3)), cost)
  end
  local calls = 0
  t.raises(function()
    m:reach(H(0, 0), 300, { allow = function()
      calls = calls + 1
      if calls > 20 then error("boom") end
      return true
    end })
  end, "boom")
  local again = m:reach(H(0, 0), 40)
  t.eq(again:hexes(), r:hexes())
  t.eq(again:path(H(3, 3)), path)
end)

t.test("route: a reach set answers the same after later searches, after its cost map is closed or collected", function()
  local function check(r, from, budget, size)
    for q = -size - 1, size + 1 do
      for rr = -size - 1, size + 1 do
        local h, d = H(q, rr), hex.distance(H(q, rr), from)
        if math.abs(q) <= size and math.abs(rr) <= size and d <= budget then
          t.eq(r:cost(h), d)
          t.eq(#r:path(h), d + 1)
        else
          t.fails("not reachable", r:cost(h))
        end
      end
    end
  end
  local m = sea(8)
  local a = m:reach(H(-4, 0), 3)
  check(a, H(-4, 0), 3, 8)              -- the cost map's latest search: lookups borrow its array
  local b = m:reach(H(4, 0), 2)
  check(b, H(4, 0), 2, 8)               -- a's hexes, stale in the map's array, are not b's
  check(a, H(-4, 0), 3, 8)              -- a later search: a builds its own index
  local c = m:reach(H(0, 0), 2)
  getmetatable(m).__close(m)
  check(c, H(0, 0), 2, 8)
  local d = sea(8):reach(H(1, 1), 2)    -- its cost map is garbage at once
  collectgarbage()
  collectgarbage()
  check(d, H(1, 1), 2, 8)
  t.eq(d:count(), 19)
end)

-- luacheck: max line length 140
-- bench/route_bench.lua — reach on a generated 256x256 board (65,536 hexes)
-- with the TF profile at budgets 15, 30 and 60 MPs: keel (route.c through its binding) beside
-- (a) a pure-Lua Dijkstra over the same costs and (b) the plain C bucket
-- queue in bench/route_baseline.c, all in this run. The baseline keeps no
-- queryable result (its distances are reset for the next call); keel's
-- figure is a reach set a rule can query, and the second line adds that
-- first query.
local keel = require "keel"
local lib = dofile("bench/lib.lua")
local hex = keel.hex

-- the board: a generated 256x256 even-q board (labels G:CCCRRR), all-sea
-- with all-land where (col*7 + row*13) % 11 == 0, and its cost map for a
-- task force: keel.route.from_board with the TF profile (the Naval MP Cost
-- Summary), as a rule builds it
local movement = require "keel.movement"
local nt = require("keel.testing").family_tables("navgroup")
local tf = movement.profile_from_table(nt.naval_mp_cost, "TF", movement.NAVAL_ROWS)
local board = keel.board.new { shift = "even", digits = 3, first_col = 0, first_row = 0 }
assert(board:add_section("G", 0, 0, 256, 256))
board:set_default_terrain("all-sea")
local lua_enter = {}
local sea_cost = assert(tf.enter["all-sea"])
for col = 0, 255 do
  for row = 0, 255 do
    local h = hex.from_offset("even-q", col, row)
    local land = (col * 7 + row * 13) % 11 == 0
    if land then assert(board:set_terrain(h, "all-land")) end
    local q, r = hex.to_qr(h)
    if not land then lua_enter[(q + 1024) * 4096 + r + 1024] = sea_cost end
  end
end
board:finish()
local m = keel.route.from_board(board, tf)
local start = hex.from_qr(128, 64)
local lua_start = (128 + 1024) * 4096 + 64 + 1024   -- pure Lua keys hexes as q*4096 + r

-- (a) pure-Lua Dijkstra with a binary heap over the same costs
local dirs = {}
for d = 0, 5 do
  local dq, dr = hex.direction(d)
  dirs[#dirs + 1] = dq * 4096 + dr
end
local function lua_reach(s, budget)
  local dist, heap, n = { [s] = 0 }, { { 0, s } }, 1
  local settled = {}
  local count = 0
  while n > 0 do
    local top = heap[1]
    heap[1] = heap[n]; heap[n] = nil; n = n - 1
    local i = 1
    while true do                                   -- sift down
      local l, r, small = 2 * i, 2 * i + 1, i
      if l <= n and heap[l][1] < heap[small][1] then small = l end
      if r <= n and heap[r][1] < heap[small][1] then small = r end
      if small == i then break end
      heap[i], heap[small] = heap[small], heap[i]
      i = small
    end
    local c, u = top[1], top[2]
    if not settled[u] then
      settled[u] = true
      count = count + 1
      for k = 1, 6 do
        local v = u + dirs[k]
        local e = lua_enter[v]
        if e then
          local nd = c + e
          if nd <= budget and (dist[v] == nil or nd < dist[v]) then
            dist[v] = nd
            n = n + 1
            heap[n] = { nd, v }
            local j = n                             -- sift up
            while j > 1 do
              local p = j // 2
              if heap[p][1] <= heap[j][1] then break end
              heap[p], heap[j] = heap[j], heap[p]
              j = p
            end
          end
        end
      end
    end
  end
  return count
end

-- (b) the plain C baseline
local baseline = {}
local p = io.popen("build/rel/bench/route_baseline")
for line in p:lines() do
  local b, us, n = line:match("^(%d+) ([%d.]+) (%d+)$")
  baseline[tonumber(b)] = { us = tonumber(us), n = tonumber(n) }
end
p:close()

for _, budget in ipairs { 15, 30, 60 } do
  local reached = m:reach(start, budget):count()
  assert(reached == lua_reach(lua_start, budget), "keel and pure Lua disagree")
  assert(baseline[budget] and baseline[budget].n == reached, "keel and the C baseline disagree")
  local keel_s = lib.time(function(n) for _ = 1, n do m:reach(start, budget) end end)
  local lua_s = lib.time(function(n) for _ = 1, n do lua_reach(lua_start, budget) end end)
  local c_s = baseline[budget].us * 1e-6
  print(("reach %2d MPs (%5d hexes): keel %8.1f µs %6.1f ns/hex | pure Lua %9.1f µs (%.1fx slower) | "
         .. "plain C, no result kept %8.1f µs (keel/C %.2f)")
    :format(budget, reached, keel_s * 1e6, keel_s * 1e9 / reached, lua_s * 1e6, lua_s / keel_s,
            c_s * 1e6, keel_s / c_s))
  -- what a rule does: reach, then query. Until the cost map's next search
  -- the set borrows the map's cell -> entry array: no index to build
  local far = hex.from_qr(128 + budget // 2, 64)
  local query_s = lib.time(function(n) for _ = 1, n do m:reach(start, budget):cost(far) end end)
  print(("   reach + first cost query (borrows the cost map's cell index): %.1f µs (keel/C %.2f)")
    :format(query_s * 1e6, query_s / c_s))
  -- after another search on the same map (a second task force nearby), the
  -- first query builds the set's own index
  local other = hex.from_qr(130, 60)
  local later_s = lib.time(function(n)
    for _ = 1, n do
      local r = m:reach(start, budget)
      m:reach(other, budget)
      r:cost(far)
    end
  end)
  local two_s = lib.time(function(n) for _ = 1, n do m:reach(start, budget); m:reach(other, budget) end end)
  print(("   two reaches, then a first cost query on the first (builds its own index): %.1f µs = two reaches %.1f µs + %.1f µs")
    :format(later_s * 1e6, two_s * 1e6, (later_s - two_s) * 1e6))
end

-- entry conditions: the same 30-MP reach with 50 enemy-held hexes, as a
-- blocked list (the fast path, in C) and as a Lua predicate (the slow path,
-- asked once per candidate hex per search)
local blocked, is_blocked = {}, {}
for k = 1, 50 do
  local h = hex.from_qr(128 + (k * 7) % 41 - 20, 64 + (k * 13) % 37 - 18)
  blocked[#blocked + 1] = h
  is_blocked[h] = true
end
local fast = m:reach(start, 30, { blocked = blocked }):count()
local slow = m:reach(start, 30, { allow = function(h) return not is_blocked[h] end }):count()
assert(fast == slow, "blocked list and predicate disagree")
local plain_s = lib.time(function(n) for _ = 1, n do m:reach(start, 30) end end)
local fast_s = lib.time(function(n) for _ = 1, n do m:reach(start, 30, { blocked = blocked }) end end)
local slow_s = lib.time(function(n)
  for _ = 1, n do m:reach(start, 30, { allow = function(h) return not is_blocked[h] end }) end
end)
print(("conditions, reach 30 MPs (%d hexes): plain %.1f µs | 50 blocked hexes (C) %.1f µs (%.2fx) | Lua predicate %.1f µs (%.2fx)")
  :format(fast, plain_s * 1e6, fast_s * 1e6, fast_s / plain_s, slow_s * 1e6, slow_s / plain_s))

-- a cost map straight from a board (one C pass), and a whole naval reach there
do
  local east = assert(keel.board.load("scenarios/maps/eastmed.map"))
  local build_s = lib.time(function(n)
    for _ = 1, n do keel.route.from_board(east, tf, { friendly = { "Allied" } }) end
  end)
  local cm = keel.route.from_board(east, tf, { friendly = { "Allied" } })
  local s0 = east:hex("15B:2407")
  local reach_s = lib.time(function(n) for _ = 1, n do cm:reach(s0, 15) end end)
  print(("eastmed.map (%d hexes): cost map from board + TF profile %.1f µs | TF reach 15 MPs (%d hexes, coasts) %.1f µs")
    :format(#east:hexes(), build_s * 1e6, cm:reach(s0, 15):count(), reach_s * 1e6))
end

-- tests/lua/seazone_reach_test.lua — issue 25: the sea-zone family's
-- sea_distance is the kernel's search over the board's zone graph
-- (ctx:zone_reach) rather than a breadth-first search of its own; its
-- answers are those of that search (written here as the reference), at
-- every step of the showcase, for each side, pair of zones and reach.
local t = require "keel.testing"
local scenario = require "keel.scenario"

-- the fewest sea zones from `from` to `to` for `side` within `max`: never
-- into a territory, leaving no hostile zone but the start
local function reference(set, game, from, to, side, max)
  if from == to then return 0 end
  local zones, index = game.board:zones(), {}
  for i, n in ipairs(zones) do index[n] = i end
  local dist, queue, head = { [from] = 0 }, { from }, 1
  while head <= #queue do
    local z = queue[head]
    head = head + 1
    if dist[z] >= max then break end
    if z == from or not set:query(game, "is_hostile", z, side) then
      for _, n in ipairs(game.board:zone_neighbors(zones[z]) or {}) do
        local i = index[n]
        if i and dist[i] == nil and set:query(game, "is_sea_zone", i) then
          dist[i] = dist[z] + 1
          if i == to then return dist[i] end
          queue[#queue + 1] = i
        end
      end
    end
  end
  return nil
end

t.test("25-sea-distance-1: sea_distance answers as a breadth-first search over sea zones, every step of the showcase", function()
  local run = scenario.start(scenario.load("scenarios/seazone_trident.lua"), {})
  local compared, differ, found = 0, {}, 0
  local function compare()
    local n = #run.game.board:zones()
    for _, side in ipairs({ "Allies", "Opfor" }) do
      for from = 1, n do
        for to = 1, n do
          for max = 0, 4 do
            local want = reference(run.set, run.game, from, to, side, max)
            local have = run.set:query(run.game, "sea_distance", from, to, side, max)
            compared = compared + 1
            if want then found = found + 1 end
            if want ~= have and #differ < 5 then
              differ[#differ + 1] = ("%d -> %d, %s, max %d: %s, want %s"):format(from, to, side, max, tostring(have),
                tostring(want))
            end
          end
        end
      end
    end
  end
  run:play_all(function(what) if what == "start" then compare() end end)
  compare()
  t.eq(differ, {})
  t.ok(compared > 10000 and found > 1000, ("compared %d, %d in reach"):format(compared, found))
end)

t.test("25-sea-distance-2: ctx:zone_reach stops at a stop zone, never enters a blocked one, leaves the start", function()
  local dir = t.tmpdir()
  os.execute("mkdir -p " .. dir .. "/probe")
  local f = assert(io.open(dir .. "/probe/manifest.lua", "w"))
  f:write('return family { name = "probe", files = { "r.lua" } }\n')
  f:close()
  f = assert(io.open(dir .. "/probe/r.lua", "w"))
  f:write([[
rule { id = "P.1", title = "probe",
  queries = { probe = function(ctx, from, budget, opts) return ctx:zone_reach(from, budget, opts) end },
}
]])
  f:close()
  local set = require("keel.rules").load { families = { "probe" }, path = { dir } }
  local game = require("keel.game").new { board = assert(require("keel").board.load("scenarios/maps/seazone.map")) }
  local got
  local zones = game.board:zones()
  got = set:query(game, "probe", zones[1], 9)
  t.eq(got[zones[1]], 0)
  local all = 0
  for _ in pairs(got) do all = all + 1 end
  t.eq(all, #zones, "every zone of the board reached")
  local one = set:query(game, "probe", zones[1], 1)
  for _, n in ipairs(game.board:zone_neighbors(zones[1])) do t.eq(one[n], 1, n) end
  -- every neighbour a stop: nothing past them; the start is left though it is listed
  local stops = game.board:zone_neighbors(zones[1])
  local stopped = set:query(game, "probe", zones[1], 9, { stop = stops, blocked = {} })
  for name, cost in pairs(stopped) do t.ok(cost <= 1, name .. " past a stop") end
  local blocked = set:query(game, "probe", zones[1], 9, { blocked = stops })
  for name in pairs(blocked) do t.eq(name, zones[1], "only the start when every neighbour is blocked") end
  t.eq({ set:query(game, "probe", "Atlantis", 2) }, { nil, "area_reach: unknown area 'Atlantis'" })
end)

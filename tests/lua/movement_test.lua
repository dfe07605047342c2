-- movement_test.lua — the movement engine (keel.movement over keel.route):
-- profiles from the Naval MP Cost Summary, cost maps from boards, masks and
-- predicates, reach and paths, step-by-step execution, sea boxes and zones.
local t = require "keel.testing"
local keel = require "keel"
local movement = require "keel.movement"
local game_mod = require "keel.game"
local nt = t.family_tables("navgroup")

local maps = {}
local function load(name)
  if not maps[name] then maps[name] = assert(keel.board.load("scenarios/maps/" .. name .. ".map")) end
  return maps[name]
end
local function profile(col) return movement.profile_from_table(nt.naval_mp_cost, col, movement.NAVAL_ROWS) end
local function labels(b, hexes)
  local l = {}
  for i, h in ipairs(hexes) do l[i] = b:format(h) end
  return l
end

-- 32.A.3: the movement rows of the Naval MP Cost Summary, per column -------------
t.test("32.A.3-1: profiles from the MP Cost Summary: enter all-sea, coastal, river per column", function()
  local want = { TF = { 1, 2, 1 }, NT = { 1, 2, 1 }, LC = { 1, 2, 1 }, LB = { 2, 3, 2 } }
  for _, col in ipairs { "TF", "NT", "LC", "LB" } do
    local p = profile(col)
    t.eq(p.name, col)
    t.eq({ p.enter["all-sea"], p.enter.coastal, p.river }, want[col], col)
    t.eq(p.enter["all-land"], nil, col .. ": land not listed, so not entered")
    t.ok(p.water_route)
  end
end)

t.test("32.A.3-2: (eastmed) reach costs follow the profile: all-sea 1/2, coastal 2/3 (TF/LB)", function()
  local b = load("eastmed")
  local eng = movement.new(b)
  for col, c in pairs { TF = { 1, 2 }, LB = { 2, 3 } } do
    local r = assert(eng:reach(profile(col), "15B:2407", 15))
    t.eq(r:cost(b:hex("15B:2406")), c[1], col .. " all-sea neighbour")
    t.eq(r:cost(b:hex("15B:2508")), c[2], col .. " coastal Heraklion")
    t.eq(r:cost(b:hex("15B:2407")), 0)
  end
end)

t.test("32.A-1: no restricted waters, no land; a cost map is built in C from the board", function()
  local b = load("eastmed")
  local m = movement.new(b):costmap(profile("TF"))
  t.eq(tostring(m), "keel.CostMap")
  t.eq(m:get_enter(b:hex("15B:0101")), keel.route.BLOCKED)     -- all-land
  t.eq(m:get_enter(b:hex("15B:2407")), 1)
  t.eq(m:get_enter(b:hex("15B:2508")), 2)
end)

-- 27.B.5 through the engine: coasts come from the board ----------------------------
t.test("27.B.5-4: (eastmed) entered from the north, Heraklion is left only to the north", function()
  local b = load("eastmed")
  local eng = movement.new(b)
  local m = eng:costmap(profile("TF"))
  t.ok(m:has_coasts(), "Crete's coastal hexes have two coasts")
  local r = assert(eng:reach(profile("TF"), "15B:2407", 30))
  local path = r:path(b:hex("15B:2509"))   -- south of Crete: round the island, not through 2508
  t.ok(path)
  for _, h in ipairs(path) do t.ok(b:format(h) ~= "15B:2508", "not through Heraklion") end
  -- step by step: into 2508 from the north, then south is refused
  local cost, coast = m:step(b:hex("15B:2407"), b:hex("15B:2508"), 0)
  t.eq(cost, 2)
  t.eq(m:step(b:hex("15B:2508"), b:hex("15B:2509"), coast), nil)
  t.ok(m:step(b:hex("15B:2508"), b:hex("15B:2407"), coast))
end)

-- masks: the fast paths in C ----------------------------------------------------------
-- a game on board b (owners seeded from the map) and an engine reading its owners
local function game_on(b)
  local g = game_mod.new { board = b }
  return g, movement.new(b, g.state)
end

t.test("32.A.5-1: (straits) 33:1225-1224-1324 is illegal while 33:1223 and 1224 are enemy-owned", function()
  local b = load("straits")
  local _, eng = game_on(b)
  local allied = { profile = profile("TF"), friendly = { "Allied" },
                   conditions = { both_friendly = { "narrow-strait" } } }
  local m = eng:costmap(allied)
  t.eq(m:step(b:hex("33:1224"), b:hex("33:1324")), nil, "through the strait")
  local axis = { profile = profile("TF"), friendly = { "Axis" },
                 conditions = { both_friendly = { "narrow-strait" } } }
  t.ok(eng:costmap(axis):step(b:hex("33:1224"), b:hex("33:1324")), "the owner passes")
  local r = assert(eng:reach(allied, "33:1225", 15))
  local c1 = r:cost(b:hex("33:1324"))
  local r2 = assert(eng:reach(axis, "33:1225", 15))
  t.eq(r2:cost(b:hex("33:1324")), 3, "1225-1224-1324: 2 + 1")
  t.ok(c1 == nil or c1 > 3, "the Allied group must go round, if it can at all")
end)

t.test("masks: friendly_only terrain and closed sides are applied in C", function()
  local b = load("straits")
  local _, eng = game_on(b)
  local g = { profile = profile("TF"), friendly = { "Allied" }, conditions = { friendly_only = { "coastal" } } }
  local m = eng:costmap(g)
  t.eq(m:get_enter(b:hex("33:1224")), keel.route.BLOCKED, "enemy coastal hex")
  t.eq(m:get_enter(b:hex("33:1225")), 1, "all-sea is not restricted")
  local closed = eng:costmap { profile = profile("TF"), conditions = { closed = { "all-water" } } }
  t.eq(closed:step(b:hex("33:1225"), b:hex("33:1125")), nil, "an all-water side, closed")
  t.ok(eng:costmap(profile("TF")):step(b:hex("33:1225"), b:hex("33:1125")))
  t.raises(function() eng:costmap { profile = profile("TF"), conditions = { closed = { "nonesuch" } } } end,
    "unknown hexside feature or name 'nonesuch'")
  -- a side that owns no hex: every coastal hex is closed to it
  local m2 = eng:costmap { profile = profile("TF"), friendly = { "Martians" }, conditions = { friendly_only = { "coastal" } } }
  t.eq(m2:get_enter(b:hex("33:1326")), keel.route.BLOCKED, "Allied coastal hex, not the Martians'")
  t.eq(m:get_enter(b:hex("33:1326")), 2, "the Allies' own coastal hex")
  -- friendly conditions need the owners; conditions without them do not
  t.raises(function() movement.new(b):costmap(g) end, "needs the game state")
  t.raises(function() keel.route.from_board(b, profile("TF"), { friendly_only = { "coastal" } }) end,
    "owners (a keel.State) expected")
  t.ok(movement.new(b):costmap { profile = profile("TF"), friendly = { "Allied" } })
end)

-- owners are game state: the cost maps follow the state's owners, per game -----------
local function strait_group(side)
  return { profile = profile("TF"), friendly = { side }, conditions = { both_friendly = { "narrow-strait" } } }
end
local function through_strait(eng, b, side)
  return eng:costmap(strait_group(side)):step(b:hex("33:1224"), b:hex("33:1324")) ~= nil
end

t.test("32.A.5-2: (straits) two games on one board do not see each other's owners", function()
  local b = load("straits")
  local g1, e1 = game_on(b)
  local g2, e2 = game_on(b)
  t.ok(not through_strait(e1, b, "Allied") and not through_strait(e2, b, "Allied"))
  g1:set_owner(b:hex("33:1223"), "Allied")
  g1:set_owner(b:hex("33:1224"), "Allied")
  t.ok(through_strait(e1, b, "Allied"), "game 1: both strait hexes are Allied now")
  t.ok(not through_strait(e2, b, "Allied"), "game 2: still Axis")
  t.ok(through_strait(e2, b, "Axis") and not through_strait(e1, b, "Axis"))
  -- what depends on the board alone is one object for both
  t.ok(e1:costmap(profile("TF")) == e2:costmap(profile("TF")), "board-only cost map shared")
  t.ok(e1:costmap(strait_group("Allied")) ~= e2:costmap(strait_group("Allied")), "owner-read maps are not")
  t.eq(g2.state:get_owner(b:hex("33:1224")), "Axis")
end)

t.test("32.A.5-4: (straits) games whose strait hexes have the same owners share one cost map", function()
  local b = load("straits")
  local g1, e1 = game_on(b)
  local g2, e2 = game_on(b)
  local hexes = keel.route.owner_hexes(b, { owners = g1.state, friendly = { "Allied" },
                                            both_friendly = { "narrow-strait" } })
  t.ok(#hexes >= 2, "the hexes of the narrow straits")
  local listed = {}
  for _, h in ipairs(hexes) do listed[h] = true end
  t.ok(listed[b:hex("33:1223")] and listed[b:hex("33:1224")], "33:1223/1224 is a narrow strait")
  t.ok(not listed[b:hex("33:1326")], "a hex at no strait is not read")
  t.eq(#keel.route.owner_hexes(b, { owners = g1.state }), 0, "no friendly conditions: no owners read")
  t.ok(e1:costmap(strait_group("Allied")) == e2:costmap(strait_group("Allied")), "same owners there: one map")
  g2:set_owner(b:hex("33:1326"), "Allied")   -- not a strait hex: the same map still
  t.ok(e1:costmap(strait_group("Allied")) == e2:costmap(strait_group("Allied")))
  g2:set_owner(b:hex("33:1223"), "Allied")
  g2:set_owner(b:hex("33:1224"), "Allied")
  t.ok(e1:costmap(strait_group("Allied")) ~= e2:costmap(strait_group("Allied")), "owners differ there: two maps")
  t.ok(through_strait(e2, b, "Allied") and not through_strait(e1, b, "Allied"))
end)

t.test("32.A.5-3: (straits) a rollback, an undo and a redo of an owner change bring the costs with them", function()
  local b = load("straits")
  local g, eng = game_on(b)
  local r0 = assert(eng:reach(strait_group("Allied"), "33:1225", 15))
  local before = r0:cost(b:hex("33:1324"))
  local ok = g:try(function(game)
    game:set_owner(b:hex("33:1223"), "Allied")
    game:set_owner(b:hex("33:1224"), "Allied")
    t.ok(through_strait(eng, b, "Allied"), "inside the transaction: open")
    error("rule 32.A.5: changed my mind")
  end)
  t.ok(not ok)
  t.ok(not through_strait(eng, b, "Allied"), "rolled back: closed again")
  t.eq(assert(eng:reach(strait_group("Allied"), "33:1225", 15)):cost(b:hex("33:1324")), before)
  g:action("take the strait", function(game)
    game:set_owner(b:hex("33:1223"), "Allied")
    game:set_owner(b:hex("33:1224"), "Allied")
  end)
  t.ok(through_strait(eng, b, "Allied"))
  t.eq(assert(eng:reach(strait_group("Allied"), "33:1225", 15)):cost(b:hex("33:1324")), 3, "1225-1224-1324: 2 + 1")
  g:undo()
  t.ok(not through_strait(eng, b, "Allied"), "undone: closed")
  t.eq(assert(eng:reach(strait_group("Allied"), "33:1225", 15)):cost(b:hex("33:1324")), before)
  g:redo()
  t.ok(through_strait(eng, b, "Allied"), "redone: open")
end)

t.test("32.A.5-5: (straits) a mover steps by the owners as they are at each step", function()
  local b = load("straits")
  local g, eng = game_on(b)
  local allied = { profile = profile("TF"), friendly = { "Allied" }, hex = "33:1225", allowance = 15, spent = 0,
                   conditions = { both_friendly = { "narrow-strait" } } }
  local mv = assert(eng:mover(allied, { hex_entered = function(_, ev)
    -- a rule hands the strait's hexes over as the group enters 33:1224
    if b:format(ev.hex) == "33:1224" then
      g:set_owner(b:hex("33:1223"), "Allied")
      g:set_owner(b:hex("33:1224"), "Allied")
    end
  end }))
  t.eq(mv:can_enter("33:1224") ~= nil, true)
  t.eq(mv:step("33:1224"), "moved")
  t.eq(mv:step("33:1324"), "moved", "through the strait, now both Allied")
  g:set_owner(b:hex("33:1224"), "Axis")
  t.eq(select(2, mv:can_enter("33:1224")), "not allowed for TF", "and closed again behind it")
end)

t.test("options: blocked hexes (enemy groups at sea) and stop hexes, per search", function()
  local b = load("eastmed")
  local eng = movement.new(b)
  local tf = profile("TF")
  local r0 = assert(eng:reach(tf, "15B:2407", 3))
  local r1 = assert(eng:reach(tf, "15B:2407", 3, { blocked = { "15B:2406" } }))
  t.eq(r1:cost(b:hex("15B:2406")), nil)
  t.ok(r1:count() < r0:count())
  local r2 = assert(eng:reach(tf, "15B:2407", 3, { stop = { "15B:2406" } }))
  t.eq(r2:cost(b:hex("15B:2406")), 1, "a stop hex is entered...")
  local via = r2:path(b:hex("15B:2405"))
  for _, h in ipairs(via) do t.ok(b:format(h) ~= "15B:2406" or h == via[#via], "...but not left") end
  -- the cost map is unchanged afterwards
  local r3 = assert(eng:reach(tf, "15B:2407", 3))
  t.eq(r3:count(), r0:count())
end)

t.test("predicates: the slow path asks once per candidate hex per search, and can refuse", function()
  local b = load("eastmed")
  local eng = movement.new(b)
  local asked, seen = 0, {}
  local r = assert(eng:reach(profile("TF"), "15B:2407", 4, { allow = function(h)
    asked = asked + 1
    t.ok(not seen[h], "asked once: " .. b:format(h))
    seen[h] = true
    return b:format(h) ~= "15B:2406"
  end }))
  t.ok(asked > 0)
  t.eq(r:cost(b:hex("15B:2406")), nil)
  t.raises(function()
    eng:reach(profile("TF"), "15B:2407", 4, { allow = function() error("rule 32.A.2: boom") end })
  end, "rule 32.A.2: boom")
  -- after an error the engine is clean: the same search again gives the same set
  local again = assert(eng:reach(profile("TF"), "15B:2407", 4))
  local plain = assert(eng:reach(profile("TF"), "15B:2407", 4))
  t.eq(again:hexes(), plain:hexes())
end)

-- reach and path ------------------------------------------------------------------------
t.test("reach/path: groups spend their allowance; ties break by cost then hex id; same every run", function()
  local b = load("eastmed")
  local eng = movement.new(b)
  local g = { profile = profile("TF"), allowance = 15, spent = 10 }
  local r = assert(eng:reach(g, "15B:2407"))
  for _, h in ipairs(r:hexes()) do t.ok(r:cost(h) <= 5) end
  local p1 = assert(eng:path(profile("TF"), "15B:2407", "19A:0505"))
  for _ = 1, 3 do
    local e2 = movement.new(load("eastmed"))
    t.eq(e2:path(profile("TF"), "15B:2407", "19A:0505"), p1)
  end
end)

t.test("errors: off-board start -> nil, reason; bad profile raises", function()
  local b = load("eastmed")
  local eng = movement.new(b)
  local r, why = eng:reach(profile("TF"), keel.hex.from_qr(900, 900), 15)
  t.eq(r, nil)
  t.ok(why:match("not on the board"), why)
  r, why = eng:reach(profile("TF"), "99Z:0101", 15)
  t.eq(r, nil)
  t.ok(why)
  t.raises(function() movement.profile { name = "x", enter = { swamp = 1 } } end, "unknown terrain class 'swamp'")
  t.raises(function() movement.profile { name = "x", cross = { bridge = 1 } } end, "unknown hexside feature 'bridge'")
  t.raises(function() eng:reach({ profile = "TF" }, "15B:2407", 15) end, "group.profile must be a movement.profile")
  t.raises(function() movement.profile_from_table(nt.naval_mp_cost, "XX", movement.NAVAL_ROWS) end,
    "no column 'XX'")
  local p, why2 = eng:path(profile("TF"), "15B:2407", "15B:0101")
  t.eq(p, nil)
  t.ok(why2:match("cannot be reached"))
end)

-- step-by-step execution ------------------------------------------------------------------
local function group(at, spent)
  return { profile = profile("TF"), friendly = { "Allied" }, hex = at, allowance = 15, spent = spent or 0 }
end

t.test("mover: hex by hex, each MP and each hex fires its event, the journal records it", function()
  local b = load("eastmed")
  local eng = movement.new(b)
  local events = {}
  local g = group("15B:2407")
  local mv = assert(eng:mover(g, {
    mp_spent = function(_, ev) events[#events + 1] = "mp " .. ev.spent end,
    hex_entered = function(_, ev) events[#events + 1] = "hex " .. b:format(ev.hex) end,
    stop = function(_, ev) events[#events + 1] = "stop " .. ev.reason end,
  }))
  t.eq(mv:move_along { "15B:2407", "15B:2406", "15B:2405" }, "done")
  t.eq(b:format(g.hex), "15B:2405")
  t.eq(g.spent, 2)
  t.eq(events, { "mp 1", "hex 15B:2406", "mp 2", "hex 15B:2405" })
  t.eq(mv:step("15B:2508"), nil, "not adjacent")
  local cost = assert(mv:step("15B:2406"))
  t.eq(cost, "moved")
  t.eq(mv:stop("orders"), "stopped")
  t.eq(events[#events], "stop orders")
  local j = mv:journal()
  t.eq(j[1].cause, "move"); t.eq(b:format(j[1].hex), "15B:2406"); t.eq(j[1].mp, 1)
  t.eq(j[#j].cause, "stop")
  t.eq(mv:step("15B:2407"), nil, "movement has ended")
end)

t.test("mover: a callback stops movement (combat zone entered)", function()
  local b = load("eastmed")
  local eng = movement.new(b)
  local g = group("15B:2407")
  local mv = eng:mover(g, { hex_entered = function(_, ev)
    if b:format(ev.hex) == "15B:2405" then return "stop" end
  end })
  t.eq(mv:move_along { "15B:2406", "15B:2405", "15B:2404" }, "stopped")
  t.eq(b:format(g.hex), "15B:2405")
  local j = mv:journal()
  t.eq(j[#j].by, "hex_entered")
end)

t.test("mover: pause for combat, spend a combat round, resume the rest of the path", function()
  local b = load("eastmed")
  local eng = movement.new(b)
  local g = group("15B:2407")
  local mv = eng:mover(g, { mp_spent = function(_, ev)
    if ev.spent == 2 and ev.cause == "move" then return "pause" end   -- e.g. a CD fire point
  end })
  t.eq(mv:move_along { "15B:2406", "15B:2405", "15B:2404" }, "paused")
  t.eq(b:format(g.hex), "15B:2405", "the hex whose MPs triggered it is entered")
  t.eq(mv:step("15B:2404"), nil, "paused (call resume)")
  t.eq(mv:spend(1, "combat_round"), "spent")
  t.eq(mv:resume(), "done")
  t.eq(b:format(g.hex), "15B:2404")
  t.eq(g.spent, 4)
  local causes = {}
  for _, s in ipairs(mv:journal()) do causes[#causes + 1] = s.cause end
  t.eq(causes, { "move", "move", "pause", "combat_round", "resume", "move" })
end)

t.test("32.A-2: a group may not spend more than its allowance; an illegal step changes nothing", function()
  local b = load("eastmed")
  local eng = movement.new(b)
  local g = group("15B:2407", 14)
  local mv = eng:mover(g)
  local ok, why = mv:step("15B:2508")
  t.eq(ok, nil)
  t.ok(why:match("not enough MPs %(2 needed, 1 left%)"), why)
  t.eq(g.spent, 14)
  t.eq(b:format(g.hex), "15B:2407")
  t.eq(mv:move_to("15B:2406"), "done")
  t.eq(g.spent, 15)
  local bad = eng:mover(group("15B:2407"), { hex_entered = function() return "maybe" end })
  t.raises(function() bad:step("15B:2406") end, "expected \"continue\", \"stop\" or \"pause\"")
end)

-- sea boxes and sea zones: the same search over graphs --------------------------------------
t.test("27.C sea boxes: (eastmed) reach over the box graph counts boxes, only boxes with sea", function()
  local b = load("eastmed")
  local eng = movement.new(b)
  local g = eng:box_graph()
  local nodes = g:count()
  t.ok(nodes > 10)
  local start = b:box_of("15B:2407")
  t.ok(g:has_node(start))
  t.ok(not g:has_node(b:box_of("15B:0101")) or b:get_terrain("15B:0101") ~= "all-land")
  local r = assert(g:reach(start, 1))
  local nbs = g:neighbors(start)
  t.eq(r:count(), #nbs + 1)
  for _, nb in ipairs(nbs) do t.eq(r:cost(nb), 1) end
  local r2 = assert(g:reach(start, 2))
  for _, x in ipairs(r2:hexes()) do t.eq(r2:cost(x), keel.seaboxes and r2:cost(x) or r2:cost(x)) end
  t.ok(r2:count() > r:count())
  t.eq(g:reach(keel.hex.from_qr(999, 999), 2), nil)
end)

t.test("sea zones: (eastmed) zone graph from the board; a zone move reaches the neighbours", function()
  local b = load("eastmed")
  local zg = movement.new(b):zone_graph()
  local costs = movement.area_reach(zg, "Aegean Sea", 1)
  t.eq(costs["Aegean Sea"], 0)
  t.eq(costs["Mediterranean Sea"], 1)
  t.eq(costs["Red Sea"], nil, "the Red Sea touches the Mediterranean only through Suez")
  local far = movement.area_reach(zg, "Aegean Sea", 5)
  t.eq(far["Red Sea"], b:zone_neighbors("Red Sea")[1] and 2 or nil)
end)

t.test("sea zones: a hand-made area graph (zone movement of 002), blocked zones and paths", function()
  local ag = movement.area_graph(
    { "North Atlantic", "Norwegian Sea", "North Sea", "Baltic", "Mediterranean", "Black Sea" },
    { { "North Atlantic", "Norwegian Sea" }, { "North Atlantic", "North Sea" },
      { "Norwegian Sea", "North Sea" }, { "North Sea", "Baltic" },
      { "North Atlantic", "Mediterranean" }, { "Mediterranean", "Black Sea" } })
  local costs, r = movement.area_reach(ag, "Baltic", 3)
  t.eq(costs, { Baltic = 0, ["North Sea"] = 1, ["North Atlantic"] = 2, ["Norwegian Sea"] = 2,
                Mediterranean = 3 })
  local path = {}
  for i, k in ipairs(r:path(ag.key["Mediterranean"])) do path[i] = ag.name[k] end
  t.eq(path, { "Baltic", "North Sea", "North Atlantic", "Mediterranean" })
  local hostile = movement.area_reach(ag, "Baltic", 3, { blocked = { "North Atlantic" } })
  t.eq(hostile.Mediterranean, nil)
  t.eq(hostile["Norwegian Sea"], 2)
  local stopped = movement.area_reach(ag, "Baltic", 5, { stop = { "North Sea" } })
  t.eq(stopped, { Baltic = 0, ["North Sea"] = 1 })
  t.raises(function() movement.area_graph({ "A" }, { { "A", "B" } }) end, "unknown area 'B'")
end)

t.test("graphs: errors and ties by key", function()
  t.raises(function() keel.route.graph { nodes = { 1, 1 } } end, "appears twice")
  t.raises(function() keel.route.graph { nodes = { 1 }, edges = { { 1, 2, 1 } } } end, "not in nodes")
  -- a diamond: 1 -> 3 and 1 -> 2 both cost 1, then to 4: the lower key (2) is the predecessor
  local g = keel.route.graph { nodes = { 4, 3, 2, 1 },
    edges = { { 1, 3, 1 }, { 1, 2, 1 }, { 3, 4, 1 }, { 2, 4, 1 } } }
  t.eq(g:reach(1, 5):path(4), { 1, 2, 4 })
  t.eq(g:reach(1, 5, { blocked = { 2 } }):path(4), { 1, 3, 4 })
end)

-- the worked example of doc/movement.md ----------------------------------------------------
t.test("doc/movement.md worked example", function()
  local b = assert(keel.board.load("scenarios/maps/eastmed.map"))
  local eng = movement.new(b)
  local tf = movement.profile_from_table(nt.naval_mp_cost, "TF", movement.NAVAL_ROWS)
  local g = { profile = tf, friendly = { "Allied" }, hex = "15B:2407", allowance = 15, spent = 0 }
  local path, cost = eng:path(g, g.hex, "15B:2404")
  t.eq(labels(b, path), { "15B:2407", "15B:2406", "15B:2405", "15B:2404" })
  t.eq(cost, 3)
  local log = {}
  local mv = eng:mover(g, {
    hex_entered = function(_, ev)
      log[#log + 1] = ("%s (%d MPs spent)"):format(b:format(ev.hex), ev.spent)
      if ev.spent == 2 then return "pause" end
    end,
  })
  t.eq(mv:move_along(path), "paused")
  t.eq(mv:resume(), "done")
  t.eq(log, { "15B:2406 (1 MPs spent)", "15B:2405 (2 MPs spent)", "15B:2404 (3 MPs spent)" })
end)

t.test("32.A.6 river graph: hexes and hexsides, 1 MP per riverine hexside (Sevilla)", function()
  local keel_ = require "keel"
  local mv = require "keel.movement"
  local b = assert(keel_.board.load("scenarios/maps/sevilla.map"))
  local eng = mv.new(b)
  local p = mv.profile_from_table(nt.naval_mp_cost, "NT", mv.NAVAL_ROWS)
  local rg = eng:river_graph(p)
  t.eq(eng:river_graph(p), rg)
  local from, to = { kind = "hex", id = b:hex("23A:3227") }, { kind = "side", id = b:side("23A:3224/3225") }
  local path, cost = rg:path(from, to)
  t.eq(cost, 6)
  t.eq(#path, 7)
  t.eq(rg:cost(from, { kind = "side", id = b:side("23A:3227/3327") }), 1)
  t.eq(rg:cost({ kind = "side", id = b:side("23A:3227/3327") }, from), 2)   -- into the coastal hex
  t.eq(rg:cost(from, to), nil)
  local lb = mv.profile_from_table(nt.naval_mp_cost, "LB", mv.NAVAL_ROWS)
  t.eq(select(2, eng:river_graph(lb):path(from, to)), 12)
  local r = rg:reach(from, 3, { stop = { { kind = "side", id = b:side("23A:3226/3327") } } })
  t.eq(#r, 4)   -- 3227, 3227/3327, 3327 (coastal, 1+2), 3226/3327 (stop)
end)

t.test("32.A.6 riverine sides: board:riverine_sides is every riverine hexside, in side order, per board", function()
  for _, name in ipairs { "sevilla", "suez", "corinth", "eastmed" } do
    local b = load(name)
    -- the long way: every side of every hex with a riverine feature
    local seen, want = {}, {}
    for _, h in ipairs(b:hexes()) do
      for _, n in ipairs(keel.hex.neighbors(h)) do
        local s = b:contains(n) and b:side(h, n)
        if s and not seen[s] then
          seen[s] = true
          if b:get_features(s).riverine then want[#want + 1] = s end
        end
      end
    end
    table.sort(want)
    t.eq(b:riverine_sides(), want, name)
    local e1, e2 = movement.new(b), movement.new(b)
    t.ok(e1:riverine_sides() == e2:riverine_sides(), name .. ": one list per board")
  end
  t.eq(#load("suez"):riverine_sides(), 12 + 5, "suez.map: 12 canal hexsides, 5 of the Nile")
end)

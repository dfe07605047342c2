-- tests/lua/navgroup_search_test.lua — 32.B NAVAL SEARCHES
-- (scripts/navgroup/search.lua), against the text of 004_0e2364863b8db0db.txt.
-- The rules are driven by the contract's events (group_enters_hex, mp_spent,
-- naval_step_start), emitted here the way the move action emits them; the
-- dice are forced so that each result is exact.
local t = require "keel.testing"
local keel = require "keel"
local rules = require "keel.rules"
local game_mod = require "keel.game"

local MAP = "tests/lua/data/navgroup_search.map"
local FAM = "tests/families"

-- The rule set: navgroup (its movement rules answer the shared queries) and
-- a probe that writes the events it sees into keyed values.
local function load_set(narrate)
  local set = rules.new { path = { FAM }, narrate = narrate }
  set:load_family("navgroup")
  set:load_family("navgroup_search_probe")
  set:finalize()
  return set
end

local W = {}
W.__index = W

local function world(opts)
  opts = opts or {}
  local b = assert(keel.board.load(MAP))
  local g = game_mod.new { seed = 1, board = b }
  g:seed_ownership(b)
  local w = setmetatable({ b = b, g = g, rolls = {}, says = {}, units = {}, groups = {} }, W)
  w.set = load_set(function(kind, data)
    if kind == "resolve" then w.rolls[#w.rolls + 1] = data.record end
    if kind == "say" then w.says[#w.says + 1] = data.text end
  end)
  g:set_global("phasing", "Allied")
  g:set_global("sea", opts.sea or "calm")
  g:set_global("night", false)
  w.set:emit(g, "naval_step_start", { side = "Allied", step = 1 })
  return w
end

function W:hex(label) return assert(self.b:hex(label)) end

function W:unit(name, type_, side, at, values, kind)
  local id = self.g:unit_new { name = name, type = type_, side = side, at = { kind or "hex", self:hex(at) },
    values = values }
  self.units[name] = id
  return id
end

-- a group of `types` (a list) at `at`
function W:group(name, side, at, types, attrs, kind)
  local ids = {}
  for i, ty in ipairs(types) do ids[i] = self:unit(name .. " " .. i, ty, side, at, nil, kind) end
  local gid = self.g:group_new { name = name, units = ids }
  for k, v in pairs(attrs or {}) do self.g:group_set_value(gid, k, v) end
  self.groups[name] = gid
  self.spent = self.spent or {}
  self.spent[gid] = 0
  return gid
end

function W:air(name, side, at, mission, range)
  return self:unit(name, "air", side, at, { mission = mission, range = range })
end

-- The moving group enters `to` (1 MP): group_enters_hex, then mp_spent.
function W:enter(gid, to, extra)
  local g, h = self.g, self:hex(to)
  for _, u in ipairs(g:group_units(gid)) do g:move(u, "hex", h) end
  self.spent[gid] = self.spent[gid] + 1
  local ev = { group = gid, to = h, cost = 1, spent = self.spent[gid], reacting = false }
  for k, v in pairs(extra or {}) do ev[k] = v end
  self.set:emit(g, "group_enters_hex", ev)
  self.set:emit(g, "mp_spent", { group = gid, hex = h, mp = 1, spent = self.spent[gid], activity = "enter",
    left_hex = true, night = ev.night, reacting = ev.reacting })
end

-- The moving group spends MPs in its hex (an activity).
function W:spend(gid, mp, extra)
  local g = self.g
  local h = self.set:query(g, "group_hex", gid)
  self.spent[gid] = self.spent[gid] + mp
  local ev = { group = gid, hex = h, mp = mp, spent = self.spent[gid], activity = "replenish", left_hex = false }
  for k, v in pairs(extra or {}) do ev[k] = v end
  self.set:emit(g, "mp_spent", ev)
end

-- The modifiers a search for gid at `at` would use: m, total, kinds.
function W:mods(gid, at, event, extra)
  local ev = { group = gid, to = self:hex(at) }
  if event == "spend" then ev.left_hex = false end
  for k, v in pairs(extra or {}) do ev[k] = v end
  return self.set:query(self.g, "search_modifiers", ev, event or "enter")
end

-- Force the next 2d6 so that the modified roll is `want` (a number, or a
-- result code: the first modified roll in its row that 2d6 can give) with
-- net modifier `total`.
local ROWS = { D = { -30, 3 }, ["F*"] = { 4, 6 }, F = { 7, 10 }, S = { 11, 13 }, ["S*"] = { 14, 40 } }
function W:force(want, total)
  local lo, hi = want, want
  if ROWS[want] then lo, hi = ROWS[want][1], ROWS[want][2] end
  for v = lo, hi do
    local need = v - total
    if need >= 2 and need <= 12 then
      local f1 = math.min(6, need - 1)
      self.g.dice:force(f1, need - f1)
      return
    end
  end
  error("no 2d6 faces give " .. tostring(want) .. " at " .. total)
end

function W:probe(k)
  if k ~= "attack_bases" then return self.g:get_keyed("probe", k) end
  -- the airbases of each attack, as labels: "A:3505,A:3905;A:3010"
  local attacks = {}
  for i = 1, self.g:count_keyed("probe_attack_base") do
    local key, hex = self.g:at_keyed("probe_attack_base", i)
    local list = attacks[key[1]] or {}
    attacks[key[1]] = list
    list[key[2]] = self.b:format(hex)
  end
  local out = {}
  for n, list in ipairs(attacks) do out[n] = table.concat(list, ",") end
  return #out > 0 and table.concat(out, ";") or nil
end
function W:last_roll() return self.rolls[#self.rolls] end
local function applied(rec)
  local out = {}
  for _, a in ipairs(rec.modifiers or {}) do out[a.name] = a.amount end
  return out
end

-- ---- 32.B.1 danger zone --------------------------------------------------------

t.test("32.B.1-1: entering an enemy danger zone calls for a search; contact activates reserves in port in the same sea zone", function()
  local w = world()
  local f = w:group("Force H", "Allied", "A:1310", { "TF" })
  local west = w:group("West reserve", "Axis", "A:1902", { "NT" }, { reserve = true, in_port = true }, "port")
  local east = w:group("East reserve", "Axis", "A:3010", { "NT" }, { reserve = true, in_port = true }, "port")
  local _, total = w:mods(f, "A:1410")
  w:force("S", total)
  w:enter(f, "A:1410")
  t.eq(#w.rolls, 1)
  t.eq(w:last_roll().result.code, "S")
  t.eq(w:probe("search_kinds"), "danger zone")
  t.eq(w:probe("activated_zone"), "West")
  t.eq(w.g:group_get_value(west, "activated"), true, "reserve in port in the same sea zone")
  t.ok(not w.g:group_get_value(east, "activated"), "not the other sea zone")
end)

t.test("32.B.1-2: a danger zone calls for a search on entering only, and not for the phasing side's own zone", function()
  local w = world()
  local f = w:group("Force H", "Allied", "A:1410", { "TF" })
  w:spend(f, 15)
  t.eq(#w.rolls, 0, "spending MPs inside the zone without entering")
  w = world()
  local a = w:group("Axis force", "Axis", "A:1310", { "TF" })
  w.g:set_global("phasing", "Axis")
  w:enter(a, "A:1411")
  t.eq(#w.rolls, 0, "the Axis danger zone is not an enemy zone for the Axis")
end)

-- ---- 32.B.2 naval patrol / naval strike --------------------------------------------

t.test("32.B.2-1: spending MPs within range of a naval patrol mission is rolled for; out of range it is not", function()
  local w = world()
  w:air("Ju88", "Axis", "A:3505", "naval patrol", 10)
  local f = w:group("Force H", "Allied", "A:2310", { "TF" })
  w:enter(f, "A:2410")                                        -- 11 hexes from the airbase
  t.eq(#w.rolls, 0)
  w:force(7, select(2, w:mods(f, "A:2510")))
  w:enter(f, "A:2510")                                        -- 10 hexes
  t.eq(#w.rolls, 1)
  t.eq(w:probe("search_kinds"), "naval patrol/strike")
  t.eq(applied(w:last_roll()).air_patrol, 1)
end)

t.test("32.B.2-2: a naval strike mission makes contact too; on contact reserves in port are activated and its air units may attack", function()
  local w = world()
  w:air("He111", "Axis", "A:3505", "naval strike", 12)
  local east = w:group("East reserve", "Axis", "A:3010", { "NT" }, { reserve = true, in_port = true }, "port")
  local f = w:group("Force H", "Allied", "A:2410", { "TF" })
  local m, total = w:mods(f, "A:2510")
  t.eq(m.air_patrol, 0, "strike units are not 'on naval air patrol'")
  w:force("S", total)
  w:enter(f, "A:2510")
  t.eq(w:last_roll().result.code, "S")
  t.eq(w.g:group_get_value(east, "activated"), true)
  t.eq(w:probe("attacks"), 1)
  t.eq(w:probe("attack_bases"), "A:3505")
end)

-- ---- 32.B.3 port interdiction / blockade --------------------------------------------

t.test("32.B.3-1: spending MPs in a hex with an enemy port interdiction marker: activation and a roll with its level", function()
  local w = world()
  local res = w:group("Reserve", "Axis", "A:1902", { "NT" }, { reserve = true, in_port = true }, "port")
  local f = w:group("Force H", "Allied", "A:0810", { "TF" })
  w.g:set_keyed("port_interdiction", { "Axis", w:hex("A:0810") }, 2)
  local m, total = w:mods(f, "A:0810", "spend")
  t.eq(m.port_interdiction, 2)
  w:force(8, total)                                           -- F: activation anyway
  w:spend(f, 15)
  t.eq(#w.rolls, 1)
  t.eq(w:last_roll().result.code, "F")
  t.eq(applied(w:last_roll()).port_interdiction, 2)
  t.eq(w.g:group_get_value(res, "activated"), true, "activated whatever the roll")
  -- the phasing side's own marker is not an enemy one
  w.g:set_keyed("port_interdiction", { "Axis", w:hex("A:0810") }, nil)
  w.g:set_keyed("port_interdiction", { "Allied", w:hex("A:0810") }, 2)
  t.eq(select(3, w:mods(f, "A:0810", "spend"))[1], nil)
end)

t.test("32.B.3-2: a blockade level in the hex (and a port interdiction tag on the board)", function()
  local w = world()
  local f = w:group("Force H", "Allied", "A:0810", { "TF" })
  w.g:set_keyed("blockade", { "Axis", w:hex("A:0810") }, 3)
  local m, _, kinds = w:mods(f, "A:0810", "spend")
  t.eq(m.blockade, 3)
  t.eq(kinds, { "blockade" })
  local b = assert(keel.board.load_string(io.open(MAP):read("a") .. "\ntag port_interdiction_3 A:0811\n", "pi.map"))
  local g2 = game_mod.new { seed = 1, board = b }
  local set = load_set()
  g2:set_global("phasing", "Allied")
  local u = g2:unit_new { name = "TF", type = "TF", side = "Allied", at = { "hex", b:hex("A:0811") } }
  local g = g2:group_new { name = "G", units = { u } }
  local m2 = set:query(g2, "search_modifiers", { group = g, to = b:hex("A:0811") }, "spend")
  t.eq(m2.port_interdiction, 3)
end)

-- ---- 32.B.4 enemy ground units --------------------------------------------------------

t.test("32.B.4-1: adjacent to (or in the hex of) an enemy ground unit: activation and a roll; two hexes away nothing", function()
  local w = world()
  local res = w:group("Reserve", "Axis", "A:1902", { "NT" }, { reserve = true, in_port = true }, "port")
  w:unit("21 Pz", "armor", "Axis", "A:0805")
  local f = w:group("Force H", "Allied", "A:0807", { "TF" })
  w:enter(f, "A:0807")
  t.eq(#w.rolls, 0, "two hexes away")
  t.ok(not w.g:group_get_value(res, "activated"))
  w:force(9, select(2, w:mods(f, "A:0806")))
  w:enter(f, "A:0806")
  t.eq(#w.rolls, 1)
  t.eq(w:probe("search_kinds"), "enemy ground units")
  t.eq(w.g:group_get_value(res, "activated"), true)
  -- an air unit is not a ground unit
  local w2 = world()
  w2:unit("Ju87", "air", "Axis", "A:0805", { air = true })
  local f2 = w2:group("Force H", "Allied", "A:0807", { "TF" })
  w2:enter(f2, "A:0806")
  t.eq(#w2.rolls, 0)
end)

-- ---- 32.B.5 CD / port --------------------------------------------------------------

t.test("32.B.5-1: entering a hex within range of an enemy CD (range = its strength) calls for a roll with the CD level", function()
  local w = world()
  local f = w:group("Force H", "Allied", "A:2620", { "TF" })
  w:enter(f, "A:2720")                                        -- 3 from the level-2 CD
  t.eq(#w.rolls, 0)
  local m, total = w:mods(f, "A:2820")
  t.eq(m.cd_level, 2)
  w:force(7, total)
  w:enter(f, "A:2820")                                        -- 2
  t.eq(#w.rolls, 1)
  t.eq(w:probe("search_kinds"), "CD/port range")
  t.eq(applied(w:last_roll()).cd_level, 2)
  -- a CD unit: range = its `cd` value
  local w2 = world()
  w2:unit("CD Tobruk", "CD", "Axis", "A:1020", { cd = 3 })
  local f2 = w2:group("Force H", "Allied", "A:0620", { "TF" })
  t.eq((w2:mods(f2, "A:0720")).cd_level, 3)
  t.eq((w2:mods(f2, "A:0620")).cd_level, 0)
end)

t.test("32.B.5-2: port range = port size; entering the enemy port's hex lets the non-phasing player activate reserves in port", function()
  local w = world()
  local west = w:group("West reserve", "Axis", "A:1902", { "NT" }, { reserve = true, in_port = true }, "port")
  local f = w:group("Force H", "Allied", "A:2510", { "TF" })
  t.eq((w:mods(f, "A:2610")).port_size, 0, "4 hexes from a major port (size 3)")
  t.eq((w:mods(f, "A:2710")).port_size, 3)
  w:force(7, select(2, w:mods(f, "A:2710")))
  w:enter(f, "A:2710")
  t.ok(not w.g:group_get_value(west, "activated"), "in range only: no activation")
  w:force(8, select(2, w:mods(f, "A:3010")))
  w:enter(f, "A:3010")
  t.eq(w.g:group_get_value(west, "activated"), true, "any reserve naval groups in port (the text names no sea zone)")
end)

-- ---- 32.B.6 proximity --------------------------------------------------------------

t.test("32.B.6-1: a non-phasing combat naval group may search within 15 hexes traced by sea, not 16", function()
  local w = world()
  local axis = w:group("Italian fleet", "Axis", "A:2010", { "TF", "TF" })
  local f = w:group("Force H", "Allied", "A:0310", { "TF" })
  w:enter(f, "A:0410")                                        -- 16 hexes
  t.eq(#w.rolls, 0)
  w:force(8, select(2, w:mods(f, "A:0510")))
  w:enter(f, "A:0510")                                        -- 15
  t.eq(#w.rolls, 1)
  t.eq(w:probe("searcher"), axis)
  t.eq(w:probe("search_kinds"), "proximity")
  -- "(or spends MPs for any purpose)": a group that starts within range and replenishes
  local w2 = world()
  w2:group("Italian fleet", "Axis", "A:2010", { "TF" })
  local f2 = w2:group("Force H", "Allied", "A:0510", { "TF" })
  local m, total = w2:mods(f2, "A:0510", "spend")
  t.eq(m.did_not_leave_hex, true)
  w2:force(8, total)
  w2:spend(f2, 15)
  t.eq(#w2.rolls, 1)
  t.eq(applied(w2:last_roll()).did_not_leave_hex, -1)
end)

t.test("32.B.6-2: mixed groups search within 10 hexes, cargo groups within 5, submarine groups (non-cargo) within 15", function()
  local cases = { { { "TF", "NT" }, 10 }, { { "NT", "LC" }, 5 }, { { "SUB" }, 15 } }
  for _, c in ipairs(cases) do
    local w = world()
    w:group("Searcher", "Axis", "A:2010", c[1])
    local f = w:group("Force H", "Allied", "A:0510", { "TF" })
    local col = 20 - c[2]
    local _, _, k1 = w:mods(f, ("A:%02d10"):format(col - 1), "spend")
    local _, _, k2 = w:mods(f, ("A:%02d10"):format(col), "spend")
    t.eq(k1, {}, table.concat(c[1], "+") .. " beyond its range")
    t.eq(k2, { "proximity" }, table.concat(c[1], "+") .. " at its range")
  end
end)

t.test("32.B.6-3: river flotillas may not perform search rolls", function()
  local w = world()
  w:group("Flotilla", "Axis", "A:1010", { "RF" }, { kind = "combat" })
  local f = w:group("Force H", "Allied", "A:0810", { "TF" })
  local _, _, kinds = w:mods(f, "A:0910")
  t.eq(kinds, {})
end)

-- ---- 32.B re-search --------------------------------------------------------------

t.test("32.B-1: the example of 32.B: patrol contact, not found; then within a port's range a new roll with both", function()
  local w = world()
  w:air("Ju88 near", "Axis", "A:3505", "naval patrol", 12)
  w:air("Ju88 far", "Axis", "A:3905", "naval patrol", 15)
  local f = w:group("Force H", "Allied", "A:2410", { "TF", "TF", "TF", "TF" })
  local m1, t1 = w:mods(f, "A:2510")
  t.eq({ m1.air_patrol, m1.airbase_distance, m1.tf_size, m1.naval_base_within_10 }, { 2, 2, 1, true })
  t.eq(t1, 2)
  w:force(9, t1)                                              -- F: not found
  w:enter(f, "A:2510")
  t.eq(#w.rolls, 1)
  t.eq(w:last_roll().result.code, "F")
  -- the far airbase may not search for this group again; the near one may
  local m2, t2 = w:mods(f, "A:2710")
  t.eq({ m2.air_patrol, m2.airbase_distance, m2.port_size }, { 1, 1, 3 })
  t.eq(t2, 5)
  w:force(9, t2)
  w:enter(f, "A:2610")                                        -- out of the port's range: 1-2+1+1 = +1, lower
  t.eq(#w.rolls, 1, "no new search at a lower modifier")
  w:enter(f, "A:2710")                                        -- within Axport's range (3)
  t.eq(#w.rolls, 2, "a new search roll using both the port's modifier and the airbase's air units")
  local a = applied(w:last_roll())
  t.eq({ a.port_size, a.air_patrol }, { 3, 1 })
  w:enter(f, "A:2610")
  w:enter(f, "A:2710")
  t.eq(#w.rolls, 2, "back to the best modifier so far: not above it, no new search")
end)

t.test("32.B-2: one look per MP expenditure; a new naval movement step starts afresh", function()
  local w = world()
  w:air("Ju88", "Axis", "A:3505", "naval patrol", 12)
  local f = w:group("Force H", "Allied", "A:2410", { "TF" })
  w:force("S", select(2, w:mods(f, "A:2510")))
  w:enter(f, "A:2510")                                        -- group_enters_hex and mp_spent: one roll
  t.eq(#w.rolls, 1)
  w:spend(f, 1, { left_hex = true })
  t.eq(#w.rolls, 1, "same modifier (found is not a change due to movement)")
  w.set:emit(w.g, "naval_step_start", { side = "Allied", step = 2 })
  w:force(8, select(2, w:mods(f, "A:2510", "spend")))
  w:spend(f, 1)
  t.eq(#w.rolls, 2)
end)

t.test("32.B-3: only phasing, non-reacting groups are searched for", function()
  local w = world()
  w:air("Ju88", "Axis", "A:3505", "naval patrol", 12)
  local f = w:group("Force H", "Allied", "A:2410", { "TF" })
  w:enter(f, "A:2510", { reacting = true })
  t.eq(#w.rolls, 0)
  w.g:set_global("phasing", "Axis")
  w:enter(f, "A:2610")
  t.eq(#w.rolls, 0)
end)

-- ---- the modifiers, by name --------------------------------------------------------

t.test("32.B-4: modifiers: airbase distance (-1 each 5 hexes), air patrol (+1 each), air escort (-1 each, up to the patrol units)", function()
  local w = world()
  w:air("P1", "Axis", "A:3505", "naval patrol", 20)
  w:air("P2", "Axis", "A:3505", "naval patrol", 20)
  w:air("P3", "Axis", "A:3905", "naval patrol", 20)
  local f = w:group("Force H", "Allied", "A:2410", { "TF" })
  for i = 1, 4 do w:unit("Esc" .. i, "air", "Allied", "A:0512", { mission = "naval air escort", range = 30, escort = f }) end
  local m = w:mods(f, "A:2510")
  t.eq(m.air_patrol, 3)
  t.eq(m.airbase_distance, 2, "14 hexes from the furthest airbase used: 14 // 5")
  t.eq(m.air_escort, 3, "4 escorts, capped at the 3 patrol units")
  w.g:add_marker(w.units.P3, "Inop", 1)
  m = w:mods(f, "A:2510")
  t.eq({ m.air_patrol, m.airbase_distance, m.air_escort }, { 2, 2, 2 })
end)

t.test("32.B-5: modifiers: stormy -2, rough -1, night -1, did not leave the search hex -1", function()
  local w = world { sea = "stormy" }
  local f = w:group("Force H", "Allied", "A:0810", { "TF" })
  w.g:set_keyed("port_interdiction", { "Axis", w:hex("A:0810") }, 1)
  local m = w:mods(f, "A:0810")
  t.eq({ m.stormy_seas, m.rough_seas, m.night, m.did_not_leave_hex }, { true, false, false, false })
  w.g:set_global("sea", "rough")
  w.g:set_global("night", true)
  m = w:mods(f, "A:0810", "spend")
  t.eq({ m.stormy_seas, m.rough_seas, m.night, m.did_not_leave_hex }, { false, true, true, true })
  m = w:mods(f, "A:0810", "spend", { night = false })
  t.eq(m.night, false, "the MP spent in daylight (mp_spent's night flag)")
  local tbl = w.set:table("naval_search")
  t.eq((tbl:modifiers_for { stormy_seas = true, night = true, did_not_leave_hex = true }), -4)
  t.eq((tbl:modifiers_for { rough_seas = true }), -1)
end)

t.test("32.B-6: modifiers: friendly coastal hex +1, friendly major/great port +1, naval base within 10 hexes +1", function()
  local w = world()
  local f = w:group("Force H", "Allied", "A:2910", { "TF" })
  local m = w:mods(f, "A:3010")                               -- Axport: Axis coastal, major, naval base
  t.eq({ m.friendly_coastal_hex, m.friendly_major_port, m.naval_base_within_10 }, { true, true, true })
  m = w:mods(f, "A:2010")                                     -- 10 hexes from the base
  t.eq({ m.friendly_coastal_hex, m.friendly_major_port, m.naval_base_within_10 }, { false, false, true })
  m = w:mods(f, "A:1910")
  t.eq(m.naval_base_within_10, false, "11 hexes")
  m = w:mods(f, "A:0512")                                     -- Allyport: the phasing side's
  t.eq({ m.friendly_coastal_hex, m.friendly_major_port }, { false, false })
end)

t.test("32.B-7: modifiers: enemy ZOC partial +1, full +2, double +3; protected waters negate non-air non-ground ZOC", function()
  local w = world()
  local f = w:group("Force H", "Allied", "A:0810", { "TF" })
  local function zoc() local m = w:mods(f, "A:0810"); return { m.enemy_partial_zoc, m.enemy_full_zoc, m.enemy_double_zoc } end
  t.eq(zoc(), { false, false, false })
  local h = w:hex("A:0810")
  w.g:set_keyed("zoc", { "Axis", h }, 1); t.eq(zoc(), { true, false, false })
  w.g:set_keyed("zoc", { "Axis", h }, 2); t.eq(zoc(), { false, true, false })
  w.g:set_keyed("zoc", { "Axis", h }, 4); t.eq(zoc(), { false, false, true })
  w.g:set_keyed("zoc", { "Axis", h }, 0)
  w.g:set_keyed("zoc_other", { "Axis", h }, 2); t.eq(zoc(), { false, true, false })
  w.g:set_keyed("protected_waters", h, true); t.eq(zoc(), { false, false, false })
  w.g:set_keyed("zoc", { "Axis", h }, 1); t.eq(zoc(), { true, false, false }, "a ground/air ZOC stays")
  w.g:set_keyed("zoc", { "Allied", h }, 3); t.eq(zoc(), { true, false, false }, "the phasing side's ZOC is not an enemy ZOC")
end)

t.test("32.B-8: modifiers: previously found +1, mixed +1, cargo +2, TF size / 4 rounded down", function()
  local w = world()
  local f = w:group("Force H", "Allied", "A:0810", { "TF", "TF", "TF", "TF", "TF", "TF", "TF" })
  local c = w:group("Convoy", "Allied", "A:0810", { "NT", "LC" })
  local x = w:group("Mixed", "Allied", "A:0810", { "TF", "NT" })
  local m = w:mods(f, "A:0811")
  t.eq({ m.tf_size, m.previously_found, m.mixed_group, m.cargo_group }, { 1, false, false, false })
  w.g:group_set_value(f, "found", true)
  t.eq((w:mods(f, "A:0811")).previously_found, true)
  m = w:mods(c, "A:0811")
  t.eq({ m.cargo_group, m.mixed_group, m.tf_size }, { true, false, 0 })
  m = w:mods(x, "A:0811")
  t.eq({ m.cargo_group, m.mixed_group }, { false, true })
  w.set:emit(w.g, "naval_step_start", { side = "Allied", step = 2 })
  t.eq((w:mods(f, "A:0811")).previously_found, false, "found in the current step only")
end)

t.test("32.B-9: modifiers: port interdiction, blockade, largest port size and highest CD level within range", function()
  local w = world()
  local f = w:group("Force H", "Allied", "A:2810", { "TF" })
  w.g:set_keyed("port_interdiction", { "Axis", w:hex("A:2920") }, 2)
  w.g:set_keyed("blockade", { "Axis", w:hex("A:2920") }, 1)
  local m, total = w:mods(f, "A:2920")
  -- A:2920 is 1 from the CD (2) and 10 from Axport (3): CD only; Axis naval base 10 away
  t.eq({ m.port_interdiction, m.blockade, m.port_size, m.cd_level }, { 2, 1, 0, 2 })
  t.eq(total, 2 + 1 + 2 + 1)
  m = w:mods(f, "A:2910")
  t.eq({ m.port_size, m.cd_level }, { 3, 0 })
end)

-- ---- the results ------------------------------------------------------------------

-- a search by an Axis combat group plus two patrol airbases for Force H
local function searched(code)
  local w = world { sea = code == "D" and "stormy" or "calm" }
  local sg = w:group("Italian fleet", "Axis", "A:3012", { "TF" })
  local other = w:group("Force K", "Allied", "A:2210", { "TF" })
  w:air("near 1", "Axis", "A:3505", "naval patrol", 20)
  w:air("far 1", "Axis", "A:3905", "naval patrol", 20)
  w:air("far 2 (not flying)", "Axis", "A:3905", nil, nil)
  w.g:set_value(w.units["far 2 (not flying)"], "air", true)
  local f = w:group("Force H", "Allied", "A:2410", { "TF", "NT", "NT", "LC" })
  w:force(code, select(2, w:mods(f, "A:2510")))
  w:enter(f, "A:2510")
  t.eq(w:last_roll().result.code, code)
  return w, f, sg, other
end

t.test("32.B-10: result D: -2 Step on the searching group, which searches no more this segment; X on the most distant airbase's air units", function()
  local w, f, sg, other = searched("D")
  local g = w.g
  t.eq(g:get_marker(g:group_units(sg)[1], "step"), 2)
  t.eq(g:group_get_value(sg, "search_barred"), g:get_global("search_segment"))
  t.eq(g:get_marker(w.units["far 1"], "X"), 1)
  t.eq(g:get_marker(w.units["far 2 (not flying)"], "X"), 1, "all air units at that airbase")
  t.eq(g:get_marker(w.units["near 1"], "X"), 0)
  t.ok(not g:group_get_value(f, "found"))
  local m, _, kinds = w:mods(other, "A:2310")
  t.eq(kinds, { "naval patrol/strike" }, "the group may not search for another moving group")
  t.eq(m.air_patrol, 1, "the X air units take part in no future search")
end)

t.test("32.B-11: result F*: -1 Step on the searching group, no more searches this segment; Inop on the most distant airbase's air units", function()
  local w, _, sg, other = searched("F*")
  local g = w.g
  t.eq(g:get_marker(g:group_units(sg)[1], "step"), 1)
  t.eq(g:get_marker(w.units["far 1"], "Inop"), 1)
  t.eq(select(3, w:mods(other, "A:2310")), { "naval patrol/strike" })
  w.set:emit(g, "naval_step_start", { side = "Allied", step = 2 })
  t.eq(select(3, w:mods(other, "A:2310")), { "naval patrol/strike", "proximity" }, "next segment it may search again")
end)

t.test("32.B-12: result F: no naval group searches for the moving group again this segment; the most distant airbase's units never again for it", function()
  local w, f, _, other = searched("F")
  local g = w.g
  local m, _, kinds = w:mods(f, "A:2610")
  t.eq(kinds, { "naval patrol/strike" }, "no proximity search for Force H")
  t.eq(m.air_patrol, 1, "the far airbase's unit no longer searches for Force H")
  m, _, kinds = w:mods(other, "A:2310")
  t.eq(kinds, { "naval patrol/strike", "proximity" }, "but the group and the far airbase may search for another group")
  t.eq(m.air_patrol, 2)
  w.set:emit(g, "naval_step_start", { side = "Allied", step = 2 })
  m, _, kinds = w:mods(f, "A:2610")
  t.eq(kinds, { "naval patrol/strike", "proximity" })
  t.eq(m.air_patrol, 1, "any future searches for the same group: still barred")
end)

t.test("32.B-13: result S: reserves in port in the same sea zone, TFs revealed, NT+LC+LB declared within 50% (no rounding), one airbase may attack", function()
  local w = world()
  local east = w:group("East reserve", "Axis", "A:3010", { "NT" }, { reserve = true, in_port = true }, "port")
  local west = w:group("West reserve", "Axis", "A:1902", { "NT" }, { reserve = true, in_port = true }, "port")
  local sea = w:group("At sea", "Axis", "A:3012", { "TF" }, { reserve = true })
  w:air("near 1", "Axis", "A:3505", "naval patrol", 20)
  w:air("far 1", "Axis", "A:3905", "naval patrol", 20)
  local f = w:group("Force H", "Allied", "A:2410", { "TF", "TF", "NT", "NT", "LC" })
  w:force("S", select(2, w:mods(f, "A:2510")))
  w:enter(f, "A:2510")
  local g = w.g
  t.eq(w:last_roll().result.code, "S")
  t.eq(g:group_get_value(east, "activated"), true)
  t.ok(not g:group_get_value(west, "activated"), "another sea zone")
  t.ok(not g:group_get_value(sea, "activated"), "not in port")
  t.eq(w:probe("activations"), 1)
  t.eq(w:probe("activated_zone"), "East")
  t.eq(g:group_get_value(f, "found"), true)
  t.eq(g:group_get_value(f, "revealed_tfs"), 2)
  t.eq(g:group_get_value(f, "declared_cargo"), 3)
  t.eq(g:group_get_value(f, "declared_cargo_low"), 1.5)
  t.eq(g:group_get_value(f, "declared_cargo_high"), 4.5)
  t.eq(w:probe("attacks"), 1)
  t.eq(w:probe("attack_bases"), "A:3505", "one airbase")
end)

t.test("32.B-14: result S*: reserves in any sea zone; all searching airbases attack; another airbase joins on a success, rolls on after a great success", function()
  local w = world()
  local east = w:group("East reserve", "Axis", "A:3010", { "NT" }, { reserve = true, in_port = true }, "port")
  local west = w:group("West reserve", "Axis", "A:1902", { "NT" }, { reserve = true, in_port = true }, "port")
  w:air("near 1", "Axis", "A:3505", "naval patrol", 20)
  w:air("far 1", "Axis", "A:3905", "naval patrol", 20)
  w:air("strike 1", "Axis", "A:3020", "naval strike", 20)   -- another airbase within range
  w:air("strike 2", "Axis", "A:3010", "naval strike", 20)
  local f = w:group("Force H", "Allied", "A:2410", { "TF" })
  local g = w.g
  g:set_keyed("port_interdiction", { "Axis", w:hex("A:2510") }, 2)
  local _, total = w:mods(f, "A:2510")
  -- the search (S*), then A:3010's join roll (S*: joins, roll on), then A:3020's (F: stops)
  w:force("S*", total)
  g.dice:force(6, 6, 1, 1)
  w:enter(f, "A:2510")
  t.eq(w.rolls[1].result.code, "S*")
  t.eq(g:group_get_value(east, "activated"), true)
  t.eq(g:group_get_value(west, "activated"), true, "any sea zone")
  t.eq(w:probe("activated_zone"), "any")
  t.eq(#w.rolls, 3)
  t.eq(w.rolls[2].roll.reason, "airbase A:3010 joins the attack")
  t.eq(w.rolls[3].roll.reason, "airbase A:3020 joins the attack")
  t.eq(w:probe("attacks"), 2)
  t.eq(w:probe("attack_bases"), "A:3505,A:3905;A:3010")
  t.eq(g:group_get_value(f, "revealed_tfs"), nil, "S* does not say the TFs are revealed")
end)

t.test("32.B-15: a search is journaled and narrated with its modifiers, and undone with its action", function()
  local w = world { sea = "rough" }
  w:air("Ju88", "Axis", "A:3505", "naval patrol", 12)
  local f = w:group("Force H", "Allied", "A:2410", { "TF" })
  w:force("S", select(2, w:mods(f, "A:2510")))
  w:enter(f, "A:2510")
  local text = require("keel.tables").narrate(w:last_roll())
  t.ok(text:find("-1 rough_seas", 1, true) and text:find("+1 air_patrol", 1, true)
    and text:find("+1 naval_base_within_10", 1, true), text)
  t.ok(w.g:journal_text():find("32.B", 1, true))
  t.ok(w.g:journal_text():find('"rule":"32.B","group":1,"key":"found","old":null,"new":true', 1, true))
  w.g:undo(2)
  t.eq({ w.g:group_get_value(f, "found"), w.g:group_get_value(f, "search_best"), w:probe("searches") }, {})
end)

t.test("32.B-16: with the move action (an entry's MPs come before group_enters_hex), entering contacts are seen: a danger zone roll, a port hex's activation", function()
  local w = world()
  local west = w:group("West reserve", "Axis", "A:1902", { "NT" }, { reserve = true, in_port = true }, "port")
  local f = w:group("Force H", "Allied", "A:1310", { "TF" })
  local _, total = w:mods(f, "A:1410")
  w:force("F", total)
  t.ok(w.set:act(w.g, "move", { group = f, path = { w:hex("A:1410") } }))
  t.eq(#w.rolls, 1, "one roll for the entry")
  t.eq(w:probe("search_kinds"), "danger zone")
  t.ok(not w.g:group_get_value(west, "activated"), "F: no activation")
  -- Axport (A:3010, an Axis major port, coastal: 2 MPs): its hex activates
  -- reserves in port whatever the roll (32.B.5)
  local g2 = w:group("Force K", "Allied", "A:2910", { "TF" })
  local east = w:group("East reserve", "Axis", "A:3010", { "NT" }, { reserve = true, in_port = true }, "port")
  t.ok(w.set:act(w.g, "move", { group = g2, path = { w:hex("A:3010") } }))
  t.eq({ w.g:group_get_value(west, "activated"), w.g:group_get_value(east, "activated") }, { true, true })
  t.eq(w:probe("activated_zone"), "any")
end)

t.test("32.B-19: 'no new search' is said for a hex the group comes to, not again for each MP it spends there", function()
  local scenario = require "keel.scenario"
  local function said(path)
    local lines = {}
    local run = scenario.start(scenario.load(path), { narrate = function(kind, data)
      if kind == "say" and data.rule.id == "32.B" and data.text:find("no new search", 1, true) then
        lines[#lines + 1] = data.text
      end
    end })
    local passed, failed = run:play_all()
    t.eq(failed, 0)
    t.ok(passed > 0)
    return lines
  end
  -- Salerno: the Southern Attack Force spends 75 MPs landing at S:0708, where it was searched for
  t.eq(said("scenarios/salerno_1943.lua"), {})
  -- Suez: Regia comes to 19A:3412 with a modifier no better than the step's best: said once
  t.eq(said("scenarios/suez_1942.lua"),
    { "no new search for Regia at 19A:3412: modifier +5 is not above this step's best, +5" })
end)

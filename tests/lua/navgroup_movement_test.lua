-- Rule 32 movement (scripts/navgroup: 32.A, 32.A.1-32.A.6.a.1, the move and
-- spend actions), on the sample maps, with the probe family
-- tests/families/navgroup_probe hooking the movement events.
local t = require "keel.testing"
local keel = require "keel"
local rules = require "keel.rules"
local game_mod = require "keel.game"
local scenario = require "keel.scenario"

local MAPS = "scenarios/maps/"

-- a game on a map with forces {name, type, side, at, group, values, port = true}
local function setup(map, forces, opts)
  opts = opts or {}
  local set = rules.load { families = { opts.family or "navgroup_probe" }, path = { "tests/families" } }
  local board = type(map) == "string" and assert(keel.board.load(MAPS .. map)) or map
  local game = game_mod.new { board = board }
  local units, groups = {}, {}
  for k, v in pairs(opts.globals or {}) do game:set_global(k, v) end
  for _, f in ipairs(forces) do
    local u = game:unit_new { name = f[1], type = f[2], side = f[3], values = f.values }
    game:move(u, f.port and "port" or "hex", assert(board:hex(f[4])))
    units[f[1]] = u
    local gname = f[5] or f[1]
    if not groups[gname] then
      groups[gname] = game:group_new { name = gname }
      if f.port then game:group_set_value(groups[gname], "in_port", true) end
    end
    game:group_add(groups[gname], u)
  end
  local function act(name, p) return set:act(game, name, p) end
  local function q(name, ...) return set:query(game, name, ...) end
  return { set = set, game = game, board = board, units = units, groups = groups, act = act, q = q,
    gv = function(gname, k) return game:group_get_value(groups[gname], k) end }
end

local function probe_log(game)
  local out = {}
  for i = 1, game:count_keyed("probe_log") do out[i] = game:get_keyed("probe_log", i) end
  return out
end

local function at(w, name) return w.board:format(select(2, w.game:get(w.units[name], "loc"))) end

-- ---- 32.A ----------------------------------------------------------------------------

t.test("32.A-1: allowance 15, or as printed (the slowest unit), reacting groups 15", function()
  local w = setup("sevilla.map", {
    { "TF1", "TF", "Allied", "23A:3029", "A" }, { "TF2", "TF", "Allied", "23A:3029", "B", values = { mp = 20 } },
    { "TF3", "TF", "Allied", "23A:3029", "B", values = { mp = 18 } },
  })
  t.eq(w.q("allowance", w.groups.A), 15)
  t.eq(w.q("allowance", w.groups.B), 18)
  w.game:group_set_value(w.groups.B, "reacting", true)
  t.eq(w.q("allowance", w.groups.B), 15)
  t.eq(w.q("group_kind", w.groups.A), "combat")
  t.eq(w.q("group_side", w.groups.A), "Allied")
  t.eq(w.q("mp_left", w.groups.A), 15)
end)

t.test("32.A-2: non-reserve groups move in their player's steps, reserve groups in the enemy's", function()
  local w = setup("sevilla.map", {
    { "A1", "TF", "Allied", "23A:3029", "A" }, { "A2", "TF", "Allied", "23A:3129", "AR" },
    { "X1", "TF", "Axis", "23A:3429", "X" }, { "X2", "TF", "Axis", "23A:3529", "XR" },
  }, { globals = { phasing = "Allied" } })
  w.game:group_set_value(w.groups.AR, "reserve", true)
  w.game:group_set_value(w.groups.XR, "reserve", true)
  t.ok(w.act("move", { group = w.groups.A, to = "23A:3030" }))
  local ok, why = w.act("move", { group = w.groups.AR, to = "23A:3130" })
  t.ok(not ok and tostring(why):find("reserve naval groups move in the enemy player%-turn"), tostring(why))
  ok, why = w.act("move", { group = w.groups.X, to = "23A:3430" })
  t.ok(not ok and tostring(why):find("their own player's naval movement steps"), tostring(why))
  t.ok(w.act("move", { group = w.groups.XR, to = "23A:3530" }))
end)

t.test("32.A-3: all-sea 1 MP, coastal 2 (LB 2 and 3); no land, no restricted waters", function()
  local b = assert(keel.board.load_string(
    "map \"r\"\nhexes flat even digits 2 first 1 1\nsection A at 0 0 size 6 4\ndefault all-sea\n" ..
    "hex A:0302 restricted\nhex A:0502 all-land\nhex A:0102 coastal\nowner Allied\n", "r.map"))
  local w = setup(b, { { "TF", "TF", "Allied", "A:0202", "T" }, { "LB", "LB", "Allied", "A:0203", "L" },
    { "NT", "NT", "Allied", "A:0203", "L" } })
  t.ok(w.act("move", { group = w.groups.T, path = { "A:0102" } }))
  t.eq(w.gv("T", "mp_spent"), 2)
  t.ok(w.act("move", { group = w.groups.T, path = { "A:0202" } }))
  t.eq(w.gv("T", "mp_spent"), 3)
  t.eq(w.q("group_column", w.groups.L), "LB")
  t.ok(w.act("move", { group = w.groups.L, path = { "A:0103" } }))
  t.eq(w.gv("L", "mp_spent"), 2)
  local ok, why = w.act("move", { group = w.groups.T, path = { "A:0302" } })
  t.ok(not ok and tostring(why):find("restricted waters"), tostring(why))
  w.game:move(w.units.TF, "hex", b:hex("A:0402"))
  ok, why = w.act("move", { group = w.groups.T, path = { "A:0502" } })
  t.ok(not ok and tostring(why):find("all%-sea or coastal"), tostring(why))
  ok, why = w.act("move", { group = w.groups.T, path = { "A:0404", "A:0504" } })
  t.ok(not ok and tostring(why):find("not enough") == nil, tostring(why))   -- not adjacent: no route
end)

t.test("32.A-4: sea_distance traces hexes by sea", function()
  local w = setup("straits.map", { { "TF", "TF", "Allied", "33:1225" } })
  t.eq(w.q("sea_distance", w.board:hex("33:1225"), w.board:hex("33:1228")), 3)
  t.eq(w.q("sea_distance", w.board:hex("33:1225"), w.board:hex("33:1628"), 2), nil)
end)

-- ---- 32.A.1 --------------------------------------------------------------------------

t.test("32.A.1-1: combining (worked example, 30 MP allowance): 20 spent, 10 left", function()
  local w = setup("sevilla.map", {
    { "A", "TF", "Allied", "23A:3030", "A", values = { mp = 30 } },
    { "B", "TF", "Allied", "23A:3029", "B", values = { mp = 30 } },
  })
  w.game:group_set_value(w.groups.A, "mp_spent", 20)
  w.game:group_set_value(w.groups.B, "mp_spent", 5)
  t.ok(w.act("move", { group = w.groups.B, path = { "23A:3030" } }))   -- 1 more: 6 spent
  t.eq(w.gv("B", "mp_spent"), 6)
  t.ok(w.act("combine", { group = w.groups.B, into = w.groups.A }))
  t.eq(w.gv("A", "mp_spent"), 20)
  t.eq(w.q("mp_left", w.groups.A), 10)
  t.eq(#w.game:group_units(w.groups.A), 2)
  t.eq(#w.game:group_units(w.groups.B), 0)
end)

t.test("32.A.1-2: combining at the 15 MP allowance of 32.A: 6 and 10 spent -> 10 spent, 5 left", function()
  local w = setup("sevilla.map", { { "A", "TF", "Allied", "23A:3030", "A" }, { "B", "NT", "Allied", "23A:3030", "B" } })
  w.game:group_set_value(w.groups.A, "mp_spent", 10)
  w.game:group_set_value(w.groups.B, "mp_spent", 6)
  t.ok(w.act("combine", { group = w.groups.A, into = w.groups.B }))
  t.eq(w.gv("B", "mp_spent"), 10)
  t.eq(w.q("mp_left", w.groups.B), 5)
  t.eq(w.q("group_kind", w.groups.B), "mixed")
  local ok, why = w.act("combine", { group = w.groups.B, into = w.groups.B })
  t.ok(not ok and why, "itself")
end)

t.test("32.A.1-3: splitting (worked example, 30 MPs): three groups with 14 spent, 16 left each", function()
  local w = setup("sevilla.map", {
    { "U1", "TF", "Allied", "23A:3029", "G", values = { mp = 30 } },
    { "U2", "TF", "Allied", "23A:3029", "G", values = { mp = 30 } },
    { "U3", "NT", "Allied", "23A:3029", "G", values = { mp = 30 } },
  })
  w.game:group_set_value(w.groups.G, "mp_spent", 12)
  t.ok(w.act("move", { group = w.groups.G, path = { "23A:3030", "23A:3031" } }))
  t.eq(w.gv("G", "mp_spent"), 14)
  local ok, g2 = w.act("split", { group = w.groups.G, units = { w.units.U2 }, name = "G2" })
  t.ok(ok)
  local _, g3 = w.act("split", { group = w.groups.G, units = { w.units.U3 }, name = "G3" })
  for _, g in ipairs { w.groups.G, g2, g3 } do
    t.eq(w.game:group_get_value(g, "mp_spent"), 14)
    t.eq(w.q("mp_left", g), 16)
    t.eq(#w.game:group_units(g), 1)
  end
  t.eq(w.q("group_kind", g3), "cargo")
  ok = w.act("split", { group = w.groups.G, units = { w.units.U1 } })
  t.ok(not ok, "the last unit stays")
end)

t.test("32.A.1-4: splitting at the 15 MP allowance: 14 spent, 1 left each", function()
  local w = setup("sevilla.map", { { "U1", "TF", "Allied", "23A:3029", "G" }, { "U2", "TF", "Allied", "23A:3029", "G" } })
  w.game:group_set_value(w.groups.G, "mp_spent", 14)
  local _, g2 = w.act("split", { group = w.groups.G, units = { w.units.U2 } })
  t.eq(w.q("mp_left", g2), 1)
  t.eq(w.q("mp_left", w.groups.G), 1)
end)

t.test("32.A.1-5: each part of a split keeps the original group's allowance (15 by its slowest unit, 9 spent: 6 left each)", function()
  local w = setup("sevilla.map", {
    { "Slow", "TF", "Allied", "23A:3029", "G", values = { mp = 15 } },
    { "Fast", "TF", "Allied", "23A:3029", "G", values = { mp = 20 } },
  })
  t.eq(w.q("allowance", w.groups.G), 15)
  w.game:group_set_value(w.groups.G, "mp_spent", 9)
  local ok, g2 = w.act("split", { group = w.groups.G, units = { w.units.Slow }, name = "G2" })
  t.ok(ok, g2)
  t.eq(w.q("mp_left", g2), 6)
  t.eq(w.q("mp_left", w.groups.G), 6, "not 11: the unit that limited it left, the allowance stays 15")
  t.eq(w.q("allowance", w.groups.G), 15)
  -- and again from the part that has only the fast unit: still 15
  local w2 = setup("sevilla.map", {
    { "Slow", "TF", "Allied", "23A:3029", "G", values = { mp = 15 } },
    { "Fast", "TF", "Allied", "23A:3029", "G", values = { mp = 20 } },
    { "Faster", "TF", "Allied", "23A:3029", "G", values = { mp = 25 } },
  })
  w2.game:group_set_value(w2.groups.G, "mp_spent", 9)
  t.ok(w2.act("split", { group = w2.groups.G, units = { w2.units.Slow } }))
  local _, g3 = w2.act("split", { group = w2.groups.G, units = { w2.units.Faster } })
  t.eq(w2.q("mp_left", g3), 6)
  t.eq(w2.q("mp_left", w2.groups.G), 6)
end)

t.test("32.A.1-6: reacting groups never combine (32.C): not two reacting groups, not a reacting and a non-phasing group", function()
  local w = setup("sevilla.map", {
    { "R1", "TF", "Allied", "23A:3029", "R1" }, { "R2", "TF", "Allied", "23A:3029", "R2" },
    { "N", "TF", "Allied", "23A:3029", "N" }, { "X1", "TF", "Axis", "23A:3129", "X1" },
    { "X2", "TF", "Axis", "23A:3129", "X2" },
  }, { globals = { phasing = "Axis" } })
  w.game:group_set_value(w.groups.R1, "reacting", true)
  w.game:set_value(w.units.R2, "reacting", true)   -- the part of a split reacting group: the units carry it
  local before = w.game:hash()
  local ok, why = w.act("combine", { group = w.groups.R1, into = w.groups.R2 })
  t.ok(not ok and why:find("32.A.1/32.C") and why:find("never combine"), why)
  ok, why = w.act("combine", { group = w.groups.N, into = w.groups.R1 })
  t.ok(not ok and why:find("R1 is reacting"), why)
  ok, why = w.act("combine", { group = w.groups.R2, into = w.groups.N })
  t.ok(not ok and why:find("R2 is reacting"), why)
  ok, why = w.act("combine", { group = w.groups.N, into = w.groups.R2 })
  t.ok(not ok, why)
  t.eq(w.game:hash(), before, "refused orders change nothing")
  t.eq(#w.game:group_units(w.groups.R1), 1)
  -- the phasing player's groups still combine
  t.ok(w.act("combine", { group = w.groups.X2, into = w.groups.X1 }))
  t.eq(#w.game:group_units(w.groups.X1), 2)
end)

t.test("32.A.1.a-1: at the end of the player-turn, groups at sea in one hex combine; submarines apart", function()
  local w = setup("sevilla.map", {
    { "TF", "TF", "Allied", "23A:3029", "A" }, { "NT", "NT", "Allied", "23A:3029", "B" },
    { "S1", "SUB", "Allied", "23A:3029", "S1" }, { "S2", "SUB", "Allied", "23A:3029", "S2" },
    { "TF2", "TF", "Allied", "23A:3129", "C" }, { "X", "TF", "Axis", "23A:3029", "X" },
  })
  w.set:emit(w.game, "player_turn_end", { side = "Allied" })
  t.eq(#w.game:group_units(w.groups.A), 2)
  t.eq(#w.game:group_units(w.groups.B), 0)
  t.eq(#w.game:group_units(w.groups.S1), 2)
  t.eq(#w.game:group_units(w.groups.C), 1)
  t.eq(#w.game:group_units(w.groups.X), 1)
  t.eq(w.q("group_kind", w.groups.A), "mixed")
end)

t.test("32.A.1.b-1: at the end of the player-turn, groups in one port combine; at sea in the port hex apart", function()
  local w = setup("sevilla.map", {
    { "P1", "TF", "Allied", "23A:2927", "P1", port = true }, { "P2", "NT", "Allied", "23A:2927", "P2", port = true },
    { "P3", "SUB", "Allied", "23A:2927", "P3", port = true }, { "Sea", "TF", "Allied", "23A:2927", "Sea" },
  })
  w.set:emit(w.game, "player_turn_end", { side = "Allied" })
  t.eq(#w.game:group_units(w.groups.P1), 2)
  t.eq(#w.game:group_units(w.groups.P3), 1)
  t.eq(#w.game:group_units(w.groups.Sea), 1)
end)

-- ---- 32.A.2 --------------------------------------------------------------------------

t.test("32.A.2-1: no entering a hex with an enemy combat or mixed group at sea; cargo and in-port groups ignored", function()
  local w = setup("sevilla.map", {
    { "TF", "TF", "Allied", "23A:3029", "A" },
    { "XT", "TF", "Axis", "23A:3030", "X" }, { "XN", "NT", "Axis", "23A:3129", "XC" },
    { "XP", "TF", "Axis", "23A:2927", "XP", port = true },
  })
  local ok, why = w.act("move", { group = w.groups.A, path = { "23A:3030" } })
  t.ok(not ok and tostring(why):find("32.A.2"), tostring(why))
  t.ok(w.act("move", { group = w.groups.A, path = { "23A:3129" } }))      -- an enemy cargo group
  t.ok(w.act("move", { group = w.groups.A, path = { "23A:3028", "23A:2928", "23A:2927" } }))  -- enemy in port
  t.eq(at(w, "TF"), "23A:2927")
  -- the search around a blocked hex
  w.game:group_set_value(w.groups.A, "mp_spent", 0)
  w.game:move(w.units.TF, "hex", w.board:hex("23A:3029"))
  t.ok(w.act("move", { group = w.groups.A, to = "23A:3031" }))
  t.eq(at(w, "TF"), "23A:3031")
end)

t.test("32.A.2-2: a group in the hex of an enemy-owned port blocks it; a blockaded group puts to sea and fights", function()
  local w = setup("sevilla.map", {
    { "NT", "NT", "Allied", "23A:2927", "P", port = true },
    { "XT", "TF", "Axis", "23A:2927", "X" },
  })
  local blocked, by = w.q("port_blocked", w.board:hex("23A:2927"))
  t.eq(blocked, true)
  t.eq(by, w.groups.X)
  t.ok(w.act("put_to_sea", { group = w.groups.P }))
  local _, in_port = w.q("group_hex", w.groups.P)
  t.eq(in_port, false)
  -- 32.D.2 resolves it (the default resolution: one round, recorded)
  t.eq(w.game:count_keyed("naval_combat"), 1)
  t.ok(w.game:get_keyed("naval_combat", 1):find("^round 1 of surface combat: P with enemy X at 23A:2927"),
    w.game:get_keyed("naval_combat", 1))
  t.eq(probe_log(w.game)[#probe_log(w.game)], "combat 23A:2927 surface")
  t.eq(w.game:count_keyed("engagement"), 0, "resolved: the move action records nothing of its own")
end)

-- ---- 32.A.3 --------------------------------------------------------------------------

t.test("32.A.3-1: every activity and column of the MP Cost Summary", function()
  local w = setup("sevilla.map", { { "TF", "TF", "Allied", "23A:3029" } }, { globals = { year = 1943 } })
  local tbl = w.set:table("naval_mp_cost")
  local n = 0
  for _, row in ipairs(tbl.rows) do
    for _, c in ipairs { "TF", "NT", "LC", "LB" } do
      local cell = tbl:get(row.key, c)
      local cost, why = w.q("activity_cost", w.groups.TF, row.key, { column = c, pi_level = 0 })
      if cell.kind == "number" then
        t.eq(cost, cell.value, row.key .. "/" .. c)
      elseif cell.kind == "none" then
        t.eq(cost, nil, row.key .. "/" .. c); t.ok(why)
      end
      n = n + 1
    end
  end
  t.eq(n, 29 * 4)
end)

t.test("32.A.3-2: a group pays its units' dearest column; ** not before 1942 with TFs and NTs", function()
  local w = setup("sevilla.map", { { "NT", "NT", "Allied", "23A:3029", "G" }, { "LB", "LB", "Allied", "23A:3029", "G" },
    { "T", "TF", "Allied", "23A:3029", "T" } }, { globals = { year = 1941 } })
  t.eq(w.q("activity_cost", w.groups.G, "transfer_nt_to_lb"), 45)
  t.eq(w.q("activity_cost", w.groups.G, "assault_he"), 120)
  t.eq(w.q("activity_cost", w.groups.T, "lay_mine"), 5)
  local c, why = w.q("activity_cost", w.groups.G, "lay_mine")
  t.eq(c, nil); t.ok(why:find("not done by"), why)
  -- ** : 1941, the NT may not; the LB may (60)
  t.eq(w.q("activity_cost", w.groups.G, "ed_beach_non_amph_he"), 60)
  c, why = w.q("activity_cost", w.groups.T, "ed_beach_non_amph_he")
  t.eq(c, nil); t.ok(why:find("not before 1942"), why)
  t.eq(w.q("activity_cost", w.groups.T, "ed_beach_non_amph_he", { year = 1942 }), 105)
end)

t.test("32.A.3-3: * non-intrinsic amphibious armour doubles landing costs unless using port capacity", function()
  local w = setup("sevilla.map", { { "LC", "LC", "Allied", "23A:3029", "G" } })
  t.eq(w.q("activity_cost", w.groups.G, "assault_amph"), 45)
  t.eq(w.q("activity_cost", w.groups.G, "assault_amph", { armour = true }), 90)
  t.eq(w.q("activity_cost", w.groups.G, "ed_port", { armour = true }), 15)
  t.eq(w.q("activity_cost", w.groups.G, "ed_port", { armour = true, port_capacity = false }), 30)
  t.eq(w.q("activity_cost", w.groups.G, "replenish", { armour = true }), 15)
end)

t.test("32.A.3-4: an activity in a hex with an enemy port interdiction marker costs x5 per level", function()
  local w = setup("sevilla.map", { { "TF", "TF", "Allied", "23A:2927", "G" } })
  t.eq(w.q("activity_cost", w.groups.G, "combat_round"), 1)
  local h = w.board:hex("23A:2927")
  w.game:set_keyed("port_interdiction", { "Axis", h }, 1)
  t.eq(w.q("activity_cost", w.groups.G, "combat_round"), 5)
  w.game:set_keyed("port_interdiction", { "Axis", h }, 2)
  t.eq(w.q("activity_cost", w.groups.G, "combat_round"), 10)
  w.game:set_keyed("port_interdiction", { "Axis", h }, nil)
  w.game:set_keyed("port_interdiction", { "Allied", h }, 2)   -- our own marker
  t.eq(w.q("activity_cost", w.groups.G, "combat_round"), 1)
  -- the map's own markers (tags), the same for the costs as for 32.B's search modifier
  local b = assert(keel.board.load_string(io.open(MAPS .. "sevilla.map"):read("a") ..
    "\ntag port_interdiction_2 23A:2927\n", "pi.map"))
  local w2 = setup(b, { { "TF", "TF", "Allied", "23A:2927", "G" } })
  t.eq(w2.q("activity_cost", w2.groups.G, "combat_round"), 10)
  t.eq(w2.q("pi_level", "Allied", b:hex("23A:2927")), 2)
  w2.game:set_keyed("port_interdiction", { "Allied", b:hex("23A:2927") }, 1)
  t.eq(w2.q("pi_level", "Allied", b:hex("23A:2927")), 0, "the markers in play say, when there are any")
end)

t.test("32.A.3-5: the spend action spends MPs one by one, firing mp_spent", function()
  local w = setup("sevilla.map", { { "TF", "TF", "Allied", "23A:3029", "G" } })
  local ok, cost = w.act("spend", { group = w.groups.G, activity = "lay_mine" })
  t.ok(ok); t.eq(cost, 5)
  t.eq(w.gv("G", "mp_spent"), 5)
  local log = probe_log(w.game)
  t.eq(#log, 5)
  t.eq(log[5], "mp 23A:3029 5 lay_mine")
  local bad, why = w.act("spend", { group = w.groups.G, activity = "replenish" })
  t.ok(not bad and tostring(why):find("costs 15 MPs, 10 left"), tostring(why))
end)

-- ---- 32.A.4 --------------------------------------------------------------------------

t.test("32.A.4-1: a group ending in a friendly-owned port hex may enter the port or stay at sea", function()
  local w = setup("sevilla.map", { { "NT", "NT", "Allied", "23A:2928", "G" }, { "X", "NT", "Axis", "23A:2928", "X" } })
  t.ok(w.act("move", { group = w.groups.G, path = { "23A:2927" } }))
  t.ok(w.act("enter_port", { group = w.groups.G }))
  t.eq((w.game:get(w.units.NT, "loc")), "port")
  local ok, why = w.act("move", { group = w.groups.G, path = { "23A:2928" } })
  t.ok(not ok and tostring(why):find("32.A.4"), tostring(why))
  w.game:move(w.units.X, "hex", w.board:hex("23A:2927"))
  ok, why = w.act("enter_port", { group = w.groups.X })
  t.ok(not ok and tostring(why):find("friendly%-owned port"), tostring(why))
  -- the next naval movement step the group may leave
  w.set:emit(w.game, "naval_step_start", { side = "Allied", step = 2 })
  t.ok(w.act("move", { group = w.groups.G, path = { "23A:2928" } }))
  t.eq(w.gv("G", "mp_spent"), 1)
end)

-- ---- 32.A.5 --------------------------------------------------------------------------

t.test("32.A.5-1: 33:1225-1224-1324 is illegal while 33:1223 and 1224 are enemy-owned", function()
  local w = setup("straits.map", { { "TF", "TF", "Allied", "33:1225", "G" } })
  local ok, why = w.act("move", { group = w.groups.G, path = { "33:1224", "33:1324" } })
  t.ok(not ok and tostring(why):find("32.A.5: the narrow strait at 33:1223/1224"), tostring(why))
  ok = w.act("move", { group = w.groups.G, to = "33:1324" })
  t.ok(not ok, "no path by destination either")
  w.game:set_owner(w.board:hex("33:1223"), "Allied")
  ok = w.act("move", { group = w.groups.G, path = { "33:1224", "33:1324" } })
  t.ok(not ok, "one hex friendly is not enough")
  w.game:set_owner(w.board:hex("33:1224"), "Allied")
  t.ok(w.act("move", { group = w.groups.G, path = { "33:1224", "33:1324" } }))
  t.eq(at(w, "TF"), "33:1324")
  t.eq(w.gv("G", "mp_spent"), 3)
end)

t.test("32.A.5-2: one board, one rule set, two games: a strait taken in one is not taken in the other; undo closes it", function()
  local board = assert(keel.board.load(MAPS .. "straits.map", { shared = true }))
  local w1 = setup(board, { { "TF", "TF", "Allied", "33:1225", "G" } })
  local w2 = setup(board, { { "TF", "TF", "Allied", "33:1225", "G" } })
  local function move(w) return w1.set:act(w.game, "move", { group = w.groups.G, to = "33:1324" }) end
  t.ok(not move(w1) and not move(w2), "Axis straits: no path for either")
  w1.game:action("take the strait", function(g)
    g:set_owner(board:hex("33:1223"), "Allied")
    g:set_owner(board:hex("33:1224"), "Allied")
  end)
  t.ok(not move(w2), "game 2's owners are its own")
  t.eq(w2.game:get_owner(board:hex("33:1224")), "Axis")
  w1.game:undo()
  t.ok(not move(w1), "undone: the strait is Axis again in game 1")
  w1.game:redo()
  t.ok(move(w1), "redone: the path through the strait")
  t.eq(at(w1, "TF"), "33:1324")
  t.eq(at(w2, "TF"), "33:1225")
end)

-- ---- 32.A.6 --------------------------------------------------------------------------

local SEVILLA = { "23A:3227", "23A:3227/3327", "23A:3327/3226", "23A:3226/3326", "23A:3326/3225",
  "23A:3225/3325", "23A:3224/3225" }

t.test("32.A.6-1: the Sevilla example: 2 MPs to 3227, 1 per river hexside, 4 more to 3224/3225", function()
  local w = setup("sevilla.map", { { "NT", "NT", "Allied", "23A:3228", "C" } })
  t.ok(w.act("move", { group = w.groups.C, path = { SEVILLA[1], SEVILLA[2], SEVILLA[3] } }))
  t.eq(w.gv("C", "mp_spent"), 4)             -- 2 + 1 + 1
  t.ok(w.act("move", { group = w.groups.C, path = { SEVILLA[4], SEVILLA[5], SEVILLA[6], SEVILLA[7] } }))
  t.eq(w.gv("C", "mp_spent"), 8)             -- and so on to 3224/3225: 4 MPs
  t.eq(w.board:format_side(w.gv("C", "river_side")), "23A:3224/3225")
  t.ok(w.act("enter_port", { group = w.groups.C }))
  t.eq(select(2, w.game:get(w.units.NT, "loc")), w.board:hex("Sevilla"))
  local log = probe_log(w.game)
  t.eq(log[1], "mp 23A:3227 1 enter"); t.eq(log[2], "mp 23A:3227 2 enter"); t.eq(log[3], "enter 23A:3227 2")
end)

t.test("32.A.6-2: cargo groups only, both hexes friendly-owned, by destination too", function()
  local w = setup("sevilla.map", { { "TF", "TF", "Allied", "23A:3227", "T" }, { "NT", "NT", "Allied", "23A:3227", "C" } })
  local ok, why = w.act("move", { group = w.groups.T, path = { "23A:3227/3327" } })
  t.ok(not ok and tostring(why):find("only cargo"), tostring(why))
  t.ok(w.act("move", { group = w.groups.C, to = "23A:3224/3225" }))
  t.eq(w.gv("C", "mp_spent"), 6)
  local w2 = setup("sevilla.map", { { "NT", "NT", "Allied", "23A:3227", "C" } })
  w2.game:set_owner(w2.board:hex("23A:3226"), "Axis")
  ok, why = w2.act("move", { group = w2.groups.C, path = { "23A:3227/3327", "23A:3327/3226" } })
  t.ok(not ok and tostring(why):find("both hexes of 23A:3226/3327"), tostring(why))
end)

t.test("32.A.6-3: no further upriver than the first hexside adjacent to the inland port", function()
  local f = assert(io.open(MAPS .. "sevilla.map")):read("a")
  local b = assert(keel.board.load_string(f .. "\nside 23A:3224/3125 23A:3125/3124 major-river \"Guadalquivir\"\n", "sevilla+.map"))
  local w = setup(b, { { "NT", "NT", "Allied", "23A:3227", "C" } })
  t.ok(w.act("move", { group = w.groups.C, path = { SEVILLA[2], SEVILLA[3], SEVILLA[4], SEVILLA[5], SEVILLA[6], SEVILLA[7] } }))
  local ok, why = w.act("move", { group = w.groups.C, path = { "23A:3125/3224" } })
  t.ok(not ok and tostring(why):find("no further upriver"), tostring(why))
  t.ok(w.act("move", { group = w.groups.C, path = { "23A:3225/3325" } }))   -- back downriver
end)

-- ---- 32.A.6.a ------------------------------------------------------------------------

local CANAL = { "19A:3413/3514", "19A:3514/3513", "19A:3514/3613", "19A:3614/3613", "19A:3614/3714",
  "19A:3614/3715", "19A:3615/3715", "19A:3615/3716", "19A:3616/3716", "19A:3616/3717",
  "19A:3617/3717", "19A:3617/3718", "19A:3718" }

local function suez(forces, globals)
  local w = setup("suez.map", forces, { globals = globals })
  for _, l in ipairs { "19A:3714", "19A:3715", "19A:3716", "19A:3717", "19A:3617" } do
    w.game:set_owner(w.board:hex(l), "Allied")
  end
  w.set:emit(w.game, "game_start", {})
  return w
end

t.test("32.A.6.a-1: Allied groups move along Allied-owned canal hexsides while the canal is open", function()
  local w = suez { { "TF", "TF", "Allied", "Port Said", "A" }, { "X", "NT", "Axis", "Port Said", "X" } }
  t.eq(#w.q("suez_sides"), 12)
  t.eq(w.game:get_global("suez"), "open")
  local ok, why = w.act("move", { group = w.groups.X, path = { CANAL[1] } })
  t.ok(not ok and tostring(why):find("Axis naval groups may never"), tostring(why))
  t.ok(w.act("move", { group = w.groups.A, path = CANAL }))
  t.eq(at(w, "TF"), "19A:3718")
  t.eq(w.gv("A", "mp_spent"), 14)            -- 12 hexsides + coastal Suez
  -- the move's positions (keyed value last_path {i, "hex"|"side"}); the query gives the hexes
  t.eq(w.game:count_keyed("last_path"), 14, "Port Said, the 12 hexsides, Suez")
  t.eq({ w.game:at_keyed("last_path", 2) }, { { 2, "side" }, w.board:side("19A:3413/3514") })
  t.eq(w.q("last_path"), { w.board:hex("Port Said"), w.board:hex("19A:3718") })
  w.game:set_global("suez", "temporarily closed")
  w.game:group_set_value(w.groups.A, "mp_spent", 0)
  ok, why = w.act("move", { group = w.groups.A, path = { "19A:3617/3718" } })
  t.ok(not ok and tostring(why):find("temporarily closed"), tostring(why))
end)

t.test("32.A.6.a-2: a canal hexside belongs to who owns both hexes, or was the last to", function()
  local w = suez { { "TF", "TF", "Allied", "Port Said", "A" } }
  local s = w.board:side("19A:3514/3513")
  t.eq(w.q("suez_side_owner", s), "Allied")
  w.game:set_owner(w.board:hex("19A:3513"), "Axis")
  w.set:emit(w.game, "owner_changed", { hex = w.board:hex("19A:3513"), side = "Axis" })
  t.eq(w.q("suez_side_owner", s), "Allied")  -- Axis owns one hex only: still Allied
  local ok, why = w.act("move", { group = w.groups.A, path = { CANAL[1], CANAL[2] } })
  t.ok(ok, tostring(why))
  w.game:set_owner(w.board:hex("19A:3514"), "Axis")
  t.eq(w.q("suez_side_owner", s), "Axis")
  w.set:emit(w.game, "owner_changed", {})
  w.game:set_owner(w.board:hex("19A:3514"), "Allied")
  t.eq(w.q("suez_side_owner", s), "Axis")    -- the Axis was the last to own both
end)

t.test("32.A.6.a-3: temporary closure in an Allied initial phase with an Axis unit in regular supply in the Delta", function()
  local w = suez({ { "TF", "TF", "Allied", "Port Said", "A" } }, { phasing = "Allied" })
  local ok, why = w.act("close_suez", {})
  t.ok(not ok and tostring(why):find("Allied initial phase"), tostring(why))
  w.game:set_global("phase", "initial")   -- the Allied initial phase, as the sequence of play sets it
  w.game:set_global("phasing", "Allied")
  w.set:emit(w.game, "initial_phase", { side = "Allied" })
  ok, why = w.act("close_suez", {})
  t.ok(not ok and tostring(why):find("regular supply"), tostring(why))
  local inf = w.game:unit_new { name = "90 Lt", type = "INF", side = "Axis", values = { supply = "out" } }
  w.game:move(inf, "hex", w.board:hex("19A:2913"))
  ok = w.act("close_suez", {})
  t.ok(not ok, "out of supply")
  w.game:set_value(inf, "supply", "regular")
  t.ok(w.act("close_suez", {}))
  t.eq(w.game:get_global("suez"), "temporarily closed")
  -- reopening: an Allied initial phase with every canal hexside Allied-owned
  ok, why = w.act("reopen_suez", {})
  t.ok(ok, tostring(why))
  t.eq(w.game:get_global("suez"), "open")
  w.game:set_global("phase", "movement")   -- as the sequence of play moves on
  w.set:emit(w.game, "movement_phase", {})
  ok, why = w.act("close_suez", {})
  t.ok(not ok and tostring(why):find("initial phase"), tostring(why))
end)

t.test("32.A.6.a-4: reopening needs every canal hexside Allied-owned", function()
  local w2 = setup("suez.map", { { "TF", "TF", "Allied", "Port Said", "A" } },
    { globals = { suez = "temporarily closed" } })
  w2.game:set_global("phase", "initial")   -- the Allied initial phase, as the sequence of play sets it
  w2.game:set_global("phasing", "Allied")
  w2.set:emit(w2.game, "initial_phase", { side = "Allied" })
  local ok, why = w2.act("reopen_suez", {})
  t.ok(not ok and tostring(why):find("is not Allied%-owned"), tostring(why))
  t.eq(w2.game:get_global("suez"), "temporarily closed")
end)

t.test("32.A.6.a-5: permanent closure at the first initial phase with an Axis-owned hexside; 25 VPs only from Open", function()
  local w = suez({ { "TF", "TF", "Allied", "Port Said", "A" } })
  w.game:set_keyed("vp", "Allied", 100)
  w.game:set_owner(w.board:hex("19A:3413"), "Axis")
  w.game:set_owner(w.board:hex("19A:3514"), "Axis")
  t.eq(w.game:get_global("suez"), "open")
  w.set:emit(w.game, "initial_phase", { side = "Axis" })
  t.eq(w.game:get_global("suez"), "permanently closed")
  t.eq(w.game:get_keyed("vp", "Allied"), 75)
  w.set:emit(w.game, "initial_phase", { side = "Allied" })
  t.eq(w.game:get_keyed("vp", "Allied"), 75)
  local w2 = suez({ { "TF", "TF", "Allied", "Port Said", "A" } }, { suez = "temporarily closed" })
  w2.game:set_keyed("vp", "Allied", 100)
  w2.game:set_owner(w2.board:hex("19A:3413"), "Axis")
  w2.game:set_owner(w2.board:hex("19A:3514"), "Axis")
  w2.set:emit(w2.game, "initial_phase", { side = "Allied" })
  t.eq(w2.game:get_global("suez"), "permanently closed")
  t.eq(w2.game:get_keyed("vp", "Allied"), 100)
  w2.game:set_global("phase", "initial")   -- the Allied initial phase, as the sequence of play sets it
  w2.game:set_global("phasing", "Allied")
  local ok, why = w2.act("reopen_suez", {})
  t.ok(not ok and tostring(why):find("only a temporarily closed"), tostring(why))
end)

-- ---- 32.A.6.a.1 ----------------------------------------------------------------------

t.test("32.A.6.a.1-1: a side owning 15B:0813 and 0814 moves groups without TFs or CGs through the Corinth Canal", function()
  local w = setup("corinth.map", { { "NT", "NT", "Axis", "15B:0813", "C" }, { "TF", "TF", "Axis", "15B:0813", "T" },
    { "SUB", "SUB", "Axis", "15B:0813", "S" }, { "A", "NT", "Allied", "15B:0813", "A" } })
  t.ok(w.act("move", { group = w.groups.C, path = { "15B:0813/0814", "15B:0814" } }))
  t.eq(w.gv("C", "mp_spent"), 3)
  t.ok(w.act("move", { group = w.groups.S, path = { "15B:0813/0814", "15B:0814" } }))
  local ok, why = w.act("move", { group = w.groups.T, path = { "15B:0813/0814" } })
  t.ok(not ok and tostring(why):find("TF or CG"), tostring(why))
  ok, why = w.act("move", { group = w.groups.A, path = { "15B:0813/0814" } })
  t.ok(not ok and tostring(why):find("must own both"), tostring(why))
end)

-- ---- the move action (family plumbing): 32.A movement by MPs, 32.D combat pauses it -------

t.test("32.A-5: groups move by spending MPs: mp_spent per MP, group_enters_hex per hex; ev.stop ends movement there", function()
  local w = setup("sevilla.map", { { "TF", "TF", "Allied", "23A:3029", "G" } }, { globals = { probe_stop_at = "23A:3031" } })
  t.ok(w.act("move", { group = w.groups.G, path = { "23A:3030", "23A:3031", "23A:3131" } }))
  t.eq(at(w, "TF"), "23A:3031")
  t.eq(w.gv("G", "mp_spent"), 2)
  t.eq(table.concat(probe_log(w.game), ","), "mp 23A:3030 1 enter,enter 23A:3030 1,mp 23A:3031 2 enter,enter 23A:3031 2")
  local ok, why = w.act("move", { group = w.groups.G, path = { "23A:3131" } })
  t.ok(not ok and tostring(why):find("ended its movement"), tostring(why))
end)

t.test("32.A-6: a group moves within its MPs: not enough is illegal and changes nothing; ev.stop from mp_spent", function()
  local w = setup("sevilla.map", { { "TF", "TF", "Allied", "23A:3029", "G" } }, { globals = { probe_stop_mp = 2 } })
  local h = w.game:hash()
  local long = {}
  for i = 1, 16 do long[i] = ({ "23A:3030", "23A:3031", "23A:3030", "23A:3029" })[(i - 1) % 4 + 1] end
  local ok, why = w.act("move", { group = w.groups.G, path = long })
  t.ok(not ok and tostring(why):find("not enough MPs"), tostring(why))
  t.eq(w.game:hash(), h)
  t.ok(w.act("move", { group = w.groups.G, path = { "23A:3030", "23A:3031", "23A:3030" } }))
  t.eq(at(w, "TF"), "23A:3031")
end)

t.test("32.D-5: every combat a movement starts (ev.combats) is fought, in order, before movement resumes", function()
  local w = setup("sevilla.map", { { "TF", "TF", "Allied", "23A:3029", "G" } },
    { globals = { probe_combats_at = "23A:3030" } })
  t.ok(w.act("move", { group = w.groups.G, path = { "23A:3030", "23A:3031" } }))
  local log = probe_log(w.game)
  t.eq({ log[2], log[3], log[4], log[5] },
    { "enter 23A:3030 1", "combat 23A:3030 submarine", "combat 23A:3030 surface", "mp 23A:3031 2 enter" })
  t.eq(w.game:count_keyed("naval_combat"), 2, "32.D resolves each")
  t.ok(w.game:get_keyed("naval_combat", 1):find("^round 1 of submarine combat"))
  t.ok(w.game:get_keyed("naval_combat", 2):find("^round 1 of surface combat"))
  t.eq(at(w, "TF"), "23A:3031")
  -- a handler that sets only ev.combat is heard too (the first of the list)
  local w2 = setup("sevilla.map", { { "TF", "TF", "Allied", "23A:3029", "G" } },
    { globals = { probe_combat_at = "23A:3030" } })
  t.ok(w2.act("move", { group = w2.groups.G, path = { "23A:3030" } }))
  t.eq(w2.game:count_keyed("naval_combat"), 1)
end)

t.test("32.D.2-7: surface combat suspends movement (ev.combat, naval_combat); movement resumes while MPs remain", function()
  local w = setup("sevilla.map", { { "TF", "TF", "Allied", "23A:3029", "G" } },
    { globals = { probe_combat_at = "23A:3030", probe_resolve = true } })
  t.ok(w.act("move", { group = w.groups.G, path = { "23A:3030", "23A:3031", "23A:3131" } }))
  t.eq(at(w, "TF"), "23A:3131")
  t.eq(w.gv("G", "mp_spent"), 4)            -- 3 hexes + 1 for the second combat round
  local log = probe_log(w.game)
  t.eq(log[3], "combat 23A:3030 surface")
  t.eq(log[4], "mp 23A:3031 3 enter")
  t.eq(w.game:count_keyed("engagement"), 0)    -- resolved by the probe: nothing recorded
  t.eq(w.game:count_keyed("naval_combat"), 0, "nor by 32.D: the probe resolved it (ev.resolved)")
  -- not resolved by the probe: 32.D resolves it, movement goes on
  local w1 = setup("sevilla.map", { { "TF", "TF", "Allied", "23A:3029", "G" } },
    { globals = { probe_combat_at = "23A:3030" } })
  t.ok(w1.act("move", { group = w1.groups.G, path = { "23A:3030", "23A:3031" } }))
  t.eq(w1.game:count_keyed("naval_combat"), 1)
  t.eq(at(w1, "TF"), "23A:3031")
  -- out of MPs: naval_combat is emitted, but no combat occurs (32.D.2's
  -- note: not when the moving units have expended all their MPs), nothing
  -- is recorded, and movement ends
  local w2 = setup("sevilla.map", { { "TF", "TF", "Allied", "23A:3029", "G" } },
    { globals = { probe_combat_at = "23A:3030" } })
  w2.game:group_set_value(w2.groups.G, "mp_spent", 14)
  t.ok(w2.act("move", { group = w2.groups.G, path = { "23A:3030" } }))
  local log2 = probe_log(w2.game)
  t.eq(log2[#log2], "combat 23A:3030 surface")
  t.eq(w2.game:count_keyed("naval_combat"), 0)
  t.eq(w2.game:count_keyed("engagement"), 0)
  t.eq(w2.gv("G", "move_ended"), true)
end)

-- ---- the scenarios --------------------------------------------------------------------

-- each test named by the rule it plays (the integration game: Rule 32 as a whole)
local function plays(name)
  return function()
    local run = scenario.start(scenario.load("tests/scenarios/" .. name .. ".lua"))
    local passed, failed = run:play_all()
    local problems = {}
    for _, r in ipairs(run.results) do
      for _, p in ipairs(r.problems) do problems[#problems + 1] = ("order %d: %s"):format(r.index, p) end
    end
    t.eq(failed, 0, table.concat(problems, "\n"))
    t.ok(passed > 0)
  end
end

t.test("32.A.5 scenario navgroup_straits plays with every expectation met", plays("navgroup_straits"))
t.test("32.A.6 scenario navgroup_sevilla plays with every expectation met", plays("navgroup_sevilla"))
t.test("32.A.6.a scenario navgroup_suez plays with every expectation met", plays("navgroup_suez"))
t.test("32 scenario navgroup_integration plays with every expectation met", plays("navgroup_integration"))

t.test("32.A-to-not-a-hex: a move whose `to` is an integer that is no hex is refused at its parameter, naming it", function()
  local w = setup("sevilla.map", { { "A1", "TF", "Allied", "23A:3029", "A" } }, { globals = { phasing = "Allied" } })
  local before = w.game:hash()
  for _, bad in ipairs { 5, -1, math.maxinteger, 1 << 40 } do
    local ok, why = w.act("move", { group = w.groups.A, to = bad })
    t.ok(not ok, tostring(bad))
    t.ok(tostring(why):find(("to: %d, not a hex on the board"):format(bad), 1, true), tostring(why))
    t.ok(not tostring(why):find("bad argument", 1, true) and not tostring(why):find("move.lua", 1, true), tostring(why))
  end
  local ok, why = w.act("move", { group = w.groups.A, path = { "23A:3030", 77 } })
  t.ok(not ok and tostring(why):find("77, not a hex on the board", 1, true), tostring(why))
  t.eq(w.game:hash(), before)
end)

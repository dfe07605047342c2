-- tests/lua/navgroup_landing_reaction_test.lua — 37.E ENEMY REACTION
-- MOVEMENT (scripts/navgroup/landing_reaction.lua): the roll for each
-- landing hex or group of up to three adjacent hexes, its modifiers, and the
-- moves each result permits and forbids. The stand-in SUCCESS TABLE: 0 or
-- less D, 1 F*, 2-3 F, 4-5 S, 6+ S*; terrain costs are the stand-in 1 MP a
-- hex (doubled within 5 hexes of the landing hex); reacting units have M = 8
-- (1/2 M - 2 = 2).
local t = require "keel.testing"
local F = dofile("tests/lua/navgroup_landing_fixture.lua")

local refused = F.refused

-- Allied landings (one infantry unit each, a group of LCs per beach) at `beaches`
local function land_at(w, beaches)
  for i, beach in ipairs(beaches) do
    local g, craft = F.fleet(w, "Force " .. i, { "LC" }, beach)
    local u = F.troop(w, "Inf " .. i, craft[1])
    F.plan(w, beach, { u })
    w.game.dice:force(6, 6)
    assert(F.land(w, g, { u }))
  end
end

-- A landing at `beach` (default A:0502), Axis units placed ({name, hex, values}),
-- then the Axis reaction phase with the die forced: the world
local function react_world(die, opts)
  opts = opts or {}
  local w = F.world { families = { "navgroup_landing_probe" }, globals = opts.globals }
  for _, u in ipairs(opts.axis or {}) do
    local v = { reserve = true, mp = 8 }
    for k, x in pairs(u[3] or {}) do v[k] = x end
    F.unit_at(w, u[1], u[2], "Axis", v)
  end
  land_at(w, { opts.beach or "A:0502" })
  w.game.dice:force(die)
  w.emit("reaction_phase", { side = "Axis" })
  return w
end

local function move(w, name, path, extra)
  local p = { unit = w.units[name], path = path }
  for k, v in pairs(extra or {}) do p[k] = v end
  return w.act("react_move", p)
end

local function result_of(w) return w.q("reaction_set", 1, "result") end

t.test("37.E-1: one roll per landing hex or group of up to three adjacent hexes, grouped and ordered by the phasing player; airborne apart", function()
  local w = F.world()
  land_at(w, { "A:0501", "A:0502", "A:0507" })
  w.emit("airborne_landing", { hex = w.hex("A:0503"), side = "Allied" })
  refused(w, "37.E: a group is of one to 3 adjacent landing hexes", function()
    return w.act("group_landings", { hexes = { "A:0501", "A:0502", "A:0503", "A:0507" } }) end)
  refused(w, "37.E: A:0507 is not adjacent to the others", function()
    return w.act("group_landings", { hexes = { "A:0502", "A:0507" } }) end)
  refused(w, "37.E: no landing was made at A:0504 this player-turn", function()
    return w.act("group_landings", { hexes = { "A:0504" } }) end)
  refused(w, "37.E: airborne landings are grouped separately", function()
    return w.act("group_landings", { hexes = { "A:0502", "A:0503" } }) end)
  -- the phasing player's order: A:0507 first, then A:0502 with A:0501
  t.ok(w.act("group_landings", { hexes = { "A:0507" } }))
  t.ok(w.act("group_landings", { hexes = { "A:0502", "A:0501" } }))
  refused(w, "37.E: A:0501 is grouped already", function() return w.act("group_landings", { hexes = { "A:0501" } }) end)
  w.game.dice:force(6, 5, 4)
  w.emit("reaction_phase", { side = "Axis" })
  local r = F.rolls(w, "invasion_reaction")
  t.eq(#r, 3, "two groups and the airborne landing alone")
  t.eq({ r[1].die, r[2].die, r[3].die }, { 6, 5, 4 })
  t.eq(w.q("reaction_set_hexes", 1), { w.hex("A:0507") })
  t.eq(w.q("reaction_set_hexes", 2), { w.hex("A:0502"), w.hex("A:0501") })
  t.eq(w.q("reaction_set_hexes", 3), { w.hex("A:0503") })
  t.eq(F.mods(r[3]).airdrop, -1)
  t.eq(r[1].rule, "37.E")
  -- once per player-turn
  w.emit("reaction_phase", { side = "Axis" })
  t.eq(#F.rolls(w, "invasion_reaction"), 3)
end)

t.test("37.E-2: the modifiers: distance from the front, all unoccupied, commandos only, surprise, MDs active, ports, German airdrops before Aug 41", function()
  local w = react_world(6)
  local m = F.mods(F.rolls(w, "invasion_reaction")[1])
  t.eq(m, { distance_from_front = -1, all_unoccupied = -1 }, "A:0502 is 6 hexes from the Allied line; nobody defends it")
  local w2 = react_world(6, { beach = "A:0505", axis = { { "Garrison", "A:0505", { reserve = false } } },
    globals = { surprise_phase = true, mds_active = true } })
  m = F.mods(F.rolls(w2, "invasion_reaction")[1])
  t.eq(m, { surprise_phase = -1, mds_active = 1, major_port = 2 })
  -- commandos only
  local w3 = F.world()
  local g, craft = F.fleet(w3, "Force", { "LC" }, "A:0502")
  local c = F.troop(w3, "Commando", craft[1], { commando = true })
  F.plan(w3, "A:0502", { c })
  w3.game.dice:force(6, 6)
  t.ok(F.land(w3, g, { c }))
  w3.game.dice:force(6)
  w3.emit("reaction_phase", { side = "Axis" })
  t.eq(F.mods(F.rolls(w3, "invasion_reaction")[1]).commandos_only, -1)
  -- a German airdrop before Aug 1 41 (the airborne chapter sends it)
  local w4 = F.world { globals = { year = 1941, month = 5, phasing = "Axis" }, no_step = true }
  local para = F.unit_at(w4, "Fallschirmjäger", "A:0509", "Axis", { nationality = "German" })
  w4.game:set_owner(w4.hex("A:0509"), "Axis")
  w4.emit("airborne_landing", { hex = w4.hex("A:0509"), side = "Axis", units = { para } })
  w4.game.dice:force(6)
  w4.emit("reaction_phase", { side = "Allied" })
  m = F.mods(F.rolls(w4, "invasion_reaction")[1])
  t.eq({ m.airdrop, m.german_airdrop_before_aug_41 }, { -1, -1 })
end)

t.test("37.E (D)-1: reserves within 5 hexes move at double terrain costs, and none enters the landing hex (refused, state unchanged)", function()
  local w = react_world(2, { axis = { { "Near", "A:0702" }, { "Edge", "A:1002" }, { "Far", "A:1102" } } })
  t.eq(result_of(w), "D")
  refused(w, "37.E (D): no reacting unit may enter the landing hex A:0502", function()
    return move(w, "Near", { "A:0602", "A:0502" }) end)
  refused(w, "37.E (D): only units within 5 hexes of the landing hex react; Far is 6 away", function()
    return move(w, "Far", { "A:1002" }) end)
  -- out past 5 hexes: still doubled
  t.ok(move(w, "Edge", { "A:1102" }))
  t.eq(w.game:get_value(w.units.Edge, "mp_left"), 6, "2 MPs: the terrain cost doubled beyond 5 hexes too")
  refused(w, "37.E: Edge has reacted already", function() return move(w, "Edge", { "A:1002" }) end)
end)

t.test("37.E (F*)-1: reserves within 5 hexes move normally (costs doubled entering a hex within 5), none enters the landing hex", function()
  local w = react_world(3, { axis = { { "Near", "A:0702" }, { "Edge", "A:1002" } } })
  t.eq(result_of(w), "F*")
  refused(w, "37.E (F*): no reacting unit may enter the landing hex", function() return move(w, "Near", { "A:0602", "A:0502" }) end)
  t.ok(move(w, "Edge", { "A:1102" }))
  t.eq(w.game:get_value(w.units.Edge, "mp_left"), 7, "1 MP: beyond 5 hexes, normal")
  t.ok(move(w, "Near", { "A:0602" }))
  t.eq(w.game:get_value(w.units.Near, "mp_left"), 6, "2 MPs: within 5 hexes, doubled")
  local w2 = react_world(3, { axis = { { "Line", "A:0702", { reserve = false } } } })
  refused(w2, "37.E (F*): only units in reserve react", function() return move(w2, "Line", { "A:0602" }, { as_reserve = true }) end)
  refused(w2, "37.E (F*): Line is not in reserve", function() return move(w2, "Line", { "A:0602" }) end)
end)

t.test("37.E (F)-1: only one unit enters the landing hex, and from within 1/2 M - 2 hexes; one unit not in reserve within 1/2 M - 2 may react", function()
  local w = react_world(4, { axis = { { "A", "A:0702" }, { "B", "A:0702" }, { "C", "A:0802" },
    { "Line", "A:0602", { reserve = false } }, { "Line far", "A:0902", { reserve = false } } } })
  t.eq(result_of(w), "F")
  refused(w, "37.E (F): a unit entering the landing hex must start within 1/2 M - 2 = 2 hexes of it (C starts 3 away)",
    function() return move(w, "C", { "A:0702", "A:0602", "A:0502" }) end)
  t.ok(move(w, "A", { "A:0602", "A:0502" }))
  t.eq(w.game:get_value(w.units.A, "mp_left"), 3, "2 + 2 doubled terrain, +1 for the invaders' partial ZOC")
  refused(w, "37.E (F): only one unit may enter the landing hex A:0502, and one has", function()
    return move(w, "B", { "A:0602", "A:0502" }) end)
  t.ok(move(w, "B", { "A:0602" }), "elsewhere, normally")
  -- one unit not in reserve, within 1/2 M - 2
  refused(w, "37.E (F): the unit not in reserve must be within 1/2 M - 2 = 2 hexes of the landing hex (4)", function()
    return move(w, "Line far", { "A:0802" }, { as_reserve = true }) end)
  t.ok(move(w, "Line", { "A:0702" }, { as_reserve = true }))
  local w2 = react_world(4, { axis = { { "L1", "A:0602", { reserve = false } }, { "L2", "A:0702", { reserve = false } } } })
  t.ok(move(w2, "L1", { "A:0702" }, { as_reserve = true }))
  refused(w2, "37.E (F): one unit not in reserve may react, and one has", function()
    return move(w2, "L2", { "A:0802" }, { as_reserve = true }) end)
end)

t.test("37.E (S)-1: as many units as desired enter the landing hex, each from within 1/2 M - 2 hexes; one unit not in reserve", function()
  local w = react_world(6, { axis = { { "A", "A:0702" }, { "B", "A:0702" }, { "C", "A:0802" },
    { "L1", "A:0902", { reserve = false } }, { "L2", "A:0902", { reserve = false } } } })
  t.eq(result_of(w), "S")
  t.ok(move(w, "A", { "A:0602", "A:0502" }))
  t.ok(move(w, "B", { "A:0602", "A:0502" }), "a second one")
  refused(w, "37.E (S): a unit entering the landing hex must start within 1/2 M - 2 = 2 hexes of it", function()
    return move(w, "C", { "A:0702", "A:0602", "A:0502" }) end)
  t.ok(move(w, "L1", { "A:0802" }, { as_reserve = true }), "no distance limit but the 5 hexes")
  refused(w, "37.E (S): one unit not in reserve may react, and one has", function()
    return move(w, "L2", { "A:0802" }, { as_reserve = true }) end)
end)

t.test("37.E (S*)-1: as many units as desired enter the landing hex from anywhere within 5; one unit not in reserve per landing hex", function()
  -- A:0505: +2 major port, -1 unoccupied, +1 MDs active: 4 + 2 = 6
  local w = react_world(4, { beach = "A:0505", globals = { mds_active = true },
    axis = { { "Far", "A:0805" }, { "L1", "A:0705", { reserve = false } }, { "L2", "A:0705", { reserve = false } } } })
  t.eq(result_of(w), "S*")
  t.ok(move(w, "Far", { "A:0705", "A:0605", "A:0505" }), "three hexes away (beyond 1/2 M - 2): it enters")
  t.ok(move(w, "L1", { "A:0605" }, { as_reserve = true }))
  refused(w, "37.E (S*): one unit not in reserve per landing hex may react (1 have)", function()
    return move(w, "L2", { "A:0605" }, { as_reserve = true }) end)
end)

t.test("37.E-3: no reacting unit starts in an enemy ZOC; one in a hex with enemy units may leave it, or overrun them (MPs, no ZOC costs)", function()
  local w = react_world(6, { axis = { { "Garrison", "A:0502" }, { "Pinned", "A:0802" }, { "Other", "A:0802" } } })
  F.unit_at(w, "Allied screen", "A:0803", "Allied")   -- a full ZOC over A:0802
  refused(w, "37.E: Pinned starts in an enemy ZOC: no reacting unit may", function() return move(w, "Pinned", { "A:0702" }) end)
  -- the garrison is in the invaders' hex: it may leave
  t.ok(move(w, "Garrison", { "A:0602" }))
  t.eq({ w.game:get(w.units.Garrison, "loc") }, { "hex", w.hex("A:0602") })
  -- or overrun
  local w2 = react_world(6, { axis = { { "Garrison", "A:0502" } } })
  t.ok(w2.act("react_overrun", { unit = w2.units.Garrison }))
  t.eq(w2.game:get_global("probe_kind"), "overrun")
  t.eq(w2.game:get_global("probe_airborne"), true, "as after an airborne landing (37.B)")
  t.eq(w2.game:get_value(w2.units.Garrison, "mp_left"), 5, "the overrun's MPs (stand-in 3), no ZOC cost")
  refused(w2, "37.E: Garrison has reacted already", function()
    return w2.act("react_overrun", { unit = w2.units.Garrison }) end)
  -- no reaction phase, no reaction
  local w3 = F.world()
  local u = F.unit_at(w3, "Idle", "A:0702", "Axis", { reserve = true })
  refused(w3, "37.E: Idle is not in a reaction phase of its side", function()
    return w3.act("react_move", { unit = u, path = { "A:0602" } }) end)
end)

-- tests/lua/navgroup_landing_test.lua — Rule 37 AMPHIBIOUS LANDINGS, its
-- restrictions (a)-(g) and the East Front limitation (scripts/navgroup/
-- landings.lua), and 37.A TRANSPORT COSTS (landing_costs.lua), on the coast
-- of tests/lua/navgroup_landing_fixture.lua. Every refused order is checked
-- to leave the state hash as it was.
local t = require "keel.testing"
local keel = require "keel"
local F = dofile("tests/lua/navgroup_landing_fixture.lua")

-- an Allied force of LCs at `beach` with a 1-RE infantry unit in reserve aboard,
-- planned for `beach` (opts: types, troop values, plan = false)
local function force(w, beach, opts)
  opts = opts or {}
  local g, craft = F.fleet(w, "Force", opts.types or { "LC" }, beach)
  local u = F.troop(w, "Inf", craft[1], opts.values)
  if opts.plan ~= false then F.plan(w, beach, { u }) end
  return g, craft, u
end

local refused = F.refused

-- ---- 37: the landing ----------------------------------------------------------------

t.test("37-1: units aboard the group's craft go ashore at a beach in or next to the group's hex", function()
  local w = F.world()
  local g, craft, u = force(w, "A:0502")
  w.game.dice:force(6, 6)
  local ok, id = F.land(w, g, { u })
  t.ok(ok, id)
  t.eq({ w.game:get(u, "loc") }, { "hex", w.hex("A:0502") })
  t.eq(w.game:get_value(u, "landing"), id)
  t.eq(w.q("landing", id, "hex"), w.hex("A:0502"))
  t.eq(w.q("landing", id, "side"), "Allied")
  t.eq(#w.game:cargo(craft[1]), 0)
  -- from the sea hex next to a beach
  local w2 = F.world()
  local g2, craft2 = F.fleet(w2, "Off", { "LC" }, "A:0402")
  local u2 = F.troop(w2, "Inf", craft2[1])
  local beach = w2.board:format(w2.hex("A:0402"))
  t.eq(beach, "A:0402")
  local next_beach
  for _, h in ipairs(keel.hex.neighbors(w2.hex("A:0402"))) do
    if w2.board:contains(h) and w2.board:get_terrain(h) == "coastal" and not next_beach then next_beach = h end
  end
  F.plan(w2, w2.board:format(next_beach), { u2 })
  w2.game.dice:force(6, 6)
  t.ok(w2.act("land", { group = g2, units = { u2 }, hex = next_beach }))
  t.eq(select(2, w2.game:get(u2, "loc")), next_beach)
  -- not at sea, not two hexes off, not a unit of another group
  local w3 = F.world()
  local g3, craft3 = F.fleet(w3, "Far", { "LC" }, "A:0302")
  local u3 = F.troop(w3, "Inf", craft3[1])
  F.plan(w3, "A:0302", { u3 })
  refused(w3, "is no beach", function() return F.land(w3, g3, { u3 }) end)
  refused(w3, "its own hex or the next one", function() return F.land(w3, g3, { u3 }, { hex = "A:0502" }) end)
  local w4 = F.world()
  local g4 = force(w4, "A:0502")
  local _, other = F.fleet(w4, "Other", { "LC" }, "A:0502")
  local stranger = F.troop(w4, "Stranger", other[1])
  refused(w4, "not carried by a naval unit of Force", function() return F.land(w4, g4, { stranger }) end)
end)

t.test("37 (a)-1: landings by the phasing player, in any naval movement step (refused otherwise, state unchanged)", function()
  local w = F.world()
  local g, _, u = force(w, "A:0502")
  w.game:set_global("phasing", "Axis")
  refused(w, "37 (a): amphibious landings are made by the phasing player", function() return F.land(w, g, { u }) end)
  w.game:set_global("phasing", "Allied")
  w.emit("naval_step_end", { side = "Allied", step = 1 })
  refused(w, "37 (a): amphibious landings are made in a naval movement step", function() return F.land(w, g, { u }) end)
  -- any step: the second one
  w.emit("naval_step_start", { side = "Allied", step = 2 })
  w.game.dice:force(6, 6)
  t.ok(F.land(w, g, { u }))
end)

t.test("37 (b)-1: no landing in stormy seas (refused with the rule id, state unchanged)", function()
  local w = F.world { globals = { sea = "stormy" } }
  local g, _, u = force(w, "A:0502")
  refused(w, "37 (b): no amphibious landing during stormy sea conditions", function() return F.land(w, g, { u }) end)
  w.game:set_global("sea", "rough")
  w.game.dice:force(6, 6)
  t.ok(F.land(w, g, { u }), "rough seas: a landing, with its modifiers")
end)

t.test("37 (c)-1: a unit not intrinsically amphibious lands broken down to its smallest components (the hook)", function()
  local w = F.world()
  local g, craft = F.fleet(w, "Force", { "LC", "LC" }, "A:0502")
  local div = F.troop(w, "Division", craft[1], { breaks_down = true, re = 3 })
  local mar = F.troop(w, "Marine division", craft[2], { breaks_down = true, marine = true, re = 3 })
  F.plan(w, "A:0502", { div, mar })
  t.ok(w.q("breakdown_check", div):find("smallest components"))
  t.ok(w.q("breakdown_check", mar), "the hook answers for any unit; 37 (c) asks it of the others only")
  refused(w, "37 (c): Division must first be broken down", function() return F.land(w, g, { div, mar }) end)
  -- the breakdown rule (another chapter) broke it down: it lands
  w.game:set_value(div, "breaks_down", nil)
  w.game.dice:force(6, 6, 6, 6)
  t.ok(F.land(w, g, { div, mar }), "the marines never needed it")
end)

t.test("37 (d)-1: an assault is a landing on an enemy-owned beach; a friendly beach takes one only beyond its 3 RE limit", function()
  local w = F.world()
  local g, _, u = force(w, "A:0502")
  w.game.dice:force(6, 6)
  local _, id = F.land(w, g, { u })
  t.eq(w.q("landing", id, "assault"), true)
  -- a friendly-owned beach: 1 RE is naval transport, not a landing
  local w2 = F.world()
  local g2, craft2 = F.fleet(w2, "Force", { "LC", "LC" }, "A:0509")
  local small = F.troop(w2, "Small", craft2[1], { reserve = false })
  local big = F.troop(w2, "Big", craft2[2], { reserve = false, re = 3 })
  F.plan(w2, "A:0509", { small, big })
  refused(w2, "friendly-owned beach within its 3 RE limit", function() return F.land(w2, g2, { small }) end)
  w2.game.dice:force(6, 6, 6, 6)
  local ok, id2 = F.land(w2, g2, { small, big })
  t.ok(ok, id2)
  t.eq(w2.q("landing", id2, "assault"), false)
  t.eq(w2.q("beach_re_used", w2.hex("A:0509"), "Allied"), 4)
  -- a beach no one owns is neither
  local w3 = F.world()
  w3.game:set_owner(w3.hex("A:0502"), nil)
  local g3, _, u3 = force(w3, "A:0502")
  refused(w3, "owned by no one", function() return F.land(w3, g3, { u3 }) end)
end)

t.test("37 (e)-1: at least one landing unit attacks the defenders; its +# MP markers go to that combat's die", function()
  local w = F.world { families = { "navgroup_landing_probe" } }
  local g, craft = F.fleet(w, "Force", { "LC", "LC" }, "A:0502")
  local a = F.troop(w, "A", craft[1], { cm = true, he = true })
  local b = F.troop(w, "B", craft[2], { cm = true, he = true })
  F.unit_at(w, "Defender", "A:0502")
  F.plan(w, "A:0502", { a, b })
  refused(w, "37 (e): at least one landing unit must attack", function() return F.land(w, g, { a, b }, { attack = {} }) end)
  local _, other = F.fleet(w, "Other", { "LC" }, "A:0402")
  local stranger = F.troop(w, "Stranger", other[1])
  refused(w, "37 (e): Stranger attacks but does not land", function()
    return F.land(w, g, { a, b }, { attack = { a, stranger } }) end)
  -- a lands and attacks; the table gives it a marker (modified 3: +1 MP, doubled: c/m is motorized)
  w.game.dice:force(6, 6, 6, 6)
  local ok, id = F.land(w, g, { a, b }, { attack = { a } })
  t.ok(ok, id)
  t.eq(w.game:get_value(a, "must_attack"), true)
  t.eq(w.game:get_value(b, "must_attack"), nil)
  t.eq(w.q("landing", id, "attack_required"), true)
  w.game:set_marker(a, "mp_penalty", 4)
  w.emit("combat_phase", { side = "Allied" })
  t.ok(w.act("amphibious_attack", { hex = w.hex("A:0502"), units = { a } }))
  t.eq(w.game:get_global("probe_largest_marker"), 4, "the markers reach the combat")
  t.eq(w.game:get_global("probe_kind"), "amphibious assault")
  -- no defenders: nothing to attack
  local w2 = F.world()
  local g2, _, u2 = force(w2, "A:0501")
  refused(w2, "37 (e): A:0501 has no defenders to attack", function() return F.land(w2, g2, { u2 }, { attack = { u2 } }) end)
end)

t.test("37 (f)-1: only units in reserve assault (refused with the rule id, state unchanged)", function()
  local w = F.world()
  local g, _, u = force(w, "A:0502", { values = { reserve = false } })
  refused(w, "37 (f): only units in reserve may perform amphibious assaults; Inf is not in reserve",
    function() return F.land(w, g, { u }) end)
  w.game:set_value(u, "reserve", true)
  w.game.dice:force(6, 6)
  t.ok(F.land(w, g, { u }))
end)

t.test("37 (g)-1: c/m units may land in the first wave without attacking, and count double their RE size, not four times", function()
  local w = F.world()
  local g, craft = F.fleet(w, "Force", { "LC", "LC", "LC" }, "A:0502")
  local inf = F.troop(w, "Inf", craft[1])
  local tank = F.troop(w, "Tanks", craft[2], { cm = true, he = true })
  local art = F.troop(w, "Guns", craft[3], { artillery = true })
  F.unit_at(w, "Defender", "A:0502")
  F.plan(w, "A:0502", { inf, tank, art })
  t.eq(w.q("transport_re", tank), 4)
  t.eq(w.q("transport_re", tank, { no_attack = true }), 2)
  refused(w, "37.B item 4", function() return F.land(w, g, { inf, tank, art }, { attack = { inf } }) end)
  w.game.dice:force(6, 6, 6, 6, 6, 6)
  t.ok(F.land(w, g, { inf, tank, art }, { attack = { inf, art } }), "the c/m unit does not attack")
  t.eq(w.game:get_value(tank, "must_attack"), nil)
end)

t.test("37 (g)-3: a c/m unit planned to land without attacking does not attack: not by default, not named, not in the combat phase", function()
  local w = F.world()
  local g, craft = F.fleet(w, "Force", { "LC", "LC" }, "A:0502")
  local inf = F.troop(w, "Inf", craft[1])
  local tank = F.troop(w, "Tanks", craft[2], { cm = true, he = true })
  F.unit_at(w, "Defender", "A:0502")
  F.plan(w, "A:0502", { inf, tank }, { no_attack = { tank } })
  refused(w, "37 (g): Tanks was planned to land without attacking (37.C: it counts double its RE size); it may not attack",
    function() return F.land(w, g, { inf, tank }, { attack = { inf, tank } }) end)
  w.game.dice:force(6, 6, 6, 6)
  local ok, id = F.land(w, g, { inf, tank })
  t.ok(ok, id)
  t.eq({ w.game:get_value(inf, "must_attack"), w.game:get_value(tank, "must_attack") }, { true, nil },
    "left out, the attack is every landing unit but the one planned not to attack")
  w.emit("combat_phase", { side = "Allied" })
  refused(w, "37 (g): Tanks landed without attacking (its plan says so, 37.C); it may not attack this player-turn",
    function() return w.act("amphibious_attack", { hex = w.hex("A:0502"), units = { inf, tank } }) end)
  t.ok(w.act("amphibious_attack", { hex = w.hex("A:0502"), units = { inf } }))
  -- only c/m units planned not to attack: no unit attacks, which 37 (e) refuses
  local w2 = F.world()
  local g2, craft2 = F.fleet(w2, "Force", { "LC" }, "A:0502")
  local pz = F.troop(w2, "Panzer", craft2[1], { cm = true })
  F.unit_at(w2, "Defender", "A:0502")
  F.plan(w2, "A:0502", { pz }, { no_attack = { pz } })
  refused(w2, "37 (e): at least one landing unit must attack the defenders of A:0502", function() return F.land(w2, g2, { pz }) end)
end)

t.test("37 (East Front)-1: Soviet units land neither in nor next to a port outside the Soviet Union, and never assault in Bulgaria", function()
  local w = F.world { globals = { east_front = true } }
  local g, craft = F.fleet(w, "Flot", { "LC", "LC" }, "A:0506")
  local sov = F.troop(w, "Rifles", craft[1], { nationality = "Soviet" })
  F.plan(w, "A:0506", { sov })
  refused(w, "37 (East Front): Soviet units may not land in or next to a port outside the Soviet Union (A:0505)",
    function() return F.land(w, g, { sov }) end)
  -- off unless the scenario switches it on
  w.game:set_global("east_front", nil)
  w.game.dice:force(6, 6)
  t.ok(F.land(w, g, { sov }))
  -- in Bulgaria (a tag of the scenario's map)
  local b = F.board()
  t.eq(b:has_tag(b:hex("A:0501"), "bulgaria"), true)
  local w2 = F.world { globals = { east_front = true } }
  local g2, craft2 = F.fleet(w2, "Flot", { "LC" }, "A:0501")
  local sov2 = F.troop(w2, "Rifles", craft2[1], { nationality = "Soviet" })
  F.plan(w2, "A:0501", { sov2 })
  refused(w2, "37 (East Front): Soviet units make no amphibious assault in Bulgaria", function() return F.land(w2, g2, { sov2 }) end)
  -- other nations may
  local other = F.troop(w2, "Marines", craft2[1], { marine = true })
  w2.game:set_value(sov2, "plan", nil)
  F.plan(w2, "A:0501", { other })
  w2.game.dice:force(6, 6)
  t.ok(F.land(w2, g2, { other }))
end)

-- ---- 37.A transport costs -------------------------------------------------------------

t.test("37.A-1: the naval group pays the MP cost summary's row for what it lands, in its carrier's column", function()
  local w = F.world { globals = { year = 1943 } }
  local g, craft = F.fleet(w, "Force", { "LC", "NT", "LB", "NT", "LC" }, "A:0502")
  local inf_lc = F.troop(w, "Inf LC", craft[1])
  local inf_nt = F.troop(w, "Inf NT", craft[2])
  local inf_lb = F.troop(w, "Inf LB", craft[3])
  local he_nt = F.troop(w, "Guns NT", craft[4], { he = true })
  local cm_lc = F.troop(w, "Tanks LC", craft[5], { cm = true, he = true })
  local mar = F.troop(w, "Marines", craft[1], { marine = true })
  local beach = w.hex("A:0502")
  local function cost(units, assault) return (w.q("landing_cost", g, units, beach, assault)) end
  local function row(units, assault) return (select(4, w.q("landing_cost", g, units, beach, assault))) end
  t.eq({ cost({ inf_lc }, true), row({ inf_lc }, true) }, { 45, "assault_amph" })
  t.eq({ cost({ inf_lb }, true), row({ inf_lb }, true) }, { 60, "assault_amph" })
  t.eq({ cost({ inf_nt }, true), row({ inf_nt }, true) }, { 60, "assault_non_amph" })
  t.eq({ cost({ he_nt }, true), row({ he_nt }, true) }, { 120, "assault_he" })
  t.eq({ cost({ cm_lc }, true), row({ cm_lc }, true) }, { 75, "assault_cm_cavalry" })
  t.eq({ cost({ mar }, true), row({ mar }, true) }, { 45, "assault_intrinsic" })
  t.eq({ cost({ inf_lc }, false), row({ inf_lc }, false) }, { 30, "ed_beach_amph" })
  t.eq({ cost({ inf_nt }, false), row({ inf_nt }, false) }, { 45, "ed_beach_non_amph" })
  t.eq({ cost({ he_nt }, false), row({ he_nt }, false) }, { 105, "ed_beach_non_amph_he" })
  t.eq({ cost({ mar }, false), row({ mar }, false) }, { 30, "ed_beach_intrinsic" })
  -- one landing costs its dearest unit's row
  t.eq(cost({ inf_lc, cm_lc, mar }, true), 75)
  -- the c/m unit cannot assault from an NT ("-" in the summary)
  local w2 = F.world()
  local g2, craft2 = F.fleet(w2, "Force", { "NT" }, "A:0502")
  local cm_nt = F.troop(w2, "Tanks NT", craft2[1], { cm = true, he = true })
  local c, why = w2.q("landing_cost", g2, { cm_nt }, w2.hex("A:0502"), true)
  t.eq(c, nil)
  t.ok(why:find("37.A: Tanks NT cannot be landed that way"), why)
  -- the landing spends them
  local w3 = F.world()
  local g3, _, u3 = force(w3, "A:0502")
  w3.game.dice:force(6, 6)
  t.ok(F.land(w3, g3, { u3 }))
  t.eq(w3.game:group_get_value(g3, "mp_spent"), 45)
  t.ok(F.said(w3, "Force spends 45 MPs (Disembark amph cargo making an amph assault., LC column)"))
end)

t.test("37.A-2: a ground unit spends all its remaining MPs to land", function()
  local w = F.world()
  local g, _, u = force(w, "A:0502", { values = { mp = 8, mp_left = 5 } })
  w.game.dice:force(6, 6)
  t.ok(F.land(w, g, { u }))
  t.eq(w.game:get_value(u, "mp_left"), 0)
  t.ok(F.said(w, "Inf spends all its remaining MPs (5) to land"))
end)

t.test("37.A-3: not enough MPs: refused (state unchanged); non-intrinsic armour doubles the cost (32.A.3 *)", function()
  local w = F.world()
  local g, craft = F.fleet(w, "Force", { "LC" }, "A:0502", nil, { mp = 50 })
  local tank = F.troop(w, "Tank", craft[1], { armour = true, cm = true, he = true })
  F.plan(w, "A:0502", { tank })
  t.eq(w.q("landing_cost", g, { tank }, w.hex("A:0502"), true), 150, "75 doubled")
  refused(w, "37.A: the landing costs Force 150 MPs, 50 left", function() return F.land(w, g, { tank }) end)
  w.game:set_value(tank, "amphibious_armour", true)
  w.game:set_value(tank, "armour", nil)
  t.eq(w.q("landing_cost", g, { tank }, w.hex("A:0502"), true), 60, "amphibious armour: heavy equipment only")
end)

t.test("37.A-4: the landing's MPs are spent like any other: a CD in range fires on the group (32.D.3)", function()
  local w = F.world()
  local g, _, u = force(w, "A:0504")
  w.game.dice:force(6, 6)
  t.ok(F.land(w, g, { u }))
  t.ok(w.game:count_keyed("naval_combat") >= 1, "CD combat at the beach next to the port's CD")
  t.ok(F.said(w, "the CD at A:0505 fires on Force"))
end)

-- ---- the showcase ----------------------------------------------------------------------

t.test("37 scenario salerno_1943 plays with every expectation met", function()
  local scenario = require "keel.scenario"
  local run = scenario.start(scenario.load("scenarios/salerno_1943.lua"))
  local passed, failed = run:play_all()
  local problems = {}
  for _, r in ipairs(run.results) do
    for _, p in ipairs(r.problems) do problems[#problems + 1] = ("order %d: %s"):format(r.index, p) end
  end
  t.eq(failed, 0, table.concat(problems, "\n"))
  t.ok(passed >= 37)
end)

-- ---- the showcase as a game: random legal orders to its end -------------------------------

-- Play salerno_1943 (from its start, or after its first `upto` recorded
-- orders) with random legal orders for the side that must decide, picked
-- with a seeded dice stream: an offered action, then one of its orders,
-- uniformly. Each offered order must be accepted, the same order from the
-- other side refused, and listing must leave the hash as it was; the game
-- must end within `cap` orders. The orders
-- played, by action name, and the result.
local function random_game(seed, upto, cap)
  local scenario = require "keel.scenario"
  local D = dofile("tests/lua/domains_fixture.lua")
  local spec = scenario.load("scenarios/salerno_1943.lua")
  local run = scenario.start(spec, { seed = seed })
  for i = 1, upto or 0 do
    local _, problems = run:play(i, spec.orders[i])
    assert(#problems == 0, table.concat(problems, "; "))
  end
  local dice, game, set = keel.dice.new(seed), run.game, run.set
  local counts, n = {}, 0
  while not set:status(game).over do
    t.ok(n < cap, ("seed %d: the game ends within %d orders"):format(seed, cap))
    local side = set:status(game).active[1]
    local before = game:hash()
    local offered = {}
    for _, e in ipairs(set:legal_actions(game, side)) do
      if e.available then
        -- the orders a bot can build: every parameter it must fill has candidates
        local orders = {}
        for _, o in ipairs(D.orders(e)) do
          local full = true
          for _, q in ipairs(e.params) do
            if not q.optional and o.params[q.name] == nil then full = false end
          end
          if full then orders[#orders + 1] = o end
        end
        if #orders > 0 then offered[#offered + 1] = orders end
      end
    end
    t.eq(game:hash(), before, "listing the actions changes nothing")
    t.ok(#offered > 0, "the side to decide always has an order (end_phase at least)")
    local orders = offered[dice:range(#offered)]
    local o = orders[dice:range(#orders)]
    -- the same order from the other side is refused, the state unchanged
    local other = side == "Allied" and "Axis" or "Allied"
    local no, _, kind = set:act(game, o.action, o.params, other)
    t.eq({ no or false, kind == "side" or kind == "phase" }, { false, true }, o.action .. " by " .. other)
    t.eq(game:hash(), before, "a refused order changes nothing")
    local ok, why = set:act(game, o.action, o.params, side)
    t.ok(ok, ("seed %d, order %d: %s by %s refused: %s"):format(seed, n + 1, o.action, side, tostring(why)))
    counts[o.action] = (counts[o.action] or 0) + 1
    n = n + 1
  end
  return counts, game:result(), n
end

t.test("26-navgroup-random-play: salerno_1943 played by random legal orders ends, every offered order accepted", function()
  for seed = 1, 3 do
    local _, result, n = random_game(seed, 0, 400)
    t.eq(result.over, true)
    t.ok(result.winner == "Allied" or result.winner == "Axis", result.reason)
    t.ok(n >= 30, "three turns of passes at least: " .. n)   -- 6 player-turns of 5 decisions
  end
  -- from the recorded play's turn 2, the attack forces off their beaches (the plans made, the units
  -- aboard): landings, the reaction, attacks, supply
  local spec = require("keel.scenario").load("scenarios/salerno_1943.lua")
  local upto
  for i, o in ipairs(spec.orders) do
    if not upto and o[1] == "set_sea" then upto = i - 1 end
  end
  local seen = {}
  for seed = 1, 8 do
    local counts, result = random_game(seed, upto, 400)
    t.eq(result.over, true)
    for k in pairs(counts) do seen[k] = true end
  end
  for _, name in ipairs { "land", "group_landings", "react_move", "react_overrun", "hasty_attack", "amphibious_attack",
                          "special_supply", "attack", "advance" } do
    t.ok(seen[name], name .. " was played in some game")
  end
end)

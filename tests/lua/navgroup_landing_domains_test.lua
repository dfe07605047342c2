-- tests/lua/navgroup_landing_domains_test.lua — what Rule 37 tells a user
-- interface: the parameter domains of the landing actions (keel.legal,
-- set:legal_actions; `keel serve`'s op "actions"), on the Rule 37 test
-- coast (navgroup_landing_fixture.lua) and along the showcase
-- scenarios/salerno_1943.lua: the candidates offered at a position, every
-- offered order accepted by set:check, and the rule's reason when an action
-- is not available.
local t = require "keel.testing"
local json = require "keel.json"
local serve = require "keel.serve"
local scenario = require "keel.scenario"
local keel = require "keel"
local F = dofile("tests/lua/navgroup_landing_fixture.lua")

local SCENARIO = "scenarios/salerno_1943.lua"
local SPEC = scenario.load(SCENARIO)

-- ---- helpers ------------------------------------------------------------------------

local D = dofile("tests/lua/domains_fixture.lua")
local action, param, values = D.listed, D.param, D.values

local function find(domain, value)
  for _, c in ipairs(domain or {}) do
    if c.value == value or (type(value) == "table" and json.encode(c.value) == json.encode(value)) then return c end
  end
end

-- what p offers for the order built so far: the parameter itself, or the
-- choice whose given values are the order's
local function offer_for(p, order)
  if not p.choices then return p end
  for _, ch in ipairs(p.choices) do
    local same = true
    for _, d in ipairs(p.depends) do
      if json.encode(order[d]) ~= json.encode(ch.given[d]) then same = false end
    end
    if same then return ch end
  end
end

-- every order the entry lists (domains_fixture.orders), as its params
local function offered_orders(e)
  local out = {}
  for i, o in ipairs(D.orders(e)) do out[i] = o.params end
  return out
end

-- every offered order of the entry is accepted (set:check), the state unchanged
local function all_accepted(set, game, e)
  local before = game:hash()
  local orders = offered_orders(e)
  t.ok(#orders > 0, e.name .. " offers orders")
  for _, o in ipairs(orders) do
    local why = set:check(game, e.name, o)
    t.eq(why, nil, e.name .. " " .. json.encode(o))
  end
  t.eq(game:hash(), before, "asking changes nothing")
  return #orders
end

-- the showcase played up to (not including) order `upto`
local function at(upto)
  local run = scenario.start(SPEC)
  for i = 1, upto - 1 do
    local outcome, problems = run:play(i, SPEC.orders[i])
    assert(#problems == 0, outcome.message)
  end
  return run
end

-- the index of the showcase's order that satisfies fn(order)
local function index_of(fn)
  for i, o in ipairs(SPEC.orders) do if fn(o) then return i end end
  error("no such order")
end

local RULE37 = { "plan_landing", "delay_landing", "cancel_landing", "increase_capacity", "land", "amphibious_attack",
                 "hasty_attack", "special_supply", "group_landings", "react_move", "react_overrun" }

-- ---- 37.C planning -------------------------------------------------------------------

t.test("37.C plan_landing offers the side's ground units in no plan and the owned beaches, each order accepted", function()
  local w = F.world()
  local _, craft = F.fleet(w, "Force", { "LC", "LC" }, "A:0402")
  local a = F.troop(w, "Alpha", craft[1])
  local b = F.troop(w, "Bravo", craft[2], { marine = true })
  F.unit_at(w, "Defender", "A:0502")
  local e = action(w.set, w.game, "Allied", "plan_landing")
  t.eq(e.available, true)
  t.eq(e.checked, true)
  t.eq(values(param(e, "units").domain), { a, b }, "the Allied ground units, not the Axis defender nor the craft")
  local hexes = param(e, "hex").domain
  t.eq(#hexes, 10, "the coastal column, every hex of it owned")
  t.eq(find(hexes, w.hex("A:0502")).owner, "Axis")
  t.eq(find(hexes, w.hex("A:0502")).assault, true)
  t.eq(find(hexes, w.hex("A:0509")).assault, false, "a friendly beach: a landing beyond its RE limit")
  t.eq(find(hexes, w.hex("A:0402")), nil, "no sea hex")
  t.eq(find(hexes, w.hex("A:0602")), nil, "no inland hex")
  t.eq(param(e, "turn").domain, nil, "the turn is a number the player gives (default: the earliest)")
  all_accepted(w.set, w.game, e)
  -- a planned unit is offered no more
  F.plan(w, "A:0502", { a })
  e = action(w.set, w.game, "Allied", "plan_landing")
  t.eq(values(param(e, "units").domain), { b })
end)

t.test("37.C plan_landing: nothing to plan gives the rule's reason; a plan past the capacity is refused (37.C (2))", function()
  local w = F.world()
  F.fleet(w, "Force", { "TF" }, "A:0402")
  local e = action(w.set, w.game, "Allied", "plan_landing")
  t.eq(e.available, false)
  t.eq(e.reason, "no value for parameter 'units': 37.C: Allied has no ground unit free to plan a landing")
  -- units but no LC/LB capacity: every order refused by 37.C (2)
  F.unit_at(w, "Ashore", "A:0608", "Allied")
  e = action(w.set, w.game, "Allied", "plan_landing")
  t.eq(e.available, false)
  t.eq(e.refused.rule, "37.C")
  t.ok(e.reason:find("37.C (2): plans for 1 REs", 1, true), e.reason)
end)

t.test("37 (g) plan_landing offers, for no_attack, the plan's c/m units; land's attack leaves them out", function()
  local w = F.world()
  local g, craft = F.fleet(w, "Force", { "LC", "LC" }, "A:0502")
  local a = F.troop(w, "Alpha", craft[1])
  local pz = F.troop(w, "Panzer", craft[2], { cm = true })
  F.unit_at(w, "Defender", "A:0502")
  local e = action(w.set, w.game, "Allied", "plan_landing")
  local offer = offer_for(param(e, "no_attack"), { units = { a, pz } })
  t.eq(values(offer.domain), { pz }, "the c/m unit of the plan, not the infantry")
  t.eq(offer.omit, true, "left out, every unit may attack")
  t.eq(values(offer_for(param(e, "no_attack"), { units = { a } }).domain), {}, "no c/m unit in that plan")
  F.plan(w, "A:0502", { a, pz }, { no_attack = { pz } })
  e = action(w.set, w.game, "Allied", "land")
  t.eq(values(offer_for(param(e, "attack"), { group = g, units = { a, pz } }).domain), { a },
    "37 (g): the unit planned not to attack is not offered to attack")
  all_accepted(w.set, w.game, e)
end)

t.test("37.C delay_landing and cancel_landing offer the side's active plans with hex and turn", function()
  local w = F.world()
  local _, craft = F.fleet(w, "Force", { "LC" }, "A:0402")
  local a = F.troop(w, "Alpha", craft[1])
  for _, name in ipairs { "delay_landing", "cancel_landing" } do
    local e = action(w.set, w.game, "Allied", name)
    t.eq(e.available, false)
    t.eq(e.reason, "no value for parameter 'plan': 37.C: Allied has no active landing plan")
  end
  local id = F.plan(w, "A:0503", { a })
  for _, name in ipairs { "delay_landing", "cancel_landing" } do
    local e = action(w.set, w.game, "Allied", name)
    t.eq(e.available, true)
    local c = param(e, "plan").domain[1]
    t.eq({ c.value, c.hex, c.status }, { id, "A:0503", "planning" })
    t.eq(c.turn, w.q("plan_field", id, "turn"))
    all_accepted(w.set, w.game, e)
    t.eq(action(w.set, w.game, "Axis", name).available, false, "not the other side's plan")
  end
  t.ok(w.act("cancel_landing", { plan = id }))
  t.eq(action(w.set, w.game, "Allied", "cancel_landing").available, false, "a cancelled plan is not active")
end)

t.test("37.C increase_capacity offers the side; its REs and turn are numbers (listed unchecked)", function()
  local w = F.world()
  F.fleet(w, "Force", { "LC" }, "A:0402")
  local e = action(w.set, w.game, "Allied", "increase_capacity")
  t.eq(values(param(e, "side").domain), { "Allied" })
  t.eq(e.checked, false)
  t.eq(e.free, { "re", "turn" })
  e = action(w.set, w.game, nil, "increase_capacity")
  t.eq(values(param(e, "side").domain), { "Allied" }, "any side asking: the sides with landing craft")
end)

-- ---- 37 land -------------------------------------------------------------------------

t.test("37 land offers the beach with its defenders, the landing units as attackers, and reduce with a credit", function()
  local w = F.world()
  local g, craft = F.fleet(w, "Force", { "LC", "LC" }, "A:0502")
  local a = F.troop(w, "Alpha", craft[1])
  local b = F.troop(w, "Bravo", craft[2])
  F.unit_at(w, "Defender", "A:0502")
  F.plan(w, "A:0502", { a, b })
  local e = action(w.set, w.game, "Allied", "land")
  t.eq(e.available, true)
  t.eq(e.checked, true)
  local hex = param(e, "hex").choices[1]
  t.eq(hex.given, { group = g })
  t.eq(values(hex.domain), { w.hex("A:0502") }, "the planned beach (those next to it: 37.C refuses them)")
  t.eq(hex.domain[1].defenders, 1)
  t.eq(hex.domain[1].owner, "Axis")
  -- the order lands both: an assault into an occupied hex, so both attack (37.B item 4)
  local both = offer_for(param(e, "attack"), { group = g, units = { a, b } })
  t.eq(values(both.domain), { a, b })
  t.eq(both.sets, { { a, b } }, "37.B item 4: every unit that assaults an occupied hex attacks")
  t.eq(both.omit, true, "left out: all of them attack")
  t.eq(param(e, "reduce").domain, {}, "no 37.D reduction to decline")
  t.eq(w.set:check(w.game, "land", { group = g, units = { a, b }, reduce = false }),
    "land vetoed by rule 37.D (Landing craft/barge damage): 37.D: Force's craft have no great-success reduction to "
    .. "decline (reduce = false)")
  local n = all_accepted(w.set, w.game, e)
  t.ok(n >= 3, "Alpha, Bravo, both")
  -- a 37.D great success's credit: reduce = false declines it
  w.game:set_value(craft[1], "unload_credit", 5)
  e = action(w.set, w.game, "Allied", "land")
  t.eq(values(param(e, "reduce").domain), { false })
  t.eq(param(e, "reduce").omit, true, "left out: the reduction is taken")
  t.eq(all_accepted(w.set, w.game, e), 2 * n)
end)

t.test("37 land at an undefended beach: no attacker offered (37 (e)); the beaches next to the group too", function()
  local w = F.world()
  local g, craft = F.fleet(w, "Force", { "LC" }, "A:0502")
  local a = F.troop(w, "Alpha", craft[1])
  F.plan(w, "A:0503", { a })
  local e = action(w.set, w.game, "Allied", "land")
  t.eq(e.available, true)
  t.eq(values(param(e, "hex").choices[1].domain), { w.hex("A:0503") }, "the plan's beach, next to the group")
  for _, ch in ipairs(param(e, "attack").choices) do t.eq(ch.domain, {}, "nobody to attack") end
  t.eq(all_accepted(w.set, w.game, e), 1)
  t.eq(w.set:check(w.game, "land", { group = g, units = { a }, hex = w.hex("A:0503"), attack = { a } }),
    "illegal land (rule 37 Amphibious landings): 37 (e): A:0503 has no defenders to attack")
end)

t.test("37 land: a group in open sea has no beach; the reason is the rule's", function()
  local w = F.world()
  local _, craft = F.fleet(w, "Force", { "LC" }, "A:0302")
  local a = F.troop(w, "Alpha", craft[1])
  F.plan(w, "A:0502", { a })
  local e = action(w.set, w.game, "Allied", "land")
  t.eq(e.available, false)
  t.ok(e.reason:find("37: A:0302 is no beach (a beach is a coastal hex)", 1, true), e.reason)
end)

t.test("37 land in the showcase's storm: not available, with 37 (b)'s reason; offered when the sea calms", function()
  local i = index_of(function(o) return o[1] == "land" end)
  local run = at(i)   -- the sea is stormy
  local e = action(run.set, run.game, "Allied", "land")
  t.eq(e.available, false)
  t.eq(e.refused, { rule = "37", family = "navgroup", reason = "37 (b): no amphibious landing during stormy sea conditions" })
  t.eq(e.reason, "illegal land (rule 37 Amphibious landings): 37 (b): no amphibious landing during stormy sea conditions")
  run = at(i + 2)     -- calm again
  e = action(run.set, run.game, "Allied", "land")
  t.eq(e.available, true)
  t.eq(e.checked, true)
  local south = run.groups["Southern Attack Force"]
  local sets = offer_for(param(e, "units"), { group = south })
  t.eq(values(sets.domain), { run.units["141st RCT"], run.units["142nd RCT"], run.units["751st Tank Bn"] })
  local attack = offer_for(param(e, "attack"), { group = south,
    units = { run.units["141st RCT"], run.units["142nd RCT"], run.units["751st Tank Bn"] } })
  local listed = {}
  for _, set in ipairs(attack.sets or {}) do listed[json.encode(set)] = true end
  t.ok(listed[json.encode { run.units["141st RCT"], run.units["142nd RCT"] }],
    "the showcase's attack: the c/m tanks land without attacking (37 (g))")
  t.ok(not listed[json.encode { run.units["141st RCT"] }], "37.B item 4: the 142nd must attack too")
  all_accepted(run.set, run.game, e)
end)

-- ---- 37.B ground operations ------------------------------------------------------------

-- a landing at the defended A:0502 (Alpha) and the combat phase
local function landed(opts)
  local w = F.world { sp_pool = opts and opts.sp_pool or 0 }
  local g, craft = F.fleet(w, "Force", { "LC" }, "A:0502")
  local a = F.troop(w, "Alpha", craft[1])
  local d = F.unit_at(w, "Defender", "A:0502")
  local near = F.unit_at(w, "Near", "A:0602", "Axis")
  F.plan(w, "A:0502", { a })
  assert(F.land(w, g, { a }))
  return w, a, d, near
end

t.test("37.B amphibious_attack offers the defended landing hex and the units that may attack from it", function()
  local w, a = landed { sp_pool = 5 }
  local e = action(w.set, w.game, "Allied", "amphibious_attack")
  t.eq(e.available, false, "before the combat phase")
  t.ok(e.reason:find("37.B: attacks are made in the combat phase (now: nil)", 1, true), e.reason)
  w.emit("combat_phase", { side = "Allied" })
  e = action(w.set, w.game, "Allied", "amphibious_attack")
  t.eq(e.available, true)
  t.eq(values(param(e, "hex").domain), { w.hex("A:0502") })
  t.eq(param(e, "hex").domain[1].defenders, 1)
  local units = param(e, "units").choices[1].domain
  t.eq(values(units), { a })
  t.eq(units[1].landed, true)
  t.eq(units[1].must_attack, true, "37.B item 4")
  t.eq(values(param(e, "full_strength").domain), { true }, "item 11: 1 SP, 5 in the pool")
  t.eq(param(e, "full_strength").omit, true)
  t.eq(values(param(e, "planned").domain), { true }, "item 5")
  t.eq(values(param(e, "sp_source").domain), { "hq", "special" }, "item 5: the SPs' source")
  all_accepted(w.set, w.game, e)
  t.eq(action(w.set, w.game, "Axis", "amphibious_attack").reason,
    "no value for parameter 'hex': 37.B: attacks from a landing are the phasing player's (Allied)")
end)

t.test("37.B amphibious_attack in the showcase: the sets that hold every unit that must attack (item 4)", function()
  local run = at(index_of(function(o) return o[1] == "amphibious_attack" end))
  local e = action(run.set, run.game, "Allied", "amphibious_attack")
  t.eq(e.available, true)
  t.eq(e.checked, true)
  t.eq(values(param(e, "hex").domain), { run.board:hex("S:0708") })
  local u = run.units
  local units = offer_for(param(e, "units"), { hex = run.board:hex("S:0708") })
  local listed = {}
  for _, set in ipairs(units.sets or {}) do listed[json.encode(set)] = true end
  t.ok(listed[json.encode { u["141st RCT"], u["142nd RCT"] }], "the showcase's attack")
  t.ok(not listed[json.encode { u["141st RCT"] }], "not without the 142nd")
  t.ok(find(units.domain, u["No. 2 Commando"]), "a unit next to the hex may join")
  all_accepted(run.set, run.game, e)
end)

t.test("37.B hasty_attack offers the defender's units in or next to the assault hex", function()
  local w, _, d, near = landed()
  local e = action(w.set, w.game, "Axis", "hasty_attack")
  t.eq(e.available, true)
  t.eq(values(param(e, "hex").domain), { w.hex("A:0502") })
  local units = values(param(e, "units").choices[1].domain)
  t.eq(units[1], d)
  t.eq(find(param(e, "units").choices[1].domain, near) ~= nil, keel.hex.distance(w.hex("A:0602"), w.hex("A:0502")) <= 1)
  all_accepted(w.set, w.game, e)
  t.eq(action(w.set, w.game, "Allied", "hasty_attack").reason,
    "no value for parameter 'hex': 37.B item 3: hasty attacks are made by the defending player")
end)

t.test("37.B special_supply offers the units that landed this player-turn, in the supply phase", function()
  local w, a = landed { sp_pool = 3 }
  local e = action(w.set, w.game, "Allied", "special_supply")
  t.eq(e.available, false)
  t.eq(e.refused.rule, "37.B")
  t.ok(e.reason:find("37.B item 10: special supply is traced in the supply judgement phase", 1, true), e.reason)
  w.emit("supply_phase", { side = "Allied" })
  e = action(w.set, w.game, "Allied", "special_supply")
  t.eq(e.available, true)
  t.eq(values(param(e, "units").domain), { a })
  all_accepted(w.set, w.game, e)
  t.eq(action(w.set, w.game, "Axis", "special_supply").reason,
    "no value for parameter 'units': 37.B item 10: no unit landed this player-turn")
end)

-- ---- the showcase: 37.E reaction, and every Rule 37 order offered -----------------------

t.test("37.E group_landings offers the groups of adjacent landing hexes, the showcase's among them", function()
  local i = index_of(function(o) return o[1] == "group_landings" end)
  local run = at(i)
  local e = action(run.set, run.game, "Allied", "group_landings")
  t.eq(e.available, true)
  local dom = param(e, "hexes").domain
  t.eq(values(dom), { { "S:0708" }, { "S:0708", "S:0707" }, { "S:0707" } })
  all_accepted(run.set, run.game, e)
  t.ok(run.set:may(run.game, "group_landings", "Axis"):find("Allied is to act, not Axis", 1, true),
    "the phasing player (Allied) groups the landing hexes")
  -- once rolled (the reaction phase has begun: the Axis decides), nothing more to group
  run = at(i + 2)
  t.eq(run.set:may(run.game, "group_landings", "Allied"),
    "it is the Allied reaction phase (turn 2): Axis is to act, not Allied")
  local why = run.set:check(run.game, "group_landings", { hexes = { "S:0708" } })
  t.ok(why and why:find("37.E: S:0708 is grouped already", 1, true), why)
end)

t.test("37.E react_move offers the units that may react, and the cheapest path to each hex with its MPs", function()
  local i = index_of(function(o) return o[1] == "react_move" and o.by == "Axis" end)
  local run = at(i)
  local e = action(run.set, run.game, "Axis", "react_move")
  t.eq(e.available, true)
  t.eq(e.checked, true)
  local u = run.units
  t.eq(values(param(e, "unit").domain), { u["KG von Doering"], u["16th Pz Recon"], u["KG Stempel"] },
    "Coastal Bn 600 is not in reserve and too far for a Failure (37.E F)")
  for _, ch in ipairs(param(e, "as_reserve").choices) do
    t.eq(values(ch.domain), ch.given.unit == u["KG von Doering"] and { true } or {}, "only the unit not in reserve")
  end
  local function paths(unit)
    for _, ch in ipairs(param(e, "path").choices) do if ch.given.unit == unit then return ch.domain end end
  end
  local stempel = paths(u["KG Stempel"])
  t.eq(find(stempel, { "S:0708" }).to, "S:0708", "the showcase's order: into the landing hex")
  local recon = paths(u["16th Pz Recon"])
  t.eq(find(recon, { "S:0806", "S:0807" }) ~= nil or find(recon, { "S:0907", "S:0807" }) ~= nil, true)
  for _, c in ipairs(recon) do
    t.ok(c.cost <= 8, "within the 8 MPs: " .. c.to)
    if c.to == "S:0807" then t.eq(c.cost, 4, "two hexes within 5 of the landing: terrain doubled") end
  end
  t.eq(find(param(e, "landing").choices[1].domain, run.board:hex("S:0708")).result, "F")
  all_accepted(run.set, run.game, e)
  -- as_reserve is for a unit not in reserve: refused for one in reserve (so never offered it)
  local before = run.game:hash()
  t.eq(run.set:check(run.game, "react_move", { unit = u["KG Stempel"], path = { "S:0708" }, as_reserve = true }),
    "illegal react_move (rule 37.E Enemy reaction movement): 37.E: KG Stempel is in reserve: as_reserve is for a unit "
    .. "not in reserve")
  local res, _, kind = run.set:act(run.game, "react_move", { unit = u["KG Stempel"], path = { "S:0708" }, as_reserve = true },
    "Axis")
  t.eq({ res or false, kind }, { false, "illegal" })
  t.eq(run.game:hash(), before, "refused: the state unchanged")
  -- after KG Stempel has entered, a Failure lets no other unit in (37.E F)
  run = at(i + 1)
  e = action(run.set, run.game, "Axis", "react_move")
  t.eq(find(param(e, "unit").domain, u["KG Stempel"]), nil, "it has reacted")
  for _, ch in ipairs(param(e, "path").choices) do
    for _, c in ipairs(ch.domain) do
      t.ok(c.to ~= "S:0707" and c.to ~= "S:0708", "no landing hex entered: " .. c.to)
    end
  end
  all_accepted(run.set, run.game, e)
  t.eq(run.set:may(run.game, "react_move", "Allied"), "it is the Allied reaction phase (turn 2): Axis is to act, not Allied",
    "the reaction phase is Axis's")
end)

t.test("37.E react_overrun offers the reacting units in a hex with enemy units", function()
  local run = at(index_of(function(o) return o[1] == "react_move" and o.by == "Axis" end))
  local e = action(run.set, run.game, "Axis", "react_overrun")
  t.eq(e.available, true)
  t.eq(values(param(e, "unit").domain), { run.units["KG von Doering"] })
  all_accepted(run.set, run.game, e)
  -- before the reaction phase it is not the Axis's to take (the Allied naval step) ...
  local before = at(index_of(function(o) return o[1] == "group_landings" end))
  t.ok(before.set:may(before.game, "react_overrun", "Axis"):find("Allied is to act, not Axis", 1, true))
  -- ... and, in a game with no sequence of play, the domain says why
  local w = F.world()
  F.unit_at(w, "Defender", "A:0502")
  t.eq(action(w.set, w.game, "Axis", "react_overrun").reason,
    "no value for parameter 'unit': 37.E: no reaction phase after landings is open")
end)

-- the value a scenario order gives a parameter, as the protocol's candidates name it
local function named(c, v) return c.value == v or c.label == v or json.encode(c.value) == json.encode(v) end

-- Is the order among the actions offered to `side`: each value it gives
-- among its parameter's candidates (a list: one of the sets offered)?
local function is_offered(s, side, order)
  local resp = assert(json.decode(s:handle_line(json.encode { op = "actions", side = side })))
  local e
  for _, a in ipairs(resp.actions) do if a.name == order[1] then e = a end end
  if not e then return false, "not listed: not " .. side .. "'s to take now" end
  if not e.available then return false, e.reason end
  local given = {}
  for _, p in ipairs(e.params) do
    local o = offer_for(p, given)
    local v = order[p.name]
    if v ~= nil and (p.domain or p.choices) then
      if not o then return false, p.name .. " has no candidates" end
      local picked = {}
      for pos, c in ipairs(o.domain or {}) do
        for _, x in ipairs(p.type == "units" and v or { v }) do
          if named(c, x) then picked[#picked + 1] = { pos = pos, value = c.value } end
        end
      end
      if #picked ~= (p.type == "units" and #v or 1) then
        return false, ("%s=%s is not offered"):format(p.name, json.encode(v))
      end
      if p.type == "units" then
        local set = {}
        for i, x in ipairs(picked) do set[i] = x.value end
        local listed = o.sets == nil   -- every set of the elements
        for _, one in ipairs(o.sets or {}) do
          if json.encode(one) == json.encode(set) then listed = true end
        end
        if not listed then return false, ("%s=%s is not a set offered"):format(p.name, json.encode(v)) end
        given[p.name] = set
      else
        given[p.name] = picked[1].value
      end
    elseif v == nil and o and o.domain and o.domain[1] and not o.omit then
      given[p.name] = o.domain[1].value   -- left out, as the order leaves it: the first offered stands for it
    end
  end
  return true
end

-- The actions are asked through the protocol; the orders are played on the
-- session's game as the scenario plays them (with their sides: the
-- protocol's `order` carries no side yet).
t.test("37 salerno_1943 through keel serve: each Rule 37 order is offered, each refused one is not", function()
  local s = serve.new()
  local function send(req) return assert(json.decode(s:handle_line(json.encode(req)))) end
  t.eq(send { op = "open", scenario = SCENARIO }.ok, true)
  local is37 = {}
  for _, n in ipairs(RULE37) do is37[n] = true end
  local checked = 0
  for i, order in ipairs(SPEC.orders) do
    local name = order[1]
    local refused = order.expect and (order.expect.illegal or order.expect.refused or order.expect.vetoed)
    if is37[name] then
      local ok, why = is_offered(s, order.by, order)
      if refused then
        t.eq(ok, false, ("order %d (%s) is refused, so not offered"):format(i, name))
      else
        t.eq(ok, true, ("order %d (%s): %s"):format(i, name, tostring(why)))
      end
      checked = checked + 1
    end
    local outcome, problems = s.run:play(i, order)
    t.eq(problems, {}, ("order %d"):format(i))
    t.eq(outcome.ok, not refused, ("order %d"):format(i))
  end
  t.ok(checked >= 14, "the showcase's Rule 37 orders were checked: " .. checked)
end)

t.test("37 salerno_1943: every Rule 37 action's orders are all checked at every position (under keel.legal's cap)", function()
  local run = scenario.start(SPEC)
  local is37 = {}
  for _, n in ipairs(RULE37) do is37[n] = true end
  for i, order in ipairs(SPEC.orders) do
    for _, side in ipairs { "Allied", "Axis" } do
      for _, e in ipairs(run.set:legal_actions(run.game, side)) do
        if is37[e.name] and e.name ~= "increase_capacity" then
          t.eq(e.checked, true, ("%s for %s before order %d"):format(e.name, side, i))
        end
      end
    end
    run:play(i, order)
  end
end)

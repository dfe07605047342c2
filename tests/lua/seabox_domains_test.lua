-- tests/lua/seabox_domains_test.lua — what Rule 27 offers a user interface:
-- the parameter domains of the seabox family's actions (embark, disembark,
-- gunfire_support, sail, bomb, split_tf ...) at points of the showcase
-- scenarios/seabox_crete_1941.lua played through the protocol's session
-- function (keel.serve); listing never changes the state.
local t = require "keel.testing"
local D = dofile("tests/lua/domains_fixture.lua")

local fx = dofile("tests/lua/seabox_fixture.lua")

local SHOWCASE = "scenarios/seabox_crete_1941.lua"

-- The showcases are games with sides (keel.sequence): their recorded orders
-- say who gives each. The listing goes through the protocol's session
-- (`actions` for a side); the orders are played, and the offered ones tried,
-- with their side on the session's game (the protocol's `order` takes no
-- side yet).
local json = require "keel.json"
local serve = require "keel.serve"
local scenario = require "keel.scenario"

local function denull(v)
  if v == json.null then return nil end
  if type(v) == "table" then for k, x in pairs(v) do v[k] = denull(x) end end
  return v
end

D = setmetatable({}, { __index = D })
function D.open(path)
  local s = serve.new()
  local p = { spec = scenario.load(path) }
  function p.send(req) return denull(assert(json.decode(s:handle_line(json.encode(req))))) end
  local resp = p.send { op = "open", scenario = path }
  assert(resp.ok, resp.error and resp.error.message)
  p.run = s:need_game()
  return p
end
function D.play(p, upto)
  for i = 1, upto - 1 do
    local _, problems = p.run:play(i, p.spec.orders[i])
    assert(#problems == 0, ("order %d (%s): %s"):format(i, tostring(p.spec.orders[i][1]), tostring(problems[1])))
  end
end
-- submit an offered order (protocol values) for `side`, then take it back
function D.try(p, order, side)
  local run = p.run
  local o = { order.action }
  for k, v in pairs(order.params or {}) do o[k] = v end
  local ok, params = pcall(run.params_for, run, order.action, o)
  if not ok then return { ok = false, error = { message = tostring(params) } } end
  local done, why = run.set:act(run.game, order.action, params, side)
  if done then run.game:undo(1) end
  return { ok = done == true, error = not done and { message = tostring(why) } or nil }
end
-- the offered action `name` for `side` (D.action), which says the side it was offered to
local base_action = getmetatable(D).__index.action
function D.action(p, side, name)
  local e, h0, h1 = base_action(p, side, name)
  e.side = e.side or side
  return e, h0, h1
end
-- the scenario's own action `name` (no side) as set:legal_actions lists it
local function scenario_action(p, name) return D.listed(p.run.set, p.run.game, nil, name) end

-- every offered order of `e` (or those whose index `pick(i)` accepts) is
-- accepted by the rules when submitted, and taken back
local function all_accepted(p, e, pick)
  local orders, n = D.orders(e), 0
  t.ok(#orders > 0, e.name .. " offers orders")
  for i, o in ipairs(orders) do
    if not pick or pick(i, o) then
      local resp = D.try(p, o, e.side)
      t.ok(resp.ok, ("%s %d: %s"):format(e.name, i, resp.error and resp.error.message or ""))
      n = n + 1
    end
  end
  return n
end

-- an action as set:legal_actions lists it for `side` in a world of the seabox fixture
local function listed(w, side, name) return D.listed(w.set, w.game, side, name) end

local function ship(name, type_, values, extra)
  return { name = name, type = type_, side = "Allied", at = "15B:2508", port = true, values = values,
           hits = extra and extra.hits, face = extra and extra.face }
end

-- the choice of a dependent parameter for the given values: {given, domain, omit?}
local function choice_of(q, given)
  return select(2, D.choice(q, given)) or error("no choice for the given values")
end

local function before(name, pred)
  local p = D.open(SHOWCASE)
  D.play(p, D.find_order(p, function(o) return o[1] == name and (pred == nil or pred(o)) end))
  return p
end

t.test("27.C.2-embark: embark offers the cargo in port and the friendly ships in port with it", function()
  -- after 5-6 Inf XX is aboard: the 14th Inf bde and the ships in port at Alexandria
  local p = before("embark", function(o) return o.cargo == "14th Inf bde" end)
  local e, h0, h1 = D.action(p, "Allied", "embark")
  t.eq(h1, h0, "listing leaves the state hash unchanged")
  t.eq(e.checked, true)
  local cargo = D.param(e, "cargo")
  t.eq(D.labels(cargo.domain), { "14th Inf bde" }, "5-6 Inf XX is aboard already")
  local ships = D.labels(D.choice(D.param(e, "ships"), { cargo = cargo.domain[1].value }))
  t.ok(D.find(D.choice(D.param(e, "ships"), { cargo = cargo.domain[1].value }), "NT 4"), table.concat(ships, ","))
  t.eq(D.find(D.choice(D.param(e, "ships"), { cargo = cargo.domain[1].value }), "NT 1"), nil,
    "NT 1 has used this naval step to embark 5-6 Inf XX")
end)

t.test("27.C.2-disembark: disembark offers the units aboard the ships in port", function()
  local p = before("disembark")
  local e, h0, h1 = D.action(p, "Allied", "disembark")
  t.eq(h1, h0)
  t.eq(D.labels(D.param(e, "cargo").domain), { "2-6* Inf cadre", "14th Inf bde" })
end)

t.test("27.C.3-gunfire: gunfire support offers the TFs with SF and the hex of each and those next to it", function()
  local p = before("gunfire_support")
  local e, h0, h1 = D.action(p, "Allied", "gunfire_support")
  t.eq(h1, h0)
  local tf = D.param(e, "tf")
  t.eq(D.find(tf.domain, "Convoy AN-31"), nil, "27.A.1: a convoy of NTs has no gunfire strength")
  local force_b = D.find(tf.domain, "Force B")
  t.ok(force_b, "Force B is offered")
  local hexes = D.choice(D.param(e, "hex"), { tf = force_b.value })
  t.eq(#hexes, 7, "its own hex and the six next to it")
  t.ok(D.find(hexes, "15B:2407"), "its own hex, Heraklion")
end)


t.test("27.C.2-sail: sail offers each hex within the sea boxes the TF has left, with its cost in boxes", function()
  -- naval step 2: the convoy (NTs: 6 boxes a step) in port at Alexandria, Force C (a CL: 12)
  local p = before("sail", function(o) return o.to == "15B:2407" end)
  local e, h0, h1 = D.action(p, "Allied", "sail")
  t.eq(h1, h0, "listing leaves the state hash unchanged")
  t.eq(e.checked, true, "every destination is checked by 27.C.2 and the vetoes")
  local tf = D.param(e, "tf")
  t.eq(D.labels(tf.domain), { "Convoy AN-31", "Force C" })
  local convoy = D.find(tf.domain, "Convoy AN-31").value
  local to = D.choice(D.param(e, "to"), { tf = convoy })
  local off_crete = D.find(to, "15B:2810")
  t.ok(off_crete, "the showcase's stop south-east of Crete is offered")
  t.eq(off_crete.cost, 6, "6 sea boxes away")
  t.eq(D.find(to, "15B:2407"), nil, "the north of Crete is 7 boxes away: beyond the NTs' 6")
  for _, c in ipairs(to) do t.ok(c.cost >= 0 and c.cost <= 6, c.label .. " costs at most 6 boxes") end
  local alexandria = choice_of(D.param(e, "port"), { to = "19A:2812" })
  t.eq({ D.labels(alexandria.domain), alexandria.omit }, { {}, true },
    "at Alexandria, where the convoy is in port, it may only leave port (port left out)")
  local force_c = D.find(tf.domain, "Force C").value
  local far = 0
  for _, c in ipairs(D.choice(D.param(e, "to"), { tf = force_c })) do if c.cost > 6 then far = far + 1 end end
  t.ok(far > 0, "Force C's cruiser sails 12 boxes a step")
  -- the offered orders are accepted: the showcase's and one in fifty of the others
  local n = all_accepted(p, e, function(i, o) return i % 50 == 1 or o.params.to == "15B:2810" end)
  t.ok(n > 10, "checked " .. n)
end)

t.test("27.C.2-sail: in port or at sea where the destination has a port", function()
  local p = before("sail", function(o) return o.port == true end)
  local e = D.action(p, "Allied", "sail")
  local port = choice_of(D.param(e, "port"), { to = "15B:2508" })
  t.eq({ D.labels(port.domain), port.omit }, { { true }, true }, "Heraklion: into the port, or off it (left out)")
  t.ok(D.try(p, { action = "sail", params = { tf = "Convoy AN-31", to = "15B:2508", port = true } }, "Allied").ok)
  t.ok(D.try(p, { action = "sail", params = { tf = "Convoy AN-31", to = "15B:2508" } }, "Allied").ok)
end)

t.test("27.C.2-sail: a TF busy for the naval step is not offered; outside the naval steps sail is unavailable", function()
  local p = before("sail", function(o) return o.to == "19A:2801" end)
  local e = D.action(p, "Allied", "sail")
  t.eq(D.labels(D.param(e, "tf").domain), { "Force C" }, "the convoy has used this naval step to embark")
  local combat = before("gunfire_support")
  local names = {}
  for _, a in ipairs(combat.send({ op = "actions", side = "Allied" }).actions) do names[#names + 1] = a.name end
  t.eq(names, { "air_support", "end_phase", "form_stack", "gunfire_support" },
    "the combat phase offers gunfire support, the ground combat stand-in's orders and the pass, not sail")
  t.ok(D.try(combat, { action = "sail", params = { tf = "Force B", to = "15B:2407" } }, "Allied").error.message:find(
    "sail (rule 27.C.2) is taken in exploitation, movement", 1, true))
  t.eq(combat.run.set:query(combat.run.game, "naval_step_problem"),
    "27.C.2: ships move and embark in the naval steps of the movement and exploitation phases (now: combat phase)")
end)

t.test("27.A.3-bomb: bomb (the scenario's order) offers the TFs afloat and 1 hit up to those that sink every ship of the TF", function()
  local p = before("bomb")
  local e = scenario_action(p, "bomb")
  local tf = D.param(e, "tf")
  t.eq(D.labels(tf.domain), { "Convoy AN-31", "Force C" })
  local hits = D.choice(D.param(e, "hits"), { tf = D.find(tf.domain, "Convoy AN-31").value })
  t.eq(D.labels(hits), { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }, "8 NTs (1 each), Ajax and Jervis (strength 2 each)")
  t.eq(D.labels(D.choice(D.param(e, "hits"), { tf = D.find(tf.domain, "Force C").value })), { 1, 2 }, "Orion, strength 2")
  all_accepted(p, e)
  local names = {}
  for _, a in ipairs(p.send({ op = "actions", side = "Allied" }).actions) do names[a.name] = true end
  t.eq(names.bomb, nil, "not a side's order: the air rules (Rule 20G2) score the hits")
end)

t.test("27.A.3-naval-hits: naval_hits (the scenario's order) offers the ships afloat and 1 hit up to those that sink it", function()
  local p = before("bomb")
  local e = scenario_action(p, "naval_hits")
  local ship_ = D.param(e, "ship")
  t.eq(#ship_.domain, 11, "8 NTs, Ajax, Jervis, Orion")
  t.eq(D.labels(D.choice(D.param(e, "hits"), { ship = D.find(ship_.domain, "NT 5").value })), { 1 }, "any hit sinks an NT")
  t.eq(D.labels(D.choice(D.param(e, "hits"), { ship = D.find(ship_.domain, "Ajax").value })), { 1, 2 })
  all_accepted(p, e)
end)

t.test("27.B.3-split: split_tf offers the side's TFs, their ships and a name no group has", function()
  local p = before("split_tf")
  local e, h0, h1 = D.action(p, "Allied", "split_tf")
  t.eq(h1, h0)
  t.eq(e.checked, true)
  local tf = D.param(e, "tf")
  local convoy = D.find(tf.domain, "Convoy AN-31").value
  local ships = D.labels(D.choice(D.param(e, "ships"), { tf = convoy }))
  t.eq(ships, { "NT 2", "NT 3", "NT 4", "NT 5", "NT 6", "NT 7", "Ajax", "Jervis" }, "the ships afloat (bombs sank NT 1 and NT 8)")
  t.eq(D.labels(D.param(e, "name").domain), { "TF 1" })
  t.eq(D.find(tf.domain, "Force C"), nil, "Force C is one ship: a split leaves ships in each TF")
  all_accepted(p, e)
end)

t.test("27.B.3-form: form_tf offers the side's ships afloat, not one of several that carry one cargo alone", function()
  local p = before("bomb")
  local e = D.action(p, "Allied", "form_tf")
  local ids = {}
  for _, c in ipairs(D.param(e, "ships").domain) do ids[c.label] = c.value end
  local alone = {}
  for _, o in ipairs(D.orders(e)) do
    if #o.params.ships == 1 then alone[#alone + 1] = o.params.ships[1] end
  end
  local names = {}
  for _, name in ipairs({ "NT 4", "NT 5", "NT 6", "NT 7", "NT 8", "Ajax", "Jervis", "Orion" }) do names[#names + 1] = ids[name] end
  t.eq(alone, names, "NT 1-3 carry the division together (27.B.4): none forms a TF without the others")
  all_accepted(p, e, function(i) return i % 25 == 1 end)
end)

t.test("27.A.3-combine: combine_halves offers the half ships that have a match in the same place", function()
  local w = fx.world { forces = {
    ship("Ajax", "CL", { strength = 4, aa = 1 }, { hits = 2, face = "half" }),
    ship("Achilles", "CL", { strength = 4, aa = 1 }, { hits = 2, face = "half" }),
    ship("Orion", "CL", { strength = 4, aa = 2 }, { hits = 2, face = "half" }),
    ship("Kent", "CA", { strength = 4, aa = 1 }, { hits = 2, face = "half" }),
    ship("Sydney", "CL", { strength = 4, aa = 1 }),
  } }
  local e = listed(w, "Allied", "combine_halves")
  t.eq(e.checked, true)
  t.eq(D.labels(D.param(e, "ship").domain), { "Ajax", "Achilles" }, "Orion's AA differs, Kent is a CA, Sydney is whole")
  t.eq(D.labels(D.param(e, "with").choices[1].domain), { "Achilles" })
  local none = fx.world { forces = { ship("Sydney", "CL", { strength = 4, aa = 1 }) } }
  local n = listed(none, "Allied", "combine_halves")
  t.eq(n.available, false)
  t.ok(n.reason:find("27.A.3: the side has no ship on its half-strength side", 1, true), n.reason)
end)

t.test("27.A.4-base: base_air offers the side's Code C air groups and the friendly CFs at their hex", function()
  local w = fx.world { forces = {
    ship("Audacity", "CVE", { strength = 1 }), ship("Ajax", "CL", { strength = 3 }),
    { name = "813 Sqn", type = "AIR", side = "Allied", at = "15B:2508", values = { code = "C" } },
    { name = "RAF 30 Sqn", type = "AIR", side = "Allied", at = "15B:2508", values = { code = "A" } },
  } }
  local e = listed(w, "Allied", "base_air")
  t.eq(D.labels(D.param(e, "air").domain), { "813 Sqn" }, "Code A does not base on a CF")
  t.eq(D.labels(D.param(e, "carrier").choices[1].domain), { "Audacity" }, "Ajax is no CF")
  w.ok { "base_air", air = "813 Sqn", carrier = "Audacity" }
  local full = listed(w, "Allied", "base_air")
  t.eq(full.available, false, "813 Sqn is based; no other Code C group")
end)

t.test("34A2-36C: set_night offers night and day, set_sea the three sea conditions", function()
  local p = before("set_night")
  t.eq(D.labels(D.param(scenario_action(p, "set_night"), "night").domain), { false, true })
  t.eq(D.labels(D.param(scenario_action(p, "set_sea"), "sea").domain), { "calm", "rough", "stormy" })
end)

t.test("ground_combat-contingents: air_support offers the side's air units and its stacks; a contingent vetoes the others", function()
  local w = fx.world { forces = {
    { name = "1 Welch", type = "inf", side = "Allied", at = "15B:2407", values = { contingent = "UK" } },
    { name = "2 Black Watch", type = "inf", side = "Allied", at = "15B:2407", values = { contingent = "UK" } },
    { name = "RAF 30 Sqn", type = "AIR", side = "Allied", at = "15B:2508", values = { code = "A", contingent = "UK" } },
    { name = "USAAF 1", type = "AIR", side = "Allied", at = "15B:2508", values = { code = "A", contingent = "US" } },
  } }
  w.to("combat")
  local none = listed(w, "Allied", "air_support")
  t.eq(none.available, false)
  t.ok(none.reason:find("ground combat (stand-in): the side has no combination stack", 1, true), none.reason)
  w.ok { "form_stack", units = { "1 Welch", "2 Black Watch" }, name = "Stack 1" }
  local e = listed(w, "Allied", "air_support")
  t.eq(D.labels(D.param(e, "air").domain), { "RAF 30 Sqn" }, "the US air unit may not support a UK stack")
  t.eq(D.labels(D.param(e, "stack").choices[1].domain), { "Stack 1" })
end)

-- the sets of a list parameter (from its domain, or the choice for `given`) as label lists joined by "+"
local function sets_of(q, given)
  local src = given and choice_of(q, given) or q
  local label = {}
  for _, c in ipairs(src.domain) do label[c.value] = c.label end
  local out = {}
  for i, set in ipairs(src.sets or {}) do
    local names = {}
    for j, id in ipairs(set) do names[j] = label[id] end
    out[i] = table.concat(names, "+")
  end
  return out
end

t.test("divisions-usa_organisation: assemble_division offers the division off the map and the sets of units in one hex", function()
  local p = D.open("scenarios/seabox_house_rules.lua")
  D.play(p, D.find_order(p, function(o) return o[1] == "assemble_division" end))
  local e = D.action(p, "Allied", "assemble_division")
  t.eq(e.checked, true)
  local division = D.param(e, "division")
  t.eq(D.labels(division.domain), { "US 1st Inf Div" })
  t.eq(sets_of(D.param(e, "units"), { division = division.domain[1].value }), {
    "US 16th Inf regt+US 18th Inf regt", "US 16th Inf regt+US 26th Inf regt", "US 18th Inf regt+US 26th Inf regt",
    "Br 4th Armd bde+Br 22nd Gds bde", "Br 4th Armd bde+US 1st Armd regt", "Br 22nd Gds bde+US 1st Armd regt",
    "US 16th Inf regt+US 18th Inf regt+US 26th Inf regt", "Br 4th Armd bde+Br 22nd Gds bde+US 1st Armd regt" },
    "two or more units of the side together in one hex (all the stand-in asks), never across hexes")
  all_accepted(p, e)
  -- without the house rules, the USA organisation stand-in holds US divisions back until turn 3
  local w = fx.world { forces = {
    { name = "US 16th Inf regt", type = "inf", side = "Allied", at = "15B:2408", values = { contingent = "US" } },
    { name = "US 18th Inf regt", type = "inf", side = "Allied", at = "15B:2408", values = { contingent = "US" } },
    { name = "US 1st Inf Div", type = "inf", side = "Allied", values = { contingent = "US" } } } }
  t.eq(listed(w, "Allied", "assemble_division").available, false)
  w.refused({ "assemble_division", units = { "US 16th Inf regt", "US 18th Inf regt" }, division = "US 1st Inf Div" },
    "US divisions cannot assemble before turn 3")
end)

t.test("ground_combat-contingents: form_stack offers the sets of ground units in one hex; the contingents stand-in filters them", function()
  -- with the campaign's house rules (variants/campaign_001.lua) contingents do not limit stacks
  local p = D.open("scenarios/seabox_house_rules.lua")
  D.play(p, D.find_order(p, function(o) return o[1] == "form_stack" end))
  local e = D.action(p, "Allied", "form_stack")
  t.eq(D.labels(D.param(e, "name").domain), { "Stack 1" })
  t.eq(sets_of(D.param(e, "units")), { "Br 4th Armd bde+Br 22nd Gds bde", "Br 4th Armd bde+US 1st Armd regt",
    "Br 22nd Gds bde+US 1st Armd regt", "Br 4th Armd bde+Br 22nd Gds bde+US 1st Armd regt" })
  all_accepted(p, e)
  -- without the variant, the contingents stand-in keeps a stack to one contingent
  local w = fx.world { forces = {
    { name = "Br 4th Armd bde", type = "arm", side = "Allied", at = "15B:2608", values = { contingent = "British" } },
    { name = "Br 22nd Gds bde", type = "inf", side = "Allied", at = "15B:2608", values = { contingent = "British" } },
    { name = "US 1st Armd regt", type = "arm", side = "Allied", at = "15B:2608", values = { contingent = "US" } } } }
  w.to("combat")
  t.eq(sets_of(D.param(listed(w, "Allied", "form_stack"), "units")), { "Br 4th Armd bde+Br 22nd Gds bde" })
end)

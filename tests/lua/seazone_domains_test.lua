-- tests/lua/seazone_domains_test.lua — what the seazone family offers a user
-- interface: the parameter domains of every action with parameters (move,
-- battle, casualties, embark, offload, land, fly, reland, bombard, the
-- helicopter and missile orders, the stand-ins' turn and base orders), at
-- points of the showcase scenarios/seazone_trident.lua played through the
-- protocol's session function (keel.serve), and in worlds of the family's
-- fixture where the showcase does not go; listing never changes the state.
local t = require "keel.testing"
local D = dofile("tests/lua/domains_fixture.lua")

local F = dofile("tests/lua/seazone_fixture.lua")
local serve = require "keel.serve"
local scenario = require "keel.scenario"
local json = require "keel.json"
local errors = require "keel.errors"

local SHOWCASE = "scenarios/seazone_trident.lua"

-- every offered order of `e` is accepted by the rules when submitted (and taken back)
local function all_accepted(p, e)
  local orders = D.orders(e)
  t.ok(#orders > 0, e.name .. " offers orders")
  for i, o in ipairs(orders) do
    local resp = D.try(p, o)
    t.ok(resp.ok, ("%s %d: %s"):format(e.name, i, resp.error and resp.error.message or ""))
  end
  return #orders
end

-- an action as set:legal_actions lists it for `side` in a world of the seazone fixture
local function listed(w, side, name) return D.listed(w.set, w.game, side, name) end

-- every offered order of `e` in world `w` is accepted by set:act (each undone)
local function all_acted(w, e)
  local orders = D.orders(e)
  t.ok(#orders > 0, e.name .. " offers orders")
  for i, o in ipairs(orders) do
    local ok, why = w.set:act(w.game, o.action, o.params, w.active())
    t.ok(ok, ("%s %d: %s"):format(e.name, i, tostring(why)))
    if ok then w.game:undo(1) end
  end
end

-- the labels of a dependent parameter's candidates for the unit named `name` of a parameter `by`
local function for_unit(e, by, name, param)
  return D.labels(D.choice(D.param(e, param), { [by] = D.find(D.param(e, by).domain, name).value }))
end

-- The showcase open in a protocol session whose orders carry their side:
-- an order's `by` (a recorded order's, as D.play copies it into params) or
-- else the side to act now. The protocol's own `side` on orders is another
-- change (keel.serve); until it is merged, orders go to the session's game
-- here, with the same response shape ({ok, error = {message}}).
local function denull(v)
  if v == json.null then return nil end
  if type(v) == "table" then for k, x in pairs(v) do v[k] = denull(x) end end
  return v
end

local function open(path)
  local session = serve.new()
  local p = { spec = scenario.load(path) }
  local function raw(req) return denull(assert(json.decode(session:handle_line(json.encode(req))))) end
  function p.send(req)
    if req.op ~= "order" or req.action == nil then return raw(req) end
    local run = session.run
    local params = {}
    for k, v in pairs(req.params or {}) do params[k] = v end
    local side = params.by or run.set:status(run.game).active[1]
    params.by = nil
    local order = { req.action }
    for k, v in pairs(params) do order[k] = v end
    local ok, conv = pcall(run.params_for, run, req.action, order)
    if not ok then return { ok = false, error = { kind = "params", message = tostring(conv) } } end
    local done, why = run.set:act(run.game, req.action, conv, side)
    if not done then return { ok = false, error = { message = errors.format(why) } } end
    return { ok = true, hash = run.game:hash_hex() }
  end
  assert(raw { op = "open", scenario = path }.ok)
  return p
end

-- play the recorded orders 1 .. upto-1, each by its side (D.play, with the sequence's refusals)
local function play(p, upto)
  for i = 1, upto - 1 do
    local o = p.spec.orders[i]
    local params = {}
    for k, v in pairs(o) do if k ~= 1 and k ~= "expect" then params[k] = v end end
    local resp = p.send { op = "order", action = o[1], params = params }
    local refused = o.expect and (o.expect.illegal or o.expect.vetoed or o.expect.error or o.expect.refused)
    assert(resp.ok or refused, ("order %d (%s): %s"):format(i, tostring(o[1]), resp.error and resp.error.message or "?"))
  end
end

local function before_order(pred)
  local p = open(SHOWCASE)
  play(p, D.find_order(p, pred))
  return p
end

local function paths_of(e, name)
  local units = D.param(e, "units")
  return D.labels(D.choice(D.param(e, "path"), { units = { D.find(units.domain, name).value } }))
end

-- `name` is not among the actions offered to `side` now (the sequence of play says it is not
-- that side's to take here), and an order of it by that side is refused, the state unchanged
local function not_offered(p, side, name, params, why)
  local before = p.send({ op = "view", side = side }).hash
  for _, e in ipairs(p.send({ op = "actions", side = side }).actions) do
    t.ok(e.name ~= name, name .. " is not offered to " .. side)
  end
  local p2 = {}
  for k, v in pairs(params or {}) do p2[k] = v end
  p2.by = side
  local resp = p.send { op = "order", action = name, params = p2 }
  t.eq(resp.ok, false, name .. " by " .. side)
  if why then t.ok(resp.error.message:find(why, 1, true), resp.error.message) end
  t.eq(p.send({ op = "view", side = side }).hash, before, "the state is unchanged")
end

local function has(list, x)
  for _, v in ipairs(list) do if v == x then return true end end
  return false
end

t.test("units.sea-units-1: move offers the moving power's sea units and the paths left to them", function()
  local p = before_order(function(o) return o[1] == "move" and o.by == "Opfor" end)
  local e, before, after = D.action(p, "Opfor", "move")
  t.eq(after, before, "listing the actions leaves the state hash unchanged")
  t.eq(e.available, true)
  t.eq(e.checked, true)
  t.eq(D.labels(D.param(e, "units").domain), { "Kazan", "Vepr", "Varyag" })
  local kazan = paths_of(e, "Kazan")
  t.ok(has(kazan, "SZ 3 > SZ 2"), "a submarine passes hostile SZ 3: " .. table.concat(kazan, ", "))
  t.ok(not has(kazan, "SZ 3 > SZ 2 > SZ 1"), "the frigate in SZ 2 ends the submarine's movement")
  t.eq(D.find(D.param(e, "units").domain, "Belknap"), nil, "not the Allies' units on Russia's turn")
  not_offered(p, "Allies", "move", { units = { "Spruance" }, path = { "SZ 4" } }, "Opfor is to act, not Allies")
end)

t.test("units.sea-units-2: two sea zones a turn, three only from a zone a friendly naval base serves", function()
  local p = before_order(function(o) return o[1] == "move" and o.by == "Allies" and o.units[1] == "Spruance"
    and o.expect and o.expect.illegal end)
  local e = D.action(p, "Allies", "move")
  local spruance = paths_of(e, "Spruance")
  t.ok(has(spruance, "SZ 4 > SZ 6"), table.concat(spruance, ", "))
  t.ok(not has(spruance, "SZ 4 > SZ 6 > SZ 5"), "a third zone is beyond Spruance's allowance")
  t.ok(has(paths_of(e, "Wasp"), "SZ 2 > SZ 3 > SZ 4"), "Wasp departs from SZ 1, which Norfolk serves")
end)

t.test("general-combat-1: battle offers the sea zones where an attack is pending, for the attacker", function()
  local p = before_order(function(o) return o[1] == "battle" end)
  local e, before, after = D.action(p, "Opfor", "battle")
  t.eq(after, before)
  t.eq(D.labels(D.param(e, "zone").domain), { "SZ 2", "SZ 5" })
  not_offered(p, "Allies", "battle", { zone = "SZ 2" }, "Opfor is to act, not Allies")
end)

t.test("general-combat-2: casualties offers the choosing side's units that may take the hit", function()
  local p = before_order(function(o) return o[1] == "casualties" end)
  local e, before, after = D.action(p, "Allies", "casualties")
  t.eq(after, before)
  t.eq(D.labels(D.param(e, "units").domain), { "Nimitz", "Belknap" })
  t.eq(D.find(D.param(e, "units").domain, "Lightning"), nil, "submarines cannot hit air units")
  not_offered(p, "Opfor", "casualties", { units = { "Belknap" } }, "Allies is to act, not Opfor")
  local names = {}
  for _, x in ipairs(p.send({ op = "actions", side = "Allies" }).actions) do names[#names + 1] = x.name end
  t.eq(names, { "casualties", "end_phase", "submerge" }, "the Allies' casualties window: the choice, submarines, a pass (vetoed)")
end)

t.test("units.amphibious-assault-ships.carry-land-units-as-cargo-1: embark offers the power's land units and the friendly assault ships", function()
  local p = before_order(function(o) return o[1] == "embark" end)
  local e, before, after = D.action(p, "Allies", "embark")
  t.eq(after, before)
  local unit = D.param(e, "unit")
  t.eq(D.labels(unit.domain), { "1st Marines", "2nd Tanks" })
  t.eq(D.find(unit.domain, "Viper"), nil, "an assault ship carries only land units")
  t.eq(D.labels(D.choice(D.param(e, "ship"), { unit = D.find(unit.domain, "1st Marines").value })), { "Wasp" })
end)

t.test("units.amphibious-assault-ships.loading-and-offloading-1: offload offers the laden ship and the territory next to it", function()
  local p = before_order(function(o) return o[1] == "offload" end)
  local e, before, after = D.action(p, "Allies", "offload")
  t.eq(after, before)
  local ship = D.param(e, "ship")
  t.eq(D.labels(ship.domain), { "Wasp" })
  t.eq(D.labels(D.choice(D.param(e, "to"), { ship = ship.domain[1].value })), { "Coastland" })
  local later = before_order(function(o) return o[1] == "bombard" end)
  t.eq(D.action(later, "Allies", "offload").available, false, "Wasp has offloaded this turn")
end)

t.test("units.aircraft-carriers.carry-aircraft-1: land offers the fighters in the air and the friendly carriers", function()
  local p = before_order(function(o) return o[1] == "land" end)
  local e, before, after = D.action(p, "Allies", "land")
  t.eq(after, before)
  t.eq(D.labels(D.param(e, "unit").domain), { "Hornet" })
  t.eq(D.labels(D.choice(D.param(e, "carrier"), { unit = D.param(e, "unit").domain[1].value })), { "Nimitz" })
end)

t.test("air-units: fly offers the power's air units and the shortest path to each area within their Move", function()
  local p = before_order(function(o) return o[1] == "fly" end)
  local e, before, after = D.action(p, "Allies", "fly")
  t.eq(after, before)
  t.eq(e.checked, true)
  t.eq(D.labels(D.param(e, "unit").domain), { "Hornet", "Stratofortress", "Viper" })
  local hornet = D.choice(D.param(e, "path"), { unit = D.find(D.param(e, "unit").domain, "Hornet").value })
  t.ok(D.find(hornet, "SZ 1"), "the showcase's flight to SZ 1")
  for _, c in ipairs(hornet) do t.ok(c.cost <= 4, c.label .. ": a fighter moves 4 areas") end
  t.ok(has(for_unit(e, "unit", "Stratofortress", "path"), "SZ 5 > SZ 6 > SZ 4 > Coastland"), "a bomber flies over sea and land")
  all_accepted(p, e)
  not_offered(p, "Opfor", "fly", { unit = "Hornet", path = { "SZ 1" } }, "Allies is to act, not Opfor")
  local combat = before_order(function(o) return o[1] == "offload" end)
  not_offered(combat, "Allies", "fly", { unit = "Viper", path = { "SZ 1" } },
    "fly (rule air-units) is taken in combat_move, noncombat_move, not in the Allies conduct_combat phase")
end)

t.test("turn-sequence: end_phase is offered to the side to act; a casualty window holds it with the veto", function()
  local mid = before_order(function(o) return o[1] == "move" and o.by == "Opfor" end)
  local e, before, after = D.action(mid, "Opfor", "end_phase")
  t.eq({ e.available, after }, { true, before }, "end_phase has no parameters")
  not_offered(mid, "Allies", "end_phase", {}, "Opfor is to act, not Allies")
  local choosing = before_order(function(o) return o[1] == "casualties" and o.by == "Opfor" end)
  local ep = D.action(choosing, "Opfor", "end_phase")
  t.eq(ep.available, false)
  t.eq(ep.kind, "vetoed")
  t.ok(ep.reason:find("Opfor has casualties to choose", 1, true), ep.reason)
  not_offered(choosing, "Allies", "end_phase", {}, "it is Opfor's casualties window")
end)

t.test("amphibious-assaults.step-2: bombard offers the assaulted territory and the power's ships next to it", function()
  local p = before_order(function(o) return o[1] == "bombard" end)
  local e, before, after = D.action(p, "Allies", "bombard")
  t.eq(after, before)
  t.eq(D.labels(D.param(e, "territory").domain), { "Coastland" })
  t.eq(D.labels(D.choice(D.param(e, "ships"), { territory = "Coastland" })), { "Belknap", "Spruance" })
  all_accepted(p, e)
  local after_combat = before_order(function(o) return o[1] == "bombard" and o.expect and o.expect.illegal end)
  local a = D.action(after_combat, "Allies", "bombard")
  t.eq(a.available, false)
  t.ok(a.reason:find("no amphibious assault is being made", 1, true), a.reason)
end)

t.test("amphibious-assaults.land-combat: land_combat offers the assaulted territory, not while casualties are chosen", function()
  local p = before_order(function(o) return o[1] == "land_combat" and not o.expect.refused end)
  local e = D.action(p, "Allies", "land_combat")
  t.eq(D.labels(D.param(e, "territory").domain), { "Coastland" })
  all_accepted(p, e)
  local choosing = before_order(function(o) return o[1] == "casualties" and o.by == "Opfor" end)
  not_offered(choosing, "Allies", "land_combat", { territory = "Coastland" }, "Opfor is to act, not Allies")
end)

t.test("naval-bases: set_operative is the scenario's, offering the naval bases and the state each is not in", function()
  local p = before_order(function(o) return o[1] == "move" and o.by == "Opfor" end)
  not_offered(p, "Opfor", "set_operative", { base = "Sevastopol", operative = false }, "the scenario's own order")
  local w = F.world { power = "USA", units = { { "Norfolk", "naval_base", "Allies", "Homeland", power = "USA" },
    { "Sevastopol", "naval_base", "Opfor", "Coastland", power = "Russia", values = { operative = false } } } }
  local e = listed(w, nil, "set_operative")
  t.eq(D.labels(D.param(e, "base").domain), { "Norfolk", "Sevastopol" })
  t.eq(for_unit(e, "base", "Norfolk", "operative"), { false }, "Norfolk is operative")
  t.eq(for_unit(e, "base", "Sevastopol", "operative"), { true })
  for i, o in ipairs(D.orders(e)) do
    local ok, why = w.set:act(w.game, o.action, o.params)
    t.ok(ok, ("set_operative %d: %s"):format(i, tostring(why)))
    if ok then w.game:undo(1) end
  end
end)

t.test("units.aircraft-carriers.air-defense: reland offers the planes that must land and the carriers with room", function()
  local w = F.world { power = "Russia", units = {
    { "U1", "submarine", "Opfor", "SZ 3", power = "Russia" }, { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" },
    { "Nimitz", "carrier", "Allies", "SZ 2", power = "USA" },
    { "Hornet", "fighter", "Allies", nil, power = "USA", aboard = "Nimitz" },
    { "Spit", "fighter", "Allies", nil, power = "UK", aboard = "Nimitz" },
    { "Vinson", "carrier", "Allies", "SZ 5", power = "USA" }, { "Sovremenny", "destroyer", "Opfor", "SZ 6", power = "Russia" } } }
  w.ok("move", { units = { "U1", "Kirov" }, path = { "SZ 2" } })
  w.ok("end_phase", {})
  w.force(1, 6, 6, 6, 6)   -- Surprise Strike damages Nimitz; nothing else hits
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  w.ok("retreat", { to = "SZ 3" })
  local ok, why = w.set:act(w.game, "reland", w.ids { unit = "Hornet", carrier = "Vinson" }, "Opfor")
  t.ok(not ok and why:find("reland (rule units.aircraft-carriers.air-defense) is taken in noncombat_move", 1, true),
    "this movement occurs in Noncombat Move: " .. tostring(why))
  w.ok("end_phase", {})
  t.eq(w.active(), "Allies", "the planes' owner lands them in its own window")
  local e = listed(w, "Allies", "reland")
  t.eq(D.labels(D.param(e, "unit").domain), { "Hornet", "Spit" })
  t.eq(D.labels(D.param(e, "carrier").choices[1].domain), { "Vinson" }, "Nimitz is damaged; Vinson is one space away")
  all_acted(w, e)
  local _, kind = w.refused("reland", { unit = "Hornet", carrier = "Vinson" }, nil, "Allies is to act, not Opfor", "Opfor")
  t.eq(kind, "side")
end)

t.test("units.aircraft-carriers.air-defense: reland offers a friendly territory one space away", function()
  local w = F.world { power = "Russia", units = {
    { "U1", "submarine", "Opfor", "SZ 2", power = "Russia" },
    { "Nimitz", "carrier", "Allies", "SZ 1", power = "USA" },
    { "Hornet", "fighter", "Allies", nil, power = "USA", aboard = "Nimitz" } } }
  w.ok("move", { units = { "U1" }, path = { "SZ 1" } })
  w.ok("end_phase", {})
  w.force(1, 6, 6)
  w.ok("battle", { zone = "SZ 1", attacker = "cheapest", defender = "cheapest", rounds = 1 })
  w.ok("retreat", { to = "SZ 2" })
  w.ok("end_phase", {})
  local e = listed(w, "Allies", "reland")
  t.eq(D.labels(D.param(e, "to").choices[1].domain), { "Homeland" })
  all_acted(w, e)
end)

t.test("units.submarines.submersible: submerge offers the side's units on the battle strip that may submerge", function()
  local w = F.world { power = "USA", units = {
    { "Dallas", "submarine", "Allies", "SZ 2", power = "USA" }, { "DD", "destroyer", "Allies", "SZ 2", power = "USA" },
    { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" }, { "K2", "submarine", "Opfor", "SZ 3", power = "Russia" } } }
  w.ok("move", { units = { "Dallas", "DD" }, path = { "SZ 3" } })
  w.ok("end_phase", {})
  local none = listed(w, "Allies", "submerge")
  t.eq(none.available, false)
  t.ok(none.reason:find("no battle is being fought", 1, true), none.reason)
  w.force(6, 6, 6, 6)
  w.ok("battle", { zone = "SZ 3", attacker = "cheapest", rounds = 1 })
  local e = listed(w, "Allies", "submerge")
  t.eq(D.labels(D.param(e, "units").domain), { "Dallas" }, "a destroyer does not submerge")
  all_acted(w, e)
  local _, kind = w.refused("submerge", { units = { "K2" } }, nil, "Allies is to act, not Opfor", "Opfor")
  t.eq(kind, "side", "the defender's submarines: in its casualties window")
end)

t.test("units.amphibious-assault-ships.marine-transport-by-helicopters: heli_embark and heli_offload offer units, helicopters and ships", function()
  local w = F.world { power = "USA", phase = "noncombat_move", globals = { sitrep_marine_transport = true }, units = {
    { "Seahawk", "helicopter", "Allies", "Homeland", power = "USA" },
    { "SEAL", "special_force", "Allies", "Homeland", power = "USA" },
    { "1st Marines", "infantry", "Allies", "Homeland", power = "USA" },
    { "Wasp", "assault_ship", "Allies", "SZ 1", power = "USA" } } }
  local e = listed(w, "Allies", "heli_embark")
  t.eq(D.labels(D.param(e, "unit").domain), { "SEAL" }, "infantry is not a helicopter's cargo")
  t.eq(D.labels(D.param(e, "helicopter").choices[1].domain), { "Seahawk" })
  all_acted(w, e)
  w.ok("heli_embark", { unit = "SEAL", helicopter = "Seahawk" })
  local down = listed(w, "Allies", "heli_offload")
  t.eq(D.labels(D.param(down, "unit").domain), { "SEAL" })
  for _, c in ipairs(D.param(down, "ship").choices or {}) do t.eq(#c.domain, 0, "over Homeland: put down there") end
  all_acted(w, down)
  w.ok("fly", { unit = "Seahawk", path = { "SZ 1" } })
  local sea = listed(w, "Allies", "heli_offload")
  t.eq(D.labels(D.param(sea, "ship").choices[1].domain), { "Wasp" }, "over SZ 1: aboard the assault ship there")
  all_acted(w, sea)
  local off = F.world { power = "USA", phase = "noncombat_move", units = {
    { "Seahawk", "helicopter", "Allies", "Homeland", power = "USA" },
    { "SEAL", "special_force", "Allies", "Homeland", power = "USA" } } }
  local no = listed(off, "Allies", "heli_embark")
  t.eq(no.available, false)
  t.ok(no.reason:find("the marine-transport sitrep is not in play", 1, true), no.reason)
end)

t.test("missile: embark_missile offers the power's missiles and the friendly ships next to them; launch_missile the laden ships and every area", function()
  local w = F.world { power = "USA", globals = { sitrep_missiles = true }, units = {
    { "Tomahawk", "missile", "Allies", "Homeland", power = "USA" },
    { "Belknap", "cruiser", "Allies", "SZ 1", power = "USA" },
    { "Nimitz", "carrier", "Allies", "SZ 5", power = "USA" },
    { "Spruance", "destroyer", "Allies", "SZ 2", power = "USA" } } }
  local e = listed(w, "Allies", "embark_missile")
  t.eq(D.labels(D.param(e, "missile").domain), { "Tomahawk" })
  t.eq(D.labels(D.param(e, "ship").choices[1].domain), { "Belknap" }, "a carrier takes no missile; Spruance is not next to Homeland")
  all_acted(w, e)
  w.ok("embark_missile", { missile = "Tomahawk", ship = "Belknap" })
  local l = listed(w, "Allies", "launch_missile")
  t.eq(D.labels(D.param(l, "ship").domain), { "Belknap" })
  t.eq(#D.param(l, "target").domain, #w.board:zones(), "its range is the Missile chapter's")
  all_acted(w, l)
end)

t.test("units.submarines.does-not-block-enemy-movement: move asks whether to attack only where the move ends among enemy submarines", function()
  local w = F.world { power = "USA", units = {
    { "Spruance", "destroyer", "Allies", "SZ 1", power = "USA" },
    { "Kazan", "submarine", "Opfor", "SZ 2", power = "Russia" } } }
  local e = listed(w, "Allies", "move")
  local attack, plain = {}, {}
  for _, o in ipairs(D.orders(e)) do
    local to = o.params.path[#o.params.path]
    if o.params.attack ~= nil then attack[#attack + 1] = table.concat(o.params.path, ">") .. "=" .. tostring(o.params.attack)
    elseif #o.params.path == 1 and to == "SZ 5" then plain[#plain + 1] = to end
  end
  t.eq(attack, { "SZ 2=false", "SZ 2=true", "SZ 5>SZ 2=false", "SZ 5>SZ 2=true" },
    "Kazan alone in SZ 2: the player says whether to attack")
  t.eq(plain, { "SZ 5" }, "an empty zone asks nothing")
  all_acted(w, e)
end)

t.test("units.amphibious-assault-ships.loading-and-offloading-2: offload offers the ship's cargo as the sets the rules allow, or all of it", function()
  local p = before_order(function(o) return o[1] == "offload" end)
  local e = D.action(p, "Allies", "offload")
  local ship = D.param(e, "ship").domain[1].value
  local units = D.param(e, "units")
  local c = units.choices[1]
  t.eq(c.given.ship, ship)
  t.eq(D.labels(c.domain), { "1st Marines", "2nd Tanks" })
  t.eq(c.sets, { { c.domain[1].value, c.domain[2].value } },
    "not one alone: 2nd Tanks, loaded in Combat Move, goes ashore in the assault with it")
  t.eq(c.omit, true, "left out: all the power's cargo")
  all_accepted(p, e)
end)

t.test("general-combat: battle and bombard offer the named casualty policies, or none", function()
  local p = before_order(function(o) return o[1] == "battle" end)
  local e = D.action(p, "Opfor", "battle")
  local q = D.param(e, "attacker")
  t.eq(D.labels(q.domain), { "cheapest", "keep_carriers" })
  t.eq(q.omit, true, "left out, casualties are chosen as they come")
  local d = D.param(e, "defender")
  t.eq({ D.labels(d.domain), d.omit }, { {}, true }, "the defender's casualties are its own decision, in its window")
  t.eq(#D.orders(e), 6, "two zones, the attacker's policy named or left out")
  all_accepted(p, e)
  local b = before_order(function(o) return o[1] == "bombard" end)
  local bd = D.param(D.action(b, "Allies", "bombard"), "defender")
  t.eq({ D.labels(bd.domain), bd.omit }, { {}, true })
end)

-- ---- the showcase played by random legal orders (issue 26) ----------------------------------

-- Play the showcase from its start by orders picked at random (a seeded dice stream) among
-- those offered to the side to act: an action uniformly, then one of its orders uniformly.
-- Every offered order must be accepted, listing must leave the state hash as it was, and
-- the game must end (its last turn) within `limit` orders. Returns the orders played and
-- the result.
local function random_play(seed, limit)
  local sc = require "keel.scenario"
  local keel = require "keel"
  local run = sc.start(sc.load(SHOWCASE))
  local set, game = run.set, run.game
  local dice = keel.dice.new(seed)
  local function pick(n) return n == 1 and 1 or (dice:roll("1d" .. n)) end
  for n = 1, limit do
    local status = set:status(game)
    if status.over then return n - 1, set:status(game).result end
    local side = status.active[1]
    local before = game:hash_hex()
    local entries = set:legal_actions(game, side)
    t.eq(game:hash_hex(), before, "listing the actions leaves the state hash unchanged")
    local offered = {}
    for _, e in ipairs(entries) do
      if e.available then
        local orders = D.orders(e)
        if #orders > 0 then offered[#offered + 1] = orders end
      end
    end
    if #offered == 0 then
      local why = {}
      for _, e in ipairs(entries) do why[#why + 1] = e.name .. ": " .. tostring(e.reason) end
      error(("order %d: nothing offered to %s in %s (%s)"):format(n, tostring(side), tostring(status.phase), table.concat(why, "; ")))
    end
    local orders = offered[pick(#offered)]
    local o = orders[pick(#orders)]
    local ok, why = set:act(game, o.action, o.params, side)
    if not ok then
      error(("order %d: the offered %s by %s was refused: %s"):format(n, o.action, side, errors.format(why)))
    end
  end
  error(("seed %d: the game did not end within %d orders"):format(seed, limit))
end

t.test("26-seazone-random-play: random offered orders for the side to act play the showcase to its end", function()
  for _, seed in ipairs { 1, 26, 2026 } do
    local n, result = random_play(seed, 1500)
    t.ok(n > 8, "a two-turn game of three powers takes at least its passes")
    t.eq(result.over, true)
    t.ok(result.reason ~= nil, "the result says why")
    t.ok(result.scores.Allies ~= nil and result.scores.Opfor ~= nil, "both sides are scored")
  end
end)

-- tests/lua/seazone_domains_test.lua — what the seazone family offers a user
-- interface: the parameter domains of move, battle, casualties, retreat,
-- embark, offload and land, at points of the showcase
-- scenarios/seazone_trident.lua played through the protocol's session
-- function (keel.serve); listing never changes the state.
local t = require "keel.testing"
local D = dofile("tests/lua/domains_fixture.lua")

local SHOWCASE = "scenarios/seazone_trident.lua"

local function before_order(pred)
  local p = D.open(SHOWCASE)
  D.play(p, D.find_order(p, pred))
  return p
end

local function paths_of(e, name)
  local units = D.param(e, "units")
  return D.labels(D.choice(D.param(e, "path"), { units = { D.find(units.domain, name).value } }))
end

local function has(list, x)
  for _, v in ipairs(list) do if v == x then return true end end
  return false
end

t.test("units.sea-units-1: move offers the moving power's sea units and the paths left to them", function()
  local p = before_order(function(o) return o[1] == "move" end)
  local e, before, after = D.action(p, "Opfor", "move")
  t.eq(after, before, "listing the actions leaves the state hash unchanged")
  t.eq(e.available, true)
  t.eq(e.checked, true)
  t.eq(D.labels(D.param(e, "units").domain), { "Kazan", "Vepr", "Varyag" })
  local kazan = paths_of(e, "Kazan")
  t.ok(has(kazan, "SZ 3 > SZ 2"), "a submarine passes hostile SZ 3: " .. table.concat(kazan, ", "))
  t.ok(not has(kazan, "SZ 3 > SZ 2 > SZ 1"), "the frigate in SZ 2 ends the submarine's movement")
  t.eq(D.find(D.param(e, "units").domain, "Belknap"), nil, "not the Allies' units on Russia's turn")
  local allies = D.action(p, "Allies", "move")
  t.eq(allies.available, false, "it is Russia's turn")
end)

t.test("units.sea-units-2: two sea zones a turn, three only from a zone a friendly naval base serves", function()
  local p = before_order(function(o) return o[1] == "move" and o.units[1] == "Spruance" end)
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
  t.eq(D.action(p, "Allies", "battle").available, false, "the defender does not start the battle")
end)

t.test("general-combat-2: casualties offers the choosing side's units that may take the hit", function()
  local p = before_order(function(o) return o[1] == "casualties" end)
  local e, before, after = D.action(p, "Allies", "casualties")
  t.eq(after, before)
  t.eq(D.labels(D.param(e, "units").domain), { "Nimitz", "Belknap" })
  t.eq(D.find(D.param(e, "units").domain, "Lightning"), nil, "submarines cannot hit air units")
  t.eq(D.action(p, "Opfor", "casualties").kind, "domain", "the Allies choose")
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

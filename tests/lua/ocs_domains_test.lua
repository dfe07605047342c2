-- tests/lua/ocs_domains_test.lua — what OCS 18.1-18.6 offers a user
-- interface: the parameter domains of every action of the family (move,
-- the carriers', barrage, the landing craft's, landings, beach assaults),
-- at points of the showcase scenarios/ocs_salerno.lua played through the
-- protocol's session function (keel.serve); listing never changes the state.
-- The protocol lists what the side to decide may take now (the sequence of
-- play's phases and steps, doc/ocs.md "The sequence of play"): an action
-- another side or step owns is not listed at all.
local t = require "keel.testing"
local D = dofile("tests/lua/domains_fixture.lua")

local SHOWCASE = "scenarios/ocs_salerno.lua"

local function before_order(pred)
  local p = D.open(SHOWCASE)
  D.play(p, D.find_order(p, pred))
  return p
end

-- ---- helpers of the tests below -------------------------------------------------------

-- the view of a unit by name (what the side sees)
local function unit(p, name, side)
  for _, u in ipairs(p.send({ op = "view", side = side or "Allied" }).units) do
    if u.name == name then return u end
  end
end

-- send an offered order for the side to decide now; it must be played
local function play(p, action, params)
  local side = p.send({ op = "status" }).active[1]
  local r = p.send { op = "order", action = action, params = params, side = side }
  t.ok(r.ok, ("%s refused: %s"):format(action, r.error and r.error.message or "?"))
  return r
end

-- the action as the protocol lists it for side, or nil when it is not listed
local function listed(p, side, name)
  for _, e in ipairs(p.send({ op = "actions", side = side }).actions) do
    if e.name == name then return e end
  end
  return nil
end

-- before the first order of action `name` by the Allies (pred: and more)
local function before_action(name, pred)
  return before_order(function(o) return o[1] == name and o.by == "Allied" and (pred == nil or pred(o)) end)
end

-- ---- 18.1 general naval rules ------------------------------------------------------

t.test("18.1e-9: move offers the side's ships in its Movement Phase and the cheapest path to each hex in reach", function()
  local p = before_action("move")
  local e, h0, h1 = D.action(p, "Allied", "move")
  t.eq(h1, h0, "listing leaves the state hash unchanged")
  t.eq(e.available, true)
  t.eq(e.checked, true)
  local ships = D.param(e, "unit").domain
  t.eq(D.labels(ships), { "Formidable", "Warspite", "Jervis", "Uganda", "LCT Flotilla", "LST 409", "DUKW A", "DUKW B",
    "LCI 124", "LCT 2" })
  local function paths(name) return D.choice(D.param(e, "path"), { unit = D.find(ships, name).value }) end
  local w = paths("Warspite")
  t.eq(D.find(w, "S:0604").value, { "S:0604" })
  t.eq(D.find(w, "S:0604").cost, 1)
  t.eq(D.find(w, "S:0705"), nil, "18.1c: a ship enters all-sea hexes only (S:0705 is coastal)")
  t.eq(D.find(paths("Uganda"), "S:0406"), nil, "18.1b: never into Lupo's hex")
  local lct = paths("LCT Flotilla")
  t.eq(D.find(lct, "S:0705").cost, 6, "18.1c: landing craft enter coastal hexes")
  t.eq(D.find(lct, "S:0703"), nil, "18.1b: not into the hex of the enemy battery")
  t.eq(D.find(lct, "S:0605").cost, 5, "18.1f: 10 MP, 1 a hex")
  t.eq(D.find(lct, "S:0101"), nil, "beyond its 10 MP (18.4b)")
  for _, c in ipairs(lct) do t.ok(c.cost <= 10 and #c.value == c.cost, c.label) end
  t.eq(D.find(paths("DUKW A"), "S:0606").cost, 12, "18.4e: 3 Transport-Point MPs a water hex")
  t.eq(listed(p, "Axis", "move"), nil, "not the Axis's phase: not listed")
  play(p, "move", { unit = D.find(ships, "Uganda").value, path = D.find(paths("Uganda"), "S:0508").value })
  t.eq(unit(p, "Uganda").at, "S:0508")
end)

t.test("18.1e-10: outside the movement segments move is not offered; an order for it is refused where it is taken", function()
  local p = before_action("refit")
  t.eq(listed(p, "Allied", "move"), nil, "the Aircraft Refit Phase")
  local r = D.try(p, { action = "move", params = { unit = "Warspite", path = { "S:0604" } }, side = "Allied" })
  t.eq(r.ok, false)
  t.eq(r.error.kind, "phase")
  t.ok(r.error.message:find("move (rule 18.1e) is taken in", 1, true), r.error.message)
  t.ok(r.error.message:find("not in the Allied aircraft_refit phase (turn 1)", 1, true), r.error.message)
end)

-- ---- 18.2 carriers ----------------------------------------------------------------------

t.test("18.2a-9: base_plane offers the side's planes and, for each, the carriers with room for it", function()
  local p = before_action("base_plane")
  local e, h0, h1 = D.action(p, "Allied", "base_plane")
  t.eq(h1, h0, "listing leaves the state hash unchanged")
  t.eq(e.available, true)
  t.eq(e.checked, true)
  local planes = D.param(e, "plane")
  t.eq(D.labels(planes.domain), { "Martlet 888" }, "the Albacores are aboard the only carrier")
  local martlet = D.find(planes.domain, "Martlet 888").value
  t.eq(D.labels(D.choice(D.param(e, "carrier"), { plane = martlet })), { "Formidable" })
  t.eq(listed(p, "Axis", "base_plane"), nil, "not the Axis's phase")
  play(p, "base_plane", { plane = martlet, carrier = D.choice(D.param(e, "carrier"), { plane = martlet })[1].value })
  t.eq(unit(p, "Martlet 888").loc, "unit")
  t.eq(unit(p, "Martlet 888").aboard, unit(p, "Formidable").id)
end)

t.test("18.2a-10: a full carrier is not offered, and base_plane says why", function()
  local p = before_action("embark")   -- the Martlets have landed on Formidable
  local e, h0, h1 = D.action(p, "Allied", "base_plane")
  t.eq(h1, h0)
  t.eq(e.available, false, "Formidable (3 planes) carries all three")
  t.eq(e.kind, "domain")
  t.ok(e.reason:find("18.2a: no carrier of its side takes Albacore 820 (but the one it is aboard)", 1, true), e.reason)
end)

t.test("18.2b-9: refit offers the side's carrier in its Aircraft Refit Phase; once refitted, the rule's reason", function()
  t.eq(listed(before_action("base_plane"), "Allied", "refit"), nil, "the Movement Phase: not listed")
  local p = before_action("refit")
  local e, h0, h1 = D.action(p, "Allied", "refit")
  t.eq(h1, h0)
  t.eq(e.available, true)
  t.eq(D.labels(D.param(e, "carrier").domain), { "Formidable" })
  t.eq(listed(p, "Axis", "refit"), nil, "the Allied phase")
  t.eq(unit(p, "Albacore 820").values.inactive, true)
  play(p, "refit", { carrier = D.param(e, "carrier").domain[1].value })
  t.eq(unit(p, "Albacore 820").values.inactive, nil, "refitted: Active again")
  local again = D.action(p, "Allied", "refit")
  t.eq(again.available, false)
  t.eq(again.refused.rule, "18.2b")
  t.eq(again.refused.reason, "18.2b: Formidable has refitted in this phase")
end)

t.test("18.2b-10: refit offers the Inactive planes aboard, any of them or (left out) all", function()
  local p = before_action("refit")
  local e = D.action(p, "Allied", "refit")
  local cv = D.param(e, "carrier").domain[1].value
  local planes = D.choice(D.param(e, "planes"), { carrier = cv })
  t.eq(D.labels(planes), { "Albacore 820", "Albacore 826" }, "Martlet 888 is Active")
  t.eq(D.param(e, "planes").choices[1].any_set, true)
  t.eq(D.param(e, "planes").choices[1].omit, true, "left out: all of them")
  play(p, "refit", { carrier = cv, planes = { D.find(planes, "Albacore 826").value } })
  t.eq(unit(p, "Albacore 826").values.inactive, nil)
  t.eq(unit(p, "Albacore 820").values.inactive, true, "not named: still Inactive")
end)

-- ---- 18.3 naval combat -------------------------------------------------------------------

local function warspite_at_ground(o) return o[1] == "barrage" and o.hex == "S:0805" end

t.test("18.3-1: barrage offers the Allied units that may fire and, for each, the enemy naval targets in its range", function()
  local p = before_order(warspite_at_ground)
  local e, before, after = D.action(p, "Allied", "barrage")
  t.eq(e.available, true)
  t.eq(e.checked, true)
  t.eq(after, before, "listing the actions leaves the state hash unchanged")
  local units = D.param(e, "units")
  t.eq(D.labels(units.domain), { "Albacore 820", "Albacore 826", "Martlet 888", "Warspite", "Jervis", "Uganda" })
  local target = D.param(e, "target")
  local function targets(name) return D.labels(D.choice(target, { units = { D.find(units.domain, name).value } })) end
  t.eq(targets("Warspite"), { "Lupo", "Sagittario", "Batteria Salerno" }, "range 4 reaches all three")
  t.eq(targets("Uganda"), { "Lupo" }, "Sagittario is beyond Uganda's range 3")
  t.eq(targets("Jervis"), { "Batteria Salerno" }, "range 2: only the coastal artillery")
  t.eq(targets("Albacore 820"), { "Lupo", "Sagittario" }, "planes fire at ships, not at coastal artillery (18.3g C)")
  t.eq(D.find(units.domain, "Lupo"), nil, "an enemy ship is not offered as a firer")
end)

t.test("18.3a-9: a unit that has fired in this Barrage Segment is no longer offered", function()
  local p = before_order(warspite_at_ground)
  local o = p.spec.orders[D.find_order(p, warspite_at_ground)]
  t.eq(p.send({ op = "order", action = "barrage", params = { units = o.units, hex = o.hex }, side = "Allied" }).ok, true)
  local e = D.action(p, "Allied", "barrage")
  t.eq(D.find(D.param(e, "units").domain, "Warspite"), nil)
  t.ok(D.find(D.param(e, "units").domain, "Uganda"), "Uganda still may")
end)

t.test("18.3a-10: outside a Barrage Segment barrage is not listed; in the Combat Phase's only artillery may fire (2.2)", function()
  t.eq(listed(before_action("base_plane"), "Allied", "barrage"), nil, "the Movement Segment")
  local p = before_order(function(o) return o[1] == "barrage" and o.expect and o.expect.illegal
    and o.expect.illegal:find("2.2", 1, true) ~= nil end)
  t.eq(p.send({ op = "status" }).step, "artillery_barrage")
  local e, before, after = D.action(p, "Allied", "barrage")
  t.eq(e.available, false)
  t.eq(e.kind, "domain")
  t.ok(e.reason:find("18.3a: no unit of Allied may barrage in this segment", 1, true), e.reason)
  t.eq(after, before)
  t.eq(listed(p, "Axis", "barrage"), nil, "the Allied segment")
end)

t.test("18.3b-9: barrage offers the hexes of enemy facilities in range and, for each, its port or facility tags", function()
  local p = before_order(warspite_at_ground)
  local e, before, after = D.action(p, "Allied", "barrage")
  t.eq(after, before)
  local warspite = D.find(D.param(e, "units").domain, "Warspite").value
  local hexes = D.labels(D.choice(D.param(e, "hex"), { units = { warspite } }))
  t.eq(hexes, { "S:0702", "S:0703", "S:0805" }, "Salerno's port, the battery, the panzergrenadiers")
  t.eq(D.labels(D.choice(D.param(e, "facility"), { hex = "S:0702" })), { "port" })
  t.eq(D.choice(D.param(e, "facility"), { hex = "S:0904" }), nil,
    "Montecorvino's airbase is the Allies' now (2/4 Hampshire took it, A.1): no target")
  t.eq(#D.choice(D.param(e, "facility"), { hex = "S:0805" }), 0, "no facility: the units of the hex")
  t.eq(D.find(D.choice(D.param(e, "hex"), { units = { D.find(D.param(e, "units").domain, "Uganda").value } }), "S:0702"),
    nil, "beyond Uganda's range 3")
  local r = play(p, "barrage", { units = { warspite }, hex = "S:0702", facility = "port" })
  local said = {}
  for _, n in ipairs(r.narration) do said[#said + 1] = n.text end
  t.ok(table.concat(said, "\n"):find("Warspite barrage at port S:0702", 1, true), table.concat(said, "\n"))
end)

t.test("18.4c-9: embark offers the side's landing craft and, for each, the units it may load in its hex", function()
  local p = before_order(function(o) return o[1] == "embark" end)
  local e, before, after = D.action(p, "Allied", "embark")
  t.eq(after, before)
  local craft = D.param(e, "craft")
  t.eq(D.labels(craft.domain), { "LCT Flotilla", "LST 409", "DUKW A", "DUKW B", "LCI 124", "LCT 2" })
  local dukw = D.labels(D.choice(D.param(e, "units"), { craft = D.find(craft.domain, "DUKW A").value }))
  t.eq(dukw, { "No 2 Commando", "SP Dump A", "SP Dump B", "SP Dump C" }, "18.4e: no battalions aboard a DUKW")
  local lct = D.labels(D.choice(D.param(e, "units"), { craft = D.find(craft.domain, "LCT Flotilla").value }))
  t.ok(D.find(D.choice(D.param(e, "units"), { craft = D.find(craft.domain, "LCT Flotilla").value }), "2/4 Hampshire"), table.concat(lct, ","))
end)

t.test("18.4d-9: split_craft offers the craft of 2 points or more and the points that may split off", function()
  local p = before_action("embark")
  local e, h0, h1 = D.action(p, "Allied", "split_craft")
  t.eq(h1, h0)
  t.eq(e.checked, true)
  local craft = D.param(e, "craft").domain
  t.eq(D.labels(craft), { "LCT Flotilla", "LST 409", "DUKW B", "LCI 124" }, "DUKW A and LCT 2 have 1 point")
  local lct = D.find(craft, "LCT Flotilla").value
  t.eq(D.labels(D.choice(D.param(e, "points"), { craft = lct })), { 1, 2, 3 })
  play(p, "split_craft", { craft = lct, points = 3 })
  t.eq(unit(p, "LCT Flotilla").points, 1)
  -- laden, the flotilla keeps the points its two battalions need
  local laden = before_action("convert_lst")
  local e2 = D.action(laden, "Allied", "split_craft")
  t.eq(D.labels(D.choice(D.param(e2, "points"), { craft = D.find(D.param(e2, "craft").domain, "LCT Flotilla").value })),
    { 1, 2 })
  t.eq(listed(p, "Axis", "split_craft"), nil, "the Allied phase")
end)

t.test("18.4d-10: combine_craft offers, for each craft, the craft of its type and mode in its hex", function()
  local p = before_action("switch_mode")
  local e, h0, h1 = D.action(p, "Allied", "combine_craft")
  t.eq(h1, h0)
  local craft = D.param(e, "craft").domain
  t.eq(D.labels(craft), { "LCI 124", "LCT 2" }, "LCT Flotilla and DUKW A are alone at the coast, DUKW B the only DUKW in port")
  local lci, lct2 = D.find(craft, "LCI 124").value, D.find(craft, "LCT 2").value
  t.eq(D.labels(D.choice(D.param(e, "into"), { craft = lct2 })), { "LCI 124" })
  t.eq(D.find(craft, "DUKW B"), nil, "no other DUKW at Agropoli")
  play(p, "combine_craft", { craft = lct2, into = lci })
  t.eq(unit(p, "LCI 124").points, 3)
  t.eq(unit(p, "LCT 2").loc, "off", "the counter is gone into LCI 124")
  t.eq(unit(p, "SP Dump C").aboard, lci, "its cargo goes with it")
end)

t.test("18.4e-9: disembark offers the Transport-Point DUKW and what it carries", function()
  local p = before_order(function(o) return o[1] == "disembark" end)
  local e, before, after = D.action(p, "Allied", "disembark")
  t.eq(after, before)
  t.eq(D.labels(D.param(e, "craft").domain), { "DUKW B" }, "landing craft unload only by landing (18.4c)")
  t.eq(D.labels(D.choice(D.param(e, "units"), { craft = D.param(e, "craft").domain[1].value })), { "SP Dump B" })
end)

t.test("18.4e-10: switch_mode offers the side's DUKWs and the mode each is not in", function()
  local p = before_action("switch_mode")
  local e, h0, h1 = D.action(p, "Allied", "switch_mode")
  t.eq(h1, h0)
  local dukws = D.param(e, "unit").domain
  t.eq(D.labels(dukws), { "DUKW A", "DUKW B" })
  local a = D.find(dukws, "DUKW A").value
  t.eq(D.labels(D.choice(D.param(e, "to"), { unit = a })), { "Transport Points" })
  t.eq(D.choice(D.param(e, "to"), { unit = a })[1].value, "tp")
  play(p, "switch_mode", { unit = a, to = "tp" })
  t.eq(unit(p, "DUKW A").values.mode, "tp")
  local back = D.action(p, "Allied", "switch_mode")
  t.eq(D.labels(D.choice(D.param(back, "to"), { unit = a })), { "Landing Craft" })
  t.eq(listed(before_action("refit"), "Allied", "switch_mode"), nil, "the Aircraft Refit Phase: not listed")
end)

t.test("18.4e-11: a DUKW as Transport Points is offered paths by land, 1 MP a hex of its 24", function()
  local p = before_action("move", function(o) return o.unit == "DUKW B" and o.path[1] == "S:0807" end)
  local e = D.action(p, "Allied", "move")
  local dukw = D.find(D.param(e, "unit").domain, "DUKW B")
  t.ok(dukw, "DUKW B may move")
  local paths = D.choice(D.param(e, "path"), { unit = dukw.value })
  t.eq(D.find(paths, "S:0907").value, { "S:0806", "S:0907" }, "one cheapest path: the lower hex id first")
  t.eq(D.find(paths, "S:0907").cost, 2, "land_move_cost: 1 MP a hex")
  t.eq(D.find(paths, "S:0606"), nil, "no water hex by land")
  t.eq(D.find(paths, "S:0805"), nil, "not into the panzergrenadiers' hex")
  play(p, "move", { unit = dukw.value, path = D.find(paths, "S:0907").value })
  t.eq(unit(p, "DUKW B").at, "S:0907")
end)

t.test("18.4f-9: convert_lst offers the LST in a coastal or estuary hex with the modes of its cargo, and 18.4f F's reason in a port", function()
  local in_port = before_action("convert_lst")
  local e0, h0, h1 = D.action(in_port, "Allied", "convert_lst")
  t.eq(h1, h0)
  t.eq(e0.available, false)
  t.eq(e0.refused.rule, "18.4f")
  t.ok(e0.reason:find("18.4f F: S:0710 already has a port", 1, true), e0.reason)
  local p = before_action("convert_lst", function(o) return not o.expect.illegal end)
  local e = D.action(p, "Allied", "convert_lst")
  t.eq(e.available, true)
  local lst = D.param(e, "unit").domain
  t.eq(D.labels(lst), { "LST 409" })
  t.eq(D.labels(D.choice(D.param(e, "mode"), { unit = lst[1].value })), { "combat", "move" }, "18.5c")
  play(p, "convert_lst", { unit = lst[1].value, mode = "move" })
  t.eq(unit(p, "1/4 Hampshire").at, "S:0806")
  t.eq(unit(p, "1/4 Hampshire").values.mode, "move")
end)

t.test("18.5a-9: land offers the laden craft in a coastal hex, with the modes its combat units land in", function()
  local p = before_order(function(o) return o[1] == "land" end)
  local e, before, after = D.action(p, "Allied", "land")
  t.eq(after, before)
  t.eq(e.available, true)
  t.eq(D.labels(D.param(e, "craft").domain), { "LCT Flotilla" }, "the other laden craft are still at sea")
  t.eq(D.labels(D.choice(D.param(e, "mode"), { craft = D.param(e, "craft").domain[1].value })), { "combat", "move" })
end)

t.test("18.5a-10: land offers the cargo aboard, any of it or (left out) all", function()
  local p = before_action("land")
  local e = D.action(p, "Allied", "land")
  local craft = D.param(e, "craft").domain[1].value
  local units = D.param(e, "units").choices[1]
  t.eq(D.labels(units.domain), { "2/4 Hampshire", "2/5 Hampshire" })
  t.eq(units.any_set, true)
  t.eq(units.omit, true, "left out: all the cargo lands")
  play(p, "land", { craft = craft, units = { D.find(units.domain, "2/5 Hampshire").value }, mode = "move" })
  t.eq(unit(p, "2/5 Hampshire").at, "S:0705")
  t.eq(unit(p, "2/5 Hampshire").values.mode, "move")
  t.eq(unit(p, "2/4 Hampshire").loc, "unit", "still aboard")
end)

t.test("18.5g-9: land offers the ALT roll, and the port where the craft's hex has a functional friendly one", function()
  local beach = before_action("land")
  local e0 = D.action(beach, "Allied", "land")
  t.eq(#D.choice(D.param(e0, "port"), { craft = D.param(e0, "craft").domain[1].value }), 0,
    "no port at S:0705: port left out, by ALT roll")
  local p = before_action("land", function(o) return o.port end)
  local e, h0, h1 = D.action(p, "Allied", "land")
  t.eq(h1, h0)
  t.eq(e.available, true)
  local craft = D.param(e, "craft").domain
  t.eq(D.labels(craft), { "LCT 2" })
  local port = D.param(e, "port").choices[1]
  t.eq(D.labels(port.domain), { "through the port (18.5g)" }, "the LST port at S:0806 is functional now")
  t.eq(port.omit, nil, "18.5d: no ALT landing in the Exploitation Phase")
  play(p, "land", { craft = craft[1].value, port = true })
  t.eq(unit(p, "SP Dump C").at, "S:0806")
  t.eq(unit(p, "SP Dump C").values.landed_by, "port")
end)

t.test("18.5h-9: after_landing_move offers the units landed by ALT roll and the land paths their half MA reaches", function()
  local early = before_action("alt_rolls")
  local e0, h0, h1 = D.action(early, "Allied", "after_landing_move")
  t.eq(h1, h0)
  t.eq(e0.available, false)
  t.ok(e0.reason:find("18.5f D: after-landing moves wait until all the player's ALT rolls are made", 1, true), e0.reason)
  local p = before_action("after_landing_move")
  local e = D.action(p, "Allied", "after_landing_move")
  t.eq(e.available, true)
  t.eq(e.checked, true)
  local units = D.param(e, "unit").domain
  t.eq(D.labels(units), { "2/4 Hampshire", "2/5 Hampshire", "1/4 Hampshire", "No 2 Commando" })
  local hants = D.find(units, "2/4 Hampshire").value
  local paths = D.choice(D.param(e, "path"), { unit = hants })
  t.eq(D.find(paths, "S:0904").value, { "S:0804", "S:0904" })
  t.eq(D.find(paths, "S:0904").cost, 2, "half of MA 4")
  t.eq(D.find(paths, "S:0805"), nil, "the panzergrenadiers' hex (land_entry_refusal)")
  t.eq(D.find(paths, "S:1004"), nil, "beyond half its MA")
  play(p, "after_landing_move", { unit = hants, path = D.find(paths, "S:0904").value })
  t.eq(unit(p, "2/4 Hampshire").at, "S:0904")
  t.eq(D.find(D.param(D.action(p, "Allied", "after_landing_move"), "unit").domain, "2/4 Hampshire"), nil,
    "its half MA is spent")
end)

-- ---- 18.6 beach assaults ------------------------------------------------------------------

t.test("18.6a-9: announce_beach_assault offers the coastal hex of enemy combat units next to the laden craft, and the units in Combat Mode aboard", function()
  t.eq(listed(before_action("alt_rolls"), "Allied", "announce_beach_assault"), nil, "the Movement Phase: not listed")
  local p = before_action("announce_beach_assault")
  local e, h0, h1 = D.action(p, "Allied", "announce_beach_assault")
  t.eq(h1, h0)
  t.eq(e.available, true)
  t.eq(e.checked, true)
  local hexes = D.param(e, "hex").domain
  t.eq(D.labels(hexes), { "S:0709" }, "Paestum, KG Stempel's hex, next to LCI 124")
  t.eq(D.labels(D.choice(D.param(e, "units"), { hex = hexes[1].value })), { "2/6 Queens" }, "SP Dump A is no attacker")
  t.eq(listed(p, "Axis", "announce_beach_assault"), nil, "the Allied phase")
  play(p, "announce_beach_assault", { hex = hexes[1].value, units = { D.choice(D.param(e, "units"), { hex = hexes[1].value })[1].value } })
  -- 18.6b: the defender decides now, in the window the announcement opened
  local st = p.send { op = "status" }
  t.eq(st.active, { "Axis" })
  t.eq(st.window.rule, "18.6a")
  t.eq(listed(p, "Allied", "resolve_beach_assault"), nil, "the attacker waits for the defender's choice")
  t.ok(listed(p, "Axis", "beach_assault_choice"), "the defender's choice is offered")
  t.eq(p.send({ op = "order", action = "end_phase", side = "Axis" }).ok, true, "the defender passes: fought as a Beach Assault")
  t.eq(p.send({ op = "status" }).active, { "Allied" })
  local again = D.action(p, "Allied", "announce_beach_assault")
  t.eq(again.available, false)
  t.ok(again.reason:find("18.6a: an assault on S:0709 is already announced", 1, true), again.reason)
  t.eq(D.labels(D.param(D.action(p, "Allied", "resolve_beach_assault"), "hex").domain), { "S:0709" })
end)

local function before_choice() return before_order(function(o) return o[1] == "beach_assault_choice" end) end

t.test("18.6b-9: beach_assault_choice offers the defender the ALT, or the Beach Assault on the beach or the hex; made once", function()
  local p = before_choice()
  local e, h0, h1 = D.action(p, "Axis", "beach_assault_choice")
  t.eq(h1, h0)
  t.eq(e.available, true)
  t.eq(e.checked, true)
  t.eq(D.labels(D.param(e, "hex").domain), { "S:0709" })
  t.eq(D.labels(D.param(e, "alt").domain), { "on the ALT (18.6b)", "as a Beach Assault" })
  t.eq(D.labels(D.choice(D.param(e, "terrain"), { alt = false })), { "the beach's nominal hexside (x1/2)", "the hex's terrain" })
  local on_alt
  for _, c in ipairs(D.param(e, "terrain").choices) do if c.given.alt == true then on_alt = c end end
  t.eq(#on_alt.domain, 0, "no terrain on the ALT: only left out")
  t.eq(on_alt.omit, true)
  t.eq(listed(p, "Allied", "beach_assault_choice"), nil, "the attacker does not choose")
  play(p, "beach_assault_choice", { hex = D.param(e, "hex").domain[1].value, alt = false, terrain = "hex" })
  t.eq(p.send({ op = "status" }).active, { "Allied" }, "made once: the choice closes the window")
  t.eq(listed(p, "Axis", "beach_assault_choice"), nil)
end)

t.test("18.6a-10: resolve_beach_assault offers the announced assault; fought, the craft carrying SP next to it (B); on the ALT, no supply", function()
  local p = before_choice()
  local paestum = D.param(D.action(p, "Axis", "beach_assault_choice"), "hex").domain[1].value
  play(p, "beach_assault_choice", { hex = paestum, alt = false, terrain = "beach" })
  local e, h0, h1 = D.action(p, "Allied", "resolve_beach_assault")
  t.eq(h1, h0)
  t.eq(e.available, true)
  t.eq(D.labels(D.param(e, "hex").domain), { "S:0709" })
  local supply = D.choice(D.param(e, "supply"), { hex = paestum })
  t.eq(D.labels(supply), { "LCI 124" }, "it carries SP Dump A beside the attackers")
  play(p, "resolve_beach_assault", { hex = paestum, supply = supply[1].value })
  t.eq(unit(p, "SP Dump A").loc, "dead", "its 1 SP paid the combat supply")
  t.eq(D.action(p, "Allied", "resolve_beach_assault").available, false, "resolved")
  -- the showcase's: the defender chose the ALT, so no supply is offered
  local alt = before_action("resolve_beach_assault", function(o) return not o.expect.refused end)
  local ea = D.action(alt, "Allied", "resolve_beach_assault")
  t.eq(ea.available, true)
  t.eq(#D.choice(D.param(ea, "supply"), { hex = paestum }), 0, "18.6b: spend no supply")
  play(alt, "resolve_beach_assault", { hex = paestum })
  t.eq(unit(alt, "KG Stempel").loc, "dead")
end)


-- tests/lua/seabox_domains_test.lua — what Rule 27 offers a user interface:
-- the parameter domains of the seabox family's actions (embark, disembark,
-- gunfire_support, sail's TF ...) at points of the showcase
-- scenarios/seabox_crete_1941.lua played through the protocol's session
-- function (keel.serve); listing never changes the state.
local t = require "keel.testing"
local D = dofile("tests/lua/domains_fixture.lua")

local SHOWCASE = "scenarios/seabox_crete_1941.lua"

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

t.test("27.C.2-sail: sail offers the phasing side's TFs; the destination is the player's (unchecked)", function()
  local p = before("sail")
  local e, h0, h1 = D.action(p, "Allied", "sail")
  t.eq(h1, h0)
  t.eq(e.checked, false)
  t.eq(e.free, { "to" })
  t.eq(D.labels(D.param(e, "tf").domain), { "Convoy AN-31", "Force C" })
  t.eq(D.action(p, "Axis", "sail").available, false, "no Axis TF")
end)

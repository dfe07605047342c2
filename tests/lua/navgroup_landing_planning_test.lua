-- tests/lua/navgroup_landing_planning_test.lua — 37.C PLANNING, DELAYING,
-- AND CANCELLING (scripts/navgroup/landing_planning.lua): plans, the
-- planning table (a scenario's; the shipped stand-in says so), items 1-3
-- and the 20 RE / 26 RE example. Refused orders leave the hash unchanged.
local t = require "keel.testing"
local keel = require "keel"
local F = dofile("tests/lua/navgroup_landing_fixture.lua")

local refused = F.refused

-- n infantry units of `re` REs each, standing in an Allied port hex (not aboard)
local function troops(w, n, re, values)
  local out = {}
  for i = 1, n do
    local v = { re = re, reserve = true }
    for k, x in pairs(values or {}) do v[k] = x end
    out[i] = F.unit_at(w, "Inf " .. i, "A:0609", "Allied", v)
  end
  return out
end

t.test("37.C-1: a landing is planned in advance (the planning table), may be delayed or cancelled; unplanned or early landings are refused", function()
  local w = F.world()
  t.ok(w.set:table("amphibious_planning").title:find("stand%-in"), "the table here is a stand-in and says so")
  local g, craft = F.fleet(w, "Force", { "LC" }, "A:0502")
  local u = F.troop(w, "Inf", craft[1])
  refused(w, "37.C: Inf's landing was not planned", function() return F.land(w, g, { u }) end)
  local ok, id = w.act("plan_landing", { hex = w.hex("A:0502"), units = { u } })
  t.ok(ok, id)
  t.eq(w.q("plan_field", id, "ready_turn"), 2, "1 RE assaulting: the stand-in table's first row, 1 turn")
  refused(w, "37.C: the landing at A:0502 is planned for turn 2 (now turn 1)", function() return F.land(w, g, { u }) end)
  refused(w, "37.C: Inf is already in the plan for A:0502", function()
    return w.act("plan_landing", { hex = w.hex("A:0501"), units = { u } }) end)
  local other = F.troop(w, "Other", craft[1])
  refused(w, "37.C: the planning time puts the landing on turn 2 at the earliest, not 1", function()
    return w.act("plan_landing", { hex = w.hex("A:0501"), units = { other }, turn = 1 }) end)
  -- delayed a turn
  t.ok(w.act("delay_landing", { plan = id }))
  t.eq(w.q("plan_field", id, "turn"), 3)
  t.eq(w.q("plan_field", id, "status"), "delayed")
  w.game:set_global("turn", 2)
  refused(w, "planned for turn 3", function() return F.land(w, g, { u }) end)
  w.game:set_global("turn", 3)
  -- not at another hex than planned
  local g2, craft2 = F.fleet(w, "Elsewhere", { "LC" }, "A:0501")
  w.game:embark(u, craft2[1])
  refused(w, "37.C: the plan is for A:0502, not A:0501", function() return F.land(w, g2, { u }) end)
  w.game:embark(u, craft[1])
  w.game.dice:force(6, 6)
  t.ok(F.land(w, g, { u }))
  t.eq(w.q("plan_field", id, "status"), "executed")
  -- cancelled: its units are free, its REs no longer count
  local v = troops(w, 1, 2)
  local _, id2 = w.act("plan_landing", { hex = w.hex("A:0503"), units = v })
  t.eq(w.q("planned_re", "Allied"), 2)
  t.ok(w.act("cancel_landing", { plan = id2 }))
  t.eq(w.q("planned_re", "Allied"), 0)
  t.eq(w.game:get_value(v[1], "plan"), nil)
  refused(w, "37.C: plan 2 is not active", function() return w.act("cancel_landing", { plan = id2 }) end)
end)

t.test("37.C (1)-1: unlimited planning for intrinsically amphibious units (the amphibious or marine symbol)", function()
  local w = F.world()
  F.fleet(w, "Transports", { "NT" }, "A:0402")   -- no LC or LB: no planning capacity
  t.eq(w.q("planning_capacity", "Allied", 2), 0)
  local marines = troops(w, 6, 5, { marine = true })
  local amph = troops(w, 2, 3, { amphibious = true })
  local all = {}
  for _, u in ipairs(marines) do all[#all + 1] = u end
  for _, u in ipairs(amph) do all[#all + 1] = u end
  t.ok(w.act("plan_landing", { hex = w.hex("A:0502"), units = all }))
  t.eq(w.q("planned_re", "Allied"), 0)
  local army = troops(w, 1, 1)
  refused(w, "37.C (2)", function() return w.act("plan_landing", { hex = w.hex("A:0503"), units = army }) end)
end)

t.test("37.C (2)-1: the 20 RE example: LC capacity in play (not sunk, not damaged) of 20 REs; a 26 RE invasion needs an increase of 6", function()
  local w = F.world()
  local _, lcs = F.fleet(w, "Landing craft", { "LC", "LC", "LC", "LC" }, "A:0402", nil, { capacity = 5 })
  t.eq(w.q("planning_capacity", "Allied", 2), 20)
  local twenty = troops(w, 20, 1)
  t.ok(w.act("plan_landing", { hex = w.hex("A:0502"), units = twenty }))
  t.eq(w.q("planned_re", "Allied"), 20)
  local more = troops(w, 1, 1)
  refused(w, "37.C (2): plans for 21 REs of units not intrinsically amphibious exceed the LC/LB capacity of 20 REs",
    function() return w.act("plan_landing", { hex = w.hex("A:0503"), units = more }) end)
  -- (in addition to any plans for intrinsically amphibious units)
  t.ok(w.act("plan_landing", { hex = w.hex("A:0503"), units = troops(w, 2, 1, { marine = true }) }))
  -- damaged or sunk craft are not in play
  w.game:flip(lcs[1], "damaged")
  t.eq(w.q("planning_capacity", "Allied", 2), 15)
  w.game:eliminate(lcs[2])
  t.eq(w.q("planning_capacity", "Allied", 2), 10)
  -- the 26 RE invasion: 20 REs of capacity, and an increase of 6 for the invasion turn
  local w2 = F.world()
  F.fleet(w2, "Landing craft", { "LC", "LC", "LC", "LC" }, "A:0402", nil, { capacity = 5 })
  local invasion = troops(w2, 26, 1)
  refused(w2, "37.C (2): plans for 26 REs of units not intrinsically amphibious exceed the LC/LB capacity of 20 REs",
    function() return w2.act("plan_landing", { hex = w2.hex("A:0502"), units = invasion, turn = 5 }) end)
  t.ok(w2.act("increase_capacity", { side = "Allied", re = 6, turn = 5 }))
  t.eq(w2.q("planning_capacity", "Allied", 5), 26)
  t.eq(w2.q("planning_capacity", "Allied", 4), 20, "the increase is for its invasion turn")
  local ok, id = w2.act("plan_landing", { hex = w2.hex("A:0502"), units = invasion, turn = 5 })
  t.ok(ok, id)
  t.eq(w2.q("plan_field", id, "re"), 26)
end)

t.test("37.C (2)-2: the limit counts RE size for amphibious transport (Table 1): a c/m RE takes four", function()
  local w = F.world()
  F.fleet(w, "Landing craft", { "LC" }, "A:0402", nil, { capacity = 5 })
  local pz = troops(w, 1, 1, { cm = true, he = true })
  local inf = troops(w, 1, 2)
  t.ok(w.act("plan_landing", { hex = w.hex("A:0502"), units = pz }))
  t.eq(w.q("planned_re", "Allied"), 4)
  refused(w, "37.C (2): plans for 6 REs", function() return w.act("plan_landing", { hex = w.hex("A:0503"), units = inf }) end)
end)

t.test("37.C (3)-1: only the units performing the assault have their REs counted for the planning time", function()
  local w = F.world()
  F.fleet(w, "Landing craft", { "LC", "LC" }, "A:0402", nil, { capacity = 10 })
  local assault = troops(w, 2, 2)          -- 4 REs assault: the stand-in's second row, 2 turns
  local follow = troops(w, 1, 10, { reserve = false })
  local all = { assault[1], assault[2], follow[1] }
  local ok, id = w.act("plan_landing", { hex = w.hex("A:0502"), units = all, assault = assault })
  t.ok(ok, id)
  t.eq(w.q("plan_field", id, "assault_re"), 4)
  t.eq(w.q("plan_field", id, "ready_turn"), 3, "2 turns for 4 assaulting REs, not 3 turns for 14")
  t.eq(w.q("plan_field", id, "re"), 14, "all of them count against the LC/LB capacity")
  t.eq(w.game:get_value(follow[1], "plan_assault"), nil)
end)

t.test("37.C (2)-3 / 37 (g)-2: a plan names the c/m units that land without attacking; they count double their RE size, not four times", function()
  local w = F.world()
  F.fleet(w, "Landing craft", { "LC" }, "A:0402", nil, { capacity = 5 })
  local pz = troops(w, 1, 1, { cm = true, he = true })
  local inf = troops(w, 2, 1)
  -- x4 for the tank and 2 infantry REs: 6 REs, past the 5 in play
  refused(w, "37.C (2): plans for 6 REs", function()
    return w.act("plan_landing", { hex = w.hex("A:0502"), units = { pz[1], inf[1], inf[2] } }) end)
  -- only c/m units, only units of the plan, each once
  refused(w, "37 (g): Inf 1 is not a c/m unit: only c/m units may land without attacking", function()
    return w.act("plan_landing", { hex = w.hex("A:0502"), units = { pz[1], inf[1] }, no_attack = { inf[1] } }) end)
  refused(w, "37 (g): Inf 1 lands without attacking but is not in the plan", function()
    return w.act("plan_landing", { hex = w.hex("A:0502"), units = { pz[1] }, no_attack = { pz[1], inf[1] } }) end)
  refused(w, "37 (g): Inf 1 is named twice", function()
    return w.act("plan_landing", { hex = w.hex("A:0502"), units = { pz[1] }, no_attack = { pz[1], pz[1] } }) end)
  -- planned not to attack: x2, and the three fit
  local ok, id = w.act("plan_landing", { hex = w.hex("A:0502"), units = { pz[1], inf[1], inf[2] }, no_attack = { pz[1] } })
  t.ok(ok, id)
  t.eq(w.q("plan_field", id, "re"), 4)
  t.eq(w.q("planned_re", "Allied"), 4)
  t.eq(w.game:get_value(pz[1], "plan_no_attack"), true)
  t.eq(w.game:get_value(inf[1], "plan_no_attack"), nil)
  t.ok(F.said(w, "1 c/m unit lands without attacking (37 (g))"), "the narration says so")
  -- cancelled: the promise goes with the plan
  t.ok(w.act("cancel_landing", { plan = id }))
  t.eq(w.game:get_value(pz[1], "plan_no_attack"), nil)
end)

t.test("37.C-hex-param: a hex parameter that is no hex of the map is refused by the parameter check, before any rule", function()
  local w = F.world()
  F.fleet(w, "Landing craft", { "LC" }, "A:0402", nil, { capacity = 5 })
  local inf = troops(w, 1, 1)
  local off = keel.hex.from_qr(400, 400)
  for _, hex in ipairs { off, -1, 1 << 62 } do
    refused(w, "action 'plan_landing': parameter 'hex' must be a hex", function()
      return w.act("plan_landing", { hex = hex, units = inf }) end)
  end
  refused(w, "parameter 'hex' must be a hex on the map", function()
    return w.act("plan_landing", { hex = off, units = inf }) end)
end)

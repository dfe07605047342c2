-- Rule 27.C Naval Activities (scripts/seabox/activities.lua): the phases of a
-- player turn, naval reinforcements, the movement phase's naval steps and
-- speeds, embarking, disembarking, replenishing and ground MPs (with the
-- worked example), reaction movement, gunfire support, the exploitation
-- phase. Every worked example of 27.C is a test here.
local t = require "keel.testing"
local fx = dofile("tests/lua/seabox_fixture.lua")

local function ship(name, type_, at, group, values, extra)
  extra = extra or {}
  return { name = name, type = type_, side = extra.side or "Allied", at = at, group = group, values = values,
           port = extra.port }
end

local EASTMED = "../../scenarios/maps/eastmed.map"

-- ---- 27.C ---------------------------------------------------------------------------------

t.test("27.C: naval activities follow the player turn: the family's sequence of play, phases and naval steps in order", function()
  local w = fx.world {}
  local seq = w.set.sequence
  local names = {}
  for _, ph in ipairs(seq.phases) do
    local steps = {}
    for i, st in ipairs(ph.steps or {}) do steps[i] = st.name end
    names[#names + 1] = ph.name .. (#steps > 0 and (" " .. table.concat(steps, ",")) or "")
  end
  t.eq(names, { "initial",
    "movement movement_step_1,movement_step_2,movement_step_3,movement_step_4,movement_step_5,movement_step_6",
    "combat", "exploitation exploitation_step_1,exploitation_step_2,exploitation_step_3,exploitation_step_4" })
  t.ok(w.set.families.seabox.sequence.cite:find("27.C", 1, true), "the family cites its chapter")
  -- nothing to decide in the initial phase: the game begins in naval step 1
  local st = w.status()
  t.eq({ st.turn, st.phasing, st.phase, st.step, st.active }, { 1, "Allied", "movement", "movement_step_1", { "Allied" } })
  t.ok(fx.said(w.news(), "27.C: naval step 1 of 6 (movement phase)"))
  for i = 2, 6 do t.eq(w.step().step, "movement_step_" .. i) end
  t.eq(w.step().phase, "combat", "the sixth naval step ends the movement phase")
  t.eq(w.game:get_global("combat_serial"), 1)
  w.pass()
  st = w.status()
  t.eq({ st.phase, st.step }, { "exploitation", "exploitation_step_1" })
  t.ok(fx.said(w.news(), "27.C: naval step 1 of 4 (exploitation phase)"))
  for _ = 2, 4 do w.step() end
  st = w.step()
  t.eq({ st.turn, st.phasing, st.phase, st.step }, { 1, "Axis", "movement", "movement_step_1" }, "the Axis player turn")
  t.eq(w.q("phase_key"), "1/Axis/movement")
  t.eq(w.q("other_side"), "Allied")
  w.refused({ "end_phase", by = "Allied" }, "Axis is to act, not Allied")
end)

-- ---- 27.C.1 ---------------------------------------------------------------------------

t.test("27.C.1: in the initial phase the phasing player's naval reinforcements arrive (Rule 35 stand-in)", function()
  local w = fx.world { forces = {
    { name = "Dido", type = "CL", side = "Allied", values = { strength = 2, arrive_turn = 2, arrive_at = "Heraklion", arrive_tf = "Force D" } },
    { name = "Trento", type = "CA", side = "Axis", values = { strength = 3, arrive_turn = 2, arrive_at = "15B:2405" } },
    { name = "Orion", type = "CL", side = "Allied", values = { strength = 2, arrive_turn = 3, arrive_at = "Heraklion" } },
  } }
  t.eq({ w.at("Dido"), w.at("Trento"), w.at("Orion") }, { "off", "off", "off" }, "turn 1")
  w.movement("Allied", 2)
  t.eq({ w.at("Dido"), w.at("Trento"), w.at("Orion") }, { "port 15B:2508", "off", "off" })
  t.eq(w.q("tf_of", w.id("Dido")), w.group("Force D"))
  t.ok(fx.said(w.news(), "Dido arrives in port at 15B:2508 (TF Force D)"))
  w.movement("Axis", 2)
  t.eq(w.at("Trento"), "hex 15B:2405", "in its own side's initial phase")
end)

-- ---- 27.C.2 ---------------------------------------------------------------------------

t.test("27.C.2: speeds in sea boxes per naval step: 12 BC CV CA CL DD, 9 BB CVE, 6 LS NT, 3 LC", function()
  local want = { BC = 12, CV = 12, CA = 12, CL = 12, DD = 12, BB = 9, CVE = 9, LS = 6, NT = 6, LC = 3 }
  local forces = {}
  for ty in pairs(want) do forces[#forces + 1] = ship(ty, ty, "15B:2407", nil, { strength = 2 }) end
  table.sort(forces, function(a, b) return a.name < b.name end)
  local w = fx.world { forces = forces }
  for ty, n in pairs(want) do t.eq(w.q("speed", w.id(ty)), n, ty) end
end)

t.test("27.C.2: the movement phase has 6 naval steps; a TF moves at its slowest ship's speed; leftovers are lost", function()
  local w = fx.world { map = EASTMED, forces = {
    ship("Ajax", "CL", "19A:2711", "Convoy", { strength = 2 }), ship("NT 1", "NT", "19A:2711", "Convoy"),
    ship("LC 1", "LC", "19A:2711", "Slow"),
  } }
  w.movement()
  t.eq(w.status().step, "movement_step_1")
  t.eq(w.q("boxes_left", w.group("Convoy")), 6, "the NT's 6, not the CL's 12")
  w.refused({ "sail", tf = "Convoy", to = "Piraeus" },
    "27.C.2: Convoy moves at most 6 sea box(es) more this naval step (slowest ship NT 1: NT, 6 a step, 0 used); the route to 15B:1211 crosses 8")
  w.ok { "sail", tf = "Convoy", to = "19A:2107" }
  local used = w.value("NT 1", "step_boxes")
  t.ok(used > 0 and used < 6, "part of the allowance used: " .. tostring(used))
  w.step()
  t.eq(w.q("boxes_left", w.group("Convoy")), 6, "what was left over is lost, not carried over")
  t.eq(w.q("boxes_left", w.group("Slow")), 3)
  for _ = 2, 5 do w.step() end
  t.eq(w.status().step, "movement_step_6")
  t.eq(w.step().phase, "combat", "naval step 6 is the movement phase's last")
end)

t.test("27.C.2: a ship faster than its box allowance is refused with the reason; the state is unchanged", function()
  local w = fx.world { map = EASTMED, forces = { ship("LC 1", "LC", "19A:2711", "Slow"), ship("Warspite", "BB", "19A:2711", "Force A", { strength = 5 }) } }
  w.movement()
  w.refused({ "sail", tf = "Slow", to = "19A:0511" }, "27.C.2: Slow moves at most 3 sea box(es) more this naval step (slowest ship LC 1: LC, 3 a step, 0 used)")
  w.ok { "sail", tf = "Force A", to = "19A:3011" }
  local left = w.q("boxes_left", w.group("Force A"))
  w.refused({ "sail", tf = "Force A", to = "Piraeus" }, ("moves at most %d sea box(es) more this naval step"):format(left))
end)

t.test("27.C.2: embarking, disembarking and replenishing use an entire naval step", function()
  local w = fx.world { forces = {
    ship("NT 1", "NT", "15B:2508", "Convoy", nil, { port = true }), ship("NT 2", "NT", "15B:2508", "Other", nil, { port = true }),
    { name = "Inf bde", type = "inf", side = "Allied", at = "15B:2508", values = { ["size.RE"] = 1 } },
    { name = "Inf bde 2", type = "inf", side = "Allied", at = "15B:2508", values = { ["size.RE"] = 1 } },
  } }
  w.movement()
  w.ok { "sail", tf = "Other", to = "15B:2407" }
  w.ok { "sail", tf = "Other", to = "15B:2508", port = true }
  w.refused({ "embark", cargo = "Inf bde 2", ships = { "NT 2" } }, "27.C.2: embarking takes a whole naval step; NT 2 has already sailed in this one")
  w.refused({ "replenish", tf = "Other" }, "27.C.2: replenishing takes a whole naval step; NT 2 has already used this one")
  w.ok { "embark", cargo = "Inf bde", ships = { "NT 1" } }
  w.refused({ "sail", tf = "Convoy", to = "15B:2407" }, "27.C.2: NT 1 has used this naval step to embark cargo: that takes the whole step")
  w.refused({ "disembark", cargo = "Inf bde" }, "27.C.2: NT 1 has used this naval step to embark cargo")
  w.step()
  w.ok { "disembark", cargo = "Inf bde" }
  t.eq(w.at("Inf bde"), "hex 15B:2508")
  w.refused({ "sail", tf = "Convoy", to = "15B:2407" }, "used this naval step to disembark cargo")
  w.step()
  w.ok { "replenish", tf = "Convoy" }
  w.refused({ "sail", tf = "Convoy", to = "15B:2407" }, "used this naval step to replenish")
  w.step()
  w.ok { "sail", tf = "Convoy", to = "15B:2407" }
end)

t.test("27.C.2: cargo embarks and disembarks in port; bad orders change nothing", function()
  local w = fx.world { forces = {
    ship("NT 1", "NT", "15B:2407", "Convoy"),
    { name = "Inf bde", type = "inf", side = "Allied", at = "15B:2508", values = { ["size.RE"] = 1 } },
    { name = "Axis bde", type = "inf", side = "Axis", at = "15B:2508", values = { ["size.RE"] = 1 } },
  } }
  w.to("combat")
  w.refused({ "embark", cargo = "Inf bde", ships = { "NT 1" } }, "embark (rule 27.C.2) is taken in exploitation, movement, not in")
  t.eq(w.q("naval_step_problem"), "27.C.2: ships move and embark in the naval steps of the movement and exploitation "
    .. "phases (now: combat phase)")
  w.movement("Allied", 2)
  w.refused({ "embark", cargo = "Inf bde", ships = { "NT 1" } }, "27.C.2: cargo embarks in port: NT 1 is not in port at 15B:2508")
  w.refused({ "embark", cargo = "Axis bde", ships = { "NT 1" } }, "27.C.2: the phasing player embarks cargo")
  w.ok { "sail", tf = "Convoy", to = "15B:2508", port = true }
  w.step()
  w.ok { "embark", cargo = "Inf bde", ships = { "NT 1" } }
  w.step()
  w.ok { "sail", tf = "Convoy", to = "15B:2407" }
  w.step()
  w.refused({ "disembark", cargo = "Inf bde" }, "27.C.2: cargo disembarks in port (landings are the amphibious rules'); NT 1 is at sea")
end)

t.test("27.C.2: ground MPs: 2 to port, embark 1, 10 sea boxes 2, disembark 1; the NT spends 5 naval steps (example)", function()
  -- eastmed.map: Piraeus to Port Said is 10 sea boxes by water (Greece is
  -- friendly here, so no enemy coast defence stops the NT)
  local w = fx.world { map = EASTMED, forces = {
    ship("NT 1", "NT", "Piraeus", "Convoy", nil, { port = true }),
    { name = "Inf regt", type = "inf", side = "Allied", at = "15B:1210", values = { ["size.RE"] = 1, mp = 8 } },
  } }
  w.game:set_owner(w.hex("Piraeus"), "Allied")
  w.movement()
  -- step 1: the ground unit spends 2 MPs moving to the port (the ground
  -- rules' move, not this chapter's); the NT waits for it
  w.game:move(w.id("Inf regt"), "hex", w.hex("Piraeus"))
  w.game:set_value(w.id("Inf regt"), "mp_spent", 2)
  w.step()
  -- step 2: embarking: 1 MP, the whole step for the NT
  w.ok { "embark", cargo = "Inf regt", ships = { "NT 1" } }
  t.eq(w.value("Inf regt", "mp_spent"), 3)
  w.step()
  t.eq(w.value("Inf regt", "mp_spent"), 3, "the embarking step is not also a step on board")
  -- steps 3 and 4: 10 sea boxes at 6 a step
  local path = w.q("route", w.hex("Piraeus"), 0, w.hex("Port Said"))
  t.eq(w.q("boxes_along", path), 10)
  local hexes = {}
  for i = 2, #path do hexes[#hexes + 1] = w.board:format(path[i]) end
  local six, n = nil, 0
  for i = 2, #path do
    if w.board:box_of(path[i]) ~= w.board:box_of(path[i - 1]) then n = n + 1 end
    if n == 6 and not six then six = i end
  end
  while six < #path and w.board:box_of(path[six + 1]) == w.board:box_of(path[six]) do six = six + 1 end
  local via1 = {}
  for i = 2, six do via1[#via1 + 1] = w.board:format(path[i]) end
  w.ok { "sail", tf = "Convoy", to = via1[#via1], via = via1 }
  t.eq(w.value("NT 1", "step_boxes"), 6)
  w.refused({ "sail", tf = "Convoy", to = "Port Said", port = true }, "moves at most 0 sea box(es) more this naval step")
  w.step()
  t.eq(w.value("Inf regt", "mp_spent"), 4, "a naval step on board: 1 MP")
  w.ok { "sail", tf = "Convoy", to = "Port Said", port = true }
  t.eq(w.value("NT 1", "step_boxes"), 4)
  w.step()
  t.eq(w.value("Inf regt", "mp_spent"), 5)
  -- step 5: disembarking: 1 MP, the whole step
  w.ok { "disembark", cargo = "Inf regt" }
  t.eq(w.at("Inf regt"), "hex 19A:3413")
  t.eq(w.value("Inf regt", "mp_spent"), 6, "2 + 1 + 2 + 1")
  t.eq(w.status().step, "movement_step_5", "the NT has spent 5 naval steps")
  w.step()
  t.eq(w.value("Inf regt", "mp_spent"), 6, "ashore: nothing more")
  t.eq(w.q("mp_left", w.id("Inf regt")), 2, "both may continue with the movement they have left")
  w.ok { "sail", tf = "Convoy", to = "19A:3412" }
end)

t.test("27.C.2: c/m units spend 2 MPs to embark, disembark and for each naval step on board", function()
  local w = fx.world { forces = {
    ship("NT 1", "NT", "15B:2508", "Convoy", nil, { port = true }), ship("NT 2", "NT", "15B:2508", "Convoy", nil, { port = true }),
    { name = "Pz regt", type = "arm", side = "Allied", at = "15B:2508", values = { ["size.RE"] = 1, class = "c/m", mp = 6 } },
  } }
  w.movement()
  w.ok { "embark", cargo = "Pz regt", ships = { "NT 1", "NT 2" } }
  t.eq(w.value("Pz regt", "mp_spent"), 2)
  w.step()
  w.ok { "sail", tf = "Convoy", to = "15B:2407" }
  w.step()
  t.eq(w.value("Pz regt", "mp_spent"), 4)
  w.ok { "sail", tf = "Convoy", to = "15B:2508", port = true }
  w.step()
  t.eq(w.value("Pz regt", "mp_spent"), 6)
  w.refused({ "sail", tf = "Convoy", to = "15B:2407" }, "27.C.2: Pz regt aboard NT 1 has 0 MP left; a naval step on board costs it 2")
  w.refused({ "disembark", cargo = "Pz regt" }, "27.C.2: disembarking costs Pz regt 2 MP; it has 0 left")
end)

t.test("28B-window: the non-phasing player moves ships only in reaction movement, in its window (Rule 28B stand-in)", function()
  local w = fx.world { forces = { ship("Trento", "CA", "15B:2406", "Regia", { strength = 3 }, { side = "Axis" }),
    ship("Ajax", "CL", "15B:2403", "Force B", { strength = 2 }) } }
  w.movement("Allied")
  w.refused({ "sail", by = "Axis", tf = "Regia", to = "15B:2405" }, "Allied is to act, not Axis")
  w.refused({ "sail", tf = "Regia", to = "15B:2405" }, "27.C.2: Regia is not a TF of Allied")
  w.ok { "sail", tf = "Force B", to = "15B:2303" }
  local st = w.status()
  t.eq({ st.active, st.window.title, st.window.actions }, { { "Axis" }, "reaction movement", { "sail" } })
  w.refused({ "sail", by = "Allied", tf = "Force B", to = "15B:2403" }, "Axis is to act, not Allied")
  w.refused({ "split_tf", tf = "Regia", ships = { "Trento" }, name = "X" }, "split_tf (rule 27.B.3) is not open in Axis's reaction movement window")
  w.ok { "sail", tf = "Regia", to = "15B:2405" }
  t.ok(fx.said(w.news(), "Regia moved in reaction"))
  w.pass()   -- the window closes; the Allied naval step goes on
  t.eq(w.status().active, { "Allied" })
  w.step()
  w.ok { "sail", tf = "Force B", to = "15B:2403" }
  t.eq(w.status().window, nil, "Regia has reacted in this phase: no window")
  t.eq(w.q("may_react", w.group("Regia")), "Regia has already reacted in this phase (stand-in: once a phase)")
  local dir = t.tmpdir()
  local f = assert(io.open(dir .. "/noreact.lua", "w"))
  f:write('variant { name = "no reaction", base = "seabox" }\nreplace("28B", { queries = { may_react = function() return "no reaction in this scenario" end } })\n')
  f:close()
  local w2 = fx.world { variants = { dir .. "/noreact.lua" },
    forces = { ship("Trento", "CA", "15B:2406", "Regia", { strength = 3 }, { side = "Axis" }),
               ship("Ajax", "CL", "15B:2403", "Force B", { strength = 2 }) } }
  w2.movement("Allied")
  w2.ok { "sail", tf = "Force B", to = "15B:2303" }
  t.eq(w2.status().window, nil, "no TF may react: no window")
  w2.movement("Axis", 1)
  w2.ok { "sail", tf = "Regia", to = "15B:2405" }
  t.eq(w2.q("may_react", w2.group("Force B")), "no reaction in this scenario")
end)

t.test("27.C.2: naval combat is resolved as it occurs: the TF stops where it enters an enemy zone, then goes on", function()
  local w = fx.world { forces = { ship("Ajax", "CL", "15B:2405", "Force B", { strength = 2 }),
    ship("Trento", "CA", "15B:2407", "Regia", { strength = 3 }, { side = "Axis" }) } }
  w.movement()
  w.ok { "sail", tf = "Force B", to = "15B:2207", via = { "15B:2406", "15B:2407", "15B:2307" } }
  t.eq(w.at("Ajax"), "hex 15B:2407", "stopped in Trento's hex (a CA's zone is its hex)")
  t.ok(fx.said(w.news(), "Force B enters an enemy naval combat zone at 15B:2407 (Trento): naval combat, resolved now"))
  w.pass()   -- Regia does not react
  w.ok { "naval_hits", ship = "Trento", hits = 3 }
  w.ok { "sail", tf = "Force B", to = "15B:2207", via = { "15B:2307" } }
  t.eq(w.at("Ajax"), "hex 15B:2207")
end)

-- ---- 27.C.3 ---------------------------------------------------------------------------

t.test("27.C.3: both players allocate naval gunfire support in the combat phase", function()
  local w = fx.world { forces = {
    ship("Ajax", "CL", "15B:2407", "Force B", { strength = 2 }), ship("Warspite", "BB", "15B:2407", "Force B", { strength = 5 }),
    ship("NT 1", "NT", "15B:2407", "Convoy"),
    ship("Trento", "CA", "15B:2509", "Regia", { strength = 3 }, { side = "Axis" }),
  } }
  w.movement()
  w.refused({ "gunfire_support", tf = "Force B", hex = "15B:2508" }, "gunfire_support (rule 27.C.3) is taken in combat, not in")
  w.to("combat")
  -- the non-phasing player first, in the window 27.C.3 opens for it
  local st = w.status()
  t.eq({ st.active, st.window.title, st.window.actions }, { { "Axis" }, "naval gunfire support", { "gunfire_support" } })
  w.refused({ "gunfire_support", tf = "Force B", hex = "15B:2508" }, "27.C.3: Force B is not a TF of Axis")
  w.ok { "gunfire_support", tf = "Regia", hex = "15B:2508" }
  w.pass()
  w.refused({ "gunfire_support", tf = "Convoy", hex = "15B:2508" }, "27.A.1: only SF have a naval gunfire support strength; Convoy has none")
  w.refused({ "gunfire_support", tf = "Force B", hex = "15B:2609" }, "27.C.3: Force B at 15B:2407 supports ground combat in its own hex or an adjacent one, not at 15B:2609")
  w.ok { "gunfire_support", tf = "Force B", hex = "15B:2508" }
  t.eq(w.q("gunfire_at", w.hex("15B:2508"), "Allied"), 7)
  t.eq(w.q("gunfire_at", w.hex("15B:2508"), "Axis"), 3)
  w.refused({ "gunfire_support", tf = "Force B", hex = "15B:2408" }, "27.C.3: Force B already supports ground combat at 15B:2508 this combat phase")
  w.ok { "naval_hits", ship = "Warspite", hits = 2 }
  w.to("combat")   -- the Axis combat phase: the Allies allocate in their window
  t.eq(w.status().window.side, "Allied")
  w.ok { "gunfire_support", tf = "Force B", hex = "15B:2508" }
  t.eq(w.q("gunfire_at", w.hex("15B:2508"), "Allied"), 5, "current strength: 2 + 5 - 2")
end)

-- ---- 27.C.4 ---------------------------------------------------------------------------

t.test("27.C.4: the exploitation phase has 4 naval steps of the same movement", function()
  local w = fx.world { forces = { ship("Ajax", "CL", "15B:2405", "Force B", { strength = 2 }) } }
  w.movement()
  w.to("combat")
  w.refused({ "sail", tf = "Force B", to = "15B:2406" }, "sail (rule 27.C.2) is taken in exploitation, movement, not in")
  w.to("exploitation")
  t.eq(w.status().step, "exploitation_step_1")
  w.ok { "sail", tf = "Force B", to = "15B:2406" }
  for i = 2, 4 do t.eq(w.step().step, "exploitation_step_" .. i) end
  t.eq(w.step().phasing, "Axis", "naval step 4 is the exploitation phase's last, and the player turn's")
end)

-- tests/lua/navgroup_reaction_test.lua — 32.C NAVAL REACTION MOVEMENT
-- (scripts/navgroup/reaction.lua): activation, who may react, movement-only
-- MPs, the reaction allowance, splitting, the "-1 Step" marker and its
-- reduction, and night MPs (the rule's worked example). The rules are driven
-- by the `react` action and the contract's events.
local t = require "keel.testing"
local keel = require "keel"
local F = dofile("tests/lua/navgroup_fixture.lua")
local H = F.H

local setup = F.setup

-- Spend `mp` movement MPs (one hex entry) for a group; returns the payload.
-- (as the move action does: the group's mp_spent goes up only if the rules
-- accept; its night_mp goes up when it is night, 32.C then corrects a
-- reacting group's by its plan)
local function move_mp(set, g, grp, mp, activity)
  local spent = (g:group_get_value(grp, "mp_spent") or 0) + mp
  if g:get_global("night") then g:group_set_value(grp, "night_mp", (g:group_get_value(grp, "night_mp") or 0) + mp) end
  local ev = F.emit(set, g, "mp_spent", { group = grp, hex = H(9, 9), mp = mp, spent = spent,
                                          activity = activity or "enter", left_hex = true, night = g:get_global("night") == true })
  g:group_set_value(grp, "mp_spent", spent)
  return ev
end

local function act(set, g, name, params)
  local ok, reason = set:act(g, name, params)
  if ok then return true end
  return nil, reason
end

local function markers(g, units)
  local m = {}
  for i, u in ipairs(units) do m[i] = g:get_marker(u, "step") or 0 end
  return m
end

-- ---- who may react ---------------------------------------------------------------------

t.test("32.C-1: a reserve group reacts only once activated (the reserves_activated event of 32.B's results)", function()
  local set, g = setup()
  local r = F.group(g, "R", "Axis", { "TF" }, H(0, 0), { reserve = true, in_port = true, zone = "Aegean" })
  t.fails("reserve group R has not been activated (32.B)", act(set, g, "react", { group = r }))
  F.emit(set, g, "reserves_activated", { side = "Axis", zone = "Aegean" })
  t.eq(g:group_get_value(r, "activated"), true)
  t.ok(act(set, g, "react", { group = r }))
  t.eq(set:query(g, "is_reacting", r), true)
end)

t.test("32.C-2: activation is by side and sea zone (or any zone), of reserves in port, for the turn of activation", function()
  local b = assert(keel.board.load("scenarios/maps/suez.map"))
  local set, g = setup { board = b }
  local ps = b:hex("Alexandria")   -- a port next to the Mediterranean Sea zone
  local med = F.group(g, "Med", "Axis", { "TF" }, ps, { reserve = true, in_port = true })
  local red = F.group(g, "Red", "Axis", { "TF" }, b:hex("19A:3718"), { reserve = true, in_port = true })
  local sea = F.group(g, "Sea", "Axis", { "TF" }, ps, { reserve = true })
  local allied = F.group(g, "Al", "Allied", { "TF" }, ps, { reserve = true, in_port = true })
  local active = F.group(g, "Act", "Axis", { "TF" }, ps, { in_port = true })
  F.emit(set, g, "reserves_activated", { side = "Axis", zone = "Mediterranean Sea" })
  t.eq({ g:group_get_value(med, "activated"), g:group_get_value(red, "activated"), g:group_get_value(sea, "activated"),
         g:group_get_value(allied, "activated"), g:group_get_value(active, "activated") }, { true, nil, nil, nil, nil })
  F.emit(set, g, "reserves_activated", { side = "Axis", zone = "any" })
  t.eq(g:group_get_value(red, "activated"), true, "a great success: any sea zone")
  F.emit(set, g, "player_turn_end", { side = "Allied" })
  t.eq({ g:group_get_value(med, "activated"), g:group_get_value(red, "activated") }, { nil, nil }, "over with the turn")
end)

t.test("32.C-3: any group with a -# Step marker may always react, reserve or not; others may not; nor the phasing side", function()
  local set, g = setup()
  local plain = F.group(g, "P", "Axis", { "TF" }, H(0, 0))
  t.fails("P is not a reserve group and has no -# Step marker", act(set, g, "react", { group = plain }))
  local marked, mu = F.group(g, "M", "Axis", { "TF", "NT" }, H(0, 0))
  g:set_marker(mu[2], "step", 1)
  t.ok(act(set, g, "react", { group = marked }))
  local mine = F.group(g, "Mine", "Allied", { "TF" }, H(0, 0), { reserve = true, activated = true })
  t.fails("belongs to the phasing side", act(set, g, "react", { group = mine }))
  t.fails("already reacting", act(set, g, "react", { group = marked }))
  g:set_segment("naval movement")
  local r = F.group(g, "R", "Axis", { "TF" }, H(0, 0), { reserve = true, activated = true })
  t.fails("only in the naval reaction movement segment", act(set, g, "react", { group = r }))
  g:set_segment("naval reaction movement")
  t.ok(act(set, g, "react", { group = r }))
end)

-- ---- what a reaction may spend ------------------------------------------------------------

t.test("32.C-4: MPs in a reaction segment are spent only for movement, for no other purpose", function()
  local set, g = setup()
  local r = F.group(g, "R", "Axis", { "NT" }, H(0, 0), { reserve = true, activated = true })
  assert(act(set, g, "react", { group = r }))
  t.fails("a reacting group spends MPs only for movement, not for replenish",
    act(set, g, "spend", { group = r, activity = "replenish" }))
  move_mp(set, g, r, 1)
  local before = g:hash()
  t.raises(function()
    F.emit(set, g, "mp_spent", { group = r, hex = H(0, 0), mp = 15, spent = 16, activity = "embark", left_hex = false })
  end, "a reacting group spends MPs only for movement, not for embark")
  t.eq(g:hash(), before, "refused: nothing changed")
  F.emit(set, g, "mp_spent", { group = r, hex = H(0, 0), mp = 1, spent = 2, activity = "combat round", left_hex = false })
end)

t.test("32.C-5: a reacting group ends its reaction at 15 MPs, or half its printed allowance", function()
  local set, g = setup()
  local r = F.group(g, "R", "Axis", { "TF" }, H(0, 0), { reserve = true, activated = true })
  local p30 = F.group(g, "P30", "Axis", { "TF" }, H(0, 0), { reserve = true, activated = true }, { { mp = 30 } })
  local mix = F.group(g, "Mix", "Axis", { "TF", "NT" }, H(0, 0), { reserve = true, activated = true },
    { { mp = 30 }, { mp = 20 } })
  t.eq(set:query(g, "reaction_allowance", r), 15)
  t.eq(set:query(g, "reaction_allowance", p30), 15)
  t.eq(set:query(g, "reaction_allowance", mix), 10, "half the smallest printed allowance")
  assert(act(set, g, "react", { group = mix }))
  t.eq(set:query(g, "allowance", mix), 10, "the movement area's allowance answers the reaction's")
  t.eq(set:query(g, "mp_left", mix), 10)
  assert(act(set, g, "react", { group = r }))
  t.eq(move_mp(set, g, r, 7).stop, nil)
  t.eq(move_mp(set, g, r, 7).stop, nil)
  t.eq(move_mp(set, g, r, 1).stop, "32.C: R has spent its 15 reaction MPs")
  t.raises(function() move_mp(set, g, r, 1) end, "its reaction ends at 15")
  move_mp(set, g, mix, 8)
  t.raises(function() move_mp(set, g, mix, 3) end, "Mix has spent 11 MPs reacting; its reaction ends at 10")
  t.eq(move_mp(set, g, mix, 2).stop, "32.C: Mix has spent its 10 reaction MPs")
end)

t.test("32.C-6: a reacting group may split at any time; all the parts continue reaction movement", function()
  local set, g = setup()
  local r, us = F.group(g, "R", "Axis", { "TF", "TF", "NT" }, H(0, 0), { reserve = true, activated = true })
  assert(act(set, g, "react", { group = r }))
  move_mp(set, g, r, 6)
  -- the split as 32.A.1 does it: new groups, each with the MPs spent
  local parts = {}
  for i = 2, 3 do
    g:group_remove(r, us[i])
    parts[#parts + 1] = g:group_new { name = "R" .. i, side = "Axis", units = { us[i] }, mp_spent = 6 }
  end
  for _, p in ipairs({ r, parts[1], parts[2] }) do
    t.eq(set:query(g, "is_reacting", p), true)
    t.eq(move_mp(set, g, p, 4).stop, nil)
  end
  t.eq(move_mp(set, g, parts[2], 5).stop, "32.C: R3 has spent its 15 reaction MPs", "each part to its own end")
  t.eq(markers(g, us), { 1, 1, 1 }, "one marker each, placed once")
end)

-- ---- markers ------------------------------------------------------------------------------------

t.test("32.C-7: a group that moves in reaction gets a -1 Step marker, or +1 on its current one", function()
  local set, g = setup()
  local r, us = F.group(g, "R", "Axis", { "TF", "NT" }, H(0, 0), { reserve = true, activated = true })
  g:set_marker(us[2], "step", 1)
  assert(act(set, g, "react", { group = r }))
  t.eq(markers(g, us), { 0, 1 }, "no marker before it moves")
  move_mp(set, g, r, 1)
  move_mp(set, g, r, 2)
  t.eq(markers(g, us), { 1, 2 })
  F.emit(set, g, "naval_step_end", { side = "Allied", step = 1 })
  t.eq(set:query(g, "is_reacting", r), false, "reactions end with the step")
  t.eq(g:group_get_value(r, "allowance"), nil)
  assert(act(set, g, "react", { group = r }))
  move_mp(set, g, r, 1)
  t.eq(markers(g, us), { 2, 3 }, "a second reaction: +1")
  local idle, iu = F.group(g, "I", "Axis", { "TF" }, H(0, 0), { reserve = true, activated = true })
  assert(act(set, g, "react", { group = idle }))
  assert(act(set, g, "end_reaction", { group = idle }))
  t.eq(markers(g, iu), { 0 }, "reacting without moving: no marker")
end)

t.test("32.C-8: at the start of its next friendly naval movement step the marker drops one level and the group counts as having moved", function()
  local set, g = setup()
  local r, us = F.group(g, "R", "Axis", { "TF", "NT" }, H(0, 0), { reserve = true, activated = true })
  -- a non-reserve group with a -1 Step marker reacts too: in its own steps
  -- it could move, were it not counted as having moved
  local m, mu = F.group(g, "M", "Axis", { "TF" }, H(0, 0))
  g:set_marker(mu[1], "step", 1)
  assert(act(set, g, "react", { group = r }))
  assert(act(set, g, "react", { group = m }))
  move_mp(set, g, r, 3)
  move_mp(set, g, m, 1)
  F.emit(set, g, "naval_step_end", { side = "Allied", step = 1 })
  F.emit(set, g, "naval_step_start", { side = "Allied", step = 2 })
  t.eq(markers(g, us), { 1, 1 }, "not in the enemy's steps")
  t.eq(set:query(g, "moved_this_step", r), false)
  g:set_global("phasing", "Axis")
  F.emit(set, g, "naval_step_start", { side = "Axis", step = 1 })
  t.eq(markers(g, us), { 0, 0 })
  t.eq(set:query(g, "moved_this_step", r), true)
  t.raises(function() move_mp(set, g, r, 1) end, "counted as having moved this step")
  t.eq({ g:get_marker(mu[1], "step") or 0, set:query(g, "moved_this_step", m) }, { 1, true }, "2 -> 1")
  t.fails("counted as having moved this step", act(set, g, "move", { group = m, to = H(1, 0) }))
  F.emit(set, g, "naval_step_end", { side = "Axis", step = 1 })
  t.eq(set:query(g, "moved_this_step", r), false)
  F.emit(set, g, "naval_step_start", { side = "Axis", step = 2 })
  t.eq(set:query(g, "moved_this_step", r), false, "marker gone: it moves in the next step")
end)

-- ---- night -----------------------------------------------------------------------------------------

t.test("32.C-9: reacting units move at night: the same number of night MPs as the phasing player, in the same order (the rule's example)", function()
  -- The phasing player has moved 5 MPs by day, then 2 at night, when the
  -- non-phasing player reacts: the reacting group may spend 7 MPs by day and
  -- 2 at night; then up to 3 MPs of night combat follow the initial battle,
  -- the night lasting 5 MPs.
  local set, g = setup()
  local p = F.group(g, "Phasing", "Allied", { "TF" }, H(0, 0), { mp_spent = 7, night_mp = 2 })
  local r = F.group(g, "Reacting", "Axis", { "TF" }, H(4, 0), { reserve = true, activated = true })
  g:set_global("night", true)
  t.fails("may spend 15 MPs reacting: not 14 by day and 2 at night",
    act(set, g, "react", { group = r, against = p, day = 14 }))
  assert(act(set, g, "react", { group = r, against = p, day = 7 }))
  local nights = {}
  for i = 1, 9 do
    local ev = move_mp(set, g, r, 1)
    nights[i] = ev.night and "N" or "D"
    if i < 9 then t.eq(ev.stop, nil) else t.eq(ev.stop, "32.C: Reacting has spent its 9 reaction MPs") end
  end
  t.eq(table.concat(nights), "DDDDDDDNN", "7 by day, then 2 at night, as the phasing player: day first")
  t.eq(g:group_get_value(r, "night_mp"), 2)
  t.raises(function() move_mp(set, g, r, 1) end, "its reaction ends at 9")
  -- the interception: night combat after the initial battle, up to 3 MPs
  t.eq(set:query(g, "night_mp_left", p), 3)
  -- a resolution that would fight on (a scenario's, through ev.result)
  local nc = { group = p, hex = H(0, 0), kind = "surface", enemy = r, round = 1, result = { rounds = 99 } }
  F.emit(set, g, "naval_combat", nc)
  t.eq(nc.rounds, 4, "the initial battle and 3 rounds of night combat")
  t.eq(nc.mp, 3)
  t.eq(g:group_get_value(p, "night_mp"), 5)
  t.eq(g:group_get_value(p, "mp_spent"), 10)
end)

t.test("32.C-10: the same order: when the phasing player's night MPs came first, so do the reacting group's", function()
  local set, g = setup()
  local p = F.group(g, "Phasing", "Allied", { "TF" }, H(0, 0), { mp_spent = 6, night_mp = 3 })
  local r = F.group(g, "Reacting", "Axis", { "TF" }, H(4, 0), { reserve = true, activated = true })
  g:set_global("night", false)     -- day now: the phasing group's night MPs were its first
  assert(act(set, g, "react", { group = r, against = p }))
  local nights = {}
  for i = 1, 5 do nights[i] = move_mp(set, g, r, 1).night and "N" or "D" end
  t.eq(table.concat(nights), "NNNDD")
  t.eq(g:group_get_value(r, "night_mp"), 3)
  t.eq(move_mp(set, g, r, 10).stop, "32.C: Reacting has spent its 15 reaction MPs", "3 night + 12 day by default")
end)

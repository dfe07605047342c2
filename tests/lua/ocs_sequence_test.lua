-- tests/lua/ocs_sequence_test.lua — the OCS family under its sequence of
-- play (scripts/ocs/manifest.lua, the stand-in for OCS 4.3 2.2) in the
-- showcase scenarios/ocs_salerno.lua: the phases and segments in the
-- rulebook's order, who decides in each, the scenario's end, its hex
-- control stand-in (scenarios/families/avalanche, A.1), and games played
-- by random offered orders to their end.
local t = require "keel.testing"
local keel = require "keel"
local scenario = require "keel.scenario"

local SPEC = scenario.load("scenarios/ocs_salerno.lua")

-- the showcase set up, its orders 1 .. upto-1 played (refusals it expects are fine)
local function at(upto, opts)
  local run = scenario.start(SPEC, opts)
  for i = 1, (upto or 1) - 1 do
    local outcome, problems = run:play(i, SPEC.orders[i])
    assert(#problems == 0, outcome.message or problems[1])
  end
  return run
end

-- where the game is: "phasing phase/step (active)"
local function where(run)
  local st = run.set:status(run.game)
  return ("%s %s/%s (%s)"):format(st.phasing, st.phase, tostring(st.step), table.concat(st.active, ","))
end

t.test("26-ocs-sequence: a player-turn walks 2.2's phases and segments in order; the Reaction Phase is the other side's", function()
  local run = at()
  local seen = { where(run) }
  while run.set:status(run.game).phasing == "Allied" do
    local side = run.set:status(run.game).active[1]
    assert(run.set:act(run.game, "end_phase", {}, side))
    seen[#seen + 1] = where(run)
  end
  -- the phases and segments where no action of section 18 is taken
  -- (reinforcement, breakout, supply, the exploitation's combat segment,
  -- clean up) are passed by
  t.eq(seen, {
    "Allied aircraft_refit/nil (Allied)",
    "Allied movement/movement_segment (Allied)",
    "Allied movement/movement_barrage (Allied)",
    "Allied reaction/reaction_movement (Axis)",
    "Allied reaction/reaction_barrage (Axis)",
    "Allied combat/artillery_barrage (Allied)",
    "Allied combat/combat_segment (Allied)",
    "Allied exploitation/exploitation_movement (Allied)",
    "Allied exploitation/exploitation_barrage (Allied)",
    "Axis aircraft_refit/nil (Axis)",
  })
  -- the events the runtime sent, as the rules hooking them fired (in order, repeats once)
  local events = {}
  local function narrate(kind, data)
    if kind == "fire" and data.event ~= events[#events] then events[#events + 1] = data.event end
  end
  run = at(1, { narrate = narrate })
  while run.set:status(run.game).phasing == "Allied" do
    assert(run.set:act(run.game, "end_phase", {}, run.set:status(run.game).active[1]))
  end
  t.eq(table.concat(events, " "), "aircraft_refit_phase movement_phase movement_segment_end barrage_segment "
    .. "reaction_phase barrage_segment "
    .. "combat_phase barrage_segment exploitation_phase barrage_segment clean_up_phase aircraft_refit_phase")
end)

t.test("26-ocs-sequence-2: the scenario's turns, scores and victory: the Allies' objectives at the end", function()
  local run = at(#SPEC.orders)
  local st = run.set:status(run.game)
  t.eq(st.over, true)
  t.eq(st.result.winner, "Allied")
  t.eq(st.result.scores, { Allied = 2, Axis = 1 })
  t.ok(st.result.reason:find("the beachhead holds", 1, true), st.result.reason)
  local ok, why, kind = run.set:act(run.game, "end_phase", {}, "Axis")
  t.eq({ ok, kind }, { nil, "over" }, why)
  -- without the landings the Axis holds its ground: every side only passes
  local quiet = at()
  while not quiet.set:status(quiet.game).over do
    assert(quiet.set:act(quiet.game, "end_phase", {}, quiet.set:status(quiet.game).active[1]))
  end
  local res = quiet.set:status(quiet.game).result
  t.eq(res.winner, "Axis")
  t.eq(res.scores, { Allied = 0, Axis = 2 })
  t.eq(quiet.game:get_global("turn"), 2, "two game turns")
end)

t.test("A.1-1: a combat unit ashore takes a hex free of enemy combat units; a non-combat unit never does", function()
  local run = at(1)
  local g, hex = run.game, function(l) return run:hex(l) end
  t.eq(g:get_owner(hex("Montecorvino")), "Axis")
  t.eq(g:get_owner(hex("Paestum")), nil)
  -- the after-landing move into Montecorvino (18.5h) takes both hexes it enters
  local after = SPEC.orders
  local i = 1
  while after[i][1] ~= "after_landing_move" do i = i + 1 end
  run = at(i + 1)
  g = run.game
  t.eq({ g:get_owner(run:hex("S:0804")), g:get_owner(run:hex("Montecorvino")) }, { "Allied", "Allied" })
  t.eq(g:get_owner(run:hex("S:0907")), nil, "SP Dump B, unloaded there by DUKW B, is no combat unit: still nobody's")
  t.eq(g:get_owner(run:hex("S:0705")), "Allied", "the battalions landed by the LCT Flotilla")
  -- the beach assault: KG Stempel gone, 2/6 Queens ashore takes Paestum
  while not (after[i][1] == "resolve_beach_assault" and not after[i].expect.refused) do i = i + 1 end
  run = at(i)
  t.eq(run.game:get_owner(run:hex("Paestum")), nil, "KG Stempel holds it")
  run:play(i, after[i])
  t.eq(run.game:get_owner(run:hex("Paestum")), "Allied")
end)

t.test("18.5f-seq: the Movement Segment ends: ALT rolls the player has not asked for are made then, in the fewest groups", function()
  local i = 1
  while not (SPEC.orders[i][1] == "land" and SPEC.orders[i].craft == "LCT Flotilla") do i = i + 1 end
  local run = at(i + 1)                -- two battalions ashore by ALT, no roll yet
  local hants = run.units["2/4 Hampshire"]
  local stamp = select(3, run.set:query(run.game, "phase"))
  t.eq(run.game:get_global("alt_done_phase") == stamp, false)
  assert(run.set:act(run.game, "end_phase", {}, "Allied"))
  t.eq(run.set:status(run.game).step, "movement_barrage")
  t.eq(run.game:get_global("alt_done_phase"), stamp, "the rolls are made")
  t.eq(run.game:get_value(hants, "landed_by"), "alt")
  -- asked for, they are not made twice
  run = at(i + 1)
  assert(run.set:act(run.game, "alt_rolls", {}, "Allied"))
  local h = run.game:hash_hex()
  local journal = #run.game:journal_lines()
  assert(run.set:act(run.game, "end_phase", {}, "Allied"))
  local rolled = false
  for k = journal + 1, #run.game:journal_lines() do
    if run.game:journal_lines()[k]:find('"ev":"roll"', 1, true) then rolled = true end
  end
  t.eq(rolled, false, "no second roll")
  t.ok(run.game:hash_hex() ~= h)
end)

-- A random order for an offered entry: one of its listed orders, else a
-- value for each parameter from its domain (or the choice for the values
-- it depends on), left out when the entry allows it.
local function pick(dice, n) return dice:range(n, { stream = "random-play" }) end

local function key(v)
  if type(v) == "table" then
    local parts = {}
    for i, x in ipairs(v) do parts[i] = key(x) end
    return "{" .. table.concat(parts, ",") .. "}"
  end
  return tostring(v)
end

local function value_of(c) if type(c) == "table" and c.value ~= nil then return c.value end return c end

local function random_order(dice, e)
  if e.orders then return e.orders[pick(dice, #e.orders)] end
  local params = {}
  for _, p in ipairs(e.params) do
    local g = p.domain and p or nil
    if p.choices then
      for _, c in ipairs(p.choices) do
        local same = true
        for k, v in pairs(c.given or {}) do if key(params[k]) ~= key(v) then same = false end end
        if same then g = c end
      end
    end
    if g then
      local options = {}
      if p.type == "units" then
        if g.sets then
          for _, s in ipairs(g.sets) do options[#options + 1] = s end
        else   -- any set: each element alone, and all of them
          local all = {}
          for _, c in ipairs(g.domain) do options[#options + 1] = { value_of(c) }; all[#all + 1] = value_of(c) end
          if #all > 1 then options[#options + 1] = all end
        end
      else
        for _, c in ipairs(g.domain or {}) do options[#options + 1] = value_of(c) end
      end
      local n = #options + (g.omit and 1 or 0)
      if n > 0 then
        local k = pick(dice, n)
        if k <= #options then params[p.name] = options[k] end
      end
    end
  end
  return params
end

t.test("26-ocs-random-play: random offered orders for the side to decide reach the end; every one is accepted", function()
  local LIMIT = 1500
  for _, seed in ipairs { 1, 2, 3 } do
    local run = at(1, { seed = seed })
    local dice = keel.dice.new(seed)
    local n = 0
    while not run.set:status(run.game).over do
      n = n + 1
      assert(n <= LIMIT, ("seed %d: no end after %d orders (%s)"):format(seed, LIMIT, where(run)))
      local side = run.set:status(run.game).active[1]
      local h = run.game:hash_hex()
      local offered = {}
      for _, e in ipairs(run.set:legal_actions(run.game, side)) do
        if e.available then offered[#offered + 1] = e end
      end
      t.eq(run.game:hash_hex(), h, "listing changes nothing")
      assert(#offered > 0, "end_phase is always offered")
      local e = offered[pick(dice, #offered)]
      local params = random_order(dice, e)
      local ok, why = run.set:act(run.game, e.name, params, side)
      if not ok then
        error(("seed %d, order %d: %s by %s refused: %s"):format(seed, n, e.name, side, tostring(why)), 0)
      end
      -- another side's order is refused, the state as it was
      local other = side == "Allied" and "Axis" or "Allied"
      if not run.set:status(run.game).over and run.set:status(run.game).active[1] ~= other then
        local before = run.game:hash_hex()
        local ok2, _, kind = run.set:act(run.game, "end_phase", {}, other)
        t.eq({ ok2, kind }, { nil, "side" })
        t.eq(run.game:hash_hex(), before)
      end
    end
    local res = run.set:status(run.game).result
    t.ok(res.winner == "Allied" or res.winner == "Axis", ("seed %d: %s"):format(seed, tostring(res.reason)))
  end
end)

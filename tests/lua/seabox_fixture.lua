-- tests/lua/seabox_fixture.lua — shared by the Rule 27 tests
-- (seabox_*_test.lua; loaded with dofile, not a test file itself). A world
-- is a scenario started from a table: the seabox family on a map (default
-- scenarios/maps/crete.map), forces and flags, played order by order with
-- the scenario's own name-to-id conversion, its narration collected. The
-- game is started: the family's sequence of play (27.C's phases and naval
-- steps) runs, with a game turn of an Allied then an Axis player turn (the
-- campaign's turn is a scenario's; spec.sides changes it) and no last turn.
-- An order without `by` is given by the side to decide now (a scenario's
-- own order, such as bomb, by none).
local t = require "keel.testing"
local scenario = require "keel.scenario"
local sequence = require "keel.sequence"

local M = {}

M.CRETE = "../../scenarios/maps/crete.map"

--- A world: spec fields as a scenario's (map, forces, flags, seed,
--- variants, groups); the spec's file is this fixture, so paths are
--- relative to tests/lua.
function M.world(spec)
  spec = spec or {}
  local s = { file = "tests/lua/seabox_fixture.lua", name = "seabox test", rules = spec.rules or { "seabox" },
    map = spec.map == nil and M.CRETE or spec.map or nil, seed = spec.seed or 1, flags = spec.flags,
    forces = spec.forces or {}, groups = spec.groups, variants = spec.variants,
    sequence = sequence.check({ cite = "the seabox tests' game turn (stand-in)", sides = spec.sides or { "Allied", "Axis" } },
      function(path, what) error(table.concat(path, ".") .. ": " .. what, 0) end) }
  if spec.map == false then s.map = nil end
  local said = {}
  local run = scenario.start(s, { narrate = function(kind, data)
    if kind == "say" then said[#said + 1] = tostring(data.rule.id or data.rule.family) .. ": " .. data.text end
  end })
  local w = { run = run, game = run.game, set = run.set, board = run.board, units = run.units, said = said }
  local n = 0
  --- the side to decide now, and where the game is (keel.sequence)
  function w.status() return run.set:status(w.game) end
  --- play an order (as a scenario writes it; without `by`, by the side to
  --- decide now unless it is the scenario's own): outcome, problems
  function w.play(order)
    n = n + 1
    local a = type(order[1]) == "string" and run.set.actions[order[1]]
    if a and order.by == nil and a.def.side ~= "scenario" then
      local o = {}
      for k, v in pairs(order) do o[k] = v end
      o.by = w.status().active[1]
      order = o
    end
    return run:play(n, order)
  end
  --- play an order that must succeed
  function w.ok(order)
    local out, problems = w.play(order)
    if not out.ok or #problems > 0 then
      error({ test_failure = ("order %s failed: %s %s"):format(tostring(order[1] or order.event),
        tostring(out.message), table.concat(problems, "; ")) }, 2)
    end
    return out
  end
  --- play an order that must be refused with a reason mentioning `text`;
  --- the state hash must be the same after it
  function w.refused(order, text)
    local before = w.game:hash_hex()
    local out = w.play(order)
    if out.ok then error({ test_failure = ("order %s succeeded; expected it refused (%s)"):format(tostring(order[1]), text) }, 2) end
    if not tostring(out.message):find(text, 1, true) then
      error({ test_failure = ("order %s refused as %q; expected the reason to mention %q"):format(
        tostring(order[1]), tostring(out.message), text) }, 2)
    end
    if w.game:hash_hex() ~= before then error({ test_failure = "the refused order changed the state hash" }, 2) end
    return out
  end
  function w.q(name, ...) return run.set:query(w.game, name, ...) end
  function w.id(name) return run.units[name] or error("no unit " .. tostring(name)) end
  function w.group(name) return run:group_named(name) or error("no group " .. tostring(name)) end
  function w.hex(label) return w.board:hex(label) end
  --- where a unit is: "hex 15B:2407", "port 15B:2508", "dead", "off", "aboard NT 1"
  function w.at(name)
    local kind, where = w.game:get(w.id(name), "loc")
    if kind == "hex" or kind == "port" then return kind .. " " .. w.board:format(where) end
    if kind == "unit" then return "aboard " .. w.game:get(where, "name") end
    return kind
  end
  function w.value(name, key) return w.game:get_value(w.id(name), key) end
  function w.get(name, field) return w.game:get(w.id(name), field) end
  --- the narration lines said since the last call
  local seen = 0
  function w.news()
    local out = {}
    for i = seen + 1, #said do out[#out + 1] = said[i] end
    seen = #said
    return out
  end
  --- pass (end_phase) as the side to decide now
  function w.pass()
    local out, problems = w.play { "end_phase" }
    if not out.ok or #problems > 0 then
      error({ test_failure = "end_phase failed: " .. tostring(out.message) }, 3)
    end
  end
  --- pass until `done(status)`, at most a game turn's worth of passes
  function w.until_(done, what)
    for _ = 1, 60 do
      local st = w.status()
      if done(st) then return st end
      w.pass()
    end
    error({ test_failure = "never reached " .. what }, 3)
  end
  --- on to the movement phase (naval step 1) of `side`'s player turn of `turn`
  --- (default: the Allied player turn of the turn the game is in)
  function w.movement(side, turn)
    side = side or "Allied"
    turn = turn or w.game:get_global("turn")
    return w.until_(function(st)
      return st.turn == turn and st.phasing == side and st.step == "movement_step_1" and not st.window
    end, ("the movement phase of %s, turn %d"):format(side, turn))
  end
  --- on to the next phase named `phase` (a new one: never the phase the game
  --- is in), stopping at its start (a decision window opened there stays open)
  function w.to(phase)
    local key = w.status()
    local from = ("%s/%s/%s"):format(key.turn, key.phasing, key.phase)
    return w.until_(function(st)
      return st.phase == phase and ("%s/%s/%s"):format(st.turn, st.phasing, st.phase) ~= from
        and (st.step == nil or st.step:match("_1$"))
    end, "the " .. phase .. " phase")
  end
  --- the next naval step (decision windows open now closed first)
  function w.step()
    local st = w.status()
    while st.window do w.pass(); st = w.status() end
    local from = st.step
    w.pass()
    st = w.status()
    while st.window do w.pass(); st = w.status() end
    if st.step == from then error({ test_failure = "the naval step did not end" }, 2) end
    return st
  end
  return w
end

--- does any line of `lines` contain `text`?
function M.said(lines, text)
  for _, l in ipairs(lines) do if l:find(text, 1, true) then return true end end
  return false
end

M.t = t
return M

-- tests/lua/seabox_fixture.lua — shared by the Rule 27 tests
-- (seabox_*_test.lua; loaded with dofile, not a test file itself). A world
-- is a scenario started from a table: the seabox family on a map (default
-- scenarios/maps/crete.map), forces and flags, played order by order with
-- the scenario's own name-to-id conversion, its narration collected.
local t = require "keel.testing"
local scenario = require "keel.scenario"

local M = {}

M.CRETE = "../../scenarios/maps/crete.map"

--- A world: spec fields as a scenario's (map, forces, flags, seed,
--- variants, groups); the spec's file is this fixture, so paths are
--- relative to tests/lua.
function M.world(spec)
  spec = spec or {}
  local s = { file = "tests/lua/seabox_fixture.lua", name = "seabox test", rules = spec.rules or { "seabox" },
    map = spec.map == nil and M.CRETE or spec.map or nil, seed = spec.seed or 1, flags = spec.flags,
    forces = spec.forces or {}, groups = spec.groups, variants = spec.variants }
  if spec.map == false then s.map = nil end
  local said = {}
  local run = scenario.start(s, { narrate = function(kind, data)
    if kind == "say" then said[#said + 1] = data.rule.id .. ": " .. data.text end
  end })
  local w = { run = run, game = run.game, set = run.set, board = run.board, units = run.units, said = said }
  local n = 0
  --- play an order (as a scenario writes it): outcome, problems
  function w.play(order)
    n = n + 1
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
  --- set the phase up: a player turn of `side`, its movement phase (step 1)
  function w.movement(side, turn)
    w.ok { event = "player_turn_start", data = { side = side or "Allied", turn = turn or 1 } }
    w.ok { event = "movement_phase" }
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

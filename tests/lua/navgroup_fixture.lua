-- tests/lua/navgroup_fixture.lua — shared by the Rule 32 tests
-- (navgroup_*_test.lua; loaded with dofile, not a test file itself).
-- Builds the navgroup rule set; when no rule of the family answers the
-- movement area's queries yet (scripts/navgroup/groups.lua), the test-only
-- stand-in tests/families/navgroup_standin answers them.
local keel = require "keel"
local rules = require "keel.rules"
local game_mod = require "keel.game"

local M = {}

M.H = keel.hex.from_qr

--- The rule set: opts.variants (files), opts.families (extra), opts.narrate.
function M.set(opts)
  opts = opts or {}
  local set = rules.new { path = { "tests/families" }, narrate = opts.narrate }
  set:load_family("navgroup")
  local answered = false
  for _, id in ipairs(set:ids(true)) do
    if set:rule(id).queries.group_kind then answered = true end
  end
  if not answered then set:load_family("navgroup_standin") end
  for _, f in ipairs(opts.families or {}) do set:load_family(f) end
  for _, v in ipairs(opts.variants or {}) do set:apply_variant(v) end
  set:finalize()
  M.standin = not answered
  return set
end

--- A set whose narration is collected in the returned list.
function M.narrated(opts)
  opts = opts or {}
  local said = {}
  opts.narrate = function(kind, data)
    if kind == "say" then said[#said + 1] = data.rule.id .. ": " .. data.text end
  end
  return M.set(opts), said
end

function M.game(board) return game_mod.new { seed = 1, board = board } end

--- A group of units of `types` (all at `hex`, or in port with values.in_port):
--- group id, unit ids. `values` are group values (side is set).
function M.group(g, name, side, types, hex, values, unit_values)
  local units = {}
  local kind = values and values.in_port and "port" or "hex"
  for i, ty in ipairs(types) do
    units[i] = g:unit_new { name = name .. "." .. i, type = ty, side = side, at = { kind, hex },
                            values = unit_values and unit_values[i] or nil }
  end
  local spec = { name = name, side = side, units = units, mp_spent = 0 }
  for k, v in pairs(values or {}) do spec[k] = v end
  return g:group_new(spec), units
end

--- Emit an event and return its payload (with what the rules set in it).
function M.emit(set, g, event, data)
  set:emit(g, event, data)
  return data
end

--- The kinds (and enemies / CDs) of the combats an event started.
function M.combats(ev)
  local out = {}
  for i, c in ipairs(ev.combats or {}) do
    out[i] = c.kind .. (c.enemy and (":" .. c.enemy) or "") .. (c.fired_by and (":" .. c.fired_by) or "")
  end
  return out
end

return M

-- tests/lua/navgroup_fixture.lua — shared by the Rule 32 tests
-- (navgroup_*_test.lua; loaded with dofile, not a test file itself).
-- Builds the navgroup rule set (the whole family: movement, searches,
-- reaction and combat answer together) and games on a small open sea (the
-- map below) unless a test brings its own board.
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
  for _, f in ipairs(opts.families or {}) do set:load_family(f) end
  for _, v in ipairs(opts.variants or {}) do set:apply_variant(v) end
  set:finalize()
  return set
end

-- An open sea, 12 columns by 16 rows, labels from A:0000 (axial (0,0)) so
-- that the tests' hexes H(0..11, -1..9) are on it; one sea zone; no owners,
-- ports or CDs (a test adds what it needs).
M.SEA_MAP = [[
map "Rule 32 test sea"
hexes flat even digits 2 first 0 0
section A at 0 0 size 12 16
default all-sea
zone "Aegean" A:0000..1115
]]

--- The test sea as a board (a new one each call: tests may change owners).
function M.sea()
  return assert(keel.board.load_string(M.SEA_MAP, "navgroup_fixture.map"))
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

--- A game on `board`, else on the test sea.
function M.game(board) return game_mod.new { seed = 1, board = board or M.sea() } end

--- A narrated set and a game on opts.board (else the test sea) with
--- opts.phasing (default "Allied") phasing: set, game, said.
function M.setup(opts)
  opts = opts or {}
  local set, said = M.narrated(opts)
  local g = M.game(opts.board)
  g:set_global("phasing", opts.phasing or "Allied")
  return set, g, said
end

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

-- tests/lua/ocs_fixture.lua — shared by the OCS section 18 tests
-- (ocs_*_test.lua; loaded with dofile, not a test file itself). Builds the
-- ocs rule set and games on a small coast (the map below): sea in columns
-- 01-04, the coast in column 05 (a port at A:0504), land beyond; an estuary
-- hexside A:0602/0603 and a river hexside A:0606/0607 between land hexes;
-- terrain tags for the ALT (close A:0505, mountain A:0506, very_close
-- A:0507) and an airbase tag at A:0703.
local t = require "keel.testing"
local keel = require "keel"
local rules = require "keel.rules"
local errors = require "keel.errors"
local game_mod = require "keel.game"
local sequence = require "keel.sequence"

local M = {}

M.MAP = [[
map "OCS 18 test coast"
hexes flat even digits 2 first 1 1
section A at 0 0 size 10 8
default all-land
terrain at A:0101 {
  . . . . c L L L L L
  . . . . c L L L L L
  . . . . c L L L L L
  . . . . c L L L L L
  . . . . c L L L L L
  . . . . c L L L L L
  . . . . c L L L L L
  . . . . c L L L L L
}
side A:0602/0603 estuary
side A:0606/0607 river
port A:0504 standard capacity 2 "Porto"
tag close A:0505
tag mountain A:0506
tag very_close A:0507
tag airbase A:0703
]]

--- The rule set: opts.variants (files), opts.families (extra, from tests/families), opts.narrate.
function M.set(opts)
  opts = opts or {}
  local set = rules.new { path = { "tests/families" }, narrate = opts.narrate }
  set:load_family("ocs")
  for _, f in ipairs(opts.families or {}) do set:load_family(f) end
  for _, v in ipairs(opts.variants or {}) do set:apply_variant(v) end
  -- the family's sequence of play with the two sides of these tests (a
  -- game not started: it restricts nothing; M.phase walks it by hand)
  local shape = sequence.check({ sides = { "Allied", "Axis" } }, function(path, what)
    error(table.concat(path, ".") .. ": " .. what, 0)
  end)
  sequence.install(set, { sequence = shape })
  set:finalize()
  return set
end

function M.board() return assert(keel.board.load_string(M.MAP, "ocs_fixture.map")) end

--- set, game, said: a narrated set and a game on the test coast (seed 1).
function M.setup(opts)
  opts = opts or {}
  local said = {}
  opts.narrate = function(kind, data)
    if kind == "say" then said[#said + 1] = (data.rule.id or "ocs") .. ": " .. data.text end
  end
  local set = M.set(opts)
  local g = game_mod.new { seed = opts.seed or 1, board = opts.board or M.board() }
  return set, g, said
end

--- A hex from a label.
function M.hex(g, label) return assert(g.board:hex(label)) end

--- A unit: spec as game:unit_new, with at = "A:0302" (at sea or ashore), port = true (in port).
function M.unit(g, spec)
  local s = {}
  for k, v in pairs(spec) do s[k] = v end
  if type(spec.at) == "string" then s.at = { spec.port and "port" or "hex", M.hex(g, spec.at) } end
  s.port = nil
  return g:unit_new(s)
end

-- the phase each phase event starts (the manifest's sequence), and the
-- barrage step of each phase
local PHASE_OF = { aircraft_refit_phase = "aircraft_refit", movement_phase = "movement", reaction_phase = "reaction",
                   combat_phase = "combat", exploitation_phase = "exploitation", clean_up_phase = "clean_up" }
local BARRAGE_STEP = { movement = "movement_barrage", reaction = "reaction_barrage", combat = "artillery_barrage",
                       exploitation = "exploitation_barrage" }
local OTHER = { Allied = "Axis", Axis = "Allied" }

--- A phase event (name: the event, e.g. "movement_phase"; side: whose
--- phase it is, the reacting side's for "reaction_phase"), as the sequence
--- of play sends it: the runtime's globals (turn, phasing, phase, step) set
--- first, then the event with its data. "turn_start" starts the next game
--- turn (data.turn: that one); "barrage_segment" enters the phase's barrage
--- step. The tests walk the phases in any order they need.
function M.phase(set, g, event, side, data)
  local d = { side = side }
  for k, v in pairs(data or {}) do d[k] = v end
  if event == "turn_start" then
    g:set_global("turn", d.turn or (g:get_global("turn") or 0) + 1)
    d = { turn = g:get_global("turn") }
  elseif PHASE_OF[event] then
    local name = PHASE_OF[event]
    g:set_global("phase", name)
    g:set_global("step", nil)
    if side ~= nil then g:set_global("phasing", name == "reaction" and OTHER[side] or side) end
    d.phase, d.phasing, d.turn = name, g:get_global("phasing"), g:get_global("turn")
  elseif event == "barrage_segment" then
    local step = BARRAGE_STEP[g:get_global("phase")]
    if not step then error(("no barrage step in the %s phase"):format(tostring(g:get_global("phase"))), 2) end
    g:set_global("step", step)
    d.step, d.phase, d.phasing, d.turn = step, g:get_global("phase"), g:get_global("phasing"), g:get_global("turn")
  end
  set:emit(g, event, d)
end

--- Take an action that must succeed.
function M.ok(set, g, name, params)
  local ok, why = set:act(g, name, params)
  if not ok then error({ test_failure = ("%s should be legal: %s"):format(name, errors.format(why)) }, 2) end
end

--- An action that must be refused with a reason mentioning `text`, the
--- state hash unchanged. Returns the reason.
function M.refused(set, g, name, params, text)
  local before = g:hash_hex()
  local journal = #g:journal_text()
  local ok, why = set:act(g, name, params)
  if ok then error({ test_failure = ("%s should be refused (%s), but it was taken"):format(name, text) }, 2) end
  local msg = errors.format(why)
  if not msg:find(text, 1, true) then
    error({ test_failure = ("%s refused with %q, expected it to mention %q"):format(name, msg, text) }, 2)
  end
  t.eq(g:hash_hex(), before, "state hash unchanged")
  t.eq(#g:journal_text(), journal, "journal unchanged")
  return msg
end

--- The last line of narration that mentions `text` (plain).
function M.said(said, text)
  for i = #said, 1, -1 do if said[i]:find(text, 1, true) then return said[i] end end
  return "(nothing said about " .. text .. ")"
end

--- Where a unit is: label, kind ("hex", "port", "unit", "dead").
function M.at(g, u)
  local kind, w = g:get(u, "loc")
  if kind == "hex" or kind == "port" then return g.board:format(w), kind end
  return w, kind
end

return M

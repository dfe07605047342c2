-- tests/lua/navgroup_landing_fixture.lua — shared by the Rule 37 tests
-- (navgroup_landing*_test.lua; loaded with dofile, not a test file itself).
-- A small coast written here, the navgroup family with its narration
-- collected, and helpers to put a force afloat, plan and land it.
local t = require "keel.testing"
local keel = require "keel"
local rules = require "keel.rules"
local game_mod = require "keel.game"

local M = {}

-- Sea in columns 00-04, the beach (coastal) in column 05, land beyond.
-- Axis holds rows 00-07 of the coast, the Allies rows 08-09 (the front line).
-- A:0503 has mountains, A:0507 a fort, A:0505 a major port with a CD of 2;
-- A:0401 is in restricted waters; A:0501 is in Bulgaria (for the East Front).
M.COAST_MAP = [[
map "Rule 37 test coast"
hexes flat even digits 2 first 0 0
section A at 0 0 size 12 10
default all-land
terrain at A:0000 {
  . . . . . c L L L L L L
  . . . . . c L L L L L L
  . . . . . c L L L L L L
  . . . . . c L L L L L L
  . . . . . c L L L L L L
  . . . . . c L L L L L L
  . . . . . c L L L L L L
  . . . . . c L L L L L L
  . . . . . c L L L L L L
  . . . . . c L L L L L L
}
port A:0505 major capacity 3 "Harbour"
cd A:0505 2
tag mountain A:0503
tag fort A:0507
tag restricted_waters A:0401
tag bulgaria A:0501
owner Axis A:0500..1107
owner Allied A:0508..1109
zone "Sea" A:0000..0409
]]

function M.board() return assert(keel.board.load_string(M.COAST_MAP, "coast.map")) end

--- A world: a narrated navgroup set (opts.families, opts.variants; no
--- naval searches unless opts.searches, so forced dice go to Rule 37), a game
--- on the coast, the Allies phasing in calm seas, June 1943, turn 1, an open
--- Allied naval movement step (opts.no_step: none), opts.sp_pool SPs in the
--- Allied theatre pool (keyed value sp_pool).
function M.world(opts)
  opts = opts or {}
  local said, rolls = {}, {}
  local set = rules.new { path = { "tests/families" }, narrate = function(kind, data)
    if kind == "say" then said[#said + 1] = (data.rule.id or "-") .. ": " .. data.text end
    if kind == "resolve" then rolls[#rolls + 1] = data.record end
  end }
  set:load_family("navgroup")
  for _, f in ipairs(opts.families or {}) do set:load_family(f) end
  if not opts.searches then set:apply_variant("tests/families/variants/navgroup_no_search.lua") end
  for _, v in ipairs(opts.variants or {}) do set:apply_variant(v) end
  set:finalize()
  local board = M.board()
  local g = game_mod.new { seed = 37, board = board }
  for k, v in pairs { phasing = "Allied", sea = "calm", year = 1943, month = 6, turn = 1 } do g:set_global(k, v) end
  for k, v in pairs(opts.globals or {}) do g:set_global(k, v) end
  if opts.sp_pool then g:set_keyed("sp_pool", "Allied", opts.sp_pool) end
  local w = { set = set, game = g, board = board, said = said, rolls = rolls, units = {}, groups = {} }
  function w.hex(label) return assert(board:hex(label)) end
  function w.act(name, p) return set:act(g, name, p) end
  function w.q(name, ...) return set:query(g, name, ...) end
  function w.emit(event, data) set:emit(g, event, data or {}) return data end
  function w.kv(map, key) return g:get_keyed(map, key) end
  function w.set_kv(map, key, v) return g:set_keyed(map, key, v) end
  if not opts.no_step then w.emit("naval_step_start", { side = "Allied", step = 1 }) end
  return w
end

--- A naval group `name` of `types` at `hex` (label), side (default Allied):
--- group id, unit ids (named name.1, name.2 ...). Landing costs run from 30
--- to 120 MPs, far beyond 32.A's 15: the craft here print 150 (unit value
--- mp; opts.mp another figure); LCs and LBs carry 10 REs (opts.capacity).
function M.fleet(w, name, types, hex, side, opts)
  local units = {}
  for i, ty in ipairs(types) do
    units[i] = w.game:unit_new { name = name .. "." .. i, type = ty, side = side or "Allied",
                                 at = { "hex", w.hex(hex) }, values = { mp = (opts and opts.mp) or 150,
                                   capacity = (ty == "LC" or ty == "LB") and ((opts and opts.capacity) or 10) or nil } }
  end
  local gid = w.game:group_new { name = name, side = side or "Allied", units = units, mp_spent = 0 }
  w.groups[name] = gid
  return gid, units
end

--- A ground unit aboard `carrier`: values (re, strength, mp, reserve, classes...).
function M.troop(w, name, carrier, values, side)
  local v = { re = 1, strength = 4, mp = 8, reserve = true }
  for k, x in pairs(values or {}) do v[k] = x end
  if v.reserve == false then v.reserve = nil end
  local u = w.game:unit_new { name = name, type = v.type or "INF", side = side or "Allied", values = v }
  w.game:embark(u, carrier)
  w.units[name] = u
  return u
end

--- A ground unit standing at `hex` (label).
function M.unit_at(w, name, hex, side, values)
  local v = { re = 1, strength = 3, mp = 8 }
  for k, x in pairs(values or {}) do v[k] = x end
  if v.reserve == false then v.reserve = nil end
  local u = w.game:unit_new { name = name, type = v.type or "INF", side = side or "Axis", values = v,
                              at = { "hex", w.hex(hex) } }
  w.units[name] = u
  return u
end

--- Plan a landing at hex for units (37.C; opts.assault, opts.no_attack) and bring the game
--- to its turn: the plan's id.
function M.plan(w, hex, units, opts)
  opts = opts or {}
  local ok, id = w.act("plan_landing", { hex = w.hex(hex), units = units, assault = opts.assault,
                                         no_attack = opts.no_attack })
  assert(ok, id)
  w.game:set_global("turn", w.q("plan_field", id, "turn"))
  return id
end

--- Plan and land: true, landing id (or nil, reason). p: the land params
--- beside group and units (hex as a label).
function M.land(w, group, units, p)
  p = p or {}
  local params = { group = group, units = units, attack = p.attack, reduce = p.reduce }
  if p.hex then params.hex = w.hex(p.hex) end
  return w.act("land", params)
end

--- The rolls on table `name` (resolution records), in order.
function M.rolls(w, name)
  local out = {}
  for _, r in ipairs(w.rolls) do if r.table == name then out[#out + 1] = r end end
  return out
end

--- The modifiers of a resolution record by name: { name = amount }.
function M.mods(rec)
  local out = {}
  for _, m in ipairs(rec.modifiers) do out[m.name] = m.amount end
  return out
end

--- Whether any narration line contains `text` (plain).
function M.said(w, text)
  for _, l in ipairs(w.said) do if l:find(text, 1, true) then return true end end
  return false
end

--- A refused order: fn() -> ok, why must fail with a reason containing `pattern` (plain) and
--- leave the state hash as it was. Returns the reason.
function M.refused(w, pattern, fn)
  local before = w.game:hash()
  local ok, why = fn()
  t.ok(not ok, "refused")
  t.ok(why and why:find(pattern, 1, true), tostring(why))
  t.eq(w.game:hash(), before, "a refused order changes nothing")
  return why
end

return M

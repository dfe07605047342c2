-- tests/lua/seazone_fixture.lua — shared by the sea-zone family's tests
-- (seazone_*_test.lua; loaded with dofile, not a test file itself): the
-- rule set, a game on the showcase map scenarios/maps/seazone.map (six sea
-- zones, three territories: Homeland and Isle of the Allies... see the
-- map), units placed by area name, and helpers that act by unit names and
-- check refusals (rule id, reason, state hash unchanged).
local t = require "keel.testing"
local keel = require "keel"
local rules = require "keel.rules"
local errors = require "keel.errors"
local game_mod = require "keel.game"

local M = {}

M.MAP = "scenarios/maps/seazone.map"

--- The player-turns of the showcase's game turn: the default sequence of a set.
M.SIDES = { { side = "Opfor", power = "Russia" }, { side = "Allies", power = "USA" }, { side = "Allies", power = "UK" } }

--- The seazone rule set with its sequence of play (the family's phases; the
--- player-turns opts.sides, default M.SIDES), opts.variants: variant files;
--- opts.narrate.
function M.set(opts)
  opts = opts or {}
  local function bad(path, what) error(table.concat(path, ".") .. ": " .. what, 2) end
  local sequence = require("keel.sequence").check({ sides = opts.sides or M.SIDES }, bad)
  return rules.load { families = { "seazone" }, variants = opts.variants, narrate = opts.narrate,
                      game = { sequence = sequence, file = "tests/lua/seazone_fixture.lua" } }
end

local function area(board, name)
  for i, z in ipairs(board:zones()) do if z == name then return i end end
  error("no area named " .. tostring(name), 3)
end
M.area = area

--- A world: opts.units = { {name, type, side, area, power =, aboard =, face =, values =}, ... },
--- opts.power (whose turn; default the first unit's power), opts.phase (default combat_move),
--- opts.turn (default 1), opts.globals, opts.seed, opts.sides (the player-turns; default:
--- the world's power, then the other powers as their units come). The game is in the
--- sequence of play at that power's player-turn and phase, as if played there. Returns a
--- table with set, game, board, u (name -> id), and the helpers below; orders are given
--- by the side that is to act unless a helper is given `by`.
function M.world(opts)
  opts = opts or {}
  local said = {}
  local first = opts.units and opts.units[1]
  local power = opts.power or (first and (first.power or first[3]))
  local sides = opts.sides
  if not sides and not opts.set then
    sides = {}
    local seen = {}
    local function add(pw, side)
      if pw and not seen[pw] then seen[pw] = true; sides[#sides + 1] = { side = side, power = pw } end
    end
    for _, f in ipairs(opts.units or {}) do
      if (f.power or f[3]) == power then add(power, f[3]) end
    end
    for _, f in ipairs(opts.units or {}) do add(f.power or f[3], f[3]) end
    if #sides == 0 then sides = M.SIDES end
  end
  local set = opts.set or M.set { sides = sides, narrate = function(kind, d)
    if kind == "say" then said[#said + 1] = (d.rule.id or d.rule.family) .. ": " .. d.text end
  end }
  local board = assert(keel.board.load(M.MAP))
  local game = game_mod.new { seed = opts.seed or 1, board = board }
  local w = { set = set, game = game, board = board, u = {}, said = said }
  game.state:push_rule("setup")
  for _, f in ipairs(opts.units or {}) do
    local values = {}
    for k, v in pairs(f.values or {}) do values[k] = v end
    values.power = f.power or f[3]
    local id = game:unit_new { name = f[1], type = f[2], side = f[3], values = values, face = f.face }
    w.u[f[1]] = id
    if f[4] then game:move(id, "zone", area(board, f[4])) end
  end
  for _, f in ipairs(opts.units or {}) do
    if f.aboard then game:move(w.u[f[1]], "unit", w.u[f.aboard]) end
  end
  -- the position in the sequence of play: that power's player-turn, that phase
  local seq = set.sequence
  local pt_index, phase_i
  for i, pt in ipairs(seq.sides) do if pt.power == power and not pt_index then pt_index = i end end
  if not pt_index then error("the world's power " .. tostring(power) .. " has no player-turn in the sequence", 2) end
  local phase = opts.phase or "combat_move"
  for i, ph in ipairs(seq.phases) do if ph.name == phase then phase_i = i end end
  if not phase_i then error("no phase " .. tostring(phase) .. " in the sequence", 2) end
  game:set_turn(opts.turn or 1)
  game:set_global("seq_player_turn", pt_index)
  game:set_global("power", power)
  game:set_global("phasing", seq.sides[pt_index].side)
  game:set_global("seq_phase", phase_i)
  game:set_phase(phase)
  for k, v in pairs(opts.globals or {}) do game:set_global(k, v) end
  game.state:pop_rule()

  -- unit names in params become ids (a list of names too)
  local function ids(p)
    local out = {}
    for k, v in pairs(p or {}) do
      if type(v) == "string" and w.u[v] and k ~= "zone" and k ~= "to" and k ~= "territory" and k ~= "target" then
        out[k] = w.u[v]
      elseif type(v) == "table" and type(v[1]) == "string" and w.u[v[1]] then
        local l = {}
        for i, n in ipairs(v) do l[i] = w.u[n] or error("no unit " .. n, 3) end
        out[k] = l
      else
        out[k] = v
      end
    end
    return out
  end
  w.ids = ids

  --- the side that is to act now (the innermost window's, else the phase's)
  function w.active() return set:status(game).active[1] end
  --- the stamp of the power's turn the game is in (units.sea-units' this_turn)
  function w.stamp() return set:query(game, "this_turn") end
  -- the side giving an order: `by`, else the side to act; "scenario" is the scenario's own order
  local function side_of(by)
    if by == "scenario" then return nil end
    return by or w.active()
  end
  --- act (by the side to act, or `by`): true, ... or nil, reason, kind
  function w.act(name, p, by) return set:act(game, name, ids(p), side_of(by)) end
  --- act and require success
  function w.ok(name, p, by)
    local ok, why = set:act(game, name, ids(p), side_of(by))
    if not ok then error(("%s failed: %s"):format(name, errors.format(why)), 2) end
    return ok
  end
  --- act and require a refusal naming rule id `rule` and mentioning `text`, state unchanged
  --- (`by`: the side giving the order; a refusal of the sequence of play has the kind
  --- "side" or "phase" and `rule` nil)
  function w.refused(name, p, rule, text, by)
    local before = game:hash_hex()
    local jl = #game:journal_lines()
    local ok, why, kind = set:act(game, name, ids(p), side_of(by))
    if ok then error(("%s succeeded, expected a refusal by %s"):format(name, rule), 2) end
    why = errors.format(why)
    if rule and kind ~= "illegal" and kind ~= "vetoed" then
      error(("%s: expected illegal/vetoed, got %s: %s"):format(name, tostring(kind), why), 2)
    end
    if rule and not why:find("rule " .. rule .. " ", 1, true) then
      error(("%s: expected rule %s in the reason, got: %s"):format(name, rule, why), 2)
    end
    if text and not why:find(text, 1, true) then error(("%s: expected %q in: %s"):format(name, text, why), 2) end
    if game:hash_hex() ~= before then error(name .. ": the state changed", 2) end
    if #game:journal_lines() ~= jl then error(name .. ": the journal grew", 2) end
    return why, kind
  end
  --- pass (end_phase by the side to act) until `power`'s next player-turn has begun
  function w.to_turn_of(who)
    for _ = 1, 64 do
      w.ok("end_phase", {})
      if game:get_global("power") == who and game:get_phase() == "combat_move" then return end
    end
    error("no player-turn of " .. tostring(who) .. " came", 2)
  end
  function w.q(name, ...) return set:query(game, name, ...) end
  function w.emit(ev, data) set:emit(game, ev, data); return data end
  function w.area(name) return area(board, name) end
  --- where a unit is: an area name, "aboard <name>", "dead", "off"
  function w.where(name)
    local kind, where = game:get(w.u[name], "loc")
    if kind == "zone" then return board:zones()[where] end
    if kind == "unit" then return "aboard " .. game:get(where, "name") end
    return kind
  end
  function w.face(name) return game:get(w.u[name], "face") end
  function w.value(name, k) return game:get_value(w.u[name], k) end
  --- force the next dice faces
  function w.force(...) game.dice:force(...) end
  return w
end

M.t = t
return M

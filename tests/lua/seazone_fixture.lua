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

--- The seazone rule set (opts.variants: variant files; opts.narrate).
function M.set(opts)
  opts = opts or {}
  local set = rules.new { narrate = opts.narrate }
  set:load_family("seazone")
  for _, v in ipairs(opts.variants or {}) do set:apply_variant(v) end
  set:finalize()
  return set
end

local function area(board, name)
  for i, z in ipairs(board:zones()) do if z == name then return i end end
  error("no area named " .. tostring(name), 3)
end
M.area = area

--- A world: opts.units = { {name, type, side, area, power =, aboard =, face =, values =}, ... },
--- opts.power (whose turn; default the first unit's power), opts.phase (default combat_move),
--- opts.turn (default 1), opts.globals, opts.seed. Returns a table with set, game, board, u
--- (name -> id), and the helpers below.
function M.world(opts)
  opts = opts or {}
  local said = {}
  local set = opts.set or M.set { narrate = function(kind, d)
    if kind == "say" then said[#said + 1] = d.rule.id .. ": " .. d.text end
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
  local first = opts.units and opts.units[1]
  local power = opts.power or (first and (first.power or first[3]))
  game:set_turn(opts.turn or 1)
  game:set_global("power", power)
  for _, f in ipairs(opts.units or {}) do
    if (f.power or f[3]) == power then game:set_global("side", f[3]) break end
  end
  game:set_phase(opts.phase or "combat_move")
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

  --- act: true, ... or nil, reason, kind
  function w.act(name, p) return set:act(game, name, ids(p)) end
  --- act and require success
  function w.ok(name, p)
    local ok, why = set:act(game, name, ids(p))
    if not ok then error(("%s failed: %s"):format(name, errors.format(why)), 2) end
    return ok
  end
  --- act and require a refusal naming rule id `rule` and mentioning `text`, state unchanged
  function w.refused(name, p, rule, text)
    local before = game:hash_hex()
    local jl = #game:journal_lines()
    local ok, why, kind = set:act(game, name, ids(p))
    if ok then error(("%s succeeded, expected a refusal by %s"):format(name, rule), 2) end
    why = errors.format(why)
    if kind ~= "illegal" and kind ~= "vetoed" then error(("%s: expected illegal/vetoed, got %s: %s"):format(name, tostring(kind), why), 2) end
    if rule and not why:find("rule " .. rule .. " ", 1, true) then
      error(("%s: expected rule %s in the reason, got: %s"):format(name, rule, why), 2)
    end
    if text and not why:find(text, 1, true) then error(("%s: expected %q in: %s"):format(name, text, why), 2) end
    if game:hash_hex() ~= before then error(name .. ": the state changed", 2) end
    if #game:journal_lines() ~= jl then error(name .. ": the journal grew", 2) end
    return why
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

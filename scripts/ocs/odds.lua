--- ocs.odds — the questions `keel odds` answers for the OCS naval rules
-- (section 18): keel odds ocs:barrage [OPTIONS]. Trusted host code, beside
-- the family's tables.lua; the arithmetic is the rules' own (the query
-- barrage_strength of rule 18.3, the query barrage_effect of 18.3d), asked
-- of a rule set loaded from scripts/ocs, so there is one owner of each fact.
-- The ALT's odds under its named modifiers need no question of their own:
--   keel odds amphibious_landing_table --with close_terrain,friendly_port
local M = {}

-- the largest strength, protection or shift a question takes: far past any
-- table's last column, and small enough for every sum and product to stay exact
M.MAX_VALUE = 1000000

local function number(v, name)
  local n = tonumber(v)
  if not n then error(("--%s needs a number, got '%s'"):format(name, tostring(v)), 0) end
  if n ~= n or n < -M.MAX_VALUE or n > M.MAX_VALUE then
    error(("--%s %s: out of range -%d..%d"):format(name, tostring(v), M.MAX_VALUE, M.MAX_VALUE), 0)
  end
  return n
end

M.barrage = {
  summary = "The results of one barrage on the Barrage Table (the scenario's, or the stand-in), exactly:\n" ..
    "  --ships N       the firing ships' Barrage Strength (printed, summed)\n" ..
    "  --planes N      the firing planes' Barrage Strength (x2 against a naval target, 18.3c B)\n" ..
    "  --others N      coastal artillery's Barrage Strength\n" ..
    "  --protection P  the target ship's Protection Rating (1 when none, 18.3c C): a naval target\n" ..
    "  --ground        a ground target (ships reduced, 18.3b); --facility: a facility (no reduction)\n" ..
    "  --shift N       column shifts (18.3c A: the aircraft's distance from its base)\n" ..
    "The strength is rounded down (doc/ocs.md); below the first column the barrage has no effect.",
  usage = "keel odds ocs:barrage [--ships N] [--planes N] [--others N] [--protection P | --ground | --facility] [--shift N]",
  options = { ships = "value", planes = "value", others = "value", protection = "value", ground = "flag",
              facility = "flag", shift = "value" },
  run = function(opts)
    local rules = require "keel.rules"
    local game_mod = require "keel.game"
    local odds = require "keel.odds"
    -- the family alone (its sequence of play names no sides: a question
    -- about one barrage plays no turn)
    local set = rules.load { families = { "ocs" } }
    local game = game_mod.new { seed = 0, journal = false }
    local naval = not (opts.ground or opts.facility)
    if (opts.ground or opts.facility) and opts.protection then
      error("--protection is for a naval target; --ground and --facility are not", 0)
    end
    local spec = { ships = number(opts.ships or 0, "ships"), planes = number(opts.planes or 0, "planes"),
                   others = number(opts.others or 0, "others"), naval = naval, facility = opts.facility == true,
                   protection = opts.protection and number(opts.protection, "protection") or nil }
    local strength, exact = set:query(game, "barrage_strength", spec)
    local shift = math.tointeger(number(opts.shift or 0, "shift"))
    if not shift then error("--shift needs an integer", 0) end
    local tbl = set:table("barrage_table")
    local target = naval and ("a naval target, Protection Rating %s"):format(opts.protection or "none (1)")
      or (opts.facility and "a facility" or "ground units")
    local head = ("barrage of ships %s, planes %s, others %s at %s: strength %s -> %d"):format(
      tostring(spec.ships), tostring(spec.planes), tostring(spec.others), target,
      tostring(math.tointeger(exact) or exact), strength)
    local column, why = tbl:column_for(strength, shift)
    if not column then return head .. ("\n  %s: no effect, no roll"):format(why) end
    local o = odds.column(odds.table(tbl, 0), column)
    local function effect(r)
      if not naval then return nil end
      local ok, e = pcall(set.query, set, game, "barrage_effect", r.cell)
      if not ok then return nil end
      if e.hits > 0 then return ("%d hit%s on the ship (18.3d A)"):format(e.hits, e.hits > 1 and "s" or "") end
      if e.dg then return "DG (18.3d C)" end
      return "no effect"
    end
    return odds.format_column(o, head .. (shift ~= 0 and (", shift %d"):format(shift) or "") ..
      (" -> column %s of %s (%s)"):format(column, tbl.name, tbl.title or ""), effect)
  end,
}

return M

-- outcomes_test.lua — keel.outcomes (the exact distribution of what one
-- order does, every dice path enumerated under the real rules) and
-- `keel odds --scenario FILE --order N`.
local t = require "keel.testing"
local rules = require "keel.rules"
local game_mod = require "keel.game"
local outcomes = require "keel.outcomes"

-- the toy Rule 27 family: `bomb` rolls its table (1d6: 0-3 hits) per strike,
-- then 1dN for the NT each hit sinks
local function toy()
  local set = rules.load { families = { "toy27" }, path = { "tests/families" } }
  local g = game_mod.new { seed = 9 }
  local units = {}
  for i = 1, 3 do units[i] = g:unit_new { name = "NT " .. i, type = "NT", side = "Allied", values = { strength = 1 } } end
  local grp = g:group_new { name = "Convoy", units = units }
  return set, g, grp
end

t.test("outcomes: every dice path of an order, chances exact and summing to 1; the game is left as it was", function()
  local set, g, grp = toy()
  local hash = g:hash_hex()
  local r = assert(outcomes.enumerate(set, g, "bomb", { group = grp, strikes = 1 }))
  t.eq(g:hash_hex(), hash)
  local total = 0
  for _, o in ipairs(r.outcomes) do total = total + o.count end
  t.eq(total, r.den)
  -- 1-2: no hit (1/3); 3-4: one NT (1/3, 1/3 each); 5: two; 6: three
  local by = {}
  for _, o in ipairs(outcomes.by_type(r)) do by[o.key] = o.count end
  t.eq(by["no change"] * 3, r.den)
  t.eq(by["NT: eliminated x1"] * 3, r.den)
  t.eq(by["NT: eliminated x2"] * 6, r.den)
  t.eq(by["NT: eliminated x3"] * 6, r.den)
  t.ok(outcomes.format(r):find("by unit type:", 1, true))
end)

t.test("outcomes: a refused order gives nil and the reason; a bound on the runs", function()
  local set, g, grp = toy()
  local empty = g:group_new { name = "Empty" }
  local r, why = outcomes.enumerate(set, g, "bomb", { group = empty })
  t.eq(r, nil)
  t.ok(tostring(why):find("the group has no ships", 1, true), tostring(why))
  t.raises(function() outcomes.enumerate(set, g, "bomb", { group = grp, strikes = 3 }, { max_runs = 10 }) end,
    "too many dice paths")
end)

t.test("outcomes: keel odds --scenario FILE --order N [--set KEY=VALUE]", function()
  local status, out = t.sh(t.keel_bin .. " odds --scenario scenarios/seabox_bombing.lua --order 1")
  t.eq(status, 0, out)
  t.ok(out:find("112 dice path(s), 56 distinct outcome(s); chances over 56", 1, true), out)
  t.ok(out:find("NT 1                 eliminated                     14/56 = 1/4", 1, true), out)
  status, out = t.sh(t.keel_bin .. " odds --scenario scenarios/seabox_bombing.lua --order 1 --set hits=1")
  t.eq(status, 0, out)
  t.ok(out:find("NT: eliminated x1                                    8/8 = 1", 1, true), out)
  status, out = t.sh(t.keel_bin .. " odds --scenario scenarios/seabox_bombing.lua --order 26")
  t.ok(status == 1 and out:find("has 25 order(s); there is no order 26", 1, true), out)
  status, out = t.sh(t.keel_bin .. " odds --scenario scenarios/seabox_bombing.lua --order 1 --set hits=0")
  t.ok(status == 1 and out:find("27.A.3: bombing hits come one or more at a time, not 0", 1, true), out)
  status, out = t.sh(t.keel_bin .. " odds --order 1")
  t.ok(status == 2 and out:find("--order and --set go with --scenario FILE", 1, true), out)
end)

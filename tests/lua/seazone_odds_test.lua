-- tests/lua/seazone_odds_test.lua — exact battle odds of the sea-zone rules
-- (keel.battle_odds over the rule set's battle model; keel odds seazone:*):
-- hand-computed fractions, a big battle against the figures computed before
-- the engine was rewritten, the Surprise Strike and bombardment hit
-- distributions, the rule set's own battle played die by die against the
-- odds' first round (every branch of hits and misses), the casualty policy
-- the game declares against the odds', a Monte Carlo within its error, and
-- `keel odds seazone:battle`.
local t = require "keel.testing"
local battle_odds = require "keel.battle_odds"
local odds = battle_odds.open { families = { "seazone" } }
local F = dofile("tests/lua/seazone_fixture.lua")

local function near(got, num, den, what) t.near(got, num / den, 1e-12, what) end

-- ---- hand-computed battles ---------------------------------------------------------------------

t.test("general-combat: exact odds, destroyer against destroyer: 1/3 each way, 1/3 both lost", function()
  local r = odds.battle { attacker = "destroyer", defender = "destroyer", policy = "cheapest" }
  near(r.p["attacker wins"], 1, 3)
  near(r.p["defender holds"], 1, 3)
  near(r.p["both destroyed"], 1, 3)
  near(r.rounds, 4, 3, "expected rounds: 1/(1 - 1/4)")
end)

t.test("units.submarines.surprise-strike: exact odds, a submarine against a destroyer: its hit sinks it before it fires (1/2, 1/2)", function()
  -- a round: the sub hits (1/3) and wins; else the destroyer hits (1/2): 1/3 each, 1/3 again
  local r = odds.battle { attacker = "submarine", defender = "destroyer", policy = "cheapest" }
  near(r.p["attacker wins"], 1, 2)
  near(r.p["defender holds"], 1, 2)
  t.eq(r.p["both destroyed"], 0.0, "never both: the Surprise Strike's casualty does not fire")
end)

t.test("units.frigates.anti-sub-vessel: exact odds, a submarine against a frigate: no Surprise Strike (2/5, 2/5, 1/5)", function()
  local r = odds.battle { attacker = "submarine", defender = "frigate", policy = "cheapest" }
  near(r.p["attacker wins"], 2, 5)
  near(r.p["defender holds"], 2, 5)
  near(r.p["both destroyed"], 1, 5)
end)

t.test("units.cruisers.capital-ship: exact odds, a cruiser against a destroyer (22/25, 1/25, 2/25)", function()
  -- (CA, DD): 1/3 win damaged, 1/3 win whole, 1/6 -> (CA*, DD), 1/6 again; (CA*, DD): 2/5 both, 2/5 win, 1/5 lose
  local r = odds.battle { attacker = "cruiser", defender = "destroyer", policy = "cheapest" }
  near(r.p["attacker wins"], 22, 25)
  near(r.p["defender holds"], 1, 25)
  near(r.p["both destroyed"], 2, 25)
  local damaged = 0
  for _, o in ipairs(r.outcomes) do
    if o.result == "attacker wins" and o.attacker == "cruiser*" then damaged = damaged + o.p end
  end
  near(damaged, 2 / 5 + 1 / 5 * 2 / 5, 1, "won with the cruiser damaged: 12/25")
end)

t.test("units.aircraft-carriers.air-defense: exact odds, a destroyer against a carrier with a fighter, fighter first (1/425 attacker wins)", function()
  local r = odds.battle { attacker = "destroyer", defender = "carrier[fighter]", attacker_policy = "cheapest",
    defender_policy = "keep_carriers" }
  near(r.p["attacker wins"], 1, 425)
  near(r.p["both destroyed"], 2, 425)
  near(r.p["defender holds"], 422, 425)
  near(r.losses.defender.by_type.fighter, 8 / 17 + 1 / 17, 1, "the fighter is the first casualty")
end)

t.test("units.submarines.cannot-hit-air-units: exact odds, submarines against fighters: no side can hit the other", function()
  local r = odds.battle { attacker = "2 submarine", defender = "fighter", policy = "cheapest" }
  t.eq(r.p["no side can hit the other"], 1.0)
  t.eq(r.states, 0, "decided before the first round")
end)

t.test("units.aircraft-carriers.air-defense: exact odds, a damaged carrier's aircraft are cargo and are lost with it", function()
  local r = odds.battle { attacker = "destroyer", defender = "carrier*[fighter,fighter]", policy = "cheapest" }
  -- a destroyer (1/2) against a damaged carrier (2/3): 1/6 win, 1/3 both, 1/3 lose, 1/6 again
  near(r.p["attacker wins"], 1, 5)
  near(r.p["both destroyed"], 2, 5)
  near(r.losses.defender.by_type.fighter, 2 * 3 / 5, 1, "two fighters lost whenever the carrier is")
end)

t.test("general-combat.step-6: exact odds with a declared retreat", function()
  -- two destroyers against a cruiser; the attacker retreats when down to one unit
  local r = odds.battle { attacker = "2 destroyer", defender = "cruiser",
    attacker_policy = { order = "cheapest", retreat_at = 1 }, defender_policy = "cheapest" }
  t.ok(r.p["attacker retreats"] > 0.2, "retreats happen")
  t.near(r.total, 1.0, 1e-12, "the outcomes add up to 1")
end)

-- ---- bigger battles: the same figures as before the engine was rewritten ------------------------

-- Computed by the engine as it was before (scripts/seazone/battle_odds.lua at 8615d5e, a round
-- at a time; 14 s and 63 s on the development machine), printed with %.17g.
local BEFORE = {
  { n = 20, states = 4056,
    attacker = "6 submarine, 4 cruiser, 6 destroyer, 4 fighter",
    defender = "2 carrier[fighter,fighter], 2 cruiser*, 4 destroyer, 2 frigate, 4 submarine, 2 assault_ship[infantry]",
    p = { ["attacker wins"] = 0.60857197222473258, ["defender holds"] = 0.36676567288633455,
          ["both destroyed"] = 0.00047739414212623213, ["no side can hit the other"] = 0.024184960746806976,
          ["attacker retreats"] = 0 },
    rounds = 4.2675314719219504 },
  { n = 25, states = 7533,
    attacker = "8 submarine, 5 cruiser, 7 destroyer, 5 fighter",
    defender = "2 carrier[fighter,fighter], 3 cruiser*, 5 destroyer, 3 frigate, 5 submarine, 3 assault_ship[infantry]",
    p = { ["attacker wins"] = 0.70184300880455597, ["defender holds"] = 0.27801720717973677,
          ["both destroyed"] = 0.00023671711954479814, ["no side can hit the other"] = 0.019903066896159966,
          ["attacker retreats"] = 0 },
    rounds = 4.4286623275505272,
    losses = { attacker = { 17.923821239981969, 133.08520156435097 }, defender = { 26.036290994181723, 321.28038958564235 } } },
}

for _, b in ipairs(BEFORE) do
  t.test(("general-combat-odds-exact-%d: %d v %d mixed forces, the same odds as the engine computed before its rewrite"):format(
    b.n, b.n, b.n), function()
    local r = odds.battle { attacker = b.attacker, defender = b.defender, policy = "cheapest" }
    t.eq(r.states, b.states, "the same battle states")
    for _, k in ipairs(odds.RESULTS) do t.near(r.p[k], b.p[k], 1e-12, k) end
    t.near(r.rounds, b.rounds, 1e-11, "expected rounds")
    t.near(r.total, 1.0, 1e-12, "the outcomes add up to 1")
    for role, l in pairs(b.losses or {}) do
      t.near(r.losses[role].units, l[1], 1e-10, role .. " units lost")
      t.near(r.losses[role].cost, l[2], 1e-9, role .. " cost lost")
    end
  end)
end

t.test("general-combat-odds-exact-3: submerging submarines, a retreat, keep_carriers: every outcome adds up, the same as its Monte Carlo", function()
  local spec = { attacker = "3 submarine, cruiser, destroyer", defender = "carrier[fighter,fighter], frigate, submarine",
                 attacker_policy = { order = "cheapest", submerge = "alone", retreat_at = 2 },
                 defender_policy = { order = "keep_carriers", submerge = "first" } }
  local r = odds.battle(spec)
  t.near(r.total, 1.0, 1e-12)
  t.ok(r.p["attacker retreats"] > 0.01, "retreats happen")
  local n = 4000
  local m = odds.simulate(spec, n, 5)
  for _, k in ipairs(odds.RESULTS) do
    local p = r.p[k]
    local se = math.sqrt(p * (1 - p) / n)
    t.ok(math.abs(m.p[k] - p) <= 4 * se + 1e-12, ("%s: Monte Carlo %.4f, exact %.4f (se %.4f)"):format(k, m.p[k], p, se))
  end
end)

-- ---- the shape: the family's rule set is the odds' only source ---------------------------------------

t.test("general-combat-odds-shape-1: the casualty order the odds use is the one the rule set's battle declares", function()
  local w = F.world { power = "Russia", units = {
    { "U1", "submarine", "Opfor", "SZ 3", power = "Russia" }, { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" },
    { "DD", "destroyer", "Opfor", "SZ 3", power = "Russia" },
    { "Nimitz", "carrier", "Allies", "SZ 2", power = "USA" }, { "F1", "fighter", "Allies", nil, power = "USA", aboard = "Nimitz" },
    { "Perry", "frigate", "Allies", "SZ 2", power = "USA" } } }
  w.ok("move", { units = { "U1", "Kirov", "DD" }, path = { "SZ 2" } })
  w.ok("end_phase", {})
  w.ok("battle", { zone = "SZ 2", attacker = "cheapest", defender = "keep_carriers", rounds = 1 })
  local declared = {}
  for _, l in ipairs(w.said) do
    local order = l:match("declared casualty order: (.+)$")
    if order then declared[#declared + 1] = order end
  end
  local r = odds.battle { attacker = "submarine, cruiser, destroyer", defender = "carrier[fighter], frigate",
                          attacker_policy = "cheapest", defender_policy = "keep_carriers" }
  t.eq(declared, { table.concat(r.attacker_order, ", "), table.concat(r.defender_order, ", ") })
  t.eq(declared[2], "fighter, frigate, damage:carrier, carrier", "keep_carriers: the carrier last")
  -- and a policy the game refuses, the odds refuse with the game's reason
  local why = w.set:query(w.game, "casualty_policy_problem", { "cruiser", "destroyer" }, { order = { "destroyer" } })
  local ok, err = pcall(odds.battle, { attacker = "cruiser, destroyer", defender = "destroyer",
                                       attacker_policy = { order = { "destroyer" } }, defender_policy = "cheapest" })
  t.ok(not ok and why and tostring(err):find(why, 1, true), tostring(err))
end)

t.test("general-combat-odds-shape-2: the family folder holds only its rule files; the odds are asked of a rule set", function()
  local files = {}
  local p = io.popen("ls scripts/seazone/*.lua")
  for f in p:lines() do files[#files + 1] = f:match("([^/]+)$") end
  p:close()
  local manifest = assert(io.open("scripts/seazone/manifest.lua")):read("a")
  for _, f in ipairs(files) do
    t.ok(f == "manifest.lua" or manifest:find('"' .. f .. '"', 1, true), f .. " is a rule file of the manifest")
  end
  local set = require("keel.rules").load { families = { "navgroup" } }
  local e, why = battle_odds.for_set(set)
  t.eq(e, nil)
  t.ok(why and why:find("no rule answers the query battle_model", 1, true), tostring(why))
  local status, out = t.sh(t.keel_bin .. " odds seazone:nothing 2>&1")
  t.ok(status ~= 0 and out:find("seazone:battle, seazone:bombard, seazone:surprise_strike", 1, true), out)
end)

-- ---- single-step distributions -------------------------------------------------------------------

t.test("units.submarines.surprise-strike: the exact hits of three submarines' Surprise Strike (8/27, 4/9, 2/9, 1/27)", function()
  local o = odds.hits("surprise_strike", "3 submarine")
  t.eq(o.den, 216)
  local got = {}
  for i, r in ipairs(o.rows) do got[i] = tostring(r.p) end
  t.eq(got, { "8/27", "4/9", "2/9", "1/27" })
end)

t.test("units.cruisers.offshore-bombardment: the exact hits of two cruisers and a destroyer (1/18, 5/18, 4/9, 2/9)", function()
  local o = odds.hits("bombard", "2 cruiser, destroyer")
  local got = {}
  for i, r in ipairs(o.rows) do got[i] = r.count end
  t.eq(got, { 12, 60, 96, 48 }, "over 6^3 = 216")
  t.eq(tostring(o.rows[3].p), "4/9")
end)

t.test("units.destroyers.offshore-bombardment: a destroyer alone hits with 1/2", function()
  local o = odds.hits("bombard", "destroyer")
  t.eq(tostring(o.rows[2].p), "1/2")
end)

-- ---- the rule set's battle against the odds, die by die ----------------------------------------------

-- every first round the rule set can play (each die forced to hit or miss, branch by branch),
-- weighted by its dice; keyed like odds.first_round's outcomes
local function engine_round(make, policies)
  local acc = {}
  local function key_of(w, att_names, def_names)
    local function keys(names, role)
      local out = {}
      for _, n in ipairs(names) do
        local id = w.u[n]
        local kind = w.game:get(id, "loc")
        if kind ~= "dead" and not (role == "defender" and w.game:get_value(id, "battle_role") == nil
            and w.q("class_of", id) == "air" and w.game:get(id, "loc") == "dead") then
          local key = w.game:get(id, "type") .. (w.game:get(id, "face") == "damaged" and "*" or "")
          local cargo = {}
          for _, c in ipairs(w.game:cargo(id)) do
            -- a defending carrier's aircraft count on their own (they defend in the air)
            if not (role == "defender" and w.game:get(id, "type") == "carrier") then cargo[#cargo + 1] = w.game:get(c, "type") end
          end
          table.sort(cargo)
          if #cargo > 0 then key = key .. "[" .. table.concat(cargo, ",") .. "]" end
          out[#out + 1] = key
        end
      end
      table.sort(out)
      return table.concat(out, " ")
    end
    local result
    for _, l in ipairs(w.game:journal_lines()) do
      local r = l:match('"key":"battle_result".-"new":"([^"]+)"')
      if r then result = r end
    end
    if w.game:get_global("battle_zone") then result = "goes on" end
    return (result or "?") .. " | " .. keys(att_names, "attacker") .. " | " .. keys(def_names, "defender")
  end
  local function rolls_of(w)
    local out = {}
    for _, l in ipairs(w.game:journal_lines()) do
      if l:find('"ev":"roll"', 1, true) then
        out[#out + 1] = { forced = l:find('"forced":true', 1, true) ~= nil,
                          on = tonumber(l:match("hits on (%d) or less")) }
      end
    end
    return out
  end
  local runs = 0
  local function dfs(prefix, weight)
    local w, att, def = make()
    if #prefix > 0 then w.force(table.unpack(prefix)) end
    w.ok("battle", { zone = "SZ 2", attacker = policies[1], defender = policies[2], rounds = 1 })
    runs = runs + 1
    local rolls = rolls_of(w)
    if #rolls > #prefix then
      local on = rolls[#prefix + 1].on
      local hit, miss = {}, {}
      for i, f in ipairs(prefix) do hit[i] = f; miss[i] = f end
      hit[#prefix + 1], miss[#prefix + 1] = 1, 6
      dfs(hit, weight * on / 6)
      dfs(miss, weight * (6 - on) / 6)
    else
      local k = key_of(w, att, def)
      acc[k] = (acc[k] or 0) + weight
    end
  end
  dfs({}, 1.0)
  return acc, runs
end

local function odds_round(spec)
  local acc = {}
  for _, o in ipairs(odds.first_round(spec)) do
    local function keys(list)
      local out = {}
      for _, k in ipairs(list) do if not k:find("~", 1, true) then out[#out + 1] = k end end
      return table.concat(out, " ")
    end
    local k = (o.result or "goes on") .. " | " .. keys(o.attacker) .. " | " .. keys(o.defender)
    acc[k] = (acc[k] or 0) + o.p
  end
  return acc
end

local function same_distribution(got, want)
  local keys = {}
  for k in pairs(got) do keys[k] = true end
  for k in pairs(want) do keys[k] = true end
  local sorted = {}
  for k in pairs(keys) do sorted[#sorted + 1] = k end
  table.sort(sorted)
  for _, k in ipairs(sorted) do
    t.near(got[k] or 0, want[k] or 0, 1e-12, k)
  end
end

t.test("general-combat: the rule set's first round equals the exact odds' first round, every branch (submarines, carrier, fighter)", function()
  local set = F.set()
  local function make()
    local w = F.world { set = set, power = "Russia", units = {
      { "U1", "submarine", "Opfor", "SZ 3", power = "Russia" }, { "U2", "submarine", "Opfor", "SZ 3", power = "Russia" },
      { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia" },
      { "Nimitz", "carrier", "Allies", "SZ 2", power = "USA" }, { "F1", "fighter", "Allies", nil, power = "USA", aboard = "Nimitz" },
      { "DD", "destroyer", "Allies", "SZ 2", power = "USA" } } }
    w.ok("move", { units = { "U1", "U2", "Kirov" }, path = { "SZ 2" } })
    w.ok("end_phase", {})
    return w, { "U1", "U2", "Kirov" }, { "Nimitz", "F1", "DD" }
  end
  local got, runs = engine_round(make, { "cheapest", "cheapest" })
  t.ok(runs > 20, "many branches played")
  same_distribution(got, odds_round { attacker = "2 submarine, cruiser", defender = "carrier[fighter], destroyer", policy = "cheapest" })
end)

t.test("units.frigates.anti-sub-vessel: the rule set's first round equals the odds' (a frigate, a fighter and a damaged cruiser against a submarine, a destroyer and a loaded assault ship)", function()
  local set = F.set()
  local function make()
    local w = F.world { set = set, power = "Russia", units = {
      { "MiG", "fighter", "Opfor", "Isle", power = "Russia" }, { "Perry", "frigate", "Opfor", "SZ 3", power = "Russia" },
      { "Kirov", "cruiser", "Opfor", "SZ 3", power = "Russia", face = "damaged" },
      { "Dallas", "submarine", "Allies", "SZ 2", power = "USA" }, { "DD", "destroyer", "Allies", "SZ 2", power = "USA" },
      { "Wasp", "assault_ship", "Allies", "SZ 2", power = "USA" }, { "Inf", "infantry", "Allies", nil, power = "USA", aboard = "Wasp" } } }
    w.ok("fly", { unit = "MiG", path = { "SZ 2" } })
    w.ok("move", { units = { "Perry", "Kirov" }, path = { "SZ 2" } })
    w.ok("end_phase", {})
    return w, { "MiG", "Perry", "Kirov" }, { "Dallas", "DD", "Wasp" }
  end
  local policies = { { order = { "fighter", "frigate", "damage:cruiser", "cruiser" } }, { order = { "submarine", "assault_ship", "destroyer" } } }
  local got = engine_round(make, policies)
  same_distribution(got, odds_round { attacker = "fighter, frigate, cruiser*", defender = "submarine, destroyer, assault_ship[infantry]",
    attacker_policy = policies[1], defender_policy = policies[2] })
end)

-- ---- Monte Carlo -------------------------------------------------------------------------------------

t.test("general-combat: a Monte Carlo of the same battle lands within 4 standard errors of the exact odds", function()
  local spec = { attacker = "2 submarine, cruiser, destroyer", defender = "carrier[fighter,helicopter], frigate, submarine",
                 policy = "cheapest" }
  local r = odds.battle(spec)
  local n = 4000
  local m = odds.simulate(spec, n, 11)
  for _, k in ipairs(odds.RESULTS) do
    local p = r.p[k]
    local se = math.sqrt(p * (1 - p) / n)
    t.ok(math.abs(m.p[k] - p) <= 4 * se + 1e-12, ("%s: Monte Carlo %.4f, exact %.4f (se %.4f)"):format(k, m.p[k], p, se))
  end
end)

-- ---- keel odds --------------------------------------------------------------------------------------

t.test("units.cruisers.offshore-bombardment: keel odds seazone:bombard and seazone:battle print the exact odds", function()
  local status, out = t.sh(t.keel_bin .. " odds seazone:bombard --ships '2 cruiser, destroyer'")
  t.eq(status, 0)
  t.ok(out:find("96/216 = 4/9", 1, true), out)
  status, out = t.sh(t.keel_bin .. " odds seazone:battle --attacker cruiser --vs destroyer")
  t.eq(status, 0)
  t.ok(out:find("attacker wins%s+88.0000%%"), out)
  status, out = t.sh(t.keel_bin .. " odds seazone:surprise_strike --subs '3 submarine'")
  t.ok(status == 0 and out:find("8/216 = 1/27", 1, true), out)
  status, out = t.sh(t.keel_bin .. " odds seazone:battle --attacker cruiser --vs 'destroyer' --policy 'destroyer' 2>&1")
  t.ok(status ~= 0 and out:find("does not name cruiser", 1, true), out)
end)

-- ---- bounds: each huge force answered or refused with the limit named, within seconds -------------

t.test("general-combat-odds-bounds-1: forces past 100 units are refused before a unit is made; the limit named", function()
  local t0 = os.clock()
  local ok, err = pcall(odds.battle, { attacker = "1000000 destroyer", defender = "destroyer", policy = "cheapest" })
  t.ok(not ok and tostring(err):find("'1000000 destroyer': 1000000 units, more than the 100 of one force exact odds take", 1, true),
    tostring(err))
  ok, err = pcall(odds.battle, { attacker = "300 destroyer", defender = "300 destroyer", policy = "cheapest" })
  t.ok(not ok and tostring(err):find("more than the 100 of one force", 1, true), tostring(err))
  ok, err = pcall(odds.battle, { attacker = "60 destroyer, 30 carrier[fighter,fighter]", defender = "destroyer", policy = "cheapest" })
  t.ok(not ok and tostring(err):find("a force of more than 100 units (cargo counted)", 1, true), tostring(err))
  ok, err = pcall(odds.hits, "bombard", "9223372036854775807 cruiser")
  t.ok(not ok and tostring(err):find("9223372036854775807 units, more than the 100", 1, true), tostring(err))
  ok, err = pcall(odds.battle, { attacker = { { type = "destroyer", n = math.maxinteger } }, defender = "destroyer",
                                 policy = "cheapest" })
  t.ok(not ok and tostring(err):find("not a count 0..100", 1, true), tostring(err))
  t.ok(os.clock() - t0 < 1, "refused at once")
end)

t.test("general-combat-odds-bounds-2: a battle with more to weigh than its limit stops there and names it", function()
  local ok, err = pcall(odds.battle, { attacker = "20 destroyer", defender = "20 destroyer", policy = "cheapest", max_work = 5000 })
  t.ok(not ok, "refused")
  t.eq(tostring(err), "20 destroyer against 20 destroyer: more than 5000 battle positions and transitions to weigh, "
    .. "the limit of exact battle odds (fewer units, or a Monte Carlo estimate)")
  t.ok(odds.battle { attacker = "4 destroyer", defender = "4 destroyer", policy = "cheapest", max_work = 5000 },
    "a small battle stays under it")
end)

t.test("units.cruisers.offshore-bombardment-odds-bounds: more ships than exact odds hold: the limit named, at once", function()
  local status, out = t.sh(t.keel_bin .. " odds seazone:bombard --ships '30 cruiser'")
  t.ok(status ~= 0 and out:find("30 cruiser: 6^30 outcomes do not fit a 64-bit integer, the limit of exact odds "
    .. "(at most 24 dice of 6 sides)", 1, true), out)
  status, out = t.sh(t.keel_bin .. " odds seazone:bombard --ships '9223372036854775807 cruiser'")
  t.ok(status ~= 0 and out:find("more than the 100 of one force", 1, true), out)
  status, out = t.sh(t.keel_bin .. " odds seazone:battle --attacker '300 destroyer' --vs '300 destroyer'")
  t.ok(status ~= 0 and out:find("more than the 100 of one force", 1, true), out)
  t.ok(not out:find("%.lua:%d+"), out)
end)

-- bench/seazone_bench.lua — exact sea-battle odds (keel.battle_odds over the
-- seazone rule set; `keel odds seazone:battle`) of mixed forces at 10, 20, 25
-- and 30 units a side (issue 28), each beside
--   * the figure recorded earlier (below): the issue's, and the engine before
--     its rewrite (8615d5e) measured on this machine;
--   * a Monte Carlo of 100,000 battles of the same battle in the same run
--     (its time, and its error against the exact answer: its largest miss over
--     the results, in probability and in standard errors);
-- with the targets (20 v 20 <= 100 ms, 30 v 30 <= 1 s), and the odds against
-- those the engine computed before its rewrite (the same fractions: the
-- largest difference, doubles). The ratio is the reference's time over
-- keel's (above 1: keel is faster). CPU time, the best of five (the machine is shared).
package.path = "bench/?.lua;" .. package.path
local lib = require "lib"
local odds = require("keel.battle_odds").open { families = { "seazone" } }

local fmt = string.format
local N = 100000

-- the forces: the 10 v 10 battle scaled (the defender's carriers carry two fighters each,
-- its assault ships an infantry unit; the units aboard are not counted)
local BATTLES = {
  { n = 10, attacker = "3 submarine, 2 cruiser, 3 destroyer, 2 fighter",
    defender = "carrier[fighter,fighter], cruiser*, 2 destroyer, frigate, 2 submarine, assault_ship[infantry]" },
  { n = 20, attacker = "6 submarine, 4 cruiser, 6 destroyer, 4 fighter",
    defender = "2 carrier[fighter,fighter], 2 cruiser*, 4 destroyer, 2 frigate, 4 submarine, 2 assault_ship[infantry]",
    target = 0.100 },
  { n = 25, attacker = "8 submarine, 5 cruiser, 7 destroyer, 5 fighter",
    defender = "2 carrier[fighter,fighter], 3 cruiser*, 5 destroyer, 3 frigate, 5 submarine, 3 assault_ship[infantry]" },
  { n = 30, attacker = "9 submarine, 6 cruiser, 9 destroyer, 6 fighter",
    defender = "3 carrier[fighter,fighter], 3 cruiser*, 6 destroyer, 3 frigate, 6 submarine, 3 assault_ship[infantry]",
    target = 1.0 },
}

-- Figures recorded earlier, seconds (CPU): the issue's (issue 28, `keel odds seazone:battle`
-- with these forces; "over 120 s" at 30 v 30, so 120 s is a floor), and the engine before its
-- rewrite (8615d5e, this machine, max_work lifted: 0.25 s, 14.3 s, 63.4 s; 30 v 30 not run
-- to its end), with the odds it computed (%.17g) for the same-fractions check.
local EARLIER = {
  [10] = { issue = 0.23, before = 0.25,
           p = { 0.56883888205403532, 0.39672674049375328, 0.0027971809765653085, 0.031637196475646889, 0 } },
  [20] = { issue = 16, before = 14.3,
           p = { 0.60857197222473258, 0.36676567288633455, 0.00047739414212623213, 0.024184960746806976, 0 } },
  [25] = { issue = 106, before = 63.4,
           p = { 0.70184300880455597, 0.27801720717973677, 0.00023671711954479814, 0.019903066896159966, 0 } },
  [30] = { issue = 120 },
}

local function best_of_five(fn)
  local best, r = math.huge, nil
  for _ = 1, 5 do
    collectgarbage("collect")
    local t0 = os.clock()
    r = fn()
    best = math.min(best, os.clock() - t0)
  end
  return best, r
end

for _, b in ipairs(BATTLES) do
  local spec = { attacker = b.attacker, defender = b.defender, attacker_side = "Opfor", defender_side = "Allies",
                 policy = "cheapest" }
  local exact_s, r = best_of_five(function() return odds.battle(spec) end)
  collectgarbage("collect")
  local t0 = os.clock()
  local mc = odds.simulate(spec, N, 2024)
  local mc_s = os.clock() - t0
  local what = fmt("exact odds, %d v %d mixed", b.n, b.n)
  print(fmt("%d vs %d mixed sea battle: %s attack %s", b.n, b.n, b.attacker, b.defender))
  print(fmt("  exact: %d battle states; attacker wins %.6f, defender holds %.6f, both destroyed %.6f, no hit possible %.6f",
    r.states, r.p["attacker wins"], r.p["defender holds"], r.p["both destroyed"], r.p["no side can hit the other"]))
  local E = EARLIER[b.n]
  lib.compare(what, exact_s, b.n == 30 and "issue 28 (over)" or "issue 28", E.issue)
  if E.before then lib.compare(what, exact_s, "8615d5e", E.before) end
  lib.compare(what, exact_s, "100,000 MC battles", mc_s)
  if b.target then
    print(fmt("  target %s: %s", lib.fmt_time(b.target), exact_s <= b.target and "met" or "not met"))
  end
  if E.p then
    local diff = 0
    for i, k in ipairs(odds.RESULTS) do diff = math.max(diff, math.abs(r.p[k] - E.p[i])) end
    print(fmt("  the same odds as 8615d5e computed: largest difference %.1e (%s)", diff, diff <= 1e-12 and "same" or "DIFFERENT"))
  end
  local worst, worst_se, worst_k, se_max = 0, 0, "?", 0
  for _, k in ipairs(odds.RESULTS) do
    local p = r.p[k]
    local se = math.sqrt(p * (1 - p) / N)
    local miss = math.abs(mc.p[k] - p)
    if miss > worst then worst, worst_se, worst_k = miss, se > 0 and miss / se or 0, k end
    if se > se_max then se_max = se end
  end
  print(fmt("  monte carlo error at %d battles: largest miss %.6f (%s, %.2f standard errors); standard error up to %.6f",
    N, worst, worst_k, worst_se, se_max))
  local n_same = math.max(1, math.floor(exact_s / (mc_s / N)))
  print(fmt("  a monte carlo in the exact odds' time (%s) runs ~%d battles: standard error up to %.6f; exact error 0 "
    .. "(doubles, %.1e off 1 in total)", lib.fmt_time(exact_s), n_same, se_max * math.sqrt(N / n_same), math.abs(r.total - 1)))
end

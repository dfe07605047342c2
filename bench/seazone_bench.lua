-- bench/seazone_bench.lua — exact sea-battle odds (seazone.battle_odds) beside a
-- Monte Carlo of 100,000 battles of the same battle in the same run: the
-- time of each, and the Monte Carlo's error against the exact answer (its
-- largest miss over the results, in probability and in standard errors, and
-- the standard error a Monte Carlo would have in the exact computation's time).
local lib = require "bench.lib"
local odds = require "seazone.battle_odds"

local spec = {
  attacker = "3 submarine, 2 cruiser, 3 destroyer, 2 fighter",                                       -- 10 units
  defender = "carrier[fighter,fighter], cruiser*, 2 destroyer, frigate, 2 submarine, assault_ship[infantry]", -- 10 (+1 aboard)
  attacker_side = "Opfor", defender_side = "Allies", policy = "cheapest",
}
local N = 100000

local t0 = os.clock()
local r = odds.battle(spec)
local exact_s = os.clock() - t0

t0 = os.clock()
local mc = odds.simulate(spec, N, 2024)
local mc_s = os.clock() - t0

print(("10 vs 10 mixed sea battle: %s attack %s"):format(spec.attacker, spec.defender))
print(("  exact: %d battle states; attacker wins %.6f, defender holds %.6f, both destroyed %.6f, no hit possible %.6f"):format(
  r.states, r.p["attacker wins"], r.p["defender holds"], r.p["both destroyed"], r.p["no side can hit the other"]))
lib.compare("exact odds, 10 vs 10 (vs 100,000 MC battles)", exact_s, "monte carlo", mc_s)
local worst, worst_se, worst_k = 0, 0, "?"
local se_max = 0
for _, k in ipairs(odds.RESULTS) do
  local p = r.p[k]
  local se = math.sqrt(p * (1 - p) / N)
  local miss = math.abs(mc.p[k] - p)
  if miss > worst then worst, worst_se, worst_k = miss, se > 0 and miss / se or 0, k end
  if se > se_max then se_max = se end
end
print(("  monte carlo error at %d battles: largest miss %.6f (%s, %.2f standard errors); standard error up to %.6f"):format(
  N, worst, worst_k, worst_se, se_max))
local per_battle = mc_s / N
local n_same = math.max(1, math.floor(exact_s / per_battle))
print(("  a monte carlo in the exact odds' time (%s) runs ~%d battles: standard error up to %.6f; exact error 0 (doubles, %.1e off 1 in total)"):format(
  lib.fmt_time(exact_s), n_same, se_max * math.sqrt(N / n_same), math.abs(r.total - 1)))

--- keel.stats — the statistics a study reports (keel.lab), from sufficient
-- statistics only (counts, sums, sums of squares), so that slices of a
-- study merge exactly:
--
--   local stats = require "keel.stats"
--   stats.wilson(45, 50)                         --> 0.79, 0.95  (95% interval of a rate)
--   stats.mean_ci(n, sum, sumsq)                 --> mean, sd, lo, hi (normal interval)
--   stats.two_proportions(k1, n1, k2, n2)        --> z, p  (pooled two-proportion z-test)
--   stats.welch(n1, m1, v1, n2, m2, v2)          --> t, df, p (Welch's unequal-variance t-test)
--
-- and, for paired studies (game i of both sides from the same seed):
--
--   stats.mcnemar(n, b, c)                       --> diff, lo, hi, p (paired yes/no: exact binomial on b + c)
--   stats.paired_t(n, sum, sumsq)                --> mean, lo, hi, t, df, p (paired differences)
--   stats.signed_rank(counts)                    --> w, n, p, method (Wilcoxon, from a histogram of differences)
--   stats.holm(ps)                               --> adjusted ps (Holm 1979)
--   stats.sprt(b, c, opts)                       --> decision, llr (Wald's sequential test on discordant pairs)
--
-- Every p is two-sided. The normal and Student t distributions are computed
-- here (erfc by its continued fraction and series, the regularized
-- incomplete beta by Lentz's continued fraction, log-gamma by Lanczos), in
-- plain arithmetic: the same inputs give the same bits on one machine.
local M = {}

local sqrt, exp, log, abs, floor, huge = math.sqrt, math.exp, math.log, math.abs, math.floor, math.huge
local pi = math.pi

--- The two-sided 95% quantile of the normal distribution.
M.Z95 = 1.959963984540054
--- A difference is called significant below this p.
M.ALPHA = 0.05

-- ---- distributions -------------------------------------------------------------------

-- log Γ(x), x > 0: Lanczos (g = 7, n = 9), with the reflection for x < 0.5
local LANCZOS = { 0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
                  -176.61502916214059, 12.507343278686905, -0.13857109526572012,
                  9.9843695780195716e-6, 1.5056327351493116e-7 }
function M.log_gamma(x)
  if x < 0.5 then return log(pi / abs(math.sin(pi * x))) - M.log_gamma(1 - x) end
  x = x - 1
  local a = LANCZOS[1]
  local t = x + 7.5
  for i = 2, 9 do a = a + LANCZOS[i] / (x + i - 1) end
  return 0.5 * log(2 * pi) + (x + 0.5) * log(t) - t + log(a)
end

-- the continued fraction of the incomplete beta (Lentz), for x < (a+1)/(a+b+2)
local function betacf(a, b, x)
  local tiny = 1e-300
  local qab, qap, qam = a + b, a + 1, a - 1
  local c, d = 1, 1 - qab * x / qap
  if abs(d) < tiny then d = tiny end
  d = 1 / d
  local h = d
  for m = 1, 300 do
    local m2 = 2 * m
    local aa = m * (b - m) * x / ((qam + m2) * (a + m2))
    d = 1 + aa * d; if abs(d) < tiny then d = tiny end
    c = 1 + aa / c; if abs(c) < tiny then c = tiny end
    d = 1 / d
    h = h * d * c
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
    d = 1 + aa * d; if abs(d) < tiny then d = tiny end
    c = 1 + aa / c; if abs(c) < tiny then c = tiny end
    d = 1 / d
    local del = d * c
    h = h * del
    if abs(del - 1) < 1e-15 then break end
  end
  return h
end

--- The regularized incomplete beta function I_x(a, b).
function M.beta_inc(x, a, b)
  if x <= 0 then return 0 end
  if x >= 1 then return 1 end
  local bt = exp(M.log_gamma(a + b) - M.log_gamma(a) - M.log_gamma(b) + a * log(x) + b * log(1 - x))
  if x < (a + 1) / (a + b + 2) then return bt * betacf(a, b, x) / a end
  return 1 - bt * betacf(b, a, 1 - x) / b
end

--- erfc(x): the series for small |x|, the continued fraction beyond.
function M.erfc(x)
  if x < 0 then return 2 - M.erfc(-x) end
  if x < 2 then
    -- erf by its Maclaurin series: sum (-1)^n x^(2n+1) / (n! (2n+1))
    local sum, term, n = x, x, 0
    repeat
      n = n + 1
      term = -term * x * x / n
      local add = term / (2 * n + 1)
      sum = sum + add
    until abs(add) < 1e-17 * abs(sum) or n > 200
    return 1 - 2 / sqrt(pi) * sum
  end
  -- Lentz on erfc(x) = exp(-x²)/sqrt(pi) · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))
  local tiny = 1e-300
  local f = x
  local c, d = x, 0
  for k = 1, 300 do
    local a = k / 2
    d = x + a * d; if abs(d) < tiny then d = tiny end
    c = x + a / c; if abs(c) < tiny then c = tiny end
    d = 1 / d
    local del = c * d
    f = f * del
    if abs(del - 1) < 1e-16 then break end
  end
  return exp(-x * x) / sqrt(pi) / f
end

--- P(|Z| >= |z|) for a standard normal Z.
function M.normal_p(z) return M.erfc(abs(z) / sqrt(2)) end

--- P(|T| >= |t|) for Student's t with df degrees of freedom (df may be fractional).
function M.t_p(t, df)
  if df == huge or df > 1e7 then return M.normal_p(t) end
  return M.beta_inc(df / (df + t * t), df / 2, 0.5)
end

-- ---- intervals and tests -------------------------------------------------------------

--- The Wilson score interval of k successes in n trials (95%, or z given).
---@return number|nil lo, number|nil hi   (nil when n is 0)
function M.wilson(k, n, z)
  if n == 0 then return nil, nil end
  z = z or M.Z95
  local p = k / n
  local z2 = z * z
  local den = 1 + z2 / n
  local center = (p + z2 / (2 * n)) / den
  local half = z / den * sqrt(p * (1 - p) / n + z2 / (4 * n * n))
  local lo, hi = center - half, center + half
  if k == 0 then lo = 0 end
  if k == n then hi = 1 end
  return math.max(0, lo), math.min(1, hi)
end

--- Mean, sample variance and the normal 95% interval of the mean from n, the
--- sum and the sum of squares. Integer sums are used exactly as far as they go.
---@return number|nil mean, number|nil variance, number|nil lo, number|nil hi
function M.mean_ci(n, sum, sumsq, z)
  if n == 0 then return nil end
  local mean = sum / n
  if n < 2 then return mean, nil, nil, nil end
  local var
  if math.type(sum) == "integer" and math.type(sumsq) == "integer" then
    var = (n * sumsq - sum * sum) / (n * (n - 1))   -- exact numerator
  else
    var = (sumsq - sum * sum / n) / (n - 1)
  end
  if var < 0 then var = 0 end
  local half = (z or M.Z95) * sqrt(var / n)
  return mean, var, mean - half, mean + half
end

--- The two-proportion z-test (pooled) of k1/n1 against k2/n2.
---@return number|nil z, number|nil p
function M.two_proportions(k1, n1, k2, n2)
  if n1 == 0 or n2 == 0 then return nil, nil end
  local p1, p2 = k1 / n1, k2 / n2
  local pool = (k1 + k2) / (n1 + n2)
  local se = sqrt(pool * (1 - pool) * (1 / n1 + 1 / n2))
  if se == 0 then return 0, 1 end   -- both all or both none: no difference
  local z = (p2 - p1) / se
  return z, M.normal_p(z)
end

--- Welch's t-test of two means (unequal variances): t, the
--- Welch-Satterthwaite degrees of freedom, and the two-sided p.
---@return number|nil t, number|nil df, number|nil p
function M.welch(n1, m1, v1, n2, m2, v2)
  if n1 < 2 or n2 < 2 then return nil, nil, nil end
  local a, b = v1 / n1, v2 / n2
  local se2 = a + b
  if se2 == 0 then
    if m1 == m2 then return 0, nil, 1 end
    return (m2 > m1) and huge or -huge, nil, 0   -- no spread at all and different: certainly different
  end
  local t = (m2 - m1) / sqrt(se2)
  local df = se2 * se2 / (a * a / (n1 - 1) + b * b / (n2 - 1))
  return t, df, M.t_p(t, df)
end

-- ---- paired comparisons ---------------------------------------------------------------

--- The quantile of the standard normal distribution: the z with P(Z <= z) = q,
--- 0 < q < 1 (bisection on erfc: slow, exact to the last bits that matter).
function M.normal_quantile(q)
  if q <= 0 or q >= 1 then error("stats.normal_quantile: 0 < q < 1 expected", 2) end
  local lo, hi = -40.0, 40.0
  for _ = 1, 200 do
    local mid = (lo + hi) / 2
    if 0.5 * M.erfc(-mid / sqrt(2)) < q then lo = mid else hi = mid end
    if hi - lo < 1e-15 then break end
  end
  return (lo + hi) / 2
end

--- The exact two-sided binomial test of k successes in n trials with
--- p = 1/2: P of a count at least as far from n/2 (the tails summed through
--- the incomplete beta: P(X <= j) = I_1/2(n - j, j + 1)).
---@return number p (1 when n is 0)
function M.binomial_p(k, n)
  if n == 0 then return 1 end
  local j = math.min(k, n - k)
  if 2 * j == n then return 1 end
  return math.min(1, 2 * M.beta_inc(0.5, n - j, j + 1))
end

--- A paired yes/no comparison (McNemar): of n pairs, b are yes on the first
--- side and no on the second, c the reverse. The difference of the two
--- rates (second - first) = (c - b) / n, its 95% interval (the normal
--- interval of a paired difference of proportions), and the exact p of the
--- binomial test on the b + c discordant pairs (the concordant pairs say
--- nothing about a difference).
---@return number|nil diff, number|nil lo, number|nil hi, number|nil p
function M.mcnemar(n, b, c, z)
  if n == 0 then return nil end
  local d = (c - b) / n
  local v = (b + c) - (c - b) * (c - b) / n
  local half = (z or M.Z95) * sqrt(v > 0 and v or 0) / n
  return d, math.max(-1, d - half), math.min(1, d + half), M.binomial_p(c, b + c)
end

--- The paired t-test of n differences from their sum and sum of squares:
--- mean, its 95% interval (Student t), t, df, two-sided p. It assumes the
--- mean difference is near normal (many pairs, or differences near normal);
--- signed_rank assumes less.
---@return number|nil mean, number|nil lo, number|nil hi, number|nil t, integer|nil df, number|nil p
function M.paired_t(n, sum, sumsq)
  local mean, var = M.mean_ci(n, sum, sumsq)
  if not var then return mean end
  local df = n - 1
  local se = sqrt(var / n)
  if se == 0 then return mean, mean, mean, mean == 0 and 0 or (mean > 0 and huge or -huge), df, mean == 0 and 1 or 0 end
  local t = mean / se
  -- the 97.5% point of Student t (df): bisection on t_p
  local lo, hi = 0.0, 1000.0
  for _ = 1, 200 do
    local mid = (lo + hi) / 2
    if M.t_p(mid, df) > 1 - 0.95 then lo = mid else hi = mid end
    if hi - lo < 1e-12 then break end
  end
  local half = (lo + hi) / 2 * se
  return mean, mean - half, mean + half, t, df, M.t_p(t, df)
end

--- The Wilcoxon signed-rank test of paired differences, from their
--- histogram (difference -> number of pairs; what shards merge exactly).
--- Zero differences are left out; tied |differences| share their average
--- rank. W is the sum of the ranks of the positive differences; p is
--- two-sided: exact (the distribution of W given the ranks, every sign
--- equally likely) up to 100 non-zero pairs, else the normal approximation
--- with the tie correction and a continuity correction.
---@param counts table<number, integer>
---@return number|nil w, integer n, number p, string method ("exact" or "normal")
function M.signed_rank(counts)
  local by_abs = {}   -- |d| -> {pos, neg}
  local mags = {}
  for d, k in pairs(counts) do   -- sums and a sort below: the order of pairs() is of no account
    if d ~= 0 and k > 0 then
      local m = abs(d)
      local e = by_abs[m]
      if not e then e = { 0, 0 }; by_abs[m] = e; mags[#mags + 1] = m end
      if d > 0 then e[1] = e[1] + k else e[2] = e[2] + k end
    end
  end
  table.sort(mags)
  local n, w2, ties = 0, 0, 0   -- w2: twice W (average ranks are halves)
  local ranks2 = {}             -- twice the rank of each non-zero pair, for the exact distribution
  for _, m in ipairs(mags) do
    local e = by_abs[m]
    local t = e[1] + e[2]
    local r2 = 2 * n + t + 1    -- twice the average of ranks n+1 .. n+t
    w2 = w2 + e[1] * r2
    for _ = 1, t do ranks2[#ranks2 + 1] = r2 end
    ties = ties + (t * t * t - t)
    n = n + t
  end
  if n == 0 then return nil, 0, 1, "exact" end
  local w = w2 / 2
  local mean2 = n * (n + 1) / 2   -- twice the mean of W
  if n <= 100 then
    -- the exact distribution of 2W: each rank's sign + or - with 1/2
    local total = n * (n + 1)
    local dist = { [0] = 1.0 }
    local top = 0
    for _, r2 in ipairs(ranks2) do
      for v = top, 0, -1 do
        local pv = dist[v]
        if pv then dist[v + r2] = (dist[v + r2] or 0) + pv end
      end
      top = top + r2
      for v = 0, top do if dist[v] then dist[v] = dist[v] / 2 end end
    end
    assert(top == total)
    local dev = abs(w2 - mean2)
    local p = 0
    for v = 0, top do
      local pv = dist[v]
      if pv and abs(v - mean2) >= dev - 1e-9 then p = p + pv end
    end
    return w, n, math.min(1, p), "exact"
  end
  local var = n * (n + 1) * (2 * n + 1) / 24 - ties / 48
  if var <= 0 then return w, n, 1, "normal" end
  local dev = abs(w - mean2 / 2) - 0.5
  if dev < 0 then dev = 0 end
  return w, n, M.normal_p(dev / sqrt(var)), "normal"
end

--- Holm's step-down adjustment of a family of p-values (nil entries are
--- kept nil and not counted): each adjusted p is what to compare with the
--- error rate meant for the whole family.
---@param ps (number|nil)[]
---@return (number|nil)[]
function M.holm(ps)
  local idx = {}
  for i = 1, #ps do if ps[i] ~= nil then idx[#idx + 1] = i end end
  table.sort(idx, function(a, b) if ps[a] ~= ps[b] then return ps[a] < ps[b] end return a < b end)
  local m, out, run = #idx, {}, 0
  for rank, i in ipairs(idx) do
    local adj = math.min(1, (m - rank + 1) * ps[i])
    if adj < run then adj = run end   -- never below an earlier (smaller) p's
    run = adj
    out[i] = adj
  end
  return out
end

--- Wald's sequential probability ratio test on the discordant pairs of a
--- paired yes/no comparison (b: yes on the first side only, c: on the
--- second only). Under "no effect" a discordant pair goes either way with
--- 1/2; the effect worth finding is a share `p1` (default 0.65) of them
--- going one way. Two one-sided tests (toward the second side, toward the
--- first), each at alpha/2, so the test is two-sided (Sobel and Wald 1949):
--- "effect" when either ratio crosses its upper bound log((1-beta)/(alpha/2)),
--- "none" when both cross their lower bounds log(beta/(1-alpha/2)), nil to
--- go on. Also the log-likelihood ratios (toward the second, the first).
---@param opts? {p1?: number, alpha?: number, beta?: number}
---@return string|nil decision, number llr_second, number llr_first, number upper, number lower
function M.sprt(b, c, opts)
  opts = opts or {}
  local p1, alpha, beta = opts.p1 or 0.65, opts.alpha or M.ALPHA, opts.beta or 0.2
  local a2 = alpha / 2
  local upper, lower = log((1 - beta) / a2), log(beta / (1 - a2))
  local up, down = log(p1 / 0.5), log((1 - p1) / 0.5)
  local toward_second = c * up + b * down
  local toward_first = b * up + c * down
  local decision
  if toward_second >= upper or toward_first >= upper then decision = "effect"
  elseif toward_second <= lower and toward_first <= lower then decision = "none" end
  return decision, toward_second, toward_first, upper, lower
end

--- The discordant pairs a fixed-size study needs to find the effect sprt
--- looks for (p1) with the same error rates (two-sided alpha, power 1 -
--- beta), by the normal approximation of the binomial test: what a
--- sequential study is compared with.
---@return number
function M.fixed_discordant(opts)
  opts = opts or {}
  local p1, alpha, beta = opts.p1 or 0.65, opts.alpha or M.ALPHA, opts.beta or 0.2
  local za, zb = M.normal_quantile(1 - alpha / 2), M.normal_quantile(1 - beta)
  local x = (za * 0.5 + zb * sqrt(p1 * (1 - p1))) / (p1 - 0.5)
  return math.ceil(x * x)
end

--- A number rounded to `digits` significant digits (default 6), for reports:
--- the statistics themselves are kept exact.
function M.round(x, digits)
  if x == nil or math.type(x) == "integer" then return x end
  if x ~= x or x == huge or x == -huge then return x end
  local s = ("%." .. (digits or 6) .. "g"):format(x)
  local v = tonumber(s)
  if v == floor(v) and abs(v) < 2 ^ 53 then return math.tointeger(v) end
  return v
end

return M

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

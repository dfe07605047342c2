--- keel.odds — exact odds of dice tables and dice, in integer arithmetic.
--
--   local odds = require "keel.odds"
--   local o = odds.table(search, 1)       -- Naval Search Table, net +1
--   o.rows[1].count, o.den                -- 1, 36 (D)
--   tostring(o.rows[2].p)                 -- "1/4" (F*, 9/36)
--   odds.hits("3d6", 4)                   -- hits of 3 dice hitting on 4 or less
--
-- Every probability is a count over a common denominator (both Lua
-- integers) and a reduced fraction; the decimal is for display only. A
-- computation whose denominator would pass 2^63 raises instead of rounding.
local dice_expr = require "keel.dice_expr"
local tables = require "keel.tables"

local error, type, ipairs, pairs, tostring, setmetatable = error, type, ipairs, pairs, tostring, setmetatable
local math_type, maxinteger = math.type, math.maxinteger
local concat, sort = table.concat, table.sort

local M = {}

-- ---- integers and fractions ---------------------------------------------------------

---@param a integer
---@param b integer
---@return integer
local function gcd(a, b)
  if a < 0 then a = -a end
  if b < 0 then b = -b end
  while b ~= 0 do a, b = b, a % b end
  return a
end
M.gcd = gcd

--- a * b, raising when the product does not fit a Lua integer.
local function mul(a, b, what)
  if a ~= 0 and b ~= 0 and (a > maxinteger // b) then
    error(("exact odds overflow: %s needs more than 63 bits"):format(what or "a count"), 3)
  end
  return a * b
end
M.mul = mul

local function add(a, b, what)
  if a > maxinteger - b then
    error(("exact odds overflow: %s needs more than 63 bits"):format(what or "a count"), 3)
  end
  return a + b
end

local Fraction = {}
Fraction.__index = Fraction
Fraction.__tostring = function(f)
  if f.num == 0 then return "0" end
  if f.den == 1 then return tostring(f.num) end
  return f.num .. "/" .. f.den
end
Fraction.__eq = function(a, b) return a.num == b.num and a.den == b.den end
M.Fraction = Fraction

--- A reduced fraction num/den (den > 0).
---@param num integer
---@param den integer
function M.fraction(num, den)
  if math_type(num) ~= "integer" or math_type(den) ~= "integer" or den == 0 then
    error("odds.fraction: integers with den ~= 0 expected", 2)
  end
  if den < 0 then num, den = -num, -den end
  local g = gcd(num, den)
  if g > 1 then num, den = num // g, den // g end
  return setmetatable({ num = num, den = den }, Fraction)
end

function Fraction:decimal() return self.num / self.den end

--- "9/36 = 1/4" (or "1/36", or "0"): count over the common denominator and,
--- when it differs, the reduced fraction.
function M.format_fraction(count, den)
  if count == 0 then return "0" end
  local f = M.fraction(count, den)
  local raw = count .. "/" .. den
  if f.den == den then return raw end
  return raw .. " = " .. tostring(f)
end

-- ---- dice ----------------------------------------------------------------------------

local function parse(expr)
  if type(expr) == "table" and expr.count then return expr end
  return dice_expr.check(expr)
end

--- Exact distribution of a dice expression's total.
---@param expr string|table "2d6+1" or a parsed expression
---@return table d {expr=, den=outcomes, lo=, hi=, [total]=count ... as d.counts}
function M.expr(expr)
  local e = parse(expr)
  local counts, outcomes, lo, hi = dice_expr.distribution(e)
  local rows = {}
  for v = lo, hi do
    rows[#rows + 1] = { total = v, count = counts[v], p = M.fraction(counts[v], outcomes) }
  end
  return { expr = e.text, den = outcomes, lo = lo, hi = hi, counts = counts, rows = rows }
end

--- Normalise a modifier argument: an integer, or a distribution
--- {[modifier] = weight} (integer weights > 0). Returns a sorted list of
--- {mod, weight} and the total weight.
local function modifier_dist(mod)
  if mod == nil then return { { 0, 1 } }, 1 end
  if math_type(mod) == "integer" then return { { mod, 1 } }, 1 end
  if type(mod) ~= "table" then error("modifier: integer or {[modifier] = weight} expected", 3) end
  local list, total = {}, 0
  for m, w in pairs(mod) do
    if math_type(m) ~= "integer" or math_type(w) ~= "integer" or w < 0 then
      error("modifier distribution: integer modifiers with integer weights >= 0 expected", 3)
    end
    if w > 0 then
      list[#list + 1] = { m, w }
      total = add(total, w, "the total weight")
    end
  end
  if total == 0 then error("modifier distribution: no weight", 3) end
  sort(list, function(a, b) return a[1] < b[1] end)
  return list, total
end

local function cells_text(t, row)
  local parts = {}
  for i = 1, #t.columns do parts[i] = tostring(row.cells[i]) end
  return concat(parts, " / ")
end

--- Exact odds of each row of a dice table under a modifier total (an
--- integer) or a distribution of totals ({[total] = weight}).
---@param tbl table a dice table from keel.tables
---@param mod? integer|table
---@return table o {table=, title=, rule=, expr=, den=, rows={ {index=, range=, result=,
---   cells=, count=, p=Fraction} } in table order, results={ {result=, count=, p=} }}
function M.table(tbl, mod)
  if getmetatable(tbl) ~= tables.Table then error("odds.table: a table from keel.tables expected", 2) end
  local src = tbl:rows_table()
  if not src.dice then error(("odds.table: %s is not a dice table"):format(tbl.name), 2) end
  local counts, outcomes, lo, hi = dice_expr.distribution(src.dice)
  local mods, weight = modifier_dist(mod)
  local den = mul(outcomes, weight, "the common denominator")
  local by_row = {}
  for _, mw in ipairs(mods) do
    for v = lo, hi do
      local row = tbl:row_for(v + mw[1])
      by_row[row.index] = add(by_row[row.index] or 0, mul(counts[v], mw[2]), "a row count")
    end
  end
  local o = { table = tbl.name, title = tbl.title, rule = tbl.rule, expr = src.dice.text,
    columns = src.columns, den = den, rows = {}, results = {}, modifier = mod }
  local by_result = {}
  for i, row in ipairs(src.rows) do
    local c = by_row[i] or 0
    local text = cells_text(src, row)
    o.rows[i] = { index = i, range = tables.range_text(row.range), result = text,
      cells = row.cells, count = c, p = M.fraction(c, den) }
    local r = by_result[text]
    if not r then
      r = { result = text, count = 0 }
      by_result[text] = r
      o.results[#o.results + 1] = r
    end
    r.count = r.count + c
  end
  for _, r in ipairs(o.results) do r.p = M.fraction(r.count, den) end
  return o
end

--- Exact odds of a table under a modifier context (see Table:modifiers_for).
---@param tbl table
---@param ctx table
function M.table_for(tbl, ctx)
  local mod, applied = tbl:modifiers_for(ctx)
  local o = M.table(tbl, mod)
  o.applied = applied
  return o
end

--- The probability of one result (by its text) in odds from M.table.
---@return table Fraction
function M.result(o, text)
  for _, r in ipairs(o.results) do if r.result == text then return r.p end end
  return M.fraction(0, 1)
end

--- The odds of one column's results, from the odds of a table with named
--- columns (M.table): {table=, title=, rule=, expr=, column=, den=,
--- results={ {result=, count=, p=} } in the order the column first shows them}.
---@param o table from M.table
---@param column string
function M.column(o, column)
  local idx
  for i, c in ipairs(o.columns) do if c == column then idx = i end end
  if not idx then
    error(("odds.column: %s has no column '%s' (columns: %s)"):format(o.table, tostring(column),
      concat(o.columns, " ")), 2)
  end
  local c = { table = o.table, title = o.title, rule = o.rule, expr = o.expr, column = column, den = o.den,
              modifier = o.modifier, results = {} }
  local by = {}
  for _, row in ipairs(o.rows) do
    local text = tostring(row.cells[idx])
    local r = by[text]
    if not r then
      r = { result = text, count = 0, cell = row.cells[idx] }
      by[text] = r
      c.results[#c.results + 1] = r
    end
    r.count = r.count + row.count
  end
  for _, r in ipairs(c.results) do r.p = M.fraction(r.count, c.den) end
  return c
end

-- C(n, k) without an intermediate past the result: c * (n-k+i) / i with
-- the common factor of c and i taken out first (i / g then divides n-k+i)
local function binomial(n, k)
  if k > n - k then k = n - k end
  local c = 1
  for i = 1, k do
    local g = gcd(c, i)
    c = mul(c // g, (n - k + i) // (i // g), "a binomial coefficient")
  end
  return c
end

--- Distribution of hits when each of N dice hits on k or less.
---@param expr string|table "3d6" (no modifier)
---@param k integer hit on k or less (0..sides)
---@return table o {expr=, on=, den=, rows={ {hits=, count=, p=} }, p_hit=Fraction}
function M.hits(expr, k)
  local e = parse(expr)
  if e.modifier ~= 0 then
    error(("odds.hits: %s has a modifier; hits count dice showing %d or less, give NdS"):format(e.text, k), 2)
  end
  if math_type(k) ~= "integer" or k < 0 or k > e.sides then
    error(("odds.hits: 'on' must be an integer 0..%d"):format(e.sides), 2)
  end
  local n, s = e.count, e.sides
  if n > dice_expr.max_dice(s) then error(dice_expr.too_many(e.text, n, s), 0) end
  local den = 1
  for _ = 1, n do den = mul(den, s, "sides^dice") end
  local rows = {}
  for h = 0, n do
    local c = binomial(n, h)
    for _ = 1, h do c = mul(c, k, "a hit count") end
    for _ = 1, n - h do c = mul(c, s - k, "a hit count") end
    rows[#rows + 1] = { hits = h, count = c, p = M.fraction(c, den) }
  end
  return { expr = e.text, on = k, den = den, rows = rows, p_hit = M.fraction(k, s) }
end

--- Distribution of hits when die i (each with `sides` faces) hits on
--- thresholds[i] or less: mixed dice, as a cruiser hitting on 4 beside a
--- destroyer hitting on 3. Exact counts over sides^N.
---@param thresholds integer[] one per die, 0..sides
---@param sides? integer faces per die (6)
---@return table o {den=, on=thresholds, rows={ {hits=, count=, p=} }}
function M.hits_mixed(thresholds, sides)
  sides = sides or 6
  if math_type(sides) ~= "integer" or sides < 1 then error("odds.hits_mixed: sides must be an integer >= 1", 2) end
  if #thresholds > dice_expr.max_dice(sides) then
    error(dice_expr.too_many(("%d dice"):format(#thresholds), #thresholds, sides), 0)
  end
  local counts, den = { [0] = 1 }, 1
  for i, k in ipairs(thresholds) do
    if math_type(k) ~= "integer" or k < 0 or k > sides then
      error(("odds.hits_mixed: threshold %d must be an integer 0..%d"):format(i, sides), 2)
    end
    local nxt = {}
    for h = 0, i do
      local miss = counts[h] and mul(counts[h], sides - k, "a hit count") or 0
      local hit = counts[h - 1] and mul(counts[h - 1], k, "a hit count") or 0
      nxt[h] = add(miss, hit, "a hit count")
    end
    counts = nxt
    den = mul(den, sides, "sides^dice")
  end
  local rows = {}
  for h = 0, #thresholds do rows[#rows + 1] = { hits = h, count = counts[h], p = M.fraction(counts[h], den) } end
  return { den = den, on = thresholds, sides = sides, rows = rows }
end

-- ---- text ------------------------------------------------------------------------------

local function pct(count, den)
  return ("%8.4f%%"):format(100 * count / den)
end

local function width(s) return utf8.len(s) or #s end
local function pad(s, w) return s .. (" "):rep(w - width(s)) end

--- Lines of a table's odds, as `keel odds` prints them.
---@param o table from M.table
---@return string
function M.format_table(o)
  local mod = o.modifier
  local mtext
  if mod == nil or mod == 0 then mtext = "no modifier"
  elseif math_type(mod) == "integer" then mtext = ("modifier %+d"):format(mod)
  else
    local parts = {}
    local list = modifier_dist(mod)
    for _, mw in ipairs(list) do parts[#parts + 1] = ("%+d:%d"):format(mw[1], mw[2]) end
    mtext = "modifier distribution " .. concat(parts, " ")
  end
  local out = { ("%s (%s%s) — %s, %s"):format(o.title or o.table, o.table,
    o.rule and (", rule " .. o.rule) or "", o.expr, mtext) }
  local rw, cw = #"roll", #concat(o.columns, " / ")
  for _, r in ipairs(o.rows) do
    if width(r.range) > rw then rw = width(r.range) end
    if width(r.result) > cw then cw = width(r.result) end
  end
  out[#out + 1] = ("  %s  %s  %9s  %s"):format(pad("roll", rw), pad(concat(o.columns, " / "), cw),
    "chance", "exact")
  for _, r in ipairs(o.rows) do
    out[#out + 1] = ("  %s  %s  %s  %s"):format(pad(r.range, rw), pad(r.result, cw),
      pct(r.count, o.den), M.format_fraction(r.count, o.den))
  end
  return concat(out, "\n")
end

--- Lines of one column's odds (M.column), each result with a note when
--- `note(result)` gives one.
---@param c table from M.column
---@param heading? string a line above the results
---@param note? fun(r: table): string|nil
---@return string
function M.format_column(c, heading, note)
  local mod = c.modifier
  local mtext = (math_type(mod) == "integer" and mod ~= 0) and (", modifier %+d"):format(mod) or ""
  local out = { heading or ("%s (%s%s) — %s, column %s%s"):format(c.title or c.table, c.table,
    c.rule and (", rule " .. c.rule) or "", c.expr, c.column, mtext) }
  local w = #"result"
  for _, r in ipairs(c.results) do if width(r.result) > w then w = width(r.result) end end
  out[#out + 1] = ("  %s  %9s  %s"):format(pad("result", w), "chance", "exact")
  for _, r in ipairs(c.results) do
    local n = note and note(r)
    out[#out + 1] = ("  %s  %s  %s%s"):format(pad(r.result, w), pct(r.count, c.den),
      M.format_fraction(r.count, c.den), n and ("   " .. n) or "")
  end
  return concat(out, "\n")
end

-- Lines of a distribution: the title, then a row per o.rows entry r with
-- r[key] in a column w wide headed `label`, its chance and exact odds.
local function format_counts(o, title, label, w, key)
  local out = { title }
  out[#out + 1] = ("  %" .. w .. "s  %9s  %s"):format(label, "chance", "exact")
  for _, r in ipairs(o.rows) do
    out[#out + 1] = ("  %" .. w .. "d  %s  %s"):format(r[key], pct(r.count, o.den),
      M.format_fraction(r.count, o.den))
  end
  return concat(out, "\n")
end

--- Lines of a hit distribution.
function M.format_hits(o)
  return format_counts(o, ("%s hitting on %d or less (each die %s) — hits:"):format(o.expr, o.on,
    tostring(o.p_hit)), "hits", 4, "hits")
end

--- Lines of a dice total distribution.
function M.format_expr(o)
  return format_counts(o, ("%s — totals:"):format(o.expr), "total", 5, "total")
end

return M

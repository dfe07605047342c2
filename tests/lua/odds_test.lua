-- tests/lua/odds_test.lua — keel.odds: exact odds, checked against one
-- million simulated rolls (made in C through dice:histogram) with a
-- chi-square bound, at fixed seeds.
local t = require "keel.testing"
local keel = require "keel"
local odds = require "keel.odds"
local nt = t.family_tables("navgroup")

-- Chi-square critical value for `df` degrees of freedom at p = 1e-4
-- (Wilson-Hilferty: df * (1 - 2/(9 df) + z sqrt(2/(9 df)))^3, z = 3.719).
local function chi2_bound(df)
  local a = 2 / (9 * df)
  return df * (1 - a + 3.719 * math.sqrt(a)) ^ 3
end

-- chi-square of observed counts against exact {count, den} pairs over n trials
local function chi2(observed, expected_counts, den, n)
  local x, df = 0, -1
  for i, c in ipairs(expected_counts) do
    if c > 0 then
      local e = n * c / den
      local d = (observed[i] or 0) - e
      x = x + d * d / e
      df = df + 1
    else
      t.eq(observed[i] or 0, 0, "a result with probability 0 never comes up")
    end
  end
  return x, df
end

local N = 1000000

t.test("odds-1: exact totals of 2d6, 3d6, 1d6-1", function()
  local o = odds.expr("2d6")
  t.eq(o.den, 36)
  t.eq(o.counts[7], 6)
  t.eq(tostring(o.rows[6].p), "1/6")
  local o3 = odds.expr("3d6")
  t.eq(o3.den, 216)
  t.eq({ o3.counts[3], o3.counts[10], o3.counts[11], o3.counts[18] }, { 1, 27, 27, 1 })
  local o1 = odds.expr("1d6-1")
  t.eq({ o1.lo, o1.hi }, { 0, 5 })
  t.raises(function() odds.expr("100d1000") end, "100d1000: 1000^100 outcomes do not fit a 64-bit integer, the limit of exact odds (at most 6 dice of 1000 sides)")
end)

t.test("odds-2: exact 2d6 totals agree with 1,000,000 rolls (chi-square)", function()
  local d = keel.dice.new(20240601)
  local h = d:histogram("2d6", N, { stream = "odds-test" })
  local o = odds.expr("2d6")
  local obs, exp = {}, {}
  for i, r in ipairs(o.rows) do obs[i], exp[i] = h[r.total], r.count end
  local x, df = chi2(obs, exp, o.den, N)
  t.eq(df, 10)
  t.ok(x < chi2_bound(df), ("chi-square %.2f under %.2f"):format(x, chi2_bound(df)))
end)

t.test("32.B-search-8: Naval Search odds at +1 agree with 1,000,000 rolls (chi-square)", function()
  local s = nt.naval_search
  local o = odds.table(s, 1)
  local d = keel.dice.new(7)
  local h = d:histogram("2d6+1", N)
  local obs = {}
  for total, c in pairs(h) do
    local _, row = s:lookup(total)
    obs[row.index] = (obs[row.index] or 0) + c
  end
  local exp = {}
  for i, r in ipairs(o.rows) do exp[i] = r.count end
  local x, df = chi2(obs, exp, o.den, N)
  t.eq(df, 3)   -- S* has probability 0 at +1
  t.ok(x < chi2_bound(df), ("chi-square %.2f under %.2f"):format(x, chi2_bound(df)))
end)

t.test("37.B-effects-3: Landing Effects odds at -3 agree with 1,000,000 rolls (chi-square)", function()
  local e = nt.amphibious_landing_effects
  local o = odds.table(e, -3)
  t.eq(o.den, 6)
  local d = keel.dice.new(37)
  local h = d:histogram("1d6-3", N)
  local obs = {}
  for total, c in pairs(h) do
    local _, row = e:lookup(total)
    obs[row.index] = (obs[row.index] or 0) + c
  end
  local exp = {}
  for i, r in ipairs(o.rows) do exp[i] = r.count end
  local x, df = chi2(obs, exp, o.den, N)
  t.eq(df, 5)
  t.ok(x < chi2_bound(df), ("chi-square %.2f under %.2f"):format(x, chi2_bound(df)))
end)

t.test("odds-3: a distribution of modifier totals", function()
  -- half the time +1, half the time -1: the average of the two tables
  local s = nt.naval_search
  local o = odds.table(s, { [1] = 1, [-1] = 1 })
  t.eq(o.den, 72)
  local plus, minus = odds.table(s, 1), odds.table(s, -1)
  for i = 1, 5 do t.eq(o.rows[i].count, plus.rows[i].count + minus.rows[i].count) end
  t.eq(tostring(odds.result(o, "D")), tostring(odds.fraction(1 + 6, 72)))
  t.raises(function() odds.table(s, { [1] = -1 }) end, "weights >= 0")
  t.raises(function() odds.table(s, { [1] = 0 }) end, "no weight")
  t.raises(function() odds.table(s, 0.5) end, "integer or")
  t.raises(function() odds.table(nt.naval_mp_cost, 0) end, "not a dice table")
end)

t.test("odds-4: odds under a modifier context", function()
  local o = odds.table_for(nt.naval_search, { cargo_group = true, rough_seas = true })
  t.eq(tostring(odds.result(o, "D")), "1/36")
  t.eq(#o.applied, 2)
end)

t.test("odds-5: rows from the SUCCESS TABLE stand-in", function()
  local o = odds.table(nt.landing_craft_damage, -3)   -- an NT
  t.eq(o.den, 6)
  local got = {}
  for i, r in ipairs(o.rows) do got[i] = r.result .. " " .. tostring(r.p) end
  t.eq(got, { "D 1/2", "F* 1/6", "F 1/3", "S 0", "S* 0" })
end)

t.test("odds-6: 3 dice hitting on 4 or less (offshore bombardment)", function()
  local o = odds.hits("3d6", 4)
  local got = {}
  for i, r in ipairs(o.rows) do got[i] = r.hits .. ":" .. tostring(r.p) end
  t.eq(got, { "0:1/27", "1:2/9", "2:4/9", "3:8/27" })
  t.eq(tostring(o.p_hit), "2/3")
  -- against simulation: 30,000 rolls of 3d6 through the Lua API
  local d = keel.dice.new(139)
  local seen = { [0] = 0, 0, 0, 0 }
  local n = 30000
  for _ = 1, n do
    local _, a, b, c = d:roll("3d6", { stream = "bombard" })
    local hits = (a <= 4 and 1 or 0) + (b <= 4 and 1 or 0) + (c <= 4 and 1 or 0)
    seen[hits] = seen[hits] + 1
  end
  local obs, exp = {}, {}
  for i, r in ipairs(o.rows) do obs[i], exp[i] = seen[r.hits], r.count end
  local x, df = chi2(obs, exp, o.den, n)
  t.ok(x < chi2_bound(df), ("chi-square %.2f under %.2f"):format(x, chi2_bound(df)))
  t.eq(odds.hits("2d6", 0).rows[1].count, 36)
  t.eq(odds.hits("2d6", 6).rows[3].count, 36)
  t.raises(function() odds.hits("2d6+1", 3) end, "has a modifier")
  t.raises(function() odds.hits("2d6", 7) end, "0..6")
end)

t.test("odds-7: fractions are reduced and exact", function()
  t.eq(tostring(odds.fraction(9, 36)), "1/4")
  t.eq(tostring(odds.fraction(0, 36)), "0")
  t.eq(tostring(odds.fraction(36, 36)), "1")
  t.eq(tostring(odds.fraction(3, -6)), "-1/2")
  t.eq(odds.format_fraction(9, 36), "9/36 = 1/4")
  t.eq(odds.format_fraction(1, 36), "1/36")
  t.eq(odds.format_fraction(0, 36), "0")
  t.raises(function() odds.mul(math.maxinteger, 2) end, "overflow")
end)

t.test("odds-8: `keel odds` prints exact odds of a table, of hits, of a total", function()
  local cli = require "keel.cli"
  local out = {}
  local real_print = print
  print = function(...) out[#out + 1] = table.concat({ ... }, "\t") end   -- luacheck: ignore
  local ok, err = pcall(function()
    t.eq(cli.command("odds").run { "naval_search", "--mod", "1" }, 0)
    t.eq(cli.command("odds").run { "scripts/navgroup/tables/landing_craft_damage.tbl", "--dist=-1:1,0:2,1:1" }, 0)
    t.eq(cli.command("odds").run { "--hits", "3d6", "--on", "4" }, 0)
    t.eq(cli.command("odds").run { "2d6+1" }, 0)
  end)
  print = real_print   -- luacheck: ignore
  assert(ok, err)
  local text = table.concat(out, "\n")
  t.ok(text:find("3 or less  D         2.7778%  1/36", 1, true), "D at +1: " .. text)
  t.ok(text:find("4-6        F*       25.0000%  9/36 = 1/4", 1, true), "F* at +1")
  t.ok(text:find("14+        S*        0.0000%  0", 1, true), "S* at +1")
  t.ok(text:find("modifier distribution -1:1 +0:2 +1:1", 1, true), "distribution")
  t.ok(text:find("0 or less  D         4.1667%  1/24", 1, true), "landing craft D")
  t.ok(text:find("2   44.4444%  96/216 = 4/9", 1, true), "two hits")
  t.ok(text:find("13    2.7778%  1/36", 1, true), "2d6+1 tops at 13")
  t.raises(function() cli.command("odds").run { "--hits", "3d6" } end, "needs --on")
  t.raises(function() cli.command("odds").run { "naval_search", "--mod", "x" } end, "needs an integer")
  t.raises(function() cli.command("odds").run { "nope" } end, "no table named 'nope'")
  t.raises(function() cli.command("odds").run { "naval_mp_cost" } end, "not a dice table")
  t.raises(function() cli.command("odds").run { "scripts/navgroup/tables/landing_craft_damage.tbl",
    "--table", "zzz" } end, "no table named 'zzz'")
  t.ok(nt.naval_search, "the set's table intact")
end)

t.test("odds-9: one column's results (odds.column), by name or by a strength's range (--column, --strength, --shift); --with names modifiers", function()
  local b = t.family_tables("ocs").barrage_table
  local c = odds.column(odds.table(b, 0), "10+")
  t.eq({ c.results[1].result, c.results[1].count, c.results[2].result, c.results[2].count, c.results[3].count },
    { "DG", 21, "1", 14, 1 })
  t.eq(tostring(c.results[2].p), "7/18")
  t.raises(function() odds.column(odds.table(b, 0), "11+") end, "has no column '11+'")
  local cli = require "keel.cli"
  local out = {}
  local real_print = print
  print = function(...) out[#out + 1] = table.concat({ ... }, "\t") end   -- luacheck: ignore
  local ok, err = pcall(function()
    t.eq(cli.command("odds").run { "barrage_table", "--strength", "7", "--shift", "-1" }, 0)
    t.eq(cli.command("odds").run { "barrage_table", "--strength", "0" }, 0)
    t.eq(cli.command("odds").run { "amphibious_landing_table", "--with", "mountain_terrain,friendly_port" }, 0)
  end)
  print = real_print   -- luacheck: ignore
  assert(ok, err)
  local text = table.concat(out, "\n")
  t.ok(text:find("column 3-5", 1, true) and text:find("DG       38.8889%  14/36 = 7/18", 1, true), text)
  t.ok(text:find("strength 0 is below the first column (1-2): no effect", 1, true), text)
  t.ok(text:find("modifier -2", 1, true) and text:find("11+        NE        0.0000%  0", 1, true), text)
  t.raises(function() cli.command("odds").run { "amphibious_landing_table", "--with", "stromy" } end, "no modifier named stromy")
end)

t.test("odds-hits-mixed: a die hitting on 4 beside one hitting on 3 (hand-computed over 36)", function()
  local o = odds.hits_mixed({ 4, 3 })
  t.eq(o.den, 36)
  -- none: 2*3 = 6; one: 4*3 + 2*3 = 18; two: 4*3 = 12
  t.eq({ o.rows[1].count, o.rows[2].count, o.rows[3].count }, { 6, 18, 12 })
  t.eq(tostring(o.rows[3].p), "1/3")
  local same = odds.hits("3d6", 2)
  local mixed = odds.hits_mixed({ 2, 2, 2 })
  for i = 1, 4 do t.eq(mixed.rows[i].count, same.rows[i].count) end
  t.ok(not pcall(odds.hits_mixed, { 7 }), "a threshold past the die's faces is refused")
end)

-- ---- bounds: every huge input answered or refused, the limit named, within seconds ----------

-- `keel odds ARGS` in a process: its exit status, its output, the seconds it took
local function keel_odds(args)
  local t0 = os.clock()
  local status, out = t.sh(t.keel_bin .. " odds " .. args)
  return status, out, os.clock() - t0
end

-- the output names no position inside keel's own files and holds no traceback
local function no_internals(out)
  t.ok(not out:find("%.lua:%d+"), "no position inside keel's files: " .. out)
  t.ok(not out:find("traceback", 1, true), "no traceback: " .. out)
end

t.test("odds-bounds-1: 1000d6 is refused with the dice expression's bound, not 'not a dice expression'", function()
  local status, out = keel_odds("1000d6")
  t.ok(status ~= 0, out)
  t.ok(out:find('dice expression "1000d6": column 1: dice count 1000 out of range 1..100', 1, true), out)
  t.ok(not out:find("not a dice expression", 1, true), out)
  status, out = keel_odds("salvo")
  t.ok(status ~= 0 and out:find("no table named 'salvo' in the rule families, and it is not a dice expression", 1, true),
    "a name that is no dice is still a missing table: " .. out)
  status, out = keel_odds("2d6x")
  t.ok(status ~= 0 and out:find('dice expression "2d6x": column 4: expected the end', 1, true), out)
end)

t.test("odds-bounds-2: too many dice for exact odds: the input and the limit named, before any work", function()
  local status, out = keel_odds("--hits 100d1000 --on 999")
  t.ok(status ~= 0, out)
  t.ok(out:find("100d1000: 1000^100 outcomes do not fit a 64-bit integer, the limit of exact odds "
    .. "(at most 6 dice of 1000 sides)", 1, true), out)
  no_internals(out)
  status, out = keel_odds("100d6")
  t.ok(status ~= 0 and out:find("100d6: 6^100 outcomes do not fit a 64-bit integer", 1, true), out)
  no_internals(out)
  status, out = keel_odds("--hits 3d6 --on 9")
  t.ok(status ~= 0 and out:find("--on 9: a die of 3d6 hits on 0..6", 1, true), out)
  no_internals(out)
  t.raises(function() odds.hits("63d2", 1) end, "at most 62 dice of 2 sides")
  t.raises(function() odds.hits_mixed({ 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1 }) end,
    "25 dice: 6^25 outcomes do not fit a 64-bit integer, the limit of exact odds (at most 24 dice of 6 sides)")
end)

t.test("odds-bounds-3: at the limit the odds are exact: 62 coins (C(62,31) needs no intermediate past 2^63)", function()
  local o = odds.hits("62d2", 1)
  t.eq(o.den, 1 << 62)
  t.eq(o.rows[32].count, 465428353255261088, "C(62, 31)")
  t.eq(o.rows[63].count, 1)
  local sum = 0
  for _, r in ipairs(o.rows) do sum = sum + r.count end
  t.eq(sum, 1 << 62)
end)

t.test("odds-bounds-4: a shift of 2^63-1 (or -2^63) clamps to the last (first) column; it does not wrap", function()
  local b = t.family_tables("ocs").barrage_table
  local last = b.columns[#b.columns]
  t.eq({ b:column_for(7, math.maxinteger) }, { last, #b.columns, true })
  t.eq({ b:column_for(7, math.mininteger) }, { b.columns[1], 1, true })
  t.eq({ b:column_for(7, 0) }, { "6-9", 3, false })
  local status, out = keel_odds("barrage_table --strength 7 --shift 9223372036854775807")
  t.eq(status, 0, out)
  t.ok(out:find("column " .. last, 1, true), out)
end)

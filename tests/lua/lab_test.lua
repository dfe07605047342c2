-- lab_test.lua — the variant lab (keel.lab, `keel lab`, `keel run --variant
-- --seed`): seeds from a master seed, the same report for the same master
-- seed however the games are cut (jobs, shards + merge, byte for byte), a
-- table row changed by a variant showing as the difference it makes, failed
-- games counted with seeds that replay alone. Few games each (the showcase
-- plays in tens of milliseconds).
local t = require "keel.testing"
local lab = require "keel.lab"
local lab_game = require "keel.lab_game"
local lab_report = require "keel.lab_report"
local stats = require "keel.stats"
local json = require "keel.json"
local keel_bin, sh = t.keel_bin, t.sh

local SUEZ = "scenarios/suez_1942.lua"
local SEARCH = "tests/families/variants/lab_search_7_10.lua"
local UNLUCKY = "tests/families/variants/lab_unlucky_start.lua"

local tmp = t.tmpdir()

local function study(games, master, sides)
  local s = lab.new { scenario = SUEZ, games = games, master = master, sides = sides }
  return lab.run(s, { jobs = 1 })
end

-- the report's entry for a rule or row key on each side
local function entry(rep, what, key)
  for _, e in ipairs(rep[what]) do if e.key == key then return e end end
end

-- one CLI study of the Suez showcase, base against the 7-10 search house rule,
-- shared by the tests that read it (games: 12, master seed 5, two jobs)
local cli_file
local function cli_study()
  if cli_file then return cli_file end
  cli_file = tmp .. "/single.json"
  local st, out = sh(("%s lab %s --scripted --games 12 --seed 5 --variant %s --jobs 2 --json %s --quiet"):format(
    keel_bin, SUEZ, SEARCH, cli_file))
  t.eq(st, 0, out)
  return cli_file
end

t.test("lab-1: seeds come from the master seed alone (SplitMix64, 31 bits); slices cover every game once", function()
  -- SplitMix64's first outputs for state 0 are known: 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4
  t.eq(lab.seed(0, 1), 0xE220A8397B1DCDAF >> 33)
  t.eq(lab.seed(0, 2), 0x6E789E6AA1B965F4 >> 33)
  local seen = {}
  for i = 1, 1000 do
    local s = lab.seed(42, i)
    t.ok(math.type(s) == "integer" and s >= 0 and s < 2 ^ 31, "seed in 0..2^31-1")
    t.ok(not seen[s], "seeds differ")
    seen[s] = true
    t.eq(lab.seed(42, i), s)
  end
  t.ok(lab.seed(43, 1) ~= lab.seed(42, 1))
  for _, n in ipairs { 1, 7, 12, 100 } do
    for _, parts in ipairs { 1, 3, 8 } do
      local next_game = 1
      for i = 1, parts do
        local a, b = lab.slice(n, i, parts)
        t.eq(a, next_game, ("slice %d/%d of %d starts where the last ended"):format(i, parts, n))
        next_game = b + 1
      end
      t.eq(next_game, n + 1)
    end
  end
end)

t.test("lab-2: the same master seed gives the same report (in this process, and from keel lab with workers)", function()
  local a = lab.encode(study(12, 5, { { name = "base" }, { name = "variant", variants = { SEARCH } } }))
  local b = lab.encode(study(12, 5, { { name = "base" }, { name = "variant", variants = { SEARCH } } }))
  t.eq(a, b)
  t.eq(t.read_file(cli_study()), a, "keel lab --jobs 2 writes the same bytes")
  local c = lab.encode(study(12, 6, { { name = "base" }, { name = "variant", variants = { SEARCH } } }))
  t.ok(c ~= a, "another master seed, another study")
  local doc = json.decode(a)
  t.eq(doc.games, 12)
  t.eq(doc.master_seed, 5)
  t.eq(doc.seeds, lab.SEEDS)
  t.eq(doc.complete, true)
  t.eq(doc.sides[1].played, 12)
  t.eq(doc.sides[2].variants, { SEARCH })
end)

t.test("lab-3: shards merged equal the single run, byte for byte; bad merges are refused", function()
  local single = t.read_file(cli_study())
  local files = {}
  for i = 1, 3 do
    files[i] = ("%s/shard%d.json"):format(tmp, i)
    local st, out = sh(("%s lab %s --scripted --games 12 --seed 5 --variant %s --shard %d/3 --jobs 1 --json %s --quiet"):format(
      keel_bin, SUEZ, SEARCH, i, files[i]))
    t.eq(st, 0, out)
    local doc = json.decode(t.read_file(files[i]))
    t.eq(doc.complete, false)
    t.eq(doc.have, { i })
    t.eq(doc.sides[1].played, 4, "a shard of 12 games in 3 plays 4")
  end
  local merged = tmp .. "/merged.json"
  local st, out = sh(("%s lab merge %s %s %s --json %s --quiet"):format(keel_bin, files[3], files[1], files[2], merged))
  t.eq(st, 0, out)
  t.eq(t.read_file(merged), single)
  -- two shards first, then the third with that: the same again
  local part = tmp .. "/part.json"
  t.eq((sh(("%s lab merge %s %s --json %s --quiet"):format(keel_bin, files[1], files[2], part))), 0)
  t.eq(json.decode(t.read_file(part)).have, { 1, 2 })
  t.eq((sh(("%s lab merge %s %s --json %s --quiet"):format(keel_bin, part, files[3], merged))), 0)
  t.eq(t.read_file(merged), single)
  -- the merge's table is the single run's table
  local _, a = sh(("%s lab merge %s"):format(keel_bin, merged))
  local _, b = sh(("%s lab merge %s"):format(keel_bin, cli_study()))
  t.eq(a, b)
  st, out = sh(("%s lab merge %s %s"):format(keel_bin, files[1], files[1]))
  t.eq(st, 1)
  t.ok(out:find("shard 1/3 is there twice", 1, true), out)
  local other = tmp .. "/other.json"
  t.eq((sh(("%s lab %s --scripted --games 12 --seed 6 --variant %s --shard 2/3 --jobs 1 --json %s --quiet"):format(
    keel_bin, SUEZ, SEARCH, other))), 0)
  st, out = sh(("%s lab merge %s %s"):format(keel_bin, files[1], other))
  t.eq(st, 1)
  t.ok(out:find("master seed 6, not 5", 1, true), out)
end)

t.test("lab-4: a variant changing a Naval Search Table row (32.B) shows as the difference it makes", function()
  local s = lab.decode(t.read_file(cli_study()))
  local rep = lab.report(s)
  local f = entry(rep, "rows", "naval_search 7-10: F")
  local sx = entry(rep, "rows", "naval_search 7-10: S")
  t.ok(f and sx, "both readings of the 7-10 row are listed")
  -- base: 7-10 is a failure, and never a success; the variant: the reverse
  t.ok(f.sides[1].games.count > 6, "7-10: F comes up in most base games")
  t.eq(f.sides[2].games.count, 0)
  t.eq(sx.sides[1].games.count, 0)
  t.eq(sx.sides[2].games.count, f.sides[1].games.count, "the same seeds: the same games reach 7-10 first")
  t.ok(f.diff.significant and sx.diff.significant, "both differences are significant")
  t.ok(f.diff.games.p < 0.001 and f.diff.games.test == "two-proportion z")
  t.ok(f.diff.mean.delta < 0 and sx.diff.mean.delta > 0)
  t.eq(f.diff.mean.test, "Welch t")
  -- the rows the variant leaves alone come up as often on both sides until the games part ways
  local d = entry(rep, "rows", "naval_search 3 or less: D")
  t.ok(d == nil or not d.diff.games.significant)
  -- every active rule is listed, those that never fired too; and every row of a table that came up
  t.ok(#s.sides[1].rule_keys > 10, "the rule set's rules are known")
  for _, key in ipairs(s.sides[1].rule_keys) do t.ok(entry(rep, "rules", key), key) end
  for _, key in ipairs(s.sides[1].row_keys) do
    if key:match("^naval_search ") then t.ok(entry(rep, "rows", key), key) end
  end
  -- the table says so
  local text = lab_report.text(s)
  t.ok(text:find("naval_search 7-10: S", 1, true), text)
  t.ok(text:find("%+%d%.%d%d %* p"), "a significant difference is starred")
  t.ok(text:find("two-proportion z-test for rates, Welch's t-test for means", 1, true))
end)

t.test("lab-5: a failing game is counted with its seed, the study goes on, and the seed replays alone", function()
  local s = study(20, 1, { { name = "base", variants = { UNLUCKY } } })
  local side = s.sides[1]
  t.eq(side.played, 20)
  t.ok(#side.failures >= 1, "a 6 comes up at the start of some of 20 games")
  t.ok(#side.failures < 20, "and not in all of them")
  t.eq(side.completed + #side.failures, 20)
  local failed = {}
  for _, f in ipairs(side.failures) do
    t.eq(f.seed, lab.seed(1, f.game))
    t.eq(f.kind, "error")
    t.eq(f.order, 1)
    t.ok(f.message:find("unlucky start: rolled a 6", 1, true), f.message)
    t.ok(f.message:find("rule H.1", 1, true), f.message)
    failed[f.game] = true
  end
  -- a failed game alone, with keel run
  local f = side.failures[1]
  local st, out = sh(("%s run %s --variant %s --seed %d --quiet"):format(keel_bin, SUEZ, UNLUCKY, f.seed))
  t.eq(st, 1)
  t.ok(out:find("unlucky start: rolled a 6", 1, true), out)
  -- a game of the study that did not fail does not fail alone either
  for g = 1, 20 do
    if not failed[g] then
      out = select(2, sh(("%s run %s --variant %s --seed %d --quiet"):format(keel_bin, SUEZ, UNLUCKY, lab.seed(1, g))))
      t.ok(not out:find("unlucky start", 1, true), out)
      break
    end
  end
  -- the report lists it with the command that replays it
  local text = lab_report.text(s)
  t.ok(text:find(("base game %d, seed %d: error in order 1"):format(f.game, f.seed), 1, true), text)
  t.ok(text:find(lab.replay_command(s, 1, f.seed), 1, true), text)
  t.eq(lab.replay_command(s, 1, 7), "keel run 'scenarios/suez_1942.lua' --variant 'tests/families/variants/lab_unlucky_start.lua' --seed 7")
  local doc = json.decode(lab.encode(s))
  t.eq(doc.sides[1].failed, #side.failures)
  t.eq(doc.sides[1].failures[1].replay, lab.replay_command(s, 1, f.seed))
end)

t.test("lab-14: a rule's message that is not UTF-8: the JSON result is valid UTF-8 and reads back", function()
  local s = study(2, 3, { { name = "base", variants = { "tests/families/variants/lab_bad_bytes.lua" } } })
  t.eq(#s.sides[1].failures, 2)
  t.ok(s.sides[1].failures[1].message:find("\xff\xfe", 1, true), "the message as the rule raised it")
  local text = lab.encode(s)
  t.ok(utf8.len(text) ~= nil, "the result is valid UTF-8")
  t.ok(text:find("no start: \u{FFFD}\u{FFFD}\u{FFFD} here", 1, true), "each bad byte written U+FFFD")
  local back = lab.decode(text, "r.json")
  t.eq(back.sides[1].failures[2].message, (s.sides[1].failures[2].message:gsub("[\xfe\xff\xc3]", "\u{FFFD}")))
  t.eq(lab.encode(back), text, "read back and written again: the same bytes")
end)

t.test("lab-5b: a rule only the variant has is listed as not in the base's rules", function()
  local s = study(2, 1, { { name = "base" }, { name = "variant", variants = { UNLUCKY } } })
  local h = entry(lab.report(s), "rules", "H.1")
  t.ok(h, "H.1 is listed")
  t.eq(h.sides[1].absent, true)
  t.eq(h.sides[2].absent, nil)
  t.ok(lab_report.text(s):find("H.1%s+%(not in its rules%)"))
end)

t.test("lab-6: a worker process that dies: its games are counted as failed, with their seeds", function()
  local s = lab.new { scenario = SUEZ, games = 4, master = 3, sides = { { name = "base" } } }
  lab.run(s, { jobs = 2, program = "false" })   -- a 'keel' that does nothing
  t.eq(s.sides[1].played, 4)
  t.eq(#s.sides[1].failures, 4)
  for i, f in ipairs(s.sides[1].failures) do
    t.eq(f.game, i)
    t.eq(f.seed, lab.seed(3, i))
    t.eq(f.kind, "worker")
  end
end)

t.test("lab-7: outcomes: the scenario's outcomes field is checked and read at the end of each game", function()
  local s = lab.decode(t.read_file(cli_study()))
  local names = {}
  for i, d in ipairs(s.outcomes) do names[i] = d.name end
  t.eq(names, { "canal", "combats", "sunk", "vp" })
  t.eq(s.sides[1].outcomes.vp, { ["15"] = 12 }, "the showcase always ends at 15 VPs (the canal closed for good)")
  t.eq(s.sides[1].outcomes.canal, { ['"permanently closed"'] = 12 })
  t.eq(s.sides[1].outcomes.sunk, { ["0"] = 12 })
  local rep = lab.report(s)
  t.eq(rep.outcomes[4].numeric, true)
  t.eq(rep.outcomes[4].sides[1].mean, 15)
  t.eq(rep.outcomes[1].numeric, false)
  t.eq(rep.outcomes[1].distribution[1].value, "permanently closed")
  -- mistakes name the file, the outcome and what was expected
  local function defs(o) return lab_game.outcome_defs { file = "x.lua", outcomes = o } end
  t.raises(function() defs { vp = { global = "vp", unit = "Warspite" } } end, "x.lua: outcomes.vp: one of global, keyed, count, units")
  t.raises(function() defs { vp = { keyed = "vp", key = { 1, 2, 3, 4 } } } end, "key of 1 to 3 parts")
  t.eq(defs { vp = { keyed = "vp", key = "Allied" } }[1].key, { "Allied" })
  t.raises(function() defs { vp = {} } end, "says what it reads")
  t.raises(function() defs { vp = { global = "vp", colour = 1 } } end, "unknown field 'colour'")
  t.raises(function() defs { n = { units = { colour = "red" } } } end, "no unit field 'colour'")
  t.raises(function() defs { n = { unit = "Warspite" } } end, "one field = ... or value = ...")
  t.raises(function() defs { ["a b"] = { global = "x" } } end, "a word")
  local d = defs { n = { units = { side = "Axis", loc = { "hex", "port" } }, sum = "hits" } }
  t.eq(d[1].units, { loc = { "hex", "port" }, side = { "Axis" } })
  t.eq(d[1].sum, "hits")
  -- read on a game: units counted by a filter, a unit's field, a global, a group's value
  local scenario = require "keel.scenario"
  local run = scenario.start(scenario.load(SUEZ))
  run:play_all()
  local function value(o) return lab_game.outcome_value(defs { x = o }[1], run) end
  t.eq(value { units = { side = "Axis" } }, 3)
  t.eq(value { units = { side = "Allied", type = "NT" } }, 2)
  t.eq(value { units = { side = "Axis" }, sum = "hits" }, 0)
  t.eq(value { unit = "Littorio", field = "loc" }, "hex")
  t.eq(value { unit = "Afrika Korps", value = "supply" }, "regular")
  t.eq(value { global = "suez" }, "permanently closed")
  t.eq(value { keyed = "vp", key = "Allied" }, 15)
  t.eq(value { keyed = "vp", key = { "Axis" } }, nil)
  t.eq(value { group = "Nobody", key = "found" }, nil)
end)

t.test("lab-8: statistics: Wilson intervals, normal means, z and Welch tests against known values", function()
  local lo, hi = stats.wilson(45, 50)
  t.near(lo, 0.7864, 1e-4)
  t.near(hi, 0.9565, 1e-4)
  lo, hi = stats.wilson(0, 20)
  t.eq(lo, 0)
  t.near(hi, 0.1611, 1e-4)
  t.eq(stats.wilson(0, 0), nil)
  local mean, var, mlo, mhi = stats.mean_ci(4, 10, 30)   -- 1, 2, 3, 4
  t.eq(mean, 2.5)
  t.near(var, 5 / 3, 1e-12)
  t.near(mlo, 2.5 - stats.Z95 * math.sqrt(5 / 12), 1e-12)
  t.near(mhi, 2.5 + stats.Z95 * math.sqrt(5 / 12), 1e-12)
  t.near(stats.normal_p(1.959963984540054), 0.05, 1e-12)
  t.near(stats.t_p(2.0, 10), 0.0733880347707, 1e-10)   -- Student t, two-sided
  t.near(stats.t_p(1.0, 1), 0.5, 1e-12)
  t.near(stats.erfc(3), 2.209049699858544e-05, 1e-18)
  local z, p = stats.two_proportions(30, 100, 45, 100)
  t.near(z, 2.1909, 1e-4)
  t.near(p, 0.02846, 1e-5)
  t.eq(select(2, stats.two_proportions(10, 10, 12, 12)), 1)
  local tt, df, wp = stats.welch(10, 5, 4, 12, 7, 9)
  t.near(tt, 1.86501, 1e-5)
  t.near(df, 19.1905, 1e-4)
  t.near(wp, 0.07755, 1e-5)
  t.eq(select(3, stats.welch(5, 1, 0, 5, 1, 0)), 1)
  t.eq(select(3, stats.welch(5, 1, 0, 5, 2, 0)), 0)
end)

t.test("30-paired-stats: exact binomial, McNemar, paired t, signed rank, Holm, SPRT against known values", function()
  -- the exact binomial test (sums of binomial coefficients, worked apart)
  t.near(stats.binomial_p(2, 12), 0.03857421875, 1e-12)
  t.near(stats.binomial_p(12, 20), 0.5034446716308594, 1e-12)
  t.near(stats.binomial_p(30, 100), 7.85013964559367e-05, 1e-15)
  t.eq(stats.binomial_p(5, 10), 1)
  t.eq(stats.binomial_p(0, 0), 1)
  -- McNemar: 100 pairs, 4 yes on the first only, 14 on the second only
  local d, lo, hi, p = stats.mcnemar(100, 4, 14)
  t.near(d, 0.10, 1e-12)
  local half = stats.Z95 * math.sqrt(18 - 100 / 100) / 100
  t.near(lo, 0.10 - half, 1e-12)
  t.near(hi, 0.10 + half, 1e-12)
  t.near(p, stats.binomial_p(14, 18), 1e-15)
  t.near(p, 0.030883789, 1e-9)
  -- paired t: differences 1, 2, 3, 4, 10 (mean 4, variance 12.5); t(0.975, 4) = 2.7764451051977987
  local mean, tlo, thi, tt, df, tp = stats.paired_t(5, 20, 130)
  t.eq(mean, 4)
  t.near(thi - mean, 2.7764451051977987 * math.sqrt(12.5 / 5), 1e-9)
  t.near(mean - tlo, thi - mean, 1e-12)
  t.near(tt, 4 / math.sqrt(2.5), 1e-12)
  t.eq(df, 4)
  t.near(tp, stats.t_p(tt, 4), 1e-15)
  -- Wilcoxon signed rank, exact with ties and a zero (enumerated apart over the 2^9 signs)
  local w, n, wp, how = stats.signed_rank { [1.5] = 1, [-0.5] = 1, [2] = 1, [3] = 2, [-1] = 1, [4] = 1, [0] = 1,
                                            [2.5] = 1, [1] = 1 }
  t.eq({ w, n, how }, { 41.5, 9, "exact" })
  t.near(wp, 0.0234375, 1e-12)
  t.eq({ stats.signed_rank {} }, { nil, 0, 1, "exact" })
  -- past 100 pairs, the normal approximation: 150 pairs +1, 50 pairs -1 (all tied)
  local w2, n2, p2, how2 = stats.signed_rank { [1] = 150, [-1] = 50 }
  t.eq({ w2, n2, how2 }, { 150 * 100.5, 200, "normal" })
  local var = 200 * 201 * 401 / 24 - (200 ^ 3 - 200) / 48
  t.near(p2, stats.normal_p((150 * 100.5 - 200 * 201 / 4 - 0.5) / math.sqrt(var)), 1e-12)
  -- Holm
  local adj = stats.holm { 0.01, 0.04, 0.03, nil, 0.2 }
  t.near(adj[1], 0.04, 1e-12)
  t.near(adj[2], 0.09, 1e-12)
  t.near(adj[3], 0.09, 1e-12)
  t.eq(adj[4], nil)
  t.near(adj[5], 0.2, 1e-12)
  -- SPRT (p1 0.65, alpha 0.05, beta 0.2): 14 discordant pairs all one way decide an effect, 13 do not;
  -- 17 each way decide none, 16 do not
  t.eq(stats.sprt(0, 14), "effect")
  t.eq(stats.sprt(14, 0), "effect")
  t.eq(stats.sprt(0, 13), nil)
  t.eq(stats.sprt(17, 17), "none")
  t.eq(stats.sprt(16, 16), nil)
  t.near(stats.normal_quantile(0.975), 1.959963984540054, 1e-12)
  t.eq(stats.fixed_discordant(), 85)
end)

t.test("lab-9: the SVG charts each outcome for both sides and is well-formed", function()
  local s = lab.decode(t.read_file(cli_study()))
  local svg = lab_report.svg(s)
  t.ok(require("keel.xml").check(svg))
  for _, name in ipairs { "canal", "combats", "sunk", "vp" } do
    t.ok(svg:find(">" .. name .. ": ", 1, true), name)
  end
  t.ok(svg:find(lab_report.COLORS[1], 1, true) and svg:find(lab_report.COLORS[2], 1, true), "both sides' bars")
  t.ok(svg:find(">table naval_search: ", 1, true), "a panel for the table that came up")
  t.ok(svg:find("variant 7-10: S: ", 1, true), "its rows, side by side")
  local path = tmp .. "/lab.svg"
  local st, out = sh(("%s lab merge %s --svg %s --quiet"):format(keel_bin, cli_study(), path))
  t.eq(st, 0, out)
  t.eq(t.read_file(path), svg)
end)

t.test("lab-10: keel run --variant --seed plays the house rule; keel replay plays its journal again", function()
  local j = tmp .. "/game.jsonl"
  local st, out = sh(("%s run %s --variant %s --seed 77 --journal %s"):format(keel_bin, SUEZ, SEARCH, j))
  -- (under other dice the recorded play's expectations may go unmet: the
  -- reaction window opens at another move; the game is still played whole)
  t.ok(st == 0 or st == 1, out)
  t.ok(out:find("\nresult: winner ", 1, true), out)
  t.ok(out:find("seed 77", 1, true), out)
  t.ok(out:find("variants: lab: 7-10 finds (tests/families/variants/lab_search_7_10.lua)", 1, true), out)
  t.ok(out:find("-> 7-10: S", 1, true), out)
  local header = json.decode(t.read_file(j):match("^[^\n]+"))
  t.eq(header.seed, 77)
  t.eq(header.variants, { SEARCH })
  st, out = sh(("%s replay %s"):format(keel_bin, j))
  t.eq(st, 0, out)
  t.ok(out:find("every state hash matches", 1, true), out)
  st, out = sh(("%s run %s --seed x"):format(keel_bin, SUEZ))
  t.eq(st, 2)
  t.ok(out:find("--seed wants a whole number", 1, true), out)
end)

t.test("lab-11: variants that conflict, or a side that cannot set up, are reported at setup", function()
  local v = tmp .. "/other_row.lua"
  local f = assert(io.open(v, "w"))
  f:write('variant { name = "other row", base = "navgroup" }\nset_row("naval_search", "7-10", "F*")\n')
  f:close()
  local st, out = sh(("%s run %s --variant %s --variant %s --quiet"):format(keel_bin, SUEZ, SEARCH, v))
  t.eq(st, 1)
  t.ok(out:find(v .. ":2: variant 'other row' changes table naval_search, which variant 'lab: 7-10 finds' already changed", 1, true), out)
  t.ok(not out:find("order 1", 1, true), "nothing is played")
  -- a study does not start: no game of that side could play
  t.raises(function() study(2, 1, { { name = "base" }, { name = "variant", variants = { SEARCH, v } } }) end,
    "variant side (+ " .. SEARCH .. " + " .. v .. "): the scenario does not set up: " .. v .. ":2: variant 'other row'")
  st, out = sh(("%s lab %s --games 2 --variant %s --jobs 1"):format(keel_bin, SUEZ, tmp .. "/missing.lua"))
  t.eq(st, 1)
  t.ok(out:find("the scenario does not set up: " .. tmp .. "/missing.lua: No such file", 1, true), out)
  local not_scenario = tmp .. "/not_scenario.lua"
  f = assert(io.open(not_scenario, "w"))
  f:write('return { rules = { "navgroup" } }\n')
  f:close()
  st, out = sh(("%s lab %s --games 2 --jobs 1"):format(keel_bin, not_scenario))
  t.eq(st, 1)
  t.ok(out:find("not a scenario", 1, true), out)
  -- one line naming the file: no traceback of keel's own files
  t.eq(out, "keel: " .. not_scenario .. ": not a scenario: a scenario file returns scenario { ... } "
    .. "(run a host Lua script with `keel script`)\n")
  st, out = sh(("%s lab scenarios/maps/crete.map --games 2 --jobs 1"):format(keel_bin))
  t.eq(st, 1)
  t.ok(out:find("^keel: scenarios/maps/crete.map:1: ") and not out:find("traceback", 1, true)
    and not out:find("scripts/keel/", 1, true), out)
  -- scenario(5): the file named
  f = assert(io.open(tmp .. "/five.lua", "w"))
  f:write("return scenario(5)\n")
  f:close()
  st, out = sh(("%s lab %s/five.lua --games 2 --jobs 1"):format(keel_bin, tmp))
  t.eq({ st, out }, { 1, "keel: " .. tmp .. "/five.lua: scenario{...} expects a table, got 5\n" })
  st, out = sh(("%s run %s/five.lua"):format(keel_bin, tmp))
  t.eq({ st, out }, { 1, "keel: " .. tmp .. "/five.lua: scenario{...} expects a table, got 5\n" })
end)

t.test("lab-12: progress: plain lines on standard error off a terminal, a bar with an ETA on one", function()
  local st, out = sh(("(%s lab %s --scripted --games 3 --jobs 1 2>%s/err >%s/out)"):format(keel_bin, SUEZ, tmp, tmp))
  t.eq(st, 0, out)
  local err = t.read_file(tmp .. "/err")
  t.ok(err:find("keel lab: 3/3 games played (100%), done", 1, true), err)
  t.ok(not err:find("\r", 1, true))
  local report = t.read_file(tmp .. "/out")
  t.ok(report:find("^keel lab: Suez, 1942"), report)
  t.ok(not report:find("games played", 1, true), "the report alone on standard output")
  -- a terminal, through script(1) when it is there
  if os.execute("script -qec true /dev/null >/dev/null 2>&1") then
    out = select(2, sh(("script -qec %s /dev/null"):format(lab.shell_quote(keel_bin .. " lab " .. SUEZ .. " --scripted --games 2 --jobs 1"))))
    t.ok(out:find("\r[", 1, true) and out:find("] 1/2 games", 1, true), out)
    t.ok(out:find("ETA", 1, true), out)
    t.ok(not out:find("games played", 1, true), out)
  else
    io.write("  (no script(1): the terminal progress bar is not checked)\n")
  end
  st, out = sh(("%s lab %s --scripted --games 2 --jobs 1 --quiet --json %s/q.json"):format(keel_bin, SUEZ, tmp))
  t.eq(st, 0)
  t.eq(out, "", "--quiet prints nothing")
end)

t.test("lab-13: usage mistakes are one line, exit 2", function()
  for _, args in ipairs { "", SUEZ, SUEZ .. " --games 0", SUEZ .. " --games 3 --shard 4/3",
                          SUEZ .. " --games 3 --jobs 0", "merge", SUEZ .. " --games 3 --memory 0.001",
                          SUEZ .. " --games 3 --memory 1e300" } do
    local st, out = sh(("%s lab %s"):format(keel_bin, args))
    t.eq(st, 2, args)
    t.eq(select(2, out:gsub("\n", "")), 1, out)
    t.ok(not out:find("lab.lua", 1, true), out)
  end
  local _, out = sh(("%s lab %s --games 3 --memory 0.001"):format(keel_bin, SUEZ))
  t.ok(out:find("--memory wants a number of MiB from 4 to 1048576", 1, true), out)
end)


t.test("lab-14: a rule set with state between games gives the same study however it is cut (--jobs 1, 2, shards)", function()
  -- the variant counts the games it has seen in a file-level local and reads
  -- a tostring id; each game must see what a game played alone sees
  local STATEFUL = "tests/families/variants/lab_stateful.lua"
  local files = {}
  for _, jobs in ipairs { 1, 2 } do
    files[jobs] = ("%s/stateful%d.json"):format(tmp, jobs)
    local st, out = sh(("%s lab %s --scripted --games 6 --seed 3 --variant %s --jobs %d --json %s --quiet"):format(
      keel_bin, SUEZ, STATEFUL, jobs, files[jobs]))
    t.eq(st, 0, out)
  end
  local one = t.read_file(files[1])
  t.eq(t.read_file(files[2]), one, "--jobs 1 and --jobs 2: the same bytes")
  local doc = json.decode(one)
  -- every game as keel run plays it alone: 40 - 25 (the canal) + 100 (one game seen) + the id's share
  t.eq(doc.sides[2].outcomes.vp, { ["116"] = 6 })
  local st, out = sh(("%s run %s --variant %s --seed %d --quiet"):format(keel_bin, SUEZ, STATEFUL, lab.seed(3, 4)))
  t.ok(out:find('expected keyed vp "Allied" = 15, got 116', 1, true), out)
  t.eq(st, 1)
  -- in this process, game after game in one Lua state: the same again
  local s = lab.new { scenario = SUEZ, games = 6, master = 3,
                      sides = { { name = "base" }, { name = "variant", variants = { STATEFUL } } } }
  t.eq(lab.encode(lab.run(s, { jobs = 1 })), one)
  -- and in shards, merged
  local shards = {}
  for i = 1, 2 do
    shards[i] = ("%s/stateful_shard%d.json"):format(tmp, i)
    t.eq((sh(("%s lab %s --scripted --games 6 --seed 3 --variant %s --shard %d/2 --jobs 1 --json %s --quiet"):format(
      keel_bin, SUEZ, STATEFUL, i, shards[i]))), 0)
  end
  local merged = tmp .. "/stateful_merged.json"
  t.eq((sh(("%s lab merge %s %s --json %s --quiet"):format(keel_bin, shards[1], shards[2], merged))), 0)
  t.eq(t.read_file(merged), one)
end)

t.test("lab-15: one game's rule set and tostring ids start afresh, whatever the Lua state played before", function()
  local STATEFUL = "tests/families/variants/lab_stateful.lua"
  local a = lab_game.play(SUEZ, { STATEFUL }, 77)
  for _ = 1, 3 do lab_game.play(SUEZ, { STATEFUL }, 5) end
  local b = lab_game.play(SUEZ, { STATEFUL }, 77)
  t.eq(b, a)
  t.eq(a.outcomes.vp, 116)
end)

-- a shard of a study (games 1-3 of 6, master seed 1, one side with the
-- unlucky start: one of its games fails) as the JSON document keel lab
-- writes, decoded again for a test to spoil
local function shard_doc()
  local s = lab.new { scenario = SUEZ, games = 6, master = 1, shard = { 1, 2 },
                      sides = { { name = "base", variants = { UNLUCKY } } } }
  lab.run(s, { jobs = 1 })
  t.eq(#s.sides[1].failures, 1, "one game of the shard fails")
  return lab.encode(s)
end

t.test("lab-16: lab merge checks each shard against the study it claims to be part of", function()
  local text = shard_doc()
  local function spoiled(name, fn)
    local doc = json.decode(text)
    fn(doc)
    local path = ("%s/%s.json"):format(tmp, name)
    local f = assert(io.open(path, "wb"))
    f:write(json.encode(doc))
    f:close()
    return path
  end
  local cases = {
    -- slices it does not hold: one slice played, three claimed (then it passed as a complete study)
    { "claims", function(d) d.shards, d.have = 3, { 1, 2, 3 } end,
      "side 1 (base): 3 games played, but the slices it claims (1, 2, 3 of 3) hold 6" },
    { "claims_other", function(d) d.have = { 2 } end,
      "side 1 (base): failure 1: \"game\" wants a game of its slices, listed once" },
    { "complete", function(d) d.shards, d.have = nil, nil end,
      "side 1 (base): 3 games played, but the slices it claims (1 of 1) hold 6" },
    { "twice", function(d) d.have = { 1, 1 } end, "slice 1/2 is claimed twice" },
    { "no_slice", function(d) d.have = { 3 } end, "\"have\" wants the slices it holds, each a whole number from 1 to 2" },
    -- more games completed than played
    { "completed", function(d) d.sides[1].completed = 4 end, "side 1 (base): 4 games completed of 3 played" },
    { "unlisted", function(d) d.sides[1].failures = nil end, "side 1 (base): 1 games failed (3 played, 2 completed), but 0 are listed" },
    { "outcome_count", function(d) d.sides[1].outcomes.vp = { ["15"] = 5 } end,
      "side 1 (base): outcome vp counts 5 games, not the 2 completed" },
    { "met", function(d) d.sides[1].met[2] = 7 end, "side 1 (base): \"met\" wants, for each order, how many of the 2 completed games met it" },
    { "seed", function(d) d.sides[1].failures[1].seed = 12345 end, "'s seed is" },
    -- missing fields (each once an error from keel's own lab.lua)
    { "no_game", function(d) d.sides[1].failures[1].game = nil end,
      "side 1 (base): failure 1: \"game\" wants a game of its slices, listed once" },
    { "no_sum", function(d) local _, e = next(d.sides[1].rules); e.sum = nil end, "wants {games (at most the 2 completed), sum, sumsq} that add up" },
    { "no_hash", function(d) d.scenario.hash = nil end, "\"scenario\" wants the scenario's \"file\" and \"hash\"" },
    { "no_name", function(d) d.sides[1].name = nil end, "side 1 has no \"name\"" },
    { "side_string", function(d) d.sides[1] = "base" end, "side 1 is not an object" },
    { "variants_string", function(d) d.sides[1].variants = "x.lua" end, "side 1: \"variants\" is not a list" },
  }
  for _, c in ipairs(cases) do
    local path = spoiled(c[1], c[2])
    local st, out = sh(("%s lab merge %s --quiet"):format(keel_bin, path))
    t.eq(st, 1, c[1] .. ": " .. out)
    t.ok(out:find(path, 1, true) and out:find(c[3], 1, true), c[1] .. ": " .. out)
    t.ok(not out:find("%.lua:%d+:"), c[1] .. ": names a place in keel's Lua: " .. out)
    t.eq(select(2, out:gsub("\n", "")), 1, c[1] .. ": one line")
  end
  -- the shard as written merges, alone and with its other half
  local whole = tmp .. "/whole.json"
  local s2 = lab.new { scenario = SUEZ, games = 6, master = 1, shard = { 2, 2 },
                       sides = { { name = "base", variants = { UNLUCKY } } } }
  local other = tmp .. "/other_half.json"
  local f = assert(io.open(other, "wb")); f:write(lab.encode(lab.run(s2, { jobs = 1 }))); f:close()
  local st, out = sh(("%s lab merge %s %s --quiet --json %s"):format(keel_bin, spoiled("as_written", function() end), other, whole))
  t.eq(st, 0, out)
  t.eq(json.decode(t.read_file(whole)).sides[1].played, 6)
end)

t.test("lab-17: a shard with any field taken out or spoiled is merged or refused naming the file, never a keel error", function()
  local base = json.decode(shard_doc())
  base.report = nil   -- merge reads the statistics, never the report
  -- every path into the document, the maps of rules and rows cut to two keys each
  local paths = {}
  local function walk(v, path)
    paths[#paths + 1] = path
    if type(v) ~= "table" then return end
    local keys = require("keel.keys").sorted(v)
    for i, k in ipairs(keys) do
      if (path[#path] == "rules" or path[#path] == "rows" or path[#path] == "met") and i > 2 then break end
      local p = { table.unpack(path) }
      p[#p + 1] = k
      walk(v[k], p)
    end
  end
  walk(base, {})
  local function copy(v)
    if type(v) ~= "table" then return v end
    local out = {}
    for k, x in pairs(v) do out[k] = copy(x) end
    return out
  end
  local spoils = { "remove", "x", -1, 0.5, 1e300, {}, { "x" } }
  local refused, merged = 0, 0
  for _, path in ipairs(paths) do
    if #path > 0 then
      for _, sp in ipairs(spoils) do
        local doc = copy(base)
        local parent = doc
        for i = 1, #path - 1 do parent = parent[path[i]] end
        local k = path[#path]
        if sp ~= "remove" then parent[k] = copy(sp)
        elseif math.type(k) == "integer" then table.remove(parent, k)   -- a list stays a list
        else parent[k] = nil end
        local names = {}
        for i, key in ipairs(path) do names[i] = tostring(key) end
        local what = table.concat(names, ".") .. " = " .. t.fmt(sp)
        local ok, err = pcall(function()
          local st = lab.decode(json.encode(doc), "shard.json")
          local m = lab.merge({ st }, { "shard.json" })
          lab.encode(m)
          lab_report.text(m)
        end)
        if ok then
          merged = merged + 1
        else
          refused = refused + 1
          t.ok(type(err) == "string" and (err:find("^shard%.json: ") or err:find("^lab merge: shard%.json: "))
            and not err:find("%.lua:%d+:"), what .. ": " .. tostring(err))
        end
      end
    end
  end
  t.ok(refused > 100 and merged > 10, ("%d refused, %d merged"):format(refused, merged))
end)

-- ---- studies played by players (issue 30) -------------------------------------------

local DUEL = "tests/scenarios/lab_duel.lua"
local SHARP = "tests/families/variants/duel_sharpshooter.lua"
local NOTHING = "tests/families/variants/duel_nothing.lua"

local function duel(games, master, variant, extra)
  local opts = { scenario = DUEL, games = games, master = master, players = {},
                 sides = { { name = "base" }, { name = "variant", variants = { variant } } } }
  for k, v in pairs(extra or {}) do opts[k] = v end
  return lab.new(opts)
end

-- the paired entry of a study's report for `what` (= value)
local function paired(rep, what, value)
  for _, e in ipairs(rep.paired) do
    if e.what == what and (e.b == nil or e.value == value) then return e end
  end
end

t.test("30-lab-1: a house rule favouring side A shows a significant paired difference in A's wins; none shows none", function()
  for _, master in ipairs { 1, 2, 3 } do
    local s = lab.run(duel(120, master, SHARP), { jobs = 1 })
    t.eq(s.sides[2].completed, 120, "every game played to its end")
    local rep = lab.report(s)
    local e = paired(rep, "winner", "A")
    t.ok(e and e.significant and e.diff > 0 and e.b < e.c, ("master %d: A wins more with the house rule: %s"):format(master,
      t.fmt(e)))
    t.ok(paired(rep, "score_A").significant, "A's score too (signed rank)")
    t.ok(not paired(rep, "score_B").significant, "B's does not move")
    local text = lab_report.text(s)
    t.ok(text:find("paired comparisons", 1, true) and text:find("winner = A%s+%+%d"), text)
    -- the same games with a house rule that changes nothing: no difference at all
    local n = lab.report(lab.run(duel(120, master, NOTHING), { jobs = 1 }))
    for _, x in ipairs(n.paired) do
      t.ok(not x.significant and (x.b == nil or x.b + x.c == 0), ("master %d: %s differs: %s"):format(master, x.what, t.fmt(x)))
    end
  end
end)

t.test("30-lab-2: --until-decided stops early on an effect and runs to --max on none", function()
  local st, out = sh(("%s lab %s --variant %s --until-decided --max 400 --jobs 1 --json %s/seq.json"):format(
    keel_bin, DUEL, SHARP, tmp))
  t.eq(st, 0, out)
  local s = lab.decode(t.read_file(tmp .. "/seq.json"))
  t.eq(s.sequential.decided, "effect")
  t.ok(s.games < 400 and s.games == s.sides[1].played, ("stopped after %d games"):format(s.games))
  t.ok(s.sequential.fixed_games and s.sequential.saved == s.sequential.fixed_games - s.games)
  t.ok(out:find("sequential test", 1, true) and out:find("an effect: decided after " .. s.games, 1, true), out)
  st, out = sh(("%s lab %s --variant %s --until-decided --max 60 --jobs 1 --json %s/seq0.json --quiet"):format(
    keel_bin, DUEL, NOTHING, tmp))
  t.eq(st, 0, out)
  s = lab.decode(t.read_file(tmp .. "/seq0.json"))
  t.eq({ s.sequential.decided, s.games }, { "undecided", 60 })
  -- what it cannot do is refused as a usage error
  st, out = sh(("%s lab %s --until-decided --max 10"):format(keel_bin, DUEL))
  t.eq(st, 2, out)
  st, out = sh(("%s lab %s --games 4 --scripted --player A=random"):format(keel_bin, DUEL))
  t.eq(st, 2, out)
end)

t.test("30-lab-3: shards of a study with players merge into exactly the one run (pairs too)", function()
  local st, out = sh(("%s lab %s --games 30 --seed 9 --variant %s --jobs 2 --json %s/p_all.json --quiet"):format(
    keel_bin, DUEL, SHARP, tmp))
  t.eq(st, 0, out)
  local files = {}
  for i = 1, 3 do
    files[i] = ("%s/p_%d.json"):format(tmp, i)
    st, out = sh(("%s lab %s --games 30 --seed 9 --variant %s --shard %d/3 --jobs 1 --json %s --quiet"):format(
      keel_bin, DUEL, SHARP, i, files[i]))
    t.eq(st, 0, out)
  end
  st, out = sh(("%s lab merge %s --json %s/p_merged.json --quiet"):format(keel_bin, table.concat(files, " "), tmp))
  t.eq(st, 0, out)
  t.eq(t.read_file(tmp .. "/p_merged.json"), t.read_file(tmp .. "/p_all.json"))
  -- a shard played by other players does not merge
  st, out = sh(("%s lab %s --games 30 --seed 9 --variant %s --shard 3/3 --player B=greedy --jobs 1 --json %s/p_other.json --quiet"):format(
    keel_bin, DUEL, SHARP, tmp))
  t.eq(st, 0, out)
  st, out = sh(("%s lab merge %s %s %s/p_other.json --quiet"):format(keel_bin, files[1], files[2], tmp))
  t.ok(st ~= 0 and out:find("other players", 1, true), out)
end)

t.test("30-lab-4: --swap plays each seed twice with the seats swapped; the report names side and player", function()
  local s = duel(8, 1, SHARP, { swap = true, players = { A = "random", B = "greedy" } })
  lab.run(s, { jobs = 1 })
  t.eq(s.sides[1].played, 8)
  t.eq(lab.seed_of(s, 1), lab.seed_of(s, 2))
  t.ok(lab.seed_of(s, 2) ~= lab.seed_of(s, 3))
  t.eq(lab.seats_of(s, 1), { { side = "A", spec = "random", seat = "1: random" }, { side = "B", spec = "greedy", seat = "2: greedy" } })
  t.eq(lab.seats_of(s, 2), { { side = "A", spec = "greedy", seat = "2: greedy" }, { side = "B", spec = "random", seat = "1: random" } })
  local text = lab_report.text(s)
  t.ok(text:find("seats swapped", 1, true) and text:find("winner_seat", 1, true) and text:find("2: greedy", 1, true), text)
  t.raises(function() duel(7, 1, SHARP, { swap = true }) end, "an even number")
  local st, out = sh(("%s lab %s --games 2 --swap --player A=random --player C=greedy --jobs 1 --quiet"):format(keel_bin, DUEL))
  t.ok(st ~= 0 and out:find("no side of that name", 1, true), out)
  st, out = sh(("%s lab %s --games 2 --player A=nosuchplayer --jobs 1 --quiet"):format(keel_bin, DUEL))
  t.ok(st ~= 0 and out:find("player of A", 1, true), out)
end)

t.test("30-lab-5: an outcome no game wrote is reported; Suez's combats read what 32.D records", function()
  local dir = tmp .. "/silent"
  os.execute("mkdir -p " .. dir)
  local text = t.read_file(DUEL):gsub('path = { "%.%./families" }', 'path = { "' .. os.getenv("PWD") .. '/tests/families" }')
    :gsub('outcomes = {', 'outcomes = { ghost = { global = "no_such_value" },')
  assert(require("keel").file.write(dir .. "/silent.lua", text))
  local s = lab.run(lab.new { scenario = dir .. "/silent.lua", games = 3, players = {}, sides = { { name = "base" } } },
    { jobs = 1 })
  t.ok(lab_report.text(s):find("never written by any game: ghost", 1, true), lab_report.text(s))
  local run = require("keel.scenario").start(require("keel.scenario").load(SUEZ), {})
  run:play_all()
  t.ok(lab_game.outcome_value({ kind = "count", count = "naval_combat" }, run) > 0, "the showcase fights naval combat")
end)

t.test("30-lab-6: doc/lab.md's worked study plays: hunter-killer submarines in Trident, paired", function()
  local s = lab.new { scenario = "scenarios/seazone_trident.lua", games = 12, master = 7, players = {},
                      sides = { { name = "base" }, { name = "variant", variants = { "doc/examples/variants/hunter_killers.lua" } } } }
  lab.run(s, { jobs = 1 })
  t.eq({ s.sides[1].completed, s.sides[2].completed }, { 12, 12 })
  t.eq(s.pairs.n, 12)
  local text = lab_report.text(s)
  t.ok(text:find("paired comparisons", 1, true) and text:find("winner = Opfor", 1, true) or text:find("score_Opfor", 1, true), text)
end)

os.execute("rm -rf " .. tmp)

-- tests/lua/dice_test.lua — keel.dice (the binding) and keel.dice_expr.
local t = require "keel.testing"
local keel = require "keel"
local dx = require "keel.dice_expr"

local function rolls(d, n, expr, opts)
  local out = {}
  for i = 1, n do out[i] = d:roll(expr, opts) end
  return out
end

t.test("dice-1: the same seed gives the same rolls; another seed others", function()
  local a, b, c = keel.dice.new(42), keel.dice.new(42), keel.dice.new(43)
  local ra, rb, rc = rolls(a, 50, "2d6"), rolls(b, 50, "2d6"), rolls(c, 50, "2d6")
  t.eq(ra, rb)
  t.ok(not t.deep_eq(ra, rc), "seed 43 differs from 42")
  for _, v in ipairs(ra) do t.ok(v >= 2 and v <= 12, "2d6 in 2..12") end
end)

t.test("dice-2: a roll returns its total and faces; get_record gives its full record", function()
  local d = keel.dice.new(7)
  t.eq(d:get_record(), nil, "no record before the first roll")
  local total, f1, f2, none = d:roll("2d6+3", { stream = "navgroup", rule = "32.B", reason = "naval search" })
  t.eq(total, f1 + f2 + 3)
  t.eq(none, nil, "one result per die")
  local rec = d:get_record()
  t.ok(rec ~= d:get_record(), "a new table each time")
  t.eq(rec.faces, { f1, f2 })
  t.eq(rec.stream, "navgroup")
  t.eq(rec.expr, "2d6+3")
  t.eq(#rec.faces, 2)
  t.eq(rec.modifier, 3)
  t.eq(rec.total, total)
  t.eq(total, rec.faces[1] + rec.faces[2] + 3)
  t.eq(rec.rule, "32.B")
  t.eq(rec.reason, "naval search")
  t.eq(rec.forced, false)
  t.eq(rec.n, 1)
  d:roll("d6", { stream = "navgroup" })
  local rec2 = d:get_record()
  t.eq(rec2.n, 2)
  t.eq(rec2.expr, "1d6")
  t.eq(rec2.rule, nil, "no rule given, none recorded")
  d:roll("d6")
  local rec3 = d:get_record()
  t.eq(rec3.stream, "default")
  t.eq(rec3.n, 1)
  t.eq(d:rolls("navgroup"), 2)
  t.eq(d:rolls("never"), 0)
  t.eq(d:streams(), { "default", "navgroup" })
end)

t.test("dice-3: adding rolls to one stream never shifts another", function()
  local a, b = keel.dice.new(2024), keel.dice.new(2024)
  for _ = 1, 100 do a:roll("3d6", { stream = "ocs.barrage" }) end
  a:range(27, { stream = "27.A.3" })
  t.eq(rolls(a, 40, "2d6", { stream = "32.B" }), rolls(b, 40, "2d6", { stream = "32.B" }))
end)

t.test("dice-4: forced faces are used next, marked forced, and refused if they do not fit", function()
  local d = keel.dice.new(1)
  local plain = keel.dice.new(1)
  d:force(6, 6)
  local total, a, b = d:roll("2d6")
  t.eq(total, 12)
  t.eq({ a, b }, { 6, 6 })
  t.eq(d:get_record().forced, true)
  -- forced faces do not advance the generator
  t.eq(d:roll("2d6"), plain:roll("2d6"))
  d:force { 1, 7, 3 }
  t.eq(d:forced(), 3)
  t.eq(d:roll("1d6"), 1)
  t.raises(function() d:roll("1d1") end, "bad argument #1 to 'roll'")
  t.raises(function() d:roll("1d6") end, "forced face does not fit 1d6")
  t.eq(d:forced(), 2, "a refused forced face stays queued")
  t.eq(d:roll("d10"), 7)
  local v, more = d:range(27)
  t.eq(v, 3)
  t.eq(more, nil, "range returns the value alone")
  t.eq(d:get_record().forced, true)
  t.eq(d:get_record().faces, { 3 })
  t.eq(d:forced(), 0)
  t.raises(function() d:force(0) end, "integer >= 1 expected")
  t.raises(function() d:force("x") end, "integer >= 1 expected")
  d:force(5):clear_forced()
  t.eq(d:forced(), 0)
end)

t.test("dice-5: on_roll callbacks see every record, in order", function()
  local d = keel.dice.new(9)
  local seen, seen2 = {}, 0
  d:on_roll(function(rec) seen[#seen + 1] = rec end)
  d:on_roll(function() seen2 = seen2 + 1 end)
  d:roll("2d6", { rule = "37.B", reason = "landing" })
  local r1 = d:get_record()
  d:range(6, { stream = "27.A.3", reason = "pick a ship" })
  local r2 = d:get_record()
  t.eq(#seen, 2)
  t.eq(seen[1], r1, "the callback gets the roll's record")
  t.eq(seen[2], r2)
  t.eq(seen[2].expr, "1..6")
  t.eq(seen[2].reason, "pick a ship")
  t.eq(seen2, 2)
  d:on_roll(nil)
  d:roll("d6")
  t.eq(#seen, 2)
  d:histogram("2d6", 100)   -- bulk Monte Carlo is not journaled
  t.eq(#seen, 2)
end)

t.test("dice-6: range(n) is uniform over 1..n (27.A.3 picks a ship at random)", function()
  local d = keel.dice.new(5)
  local seen = {}
  for _ = 1, 2700 do
    local v = d:range(27, { stream = "27.A.3" })
    t.ok(v >= 1 and v <= 27, "in range")
    seen[v] = (seen[v] or 0) + 1
  end
  for v = 1, 27 do t.ok((seen[v] or 0) > 50, "every ship gets picked") end
  t.eq(d:range(1), 1)
  t.raises(function() d:range(0) end, "n >= 1 expected")
  local big = d:range(math.maxinteger)
  t.ok(big >= 1, "large ranges work")
end)

t.test("dice-7: save/load restore every stream exactly", function()
  local d = keel.dice.new(0x5eed)
  d:roll("2d6", { stream = "b" })
  d:roll("3d6", { stream = "a" })
  d:roll("1d10", { stream = "c" })
  local text = d:save()
  t.ok(text:match("^keel%-dice 1\nseed 0000000000005eed\nstream a 1 %x+ %x+ %x+ %x+\nstream b 1 "),
    "text form: header, seed, streams in name order")
  local after = rolls(d, 20, "2d6", { stream = "b" })
  local e = keel.dice.new(1)
  t.eq(e:load(text), true)
  t.eq(e:get_seed(), 0x5eed)
  t.eq(rolls(e, 20, "2d6", { stream = "b" }), after)
  t.eq(e:rolls("b"), 21)
  -- a new stream after loading derives from the loaded seed
  t.eq(e:roll("2d6", { stream = "new" }), d:roll("2d6", { stream = "new" }))
  t.eq(e:save(), d:save())
end)

t.test("dice-8: a malformed state is refused with its line, and changes nothing", function()
  local d = keel.dice.new(3)
  d:roll("d6", { stream = "x" })
  local before = d:save()
  t.raises(function() d:load("") end, "line 1: empty text")
  t.raises(function() d:load("keel-dice 9\n") end, "line 1: unsupported version")
  t.raises(function() d:load("keel-dice 1\nseed xyz\n") end, "line 2: expected 'seed'")
  t.raises(function() d:load(before:gsub("stream x 1", "stream x one")) end,
    "line 3: expected the roll count")
  t.raises(function() d:load(before .. "garbage\n") end, "line 4: expected 'stream NAME")
  t.raises(function() d:load(before:sub(1, -2)) end, "no newline")
  t.raises(function() d:load(42) end, "dice state")
  t.eq(d:save(), before)
end)

t.test("dice-9: options are checked", function()
  local d = keel.dice.new()
  t.raises(function() d:roll("2d6", { strem = "x" }) end, "unknown option 'strem'")
  t.raises(function() d:roll("2d6", { stream = "two words" }) end, "opts.stream")
  t.raises(function() d:roll("2d6", { stream = 5 }) end, "opts.stream")
  t.raises(function() d:roll("2d6", { rule = 32 }) end, "opts.rule: string expected")
  t.raises(function() d:roll("2d6", { reason = {} }) end, "opts.reason: string expected")
  t.raises(function() d:roll("2d6", "x") end, "table expected")
  t.raises(function() d:roll(nil) end, "bad argument #1 to 'roll'")
  t.raises(function() keel.dice.new("x") end, "bad argument #1")
  t.raises(function() d.roll(42, "2d6") end, "keel.Dice expected")
  t.ok(tostring(d):match("^keel%.Dice%(seed=0"), "tostring")
  t.ok(keel.dice.is_dice(d) and not keel.dice.is_dice({}), "is_dice")
end)

t.test("dice-10: a closed dice object refuses use", function()
  local d = keel.dice.new(1)
  do
    local c <close> = d
    c:roll("d6")
  end
  t.raises(function() d:roll("d6") end, "closed")
  t.eq(tostring(d), "keel.Dice(closed)")
end)

t.test("dice-expr-1: the expressions of the issue parse", function()
  local cases = {
    { "d6", 1, 6, 0, "1d6" }, { "1d6", 1, 6, 0, "1d6" }, { "2d6", 2, 6, 0, "2d6" },
    { "2d6+3", 2, 6, 3, "2d6+3" }, { "1d6-1", 1, 6, -1, "1d6-1" }, { "d10", 1, 10, 0, "1d10" },
    { "3d6", 3, 6, 0, "3d6" }, { "2D6", 2, 6, 0, "2d6" }, { " 2d6 + 3 ", 2, 6, 3, "2d6+3" },
    { "2d6+0", 2, 6, 0, "2d6" }, { "100d1000-1000000", 100, 1000, -1000000, "100d1000-1000000" },
  }
  for _, c in ipairs(cases) do
    local e = assert(dx.parse(c[1]))
    t.eq({ e.count, e.sides, e.modifier, e.text }, { c[2], c[3], c[4], c[5] }, c[1])
  end
end)

t.test("dice-expr-2: malformed expressions say where and what was expected", function()
  local cases = {
    { "", 'column 1: expected' },
    { "2d", "column 3: expected the number of sides" },
    { "2x6", "column 2: expected 'd'" },
    { "d", "column 2: expected the number of sides" },
    { "2d6+", "column 5: expected a number after the sign" },
    { "2d6 3", "column 5: expected the end of the expression" },
    { "2d6++3", "column 5: expected a number after the sign" },
    { "0d6", "column 1: dice count 0 out of range 1..100" },
    { "101d6", "dice count 101 out of range" },
    { "2d1", "column 3: number of sides 1 out of range 2..1000" },
    { "2d1001", "number of sides 1001 out of range" },
    { "2d6+9999999", "column 5: modifier 9999999 out of range" },
    { "-2d6", "column 1" },
    { "2d6*2", "column 4: expected the end" },
    { "2 d6", "column 2: expected 'd'" },
    { "99999999999d6", "dice count 99999999999 out of range" },
  }
  for _, c in ipairs(cases) do
    local e, err = dx.parse(c[1])
    t.eq(e, nil, c[1])
    t.ok(err:find(c[2], 1, true), ("%q gives %q, expected it to mention %q"):format(c[1], err, c[2]))
    t.ok(err:find(("%q"):format(c[1]), 1, true), "the message quotes the expression")
  end
  local e, err = dx.parse(42)
  t.eq(e, nil)
  t.ok(err:find("expected"), "non-string")
  t.raises(function() dx.check("2d") end, "column 3")
end)

t.test("dice-11: histogram runs in C and counts every total", function()
  local d = keel.dice.new(11)
  local h = d:histogram("2d6+1", 36000, { stream = "mc" })
  local sum = 0
  for v = 3, 13 do sum = sum + h[v] end
  t.eq(sum, 36000)
  t.eq(h[2], nil)
  t.eq(d:rolls("mc"), 36000)
  t.raises(function() d:histogram("2d6", -1) end, "n >= 0")
end)

t.test("dice-12: keel's Lua side never uses math.random", function()
  local files = { "keel/dice_expr.lua", "keel/tables.lua", "keel/odds.lua", "keel/cli/odds.lua",
    "keel/registry.lua" }
  for _, f in ipairs(files) do
    local fh = assert(io.open(keel.script_dir .. "/" .. f))
    local src = fh:read("a")
    fh:close()
    t.ok(not src:find("math.random", 1, true), f .. " uses math.random")
    t.ok(not src:find("os.time", 1, true) and not src:find("os.clock", 1, true), f .. " reads the clock")
  end
end)

t.test("dice-version: get_version moves with every change save_state would show, and only then", function()
  local d = keel.dice.new(7)
  local v0, s0 = d:get_version(), d:save()
  t.eq(d:get_version(), v0, "reading changes nothing")
  d:force { 3 }
  t.eq(d:get_version(), v0, "forced faces are not in the saved state")
  t.eq(d:save(), s0)
  d:roll("1d6")
  local v1 = d:get_version()
  t.ok(v1 ~= v0 and d:save() ~= s0, "a roll (a new stream, its count)")
  d:range(4, { stream = "other" })
  t.ok(d:get_version() ~= v1, "a range roll on a new stream")
  local v2 = d:get_version()
  d:load(s0)
  t.ok(d:get_version() ~= v2 and d:save() == s0, "a load")
end)

t.test("dice-journal: set_journal writes each roll's line in C, the same as the record in JSON", function()
  local d = keel.dice.new(11)
  local st = keel.state.new()
  t.eq(d:set_journal(st), d, "returns the dice")
  st:push_rule("27.A.3")
  d:roll("d6", { stream = "s1" })                             -- no rule: the rule in force
  t.eq(d:get_record().rule, "27.A.3", "the record names the rule journaled")
  d:force(2)
  d:roll("3d6-2", { rule = "32.B", reason = 'a "quoted"\nreason' })
  d:range(27, { reason = "pick" })
  st:pop_rule()
  d:roll("2d6")                                               -- no rule in force: null
  local lines = {}
  for l in st:journal():gmatch("[^\n]+") do lines[#lines + 1] = l end
  t.eq(#lines, 4)
  -- the line json_line would write from the record (the journal's format before C wrote it)
  local other = keel.dice.new(11)
  local function line_of(rec, rule)
    return keel.state.json_line("roll", "rule", rec.rule or rule, "reason", rec.reason, "stream", rec.stream,
      "expr", rec.expr, "faces", rec.faces, "modifier", rec.modifier, "total", rec.total,
      "forced", rec.forced, "n", rec.n)
  end
  other:roll("d6", { stream = "s1" })
  t.eq(lines[1], line_of(other:get_record(), "27.A.3"))
  other:force(2)
  other:roll("3d6-2", { rule = "32.B", reason = 'a "quoted"\nreason' })
  t.eq(lines[2], line_of(other:get_record()))
  t.ok(lines[2]:find('"forced":true', 1, true), "a forced face is journaled")
  other:range(27, { reason = "pick" })
  t.eq(lines[3], line_of(other:get_record(), "27.A.3"))
  t.ok(lines[3]:find('"expr":"1..27"', 1, true))
  other:roll("2d6")
  t.eq(lines[4], line_of(other:get_record()))
  t.ok(lines[4]:find('"rule":null', 1, true))
  -- a rolled-back transaction takes its roll lines back
  local level = st:begin()
  d:roll("2d6")
  st:rollback(level)
  t.eq(st:journal(), table.concat(lines, "\n") .. "\n")
  d:set_journal(nil)
  d:roll("2d6")
  t.eq(#st:journal(), #table.concat(lines, "\n") + 1, "set_journal(nil) stops journaling")
  t.raises(function() d:set_journal({}) end, "keel.State expected")
end)

t.test("dice-cache: parsed expressions and streams are cached, and stay right", function()
  local d, ref = keel.dice.new(3), keel.dice.new(3)
  local dice_expr = require "keel.dice_expr"
  -- more expressions than the C cache holds, and back: every one parses as keel.dice_expr says
  for round = 1, 2 do
    for n = 1, 150 do
      local expr = ("%dd%d%+d"):format(n % 5 + 1, n % 9 + 2, n - 75)
      local e = dice_expr.parse(expr)
      d:roll(expr)
      local rec = d:get_record()
      t.eq(rec.expr, e.text, "round " .. round)
      t.eq(#rec.faces, e.count)
      t.eq(rec.modifier, e.modifier)
    end
  end
  -- a long expression (not cached in C) still rolls
  local long = "2d6" .. (" "):rep(60) .. "+1"
  t.ok(dice_expr.parse(long), "blanks around the sign are allowed")
  t.eq(select("#", d:roll(long)), 3)
  t.eq(d:get_record().expr, "2d6+1")
  t.eq(select("#", d:roll("100d6")), 101, "the most dice a roll may throw: a total and 100 faces")
  -- streams: the index cached per dice follows a load that reorders them
  local a = keel.dice.new(5)
  a:roll("d6", { stream = "zeta" })
  a:roll("d6", { stream = "alpha" })
  local saved = a:save()
  local b = keel.dice.new(5)
  b:roll("d6", { stream = "zeta" })
  b:load(saved)                     -- "alpha" first now
  b:roll("d6", { stream = "zeta" })
  a:roll("d6", { stream = "zeta" })
  t.eq(b:get_record(), a:get_record())
  t.eq(b:save(), a:save())
  t.eq(ref:roll("2d6"), keel.dice.new(3):roll("2d6"))
end)

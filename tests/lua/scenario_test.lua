-- tests/lua/scenario_test.lua — scenarios (scripts/keel/scenario.lua) and
-- `keel run SCENARIO` (scripts/keel/cli/run.lua): setup, orders with
-- expectations, narration, journal, errors; plain scripts still run.
local t = require "keel.testing"
local scenario = require "keel.scenario"

local S = "tests/scenarios/"

local sh, slurp = t.sh, t.read_file

t.test("scenario-1: a scenario sets up map, rules, variants, forces and flags", function()
  local run = scenario.start(scenario.load(S .. "convoy_crete.lua"))
  local g = run.game
  t.eq(g.seed, 1941)
  t.eq(g:get_global("sea_state"), "calm")
  t.eq(g:get_global("turn"), 1)
  t.eq(g:get_unit(run.units.Warspite).where, run.board:hex("15B:2407"))
  t.eq(g:group_units(run.groups["Force A"]), { run.units.Warspite, run.units.Orion, run.units["Convoy NT"] })
  t.eq(#run.set.variants, 2)
  local j = table.concat(g:journal_lines(), "\n")
  t.ok(j:find('"ev":"rule_file","path":"tests/families/variants/campaign_001.lua"', 1, true), j)
  t.ok(j:find('"ev":"rule_file","path":"tests/families/toy27/damage.lua"', 1, true))
  t.ok(j:find('{"ev":"global","rule":"scenario","key":"sea_state","old":null,"new":"calm"}', 1, true))
end)

t.test("scenario-2: its orders play with their expectations met", function()
  local run = scenario.start(scenario.load(S .. "convoy_crete.lua"))
  local passed, failed = run:play_all()
  t.eq({ passed, failed }, { 8, 0 })
  -- the variant stack is visible in the journal: 4 exploitation steps
  -- (campaign 001), an NT moving 9 boxes (fast convoys), no US DRM
  local j = table.concat(run.game:journal_lines(), "\n")
  t.ok(j:find('{"ev":"global","rule":"27.C.4","key":"naval_steps","old":null,"new":4}', 1, true))
  t.ok(j:find('{"ev":"global","rule":"H.1","key":"weather","old":null,"new":"clear"}', 1, true))
  t.ok(j:find('"name":"move","rule":"27.C.2","order":{"boxes":9,"to":', 1, true))
  t.ok(not j:find('"us_drm"', 1, true))
end)

t.test("scenario-3: keel run narrates rules, rolls with their modifiers, and changes", function()
  local code, out = sh("bin/keel run " .. S .. "convoy_crete.lua")
  t.eq(code, 0)
  t.ok(out:find("rule 27.A.3 Damage — on unit_hit", 1, true), out)
  t.ok(out:find("bombing_hits (rule 27.A.3.b): rolled ", 1, true), out)
  t.ok(out:find("roll 1d2 (which SF is hit) by rule 27.A.3.b: ", 1, true), out)
  t.ok(out:find("[27.C.2] Convoy NT (unit 3) loc: hex 15B:2407 -> hex 15B:2508", 1, true), out)
  t.ok(out:find("illegal (as expected): illegal move (rule 27.C.2 Movement Phase)", 1, true), out)
  t.ok(out:find("result: 8 order(s), 8 as expected, 0 not", 1, true), out)
end)

t.test("scenario-4: --journal gives the same bytes on every run; --quiet; --json", function()
  local a, b = os.tmpname(), os.tmpname()
  t.eq((sh("bin/keel run " .. S .. "convoy_crete.lua --quiet --journal " .. a)), 0)
  local code, out = sh("bin/keel run " .. S .. "convoy_crete.lua --quiet --journal " .. b)
  t.eq(code, 0)
  t.eq(out:gsub("state %x+", "state H"), "result: 8 order(s), 8 as expected, 0 not; state H\n")
  t.eq(slurp(a), slurp(b))
  t.ok(slurp(a):find('"ev":"header"', 1, true))
  os.remove(a)
  os.remove(b)
  local json = require "keel.json"
  local _, jout = sh("bin/keel run " .. S .. "convoy_crete.lua --json")
  local kinds = {}
  for line in jout:gmatch("[^\n]+") do
    local obj = assert(json.decode(line), line)
    kinds[obj.kind] = (kinds[obj.kind] or 0) + 1
  end
  t.ok(kinds.fire and kinds.change and kinds.table and kinds.roll and kinds.order, t.fmt(kinds))
  t.eq(kinds.result, 1)
end)

t.test("scenario-5: a failing rule shows file:line: rule ID: message and a script traceback", function()
  local code, out = sh("bin/keel run " .. S .. "broken_rule.lua")
  t.eq(code, 1)
  t.ok(out:find("error: tests/families/broken/bug.lua:2: rule 99.X: attempt to perform arithmetic on a nil value", 1, true), out)
  t.ok(out:find("script traceback:\n    tests/families/broken/bug.lua:2: in function", 1, true), out)
  t.ok(not out:find("scripts/keel/", 1, true), "kernel frames are left out")
  t.ok(out:find("tests/scenarios/broken_rule.lua: order 4 (check): expected Hood.hits = 3, got 0", 1, true), out)
  t.ok(out:find("result: 4 order(s), 2 as expected, 2 not", 1, true), out)
end)

t.test("scenario-6: a scenario file is sandboxed too", function()
  local code, out = sh("bin/keel run " .. S .. "escape.lua")
  t.eq(code, 1)
  t.ok(out:find("tests/scenarios/escape.lua:2: io is not available in keel scripts", 1, true), out)
end)

t.test("scenario-7: a file is a scenario when it returns what scenario{} made, whatever its text", function()
  local f = os.tmpname()
  local function load(text)
    local h = assert(io.open(f, "w"))
    h:write(text)
    h:close()
    return pcall(scenario.load, f)
  end
  t.ok(load("return --[[ a comment ]] scenario { rules = { 'toy27' } }"))
  t.ok(load("local s = scenario { rules = { 'toy27' } }\nlocal t = s\nreturn t"))
  for _, text in ipairs {
    "return { rules = { 'toy27' } }",                            -- looks like one
    "scenario { rules = { 'toy27' } }",                          -- made, not returned
    "local s = scenario { rules = { 'toy27' } }\nreturn { rules = s.rules }",
    "-- return scenario {\nreturn 1",
  } do
    local ok, err = load(text)
    t.ok(not ok and tostring(err):find(f .. ": not a scenario", 1, true), text .. ": " .. tostring(err))
  end
  os.remove(f)
end)

t.test("scenario-8: mistakes in a scenario are named", function()
  local f = os.tmpname()
  local function try(text)
    local h = assert(io.open(f, "w"))
    h:write(text)
    h:close()
    return select(2, pcall(scenario.load, f))
  end
  t.ok(tostring(try("return scenario { rules = { 'toy27' }, sead = 1 }")):find(f .. ":1: sead: unknown field", 1, true))
  t.ok(tostring(try("return scenario { seed = 1 }")):find("naming the rule families", 1, true))
  t.ok(tostring(try("return scenario { rules = { 'toy27' }, forces = { { name = 'a', att = 1 } } }"))
    :find("forces[1] (a).att: unknown field", 1, true))
  t.ok(tostring(try("return scenario { rules = { 'toy27' }, forces = { { name = 'a', aboard = 'b' }, { name = 'b' } } }"))
    :find("forces[1] (a).aboard: no force named \"b\" is listed before it", 1, true))
  t.ok(tostring(try("return scenario { rules = { 'toy27' }, forces = { { name = 'b' }, { name = 'a', aboard = 'b', at = 7 } } }"))
    :find("forces[2] (a).aboard: at and aboard exclude each other", 1, true))
  os.remove(f)
end)

t.test("scenario-9: keel replay plays a scenario's journal again, hash for hash", function()
  local j = os.tmpname()
  t.eq((sh("bin/keel run " .. S .. "convoy_crete.lua --quiet --journal " .. j)), 0)
  local code, out = sh("bin/keel replay " .. j)
  t.eq(code, 0, out)
  t.ok(out:find("every state hash matches", 1, true), out)
  -- a journal with a failed order replays too (the failure is expected again)
  t.eq((sh("bin/keel run " .. S .. "broken_rule.lua --quiet --journal " .. j)), 1)
  code, out = sh("bin/keel replay " .. j)
  t.eq(code, 0, out)
  os.remove(j)
end)

t.test("scenario-10: a force may start in port (port = true); groups = { Name = { values } } sets group values", function()
  local run = scenario.start(scenario.load(S .. "navgroup_integration.lua"))
  local g = run.game
  local kind, where = g:get(run.units.Warspite, "loc")
  t.eq({ kind, run.board:format(where) }, { "port", "19A:2812" })
  t.eq(g:group_get_value(run.groups.Reserve, "reserve"), true)
  t.eq(g:group_get_value(run.groups.Reserve, "in_port"), true)
  t.eq(g:group_get_value(run.groups.Regia, "reserve"), nil)
  local f = os.tmpname()
  local h = assert(io.open(f, "w"))
  h:write("return scenario { rules = { 'navgroup' }, groups = { Nobody = { reserve = true } } }")
  h:close()
  local ok, err = pcall(scenario.load, f)
  os.remove(f)
  t.ok(not ok and tostring(err):find(f .. ":1: groups.Nobody: no force is in a group of that name", 1, true), tostring(err))
end)

t.test("scenario-11: keyed = { {map, key, value} } sets keyed values; check = { keyed = ... } reads them", function()
  local f = os.tmpname()
  local function write(text)
    local h = assert(io.open(f, "w"))
    h:write(text)
    h:close()
  end
  local families = t.cwd() .. "/tests/families"
  write(([[return scenario { rules = { 'toy27' }, path = { %q },
    keyed = { { "vp", "Allied", 40 }, { "vp", "Axis", 12 }, { "zoc", { "Axis", 7 }, 2 } },
    orders = {
      { check = { keyed = { { "vp", "Allied", 40 }, { "zoc", { "Axis", 7 }, 2 }, { "zoc", { "Allied", 7 } } } } },
      { check = { keyed = { { "vp", "Axis", 13 } } } },
    } }]]):format(families))
  local run = scenario.start(scenario.load(f))
  t.eq(run.game:get_keyed("zoc", { "Axis", 7 }), 2)
  t.ok(run.game:journal_text():find('{"ev":"keyed","rule":"scenario","map":"vp","key":["Allied"],"old":null,"new":40}',
    1, true), "set up by the scenario, journaled")
  local _, problems = run:play(1, run.spec.orders[1])
  t.eq(problems, {})
  _, problems = run:play(2, run.spec.orders[2])
  t.eq(problems, { 'expected keyed vp "Axis" = 13, got 12 (keyed[1])' })
  write("return scenario { rules = { 'toy27' }, keyed = { { 'vp' } } }")
  t.raises(function() scenario.load(f) end, "keyed[1]: {map, key, value} expected")
  write("return scenario { rules = { 'toy27' }, orders = { { check = { keyed = { vp = 3 } } } } }")
  t.raises(function() scenario.load(f) end,
    'orders[1].check.keyed: a list of keyed values { {map, key, value}, ... } expected, got a table with the key "vp"')
  os.remove(f)
end)

t.test("scenario-load: a scenario's text is run and checked once; each load gets a copy of its own", function()
  local f = os.tmpname()
  local function write(text)
    local h = assert(io.open(f, "w"))
    h:write(text)
    h:close()
  end
  write("return scenario { name = 'one', rules = { 'navgroup' }, flags = { a = 1 } }")
  local a, b = scenario.load(f), scenario.load(f)
  t.eq(a.name, "one")
  t.ok(a ~= b and a.flags ~= b.flags, "two loads share no table")
  a.flags.a = 2
  t.eq(scenario.load(f).flags.a, 1, "a change to one spec is not seen by the next load")
  write("return scenario { name = 'two', rules = { 'navgroup' } }")
  local c = scenario.load(f)
  t.eq(c.name, "two", "a changed text is run again")
  t.eq(c.hash, require("keel").state.hash_bytes("return scenario { name = 'two', rules = { 'navgroup' } }"))
  os.remove(f)
end)

t.test("scenario-rule_set: games sharing one rule set journal what fresh ones do, byte for byte", function()
  local path = "scenarios/suez_1942.lua"
  local spec = scenario.load(path)
  local set = scenario.rule_set(spec)
  local fresh = scenario.start(scenario.load(path))
  t.eq({ fresh:play_all() }, { #spec.orders, 0 })
  for _ = 1, 2 do   -- the second game finds what the first left in the set and its caches
    local run = scenario.start(spec, { set = set })
    t.ok(run.set == set)
    t.eq({ run:play_all() }, { #spec.orders, 0 })
    t.eq(run.game:journal_text(), fresh.game:journal_text())
  end
end)

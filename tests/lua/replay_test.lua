-- tests/lua/replay_test.lua — keel replay (scripts/keel/cli/replay.lua):
-- each order played again as keel run plays it (parameters, legality,
-- vetoes, under the run's CPU and memory limits, in a sandbox of its own),
-- the header compared, malformed journals named line by line.
local t = require "keel.testing"
local json = require "keel.json"

local dir = t.tmpdir()

local function write(rel, text)
  local path = dir .. "/" .. rel
  os.execute("mkdir -p " .. path:match("^(.*)/[^/]*$"))
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  return path
end

-- A family "gate": pass is legal while the rule's value open is true,
-- spin loops for ever, grab takes memory without end.
local function gate(open, veto)
  write("gate/manifest.lua", 'return family { name = "gate", files = { "r.lua" } }\n')
  write("gate/r.lua", ([[
rule { id = "G.1", title = "Gate", values = { open = %s }, actions = {
  pass = { params = { unit = "unit" },
    legal = function(ctx) return ctx:get_value("open") or "the gate is shut" end,
    effect = function(ctx, p) ctx.game:add_hits(p.unit, 1) end },
  spin = { params = {}, effect = function(ctx) ctx.game:set_global("spun", true)
    while true do end end },
  grab = { params = {}, effect = function(ctx) local t = {}
    for i = 1, 1e12 do t[i] = { i } end end },
} }
%s]]):format(tostring(open), veto and [[
rule { id = "G.2", title = "Veto", vetoes = { pass = function() return "no passing today" end } }
]] or ""))
end

local SCENARIO = write("gate.lua", ([[
return scenario { rules = { "gate" }, path = { %q }, seed = 3,
  forces = { { name = "A", type = "BB", side = "Allied" } },
  orders = { { "pass", unit = "A" }, { "pass", unit = "A" } } }
]]):format(dir))

local function record(journal, extra)
  local code, out = t.sh(t.keel_bin .. " run " .. SCENARIO .. " --quiet --journal " .. journal .. " " .. (extra or ""))
  return code, out
end

local function replay(journal, extra)
  return t.sh("timeout 60 " .. t.keel_bin .. " replay " .. (extra or "") .. " " .. journal)
end

t.test("replay-1: the orders replay as keel run plays them: legality and vetoes of the current rules", function()
  gate(true)
  local j = dir .. "/gate.jsonl"
  t.eq((record(j)), 0)
  local code, out = replay(j)
  t.eq(code, 0, out)
  t.ok(out:find("replayed 2 actions", 1, true), out)
  -- the rule now forbids what the journal played: refused, with the reason
  gate(false)
  code, out = replay(j)
  t.eq(code, 1, out)
  t.ok(out:find("note: rule file changed: " .. dir .. "/gate/r.lua", 1, true), out)
  t.ok(out:find(j .. ":6: the current rules refuse action 1 'pass' (order {\"unit\":1}): "
    .. "illegal pass (rule G.1 Gate): the gate is shut", 1, true), out)
  -- a veto added since
  gate(true, true)
  code, out = replay(j)
  t.eq(code, 1, out)
  t.ok(out:find("the current rules refuse action 1 'pass' (order {\"unit\":1}): pass vetoed by rule G.2 (Veto): "
    .. "no passing today", 1, true), out)
end)

t.test("replay-2: an order stopped at its CPU limit is stopped again on replay (the run's limits)", function()
  gate(true)
  local s = write("spin.lua", ([[
return scenario { rules = { "gate" }, path = { %q }, orders = { { "spin", expect = { error = "CPU limit" } } } }
]]):format(dir))
  local j = dir .. "/spin.jsonl"
  local code, out = t.sh(t.keel_bin .. " run " .. s .. " --quiet --cpu 0.2 --journal " .. j)
  t.eq(code, 0, out)
  local header = json.decode(t.read_file(j):match("^[^\n]*"))
  t.eq(header.limits.cpu, 0.2)
  code, out = replay(j)
  t.ok(code ~= 124, "replay ran the order without its CPU limit")
  t.eq(code, 0, out)
end)

t.test("replay-3: a memory bomb is stopped on replay by the run's memory limit", function()
  gate(true)
  local s = write("grab.lua", ([[
return scenario { rules = { "gate" }, path = { %q }, orders = { { "grab", expect = { error = "memory limit" } } } }
]]):format(dir))
  local j = dir .. "/grab.jsonl"
  local code, out = t.sh(t.keel_bin .. " run " .. s .. " --quiet --memory 48 --journal " .. j)
  t.eq(code, 0, out)
  -- (ulimit: a replay without the limit must not take the machine; the
  -- sanitizer build reserves its shadow memory and cannot run under one)
  local ulimit = t.keel_bin:find("asan", 1, true) and "" or "ulimit -v 3000000; "
  code, out = t.sh(ulimit .. "timeout 120 " .. t.keel_bin .. " replay " .. j)
  t.eq(code, 0, out)
  t.ok(out:find("replayed 0 actions", 1, true), out)
end)

t.test("replay-4: the header's scenario, variants and limits must be the scenario's now; its seed is the game's", function()
  gate(true)
  write("gate/open.lua", 'variant { name = "open gate", base = "gate" }\nset_values("G.1", { open = true })\n')
  local s = write("gate_v.lua", ([[
return scenario { rules = { "gate" }, path = { %q }, variants = { "gate/open.lua" }, seed = 3,
  forces = { { name = "A", type = "BB", side = "Allied" } },
  orders = { { "pass", unit = "A" } } }
]]):format(dir))
  local j = dir .. "/gate_v.jsonl"
  local code, out = t.sh(t.keel_bin .. " run " .. s .. " --quiet --cpu 4 --journal " .. j)
  t.eq(code, 0, out)   -- limits other than keel run's own: in the header
  local text = t.read_file(j)
  t.ok(text:find('"limits":{"cpu":4,', 1, true), text:sub(1, 400))
  local function tampered(a, b)
    local bad = write("bad.jsonl", (text:gsub(a:gsub("%p", "%%%0"), (b:gsub("%%", "%%%%")), 1)))
    return bad, replay(bad)
  end
  -- the scenario's own variant left out of the header: not the same game
  local bad, c1, o1 = tampered('"variants":["' .. dir .. '/gate/open.lua"]', '"variants":{}')
  t.eq(c1, 1, o1)
  t.ok(o1:find(bad .. ':1: the journal\'s game is not the one its scenario sets up now: "variants" is {} in the '
    .. 'journal, ["' .. dir .. '/gate/open.lua"] now', 1, true), o1)
  -- other limits: replay plays under the journal's (this game does not depend on them)
  local c2, o2 = select(2, tampered('"cpu":4', '"cpu":7'))
  t.eq(c2, 0, o2)
  -- another seed: the game's own (keel run --seed), and so the replay's; nothing here rolls
  local c3, o3 = select(2, tampered('"seed":3', '"seed":4'))
  t.eq(c3, 0, o3)
end)

t.test("replay-5: malformed journal fields are named with file:line", function()
  gate(true)
  local j = dir .. "/gate.jsonl"
  t.eq((record(j)), 0)
  local lines = {}
  for l in t.read_file(j):gmatch("[^\n]+") do lines[#lines + 1] = l end
  local function first(ev)
    for i, l in ipairs(lines) do if l:find('{"ev":"' .. ev .. '"', 1, true) == 1 then return i end end
  end
  for _, c in ipairs {
    { "action", '"action":1,', '"action":1.5,', 'field "action" of the "action" event: a whole number >= 1 expected, got 1.5' },
    { "action", '"action":1,', '"action":"1",', 'field "action" of the "action" event: a whole number >= 1 expected, got "1"' },
    { "action", '"name":"pass"', '"name":5', 'field "name" of the "action" event: a string expected, got 5' },
    { "action", '"order":{"unit":1}', '"order":5', 'field "order" of the "action" event: an object expected, got 5' },
    { "end", '"hash":"', '"hash":"zz', 'field "hash" of the "end" event: a state hash (16 hex digits) expected, got "zz' },
    { "header", '"seed":3', '"seed":3.5', '"seed" of the header: a whole number expected, got 3.5' },
    { "header", '"version":1', '"version":"x"', 'journal version "x"; this keel replays version 1' },
    { "action", '{"ev":"action"', '{"ev":5', 'not a journal event (no "ev" field)' },
    { "action", '}', '', "not a journal event (" },
  } do
    local i = first(c[1])
    local copy = { table.unpack(lines) }
    local pos = copy[i]:find(c[2], 1, true)
    copy[i] = copy[i]:sub(1, pos - 1) .. c[3] .. copy[i]:sub(pos + #c[2])
    local bad = write("bad.jsonl", table.concat(copy, "\n") .. "\n")
    local code, out = replay(bad)
    t.eq(code, 1, out)
    t.ok(out:find(bad .. ":" .. i .. ": " .. c[4], 1, true), c[3] .. ": " .. out)
  end
  -- a header that stacks a variant file that is not there
  local stacked = write("bad.jsonl", (table.concat(lines, "\n") .. "\n"):gsub('"variants":{}',
    '"variants":["' .. dir .. '/nowhere.lua"]', 1))
  local scode, sout = replay(stacked)
  t.eq(scode, 1, sout)
  t.ok(sout:find(stacked .. ":1: cannot set the journal's game up again: " .. dir .. "/nowhere.lua", 1, true), sout)
  -- an undo of a fraction
  local bad = write("bad.jsonl", lines[1] .. "\n" .. '{"ev":"undo","n":0.5,"hash":"0000000000000000"}\n')
  local code, out = replay(bad)
  t.eq(code, 1, out)
  t.ok(out:find(bad .. ':2: field "n" of the "undo" event: a whole number >= 1 expected, got 0.5', 1, true), out)
end)


t.test("replay-rule-files: a journal whose rule-file list drops or renames a file is said so on replay", function()
  gate(true)
  local j = dir .. "/files.jsonl"
  local rc, rout = record(j)
  t.eq(rc, 0, rout)
  -- the journal's list with r.lua's line dropped
  local lines = {}
  for l in t.read_file(j):gmatch("[^\n]+\n?") do
    if not l:find('"ev":"rule_file","path":"' .. dir .. '/gate/r.lua"', 1, true) then lines[#lines + 1] = l end
  end
  local dropped = write("dropped.jsonl", table.concat(lines))
  local code, out = replay(dropped)
  t.eq(code, 0, out)
  t.ok(out:find("note: rule file changed: " .. dir .. "/gate/r.lua (loaded on replay, not in the journal's rule-file list)",
    1, true), out)
  -- the rule file renamed in the family: the journal's name is not loaded, the new one is not listed
  write("gate/manifest.lua", 'return family { name = "gate", files = { "renamed.lua" } }\n')
  os.rename(dir .. "/gate/r.lua", dir .. "/gate/renamed.lua")
  code, out = replay(j)
  t.eq(code, 0, out)
  t.ok(out:find("note: rule file changed: " .. dir .. "/gate/r.lua (in the journal's rule-file list, not loaded on replay: "
    .. "dropped or renamed)", 1, true), out)
  t.ok(out:find("note: rule file changed: " .. dir .. "/gate/renamed.lua (loaded on replay, not in the journal's "
    .. "rule-file list)", 1, true), out)
  os.remove(dir .. "/gate/renamed.lua")
  gate(true)
end)

t.test("replay-keel-scripts: KEEL_SCRIPTS through a symlink writes the same journal as the real folder", function()
  local link = dir .. "/scripts-link"
  assert(os.execute("ln -s " .. t.cwd() .. "/scripts " .. link))
  local scenario = t.cwd() .. "/scenarios/seabox_house_rules.lua"   -- absolute: its variant names keel's folder
  local a, b = dir .. "/real.jsonl", dir .. "/linked.jsonl"
  local code, out = t.sh(("%s run %s --quiet --journal %s"):format(t.keel_bin, scenario, a))
  t.eq(code, 0, out)
  code, out = t.sh(("KEEL_SCRIPTS=%s %s run %s --quiet --journal %s"):format(link, t.keel_bin, scenario, b))
  t.eq(code, 0, out)
  t.ok(t.read_file(a):find('"path":"<keel>/seabox/variants/campaign_001.lua"', 1, true), "the variant is keel's own")
  t.eq(t.read_file(b), t.read_file(a))
  code, out = t.sh(("KEEL_SCRIPTS=%s %s replay %s"):format(link, t.keel_bin, a))
  t.eq(code, 0, out)
  t.ok(not out:find("note:", 1, true), out)
  os.remove(link)
end)
os.execute("rm -rf " .. dir)

t.test("replay-loaded: a journal written after loading a save that keeps no journal is refused at its header, naming the save, not 'rule nil'", function()
  local scenario = require "keel.scenario"
  local game_mod = require "keel.game"
  local spec = scenario.load("scenarios/suez_1942.lua")
  local run = scenario.start(spec)
  t.ok(run.set:act(run.game, "end_phase", {}, "Axis"))
  local here = t.tmpdir()
  local save, journal = here .. "/g.save", here .. "/loaded.jsonl"
  -- a save with no journal in it (as keel wrote them before 32: a game whose journal is off)
  run.game.state:journal_clear()
  t.ok(run.game:save(save))
  t.eq(t.read_file(save):find('meta "journal"', 1, true), nil, "no journal kept")
  local resumed = scenario.resume(spec, assert(game_mod.load(save)))
  t.ok(resumed.set:act(resumed.game, "end_phase", {}, "Axis"))
  t.ok(resumed.game:write_journal(journal))
  local code, out = t.sh(t.keel_bin .. " replay " .. journal)
  t.eq(code, 1, out)
  t.ok(out:find(journal .. ":1: this journal goes on from a save", 1, true), out)
  t.ok(out:find(save, 1, true), out)
  t.eq(out:find("rule nil", 1, true), nil, out)
  t.eq(out:find("keel/[%w_/]+%.lua:%d+:"), nil, out)
  os.execute("rm -rf " .. here)
end)

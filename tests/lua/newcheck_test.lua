-- tests/lua/newcheck_test.lua — keel new and keel check, as an author
-- outside keel's tree uses them (issue 33): a family, a variant and a
-- scenario made in a scratch folder pass keel check and play; each broken
-- in three ways is reported with file:line; luacheck with only the
-- generated .luacheckrc is clean; the .luarc.json names meta files that
-- load in the stock lua5.4.
local t = require "keel.testing"
local json = require "keel.json"

local keel_bin, sh = t.keel_bin, t.sh
local root = t.cwd()
local bin = keel_bin:sub(1, 1) == "/" and keel_bin or (root .. "/" .. keel_bin)

local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- run keel in `dir`
local function keel(dir, args) return sh("cd " .. q(dir) .. " && " .. q(bin) .. " " .. args) end

local function read(path) return t.read_file(path) end
local function write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

-- the line of the first occurrence of `needle` in a file's text
local function line_of(text, needle)
  local at = assert(text:find(needle, 1, true), "no " .. needle)
  local _, n = text:sub(1, at):gsub("\n", "")
  return n + 1
end

-- replace `old` (plain, once) in a file
local function edit(path, old, new)
  local text = read(path)
  local a, b = text:find(old, 1, true)
  assert(a, path .. ": no " .. old)
  write(path, text:sub(1, a - 1) .. new .. text:sub(b + 1))
  return text:sub(1, a - 1) .. new .. text:sub(b + 1)
end

local have_luacheck = (sh("command -v luacheck")) == 0

-- one scratch folder, outside the repository, with the three things in it
local dir = t.tmpdir()
local made = {}
made.family = { keel(dir, "new family raids") }
made.variant = { keel(dir, "new variant house.lua --of raids") }
made.scenario = { keel(dir, "new scenario battle.lua --rules raids") }

t.test("new-1: keel new makes a family, a variant and a scenario outside the repository", function()
  t.ok(dir:sub(1, #root + 1) ~= root .. "/", "the folder is outside the repository: " .. dir)
  for kind, r in pairs(made) do t.eq(r[1], 0, kind .. ": " .. r[2]) end
  for _, f in ipairs { "raids/manifest.lua", "raids/raids.lua", "raids/tables/raid.tbl", "raids/tests/X.1.lua",
                       "house.lua", "battle.lua", ".luacheckrc", ".luarc.json" } do
    t.ok(io.open(dir .. "/" .. f), f .. " written")
  end
  -- the rule carries the placeholder id; the variant names a row of the family's table
  t.ok(read(dir .. "/raids/raids.lua"):find('id = "X.1"', 1, true))
  t.ok(read(dir .. "/house.lua"):find('set_row("raid", "1-2", "0")', 1, true), read(dir .. "/house.lua"))
  -- the .luacheckrc says what each file is
  local rc = read(dir .. "/.luacheckrc")
  for _, l in ipairs { 'files["raids"] = { std = "keel_script+keel_rules" }',
                       'files["raids/tests"] = { std = "keel_script+keel_scenario" }',
                       'files["house.lua"] = { std = "keel_script+keel_variant" }',
                       'files["battle.lua"] = { std = "keel_script+keel_scenario" }' } do
    t.ok(rc:find(l, 1, true), l)
  end
end)

t.test("new-2: keel new never overwrites a file", function()
  local before = read(dir .. "/raids/raids.lua")
  local st, out = keel(dir, "new family raids")
  t.eq(st, 1)
  t.ok(out:find("raids/manifest.lua exists already", 1, true), out)
  t.eq(read(dir .. "/raids/raids.lua"), before)
  local vst, vout = keel(dir, "new variant house.lua --of raids")
  t.eq(vst, 1)
  t.ok(vout:find("house.lua exists already", 1, true), vout)
  local sst, sout = keel(dir, "new scenario battle.lua --rules raids")
  t.eq(sst, 1)
  t.ok(sout:find("battle.lua exists already", 1, true), sout)
  -- usage errors: one line, exit 2
  local ust, uout = keel(dir, "new variant other.lua")
  t.eq(ust, 2)
  t.ok(uout:find("needs --of FAMILY", 1, true), uout)
end)

t.test("new-3: what keel new wrote passes keel check, with luacheck when installed", function()
  local st, out = keel(dir, "check raids house.lua battle.lua")
  t.eq(st, 0, out)
  t.ok(out:find("keel check: raids house.lua battle.lua: no problems", 1, true), out)
  t.ok(out:find(have_luacheck and "luacheck: run" or "luacheck: not installed", 1, true), out)
end)

t.test("new-4: the rule's test and the scenario play; the scenario to its end", function()
  local st, out = keel(dir, "run raids/tests/X.1.lua --quiet")
  t.eq(st, 0, out)
  t.ok(out:find("5 order(s), 5 as expected, 0 not", 1, true), out)
  local rst, rout = keel(dir, "run battle.lua --json")
  t.eq(rst, 0, rout)
  local last = json.decode(rout:match("([^\n]+)\n?$"))
  t.eq(last.kind, "result")
  t.eq(last.over, true, rout)
  t.eq(last.failed, 0)
  t.ok(last.reason and last.reason:find("battle.lua:", 1, true), tostring(last.reason))
end)

t.test("new-7: keel play plays the new scenario to its end with players", function()
  local st, out = keel(dir, "play battle.lua --quiet --player Blue=random --player Red=greedy")
  t.eq(st, 0, out)
  t.ok(out:find("\nresult: ", 1, true) and out:find("battle.lua:", 1, true), out)
  -- the scripted line keel new wrote plays the rule's action, not passes alone
  t.ok(read(dir .. "/battle.lua"):find('{ "raid", by = "Blue", unit = "Blue 1" }', 1, true), read(dir .. "/battle.lua"))
end)

t.test("new-8: keel new scenario on a map, with the families of its folder", function()
  local d = t.tmpdir()
  sh("cp " .. q(root .. "/scenarios/maps/crete.map") .. " " .. q(d) .. "/ && cp -R " .. q(dir .. "/raids") .. " " .. q(d) .. "/")
  local st, out = keel(d, "new scenario crete_raids.lua --map crete.map")
  t.eq(st, 0, out)
  local text = read(d .. "/crete_raids.lua")
  t.ok(text:find('map = "crete.map"', 1, true), text)
  t.ok(text:find('rules = { "raids" }', 1, true), text)
  local board = require("keel").board.load(root .. "/scenarios/maps/crete.map")
  local hexes = board:hexes()
  t.ok(text:find(('at = "%s"'):format(board:format(hexes[1])), 1, true), text)
  local rst, rout = keel(d, "check crete_raids.lua --no-luacheck")
  t.eq(rst, 0, rout)
  -- no family to play with: said so, nothing written
  local e = t.tmpdir()
  local est, eout = keel(e, "new scenario lone.lua")
  t.eq(est, 1)
  t.ok(eout:find("name the rule families it plays with (--rules FAMILY)", 1, true), eout)
  t.ok(not io.open(e .. "/lone.lua"))
  sh("rm -rf " .. q(d) .. " " .. q(e))
end)

t.test("new-9: keel started through PATH (argv[0] without a folder) finds its scripts", function()
  -- (the sanitizer build, outside the tree's bin/, is given KEEL_SCRIPTS by tests/run.sh: kept)
  local st, out = sh(("cd %s && PATH=%s:\"$PATH\" keel check --no-luacheck raids"):format(q(dir),
    q(bin:match("^(.*)/[^/]+$"))))
  t.eq(st, 0, out)
  t.ok(out:find("no problems", 1, true), out)
end)

t.test("new-10: keel new variant of keel's own families: a table row, or a rule's value when it has no table", function()
  local d = t.tmpdir()
  for _, fam in ipairs { "navgroup", "seazone", "ocs", "seabox" } do
    local st, out = keel(d, ("new variant house_%s.lua --of %s"):format(fam, fam))
    t.eq(st, 0, out)
  end
  t.ok(read(d .. "/house_navgroup.lua"):find('\nset_row("naval_search", ', 1, true))
  -- seabox lists no table file: the first plain value of its first rule with one
  local sb = read(d .. "/house_seabox.lua")
  local id, key = sb:match('\nset_values%("([^"]+)", { ([%w_]+) = ')
  t.ok(id, sb)
  local set = require("keel.rules").load { families = { "seabox" } }
  t.ok(set:rule(id).values[key] ~= nil, id .. "." .. tostring(key))
  local cst, cout = keel(d, "check house_navgroup.lua house_seazone.lua house_ocs.lua house_seabox.lua")
  t.eq(cst, 0, cout)
  sh("rm -rf " .. q(d))
end)

t.test("new-5: luacheck with only the generated .luacheckrc: 0 warnings; it knows what each file is", function()
  if not have_luacheck then io.write("skip new-5: luacheck is not installed (make deps installs lua-check)\n") return end
  local st, out = sh("cd " .. q(dir) .. " && luacheck --no-color .")
  t.eq(st, 0, out)
  t.ok(out:find("Total: 0 warnings / 0 errors in 5 files", 1, true), out)
  -- the stds are in force: a variant may not call rule{}, a rule file may not use io
  local other = t.tmpdir()
  sh("cp " .. q(dir) .. "/.luacheckrc " .. q(dir) .. "/house.lua " .. q(other) .. "/ && cp -R " .. q(dir) .. "/raids "
    .. q(other) .. "/")
  write(other .. "/house.lua", read(other .. "/house.lua") .. 'rule { id = "Y" }\n')
  write(other .. "/raids/raids.lua", read(other .. "/raids/raids.lua") .. 'io.write("x")\n')
  local bst, bout = sh("cd " .. q(other) .. " && luacheck --no-color --codes .")
  t.eq(bst, 1, bout)
  t.ok(bout:find("house.lua:%d+:%d+: %(W113%) accessing undefined variable 'rule'"), bout)
  t.ok(bout:find("raids.lua:%d+:%d+: %(W113%) accessing undefined variable 'io'"), bout)
  sh("rm -rf " .. q(other))
end)

t.test("new-6: the .luarc.json names keel's meta files; each loads in the stock lua5.4", function()
  local cfg = json.decode(read(dir .. "/.luarc.json"))
  t.eq(cfg["runtime.version"], "Lua 5.4")
  local lib = cfg["workspace.library"][1]
  t.eq(lib, require("keel").script_dir .. "/keel/meta")
  local p = assert(io.popen("ls " .. q(lib) .. "/*.d.lua"))
  local n = 0
  for f in p:lines() do
    n = n + 1
    local st, out = sh("lua5.4 " .. q(f))
    t.eq(st, 0, f .. ": " .. out)
  end
  p:close()
  t.ok(n >= 16, "meta files: " .. n)
end)

-- ---- three ways to break each, each reported with file:line --------------------------------

-- a fresh copy of the scratch folder
local function copy()
  local d = t.tmpdir()
  sh("cp -R " .. q(dir) .. "/. " .. q(d) .. "/")
  return d
end

-- keel check's lines "file:line: text" as a list
local function check(d, args)
  local st, out = keel(d, "check --no-luacheck " .. args)
  local lines = {}
  for l in out:gmatch("[^\n]+") do
    if not l:match("^keel check:") then lines[#lines + 1] = l end
  end
  return st, lines, out
end

local function reported(lines, file, line, text)
  local want = ("%s:%d: "):format(file, line)
  for _, l in ipairs(lines) do
    if l:sub(1, #want) == want and l:find(text, 1, true) then return true end
  end
  return false
end

t.test("check-1: a family broken three ways: each problem with its file and line, all at once", function()
  local d = copy()
  -- a table row that does not parse
  local tbl = edit(d .. "/raids/tables/raid.tbl", "6     2", "6x    2")
  -- an action without a side
  edit(d .. "/raids/raids.lua", 'side = "phasing", phases', "phases")
  -- a parameter without a domain
  edit(d .. "/raids/raids.lua", "params = {\n", 'params = {\n        target = "hex",\n')
  -- a stand-in without its chapter
  local rule = edit(d .. "/raids/raids.lua", 'title = "Raids"', 'title = "Raids (stand-in for the raids chapter)"')
  local st, lines, out = check(d, "raids")
  t.eq(st, 1, out)
  t.ok(reported(lines, "raids/tables/raid.tbl", line_of(tbl, "6x"), "expected a row"), out)
  local action_line = line_of(rule, "legal = function")
  t.ok(reported(lines, "raids/raids.lua", action_line, "action raid has no side"), out)
  t.ok(reported(lines, "raids/raids.lua", action_line, "parameter 'target' (hex) has no domain"), out)
  t.ok(reported(lines, "raids/raids.lua", line_of(rule, "rule {"), "its title says it is a stand-in"), out)
  t.ok(out:find("keel check: 4 problem(s)", 1, true), out)
  sh("rm -rf " .. q(d))
end)

t.test("check-2: a family whose rule hooks an unknown event; its manifest names a file it lacks", function()
  local d = copy()
  local rule = edit(d .. "/raids/raids.lua", "  actions = {\n", "  on = { turn_strat = function() end },\n  actions = {\n")
  local st, lines, out = check(d, "raids")
  t.eq(st, 1, out)
  t.ok(reported(lines, "raids/raids.lua", line_of(rule, "rule {"), "unknown event 'turn_strat'"), out)
  -- a file the manifest lists that is not there: reported, and the other files checked all the same
  local man = edit(d .. "/raids/manifest.lua", 'files = { "raids.lua" }', 'files = { "missing.lua", "raids.lua" }')
  local st2, lines2, out2 = check(d, "raids")
  t.eq(st2, 1, out2)
  t.ok(reported(lines2, "raids/raids.lua", line_of(rule, "rule {"), "unknown event 'turn_strat'"), out2)
  t.ok(reported(lines2, "raids/manifest.lua", line_of(man, "files = {"), "files: no file missing.lua"), out2)
  sh("rm -rf " .. q(d))
end)

t.test("check-3: a variant broken three ways: each with its file and line", function()
  local d = copy()
  local base = read(d .. "/house.lua")
  local set_row = 'set_row("raid", "1-2", "0")'
  -- a row the table does not have; a rule id that does not exist; an unknown event
  local v1 = base:gsub('"1%-2", "0"', '"7-9", "0"')
  local v2 = base .. 'replace("X.9", { title = "no such rule" })\n'
  local v3 = base .. 'wrap("X.1", { on = { turn_strat = function(orig, ctx, ev) return orig(ctx, ev) end } })\n'
  write(d .. "/v1.lua", v1)
  write(d .. "/v2.lua", v2)
  write(d .. "/v3.lua", v3)
  local st, lines, out = check(d, "v1.lua v2.lua v3.lua")
  t.eq(st, 1, out)
  t.ok(reported(lines, "v1.lua", line_of(v1, 'set_row("raid", "7-9"'), "has no row '7-9'"), out)
  t.ok(reported(lines, "v2.lua", line_of(v2, 'replace("X.9"'), "X.9"), out)
  t.ok(reported(lines, "v3.lua", line_of(v3, 'wrap("X.1"'), "turn_strat"), out)
  t.ok(base:find(set_row, 1, true))
  t.eq(#lines, 3, out)
  sh("rm -rf " .. q(d))
end)

t.test("check-4: a scenario broken three ways: each with its file and line", function()
  local d = copy()
  local base = read(d .. "/battle.lua")
  local s1 = base:gsub("turns = 2", "turns = 0")
  local s2 = base:gsub('victory = { { higher_score = true,', 'victory = { { when = "noon", higher_score = true,')
  local s3 = base:gsub('    { "end_phase", by = "Blue" },\n', '    { "raid", by = "Blue", unit = "Nobody" },\n', 1)
  write(d .. "/s1.lua", s1)
  write(d .. "/s2.lua", s2)
  write(d .. "/s3.lua", s3)
  local st, lines, out = check(d, "s1.lua s2.lua s3.lua")
  t.eq(st, 1, out)
  t.ok(reported(lines, "s1.lua", line_of(s1, "turns = 0"), "turns"), out)
  t.ok(reported(lines, "s2.lua", line_of(s2, 'when = "noon"'), "noon"), out)
  t.ok(reported(lines, "s3.lua", line_of(s3, 'unit = "Nobody"'), "Nobody"), out)
  t.eq(#lines, 3, out)   -- the orders after a failed one are not checked
  sh("rm -rf " .. q(d))
end)

t.test("check-5: keel check's luacheck pass reports a warning with its file and line", function()
  if not have_luacheck then io.write("skip check-5: luacheck is not installed\n") return end
  local d = copy()
  local text = edit(d .. "/house.lua", "variant {", "local unused = 1\nvariant {")
  local st, out = keel(d, "check house.lua")
  t.eq(st, 1, out)
  t.ok(out:find(("house.lua:%d: luacheck: (W211) unused variable 'unused'"):format(line_of(text, "local unused")), 1, true),
    out)
  sh("rm -rf " .. q(d))
end)

t.test("check-6: keel check of a missing path, and usage errors", function()
  local st, out = keel(dir, "check nothing_here.lua")
  t.eq(st, 1)
  t.ok(out:find("nothing_here.lua:1: nothing_here.lua: no such file", 1, true), out)
  local ust, uout = keel(dir, "check")
  t.eq(ust, 2)
  t.ok(uout:find("check needs a PATH", 1, true), uout)
end)

sh("rm -rf " .. q(dir))

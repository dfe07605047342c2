-- tests/lua/embed_test.lua — keel from the stock lua5.4 (doc/embedding.md):
-- keel.so found through package.cpath (or LUA_CPATH), keel's scripts
-- through KEEL_SCRIPTS when keel.so is not beside them; a scenario played
-- there gives keel run's journal. (The C program that embeds the rules
-- engine is tests/host/embed.c; tests/install.sh runs both against an
-- installed keel.)
local t = require "keel.testing"

local function sh_quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

local PLAY = [[
local keel = require "keel"          -- first: it puts keel's scripts on package.path
local scenario = require "keel.scenario"
local run = scenario.start(scenario.load("scenarios/suez_1942.lua"))
local _, failed = run:play_all()
local f = assert(io.open("tests/golden/suez_1942.jsonl", "rb"))
local want = f:read("a")
f:close()
print(keel.script_dir, failed, run.game:journal_text() == want)
]]

t.test("embed-1: the stock lua5.4 with LUA_CPATH to the build's keel.so plays the showcase as keel run does", function()
  local dir = t.tmpdir()
  local f = assert(io.open(dir .. "/play.lua", "w")); f:write(PLAY); f:close()
  local status, out = t.sh("KEEL_SCRIPTS= LUA_CPATH='lib/?.so;;' lua5.4 " .. sh_quote(dir .. "/play.lua"))
  t.eq(status, 0, out)
  t.eq(out, t.cwd() .. "/scripts\t0\ttrue\n", "scripts found beside keel.so (../scripts)")
  os.execute("rm -rf " .. sh_quote(dir))
end)

t.test("embed-2: keel.so copied away from the scripts: package.cpath in the script, KEEL_SCRIPTS for the scripts", function()
  local dir = t.tmpdir()
  os.execute("cp lib/keel.so " .. sh_quote(dir .. "/keel.so"))
  local f = assert(io.open(dir .. "/play.lua", "w"))
  f:write(("package.cpath = %q .. package.cpath\n"):format(dir .. "/?.so;") .. PLAY)
  f:close()
  local status, out = t.sh("KEEL_SCRIPTS=" .. sh_quote(t.cwd() .. "/scripts") .. " lua5.4 " .. sh_quote(dir .. "/play.lua"))
  t.eq(status, 0, out)
  t.eq(out, t.cwd() .. "/scripts\t0\ttrue\n")
  -- without KEEL_SCRIPTS there is no scripts folder beside it: keel says where it looked
  status, out = t.sh("KEEL_SCRIPTS= lua5.4 " .. sh_quote(dir .. "/play.lua"))
  t.ok(status ~= 0)
  t.ok(out:find("module 'keel.scenario' not found", 1, true), out)
  t.ok(out:find("/share/keel/scripts/keel/scenario.lua", 1, true), "the configured install folder is among the places: " .. out)
  os.execute("rm -rf " .. sh_quote(dir))
end)

-- tests/lua/guide_test.lua — doc/guide.md's examples: the files the guide
-- shows are the files in doc/examples/, they load, and the scenario plays
-- with every expectation met.
local t = require "keel.testing"
local rules = require "keel.rules"
local scenario = require "keel.scenario"

local slurp = t.read_file

t.test("guide-1: each example the guide shows is the file on disk", function()
  local guide = slurp("doc/guide.md")
  local n = 0
  for path, body in guide:gmatch("<!%-%- file: ([^ ]+) %-%->\n```%w*\n(.-)\n```") do
    n = n + 1
    t.eq(body .. "\n", slurp(path), path)
  end
  t.eq(n, 6)
end)

t.test("guide-2: the example family and variant load; keel rules lists them", function()
  local set = rules.load { families = { "convoy" }, path = { "doc/examples" },
                           variants = { "doc/examples/variants/cruiser_escorts.lua" } }
  t.eq(set:ids(), { "G.2", "G.1" })
  t.eq(set:rule("G.1").values.escort_types, { DD = true, CL = true })
  local ok = os.execute("bin/keel rules --path doc/examples convoy --variant " ..
                        "doc/examples/variants/cruiser_escorts.lua > /dev/null")
  t.ok(ok)
end)

t.test("guide-3: the example scenario plays with its expectations met", function()
  local run = scenario.start(scenario.load("doc/examples/convoy_scenario.lua"))
  t.eq({ run:play_all() }, { 2, 0 })
  t.ok(os.execute("bin/keel run doc/examples/convoy_scenario.lua --quiet > /dev/null"))
end)

t.test("guide-4: the example scenario's outcomes are read at the end of a game (keel lab)", function()
  local rec = require("keel.lab_game").play("doc/examples/convoy_scenario.lua", {}, 7)
  t.eq(rec.ok, true)
  t.eq(rec.met, "11")
  t.ok(math.type(rec.outcomes.afloat) == "integer" and rec.outcomes.afloat >= 0 and rec.outcomes.afloat <= 3)
  t.eq(rec.outcomes.ajax_hits, 0)
end)

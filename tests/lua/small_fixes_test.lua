-- tests/lua/small_fixes_test.lua — small wrong things a new user met
-- (issue 18), each pinned by a test: a table cell's text inside a rule,
-- a failed position expectation naming the hex by its label, a failure
-- expectation matched without regard to case and said once, two variants
-- changing one rule refused when the game is set up.
local t = require "keel.testing"
local rules = require "keel.rules"
local game_mod = require "keel.game"

local keel_bin, sh = t.keel_bin, t.sh

-- files written on the fly: {relative path = text} under a fresh folder
local function write_tree(files)
  local dir = t.tmpdir()
  for rel, text in pairs(files) do
    os.execute("mkdir -p '" .. dir .. "/" .. (rel:match("^(.*)/") or ".") .. "'")
    local f = assert(io.open(dir .. "/" .. rel, "w"))
    f:write(text)
    f:close()
  end
  return dir
end

local TINY = [[
table tiny
title TINY
rule  T.1
dice  1d6
columns TF NT

rows
1-3   D   +3 MP
4-6   x5  -

table costs
title COSTS
columns TF NT

rows
enter   Enter a hex.   | 1    +3 MP
]]

t.test("tables: tostring(cell) inside a rule gives the cell's text (doc/tables.md), not the proxy's name", function()
  local dir = write_tree {
    ["cells/manifest.lua"] = 'return family { name = "cells", files = { "r.lua" }, tables = { "tiny.tbl" } }',
    ["cells/tables/tiny.tbl"] = TINY,
    ["cells/r.lua"] = [[
rule {
  id = "T.1", title = "Cells",
  queries = {
    cell_text = function(ctx) return tostring(ctx:table("costs"):get("enter", "NT")) end,
    resolved = function(ctx)
      local result = ctx:resolve("tiny", {}, { reason = "test" })
      return tostring(result.TF), tostring(result.NT), ("%s"):format(result.TF)
    end,
  },
}
]],
  }
  local set = rules.load { families = { "cells" }, path = { dir } }
  local g = game_mod.new { seed = 1 }
  t.eq(set:query(g, "cell_text"), "+3 MP")
  local tf, nt, fmt = set:query(g, "resolved")
  t.ok(tf == "D" or tf == "x5", "the TF cell's text: " .. tf)
  t.ok(nt == "+3 MP" or nt == "-", "the NT cell's text: " .. nt)
  t.eq(fmt, tf, "string.format %s too")
  os.execute("rm -rf '" .. dir .. "'")
end)

local SPIN_FAMILY = {
  ["spin/manifest.lua"] = 'return family { name = "spin", files = { "spin.lua" } }',
  ["spin/spin.lua"] = [[
rule {
  id = "S.1", title = "Spins",
  actions = {
    spin = { params = {}, effect = function() while true do end end },
    boom = { params = {}, effect = function() error("BOOM in the engine room") end },
  },
}
]],
}

local function scenario_tree(orders_text, extra)
  local files = { ["game.lua"] = ([[
return scenario {
  name = "fixes", rules = { "spin", "toy27" }, path = { ".", %q },
  map = %q,
  forces = { { name = "Warspite", type = "BB", side = "Allied", at = "19A:2809" } },
  orders = { %s },
}
]]):format(t.cwd() .. "/tests/families", t.cwd() .. "/scenarios/maps/suez.map", orders_text) }
  for k, v in pairs(SPIN_FAMILY) do files[k] = v end
  for k, v in pairs(extra or {}) do files[k] = v end
  return write_tree(files)
end

t.test("scenario: a failed position expectation names the hex by its map label", function()
  local dir = scenario_tree('{ check = { units = { Warspite = { at = "19A:2909" } } } }')
  local status, out = sh(keel_bin .. " run " .. dir .. "/game.lua --quiet")
  t.eq(status, 1, out)
  t.ok(out:find("expected Warspite at 19A:2909, got hex 19A:2809", 1, true), out)
  t.ok(not out:find("got hex %d%d%d%d%d"), "no raw hex id: " .. out)
  os.execute("rm -rf '" .. dir .. "'")
end)

t.test("scenario: expect = { error = \"cpu\" } is met by a CPU stop (whatever the case), and said once", function()
  local dir = scenario_tree('{ "spin", expect = { error = "cpu" } }, { "boom", expect = { error = "boom in the ENGINE" } }')
  local status, out = sh(keel_bin .. " run " .. dir .. "/game.lua --cpu 0.2")
  t.eq(status, 0, out)
  t.ok(out:find("cpu %(as expected%): [^\n]*CPU limit exceeded"), out)
  t.ok(out:find("error (as expected): ", 1, true), out)
  t.ok(not out:find("expected the reason", 1, true), out)
  t.ok(out:find("result: 2 order(s), 2 as expected, 0 not", 1, true), out)
  os.execute("rm -rf '" .. dir .. "'")
end)

t.test("scenario: a failure whose reason does not match is not 'as expected': one line says what was", function()
  local dir = scenario_tree('{ "spin", expect = { error = "memory" } }')
  local status, out = sh(keel_bin .. " run " .. dir .. "/game.lua --cpu 0.2")
  t.eq(status, 1, out)
  t.ok(not out:find("as expected)", 1, true), out)
  local _, n = out:gsub('expected the reason to mention "memory"', "")
  t.eq(n, 1, out)
  os.execute("rm -rf '" .. dir .. "'")
end)

t.test("variants: two that change one rule are refused when the game is set up, not at its first order", function()
  local FAM = t.cwd() .. "/tests/families"
  local ok, err = pcall(rules.load, { families = { "toy27" }, path = { FAM },
    variants = { FAM .. "/variants/campaign_001.lua", FAM .. "/variants/conflict.lua" } })
  t.ok(not ok, "rules.load refuses the set")
  t.ok(tostring(err):find("variant 'short exploitation' changes 27.C.4, which variant 'campaign 001' already changed",
    1, true), tostring(err))
  -- a scenario naming both: keel run stops at the setup, before any order
  local dir = write_tree { ["game.lua"] = ([[
return scenario {
  name = "two variants", rules = { "toy27" }, path = { %q },
  variants = { %q, %q },
  forces = { { name = "Warspite", type = "BB", side = "Allied" } },
  orders = { { event = "exploitation_phase" } },
}
]]):format(FAM, FAM .. "/variants/campaign_001.lua", FAM .. "/variants/conflict.lua") }
  local status, out = sh(keel_bin .. " run " .. dir .. "/game.lua")
  t.eq(status, 1, out)
  t.ok(out:find("keel: [^\n]*conflict.lua:4: variant 'short exploitation' changes 27.C.4"), out)
  t.ok(not out:find("order 1", 1, true), "no order was played: " .. out)
  -- keel rules still lists them (exit 1), and a variant that overrides is fine
  status, out = sh(("%s rules --path %s --variant %s --variant %s"):format(keel_bin, FAM,
    FAM .. "/variants/campaign_001.lua", FAM .. "/variants/conflict.lua"))
  t.eq(status, 1, out)
  t.ok(out:find("1 conflict(s)", 1, true), out)
  t.ok(rules.load { families = { "toy27" }, path = { FAM },
    variants = { FAM .. "/variants/campaign_001.lua", FAM .. "/variants/override.lua" } })
  os.execute("rm -rf '" .. dir .. "'")
end)

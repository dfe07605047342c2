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

-- section 0's steps in order: ```sh blocks (commands) and <!-- edit: FILE --> blocks (the file's new text)
local function steps(section)
  local out = {}
  for pos, body in section:gmatch("()```sh\n(.-)\n```") do out[#out + 1] = { pos = pos, commands = body } end
  for pos, file, body in section:gmatch("()<!%-%- edit: ([^ ]+) %-%->\n```%w*\n(.-\n)```") do
    out[#out + 1] = { pos = pos, file = file, text = body }
  end
  table.sort(out, function(a, b) return a.pos < b.pos end)
  return out
end

t.test("guide-5: section 0's commands run in a new folder outside the repository, in order", function()
  local guide = slurp("doc/guide.md")
  local section = assert(guide:match("\n## 0%..-\n## 1%."), "section 0")
  local root = t.cwd()
  local bin = t.keel_bin:sub(1, 1) == "/" and t.keel_bin or (root .. "/" .. t.keel_bin)
  t.ok(bin:match("/keel$"), "the binary is named keel: " .. bin)
  local have_luacheck = (t.sh("command -v luacheck")) == 0
  local dir = t.tmpdir()
  local script = { "set -e", ("export PATH='%s':\"$PATH\""):format(bin:match("^(.*)/keel$")), ("cd '%s'"):format(dir) }
  local commands, edits = 0, 0
  for _, step in ipairs(steps(section)) do
    if step.commands then
      for line in step.commands:gmatch("[^\n]+") do
        if line:match("^luacheck") and not have_luacheck then
          script[#script + 1] = "echo 'skip: luacheck is not installed'"
        else
          script[#script + 1] = ("echo '+ %s'"):format(line:gsub("'", "'\\''"))
          script[#script + 1] = line
          commands = commands + 1
        end
      end
    else
      edits = edits + 1
      script[#script + 1] = ("cat > '%s' <<'KEEL_GUIDE_EOF'\n%sKEEL_GUIDE_EOF"):format(step.file, step.text)
    end
  end
  t.ok(commands >= 12, "commands: " .. commands)
  t.eq(edits, 1)
  for _, cmd in ipairs { "keel new family", "keel new variant", "keel new scenario", "keel check", "keel run",
                         "keel play", "keel lab" } do
    t.ok(section:find("\n" .. cmd, 1, true), "section 0 runs " .. cmd)
  end
  local f = assert(io.open(dir .. "/guide.sh", "w"))
  f:write(table.concat(script, "\n"), "\n")
  f:close()
  local st, out = t.sh("sh " .. dir .. "/guide.sh")
  t.eq(st, 0, out)
  -- the edit took: keel rules lists the changed row; the lab played both sides
  t.ok(out:find("1-2: 0 -> 1", 1, true) or out:find("row changed", 1, true), out)
  local lab = require("keel.json").decode(slurp(dir .. "/my-rules/lab.json"))
  t.ok(type(lab) == "table", "lab.json")
  t.sh("rm -rf '" .. dir .. "'")
end)

t.test("guide-6: the commands the guide gives from keel's folder run", function()
  local guide = slurp("doc/guide.md")
  local n = 0
  for cmd in guide:gmatch("\n    bin/keel ([^\n]+)") do
    n = n + 1
    local st, out = t.sh(t.keel_bin .. " " .. cmd .. " > /dev/null")
    t.eq(st, 0, cmd .. ": " .. out)
  end
  t.ok(n >= 2, "commands: " .. n)
end)

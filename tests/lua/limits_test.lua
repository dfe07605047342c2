-- limits_test.lua — keel.limits: the one reader of --memory and --cpu and
-- the one default of each, for every command that plays a game (keel run,
-- replay, view, serve, lab).
local t = require "keel.testing"
local limits = require "keel.limits"
local keel_bin, sh = t.keel_bin, t.sh

local MIB = 1024 * 1024

-- the commands that play a game, each with the arguments it needs besides the limits
local COMMANDS = {
  run = "run scenarios/suez_1942.lua --quiet",
  replay = "replay no-such-journal.jsonl",
  view = "view no-such-journal.jsonl",
  serve = "serve --stdio </dev/null",
  lab = "lab scenarios/suez_1942.lua --scripted --games 1 --jobs 1 --quiet",
}
local ORDER = { "run", "replay", "view", "serve", "lab" }

t.test("limits-1: the options are read once: MiB and seconds, only what was given", function()
  t.eq(limits.parse {}, {})
  t.eq(limits.parse { memory = "64" }, { memory = 64 * MIB })
  t.eq(limits.parse { memory = "4.5", cpu = "0.25" }, { memory = math.floor(4.5 * MIB), cpu = 0.25 })
  t.eq(math.type(limits.parse({ memory = "4.5" }).memory), "integer")
  for _, bad in ipairs { "x", "", "0", "-1", "0.001", "3", "nan", "inf", "1e300", "2000000" } do
    local l, err = limits.parse { memory = bad }
    t.eq(l, nil, "--memory " .. bad)
    t.eq(err, "--memory wants a number of MiB from 4 to 1048576", "--memory " .. bad)
  end
  for _, bad in ipairs { "x", "0", "-2", "nan", "inf", "1e7" } do
    local l, err = limits.parse { cpu = bad }
    t.eq(l, nil, "--cpu " .. bad)
    t.eq(err, "--cpu wants a number of seconds, more than 0 and at most 1000000", "--cpu " .. bad)
  end
end)

t.test("limits-2: one default each; given beats a journal header's, which beats the default", function()
  t.eq(limits.DEFAULT, { cpu = 5, memory = 256 * MIB })
  t.eq(limits.resolve(), limits.DEFAULT)
  t.eq(limits.resolve({ cpu = 1 }), { cpu = 1, memory = 256 * MIB })
  t.eq(limits.resolve({}, { cpu = 2, memory = 64 * MIB }), { cpu = 2, memory = 64 * MIB })
  t.eq(limits.resolve({ memory = 32 * MIB }, { cpu = 2, memory = 64 * MIB }), { cpu = 2, memory = 32 * MIB })
  t.eq(limits.header(limits.DEFAULT), nil, "the defaults are not written in a journal")
  t.eq(limits.header { cpu = 0.5, memory = 256 * MIB }, { cpu = 0.5, memory = 256 * MIB })
  -- the lab's games play under the same defaults (no default of its own)
  t.eq(require("keel.lab").MEMORY_MIB, nil)
  t.eq(require("keel.lab").CPU, nil)
end)

t.test("limits-3: every command that plays a game refuses a limit it cannot play under, one line, exit 2", function()
  for _, name in ipairs(ORDER) do
    for _, o in ipairs { { "--memory 0.001", "--memory wants a number of MiB from 4 to 1048576" },
                         { "--memory x", "--memory wants a number of MiB from 4 to 1048576" },
                         { "--cpu 0", "--cpu wants a number of seconds, more than 0 and at most 1000000" },
                         { "--cpu 1e9", "--cpu wants a number of seconds, more than 0 and at most 1000000" } } do
      local cmd = COMMANDS[name]
      local a, b = cmd:match("^(.-)( <.*)$")
      local line = ("%s %s %s%s"):format(keel_bin, a or cmd, o[1], b or "")
      local st, out = sh(line)
      t.eq(st, 2, line)
      t.eq(out, "keel: " .. o[2] .. "\n", line)
    end
  end
end)

t.test("limits-4: every command's help gives the one default of each limit", function()
  for _, name in ipairs(ORDER) do
    local st, out = sh(keel_bin .. " help " .. name)
    t.eq(st, 0)
    t.ok(out:find("--memory MIB    [^\n]*%(default 256%)"), name .. ": " .. out)
    t.ok(out:find("--cpu SECONDS   [^\n]*%(default 5%)"), name .. ": " .. out)
  end
end)

t.test("limits-5: limits given are the journal header's, and keel replay and view play it again under them", function()
  local dir = t.tmpdir()
  local j = dir .. "/g.jsonl"
  local st, out = sh(("%s run scenarios/suez_1942.lua --quiet --memory 48 --cpu 3 --journal %s"):format(keel_bin, j))
  t.eq(st, 0, out)
  local header = require("keel.replay").header_of(t.read_file(j))
  t.eq(header.limits, { cpu = 3, memory = 48 * MIB })
  t.eq(require("keel.replay").limits_of(header), { cpu = 3, memory = 48 * MIB })
  t.eq(require("keel.replay").limits_of(header, { memory = 64 * MIB }), { cpu = 3, memory = 64 * MIB })
  st, out = sh(("%s view %s -o %s/v.html"):format(keel_bin, j, dir))
  t.eq(st, 0, out)
  st, out = sh(("%s replay %s --memory 5"):format(keel_bin, j))
  t.eq(st, 0, out)
  os.execute("rm -rf " .. dir)
end)

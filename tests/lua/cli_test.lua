-- cli_test.lua — the `keel` command line: help, version, run, and one-line
-- errors with exit status 2 for unknown commands and options.
local t = require "keel.testing"
local keel_bin, sh = t.keel_bin, t.sh

t.test("cli: keel version prints keel, Lua and LPeg versions", function()
  local status, out = sh(keel_bin .. " version")
  t.eq(status, 0)
  t.ok(out:match("^keel %d+%.%d+%.%d+\nLua 5%.4%.%d+\nLPeg %d"), out)
end)

t.test("cli: keel help lists every command; keel help COMMAND describes one", function()
  local status, out = sh(keel_bin .. " help")
  t.eq(status, 0)
  for _, name in ipairs(require("keel.cli").commands) do
    t.ok(out:find("\n  " .. name .. " ", 1, true), "help lists " .. name)
    local st, one = sh(keel_bin .. " help " .. name)
    t.eq(st, 0)
    t.ok(one:find("usage: keel " .. name, 1, true), one)
  end
end)

t.test("cli: every command answers --help and -h with its help, exit 0", function()
  for _, name in ipairs(require("keel.cli").commands) do
    local _, want = sh(keel_bin .. " help " .. name)
    for _, flag in ipairs({ "--help", "-h" }) do
      local st, out = sh(keel_bin .. " " .. name .. " " .. flag)
      t.eq(st, 0, name .. " " .. flag)
      t.eq(out, want, name .. " " .. flag)
      if not require("keel.cli").command(name).passes_args then
        st = sh(keel_bin .. " " .. name .. " some-file " .. flag)
        t.eq(st, 0, name .. " some-file " .. flag)
      end
    end
  end
end)

t.test("cli: keel script FILE --help hands --help to the script", function()
  local f = os.tmpname()
  local h = assert(io.open(f, "w")); h:write("print(arg[1])"); h:close()
  local st, out = sh(keel_bin .. " script " .. f .. " --help")
  os.remove(f)
  t.eq(st, 0)
  t.eq(out, "--help\n")
end)

t.test("cli: unknown command and unknown option: one line, exit 2", function()
  local status, out = sh(keel_bin .. " frobnicate")
  t.eq(status, 2)
  t.eq(out, "keel: unknown command 'frobnicate'; try 'keel help'\n")
  status, out = sh(keel_bin .. " help frobnicate")
  t.eq(status, 2)
  t.eq(select(2, out:gsub("\n", "")), 1)
  status, out = sh(keel_bin .. " version --bogus")
  t.eq(status, 2)
  status, out = sh(keel_bin)
  t.eq(status, 2)
end)

-- `keel script` a script written to a temporary file: status, output, the file's name.
local function run_script(src, args, command)
  local f = os.tmpname()
  local h = assert(io.open(f, "w"))
  h:write(src)
  h:close()
  local status, out = sh(keel_bin .. " " .. (command or "script") .. " " .. f .. (args or ""))
  os.remove(f)
  return status, out, f
end

t.test("cli: keel script passes arguments and returns the script's status", function()
  local status, out = run_script('local a, b = ...\nassert(arg[1] == a and arg[2] == b)\n' ..
    'print(require("keel").hex.distance(0, 1), a, b)\nreturn 3\n', " x y")
  t.eq(out, "1\tx\ty\n")
  t.eq(status, 3)
end)

t.test("cli: keel script reports a script error with file and line, exit 1", function()
  local status, out, f = run_script('local x = 1\nerror("boom")\n')
  t.eq(status, 1)
  t.ok(out:find(f .. ":2: boom", 1, true), out)
  status, out = sh(keel_bin .. " script /nonexistent/file.lua")
  t.eq(status, 1)
  t.ok(out:find("/nonexistent/file.lua", 1, true), out)
  status, out = sh(keel_bin .. " script")
  t.eq(status, 2)
  t.eq(out, "keel: script needs a FILE.lua\n")
end)

t.test("cli: keel run plays scenarios only; a host script is refused and pointed to keel script", function()
  -- the script runs in the sandbox and returns no scenario: refused, exit 1
  local status, out, f = run_script('local x = 1 + 1\nreturn { rules = { "toy27" } }\n', "", "run")
  t.eq(status, 1)
  t.ok(out:find(f .. ": not a scenario: a scenario file returns scenario { ... }", 1, true), out)
  t.ok(out:find("keel script", 1, true), out)
  -- what a host script does first (require) is not there in the sandbox
  status, out = run_script('local keel = require "keel"\nprint(keel.version)\nreturn 0\n', " a b", "run")
  t.eq(status, 2, out)
  t.ok(out:find("a scenario takes no arguments", 1, true), out)
  status, out, f = run_script('local keel = require "keel"\nprint(keel.version)\nreturn 0\n', "", "run")
  t.eq(status, 1)
  t.ok(out:find(f .. ":1: require is not available in keel scripts", 1, true), out)
  status, out = sh(keel_bin .. " run")
  t.eq(status, 2)
  t.eq(out, "keel: run needs a SCENARIO.lua\n")
end)

t.test("cli: keel run takes its options before or after the scenario", function()
  local status, out = sh(keel_bin .. " run --quiet --seed 32 scenarios/suez_1942.lua")
  t.eq(status, 0, out)
  t.ok(out:find("^result: 45 order%(s%), 45 as expected"), out)
  local status2, out2 = sh(keel_bin .. " run scenarios/suez_1942.lua --seed 32 --quiet")
  t.eq(status2, 0, out2)
  t.eq(out2, out)
  status, out = sh(keel_bin .. " run --quiet scenarios/suez_1942.lua extra")
  t.eq(status, 2)
  t.eq(out, "keel: a scenario takes no arguments, got 'extra'\n")
end)

-- a command's exit status, standard output and standard error, apart
local function run3(args)
  local dir = t.tmpdir()
  local status = sh(("{ %s %s >%s/out 2>%s/err; }"):format(keel_bin, args, dir, dir))
  local out, err = t.read_file(dir .. "/out"), t.read_file(dir .. "/err")
  os.execute("rm -rf " .. dir)
  return status, out, err
end

local function count(s, plain)
  local n, i = 0, 1
  while true do
    local a, b = s:find(plain, i, true)
    if not a then return n end
    n, i = n + 1, b + 1
  end
end

t.test("cli: misuse of every command exits 2 with one line on stderr, nothing on stdout", function()
  local misuse = {
    run = "run", script = "script", rules = "rules", replay = "replay", view = "view", serve = "serve",
    odds = "odds", lab = "lab", render = "render", version = "version extra", help = "help a b",
    pbem = "pbem", play = "play", ["fuzz-rules"] = "fuzz-rules --games x",
    new = "new thing x", check = "check",
  }
  for _, name in ipairs(require("keel.cli").commands) do
    local args = misuse[name]
    t.ok(args, "a misuse of " .. name .. " is tested")
    local status, out, err = run3(args)
    t.eq(status, 2, "keel " .. args)
    t.eq(out, "", "keel " .. args .. ": stdout")
    t.ok(err:match("^keel: [^\n]+\n$"), "keel " .. args .. ": one line on stderr: " .. err)
  end
end)

t.test("cli: a missing file is a failure (exit 1) for every command that reads one, its path said once", function()
  local dir = t.tmpdir()
  local missing = dir .. "/no-such-file"
  local cases = {
    { "run", "run " .. missing .. ".lua" },
    { "script", "script " .. missing .. ".lua" },
    { "rules", "rules --variant " .. missing .. ".lua" },
    { "replay", "replay " .. missing .. ".jsonl" },
    { "view", "view " .. missing .. ".jsonl -o " .. dir .. "/x.html" },
    { "odds", "odds " .. missing .. ".tbl" },
    { "render", "render " .. missing .. ".map" },
    { "lab", "lab " .. missing .. ".lua --games 1" },
    { "lab merge", "lab merge " .. missing .. ".json" },
    { "pbem verify", "pbem verify " .. missing .. ".keel" },
    { "pbem play", "pbem play " .. missing .. ".keel --side Axis --orders " .. dir .. "/o.txt" },
    { "pbem new", "pbem new " .. missing .. ".lua -o " .. dir .. "/g.keel" },
  }
  for _, c in ipairs(cases) do
    local status, out, err = run3(c[2])
    t.eq(status, 1, "keel " .. c[2])
    t.eq(out, "", "keel " .. c[2] .. ": stdout")
    t.ok(err:match("^keel: [^\n]+\n$"), "keel " .. c[2] .. ": one line on stderr: " .. err)
    t.eq(count(err, missing), 1, "keel " .. c[2] .. ": the path once: " .. err)
  end
  -- an output that cannot be written: the same
  for _, args in ipairs {
    "render scenarios/maps/suez.map -o " .. missing .. "/x.svg",
    "view tests/golden/suez_1942.jsonl -o " .. missing .. "/x.html",
    "run scenarios/suez_1942.lua --quiet --journal " .. missing .. "/x.jsonl",
    "lab scenarios/suez_1942.lua --scripted --games 1 --jobs 1 --quiet --json " .. missing .. "/x.json",
    "pbem new scenarios/suez_1942.lua -o " .. missing .. "/g.keel",
  } do
    local status, out, err = run3(args)
    t.eq(status, 1, "keel " .. args)
    t.ok(not out:find("keel:", 1, true), "keel " .. args .. ": errors go to stderr")
    t.ok(err:match("^keel: [^\n]+\n$"), "keel " .. args .. ": one line on stderr: " .. err)
    t.eq(count(err, missing), 1, "keel " .. args .. ": the path once: " .. err)
    t.ok(err:find("No such file or directory", 1, true), "keel " .. args .. ": the system's reason: " .. err)
  end
  os.execute("rm -rf " .. dir)
end)

t.test("cli: README's `make deps` sentence lists exactly the packages make deps installs", function()
  local mk = t.read_file("Makefile")
  local want = {}
  for _, var in ipairs { "DEB_PKGS", "HTTP_PKGS", "TEST_PKGS" } do
    local list = mk:match("\n" .. var .. "%s*:=%s*([^\n]+)")
    t.ok(list, var .. " in the Makefile")
    for p in list:gmatch("%S+") do want[#want + 1] = p end
  end
  t.ok(mk:find("deps:\n\t@sh tools/deps.sh install $(DEB_PKGS) $(HTTP_PKGS) $(TEST_PKGS)\n", 1, true),
    "make deps installs the lists")
  local readme = t.read_file("README.md")
  local sentence = readme:match("`make deps` installs(.-)%.\n")
  t.ok(sentence, "README has the sentence")
  local got = {}
  for names in sentence:gmatch("`([^`]+)`") do
    for p in names:gmatch("%S+") do got[#got + 1] = p end
  end
  table.sort(want)
  table.sort(got)
  t.eq(got, want)
end)

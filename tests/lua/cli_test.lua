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
      st, out = sh(keel_bin .. " " .. name .. " some-file " .. flag)
      t.eq(st, 0, name .. " some-file " .. flag)
    end
  end
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

-- `keel run` a script written to a temporary file: status, output, the file's name.
local function run_script(src, args)
  local f = os.tmpname()
  local h = assert(io.open(f, "w"))
  h:write(src)
  h:close()
  local status, out = sh(keel_bin .. " run " .. f .. (args or ""))
  os.remove(f)
  return status, out, f
end

t.test("cli: keel run passes arguments and returns the script's status", function()
  local status, out = run_script('local a, b = ...\nassert(arg[1] == a and arg[2] == b)\n' ..
    'print(require("keel").hex.distance(0, 1), a, b)\nreturn 3\n', " x y")
  t.eq(out, "1\tx\ty\n")
  t.eq(status, 3)
end)

t.test("cli: keel run reports a script error with file and line, exit 1", function()
  local status, out, f = run_script('local x = 1\nerror("boom")\n')
  t.eq(status, 1)
  t.ok(out:find(f .. ":2: boom", 1, true), out)
  status, out = sh(keel_bin .. " run /nonexistent/file.lua")
  t.eq(status, 1)
  t.ok(out:find("/nonexistent/file.lua", 1, true), out)
end)

--- keel.testing — a small test harness for keel's Lua tests, rule modules
-- and scenarios. Test names carry the rule id they check ("32.A.5-1: ...").
--
--   local t = require "keel.testing"
--   t.test("27.A.3-1: a 5-pt BB with 2 hits takes 3 more and sinks", function()
--     t.eq(hits, 5)
--   end)
--   os.exit(t.report())   -- prints "N passed, N failed"
--
-- Helpers for tests that touch files and processes: t.keel_bin, t.sh(cmd)
-- -> status, output; t.read_file(path); t.tmpdir().
local M = {}

local passed, failed = 0, 0
local failures = {}

local function fmt(v)
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) ~= "table" then return tostring(v) end
  local parts, n = {}, 0
  for i = 1, #v do parts[#parts + 1] = fmt(v[i]); n = n + 1 end
  for _, k in ipairs(require("keel.keys").sorted(v)) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then parts[#parts + 1] = tostring(k) .. "=" .. fmt(v[k]) end
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end
M.fmt = fmt

local function deep_eq(a, b)
  if a == b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return false end
  for k, v in pairs(a) do if not deep_eq(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end
M.deep_eq = deep_eq

local function fail(msg, level)
  error({ test_failure = msg }, (level or 1) + 1)
end

--- Assert got equals want (deep for tables).
function M.eq(got, want, what)
  if not deep_eq(got, want) then
    fail(("%sgot %s, expected %s"):format(what and (what .. ": ") or "", fmt(got), fmt(want)), 2)
  end
end

--- Assert a value is truthy.
function M.ok(v, what)
  if not v then fail((what or "expected a true value") .. ", got " .. fmt(v), 2) end
  return v
end

--- Assert |got - want| <= eps.
function M.near(got, want, eps, what)
  if type(got) ~= "number" or math.abs(got - want) > (eps or 1e-9) then
    fail(("%sgot %s, expected %s within %s"):format(what and (what .. ": ") or "",
      fmt(got), fmt(want), tostring(eps or 1e-9)), 2)
  end
end

--- Assert that fn raises an error whose message contains `pattern` (plain).
function M.raises(fn, pattern, what)
  local ok, err = pcall(fn)
  if ok then fail((what or "expected an error") .. ", but the call succeeded", 2) end
  local msg = type(err) == "table" and (err.message or fmt(err)) or tostring(err)
  if pattern and not msg:find(pattern, 1, true) then
    fail(("error %q does not mention %q"):format(msg, pattern), 2)
  end
  return msg
end

--- Assert that a nil, reason result came back, with reason containing pattern.
function M.fails(pattern, v, reason)
  if v ~= nil then fail("expected nil and a reason, got " .. fmt(v), 2) end
  if pattern and not tostring(reason):find(pattern, 1, true) then
    fail(("reason %q does not mention %q"):format(tostring(reason), pattern), 2)
  end
  return reason
end

--- Run one named test.
---@param name string
---@param fn function
function M.test(name, fn)
  local ok, err = xpcall(fn, function(e)
    if type(e) == "table" and e.test_failure then
      local where = debug.traceback("", 2):match("\n%s*([^\n]-:%d+):") or "?"
      return where .. ": " .. e.test_failure
    end
    return debug.traceback(tostring(e), 2)
  end)
  if ok then
    passed = passed + 1
    io.write("ok ", name, "\n")
  else
    failed = failed + 1
    failures[#failures + 1] = name
    io.write("FAIL ", name, "\n  ", tostring(err):gsub("\n", "\n  "), "\n")
  end
end

--- Print "N passed, N failed"; return the exit status.
function M.report()
  io.write(("%d passed, %d failed\n"):format(passed, failed))
  return failed == 0 and 0 or 1
end

function M.counts() return passed, failed end

-- ---- helpers for tests that read files and run keel ------------------------------

--- The keel binary under test (tests/run.sh sets KEEL_BIN; else bin/keel).
M.keel_bin = os.getenv("KEEL_BIN") or "bin/keel"

--- The whole file at path; raises when it cannot be read.
---@param path string
---@return string
function M.read_file(path)
  return assert(require("keel").file.read(path))
end

--- Run a shell command: its exit status and its output (stdout and stderr).
---@param cmd string
---@return integer status, string output
function M.sh(cmd)
  local p = assert(io.popen(cmd .. " 2>&1; echo \"exit=$?\""))
  local out = p:read("a")
  p:close()
  local status = tonumber(out:match("exit=(%d+)%s*$"))
  return status, (out:gsub("exit=%d+%s*$", ""))
end

--- The current folder (the tests run from the top of the tree).
---@return string
function M.cwd()
  local p = assert(io.popen("pwd"))
  local d = p:read("l")
  p:close()
  return d
end

--- A fresh temporary folder (/tmp/keel-test-XXXXXX).
---@return string
function M.tmpdir()
  local p = assert(io.popen("mktemp -d /tmp/keel-test-XXXXXX"))
  local d = p:read("l")
  p:close()
  return d
end

--- The tables of rule families, asked of a rule set that loads them
--- (set:table): `local nt = t.family_tables("navgroup")` gives
--- nt.naval_search; nt.set is the set. An unknown name is nil.
---@param ... string family names
---@return table
function M.family_tables(...)
  local set = require("keel.rules").load { families = { ... } }
  return setmetatable({ set = set }, { __index = function(_, name) return set:table(name) end })
end

return M

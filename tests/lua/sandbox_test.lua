-- tests/lua/sandbox_test.lua — escape attempts and limits of the script
-- sandbox (scripts/keel/sandbox.lua, kernel/l_sandbox.c, kernel/l_strlib.c).
-- Every attempt must be refused with a message that says why; every limit
-- must stop the action, roll its changes back, and survive the script's pcall.
local t = require "keel.testing"
local keel = require "keel"
local sandbox = require "keel.sandbox"

--- Run source text as a script in a fresh environment, as one action.
local function run(src, opts)
  local env = sandbox.env(opts)
  local fn, err = sandbox.load(src, "=[test]", env)
  if not fn then return false, err, "syntax" end
  return sandbox.protect(fn)
end

--- The script must fail and its error must mention `want`.
local function refused(src, want, opts)
  local ok, err = run(src, opts)
  t.ok(not ok, "expected the script to be refused: " .. src)
  t.ok(tostring(err):find(want, 1, true), ("error %q does not mention %q"):format(tostring(err), want))
  return err
end

local function with_limits(l, fn)
  local before = sandbox.limits(l)
  local ok, err = pcall(fn)
  sandbox.limits { cpu = before.cpu, budget = before.budget, string = before.string,
                   pattern_steps = before.pattern_steps, pattern_per_byte = before.pattern_per_byte }
  if not ok then error(err, 0) end
end

-- ---- globals left out ------------------------------------------------------

for _, name in ipairs { "io", "os", "debug", "package", "require", "dofile",
                        "loadfile", "collectgarbage" } do
  t.test("sandbox-escape: " .. name .. " is not in a script's environment", function()
    refused("return " .. name, name .. " is not available in keel scripts")
    refused("local x = " .. name .. ".x", "not available")
  end)
end

t.test("sandbox-escape: string.dump is refused", function()
  refused("return string.dump(function() end)", "string.dump is not available")
  refused("return ('').dump(print)", "attempt to call a nil value")
end)

t.test("sandbox-escape: math.random and randomseed point to the dice", function()
  refused("return math.random(6)", "roll the kernel's dice")
  refused("math.randomseed(1)", "math.randomseed is not available")
end)

-- ---- load ------------------------------------------------------------------

t.test("sandbox-escape: load refuses binary chunks", function()
  local ok, v = run([[
    local f, err = load("\27Lua\84\0\25\147\13\10\26\10\4\8\8\120\86")
    return f, err]])
  t.ok(ok)
  t.eq(v, nil)
  refused([[assert(load("\27LuaT\0"))]], "binary chunks are not allowed")
  refused([[assert(load("return 1", "x", "b"))]], "only text chunks")
  refused([[
    local parts = { "\27Lua", "T" }
    local i = 0
    assert(load(function() i = i + 1; return parts[i] end))]], "binary chunks are not allowed")
end)

t.test("sandbox-escape: load runs in the script's own environment", function()
  refused([[return load("return io")()]], "io is not available")
  local ok, v = run([[load("x = 41")(); return x + 1]])
  t.ok(ok)
  t.eq(v, 42)
end)

t.test("sandbox-escape: a loaded chunk cannot pass for kernel code", function()
  -- a chunk named like a kernel file must still be stopped at once
  with_limits({ cpu = 0.05 }, function()
    local fake = "@" .. keel.script_dir .. "/keel/rules.lua"
    local err = refused(("load('while true do end', %q)()"):format(fake), "CPU limit exceeded")
    t.ok(err:find("[load]", 1, true), err)
  end)
end)

t.test("sandbox-escape: a script file that is bytecode is refused", function()
  local fn, err = sandbox.load(string.dump(function() end), "@evil.luac", sandbox.env())
  t.eq(fn, nil)
  t.ok(err:find("binary chunks are not allowed", 1, true), err)
end)

-- ---- metatables and shared tables -------------------------------------------

t.test("sandbox-escape: the string metatable is locked", function()
  local ok, mt = run([[return getmetatable("")]])
  t.ok(ok)
  t.eq(type(mt), "string")
  t.ok(mt:find("locked", 1, true))
  refused([[getmetatable("").__index.rep = nil]], "attempt to index a nil value")
  refused([[setmetatable("", {})]], "bad argument #1 to 'setmetatable' (table expected, got string)")
  -- methods on strings use the bounded library
  refused([[return ("x"):rep(1e9)]], "over the sandbox's limit")
end)

t.test("sandbox-escape: shared library tables are read-only", function()
  refused([[string.rep = function() return "pwned" end]], "string is read-only")
  refused([[table.insert = nil]], "table is read-only")
  refused([[math.pi = 3]], "math is read-only")
  refused([[rawset(string, "rep", print)]], "rawset: string is read-only")
  refused([[setmetatable(string, nil)]], "setmetatable: string is read-only")
  refused([[setmetatable(math, {})]], "math is read-only")
  refused([[table.insert(coroutine, 1)]], "coroutine is read-only")
  refused([[keel.hex.distance = nil]], "keel.hex is read-only")
  refused([[keel.version = "0"]], "keel is read-only")
  -- and nothing changed for the next script
  local ok, v = run([[return ("ab"):rep(2) .. string.rep("c", 2) .. #table.pack(1, 2)]])
  t.ok(ok)
  t.eq(v, "ababcc2")
  t.eq(type(getmetatable(sandbox.env().string)), "string")
end)

t.test("sandbox-escape: pairs over a shared table sees the library, read-only", function()
  local ok, n = run([[
    local n = 0
    for k, v in pairs(math) do n = n + 1 end
    return n]])
  t.ok(ok)
  t.ok(n > 20)
  refused([[for k, v in pairs(keel) do if type(v) == "table" then v.x = 1 end end]], "read-only")
end)

t.test("sandbox-escape: the metatables of keel objects are out of reach", function()
  local ok, mt = run([[
    local grid = keel.grid.new { orientation = "flat", shift = "odd", digits = 2,
                             sections = { { name = "A", col = 0, row = 0 } } }
    return getmetatable(grid)]])
  t.ok(ok, mt)
  t.eq(mt, "the metatable of a keel object is locked")
end)

t.test("sandbox-escape: __gc finalizers are refused", function()
  refused([[setmetatable({}, { __gc = function() while true do end end })]],
          "__gc is not allowed")
end)

-- ---- environments ------------------------------------------------------------

t.test("sandbox-escape: each script has its own globals", function()
  local a, b = sandbox.env(), sandbox.env()
  assert(sandbox.load([[x = 1; tostring = nil; print = nil; _G.pairs = nil]], "=a", a))()
  local fn = assert(sandbox.load([[return x, type(tostring), type(print), type(pairs)]], "=b", b))
  t.eq({ fn() }, { nil, "function", "function", "function" })
  t.eq(a.x, 1)
  t.eq(rawget(_G, "x"), nil)
end)

t.test("sandbox-escape: _ENV tricks stay inside the script", function()
  refused([[setmetatable(_ENV, { __index = function() end })]], "cannot change a protected metatable")
  refused([[local _ENV = { }; return io.open]], "attempt to index a nil value")
  refused([[_ENV = nil; x = 1]], "attempt to index a nil value")
  local ok, v = run([[
    local function f() local _ENV = { y = 2 }; return y end
    return f()]])
  t.ok(ok)
  t.eq(v, 2)
  -- the host's globals are not reachable through _G, _ENV or load
  refused([[return _G.io]], "io is not available")
  refused([[return _ENV.os.time()]], "os is not available")
  t.eq(getmetatable(sandbox.env()), "the environment of a keel script is locked")
end)

-- ---- addresses ---------------------------------------------------------------

t.test("sandbox-escape: tostring gives stable ids, never addresses", function()
  local ok, a, b, c, d, e = run([[
    local t = {}
    return tostring(t), tostring(t), tostring(print), tostring(coroutine.create(print)),
           string.format("%s|%s", t, 1)]])
  t.ok(ok)
  t.ok(a:match("^table: #%d+$"), a)
  t.eq(a, b)
  t.ok(c:match("^function: #%d+$"), c)
  t.ok(d:match("^thread: #%d+$"), d)
  t.eq(e, a .. "|1")
  for _, s in ipairs { a, c, d, e } do t.ok(not s:find("0x"), s) end
  refused([[return string.format("%p", {})]], "'%p' is not available")
  local out = {}
  local ok2 = run([[print({}, 1, nil)]], { print = function(...)
    for i = 1, select("#", ...) do out[#out + 1] = sandbox.tostring((select(i, ...))) end
  end })
  t.ok(ok2)
  t.ok(out[1]:match("^table: #%d+$"), out[1])
end)

-- ---- CPU limit -----------------------------------------------------------------

t.test("sandbox-limit: the CPU watchdog stops a runaway loop", function()
  with_limits({ cpu = 0.05 }, function()
    local err, kind = select(2, run([[while true do end]]))
    t.eq(kind, "cpu")
    t.ok(err:find("CPU limit exceeded", 1, true), err)
    t.ok(err:find("[test]:1:", 1, true), err)   -- where it was stopped
  end)
end)

t.test("sandbox-limit: pcall cannot swallow the CPU stop", function()
  with_limits({ cpu = 0.05 }, function()
    local _, _, kind = run([[
      while true do pcall(function() while true do end end) end]])
    t.eq(kind, "cpu")
    -- a swallowed stop in tail position still fails the action
    _, _, kind = run([[return pcall(function() while true do end end)]])
    t.eq(kind, "cpu")
    _, _, kind = run([[
      local ok = xpcall(function() while true do end end, function(e) return e end)
      if not ok then return "carried on" end]])
    t.eq(kind, "cpu")
    -- error handlers cannot run script code after the stop either
    _, _, kind = run([[
      while true do xpcall(function() while true do end end, function() while true do end end) end]])
    t.eq(kind, "cpu")
  end)
end)

t.test("sandbox-limit: coroutine tricks do not escape the CPU stop", function()
  with_limits({ cpu = 0.05 }, function()
    -- a loop inside a coroutine
    t.eq(select(3, run([[coroutine.wrap(function() while true do end end)()]])), "cpu")
    -- pcall wrapped in a coroutine, in a loop
    t.eq(select(3, run([[
      while true do
        local co = coroutine.wrap(pcall)
        co(function() while true do end end)
      end]])), "cpu")
    -- yielding back and forth forever across the stop
    t.eq(select(3, run([[
      local co = coroutine.wrap(function() while true do coroutine.yield() end end)
      while true do pcall(co) end]])), "cpu")
    -- resume swallowing errors in a loop
    t.eq(select(3, run([[
      while true do
        local co = coroutine.create(function() while true do end end)
        coroutine.resume(co)
      end]])), "cpu")
  end)
end)

t.test("sandbox-limit: a coroutine made before the action is stopped when resumed", function()
  local env = sandbox.env()
  local make = assert(sandbox.load([[
    spin = coroutine.create(function() while true do coroutine.yield() end end)]], "=[make]", env))
  make()
  local use = assert(sandbox.load([[while true do coroutine.resume(spin) end]], "=[use]", env))
  with_limits({ cpu = 0.05 }, function()
    t.eq(select(3, sandbox.protect(use)), "cpu")
  end)
end)

t.test("sandbox-limit: the next action after a stop runs normally", function()
  with_limits({ cpu = 0.05 }, function()
    t.eq(select(3, run([[while true do end]])), "cpu")
    local ok, v = run([[local s = 0 for i = 1, 1000 do s = s + i end return s]])
    t.ok(ok)
    t.eq(v, 500500)
  end)
end)

t.test("sandbox-limit: changes made before a CPU stop roll back", function()
  -- a stand-in for the game's transaction: kernel code that snapshots and restores
  local state = { hits = 0 }
  local env = sandbox.env { extra = { hit = function() state.hits = state.hits + 1 end } }
  local fn = assert(sandbox.load([[for i = 1, 3 do hit() end while true do end]], "=[r]", env))
  with_limits({ cpu = 0.05 }, function()
    local before = state.hits
    local ok, _, kind = sandbox.protect(fn)
    if not ok then state.hits = before end   -- what game:transaction does
    t.eq(kind, "cpu")
    t.eq(state.hits, 0)
  end)
end)

-- ---- instruction budget ---------------------------------------------------------

t.test("sandbox-limit: the instruction budget stops at the same place every time", function()
  with_limits({ budget = 20000 }, function()
    local src = [[local n = 0 while true do n = n + 1; count = n end]]
    local env1, env2 = sandbox.env(), sandbox.env()
    local f1 = assert(sandbox.load(src, "=[b]", env1))
    local f2 = assert(sandbox.load(src, "=[b]", env2))
    local _, err, kind = sandbox.protect(f1)
    t.eq(kind, "budget")
    t.ok(err:find("instruction budget exceeded", 1, true), err)
    local used1 = sandbox.usage().instructions
    sandbox.protect(f2)
    t.eq(env1.count, env2.count)          -- stopped after the same work
    t.eq(sandbox.usage().instructions, used1)
    t.ok(env1.count > 1000)
    -- within budget, all is well; pcall cannot swallow the stop
    local ok, v = run([[local s = 0 for i = 1, 100 do s = s + i end return s]])
    t.ok(ok)
    t.eq(v, 5050)
    t.eq(select(3, run([[while true do pcall(function() while true do end end) end]])), "budget")
    -- fresh coroutines do not get a fresh budget
    t.eq(select(3, run([[
      while true do coroutine.wrap(function() for i = 1, 500 do end end)() end]])), "budget")
  end)
end)

-- ---- long single C calls -----------------------------------------------------------

t.test("sandbox-limit: string.rep is bounded", function()
  refused([[return string.rep("x", 1e9)]], "over the sandbox's limit")
  refused([[return string.rep("ab", 1e7, ",")]], "over the sandbox's limit")
  local ok, v = run([[return #string.rep("ab", 1000, ",")]])
  t.ok(ok)
  t.eq(v, 2999)
  with_limits({ string = 100 }, function()
    refused([[return string.rep("x", 101)]], "limit of 100 bytes")
    refused([[return (string.rep("x", 60):gsub("x", "yy"))]], "string.gsub: the result would be over")
  end)
end)

t.test("sandbox-limit: pathological patterns stop with a clear error", function()
  refused([[return string.find(string.rep("a", 5000), ".-.-.-.-.-b")]], "string pattern too complex")
  refused([[return string.match(string.rep("a", 3000), "(a*)*b")]], "too complex")
  refused([[for w in string.gmatch(string.rep("a", 3000), "a-a-a-a-b") do end]], "too complex")
  refused([[return string.gsub(string.rep("a", 3000), "a-a-a-a-b", "")]], "too complex")
  refused([[return ("x"):rep(3000):find(".-.-.-y")]], "too complex")
  -- ordinary linear work on a long subject is fine
  local ok, n = run([[
    local s = string.rep("word ", 100000)
    local n = 0
    for w in s:gmatch("%a+") do n = n + 1 end
    return n]])
  t.ok(ok)
  t.eq(n, 100000)
end)

t.test("sandbox-limit: the CPU watchdog also stops a long pattern", function()
  with_limits({ cpu = 0.05, pattern_steps = 1e12 }, function()
    local _, err, kind = run([[return string.find(string.rep("a", 5000), ".-.-.-.-.-b")]])
    t.eq(kind, "cpu")
    t.ok(err:find("CPU limit exceeded", 1, true), err)
  end)
end)

-- ---- memory ----------------------------------------------------------------------

t.test("sandbox-limit: memory limit in a child state; the state is rebuilt", function()
  local box = sandbox.new { memory = 8 * 1024 * 1024 }
  t.ok(box:eval([[sandbox = require "keel.sandbox"; data = { kept = true }; return true]]))
  -- a script that grabs memory, behind pcall: still fails as "memory"
  local ok, res, err, kind = box:eval([[
    local env = sandbox.env()
    local f = assert(sandbox.load("local t = {} pcall(function() for i = 1, 1e9 do t[i] = {} end end) return 'ok'", "=[m]", env))
    return sandbox.protect(f)]])
  t.ok(ok)
  t.eq(res, false)
  t.eq(kind, "memory")
  t.ok(err:find("memory limit exceeded", 1, true), err)
  -- after an out-of-memory error the state was discarded and rebuilt
  t.eq(box:usage().rebuilds, 1)
  t.eq(select(2, box:eval([[return data]])), nil)
  t.eq(select(2, box:eval([[return 6 * 7]])), 42)
  t.ok(box:usage().memory < 8 * 1024 * 1024)
  -- an OOM at top level (no protect) rebuilds too
  local ok2, err2, kind2 = box:eval([[local s = {} for i = 1, 1e9 do s[i] = i end]])
  t.eq(ok2, false)
  t.eq(kind2, "memory")
  t.ok(err2:find("memory limit exceeded", 1, true), err2)
  t.eq(box:usage().rebuilds, 2)
  box:close()
  t.raises(function() box:eval("return 1") end, "the sandbox is closed")
end)

t.test("sandbox-limit: a memory limit needs a state of keel's own", function()
  t.raises(function() sandbox.limits { memory = 1024 } end, "needs a state made by keel.sandbox.new")
  t.raises(function() sandbox.new { memory = 1000 } end, "cannot make a sandbox")
end)

t.test("sandbox: values cross into and out of a child state", function()
  local box <close> = sandbox.new()
  local ok, v = box:eval([[local t = ... ; return { n = t.n * 2, s = t.s:upper(), list = { 1, 2, t.list[3] } }]],
    "=[x]", { n = 21, s = "ab", list = { 0, 0, 9 } })
  t.ok(ok)
  t.eq(v, { n = 42, s = "AB", list = { 1, 2, 9 } })
  t.raises(function() assert(box:eval("return 1", "=[x]", print)) end, "cannot pass argument 1")
  local ok2, err = box:call("keel.sandbox", "nope")
  t.eq(ok2, false)
  t.ok(err:find("keel.sandbox.nope is not a function", 1, true), err)
end)

t.test("sandbox: limits cannot change during an action", function()
  local ok, err = sandbox.protect(function() sandbox.limits { cpu = 1 } end)
  t.eq(ok, false)
  t.ok(tostring(err):find("cannot change during an action", 1, true))
end)

t.test("sandbox-limit: __close handlers cannot outlive the stop", function()
  with_limits({ cpu = 0.05 }, function()
    -- a to-be-closed variable whose __close loops, closed by unwinding
    t.eq(select(3, run([[
      local x <close> = setmetatable({}, { __close = function() while true do end end })
      while true do end]])), "cpu")
    -- ... and closed through coroutine.close from another thread
    t.eq(select(3, run([[
      while true do
        local co = coroutine.create(function()
          local x <close> = setmetatable({}, { __close = function() while true do end end })
          coroutine.yield()
        end)
        coroutine.resume(co)
        coroutine.close(co)
      end]])), "cpu")
  end)
end)

t.test("sandbox-limit: an error object with a looping __tostring does not hang the kernel", function()
  with_limits({ cpu = 0.05 }, function()
    local ok, err, kind = run([[
      error(setmetatable({}, { __tostring = function() while true do end end }))]])
    t.eq(ok, false)
    t.eq(kind, "error")
    t.eq(type(err), "table")   -- the kernel never calls its __tostring
  end)
end)

t.test("sandbox-limit: after running out of memory the Lua state is rebuilt; the game state in C is intact", function()
  -- a rule family whose action takes a hit, then grabs memory without end
  local dir = os.tmpname()
  os.remove(dir)
  os.execute("mkdir -p " .. dir .. "/greedy")
  local function write(name, text)
    local f = assert(io.open(dir .. "/greedy/" .. name, "w"))
    f:write(text)
    f:close()
  end
  write("manifest.lua", [[return family { name = "greedy", files = { "r.lua" } }]])
  write("r.lua", [[
    rule { id = "G.1", title = "Greedy", actions = { grab = { params = { unit = "unit" },
      effect = function(ctx, p)
        ctx.game:add_hits(p.unit, 2)
        local t = {}
        pcall(function() for i = 1, 1e9 do t[i] = { i } end end)
        return #t
      end } } }
  ]])
  local box = sandbox.new { memory = 24 * 1024 * 1024 }
  local ok, before = box:eval([[
    local keel = require "keel"
    local st = keel.state.new()
    keel.sandbox.keep("game", st)          -- the game state now belongs to the sandbox
    game = require("keel.game").new { seed = 5, state = st }
    game:unit_new { name = "Warspite", type = "BB", side = "Allied", values = { strength = 5 } }
    set = require("keel.rules").load { families = { "greedy" }, path = { ... } }
    return game:hash_hex()
  ]], "=[setup]", dir)
  t.ok(ok, before)
  local ok2, res, err, kind = box:eval([[return set:act(game, "grab", { unit = 1 })]])
  t.ok(ok2)
  t.eq(res, nil)
  t.eq(kind, "memory")
  t.ok(err.message:find("rule G.1", 1, true), err.message)
  t.eq(box:usage().rebuilds, 1)                                  -- the Lua state was discarded
  t.eq(select(2, box:eval([[return game]])), nil)                -- ... with everything in it
  local ok3, after, hits = box:eval([[
    local st = require("keel").sandbox.kept("game")
    local g = require("keel.game").new { seed = 5, state = st }
    return g:hash_hex(), g:get(1, "hits")
  ]])
  t.ok(ok3, after)
  t.eq(after, before)                                            -- the game state is intact
  t.eq(hits, 0)                                                  -- and the action rolled back
  box:close()
  os.execute("rm -rf " .. dir)
end)

-- ---- the kernel's error objects --------------------------------------------------

t.test("sandbox-escape: a caught kernel error leads to nothing writable; later errors still format", function()
  local errors = require "keel.errors"
  local dir = os.tmpname()
  os.remove(dir)
  os.execute("mkdir -p " .. dir .. "/tamper")
  local function write(name, text)
    local f = assert(io.open(dir .. "/tamper/" .. name, "w"))
    f:write(text)
    f:close()
  end
  write("manifest.lua", [[return family { name = "tamper", files = { "r.lua" } }]])
  write("r.lua", [[
    rule { id = "T.1", title = "Tampers", on = { turn_start = function() error("kaboom too") end }, queries = {
      boom = function() error("kaboom") end,
      tamper = function(ctx)
        local seen = {}
        for _, f in ipairs { function() return ctx:query("boom") end,
                             function() return ctx:emit("turn_start") end } do
          local ok, e = pcall(f)
          assert(not ok and type(e) == "table")
          local mt = getmetatable(e)
          seen[#seen + 1] = type(mt)
          if type(mt) == "table" then      -- what an attacker would do with it
            mt.__newindex = function() while true do end end
            mt.__tostring = function() return "garbled" end
            mt.__metatable = nil
          end
          seen[#seen + 1] = tostring(pcall(setmetatable, e, {}))
          seen[#seen + 1] = tostring(e.__index) .. " " .. tostring(e.__tostring) .. " " .. tostring(e.__metatable)
          e.message = { "not a string" }   -- its own fields are the script's to spoil
          e.traceback = { {}, 5 }
        end
        return table.concat(seen, "|")
      end,
    } }
  ]])
  local set = require("keel.rules").load { families = { "tamper" }, path = { dir } }
  local g = require("keel.game").new { seed = 1 }
  g:unit_new { name = "Warspite", type = "BB", side = "Allied" }
  local before = g:hash_hex()
  t.eq(set:query(g, "tamper"), "string|false|nil nil nil|string|false|nil nil nil")
  -- later errors are still keel errors and still read file:line: rule ID: message
  local ok, err = pcall(set.query, set, g, "boom")
  t.eq(ok, false)
  t.ok(errors.is_error(err))
  t.ok(errors.format(err):find("tamper/r.lua:2: rule T.1: kaboom", 1, true), errors.format(err))
  t.ok(tostring(err):find("tamper/r.lua:2: rule T.1: kaboom", 1, true), tostring(err))
  t.eq(errors.get_kind(err), "error")
  t.eq(g:hash_hex(), before)
  os.execute("rm -rf " .. dir)
end)

-- ---- what runs as a scenario --------------------------------------------------------

-- A file that, run outside the sandbox, leaves a mark (a file) and then
-- passes for a scenario as well as it can.
local function spoof_file(dir, body)
  local mark = dir .. "/ran-outside-the-sandbox"
  local f = assert(io.open(dir .. "/spoof.lua", "w"))
  f:write(('local f = io.open(%q, "w"); f:write("x"); f:close()\n'):format(mark), body)
  f:close()
  return dir .. "/spoof.lua", mark
end

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

t.test("sandbox-escape: keel run plays a file in the sandbox whatever its text looks like", function()
  local dir = t.tmpdir()
  for _, body in ipairs {
    'return --[[x]] scenario { name = "spoof", rules = { "toy27" }, path = { "' .. t.cwd() .. '/tests/families" } }\n',
    'return { name = "looks like one", rules = { "toy27" } }\n',
    '-- return scenario {\nreturn 0\n',
  } do
    local file, mark = spoof_file(dir, body)
    local status, out = t.sh(t.keel_bin .. " run " .. file)
    t.eq(status, 1, out)
    t.ok(out:find(file .. ":1: io is not available in keel scripts", 1, true), out)
    t.ok(not exists(mark), "the file ran outside the sandbox: " .. body)
  end
  -- without the io call, a look-alike table is still not a scenario
  local f = assert(io.open(dir .. "/alike.lua", "w"))
  f:write('return { name = "looks like one", rules = { "toy27" } }\n')
  f:close()
  local status, out = t.sh(t.keel_bin .. " run " .. dir .. "/alike.lua")
  t.eq(status, 1, out)
  t.ok(out:find(dir .. "/alike.lua: not a scenario", 1, true), out)
  os.execute("rm -rf " .. dir)
end)

t.test("sandbox-escape: keel replay of a journal naming a plain Lua file never runs it outside the sandbox", function()
  local dir = t.tmpdir()
  local file, mark = spoof_file(dir, "return 0\n")
  local journal = dir .. "/stranger.jsonl"
  local f = assert(io.open(journal, "w"))
  f:write(('{"ev":"header","format":"keel-journal","version":1,"keel":"0.1.0","lua":"Lua 5.4.4","lpeg":"1.0.2",'
    .. '"scenario":%q,"seed":1,"variants":[],"loaded":null}\n'):format(file))
  f:close()
  local status, out = t.sh(t.keel_bin .. " replay " .. journal)
  t.eq(status, 1, out)
  t.ok(out:find(journal .. ":1: cannot set the journal's scenario up again: " .. file
    .. ":1: io is not available in keel scripts", 1, true), out)
  t.ok(not exists(mark), "the journal's file ran outside the sandbox")
  -- a harmless plain file is refused too, as not a scenario
  f = assert(io.open(file, "w"))
  f:write("return 0\n")
  f:close()
  status, out = t.sh(t.keel_bin .. " replay " .. journal)
  t.eq(status, 1, out)
  t.ok(out:find(file .. ": not a scenario", 1, true), out)
  os.execute("rm -rf " .. dir)
end)

-- ---- coroutines closed from __close ---------------------------------------------------

-- A chain of n coroutines, each closing the one made before it from its
-- __close (after `pad` nested pcalls), the error of an inner close raised on.
local function close_chain(n, pad)
  return ([[
    local N, PAD = %d, %d
    local function padded(k, f)
      if k == 0 then return f() end
      local ok, e = pcall(padded, k - 1, f)
      if not ok then error(e, 0) end
    end
    local prev
    for i = 1, N do
      local p = prev
      local co = coroutine.create(function()
        local x <close> = setmetatable({}, { __close = function()
          if p then padded(PAD, function()
            local ok, e = coroutine.close(p)
            if not ok then error(e, 0) end
          end) end
        end })
        coroutine.yield()
      end)
      coroutine.resume(co)
      prev = co
    end
    return coroutine.close(prev)]]):format(n, pad)
end

t.test("sandbox-escape: 10,000 coroutines closing each other from __close are refused, not a crash", function()
  for _, c in ipairs { { 10000, 0 }, { 400, 190 } } do
    local ok, closed, err = run(close_chain(c[1], c[2]))
    t.ok(ok, closed)
    t.eq(closed, false)
    t.ok(tostring(err):find("coroutine.close: coroutines closed from __close nested too deep", 1, true), err)
  end
  -- a short chain is fine, and the next action runs normally
  t.eq({ run(close_chain(20, 5)) }, { true, true })
end)

-- ---- memory stops --------------------------------------------------------------------

-- A family whose actions take a hit and then try `body` (Lua source).
local function memory_family(actions)
  local dir = t.tmpdir()
  os.execute("mkdir -p " .. dir .. "/greedy")
  local src = { "rule { id = \"M.1\", title = \"Greedy\", actions = {" }
  for name, body in pairs(actions) do
    src[#src + 1] = ("  %s = { params = { unit = \"unit\" }, effect = function(ctx, p)\n"
      .. "    ctx.game:add_hits(p.unit, 1)\n"
      .. "    local big = {} for i = 1, 12 do big[i] = string.rep(string.char(64 + i), 1 << 20) end\n"
      .. "    %s\n  end },"):format(name, body)
  end
  src[#src + 1] = "} }\n"
  local f = assert(io.open(dir .. "/greedy/r.lua", "w"))
  f:write(table.concat(src, "\n"))
  f:close()
  f = assert(io.open(dir .. "/greedy/manifest.lua", "w"))
  f:write([[return family { name = "greedy", files = { "r.lua" } }]])
  f:close()
  return dir
end

t.test("sandbox-limit: a refused allocation cannot be swallowed by pcall; the stop names file:line", function()
  local dir = memory_family {
    concat = [[for i = 1, 10 do pcall(table.concat, big) end return "carried on"]],
    pack = [[for i = 1, 10 do pcall(string.pack, "c300000000", "") end return "carried on"]],
    tail = [[return pcall(table.concat, big)]],
    own_error = [[local ok, e = pcall(table.concat, big) error("mine: " .. tostring(e))]],
    plain = [[local t = {} for i = 1, 1e9 do t[i] = { i } end]],
  }
  local box <close> = sandbox.new { memory = 40 * 1024 * 1024 }
  for _, name in ipairs { "concat", "pack", "tail", "own_error", "plain" } do
    local ok, res = box:eval([[
      local name, dir = ...
      local keel = require "keel"
      local game = require("keel.game").new { seed = 5 }
      game:unit_new { name = "Warspite", type = "BB", side = "Allied" }
      local set = require("keel.rules").load { families = { "greedy" }, path = { dir } }
      local before = game:hash_hex()
      local done, err, kind = set:act(game, name, { unit = 1 })
      return { done = done, kind = kind, message = type(err) == "table" and err.message or tostring(err),
               same = game:hash_hex() == before, hits = game:get(1, "hits") }
    ]], "=[t]", name, dir)
    t.ok(ok, res)
    t.eq(res.done, nil, name)
    t.eq(res.kind, "memory", name .. ": " .. tostring(res.message))
    t.ok(res.message:find("^" .. dir:gsub("%p", "%%%0") .. "/greedy/r%.lua:%d+: rule M%.1: memory limit exceeded: "
      .. "the game's scripts may use 41943040 bytes$"), name .. ": " .. res.message)
    t.ok(res.same, name .. ": the state hash changed")
    t.eq(res.hits, 0, name)
  end
  os.execute("rm -rf " .. dir)
end)

-- ---- getmetatable ------------------------------------------------------------------

t.test("sandbox-escape: getmetatable gives back only metatables scripts set", function()
  local dir = t.tmpdir()
  os.execute("mkdir -p " .. dir .. "/peek")
  local f = assert(io.open(dir .. "/peek/manifest.lua", "w"))
  f:write([[return family { name = "peek", depends = { "toy27" }, files = { "r.lua" } }]])
  f:close()
  f = assert(io.open(dir .. "/peek/r.lua", "w"))
  f:write([[
    rule { id = "K.1", title = "Peeks", queries = { peek = function(ctx)
      local seen = {}
      local bound = ctx:table("bombing_hits"):bind {}
      for _, v in ipairs { bound, ctx:table("bombing_hits"), ctx, keel.hex, "" } do
        local mt = getmetatable(v)
        seen[#seen + 1] = type(mt)
        if type(mt) == "table" then mt.__index = function() return "hijacked" end end
      end
      local own = {}
      local with_field = setmetatable({}, { __metatable = "mine" })
      seen[#seen + 1] = tostring(getmetatable(setmetatable({}, own)) == own)
      seen[#seen + 1] = getmetatable(with_field)
      return table.concat(seen, " ")
    end } }
  ]])
  f:close()
  local set = require("keel.rules").load { families = { "peek" }, path = { dir, "tests/families" } }
  local g = require("keel.game").new { seed = 1 }
  t.eq(set:query(g, "peek"), "string string string string string true mine")
  -- the table class every game shares is untouched
  t.eq(set:table("bombing_hits"):lookup(3), set:table("bombing_hits"):lookup(4))
  t.eq(type(rawget(getmetatable(set:table("bombing_hits")), "__index")), "table")
  os.execute("rm -rf " .. dir)
end)

t.test("sandbox-escape: a table taking its rows from another gives a read-only view of it", function()
  local dir = t.tmpdir()
  os.execute("mkdir -p " .. dir .. "/rows")
  local f = assert(io.open(dir .. "/rows/manifest.lua", "w"))
  f:write([[return family { name = "rows", depends = { "navgroup" }, files = { "r.lua" } }]])
  f:close()
  f = assert(io.open(dir .. "/rows/r.lua", "w"))
  f:write([[
    rule { id = "R.1", title = "Rows", queries = { spoil = function(ctx)
      local src = ctx:table("invasion_reaction"):rows_table()
      return pcall(function() src.rows = {} end)
    end } }
  ]])
  f:close()
  local set = require("keel.rules").load { families = { "rows" }, path = { dir } }
  local g = require("keel.game").new { seed = 1 }
  local ok, err = set:query(g, "spoil")
  t.eq(ok, false)
  t.ok(tostring(err):find("read-only", 1, true), err)
  os.execute("rm -rf " .. dir)
end)

t.test("sandbox-limit: a CPU stop swallowed in tail position fails the action and rolls it back", function()
  local dir = memory_family { spin = [[return pcall(function() while true do end end)]] }
  local game = require("keel.game").new { seed = 5 }
  game:unit_new { name = "Warspite", type = "BB", side = "Allied" }
  local set = require("keel.rules").load { families = { "greedy" }, path = { dir } }
  local before = game:hash_hex()
  with_limits({ cpu = 0.05 }, function()
    local done, err, kind = set:act(game, "spin", { unit = 1 })
    t.eq(done, nil)
    t.eq(kind, "cpu")
    t.ok(err.message:find("greedy/r.lua:%d+: rule M%.1: CPU limit exceeded"), err.message)
  end)
  t.eq(game:hash_hex(), before)
  t.eq(game:get(1, "hits"), 0)
  os.execute("rm -rf " .. dir)
end)

-- ---- scenario and manifest tables read outside any action ------------------------------

-- Each file builds a table the kernel reads after the file has run, with a
-- metamethod that never returns: keel must read it raw (or within the
-- limits) and either play the scenario or refuse it, never hang.
t.test("sandbox-escape: metamethods on scenario and manifest tables never run outside the limits", function()
  local dir = t.tmpdir()
  local fam = t.cwd() .. "/tests/families"
  local LOOP = "local function loop() while true do end end\n"
  local cases = {
    -- M.load: a force with __pairs
    { 'forces = { setmetatable({ name = "A", type = "BB", side = "Allied" }, { __pairs = loop, __index = loop }) }', 0 },
    -- M.start: flags and group values iterated
    { "flags = setmetatable({ turn = 1 }, { __pairs = loop, __index = loop, __len = loop })", 0 },
    { 'forces = { { name = "A", group = "G" } }, groups = { G = setmetatable({ x = 1 }, { __pairs = loop, __index = loop }) }', 0 },
    { 'forces = { { name = "A", values = setmetatable({ strength = 1 }, { __pairs = loop, __index = loop }) } }', 0 },
    -- play_all: the list of orders
    { "orders = setmetatable({}, { __index = loop, __len = loop })", 0 },
    -- params_for and the order's text: an order with __pairs
    { 'forces = { { name = "A" } }, orders = { setmetatable({ "bomb", group = "G" }, { __pairs = loop, __index = loop }) }', 0 },
    -- Run:check: expectations
    { 'orders = { { event = "game_start", expect = setmetatable({}, { __index = loop, __pairs = loop }) } }', 0 },
    -- the header: a name printed with %s
    { 'name = setmetatable({}, { __tostring = loop, __index = loop })', 1, "name: a string expected, got a table" },
    -- rules listed through __index / __len
    { 'rules = setmetatable({}, { __index = function(_, i) if i == 1 then return "toy27" end loop() end, __len = loop })', 1,
      "rules: { \"family\", ... } expected, naming the rule families" },
    -- an order parameter whose text is printed
    { 'forces = { { name = "A" } }, orders = { { "bomb", group = setmetatable({}, { __tostring = loop, __pairs = loop }) } }', 0 },
  }
  for i, c in ipairs(cases) do
    local path = dir .. "/hang" .. i .. ".lua"
    local f = assert(io.open(path, "w"))
    f:write(LOOP, ("return scenario { rules = { \"toy27\" }, path = { %q }, %s }\n"):format(fam, c[1]))
    f:close()
    local code, out = t.sh("timeout 20 " .. t.keel_bin .. " run " .. path .. " --quiet --cpu 1")
    t.ok(code ~= 124, "keel run hung on: " .. c[1])
    if c[2] == 0 then t.ok(out:find("result: ", 1, true), c[1] .. ": " .. out)
    else t.eq(code, 1, out); t.ok(out:find(path .. ":2: " .. c[3], 1, true), out) end
  end
  -- a manifest whose file list loops: the loader reads it raw
  os.execute("mkdir -p " .. dir .. "/loopy")
  local f = assert(io.open(dir .. "/loopy/manifest.lua", "w"))
  f:write(LOOP, 'return family { name = "loopy", files = setmetatable({}, { __index = loop, __len = loop }),\n'
    .. '  depends = setmetatable({}, { __index = loop }), rulebook = setmetatable({}, { __tostring = loop }) }\n')
  f:close()
  local path = dir .. "/uses_loopy.lua"
  f = assert(io.open(path, "w"))
  f:write(('return scenario { rules = { "loopy" }, path = { %q } }\n'):format(dir))
  f:close()
  local code, out = t.sh("timeout 20 " .. t.keel_bin .. " run " .. path .. " --quiet --cpu 1")
  t.ok(code ~= 124, "keel run hung on a manifest")
  t.eq(code, 1, out)
  t.ok(out:find(dir .. "/loopy/manifest.lua: rulebook must be a string, got a table", 1, true), out)
  os.execute("rm -rf " .. dir)
end)

-- ---- pairs and next -----------------------------------------------------------------

local ORDER_SRC = [[
  local t = { [3] = "c", [1] = "a", [2.5] = "x", [true] = "t", [false] = "f" }
  for i = 1, 60 do t["k" .. (i * 7919 % 1000)] = i end
  local out = {}
  for k in pairs(t) do out[#out + 1] = tostring(k) end
  local viaNext, k = {}, next(t)
  while k ~= nil do viaNext[#viaNext + 1] = tostring(k); k = next(t, k) end
  local lib = {}
  for name in pairs(math) do lib[#lib + 1] = name end
  return table.concat(out, " "), table.concat(viaNext, " "), table.concat(lib, " ")
]]

t.test("sandbox-determinism: pairs and next visit keys in keel's order, the same in every process", function()
  local ok, a, b, c = run(ORDER_SRC)
  t.ok(ok, a)
  -- keel's order: numbers, strings by byte, false, true
  local want = { "1", "2.5", "3" }
  local strs = {}
  for i = 1, 60 do strs[#strs + 1] = "k" .. (i * 7919 % 1000) end
  table.sort(strs)
  for _, s in ipairs(strs) do want[#want + 1] = s end
  want[#want + 1] = "false"
  want[#want + 1] = "true"
  t.eq(a, table.concat(want, " "))
  t.eq(b, a)
  local names = {}
  for name in pairs(math) do if name ~= "random" and name ~= "randomseed" then names[#names + 1] = name end end
  names[#names + 1] = "random"
  names[#names + 1] = "randomseed"
  table.sort(names)
  t.eq(c, table.concat(names, " "))
  -- another process (its own string-hash seed) gives the same
  local dir = t.tmpdir()
  local f = assert(io.open(dir .. "/order.lua", "w"))
  f:write(([[
    local sandbox = require "keel.sandbox"
    local fn = assert(sandbox.load(%q, "=[o]", sandbox.env()))
    local _, a = sandbox.protect(fn)
    io.write(a)
  ]]):format(ORDER_SRC))
  f:close()
  for _ = 1, 3 do
    local code, out = t.sh(t.keel_bin .. " script " .. dir .. "/order.lua")
    t.eq(code, 0, out)
    t.eq(out, a)
  end
  os.execute("rm -rf " .. dir)
end)

t.test("sandbox-determinism: pairs keeps Lua's rules; keys with no order are refused", function()
  local ok, v = run([[
    local t = { a = 1, b = 2, c = 3, d = 4 }
    local seen = {}
    for k in pairs(t) do seen[#seen + 1] = k; t[k] = nil; t.c = nil end   -- clearing fields on the way
    local mt = setmetatable({}, { __pairs = function() return function(_, k) if not k then return 1, "own" end end, nil, nil end })
    local own = {}
    for k, x in pairs(mt) do own[#own + 1] = k .. "=" .. x end
    return table.concat(seen, ",") .. "|" .. table.concat(own, ",") .. "|" .. tostring(next({})) .. "|" .. tostring(next({ 5 }, 1))]])
  t.ok(ok, v)
  t.eq(v, "a,b,d|1=own|nil|nil")
  refused([[for k in pairs({ [{}] = 1 }) do end]],
    "pairs: a table with a key of type table has no order that is the same in every process")
  refused([[return next({ [print] = 1 })]], "next: a table with a key of type function has no order")
  refused([[for k in pairs(5) do end]], "table expected, got number")
end)

t.test("sandbox-determinism: a traversal with next after the table changed sees its keys", function()
  local ok, v = run([[
    local t = { b = 1, a = 2 }
    local function walk() local out, k = {}, next(t) while k ~= nil do out[#out + 1] = k; k = next(t, k) end return table.concat(out) end
    local first = walk()
    t.c, t.aa = 3, 4
    local half = { next(t, "a") }
    t.ab = 5
    return first .. "|" .. walk() .. "|" .. half[1] ]])
  t.ok(ok, v)
  t.eq(v, "ab|aaaabbc|aa")
end)

t.test("sandbox-catching: a script's pcall, xpcall and coroutine bodies are counted while they run", function()
  local seen = {}
  local env = sandbox.env { extra = { note = function(what) seen[#seen + 1] = what .. "=" .. sandbox.catching[1] end } }
  local fn = assert(sandbox.load([[
    note("top")
    pcall(function() note("pcall") end)
    xpcall(function() note("xpcall") end, function(e) return e end)
    local co = coroutine.create(function() note("body"); coroutine.yield(); note("resumed") end)
    coroutine.resume(co); note("yielded"); coroutine.resume(co)
    coroutine.wrap(function() pcall(note, "both") end)()
    note("end")
    return pcall()
  ]], "=[c]", env))
  local ok, err = sandbox.protect(fn)
  t.eq(ok, false)
  t.ok(tostring(err):find("bad argument #1 to 'pcall' (value expected)", 1, true), tostring(err))
  t.eq(seen, { "top=0", "pcall=1", "xpcall=1", "body=1", "yielded=0", "resumed=1", "both=2", "end=0" })
  sandbox.reset_catching()
  t.eq(sandbox.catching[1], 0)
end)

t.test("sandbox-readonly: reading an absent key fills the proxy; it stays read-only, nested tables too", function()
  local real = { a = 1, nested = { b = 2 } }
  local p = sandbox.readonly(real, "data")
  t.eq(p.missing, nil)
  t.eq(p.a, 1)
  t.eq(p.nested.b, 2)
  t.ok(sandbox.is_protected(p.nested), "a nested table is seen through its own proxy")
  t.raises(function() p.a = 2 end, "data is read-only")
  t.raises(function() p.nested.b = 3 end, "data.nested is read-only")
  t.eq(#sandbox.readonly({ 1, 2, 3 }, "list"), 3)
  -- a table with a metatable is read key by key through it (its methods)
  local obj = setmetatable({}, { __index = { hello = function() return "hi" end } })
  local po = sandbox.readonly(obj, "obj")
  t.eq(po.absent, nil)
  t.eq(po.hello(), "hi")
end)

t.test("sandbox-hook: an action without a budget leaves the host's debug hook in place", function()
  local calls = 0
  local function host_hook() calls = calls + 1 end
  debug.sethook(host_hook, "", 1000)
  local ok = run("local n = 0 for i = 1, 10 do n = n + i end return n")
  local hook = debug.gethook()
  debug.sethook()
  t.ok(ok, "the script runs")
  t.eq(hook, host_hook, "the host's hook survives the action")
end)

-- tests/lua/file_test.lua — keel.file: the one bounded whole-file reader and
-- the atomic writer host code uses (kernel/file.c, l_file.c).
local t = require "keel.testing"
local keel = require "keel"

t.test("file-1: read gives the whole file; write replaces it atomically", function()
  local dir = t.tmpdir()
  local p = dir .. "/a.txt"
  t.eq(keel.file.write(p, "one\n"), true)
  t.eq(keel.file.write(p, "two\0bytes\n"), true)
  t.eq(keel.file.read(p), "two\0bytes\n")
  t.eq(keel.file.read(p, 10), "two\0bytes\n", "exactly the bound is fine")
  t.eq(select(2, t.sh("ls " .. dir)), "a.txt\n", "no temporary file left")
  os.execute("rm -rf " .. dir)
end)

t.test("file-2: a read is bounded: a large file refused unread, /dev/zero stopped at the bound", function()
  local dir = t.tmpdir()
  local p = dir .. "/big.txt"
  assert(keel.file.write(p, ("x"):rep(100)))
  local text, err = keel.file.read(p, 99)
  t.eq(text, nil)
  t.eq(err, p .. ": larger than 99 bytes; refusing to read it")
  text, err = keel.file.read("/dev/zero", 4096)
  t.eq(text, nil)
  t.eq(err, "/dev/zero: larger than 4096 bytes; refusing to read it")
  t.eq(keel.file.MAX, 256 * 1024 * 1024)
  t.ok(not pcall(keel.file.read, p, keel.file.MAX + 1), "a bound over MAX is a mistake")
  t.ok(not pcall(keel.file.read, p, -1))
  os.execute("rm -rf " .. dir)
end)

t.test("file-3: what cannot be read or written says the path and the system's reason", function()
  local dir = t.tmpdir()
  t.eq({ keel.file.read(dir .. "/none") }, { nil, dir .. "/none: No such file or directory" })
  t.eq({ keel.file.read(dir) }, { nil, dir .. ": Is a directory" })
  t.eq({ keel.file.write(dir .. "/no/x", "x") }, { nil, dir .. "/no/x: cannot write (No such file or directory)" })
  os.execute("rm -rf " .. dir)
end)

t.test("file-4: sandboxed scripts never get keel.file", function()
  local sandbox = require "keel.sandbox"
  local env = sandbox.env {}
  local fn = assert(sandbox.load("return type(keel), keel.hex ~= nil, keel.file", "=probe", env))
  t.eq({ fn() }, { "table", true }, "keel is there, its file module is not")
end)

t.test("file-5: a read given the text read last gives that very string back when the file is the same", function()
  local dir = t.tmpdir()
  local p = dir .. "/same.txt"
  local size = 1024 * 1024
  assert(keel.file.write(p, ("x"):rep(size)))
  local first = keel.file.read(p)
  -- the same string, not a copy: the read makes no string of the file
  local function grows(fn)
    collectgarbage("collect")
    collectgarbage("stop")
    local before = collectgarbage("count")
    local text = fn()
    local kb = collectgarbage("count") - before
    collectgarbage("restart")
    return kb, text
  end
  local kb, again = grows(function() return keel.file.read(p, nil, first) end)
  t.eq(again, first)
  t.ok(kb < 64, ("the same text: %.0f KB allocated"):format(kb))
  kb = grows(function() return keel.file.read(p) end)
  t.ok(kb >= size / 1024, ("without it, a new string: %.0f KB"):format(kb))
  t.eq(keel.file.read(p, nil, ("y"):rep(size)), first, "a different text: the file's")
  t.eq(keel.file.read(p, nil, ("x"):rep(size - 1)), first, "a shorter one too")
  assert(keel.file.write(p, ("z"):rep(size)))
  t.eq(keel.file.read(p, nil, first), ("z"):rep(size), "a changed file: its new text")
  os.execute("rm -rf " .. dir)
end)

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

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

t.test("file-2: a read is bounded: a large file refused unread, /dev/zero refused", function()
  local dir = t.tmpdir()
  local p = dir .. "/big.txt"
  assert(keel.file.write(p, ("x"):rep(100)))
  local text, err = keel.file.read(p, 99)
  t.eq(text, nil)
  t.eq(err, p .. ": larger than 99 bytes; refusing to read it")
  text, err = keel.file.read("/dev/zero", 4096)
  t.eq(text, nil)
  t.eq(err, "/dev/zero: not a regular file", "a device is refused before a byte is read")
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

-- the paths below are all in a folder of the test's own: a link there to
-- /dev/null stands for the device, so that a writer that replaced what it
-- was given would replace the link, never the machine's /dev/null
local function kind(path)
  local _, out = t.sh("stat -c %F " .. path)
  return (out:gsub("%s+$", ""))
end

t.test("file-6: a read refuses a FIFO at once (no writer awaited) and any other file that is not regular, naming it", function()
  local dir = t.tmpdir()
  local fifo = dir .. "/feed"
  assert(os.execute("mkfifo " .. fifo))
  -- read in a process of its own, under a deadline: a read that waited for a
  -- writer would wait for good
  local probe = dir .. "/probe.lua"
  assert(keel.file.write(probe, "print(select(2, require('keel').file.read(...)))"))
  local status, out = t.sh(("timeout 10 %s script %s %s"):format(t.keel_bin, probe, fifo))
  t.eq({ status, out }, { 0, fifo .. ": not a regular file\n" })
  assert(os.execute("ln -s /dev/zero " .. dir .. "/zero"))
  t.eq({ keel.file.read(dir .. "/zero") }, { nil, dir .. "/zero: not a regular file" })
  t.eq({ keel.file.read("") }, { nil, "an empty path names no file to read" })
  t.eq(kind(fifo), "fifo")
  os.execute("rm -rf " .. dir)
end)

t.test("file-7: a write never replaces what is not a regular file: into a device or a FIFO, through a link, or refused", function()
  local dir = t.tmpdir()
  -- a character device (through a link of ours): written into; the link stays
  local null = dir .. "/null"
  assert(os.execute("ln -s /dev/null " .. null))
  t.eq(keel.file.write(null, "into the device\n"), true)
  t.eq(kind(null), "symbolic link")
  t.eq(kind("/dev/null"), "character special file")
  -- a FIFO with no reader: refused at once, still a FIFO
  local fifo = dir .. "/pipe"
  assert(os.execute("mkfifo " .. fifo))
  t.eq({ keel.file.write(fifo, "x") }, { nil, fifo .. ": cannot write (No such device or address)" })
  t.eq(kind(fifo), "fifo")
  -- a link to a regular file: the file is replaced, the link stays
  assert(keel.file.write(dir .. "/real.txt", "old"))
  assert(os.execute("ln -s real.txt " .. dir .. "/link.txt"))
  t.eq(keel.file.write(dir .. "/link.txt", "new"), true)
  t.eq(kind(dir .. "/link.txt"), "symbolic link")
  t.eq(keel.file.read(dir .. "/real.txt"), "new")
  -- a link to nothing, a folder, an empty path: refused
  assert(os.execute("ln -s nowhere " .. dir .. "/dangling"))
  t.eq({ keel.file.write(dir .. "/dangling", "x") }, { nil, dir .. "/dangling: cannot write (No such file or directory)" })
  t.eq({ keel.file.write(dir, "x") }, { nil, dir .. ": cannot write (Is a directory)" })
  t.eq({ keel.file.write("", "x") }, { nil, "an empty path names no file to write" })
  t.eq(select(2, t.sh("ls " .. dir)), "dangling\nlink.txt\nnull\npipe\nreal.txt\n", "nothing else made, no temporary file")
  os.execute("rm -rf " .. dir)
end)

t.test("file-8: keel render -o through a link to a device writes into it; the link is not replaced", function()
  local dir = t.tmpdir()
  local null = dir .. "/null"
  assert(os.execute("ln -s /dev/null " .. null))
  local status, out = t.sh(t.keel_bin .. " render scenarios/maps/crete.map -o " .. null)
  t.eq(status, 0, out)
  t.eq(kind(null), "symbolic link")
  os.execute("rm -rf " .. dir)
end)

t.test("file-9: a scenario whose map is a FIFO, or /dev/stdin in keel serve, is refused at once, naming it", function()
  local dir = t.tmpdir()
  assert(os.execute("mkfifo " .. dir .. "/fifo.map"))
  local f = assert(io.open(dir .. "/fifo.lua", "w"))
  f:write('return scenario { name = "fifo", map = "fifo.map", rules = { "navgroup" }, seed = 1, forces = {} }\n')
  f:close()
  f = assert(io.open(dir .. "/stdin.lua", "w"))
  f:write('return scenario { name = "stdin", map = "/dev/stdin", rules = { "navgroup" }, seed = 1, forces = {} }\n')
  f:close()
  local status, out = t.sh("timeout 20 " .. t.keel_bin .. " run " .. dir .. "/fifo.lua")
  t.eq(status, 1, out)
  t.ok(out:find(dir .. "/fifo.map: not a regular file", 1, true), out)
  -- through keel serve, whose standard input is its requests: the next request is still answered
  status, out = t.sh(("printf '%%s\\n' '{\"id\":1,\"op\":\"open\",\"scenario\":\"%s/stdin.lua\"}' '{\"id\":2,\"op\":\"hello\"}' "
    .. "| timeout 20 %s serve --stdio --root %s"):format(dir, t.keel_bin, dir))
  t.eq(status, 0, out)
  t.ok(out:find("/dev/stdin: not a regular file", 1, true), out)
  t.ok(out:find('"id":2', 1, true) and out:find('"protocol":1', 1, true), "the hello after it is answered: " .. out)
  os.execute("rm -rf " .. dir)
end)

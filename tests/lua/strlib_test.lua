-- tests/lua/strlib_test.lua — keel.strlib's bounded string functions give
-- the same answers as Lua's own string library (kernel/pattern.c is written
-- afresh, so it is compared with the stock one on many patterns).
local t = require "keel.testing"
local S = require("keel").strlib

local function same(fname, ...)
  local want = table.pack(pcall(string[fname], ...))
  local got = table.pack(pcall(S[fname], ...))
  if not want[1] then
    t.eq(got[1], false, fname .. " should fail")
    return
  end
  t.eq(got, want, fname .. "(" .. t.fmt({ ... }) .. ")")
end

local cases = {
  { "hello world", "o" }, { "hello world", "l+" }, { "hello world", "l*" },
  { "hello world", "l-o" }, { "hello world", "^h" }, { "hello world", "^e" },
  { "hello world", "d$" }, { "hello world", "(o)(r)" }, { "hello world", "()ll()" },
  { "hello", "" }, { "", "" }, { "", "a*" }, { "key = value", "(%w+)%s*=%s*(%w+)" },
  { "27.A.3.b", "^(%d+)%.(%u)%.?(%d*)%.?(%l*)$" }, { "f(a(b)c)d", "%b()" },
  { "THE (quick) fox", "%f[%a]%a+" }, { "THE (quick) fox", "%f[%A]" },
  { "abcabc", "(abc)%1" }, { "x = [[y]]", "%[(=*)%[" }, { "a]b", "[]]" },
  { "a-b", "[a-]" }, { "a^b", "[%^^]" }, { "0x1F", "%x+" }, { "  pad  ", "^%s*(.-)%s*$" },
  { "a.b.c", "%." }, { "a.b.c", "." }, { "a,b,,c", "([^,]*)" }, { "\0a\0", "%z?a" },
  { "aaa", "a?a?a?aaa" }, { "ab", "[^%a]" }, { "CamelCaseWord", "%u%l+" },
  { "abc", "[b-]" }, { "abc", "[%w_]+" }, { "1,2;3", "[,;]" }, { "x", "[" },
  { "x", "%" }, { "x", "(x" }, { "x", "x)" }, { "x", "%b" }, { "x", "%f" },
  { "x", "%1" }, { "xx", "(x)%2" }, { "x", "[a" }, { "x", "[^" },
}

t.test("strlib-1: find matches the stock library", function()
  for _, c in ipairs(cases) do
    same("find", c[1], c[2])
    same("find", c[1], c[2], 2)
    same("find", c[1], c[2], -3)
    same("find", c[1], c[2], 1, true)
    same("find", c[1], c[2], 100)
  end
end)

t.test("strlib-2: match matches the stock library", function()
  for _, c in ipairs(cases) do
    same("match", c[1], c[2])
    same("match", c[1], c[2], 3)
  end
end)

local function collect(lib, s, p, init)
  local out = {}
  local ok, err = pcall(function()
    for a, b in lib.gmatch(s, p, init) do out[#out + 1] = { a, b } end
  end)
  return ok, ok and out or nil, err ~= nil
end

t.test("strlib-3: gmatch matches the stock library", function()
  for _, c in ipairs(cases) do
    t.eq({ collect(S, c[1], c[2]) }, { collect(string, c[1], c[2]) }, "gmatch " .. t.fmt(c))
    t.eq({ collect(S, c[1], c[2], 2) }, { collect(string, c[1], c[2], 2) }, "gmatch init " .. t.fmt(c))
  end
end)

t.test("strlib-4: gsub matches the stock library", function()
  for _, c in ipairs(cases) do
    same("gsub", c[1], c[2], "<%0>")
    same("gsub", c[1], c[2], "%%")
    same("gsub", c[1], c[2], "%1")
    same("gsub", c[1], c[2], "x", 1)
    same("gsub", c[1], c[2], { a = "A", l = false, hello = 1 })
    same("gsub", c[1], c[2], function(a) if a == "l" then return nil end return "[" .. tostring(a) .. "]" end)
  end
  same("gsub", "abc", "%w", "%2")
  same("gsub", "abc", "%w", "%")
  same("gsub", "abc", "%w", {})
  same("gsub", "abc", "%w", function() return {} end)
  same("gsub", "hello world", "(o)", "%1%1", 0)
end)

t.test("strlib-5: generated patterns agree with the stock library", function()
  local seed = 12345
  local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n + 1 end
  local atoms = { "a", "b", ".", "%a", "%d", "[ab]", "[^a]", "%s", "(", ")", "()", "%b()", "%f[%a]", "^", "$" }
  local reps = { "", "", "*", "+", "-", "?" }
  local chars = { "a", "b", "1", " ", "(", ")", "c" }
  for _ = 1, 1500 do
    local p = {}
    for _ = 1, rnd(5) do
      local a = atoms[rnd(#atoms)]
      p[#p + 1] = a
      if #a == 1 and a:match("[ab.]") or a:match("^%%[ads]$") or a:match("^%[") then
        p[#p + 1] = reps[rnd(#reps)]
      end
    end
    local s = {}
    for _ = 1, rnd(12) - 1 do s[#s + 1] = chars[rnd(#chars)] end
    local subject, pattern = table.concat(s), table.concat(p)
    same("find", subject, pattern)
    same("match", subject, pattern)
    same("gsub", subject, pattern, "<%0>")
  end
end)

t.test("strlib-6: rep and format", function()
  same("rep", "ab", 3, ",")
  same("rep", "ab", 0)
  same("rep", "", 5)
  same("rep", "x", -1)
  same("format", "%5.2f|%d|%s|%q", 3.14159, 42, "s", "a\nb")
  t.ok(S.format("%s", {}):match("^table: #%d+$"))
  t.raises(function() S.format("%p", {}) end, "'%p' is not available")
end)

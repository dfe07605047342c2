-- tests/lua/actions_same_test.lua — issue 28: the faster listing of legal
-- actions gives the same answers, byte for byte, as before the speed work.
-- tests/lua/data/actions_28.lua holds the JSON of the listing at every
-- step of the navgroup showcases (hashed), generated on main before it.
local t = require "keel.testing"
local F = dofile("tests/lua/actions_fixture.lua")
local EXPECTED = dofile("tests/lua/data/actions_28.lua")

local function same(file)
  local want = assert(EXPECTED[file], file)
  local got = F.listings(file)
  t.eq(#got, #want, file .. ": the number of steps")
  for i = 1, math.max(#got, #want) do
    local g, w = got[i] or {}, want[i] or {}
    t.eq(g.side, w.side, ("%s step %d: the side"):format(file, i))
    t.eq(g.bytes, w.bytes, ("%s step %d: the size of the listing"):format(file, i))
    t.eq(g.hash, w.hash, ("%s step %d: the listing's JSON"):format(file, i))
  end
end

t.test("28-same-answers-suez: every step of suez_1942 lists what it listed before", function()
  same("scenarios/suez_1942.lua")
end)

t.test("28-same-answers-salerno: every step of salerno_1943 lists what it listed before", function()
  same("scenarios/salerno_1943.lua")
end)

t.test("28-same-answers-hash: the fixture's hash tells listings apart", function()
  t.ok(F.hash("a") ~= F.hash("b"))
  t.eq(F.hash(""), "cbf29ce484222325")
end)

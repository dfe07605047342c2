-- tests/lua/keys_test.lua — keel.keys: the one total order of table keys.
local t = require "keel.testing"
local keys = require "keel.keys"

t.test("keys-1: numbers first by value, then strings by byte, then false, then true", function()
  t.eq(keys.sorted({ b = 1, [10] = 1, a = 1, [9] = 1, [-1.5] = 1, [true] = 1, [false] = 1, ["10"] = 1, B = 1 }),
    { -1.5, 9, 10, "10", "B", "a", "b", false, true })
  t.eq(keys.sorted({}), {})
  t.ok(keys.is_before(2, "1"))
  t.ok(not keys.is_before("1", 2))
end)

t.test("keys-2: the same keys give the same order whatever the insertion order", function()
  local a, b = {}, {}
  for i = 1, 50 do a["k" .. i] = i; a[i * 3] = i end
  for i = 50, 1, -1 do b[i * 3] = i; b["k" .. i] = i end
  t.eq(keys.sorted(a), keys.sorted(b))
end)

t.test("keys-3: a key with no order across processes (a table) is refused, naming its type", function()
  t.raises(function() keys.sorted({ [{}] = 1 }) end, "a key of type table has no order")
  t.raises(function() keys.sorted({ [print] = 1, a = 2 }) end, "a key of type function has no order")
end)

-- tests/lua/state_test.lua — keel.state: the binding of the game state.
local t = require "keel.testing"
local keel = require "keel"
local S = keel.state

local function ship(st, name, type_, strength)
  local id = st:unit_new(name, type_, "Allied")
  st:set_value(id, "strength", strength)
  return id
end

t.test("state-1: units get ids in order and read back", function()
  local st = S.new()
  local a = ship(st, "Warspite", "BB", 5)
  local b = ship(st, "Hood", "BC", 6)
  t.eq({ a, b }, { 1, 2 })
  local u = st:get_unit(a)
  t.eq(u.name, "Warspite"); t.eq(u.type, "BB"); t.eq(u.side, "Allied")
  t.eq(u.face, "full"); t.eq(u.hits, 0); t.eq(u.loc, "off"); t.eq(u.where, nil)
  st:move(a, "port", keel.hex.from_qr(3, 4))
  t.eq({ st:get(a, "loc") }, { "port", keel.hex.from_qr(3, 4) })
  st:set(a, "face", "damaged")
  t.eq(st:get(a, "face"), "damaged")
  t.eq(st:get_value(a, "strength"), 5)
  t.eq(st:get_value(a, "nothing"), nil)
end)

t.test("state-2: misuse raises, naming the argument", function()
  local st = S.new()
  local a = ship(st, "x", "DD", 1)
  t.raises(function() st:add_hits(9, 1) end, "no unit 9")
  t.raises(function() st:set(a, "face", "sideways") end, "invalid option 'sideways'")
  t.raises(function() st:add_hits(a, -1) end, "hits would go below 0")
  t.raises(function() st:set_value(a, "x", {}) end, "nil, boolean, number or string expected")
  t.raises(function() st:set_value(a, "x", 0 / 0) end, "finite number expected")
  t.raises(function() st:move(a, "unit", a) end, "carry itself")
  t.raises(function() st:move(a, "hex", 1 << 62) end, "not a valid hex")
end)

t.test("state-3: values and markers come back sorted by name", function()
  local st = S.new()
  local a = ship(st, "x", "DD", 1)
  for _, k in ipairs({ "speed", "aa", "flak", "protection" }) do st:set_value(a, k, 1) end
  t.eq(st:value_keys(a), { "aa", "flak", "protection", "speed", "strength" })
  t.eq(st:add_marker(a, "DG"), 1)
  t.eq(st:add_marker(a, "+3 MP", 1), 1)
  t.eq(st:add_marker(a, "DG", 1), 2)
  t.eq(st:markers(a), { DG = 2, ["+3 MP"] = 1 })
  st:set_marker(a, "DG", 0)
  t.eq(st:markers(a), { ["+3 MP"] = 1 })
end)

t.test("state-4: the hash depends on the state, not on its history", function()
  local a, b = S.new(), S.new()
  local x, y = ship(a, "Hood", "BC", 6), ship(b, "Hood", "BC", 6)
  a:add_hits(x, 2)
  b:add_hits(y, 5); b:set_value(y, "tmp", "z"); b:add_marker(y, "DG", 3)
  b:set(y, "hits", 2); b:set_value(y, "tmp", nil); b:set_marker(y, "DG", 0)
  t.eq(a:hash(), b:hash())
  t.eq(a:hash(), a:hash_full())
  t.eq(#a:hash_hex(), 16)
end)

t.test("state-5: groups are ordered; group attributes", function()
  local st = S.new()
  local ids = {}
  for i = 1, 4 do ids[i] = ship(st, "s" .. i, "DD", 1) end
  local g = st:group_new("TF 7")
  st:group_add(g, ids[3]); st:group_add(g, ids[1]); st:group_add(g, ids[2], 1)
  t.eq(st:group_units(g), { 2, 3, 1 })
  t.raises(function() st:group_add(g, ids[1]) end, "already in group")
  st:group_set_value(g, "mp", 20); st:group_set_value(g, "kind", "combat"); st:group_set_value(g, "reserve", true)
  t.eq(st:group_values(g), { mp = 20, kind = "combat", reserve = true })
  t.eq(st:groups_of(ids[1]), { g })
  st:eliminate(ids[1])
  t.eq(st:group_units(g), { 2, 3 }, "a dead unit leaves its groups")
end)

t.test("state-6: iteration over units at a place is in id order", function()
  local st = S.new()
  local h = keel.hex.from_qr(0, 0)
  for i = 1, 6 do local id = ship(st, "u" .. i, "DD", 1); if i % 2 == 0 then st:move(id, "hex", h) end end
  t.eq(st:units_at("hex", h), { 2, 4, 6 })
  t.eq(st:units_at("off"), { 1, 3, 5 })
end)

t.test("state-7: transactions roll back to the same hash", function()
  local st = S.new()
  local a = ship(st, "x", "BB", 5)
  local h0 = st:hash()
  local lv = st:begin()
  st:add_hits(a, 3); st:set_owner(keel.hex.from_qr(1, 1), "Axis"); st:unit_new("extra")
  local lv2 = st:begin()
  st:set_global("weather", "storm")
  st:commit(lv2)
  st:rollback(lv)
  t.eq(st:hash(), h0)
  t.eq(st:count_units(), 1)
  t.eq(st:get_owner(keel.hex.from_qr(1, 1)), nil)
  t.eq(st:get_global("weather"), nil)
  t.raises(function() st:commit(1) end, "not the innermost")
end)

t.test("state-8: globals and ownership", function()
  local st = S.new()
  st:set_global("turn", 3); st:set_global("vp.Axis", 12); st:set_global("suez", "closed")
  local vals, keys = st:globals()
  t.eq(keys, { "suez", "turn", "vp.Axis" })
  t.eq(vals.turn, 3)
  local hexes = {}
  for q = 0, 9 do hexes[#hexes + 1] = keel.hex.from_qr(q, 0) end
  st:set_owner(hexes, "Allied")
  t.eq(st:count_owned(), 10)
  st:set_owner(hexes[1], nil)
  t.eq(st:count_owned(), 9)
  t.eq(st:get_owner(hexes[2]), "Allied")
end)

t.test("state-11: keyed values: structured keys, key order, undo and hash", function()
  local st = S.new()
  st:set_keyed("zoc", { "Axis", "A1" }, true)
  st:set_keyed("zoc", { "Allied", "A1" }, true)
  st:set_keyed("zoc", "Allied", 2)              -- a one-part key may be bare
  st:set_keyed("zoc", { 7, -1 }, "x")
  st:set_keyed("zoc", -3, 1.5)
  t.eq(st:count_keyed("zoc"), 5)
  t.eq(st:get_keyed("zoc", { "Allied", "A1" }), true)
  t.eq(st:get_keyed("zoc", { "A1", "Allied" }), nil)
  t.eq(st:get_keyed("zoc", { "Allied" }), 2, "a bare key is the one-part array")
  t.eq(st:get_keyed("nowhere", 1), nil)
  t.eq(st:get_keyed("zoc", "never interned"), nil)
  local got = {}
  for i = 1, st:count_keyed("zoc") do
    local key, value = st:at_keyed("zoc", i)
    got[i] = { key, value }
  end
  t.eq(got, { { { -3 }, 1.5 }, { { 7, -1 }, "x" }, { { "Allied" }, 2 },
              { { "Allied", "A1" }, true }, { { "Axis", "A1" }, true } },
       "integers before strings, a shorter key before a longer one it begins")
  local h = st:hash()
  local lv = st:begin()
  st:set_keyed("zoc", { "Axis", "A1" }, nil)
  t.eq(st:count_keyed("zoc"), 4)
  st:rollback(lv)
  t.eq(st:hash(), h)
  t.eq(st:hash_full(), h)
  t.ok(st:journal():find('{"ev":"keyed","rule":null,"map":"zoc","key":[7,-1],"old":null,"new":"x"}', 1, true))
  t.raises(function() st:set_keyed("zoc", { 1, 2, 3, 4 }, 1) end, "a key has 1 to 3 parts")
  t.raises(function() st:set_keyed("zoc", {}, 1) end, "a key has 1 to 3 parts")
  t.raises(function() st:set_keyed("zoc", 1.5, 1) end, "integers or strings")
  t.raises(function() st:set_keyed("zoc", { true }, 1) end, "integers or strings")
  t.raises(function() st:set_keyed("zoc", ("x"):rep(256), 1) end, "longer than 255 bytes")
  t.raises(function() st:at_keyed("zoc", 6) end, "1..5 expected")
  t.raises(function() st:set_keyed("zoc", 1, {}) end, "nil, boolean, number or string expected")
end)

t.test("state-9: json is deterministic (sorted keys, shortest floats)", function()
  t.eq(S.json({ b = 1, a = { 1, 2.5, "x" }, c = { z = true, y = false } }),
       '{"a":[1,2.5,"x"],"b":1,"c":{"y":false,"z":true}}')
  t.eq(S.json(0.1), "0.1"); t.eq(S.json(1.0), "1.0"); t.eq(S.json(1e300), "1e+300")
  t.eq(S.json("a\"\n\1"), '"a\\"\\n\\u0001"')
  t.raises(function() S.json({ [1] = 1, x = 2 }) end, "keys must be")
  t.raises(function() S.json(print) end, "no JSON form")
  local cyc = {}; cyc.self = cyc
  t.raises(function() S.json(cyc) end, "nested too deeply")
end)

t.test("state-10: bytes per unit are reported", function()
  local st = S.new()
  for i = 1, 100 do ship(st, "u" .. i, "DD", i) end
  local total, units = st:memory()
  t.ok(units > 0 and total >= units)
  t.ok(units / 100 < 400, "under 400 bytes a unit with one value")
end)

t.test("state-json_line: a journal line, fields in the order given, values as keel.state.json", function()
  local jl, json = keel.state.json_line, keel.state.json
  t.eq(jl("roll", "rule", "32.B", "reason", nil, "faces", { 2, 5 }, "forced", false, "n", 1),
    '{"ev":"roll","rule":"32.B","reason":null,"faces":[2,5],"forced":false,"n":1}')
  t.eq(jl("x"), '{"ev":"x"}')
  local v = { b = 1, a = { "q\"" } }
  t.eq(jl("x", "v", v), '{"ev":"x","v":' .. json(v) .. "}")
  t.raises(function() jl("x", "k") end, "key, value pairs")
  t.raises(function() jl("x", 1, 2) end, "a key (string) expected")
end)

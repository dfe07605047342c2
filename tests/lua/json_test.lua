-- tests/lua/json_test.lua — keel's one JSON encoder (kernel/l_state.c's
-- keel.state.json through keel.json): arrays marked so that an empty one is
-- [], null inside tables, pretty output (keel lab's results), and valid
-- UTF-8 in every JSON text keel writes (journal lines, responses) while a
-- save keeps a string's bytes; the decoder's nulls option and \u escapes.
local t = require "keel.testing"
local keel = require "keel"
local json = require "keel.json"
local game_mod = require "keel.game"

-- is s valid UTF-8? (utf8.len is strict in Lua 5.4: no surrogates, no overlong forms)
local function valid(s) return utf8.len(s) ~= nil end

t.test("json-1: json.array: an empty array is [], a marked list an array; other tables as before", function()
  t.eq(json.encode({}), "{}")
  t.eq(json.encode(json.array()), "[]")
  t.eq(json.encode(json.array({})), "[]")
  t.eq(json.encode(json.array({ 1, "a" })), '[1,"a"]')
  t.eq(json.encode({ a = json.array(), b = {}, c = { 1, 2 } }), '{"a":[],"b":{},"c":[1,2]}')
  -- a marked table must be a list: keys 1..n and no other
  t.raises(function() json.encode(json.array({ 1, 2, x = 3 })) end, "keys 1..n")
  t.raises(function() json.encode(json.array({ x = 1 })) end, "keys 1..n")
  -- a table with a metatable of its own is not marked (a sealed table keeps its seal)
  t.raises(function() json.array(setmetatable({}, {})) end, "without a metatable")
  local a = json.array()
  t.eq(json.array(a), a, "marking twice is the same table")
  t.eq(getmetatable(a), "keel.json.array", "the marker's metatable is protected")
  t.raises(function() setmetatable(a, nil) end, "protected")
end)

t.test("json-2: json.null is null at the top and inside tables; the decoder gives it, or nil", function()
  t.eq(json.encode(nil), "null")
  t.eq(json.encode(json.null), "null")
  t.eq(json.encode({ 1, json.null, 3 }), "[1,null,3]")
  t.eq(json.encode({ a = json.null }), '{"a":null}')
  t.eq(tostring(json.null), "null")
  t.raises(function() json.null.x = 1 end, "read-only")
  local v = json.decode('{"a":null,"b":[1,null,3]}')
  t.eq(v.a, json.null)
  t.eq(json.encode(v), '{"a":null,"b":[1,null,3]}', "decoded and encoded again, the same text")
  local plain = json.decode('{"a":null,"b":[1,null,3],"c":{"d":null}}', { nulls = false })
  t.eq(plain.a, nil)
  t.eq(plain.b[1], 1)
  t.eq(plain.b[2], nil)
  t.eq(plain.b[3], 3)
  t.eq(next(plain.c), nil)
  local top, err = json.decode("null", { nulls = false })
  t.eq(top, nil)
  t.eq(err, nil, "null is a JSON text: no error")
end)

t.test("json-3: pretty output: two spaces a level, scalars on one line, objects of scalars up to 100 bytes", function()
  local doc = {
    name = "study", games = 12, ratio = 0.5, empty = json.array(), none = {},
    flat = { 1, 2, 3 }, nested = { { 1 }, { a = 1 } },
    small = { a = 1, b = "x", c = true },
    wide = { alpha = ("a"):rep(40), beta = ("b"):rep(40) },
    deep = { list = json.array({ { k = json.null } }) },
  }
  local want = table.concat({
    "{",
    '  "deep": {',
    '    "list": [',
    '      {"k": null}',
    "    ]",
    "  },",
    '  "empty": [],',
    '  "flat": [1, 2, 3],',
    '  "games": 12,',
    '  "name": "study",',
    '  "nested": [',
    "    [1],",
    '    {"a": 1}',
    "  ],",
    '  "none": {},',
    '  "ratio": 0.5,',
    '  "small": {"a": 1, "b": "x", "c": true},',
    '  "wide": {',
    '    "alpha": "' .. ("a"):rep(40) .. '",',
    '    "beta": "' .. ("b"):rep(40) .. '"',
    "  }",
    "}",
  }, "\n")
  t.eq(json.encode(doc, { pretty = true }), want)
  -- the bound: an object of scalars exactly 100 bytes wide stays on one line, 101 does not
  local function line_of(n)   -- {"k": "xxx"}: 9 bytes around the value
    return json.encode({ o = { k = ("x"):rep(n - 9) } }, { pretty = true })
  end
  t.ok(line_of(100):find('"o": {"k": ', 1, true), line_of(100))
  t.ok(not line_of(101):find('"o": {"k": ', 1, true), line_of(101))
  -- pretty and compact are the same data
  t.eq(json.decode(json.encode(doc, { pretty = true })), json.decode(json.encode(doc)))
end)

t.test("json-4: strings are written as valid UTF-8: U+FFFD for each ill-formed part", function()
  local R = "\u{FFFD}"
  local cases = {
    { "plain", '"plain"' },
    { "caf\xc3\xa9 \u{1F600}", '"caf\xc3\xa9 \u{1F600}"' },             -- valid: as it is
    { "a\xffb", '"a' .. R .. 'b"' },                                      -- a byte that starts nothing
    { "a\xe2\x82b", '"a' .. R .. 'b"' },                                  -- a sequence cut short: one U+FFFD
    { "\xed\xa0\x80", '"' .. R .. R .. R .. '"' },                        -- a surrogate: each byte
    { "\xc0\xaf", '"' .. R .. R .. '"' },                                 -- an overlong form
    { "\xf4\x90\x80\x80", '"' .. R .. R .. R .. R .. '"' },               -- beyond U+10FFFF
    { "end\xf0\x9f\x98", '"end' .. R .. '"' },                            -- cut short at the end
    { "\x7f\x01", '"\\u007f\\u0001"' },                                   -- controls escaped as before
  }
  for _, c in ipairs(cases) do
    local got = json.encode(c[1])
    t.eq(got, c[2], ("%q"):format(c[1]))
    t.ok(valid(got), "valid UTF-8")
  end
  t.eq(json.encode({ ["k\xff"] = "v\xfe" }), '{"k' .. R .. '":"v' .. R .. '"}', "keys too")
  t.ok(valid(keel.state.json_line("x\xff", "why", "no\xc3")), "journal lines too")
end)

t.test("json-5: a state's journal is valid UTF-8; its save keeps the bytes and loads back the same state", function()
  local g = game_mod.new()
  local u = g:unit_new { name = "Warsp\xffite", type = "BB", side = "Al\xc3lied" }
  g:action("name", function(game) game:set_value(u, "motto", "no\xed\xa0\x80surrender") end)
  g:try(function() error("refused by \xfe\xff") end)
  local text = g:journal_text()
  t.ok(valid(text), "the journal is valid UTF-8")
  t.ok(text:find("Warsp\u{FFFD}ite", 1, true) or text:find("no\u{FFFD}", 1, true), text)
  local saved = g.state:save_text({})
  t.ok(saved:find("Warsp\xffite", 1, true), "a save keeps the bytes")
  local st = assert(keel.state.load_text(saved, "x.save"))
  t.eq(st:get(u, "name"), "Warsp\xffite")
  t.eq(st:get_value(u, "motto"), "no\xed\xa0\x80surrender")
  t.eq(st:hash(), g.state:hash(), "the same state")
end)

t.test("json-6: the decoder: surrogate pairs are one character, a lone surrogate U+FFFD", function()
  t.eq(json.decode('"\\ud83d\\ude00"'), "\u{1F600}")
  t.eq(json.decode('"a\\ud800b"'), "a\u{FFFD}b")
  t.eq(json.decode('"\\udc00"'), "\u{FFFD}")
  t.eq(json.decode('"\\u00e9"'), "\u{E9}")
  t.ok(valid(json.decode('"\\ud800\\ud800"')))
end)

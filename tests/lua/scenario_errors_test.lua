-- tests/lua/scenario_errors_test.lua — malformed scenarios, one class of
-- mistake a row (scripts/keel/scenario.lua: M.load, M.check, M.start).
-- Every message names the scenario file, the line of the field where the
-- field is written in the file, the field, and what was expected; none
-- points into keel's own Lua or prints a heap address.
local t = require "keel.testing"
local scenario = require "keel.scenario"
local errors = require "keel.errors"

local FAMILIES = t.cwd() .. "/tests/families"
local MAPS = t.cwd() .. "/scenarios/maps"
local dir = t.tmpdir()

-- A scenario whose fields are `fields` (Lua source, one field a line from
-- line 4 on); rules and path first unless the case gives its own.
local function scenario_text(fields, opts)
  local head = { "-- a malformed scenario", "return scenario {" }
  if not (opts and opts.no_rules) then
    head[#head + 1] = ("  rules = { \"toy27\" }, path = { %q },"):format(FAMILIES)
  else
    head[#head + 1] = "  -- no rules"
  end
  return table.concat(head, "\n") .. "\n" .. fields .. "\n}\n"
end

-- Each case: a name, the fields (or a whole `text`), the line the message
-- must name (nil: the file alone), and what the message must say.
local A = '{ name = "A", type = "BB", side = "Allied" }'
local function force(extra) return ("  forces = { { name = \"A\", type = \"BB\", side = \"Allied\", %s } },"):format(extra) end
local function order(o) return ("  forces = { %s },\n  orders = { %s },"):format(A, o) end
local CASES = {
  -- the scenario table and its own fields
  { "name a number", "  name = 5,", 4, 'name: a string expected, got 5' },
  { "description a table", "  description = {},", 4, "description: a string expected, got a table" },
  { "map a number", "  map = 5,", 4, "map: a map file (a string, relative to the scenario) expected, got 5" },
  { "map missing", '  map = "nope.map",', 4, 'map: cannot load "nope.map"' },
  { "map malformed", '  map = "bad.map",', 4, 'map: cannot load "bad.map": ' },
  { "no rules", "  seed = 1,", 2, "rules: { \"family\", ... } expected, naming the rule families", { no_rules = true } },
  { "rules empty", "  rules = {},", 4, "rules: { \"family\", ... } expected, naming the rule families", { no_rules = true } },
  { "rules a string", '  rules = "toy27",', 4, 'rules: a list of rule families { "family", ... } expected, got "toy27"', { no_rules = true } },
  { "rules[1] a number", "  rules = { 5 },", 4, "rules[1]: a string expected, got 5", { no_rules = true } },
  { "rules unknown family", '  rules = { "nosuch" },', 4, "rules[1]: no rule family 'nosuch'", { no_rules = true } },
  { "rules bad family name", '  rules = { "bad name!" },', 4, 'rules[1]: bad family name "bad name!"', { no_rules = true } },
  { "path a string", '  path = "x",', 4, 'path: a list of folders expected, got "x"' },
  { "variants[1] a number", "  variants = { 5 },", 4, "variants[1]: a string expected, got 5" },
  { "variants missing file", '  variants = { "nope.lua" },', 4, "nope.lua" },
  { "seed a fraction", "  seed = 1.5,", 4, "seed: a whole number expected, got 1.5" },
  { "seed a string", '  seed = "7",', 4, 'seed: a whole number expected, got "7"' },
  { "seed NaN", "  seed = 0/0,", 4, "seed: a finite number expected, got nan" },
  { "seed infinite", "  seed = math.huge,", 4, "seed: a finite number expected, got inf" },
  { "unknown field", "  colour = 1,", 4, "colour: unknown field (expected one of: description, evaluate, flags, forces, groups, keyed, map, name, orders, outcomes, path, players, rules, scores, seed, sequence, turns, variants, victory)" },
  { "a table as a key", "  [{}] = 1,", 2, "scenario: keys must be names or whole numbers, got a table" },
  { "a boolean as a key", "  [true] = 1,", 2, "scenario: keys must be names or whole numbers, got true" },
  { "a function as data", "  flags = { f = print },", 4, "flags.f: plain data expected (strings, numbers, booleans and tables of them), got a function" },
  { "a coroutine as data", "  flags = { f = coroutine.create(print) },", 4, "flags.f: plain data expected (strings, numbers, booleans and tables of them), got a thread" },
  -- flags
  { "flags a number", "  flags = 5,", 4, "flags: flags { name = number|string|boolean } expected, got 5" },
  { "flag a table", "  flags = { x = {} },", 4, "flags.x: a number, a string or a boolean expected, got a table" },
  { "flag NaN", "  flags = { x = 0/0 },", 4, "flags.x: a finite number expected, got nan" },
  { "flag infinite", "  flags = { x = -math.huge },", 4, "flags.x: a finite number expected, got -inf" },
  { "flag a number key", "  flags = { [1] = 2 },", 4, "flags: names (strings) expected as keys, got 1" },
  -- forces
  { "forces a number", "  forces = 5,", 4, "forces: a list of forces { { name = ... }, ... } expected, got 5" },
  { "forces a map", "  forces = { a = " .. A .. " },", 4, 'forces: a list of forces { { name = ... }, ... } expected, got a table with the key "a"' },
  { "force a number", "  forces = { 5 },", 4, "forces[1]: a force { name = ..., type = ..., side = ... } expected, got 5" },
  { "force without a name", "  forces = { {} },", 4, "forces[1].name: a force needs a name (a string), got nil" },
  { "force name a number", "  forces = { { name = 5 } },", 4, "forces[1].name: a force needs a name (a string), got 5" },
  { "force name empty", '  forces = { { name = "" } },', 4, 'forces[1].name: a force needs a name (a string), got ""' },
  { "force type a number", force("type = 5,"):gsub(', type = "BB"', ""), 4, "forces[1] (A).type: a string expected, got 5" },
  { "force side a table", force("side = {},"):gsub(', side = "Allied"', ""), 4, "forces[1] (A).side: a string expected, got a table" },
  { "force values a number", force("values = 5"), 4, "forces[1] (A).values: values { name = number|string|boolean } expected, got 5" },
  { "force value NaN", force("values = { strength = 0/0 }"), 4, "forces[1] (A).values.strength: a finite number expected, got nan" },
  { "force value infinite", force("values = { strength = math.huge }"), 4, "forces[1] (A).values.strength: a finite number expected, got inf" },
  { "force value minus infinite", force("values = { strength = -math.huge }"), 4, "forces[1] (A).values.strength: a finite number expected, got -inf" },
  { "force value a table", force("values = { strength = {} }"), 4, "forces[1] (A).values.strength: a number, a string or a boolean expected, got a table" },
  { "force value a number key", force("values = { 5 }"), 4, "forces[1] (A).values: names (strings) expected as keys, got 1" },
  { "force markers a number", force("markers = 5"), 4, "forces[1] (A).markers: markers { name = count } expected, got 5" },
  { "force marker negative", force("markers = { dg = -1 }"), 4, "forces[1] (A).markers.dg: a whole number from 0 to 2147483647 expected, got -1" },
  { "force marker a fraction", force("markers = { dg = 1.5 }"), 4, "forces[1] (A).markers.dg: a whole number from 0 to 2147483647 expected, got 1.5" },
  { "force face sideways", force('face = "sideways"'), 4, 'forces[1] (A).face: "full", "damaged" or "half" expected, got "sideways"' },
  { "force face a number", force("face = 1"), 4, 'forces[1] (A).face: "full", "damaged" or "half" expected, got 1' },
  { "force hits -1", force("hits = -1"), 4, "forces[1] (A).hits: a whole number from 0 to 2147483647 expected, got -1" },
  { "force hits a fraction", force("hits = 1.5"), 4, "forces[1] (A).hits: a whole number from 0 to 2147483647 expected, got 1.5" },
  { "force hits a string", force('hits = "2"'), 4, 'forces[1] (A).hits: a whole number from 0 to 2147483647 expected, got "2"' },
  { "force hits too many", force("hits = 1 << 40"), 4, "forces[1] (A).hits: a whole number from 0 to 2147483647 expected, got 1099511627776" },
  { "force points negative", force("points = -3"), 4, "forces[1] (A).points: a whole number from 0 to 2147483647 expected, got -3" },
  { "force at a table", force("at = {}"), 4, 'forces[1] (A).at: a hex (a label like "15B:2407", or a hex id) or a zone\'s name expected, got a table' },
  { "force at off the map", '  map = "' .. MAPS .. '/crete.map",\n' .. force('at = "15B:9999"'), 5, 'forces[1] (A).at: "15B:9999" is not a hex or zone of the map' },
  { "force at without a map", force('at = "15B:2407"'), 4, "forces[1] (A).at: the scenario has no map" },
  { "force port a string", force('port = "yes"'), 4, 'forces[1] (A).port: true or false expected, got "yes"' },
  { "force port without at", force("port = true"), 4, "forces[1] (A).port: port = true needs at = the port's hex" },
  { "force group a number", force("group = 5"), 4, "forces[1] (A).group: a string expected, got 5" },
  { "force aboard nobody", force('aboard = "Nobody"'), 4, 'forces[1] (A).aboard: no force named "Nobody" is listed before it' },
  { "force aboard and at", "  forces = { " .. A .. ', { name = "B", aboard = "A", at = 7 } },', 4, "forces[2] (B).aboard: at and aboard exclude each other" },
  { "two forces one name", "  forces = { " .. A .. ", " .. A .. " },", 4, 'forces[2] (A).name: two forces are named "A" (forces[1] and forces[2])' },
  { "force unknown field", force("colour = 1"), 4, "forces[1] (A).colour: unknown field (expected one of: aboard, at, face, group, hits, markers, name, points, port, side, type, values)" },
  { "force a table as key", force("[{}] = 1"), 4, "forces[1] (A): keys must be names or whole numbers, got a table" },
  { "force on a line of its own", "  forces = {\n    " .. A .. ",\n    { name = \"B\", hits = -2 },\n  },", 6, "forces[2] (B).hits: a whole number from 0 to 2147483647 expected, got -2" },
  -- keyed values
  { "keyed a number", "  keyed = 5,", 4, "keyed: a list of keyed values { {map, key, value}, ... } expected, got 5" },
  { "keyed entry without a key", '  keyed = { { "vp" } },', 4, "keyed[1]: {map, key, value} expected (map a name, key a part or a list of parts), got no key" },
  { "keyed key of four parts", '  keyed = { { "vp", { 1, 2, 3, 4 }, 1 } },', 4, "keyed[1][2]: a key of 1 to 3 parts expected" },
  { "keyed key part a table", '  keyed = { { "vp", { {} }, 1 } },', 4, "keyed[1][2]: key parts are whole numbers or names, got a table" },
  { "keyed value a table", '  keyed = { { "vp", "Allied", {} } },', 4, "keyed[1][3]: a number, a string or a boolean expected, got a table" },
  -- groups
  { "groups a number", "  groups = 5,", 4, "groups: groups { [name] = { key = value } } expected, got 5" },
  { "group of nobody", "  groups = { G = { reserve = true } },", 4, "groups.G: no force is in a group of that name" },
  { "group value a table", force('group = "G"') .. "\n  groups = { G = { x = {} } },", 5, "groups.G.x: a number, a string or a boolean expected, got a table" },
  { "group name a number", force('group = "G"') .. "\n  groups = { [1] = {} },", 5, "groups: group names (strings) expected as keys, got 1" },
  -- orders
  { "orders a number", "  orders = 5,", 4, "orders: a list of orders expected, got 5" },
  { "order a number", "  orders = { 5 },", 4, 'orders[1]: an order { "action", params... }, { event = "name" } or { check = {...} } expected, got 5' },
  { "order empty", "  orders = { {} },", 4, "orders[1]: an order" },
  { "order with a number first", "  orders = { { 5 } },", 4, "orders[1]: an order { \"action\", params... }, { event = \"name\" } or { check = {...} } expected, got first 5" },
  { "event a number", "  orders = { { event = 5 } },", 4, "orders[1].event: an event name (a string) expected, got 5" },
  { "event with a stray field", '  orders = { { event = "turn_start", unit = "A" } },', 4, "orders[1].unit: unknown field (expected one of: data, event, expect)" },
  { "event data a number", '  orders = { { event = "turn_start", data = 5 } },', 4, "orders[1].data: a table expected, got 5" },
  { "check a number", "  orders = { { check = 5 } },", 4, "orders[1].check: expectations { error =, illegal =, vetoed =, ok =, global =, keyed =, units =, hash = } expected, got 5" },
  { "check an unknown field", "  orders = { { check = { bogus = 1 } } },", 4, "orders[1].check.bogus: unknown field (expected one of: error, global, hash, illegal, keyed, ok, refused, units, vetoed)" },
  { "expect a number", order('{ "move", unit = "A", expect = 5 }'), 5, "orders[1].expect: expectations { error =" },
  { "expect error a number", order('{ "move", unit = "A", expect = { error = 5 } }'), 5, "orders[1].expect.error: true or a string the reason mentions expected, got 5" },
  { "expect ok a string", order('{ "move", unit = "A", expect = { ok = "yes" } }'), 5, 'orders[1].expect.ok: true or false expected, got "yes"' },
  { "expect hash not hex", order('{ "move", unit = "A", expect = { hash = "xyz!" } }'), 5, 'orders[1].expect.hash: a state hash (hex digits) expected, got "xyz!"' },
  { "expect units a number", order('{ "move", unit = "A", expect = { units = 5 } }'), 5, "orders[1].expect.units: units { [name] = { field = value } } expected, got 5" },
  { "expect unit a number", order('{ "move", unit = "A", expect = { units = { A = 5 } } }'), 5, "orders[1].expect.units.A: { field = value } expected, got 5" },
  { "expect global a table", order('{ "move", unit = "A", expect = { global = { x = {} } } }'), 5, "orders[1].expect.global.x: a number, a string or a boolean expected, got a table" },
  { "order parameter by position", order('{ "move", "A" }'), 5, "orders[1][2]: parameters are named (param = value), got the key 2" },
  { "order parameter NaN", order('{ "move", unit = "A", boxes = 0/0 }'), 5, "orders[1].boxes: a finite number expected, got nan" },
  -- data too deep, too big, cyclic; a source too deep
  { "data 100,000 deep", "  flags = { x = deep },", 4, "flags.x[1][1][1][1]...: tables nested more than 32 deep (or a cycle)",
    { prelude = "local deep = {} for i = 1, 100000 do deep = { deep } end" } },
  { "a cycle", "  flags = { x = cycle },", 4, "flags.x.self.self.self.self...: tables nested more than 32 deep (or a cycle)",
    { prelude = "local cycle = {} cycle.self = cycle" } },
  { "more than 100,000 values", "  orders = { { \"move\", unit = \"A\", list = big } },", 2, "scenario: more than 100000 values",
    { prelude = "local big = {} for i = 1, 100001 do big[i] = i end" } },
  { "a source 100,000 deep", nil, nil, "cannot load: C stack overflow (the source nests tables, functions or expressions too deep)",
    { text = "return scenario { flags = { x = " .. ("{"):rep(100000) .. ("}"):rep(100000) .. " } }\n" } },
  -- what the file does
  { "scenario of a number", nil, 1, "scenario{...} expects a table, got 5", { text = "local s = scenario(5)\nreturn s\n" } },
  { "not a scenario", nil, nil, "not a scenario: a scenario file returns scenario { ... }", { text = "return { rules = { 'toy27' } }\n" } },
  { "an error in the file", nil, 2, "attempt to perform arithmetic on a nil value", { text = "local x = 1\nlocal y = x + nothing\nreturn scenario { rules = { 'toy27' } }\n" } },
  { "a syntax error", nil, 1, "'}' expected near ')'", { text = "return scenario { rules = { 'toy27' } ) }\n" } },
  -- 26: the game's shape (keel.sequence)
  { "sequence unknown field", '  sequence = { sides = { "A" }, colour = 1 },', 4,
    "sequence.colour: unknown field (expected one of: cite, phases, player_turn, sides, turn)" },
  { "sequence sides a number", "  sequence = { sides = 5 },", 4, "sequence.sides: a list of sides" },
  { "sequence without phases", '  sequence = { sides = { "Allied" } },', 4, "the sequence of play has no phases" },
  { "phase without a name", '  sequence = { sides = { "A" }, phases = { { start = "turn_start" } } },', 4,
    "sequence.phases[1].name: a phase's name: a name (letters, digits, _) expected, got nil" },
  { "phase named twice", '  sequence = { sides = { "A" }, phases = { { name = "p" }, { name = "p" } } },', 4,
    'sequence.phases[2].name: "p" is named twice in the sequence' },
  { "phase unknown event", '  sequence = { sides = { "A" }, phases = { { name = "p", start = "nosuch" } } },', 4,
    "phase p: unknown event 'nosuch'" },
  { "phase active neither", '  sequence = { sides = { "A" }, phases = { { name = "p", active = "both" } } },', 4,
    'sequence.phases[1].active: "phasing" or "other" expected, got "both"' },
  { "turns zero", "  turns = 0,", 4, "turns: the number of game turns (a whole number from 1) expected, got 0" },
  { "players a string", '  players = "random",', 4, 'players: players { Side = "random" | "greedy" | "mcts:..." } expected, got "random"' },
  { "players a number", "  players = { A = 3 },", 4, "players.A: a side's name and a player (a string, as keel play --player takes it) expected" },
  { "victory without a test", '  victory = { { winner = "A" } },', 4, "victory[1]: one test expected" },
  { "victory two tests", '  victory = { { winner = "A", eliminated = "B", global = "g", equals = 1 } },', 4,
    "victory[1]: one test expected (score, owns, global, keyed, eliminated, higher_score, query), got global, eliminated" },
  { "victory when unknown", '  victory = { { when = "dawn", eliminated = "A", winner = "B" } },', 4,
    'victory[1].when: one of game_end, order, player_turn_end, turn_end expected, got "dawn"' },
  { "victory without a winner", '  victory = { { eliminated = "A" } },', 4, 'victory[1].winner: the winning side (or "draw") expected' },
  { "score term without a source", "  scores = { A = { points = 2 } },", 4, "scores.A: one of keyed, global, owns or query expected" },
  { "order by a number", order('{ "bomb", by = 5 }'), 5, "orders[1].by: the side that gives the order (a name) expected, got 5" },
}

-- a malformed map beside the scenarios
do
  local f = assert(io.open(dir .. "/bad.map", "w"))
  f:write('map "bad"\nhexes sideways\n')
  f:close()
end

local function write(name, text)
  local path = dir .. "/" .. name
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  return path
end

local function message(path)
  local ok, err = pcall(function() return scenario.start(scenario.load(path)) end)
  if ok then return nil end
  return errors.format(err)
end

for i, c in ipairs(CASES) do
  local name, fields, line, want, opts = c[1], c[2], c[3], c[4], c[5] or {}
  t.test(("scenario-errors-%02d: %s"):format(i, name), function()
    local text = opts.text or scenario_text(fields, opts)
    if opts.prelude then text = opts.prelude .. "\n" .. text:gsub("^%-%- a malformed scenario\n", "") end
    local path = write(("case%02d.lua"):format(i), text)
    local msg = message(path)
    t.ok(msg, "the scenario was accepted: " .. name)
    local first = msg:match("^[^\n]*")
    local where = line and (path .. ":" .. line .. ": ") or (path .. ": ")
    t.eq(first:sub(1, #where), where, "the message names the file" .. (line and " and line" or "") .. ": " .. first)
    t.ok(first:find(want, 1, true), ("%q does not say %q"):format(first, want))
    t.ok(not msg:find("0x%x%x%x%x"), "a heap address: " .. msg)
    t.ok(not first:find("keel/[%w_/]+%.lua:%d+:"), "a place inside keel's own Lua: " .. first)
  end)
end

t.test("scenario-errors: keel run prints the same message and exits 1", function()
  local path = write("run.lua", scenario_text(force("hits = -1")))
  local code, out = t.sh(t.keel_bin .. " run " .. path)
  t.eq(code, 1, out)
  t.ok(out:find(path .. ":4: forces[1] (A).hits: a whole number from 0 to 2147483647 expected, got -1", 1, true), out)
end)

os.execute("rm -rf " .. dir)

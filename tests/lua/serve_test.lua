-- tests/lua/serve_test.lua — the protocol for user interfaces (keel serve
-- --stdio, scripts/keel/serve.lua): the showcase played through the real
-- process, order by order, each order first found among the legal actions
-- its side is offered, gives the journal `keel run` writes, byte for byte;
-- every response fits doc/protocol.schema.json; refusals leave the state
-- as it was; undo, redo, save and load; the requests' mistakes.
local t = require "keel.testing"
local json = require "keel.json"
local serve = require "keel.serve"
local scenario = require "keel.scenario"

local keel_bin, sh = t.keel_bin, t.sh
local SCENARIO = "scenarios/suez_1942.lua"

local schema = dofile("tests/lua/schema_check.lua").new(json.decode(t.read_file("doc/protocol.schema.json")))

local function fits(resp, what)
  local ok, why = schema:validate(resp, "#/$defs/response")
  if not ok then error({ test_failure = (what or "response") .. " does not fit the schema: " .. why }) end
  return resp
end

-- a response read back, null as nil
local NO_NULLS = { nulls = false }

-- a scratch folder under the served folder (the tree: keel serve writes
-- only under its root, the folder it runs in)
local function served_tmpdir()
  os.execute("mkdir -p build")
  local p = assert(io.popen("mktemp -d \"$PWD/build/serve-test-XXXXXX\""))
  local d = p:read("l")
  p:close()
  return d
end

-- ---- transports ----------------------------------------------------------------------------

local function sh_quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

-- `keel serve --stdio` as a child process, spoken to through two named pipes
local function process()
  local dir = t.tmpdir()
  assert(os.execute("mkfifo " .. sh_quote(dir .. "/in") .. " " .. sh_quote(dir .. "/out")))
  -- the shell opens "in" then "out"; this side opens them in the same order
  os.execute(("timeout 300 %s serve --stdio < %s > %s 2> %s &"):format(keel_bin, sh_quote(dir .. "/in"),
    sh_quote(dir .. "/out"), sh_quote(dir .. "/err")))
  local w = assert(io.open(dir .. "/in", "wb"))
  local r = assert(io.open(dir .. "/out", "rb"))
  local p = { dir = dir, lines = {} }
  function p.send(req)
    local line = json.encode(req)
    w:write(line, "\n")
    w:flush()
    local out = r:read("l")
    if not out then error("keel serve closed its output (stderr: " .. tostring(t.read_file(dir .. "/err")) .. ")", 0) end
    p.lines[#p.lines + 1] = out
    return fits(assert(json.decode(out, NO_NULLS)), req.op)
  end
  function p.close()
    w:close()
    local rest = r:read("a")
    r:close()
    return rest
  end
  return p
end

-- the session's Lua function, in this process (the same code the process runs)
local function inproc()
  local s = serve.new()
  local p = {}
  function p.send(req)
    return fits(assert(json.decode(s:handle_line(json.encode(req)), NO_NULLS)), req.op)
  end
  return p
end

-- ---- the showcase through the protocol -------------------------------------------------------

-- the label a scenario order gives a parameter, and how the protocol's
-- candidates name the same value (ids come with their names as labels)
local BOARD = assert(require("keel").board.load("scenarios/maps/eastmed.map"))

-- a hexside label as the board writes it ("19A:3614/3613" -> "19A:3613/3614")
local function canon(v)
  if type(v) == "string" and v:find("/", 1, true) then
    local side = BOARD:side(v)
    if side then return BOARD:format_side(side) end
  end
  return v
end

local function offered(domain, v)
  v = canon(v)
  for _, c in ipairs(domain or {}) do
    if c.value == v or c.label == v then return c end
  end
end

local function find(list, name)
  for _, e in ipairs(list) do if e.name == name then return e end end
end

-- Is the scenario order among the actions offered to one of the sides?
-- Every parameter the rules enumerate must hold the order's value.
local function check_offered(p, sides, order)
  local name = order[1]
  local why = {}
  for _, side in ipairs(sides) do
    local resp = p.send { op = "actions", side = side }
    t.eq(resp.ok, true)
    local e = find(resp.actions, name)
    t.ok(e, "the action " .. name .. " is listed")
    if e.available then
      local good, given = true, {}
      for _, prm in ipairs(e.params) do
        local v = order[prm.name]
        if prm.name == "to" and v == nil and type(order.path) == "table" then v = order.path[#order.path] end
        if v ~= nil and (prm.domain or prm.choices) then
          local dom = prm.domain
          if prm.choices then
            for _, ch in ipairs(prm.choices) do
              local same = true
              for k, gv in pairs(ch.given) do if given[k] ~= gv then same = false end end
              if same then dom = ch.domain end
            end
          end
          local vals = type(v) == "table" and prm.type == "units" and v or { v }
          for _, x in ipairs(vals) do
            local c = offered(dom, x)
            if not c then
              good = false
              why[#why + 1] = ("%s: %s %s=%s is not offered"):format(side, name, prm.name, json.encode(x))
            else
              given[prm.name] = c.value
            end
          end
        end
      end
      if good then return side end
    else
      why[#why + 1] = side .. ": " .. tostring(e.reason)
    end
  end
  error({ test_failure = "order " .. require("keel.narrator").order_text(order) .. " is not offered: " .. table.concat(why, "; ") })
end

local function play_showcase(p, opts)
  local spec = scenario.load(SCENARIO)
  local hello = p.send { id = 1, op = "hello" }
  t.eq(hello.protocol, 1)
  local opened = p.send { id = "open", op = "open", scenario = SCENARIO }
  t.eq(opened.ok, true, json.encode(opened))
  t.eq(opened.id, "open")
  local sides = opened.game.sides
  t.eq(sides, { "Allied", "Axis" })
  local offered_count = 0
  for i, order in ipairs(spec.orders) do
    t.eq(order.event, nil, "a showcase sends no events: the sequence of play does")
    if type(order[1]) == "string" then
      local name = order[1]
      local refused = order.expect and order.expect.refused
      local illegal = order.expect and order.expect.illegal
      if opts.check_offered and not refused and not illegal then
        check_offered(p, { order.by }, order)
        offered_count = offered_count + 1
      end
      local params = {}
      for k, v in pairs(order) do if k ~= 1 and k ~= "expect" and k ~= "by" then params[k] = v end end
      local resp = p.send { id = i, op = "order", action = name, params = params, side = order.by }
      if illegal then
        t.eq(resp.ok, false)
        t.eq(resp.error.kind, "illegal")
        t.eq(resp.error.unchanged, true)
      elseif refused then
        t.eq(resp.ok, false)
        t.ok(resp.error.kind == "side" or resp.error.kind == "over", json.encode(resp.error))
        t.ok(resp.error.message:find(refused, 1, true), resp.error.message)
        t.eq(resp.error.unchanged, true)
      else
        t.eq(resp.ok, true, json.encode(resp.error))
      end
      -- the scenario's expectations, through the view
      for uname, want in pairs(order.expect and order.expect.units or {}) do
        if want.at then
          local v = p.send { op = "view", side = "Allied" }
          local seen
          for _, u in ipairs(v.units) do if u.name == uname then seen = u end end
          if seen then t.eq(seen.at, want.at, uname) end
        end
      end
    end
  end
  return offered_count
end

t.test("serve-1: the showcase through `keel serve --stdio` writes keel run's journal byte for byte", function()
  local dir = served_tmpdir()
  local status = sh(("%s run %s --quiet --journal %s/run.jsonl"):format(keel_bin, SCENARIO, dir))
  t.eq(status, 0)
  local p = process()
  local n = play_showcase(p, { check_offered = true })
  t.ok(n >= 30, "the players' orders were each found among the legal actions")
  -- the game is over: its status says how it ended, and no order is taken
  local st = p.send { op = "status" }
  t.eq(st.over, true)
  t.eq(st.active, {})
  t.eq(st.result.winner, "Axis")
  t.eq(st.result.scores, { Allied = 15 })
  t.ok(st.result.reason:find("32.A.6.a", 1, true), st.result.reason)
  local before = st.hash
  local refused = p.send { id = 99, op = "order", action = "end_phase", side = "Allied" }
  t.eq(refused.ok, false)
  t.eq(refused.id, 99)
  t.eq(refused.error.kind, "over")
  t.eq(refused.error.unchanged, true)
  t.eq(refused.hash, before)
  local done = p.send { op = "journal", path = dir .. "/serve.jsonl" }
  t.eq(done.ok, true)
  t.eq(p.send { op = "quit" }.ok, true)
  t.eq(p.close(), "", "nothing after quit")
  local want, got = t.read_file(dir .. "/run.jsonl"), t.read_file(dir .. "/serve.jsonl")
  t.ok(#want > 1000)
  t.eq(got == want, true, "the journals are the same")
  os.execute("rm -rf " .. sh_quote(dir) .. " " .. sh_quote(p.dir))
end)

t.test("serve-2: the same through the session's Lua function, and its responses are the process's", function()
  local p = inproc()
  play_showcase(p, { check_offered = false })
  local j = p.send { op = "journal" }
  local dir = t.tmpdir()
  sh(("%s run %s --quiet --journal %s/run.jsonl"):format(keel_bin, SCENARIO, dir))
  t.eq(j.text == t.read_file(dir .. "/run.jsonl"), true)
  os.execute("rm -rf " .. sh_quote(dir))
end)

-- ---- orders, undo, save and load -----------------------------------------------------------

local function opened(seed)
  local p = inproc()
  local r = p.send { op = "open", scenario = SCENARIO, seed = seed }
  t.eq(r.ok, true, json.encode(r.error))
  return p, r
end

t.test("serve-3: refusals: unknown action, bad parameters, an illegal order, a wrong side; the state hash unchanged", function()
  local p = opened()
  local hash = p.send { op = "order", action = "end_phase", side = "Axis" }.hash
  t.eq(p.send { op = "status" }.step, "naval_step")
  local r = p.send { op = "order", action = "teleport", params = {}, side = "Axis" }
  t.eq(r.error.kind, "unknown")
  t.eq(r.hash, hash)
  r = p.send { op = "order", action = "move", params = { group = "Nobody", to = "19A:3407" }, side = "Axis" }
  t.eq(r.error.kind, "params")
  t.ok(r.error.message:find("no group named 'Nobody'", 1, true))
  r = p.send { op = "order", action = "move", params = { group = "Regia", to = "19A:3407", speed = 3 }, side = "Axis" }
  t.eq(r.error.kind, "params")
  t.ok(r.error.message:find("has no parameter speed", 1, true))
  r = p.send { op = "order", action = "combine", params = { group = "Regia", into = "Escort" }, side = "Axis" }
  t.eq(r.error.kind, "illegal")
  t.eq(r.error.rule, "32.A.1")
  t.eq(r.error.family, "navgroup")
  t.eq(r.error.reason, "32.A.1: only groups of one side combine")
  t.eq(r.error.unchanged, true)
  -- 26: an order from the side that is not to act, from no side, from a side not in the game
  r = p.send { op = "order", action = "move", params = { group = "Escort", to = "19A:3310" }, side = "Allied" }
  t.eq(r.error.kind, "side")
  t.ok(r.error.message:find("Axis is to act, not Allied", 1, true), r.error.message)
  r = p.send { op = "order", action = "move", params = { group = "Regia", to = "19A:3407" } }
  t.eq(r.error.kind, "side")
  r = p.send { op = "order", action = "move", params = { group = "Regia", to = "19A:3407" }, side = "Vichy" }
  t.eq(r.error.kind, "side")
  t.ok(r.error.message:find('"Vichy" is not a side of this game (sides: Axis, Allied)', 1, true), r.error.message)
  r = p.send { op = "order", action = "close_suez", side = "Axis" }
  t.eq(r.error.kind, "phase")
  t.ok(r.error.message:find("is taken in initial", 1, true), r.error.message)
  -- the reserve may not react (32.C): it is not the Allies' to decide now
  r = p.send { op = "order", action = "react", params = { group = "Reserve" }, side = "Axis" }
  t.eq(r.error.kind, "side")
  t.eq(r.hash, hash)
  t.eq(p.send { op = "view", side = "Axis" }.hash, hash)
end)

t.test("serve-4: undo and redo; a save loaded in a new session goes on the same", function()
  local p = opened()
  local h1 = p.send { op = "order", action = "end_phase", side = "Axis" }.hash
  local moved = p.send { op = "order", action = "move", params = { group = "Regia", path = { "19A:3407" } }, side = "Axis" }
  t.eq(moved.ok, true)
  local h2 = moved.hash
  t.ok(h2 ~= h1)
  local u = p.send { op = "undo" }
  t.eq(u.hash, h1)
  t.eq(u.events[1].ev, "undo")
  t.eq(p.send { op = "redo" }.hash, h2)
  t.eq(p.send { op = "undo", n = 9 }.error.kind, "undo")
  local dir = served_tmpdir()
  local saved = p.send { op = "save", path = dir .. "/g.save" }
  t.eq(saved.hash, h2)
  local next1 = p.send { op = "order", action = "move", params = { group = "Regia", path = { "19A:3408" } }, side = "Axis" }
  t.eq(next1.ok, true, json.encode(next1.error))
  local q = inproc()
  local loaded = q.send { op = "load", save = dir .. "/g.save" }
  t.eq(loaded.ok, true, json.encode(loaded.error))
  t.eq(loaded.game.loaded, dir .. "/g.save")
  t.eq(loaded.game.scenario, SCENARIO)
  t.eq(q.send { op = "view", side = "Axis" }.hash, h2)
  local next2 = q.send { op = "order", action = "move", params = { group = "Regia", path = { "19A:3408" } }, side = "Axis" }
  t.eq(next2.hash, next1.hash, "the loaded game plays on like the saved one")
  t.eq(q.send { op = "undo" }.hash, h2)
  os.execute("rm -rf " .. sh_quote(dir))
end)

t.test("serve-5: open with a seed and variants; the game tells them", function()
  local p = inproc()
  local r = p.send { op = "open", scenario = "tests/scenarios/navgroup_integration.lua", seed = 7,
                     variants = { "tests/families/variants/navgroup_rounds.lua" } }
  t.eq(r.ok, true, json.encode(r.error))
  t.eq(r.game.seed, 7)
  t.eq(#r.game.variants, 1)
  t.ok(r.game.variants[1]:find("tests/families/variants/navgroup_rounds.lua", 1, true))
  t.ok(r.game.variants[1]:sub(1, 1) == "/", "made absolute: " .. r.game.variants[1])
  local j = p.send { op = "journal" }
  t.ok(j.text:find('"seed":7', 1, true))
end)

t.test("serve-6: the view of a side hides the other side's naval groups (32.B)", function()
  local p = opened()
  local v = p.send { op = "view", side = "Allied" }
  local regia
  for _, g in ipairs(v.groups) do if g.known == false and g.side == "Axis" then regia = g end end
  t.ok(regia, "Regia is an unknown Axis counter")
  t.eq(regia.at, "19A:3406")
  t.eq(regia.name, nil)
  for _, u in ipairs(v.units) do t.ok(u.name ~= "Littorio" and u.name ~= "Trento") end
  local statuses = {}
  for _, s in ipairs(v.status) do statuses[s.key] = s.value end
  t.eq(statuses.phasing, "Axis")
  t.eq(statuses["vp[Allied]"], 40)
end)

t.test("serve-7: actions without a side: the first active side's, only what it may take now (26)", function()
  local p = opened()
  local st = p.send { op = "status" }
  t.eq(st.active, { "Axis" })
  t.eq(st.turn, 1)
  t.eq(st.phase, "initial")
  t.eq(st.phasing, "Axis")
  local r = p.send { op = "actions" }
  t.eq(r.side, "Axis")
  t.ok(find(r.actions, "end_phase"), "passing is listed like any other action")
  t.eq(find(r.actions, "react"), nil, "a reaction is not the phasing side's")
  t.eq(find(r.actions, "start_game"), nil, "the scenario's own order is no side's")
  for _, a in ipairs(r.actions) do t.eq(a.side, "Axis") end
  t.eq(#p.send { op = "actions", side = "Allied" }.actions, 0, "the Allies decide nothing now")
  -- the Axis initial phase: the canal may change (32.A.6.a); naval groups move later, in its naval step
  t.ok(find(r.actions, "close_suez") ~= nil)
  t.eq(find(r.actions, "move"), nil)
end)

-- ---- mistakes in requests ------------------------------------------------------------------

t.test("serve-8: requests the server cannot take: one response each, saying why", function()
  local s = serve.new()
  local function raw(line) return fits(json.decode(s:handle_line(line), NO_NULLS), line) end
  t.eq(raw("not json").error.kind, "json")
  t.eq(raw("[1,2]").error.kind, "request")
  t.ok(raw('{"op":"fly"}').error.message:find("unknown op 'fly'", 1, true))
  t.ok(raw('{"op":"view"}').error.message:find("field 'side' is required", 1, true))
  t.ok(raw('{"op":"hello","x":1}').error.message:find("unknown field 'x'", 1, true))
  local r = raw('{"id":5,"op":"view","side":"Axis"}')
  t.eq(r.id, 5)
  t.eq(r.error.kind, "no_game")
  r = raw('{"op":"open","scenario":"no/such/file.lua"}')
  t.eq(r.error.kind, "scenario")
  t.ok(r.error.message:find("no/such/file.lua", 1, true), r.error.message)
  r = raw('{"op":"order","action":"move","event":"x"}')
  t.eq(r.error.kind, "no_game")
  r = raw('{"op":"load","save":"no/such.save"}')
  t.eq(r.error.kind, "load")
end)

t.test("serve-9: keel serve without --stdio is a usage error (exit 2); end of input ends it (exit 0)", function()
  local status, out = sh(keel_bin .. " serve")
  t.eq(status, 2)
  t.eq(out, "keel: serve needs a transport: --stdio or --http\n")
  status, out = sh("printf '%s\\n' '{\"op\":\"hello\"}' | " .. keel_bin .. " serve --stdio")
  t.eq(status, 0)
  t.ok(out:find('"protocol":1', 1, true))
end)

t.test("serve-10: every family's showcase opens; each side's actions and view fit the schema", function()
  local p = io.popen("ls scenarios/*.lua")
  local files = {}
  for f in p:lines() do files[#files + 1] = f end
  p:close()
  t.ok(#files >= 5)
  for _, f in ipairs(files) do
    local s = inproc()
    local r = s.send { op = "open", scenario = f }
    t.eq(r.ok, true, f .. ": " .. json.encode(r.error))
    for _, side in ipairs(r.game.sides) do
      local a = s.send { op = "actions", side = side }
      t.eq(a.ok, true, f .. " " .. side)
      t.eq(s.send { op = "view", side = side }.ok, true)
    end
    local a = s.send { op = "actions" }
    t.ok(#a.actions > 0, f .. ": the side to decide has actions")
  end
end)

t.test("serve-11: sets, left-out parameters and orders fit the schema; malformed ones do not (18.3 barrage)", function()
  local D = dofile("tests/lua/domains_fixture.lua")
  local p = D.open("scenarios/ocs_salerno.lua")
  D.play(p, D.find_order(p, function(o) return o[1] == "barrage" and o.hex == "S:0805" end))
  local resp = fits(p.send { op = "actions", side = "Allied" }, "actions")
  local barrage = find(resp.actions, "barrage")
  t.ok(#barrage.orders > 0, "the orders are listed")
  local function param(b, name) for _, q in ipairs(b.params) do if q.name == name then return q end end end
  local units, hex = param(barrage, "units"), param(barrage, "hex")
  t.ok(#units.sets > #units.domain, "sets of several firers")
  t.eq(hex.choices[1].omit, true)
  local function refused(what, change)
    local copy = json.decode(json.encode(resp), NO_NULLS)
    change(find(copy.actions, "barrage"))
    t.eq((schema:validate(copy, "#/$defs/response")), false, what)
  end
  refused("omit must be true", function(b) param(b, "hex").choices[1].omit = false end)
  refused("a set is a list", function(b) param(b, "units").sets[1] = 5 end)
  refused("orders are objects", function(b) b.orders[1] = "units" end)
  refused("truncated is true or absent", function(b) b.truncated = false end)
  refused("any_set is true or absent", function(b) param(b, "units").any_set = 1 end)
end)

-- ---- 26: a game played through the protocol alone --------------------------------------------

-- Random offered orders for the side to decide, seeded, until the game is
-- over: every offered order is accepted, asking for actions never moves
-- the hash, and a wrong side's order is refused with the state unchanged.
local function random_game(path, seed, max_orders, p)
  p = p or inproc()
  t.eq(p.send { op = "open", scenario = path }.ok, true)
  local dice = require("keel").dice.new(seed)
  local function pick(n)   -- 1 .. n (past the dice's 1000 faces, two dice: near-uniform, enough for a test)
    if n == 1 then return 1 end
    if n <= 1000 then return (dice:roll("1d" .. n)) end
    return ((dice:roll("1d1000") - 1) * 1000 + dice:roll("1d1000") - 1) % n + 1
  end
  for n = 1, max_orders do
    local st = p.send { op = "status" }
    if st.over then return st, n - 1 end
    local side = st.active[1]
    local resp = p.send { op = "actions" }
    t.eq(resp.side, side)
    t.eq(resp.hash, st.hash, "asking for actions changes nothing")
    local avail = {}
    for _, a in ipairs(resp.actions) do
      if a.available and (a.checked or #(a.free or {}) == 0) then avail[#avail + 1] = a end
    end
    t.ok(#avail > 0, "the side to decide can always pass")
    local a = avail[pick(#avail)]
    local params = {}
    if a.orders then
      params = a.orders[pick(#a.orders)]
    else
      for _, prm in ipairs(a.params) do
        local dom = prm.domain
        if prm.choices then
          for _, ch in ipairs(prm.choices) do
            local same = true
            for k, v in pairs(ch.given or {}) do if json.encode(params[k]) ~= json.encode(v) then same = false end end
            if same then dom = ch.domain; prm = ch end
          end
        end
        if prm.sets and #prm.sets > 0 then params[a.params[_].name] = prm.sets[pick(#prm.sets)]
        elseif prm.any_set and dom and #dom > 0 then params[a.params[_].name] = { dom[pick(#dom)].value }
        elseif dom and #dom > 0 and not (prm.omit and pick(2) == 1) then
          params[a.params[_].name] = dom[pick(#dom)].value
        end
      end
    end
    -- the other sides may not order now
    for _, other in ipairs(st.sides) do
      if other ~= side then
        local r = p.send { op = "order", action = a.name, params = params, side = other }
        t.eq(r.ok, false)
        t.eq(r.hash, st.hash)
      end
    end
    local r = p.send { op = "order", action = a.name, params = params, side = side }
    t.eq(r.ok, true, a.name .. " " .. json.encode(params) .. ": " .. json.encode(r.error))
  end
  return p.send { op = "status" }, max_orders
end

t.test("26-serve-random: the Suez game played by random offered orders reaches its end", function()
  for _, seed in ipairs { 1, 2 } do
    local st, n = random_game(SCENARIO, seed, 400)
    t.eq(st.over, true, ("seed %d: over after %d orders"):format(seed, n))
    t.ok(st.result.reason and st.result.reason ~= "", "a reason")
  end
end)

t.test("26-serve-random-all: every showcase, through `keel serve --stdio`, played by random offered orders to its end", function()
  local p = io.popen("ls scenarios/*.lua")
  local files = {}
  for f in p:lines() do files[#files + 1] = f end
  p:close()
  t.eq(#files, 7)
  for _, f in ipairs(files) do
    t.eq(select(2, t.read_file(f):gsub("event =", "")), 0, f .. ": the sequence sends the phase events, not the scenario")
    local proc = process()
    local st, n = random_game(f, 26, 600, proc)
    t.eq(st.over, true, ("%s: over after %d orders"):format(f, n))
    t.ok(st.result.reason and st.result.reason ~= "", f .. ": a reason")
    proc.send { op = "quit" }
    proc.close()
    os.execute("rm -rf " .. sh_quote(proc.dir))
  end
end)
-- ---- what a hostile client or rule makes of a reply ----------------------------------------

local PROBE = "tests/scenarios/serve_probe.lua"

-- `keel serve --stdio` (with args) fed these lines at once, under a time
-- limit (a hang fails the test instead of stopping the suite): its output
-- lines and exit status
local function run_lines(lines, args, secs)
  local dir = t.tmpdir()
  local f = assert(io.open(dir .. "/in", "wb"))
  f:write(table.concat(lines, "\n"), "\n")
  f:close()
  local status = sh(("timeout %d %s serve --stdio %s < %s > %s 2> %s"):format(secs or 60, keel_bin, args or "",
    sh_quote(dir .. "/in"), sh_quote(dir .. "/out"), sh_quote(dir .. "/err")))
  local out = {}
  for l in t.read_file(dir .. "/out"):gmatch("[^\n]+") do out[#out + 1] = l end
  local err = t.read_file(dir .. "/err")
  os.execute("rm -rf " .. sh_quote(dir))
  return out, status, err
end

local function decoded(line, what)
  local v, err = json.decode(line, NO_NULLS)
  if type(v) ~= "table" then error({ test_failure = (what or "line") .. ": not JSON: " .. tostring(err) }) end
  return fits(v, what)
end

-- a JSON text nested n arrays deep around v
local function nested(n, v) return ("["):rep(n) .. v .. ("]"):rep(n) end

t.test("serve-12: a request whose id cannot be written back gets one error; keel serve goes on, the game open", function()
  local open = json.encode { op = "open", scenario = PROBE }
  local order = json.encode { op = "order", action = "plain" }
  local view = json.encode { id = "v", op = "view", side = "Allied" }
  local bad_ids = {
    '{"id":' .. nested(70, "1") .. ',"op":"order","action":"plain"}',
    '{"id":1e999,"op":"order","action":"plain"}',
    '{"id":[1,null,3],"op":"order","action":"plain"}',
    '{"id":-1e999,"op":"hello"}',
  }
  local lines = { open, order, view }
  for _, b in ipairs(bad_ids) do lines[#lines + 1] = b; lines[#lines + 1] = view end
  local out, status = run_lines(lines)
  t.eq(status, 0, "keel serve ended at the end of its input")
  t.eq(#out, #lines, "one response a request")
  local hash = decoded(out[3], "view").hash
  for i = 1, #bad_ids do
    local r = decoded(out[2 + 2 * i], bad_ids[i]:sub(1, 40))
    t.eq(r.ok, false)
    t.eq(r.id, nil, "no id: it has no JSON form")
    t.eq(r.error.kind, "request")
    t.ok(r.error.message:find("^id: it cannot be written back"), r.error.message)
    local v = decoded(out[3 + 2 * i], "view after")
    t.eq(v.ok, true, "the game is still open")
    t.eq(v.id, "v")
    t.eq(v.hash, hash, "and the order was not played")
  end
end)

t.test("serve-13: a reply that cannot be written is one error; the order is taken back, the game stays open", function()
  local p = inproc()
  t.eq(p.send { op = "open", scenario = PROBE }.ok, true)
  t.eq(p.send { op = "order", action = "plain" }.result.n, 1)
  t.eq(p.send { op = "undo" }.ok, true)   -- something to redo, that must stay
  local before = p.send { op = "view", side = "Allied" }.hash
  local journal = p.send { op = "journal" }.text
  local function unchanged(what)
    t.eq(p.send { op = "view", side = "Allied" }.hash, before, what .. ": the state as it was")
    t.eq(p.send { op = "journal" }.text, journal, what .. ": the journal as it was")
  end
  local cases = {
    { "a result {1, 2, x = 3}", { op = "order", action = "mixed" }, "result: table keys" },
    { "a result {x = 0/0}", { op = "order", action = "nan" }, "result: NaN" },
    { "event data 62 deep", { op = "order", event = "probe", data = json.decode('{"a":' .. nested(61, "1") .. "}") },
      "events: nested too deeply" },
    { "an id [1,null,3]", { id = json.decode("[1,null,3]"), op = "order", action = "plain" }, "^id: " },
    { "a candidate with a NaN cost", { op = "actions" }, "actions: NaN" },
  }
  for _, c in ipairs(cases) do
    local r = p.send(c[2])
    t.eq(r.ok, false, c[1])
    t.ok(r.error.message:find(c[3]), c[1] .. ": " .. r.error.message)
    t.ok(not r.error.message:find("json.lua", 1, true), c[1] .. ": keel's own file is not blamed")
    if c[3]:sub(1, 1) ~= "^" then
      t.eq(r.error.kind, "reply", c[1])
      t.eq(r.hash, before, c[1])
    end
    unchanged(c[1])
  end
  -- what could be redone before is still there; the game plays on
  t.eq(p.send { op = "redo" }.ok, true)
  t.eq(p.send { op = "order", action = "plain" }.result.n, 2)
  -- through the process: the same, and it neither exits nor closes the game
  local lines = { json.encode { op = "open", scenario = PROBE }, json.encode { op = "order", action = "nan" },
    json.encode { op = "order", action = "mixed" }, json.encode { op = "actions" },
    json.encode { op = "order", action = "plain" } }
  local out, status = run_lines(lines)
  t.eq(status, 0)
  t.eq(#out, #lines)
  for i = 2, 4 do t.eq(decoded(out[i]).error.kind, "reply", lines[i]) end
  t.eq(decoded(out[5]).result.n, 1, "the game open, its count as it was")
end)

t.test("serve-14: an action's result is read raw: a looping __pairs does not hang the server", function()
  local out, status = run_lines({ json.encode { op = "open", scenario = PROBE },
    json.encode { op = "order", action = "endless" }, json.encode { op = "order", action = "endless_top" },
    json.encode { op = "order", action = "huge" }, json.encode { op = "order", action = "plain" } }, "", 30)
  t.eq(status, 0, "keel serve answered everything (124: it hung)")
  t.eq(#out, 5)
  local r = decoded(out[2], "endless")
  t.eq(r.ok, true)
  t.eq(json.encode(r.result), '{"inner":{}}', "the table as it is, read raw")
  t.eq(decoded(out[3], "endless_top").ok, true)
  local huge = decoded(out[4], "huge")
  t.eq(huge.ok, false)
  t.eq(huge.error.kind, "result")
  t.ok(huge.error.message:find("more than 100000 values", 1, true), huge.error.message)
  t.eq(decoded(out[5], "plain").result.n, 3, "the huge result's order was taken back")
end)

t.test("serve-15: every path a client names is confined to the server's folder or --root", function()
  local dir = served_tmpdir()
  local outside = t.tmpdir()
  os.execute(("ln -s %s %s"):format(sh_quote(outside), sh_quote(dir .. "/out")))
  os.execute(("ln -s /etc/passwd %s"):format(sh_quote(dir .. "/passwd.lua")))
  local p = inproc()
  local function refused(req, what)
    local r = p.send(req)
    t.eq(r.ok, false, what)
    t.eq(r.error.kind, "path", what .. ": " .. tostring(r.error.message))
    t.ok(r.error.message:find("outside the folder this server serves", 1, true), r.error.message)
    t.ok(not r.error.message:find("root:", 1, true), what .. ": nothing of the file is quoted")
    return r
  end
  refused({ op = "open", scenario = "/etc/passwd" }, "open an absolute path outside")
  refused({ op = "open", scenario = "../../../../../../../../etc/passwd" }, "open through ..")
  refused({ op = "open", scenario = dir .. "/passwd.lua" }, "open through a link")
  refused({ op = "open", scenario = PROBE, variants = { "/etc/passwd" } }, "a variant outside")
  refused({ op = "load", save = "/etc/passwd" }, "load")
  t.eq(p.send { op = "open", scenario = PROBE }.ok, true, "a path inside")
  refused({ op = "save", path = outside .. "/g.save" }, "save outside")
  refused({ op = "save", path = dir .. "/out/g.save" }, "save through a link to a folder outside")
  refused({ op = "journal", path = "/tmp/../tmp/j.jsonl" }, "journal outside")
  refused({ op = "save", path = "/nonexistent/folder/g.save" }, "a folder that does not exist, outside")
  local function exists(path) local f = io.open(path, "rb"); if f then f:close() end; return f ~= nil end
  t.eq(exists(outside .. "/g.save"), false, "nothing written outside")
  t.eq(exists("/tmp/j.jsonl"), false, "nothing written outside")
  -- inside: a save, a journal, and a save whose scenario is outside is not followed
  t.eq(p.send { op = "save", path = dir .. "/g.save" }.ok, true)
  t.eq(p.send { op = "journal", path = dir .. "/j.jsonl" }.ok, true)
  t.ok(exists(dir .. "/j.jsonl"), "the journal written")
  local text = t.read_file(dir .. "/g.save")
  local f = assert(io.open(dir .. "/moved.save", "wb"))
  -- (the journal the save keeps names the scenario too: left out, as a save without one)
  local body = text:match("^(.*\n)checksum %x+\n$"):gsub('meta "journal[_%w]*" [^\n]*\n', "")
    :gsub('"tests/scenarios/serve_probe.lua"', json.encode(outside .. "/x.lua"))
  f:write(body, "checksum ", require("keel").state.hash_bytes(body), "\n")
  f:close()
  local r = refused({ op = "load", save = dir .. "/moved.save" }, "a save naming a scenario outside")
  t.ok(r.error.message:find("the save's scenario", 1, true), r.error.message)
  -- keel serve --root: relative paths start from it, and nothing outside it is read
  os.execute(("mkdir -p %s/s && cp %s %s/s/probe.lua"):format(sh_quote(dir), PROBE, sh_quote(dir)))
  local fix = assert(io.open(dir .. "/s/probe.lua", "rb")):read("a")
  f = assert(io.open(dir .. "/s/probe.lua", "wb"))
  f:write((fix:gsub('path = { "../families" }', ('path = { %q }'):format(t.cwd() .. "/tests/families"))))
  f:close()
  local out = run_lines({ json.encode { op = "open", scenario = "s/probe.lua" },
    json.encode { op = "open", scenario = t.cwd() .. "/" .. PROBE }, json.encode { op = "open", scenario = PROBE },
    json.encode { op = "save", path = "g2.save" } }, "--root " .. sh_quote(dir))
  t.eq(decoded(out[1]).ok, true, out[1])
  t.eq(decoded(out[2]).error.kind, "path", "the tree is outside the root")
  t.eq(decoded(out[3]).error.kind, "scenario", "a relative path starts from the root: not there")
  t.eq(decoded(out[4]).ok, true)
  t.ok(exists(dir .. "/g2.save"), "written in the root")
  local status, usage = sh(keel_bin .. " serve --stdio --root /no/such/folder")
  t.eq(status, 2)
  t.ok(usage:find("--root wants a folder", 1, true), usage)
  os.execute("rm -rf " .. sh_quote(dir) .. " " .. sh_quote(outside))
end)

t.test("serve-16: every reply and journal line is valid UTF-8, though rule text is not", function()
  local dir = served_tmpdir()
  local out = run_lines({ json.encode { op = "open", scenario = PROBE },
    json.encode { op = "order", action = "narrate_bytes" }, json.encode { op = "order", action = "refuse_bytes" },
    json.encode { op = "actions" }, '{"op":"order","action":"plain","id":"\\ud800"}',
    json.encode { op = "journal", path = dir .. "/j.jsonl" }, json.encode { op = "journal" } })
  t.eq(#out, 7)
  for i, l in ipairs(out) do t.ok(utf8.len(l) ~= nil, ("reply %d is valid UTF-8"):format(i)) end
  local said = decoded(out[2])
  t.ok(json.encode(said.narration):find("said \u{FFFD}(", 1, true), "narration: U+FFFD for the bad byte")
  t.ok(decoded(out[3]).error.message:find("no: \u{FFFD}\u{FFFD}", 1, true), "a rule's error message")
  t.eq(decoded(out[5]).id, "\u{FFFD}", "a lone surrogate in the request")
  local j = t.read_file(dir .. "/j.jsonl")
  t.ok(utf8.len(j) ~= nil, "the journal file is valid UTF-8")
  t.eq(decoded(out[7]).text, j)
  os.execute("rm -rf " .. sh_quote(dir))
end)

t.test("26-side-param: a parameter that names a side takes a side of the game, or is refused, the state unchanged", function()
  local p = inproc()
  t.eq(p.send { op = "open", scenario = "scenarios/salerno_1943.lua" }.ok, true)
  local r = p.send { op = "order", action = "increase_capacity", params = { side = "Vichy", re = 1, turn = 2 },
                     side = "Allied" }
  t.eq(r.ok, false)
  t.eq(r.error.kind, "params")
  t.ok(r.error.message:find('"Vichy" is not a side of this game (sides: Allied, Axis)', 1, true), r.error.message)
  t.eq(r.error.unchanged, true)
  r = p.send { op = "order", action = "increase_capacity", params = { side = "Allied", re = 1, turn = 2 }, side = "Allied" }
  t.eq(r.ok, true, json.encode(r.error))
end)

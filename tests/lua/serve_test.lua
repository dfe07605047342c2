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

local function denull(v)
  if v == json.null then return nil end
  if type(v) == "table" then for k, x in pairs(v) do v[k] = denull(x) end end
  return v
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
    return fits(denull(assert(json.decode(out))), req.op)
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
    return fits(denull(assert(json.decode(s:handle_line(json.encode(req))))), req.op)
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
    if order.event then
      local resp = p.send { id = i, op = "order", event = order.event, data = order.data }
      t.eq(resp.ok, true, json.encode(resp.error))
      t.eq(resp.events[1].ev, "action")
    elseif type(order[1]) == "string" then
      local name = order[1]
      if opts.check_offered and name ~= "advance" and name ~= "capture" and name ~= "set_phasing" then
        check_offered(p, sides, order)
        offered_count = offered_count + 1
      end
      local params = {}
      for k, v in pairs(order) do if k ~= 1 and k ~= "expect" then params[k] = v end end
      local resp = p.send { id = i, op = "order", action = name, params = params }
      t.eq(resp.ok, true, json.encode(resp.error))
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
  local dir = t.tmpdir()
  local status = sh(("%s run %s --quiet --journal %s/run.jsonl"):format(keel_bin, SCENARIO, dir))
  t.eq(status, 0)
  local p = process()
  local n = play_showcase(p, { check_offered = true })
  t.ok(n >= 9, "the players' orders were each found among the legal actions")
  -- an illegal order in between changes nothing (no journal line either)
  local before = p.send { op = "view", side = "Axis" }.hash
  local refused = p.send { id = 99, op = "order", action = "combine", params = { group = "Regia", into = "Escort" } }
  t.eq(refused.ok, false)
  t.eq(refused.id, 99)
  t.eq(refused.error.kind, "illegal")
  t.eq(refused.error.rule, "32.A.1")
  t.eq(refused.error.family, "navgroup")
  t.eq(refused.error.reason, "32.A.1: only groups of one side combine")
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

t.test("serve-3: refusals: unknown action, bad parameters, a veto; the state hash unchanged", function()
  local p = opened()
  p.send { op = "order", event = "game_start" }
  local hash = p.send { op = "order", event = "naval_step_start", data = { side = "Axis", step = 1 } }.hash
  local r = p.send { op = "order", action = "teleport", params = {} }
  t.eq(r.error.kind, "unknown")
  t.eq(r.hash, hash)
  r = p.send { op = "order", action = "move", params = { group = "Nobody", to = "19A:3407" } }
  t.eq(r.error.kind, "params")
  t.ok(r.error.message:find("no group named 'Nobody'", 1, true))
  r = p.send { op = "order", action = "move", params = { group = "Regia", to = "19A:3407", speed = 3 } }
  t.eq(r.error.kind, "params")
  t.ok(r.error.message:find("has no parameter speed", 1, true))
  -- the reserve may not react before it is activated (32.C)
  r = p.send { op = "order", action = "react", params = { group = "Reserve" } }
  t.eq(r.error.kind, "illegal")
  t.eq(r.error.rule, "32.C")
  t.eq(r.hash, hash)
  t.eq(p.send { op = "view", side = "Axis" }.hash, hash)
end)

t.test("serve-4: undo and redo; a save loaded in a new session goes on the same", function()
  local p = opened()
  p.send { op = "order", event = "game_start" }
  local h1 = p.send { op = "order", event = "naval_step_start", data = { side = "Axis", step = 1 } }.hash
  local moved = p.send { op = "order", action = "move", params = { group = "Regia", path = { "19A:3407" } } }
  t.eq(moved.ok, true)
  local h2 = moved.hash
  t.ok(h2 ~= h1)
  local u = p.send { op = "undo" }
  t.eq(u.hash, h1)
  t.eq(u.events[1].ev, "undo")
  t.eq(p.send { op = "redo" }.hash, h2)
  t.eq(p.send { op = "undo", n = 9 }.error.kind, "undo")
  local dir = t.tmpdir()
  local saved = p.send { op = "save", path = dir .. "/g.save" }
  t.eq(saved.hash, h2)
  local next1 = p.send { op = "order", action = "move", params = { group = "Regia", path = { "19A:3408" } } }
  t.eq(next1.ok, true, json.encode(next1.error))
  local q = inproc()
  local loaded = q.send { op = "load", save = dir .. "/g.save" }
  t.eq(loaded.ok, true, json.encode(loaded.error))
  t.eq(loaded.game.loaded, dir .. "/g.save")
  t.eq(loaded.game.scenario, SCENARIO)
  t.eq(q.send { op = "view", side = "Axis" }.hash, h2)
  local next2 = q.send { op = "order", action = "move", params = { group = "Regia", path = { "19A:3408" } } }
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

t.test("serve-7: actions without a side: the side to move's (the query side_to_move)", function()
  local p = opened()
  local r = p.send { op = "actions" }
  t.eq(r.side, "Axis")
  -- the Axis initial phase: the canal may change (32.A.6.a); naval groups move later, in its naval step
  t.ok(find(r.actions, "close_suez") ~= nil and find(r.actions, "end_phase") ~= nil)
  t.eq(find(r.actions, "move"), nil)
end)

-- ---- mistakes in requests ------------------------------------------------------------------

t.test("serve-8: requests the server cannot take: one response each, saying why", function()
  local s = serve.new()
  local function raw(line) return fits(denull(json.decode(s:handle_line(line))), line) end
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
  t.eq(out, "keel: serve needs a transport: --stdio\n")
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
      t.ok(#a.actions > 0, f .. ": actions listed")
      t.eq(s.send { op = "view", side = side }.ok, true)
    end
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
    local copy = json.decode(json.encode(resp))
    change(find(copy.actions, "barrage"))
    t.eq((schema:validate(denull(copy), "#/$defs/response")), false, what)
  end
  refused("omit must be true", function(b) param(b, "hex").choices[1].omit = false end)
  refused("a set is a list", function(b) param(b, "units").sets[1] = 5 end)
  refused("orders are objects", function(b) b.orders[1] = "units" end)
  refused("truncated is true or absent", function(b) b.truncated = false end)
  refused("any_set is true or absent", function(b) param(b, "units").any_set = 1 end)
end)

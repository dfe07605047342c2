-- tests/lua/serve_http_test.lua — keel serve --http (scripts/keel/serve_http.lua):
-- the real process, spoken to over its WebSocket with lua-http's client:
-- where it listens and says so, tokens, what a seat may see and order,
-- the paths a client may not name, the bounds on a message and on open
-- connections. The play page in a browser: tests/browser/play.test.js.
-- luacheck: max line length 160
local t = require "keel.testing"
local json = require "keel.json"
local serve_http = require "keel.serve_http"

local keel_bin, sh = t.keel_bin, t.sh

local libs, why = serve_http.libs()
if not libs then
  io.write("skip keel serve --http tests: ", why, "\n")
  return
end
local websocket = libs.websocket

-- a file's text, or "" when it is not there yet
local function read(path)
  local f = io.open(path, "rb")
  if not f then return "" end
  local s = f:read("a")
  f:close()
  return s
end

local function sh_quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

-- `keel serve --http` started with args on a free port: its printed lines,
-- the port, the URL of each seat, and how to stop it
local function server(args)
  local dir = t.tmpdir()
  os.execute(("sh -c 'echo $$ > %s; exec timeout 120 %s serve --http --port 0 --games %s %s' > %s 2> %s &")
    :format(sh_quote(dir .. "/pid"), keel_bin, sh_quote(dir .. "/games"), args, sh_quote(dir .. "/out"), sh_quote(dir .. "/err")))
  local out
  for _ = 1, 100 do
    out = read(dir .. "/out")
    if out:find("keel serve: listening on", 1, true) and (out:find("token=", 1, true) or out:find("played by", 1, true)) then break end
    os.execute("sleep 0.1")
  end
  local srv = { dir = dir, out = out, urls = {} }
  srv.port = tonumber(out:match("listening on 127%.0%.0%.1:(%d+)"))
  for who, url in out:gmatch("keel serve: ([^\n]-): (http://%S+)") do srv.urls[who] = url end
  function srv.stop()
    local pid = read(dir .. "/pid"):match("%d+")
    if pid then os.execute("kill " .. pid .. " 2>/dev/null") end
  end
  function srv.err() return read(dir .. "/err") end
  return srv
end

-- a WebSocket client: send a request, read its response (updates kept aside)
local function client(url)
  local ws = websocket.new_from_uri(url)
  local ok, err = ws:connect(5)
  if not ok then return nil, err end
  local c = { ws = ws, updates = {}, next_id = 0 }
  function c.send(req)
    c.next_id = c.next_id + 1
    req.id = c.next_id
    assert(ws:send(json.encode(req)))
    while true do
      local text, e = ws:receive(30)
      if not text then error("no response: " .. tostring(e), 0) end
      local resp = json.decode(text, { nulls = false })
      if resp.op == "update" and resp.id == nil then c.updates[#c.updates + 1] = resp
      elseif resp.id == req.id or resp.id == nil then return resp end
    end
  end
  function c.close() ws:close(1000, nil, 1) end
  return c
end

local function ws_url(page_url)
  return (page_url:gsub("^http://([^/]+)/%?token=", "ws://%1/ws?token="))
end

local function http_get(port, path)
  local req = require("http.request").new_from_uri(("http://127.0.0.1:%d%s"):format(port, path))
  local headers, stream = req:go(5)
  if not headers then return nil end
  return tonumber(headers:get(":status")), stream:get_body_as_string(5), headers
end

t.test("serve-http-1: binds 127.0.0.1 and says so; the page at /; no token, no game", function()
  local srv = server("scenarios/seabox_bombing.lua")
  t.ok(srv.port, "a port printed: " .. srv.out .. srv.err())
  t.ok(srv.out:find("listening on 127.0.0.1:%d+ %(this machine only; %-%-bind ADDR to open it%)"), srv.out)
  t.ok(srv.urls["hot seat, every side on one page"], "the hot seat's URL: " .. srv.out)
  local status, body, headers = http_get(srv.port, "/")
  t.eq(status, 200)
  t.eq(headers:get("content-type"), "text/html; charset=utf-8")
  t.ok(body:find('<section id="orders">', 1, true), "the play page")
  t.ok(not body:find("<!-- play.js -->", 1, true), "its script inlined")
  t.eq((http_get(srv.port, "/etc/passwd")), 404)
  t.eq((http_get(srv.port, "/ws?token=0123")), 403, "a wrong token")
  t.eq(client(("ws://127.0.0.1:%d/ws?token=nope"):format(srv.port)), nil, "no WebSocket without the token")
  srv.stop()
end)

t.test("serve-http-2: hot seat: the protocol as over stdio; scenarios by name from the server's list; saves in its game folder", function()
  local srv = server("")   -- every scenario of scenarios/, none open
  local c = assert(client(ws_url(srv.urls["hot seat, every side on one page"])))
  local hello = c.send { op = "hello" }
  t.eq(hello.protocol, 1)
  t.eq(hello.table.hot_seat, true)
  t.ok(#hello.table.scenarios >= 7, "the server's list")
  t.eq(c.send({ op = "status" }).error.kind, "no_game")
  local r = c.send { op = "open", scenario = "scenarios/suez_1942.lua" }
  t.eq(r.error.kind, "path", "a path is not a name of the list")
  r = c.send { op = "open", scenario = "/etc/passwd" }
  t.eq(r.error.kind, "path")
  t.ok(not r.error.message:find("root:", 1, true))
  r = c.send { op = "open", scenario = "suez_1942", variants = { "x.lua" } }
  t.eq(r.error.kind, "path", "variants are the server's")
  r = c.send { op = "open", scenario = "suez_1942" }
  t.eq(r.ok, true, json.encode(r.error))
  t.eq(r.game.sides, { "Allied", "Axis" })
  local st = c.send { op = "status" }
  t.eq(st.active, { "Axis" })
  r = c.send { op = "order", action = "end_phase", side = "Axis" }
  t.eq(r.ok, true)
  for _, bad in ipairs { "../x", "/tmp/x", ".hidden", "a/b", "" } do
    r = c.send { op = "save", path = bad }
    t.eq(r.error.kind, "path", bad)
  end
  r = c.send { op = "save", path = "first.save" }
  t.eq(r.ok, true, json.encode(r.error))
  t.ok(#read(srv.dir .. "/games/first.save") > 0, "written in the game folder")
  t.eq(c.send({ op = "journal", path = "j.jsonl" }).error.kind, "path")
  t.ok(c.send({ op = "journal" }).text:find('"end_phase"', 1, true), "the journal as text")
  t.eq(c.send({ op = "undo" }).ok, true, "undo in the hot seat")
  t.eq(c.send({ op = "load", save = "first.save" }).ok, true)
  t.eq(c.send({ op = "quit" }).error.kind, "seat", "a client does not stop the server")
  local b = c.send { op = "board" }
  t.eq(b.ok, true)
  t.eq(b.board.hidden, true, "navgroup hides groups (32.B)")
  t.ok(b.board.places["19A:3406"], "hex centres")
  c.close()
  srv.stop()
end)

t.test("serve-http-3: two seats: each sees its side's view and orders for its side only; the other is told of a change", function()
  local srv = server("--seat Axis --seat Allied scenarios/suez_1942.lua")
  t.ok(srv.urls["Axis's seat"] and srv.urls["Allied's seat"], srv.out)
  t.ok(srv.urls["Axis's seat"] ~= srv.urls["Allied's seat"], "a token each")
  t.eq(srv.urls["hot seat, every side on one page"], nil, "no hot seat with seats")
  local axis = assert(client(ws_url(srv.urls["Axis's seat"])))
  local allied = assert(client(ws_url(srv.urls["Allied's seat"])))
  t.eq(axis.send({ op = "hello" }).table.side, "Axis")
  -- the Allied seat does not see the Axis group at sea, only an unknown marker
  local v = allied.send { op = "view", side = "Allied", counters = true }
  t.eq(v.ok, true)
  for _, u in ipairs(v.units) do t.ok(u.side == "Allied" or u.loc ~= "hex" or u.name ~= "Littorio", "Littorio hidden") end
  local unknown = 0
  for _, g in ipairs(v.groups) do if not g.known then unknown = unknown + 1; t.ok(g.svg and g.place, "drawn as a marker") end end
  t.ok(unknown >= 1, "Regia is an unknown group to the Allies")
  t.eq(allied.send({ op = "view", side = "Axis" }).error.kind, "seat", "nor may it ask for the Axis view")
  t.eq(allied.send({ op = "actions", side = "Axis" }).error.kind, "seat")
  local before = allied.send({ op = "status" }).hash
  local r = allied.send { op = "order", action = "end_phase", side = "Axis" }
  t.eq(r.error.kind, "seat", "no order for the other side")
  r = allied.send { op = "order", action = "end_phase" }
  t.eq(r.ok, false, "the Allies are not to act")
  t.eq(r.error.kind, "side")
  t.eq(allied.send({ op = "status" }).hash, before, "unchanged")
  t.eq(allied.send({ op = "open", scenario = "suez_1942" }).error.kind, "seat")
  t.eq(allied.send({ op = "undo" }).error.kind, "seat")
  t.eq(allied.send({ op = "journal" }).error.kind, "seat", "the whole journal shows every side")
  t.eq(allied.send({ op = "order", event = "x" }).error.kind, "seat")
  -- the Axis orders; the Allies hear of it without its narration (navgroup hides things)
  r = axis.send { op = "order", action = "end_phase" }
  t.eq(r.ok, true, json.encode(r.error))
  local st = allied.send { op = "status" }
  t.ok(#allied.updates >= 1, "an update")
  local up = allied.updates[1]
  t.eq(up.op, "update")
  t.eq(up.side, "Axis")
  t.eq(up.action, "end_phase")
  t.eq(up.hash, st.hash)
  t.eq(up.narration, nil, "no narration of the other side's order where a view hides things")
  axis.close()
  allied.close()
  srv.stop()
end)

t.test("serve-http-4: a message over the bound closes its connection; the server goes on; connections bounded", function()
  local srv = server("scenarios/seabox_bombing.lua")
  local url = ws_url(srv.urls["hot seat, every side on one page"])
  local c = assert(client(url))
  t.eq(c.send({ op = "hello" }).ok, true)
  assert(c.ws:send(json.encode { op = "save", path = ("x"):rep(70000) }))
  local text, err, code = c.ws:receive(10)
  t.eq(text, nil, "no answer to it")
  t.ok(code == 1009 or tostring(err):find("1009") or c.ws.got_close_code == 1009, ("closed: %s %s %s")
    :format(tostring(err), tostring(code), tostring(c.ws.got_close_code)))
  local d = assert(client(url))
  t.eq(d.send({ op = "status" }).ok, true, "the server goes on")
  local open = { d }
  local refused
  for _ = 1, serve_http.MAX_CONNECTIONS + 2 do
    local x = client(url)
    if not x then refused = true; break end
    open[#open + 1] = x
  end
  t.ok(refused, "a connection beyond the bound is refused")
  t.eq(#open, serve_http.MAX_CONNECTIONS)
  for _, x in ipairs(open) do x.close() end
  os.execute("sleep 0.3")
  local e = client(url)
  t.ok(e, "closed ones make room")
  if e then e.close() end
  srv.stop()
end)

t.test("serve-http-5: usage: seats need one scenario and its sides; --root is --stdio's; a bad player is named", function()
  local status, out = sh(keel_bin .. " serve --http --seat Axis 2>&1")
  t.eq(status, 2, out)
  t.ok(out:find("give one SCENARIO with --seat", 1, true), out)
  status, out = sh(keel_bin .. " serve --http --port 0 --seat Nobody scenarios/suez_1942.lua 2>&1")
  t.eq(status, 1, out)
  t.ok(out:find("the scenario has no side Nobody (its sides: Allied, Axis)", 1, true), out)
  status, out = sh(keel_bin .. " serve --http --seat Axis=wizard scenarios/suez_1942.lua 2>&1")
  t.eq(status, 2)
  t.ok(out:find('unknown player "wizard"', 1, true), out)
  status = sh(keel_bin .. " serve --http --root . 2>&1")
  t.eq(status, 2)
  status, out = sh(keel_bin .. " serve --stdio --seat Axis 2>&1 </dev/null")
  t.eq(status, 2)
  t.ok(out:find("--seat is --http's", 1, true), out)
end)

-- end_phase when it is offered, else the first legal order an actions response offers: its name and params
local function some_order(actions)
  for _, a in ipairs(actions) do
    if a.available and a.name == "end_phase" then return { "end_phase", {} } end
  end
  local pick
  for _, a in ipairs(actions) do
    if a.available and (a.orders or #a.params == 0 or a.checked) then
      if a.name ~= "end_phase" or not pick then
        local params, ok = {}, true
        if a.orders then
          params = a.orders[1]
        else
          for _, p in ipairs(a.params) do
            local dom = p.domain or (p.choices and p.choices[1] and p.choices[1].domain)
            if p.choices then ok = false end
            if dom and #dom > 0 and not p.optional then
              params[p.name] = p.type == "units" and (p.sets and p.sets[1] or { dom[1].value }) or dom[1].value
            elseif not p.optional then ok = false end
          end
        end
        if ok then pick = { a.name, params } end
        if pick and pick[1] ~= "end_phase" then break end
      end
    end
  end
  return pick
end

t.test("serve-http-6: a person against random: the bot plays its side when it is to decide, to the game's end", function()
  local srv = server("--seat Allied --seat Axis=random scenarios/suez_1942.lua")
  t.ok(srv.out:find("keel serve: Axis is played by random", 1, true), srv.out)
  local me = assert(client(ws_url(srv.urls["Allied's seat"])))
  local orders, waits = 0, 0
  local st
  for _ = 1, 400 do
    st = me.send { op = "status" }
    if st.over then break end
    local mine = false
    for _, s in ipairs(st.active) do if s == "Allied" then mine = true end end
    if mine then
      local acts = me.send { op = "actions" }
      local o = some_order(acts.actions)
      t.ok(o, "an order offered")
      local r = me.send { op = "order", action = o[1], params = o[2] }
      if not r.ok then
        r = me.send { op = "order", action = "end_phase" }
      end
      t.eq(r.ok, true, json.encode(r.error))
      orders = orders + 1
    else
      -- the bot's turn: its orders come as updates
      local text = me.ws:receive(30)
      t.ok(text, "an update from the bot's order")
      waits = waits + 1
    end
  end
  t.eq(st.over, true, ("over after %d orders of mine, %d waits: %s"):format(orders, waits, srv.err()))
  t.ok(st.result.reason and st.result.reason ~= "", "a reason")
  t.ok(waits > 0, "the bot played")
  me.close()
  srv.stop()
end)

t.test("serve-http-7: the hexes that changed hands since the board was drawn come with the view, in the owner's colour", function()
  local srv = server("scenarios/suez_1942.lua")
  local c = assert(client(ws_url(srv.urls["hot seat, every side on one page"])))
  t.eq(c.send({ op = "board" }).ok, true)
  t.eq(c.send({ op = "view", side = "Axis", counters = true }).owners, {}, "none at the start")
  local spec = require("keel.scenario").load("scenarios/suez_1942.lua")
  for _, o in ipairs(spec.orders) do
    local e = o.expect or {}
    if not (e.refused or e.illegal or e.vetoed) then
      local params = {}
      for k, v in pairs(o) do if k ~= 1 and k ~= "by" and k ~= "expect" then params[k] = v end end
      local r = c.send { op = "order", action = o[1], params = params, side = o.by }
      t.eq(r.ok, true, o[1] .. ": " .. json.encode(r.error))
    end
    if o[1] == "capture" and o.hex == "19A:3513" then break end
  end
  local v = c.send { op = "view", side = "Allied", counters = true }
  local got = {}
  for _, o in ipairs(v.owners) do got[#got + 1] = o.place .. "=" .. tostring(o.side) end
  table.sort(got)
  t.eq(got, { "19A:3513=Axis", "19A:3514=Axis" })
  t.ok(v.owners[1].color:match("^#%x%x%x%x%x%x$"), v.owners[1].color)
  c.close()
  srv.stop()
end)

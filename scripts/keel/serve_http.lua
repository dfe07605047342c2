--- keel.serve_http — `keel serve --http`: the protocol of keel serve
-- (keel.serve, doc/protocol.md) over a WebSocket at /ws, and the play page
-- at / (scripts/keel/play/). One table: one game in a sandbox state of its
-- own (its memory limit; each request's rule code under the CPU limit),
-- with a seat for each side:
--
--   a person  the server prints a URL holding the seat's secret token; a
--             connection with it sees the side's view and orders for it only
--   a bot     random, greedy, mcts[:k=v,...] (keel.player): the server plays
--             its orders when the side is to decide
--
-- Without seats one page plays every side (hot seat), through the table's
-- own token. HTTP and WebSocket are lua-http's (with cqueues); this module
-- checks who may ask what, bounds messages and connections, and tells
-- every other connection when the game changed ({"op":"update"}). A client
-- names no file: scenarios come from the server's list, saves are names in
-- its game folder. doc/viewer.md ("The play page") describes it.
local json = require "keel.json"

local type, ipairs, pairs, tostring, pcall = type, ipairs, pairs, tostring, pcall

local M = {}

--- The defaults: port, the largest WebSocket message read (bytes), the
--- most WebSocket connections open at once.
M.PORT = 8080
M.MAX_MESSAGE = 64 * 1024
M.MAX_CONNECTIONS = 32

--- The built-in players a seat may name (the spec as keel.player takes it).
M.BOTS = { random = true, greedy = true, mcts = true }

--- lua-http and cqueues. Debian's lua-http is packaged for Lua 5.1 to 5.3;
--- its code is the same for 5.4 and lies in /usr/share/lua/5.1, which is
--- searched when the 5.4 path has no http.server.
---@return table|nil libs, string? why
function M.libs()
  local ok = pcall(require, "http.server")
  if not ok then
    package.path = package.path .. ";/usr/share/lua/5.1/?.lua;/usr/share/lua/5.1/?/init.lua"
  end
  local sok, server = pcall(require, "http.server")
  if not sok then
    return nil, "keel serve --http needs lua-http and cqueues (Debian: apt-get install lua-http lua-cqueues; "
      .. "make deps): " .. tostring(server)
  end
  return { server = server, websocket = require "http.websocket", headers = require "http.headers",
           cqueues = require "cqueues", condition = require "cqueues.condition", util = require "http.util" }
end

-- ---- a seat's spec ----------------------------------------------------------------------------

--- Read `SIDE[=KIND]`: {side, kind = "person"} or {side, kind = "bot", spec}.
---@param s string
---@return table|nil seat, string? why
function M.parse_seat(s)
  local side, kind = s:match("^([^=]+)=(.*)$")
  if not side then side, kind = s, "person" end
  if side == "" then return nil, ("--seat %q: a side's name first (--seat SIDE[=KIND])"):format(s) end
  if kind == "" or kind == "person" or kind == "human" then return { side = side, kind = "person" } end
  local base = kind:match("^([%w_]+)")
  if not M.BOTS[base] then
    return nil, ("--seat %s: unknown player %q (a person, or random, greedy, mcts[:k=v,...])"):format(s, kind)
  end
  return { side = side, kind = "bot", spec = kind }
end

-- a secret: 16 random bytes from the system, as hex (never from the game's dice)
local function token()
  local f = assert(io.open("/dev/urandom", "rb"))
  local b = f:read(16)
  f:close()
  return (b:gsub(".", function(c) return ("%02x"):format(c:byte()) end))
end
M.token = token

-- ---- a message bound on the socket ------------------------------------------------------------

-- The socket a WebSocket reads, with a bound on the bytes one message may
-- take: lua-http reads a frame's payload as its header announces it; the
-- bound refuses the read (and so the message) before it is buffered.
local function bounded(sock, max)
  local p = { left = max }
  local EMSGSIZE = 90
  setmetatable(p, { __index = function(_, k)
    local v = sock[k]
    if type(v) == "function" then return function(_, ...) return v(sock, ...) end end
    return v
  end })
  function p.xread(_, n, ...)
    if type(n) == "number" then
      p.left = p.left - n
      if p.left < 0 then p.too_big = true; return nil, "message too big", EMSGSIZE end
    end
    return sock:xread(n, ...)
  end
  function p.fill(_, n, ...)
    if type(n) == "number" and n > p.left + 14 then p.too_big = true; return nil, "message too big", EMSGSIZE end
    return sock:fill(n, ...)
  end
  return p
end

-- ---- the table ------------------------------------------------------------------------------

local Table = {}
Table.__index = Table
M.Table = Table

--- A table: its game's sandbox and seats.
---@param opts {scenarios: {name: string, path: string}[], seats: table[], games: string, cpu: number,
---  memory: integer, cwd: string, open?: string, max_connections?: integer, max_message?: integer,
---  page?: string, log?: function}
---@return table|nil tbl, string? why
function M.new_table(opts)
  local keel = require "keel"
  local self = setmetatable({ opts = opts, conns = {}, n_conns = 0, next_conn = 0, hash = nil, tokens = {},
                              seats = {}, log = opts.log or function() end }, Table)
  self.sb = keel.sandbox.new { memory = opts.memory }
  self.start = { cpu = opts.cpu, cwd = opts.cwd, vetted = true }
  local ok, err = self.sb:call("keel.serve", "start", self.start)
  if not ok then return nil, "serve: " .. tostring(err) end
  for _, s in ipairs(opts.seats or {}) do
    self.seats[s.side] = s
    if s.kind == "person" then
      s.token = token()
      self.tokens[s.token] = s.side
    end
  end
  if not next(self.seats) then
    self.hot_token = token()
    self.tokens[self.hot_token] = true
  end
  if opts.open then
    local r = self:call { op = "open", scenario = opts.open }
    if not r.ok then return nil, r.error.message end
    self.hash = self:call({ op = "status" }).hash
    self.game = r.game
    local sides = r.game.sides
    local known = {}
    for _, s in ipairs(sides) do known[s] = true end
    for side in pairs(self.seats) do
      if not known[side] then
        return nil, ("--seat %s: the scenario has no side %s (its sides: %s)"):format(side, side, table.concat(sides, ", "))
      end
    end
    self.sides = sides
  end
  return self
end

--- A request through the game's sandbox: the response (decoded) and its line.
function Table:call(req)
  local line = json.encode(req)
  local r = table.pack(self.sb:call("keel.serve", "handle_line", line))
  if not r[1] then
    -- the sandbox state gave up (out of memory): the game is gone
    self.sb:call("keel.serve", "start", self.start)
    local resp = { ok = false, id = req.id, op = req.op, error = { kind = r[3] or "error",
      message = tostring(r[2]) .. "; the game is closed" } }
    return resp, json.encode(resp)
  end
  return json.decode(r[2], { nulls = false }), r[2]
end

local function refusal(req, kind, message)
  local resp = { ok = false, op = type(req.op) == "string" and req.op or nil, error = { kind = kind, message = message } }
  if type(req) == "table" then
    local ok = pcall(json.encode, req.id)
    if ok then resp.id = req.id end
  end
  return resp
end

-- a file name in the game folder: letters, digits, "_", "-", "."; not starting with "."
local function game_file(name)
  return type(name) == "string" and #name <= 100 and name:match("^[%w_%-][%w_%.%-]*$") ~= nil
end

--- What a connection may ask. Returns the request to play (maybe
--- rewritten: a scenario's name made its path, a save's name a path in
--- the game folder, the seat's side filled in), or nil and the refusal.
---@param conn table {side = SIDE | true (hot seat)}
---@param req table
---@return table|nil req, table? refusal
function Table:vet(conn, req)
  if type(req) ~= "table" then return req end   -- the session answers it
  local op = req.op
  local seat = conn.side ~= true and conn.side or nil
  local function no(kind, msg) return nil, refusal(req, kind, msg) end
  if op == "quit" then return no("seat", "quit: a client over HTTP cannot stop the server") end
  if op == "open" then
    if seat then return no("seat", "open: the game of this table is set by the server, not by a seat") end
    if req.variants ~= nil then return no("path", "open: variants are the server's, not a client's") end
    for _, s in ipairs(self.opts.scenarios) do
      if s.name == req.scenario then
        local copy = {}
        for k, v in pairs(req) do copy[k] = v end
        copy.scenario = s.path
        return copy
      end
    end
    local names = {}
    for i, s in ipairs(self.opts.scenarios) do names[i] = s.name end
    return no("path", ("open: scenario %s is not one this server offers (%s)"):format(json.encode(req.scenario),
      #names > 0 and table.concat(names, ", ") or "none"))
  end
  if op == "load" or op == "save" or (op == "journal" and req.path ~= nil) then
    local field = op == "load" and "save" or "path"
    if seat and op == "load" then return no("seat", "load: the game of this table is set by the server") end
    if op == "journal" then return no("path", "journal: over HTTP the journal comes as text, written nowhere") end
    if not game_file(req[field]) then
      return no("path", ("%s: %s must be a file name in the server's game folder (letters, digits, _ - .), got %s")
        :format(op, field, json.encode(req[field])))
    end
    local copy = {}
    for k, v in pairs(req) do copy[k] = v end
    copy[field] = self.opts.games .. "/" .. req[field]
    return copy
  end
  if not seat then return req end
  -- a seat: its own side only
  if op == "view" or op == "actions" then
    if req.side ~= nil and req.side ~= seat then
      return no("seat", ("%s: this seat is %s's; it sees and orders for %s only"):format(op, seat, seat))
    end
    local copy = {}
    for k, v in pairs(req) do copy[k] = v end
    copy.side = seat
    return copy
  end
  if op == "order" then
    if req.event ~= nil then return no("seat", "order: events are the sequence of play's, not a seat's") end
    if req.side ~= nil and req.side ~= seat then
      return no("seat", ("order: this seat is %s's; it orders for %s only"):format(seat, seat))
    end
    local copy = {}
    for k, v in pairs(req) do copy[k] = v end
    copy.side = seat
    return copy
  end
  if op == "undo" or op == "redo" then
    return no("seat", op .. ": with seats an order stands (undo is the hot seat's)")
  end
  if op == "journal" then
    local st = self:call { op = "status" }
    if not st.over then return no("seat", "journal: the whole journal shows every side; a seat gets it at the game's end") end
  end
  return req
end

-- the seats as the page is told them
function Table:seat_info(conn)
  local seats = {}
  for _, side in ipairs(require("keel.keys").sorted(self.seats)) do
    local s = self.seats[side]
    seats[#seats + 1] = { side = side, kind = s.kind, player = s.spec }
  end
  local names = {}
  for i, s in ipairs(self.opts.scenarios) do names[i] = s.name end
  return { side = conn.side ~= true and conn.side or nil, hot_seat = conn.side == true, seats = json.array(seats),
           scenarios = json.array(names), game = self.game }
end

--- One request of a connection: the response line.
function Table:request(conn, text)
  local req, err = json.decode(text, { nulls = false })
  if err then
    return json.encode { ok = false, error = { kind = "json", message = "not JSON: " .. tostring(err) } }
  end
  local vetted, refused = self:vet(conn, req)
  if not vetted then return json.encode(refused) end
  local resp, line = self:call(vetted)
  if type(req) == "table" and req.op == "hello" and resp.ok then
    resp.table = self:seat_info(conn)
    line = json.encode(resp)
  end
  if resp.hash and resp.hash ~= self.hash then
    self.hash = resp.hash
    self:changed(conn, vetted, resp)
  elseif type(req) == "table" and (req.op == "open" or req.op == "load") and resp.ok then
    self:changed(conn, vetted, resp)
  end
  if type(req) == "table" and (req.op == "open" or req.op == "load") and resp.ok then
    self.game, self.hidden = resp.game, nil
  end
  return line
end

--- Tell every other connection that the game changed: {"op":"update",
--- "hash", "side", "action", "narration"}; the narration only when no rule
--- hides anything from a side or the table has no seats. Then let the
--- bots play.
function Table:changed(from, req, resp)
  local hidden = self.hidden
  if hidden == nil then
    local b = self:call { op = "board" }
    hidden = b.ok and b.board.hidden or false
    self.hidden = hidden
  end
  local up = { op = "update", hash = resp.hash, side = req.side, action = req.action, reopened = (req.op == "open"
    or req.op == "load") or nil }
  for _, c in pairs(self.conns) do
    if c ~= from then
      local msg = up
      if resp.narration and (c.side == true or not hidden) then
        msg = {}
        for k, v in pairs(up) do msg[k] = v end
        msg.narration = resp.narration
      end
      c.outbox[#c.outbox + 1] = json.encode(msg)
      if c.wake then c.wake:signal() end
    end
  end
  self:wake_bots()
end

function Table:wake_bots()
  if self.bot_cond then self.bot_cond:signal() end
end

--- The bots' turn: while a bot's side is to decide, play its order.
--- Returns true when it played one.
function Table:bot_step()
  local bot
  for _, s in pairs(self.seats) do if s.kind == "bot" then bot = true end end
  if not bot then return false end
  local st = self:call { op = "status" }
  if not st.ok or st.over or not st.active then return false end
  for _, side in ipairs(st.active) do
    local s = self.seats[side]
    if s and s.kind == "bot" then
      local r = table.pack(self.sb:call("keel.serve", "bot_order", side, s.spec))
      local line = r[1] and r[2] or json.encode { ok = false, error = { kind = "bot", message = tostring(r[2]) } }
      local resp = json.decode(line, { nulls = false })
      if not resp.ok then
        self.log(("keel serve: the %s player of %s: %s"):format(s.spec, side, resp.error and resp.error.message or "?"))
        s.failed = true
        return false
      end
      self.hash = resp.hash
      self:changed(nil, { side = side, action = resp.action, op = "order" }, resp)
      return true
    end
  end
  return false
end

-- ---- HTTP -----------------------------------------------------------------------------------

--- The play page: one HTML file, its style and script inlined.
function M.page()
  local keel = require "keel"
  local dir = keel.script_dir .. "/keel/play/"
  local function asset(n)
    local s, err = keel.file.read(dir .. n)
    if not s then error("keel serve: cannot read its page asset: " .. tostring(err), 0) end
    return s
  end
  return (asset("play.html"):gsub("<!%-%- (%w+)%.(%w+) %-%->", function(name, ext)
    if ext == "css" then return "<style>\n" .. asset(name .. ".css") .. "</style>" end
    return "<script>\n" .. asset(name .. ".js") .. "</script>"
  end))
end

--- Serve: listen, print where, and run until stopped.
---@param tbl table a table (M.new_table)
---@param opts {bind: string, port: integer, print: function}
function M.run(tbl, opts)
  local L = assert(M.libs())
  local cqueues, websocket, new_headers, condition = L.cqueues, L.websocket, L.headers.new, L.condition
  local page = M.page()
  local max_conns = tbl.opts.max_connections or M.MAX_CONNECTIONS
  local max_message = tbl.opts.max_message or M.MAX_MESSAGE

  local function respond(stream, status, body, ctype)
    local h = new_headers()
    h:append(":status", tostring(status))
    h:append("content-type", ctype or "text/plain; charset=utf-8")
    h:append("cache-control", "no-store")
    h:append("x-content-type-options", "nosniff")
    stream:write_headers(h, false)
    stream:write_chunk(body, true)
  end

  local function query(path)
    local out = {}
    local q = path:match("%?(.*)$")
    for k, v in (q or ""):gmatch("([^&=]+)=([^&]*)") do out[k] = v end
    return out
  end

  local function websocket_stream(stream, headers, q)
    local who = tbl.tokens[q.token or ""]
    if not who then return respond(stream, 403, "keel serve: this address needs the token the server printed\n") end
    if tbl.n_conns >= max_conns then
      return respond(stream, 503, ("keel serve: %d connections are open, the most it takes\n"):format(max_conns))
    end
    local ws, why = websocket.new_from_stream(stream, headers)
    if not ws then return respond(stream, 400, "keel serve: " .. tostring(why) .. "\n") end
    if not ws:accept() then return end
    ws.socket = bounded(ws.socket, max_message)
    tbl.next_conn = tbl.next_conn + 1
    local conn = { id = tbl.next_conn, side = who, outbox = {}, wake = condition.new() }
    tbl.conns[conn.id] = conn
    tbl.n_conns = tbl.n_conns + 1
    local open = true
    -- what this connection is sent (responses, updates), in order, by one writer
    cqueues.running():wrap(function()
      while open do
        if #conn.outbox == 0 then conn.wake:wait(30) end
        while open and #conn.outbox > 0 do
          local m = table.remove(conn.outbox, 1)
          if not ws:send(m, "text", 10) then open = false end
        end
      end
    end)
    while open do
      ws.socket.left, ws.socket.too_big = max_message, nil
      local text, kind = ws:receive()
      if not text then
        if ws.socket.too_big then
          pcall(ws.close, ws, 1009, ("a message is at most %d bytes"):format(max_message), 1)
        end
        break
      end
      if kind == "text" then
        -- one writer per connection (below): the response after the updates queued before it
        conn.outbox[#conn.outbox + 1] = tbl:request(conn, text)
        conn.wake:signal()
      end
    end
    open = false
    conn.wake:signal()
    tbl.conns[conn.id] = nil
    tbl.n_conns = tbl.n_conns - 1
    pcall(ws.close, ws, 1000, nil, 1)
  end

  local function onstream(_, stream)
    local headers = stream:get_headers()
    if not headers then return end
    local method, path = headers:get(":method"), headers:get(":path") or "/"
    local base = path:match("^[^?]*")
    if method ~= "GET" and method ~= "HEAD" then return respond(stream, 405, "keel serve: GET only\n") end
    if base == "/" then return respond(stream, 200, page, "text/html; charset=utf-8") end
    if base == "/ws" then return websocket_stream(stream, headers, query(path)) end
    if base == "/favicon.ico" then return respond(stream, 204, "") end
    return respond(stream, 404, "keel serve: not found: " .. base .. "\n")
  end

  local server, err = L.server.listen {
    host = opts.bind, port = opts.port, onstream = onstream, max_concurrent = max_conns + 8,
    reuseaddr = true, connection_setup_timeout = 10, intra_stream_timeout = 30,
    onerror = function(_, context, op, e)
      tbl.log(("keel serve: %s on %s: %s"):format(tostring(op), tostring(context), tostring(e)))
    end,
  }
  if not server then error("keel serve: " .. tostring(err), 0) end
  local ok, lerr = server:listen()
  if not ok then error(("keel serve: cannot listen on %s:%d: %s"):format(opts.bind, opts.port, tostring(lerr)), 0) end
  local _, host, port = server:localname()
  opts.print(host, port)
  -- the bots, woken when the game changes
  tbl.bot_cond = condition.new()
  server.cq:wrap(function()
    while true do
      if tbl:bot_step() then cqueues.sleep(0.05) else tbl.bot_cond:wait() end
    end
  end)
  assert(server:loop())
end

return M

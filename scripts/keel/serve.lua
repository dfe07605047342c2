--- keel.serve — the protocol for user interfaces: JSON lines, one request,
-- one response (doc/protocol.md; the JSON schema: doc/protocol.schema.json).
--
--   {"id":1,"op":"open","scenario":"scenarios/suez_1942.lua"}
--   {"id":1,"op":"open","ok":true,"game":{...},"hash":"..."}
--   {"id":2,"op":"actions","side":"Axis"}
--   {"id":3,"op":"order","action":"move","params":{"group":1,"to":"19A:3412"}}
--
-- A session holds one game: a scenario opened (scenario.start, as `keel
-- run` sets it up, so that the same orders give the same journal) or a
-- save loaded. Orders are played as a scenario's orders are (names and
-- labels turned into ids by the action's parameter types, set:act for
-- actions, set:emit for events); the legal actions come from keel.legal,
-- a side's view from keel.visibility. Everything a response carries is
-- plain data. `keel serve --stdio` (keel.cli.serve) runs a session in a
-- sandbox state of its own and feeds it the lines of standard input.
local keel = require "keel"
local json = require "keel.json"
local errors = require "keel.errors"
local scenario = require "keel.scenario"
local game_mod = require "keel.game"
local sorted_keys = require("keel.keys").sorted

local type, ipairs, pairs, tostring, error, pcall = type, ipairs, pairs, tostring, error, pcall

local M = {}

--- The protocol's version (the `hello` response gives it).
M.VERSION = 1

--- The requests, each with its fields besides `id` and `op` (true: required).
M.requests = {
  hello = {},
  open = { scenario = true, seed = false, variants = false },
  load = { save = true },
  view = { side = true, counters = false },
  board = {},
  actions = { side = false },
  status = {},
  order = { action = false, params = false, event = false, data = false, side = false },
  undo = { n = false },
  redo = { n = false },
  save = { path = true },
  journal = { path = false },
  quit = {},
}

-- ---- plain data -------------------------------------------------------------------------

-- JSON read with null as nil: a request's field given as null is absent
local NO_NULLS = { nulls = false }

-- Tables that are lists: an empty one is written [] (json.array)
local list = json.array
M.list = list

--- A response as one line of JSON (no newline). Raises "json: ..." when
--- some part of it has no JSON form (Session:handle_line answers that).
---@param resp table
---@return string
function M.encode(resp)
  return json.encode(resp)
end

-- ---- a session ----------------------------------------------------------------------------

local Session = {}
Session.__index = Session
M.Session = Session

--- A new session, no game open. opts.root: the folder every path a client
--- names must lie in (default: the folder the server runs in, M.cwd());
--- relative paths start from it. opts.vetted: the paths requests carry are
--- the server's own (keel serve --http names every one), taken as they are.
---@param opts? {cpu?: number, root?: string, vetted?: boolean}
---@return table session
function M.new(opts)
  return setmetatable({ opts = opts or {}, run = nil, narration = {} }, Session)
end

-- A refusal the caller turns into {ok = false, error = ...}.
local function refuse(kind, message, extra)
  local e = { kind = kind, message = message }
  for k, v in pairs(extra or {}) do e[k] = v end
  error({ protocol_error = e }, 0)
end

-- ---- paths ------------------------------------------------------------------------------

-- "/a/b/../c/./d" -> "/a/c/d" (names only: for a path that does not exist)
local function lexical(p)
  local parts = {}
  for name in p:gmatch("[^/]+") do
    if name == ".." then parts[#parts] = nil
    elseif name ~= "." then parts[#parts + 1] = name end
  end
  return "/" .. table.concat(parts, "/")
end

local function inside(real, root)
  return real == root or root == "/" or real:sub(1, #root + 1) == root .. "/"
end

-- The session's root, resolved (links and all) once.
function Session:root()
  if not self._root then
    local given = self.opts.root or M.cwd()
    local real, kind = keel.file.find_real(given)
    if not real or kind ~= "folder" then error(("serve: the root %s is not a folder"):format(given), 0) end
    self._root = real
  end
  return self._root
end

--- A path a client names (op and field for the message): confined to the
--- session's root. Relative paths start from the root. Resolved with every
--- link, "." and ".." (keel.file.find_real): a path that leads out, through
--- a link too, is refused before anything reads or writes it. Returns the
--- path to use (as given when the root is the folder the server runs in).
---@param op string
---@param field string
---@param p any
---@return string
function Session:confine(op, field, p)
  if p == "" then refuse("request", ("%s: %s must be a file name, not an empty path"):format(op, field)) end
  if type(p) ~= "string" or p:find("\0", 1, true) then
    refuse("request", ("%s: %s must be a path (a string)"):format(op, field))
  end
  -- keel serve --http: the server names every path itself (its scenarios, its game folder)
  if self.opts.vetted then return p end
  local root = self:root()
  local use = p
  if p:sub(1, 1) ~= "/" and self.opts.root then use = root .. "/" .. p end
  local real = keel.file.find_real(use)
  if not real then   -- a folder on the way is missing: where the names lead
    real = lexical(use:sub(1, 1) == "/" and use or (M.cwd() .. "/" .. use))
  end
  if not inside(real, root) then
    refuse("path", ("%s: %s %s is outside the folder this server serves (%s); keel serve reads and writes "
      .. "only under it (keel serve --root DIR)"):format(op, field, json.encode(p), root))
  end
  return use
end

function Session:need_game()
  if not self.run then refuse("no_game", "no game is open: send open or load first") end
  return self.run
end

-- the narration of the game as it is played, kept per request
function Session:_narrator()
  local n = require("keel.narrator").new { write = function(obj, text)
    local line = { kind = obj.kind, rule = obj.rule, text = (text:gsub("^%s+", "")) }
    self.narration[#self.narration + 1] = line
  end }
  self.narrator = n
  return n
end

-- What the game is: the `game` object of open and load responses.
function Session:game_info()
  local run = self.run
  local game, spec = run.game, run.spec
  local sides = {}
  local seen = {}
  for id = 1, game.state:count_units() do
    local s = game.state:get(id, "side")
    if s and not seen[s] then seen[s] = true; sides[#sides + 1] = s end
  end
  table.sort(sides)
  local variants = list()
  for i, v in ipairs(game.variants or {}) do variants[i] = v end
  return {
    scenario = game.scenario, name = spec and spec.name, seed = game.seed, variants = variants,
    sides = list(sides), map = run.board ~= nil, loaded = self.loaded,
    families = list({ table.unpack(run.set.family_order) }),
  }
end

-- open: set a scenario up as `keel run` does
function Session:op_open(req)
  local path = self:confine("open", "scenario", req.scenario)
  if req.seed ~= nil and math.type(req.seed) ~= "integer" then refuse("request", "open: seed must be an integer") end
  local extra = {}
  if req.variants ~= nil then
    if type(req.variants) ~= "table" then refuse("request", "open: variants must be a list of paths") end
    for i, v in ipairs(req.variants) do
      if type(v) ~= "string" then refuse("request", ("open: variants[%d] must be a path"):format(i)) end
      extra[i] = self:confine("open", ("variants[%d]"):format(i), v)
    end
  end
  local ok, spec = pcall(scenario.load, path)
  if not ok then refuse("scenario", errors.format(spec)) end
  -- a seed or variants of the request: a copy of the spec with them (the
  -- request's variant paths are the server's, made absolute so that the
  -- scenario's folder does not change them)
  if req.seed ~= nil or #extra > 0 then
    local copy = {}
    for k, v in pairs(spec) do copy[k] = v end
    if req.seed ~= nil then copy.seed = req.seed end
    if #extra > 0 then
      local vs = {}
      for i, v in ipairs(spec.variants or {}) do vs[i] = v end
      for _, v in ipairs(extra) do vs[#vs + 1] = v:sub(1, 1) == "/" and v or (M.cwd() .. "/" .. v) end
      copy.variants = vs
    end
    spec = copy
  end
  local n = self:_narrator()
  local sok, run = pcall(scenario.start, spec, { narrate = n.event })
  if not sok then refuse("scenario", errors.format(run)) end
  n.game, n.board = run.game, run.board
  n.offset = run.game:journal_count()
  self.run, self.loaded = run, nil
  return { game = self:game_info() }
end

-- load: a saved game, with the rule set of the scenario it names
function Session:op_load(req)
  local path = self:confine("load", "save", req.save)
  local game, why = game_mod.load(path)
  if not game then refuse("load", tostring(why)) end
  if not game.scenario then
    refuse("load", req.save .. ": the save names no scenario; keel serve loads games set up from one")
  end
  -- the scenario the save names is read as a path the client named
  local ok, spec = pcall(scenario.load, self:confine("load", "the save's scenario", game.scenario))
  if not ok then refuse("scenario", errors.format(spec)) end
  local n = self:_narrator()
  local rok, run = pcall(scenario.resume, spec, game, { narrate = n.event })
  if not rok then refuse("scenario", errors.format(run)) end
  n.game, n.board = run.game, run.board
  n.offset = run.game:journal_count()
  self.run, self.loaded = run, req.save
  local warnings = list()
  for i, w in ipairs(game.warnings or {}) do warnings[i] = w end
  return { game = self:game_info(), warnings = warnings }
end

-- ---- actions and views --------------------------------------------------------------------

-- A candidate as the protocol gives it: value (what an order sends), and
-- label (names of groups and units; hexes as map labels, which orders take)
function Session:candidate(ptype, cand)
  local run = self.run
  local st = run.game.state
  local out = {}
  for k, v in pairs(cand) do out[k] = v end
  local v = cand.value
  if math.type(v) == "integer" then
    if ptype == "group" and v >= 1 and v <= st:count_groups() then
      out.label = out.label or st:group_get_name(v)
    elseif (ptype == "unit" or ptype == "units") and v >= 1 and v <= st:count_units() then
      out.label = out.label or st:get(v, "name")
    elseif ptype == "hex" and run.board and run.board:contains(v) then
      out.value = run.board:format(v)
      out.label = out.label or out.value
    end
  end
  return out
end

-- a value of `given` as an order sends it (a hex as its label)
function Session:order_value(ptype, v)
  if ptype == "hex" and math.type(v) == "integer" and self.run.board and self.run.board:contains(v) then
    return self.run.board:format(v)
  end
  return v
end

function Session:op_actions(req)
  local run = self:need_game()
  local side = req.side
  if side ~= nil and type(side) ~= "string" then refuse("request", "actions: side must be a string") end
  if side == nil and run.set.sequence then
    side = run.set:status(run.game).active[1]   -- the first side to decide now
  elseif side == nil and run.set.queries.side_to_move then
    side = run.set:query(run.game, "side_to_move")
  end
  local entries = run.set:legal_actions(run.game, side)
  local out = list()
  for _, e in ipairs(entries) do
    local types = {}
    for _, p in ipairs(e.params) do types[p.name] = p.type end
    -- an order's values as it sends them (hexes as labels), for `given` and `orders`
    local function values_of(t)
      local vals = {}
      for k, v in pairs(t) do
        vals[k] = types[k] == "units" and list({ table.unpack(v) }) or self:order_value(types[k], v)
      end
      return vals
    end
    local function sets_of(sets)
      if not sets then return nil end
      local s = list()
      for i, x in ipairs(sets) do s[i] = list({ table.unpack(x) }) end
      return s
    end
    local params = list()
    for _, p in ipairs(e.params) do
      local q = { name = p.name, type = p.type, optional = p.optional, title = p.title, max = p.max }
      if p.depends then q.depends = list({ table.unpack(p.depends) }) end
      if p.domain then
        q.domain = list()
        for i, c in ipairs(p.domain) do q.domain[i] = self:candidate(p.type, c) end
        q.sets, q.any_set, q.omit = sets_of(p.sets), p.any_set, p.omit
      elseif p.choices then
        q.choices = list()
        for i, ch in ipairs(p.choices) do
          local dom = list()
          for j, c in ipairs(ch.domain) do dom[j] = self:candidate(p.type, c) end
          q.choices[i] = { given = values_of(ch.given), domain = dom, sets = sets_of(ch.sets), any_set = ch.any_set,
                           omit = ch.omit }
        end
      end
      params[#params + 1] = q
    end
    local orders
    if e.orders then
      orders = list()
      for i, o in ipairs(e.orders) do orders[i] = values_of(o) end
    end
    out[#out + 1] = {
      name = e.name, rule = e.rule, family = e.family, title = e.title, params = params, side = e.side,
      available = e.available, checked = e.checked, truncated = e.truncated, orders = orders, reason = e.reason,
      kind = e.kind, refused = e.refused, free = #e.free > 0 and list({ table.unpack(e.free) }) or nil,
    }
  end
  return { side = side, actions = out, hash = run.game:hash_hex() }
end

-- status: where the game is in its sequence of play, whose decision it is, and its result
function Session:op_status()
  local run = self:need_game()
  local st = run.set:status(run.game)
  local out = { started = st.started, over = st.over, active = list(st.active), hash = run.game:hash_hex() }
  if st.sides then out.sides = list(st.sides) end
  if st.started then
    out.turn, out.turns, out.phase, out.step, out.phasing, out.power = st.turn, st.turns, st.phase, st.step,
      st.phasing, st.power
    if st.window then
      out.window = { side = st.window.side, actions = list(st.window.actions), title = st.window.title,
                     rule = st.window.rule }
    end
  end
  if st.over then
    local r = st.result
    out.result = { winner = r.winner, scores = r.scores, reason = r.reason }
  end
  return out
end

function Session:op_view(req)
  local run = self:need_game()
  if type(req.side) ~= "string" then refuse("request", "view: side must be a string") end
  local v = run.set:view_for(run.game, req.side)
  local function seq(t) return list(t) end
  for _, u in ipairs(v.units) do
    if u.at then u.hex = nil end
  end
  for _, g in ipairs(v.groups) do
    if g.units then g.units = list({ table.unpack(g.units) }) end
    if g.at then g.hex = nil end
  end
  if req.counters ~= nil and type(req.counters) ~= "boolean" then refuse("request", "view: counters must be true or false") end
  if req.counters then require("keel.play").counters(run, v) end
  return { side = v.side, units = seq(v.units), groups = seq(v.groups), status = seq(v.status),
           owners = v.owners and seq(v.owners), turn = run.game:get_global("turn"), hash = run.game:hash_hex() }
end

-- board: what the play page draws (keel.play.board)
function Session:op_board()
  local run = self:need_game()
  local b = require("keel.play").board(run)
  return { board = b, hash = run.game:hash_hex() }
end

-- ---- orders -------------------------------------------------------------------------------

-- the journal events an order wrote (the lines after the first `offset`), as data
function Session:events_since(offset)
  local text = self.run.game:journal_since(offset)
  local out = list()
  for line in text:gmatch("[^\n]+") do out[#out + 1] = json.decode(line, NO_NULLS) end
  return out
end

-- results of an effect that are plain data, kept; the rest dropped. Read
-- raw (next, type: none of the script's metamethods runs, as none may
-- outside its action's limits), at most 16 deep and PLAIN_MAX values; a
-- larger result is refused and the order taken back.
local PLAIN_MAX = 100000
local function plain(v, depth, budget)
  local tv = type(v)
  if tv == "string" or tv == "number" or tv == "boolean" then return v end
  if tv ~= "table" or depth > 16 then return nil end
  budget = budget or { PLAIN_MAX }
  local out = {}
  local k, x = next(v)
  while k ~= nil do
    budget[1] = budget[1] - 1
    if budget[1] < 0 then
      refuse("result", ("the action's result holds more than %d values"):format(PLAIN_MAX), { revert = true })
    end
    if type(k) == "string" or math.type(k) == "integer" then out[k] = plain(x, depth + 1, budget) end
    k, x = next(v, k)
  end
  return out
end

function Session:op_order(req)
  local run = self:need_game()
  local game, set = run.game, run.set
  local before, offset = game:hash_hex(), game:journal_count()
  self.narrator.offset = offset
  if (req.action == nil) == (req.event == nil) then
    refuse("request", "order: give either action (with params) or event (with data)")
  end
  local res
  if req.event ~= nil then
    if type(req.event) ~= "string" then refuse("request", "order: event must be a name") end
    if req.side ~= nil then refuse("request", "order: an event is the scenario's, not a side's: it takes no side") end
    if req.params ~= nil then refuse("request", "order: an event takes data, not params") end
    if req.data ~= nil and type(req.data) ~= "table" then refuse("request", "order: data must be an object") end
    local ok, err = pcall(set.emit, set, game, req.event, req.data)
    self.narrator.flush()
    if not ok then
      refuse(errors.get_kind(err) or "error", errors.format(err), { rule = errors.is_error(err) and err.rule or nil,
        hash = game:hash_hex() })
    end
    res = {}
  else
    if type(req.action) ~= "string" then refuse("request", "order: action must be a name") end
    if req.data ~= nil then refuse("request", "order: an action takes params, not data") end
    if req.side ~= nil and type(req.side) ~= "string" then refuse("request", "order: side must be a side's name") end
    if req.params ~= nil and type(req.params) ~= "table" then refuse("request", "order: params must be an object") end
    local order = { req.action }
    for k, v in pairs(req.params or {}) do
      if k == 1 or k == "expect" then refuse("request", ("order: no parameter may be named %s"):format(tostring(k))) end
      order[k] = v
    end
    local ok, params = pcall(run.params_for, run, req.action, order)
    if not ok then refuse("params", tostring(params), { hash = game:hash_hex() }) end
    local r = table.pack(set:act(game, req.action, params, req.side))
    self.narrator.flush()
    if not r[1] then
      local by = r[4] or {}
      refuse(r[3] or "error", errors.format(r[2]), { rule = by.rule, family = by.family, reason = by.reason,
        hash = game:hash_hex(), unchanged = game:hash_hex() == before })
    end
    res = { result = plain(r[2], 0) }
  end
  res.hash = game:hash_hex()
  res.events = self:events_since(offset)
  return res
end

function Session:op_undo(req, redo)
  local run = self:need_game()
  local n = req.n or 1
  if math.type(n) ~= "integer" or n < 1 then refuse("request", "n must be a whole number from 1") end
  local st = run.game.state
  local have = redo and st:count_redos() or st:count_actions()
  if n > have then
    refuse(redo and "redo" or "undo", ("%d action(s) to %s, %d asked"):format(have, redo and "redo" or "undo", n),
      { hash = run.game:hash_hex() })
  end
  local offset = run.game:journal_count()
  if redo then run.game:redo(n) else run.game:undo(n) end
  self.narrator.offset = run.game:journal_count()
  return { hash = run.game:hash_hex(), events = self:events_since(offset) }
end

function Session:op_save(req)
  local run = self:need_game()
  if type(req.path) ~= "string" then refuse("request", "save: path must be a string") end
  local ok, why = run.game:save(self:confine("save", "path", req.path))
  if not ok then refuse("save", req.path .. ": " .. tostring(why)) end
  return { path = req.path, hash = run.game:hash_hex() }
end

function Session:op_journal(req)
  local run = self:need_game()
  if req.path ~= nil then
    if type(req.path) ~= "string" then refuse("request", "journal: path must be a string") end
    local ok, why = run.game:write_journal(self:confine("journal", "path", req.path))
    if not ok then refuse("journal", req.path .. ": " .. tostring(why)) end
    return { path = req.path, hash = run.game:hash_hex() }
  end
  return { text = run.game:journal_text(), hash = run.game:hash_hex() }
end

function Session.op_hello()
  local ops = list()
  for _, k in ipairs(sorted_keys(M.requests)) do ops[#ops + 1] = k end
  return { protocol = M.VERSION, keel = keel.version, ops = ops }
end

function Session:op_quit() self.quit = true; return {} end

-- The response to one request, and whether what the request did must be
-- taken back (an order that failed after it was played).
function Session:_handle(req)
  local resp = { ok = true }
  if type(req) ~= "table" then
    return { ok = false, error = { kind = "request", message = "a request is a JSON object" } }
  end
  resp.id, resp.op = req.id, req.op
  local ok, out = pcall(function()
    local fields = type(req.op) == "string" and M.requests[req.op]
    if not fields then
      refuse("request", ("unknown op %s (ops: %s)"):format(type(req.op) == "string" and ("'" .. req.op .. "'")
        or "(none)", table.concat(sorted_keys(M.requests), ", ")))
    end
    for _, k in ipairs(sorted_keys(req)) do
      if k ~= "id" and k ~= "op" and fields[k] == nil then
        local names = sorted_keys(fields)
        refuse("request", ("%s: unknown field '%s'%s"):format(req.op, tostring(k),
          #names > 0 and (" (fields: " .. table.concat(names, ", ") .. ")") or " (it takes none)"))
      end
    end
    for _, k in ipairs(sorted_keys(fields)) do
      if fields[k] and req[k] == nil then refuse("request", ("%s: field '%s' is required"):format(req.op, k)) end
    end
    self.narration = {}
    if req.op == "undo" or req.op == "redo" then return self:op_undo(req, req.op == "redo") end
    return self["op_" .. req.op](self, req)
  end)
  -- what the rules narrated while an order played (a query or a domain
  -- that says something while the actions are listed stays unheard)
  local narrated = req.op == "order" and #self.narration > 0 and list(self.narration) or nil
  if ok then
    for k, v in pairs(out) do resp[k] = v end
    resp.narration = narrated
  else
    resp.ok = false
    local revert = true
    if type(out) == "table" and out.protocol_error then
      resp.error = out.protocol_error
      if resp.error.hash then resp.hash, resp.error.hash = resp.error.hash, nil end
      revert = resp.error.revert == true
      resp.error.revert = nil
    else
      resp.error = { kind = errors.get_kind(out) or "error", message = errors.format(out) }
    end
    resp.narration = narrated
    return resp, revert
  end
  return resp, false
end

local function encodable(v) return (pcall(json.encode, v)) end

-- the first field of a response that has no JSON form, and why
local function unencodable(resp)
  for _, k in ipairs(sorted_keys(resp)) do
    local ok, err = pcall(json.encode, resp[k])
    if not ok then return ("%s: %s"):format(k, (tostring(err):gsub("^json: ", ""))) end
  end
  return "?"
end

--- Handle one request (a decoded object): the response object and its
--- line of JSON. Encoding is part of answering: a request whose id cannot
--- be written back is not played; a response that cannot be written (a
--- result or an event with no JSON form) is one error response (kind
--- "reply"), and what the request did is taken back (an order's actions,
--- the game an open or load replaced), so the game is as it was.
---@param req table
---@return table response, string line
function Session:answer(req)
  if type(req) == "table" and not encodable(req.id) then
    local _, why = pcall(json.encode, req.id)
    local resp = { ok = false, op = type(req.op) == "string" and req.op or nil, error = { kind = "request",
      message = ("id: it cannot be written back in JSON (%s); the request was not played")
        :format((tostring(why):gsub("^json: ", ""))) } }
    return resp, M.encode(resp)
  end
  local run, loaded, narrator = self.run, self.loaded, self.narrator
  local game = type(req) == "table" and req.op == "order" and run and run.game or nil
  local mark = game and game:begin()
  local resp, revert = self:_handle(req)
  local ok, line = pcall(M.encode, resp)
  if not ok then revert = true end
  if mark then
    if revert then game:rollback(mark) else game:commit(mark) end
  end
  if ok then
    if revert and game then resp.hash = game:hash_hex(); line = M.encode(resp) end
    return resp, line
  end
  self.run, self.loaded, self.narrator = run, loaded, narrator   -- open, load: the game before it
  resp = { ok = false, id = req.id, op = encodable(req.op) and req.op or nil, error = { kind = "reply",
    message = ("the response cannot be written as JSON (%s); the game is as it was before the request")
      :format(unencodable(resp)) } }
  if self.run then resp.hash = self.run.game:hash_hex() end
  return resp, M.encode(resp)
end

--- Handle one request (a decoded object): the response object (see
--- Session:answer).
---@param req table
---@return table response
function Session:handle(req)
  return (self:answer(req))
end

--- Handle one line of text: the response line (no newline).
---@param line string
---@return string
function Session:handle_line(line)
  local req, err = json.decode(line, NO_NULLS)
  if err then
    return M.encode({ ok = false, error = { kind = "json", message = "not JSON: " .. tostring(err) } })
  end
  local _, text = self:answer(req)
  return text
end

-- ---- the session of a sandbox state (keel serve --stdio) -----------------------------------

local current

--- Set the session of this Lua state up (keel.cli.serve calls it in the
--- sandbox state): limits, the folder the server runs in, and the root
--- client paths are confined to (default: that folder).
---@param opts {cpu?: number, cwd?: string, root?: string}
function M.start(opts)
  if opts.cpu then keel.sandbox.limits { cpu = opts.cpu } end
  M._cwd = opts.cwd
  current = M.new(opts)
  return true
end

--- One line through this state's session: the response line, and whether
--- the session asked to quit.
---@param line string
---@return string response, boolean quit
function M.handle_line(line)
  if not current then current = M.new() end
  local out = current:handle_line(line)
  return out, current.quit == true
end

--- A bot's order (keel serve --http's seats): the player `spec`
--- (keel.player.new, seeded by the game's seed and the side, kept for the
--- session) decides for `side`, and the order is played as a client's
--- order is. Returns the order's response line, with `action` (its name).
---@param side string
---@param spec string
---@return string
function M.bot_order(side, spec)
  local s = current
  local function fail(msg) return M.encode { ok = false, error = { kind = "bot", message = msg } } end
  if not s or not s.run then return fail("no game is open") end
  local run = s.run
  s.players = s.players or {}
  local key = side .. "=" .. spec
  local p = s.players[key]
  if not p then
    local seed = (run.game.seed or 0) * 31
    for i = 1, #side do seed = (seed * 33 + side:byte(i)) % 2147483647 end
    local why
    p, why = require("keel.player").new(spec, { seed = seed })
    if not p then return fail(spec .. ": " .. tostring(why)) end
    s.players[key] = p
  end
  local ok, name, params = pcall(p.decide, p, run.set, run.game, side)
  if not ok then return fail(spec .. " for " .. side .. ": " .. errors.format(name)) end
  if type(name) ~= "string" then return fail(spec .. " for " .. side .. ": it gave no order") end
  local resp = s:answer { op = "order", action = name, params = params, side = side }
  resp.action = name
  return M.encode(resp)
end

--- The folder relative paths start from.
function M.cwd()
  if M._cwd then return M._cwd end
  local p = io.popen and io.popen("pwd")
  local d = p and p:read("l")
  if p then p:close() end
  M._cwd = d or "."
  return M._cwd
end

return M

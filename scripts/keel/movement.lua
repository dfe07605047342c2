--- keel.movement — the movement engine: profiles as data, reach and paths
-- over a board, step-by-step execution with event callbacks, and the same
-- search over sea-box and sea-zone graphs. The search itself is C
-- (keel.route); this module decides what to ask it.
--
--   local movement = require "keel.movement"
--   local tf = movement.profile_from_table(nt.naval_mp_cost, "TF", movement.NAVAL_ROWS)
--   local eng = movement.new(board, game.state)   -- owners come from the state
--   local r = eng:reach({ profile = tf, friendly = { "Allied" },
--                         conditions = { both_friendly = { "narrow-strait" } } }, "Port Said", 15)
--   local path, cost = eng:path(group, "15B:2407", "15B:2508")
--   local mv = eng:mover(group, { hex_entered = function(mv, ev) ... end })
--   mv:move_along(path)              --> "done" | "stopped" | "paused" | nil, reason
--
-- Events a mover fires (the rules runtime wires these names to its own
-- dispatch): "mp_spent" after each MP, "hex_entered" after each hex,
-- "stop" when movement ends. A callback returns "continue" (or nothing),
-- "stop" (movement ends) or "pause" (resume with mover:resume()).
-- See doc/movement.md.
local keel = require "keel"
local sorted_keys = require("keel.keys").sorted

local route, hexlib = keel.route, keel.hex
local error, type, tostring, ipairs, pairs, setmetatable, getmetatable, next =
  error, type, tostring, ipairs, pairs, setmetatable, getmetatable, next
local math_type = math.type
local sort, concat = table.sort, table.concat

local M = {}

M.BLOCKED = route.BLOCKED
--- The event names a mover fires, in the order they happen for one hex.
M.EVENTS = { "mp_spent", "hex_entered", "stop" }

local TERRAINS = { ["all-sea"] = true, coastal = true, ["all-land"] = true, restricted = true,
  lake = true }
local SIDE_FEATURES = { ["all-water"] = true, ["partial-water"] = true, ["all-land"] = true,
  river = true, ["major-river"] = true, ["great-river"] = true, canal = true, lake = true,
  ["narrow-strait"] = true, estuary = true, prohibited = true }

-- ---- profiles ------------------------------------------------------------------

local Profile = {}
Profile.__index = Profile
M.Profile = Profile

local function check_cost(v, where)
  if v == false or v == "-" then return route.BLOCKED end
  if math_type(v) ~= "integer" or (v < 0 or v > route.COST_MAX) and v ~= route.BLOCKED then
    error(("%s: cost 0..%d, false or '-' expected, got %s"):format(where, route.COST_MAX,
      tostring(v)), 3)
  end
  return v
end

--- A movement profile: what one kind of group pays to enter each terrain
--- class and cross each hexside feature. Terrain classes not listed may not
--- be entered; water classes not listed may not be crossed; other features
--- add nothing unless listed ("prohibited" is blocked unless listed).
---@param spec {name: string, enter: table<string, integer>, cross?: table<string, integer>, water_route?: boolean}
---@return table profile
function M.profile(spec)
  if type(spec) ~= "table" then error("movement.profile: table expected", 2) end
  if type(spec.name) ~= "string" then error("movement.profile: name (string) expected", 2) end
  local p = { name = spec.name, enter = {}, cross = {}, water_route = spec.water_route and true or false }
  for k, v in pairs(spec.enter or {}) do
    if not TERRAINS[k] then
      error(("movement.profile %s: unknown terrain class '%s'"):format(spec.name, tostring(k)), 2)
    end
    p.enter[k] = check_cost(v, "profile " .. spec.name .. ".enter." .. k)
  end
  for k, v in pairs(spec.cross or {}) do
    if not SIDE_FEATURES[k] then
      error(("movement.profile %s: unknown hexside feature '%s'"):format(spec.name, tostring(k)), 2)
    end
    p.cross[k] = check_cost(v, "profile " .. spec.name .. ".cross." .. k)
  end
  return setmetatable(p, Profile)
end

--- The Naval MP Cost Summary's movement rows (32.A.3) by what they price.
M.NAVAL_ROWS = {
  enter = { ["all-sea"] = "enter_all_sea", coastal = "enter_coastal" },
  river = "enter_river_canal",    -- per riverine hexside moved along (32.A.6)
  cross = { ["all-water"] = 0, ["partial-water"] = 0 },
  water_route = true,
}

--- A profile from one column of a keyed cost table: rows.enter maps terrain
--- classes to row keys; rows.cross gives fixed crossing costs (or row keys);
--- rows.river names the row for moving along a riverine hexside (kept as
--- profile.river for the rules that move along rivers and canals). A "-"
--- cell means not allowed.
---@param tbl table a keel.tables keyed table (e.g. navgroup naval_mp_cost)
---@param column string "TF", "NT", "LC", "LB"
---@param rows table
function M.profile_from_table(tbl, column, rows)
  local function cost_of(key)
    if math_type(key) == "integer" then return key end
    local c = tbl:get(key, column)
    if c.kind == "none" then return route.BLOCKED end
    if c.kind ~= "number" then
      error(("movement.profile_from_table: %s/%s is not a cost (%s)"):format(key, column, tostring(c)), 3)
    end
    return c.value
  end
  local spec = { name = column, enter = {}, cross = {}, water_route = rows.water_route }
  for terrain, key in pairs(rows.enter or {}) do spec.enter[terrain] = cost_of(key) end
  for feature, key in pairs(rows.cross or {}) do spec.cross[feature] = cost_of(key) end
  local p = M.profile(spec)
  if rows.river then p.river = cost_of(rows.river) end
  p.source = tbl.name
  return p
end

-- ---- cache keys: what a cost map is made of, never which table holds it ----------

local function list_key(t)
  if not t then return "" end
  local n = #t
  if n <= 1 then return n == 0 and "" or tostring(t[1]) end   -- most lists: no table, no sort
  local c = {}
  for i = 1, n do c[i] = tostring(t[i]) end
  sort(c)
  return concat(c, ",")
end

-- A profile's costs as a string: equal profiles (from two rule sets, two
-- games) share their cost maps and river graphs.
local profile_keys = setmetatable({}, { __mode = "k" })
local function profile_key(p)
  local k = profile_keys[p]
  if k then return k end
  local parts = { p.water_route and "w" or "-" }
  for _, t in ipairs(sorted_keys(p.enter)) do parts[#parts + 1] = "e" .. t .. "=" .. p.enter[t] end
  for _, f in ipairs(sorted_keys(p.cross)) do parts[#parts + 1] = "c" .. f .. "=" .. p.cross[f] end
  k = concat(parts, ";")
  profile_keys[p] = k
  return k
end

-- Do the conditions read who owns each hex?
local function reads_owners(c)
  return c ~= nil and ((c.friendly_only ~= nil and #c.friendly_only > 0) or
    (c.both_friendly ~= nil and #c.both_friendly > 0))
end

-- ---- the engine over one board ----------------------------------------------------

local Engine = {}
Engine.__index = Engine

-- What depends on the board alone (cost maps whose conditions read no
-- owners, graphs, riverine sides), per board and shared by every engine on
-- it: a finished board never changes.
local by_board = setmetatable({}, { __mode = "k" })

--- An engine over a finished keel.Board for one game: `state` (a
--- keel.State) says who owns each hex, for the friendly conditions. What
--- depends on the board alone is built once per board and process and
--- shared by every engine on it; cost maps that read owners are kept per
--- engine while the state's owner version stands, and per board by the
--- owners of the hexes they read (an owner change there, a rollback or an
--- undo that changes them, finds or builds another).
---@param board userdata keel.Board
---@param state? userdata keel.State (needed for friendly_only / both_friendly)
function M.new(board, state)
  if type(board) ~= "userdata" then error("movement.new: keel.Board expected", 2) end
  if state ~= nil and type(state) ~= "userdata" then error("movement.new: keel.State expected", 2) end
  local shared = by_board[board]
  if not shared then
    shared = { maps = {}, graphs = {}, owned = {}, nowned = 0, owner_hexes = {} }
    by_board[board] = shared
  end
  return setmetatable({ board = board, state = state, maps = shared.maps, graphs = shared.graphs,
    owned = {}, owned_version = nil }, Engine)
end

-- a hex from an integer, label or place name; nil, reason when unknown
local function resolve(board, h)
  if math_type(h) == "integer" then
    if not board:contains(h) then return nil, "hex " .. hexlib.tostring(h) .. " is not on the board" end
    return h
  end
  if type(h) ~= "string" then return nil, "hex expected, got " .. type(h) end
  return board:hex(h)
end

-- group or profile -> profile, conditions, the friendly sides (the
-- conditions' own, else the group's)
local function unpack_what(what)
  if getmetatable(what) == Profile then return what, nil, nil end
  if type(what) ~= "table" then error("movement: a profile or a group expected", 3) end
  local p = what.profile
  if getmetatable(p) ~= Profile then error("movement: group.profile must be a movement.profile", 3) end
  local c = what.conditions
  return p, c, c and c.friendly or what.friendly
end

-- t[a][b]...: the cached map under the keys, or nil
local function cached(t, a, b, c, d, e)
  t = t[a]; if not t then return nil end
  t = t[b]; if not t or c == nil then return t end
  t = t[c]; if not t then return nil end
  t = t[d]; if not t then return nil end
  return t[e]
end

-- t[a][b]... = m, making the levels on the way
local function cache(t, m, a, b, c, d, e)
  local keys = { a, b, c, d, e }
  local n = c == nil and 2 or 5
  for i = 1, n - 1 do
    local k = keys[i]
    local sub = t[k]
    if not sub then sub = {}; t[k] = sub end
    t = sub
  end
  t[keys[n]] = m
end

--- The cost map for a profile (or group) under its conditions (cached:
--- per board, or per engine and owner version when the conditions read
--- owners). The keys are the parts of the conditions, one level each: a
--- lookup builds no string.
function Engine:costmap(what)
  local p, c, friendly = unpack_what(what)
  local pk, closed = profile_key(p), list_key(c and c.closed)
  if not reads_owners(c) then
    local m = cached(self.maps, pk, closed)
    if not m then
      m = route.from_board(self.board, p, c and { friendly = friendly, friendly_only = c.friendly_only,
        both_friendly = c.both_friendly, closed = c.closed })
      cache(self.maps, m, pk, closed)
    end
    return m
  end
  local st = self.state
  if not st then
    error("movement: friendly_only and both_friendly read who owns each hex: " ..
      "movement.new(board, state) needs the game state", 3)
  end
  local v = st:get_owner_version()
  if v ~= self.owned_version then self.owned, self.owned_version = {}, v end
  local fk, fo, bf = list_key(friendly), list_key(c.friendly_only), list_key(c.both_friendly)
  local m = cached(self.owned, pk, closed, fk, fo, bf)
  if not m then
    m = self:owned_costmap(concat({ pk, closed, fk, fo, bf }, "|"), p, { owners = st, friendly = friendly,
      friendly_only = c.friendly_only, both_friendly = c.both_friendly, closed = c.closed })
    cache(self.owned, m, pk, closed, fk, fo, bf)
  end
  return m
end

-- Cost maps that read owners, shared per board by every engine on it and
-- keyed by the owners of the hexes they read (route.owner_hexes): games
-- whose owners agree there share the map. At most OWNED_MAX kept per board.
local OWNED_MAX = 256
function Engine:owned_costmap(key, p, c)
  local shared = by_board[self.board]
  local hexes = shared.owner_hexes[key]
  if not hexes then
    hexes = route.owner_hexes(self.board, c)
    shared.owner_hexes[key] = hexes
  end
  local st, parts = self.state, { key }
  for i = 1, #hexes do parts[i + 1] = st:get_owner(hexes[i]) or "" end
  local k = concat(parts, "|")
  local m = shared.owned[k]
  if not m then
    if shared.nowned >= OWNED_MAX then shared.owned, shared.nowned = {}, 0 end
    m = route.from_board(self.board, p, c)
    shared.owned[k] = m
    shared.nowned = shared.nowned + 1
  end
  return m
end

local function search_opts(board, opts, coast)
  local o = { coast = coast or 0 }
  if not opts then return o end
  o.coast = opts.coast or o.coast
  for _, k in ipairs { "blocked", "stop" } do
    if opts[k] then
      local l = {}
      for i, h in ipairs(opts[k]) do
        local x, why = resolve(board, h)
        if not x then error(("movement: %s[%d]: %s"):format(k, i, why), 3) end
        l[i] = x
      end
      o[k] = l
    end
  end
  o.allow = opts.allow
  return o
end

--- Reach set of a group (or profile) from start within budget MPs (for a
--- group: its allowance less what it spent, unless budget is given).
--- opts: blocked = {hex...}, stop = {hex...}, allow = function(hex) -> bool,
--- coast = the coast the group is on. Returns keel.Reach or nil, reason.
---@return userdata|nil reach
---@return string|nil reason
function Engine:reach(what, start, budget, opts)
  local s, why = resolve(self.board, start)
  if not s then return nil, "reach: start: " .. why end
  if budget == nil and type(what) == "table" and what.allowance then
    budget = what.allowance - (what.spent or 0)
  end
  if math_type(budget) ~= "integer" or budget < 0 then
    error("movement: reach: budget (integer >= 0) expected, got " .. tostring(budget), 2)
  end
  local o = search_opts(self.board, opts, type(what) == "table" and what.coast)
  return self:costmap(what):reach(s, budget, o)
end

--- Cheapest legal path (ties: cost, then hex id) from `from` to `to`:
--- path {hex...}, cost; or nil, reason.
function Engine:path(what, from, to, budget, opts)
  local t, why = resolve(self.board, to)
  if not t then return nil, "path: destination: " .. why end
  local r, err = self:reach(what, from, budget or 4096, opts)
  if not r then return nil, err end
  local cost = r:cost(t)
  if not cost then return nil, "path: " .. self.board:format(t) .. " cannot be reached" end
  return r:path(t), cost
end

-- ---- graphs: sea boxes and sea zones ------------------------------------------------

--- The sea-box graph of the board: one node per box holding at least one
--- all-sea or coastal hex, edges between adjacent such boxes costing 1 (a
--- naval step counts boxes). Keys are keel box ids.
function Engine:box_graph()
  if self.graphs.boxes then return self.graphs.boxes end
  local board = self.board
  local seen, nodes = {}, {}
  for _, h in ipairs(board:hexes()) do
    local t = board:get_terrain(h)
    if t == "all-sea" or t == "coastal" then
      local b = board:box_of(h)
      if b and not seen[b] then seen[b] = true; nodes[#nodes + 1] = b end
    end
  end
  sort(nodes)
  local edges = {}
  for _, b in ipairs(nodes) do
    for _, nb in ipairs(hexlib.neighbors(b)) do
      if seen[nb] then edges[#edges + 1] = { b, nb, 1 } end
    end
  end
  self.graphs.boxes = route.graph { nodes = nodes, edges = edges }
  return self.graphs.boxes
end

--- An area graph from names and adjacency: {graph, key = {name -> key},
--- name = {key -> name}}. Keys are 0-based indexes in the order given.
---@param names string[]
---@param adjacent table list of {a, b [, cost]} name pairs (both ways)
function M.area_graph(names, adjacent)
  local key, name, nodes, edges = {}, {}, {}, {}
  for i, n in ipairs(names) do
    if key[n] then error("movement.area_graph: area '" .. tostring(n) .. "' twice", 2) end
    key[n] = i - 1; name[i - 1] = n; nodes[i] = i - 1
  end
  for i, e in ipairs(adjacent) do
    local a, b = key[e[1]], key[e[2]]
    if not a or not b then
      error(("movement.area_graph: adjacent[%d]: unknown area '%s'"):format(i,
        tostring(a and e[2] or e[1])), 2)
    end
    edges[#edges + 1] = { a, b, e[3] or 1 }
    edges[#edges + 1] = { b, a, e[3] or 1 }
  end
  return { graph = route.graph { nodes = nodes, edges = edges }, key = key, name = name }
end

--- The sea-zone graph of the board (zones adjacent when two of their hexes
--- are): an area graph as M.area_graph returns.
function Engine:zone_graph()
  if self.graphs.zones then return self.graphs.zones end
  local board = self.board
  local names, adj = board:zones(), {}
  local index = {}
  for i, n in ipairs(names) do index[n] = i end
  for _, n in ipairs(names) do
    for _, m in ipairs(board:zone_neighbors(n)) do
      if index[n] < index[m] then adj[#adj + 1] = { n, m } end
    end
  end
  self.graphs.zones = M.area_graph(names, adj)
  return self.graphs.zones
end

--- Areas reachable from `from` within `budget` moves: {name -> cost}, and
--- the reach set. opts as for reach (blocked/stop by area name).
function M.area_reach(ag, from, budget, opts)
  local k = ag.key[from]
  if not k then return nil, "area_reach: unknown area '" .. tostring(from) .. "'" end
  local o = {}
  if opts then
    for _, f in ipairs { "blocked", "stop" } do
      if opts[f] then
        o[f] = {}
        for i, n in ipairs(opts[f]) do
          o[f][i] = ag.key[n] or error("area_reach: unknown area '" .. tostring(n) .. "'", 2)
        end
      end
    end
    if opts.allow then o.allow = function(key) return opts.allow(ag.name[key]) end end
  end
  local r = ag.graph:reach(k, budget, o)
  local out = {}
  for _, key in ipairs(r:hexes()) do out[ag.name[key]] = r:cost(key) end
  return out, r
end

-- ---- rivers and canals: hexes and hexsides in one graph (32.A.6) --------------------

local WATER = { ["all-sea"] = true, coastal = true, lake = true }

-- every riverine hexside of the board, in side order (once per board)
function Engine:riverine_sides()
  local list = self.graphs.riverine
  if not list then
    list = self.board:riverine_sides()
    self.graphs.riverine = list
  end
  return list
end

local River = {}
River.__index = River
M.RiverGraph = River

--- The river graph of the board for one profile: nodes are the riverine
--- hexsides and the water hexes (all-sea, coastal, lake) beside them;
--- edges: hex -> one of its riverine sides and side -> side sharing an end
--- cost `profile.river` (the "Enter river/canal hexside" row); side -> one
--- of its water hexes costs entering that hex. Hexes and sides are both
--- 64-bit keys that may coincide, so the graph numbers its nodes: a node is
--- written {kind = "hex"|"side", id = n} (or "hex:<id>"/"side:<id>" keys).
--- Cached per board and profile costs.
---@param profile table a movement.profile (with .river)
function Engine:river_graph(profile)
  if getmetatable(profile) ~= Profile then error("movement: river_graph: a movement.profile expected", 2) end
  self.graphs.rivers = self.graphs.rivers or {}
  local gkey = profile_key(profile) .. ";r=" .. tostring(profile.river)
  local rg = self.graphs.rivers[gkey]
  if rg then return rg end
  local board = self.board
  local river_cost = profile.river or 1
  local index, kind, id, nodes, edges = {}, {}, {}, {}, {}
  local function node(k, x)
    local key = k .. ":" .. x
    local i = index[key]
    if not i then
      i = #nodes
      nodes[i + 1] = i
      index[key] = i; kind[i] = k; id[i] = x
    end
    return i
  end
  local sides = self:riverine_sides()
  local is_river = {}
  for _, s in ipairs(sides) do is_river[s] = true end
  for _, s in ipairs(sides) do
    local sn = node("side", s)
    local a, b = hexlib.side_hexes(s)
    for _, h in ipairs { a, b } do
      if board:contains(h) and WATER[board:get_terrain(h)] then
        local hn = node("hex", h)
        if river_cost ~= route.BLOCKED then edges[#edges + 1] = { hn, sn, river_cost } end
        local enter = profile.enter[board:get_terrain(h)]
        if enter and enter ~= route.BLOCKED then edges[#edges + 1] = { sn, hn, enter } end
      end
    end
    if river_cost ~= route.BLOCKED then
      for _, t in ipairs(board:riverine_neighbors(s) or {}) do
        if is_river[t] then edges[#edges + 1] = { sn, node("side", t), river_cost } end
      end
    end
  end
  local adj = {}
  for i = 0, #nodes - 1 do adj[i] = {} end
  for _, e in ipairs(edges) do
    local c = adj[e[1]][e[2]]
    if not c or e[3] < c then adj[e[1]][e[2]] = e[3] end
  end
  rg = setmetatable({ graph = route.graph { nodes = nodes, edges = edges }, index = index,
    kind = kind, id = id, adj = adj, board = board }, River)
  self.graphs.rivers[gkey] = rg
  return rg
end

-- a node index from {kind=, id=} or "kind:id"
function River:node(n)
  if type(n) == "table" then return self.index[tostring(n.kind) .. ":" .. tostring(n.id)] end
  return self.index[n]
end

--- Every node, {kind=, id=}, in node order.
function River:nodes()
  local out = {}
  for i = 0, #self.kind do
    if self.kind[i] then out[#out + 1] = { kind = self.kind[i], id = self.id[i] } end
  end
  return out
end

--- Is this hex or side ({kind=, id=}) in the graph?
function River:has_node(n) return self:node(n) ~= nil end

--- The cost of one move between two nodes, or nil when they are not linked.
function River:cost(a, b)
  local ia, ib = self:node(a), self:node(b)
  if not ia or not ib then return nil end
  return self.adj[ia][ib]
end

local function node_opts(self, opts)
  if not opts then return {} end
  local o = {}
  for _, f in ipairs { "blocked", "stop" } do
    if opts[f] then
      o[f] = {}
      for _, n in ipairs(opts[f]) do
        local i = self:node(n)
        if i then o[f][#o[f] + 1] = i end
      end
    end
  end
  if opts.allow then
    local allow, kind, id = opts.allow, self.kind, self.id
    o.allow = function(i) return allow(kind[i], id[i]) end
  end
  return o
end

--- Nodes reachable from `start` within `budget`: a list of {kind=, id=,
--- cost=} in settled order. opts: blocked/stop = {node...},
--- allow = function(kind, id) -> bool.
function River:reach(start, budget, opts)
  local s = self:node(start)
  if not s then return nil, "river reach: start is not on a river route" end
  local r = self.graph:reach(s, budget, node_opts(self, opts))
  local out = {}
  for _, i in ipairs(r:hexes()) do
    out[#out + 1] = { kind = self.kind[i], id = self.id[i], cost = r:cost(i) }
  end
  return out
end

--- The cheapest river route from `from` to `to`: a list of {kind=, id=}
--- and its cost, or nil, reason.
function River:path(from, to, budget, opts)
  local s, t = self:node(from), self:node(to)
  if not s then return nil, "river path: start is not on a river route" end
  if not t then return nil, "river path: destination is not on a river route" end
  local r = self.graph:reach(s, budget or 4096, node_opts(self, opts))
  local c = r:cost(t)
  if not c then return nil, "river path: destination cannot be reached" end
  local out = {}
  for k, i in ipairs(r:path(t)) do out[k] = { kind = self.kind[i], id = self.id[i] } end
  return out, c
end

-- ---- step-by-step execution ----------------------------------------------------------

local Mover = {}
Mover.__index = Mover
M.Mover = Mover

local VERDICTS = { continue = true, stop = true, pause = true }

--- A mover for one group: group = {profile=, friendly=, conditions=,
--- hex=, coast=, allowance=, spent=}; callbacks = {mp_spent=, hex_entered=,
--- stop=} (each optional); opts as for reach (blocked, stop, allow) are
--- enforced on every step. The group table is updated as it moves.
function Engine:mover(group, callbacks, opts)
  if type(group) ~= "table" then error("movement: mover: group table expected", 2) end
  local h, why = resolve(self.board, group.hex)
  if not h then return nil, "mover: group.hex: " .. why end
  group.hex = h
  group.spent = group.spent or 0
  group.coast = group.coast or 0
  group.allowance = group.allowance or 15
  local o = search_opts(self.board, opts)
  local blocked, stops = {}, {}
  for _, x in ipairs(o.blocked or {}) do blocked[x] = true end
  for _, x in ipairs(o.stop or {}) do stops[x] = true end
  local map = self:costmap(group)   -- conditions checked now, not at the first step
  return setmetatable({ engine = self, board = self.board, group = group,
    callbacks = callbacks or {}, blocked = blocked, stops = stops,
    allow = o.allow, state = "ready", steps = {}, pending = nil,
    map = map, owners = self.state and self.state:get_owner_version() }, Mover)
end

-- fire one event; returns the verdict
function Mover:fire(name, ev)
  local cb = self.callbacks[name]
  if not cb then return "continue" end
  local v = cb(self, ev)
  if v == nil then return "continue" end
  if not VERDICTS[v] then
    error(("movement: the %s callback returned %s (expected \"continue\", \"stop\" or \"pause\")")
      :format(name, tostring(v)), 2)
  end
  return v
end

function Mover:record(step)
  step.n = #self.steps + 1
  self.steps[step.n] = step
  return step
end

-- end movement: state stopped, "stop" fired once
function Mover:finish(reason, by)
  self.state = "stopped"
  self:record { cause = "stop", reason = reason, by = by, hex = self.group.hex, spent = self.group.spent }
  self:fire("stop", { reason = reason, by = by, hex = self.group.hex, spent = self.group.spent })
  return "stopped"
end

-- spend n MPs, one event each; returns the strongest verdict (stop > pause > continue)
function Mover:spend_mps(n, hex, cause)
  local verdict, by = "continue", nil
  local g = self.group
  for _ = 1, n do
    g.spent = g.spent + 1
    local v = self:fire("mp_spent", { hex = hex, spent = g.spent, remaining = g.allowance - g.spent,
      cause = cause })
    if v == "stop" or (v == "pause" and verdict == "continue") then verdict, by = v, "mp_spent" end
  end
  return verdict, by
end

--- Can the group enter `to` now? cost, coast | nil, reason (nothing changes).
function Mover:can_enter(to)
  local g = self.group
  local t, why = resolve(self.board, to)
  if not t then return nil, why end
  if hexlib.distance(g.hex, t) ~= 1 then return nil, "not adjacent" end
  if self.blocked[t] then return nil, "blocked" end
  if self.stops[g.hex] and #self.steps > 0 then return nil, "must stop here" end
  -- the cost map as owners are now (a rule may have changed one mid-move)
  local st = self.engine.state
  if st and st:get_owner_version() ~= self.owners then
    self.map, self.owners = self.engine:costmap(g), st:get_owner_version()
  end
  local cost, coast = self.map:step(g.hex, t, g.coast)
  if not cost then return nil, "not allowed for " .. self.group.profile.name end
  if self.allow and not self.allow(t) then return nil, "not allowed by the rules" end
  if g.spent + cost > g.allowance then
    return nil, ("not enough MPs (%d needed, %d left)"):format(cost, g.allowance - g.spent)
  end
  return cost, coast, t
end

--- One order: move into the adjacent hex `to`. Returns "moved" (may go
--- on), "stopped" or "paused" as the callbacks decide, or nil, reason when
--- the move is not legal (nothing changes then).
function Mover:step(to)
  if self.state == "stopped" then return nil, "movement has ended" end
  if self.state == "paused" then return nil, "paused (call resume)" end
  local cost, coast, t = self:can_enter(to)
  if not cost then return nil, coast end
  local g = self.group
  local from = g.hex
  local v1, by1 = self:spend_mps(cost, t, "move")
  g.hex, g.coast = t, coast
  self:record { cause = "move", from = from, hex = t, mp = cost, spent = g.spent }
  local v2 = self:fire("hex_entered", { from = from, hex = t, cost = cost, spent = g.spent,
    remaining = g.allowance - g.spent })
  local verdict, by = v1, by1
  if v2 == "stop" or (v2 == "pause" and verdict == "continue") then verdict, by = v2, "hex_entered" end
  if verdict == "stop" then return self:finish("rules", by) end
  if verdict == "pause" then
    self.state = "paused"
    self:record { cause = "pause", by = by, hex = t, spent = g.spent }
    return "paused"
  end
  if self.stops[t] then return self:finish("stop hex", "engine") end
  self.state = "moving"
  return "moved"
end

--- Spend MPs on an activity in place (a combat round, a search, ...):
--- "spent" | "stopped" | "paused", or nil, reason when too few MPs remain.
function Mover:spend(n, cause)
  if self.state == "stopped" then return nil, "movement has ended" end
  local g = self.group
  if g.spent + n > g.allowance then
    return nil, ("not enough MPs (%d needed, %d left)"):format(n, g.allowance - g.spent)
  end
  local v, by = self:spend_mps(n, g.hex, cause or "activity")
  self:record { cause = cause or "activity", hex = g.hex, mp = n, spent = g.spent }
  if v == "stop" then return self:finish("rules", by) end
  if v == "pause" then self.state = "paused"; return "paused" end
  return "spent"
end

--- Move along a path (hexes; a leading current hex is skipped). Returns
--- "done", "stopped", "paused" (the rest is kept for resume) or nil, reason
--- with the group where the illegal step would have begun.
function Mover:move_along(path)
  local rest, i = {}, 1
  if path[1] ~= nil and resolve(self.board, path[1]) == self.group.hex then i = 2 end
  for k = i, #path do rest[#rest + 1] = path[k] end
  self.pending = rest
  return self:run()
end

function Mover:run()
  while self.pending and #self.pending > 0 do
    local to = table.remove(self.pending, 1)
    local res, why = self:step(to)
    if not res then self.pending = nil; return nil, why end
    if res ~= "moved" then
      if res == "stopped" then self.pending = nil end
      return res
    end
  end
  self.pending = nil
  return "done"
end

--- Move to a hex by the cheapest legal path within the MPs left.
function Mover:move_to(dest)
  local g = self.group
  local path, cost = self.engine:path(g, g.hex, dest, g.allowance - g.spent,
    { blocked = next(self.blocked) and sorted_keys(self.blocked) or nil,
      stop = next(self.stops) and sorted_keys(self.stops) or nil, allow = self.allow, coast = g.coast })
  if not path then return nil, cost end
  return self:move_along(path)
end


--- Go on after a pause: "done" | "stopped" | "paused" | nil, reason.
function Mover:resume()
  if self.state ~= "paused" then return nil, "not paused" end
  self.state = "moving"
  self:record { cause = "resume", hex = self.group.hex, spent = self.group.spent }
  return self:run()
end

--- End movement now (the player's choice).
function Mover:stop(reason)
  if self.state == "stopped" then return nil, "movement has ended" end
  self.pending = nil
  return self:finish(reason or "player", "player")
end

--- The journal of this move: a list of {n=, cause=, hex=, from=, mp=, spent=, by=, reason=}.
function Mover:journal() return self.steps end

M.resolve = resolve
return M

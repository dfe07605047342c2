--- keel.boxroute — routes over water measured in sea boxes: the shortest
-- water route between two hexes counted in sea boxes entered, with the
-- coast a route arrives on remembered for hexes with two coasts. General:
-- any rulebook whose ships follow water routes hex by hex while their
-- speed is counted in boxes of a sea-box overlay (Rule 27.B.2 and 27.B.5 of
-- 001_dc9ef6cc32bfaa07.txt are the first user). See doc/api/boxroute.md.
--
--   local boxroute = require "keel.boxroute"
--   local net = boxroute.new(board)                    -- all-sea and coastal hexes
--   local path, boxes, coast = net:path("15B:2407", "Heraklion")
--   local boxes, coast = net:trace({ "15B:2407", "15B:2508" })
--   local r = net:reach("15B:2407", 6)                 -- every hex within 6 boxes
--   r:boxes("15B:2006"), r:path("15B:2006"), r:coast("15B:2006")
--
-- The search is keel.route's graph search (C) over (hex, coast) states: a
-- step along a water route (board:water_neighbors) costs one box when it
-- enters another sea box, nothing in boxes otherwise. Among the routes of
-- fewest boxes the one of fewest hexes is taken (ties: the lower state).
-- The graph is built once per board and set of enterable terrains.
local keel = require "keel"
local movement = require "keel.movement"

local route = keel.route
local error, type, tostring, ipairs, pairs, setmetatable = error, type, tostring, ipairs, pairs, setmetatable
local math_type = math.type
local sort, concat = table.sort, table.concat

local M = {}

-- A step costs 1 per hex plus STRIDE when it enters another box, so one
-- box outweighs any number of hexes on a route shorter than STRIDE hexes.
local STRIDE = 1024
M.MAX_BOXES = (1 << 20) // STRIDE - 1
--- Reaches a network keeps for the next asker (then it starts afresh).
M.REACHES_KEPT = 64

local DEFAULT_ENTER = { ["all-sea"] = true, coastal = true }

local Net, Reach = {}, {}
Net.__index, Reach.__index = Net, Reach

-- board -> { [terrain key] = net }: what depends on the board lives with it
local cache = setmetatable({}, { __mode = "k" })

local function enter_key(enter)
  local names = {}
  for k, v in pairs(enter) do
    if type(k) ~= "string" then error("boxroute: enter is a set of terrain names", 3) end
    if v then names[#names + 1] = k end
  end
  sort(names)
  return concat(names, ","), names
end

--- The box-route network of a board: ships enter hexes of the terrains in
--- opts.enter (a set; default all-sea and coastal). Cached per board and
--- terrain set. Raises when the board has no sea-box overlay.
---@param board keel.Board
---@param opts? {enter?: table<string, boolean>}
---@return table net
function M.new(board, opts)
  local enter = opts and opts.enter or DEFAULT_ENTER
  if type(enter) ~= "table" then error("boxroute.new: opts.enter must be a set of terrain names", 2) end
  local key, names = enter_key(enter)
  if not board:get_seaboxes() then error("boxroute: the board has no sea boxes (map statement 'seaboxes')", 2) end
  local per = cache[board]
  if not per then per = {}; cache[board] = per end
  if per[key] then return per[key] end
  local ok_terrain = {}
  for _, n in ipairs(names) do ok_terrain[n] = true end
  -- states: (hex, 0) for a start that may leave by any coast, then one per
  -- coast of the hex; keys are dense, in hex order
  local hex_of, coast_of, states = {}, {}, {}
  local n = 0
  local hexes = board:hexes()
  for _, h in ipairs(hexes) do
    if ok_terrain[board:get_terrain(h)] then
      n = n + 1
      hex_of[n], coast_of[n] = h, 0
      local seen, list = {}, {}
      for _, c in ipairs(board:get_coasts(h)) do
        if c ~= 0 and not seen[c] then seen[c] = true; list[#list + 1] = c end
      end
      sort(list)
      local s = { [0] = n }
      for _, c in ipairs(list) do
        n = n + 1
        hex_of[n], coast_of[n] = h, c
        s[c] = n
      end
      states[h] = s
    end
  end
  local nodes, edges = {}, {}
  for k = 1, n do
    nodes[k] = k
    local h, c = hex_of[k], coast_of[k]
    local from_box = board:box_of(h)
    for _, st in ipairs(board:water_neighbors(h, c) or {}) do
      local to = states[st.hex] and states[st.hex][st.coast]
      if to then
        local cost = 1
        if board:box_of(st.hex) ~= from_box then cost = cost + STRIDE end
        edges[#edges + 1] = { k, to, cost }
      end
    end
  end
  local net = setmetatable({ board = board, graph = route.graph { nodes = nodes, edges = edges },
    hex_of = hex_of, coast_of = coast_of, states = states, enter = names, reaches = {}, n_reaches = 0 }, Net)
  per[key] = net
  return net
end

-- a hex from an integer, a label or a place name
local function resolve(board, x, what)
  local h, why = movement.resolve(board, x)
  if not h then return nil, ("%s: %s"):format(what, tostring(why)) end
  return h
end

-- the state key a route starts from: (hex, coast), coast 0 = any
function Net:_start(from, coast)
  local h, why = resolve(self.board, from, "start")
  if not h then return nil, why end
  local s = self.states[h]
  if not s then
    return nil, ("%s is not a hex ships may enter (%s)"):format(self.board:format(h) or tostring(h),
      tostring(self.board:get_terrain(h)))
  end
  coast = coast or 0
  if math_type(coast) ~= "integer" then error("boxroute: coast must be an integer", 3) end
  local k = s[coast]
  if not k then
    return nil, ("%s has no coast %d"):format(self.board:format(h), coast)
  end
  return k, h
end

--- Every hex within `boxes` sea boxes of `from` along water routes.
---@param from integer|string hex, label or place
---@param boxes integer
---@param opts? {coast?: integer} the coast the route starts on (0 or nil: any)
---@return table|nil reach, string? reason
function Net:reach(from, boxes, opts)
  if math_type(boxes) ~= "integer" or boxes < 0 or boxes > M.MAX_BOXES then
    error(("boxroute: boxes 0..%d expected, got %s"):format(M.MAX_BOXES, tostring(boxes)), 2)
  end
  local k, h = self:_start(from, opts and opts.coast)
  if not k then return nil, h end
  -- a network never changes (its board is finished): the same search gives
  -- the same reach, kept for the next asker (a listing of sail's
  -- destinations asks for the route to each from one start)
  local key = k * (M.MAX_BOXES + 1) + boxes
  local hit = self.reaches[key]
  if hit then return hit end
  local r, why = self.graph:reach(k, boxes * STRIDE + STRIDE - 1)
  if not r then return nil, why end
  local out = setmetatable({ net = self, r = r, start = k, from = h }, Reach)
  if self.n_reaches >= M.REACHES_KEPT then self.reaches, self.n_reaches = {}, 0 end
  self.reaches[key] = out
  self.n_reaches = self.n_reaches + 1
  return out
end

-- the cheapest reached state of hex h: key, cost
function Reach:_best(h)
  local s = self.net.states[h]
  if not s then return nil end
  local best, bc
  for c, k in pairs(s) do
    local cost = (c ~= 0 or k == self.start) and self.r:cost(k) or nil
    if cost and (not bc or cost < bc or (cost == bc and k < best)) then best, bc = k, cost end
  end
  return best, bc
end

--- Sea boxes entered on the best route to hex, or nil when out of reach.
function Reach:boxes(hex)
  local h = resolve(self.net.board, hex, "hex")
  if not h then return nil end
  local _, cost = self:_best(h)
  return cost and cost // STRIDE or nil
end

--- The coast the best route arrives on (0 for the start itself).
function Reach:coast(hex)
  local h = resolve(self.net.board, hex, "hex")
  local k = h and self:_best(h)
  return k and self.net.coast_of[k] or nil
end

--- The hexes of the best route to hex, from the start, or nil, reason.
function Reach:path(hex)
  local h, why = resolve(self.net.board, hex, "hex")
  if not h then return nil, why end
  local k = self:_best(h)
  if not k then return nil, ("%s is not within reach"):format(self.net.board:format(h)) end
  local keys = self.r:path(k)
  local out = {}
  for i, key in ipairs(keys) do out[i] = self.net.hex_of[key] end
  return out
end

--- The hexes reached, in hex order.
function Reach:hexes()
  local seen, out = {}, {}
  for _, k in ipairs(self.r:hexes()) do
    local h = self.net.hex_of[k]
    if not seen[h] then seen[h] = true; out[#out + 1] = h end
  end
  sort(out)
  return out
end

--- The best water route from `from` to `to`: hexes (from first), boxes,
--- arrival coast; or nil, reason. opts.coast: the coast it starts on;
--- opts.boxes: search no further than this many boxes (default MAX_BOXES).
function Net:path(from, to, opts)
  opts = opts or {}
  local t, why = resolve(self.board, to, "destination")
  if not t then return nil, why end
  if not self.states[t] then
    return nil, ("%s is not a hex ships may enter (%s)"):format(self.board:format(t), tostring(self.board:get_terrain(t)))
  end
  local r, err = self:reach(from, opts.boxes or M.MAX_BOXES, opts)
  if not r then return nil, err end
  local k, cost = r:_best(t)
  if not k then
    return nil, ("no water route from %s to %s%s"):format(self.board:format(r.from), self.board:format(t),
      opts.boxes and (" within %d sea boxes"):format(opts.boxes) or "")
  end
  return r:path(t), cost // STRIDE, self.coast_of[k]
end

--- Check a route given hex by hex: each step must be along a water route
--- from the coast the route is on. Returns boxes entered and the arrival
--- coast, or nil, reason, index of the step that fails (2 = the first move).
---@param hexes table hexes, labels or places; the first is where the route starts
---@param opts? {coast?: integer}
function Net:trace(hexes, opts)
  local board = self.board
  if type(hexes) ~= "table" or #hexes < 1 then error("boxroute.trace: a list of hexes expected", 2) end
  local k, h = self:_start(hexes[1], opts and opts.coast)
  if not k then return nil, h, 1 end
  local coast, boxes = self.coast_of[k], 0
  for i = 2, #hexes do
    local to, why = resolve(board, hexes[i], "step " .. i)
    if not to then return nil, why, i end
    local arrive
    if self.states[to] then
      for _, st in ipairs(board:water_neighbors(h, coast) or {}) do
        if st.hex == to then arrive = st.coast; break end
      end
    end
    if not arrive then
      return nil, self:_why_not(h, coast, to), i
    end
    if board:box_of(to) ~= board:box_of(h) then boxes = boxes + 1 end
    h, coast = to, arrive
  end
  return boxes, coast
end

-- why a step from (h, coast) to `to` is no water route
function Net:_why_not(h, coast, to)
  local board = self.board
  local a, b = board:format(h), board:format(to)
  if keel.hex.distance(h, to) ~= 1 then return ("%s is not adjacent to %s"):format(b, a) end
  if not self.states[to] then
    return ("%s is %s: ships may not enter it"):format(b, tostring(board:get_terrain(to)))
  end
  if coast ~= 0 then
    for _, st in ipairs(board:water_neighbors(h, 0) or {}) do
      if st.hex == to then
        return ("%s was entered on another coast: from there no water route leads to %s without crossing land")
          :format(a, b)
      end
    end
  end
  return ("no water route between %s and %s: the hexside between them is land"):format(a, b)
end

--- Naval adjacency: a water route directly between two hexes (from the
--- given coast of `a`; 0 or nil: any). Returns true and the arrival coast.
function Net:adjacent(a, b, coast)
  local boxes, arrive = self:trace({ a, b }, { coast = coast })
  if not boxes then return false end
  return true, arrive
end

--- The hexes naval-adjacent to `hex` (from `coast`; 0 or nil: any), in hex order.
function Net:neighbors(hex, coast)
  local h = resolve(self.board, hex, "hex")
  if not h or not self.states[h] then return {} end
  local out, seen = {}, {}
  for _, st in ipairs(self.board:water_neighbors(h, coast or 0) or {}) do
    if self.states[st.hex] and not seen[st.hex] then seen[st.hex] = true; out[#out + 1] = st.hex end
  end
  sort(out)
  return out
end

--- Sea-box count of the states and steps: nodes, edges.
function Net:count() return self.graph:count() end

-- ---- what rule scripts see (ctx:boxroute) -------------------------------------------

local readonly = require("keel.sandbox").readonly

local function reach_view(r)
  return readonly({
    boxes = function(_, h) return r:boxes(h) end,
    coast = function(_, h) return r:coast(h) end,
    path = function(_, h) return r:path(h) end,
    hexes = function() return r:hexes() end,
  }, "box reach")
end

--- The network of `board` as rule scripts see it: read-only methods, never
--- the board or the graph themselves.
function M.script_view(board, enter)
  if not board then error("boxroute: this game has no board", 2) end
  local net = M.new(board, enter and { enter = enter } or nil)
  if net.view then return net.view end
  net.view = readonly({
    path = function(_, from, to, opts) return net:path(from, to, opts) end,
    trace = function(_, hexes, opts) return net:trace(hexes, opts) end,
    adjacent = function(_, a, b, coast) return net:adjacent(a, b, coast) end,
    neighbors = function(_, h, coast) return net:neighbors(h, coast) end,
    reach = function(_, from, boxes, opts)
      local r, why = net:reach(from, boxes, opts)
      if not r then return nil, why end
      return reach_view(r)
    end,
  }, "boxroute")
  return net.view
end

return M

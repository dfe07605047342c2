--- keel.rules_movement — the movement part of a rule's ctx: keel.movement
-- behind ctx (rule scripts cannot require it). Profiles from table columns,
-- reach sets, paths, step costs, movers, river graphs and sea-box routes
-- (keel.boxroute) over the game's board. keel.rules makes one per rule set and installs its methods in each
-- ctx; scripts see read-only proxies, never an engine, a board or a game.
-- API: doc/api/rules.md; the engine: doc/movement.md.
local sandbox = require "keel.sandbox"
local movement = require "keel.movement"
local boxroute = require "keel.boxroute"

local type, pairs, ipairs, error, tostring, setmetatable = type, pairs, ipairs, error, tostring, setmetatable

local M = {}

local Movement = {}
Movement.__index = Movement

--- The movement context of a rule set (`set:table(name)` gives its tables).
---@param set table a keel.rules set
function M.new(set)
  return setmetatable({
    set = set,
    engines = setmetatable({}, { __mode = "k" }),   -- game -> keel.movement engine
    profiles = {},                                  -- table name -> rows -> column -> profile proxy
    real = setmetatable({}, { __mode = "k" }),      -- profile proxy -> profile
  }, Movement)
end

-- The engine of a game: over its board (what depends on the board alone is
-- shared with every other game on it), owners read from its state.
function Movement:engine(game)
  local eng = self.engines[game]
  if eng then return eng end
  if not game.board then error("movement: this game has no board", 3) end
  eng = movement.new(game.board, game.state)
  self.engines[game] = eng
  return eng
end

-- A profile (from a table column) as scripts see it: read-only.
function Movement:profile(tname, column, rows)
  local by_rows = self.profiles[tname]
  local by_column = by_rows and by_rows[rows]
  local p = by_column and by_column[column]
  if p then return p end
  local t = self.set:table(tname)
  if not t then error(("no table named '%s' in this rule set"):format(tostring(tname)), 3) end
  if type(rows) ~= "table" then error("profile: rows {enter=, cross=, river=, water_route=} expected", 3) end
  if column == nil then error("profile: a column expected", 3) end
  local plain = { enter = {}, cross = {}, river = rows.river, water_route = rows.water_route }
  for k, v in pairs(rows.enter or {}) do plain.enter[k] = v end
  for k, v in pairs(rows.cross or {}) do plain.cross[k] = v end
  local real = movement.profile_from_table(t, column, plain)
  p = sandbox.readonly(real, "profile " .. tostring(column))
  self.real[p] = real
  if not by_rows then by_rows = setmetatable({}, { __mode = "k" }); self.profiles[tname] = by_rows end
  if not by_column then by_column = {}; by_rows[rows] = by_column end
  by_column[column] = p
  return p
end

-- a script's {profile=, friendly=, conditions=, ...} with the real profile
function Movement:what(what)
  if type(what) ~= "table" then error("movement: a group {profile=, ...} or a profile expected", 3) end
  local real = self.real[what]
  if real then return real end
  local p = self.real[what.profile]
  if not p then error("movement: group.profile must come from ctx:profile", 3) end
  -- what the engine reads of a group (keel.movement), a copy: a mover moves it
  return { profile = p, friendly = what.friendly, conditions = what.conditions, hex = what.hex,
           coast = what.coast, allowance = what.allowance, spent = what.spent }
end

-- a mover as scripts see it: its methods, never the engine or the board
local MOVER_METHODS = { "step", "move_along", "move_to", "spend", "resume", "stop", "can_enter" }
local function mover_proxy(mv)
  local p = {}
  for _, m in ipairs(MOVER_METHODS) do
    p[m] = function(_, ...) return mv[m](mv, ...) end
  end
  p.journal = function()   -- the steps so far (a copy: the mover's own list grows)
    local steps, out = mv:journal(), {}
    for i = 1, #steps do out[i] = steps[i] end
    return sandbox.readonly(out, "journal")
  end
  p.state = function() return mv.state end
  p.position = function()
    local g = mv.group
    return { hex = g.hex, coast = g.coast, spent = g.spent, allowance = g.allowance }
  end
  return sandbox.readonly(p, "mover")
end

-- a river graph as scripts see it: one proxy per graph (graphs are shared
-- per board, so rules may key what they work out from one by it)
local river_proxies = setmetatable({}, { __mode = "k" })
local function river_proxy(rg)
  local p = river_proxies[rg]
  if p then return p end
  p = sandbox.readonly({
    has_node = function(_, n) return rg:has_node(n) end,
    nodes = function() return rg:nodes() end,
    cost = function(_, a, b) return rg:cost(a, b) end,
    reach = function(_, start, budget, opts) return rg:reach(start, budget, opts) end,
    path = function(_, from, to, budget, opts) return rg:path(from, to, budget, opts) end,
  }, "river graph")
  river_proxies[rg] = p
  return p
end

--- The movement methods of a ctx, shared by every ctx: `context(ctx,
--- changes)` gives the movement context of the ctx's rule set and the
--- ctx's game (`changes`: the method may go on to change the state).
---@param context fun(ctx: table, changes?: boolean): table, table
---@return table<string, function>
function M.ctx_methods(context)
  local m = {}
  --- ctx:profile(table, column, rows) -> profile (read-only)
  m.profile = function(self, tname, column, rows)
    local mc = context(self)
    return mc:profile(tname, column, rows)
  end
  --- ctx:reach(group|profile, start, budget, opts) -> keel.Reach | nil, reason
  m.reach = function(self, what, start, budget, opts)
    local mc, game = context(self)
    local w = mc:what(what)
    return mc:engine(game):reach(w, start, budget, opts)
  end
  --- ctx:path(group|profile, from, to, budget, opts) -> path, cost | nil, reason
  m.path = function(self, what, from, to, budget, opts)
    local mc, game = context(self)
    local w = mc:what(what)
    return mc:engine(game):path(w, from, to, budget, opts)
  end
  --- ctx:step_cost(group|profile, from, to, coast) -> cost, coast | nil, reason
  m.step_cost = function(self, what, from, to, coast)
    local mc, game = context(self)
    local w = mc:what(what)
    local eng = mc:engine(game)
    local a, why = movement.resolve(eng.board, from)
    if not a then return nil, why end
    local b, why2 = movement.resolve(eng.board, to)
    if not b then return nil, why2 end
    return eng:costmap(w):step(a, b, coast or 0)
  end
  --- ctx:mover(group, callbacks, opts) -> mover (callbacks get the mover and the event)
  m.mover = function(self, group, callbacks, opts)
    local mc, game = context(self, true)
    local w = mc:what(group)
    local eng = mc:engine(game)
    local proxy
    local cbs = {}
    for name, fn in pairs(callbacks or {}) do
      cbs[name] = function(_, ev) return fn(proxy, ev) end
    end
    local mv, why = eng:mover(w, cbs, opts)
    if not mv then return nil, why end
    proxy = mover_proxy(mv)
    return proxy
  end
  --- ctx:river_graph(profile) -> river graph (32.A.6: hexes and hexsides)
  m.river_graph = function(self, profile)
    local mc, game = context(self)
    local real = mc.real[profile]
    if not real then error("river_graph: a profile from ctx:profile expected", 2) end
    return river_proxy(mc:engine(game):river_graph(real))
  end
  --- ctx:zone_reach(from, budget, opts) -> {zone name = moves}: the zones
  --- of the board (adjacent when two of their hexes are) within `budget`
  --- moves of zone `from`; opts.blocked = {name...} never entered,
  --- opts.stop = {name...} entered but not left (the start is left). The
  --- kernel's search over the board's zone graph (keel.movement.area_reach).
  m.zone_reach = function(self, from, budget, opts)
    local mc, game = context(self)
    local o = opts and { blocked = opts.blocked, stop = opts.stop } or nil
    local out, why = movement.area_reach(mc:engine(game):zone_graph(), from, budget, o)
    if not out then return nil, why end
    return out
  end
  --- ctx:boxroute([enter]) -> water routes counted in sea boxes (doc/api/boxroute.md)
  m.boxroute = function(self, enter)
    local _, game = context(self)
    return boxroute.script_view(game.board, enter)
  end
  return m
end

return M

--- keel.play — what the play page (keel serve --http) draws, as plain data:
-- the board once (its SVG as keel.render draws it, where every place is on
-- it), and each unit of a side's view as a counter (keel.counter's SVG)
-- standing at one of those places. Runs in the game's sandbox state, for
-- the protocol's `board` request and `view` with `counters` (keel.serve;
-- doc/protocol.md, doc/viewer.md "The play page").
--
--   local data = require("keel.play").board(run)          -- {svg, size, places, ...}
--   require("keel.play").counters(run, view)              -- adds u.svg, u.place
local ipairs, tostring, pcall, type = ipairs, tostring, pcall, type
local floor = math.floor

local M = {}

--- The hex size the page's board is drawn at (px).
M.SIZE = 44

local function round(v) return floor(v * 10 + 0.5) / 10 end

-- the places of a board: hex labels, zone names, "box N", place names -> {x, y}
local function places_of(board, ctx)
  local out = {}
  local zone_hexes, zone_order = {}, {}
  for _, h in ipairs(board:hexes()) do
    local x, y = ctx:center(h)
    out[board:format(h)] = { round(x), round(y) }
    local z = board:get_zone(h)
    if z then
      if not zone_hexes[z] then zone_hexes[z] = {}; zone_order[#zone_order + 1] = z end
      local zh = zone_hexes[z]
      zh[#zh + 1] = { x, y }
    end
  end
  local function centroid(pts)
    local sx, sy = 0, 0
    for _, p in ipairs(pts) do sx, sy = sx + p[1], sy + p[2] end
    return { round(sx / #pts), round(sy / #pts) }
  end
  for _, z in ipairs(zone_order) do out[z] = centroid(zone_hexes[z]) end
  if board:get_seaboxes() then
    local seen = {}
    for _, h in ipairs(board:hexes()) do
      local b = board:box_of(h)
      if b and not seen[b] then
        seen[b] = true
        local pts = {}
        for i, bh in ipairs(board:box_hexes(b)) do pts[i] = { ctx:center(bh) } end
        if #pts > 0 then out["box " .. tostring(b)] = centroid(pts) end
      end
    end
  end
  for _, p in ipairs(board:places()) do
    if not out[p.name] then
      local x, y = ctx:center(p.hex)
      out[p.name] = { round(x), round(y) }
    end
  end
  return out
end

--- The board as the page draws it: `svg` (keel.render, owners as the game
--- state has them), `size` (px per hex), `pointy`, `counter_w`, `places`
--- (a label -> its centre: every hex, sea zone, sea box "box N" and named
--- place), `spec` (the families' view: types, marks, sides, status),
--- `badge` (a stack's count), `hidden` (true when a rule may hide units
--- from a side: then another side's narration is not shown to a seat).
--- A game without a map: `svg` false and no places.
---@param run table a running scenario (keel.scenario.start)
---@return table
function M.board(run)
  local counter = require "keel.counter"
  local render = require "keel.render"
  local game, set = run.game, run.set
  local board = run.board or game.board
  local spec = set:view()
  local W = M.SIZE * render.COUNTER_SCALE
  local out = { size = M.SIZE, counter_w = W, spec = spec, badge = counter.stack_badge(0, W),
                hidden = (set.queries.group_visibility or set.queries.unit_visibility) and true or false,
                svg = false, places = {} }
  if board then
    -- the owners as drawn: M.counters tells the hexes that changed hands since
    local drawn = {}
    for _, h in ipairs(board:hexes()) do drawn[h] = game:get_owner(h) or false end
    run.play_owners = drawn
    local svg, ctx = render.draw(board, { size = M.SIZE, spec = spec, legend = false,
      owners = function(h) return drawn[h] or nil end })
    out.svg = (svg:gsub("^<%?xml[^>]*>%s*", ""))
    out.pointy = board:numbering().pointy and true or false
    out.places = places_of(board, ctx)
  end
  return out
end

--- Add to each unit of a view (keel.visibility) its counter (`svg`) and
--- the place it is drawn at (`place`, a key of M.board's places; none for
--- a unit aboard another, off the map or dead); to each group the side
--- does not know a marker (`svg`, `place`); and `owners`: the hexes that
--- changed hands since M.board drew the board ({place, side, color}).
---@param run table
---@param view table
function M.counters(run, view)
  local counter = require "keel.counter"
  local render = require "keel.render"
  local game, set = run.game, run.set
  local board = run.board or game.board
  local spec = set:view()
  local W = M.SIZE * render.COUNTER_SCALE
  local zones = board and board:zones() or {}
  for _, u in ipairs(view.units) do
    if u.known then
      local ok, full = pcall(game.get_unit, game, u.id)
      if ok and full then
        u.svg = counter.svg(full, spec, W, ('data-unit="%d"'):format(u.id))
      end
    else
      -- a counter the side cannot read: its side's colour, no name, no values
      u.svg = counter.svg({ id = u.id, side = u.side, name = "?", type = "?", face = "full", hits = 0,
        points = 0, values = {}, markers = {} }, spec, W, ('data-unit="%d"'):format(u.id))
    end
    u.place = M.place_of(board, zones, u)
  end
  -- the hexes that changed hands since the board was drawn (M.board): each
  -- with its owner now (false: none) and that side's colour
  local drawn = run.play_owners
  if board and drawn then
    local owners = {}
    for _, h in ipairs(board:hexes()) do
      local now = game:get_owner(h) or false
      if now ~= drawn[h] then
        owners[#owners + 1] = { place = board:format(h), side = now, color = now and counter.side_color(now, spec) or "#ffffff" }
      end
    end
    view.owners = owners
  end
  -- a group the side does not know: one counter of its side's colour where it is
  for _, g in ipairs(view.groups) do
    if not g.known then
      g.svg = counter.svg({ id = 0, side = g.side, name = "?", type = "?", face = "full", hits = 0,
        points = 0, values = {}, markers = {} }, spec, W, ('data-group="%d"'):format(g.id))
      g.place = M.place_of(board, zones, g)
    end
  end
  return view
end

--- The key of M.board's places a unit or group marker of a view stands at (nil: none drawn).
---@param board userdata|nil
---@param zones table the board's zone names by id
---@param u table
---@return string|nil
function M.place_of(board, zones, u)
  if not board then return nil end
  if (u.loc == "hex" or u.loc == "port") and u.at then
    return u.at
  elseif u.loc == "zone" and u.where ~= nil then
    return type(u.where) == "string" and u.where or zones[u.where]
  elseif u.loc == "box" and u.where ~= nil then
    return "box " .. tostring(u.where)
  end
end

return M

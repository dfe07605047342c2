--- keel.render — draw a board as SVG, one layer at a time.
--
--   local render = require "keel.render"
--   local svg = render.svg(board, { title = "Crete" })
--   local svg = render.svg(board, { layers = { "terrain", "labels", my_layer } })
--
-- A layer is a name from render.layers or a function(ctx) that adds SVG
-- elements with ctx:add(...); ctx gives the board, the pixel layout and
-- helpers (center, corners, side_points, esc). Later issues add units and
-- movement overlays as layers of their own.
-- luacheck: max line length 200
local keel = require "keel"
local counter = require "keel.counter"
local map = require "keel.map"
local sorted_keys = require("keel.keys").sorted

local hex = keel.hex
local fmt, concat, sort = string.format, table.concat, table.sort
local ipairs, type, tostring = ipairs, type, tostring
local huge, min, max = math.huge, math.min, math.max

local M = {}

M.TERRAIN_COLORS = {
  ["all-sea"] = "#9ecae1", coastal = "#c7e3b0", ["all-land"] = "#e9dcb4",
  restricted = "#5f8fb0", lake = "#6fb7d6",
}
M.ZONE_COLOR = "#1f4e79"
M.BOX_COLOR = "#555555"
--- The layers drawn when none are given, bottom to top.
M.DEFAULT_LAYERS = { "terrain", "seaboxes", "zones", "sides", "owners", "ports", "labels",
  "places", "legend" }

--- Escape text for XML.
---@param s any
---@return string
function M.esc(s)
  return (tostring(s):gsub("[&<>\"']", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
    ['"'] = "&quot;", ["'"] = "&apos;" }):gsub("[%z\1-\8\11\12\14-\31]", "?"))
end

local function num(x) return fmt("%.1f", x) end

local Ctx = {}
Ctx.__index = Ctx

--- Add SVG text to the picture.
function Ctx:add(...)
  local out = self.out
  for i = 1, select("#", ...) do out[#out + 1] = select(i, ...) end
end

--- Pixel centre of a hex.
function Ctx:center(h) return hex.to_pixel(self.layout, h) end

--- "x,y x,y ..." corner list of a hex (for a polygon).
function Ctx:corners(h)
  local c = hex.corners(self.layout, h)
  local pts = {}
  for i = 1, 12, 2 do pts[#pts + 1] = num(c[i]) .. "," .. num(c[i + 1]) end
  return concat(pts, " ")
end

--- The two end points of a hexside: x1, y1, x2, y2.
function Ctx:side_points(side)
  local a, b = hex.side_hexes(side)
  local ax, ay = hex.to_pixel(self.layout, a)
  local bx, by = hex.to_pixel(self.layout, b)
  local mx, my = (ax + bx) / 2, (ay + by) / 2
  local c = hex.corners(self.layout, a)
  local best = {}
  for i = 1, 12, 2 do
    local d = (c[i] - mx) ^ 2 + (c[i + 1] - my) ^ 2
    best[#best + 1] = { d, c[i], c[i + 1] }
  end
  sort(best, function(p, q) return p[1] < q[1] end)
  return best[1][2], best[1][3], best[2][2], best[2][3]
end

function Ctx:line(side, style)
  local x1, y1, x2, y2 = self:side_points(side)
  self:add(fmt('<line x1="%s" y1="%s" x2="%s" y2="%s" %s/>\n', num(x1), num(y1), num(x2), num(y2), style))
end

Ctx.esc = M.esc

-- every side between two on-board hexes, once, in board order
local function board_sides(ctx)
  if ctx._sides then return ctx._sides end
  local out = {}
  for _, h in ipairs(ctx.hexes) do
    for d = 0, 2 do
      local s = hex.side_of(h, d)
      local _, o = hex.side_hexes(s)
      if ctx.on[o] then out[#out + 1] = s end
    end
  end
  ctx._sides = out
  return out
end

M.layers = {}

function M.layers.terrain(ctx)
  local b = ctx.board
  ctx:add('<g id="terrain" stroke="#8a8a8a" stroke-width="0.6">\n')
  for _, h in ipairs(ctx.hexes) do
    local t = b:get_terrain(h)
    ctx.used_terrain[t] = true
    ctx:add('<polygon points="', ctx:corners(h), '" fill="', M.TERRAIN_COLORS[t] or "#ffffff", '"/>\n')
  end
  ctx:add('</g>\n')
end

function M.layers.labels(ctx)
  local b = ctx.board
  local fs = ctx.size * 0.28
  ctx:add(fmt('<g id="labels" font-family="sans-serif" font-size="%s" fill="#333" text-anchor="middle">\n', num(fs)))
  for _, h in ipairs(ctx.hexes) do
    local x, y = ctx:center(h)
    local lbl = b:format(h):gsub("^.*:", "")
    ctx:add(fmt('<text x="%s" y="%s">%s</text>\n', num(x), num(y - ctx.size * 0.55), M.esc(lbl)))
  end
  ctx:add('</g>\n')
end

local RIVER_WIDTH = { river = 2, ["major-river"] = 3, ["great-river"] = 4.5, lake = 3 }

function M.layers.sides(ctx)
  local b = ctx.board
  ctx:add('<g id="sides" stroke-linecap="round" fill="none">\n')
  for _, s in ipairs(board_sides(ctx)) do
    local f = b:get_features(s)
    local a, o = hex.side_hexes(s)
    local ta, to = b:get_terrain(a), b:get_terrain(o)
    if f.water == "all-land" and ta ~= "all-land" and to ~= "all-land" and not f.riverine then
      ctx.used.spine = true
      ctx:line(s, 'stroke="#8b5a2b" stroke-width="3"')
    end
    if f.riverine == "canal" then
      ctx.used.canal = true
      ctx:line(s, 'stroke="#0b6e6e" stroke-width="4"')
      ctx:line(s, 'stroke="#e0ffff" stroke-width="1.2" stroke-dasharray="3,2"')
    elseif f.riverine then
      ctx.used[f.riverine] = true
      ctx:line(s, fmt('stroke="#1f6fb5" stroke-width="%s"', RIVER_WIDTH[f.riverine] or 2))
    end
    if f.narrow_strait then
      ctx.used.strait = true
      ctx:line(s, 'stroke="#d62728" stroke-width="5" stroke-opacity="0.8"')
    end
    if f.estuary then
      ctx.used.estuary = true
      ctx:line(s, 'stroke="#17becf" stroke-width="3" stroke-dasharray="2,3"')
    end
    if f.prohibited then
      ctx.used.prohibited = true
      ctx:line(s, 'stroke="#d62728" stroke-width="1.5" stroke-dasharray="6,3"')
    end
  end
  ctx:add('</g>\n')
end

-- Stroke (in the group's style) every hexside whose two hexes are apart by
-- apart(hex_a, hex_b).
local function stroke_borders(ctx, apart)
  for _, s in ipairs(board_sides(ctx)) do
    local a, o = hex.side_hexes(s)
    if apart(a, o) then ctx:line(s, "") end
  end
end

function M.layers.zones(ctx)
  local b = ctx.board
  if #b:zones() == 0 then return end
  ctx.used.zone = true
  ctx:add(fmt('<g id="zones" stroke="%s" stroke-width="2.5" stroke-dasharray="8,4" fill="none">\n', M.ZONE_COLOR))
  stroke_borders(ctx, function(a, o)
    local za, zo = b:get_zone(a), b:get_zone(o)
    return za and zo and za ~= zo
  end)
  -- a name at the first hex of each zone
  local seen = {}
  for _, h in ipairs(ctx.hexes) do
    local z = b:get_zone(h)
    if z and not seen[z] then
      seen[z] = true
      local x, y = ctx:center(h)
      ctx:add(fmt('<text x="%s" y="%s" font-family="sans-serif" font-size="%s" fill="%s" stroke="none" font-style="italic">%s</text>\n',
        num(x - ctx.size * 0.6), num(y + ctx.size * 0.2), num(ctx.size * 0.4), M.ZONE_COLOR, M.esc(z)))
    end
  end
  ctx:add('</g>\n')
end

function M.layers.seaboxes(ctx)
  local b = ctx.board
  if not b:get_seaboxes() then return end
  ctx.used.sea_box = true
  ctx:add(fmt('<g id="seaboxes" stroke="%s" stroke-width="1.6" stroke-dasharray="2,2" fill="none">\n', M.BOX_COLOR))
  stroke_borders(ctx, function(a, o) return b:box_of(a) ~= b:box_of(o) end)
  ctx:add('</g>\n')
end

-- Who owns each hex (ctx.owner_of, see M.svg opts.owners), in the side's
-- counter colour (keel.counter.side_color: the families' view spec first).
function M.layers.owners(ctx)
  local owned, names = {}, {}
  for _, h in ipairs(ctx.hexes) do
    local o = ctx.owner_of(h)
    if o then
      if not ctx.used_owner[o] then ctx.used_owner[o] = true; names[#names + 1] = o end
      owned[#owned + 1] = { h, o }
    end
  end
  if #owned == 0 then return end
  local color = {}
  for _, n in ipairs(names) do color[n] = counter.side_color(n, ctx.spec) end
  ctx.owner_colors = color
  ctx:add('<g id="owners" stroke="none">\n')
  local r = ctx.size * 0.13
  for _, ho in ipairs(owned) do
    local x, y = ctx:center(ho[1])
    ctx:add(fmt('<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>\n',
      num(x + ctx.size * 0.35), num(y + ctx.size * 0.3), num(2 * r), num(2 * r), color[ho[2]]))
  end
  ctx:add('</g>\n')
end

local PORT_R = { minor = 0.16, standard = 0.22, major = 0.28, great = 0.34 }

function M.layers.ports(ctx)
  local b = ctx.board
  ctx:add('<g id="ports" stroke="#000" stroke-width="1">\n')
  for _, p in ipairs(b:ports()) do
    local x, y = ctx:center(p.hex)
    local r = ctx.size * PORT_R[p.size]
    if p.inland then
      ctx.used.inland = true
      ctx:add(fmt('<rect x="%s" y="%s" width="%s" height="%s" fill="#fff"/>\n', num(x - r), num(y - r), num(2 * r), num(2 * r)))
    else
      ctx.used.port = true
      ctx:add(fmt('<circle cx="%s" cy="%s" r="%s" fill="#fff"/>\n', num(x), num(y), num(r)))
    end
    ctx:add(fmt('<circle cx="%s" cy="%s" r="%s" fill="#000"/>\n', num(x), num(y), num(r * 0.35)))
  end
  ctx:add('</g>\n')
end

-- The map's words a player must read: place names and coast-defence levels.
-- M.draw draws this layer over every other (counters too); where a stack
-- covers a hex (ctx.covered, filled by units_layer), its name goes below
-- the stack and its CD level to the stack's left. Each text carries the
-- hex (`data-hex`) and the shift when covered (`data-covered`: "dx,dy"),
-- so keel view moves them as counters come and go.
function M.layers.places(ctx)
  local b = ctx.board
  local s = ctx.size
  local w = s * M.COUNTER_SCALE
  local covered = ctx.covered or {}
  local name_y, cd_x, cd_y = s * 0.62, -s * (ctx.layout.pointy and 0.8 or 0.9), s * 0.1
  ctx:add(fmt('<g id="places" font-family="sans-serif" font-weight="bold" fill="#111" stroke="#fff" stroke-width="2.5" paint-order="stroke">\n'))
  local function text(h, x, y, dx, dy, attrs, body)
    local lbl = M.esc(b:format(h) or h)
    local c = covered[h]
    local shift = c and fmt(' transform="translate(%s,%s)"', num(dx), num(dy)) or ""
    ctx:add(fmt('<text x="%s" y="%s" data-hex="%s" data-covered="%s,%s"%s %s>%s</text>\n',
      num(x), num(y), lbl, num(dx), num(dy), shift, attrs, body))
  end
  -- a place named like a sea zone is the zone's anchor (zone_anchors): the
  -- zones layer names the zone already, so the name is not written twice
  local zone_name = {}
  for _, z in ipairs(b:zones()) do zone_name[z] = true end
  for _, p in ipairs(b:places()) do
    if not zone_name[p.name] then
      local x, y = ctx:center(p.hex)
      -- covered: just below the stack's bottom edge
      local dy = (covered[p.hex] or w / 2) + s * 0.36 * 0.9 - name_y
      text(p.hex, x, y + name_y, 0, math.max(0, dy), fmt('font-size="%s" text-anchor="middle"', num(s * 0.36)), M.esc(p.name))
    end
  end
  for _, h in ipairs(ctx.hexes) do
    local cd = b:get_cd(h)
    if cd > 0 then
      ctx.used.cd = true
      local x, y = ctx:center(h)
      -- at the left corner, clear of the place name below the port and the hex
      -- number above; covered: left of the stack
      local dx = math.min(0, -w / 2 - s * 0.05 - s * 0.55 - cd_x)
      text(h, x + cd_x, y + cd_y, dx, 0, fmt('font-size="%s" fill="#900" font-weight="normal"', num(s * 0.3)), "CD" .. cd)
    end
  end
  ctx:add('</g>\n')
end

local LEGEND_LINES = {
  { "spine", "all-land hexside", 'stroke="#8b5a2b" stroke-width="3"' },
  { "river", "river", 'stroke="#1f6fb5" stroke-width="2"' },
  { "major-river", "major river", 'stroke="#1f6fb5" stroke-width="3"' },
  { "great-river", "great river", 'stroke="#1f6fb5" stroke-width="4.5"' },
  { "lake", "lake hexside", 'stroke="#1f6fb5" stroke-width="3"' },
  { "canal", "canal", 'stroke="#0b6e6e" stroke-width="4"' },
  { "strait", "narrow strait", 'stroke="#d62728" stroke-width="5" stroke-opacity="0.8"' },
  { "estuary", "estuary", 'stroke="#17becf" stroke-width="3" stroke-dasharray="2,3"' },
  { "prohibited", "prohibited hexside", 'stroke="#d62728" stroke-width="1.5" stroke-dasharray="6,3"' },
  { "zone", "sea zone border", 'stroke="' .. M.ZONE_COLOR .. '" stroke-width="2.5" stroke-dasharray="8,4"' },
  { "sea_box", "sea box outline", 'stroke="' .. M.BOX_COLOR .. '" stroke-width="1.6" stroke-dasharray="2,2"' },
}

-- ---- overlays: units and a path (layers made from game data) ----------------

--- Counters on the board (keel.counter draws each): a layer that draws
--- `units` (unit snapshots with `hex`, as game_units gives them), stacked
--- in the order given, each stack offset up and right with its count on
--- top. `spec` is what the families declare (set:view()).
---@param units table[] {hex: integer, name, type, side, face?, hits?, values?, markers?, cargo?}
---@param spec? table
---@return function layer
function M.units_layer(units, spec)
  return function(ctx)
    spec = spec or ctx.spec or counter.merge {}
    local stacks, order = {}, {}
    for _, u in ipairs(units) do
      if not stacks[u.hex] then stacks[u.hex] = {}; order[#order + 1] = u.hex end
      local st = stacks[u.hex]
      st[#st + 1] = u
    end
    ctx.unit_spec = spec
    local w = ctx.size * M.COUNTER_SCALE
    ctx:add('<g id="units">\n')
    ctx.covered = ctx.covered or {}
    for _, hx in ipairs(order) do
      local x, y = ctx:center(hx)
      local st = stacks[hx]
      ctx.covered[hx] = w / 2   -- how far below the hex centre the stack reaches
      ctx:add(fmt('<g class="stack" data-hex="%s">', M.esc(ctx.board:format(hx) or hx)))
      for i, u in ipairs(st) do
        ctx.used_unit_side[u.side or "?"] = true
        local d = (i - 1) * w * 0.12
        ctx:add(fmt('<g transform="translate(%s,%s)">', num(x + d), num(y - d)),
          counter.svg(u, spec, w, fmt('data-name="%s"', M.esc(u.name))))
        if i == #st and #st > 1 then ctx:add(counter.stack_badge(#st, w)) end
        ctx:add('</g>')
      end
      ctx:add('</g>\n')
    end
    ctx:add('</g>\n')
  end
end

--- A counter's width, in hex sizes.
M.COUNTER_SCALE = 1.25

--- The counter colour of a side (keel.counter.side_color).
function M.unit_color(side, spec) return counter.side_color(side, spec) end

--- A path (a list of hexes, first to last) drawn as a line with an arrow.
---@param hexes integer[]
---@return function layer
function M.path_layer(hexes)
  return function(ctx)
    if #hexes < 2 then return end
    ctx.used.path = true
    local pts = {}
    for _, hx in ipairs(hexes) do
      local x, y = ctx:center(hx)
      pts[#pts + 1] = num(x) .. "," .. num(y)
    end
    ctx:add('<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">',
      '<path d="M0,0 L10,5 L0,10 z" fill="#e07000"/></marker></defs>\n')
    ctx:add(fmt('<polyline id="path" points="%s" fill="none" stroke="#e07000" stroke-width="%s" stroke-dasharray="6,3" marker-end="url(#arrow)"/>\n',
      concat(pts, " "), num(ctx.size * 0.15)))
  end
end

--- The units of a game that stand on the board (at sea, in port, or in a
--- zone: see zone_anchors), in id
--- order, as units_layer wants them: game:unit snapshots with `hex`, and
--- `cargo`, the number of units they carry.
---@param game table a keel.game
function M.game_units(game)
  local out, carried = {}, {}
  for _, id in ipairs(game:units()) do
    local kind, where = game:get(id, "loc")
    if kind == "unit" and where then carried[where] = (carried[where] or 0) + 1 end
  end
  local anchors
  for _, id in ipairs(game:units()) do
    local kind, where = game:get(id, "loc")
    local at
    if (kind == "hex" or kind == "port") and where then at = where
    elseif kind == "zone" and where and game.board then   -- an area: drawn at its anchor
      anchors = anchors or M.zone_anchors(game.board)
      at = anchors[where]
    end
    if at then
      local u = game:get_unit(id)
      u.hex, u.cargo = at, carried[id]
      out[#out + 1] = u
    end
  end
  return out
end

--- Where units in a zone (an area: sea zone or territory) are drawn: the
--- place named like the zone, else the zone's middle hex (in hex order).
--- Returns {[zone index] = hex}.
function M.zone_anchors(board)
  local hexes, index = {}, {}
  local names = board:zones()
  for i, name in ipairs(names) do index[name] = i; hexes[i] = {} end
  for _, h in ipairs(board:hexes()) do
    local z = board:get_zone(h)
    if z then local l = hexes[index[z]]; l[#l + 1] = h end
  end
  local out = {}
  for i, name in ipairs(names) do
    local p = board:find_place(name)
    if p then out[i] = p
    elseif #hexes[i] > 0 then
      sort(hexes[i])
      out[i] = hexes[i][(#hexes[i] + 1) // 2]
    end
  end
  return out
end

function M.layers.legend(ctx)
  local x0, y = ctx.legend_x, ctx.margin
  local lines = {}
  local function row(draw, text)
    lines[#lines + 1] = { draw, text }
  end
  for _, t in ipairs { "all-sea", "coastal", "all-land", "restricted", "lake" } do
    if ctx.used_terrain[t] then
      row(function(x, yy)
        return fmt('<rect x="%s" y="%s" width="18" height="12" fill="%s" stroke="#8a8a8a"/>', num(x), num(yy - 10), M.TERRAIN_COLORS[t])
      end, t)
    end
  end
  for _, l in ipairs(LEGEND_LINES) do
    if ctx.used[l[1]] then
      row(function(x, yy)
        return fmt('<line x1="%s" y1="%s" x2="%s" y2="%s" %s/>', num(x), num(yy - 4), num(x + 18), num(yy - 4), l[3])
      end, l[2])
    end
  end
  if ctx.used.port then
    row(function(x, yy) return fmt('<circle cx="%s" cy="%s" r="6" fill="#fff" stroke="#000"/>', num(x + 9), num(yy - 4)) end,
      "port (size: minor to great)")
  end
  if ctx.used.inland then
    row(function(x, yy) return fmt('<rect x="%s" y="%s" width="12" height="12" fill="#fff" stroke="#000"/>', num(x + 3), num(yy - 10)) end,
      "inland port")
  end
  if ctx.used.cd then
    row(function(x, yy) return fmt('<text x="%s" y="%s" font-size="10" fill="#900">CD</text>', num(x), num(yy)) end,
      "coast-defence level")
  end
  for _, sd in ipairs(sorted_keys(ctx.used_unit_side)) do
    row(function(x, yy)
      return fmt('<rect x="%s" y="%s" width="18" height="10" rx="2" fill="%s" stroke="#000"/>', num(x), num(yy - 9),
        M.unit_color(sd, ctx.unit_spec))
    end, sd .. " unit")
  end
  if ctx.used.path then
    row(function(x, yy)
      return fmt('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e07000" stroke-width="3" stroke-dasharray="6,3"/>', num(x), num(yy - 4), num(x + 18), num(yy - 4))
    end, "last move")
  end
  for _, o in ipairs(sorted_keys(ctx.used_owner)) do
    row(function(x, yy)
      return fmt('<rect x="%s" y="%s" width="10" height="10" fill="%s"/>', num(x + 4), num(yy - 9), ctx.owner_colors[o])
    end, "owned by " .. o)
  end
  local h = 28 + 18 * #lines
  ctx:add(fmt('<g id="legend" font-family="sans-serif" font-size="12">\n<rect x="%s" y="%s" width="%s" height="%s" fill="#fff" stroke="#444"/>\n',
    num(x0), num(y), num(ctx.legend_w - 10), num(h)))
  ctx:add(fmt('<text x="%s" y="%s" font-weight="bold">Legend</text>\n', num(x0 + 8), num(y + 18)))
  for i, l in ipairs(lines) do
    local yy = y + 20 + 18 * i
    ctx:add(l[1](x0 + 8, yy), fmt('<text x="%s" y="%s">%s</text>\n', num(x0 + 34), num(yy), M.esc(l[2])))
  end
  ctx:add('</g>\n')
  ctx.legend_h = h
end

-- The status box: what the families declare as status (keel.counter
-- status_lines), under the legend in the same column.
local function draw_status(ctx, lines)
  if not lines or #lines == 0 then return end
  local x0, y = ctx.legend_x, ctx.margin + (ctx.legend_h and ctx.legend_h + 10 or 0)
  local h = 28 + 18 * #lines
  ctx:add(fmt('<g id="status" font-family="sans-serif" font-size="12">\n<rect x="%s" y="%s" width="%s" height="%s" fill="#fff" stroke="#444"/>\n',
    num(x0), num(y), num(ctx.legend_w - 10), num(h)))
  ctx:add(fmt('<text x="%s" y="%s" font-weight="bold">Status</text>\n', num(x0 + 8), num(y + 18)))
  for i, l in ipairs(lines) do
    local yy = y + 20 + 18 * i
    ctx:add(fmt('<text x="%s" y="%s">%s</text><text x="%s" y="%s" font-weight="bold" text-anchor="end">%s</text>\n',
      num(x0 + 8), num(yy), M.esc(tostring(l.label)), num(x0 + ctx.legend_w - 18), num(yy), M.esc(tostring(l.value))))
  end
  ctx:add('</g>\n')
  ctx.status_h = h + 10
end

-- The hexes that set the picture's bounds with opts.around (a hex or a
-- list of hexes): those on the board within opts.radius of one, in board
-- order (nil: no frame, the whole board). Found from the around hexes'
-- disks, never by walking the board: a big board costs what is framed.
local function framed(board, opts)
  local around = opts.around
  if around == nil then return nil end
  if type(around) ~= "table" then around = { around } end
  if #around == 0 then return nil end
  local r = opts.radius or 3
  local seen, out = {}, {}
  for _, a in ipairs(around) do
    for _, h in ipairs(hex.spiral(a, r)) do
      if not seen[h] and board:contains(h) then seen[h] = true; out[#out + 1] = h end
    end
  end
  if #out == 0 then return nil end
  sort(out)
  return out
end

-- The hexes a framed picture draws: every hex of the board whose centre
-- lies within two hex sizes of the frame's rectangle (what could show in
-- it: a hex, its sides, its texts), enumerated over the rectangle in the
-- board's offset coordinates, row by row.
local function hexes_in(board, layout, minx, miny, maxx, maxy, pad)
  local n = board:numbering()
  local conv = (n.shift == "even" and "even-" or "odd-") .. (n.pointy and "r" or "q")
  local c0, r0, c1, r1 = huge, huge, -huge, -huge
  for _, p in ipairs { { minx - pad, miny - pad }, { maxx + pad, miny - pad }, { minx - pad, maxy + pad },
                       { maxx + pad, maxy + pad } } do
    local c, r = hex.to_offset(hex.round(hex.from_pixel(layout, p[1], p[2])), conv)
    c0, c1, r0, r1 = min(c0, c), max(c1, c), min(r0, r), max(r1, r)
  end
  local out = {}
  for r = r0 - 1, r1 + 1 do
    for c = c0 - 1, c1 + 1 do
      local ok, h = pcall(hex.from_offset, conv, c, r)
      if ok and board:contains(h) then
        local x, y = hex.to_pixel(layout, h)
        if x >= minx - pad and x <= maxx + pad and y >= miny - pad and y <= maxy + pad then out[#out + 1] = h end
      end
    end
  end
  return out
end

--- Draw a board as an SVG document.
---@param board userdata a finished keel.Board
---@param opts? table { size = px per hex (20), title = string, layers = {name|function, ...},
---   extra_layers = {name|function, ...} (drawn after the layers, under the place names),
---   legend = false to drop it, spec = the families' view spec (set:view(): side colours,
---   what a counter shows),
---   owners = function(hex) -> side|nil (a game's: its state's owners; default: the owners the
---   board's map file declares, keel.map.get_owners),
---   around = hex or {hex, ...} and radius = N (default 3): frame the picture on the hexes within N
---   of them (the rest is clipped), status = {{label=, value=}, ...} (a status box under the legend) }
---@return string svg
function M.svg(board, opts)
  return (M.draw(board, opts))
end

--- Draw a board as M.svg does, and give the drawing context too: its
--- layout and center(hex) place more things over the picture (keel view).
---@return string svg, table ctx
function M.draw(board, opts)
  opts = opts or {}
  local size = opts.size or 20
  local n = board:numbering()
  local layout = { pointy = n.pointy, size = size, origin = { 0, 0 } }
  local frame = framed(board, opts)
  local hexes = frame == nil and board:hexes() or nil
  local minx, miny, maxx, maxy = huge, huge, -huge, -huge
  for _, h in ipairs(frame or hexes) do
    local c = hex.corners(layout, h)
    for i = 1, 12, 2 do
      minx, maxx = min(minx, c[i]), max(maxx, c[i])
      miny, maxy = min(miny, c[i + 1]), max(maxy, c[i + 1])
    end
  end
  if frame then hexes = hexes_in(board, layout, minx, miny, maxx, maxy, 2 * size) end
  if #hexes == 0 then minx, miny, maxx, maxy = 0, 0, 1, 1 end
  local margin = 10
  local title_h = opts.title and 26 or 0
  layout.origin = { margin - minx, margin + title_h - miny }
  local map_w, map_h = maxx - minx, maxy - miny
  local legend_w = opts.legend == false and 0 or 210
  local ctx = setmetatable({
    board = board, layout = layout, size = size, hexes = hexes, margin = margin + title_h,
    legend_x = margin * 2 + map_w, legend_w = legend_w, out = {}, used = {}, used_terrain = {},
    used_owner = {}, used_unit_side = {}, owner_colors = {}, on = {}, owner_of = opts.owners,
    spec = opts.spec,
  }, Ctx)
  if not ctx.owner_of then
    -- the owners the map declares, as a new game starts with them (a base
    -- shared per board: nothing per hex)
    local st = keel.state.new()
    map.seed_owners(board, st)
    ctx.owner_of = function(h) return st:get_owner(h) end
  end
  if frame then
    ctx.on = setmetatable({}, { __index = function(_, h) return board:contains(h) end })
  else
    for _, h in ipairs(hexes) do ctx.on[h] = true end
  end
  -- the extra layers (counters, a path) go over the board; place names
  -- over them (M.layers.places), the legend last
  local layers, top = {}, {}
  for _, l in ipairs(opts.layers or M.DEFAULT_LAYERS) do
    if l == "places" then top[#top + 1] = l else layers[#layers + 1] = l end
  end
  for _, l in ipairs(opts.extra_layers or {}) do layers[#layers + 1] = l end
  for _, l in ipairs(top) do layers[#layers + 1] = l end
  -- the legend goes last, so it knows what the other layers drew
  local body = {}
  for _, l in ipairs(layers) do
    if l ~= "legend" or opts.legend ~= false then
      local fn = type(l) == "function" and l or M.layers[l]
      if not fn then error(("render: unknown layer '%s'"):format(tostring(l)), 2) end
      if l ~= "legend" then fn(ctx) end
    end
  end
  body[1] = concat(ctx.out)
  if frame then   -- a framed picture: what lies outside the frame is clipped
    body[1] = fmt('<clipPath id="frame"><rect x="%s" y="%s" width="%s" height="%s"/></clipPath>\n<g clip-path="url(#frame)">\n',
      num(margin), num(margin + title_h), num(map_w), num(map_h)) .. body[1] .. '</g>\n'
  end
  ctx.out = {}
  local has_legend = opts.legend ~= false
  for _, l in ipairs(layers) do if l == "legend" and has_legend then M.layers.legend(ctx) end end
  if opts.status and #opts.status > 0 and legend_w == 0 then
    legend_w = 210
    ctx.legend_w = legend_w
  end
  draw_status(ctx, opts.status)
  body[2] = concat(ctx.out)
  local width = margin * 3 + map_w + legend_w
  local height = max(margin * 2 + title_h + map_h, (ctx.legend_h or 0) + (ctx.status_h or 0) + margin * 2 + title_h)
  local head = fmt('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">\n',
    math.ceil(width), math.ceil(height), math.ceil(width), math.ceil(height))
  head = head .. fmt('<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>\n', math.ceil(width), math.ceil(height))
  if opts.title then
    head = head .. fmt('<text x="%d" y="24" font-family="sans-serif" font-size="18" font-weight="bold">%s</text>\n', margin, M.esc(opts.title))
  end
  ctx.width, ctx.height = math.ceil(width), math.ceil(height)
  return head .. body[1] .. body[2] .. "</svg>\n", ctx
end

return M

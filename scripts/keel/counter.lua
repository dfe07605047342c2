--- keel.counter — a unit drawn as a wargame counter (SVG), and the view
-- declarations of rule families that say what a counter shows.
--
--   local counter = require "keel.counter"
--   local spec = counter.merge { fam1.view, fam2.view }      -- or set:view()
--   local svg = counter.svg(unit, spec, 48)                   -- a <g> at 0,0, 48 px wide
--
-- A counter is a square in its side's colour: the designation (the unit's
-- name) on top, the type symbol in the middle, along the bottom the values
-- the family declares for the type joined by dashes ("5-3-8") or, with
-- none, the type code; the damaged face tinted and striped; hits as a red
-- disc at the top right; markers and declared marks as chips along the
-- bottom edge; carried cargo as a "+n" badge at the bottom left.
--
-- A family declares in its manifest (doc/viewer.md):
--
--   view = {
--     types = { TF = { symbol = "warship", title = "task force", values = { "strength" } } },
--     marks = { { marker = "step", label = "-%d Step" }, { value = "reacting", label = "React" } },
--     sides = { Allied = "#1f4e9c" },
--     status = { { key = "suez", label = "Suez Canal" }, { keyed = "vp", label = "VP %s" } },
--   }
-- luacheck: max line length 160
local fmt, concat = string.format, table.concat
local type, pairs, ipairs, tostring = type, pairs, ipairs, tostring

local M = {}

local function num(x) return fmt("%.1f", x) end

local function esc(s)
  return (tostring(s):gsub("[&<>\"']", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
    ['"'] = "&quot;", ["'"] = "&apos;" }):gsub("[%z\1-\8\11\12\14-\31]", "?"))
end
M.esc = esc

-- ---- type symbols ----------------------------------------------------------------
-- Each draws inside a box of width w centred on 0,0 (height about w * 0.6),
-- in colour c (white on the counter). Naval symbols are silhouettes; land
-- and air symbols are NATO-style frames.

local function frame(w, c, inner)
  local fw, fh = w, w * 0.62
  return fmt('<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="%s" stroke-width="%s"/>',
    num(-fw / 2), num(-fh / 2), num(fw), num(fh), c, num(w * 0.06)) .. (inner and inner(fw, fh) or "")
end

local function poly(pts, w, c)
  local out = {}
  for i = 1, #pts, 2 do out[#out + 1] = num(pts[i] * w) .. "," .. num(pts[i + 1] * w) end
  return fmt('<polygon points="%s" fill="%s"/>', concat(out, " "), c)
end

local function line(x1, y1, x2, y2, c, sw)
  return fmt('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"/>', num(x1), num(y1), num(x2), num(y2), c, num(sw))
end

local HULL = { -0.5, 0.05, 0.5, 0.05, 0.4, 0.22, -0.42, 0.22 }

--- Symbol name -> function(w, colour) -> SVG text.
M.SYMBOLS = {
  warship = function(w, c)   -- hull, superstructure, two turrets
    return poly(HULL, w, c) .. poly({ -0.12, 0.05, -0.12, -0.12, 0.06, -0.12, 0.1, -0.22, 0.14, -0.22, 0.14, 0.05 }, w, c)
      .. poly({ -0.36, 0.05, -0.34, -0.04, -0.22, -0.04, -0.2, 0.05 }, w, c)
      .. poly({ 0.22, 0.05, 0.24, -0.04, 0.36, -0.04, 0.38, 0.05 }, w, c)
  end,
  carrier = function(w, c)   -- flat deck, island
    return poly({ -0.5, -0.02, 0.5, -0.02, 0.42, 0.08, 0.38, 0.2, -0.4, 0.2, -0.44, 0.08 }, w, c)
      .. poly({ 0.14, -0.02, 0.14, -0.18, 0.24, -0.18, 0.24, -0.02 }, w, c)
  end,
  transport = function(w, c) -- hull, cargo, funnel
    return poly(HULL, w, c) .. poly({ -0.34, 0.05, -0.34, -0.08, 0.0, -0.08, 0.0, 0.05 }, w, c)
      .. poly({ 0.14, 0.05, 0.14, -0.1, 0.3, -0.1, 0.3, 0.05 }, w, c)
      .. poly({ 0.04, -0.08, 0.04, -0.22, 0.1, -0.22, 0.1, -0.08 }, w, c)
  end,
  landing = function(w, c)   -- flat hull with a bow ramp
    return poly({ -0.46, 0.0, 0.3, 0.0, 0.48, -0.14, 0.5, -0.1, 0.36, 0.2, -0.46, 0.2 }, w, c)
      .. poly({ -0.42, 0.0, -0.42, -0.12, -0.26, -0.12, -0.26, 0.0 }, w, c)
  end,
  submarine = function(w, c) -- cigar hull, conning tower
    return fmt('<ellipse cx="0" cy="%s" rx="%s" ry="%s" fill="%s"/>', num(w * 0.08), num(w * 0.5), num(w * 0.1), c)
      .. poly({ -0.08, 0.0, -0.06, -0.16, 0.08, -0.16, 0.1, 0.0 }, w, c)
  end,
  flotilla = function(w, c)  -- two small craft
    return poly({ -0.5, -0.06, -0.04, -0.06, -0.1, 0.06, -0.46, 0.06 }, w, c)
      .. poly({ 0.04, 0.08, 0.5, 0.08, 0.44, 0.2, 0.08, 0.2 }, w, c)
  end,
  infantry = function(w, c)
    return frame(w, c, function(fw, fh)
      return line(-fw / 2, -fh / 2, fw / 2, fh / 2, c, w * 0.05) .. line(-fw / 2, fh / 2, fw / 2, -fh / 2, c, w * 0.05)
    end)
  end,
  armor = function(w, c)
    return frame(w, c, function(fw, fh)
      return fmt('<rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="none" stroke="%s" stroke-width="%s"/>',
        num(-fw * 0.32), num(-fh * 0.24), num(fw * 0.64), num(fh * 0.48), num(fh * 0.24), c, num(w * 0.05))
    end)
  end,
  mech = function(w, c)
    return frame(w, c, function(fw, fh)
      return line(-fw / 2, -fh / 2, fw / 2, fh / 2, c, w * 0.05) .. line(-fw / 2, fh / 2, fw / 2, -fh / 2, c, w * 0.05)
        .. fmt('<rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="none" stroke="%s" stroke-width="%s"/>',
          num(-fw * 0.32), num(-fh * 0.24), num(fw * 0.64), num(fh * 0.48), num(fh * 0.24), c, num(w * 0.05))
    end)
  end,
  recon = function(w, c)
    return frame(w, c, function(fw, fh) return line(-fw / 2, fh / 2, fw / 2, -fh / 2, c, w * 0.05) end)
  end,
  artillery = function(w, c)
    return frame(w, c, function(_, fh) return fmt('<circle cx="0" cy="0" r="%s" fill="%s"/>', num(fh * 0.18), c) end)
  end,
  headquarters = function(w, c)
    return frame(w, c, function(_, fh)
      return fmt('<text x="0" y="%s" font-size="%s" font-weight="bold" fill="%s" text-anchor="middle">HQ</text>',
        num(fh * 0.22), num(fh * 0.6), c)
    end)
  end,
  supply = function(w, c)
    return frame(w, c, function(fw, fh) return line(-fw / 2, fh * 0.22, fw / 2, fh * 0.22, c, w * 0.05) end)
  end,
  air = function(w, c)       -- a propeller between wings
    return frame(w, c, function(fw, fh)
      return fmt('<path d="M%s,0 Q%s,%s 0,0 Q%s,%s %s,0 Q%s,%s 0,0 Q%s,%s %s,0 z" fill="%s"/>',
        num(-fw * 0.34), num(-fw * 0.17), num(-fh * 0.3), num(fw * 0.17), num(-fh * 0.3), num(fw * 0.34),
        num(fw * 0.17), num(fh * 0.3), num(-fw * 0.17), num(fh * 0.3), num(-fw * 0.34), c)
    end)
  end,
  coastal = function(w, c)   -- a coast-defence battery: a gun on a bastion
    return poly({ -0.4, 0.2, -0.3, -0.04, 0.3, -0.04, 0.4, 0.2 }, w, c) .. line(0, -w * 0.04, w * 0.36, -w * 0.22, c, w * 0.07)
  end,
}

-- silhouettes are drawn larger than frames
local SILHOUETTE = { warship = true, carrier = true, transport = true, landing = true, submarine = true,
                     flotilla = true, coastal = true }

--- The symbol names a family may give its unit types, sorted.
function M.symbol_names()
  local out = {}
  for k in pairs(M.SYMBOLS) do out[#out + 1] = k end
  table.sort(out)
  return out
end

-- ---- view declarations (keel.view_spec) -----------------------------------------

local view_spec = require "keel.view_spec"
M.check, M.merge, M.KERNEL_STATUS = view_spec.check, view_spec.merge, view_spec.KERNEL_STATUS

-- the symbols drawn are exactly those a view may name
do
  local drawn = M.symbol_names()
  if concat(drawn, " ") ~= concat(view_spec.SYMBOL_NAMES, " ") then
    error(("keel.counter draws the symbols %s, keel.view_spec names %s"):format(concat(drawn, ", "),
      concat(view_spec.SYMBOL_NAMES, ", ")))
  end
end

--- The status lines of a game: each declared global that has a value;
--- for a keyed map, its number of entries (`count`) or one line per entry,
--- the label's %s filled with the key's parts ({ keyed = "vp", label =
--- "victory points (%s)" } -> key "vp[Allied]", label "victory points
--- (Allied)"), in the declared order.
---@param status table[] the merged spec's `status`
---@param state table a keel.State (its globals and keyed values)
---@return {key: string, label: string, value: any}[]
function M.status_lines(status, state)
  local globals = state:globals()
  local out = {}
  for _, s in ipairs(status) do
    if s.keyed then
      local n = state:count_keyed(s.keyed)
      if s.count then
        if n > 0 then out[#out + 1] = { key = s.keyed .. "#", label = s.label, value = n } end
      else
        for i = 1, n do
          local key, v = state:at_keyed(s.keyed, i)
          local parts = {}
          for j, p in ipairs(type(key) == "table" and key or { key }) do parts[j] = tostring(p) end
          local rest = concat(parts, " ")
          local label = s.label:find("%s", 1, true) and s.label:gsub("%%s", (rest:gsub("%%", "%%%%")))
            or (s.label .. " " .. rest)
          out[#out + 1] = { key = s.keyed .. "[" .. concat(parts, ",") .. "]", label = label, value = v }
        end
      end
    elseif globals[s.key] ~= nil then
      out[#out + 1] = { key = s.key, label = s.label, value = globals[s.key] }
    end
  end
  return out
end

-- ---- colours ----------------------------------------------------------------------

M.SIDE_COLORS = { Allied = "#1f4e9c", Axis = "#7a1f1f" }
local PALETTE = { "#2e6b30", "#6b4c9a", "#8a5a00", "#1b6f78", "#9a3b6b", "#555555" }

--- The counter colour of a side: the family's, then keel's (Allied, Axis),
--- then one of a palette chosen by the name (the same name, the same colour).
---@param side? string
---@param spec? table
function M.side_color(side, spec)
  if side == nil then return "#555555" end
  local c = spec and spec.sides and spec.sides[side] or M.SIDE_COLORS[side]
  if c then return c end
  local h = 0
  for i = 1, #side do h = (h * 31 + side:byte(i)) % 65521 end
  return PALETTE[h % #PALETTE + 1]
end

-- mix a "#rrggbb" colour with white (t = 0: the colour, 1: white)
local function tint(c, t)
  local r, g, b = tonumber(c:sub(2, 3), 16), tonumber(c:sub(4, 5), 16), tonumber(c:sub(6, 7), 16)
  local function m(x) return math.floor(x + (255 - x) * t + 0.5) end
  return fmt("#%02x%02x%02x", m(r), m(g), m(b))
end

-- ---- what a counter shows ------------------------------------------------------

local function value_text(v)
  if math.type(v) == "float" and v == math.floor(v) then v = math.tointeger(v) end
  if v == true then return "*" end
  return tostring(v)
end

--- The marks of a unit as chip texts, in order: declared marks first, then
--- every other marker with a count (its key, and the count when above 1).
---@param u table a unit snapshot (game:get_unit(id)): values, markers
---@param spec table
---@return string[]
function M.marks(u, spec)
  local out, done = {}, {}
  for _, m in ipairs(spec.marks or {}) do
    if m.marker then
      done[m.marker] = true
      local n = u.markers and u.markers[m.marker] or 0
      if n > 0 then out[#out + 1] = m.label and m.label:format(n) or (n > 1 and (m.marker .. " " .. n) or m.marker) end
    else
      local v = u.values and u.values[m.value]
      if v ~= nil and v ~= false and v ~= 0 then
        local ok, text = pcall(string.format, m.label or "%s", v)
        out[#out + 1] = ok and text or m.value
      end
    end
  end
  local keys = {}
  for k in pairs(u.markers or {}) do if not done[k] then keys[#keys + 1] = k end end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local n = u.markers[k]
    if n > 0 then out[#out + 1] = n > 1 and (k:upper() .. " " .. n) or k:upper() end
  end
  return out
end

--- The values line of a counter: the declared values of its type joined by
--- dashes, or nil when the type declares none or the unit has none of them.
---@param u table
---@param spec table
---@return string|nil
function M.values_text(u, spec)
  local d = spec.types and spec.types[u.type]
  if not d or not d.values then return nil end
  local parts, any = {}, false
  for _, k in ipairs(d.values) do
    local v
    if k == "points" or k == "hits" then v = u[k] else v = u.values and u.values[k] end
    if v ~= nil then any = true end
    parts[#parts + 1] = v ~= nil and value_text(v) or "-"
  end
  return any and concat(parts, "-") or nil
end

-- text that fits `room` px: squeezed when its estimated width is larger
local function fitted(x, y, size, room, text, attrs)
  local est = #text * size * 0.56
  local squeeze = est > room and fmt(' textLength="%s" lengthAdjust="spacingAndGlyphs"', num(room)) or ""
  return fmt('<text x="%s" y="%s" font-size="%s"%s%s>%s</text>', num(x), num(y), num(size), squeeze, attrs or "", esc(text))
end

--- A counter as an SVG group centred on 0,0, w px wide.
---@param u table a unit snapshot: name, type, side, face, hits, values, markers; cargo = count carried
---@param spec table the merged view (counter.merge / set:view())
---@param w number
---@param attrs? string more attributes for the <g> (ids, data-*)
---@return string svg
function M.svg(u, spec, w, attrs)
  spec = spec or {}
  local color = M.side_color(u.side, spec)
  local damaged = u.face ~= nil and u.face ~= "" and u.face ~= "full"
  local h = w
  local x0, y0 = -w / 2, -h / 2
  local out = {}
  local function add(s) out[#out + 1] = s end
  add(fmt('<g class="counter"%s font-family="sans-serif" text-anchor="middle">', attrs and (" " .. attrs) or ""))
  add(fmt('<title>%s</title>', esc(M.describe(u, spec))))
  add(fmt('<rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="%s" stroke="#111" stroke-width="%s"/>',
    num(x0), num(y0), num(w), num(h), num(w * 0.08), damaged and tint(color, 0.45) or color, num(w * 0.03)))
  if damaged then   -- the reduced side: a stripe corner to corner
    add(fmt('<polygon points="%s,%s %s,%s %s,%s %s,%s" fill="%s" opacity="0.55"/>', num(x0), num(y0 + h * 0.82),
      num(x0 + w * 0.82), num(y0), num(x0 + w), num(y0), num(x0), num(y0 + h), color))
  end
  local ink = "#ffffff"
  -- designation (clear of the hits disc when there is one)
  local hit = (u.hits or 0) > 0
  add(fitted(hit and -w * 0.08 or 0, y0 + h * 0.24, w * 0.19, hit and w * 0.74 or w * 0.9, u.name or "?",
    fmt(' font-weight="bold" fill="%s"', ink)))
  -- symbol
  local d = spec.types and spec.types[u.type]
  local sym = d and d.symbol and M.SYMBOLS[d.symbol]
  if sym then
    add(fmt('<g transform="translate(0,%s)">%s</g>', num(h * 0.02), sym(w * (SILHOUETTE[d.symbol] and 0.74 or 0.56), ink)))
  end
  -- values, or the type code
  local vt = M.values_text(u, spec)
  local bottom = vt or tostring(u.type or "")
  if not sym and vt then   -- no symbol: the type code in the middle, the values below
    add(fitted(0, h * 0.1, w * 0.24, w * 0.9, tostring(u.type or ""), fmt(' font-weight="bold" fill="%s"', ink)))
  elseif not sym then      -- nor values: the type code in the middle, larger
    bottom = ""
    add(fitted(0, h * 0.12, w * 0.32, w * 0.9, tostring(u.type or ""), fmt(' font-weight="bold" fill="%s"', ink)))
  end
  if bottom ~= "" then
    add(fitted(0, y0 + h * 0.9, w * (vt and 0.22 or 0.18), w * 0.9, bottom, fmt(' font-weight="bold" fill="%s"', ink)))
  end
  -- hits: a red disc at the top right
  if (u.hits or 0) > 0 then
    local r = w * 0.15
    add(fmt('<g class="hits"><circle cx="%s" cy="%s" r="%s" fill="#d7191c" stroke="#fff" stroke-width="%s"/>',
      num(x0 + w - r * 0.6), num(y0 + r * 0.6), num(r), num(w * 0.025)))
    add(fmt('<text x="%s" y="%s" font-size="%s" font-weight="bold" fill="#fff">%d</text></g>',
      num(x0 + w - r * 0.6), num(y0 + r * 0.6 + r * 0.45), num(r * 1.3), u.hits))
  end
  -- cargo: "+n" at the bottom left
  if (u.cargo or 0) > 0 then
    local bw, bh = w * 0.34, w * 0.22
    add(fmt('<g class="cargo"><rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="#fff" stroke="#111" stroke-width="%s"/>',
      num(x0 - w * 0.08), num(y0 + h - bh * 0.7), num(bw), num(bh), num(bh * 0.2), num(w * 0.02)))
    add(fmt('<text x="%s" y="%s" font-size="%s" font-weight="bold" fill="#111">+%d</text></g>',
      num(x0 - w * 0.08 + bw / 2), num(y0 + h - bh * 0.7 + bh * 0.78), num(bh * 0.8), u.cargo))
  end
  -- marks: chips along the bottom edge, the first lowest
  local marks = M.marks(u, spec)
  for i, m in ipairs(marks) do
    local ch = w * 0.22
    local cw = math.max(w * 0.5, #m * ch * 0.5 + ch * 0.5)
    local cy = y0 + h - ch * 0.35 + (i - 1) * ch * 1.05
    add(fmt('<g class="mark"><rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="#ffd23f" stroke="#111" stroke-width="%s"/>',
      num(w * 0.5 - cw + w * 0.1), num(cy), num(cw), num(ch), num(ch * 0.2), num(w * 0.02)))
    add(fmt('<text x="%s" y="%s" font-size="%s" font-weight="bold" fill="#111">%s</text></g>',
      num(w * 0.1 + w * 0.5 - cw / 2), num(cy + ch * 0.78), num(ch * 0.78), esc(m)))
  end
  add("</g>")
  return concat(out)
end

--- A unit in words, for a tooltip: "Littorio: Axis TF (task force), damaged, 2 hits; -1 Step".
---@param u table
---@param spec table
---@return string
function M.describe(u, spec)
  local d = spec and spec.types and spec.types[u.type]
  local s = ("%s: %s %s%s"):format(tostring(u.name), tostring(u.side or "?"), tostring(u.type or "?"),
    d and d.title and (" (" .. d.title .. ")") or "")
  local vt = spec and M.values_text(u, spec)
  if vt then s = s .. " " .. vt end
  if u.face and u.face ~= "" and u.face ~= "full" then s = s .. ", " .. u.face end
  if (u.hits or 0) > 0 then s = s .. (", %d hit%s"):format(u.hits, u.hits == 1 and "" or "s") end
  if (u.cargo or 0) > 0 then s = s .. (", carrying %d"):format(u.cargo) end
  local marks = spec and M.marks(u, spec) or {}
  if #marks > 0 then s = s .. "; " .. concat(marks, ", ") end
  return s
end

--- A stack's count: a black disc with the number, on the top left corner
--- of a counter w px wide centred on 0,0.
---@param n integer
---@param w number
function M.stack_badge(n, w)
  local r = w * 0.16
  return fmt('<g class="stack-count"><circle cx="%s" cy="%s" r="%s" fill="#111" stroke="#fff" stroke-width="%s"/>' ..
    '<text x="%s" y="%s" font-family="sans-serif" font-size="%s" font-weight="bold" fill="#fff" text-anchor="middle">%d</text></g>',
    num(-w / 2 - r * 0.15), num(-w / 2 - r * 0.15), num(r), num(w * 0.025), num(-w / 2 - r * 0.15),
    num(-w / 2 - r * 0.15 + r * 0.45), num(r * 1.3), n)
end

return M

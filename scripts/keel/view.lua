--- keel.view — the replay viewer's page: one self-contained HTML file (no
-- server, no network) holding the board's SVG, the steps of a game as
-- JSON, and the viewer's style and script (scripts/keel/view/viewer.css,
-- viewer.js), inlined.
--
--   local html = require("keel.view").page(data, board_svg)
--
--   local data, board_svg = require("keel.view").collect("game.jsonl", { size = 44 })
--
-- data comes from M.collect (a journal replayed by keel.replay, a snapshot
-- per step); doc/viewer.md describes both.
local keel = require "keel"
local json = require "keel.json"

local M = {}

--- The default hex size of the viewer's board (px).
M.SIZE = 44

local function sorted_keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = k end
  table.sort(ks, function(a, b) return tostring(a) < tostring(b) end)
  return ks
end

--- Where the page's style and script are.
M.ASSETS = keel.script_dir .. "/keel/view/"

local function asset(name)
  local s, err = keel.file.read(M.ASSETS .. name)
  if not s then error("keel view: cannot read its page asset: " .. tostring(err), 0) end
  return s
end

local function esc(s)
  return (tostring(s):gsub("[&<>\"']", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
    ['"'] = "&quot;", ["'"] = "&apos;" }))
end

--- JSON that is safe inside <script>: every "<" written as \u003c (it only
--- occurs inside strings).
---@param v any
---@return string
function M.script_json(v)
  return (json.encode(v):gsub("<", "\\u003c"))
end

local BODY = [[
<header><h1>%s</h1><span class="meta">%s</span></header>
<main>
<div id="board">
%s
<div id="zoom">
<button id="zoom-in" title="zoom in (+)">+</button>
<button id="zoom-out" title="zoom out (-)">&#8722;</button>
<button id="fit-action" class="wide" title="frame the units">action</button>
<button id="fit-map" class="wide" title="the whole map">map</button>
</div>
</div>
<aside>
<section id="controls">
<div class="row">
<button id="first" title="first step (Home)">|&#9664;</button>
<button id="prev" title="step back (left arrow)">&#9664;</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
<button id="next" title="step forward (right arrow)">&#9654;</button>
<button id="last" title="last step (End)">&#9654;|</button>
<span id="step-label"></span>
</div>
<div class="toggles">
<label><input type="checkbox" id="follow" checked> follow the action</label>
<label><input type="checkbox" id="show-changes"> state changes</label>
<label><input type="checkbox" id="show-cargo"> cargo</label>
</div>
%s
</section>
<section id="status"><h2>Status</h2><table><tbody id="status-rows"></tbody></table></section>
<section id="narration"><h2>Narration</h2><div id="step-title"></div><div id="lines" class="lines"></div></section>
<section id="unit"><h2>Unit</h2><div id="unit-info"></div></section>
<section id="offboard" hidden><h2>Off the board</h2><ul id="offboard-list"></ul></section>
<section id="timeline"><h2>Timeline</h2><ol id="timeline-list"></ol></section>
</aside>
</main>
]]

--- The page.
---@param data table the steps and what they refer to (M.collect)
---@param board_svg? string the board as keel.render draws it (nil: a game without a map)
---@return string html
function M.page(data, board_svg)
  local svg = board_svg and board_svg:gsub("^<%?xml[^>]*>%s*", "")
    or '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300"><text x="20" y="40">this game has no map</text></svg>'
  local meta = ("seed %s · %d steps · journal %s · keel %s"):format(tostring(data.seed), #data.steps - 1,
    tostring(data.journal), tostring(data.keel))
  local notes = ""
  if data.notes then
    local ns = {}
    for i, n in ipairs(data.notes) do ns[i] = esc(n) end
    notes = '<div class="notes">' .. table.concat(ns, "<br>") .. "</div>"
  end
  local title = tostring(data.name or data.scenario or "keel game")
  return table.concat {
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
    "<meta name=\"generator\" content=\"keel view ", esc(data.keel or ""), "\">\n",
    "<title>", esc(title), " — keel view</title>\n<style>\n", asset("viewer.css"), "</style>\n</head>\n<body>\n",
    BODY:format(esc(title), esc(meta), svg, notes),
    '<script type="application/json" id="keel-data">', M.script_json(data), "</script>\n",
    "<script>\n", asset("viewer.js"), "</script>\n</body>\n</html>\n",
  }
end

-- ---- collecting the steps (runs in the sandbox state) --------------------------------

--- An action as one line: its name and parameters, ids named (groups,
--- units), hexes labelled, by the action's parameter types.
local function action_text(e, game, set, board)
  local fmtv = require("keel.narrator").format_value
  local order = type(e.order) == "table" and e.order or {}
  if e.name == "emit" then
    local parts = { "event " .. tostring(order.event) }
    local d = type(order.data) == "table" and order.data or {}
    for _, k in ipairs(sorted_keys(d)) do parts[#parts + 1] = ("%s=%s"):format(k, fmtv(d[k], board)) end
    return table.concat(parts, " ")
  end
  local a = set and set.actions and set.actions[e.name]
  local params = a and a.def.params or {}
  local function named(kind, v)
    if kind == "group" and math.type(v) == "integer" then
      local ok, name = pcall(game.group_get_name, game, v)
      return ok and name and ("%q"):format(name) or tostring(v)
    elseif kind == "unit" and math.type(v) == "integer" then
      local ok, name = pcall(game.get, game, v, "name")
      return ok and name and ("%q"):format(name) or tostring(v)
    end
    if type(v) == "table" then
      local items = {}
      for i, x in ipairs(v) do items[i] = named(kind == "units" and "unit" or nil, x) end
      if #items == 0 and next(v) ~= nil then return json.encode(v) end
      return "[" .. table.concat(items, ", ") .. "]"
    end
    if type(v) == "string" then return ("%q"):format(v) end
    return fmtv(v, board)
  end
  local parts = { tostring(e.name) }
  for _, k in ipairs(sorted_keys(order)) do
    parts[#parts + 1] = ("%s=%s"):format(k, named(params[k] and params[k].type, order[k]))
  end
  return table.concat(parts, " ")
end
M.action_text = action_text

--- Replay a journal and collect what the viewer shows at each step.
--- Returns data for M.page and the board's SVG (keel.replay plays the
--- journal; its hooks snapshot the game after each step). Runs in the
--- sandbox state keel view makes for the replay.
---@param path string the journal
---@param opts? {size?: number, text?: string, cpu?: number} text: the journal's (else read from path);
---  cpu: the CPU limit of one order (else the journal header's, else keel.limits.DEFAULT's)
---@return table data, string board_svg
function M.collect(path, opts)
  opts = opts or {}
  local counter = require "keel.counter"
  local render = require "keel.render"
  local replay = require "keel.replay"
  local size = opts.size or M.SIZE
  local W = size * render.COUNTER_SCALE

  local lines = {}
  local n = require("keel.narrator").new { write = function(obj, text)
    lines[#lines + 1] = { k = obj.kind, t = text, r = obj.rule }
  end }

  local data = { steps = {}, counters = {}, hexes = {}, svgs = { "" }, size = size, counter_w = W,
                 badge = counter.stack_badge(0, W), spec = nil }
  local counter_index, svg_index = {}, { [""] = 1 }
  local game, run, board, spec, ctx, board_svg
  local offset = 0
  local current = {}        -- unit id -> encoded record, as last sent
  local initial_owner = {}  -- hex -> side at the start (for the hexes that change hands)
  local changed_hexes = {}  -- hex -> true, in the order first changed
  local changed_order = {}

  local function label(h)
    local l = board and board:format(h)
    if l and not data.hexes[l] then
      local x, y = ctx:center(h)
      data.hexes[l] = { math.floor(x * 10 + 0.5) / 10, math.floor(y * 10 + 0.5) / 10 }
    end
    return l
  end

  -- a sea box or sea zone: its counters stand at the centre of its hexes,
  -- under the key "box <id>" / "zone <name>"
  local zone_hexes
  local function area_anchor(kind, where)
    local hexes, key
    if kind == "box" then
      key = "box " .. tostring(where)
      if data.hexes[key] then return key end
      local ok, hs = pcall(board.box_hexes, board, where)
      hexes = ok and hs or {}
    else
      local name = board:zones()[where] or tostring(where)
      key = "zone " .. name
      if data.hexes[key] then return key end
      if not zone_hexes then
        zone_hexes = {}
        for _, h in ipairs(board:hexes()) do
          local z = board:get_zone(h)
          if z then zone_hexes[z] = zone_hexes[z] or {}; table.insert(zone_hexes[z], h) end
        end
      end
      hexes = zone_hexes[name] or {}
    end
    if #hexes == 0 then return nil end
    local sx, sy = 0, 0
    for _, h in ipairs(hexes) do
      local x, y = ctx:center(h)
      sx, sy = sx + x, sy + y
    end
    data.hexes[key] = { math.floor(sx / #hexes * 10 + 0.5) / 10, math.floor(sy / #hexes * 10 + 0.5) / 10 }
    return key
  end

  local function intern(list, index, s)
    local i = index[s]
    if not i then i = #list + 1; list[i] = s; index[s] = i end
    return i
  end

  -- the unit as the viewer shows it
  local function unit_record(id)
    local st = game.state
    local u = game:get_unit(id)
    local cargo = st:cargo(id)
    u.cargo = #cargo > 0 and #cargo or nil
    local rec = { id = id, name = u.name, type = u.type, side = u.side, face = u.face, hits = u.hits,
                  points = u.points, loc = u.loc, values = u.values, markers = u.markers }
    if (u.loc == "hex" or u.loc == "port") and u.where and board then rec.hex = label(u.where) end
    if (u.loc == "box" or u.loc == "zone") and u.where and board then rec.hex = area_anchor(u.loc, u.where) end
    if u.loc == "unit" then rec.carrier = u.where end
    if not rec.hex and not rec.carrier and u.where then rec.where = u.where end   -- a place not drawn
    rec.cargo = u.cargo
    local groups = {}
    for _, g in ipairs(st:groups_of(id)) do groups[#groups + 1] = st:group_get_name(g) end
    rec.groups = groups
    rec.c = intern(data.counters, counter_index, counter.svg(u, spec, W, ('data-unit="%d"'):format(id)))
    return rec
  end

  -- the units whose records changed since the last step (all when `all`)
  local function units_delta(touched, all)
    local out = {}
    local ids = {}
    if all then
      for id = 1, game.state:count_units() do ids[#ids + 1] = id end
    else
      for id in pairs(touched) do if id <= game.state:count_units() then ids[#ids + 1] = id end end
      table.sort(ids)
    end
    for _, id in ipairs(ids) do
      local rec = unit_record(id)
      local enc = json.encode(rec)
      if current[id] ~= enc then
        current[id] = enc
        out[tostring(id)] = rec
      end
    end
    return out
  end

  local globals_now = {}
  local function globals_delta()
    local out = {}
    local g = game.state:globals()
    for _, k in ipairs(sorted_keys(g)) do
      local enc = json.encode(g[k])
      if globals_now[k] ~= enc then globals_now[k] = enc; out[k] = g[k] end
    end
    for _, k in ipairs(sorted_keys(globals_now)) do
      if g[k] == nil then globals_now[k] = nil; out[k] = json.null end
    end
    return out
  end

  -- the keyed maps the status panel shows: each map's entries ({key parts,
  -- value} in key order) when they changed since the last step. Only the
  -- maps the step's journal lines set are read again (all of them on the
  -- first step, an undo or a redo). A map the panel shows only as a count
  -- goes as that many 0s (the page reads its length): a map that grows
  -- through a long game (32.D's records) would otherwise weigh the page
  -- down by its whole list at every step.
  local keyed_now, count_only = {}, nil
  local function keyed_delta(touched, all)
    if not count_only then
      count_only = {}
      for _, st in ipairs(spec.status) do
        if st.keyed then count_only[st.keyed] = st.count and count_only[st.keyed] ~= false or false end
      end
    end
    local out, done = {}, {}
    for _, st in ipairs(spec.status) do
      local map = st.keyed
      if map and not done[map] and (all or touched[map]) then
        done[map] = true
        local entries = {}
        for i = 1, game:count_keyed(map) do
          local key, v = game:at_keyed(map, i)
          entries[i] = { key, v }
        end
        local enc = json.encode(entries)
        if keyed_now[map] ~= enc then
          keyed_now[map] = enc
          if count_only[map] then
            local zeros = {}
            for i = 1, #entries do zeros[i] = 0 end
            entries = zeros
          end
          out[map] = entries
        end
      end
    end
    return out
  end

  -- the hexes that changed hands since the start, outlined in the new owner's colour
  local function owners_svg()
    local out = {}
    for _, h in ipairs(changed_order) do
      local side = game:get_owner(h)
      if side ~= initial_owner[h] then
        local c = counter.side_color(side, spec)
        out[#out + 1] = ('<polygon class="changed-hands" data-hex="%s" points="%s" fill="%s" fill-opacity="0.35" ' ..
          'stroke="%s" stroke-width="%.1f"><title>%s: %s, was %s</title></polygon>'):format(render.esc(label(h)),
          ctx:corners(h), side and c or "#ffffff", c, size * 0.08, render.esc(label(h)),
          render.esc(side and ("owned by " .. side) or "no owner"), render.esc(initial_owner[h] or "no owner"))
      end
    end
    return table.concat(out)
  end

  -- the paths of the units that moved in this step's journal lines, one per
  -- distinct sequence of hexes, drawn as keel render draws the last move
  local function paths_svg(seqs, order)
    local out, seen = {}, {}
    for _, id in ipairs(order) do
      local seq = seqs[id]
      if #seq >= 2 then
        local key = table.concat(seq, " ")
        if not seen[key] then
          seen[key] = true
          ctx.out = {}
          render.path_layer(seq)(ctx)
          local s = table.concat(ctx.out):gsub('id="path"', 'class="move-path"')
          if #out > 0 then s = s:gsub("<defs>.-</defs>\n?", "") end
          out[#out + 1] = s
        end
      end
    end
    return table.concat(out)
  end

  -- read the journal lines of the step: units touched, owners, moves
  local function step_lines()
    local chunk
    chunk, offset = game:journal_since(offset)
    local touched, seqs, order, owners, maps = {}, {}, {}, false, {}
    for l in chunk:gmatch("[^\n]+") do
      local e = json.decode(l)
      if e and e.unit then touched[e.unit] = true end
      if e and e.ev == "keyed" and type(e.map) == "string" then maps[e.map] = true end
      if e and e.ev == "set" and e.field == "loc" then
        for _, v in ipairs { e.old, e.new } do
          local carrier = type(v) == "string" and v:match("^unit:(%d+)$")
          if carrier then touched[math.tointeger(tonumber(carrier))] = true end
        end
        local function hex_of(v)
          local kind, h = tostring(v):match("^(%a+):(%-?%d+)$")
          if kind == "hex" or kind == "port" then return math.tointeger(tonumber(h)) end
        end
        local a, b = hex_of(e.old), hex_of(e.new)
        if b then
          local seq = seqs[e.unit]
          if not seq then seq = {}; seqs[e.unit] = seq; order[#order + 1] = e.unit end
          if #seq == 0 and a then seq[1] = a end
          if seq[#seq] ~= b then seq[#seq + 1] = b end
        end
      elseif e and e.ev == "owner" then
        owners = true
        local h = math.tointeger(e.hex)
        if h and not changed_hexes[h] then
          changed_hexes[h] = true
          changed_order[#changed_order + 1] = h
          label(h)
        end
      end
    end
    return touched, seqs, order, owners, maps
  end

  local function add_step(s, all)
    local touched, seqs, order, owners, maps = step_lines()
    n.flush()
    s.lines = lines
    lines = {}
    s.units = units_delta(touched, all)
    s.globals = globals_delta()
    s.keyed = keyed_delta(maps, all)
    s.hash = game:hash_hex()
    if board then
      s.paths = intern(data.svgs, svg_index, paths_svg(seqs, order))
      local moved = {}   -- the hexes the moves went through, for the view to follow
      for _, id in ipairs(order) do
        for _, h in ipairs(seqs[id]) do moved[#moved + 1] = label(h) end
      end
      s.moved = moved
      if owners or all then s.owners = intern(data.svgs, svg_index, owners_svg()) end
    end
    data.steps[#data.steps + 1] = s
  end

  local rep = replay.replay(path, {
    text = opts.text, cpu = opts.cpu,
    narrate = n.event,
    on_start = function(g, r)
      game, run = g, r
      board = r and r.board or g.board
      n.game, n.board = g, board
      spec = r and r.set:view() or counter.merge {}
      data.spec = spec
      if board then
        -- the board drawn with who owns what at the start, as the game state says
        for _, h in ipairs(board:hexes()) do initial_owner[h] = g:get_owner(h) end
        board_svg, ctx = render.draw(board, { size = size, spec = spec,
          owners = function(h) return initial_owner[h] end })
      end
      offset = g:journal_count()
      n.offset = offset
      local s = { kind = "setup", title = "setup" }
      add_step(s, true)
    end,
    on_step = function(e, g)
      local s = { kind = e.ev, rule = e.rule }
      if e.ev == "action" or e.ev == "rollback" then
        s.action = e.action
        s.name = e.name
        s.title = action_text(e, g, run and run.set, board)
        if e.ev == "rollback" then s.title = s.title .. " (failed: " .. tostring(e.error) .. ")" end
      else
        s.title = ("%s %d"):format(e.ev, e.n or 1)
      end
      add_step(s, e.ev == "undo" or e.ev == "redo")
    end,
  })
  if not rep.ok then error(rep.message, 0) end
  for _, f in ipairs(rep.changed_files) do
    data.notes = data.notes or {}
    data.notes[#data.notes + 1] = "rule file changed since the journal was written: " .. f
  end
  local header = rep.header
  data.scenario = header.scenario
  data.seed = header.seed
  data.name = run and run.spec.name or header.scenario
  data.journal = path
  data.keel = keel.version
  data.final_hash = rep.hash
  return data, board_svg
end

return M

-- tests/lua/render_test.lua — every sample map renders to well-formed SVG;
-- one picture is loaded in headless Chromium and must not be blank.
-- luacheck: max line length 170
local t = require "keel.testing"
local map = require "keel.map"
local render = require "keel.render"
local xml = require "keel.xml"

local MAPS = { "crete", "suez", "corinth", "straits", "sevilla", "eastmed" }

for _, m in ipairs(MAPS) do
  t.test("render-1: " .. m .. ".map renders to well-formed SVG with every layer", function()
    local b = assert(map.load("scenarios/maps/" .. m .. ".map"))
    local svg = render.svg(b, { title = m .. " <&> test" })
    t.ok(xml.check(svg))
    for _, id in ipairs { "terrain", "sides", "ports", "labels", "places", "legend" } do
      t.ok(svg:find('<g id="' .. id .. '"', 1, true), "layer " .. id)
    end
    t.ok(svg:find("&lt;&amp;&gt;", 1, true), "title escaped")
  end)
end

t.test("render-2: the pictures show what the maps hold", function()
  local b = assert(map.load("scenarios/maps/suez.map"))
  local svg = render.svg(b)
  t.ok(svg:find("Port Said", 1, true))
  t.ok(svg:find(">canal<", 1, true), "legend names the canal")
  t.ok(svg:find('id="seaboxes"', 1, true))
  t.ok(svg:find('id="zones"', 1, true))
  t.ok(svg:find("owned by Allied", 1, true))
  t.ok(svg:find(">3413<", 1, true), "hex numbers")
end)

t.test("render-3: layers are a list; a layer may be a function (for units, movement)", function()
  local b = assert(map.load("scenarios/maps/crete.map"))
  local svg = render.svg(b, { layers = { "terrain" }, extra_layers = { function(ctx)
    local x, y = ctx:center(ctx.board:hex("15B:2407"))
    ctx:add(('<circle id="unit" cx="%.1f" cy="%.1f" r="5"/>'):format(x, y))
  end } })
  t.ok(xml.check(svg))
  t.ok(svg:find('id="unit"', 1, true))
  t.eq(svg:find('id="labels"', 1, true), nil)
  t.raises(function() render.svg(b, { layers = { "nope" } }) end, "unknown layer 'nope'")
end)

t.test("render-4: xml.check catches broken XML", function()
  t.ok(xml.check("<a><b/></a>"))
  t.eq(xml.check("<a><b></a>"), nil)
  t.eq(xml.check("<a x='1' x='2'/>"), nil)
  t.eq(xml.check("<a>&</a>"), nil)
  t.eq(xml.check("<a/><b/>"), nil)
end)

t.test("render-5: keel render MAP -o FILE.svg", function()
  local out = os.tmpname()
  local ok = os.execute("bin/keel render scenarios/maps/corinth.map -o " .. out .. " 2>/dev/null")
  t.ok(ok, "exit 0")
  local f = assert(io.open(out, "rb"))
  local svg = f:read("a")
  f:close()
  t.ok(xml.check(svg))
  t.ok(svg:find("Corinth", 1, true))
  os.remove(out)
  local bad = os.tmpname()
  local g = assert(io.open(bad, "w"))
  g:write("hexes flat\nsection A at 0 0 size 2 2\nhex A:0101 swamp\n")
  g:close()
  local p = io.popen("bin/keel render " .. bad .. " -o /dev/null 2>&1; echo rc=$?")
  local text = p:read("a")
  p:close()
  os.remove(bad)
  t.ok(text:find(":3:12: unknown terrain", 1, true), text)
  t.ok(text:find("rc=1", 1, true), text)
end)

t.test("render-7: --around HEX --radius N frames the picture; a status box lists what it is given", function()
  local board = assert(map.load("scenarios/maps/suez.map"))
  local whole = render.svg(board, {})
  local h = board:hex("19A:3413")
  local framed = render.svg(board, { around = h, radius = 2,
    status = { { label = "Suez Canal", value = "open" }, { label = "victory points (Allied)", value = 15 } } })
  t.ok(xml.check(framed))
  local function width(svg) return tonumber(svg:match('<svg[^>]- width="(%d+)"')) end
  t.ok(width(framed) < width(whole), "a framed picture is smaller than the whole map")
  t.ok(framed:find('clip-path="url(#frame)"', 1, true), "what lies outside the frame is clipped")
  t.ok(framed:find('<g id="status"', 1, true) and framed:find(">Suez Canal<", 1, true) and framed:find(">15<", 1, true))
  t.ok(not whole:find('id="status"', 1, true), "no status box unless given")
  board:close()
  local out = os.tmpname()
  local p = io.popen("bin/keel render scenarios/maps/suez.map --around 19A:3413 --radius 1 -o " .. out .. " 2>&1; echo rc=$?")
  local text = p:read("a"); p:close()
  t.ok(text:find("rc=0", 1, true), text)
  t.ok(t.read_file(out):find('clip-path="url(#frame)"', 1, true))
  os.remove(out)
  p = io.popen("bin/keel render scenarios/maps/suez.map --around 99Z:0000 2>&1; echo rc=$?")
  text = p:read("a"); p:close()
  t.ok(text:find("--around 99Z:0000", 1, true) and text:find("rc=1", 1, true), text)
  p = io.popen("bin/keel render scenarios/maps/suez.map --radius 2 2>&1; echo rc=$?")
  text = p:read("a"); p:close()
  t.ok(text:find("rc=2", 1, true), text)
end)

-- PNG header: width and height from IHDR
local function png_size(data)
  if data:sub(1, 8) ~= "\137PNG\r\n\26\n" then return nil end
  return string.unpack(">I4I4", data, 17)
end

local function browser()
  for _, name in ipairs { "chromium", "chromium-browser", "google-chrome" } do
    local p = io.popen("command -v " .. name .. " 2>/dev/null")
    local path = p:read("l")
    p:close()
    if path and path ~= "" then return path end
  end
end

local function screenshot(exe, file, png)
  local dir = os.tmpname()
  os.remove(dir)
  local cmd = ("%s --headless --no-sandbox --disable-gpu --disable-quic --no-first-run " ..
    "--disable-background-networking --disable-component-update --disable-sync " ..
    "--user-data-dir=%s --screenshot=%s --window-size=640,480 file://%s >/dev/null 2>&1; rm -rf %s")
    :format(exe, dir, png, file, dir)
  os.execute(cmd)
  local f = io.open(png, "rb")
  if not f then return nil end
  local data = f:read("a")
  f:close()
  os.remove(png)
  return data
end

local exe = browser()
if not exe then
  io.write("skip render-6: no chromium installed (make deps installs it for the tests)\n")
else
  t.test("render-6: the SVG renders in headless Chromium and is not blank", function()
    local cwd = io.popen("pwd"):read("l")
    local b = assert(map.load("scenarios/maps/crete.map"))
    local svgfile = os.tmpname() .. ".svg"
    local f = assert(io.open(svgfile, "w"))
    f:write(render.svg(b, { size = 24, title = "Crete" }))
    f:close()
    local blankfile = os.tmpname() .. ".svg"
    f = assert(io.open(blankfile, "w"))
    f:write('<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><rect width="640" height="480" fill="#fff"/></svg>')
    f:close()
    local shot = screenshot(exe, svgfile, cwd .. "/build/render_test_map.png")
    local blank = screenshot(exe, blankfile, cwd .. "/build/render_test_blank.png")
    os.remove(svgfile)
    os.remove(blankfile)
    t.ok(shot and blank, "chromium wrote both screenshots")
    local w, h = png_size(shot)
    t.eq({ w, h }, { 640, 480 })
    -- a one-colour page compresses to almost nothing; the map must not
    io.write(("  screenshot %d bytes, blank %d bytes\n"):format(#shot, #blank))
    t.ok(#shot > 8 * #blank and #shot > 20000,
      ("map screenshot %d bytes, blank page %d bytes"):format(#shot, #blank))
  end)
end

t.test("render-units: units and a path overlay; keel run SCENARIO --svg draws the final position", function()
  local board = assert(map.load("scenarios/maps/crete.map"))
  local a, b = board:hex("15B:2407"), board:hex("15B:2508")
  local svg = render.svg(board, { extra_layers = {
    render.path_layer { a, b },
    render.units_layer { { hex = a, name = "Warspite", type = "BB", side = "Allied" },
                         { hex = a, name = "Gloucester", type = "CL", side = "Allied" },
                         { hex = b, name = "NT<1>", type = "NT", side = "Axis" } } } })
  t.ok(xml.check(svg))
  t.ok(svg:find('id="units"', 1, true) and svg:find('id="path"', 1, true))
  t.ok(svg:find(">NT&lt;1&gt;<", 1, true), "names are escaped")
  t.ok(svg:find(">Warspite<", 1, true) and svg:find(">BB<", 1, true), "name and type on the counter")
  t.ok(svg:find('<g class="stack" data-hex="15B:2407">', 1, true), "stacks by hex")
  t.ok(svg:find('class="stack%-count".->2</text>'), "the stack of two shows its count")
  t.ok(svg:find("Allied unit", 1, true) and svg:find("last move", 1, true), "the legend names them")
  local out = os.tmpname()
  local keel_bin = os.getenv("KEEL_BIN") or "bin/keel"
  local ok = os.execute(keel_bin .. " run tests/scenarios/convoy_crete.lua --quiet --svg " .. out .. " >/dev/null")
  t.ok(ok, "keel run --svg succeeds")
  local f = assert(io.open(out))
  local drawn = f:read("a")
  f:close()
  os.remove(out)
  t.ok(xml.check(drawn))
  t.ok(drawn:find('id="units"', 1, true), "the scenario's units are drawn")
end)

-- ---- counters (keel.counter) --------------------------------------------------------

local counter = require "keel.counter"
local rules = require "keel.rules"

local function showcase_view()
  return rules.load { families = { "navgroup", "eastmed_war" }, path = { "scenarios/families" } }:view()
end

t.test("counter-1: a counter shows designation, type symbol, values the family declares, hits, damage, marks, cargo", function()
  local spec = showcase_view()
  local plain = counter.svg({ name = "Littorio", type = "TF", side = "Axis", face = "full", hits = 0 }, spec, 48)
  t.ok(xml.check(plain))
  t.ok(plain:find(">Littorio<", 1, true), "designation")
  t.ok(plain:find(">TF<", 1, true), "type code where the unit has none of the declared values")
  t.ok(plain:find("#7a1f1f", 1, true), "Axis colour")
  t.eq(plain:find('class="hits"', 1, true), nil)
  t.eq(plain:find('class="mark"', 1, true), nil)
  t.eq(plain:find("opacity", 1, true), nil, "the full face has no stripe")
  local full = counter.svg({ name = "Warspite", type = "TF", side = "Allied", face = "damaged", hits = 2,
    values = { strength = 5, mp = 15, reacting = true }, markers = { step = 1, dg = 1 }, cargo = 3 }, spec, 48)
  t.ok(xml.check(full))
  t.ok(full:find(">5%-15<"), "TF shows strength-mp (navgroup's declaration)")
  t.ok(full:find('class="hits".->2</text>'), "2 hits")
  t.ok(full:find("opacity", 1, true), "the damaged face is striped")
  t.ok(full:find(">%-1 Step<"), "the 32.C step marker, labelled as declared")
  t.ok(full:find(">React<", 1, true), "a declared value mark")
  t.ok(full:find(">DG<", 1, true), "an undeclared marker by its key")
  t.ok(full:find(">%+3<"), "cargo count")
  t.eq(counter.describe({ name = "Warspite", type = "TF", side = "Allied", face = "damaged", hits = 2,
    values = { strength = 5, mp = 15 }, markers = { step = 1 } }, spec),
    "Warspite: Allied TF (task force) 5-15, damaged, 2 hits; -1 Step")
  local pz = counter.svg({ name = "Afrika Korps", type = "PZ", side = "Axis" }, spec, 48)
  t.ok(pz:find(">PZ<", 1, true) and pz:find("<rect", 1, true), "the stand-in's armour symbol")
  local unknown = counter.svg({ name = "X", type = "ZZ", side = "Soviet" }, counter.merge {}, 48)
  t.ok(unknown:find(">ZZ<", 1, true), "an undeclared type: its code")
  t.eq(counter.side_color("Soviet"), counter.side_color("Soviet"))
end)

t.test("counter-2: view declarations are checked and merged in family order", function()
  t.raises(function() counter.check({ types = { TF = { symbol = "battleship" } } }, "m.lua") end,
    'm.lua: view.types.TF.symbol: unknown symbol "battleship" (known: ')
  t.raises(function() counter.check({ colour = {} }, "m.lua") end, "m.lua: view.colour: unknown field")
  t.raises(function() counter.check({ marks = { { label = "x" } } }, "m.lua") end, "marks[1] must be { marker = NAME")
  t.raises(function() counter.check({ sides = { Allied = "blue" } }, "m.lua") end, 'sides.Allied must be a colour "#rrggbb"')
  t.raises(function() counter.check({ status = { "suez" } }, "m.lua") end, "status[1] must be { key = GLOBAL")
  t.raises(function() counter.check({ status = { { key = "vp", keyed = "vp" } } }, "m.lua") end,
    "status[1] must be { key = GLOBAL, label = TEXT } or { keyed = MAP, count = BOOLEAN")
  t.raises(function() counter.check({ status = { { key = "vp", count = true } } }, "m.lua") end, "status[1] must be")
  t.eq(counter.check({ status = { { keyed = "vp", label = "VP %s" }, { keyed = "vp", count = true } } }, "m.lua").status[2].count,
    true)
  t.raises(function() counter.check({ types = { TF = { values = "strength" } } }, "m.lua") end,
    "types.TF.values must be a list of value names")
  local spec = counter.merge { { types = { TF = { symbol = "warship" } }, status = { { key = "suez", label = "Suez" } } },
    false, { types = { TF = { symbol = "carrier" } }, status = { { key = "suez", label = "again" }, { key = "sea" },
      { keyed = "vp", label = "VP %s" }, { keyed = "vp", count = true }, { keyed = "vp", label = "twice" } } } }
  t.eq(spec.types.TF.symbol, "carrier", "a later family's type wins")
  local keys = {}
  for _, s in ipairs(spec.status) do keys[#keys + 1] = (s.key or (s.keyed .. (s.count and "#" or "[]"))) .. "=" .. s.label end
  t.eq(keys, { "turn=turn", "phase=phase", "segment=segment", "step=step", "suez=Suez", "sea=sea", "vp[]=VP %s", "vp#=vp" })
end)

t.test("counter-3: a manifest's bad view is refused naming the manifest", function()
  local dir = os.tmpname()
  os.remove(dir)
  os.execute("mkdir -p " .. dir .. "/fam")
  local f = assert(io.open(dir .. "/fam/manifest.lua", "w"))
  f:write('return family { name = "fam", files = {}, view = { types = { TF = { symbol = "boat" } } } }\n')
  f:close()
  t.raises(function() rules.load { families = { "fam" }, path = { dir } } end,
    dir .. '/fam/manifest.lua: view.types.TF.symbol: unknown symbol "boat"')
  os.execute("rm -rf " .. dir)
end)

t.test("counter-4: keel run --svg draws the showcase's counters: names, stacks, the family's symbols", function()
  local out = os.tmpname()
  local keel_bin = os.getenv("KEEL_BIN") or "bin/keel"
  t.ok(os.execute(keel_bin .. " run scenarios/suez_1942.lua --quiet --svg " .. out .. " >/dev/null"))
  local f = assert(io.open(out))
  local svg = f:read("a")
  f:close()
  os.remove(out)
  t.ok(xml.check(svg))
  local at = svg:match('<g class="stack" data%-hex="19A:3412">(.-)</g>\n')
  t.ok(at, "a stack at 19A:3412")
  for _, name in ipairs { "Orion", "Convoy WS-1" } do t.ok(at:find(">" .. name .. "<", 1, true), name) end
  t.ok(at:find('class="stack%-count".->2</text>'), "two counters, counted")
  t.ok(svg:find('data-name="Afrika Korps"', 1, true))
  -- the map's words stay readable: drawn over the counters, and a name or
  -- CD level a stack covers moved clear of it (Port Said under Trento's stack)
  t.ok(svg:find('<g id="units">', 1, true) < svg:find('<g id="places"', 1, true), "place names over the counters")
  local port_said = svg:match('<text [^>]*data%-hex="19A:3413"[^>]*>Port Said</text>')
  t.ok(port_said and port_said:find('transform="translate(0.0,', 1, true), port_said)
  t.ok(svg:match('<text [^>]*data%-hex="19A:3413"[^>]*transform="translate%(%-[%d.]+,0.0%)"[^>]*>CD2</text>'), "CD2 left of the stack")
  local cairo = svg:match('<text [^>]*>Cairo</text>')
  t.ok(cairo and not cairo:find("transform", 1, true), "an uncovered name stays where it is: " .. tostring(cairo))
  -- owned hexes are marked in the side's counter colour, as the legend says
  local allied = require("keel.counter").side_color("Allied")
  t.ok(svg:find('owned by Allied', 1, true))
  t.ok(svg:match('<g id="owners".-fill="' .. allied .. '"'), "Allied-owned hexes in Allied blue")
end)

t.test("render-around-big: a framed picture of a big board draws the framed hexes, not the board (issue 28)", function()
  local n = 300
  local rows = {}
  for r = 1, n do rows[r] = string.rep(r % 2 == 0 and "." or "c", n) end
  local text = table.concat({ 'map "big"', "hexes flat even digits 3 first 1 1",
    ("section X at 0 0 size %d %d"):format(n, n), "default all-sea", "terrain at X:001001 {",
    table.concat(rows, "\n"), "}", ("owner Blue X:001001..%03d%03d"):format(n, n) }, "\n") .. "\n"
  local path = os.tmpname() .. ".map"
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  local board = assert(map.load(path))
  local h = board:hex("X:150150")
  local svg = render.svg(board, { around = h, radius = 2 })
  t.ok(xml.check(svg))
  local _, polygons = svg:gsub("<polygon ", "")
  t.ok(polygons >= 19 and polygons < 120, "the framed hexes and a rim, not 90,000: " .. polygons)
  for _, l in ipairs { "150150", "150148", "152150", "148151" } do t.ok(svg:find(">" .. l .. "<", 1, true), l) end
  t.ok(svg:find('id="owners"', 1, true) and svg:find("owned by Blue", 1, true), "the declared owners drawn")
  board:close()
  os.remove(path)
end)

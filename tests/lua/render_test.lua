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
    render.units_layer { { hex = a, label = "BB", side = "Allied" }, { hex = a, label = "CL", side = "Allied" },
                         { hex = b, label = "NT<1>", side = "Axis" } } } })
  t.ok(xml.check(svg))
  t.ok(svg:find('id="units"', 1, true) and svg:find('id="path"', 1, true))
  t.ok(svg:find(">NT&lt;1&gt;<", 1, true), "labels are escaped")
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

--- keel render MAP -o FILE.svg — draw a map file as an SVG picture.
local cli = require "keel.cli"

local M = {
  summary = "draw a map file as an SVG picture",
  usage = "keel render MAP [-o FILE.svg] [--size PX] [--layers a,b,...] [--no-legend] [--around HEX [--radius N]]",
  help = "Loads MAP (see doc/map-format.md) and writes an SVG drawing of it:\n" ..
         "terrain, hexside features, ports, labels, sea-box outlines, sea-zone\n" ..
         "borders, owners and a legend. Without -o the SVG goes to standard output.\n" ..
         "--size sets the hex size in pixels (default 20); --layers picks the\n" ..
         "layers, bottom to top (terrain, seaboxes, zones, sides, owners, ports,\n" ..
         "labels, places, legend). --around HEX (a label such as 19A:3413, or a\n" ..
         "place name) frames the picture on the hexes within --radius N of it\n" ..
         "(default 3).",
}

function M.run(args)
  local opts, rest = cli.parse_options(args, { o = "value", output = "value", size = "value",
    layers = "value", ["no-legend"] = "flag", around = "value", radius = "value" })
  local path = rest[1]
  if not path then cli.usage_error("render needs a MAP file") end
  if rest[2] then cli.usage_error(("unexpected argument '%s'"):format(rest[2])) end
  local size = 20
  if opts.size then
    size = tonumber(opts.size)
    if not size or size < 4 or size > 200 then cli.usage_error("--size must be a number from 4 to 200") end
  end
  local layers
  if opts.layers then
    layers = {}
    local render = require "keel.render"
    for name in opts.layers:gmatch("[^,]+") do
      if not render.layers[name] then cli.usage_error(("unknown layer '%s'"):format(name)) end
      layers[#layers + 1] = name
    end
  end
  local board, err, meta = require("keel.map").load(path)
  if not board then
    io.stderr:write("keel: ", err, "\n")
    return 1
  end
  local around, radius
  if opts.radius then
    radius = math.tointeger(tonumber(opts.radius))
    if not radius or radius < 0 or radius > 1000 then cli.usage_error("--radius must be a whole number from 0 to 1000") end
    if not opts.around then cli.usage_error("--radius goes with --around HEX") end
  end
  if opts.around then
    local why
    around, why = board:hex(opts.around)
    if not around then
      board:close()
      io.stderr:write("keel: --around ", opts.around, ": ", tostring(why), "\n")
      return 1
    end
  end
  local svg = require("keel.render").svg(board, { size = size, layers = layers,
    legend = not opts["no-legend"], title = meta and meta.name, around = around, radius = radius })
  board:close()
  local out = opts.o or opts.output
  if not out or out == "-" then
    io.stdout:write(svg)
  else
    local ok, werr = require("keel").file.write(out, svg)
    if not ok then
      io.stderr:write("keel: ", tostring(werr), "\n")
      return 1
    end
  end
  return 0
end

return M

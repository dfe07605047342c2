-- bench/board_bench.lua — load time and bytes per hex of a generated
-- 256x256 board (65,536 hexes), beside a reference measured in the same run:
-- the same map text parsed by the same LPeg grammar, then built as a
-- pure-Lua table board (one table entry per hex and field) instead of the
-- C board's flat arrays.
local lib = require "bench.lib"
local keel = require "keel"
local map = require "keel.map"

local N = 256

-- the map: terrain grid with sea, coasts and islands, ports, owners, zones, tags
local function generate()
  local out = { "map \"bench 256x256\"", "hexes flat even digits 3 first 1 1",
    ("section X at 0 0 size %d %d"):format(N, N), "default all-sea", "terrain at X:001001 {" }
  local syms = { ".", ".", ".", "c", "L", "c", ".", "r" }
  for r = 1, N do
    local row = {}
    for c = 1, N do
      local v = ((c * 7 + r * 13) // 5 + (c * r) % 3) % #syms + 1
      row[c] = syms[v]
    end
    out[#out + 1] = table.concat(row)
  end
  out[#out + 1] = "}"
  for i = 1, 200 do
    local c, r = (i * 37) % N + 1, (i * 91) % N + 1
    out[#out + 1] = ("port X:%03d%03d minor"):format(c, r)
  end
  out[#out + 1] = ("owner Blue X:001001..%03d%03d"):format(N // 2, N)
  out[#out + 1] = ("owner Red X:%03d001..%03d%03d"):format(N // 2 + 1, N, N)
  out[#out + 1] = ("zone \"West\" X:001001..%03d%03d"):format(N // 2, N // 2)
  out[#out + 1] = ("tag coast X:010010..%03d%03d"):format(60, 60)
  return table.concat(out, "\n") .. "\n"
end

local text = generate()

-- reference: the same description, as Lua tables keyed by hex
local TERRAIN = { ["."] = "all-sea", c = "coastal", L = "all-land", r = "restricted", ["~"] = "lake" }
local function lua_board(desc)
  local hex = keel.hex
  local b = { terrain = {}, owner = {}, zone = {}, port = {}, tags = {}, side = {} }
  for _, s in ipairs(desc.statements) do
    if s.kind == "terrain" then
      for ri, row in ipairs(s.rows) do
        local txt = row[2]
        for ci = 1, #txt do
          local h = hex.from_offset("even-q", ci, ri)
          b.terrain[h] = TERRAIN[txt:sub(ci, ci)]
          b.side[h] = { 0, 0, 0 }
        end
      end
    elseif s.kind == "port" then
      local c, r = s.hex[2]:match("(%d%d%d)(%d%d%d)$")
      b.port[hex.from_offset("even-q", tonumber(c), tonumber(r))] = { size = s.size[2] }
    elseif s.kind == "owner" or s.kind == "zone" or s.kind == "tag" then
      for _, item in ipairs(s.hexes or {}) do
        local c1, r1 = item[2]:match("(%d%d%d)(%d%d%d)$")
        local c2, r2 = item[3]:match("(%d%d%d)(%d%d%d)$")
        for r = tonumber(r1), tonumber(r2) do
          for c = tonumber(c1), tonumber(c2) do
            local h = hex.from_offset("even-q", c, r)
            if s.kind == "tag" then b.tags[h] = { s.name[2] } else b[s.kind][h] = s.name[2] end
          end
        end
      end
    end
  end
  return b
end

local board = assert(map.load_string(text, "bench.map"))
local st = board:stats()
board:close()
collectgarbage("collect")
local before = collectgarbage("count")
local ref = lua_board(assert(map.parse(text, "bench.map")))
collectgarbage("collect")
local ref_bytes = (collectgarbage("count") - before) * 1024
assert(next(ref.terrain))

print(("board 256x256: %d hexes, map text %d bytes"):format(st.hexes, #text))
print(("%-44s keel %8.1f B | lua tables %8.1f B | ratio %.2fx"):format("bytes per hex:",
  st.bytes_per_hex, ref_bytes / st.hexes, ref_bytes / st.hexes / st.bytes_per_hex))

local parse_s = lib.time(function(n)
  for _ = 1, n do assert(map.parse(text, "bench.map")) end
end, 0.5)
local keel_s = lib.time(function(n)
  for _ = 1, n do assert(map.load_string(text, "bench.map")):close() end
end, 0.5)
local ref_s = lib.time(function(n)
  for _ = 1, n do lua_board(assert(map.parse(text, "bench.map"))) end
end, 0.5)
lib.compare("load 256x256 (parse + build)", keel_s, "lua tables", ref_s)
print(("  of which the LPeg parse (the same in both): %s"):format(lib.fmt_time(parse_s)))

-- a query loop: terrain of every hex, through the binding vs a table lookup
board = assert(map.load_string(text, "bench.map"))
local hexes = board:hexes()
local lua_ref = lua_board(assert(map.parse(text, "bench.map")))
local q_keel = lib.time(function(n)
  for _ = 1, n do for i = 1, #hexes do board:get_terrain(hexes[i]) end end
end) / #hexes
local q_ref = lib.time(function(n)
  local tt = lua_ref.terrain
  for _ = 1, n do for i = 1, #hexes do local _ = tt[hexes[i]] end end
end) / #hexes
lib.compare("terrain query, per hex", q_keel, "lua table", q_ref)
board:close()

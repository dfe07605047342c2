-- bench/state_bench.lua — the game state: journaled events per second,
-- a transaction with the journal on vs off, save and load of a 65,536-hex
-- board with 5,000 units, and bytes per unit. Each figure beside a plain
-- Lua-table implementation of the same thing, measured in the same run.
package.path = "bench/?.lua;" .. package.path
local lib = require "lib"
local keel = require "keel"
local game_mod = require "keel.game"
local S = keel.state

local fmt = string.format

-- ---- events appended --------------------------------------------------------------
do
  local st = S.new()
  local id = st:unit_new("BB", "BB", "Allied")
  st:begin()
  local keel_s = lib.time(function(n) for _ = 1, n do st:add_hits(id, 1) end end)
  -- reference: a Lua table unit and a journal of formatted lines
  local u, journal = { hits = 0 }, {}
  local ref_s = lib.time(function(n)
    for _ = 1, n do
      local old = u.hits
      u.hits = old + 1
      journal[#journal + 1] = fmt('{"ev":"set","rule":null,"unit":%d,"field":"hits","old":%d,"new":%d}', 1, old, old + 1)
      journal[#journal + 1] = { kind = "hits", unit = 1, old = old, new = old + 1 }   -- undo record
    end
  end)
  lib.compare(fmt("journaled change (%.2f M events/s)", 1e-6 / keel_s), keel_s, "lua table+journal", ref_s)
end

-- ---- a transaction, journal on vs off ----------------------------------------------------
do
  local function tx_cost(journal)
    local g = game_mod.new { seed = 1, journal = journal }
    local ids = {}
    for i = 1, 10 do ids[i] = g:unit_new { name = "u" .. i, type = "DD", side = "Allied" } end
    local body = function(gm) for i = 1, 10 do gm:add_hits(ids[i], 1) end end
    local opts = { rule = "27.A.3" }
    return lib.time(function(n) for _ = 1, n do g:transaction(body, opts) end end)
  end
  local on, off = tx_cost(true), tx_cost(false)
  lib.compare("transaction of 10 hits, journal on (ref: off)", on, "journal off", off)
end

-- ---- save and load: 65,536 hexes owned, 5,000 units ------------------------------------------
local NUNITS = 5000
local function build_keel()
  local g = game_mod.new { seed = 1, journal = false }
  for i = 1, NUNITS do
    local id = g:unit_new { name = "unit " .. i, type = (i % 3 == 0) and "DD" or "NT", side = i % 2 == 0 and "Allied" or "Axis",
                            values = { strength = i % 7, speed = 9, ["capacity.RE"] = 1 } }
    g:move(id, "hex", ((i % 256) << 32) | (i // 256))
    if i % 5 == 0 then g:add_marker(id, "DG", 1) end
  end
  local st = g.state
  for q = 0, 255 do
    local hexes = {}
    for r = 0, 255 do hexes[#hexes + 1] = (q << 32) | r end
    st:set_owner(hexes, q % 2 == 0 and "Allied" or "Axis")
  end
  return g
end

local function build_lua()
  local units, owner = {}, {}
  for i = 1, NUNITS do
    units[i] = { id = i, name = "unit " .. i, type = (i % 3 == 0) and "DD" or "NT", side = i % 2 == 0 and "Allied" or "Axis",
                 face = "full", hits = 0, points = 0, loc = "hex", where = ((i % 256) << 32) | (i // 256),
                 values = { strength = i % 7, speed = 9, ["capacity.RE"] = 1 }, markers = i % 5 == 0 and { DG = 1 } or {} }
  end
  for q = 0, 255 do for r = 0, 255 do owner[(q << 32) | r] = q % 2 == 0 and "Allied" or "Axis" end end
  return { units = units, owner = owner }
end

-- reference serializer: a Lua chunk read back with load()
local function lua_save(s)
  local out = { "return {units={" }
  for _, u in ipairs(s.units) do
    out[#out + 1] = fmt("{id=%d,name=%q,type=%q,side=%q,face=%q,hits=%d,points=%d,loc=%q,where=%d,values={strength=%d,speed=%d,[\"capacity.RE\"]=%d},markers={%s}},",
      u.id, u.name, u.type, u.side, u.face, u.hits, u.points, u.loc, u.where, u.values.strength, u.values.speed,
      u.values["capacity.RE"], u.markers.DG and "DG=1" or "")
  end
  out[#out + 1] = "},owner={"
  local hexes = {}
  for h in pairs(s.owner) do hexes[#hexes + 1] = h end
  table.sort(hexes)
  for _, h in ipairs(hexes) do out[#out + 1] = fmt("[%d]=%q,", h, s.owner[h]) end
  out[#out + 1] = "}}"
  return table.concat(out)
end

do
  local g = build_keel()
  local ref = build_lua()
  local text
  local save_s = lib.time(function(n) for _ = 1, n do text = g.state:save_text() end end, 0.5)
  local ref_text
  local ref_save_s = lib.time(function(n) for _ = 1, n do ref_text = lua_save(ref) end end, 0.5)
  lib.compare(fmt("save 5,000 units + 65,536 hexes (%.1f MB)", #text / 1e6), save_s, "lua chunk", ref_save_s)
  local load_s = lib.time(function(n) for _ = 1, n do local st = assert(S.load_text(text)); st:close() end end, 0.5)
  local ref_load_s = lib.time(function(n) for _ = 1, n do assert(load(ref_text))() end end, 0.5)
  lib.compare("load the same (checksum, parse, rebuild)", load_s, "lua load()", ref_load_s)
  local path = os.tmpname()
  local file_s = lib.time(function(n) for _ = 1, n do assert(g:save(path)) end end, 0.5)
  local plain_s = lib.time(function(n)
    for _ = 1, n do local f = assert(io.open(path .. ".plain", "wb")); f:write(text); f:close() end
  end, 0.5)
  lib.compare("atomic save to a file (fsync x2, rename)", file_s, "io.write, no fsync", plain_s)
  os.remove(path); os.remove(path .. ".plain")

  -- bytes per unit: the kernel's arrays vs Lua tables holding the same
  local _, unit_bytes = g.state:memory()
  collectgarbage(); collectgarbage()
  local before = collectgarbage("count")
  local lua_units = {}
  for i = 1, NUNITS do
    lua_units[i] = { id = i, name = "unit " .. i, type = (i % 3 == 0) and "DD" or "NT", side = i % 2 == 0 and "Allied" or "Axis",
                     face = "full", hits = 0, points = 0, loc = "hex", where = ((i % 256) << 32) | (i // 256),
                     values = { strength = i % 7, speed = 9, ["capacity.RE"] = 1 }, markers = i % 5 == 0 and { DG = 1 } or {} }
  end
  collectgarbage(); collectgarbage()
  local after = collectgarbage("count")
  local lua_bytes = (after - before) * 1024
  local kb, lb = unit_bytes / NUNITS, math.max(lua_bytes, 1) / NUNITS
  print(fmt("%-44s keel %7.0f B | lua tables %7.0f B | ratio %.2fx", "bytes per unit (3 values, 0-1 marker):", kb, lb, lb / kb))
  local _ = lua_units
  print(fmt("%-44s %d bytes (state hash %s)", "whole state in memory:", (g.state:memory()), g:hash_hex()))
end

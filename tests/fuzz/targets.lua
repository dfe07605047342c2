--- tests/fuzz/targets.lua — what each fuzz target does with one input.
--
-- Shared by the libFuzzer harness (tests/fuzz/fuzz.c, `make fuzz`) and the
-- regression run of the corpora in `make test` (tests/lua/fuzz_corpus_test.lua).
-- A target may accept or refuse its input; it fails (raises a message
-- starting with "FUZZ:") only when keel misbehaves: an error that does not
-- name the input's file and line, an error raised from inside keel's own Lua
-- where a clear refusal was owed, or a result that breaks an invariant.
-- Crashes, sanitizer reports and hangs are caught by the harness itself.
local keel = require "keel"
local map = require "keel.map"
local tables = require "keel.tables"

local M = {}

local function bad(target, what, detail)
  error(("FUZZ: %s: %s: %s"):format(target, what, tostring(detail)), 0)
end

-- A refusal must name the input first (`name:LINE:` where there is a line,
-- `name:` for what concerns the whole file) and print no address.
local function check_refusal(target, name, msg)
  if type(msg) ~= "string" then bad(target, "non-string error", msg) end
  local prefix = name .. ":"
  if msg:sub(1, #prefix) ~= prefix then bad(target, "error does not name " .. name, msg) end
  if msg:find("table: 0x", 1, true) or msg:find("userdata: 0x", 1, true) then
    bad(target, "error prints an address", msg)
  end
end

--- A map text: parsed and built, or refused with file:line:col.
function M.map(data)
  local ok, board, err = pcall(map.load_string, data, "fuzz.map")
  if not ok then bad("map", "raised instead of refusing", board) end
  if not board then return check_refusal("map", "fuzz.map", err) end
  -- a built board answers for every hex it says it has
  local hexes = board:hexes()
  for i = 1, math.min(#hexes, 64) do board:get_terrain(hexes[i]) end
  board:close()
end

--- A table file: parsed, or refused with file:line:col.
function M.tables(data)
  local ok, ts = pcall(tables.parse, data, "fuzz.tbl")
  if not ok then return check_refusal("tables", "fuzz.tbl", ts) end
  for _, t in ipairs(ts) do
    if t.dice and t.sorted then
      -- every roll finds a row (beyond the ends it clamps)
      for v = -20, 40 do
        if not t:lookup(v) then bad("tables", "a roll finds no row", v) end
      end
    end
  end
end

--- A save: loaded, or refused naming the file; a loaded save saves back
--- byte-identical.
function M.save(data)
  local ok, st, meta = pcall(keel.state.load_text, data, "fuzz.save")
  if not ok then bad("save", "raised instead of refusing", st) end
  if not st then return check_refusal("save", "fuzz.save", meta) end
  local pairs_ = {}
  for i, kv in ipairs(meta) do pairs_[i] = kv end
  local again = st:save_text(pairs_)
  local st2, meta2 = keel.state.load_text(again, "fuzz.save")
  if not st2 then bad("save", "a saved state does not load again", meta2) end
  if st2:save_text(meta2) ~= again then bad("save", "save -> load -> save is not identical", #again) end
  if st2:hash() ~= st:hash() then bad("save", "the hash changed across save and load", st:hash()) end
  st:close(); st2:close()
end

-- Integers a fuzzer should try on every argument.
local EXTREMES = { 0, 1, -1, 2, 7, 255, 65536, math.maxinteger, math.mininteger,
  math.maxinteger - 1, -math.maxinteger, 1 << 31, -(1 << 31), 1 << 32, 0.5, -0.0 }

local hex_names
--- The pure bindings (keel.hex): each input byte picks a function and its
--- arguments; every call returns or raises a Lua error, never crashes.
function M.bindings(data)
  if not hex_names then
    hex_names = {}
    for name, f in pairs(keel.hex) do if type(f) == "function" then hex_names[#hex_names + 1] = name end end
    table.sort(hex_names)
  end
  local i = 1
  while i + 3 <= #data do
    local f = keel.hex[hex_names[data:byte(i) % #hex_names + 1]]
    local a = EXTREMES[data:byte(i + 1) % #EXTREMES + 1]
    local b = EXTREMES[data:byte(i + 2) % #EXTREMES + 1]
    local c = EXTREMES[data:byte(i + 3) % #EXTREMES + 1]
    pcall(f, a, b, c)
    i = i + 4
  end
end

--- Target names in a fixed order.
M.names = { "bindings", "map", "save", "tables" }

return M

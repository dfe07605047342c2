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
-- (An address the input wrote itself, quoted back, is the input's.)
local function check_refusal(target, name, msg, input)
  if type(msg) ~= "string" then bad(target, "non-string error", msg) end
  local prefix = name .. ":"
  if msg:sub(1, #prefix) ~= prefix then bad(target, "error does not name " .. name, msg) end
  for _, a in ipairs { "table: 0x", "userdata: 0x" } do
    if msg:find(a, 1, true) and not (input and input:find(a, 1, true)) then
      bad(target, "error prints an address", msg)
    end
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

-- Values a fuzzer should try on every argument: integers at the edges,
-- floats, strings, tables of them, nil.
local EXTREMES = { 0, 1, -1, 2, 7, 255, 65536, math.maxinteger, math.mininteger,
  math.maxinteger - 1, -math.maxinteger, 1 << 31, -(1 << 31), 1 << 32, 0.5, -0.0,
  1 << 62, -(1 << 62), (1 << 31) - 1, 1 << 16, 1e308, -1e308, 0/0, math.huge, -math.huge,
  "", "A", "full", "hits", "strength", "hex", "33:1223", "33:1223/1224", "x", "1d6", "2d6+1",
  "9223372036854775807d6", "1d9223372036854775807", "1d6+9223372036854775807",
  true, false, {}, { 1, 2 }, { math.maxinteger, math.mininteger }, { name = "S", col = 1, row = 1 } }

-- The objects each input plays with, made afresh: the pure modules scripts
-- get (keel.hex, grid, seaboxes, areas) and what rules reach through the
-- game's facade (a state, a board) and ctx:roll (dice).
local MAP = [[
map "fuzz"
hexes flat even digits 2 first 1 1
section 33 at 0 0 size 4 4
default all-sea
terrain at 33:0101 {
  . . . .
  . L c .
}
port 33:0303 minor "Port"
tag crete 33:0202..0302
zone "Sea" 33:0101..0404
]]

local function methods_of(obj)
  local names = {}
  local mt = getmetatable(obj)
  local idx = type(mt) == "table" and rawget(mt, "__index")
  if type(idx) == "table" then
    for k, v in pairs(idx) do if type(v) == "function" then names[#names + 1] = k end end
  end
  table.sort(names)
  return names
end

-- methods that touch files or the process: not for a fuzzer
local SKIP = { save = true, load = true, close = true, on_roll = true }

local function module_functions(mod)
  local names = {}
  for k, v in pairs(mod) do if type(v) == "function" then names[#names + 1] = k end end
  table.sort(names)
  return names
end

local subjects
local function make_subjects()
  local out = {}
  local function add(name, self, fn_names, lookup)
    local list = {}
    for _, n in ipairs(fn_names) do if not SKIP[n] then list[#list + 1] = n end end
    out[#out + 1] = { name = name, self = self, names = list, lookup = lookup }
  end
  add("hex", nil, module_functions(keel.hex), function(n) return keel.hex[n] end)
  add("grid.new", nil, { "new" }, function() return keel.grid.new end)
  add("seaboxes.new", nil, { "new" }, function() return keel.seaboxes.new end)
  add("dice.new", nil, { "new" }, function() return keel.dice.new end)
  local grid = keel.grid.new { orientation = "flat", shift = "odd", digits = 2,
                               sections = { { name = "33", col = 0, row = 0 } } }
  add("grid", grid, methods_of(grid))
  local sb = keel.seaboxes.new { radius = 2 }
  add("seaboxes", sb, methods_of(sb))
  local areas = keel.areas.new():add("A", { keel.hex.from_qr(0, 0) }):add("B", { keel.hex.from_qr(1, 0) })
  add("areas", areas, methods_of(areas))
  local st = keel.state.new()
  st:unit_new("Warspite", "BB", "Allied")
  st:unit_new("Valiant", "BB", "Allied")
  st:group_new("Force H")
  add("state", st, methods_of(st))
  local board = assert(map.load_string(MAP, "fuzz.map"))
  add("board", board, methods_of(board))
  local dice = keel.dice.new(7)
  add("dice", dice, methods_of(dice))
  return out
end

--- The bindings scripts reach: each input byte picks an object (a module,
--- a grid, sea boxes, areas, a game state, a board, dice), one of its
--- functions and three arguments; every call returns or raises a Lua
--- error, never crashes or overflows (the sanitizer build).
function M.bindings(data)
  subjects = subjects or make_subjects()
  local i = 1
  while i + 4 <= #data do
    local s = subjects[data:byte(i) % #subjects + 1]
    local name = s.names[data:byte(i + 1) % #s.names + 1]
    local a = EXTREMES[data:byte(i + 2) % #EXTREMES + 1]
    local b = EXTREMES[data:byte(i + 3) % #EXTREMES + 1]
    local c = EXTREMES[data:byte(i + 4) % #EXTREMES + 1]
    if s.self then
      local f = s.self[name]
      pcall(f, s.self, a, b, c)
    else
      pcall(s.lookup(name), a, b, c)
    end
    i = i + 5
  end
  -- a state whose transactions the input left open is closed again
  for _, s in ipairs(subjects) do
    if s.name == "state" then
      while s.self:depth() > 0 do s.self:rollback(s.self:depth()) end
      pcall(s.self.action_end, s.self)
    end
  end
end

--- A journal: replayed (keel.replay, as keel replay plays it: its scenario set up from
--- the header, each order played as keel run plays it, under a CPU limit
--- of 1 s), or refused naming fuzz.jsonl and its line. A replay that
--- diverges or is refused reports so with a message naming the journal.
function M.journal(data)
  local replay = require "keel.replay"
  local ok, rep = pcall(replay.replay, "fuzz.jsonl", { text = data, cpu = 1 })
  if not ok then return check_refusal("journal", "fuzz.jsonl", rep, data) end
  if type(rep) ~= "table" or type(rep.ok) ~= "boolean" then bad("journal", "no report", rep) end
  check_refusal("journal", "fuzz.jsonl", rep.message, data)
end

-- The scratch file the scenario target writes (under build/, so that the
-- seeds can name the families and maps of the tree relative to it).
local SCRATCH = "build/fuzz/scratch"
local scenario_box

--- A scenario file: played as keel run plays it (a sandbox state of its
--- own, 64 MiB, 1 s per action, quietly), or refused with a message that
--- names a file (the scenario, or a family, variant or map it names) and
--- neither an address nor a place inside keel's own Lua.
function M.scenario(data)
  os.execute("mkdir -p " .. SCRATCH)
  local path = SCRATCH .. "/fuzz.lua"
  local f = assert(io.open(path, "wb"))
  f:write(data)
  f:close()
  scenario_box = scenario_box or keel.sandbox.new { memory = 64 * 1024 * 1024 }
  local ok, status, msg = scenario_box:call("keel.runner", "play", path,
    { quiet = true, silent = true, cpu = 1, memory = 64 * 1024 * 1024 })
  if not ok then
    if msg == "memory" then return end   -- out of memory outside any action: the state is rebuilt
    bad("scenario", "the sandbox call failed", status)
  end
  if status ~= 0 and status ~= 1 then bad("scenario", "exit status", status) end
  if msg ~= nil then
    if type(msg) ~= "string" then bad("scenario", "non-string error", msg) end
    local first = msg:match("^[^\n]*")
    if not first:match("^[^:%s][^:]*:") then bad("scenario", "error names no file", first) end
    if first:find("keel/[%w_/]+%.lua:%d+:") then bad("scenario", "error points into keel's own Lua", first) end
    for _, a in ipairs { "table: 0x", "userdata: 0x" } do   -- (unless the file wrote it itself)
      if msg:find(a, 1, true) and not data:find(a, 1, true) then bad("scenario", "error prints an address", msg) end
    end
  end
end

-- The served folder of the serve target (build/, rebuilt once per process):
-- copies of the probe scenario and the Suez showcase, whose map and
-- families are links into the tree (read by the scenario, not named by a
-- client); what an input saves lands here, never in the tree.
local SERVE_ROOT = "build/fuzz/serve-root"
local serve_root

local function make_serve_root()
  local here = assert(io.popen("pwd")):read("l")
  local root = here .. "/" .. SERVE_ROOT
  local q = function(p) return "'" .. p:gsub("'", "'\\''") .. "'" end
  assert(os.execute(("rm -rf %s && mkdir -p %s/tests/scenarios %s/tests/families %s/scenarios"):format(
    q(root), q(root), q(root), q(root))))
  assert(os.execute(("cp tests/scenarios/serve_probe.lua %s/tests/scenarios/ && cp -r tests/families/serve_probe %s/tests/families/"
    .. " && cp scenarios/suez_1942.lua %s/scenarios/ && ln -s %s %s/scenarios/maps && ln -s %s %s/scenarios/families")
    :format(q(root), q(root), q(root), q(here .. "/scenarios/maps"), q(root), q(here .. "/scenarios/families"), q(root))))
  return root
end

local function valid_utf8(s) return utf8.len(s) ~= nil end

--- Protocol requests (keel serve): each line of the input is one request
--- to a new session (keel.serve) whose root is a scratch folder holding the
--- probe scenario and the Suez showcase. Every request gets one response:
--- one line of valid UTF-8 JSON, an object with `ok` a boolean, its `id`
--- the request's when that has a JSON form; a refusal is a message that
--- names no place in keel's own Lua; and a refused request leaves the game
--- as it was (the same game open, the same state hash).
function M.serve(data)
  local json = require "keel.json"
  local serve = require "keel.serve"
  serve_root = serve_root or make_serve_root()
  local s = serve.new { root = serve_root }
  local n = 0
  for line in data:gmatch("[^\n]+") do
    n = n + 1
    if n > 64 then break end
    local run = s.run
    local before = run and run.game:hash_hex()
    local ok, out = pcall(s.handle_line, s, line)
    if not ok then bad("serve", "handle_line raised", out) end
    if type(out) ~= "string" or out:find("\n", 1, true) then bad("serve", "not one line", out) end
    if not valid_utf8(out) then bad("serve", "a response that is not UTF-8", out) end
    local resp = json.decode(out, { nulls = false })
    if type(resp) ~= "table" or type(resp.ok) ~= "boolean" then bad("serve", "not a response", out) end
    local req = json.decode(line, { nulls = false })
    if type(req) == "table" then
      local iok, id = pcall(json.encode, req.id)
      if iok and json.encode(resp.id) ~= id then bad("serve", "the id is not the request's", out) end
    end
    if not resp.ok then
      local msg = type(resp.error) == "table" and resp.error.message
      if type(msg) ~= "string" then bad("serve", "a refusal without a message", out) end
      if msg:find("keel/[%w_/]+%.lua:%d+:") then bad("serve", "a refusal points into keel's own Lua", msg) end
      if s.run ~= run then bad("serve", "a refused request changed the game open", out) end
      if run and run.game:hash_hex() ~= before then bad("serve", "a refused request changed the state", out) end
    end
    if s.quit then break end
  end
end

--- A `keel lab --json` file (a shard or a whole study): read back, checked
--- and merged as `keel lab merge shard.json` does, its report made; or
--- refused naming shard.json, never from inside keel's own Lua.
function M.lab(data)
  local lab = require "keel.lab"
  local ok, err = pcall(function()
    local merged = lab.merge({ lab.decode(data, "shard.json") }, { "shard.json" })
    lab.encode(merged)
    require("keel.lab_report").text(merged)
  end)
  if ok then return end
  if type(err) == "string" then err = err:gsub("^lab merge: ", "") end
  check_refusal("lab", "shard.json", err, data)
  if err:find("keel/[%w_/]+%.lua:%d+:") then bad("lab", "error points into keel's own Lua", err) end
end

-- for tools that write inputs of the bindings target by hand
M._extremes = EXTREMES
function M._subjects() subjects = subjects or make_subjects(); return subjects end

--- Target names in a fixed order.
M.names = { "bindings", "journal", "lab", "map", "save", "scenario", "serve", "tables" }

return M

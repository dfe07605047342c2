--- keel.new — `keel new family|variant|scenario`: a small working start for
-- a rule author's own folder, outside keel's tree. What it writes passes
-- `keel check` and plays straight away:
--
--   family NAME      NAME/manifest.lua, NAME/NAME.lua (one rule with a
--                    placeholder id, X.1, and an action each side takes),
--                    NAME/tables/raid.tbl, and the rule's test
--                    NAME/tests/X.1.lua (a scenario whose orders carry
--                    expectations: `keel run` exits 0 when they are met)
--   variant FILE     a variant of a family that changes one named row of
--                    one of its tables (to what it is: edit it)
--   scenario FILE    a scenario with a sequence of play, a length, a
--                    victory condition, one force per side, and orders that
--                    play it to its end
--
-- Beside what it makes it writes a .luacheckrc (luacheck with keel's stds:
-- keel.luacheck_stds, where keel is installed) and a .luarc.json (LuaLS
-- with keel's meta files). It never overwrites a file: a .luacheckrc that
-- `keel new` wrote gets a line for the new thing; any other .luacheckrc or
-- .luarc.json is left as it is.
local keel = require "keel"

local M = {}

local concat = table.concat

--- The marker of a .luacheckrc `keel new` wrote (it adds lines to it).
M.MARKER = "written by `keel new`"

--- The placeholder id of the family's one rule.
M.RULE_ID = "X.1"

--- The sides of a new scenario.
M.SIDES = { "Blue", "Red" }

--- The most orders a new scenario's scripted line has (past half of them, only passes).
M.MAX_ORDERS = 1000

--- A value as Lua source: strings, numbers, booleans, lists of them.
---@param v any
---@return string
function M.literal(v)
  if type(v) == "string" then return ("%q"):format(v) end
  if type(v) == "table" then
    local parts = {}
    for i, x in ipairs(v) do parts[i] = M.literal(x) end
    return "{ " .. concat(parts, ", ") .. " }"
  end
  return tostring(v)
end

--- An order a player gave (action `name`, its parameters as ids) as a
--- scenario writes it: units, groups and hexes by name and label. nil when
--- a parameter has no name to write (a table, a unit without a unique name).
---@param run table a keel.scenario run
---@param name string
---@param params table
---@param side string
---@return table|nil order
function M.named(run, name, params, side)
  local a = run.set.actions and run.set.actions[name]
  if not a then return nil end
  local game = run.game
  local function unit_name(id)
    local ok, n = pcall(game.get, game, id, "name")
    if ok and type(n) == "string" and run.units[n] == id then return n end
  end
  local order = { name, by = side }
  for k, v in pairs(params or {}) do
    local p = a.def.params[k]
    local t = p and p.type
    local out
    if t == "unit" then out = unit_name(v)
    elseif t == "units" and type(v) == "table" then
      out = {}
      for i, id in ipairs(v) do
        out[i] = unit_name(id)
        if not out[i] then return nil end
      end
    elseif t == "group" then
      local ok, n = pcall(game.group_get_name, game, v)
      out = ok and type(n) == "string" and run:group_named(n) == v and n or nil
    elseif t == "hex" then
      out = run.board and math.type(v) == "integer" and run.board:format(v) or nil
    elseif t == "integer" or t == "number" or t == "string" or t == "boolean" then
      out = v
    end
    if out == nil or type(k) ~= "string" or k == "by" or k == "expect" then return nil end
    order[k] = out
  end
  return order
end

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() return true end
  return false
end

local function dir_of(path) return path:match("^(.*)/[^/]*$") or "." end
-- "dir/name", or "name" in the current folder
local function join(dir, name) return dir == "." and name or (dir .. "/" .. name) end
local function base_of(path) return path:match("([^/]*)$") end

local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function mkdir(dir)
  if exists(dir .. "/.") then return end
  local ok = os.execute("mkdir -p " .. quote(dir))
  if not ok then error(("cannot make the folder %s"):format(dir), 0) end
end

-- {{name}} -> vars.name
local function fill(text, vars)
  return (text:gsub("{{([%w_]+)}}", function(k)
    local v = vars[k]
    if v == nil then error("template: no value for " .. k) end
    return tostring(v)
  end))
end

-- Write each { path, text } of `files`, none of which may exist yet (all
-- are checked before the first is written).
local function write_all(files)
  for _, f in ipairs(files) do
    if exists(f[1]) then
      error(("%s exists already: keel new never overwrites a file (remove it, or choose another name)"):format(f[1]), 0)
    end
  end
  for _, f in ipairs(files) do
    mkdir(dir_of(f[1]))
    local out, err = io.open(f[1], "wb")
    if not out then error(("cannot write %s: %s"):format(f[1], tostring(err)), 0) end
    out:write(f[2])
    out:close()
  end
end

-- ---- the tools' files -------------------------------------------------------------------

--- Where keel's luacheck stds are (this keel's scripts folder).
---@return string
function M.stds_file() return keel.script_dir .. "/keel/luacheck_stds.lua" end
--- Where keel's LuaLS meta files are (this keel's scripts folder).
---@return string
function M.meta_dir() return keel.script_dir .. "/keel/meta" end

local LUACHECKRC = [[
-- .luacheckrc {{marker}} (keel {{version}}): luacheck checks the rule
-- files, variants and scenarios of this folder as keel's sandbox runs them,
-- with keel's stds (what the sandbox gives each kind of file). `keel new`
-- adds a line below for each thing it makes; `keel check` runs luacheck so too.
dofile({{stds}}).define(stds)
std = "lua54"
max_line_length = 120
]]

--- The line of .luacheckrc for one thing `keel new` makes (path relative
--- to the .luacheckrc's folder).
---@param rel string
---@param kind "family"|"variant"|"scenario"
---@return string
function M.luacheck_line(rel, kind)
  return ("files[%q] = { std = %q }\n"):format(rel, require("keel.luacheck_stds").std[kind])
end

local function json_string(s) return require("keel.json").encode(s) end

--- The .luarc.json: LuaLS with keel's meta files, Lua 5.4, and what the
--- sandbox takes away switched off.
---@return string
function M.luarc()
  return concat({
    "{",
    '  "runtime.version": "Lua 5.4",',
    '  "runtime.builtin": { "io": "disable", "os": "disable", "debug": "disable", "package": "disable" },',
    '  "workspace.library": [ ' .. json_string(M.meta_dir()) .. " ],",
    '  "workspace.checkThirdParty": false',
    "}",
    "",
  }, "\n")
end

-- The .luacheckrc and .luarc.json of `dir`, for `lines` (relative path,
-- kind): written when absent; a .luacheckrc keel new wrote gets the lines
-- it lacks. Returns what it did, one line each.
local function tool_files(dir, lines)
  local did = {}
  local rc = join(dir, ".luacheckrc")
  local want = {}
  for i, l in ipairs(lines) do want[i] = M.luacheck_line(l[1], l[2]) end
  if not exists(rc) then
    write_all { { rc, fill(LUACHECKRC, { marker = M.MARKER, version = keel.version, stds = ("%q"):format(M.stds_file()) })
      .. concat(want) } }
    did[#did + 1] = "wrote " .. rc
  else
    local f = assert(io.open(rc, "rb"))
    local text = f:read("a")
    f:close()
    if text:find(M.MARKER, 1, true) then
      local add = {}
      for _, l in ipairs(want) do
        if not text:find(l, 1, true) then add[#add + 1] = l end
      end
      if #add > 0 then
        local out = assert(io.open(rc, "ab"))
        out:write(concat(add))
        out:close()
        did[#did + 1] = "added to " .. rc .. ": " .. concat(add):gsub("\n$", ""):gsub("\n", "; ")
      end
    else
      did[#did + 1] = ("left %s as it is (not keel new's); it wants: %s"):format(rc,
        concat(want):gsub("\n$", ""):gsub("\n", "; "))
    end
  end
  local luarc = join(dir, ".luarc.json")
  if not exists(luarc) then
    write_all { { luarc, M.luarc() } }
    did[#did + 1] = "wrote " .. luarc
  end
  return did
end

-- ---- family -------------------------------------------------------------------------------

local MANIFEST = [[
-- {{name}} — a rule family started with `keel new family` (keel {{version}}).
-- The manifest names the family, the rulebook it implements, the families
-- it builds on (loaded first), its rule files in load order, its tables and
-- its sequence of play (doc/guide.md). `keel check {{name}}` checks it;
-- `keel run {{name}}/tests/{{id}}.lua` runs the test of its rule.
return family {
  name = "{{name}}",
  rulebook = "{{name}}: name the rulebook these rules implement",
  depends = {},
  files = { "{{name}}.lua" },
  tables = { "raid.tbl" },
  -- the rulebook's sequence of play (a scenario names the sides)
  sequence = {
    cite = "X.0 (a placeholder: cite the rulebook's sequence of play)",
    phases = { { name = "operations" } },
  },
}
]]

local RULE = [[
-- {{id}} Raids (a placeholder: give the rulebook's id, title and text). In
-- its operations phase a side sends each of its units on one raid a turn;
-- the RAID TABLE says how many victory points the raid scores.
rule {
  id = "{{id}}", title = "Raids",
  values = { vp_map = "vp" },
  actions = {
    raid = {
      side = "phasing", phases = { "operations" },
      params = {
        -- the domain lists what a player may choose (keel play, a user interface)
        unit = { type = "unit", title = "the raider", domain = function(ctx, _, side)
          local g, out = ctx.game, {}
          for _, u in ipairs(g:units()) do
            if (side == nil or g:get(u, "side") == side) and g:get_value(u, "raided") ~= g:get_turn() then
              out[#out + 1] = u
            end
          end
          return out
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        if g:get(p.unit, "side") ~= ctx:status().phasing then return "a side raids with its own units" end
        if g:get_value(p.unit, "raided") == g:get_turn() then return "a unit raids once a turn" end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local key, vp = { g:get(p.unit, "side") }, ctx.rule.values.vp_map
        local result = ctx:resolve("raid", {}, { reason = "raid by " .. g:get(p.unit, "name") })
        g:set_keyed(vp, key, (g:get_keyed(vp, key) or 0) + result.value)
        g:set_value(p.unit, "raided", g:get_turn())
      end,
    },
  },
}
]]

local TABLE = [[
-- {{id}}'s RAID TABLE (a placeholder: the rulebook's table as it prints it;
-- doc/tables.md gives the format).
table raid
title RAID TABLE
rule  {{id}}
dice  1d6

rows
1-2   0
3-5   1
6     2
]]

local RULE_TEST = [[
-- The test of rule {{id}}: `keel run {{name}}/tests/{{id}}.lua` meets every
-- expectation (exit status 0); `keel check {{name}}` runs it too. A scenario
-- without a map: its units are off the board.
return scenario {
  name = "{{id}} raids",
  path = { "../.." },
  rules = { "{{name}}" },
  seed = 1,
  sequence = { sides = { "{{blue}}", "{{red}}" } },
  turns = 1,
  forces = {
    { name = "{{blue}} 1", type = "raider", side = "{{blue}}" },
    { name = "{{red}} 1", type = "raider", side = "{{red}}" },
  },
  orders = {
    { "raid", by = "{{red}}", unit = "{{red}} 1", expect = { refused = "{{blue}} is to act" } },
    { "raid", by = "{{blue}}", unit = "{{blue}} 1" },
    { "raid", by = "{{blue}}", unit = "{{blue}} 1", expect = { illegal = "once a turn" } },
    { "end_phase", by = "{{blue}}" },
    { "raid", by = "{{red}}", unit = "{{red}} 1" },
  },
}
]]

local function check_name(name)
  if type(name) ~= "string" or not name:match("^[%a_][%w_%-]*$") then
    error(("bad family name %q: letters, digits, '_' and '-', beginning with a letter"):format(tostring(name)), 0)
  end
end

--- Write a new family at `dir` (its name is the folder's); returns the
--- lines saying what was written.
---@param dir string
---@return string[]
function M.family(dir)
  dir = dir:gsub("/+$", "")
  local name = base_of(dir)
  check_name(name)
  local vars = { name = name, id = M.RULE_ID, version = keel.version, blue = M.SIDES[1], red = M.SIDES[2] }
  local files = {
    { dir .. "/manifest.lua", fill(MANIFEST, vars) },
    { dir .. "/" .. name .. ".lua", fill(RULE, vars) },
    { dir .. "/tables/raid.tbl", fill(TABLE, vars) },
    { dir .. "/tests/" .. M.RULE_ID .. ".lua", fill(RULE_TEST, vars) },
  }
  write_all(files)
  local did = {}
  for _, f in ipairs(files) do did[#did + 1] = "wrote " .. f[1] end
  for _, l in ipairs(tool_files(dir_of(dir), { { name, "family" }, { name .. "/tests", "scenario" } })) do
    did[#did + 1] = l
  end
  return did
end

-- ---- variant ------------------------------------------------------------------------------

local VARIANT = [[
-- {{title}} — a house rule of {{family}}, started with `keel new variant`
-- (keel {{version}}). A variant changes rules by id and tables by name without
-- editing the family: set_values, disable, wrap, replace, add, set_row
-- (doc/guide.md, section 3). `keel check {{file}}` checks it;
-- `keel rules --variant {{file}}` shows what it changed.
variant { name = "{{title}}", base = "{{family}}" }

{{change}}]]

local ROW_CHANGE = [[
-- {{table}} ({{table_title}}), row {{row}}:
-- {{cells_text}} as the family has it; edit the cells.
set_row({{args}})
]]

local VALUE_CHANGE = [[
-- rule {{id}} ({{title}}): its value {{key}} as the family has it; edit it.
set_values({{id_q}}, { {{key}} = {{value}} })
]]

--- Write a new variant FILE of `family` (found on `path`, then beside
--- FILE, then in keel's scripts); returns what was written.
---@param file string
---@param family string
---@param opts? {path?: string[]}
---@return string[]
function M.variant(file, family, opts)
  opts = opts or {}
  if not file:match("%.lua$") then error(("%s: a variant is a .lua file"):format(file), 0) end
  if exists(file) then error(("%s exists already: keel new never overwrites a file"):format(file), 0) end
  local path = {}
  for _, p in ipairs(opts.path or {}) do path[#path + 1] = p end
  path[#path + 1] = dir_of(file)
  local set = require("keel.rules").load { families = { family }, path = path }
  local fam = set.families[family]
  -- the first row of the first table the family lists (one that has rows of its own)
  local tables = require "keel.tables"
  local pick
  for _, f in ipairs(fam.table_files) do
    local text = assert(io.open(fam.dir .. "/tables/" .. f, "rb")):read("a")
    for _, t in ipairs(tables.parse(text, f)) do
      if not pick and not t.rows_from and t.rows[1] then pick = t end
    end
  end
  local title = base_of(file):gsub("%.lua$", ""):gsub("[_%-]", " ")
  local vars = { title = title, family = family, version = keel.version, file = file }
  local text
  if pick then
    local row = pick.rows[1]
    local label = row.key or tables.range_text(row.range)
    local cells, texts = {}, {}
    for i, c in ipairs(row.cells) do cells[i] = ("%q"):format(c.text); texts[i] = c.text end
    -- the cells, a line of them at most 100 characters wide
    local lines, cur = {}, {}
    for _, c in ipairs(cells) do
      if #cur > 0 and #concat(cur, ", ") + #c + 2 > 100 then lines[#lines + 1] = concat(cur, ", "); cur = {} end
      cur[#cur + 1] = c
    end
    lines[#lines + 1] = concat(cur, ", ")
    local call = ("%q, %q, %s"):format(pick.name, label, concat(lines, ",\n  "))
    if #call > 100 and #lines == 1 then call = ("%q, %q,\n  %s"):format(pick.name, label, lines[1]) end
    local ttitle = pick.title or pick.name
    if #ttitle > 50 then ttitle = ttitle:sub(1, 47) .. "..." end
    vars.change = fill(ROW_CHANGE, { table = pick.name, table_title = ttitle, row = label,
      cells_text = concat(texts, " "), args = call })
  else
    -- a family without tables of its own: one value of its first rule that has a plain one
    for _, id in ipairs(set.order) do
      local r = set.rules[id]
      if r.family == family and not vars.change then
        for _, k in ipairs(require("keel.keys").sorted(r.values)) do
          local v = r.values[k]
          if not vars.change and type(k) == "string" and k:match("^[%a_][%w_]*$")
              and (type(v) == "number" or type(v) == "string" or type(v) == "boolean") then
            vars.change = fill(VALUE_CHANGE, { id = id, title = r.title or id, key = k, value = M.literal(v),
              id_q = ("%q"):format(id) })
          end
        end
      end
    end
  end
  if not vars.change then
    error(("rule family %s has no table row and no plain value of a rule to change: start the variant by hand "
      .. "(doc/guide.md, section 3)"):format(family), 0)
  end
  text = fill(VARIANT, vars)
  write_all { { file, text } }
  local did = { "wrote " .. file }
  for _, l in ipairs(tool_files(dir_of(file), { { base_of(file), "variant" } })) do did[#did + 1] = l end
  return did
end

-- ---- scenario -----------------------------------------------------------------------------

--- Write a new scenario FILE playing `opts.rules` (default: the families
--- in FILE's folder) on `opts.map` (a map file, relative to FILE's folder,
--- or none: the forces are off the board). The orders written play the game
--- to its end (each side passing): they are found by playing it.
---@param file string
---@param opts {map?: string, rules?: string[], path?: string[]}
---@return string[]
function M.scenario(file, opts)
  if not file:match("%.lua$") then error(("%s: a scenario is a .lua file"):format(file), 0) end
  if exists(file) then error(("%s exists already: keel new never overwrites a file"):format(file), 0) end
  local dir = dir_of(file)
  local rules = opts.rules or {}
  if #rules == 0 then
    rules = {}
    for _, name in ipairs(require("keel.registry").family_names { dir }) do rules[#rules + 1] = name end
    if #rules == 0 then
      error(("%s: name the rule families it plays with (--rules FAMILY): there is none in %s"):format(file, dir), 0)
    end
  end
  local path = { dir }
  for _, p in ipairs(opts.path or {}) do path[#path + 1] = p end
  local set = require("keel.rules").load { families = rules, path = path }
  -- the phases: the families' own sequence, or one phase of the scenario's
  local has_phases = false
  for _, n in ipairs(set.family_order) do
    if set.families[n].sequence and set.families[n].sequence.phases then has_phases = true end
  end
  local blue, red = M.SIDES[1], M.SIDES[2]
  local at_blue, at_red = "", ""
  if opts.map then
    local board, err = keel.board.load(opts.map:sub(1, 1) == "/" and opts.map or join(dir, opts.map))
    if not board then error(("--map %s: %s"):format(opts.map, tostring(err)), 0) end
    local hexes = board:hexes()
    if #hexes < 1 then error(("--map %s: a map without hexes"):format(opts.map), 0) end
    at_blue = (", at = %q"):format(board:format(hexes[1]))
    at_red = (", at = %q"):format(board:format(hexes[#hexes]))
  end
  local name = base_of(file):gsub("%.lua$", "")
  local function body(orders)
    local q = function(s) return ("%q"):format(s) end
    local fams = {}
    for i, r in ipairs(rules) do fams[i] = q(r) end
    local lines = {
      ("-- %s — a scenario started with `keel new scenario` (keel %s). `keel run %s`"):format(name, keel.version,
        file),
      "-- plays its orders; `keel check` checks it; doc/guide.md, section 4, tells the fields.",
      "return scenario {",
      ("  name = %s,"):format(q(name)),
      opts.map and ("  map = %s,"):format(q(opts.map)) or "  -- map = \"your.map\",   -- and at = \"hex\" for each force",
      ("  rules = { %s },"):format(concat(fams, ", ")),
      "  seed = 1,",
      "  -- the sequence of play: the sides' player-turns in a game turn" ..
        (has_phases and " (the phases are the family's)" or ", and the phases"),
      ("  sequence = { sides = { %s, %s }%s },"):format(q(blue), q(red),
        has_phases and "" or ', cite = "a placeholder: cite the rulebook", phases = { { name = "operations" } }'),
      "  turns = 2,",
      "  -- each side's score (here the keyed value vp[side]), and who wins",
      ("  scores = { %s = { keyed = { \"vp\", %s } }, %s = { keyed = { \"vp\", %s } } },"):format(blue, q(blue), red,
        q(red)),
      "  victory = { { higher_score = true, title = \"the higher score when the game ends\" } },",
      "  forces = {",
      ("    { name = %s, type = \"raider\", side = %s%s },"):format(q(blue .. " 1"), q(blue), at_blue),
      ("    { name = %s, type = \"raider\", side = %s%s },"):format(q(red .. " 1"), q(red), at_red),
      "  },",
      "  -- what keel lab measures, game after game (doc/guide.md, section 4)",
      ("  outcomes = { %s_vp = { keyed = \"vp\", key = %s }, %s_vp = { keyed = \"vp\", key = %s } },"):format(
        blue:lower(), q(blue), red:lower(), q(red)),
      "  -- a scripted line that plays it to its end (keel play plays it with players instead)",
      "  orders = {",
    }
    for _, o in ipairs(orders) do
      local parts = { q(o[1]), "by = " .. q(o.by) }
      for _, k in ipairs(require("keel.keys").sorted(o)) do
        if type(k) == "string" and k ~= "by" then parts[#parts + 1] = k .. " = " .. M.literal(o[k]) end
      end
      lines[#lines + 1] = "    { " .. concat(parts, ", ") .. " },"
    end
    lines[#lines + 1] = "  },"
    lines[#lines + 1] = "}"
    lines[#lines + 1] = ""
    return concat(lines, "\n")
  end
  -- the scripted line that plays it to its end: a random player (seed 1)
  -- decides for the side to act, while the orders it gives can be written
  -- with names (units, groups, hexes: keel.new.named); else the side passes
  -- (the game is written first, without orders: a game names its scenario file)
  write_all { { file, body {} } }
  local ok, orders = pcall(function()
    local scenario = require "keel.scenario"
    local run = scenario.start(scenario.load(file), { path = opts.path })
    local sequence = require "keel.sequence"
    local bot = require("keel.player").new("random", { seed = 1 })
    local out = {}
    for i = 1, M.MAX_ORDERS do
      local st = sequence.status(run.set, run.game)
      if st.over then return out end
      local side = st.active[1]
      if type(side) ~= "string" then error(file .. ": the new scenario has no side to act: it cannot be played", 0) end
      local order
      if i <= M.MAX_ORDERS // 2 then
        local action, params = bot:decide(run.set, run.game, side)
        order = action and M.named(run, action, params, side)
      end
      local outcome, problems = run:play(i, order or { "end_phase", by = side })
      if (not outcome.ok or #problems > 0) and order then
        order = nil
        outcome, problems = run:play(i, { "end_phase", by = side })
      end
      if not outcome.ok or #problems > 0 then
        error(("%s: passing for %s: %s"):format(file, side, tostring(outcome.message or problems[1])), 0)
      end
      out[#out + 1] = order or { "end_phase", by = side }
    end
    error(("%s: the new scenario does not end after %d orders"):format(file, M.MAX_ORDERS), 0)
  end)
  if not ok then
    os.remove(file)
    local msg = require("keel.errors").format(orders)
    error(opts.map and msg or (msg .. "\n(a scenario with no map: does a family of it need one? --map MAP)"), 0)
  end
  local out = assert(io.open(file, "wb"))   -- the file written above, now with its orders
  out:write(body(orders))
  out:close()
  local did = { "wrote " .. file }
  for _, l in ipairs(tool_files(dir, { { base_of(file), "scenario" } })) do did[#did + 1] = l end
  return did
end

return M

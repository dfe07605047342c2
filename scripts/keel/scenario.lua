--- keel.scenario — scenarios: a sandboxed Lua file that names the map, the
-- rule families and variants, the seed, the forces and where they start,
-- the starting flags, and optionally a scripted sequence of orders with
-- expectations, so that a scenario doubles as a test.
--
--   return scenario {
--     name = "Convoy to Crete", seed = 1941,
--     map = "maps/crete.map",                 -- optional, relative to this file
--     rules = { "toy27" }, path = { "../tests/families" },
--     variants = { "../tests/families/variants/campaign_001.lua" },
--     flags = { weather = "clear" },
--     keyed = { { "vp", "Allied", 40 } },       -- keyed values: {map, key, value} ...
--     forces = {
--       { name = "Warspite", type = "BB", side = "Allied", values = { strength = 5 },
--         at = "15B:2407", group = "Force H" },     -- port = true: in port at `at`
--       { name = "5-6 Inf XX", type = "inf", side = "Allied", aboard = "Convoy NT" },
--     },
--     groups = { ["Force H"] = { reserve = true } },  -- group values, set after the forces
--     orders = {
--       { event = "game_start" },
--       { "move", unit = "Warspite", to = "15B:2508", boxes = 9 },
--       { "move", unit = "Warspite", to = "15B:2509", boxes = 12,
--         expect = { illegal = "moves 9 sea boxes" } },
--       { check = { units = { Warspite = { loc = "hex" } }, global = { weather = "clear" } } },
--     },
--   }
--
-- A file is a scenario because of what it returns, never because of how
-- its text looks: it runs in the sandbox, and must return the very table
-- the sandbox's `scenario { ... }` made (keel keeps those in a private
-- weak-keyed set no script can reach or add to). `keel run SCENARIO` plays
-- it; `keel replay` sets it up again; neither runs anything else (host Lua
-- scripts run with `keel script`).
local keel = require "keel"
local sandbox = require "keel.sandbox"
local rules = require "keel.rules"
local registry = require "keel.registry"
local errors = require "keel.errors"
local game_mod = require "keel.game"
local json = require "keel.json"
local sorted_keys = require("keel.keys").sorted
local sequence = require "keel.sequence"

local M = {}

local type, pairs, ipairs, tostring, error = type, pairs, ipairs, tostring, error
local concat = table.concat

local FIELDS = { name = true, description = true, map = true, rules = true, path = true,
                 variants = true, seed = true, flags = true, keyed = true, forces = true, groups = true,
                 orders = true, outcomes = true, sequence = true, turns = true, scores = true, victory = true,
                 players = true, evaluate = true }
local FORCE_FIELDS = { name = true, type = true, side = true, values = true, markers = true,
                       face = true, hits = true, points = true, at = true, port = true, group = true,
                       aboard = true }
local EXPECT_FIELDS = { error = true, illegal = true, vetoed = true, refused = true, ok = true, global = true,
                        keyed = true, units = true, hash = true }
local FACES = { full = true, damaged = true, half = true }
local MAX_COUNT = (1 << 31) - 1

local function dir_of(path) return path:match("^(.*)/[^/]*$") or "." end
-- "a/b/../c" -> "a/c"; "./a" -> "a"
local function normalize(p)
  local abs = p:sub(1, 1) == "/"
  local parts = {}
  for seg in p:gmatch("[^/]+") do
    if seg == ".." and #parts > 0 and parts[#parts] ~= ".." then
      parts[#parts] = nil
    elseif seg ~= "." then
      parts[#parts + 1] = seg
    end
  end
  local out = (abs and "/" or "") .. concat(parts, "/")
  return out ~= "" and out or "."
end
M.normalize = normalize

local function resolve(base, p)
  if p:sub(1, 1) == "/" then return normalize(p) end
  return normalize(base .. "/" .. p)
end

local function fail(path, msg) error(path .. ": " .. msg, 0) end

-- ---- where a field is written ---------------------------------------------------------

-- The line of each field of the table constructor given to scenario { ... },
-- by its path ("forces.2.hits"), from the file's text: a best effort for the
-- messages (a field built by code has the line of its nearest written
-- ancestor; a file whose text is not read so gives the line of the call).
local function field_lines(text)
  local toks, n, pos, line = {}, 0, 1, 1
  local len = #text
  local function add(kind, v) n = n + 1; toks[n] = { kind, v, line } end
  local function long_bracket(at)   -- [[ ]] / [==[ ]==] starting at `at`: end position or nil
    local eq = text:match("^%[(=*)%[", at)
    if not eq then return nil end
    local close = text:find("]" .. eq .. "]", at + #eq + 2, true)
    return close and (close + #eq + 1) or len
  end
  local function advance(to)   -- move pos to `to`, counting newlines
    local _, nl = text:sub(pos, to - 1):gsub("\n", "")
    line = line + nl
    pos = to
  end
  while pos <= len and n < 200000 do
    local c = text:sub(pos, pos)
    if c == "\n" then line = line + 1; pos = pos + 1
    elseif c:match("%s") then pos = pos + 1
    elseif text:sub(pos, pos + 1) == "--" then
      local e = long_bracket(pos + 2)
      if e then advance(e + 1) else pos = (text:find("\n", pos, true) or len + 1) end
    elseif c == '"' or c == "'" then
      local i = pos + 1
      while i <= len do
        local d = text:sub(i, i)
        if d == "\\" then i = i + 2 elseif d == c or d == "\n" then break else i = i + 1 end
      end
      add("value", text:sub(pos + 1, i - 1):gsub("\\(.)", "%1"))
      advance(i + 1)
    elseif c == "[" and text:match("^%[=*%[", pos) then
      add("value", true)
      advance(long_bracket(pos) + 1)
    elseif c:match("[%a_]") then
      local name = text:match("^[%w_]+", pos)
      add("name", name)
      pos = pos + #name
    elseif c:match("%d") or (c == "." and text:match("^%.%d", pos)) then
      local num = text:match("^0[xX][%x%.]*[pP]?[+-]?%x*", pos) or text:match("^[%d%.]*[eE]?[+-]?%d*", pos)
      add("value", math.tointeger(tonumber(num)) or tonumber(num) or num)
      pos = pos + math.max(#num, 1)
    elseif text:sub(pos, pos + 1) == "==" or text:sub(pos, pos + 1) == "~=" then
      add("op", "==")
      pos = pos + 2
    else
      add(c, c)
      pos = pos + 1
    end
  end
  local lines = {}
  local i = 1
  -- skip an expression up to the next , ; or } at this level
  local function skip_expr()
    local depth = 0
    while i <= n do
      local k = toks[i][1]
      if depth == 0 and (k == "," or k == ";" or k == "}") then return end
      if k == "{" or k == "(" or k == "[" then depth = depth + 1
      elseif k == "}" or k == ")" or k == "]" then depth = depth - 1 end
      i = i + 1
    end
  end
  local parse_table
  local function value(path)
    if not toks[i] then return end
    lines[path] = toks[i][3]
    if toks[i][1] == "{" then parse_table(path) else skip_expr() end
  end
  function parse_table(prefix)   -- at "{"
    i = i + 1
    local index = 0
    while i <= n and toks[i][1] ~= "}" do
      local t1, t2 = toks[i], toks[i + 1]
      local key
      if t1[1] == "name" and t2 and t2[1] == "=" then
        key = t1[2]
        i = i + 2
      elseif t1[1] == "[" and toks[i + 2] and toks[i + 2][1] == "]" and toks[i + 3] and toks[i + 3][1] == "=" then
        key = tostring(t2[2])
        i = i + 4
      elseif t1[1] == "[" then   -- [expr] = : a key this scanner cannot tell
        skip_expr()
      else
        index = index + 1
        key = tostring(index)
      end
      if key then value(prefix == "" and key or (prefix .. "." .. key)) end
      if toks[i] and (toks[i][1] == "," or toks[i][1] == ";") then i = i + 1 end
    end
    i = i + 1
  end
  -- the first `scenario {` or `scenario({`
  for j = 1, n - 1 do
    if toks[j][1] == "name" and toks[j][2] == "scenario" and
       (toks[j + 1][1] == "{" or (toks[j + 1][1] == "(" and toks[j + 2] and toks[j + 2][1] == "{")) then
      i = toks[j + 1][1] == "{" and j + 1 or j + 2
      lines[""] = toks[j][3]
      local ok = pcall(parse_table, "")
      if not ok then lines = { [""] = toks[j][3] } end
      break
    end
  end
  return lines
end
M.field_lines = field_lines

-- ---- checking a scenario --------------------------------------------------------------

local show = sandbox.show

-- A path as messages write it: forces[2].values.strength
local function path_text(path, first)
  local out = {}
  for i = first or 1, #path do
    local k = path[i]
    if math.type(k) == "integer" then out[#out + 1] = "[" .. k .. "]"
    elseif type(k) == "string" and k:match("^[%a_][%w_]*$") then out[#out + 1] = (#out > 0 or first) and ("." .. k) or k
    else out[#out + 1] = "[" .. show(k) .. "]" end
  end
  return concat(out)
end

local Checker = {}
Checker.__index = Checker

-- "file:line: " for a field (its own line, or its nearest ancestor's)
function Checker:where(path)
  local lines = self.lines
  for len = #path, 0, -1 do
    local parts = {}
    for i = 1, len do parts[i] = tostring(path[i]) end
    local l = lines[concat(parts, ".")]
    if l then return ("%s:%d: "):format(self.file, l) end
  end
  return self.line and ("%s:%d: "):format(self.file, self.line) or (self.file .. ": ")
end

-- Raise "file:line: PATH (NAME): what" (the name of the force, when in one).
function Checker:bad(path, what)
  local label = path_text(path)
  local force = path[1] == "forces" and math.type(path[2]) == "integer" and self.force_names[path[2]]
  if force then label = ("forces[%d] (%s)%s"):format(path[2], force, path_text(path, 3)) end
  if #path > 8 then label = path_text { table.unpack(path, 1, 6) } .. "..." end
  if label == "" then label = "scenario" end
  error(self:where(path) .. (label ~= "" and (label .. ": ") or "") .. what, 0)
end

local function sub(path, k)
  local p = { table.unpack(path) }
  p[#p + 1] = k
  return p
end

-- A plain copy of script-made data, read raw (sandbox.plain: a scenario's
-- tables could carry __index, __pairs, __len that never return, and nothing
-- here runs within an action's limits).
function Checker:plain(raw)
  local forces = type(raw) == "table" and rawget(raw, "forces")
  if type(forces) == "table" then   -- the names of forces, for the messages
    for i = 1, 100000 do
      local f = rawget(forces, i)
      if f == nil then break end
      local name = type(f) == "table" and rawget(f, "name")
      if type(name) == "string" and name ~= "" then self.force_names[i] = name end
    end
  end
  return sandbox.plain(raw, function(path, what) self:bad(path, what) end)
end

-- The length of a list (its keys 1..n and nothing else).
function Checker:list(v, path, what)
  if v == nil then return {} end
  if type(v) ~= "table" then self:bad(path, ("%s expected, got %s"):format(what, show(v))) end
  local n = 0
  while v[n + 1] ~= nil do n = n + 1 end
  for k in pairs(v) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then
      self:bad(path, ("%s expected, got a table with the key %s"):format(what, show(k)))
    end
  end
  return v
end

function Checker:strings(v, path, what)
  for i, s in ipairs(self:list(v, path, what)) do
    if type(s) ~= "string" then self:bad(sub(path, i), "a string expected, got " .. show(s)) end
  end
  return v or {}
end

function Checker:fields(v, path, allowed, what)
  if type(v) ~= "table" then self:bad(path, ("%s expected, got %s"):format(what, show(v))) end
  for _, k in ipairs(sorted_keys(v)) do
    if not allowed[k] then
      self:bad(sub(path, k), ("unknown field (expected one of: %s)"):format(concat(sorted_keys(allowed), ", ")))
    end
  end
end

-- name -> scalar: flags, group values, unit values
function Checker:scalars(v, path, what)
  if v == nil then return end
  if type(v) ~= "table" then self:bad(path, ("%s expected, got %s"):format(what, show(v))) end
  for _, k in ipairs(sorted_keys(v)) do
    if type(k) ~= "string" then self:bad(path, "names (strings) expected as keys, got " .. show(k)) end
    local x = v[k]
    if type(x) ~= "string" and type(x) ~= "number" and type(x) ~= "boolean" then
      self:bad(sub(path, k), "a number, a string or a boolean expected, got " .. show(x))
    end
  end
end

-- keyed = { {map, key, value}, ... }: key one part or a list of 1 to 3
-- parts (integers and names), the value a number, a string or a boolean
-- (nil, in expectations: not set)
function Checker:keyed(v, path, expect)
  for i, e in ipairs(self:list(v, path, "a list of keyed values { {map, key, value}, ... }")) do
    local p = sub(path, i)
    local what = "{map, key, value} expected (map a name, key a part or a list of parts)"
    if type(e) ~= "table" or type(e[1]) ~= "string" then self:bad(p, what .. ", got " .. show(e)) end
    if e[2] == nil then self:bad(p, what .. ", got no key") end
    local key = e[2]
    local parts = type(key) == "table" and key or { key }
    local n = 0
    for _ in pairs(parts) do n = n + 1 end
    if n < 1 or n > 3 or #parts ~= n then self:bad(sub(p, 2), "a key of 1 to 3 parts expected") end
    for j = 1, n do
      if math.type(parts[j]) ~= "integer" and type(parts[j]) ~= "string" then
        self:bad(sub(p, 2), "key parts are whole numbers or names, got " .. show(parts[j]))
      end
    end
    local x = e[3]
    if not (type(x) == "string" or type(x) == "number" or type(x) == "boolean" or (expect and x == nil)) then
      self:bad(sub(p, 3), "a number, a string or a boolean expected, got " .. show(x))
    end
    for k in pairs(e) do
      if not (math.type(k) == "integer" and k >= 1 and k <= 3) then
        self:bad(p, what .. ", got a table with the key " .. show(k))
      end
    end
  end
end

function Checker:count_of(v, path)
  if v ~= nil and not (math.type(v) == "integer" and v >= 0 and v <= MAX_COUNT) then
    self:bad(path, ("a whole number from 0 to %d expected, got %s"):format(MAX_COUNT, show(v)))
  end
end

function Checker:force(f, i)
  local path = { "forces", i }
  if type(f) ~= "table" then self:bad(path, "a force { name = ..., type = ..., side = ... } expected, got " .. show(f)) end
  if type(f.name) ~= "string" or f.name == "" then
    self:bad(sub(path, "name"), "a force needs a name (a string), got " .. show(f.name))
  end

  self:fields(f, path, FORCE_FIELDS, "a force")
  for _, k in ipairs { "type", "side", "group", "aboard" } do
    if f[k] ~= nil and type(f[k]) ~= "string" then self:bad(sub(path, k), "a string expected, got " .. show(f[k])) end
  end
  self:scalars(f.values, sub(path, "values"), "values { name = number|string|boolean }")
  if f.markers ~= nil then
    if type(f.markers) ~= "table" then self:bad(sub(path, "markers"), "markers { name = count } expected, got " .. show(f.markers)) end
    for _, k in ipairs(sorted_keys(f.markers)) do
      if type(k) ~= "string" then self:bad(sub(path, "markers"), "names (strings) expected as keys, got " .. show(k)) end
      self:count_of(f.markers[k], sub(sub(path, "markers"), k))
    end
  end
  if f.face ~= nil and not FACES[f.face] then
    self:bad(sub(path, "face"), ('"full", "damaged" or "half" expected, got %s'):format(show(f.face)))
  end
  self:count_of(f.hits, sub(path, "hits"))
  self:count_of(f.points, sub(path, "points"))
  if f.at ~= nil and type(f.at) ~= "string" and math.type(f.at) ~= "integer" then
    self:bad(sub(path, "at"), "a hex (a label like \"15B:2407\", or a hex id) or a zone's name expected, got "
      .. show(f.at))
  end
  if f.port ~= nil and type(f.port) ~= "boolean" then self:bad(sub(path, "port"), "true or false expected, got " .. show(f.port)) end
  if f.port and f.at == nil then self:bad(sub(path, "port"), "port = true needs at = the port's hex") end
  if f.at ~= nil and f.aboard ~= nil then self:bad(sub(path, "aboard"), "at and aboard exclude each other") end
end

function Checker:expect(e, path)
  if e == nil then return end
  self:fields(e, path, EXPECT_FIELDS,
    "expectations { error =, illegal =, vetoed =, ok =, global =, keyed =, units =, hash = }")
  for _, k in ipairs { "error", "illegal", "vetoed", "refused" } do
    local v = e[k]
    if v ~= nil and type(v) ~= "string" and v ~= true then
      self:bad(sub(path, k), "true or a string the reason mentions expected, got " .. show(v))
    end
  end
  if e.ok ~= nil and type(e.ok) ~= "boolean" then self:bad(sub(path, "ok"), "true or false expected, got " .. show(e.ok)) end
  if e.hash ~= nil and (type(e.hash) ~= "string" or not e.hash:match("^%x+$")) then
    self:bad(sub(path, "hash"), "a state hash (hex digits) expected, got " .. show(e.hash))
  end
  self:scalars(e.global, sub(path, "global"), "global { name = value }")
  self:keyed(e.keyed, sub(path, "keyed"), true)
  if e.units ~= nil then
    local up = sub(path, "units")
    if type(e.units) ~= "table" then self:bad(up, "units { [name] = { field = value } } expected, got " .. show(e.units)) end
    for _, name in ipairs(sorted_keys(e.units)) do
      local u = e.units[name]
      if type(name) ~= "string" then self:bad(up, "unit names (strings) expected as keys, got " .. show(name)) end
      if type(u) ~= "table" then self:bad(sub(up, name), "{ field = value } expected, got " .. show(u)) end
      for _, field in ipairs(sorted_keys(u)) do
        local fp = sub(sub(up, name), field)
        if type(field) ~= "string" then self:bad(sub(up, name), "field names expected as keys, got " .. show(field)) end
        if field == "values" or field == "markers" then
          self:scalars(u[field], fp, field .. " { name = value }")
        elseif type(u[field]) == "table" then
          self:bad(fp, "a number, a string or a boolean expected, got a table")
        end
      end
    end
  end
end

function Checker:order(o, i)
  local path = { "orders", i }
  if type(o) ~= "table" then
    self:bad(path, "an order { \"action\", params... }, { event = \"name\" } or { check = {...} } expected, got " .. show(o))
  end
  if o.event ~= nil then
    if type(o.event) ~= "string" then self:bad(sub(path, "event"), "an event name (a string) expected, got " .. show(o.event)) end
    self:fields(o, path, { event = true, data = true, expect = true }, "an event order")
    if o.data ~= nil and type(o.data) ~= "table" then self:bad(sub(path, "data"), "a table expected, got " .. show(o.data)) end
  elseif o.check ~= nil then
    self:fields(o, path, { check = true, expect = true }, "a check")
    self:expect(o.check, sub(path, "check"))
  elseif type(o[1]) == "string" then
    for _, k in ipairs(sorted_keys(o)) do
      if k ~= 1 and k ~= "expect" and type(k) ~= "string" then
        self:bad(sub(path, k), "parameters are named (param = value), got the key " .. show(k))
      end
    end
    if o.by ~= nil and type(o.by) ~= "string" then
      self:bad(sub(path, "by"), "the side that gives the order (a name) expected, got " .. show(o.by))
    end
  else
    self:bad(path, "an order { \"action\", params... }, { event = \"name\" } or { check = {...} } expected, got "
      .. (o[1] ~= nil and ("first " .. show(o[1])) or "a table without an action, event or check"))
  end
  self:expect(o.expect, sub(path, "expect"))
end

-- the lines of the fields of a text, per process by the hash of the text
-- (the tables are shared: read them, never change them)
local lines_by_hash = {}
local function lines_of(text, hash)
  if not hash then return field_lines(text) end
  local lines = lines_by_hash[hash]
  if not lines then
    lines = field_lines(text)
    lines_by_hash[hash] = lines
  end
  return lines
end

--- Check what a scenario file's scenario { ... } returned and make a plain
--- copy of it (raw reads only): the spec the rest of keel uses. Raises
--- "file:line: field: what was expected, got what" on the first mistake.
---@param raw table what scenario { ... } made
---@param file string
---@param text? string the file's text (for the lines of fields)
---@param hash? string the hash of text (keel.state.hash_bytes): its lines are kept per process
---@return table spec
function M.check(raw, file, text, hash)
  local lines = text and lines_of(text, hash) or {}
  local self = setmetatable({ file = file, lines = lines, line = lines[""], force_names = {} }, Checker)
  local spec = self:plain(raw)
  self:fields(spec, {}, FIELDS, "scenario { ... }")
  for _, k in ipairs { "name", "description", "map" } do
    if spec[k] ~= nil and type(spec[k]) ~= "string" then
      self:bad({ k }, (k == "map" and "a map file (a string, relative to the scenario)" or "a string")
        .. " expected, got " .. show(spec[k]))
    end
  end
  if spec.seed ~= nil and math.type(spec.seed) ~= "integer" then
    self:bad({ "seed" }, "a whole number expected, got " .. show(spec.seed))
  end
  self:strings(spec.rules, { "rules" }, 'a list of rule families { "family", ... }')
  if spec.rules == nil or #spec.rules == 0 then
    self:bad({ "rules" }, '{ "family", ... } expected, naming the rule families the scenario plays with')
  end
  self:strings(spec.path, { "path" }, "a list of folders")
  self:strings(spec.variants, { "variants" }, "a list of variant files")
  self:scalars(spec.flags, { "flags" }, "flags { name = number|string|boolean }")
  self:keyed(spec.keyed, { "keyed" })
  local names = {}
  for i, f in ipairs(self:list(spec.forces, { "forces" }, "a list of forces { { name = ... }, ... }")) do
    self:force(f, i)
    if names[f.name] then
      self:bad({ "forces", i, "name" }, ("two forces are named %s (forces[%d] and forces[%d])"):format(show(f.name), names[f.name], i))
    end
    names[f.name] = i
  end
  for i, f in ipairs(spec.forces or {}) do
    if f.aboard ~= nil and not (names[f.aboard] and names[f.aboard] < i) then
      self:bad({ "forces", i, "aboard" }, ("no force named %s is listed before it"):format(show(f.aboard)))
    end
  end
  if spec.groups ~= nil then
    if type(spec.groups) ~= "table" then
      self:bad({ "groups" }, "groups { [name] = { key = value } } expected, got " .. show(spec.groups))
    end
    local in_group = {}
    for _, f in ipairs(spec.forces or {}) do if f.group then in_group[f.group] = true end end
    for _, name in ipairs(sorted_keys(spec.groups)) do
      if type(name) ~= "string" then self:bad({ "groups" }, "group names (strings) expected as keys, got " .. show(name)) end
      if not in_group[name] then self:bad({ "groups", name }, "no force is in a group of that name") end
      self:scalars(spec.groups[name], { "groups", name }, "{ key = number|string|boolean }")
    end
  end
  for i, o in ipairs(self:list(spec.orders, { "orders" }, "a list of orders")) do self:order(o, i) end
  -- the game's shape (keel.sequence): its sequence of play (over the
  -- families'), length, scores and victory conditions
  local function bad(path, what) self:bad(path, what) end
  if spec.sequence ~= nil then spec.sequence = sequence.check(spec.sequence, bad) end
  if spec.turns ~= nil and not (math.type(spec.turns) == "integer" and spec.turns >= 1) then
    self:bad({ "turns" }, "the number of game turns (a whole number from 1) expected, got " .. show(spec.turns))
  end
  if spec.scores ~= nil then spec.scores = sequence.check_scores(spec.scores, bad) end
  if spec.victory ~= nil then spec.victory = sequence.check_victory(spec.victory, bad) end
  -- the players a study plays the scenario with unless told (keel lab)
  if spec.players ~= nil then
    if type(spec.players) ~= "table" then
      self:bad({ "players" }, 'players { Side = "random" | "greedy" | "mcts:..." } expected, got ' .. show(spec.players))
    end
    for _, side in ipairs(sorted_keys(spec.players)) do
      if type(side) ~= "string" or type(spec.players[side]) ~= "string" then
        self:bad({ "players", side }, "a side's name and a player (a string, as keel play --player takes it) expected")
      end
    end
  end
  -- what a player (keel.player: greedy, mcts) values for a side, as scores are declared
  if spec.evaluate ~= nil then spec.evaluate = sequence.check_scores(spec.evaluate, bad, { "evaluate" }) end
  spec.file = file
  spec.line = self.line
  spec.lines = lines
  return spec
end

-- A scenario file's text, at most 16 MiB (a journal may name any path:
-- /dev/zero must not fill the memory).
local MAX_SCENARIO = 16 * 1024 * 1024

-- The tables made by a sandbox's scenario{ ... }: what makes a file a scenario.
local made = setmetatable({}, { __mode = "k" })

--- Load and check a scenario file: it runs in the sandbox and must return
--- what scenario { ... } made, or it is refused as not a scenario. What it
--- returned is read raw and checked (M.check); the spec is that plain copy.
---@param path string
---@return table spec
-- A checked spec depends on its file's text alone (a scenario file runs in
-- the sandbox: no clock, no files, no dice): kept per path with the hash of
-- the text it came from, handed out as a copy (a run may change its spec).
local loaded = {}   -- path -> { hash =, spec = }

local function copy_spec(v, lines)
  if type(v) ~= "table" then return v end
  if v == lines then return v end   -- the lines of the fields: shared, read-only (lines_of)
  local out = {}
  for k, x in pairs(v) do out[k] = copy_spec(x, lines) end
  return out
end

function M.load(path)
  local text, rerr = registry.read_text(path, MAX_SCENARIO)
  if not text then error(rerr, 0) end   -- the reason names the path
  local hash = registry.hash_text(path, text)
  local kept = loaded[path]
  if kept and kept.hash == hash then return copy_spec(kept.spec, kept.spec.lines) end
  local env = sandbox.env { extra = {
    scenario = function(s)
      if type(s) ~= "table" then
        error(("%s: scenario{...} expects a table, got %s"):format(path, show(s)), 0)   -- names the file
      end
      made[s] = true
      return s
    end,
  } }
  -- compiled once per process for a given text (keel.registry)
  local fn, err = registry.load_chunk(text, hash, "@" .. path, env)
  if not fn then error(err, 0) end
  local res = table.pack(sandbox.xprotect(fn, function(e) return errors.from(e, nil, true) end))
  if not res[1] then error(res[2], 0) end
  local spec = res[2]
  if not made[spec] then
    fail(path, "not a scenario: a scenario file returns scenario { ... } (run a host Lua script with `keel script`)")
  end
  local checked = M.check(spec, path, text, hash)
  checked.hash = hash   -- of the text loaded: the journal's rule_file line
  loaded[path] = { hash = hash, spec = copy_spec(checked, checked.lines) }
  return checked
end

-- ---- a run -------------------------------------------------------------------------

local Run = {}
Run.__index = Run

-- Raise a mistake found while setting the scenario up, as M.check does.
local function spec_fail(spec, path, what)
  local names = {}
  for i, f in ipairs(spec.forces or {}) do names[i] = f.name end
  local c = setmetatable({ file = spec.file, lines = spec.lines or {}, line = spec.line, force_names = names }, Checker)
  c:bad(path, what)
end

-- The text of an error raised by keel's own Lua or the kernel while
-- setting up, without its position inside keel.
local function reason(e)
  local msg = errors.get_message(e)
  local file, _, text = errors.parse(msg)
  if file and file:match("keel/[%w_/]+%.lua$") then msg = text end
  return (msg:gsub("^bad argument #%d+ to '[%w_.:?]+' %((.*)%)$", "%1"))
end

-- The search path and the variant files of a scenario, resolved against its
-- folder (opts.variants, more variant files, after the scenario's own).
local function path_and_variants(spec, opts)
  local base = dir_of(spec.file)
  local path = {}
  for _, p in ipairs(spec.path or {}) do path[#path + 1] = resolve(base, p) end
  for _, p in ipairs(opts.path or {}) do path[#path + 1] = p end
  path[#path + 1] = base
  local variants = {}
  for _, v in ipairs(spec.variants or {}) do variants[#variants + 1] = resolve(base, v) end
  for _, v in ipairs(opts.variants or {}) do variants[#variants + 1] = normalize(v) end
  return path, variants
end

--- The rule set a scenario plays with: its families and variants on its
--- path, and opts.variants after them. A mistake in a rule or variant file
--- names that file; one with no place is the scenario's; two variants that
--- change one rule are refused here, before anything is played. Many games
--- of one scenario may share it: pass it to M.start as opts.set (a rule set
--- keeps nothing of a game between games).
---@param spec table from M.load
---@param opts? {narrate?: function, path?: string[], variants?: string[]}
---@return table set
function M.rule_set(spec, opts)
  opts = opts or {}
  local path, variants = path_and_variants(spec, opts)
  local own = #(spec.variants or {})
  local shape = { sequence = spec.sequence, turns = spec.turns, scores = spec.scores, victory = spec.victory,
                  evaluate = spec.evaluate, file = spec.file, lines = spec.lines }
  return rules.load { families = spec.rules, variants = variants, path = path, narrate = opts.narrate, game = shape,
    -- a mistake in a rule or variant file names that file; one with no place
    -- is the scenario's field; a variant stacked on the scenario (keel run
    -- --variant) keeps its own message
    blame = function(kind, i, e)
      local msg = errors.get_message(e)
      if errors.parse(msg) or (kind == "variants" and i > own) then error(e, 0) end
      if kind == "game" then spec_fail(spec, { "sequence" }, msg) end
      spec_fail(spec, { kind == "families" and "rules" or "variants", i }, msg)
    end }
end

--- Set a scenario up: board, rule set (opts.set, from M.rule_set with the
--- same opts, or a new one), game, flags and forces. opts.variants: more
--- variant files (paths as given), applied after the scenario's own;
--- opts.seed: the game's seed instead of the scenario's.
---@param spec table from M.load
--- A set with a sequence of play starts the game (the order start_game)
--- unless opts.begin is false (replay plays that order from the journal).
---@param opts? {narrate?: function, path?: string[], variants?: string[], seed?: integer, set?: table,
---  limits?: {cpu: number, memory: integer}, begin?: boolean}
---@return table run
function M.start(spec, opts)
  opts = opts or {}
  local base = dir_of(spec.file)
  local board
  if spec.map then
    local err
    -- one board per map file and process: games share it (it never changes)
    board, err = keel.board.load(resolve(base, spec.map), { shared = true })
    if not board then spec_fail(spec, { "map" }, "cannot load " .. show(spec.map) .. ": " .. tostring(err)) end
  end
  local _, variants = path_and_variants(spec, opts)
  local set = opts.set or M.rule_set(spec, opts)
  local game = game_mod.new { seed = opts.seed or spec.seed or 0, board = board, scenario = spec.file, variants = variants,
                              limits = opts.limits }
  game:add_rule_file(spec.file, spec.hash)
  set:declare_files(game)
  local self = setmetatable({ spec = spec, set = set, game = game, board = board,
                              units = {}, groups = {}, results = {} }, Run)
  local st = game.state
  st:push_rule("scenario")
  local function try(p, fn, ...)
    local ok, e = pcall(fn, ...)
    if not ok then st:pop_rule(); spec_fail(spec, p, reason(e)) end
  end
  for _, k in ipairs(sorted_keys(spec.flags or {})) do try({ "flags", k }, game.set_global, game, k, spec.flags[k]) end
  for i, e in ipairs(spec.keyed or {}) do try({ "keyed", i }, game.set_keyed, game, e[1], e[2], e[3]) end
  for i, f in ipairs(spec.forces or {}) do
    local id
    try({ "forces", i }, function()
      id = game:unit_new { name = f.name, type = f.type, side = f.side, values = f.values,
                           markers = f.markers, face = f.face, hits = f.hits, points = f.points }
    end)
    self.units[f.name] = id
    if f.at ~= nil then   -- a zone (area) by name, else a hex
      local z = self:find_zone(f.at)
      local h = not z and self:hex(f.at)
      if not z and not h then
        st:pop_rule()
        spec_fail(spec, { "forces", i, "at" }, board and (show(f.at) .. " is not a hex or zone of the map")
          or "the scenario has no map (map = \"file.map\") to find a hex on")
      end
      if z then try({ "forces", i, "at" }, game.move, game, id, "zone", z)
      else try({ "forces", i, "at" }, game.move, game, id, f.port and "port" or "hex", h) end
    end
    if f.aboard ~= nil then   -- cargo of a force listed before it (M.check made sure)
      try({ "forces", i, "aboard" }, game.move, game, id, "unit", self.units[f.aboard])
    end
    if f.group then
      local g = self.groups[f.group]
      if not g then
        g = game:group_new { name = f.group }
        self.groups[f.group] = g
      end
      game:group_add(g, id)
    end
  end
  for _, name in ipairs(sorted_keys(spec.groups or {})) do
    local g = self.groups[name]
    local vals = spec.groups[name]
    for _, k in ipairs(sorted_keys(vals)) do try({ "groups", name, k }, game.group_set_value, game, g, k, vals[k]) end
  end
  st:pop_rule()
  -- a game with a sequence of play starts: its first turn, player-turn and
  -- phase (an order of the scenario's, journaled, so replay plays it again)
  if set.sequence and opts.begin ~= false then
    local ok, why = set:act(game, sequence.START_GAME, {})
    if not ok then spec_fail(spec, { "sequence" }, "the game cannot start: " .. errors.format(why)) end
  end
  return self
end

--- Go on with a saved game of a scenario (keel.game.load gave `game`): the
--- board and rule set as start makes them, the names of the scenario's
--- forces and groups (ids are the same in every game of it), and `game`
--- in place of the fresh game start set up (which is closed). A save that
--- keeps its journal is played again from the setup (M.replay_history):
--- the run's game is then that one, with the undo history, unless
--- opts.history is false.
---@param spec table from M.load
---@param game table a loaded keel.game
---@param opts? {narrate?: function, path?: string[], history?: boolean}
---@return table run
function M.resume(spec, game, opts)
  local o = {}
  for k, v in pairs(opts or {}) do o[k] = v end
  o.begin = false
  if game.saved_journal and o.history ~= false then
    local run = M.replay_history(game, o)
    if run then return run end
  end
  local run = M.start(spec, o)
  run.game.state:close()
  run.game = game
  game.board = run.board
  return run
end

--- A loaded game whose save keeps its journal, played again from its
--- setup by keel.replay: the same game with the undo history its rules
--- kept. The run, or nil when the journal does not play again to the
--- saved state (then game.warnings says why, and undo reaches back only
--- to the load). `game` is closed when the run replaces it.
---@param game table a loaded keel.game (game.saved_journal)
---@param opts? {narrate?: function}
---@return table|nil run
function M.replay_history(game, opts)
  local captured
  local text = game:journal_text()
  local ok, rep = pcall(require("keel.replay").replay, game.loaded_from, { text = text,
    on_start = function(_, run) captured = run end })
  local why
  if not ok then why = errors.format(rep)
  elseif not rep.ok then why = rep.message
  elseif captured.game:hash_hex() ~= game:hash_hex() then
    why = ("its journal plays again to state %s, the save holds %s"):format(captured.game:hash_hex(), game:hash_hex())
  end
  if why then
    game.warnings = game.warnings or {}
    game.warnings[#game.warnings + 1] = "undo reaches back only to the load: the save's journal does not play "
      .. "again: " .. why
    if captured then captured.game.state:close() end
    return nil
  end
  -- the narration goes on from here: what was played before is not told again
  captured.set.narrate = opts and opts.narrate or false
  captured.game.warnings = game.warnings
  game.state:close()
  return captured
end

--- A zone's index (1-based, the board's order) from its name, or nil.
function Run:find_zone(v)
  if type(v) ~= "string" or not self.board then return nil end
  for i, name in ipairs(self.board:zones()) do if name == v then return i end end
  return nil
end

--- A hex from a label ("15B:2407", through the map) or an integer.
function Run:hex(v)
  if math.type(v) == "integer" then return v end
  if type(v) == "string" and self.board then return (self.board:hex(v)) end
  return nil
end

-- Where a unit is, as messages say it: "hex 19A:3412", "port 19A:2812",
-- "zone Aegean", "aboard Convoy WS-1", "off the map".
function Run:format_place(loc, where)
  local board = self.board
  if (loc == "hex" or loc == "port") and math.type(where) == "integer" then
    local label = board and board:contains(where) and board:format(where)
    return loc .. " " .. (label or tostring(where))
  elseif loc == "zone" and board and math.type(where) == "integer" and board:zones()[where] then
    return "zone " .. board:zones()[where]
  elseif loc == "unit" then
    local ok, name = pcall(self.game.get, self.game, where, "name")
    return "aboard " .. (ok and name or ("unit " .. tostring(where)))
  elseif loc == "off" then
    return "off the map"
  end
  return tostring(loc) .. (where ~= nil and (" " .. tostring(where)) or "")
end

-- A group by name: the scenario's own groups, then groups made in play
-- (a split names its new group), the first in id order.
function Run:group_named(name)
  if self.groups[name] then return self.groups[name] end
  local st = self.game.state
  for g = 1, st:count_groups() do
    if st:group_get_name(g) == name then return g end
  end
end

-- Turn an order's names and labels into ids and hexes, by the action's
-- parameter types.
function Run:params_for(name, order)
  local a = self.set.actions and self.set.actions[name]
  local params = {}
  for k, v in pairs(order) do
    if k ~= 1 and k ~= "expect" and k ~= "by" then params[k] = v end
  end
  if not a then return params end
  for k, p in pairs(a.def.params) do
    local v = params[k]
    if p.type == "units" and type(v) == "table" then
      local ids = {}
      for i, u in ipairs(v) do
        ids[i] = type(u) == "string" and (self.units[u] or error(("no unit named '%s'"):format(u), 0)) or u
      end
      params[k] = ids
    elseif type(v) == "string" then
      if p.type == "unit" then
        params[k] = self.units[v] or error(("no unit named '%s'"):format(v), 0)
      elseif p.type == "group" then
        params[k] = self:group_named(v) or error(("no group named '%s'"):format(v), 0)
      elseif p.type == "hex" then
        params[k] = self:hex(v) or error(("'%s' is not a hex of the map"):format(v), 0)
      end
    end
  end
  return params
end

local function same(a, b)
  if type(a) == "number" and type(b) == "number" then return a == b end
  return a == b
end

-- The expectations of an order: a list of failure messages.
function Run:check(expect, outcome)
  local problems = {}
  local game = self.game
  local function add(fmt, ...) problems[#problems + 1] = fmt:format(...) end
  local want_fail = expect.error or expect.illegal or expect.vetoed or expect.refused
  if want_fail then
    if outcome.ok then
      add("expected it to fail (%s), but it succeeded", tostring(want_fail))
    else
      local kinds = { error = true, cpu = true, budget = true, memory = true }
      local refusals = { side = true, phase = true, over = true }
      local kind_ok = (expect.error and kinds[outcome.kind]) or (expect.illegal and outcome.kind == "illegal")
        or (expect.vetoed and outcome.kind == "vetoed") or (expect.refused and refusals[outcome.kind])
      if not kind_ok then add("expected %s, got %s: %s", expect.error and "an error" or
        expect.illegal and "an illegal order" or expect.vetoed and "a veto"
        or "an order the sequence of play refuses", outcome.kind or "?", outcome.message) end
      -- the words, whatever their case ("cpu" for "CPU limit exceeded")
      if type(want_fail) == "string" and not outcome.message:lower():find(want_fail:lower(), 1, true) then
        add("expected the reason to mention %q, got: %s", want_fail, outcome.message)
      end
    end
  elseif expect.ok ~= false and not outcome.ok and outcome.kind then
    add("failed: %s", (outcome.message or "?"):match("^[^\n]*"))
  end
  for _, k in ipairs(sorted_keys(expect.global or {})) do
    local got = game:get_global(k)
    if not same(got, expect.global[k]) then
      add("expected global %s = %s, got %s", k, json.encode(expect.global[k]), json.encode(got))
    end
  end
  -- keyed values: { {map, key, value}, ... } (key: one part or a list of parts)
  for i, kv in ipairs(expect.keyed or {}) do
    local got = game:get_keyed(kv[1], kv[2])
    if not same(got, kv[3]) then
      add("expected keyed %s %s = %s, got %s (keyed[%d])", tostring(kv[1]), json.encode(kv[2]),
        json.encode(kv[3]), json.encode(got), i)
    end
  end
  for _, name in ipairs(sorted_keys(expect.units or {})) do
    local id = self.units[name]
    if not id then
      add("no unit named '%s'", name)
    else
      local u = game:get_unit(id)
      for _, field in ipairs(sorted_keys(expect.units[name])) do
        local want = expect.units[name][field]
        if field == "values" or field == "markers" then
          for _, vk in ipairs(sorted_keys(want)) do
            if not same(u[field][vk], want[vk]) then
              add("expected %s %s.%s = %s, got %s", name, field, vk, json.encode(want[vk]), json.encode(u[field][vk]))
            end
          end
        elseif field == "at" then
          local z = self:find_zone(want)
          local h = not z and self:hex(want)
          if (z and (u.loc ~= "zone" or u.where ~= z)) or (not z and (u.loc ~= "hex" or u.where ~= h)) then
            add("expected %s at %s, got %s", name, tostring(want), self:format_place(u.loc, u.where))
          end
        elseif not same(u[field], want) then
          add("expected %s.%s = %s, got %s", name, field, json.encode(want), json.encode(u[field]))
        end
      end
    end
  end
  if expect.hash and expect.hash ~= game:hash_hex() then
    add("expected state hash %s, got %s", expect.hash, game:hash_hex())
  end
  return problems
end

--- Play order i: an event, an action or a check. Returns the outcome
--- {ok=, kind=, message=, what=} and the list of unmet expectations.
function Run:play(i, order)
  local set, game = self.set, self.game
  local outcome
  if order.event then
    local ok, err = pcall(set.emit, set, game, order.event, order.data)
    outcome = { ok = ok, kind = not ok and errors.get_kind(err) or nil,
                message = not ok and errors.format(err) or nil, what = "event " .. order.event }
  elseif type(order[1]) == "string" then
    local name = order[1]
    local ok, params = pcall(self.params_for, self, name, order)
    if not ok then
      outcome = { ok = false, kind = "params", message = tostring(params), what = name }
    else
      local res = table.pack(set:act(game, name, params, order.by))
      outcome = { ok = res[1] == true, kind = res[3], what = name, side = order.by,
                  message = not res[1] and errors.format(res[2]) or nil }
    end
  elseif order.check then
    outcome = { ok = true, what = "check" }
  else
    outcome = { ok = false, kind = "error", what = "?",
                message = "an order is { \"action\", params... }, { event = \"name\" } or { check = {...} }" }
  end
  local expect = order.expect or order.check or {}
  if order.check and order.expect then
    for k, v in pairs(order.check) do expect[k] = v end
  end
  local problems = self:check(expect, outcome)
  self.results[#self.results + 1] = { index = i, outcome = outcome, problems = problems }
  return outcome, problems
end

--- Play every order of the scenario; returns passed, failed (expectations).
function Run:play_all(on_order)
  local passed, failed = 0, 0
  for i, order in ipairs(self.spec.orders or {}) do
    if on_order then on_order("start", i, order) end
    local outcome, problems = self:play(i, order)
    if #problems == 0 then passed = passed + 1 else failed = failed + 1 end
    if on_order then on_order("end", i, order, outcome, problems) end
  end
  return passed, failed
end

return M

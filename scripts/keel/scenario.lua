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

local M = {}

local type, pairs, ipairs, tostring, error = type, pairs, ipairs, tostring, error
local concat = table.concat

local FIELDS = { name = true, description = true, map = true, rules = true, path = true,
                 variants = true, seed = true, flags = true, keyed = true, forces = true, groups = true,
                 orders = true, outcomes = true }
local FORCE_FIELDS = { name = true, type = true, side = true, values = true, markers = true,
                       face = true, hits = true, points = true, at = true, port = true, group = true,
                       aboard = true }

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

-- keyed = { {map, key, value}, ... } (a scenario's keyed values, or a
-- check's; key: one part or an array of parts): the shape, or an error
-- naming the file and the entry.
local function check_keyed(path, where, keyed)
  if keyed == nil then return end
  local n = 0
  for _ in pairs(type(keyed) == "table" and keyed or {}) do n = n + 1 end
  if type(keyed) ~= "table" or n ~= #keyed then fail(path, where .. " = { {map, key, value}, ... } expected") end
  for i, e in ipairs(keyed) do
    if type(e) ~= "table" or type(e[1]) ~= "string" or e[2] == nil then
      fail(path, ("%s[%d]: {map, key, value} expected (key: a part or an array of parts)"):format(where, i))
    end
  end
end

-- The tables made by a sandbox's scenario{ ... }: what makes a file a scenario.
local made = setmetatable({}, { __mode = "k" })

--- Load and check a scenario file: it runs in the sandbox and must return
--- what scenario { ... } made, or it is refused as not a scenario.
---@param path string
---@return table spec
function M.load(path)
  local env = sandbox.env { extra = {
    scenario = function(s)
      if type(s) ~= "table" then error("scenario{...} expects a table", 2) end
      for k in pairs(s) do
        if not FIELDS[k] then
          local names = sorted_keys(FIELDS)
          error(("scenario: unknown field '%s' (expected: %s)"):format(tostring(k), concat(names, ", ")), 2)
        end
      end
      made[s] = true
      return s
    end,
  } }
  local fh, err = io.open(path, "rb")
  local text, fn, hash = fh and fh:read("a"), nil, nil
  if fh then fh:close() end
  if text then
    hash = keel.state.hash_bytes(text)
    fn, err = registry.load_chunk(text, hash, "@" .. path, env)
  end
  if not fn then error(err, 0) end
  local res = table.pack(sandbox.xprotect(fn, function(e) return errors.from(e, nil, true) end))
  if not res[1] then error(res[2], 0) end
  local spec = res[2]
  if not made[spec] then
    fail(path, "not a scenario: a scenario file returns scenario { ... } (run a host Lua script with `keel script`)")
  end
  if spec.seed ~= nil and math.type(spec.seed) ~= "integer" then fail(path, "seed must be an integer") end
  if type(spec.rules) ~= "table" or #spec.rules == 0 then
    fail(path, "rules = { \"family\", ... } names the rule families it plays with")
  end
  check_keyed(path, "keyed", spec.keyed)
  for i, order in ipairs(type(spec.orders) == "table" and spec.orders or {}) do
    for _, k in ipairs({ "expect", "check" }) do
      if type(order) == "table" and type(order[k]) == "table" then
        check_keyed(path, ("orders[%d].%s.keyed"):format(i, k), order[k].keyed)
      end
    end
  end
  for i, f in ipairs(spec.forces or {}) do
    if type(f) ~= "table" or type(f.name) ~= "string" then fail(path, ("forces[%d] needs a name"):format(i)) end
    for k in pairs(f) do
      if not FORCE_FIELDS[k] then
        fail(path, ("forces[%d] (%s): unknown field '%s' (expected: %s)"):format(i, f.name, tostring(k),
          concat(sorted_keys(FORCE_FIELDS), ", ")))
      end
    end
  end
  spec.file = path
  spec.hash = hash   -- of the text loaded: the journal's rule_file line
  return spec
end

-- ---- a run -------------------------------------------------------------------------

local Run = {}
Run.__index = Run

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

--- The rule set a scenario plays with (its families and variants on its
--- path, and opts.variants after them: a conflict between any two is
--- raised here, all of them listed). Many games of one scenario may share
--- it: pass it to M.start as opts.set (a rule set keeps nothing of a game
--- between games).
---@param spec table from M.load
---@param opts? {narrate?: function, path?: string[], variants?: string[]}
---@return table set
function M.rule_set(spec, opts)
  opts = opts or {}
  local path, variants = path_and_variants(spec, opts)
  local set = rules.load { families = spec.rules, variants = variants, path = path, narrate = opts.narrate }
  if #set.conflicts > 0 then   -- variants that stack badly: all of them, before anything is played
    local msgs = {}
    for i, c in ipairs(set.conflicts) do msgs[i] = c.message end
    error(concat(msgs, "\n"), 0)
  end
  return set
end

--- Set a scenario up: board, rule set (opts.set, from M.rule_set with the
--- same opts, or a new one), game, flags and forces. opts.variants: more
--- variant files (paths as given), applied after the scenario's own;
--- opts.seed: the game's seed instead of the scenario's.
---@param spec table from M.load
---@param opts? {narrate?: function, path?: string[], variants?: string[], seed?: integer, set?: table}
---@return table run
function M.start(spec, opts)
  opts = opts or {}
  local base = dir_of(spec.file)
  local board
  if spec.map then
    local err
    -- one board per map file and process: games share it (it never changes)
    board, err = keel.board.load(resolve(base, spec.map), { shared = true })
    if not board then fail(spec.file, "map: " .. tostring(err)) end
  end
  local _, variants = path_and_variants(spec, opts)
  local set = opts.set or M.rule_set(spec, opts)
  local game = game_mod.new { seed = opts.seed or spec.seed or 0, board = board, scenario = spec.file,
                              variants = variants }
  game:add_rule_file(spec.file, spec.hash)
  set:declare_files(game)
  local self = setmetatable({ spec = spec, set = set, game = game, board = board,
                              units = {}, groups = {}, results = {} }, Run)
  local st = game.state
  st:push_rule("scenario")
  for _, k in ipairs(sorted_keys(spec.flags or {})) do game:set_global(k, spec.flags[k]) end
  for _, e in ipairs(spec.keyed or {}) do game:set_keyed(e[1], e[2], e[3]) end
  for _, f in ipairs(spec.forces or {}) do
    if self.units[f.name] then fail(spec.file, ("two forces are named '%s'"):format(f.name)) end
    local id = game:unit_new { name = f.name, type = f.type, side = f.side, values = f.values,
                               markers = f.markers, face = f.face, hits = f.hits, points = f.points }
    self.units[f.name] = id
    if f.at ~= nil then   -- a zone (area) by name, else a hex
      local z = self:find_zone(f.at)
      local h = not z and self:hex(f.at)
      if not z and not h then
        fail(spec.file, ("forces %s: at %s is not a hex or zone of the map"):format(f.name, tostring(f.at)))
      end
      if z then game:move(id, "zone", z) else game:move(id, f.port and "port" or "hex", h) end
    end
    if f.aboard ~= nil then   -- cargo of a force listed before it
      local carrier = self.units[f.aboard]
      if f.at ~= nil then fail(spec.file, ("forces %s: at and aboard exclude each other"):format(f.name)) end
      if not carrier then
        fail(spec.file, ("forces %s: aboard %s: no force of that name is listed before it"):format(f.name,
          tostring(f.aboard)))
      end
      game:move(id, "unit", carrier)
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
    if not g then fail(spec.file, ("groups: no force is in a group named '%s'"):format(name)) end
    local vals = spec.groups[name]
    for _, k in ipairs(sorted_keys(vals)) do game:group_set_value(g, k, vals[k]) end
  end
  st:pop_rule()
  return self
end

--- Go on with a saved game of a scenario (keel.game.load gave `game`): the
--- board and rule set as start makes them, the names of the scenario's
--- forces and groups (ids are the same in every game of it), and `game`
--- in place of the fresh game start set up (which is closed).
---@param spec table from M.load
---@param game table a loaded keel.game
---@param opts? {narrate?: function, path?: string[]}
---@return table run
function M.resume(spec, game, opts)
  local run = M.start(spec, opts)
  run.game.state:close()
  run.game = game
  game.board = run.board
  return run
end

--- A hex from a label ("15B:2407", through the map) or an integer.
--- A zone's index (1-based, the board's order) from its name, or nil.
function Run:find_zone(v)
  if type(v) ~= "string" or not self.board then return nil end
  for i, name in ipairs(self.board:zones()) do if name == v then return i end end
  return nil
end

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
    if k ~= 1 and k ~= "expect" then params[k] = v end
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
  local want_fail = expect.error or expect.illegal or expect.vetoed
  if want_fail then
    if outcome.ok then
      add("expected it to fail (%s), but it succeeded", tostring(want_fail))
    else
      local kinds = { error = true, cpu = true, budget = true, memory = true }
      local kind_ok = (expect.error and kinds[outcome.kind]) or (expect.illegal and outcome.kind == "illegal")
        or (expect.vetoed and outcome.kind == "vetoed")
      if not kind_ok then add("expected %s, got %s: %s", expect.error and "an error" or
        expect.illegal and "an illegal order" or "a veto", outcome.kind or "?", outcome.message) end
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
      local res = table.pack(set:act(game, name, params))
      outcome = { ok = res[1] == true, kind = res[3], what = name,
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

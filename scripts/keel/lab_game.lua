--- keel.lab_game — one game of a study (keel.lab): a scenario set up with a
-- seed and the variants of one side of the study, every order played, and
-- what the study counts read off it: which orders met their expectations,
-- the value of each outcome the scenario names, how often each rule fired
-- and each table row came up. It runs where the game runs (a sandbox state
-- of its own, keel.lab) and returns plain data.
--
--   local lab_game = require "keel.lab_game"
--   local rec = lab_game.play("scenarios/suez_1942.lua", { "house.lua" }, 12345)
--   rec.ok, rec.met, rec.outcomes.vp, rec.rules["32.B"], rec.rows["naval_search 7-10: F"]
--
-- With players (opts.players, keel.player), a game is played to its end by
-- them instead of by the scenario's orders, and its result is read as the
-- outcomes every such study has (M.RESULT_OUTCOMES: the winner, the seat
-- that won, the margin, the length, each side's score).
--
-- A scenario names its outcomes in `outcomes = { name = { ... } }`
-- (doc/guide.md, "Outcomes"): M.outcome_defs checks them, M.outcome_value
-- reads one at the end of a game.
local scenario = require "keel.scenario"
local errors = require "keel.errors"
local narrator = require "keel.narrator"
local sorted_keys = require("keel.keys").sorted

local type, ipairs, tostring, error, pcall = type, ipairs, tostring, error, pcall
local concat = table.concat

local M = {}

-- ---- outcomes --------------------------------------------------------------------------

--- What each kind of outcome reads, and the fields it takes besides `title`.
M.KINDS = {
  global = { "global" },                  -- a game-wide value: { global = "suez" }
  keyed = { "keyed", "key" },             -- a keyed value: { keyed = "vp", key = "Allied" } (key: a part or a list)
  count = { "count" },                    -- how many entries a keyed map holds: { count = "naval_combat" }
  units = { "units", "sum" },             -- how many units match (or the sum of a field or value over them)
  unit = { "unit", "field", "value" },    -- one unit's field or value: { unit = "Warspite", field = "loc" }
  group = { "group", "key" },             -- a group's value: { group = "Regia", key = "found" }
  query = { "query" },                    -- what a rule's query answers: { query = "victory" }
}
local KIND_ORDER = { "global", "keyed", "count", "units", "unit", "group", "query" }
--- The fields of a unit a `units` filter, a `sum` or a `unit ... field` may name.
M.UNIT_FIELDS = { name = true, type = true, side = true, face = true, hits = true, points = true,
                  loc = true, where = true }

local function bad(file, name, what)
  error(("%s: outcomes.%s: %s"):format(file, tostring(name), what), 0)
end

local function scalar(v) return type(v) == "string" or type(v) == "number" or type(v) == "boolean" end

--- Check a scenario's `outcomes` field: a sorted list of {name, title, kind, ...}.
---@param spec table from keel.scenario.load
---@return table[] defs
function M.outcome_defs(spec)
  local out = {}
  local o = spec.outcomes
  if o == nil then return out end
  local file = spec.file or "scenario"
  if type(o) ~= "table" then error(file .. ": outcomes: { name = { global = ... }, ... } expected", 0) end
  for _, name in ipairs(sorted_keys(o)) do
    if type(name) ~= "string" or not name:match("^[%a_][%w_%-]*$") then
      bad(file, name, "an outcome's name is a word (letters, digits, _ and -)")
    end
    local d = o[name]
    if type(d) ~= "table" then bad(file, name, "{ global = ... } (or keyed, count, units, unit, group, query) expected") end
    local kind
    for _, k in ipairs(KIND_ORDER) do
      if d[k] ~= nil then
        if kind then bad(file, name, ("one of global, keyed, count, units, unit, group, query: both %s and %s given"):format(kind, k)) end
        kind = k
      end
    end
    if not kind then bad(file, name, "says what it reads: global, keyed, count, units, unit, group or query") end
    local allowed = { title = true }
    for _, f in ipairs(M.KINDS[kind]) do allowed[f] = true end
    for _, k in ipairs(sorted_keys(d)) do
      if not allowed[k] then
        bad(file, name, ("unknown field '%s' for a %s outcome (expected: %s)"):format(tostring(k), kind,
          concat(sorted_keys(allowed), ", ")))
      end
    end
    if d.title ~= nil and type(d.title) ~= "string" then bad(file, name, "title: a string expected") end
    local def = { name = name, title = d.title or name, kind = kind }
    if kind == "units" then
      if type(d.units) ~= "table" then bad(file, name, "units: a filter { side = ..., loc = ... } expected") end
      def.units = {}
      for _, f in ipairs(sorted_keys(d.units)) do
        local want = d.units[f]
        if not M.UNIT_FIELDS[f] then
          bad(file, name, ("units: no unit field '%s' (fields: %s)"):format(tostring(f), concat(sorted_keys(M.UNIT_FIELDS), ", ")))
        end
        local alts = {}
        if type(want) == "table" then
          for i, v in ipairs(want) do
            if not scalar(v) then bad(file, name, ("units.%s[%d]: a value expected"):format(f, i)) end
            alts[i] = v
          end
          if #alts == 0 then bad(file, name, ("units.%s: a value or a list of values expected"):format(f)) end
        elseif scalar(want) then
          alts[1] = want
        else
          bad(file, name, ("units.%s: a value or a list of values expected"):format(f))
        end
        def.units[f] = alts
      end
      if d.sum ~= nil then
        if type(d.sum) ~= "string" then bad(file, name, "sum: a unit field (hits, points) or a value's name expected") end
        def.sum = d.sum
      end
    elseif kind == "unit" then
      if type(d.unit) ~= "string" then bad(file, name, "unit: a force's name expected") end
      if (d.field == nil) == (d.value == nil) then bad(file, name, "a unit outcome reads one field = ... or value = ...") end
      if d.field ~= nil and not M.UNIT_FIELDS[d.field] then
        bad(file, name, ("field: no unit field '%s' (fields: %s)"):format(tostring(d.field), concat(sorted_keys(M.UNIT_FIELDS), ", ")))
      end
      if d.value ~= nil and type(d.value) ~= "string" then bad(file, name, "value: a value's name expected") end
      def.unit, def.field, def.value = d.unit, d.field, d.value
    elseif kind == "keyed" then
      if type(d.keyed) ~= "string" then bad(file, name, "keyed: a keyed map's name expected") end
      local key = d.key
      if type(key) ~= "table" then key = { key } end
      if #key < 1 or #key > 3 then bad(file, name, "key: a key of 1 to 3 parts (integers or strings) expected") end
      for i, part in ipairs(key) do
        if type(part) ~= "string" and math.type(part) ~= "integer" then
          bad(file, name, ("key[%d]: an integer or a string expected"):format(i))
        end
      end
      def.keyed, def.key = d.keyed, key
    elseif kind == "group" then
      if type(d.group) ~= "string" or type(d.key) ~= "string" then
        bad(file, name, "a group outcome names group = \"name\" and key = \"value\"")
      end
      def.group, def.key = d.group, d.key
    else
      if type(d[kind]) ~= "string" then bad(file, name, kind .. ": a name expected") end
      def[kind] = d[kind]
    end
    out[#out + 1] = def
  end
  return out
end

-- a unit's field or value as the game has it now
local function unit_field(game, id, f)
  if f == "loc" then return (game:get(id, "loc")) end
  if f == "where" then
    local kind, where = game:get(id, "loc")
    return where ~= nil and (kind .. ":" .. tostring(where)) or kind
  end
  if M.UNIT_FIELDS[f] then return game:get(id, f) end
  return game:get_value(id, f)
end

local function plain_value(v)
  if v == nil or type(v) == "string" or type(v) == "boolean" then return v end
  if type(v) == "number" then
    if v ~= v or v == math.huge or v == -math.huge then error("the value is not a finite number", 0) end
    return v
  end
  error("the value is a " .. type(v) .. " (a number, a string, a boolean or nothing expected)", 0)
end

--- The value of an outcome at the end of a game (number, string, boolean or nil).
---@param def table from M.outcome_defs
---@param run table a keel.scenario run
function M.outcome_value(def, run)
  local game = run.game
  if def.kind == "global" then return plain_value(game:get_global(def.global)) end
  if def.kind == "keyed" then return plain_value(game:get_keyed(def.keyed, def.key)) end
  if def.kind == "count" then return game:count_keyed(def.count) end
  if def.kind == "units" then
    local n = 0
    for _, id in ipairs(game:units()) do
      local match = true
      for _, f in ipairs(sorted_keys(def.units)) do
        local v, any = unit_field(game, id, f), false
        for _, alt in ipairs(def.units[f]) do if v == alt then any = true break end end
        if not any then match = false break end
      end
      if match then
        if def.sum then
          local v = unit_field(game, id, def.sum)
          if v ~= nil and type(v) ~= "number" then
            error(("sum: %s of unit %d is %s, not a number"):format(def.sum, id, tostring(v)), 0)
          end
          n = n + (v or 0)
        else
          n = n + 1
        end
      end
    end
    return n
  end
  if def.kind == "unit" then
    local id = run.units[def.unit]
    if not id then error(("no force named '%s'"):format(def.unit), 0) end
    return plain_value(unit_field(game, id, def.field or def.value))
  end
  if def.kind == "group" then
    local g = run:group_named(def.group)
    if not g then return nil end
    return plain_value(game:group_get_value(g, def.key))
  end
  return plain_value(run.set:query(game, def.query))
end

-- ---- a game ----------------------------------------------------------------------------

--- How a rule is named in the counts: its id, or its family and title for
--- family plumbing (a rule { } without an id).
function M.rule_key(r)
  if not r then return "?" end
  if r.id then return r.id end
  return ("%s: %s"):format(tostring(r.family or "plumbing"), tostring(r.title or "plumbing"))
end

-- A table's result as text: a cell's text; for several columns, each
-- column's, by column name.
local function result_text(r)
  if type(r) ~= "table" then return tostring(r) end
  if type(rawget(r, "text")) == "string" then return r.text end
  local parts = {}
  for _, k in ipairs(sorted_keys(r)) do parts[#parts + 1] = tostring(k) .. "=" .. result_text(r[k]) end
  return concat(parts, " ")
end

--- How a table row is named in the counts: "table range: result".
function M.row_key(rec)
  return ("%s %s: %s"):format(tostring(rec.table), tostring(rec.range), result_text(rec.result))
end

--- The keys of a rule set's active rules and of every row of its dice
--- tables, sorted: what a study lists even when it never came up.
function M.known_keys(set)
  local tables = require "keel.tables"
  local rules, rows = {}, {}
  for _, id in ipairs(set.order) do
    local r = set.rules[id]
    if not r.disabled then rules[#rules + 1] = M.rule_key(r) end
  end
  for _, r in ipairs(set.plumbing) do
    if not r.disabled then rules[#rules + 1] = M.rule_key(r) end
  end
  for _, name in ipairs(sorted_keys(set.tables)) do
    local t = set:table(name)
    local ok, src = pcall(t.rows_table, t)
    if ok and src.sorted then
      for _, row in ipairs(src.sorted) do
        rows[#rows + 1] = M.row_key { table = name, range = tables.range_text(row.range),
                                      result = tables.result_of(src, row) }
      end
    end
  end
  table.sort(rules)
  table.sort(rows)
  return rules, rows
end

-- kinds of failure that make a game fail (a rule error or a limit), not
-- merely miss an expectation
local FAILS = { error = true, cpu = true, budget = true, memory = true }

--- Orders a game played by players may take before it is called unfinished.
M.STEPS = 20000

local function first_line(s) return (tostring(s):match("^[^\n]*")) end

--- Load and check a scenario for a study: its spec and outcome definitions
--- (keel.scenario.load: plain data, a copy of its own for each call).
---@param file string
---@return table spec, table[] outcome defs
function M.load(file)
  local spec = scenario.load(file)
  return spec, M.outcome_defs(spec)
end

--- What a study reports about a scenario before any game: its name, each
--- order as a line of text (and whether it states expectations), its
--- outcomes, and for each side (its variants) the keys of its active rules
--- and table rows (M.known_keys), or why the side does not set up; the
--- game's sides and the scenario's `players`. With players, the outcomes
--- begin with the result outcomes (M.result_defs).
---@param file string
---@param sides string[][] each side's variants
function M.describe(file, sides, with_players)
  local spec, defs = M.load(file)
  local orders = {}
  for i, o in ipairs(spec.orders or {}) do
    orders[i] = { text = narrator.order_text(o), explicit = (o.expect ~= nil or o.check ~= nil) }
  end
  local outcomes = {}
  for i, d in ipairs(defs) do outcomes[i] = d end
  local known, game_sides, scored = {}, nil, {}
  for k, variants in ipairs(sides or {}) do
    local ok, run = pcall(scenario.start, spec, { variants = variants })
    if ok then
      local rules, rows = M.known_keys(run.set)
      known[k] = { rules = rules, rows = rows }
      if not game_sides and run.set.sequence then
        game_sides = require("keel.sequence").side_names(run.set.sequence)
        scored = run.set.game_spec and run.set.game_spec.scores or {}
      end
    else
      known[k] = { rules = {}, rows = {}, error = first_line(errors.format(run)) }
    end
  end
  if with_players then
    local all = M.result_defs(game_sides or {}, scored)
    for _, d in ipairs(outcomes) do all[#all + 1] = d end
    outcomes = all
  end
  return { name = spec.name, orders = orders, outcomes = outcomes, known = known, sides = game_sides or {},
           players = spec.players or {} }
end

-- ---- a game played by players ----------------------------------------------------------

--- The outcomes a study with players reads off every game's result
--- (game:result(), keel.sequence), besides the scenario's own: defs as
--- M.outcome_defs gives them, for the sides of the scenario (a score for
--- each side that has one, and the margin when both of two have).
---@param sides string[] the scenario's sides, in its order
---@param scored table<string, any> the sides with scores declared
---@return table[]
function M.result_defs(sides, scored)
  local defs = {
    { name = "winner", title = "the side that won (draw: none)", kind = "result" },
    { name = "winner_seat", title = "the seat that won (its player; draw: none)", kind = "result" },
    { name = "turns", title = "game turns played", kind = "result" },
  }
  if #sides == 2 and scored[sides[1]] and scored[sides[2]] then
    defs[#defs + 1] = { name = "margin", title = ("%s's score minus %s's"):format(sides[1], sides[2]), kind = "result" }
  end
  for _, side in ipairs(sides) do
    if scored[side] then
      defs[#defs + 1] = { name = "score_" .. side, title = side .. "'s score at the end", kind = "result" }
    end
  end
  return defs
end

-- The seed of the player of the i-th side in a game of this seed: its own
-- stream, the same in every side of a study (paired games stay paired).
local function player_seed(seed, i)
  return seed ~ (i * -7046029254386353131)   -- 0x9E3779B97F4A7C15
end

--- Play a game set up in `run` to its end with players: `seats` is a list
--- of {side =, spec =} (keel.player specs; a side with none is played by
--- "random"). At most `steps` orders. Returns nil, the number of orders
--- played; or a failure record {ok = false, kind, order, message}: kind
--- "player" (a player's error or bad spec), "refused" (a player's order
--- refused: a rule or player fault), "dead-end" (nobody may act and the
--- game is not over), "steps", or the kind of a rule error or limit.
function M.play_players(run, seats, steps, seed)
  local player = require "keel.player"
  local set, game = run.set, run.game
  local sides = set.sequence and require("keel.sequence").side_names(set.sequence) or {}
  if #sides == 0 then
    return { ok = false, kind = "setup", order = 0,
             message = "the scenario declares no sides (a sequence of play): nothing for players to play" }
  end
  local spec_of = {}
  for _, s in ipairs(seats) do spec_of[s.side] = s.spec end
  local made = {}
  for i, side in ipairs(sides) do
    local p, err = player.new(spec_of[side] or "random", { seed = player_seed(seed, i) })
    if not p then return { ok = false, kind = "player", order = 0, message = side .. ": " .. tostring(err) } end
    made[side] = p
  end
  for step = 1, steps do
    local st = set:status(game)
    if st.over then return nil, step - 1 end
    local side = st.active and st.active[1]
    if not side then
      return { ok = false, kind = "dead-end", order = step, message = "nobody may act and the game is not over" }
    end
    local ok, name, params = pcall(made[side].decide, made[side], set, game, side)
    if not ok then
      return { ok = false, kind = FAILS[errors.get_kind(name) or ""] and errors.get_kind(name) or "player",
               order = step, message = side .. "'s player: " .. first_line(errors.format(name)) }
    end
    local res = table.pack(set:act(game, name, params, side))
    if not res[1] then
      local kind = res[3]
      return { ok = false, kind = FAILS[kind] and kind or "refused", order = step,
               message = ("%s's order %s was refused: %s"):format(side, tostring(name), first_line(errors.format(res[2]))) }
    end
  end
  if set:status(game).over then return nil, steps end
  return { ok = false, kind = "steps", order = steps, message = ("no end after %d orders"):format(steps) }
end

--- The result outcomes of a game that is over (M.result_defs).
function M.result_values(run, seats)
  local game = run.game
  local res = game:result()
  local sides = require("keel.sequence").side_names(run.set.sequence)
  local v = { winner = res.winner, turns = game:get_global("turn") }
  for i, s in ipairs(seats) do
    if s.side == res.winner then v.winner_seat = s.seat or tostring(i) end
  end
  for _, side in ipairs(sides) do v["score_" .. side] = res.scores[side] end
  if #sides == 2 and res.scores[sides[1]] and res.scores[sides[2]] then
    v.margin = res.scores[sides[1]] - res.scores[sides[2]]
  end
  return v
end

--- Play one game. Each game starts from the same state of its scenario
--- and rule set whatever the Lua state played before it (doc/lab.md: every
--- way of cutting a study plays the same games): its scenario is loaded
--- and its rule set made anew (the rule and variant files run again, so
--- what they keep in file-level locals is the game's own; their compiled
--- chunks and parsed tables are kept per process, keel.registry), and the
--- ids tostring gives start from #1 again. Returns a record (plain data):
--- ok = true: met (a string, one "1" or "0" per order: its expectations
--- met), outcomes {name = value}, rules {key = times fired}, rows {key =
--- times}, rules_hash (the rule files' contents, for merges);
--- ok = false: kind ("setup", "error", "cpu", "budget", "memory",
--- "outcome"), order (its index; 0 for the setup), message.
---@param file string the scenario
---@param variants string[] stacked on the scenario's own
---@param seed integer
--- With opts.seats ({side =, spec =, seat =} each, keel.player specs), the
--- game is played to its end by players (M.play_players, at most
--- opts.steps orders) and `outcomes` holds the result outcomes too
--- (M.result_defs); `orders` says how many orders were played.
---@param opts? {cpu?: number, seats?: table[], steps?: integer}
---@return table record
function M.play(file, variants, seed, opts)
  opts = opts or {}
  local keel = require "keel"
  if opts.cpu then keel.sandbox.limits { cpu = opts.cpu } end
  keel.strlib.reset_ids()
  local lok, spec, defs = pcall(M.load, file)
  if not lok then
    return { ok = false, kind = "setup", order = 0, message = first_line(errors.format(spec)) }
  end
  local rules, rows = {}, {}
  local function count(t, k) t[k] = (t[k] or 0) + 1 end
  local function narrate(kind, d)
    if kind == "fire" or kind == "action" or kind == "veto" then count(rules, M.rule_key(d.rule))
    elseif kind == "resolve" then count(rows, M.row_key(d.record)) end
  end
  -- a rule set of its own (the set, or why it does not set up)
  local ok, run = pcall(scenario.start, spec, { narrate = narrate, variants = variants, seed = seed })
  if not ok then
    return { ok = false, kind = "setup", order = 0, message = first_line(errors.format(run)) }
  end
  local met = {}
  local failure, played
  if opts.seats then
    failure, played = M.play_players(run, opts.seats, opts.steps or M.STEPS, seed)
  else
    for i, order in ipairs(spec.orders or {}) do
      local outcome, problems = run:play(i, order)
      met[i] = #problems == 0 and "1" or "0"
      local want_error = order.expect and order.expect.error
      if not failure and not outcome.ok and FAILS[outcome.kind] and not want_error then
        failure = { ok = false, kind = outcome.kind, order = i, message = first_line(outcome.message) }
      end
    end
  end
  if failure then return failure end
  local values = opts.seats and M.result_values(run, opts.seats) or {}
  for _, d in ipairs(defs) do
    local vok, v = pcall(M.outcome_value, d, run)
    if not vok then
      return { ok = false, kind = "outcome", order = 0,
               message = ("outcome %s: %s"):format(d.name, first_line(errors.format(v))) }
    end
    values[d.name] = v
  end
  local hashes = {}
  for i, rf in ipairs(run.game.rule_files) do hashes[i] = rf[2] end
  local rules_hash = keel.state.hash_bytes(concat(hashes, " "))
  return { ok = true, met = concat(met), outcomes = values, rules = rules, rows = rows, rules_hash = rules_hash,
           orders = played }
end

return M

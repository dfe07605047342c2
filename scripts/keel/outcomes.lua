--- keel.outcomes — the exact distribution of what one order does, under the
-- real rules: every die the order rolls is enumerated, not sampled. The
-- order is played once per dice path with the faces forced (keel.dice
-- force), each run undone after it; a run that rolls a die beyond the
-- forced faces shows where the next branch is. A path's chance is the
-- product of 1/sides over its dice, so every chance is an exact fraction.
-- General: any family's order that rolls dice (a table, a pick, a hit roll).
--
--   local outcomes = require "keel.outcomes"
--   local r = outcomes.enumerate(set, game, "bomb", { tf = convoy, hits = 3 })
--   r.den, r.outcomes[1].count, r.outcomes[1].changes     -- 112, 2, { ... }
--   print(outcomes.format(r))
--
-- An outcome is what changed in the units: eliminated (to the dead pile),
-- hits taken, a new face, a new name (a division cut to its cadre), a new
-- place. See doc/api/outcomes.md.
local odds = require "keel.odds"
local dice_expr = require "keel.dice_expr"

local error, ipairs, pairs, tostring, setmetatable = error, ipairs, pairs, tostring, setmetatable
local sort, concat = table.sort, table.concat
local gcd, mul = odds.gcd, odds.mul

local M = {}

M.MAX_RUNS = 200000

-- one listener per dice object: the records of the run in progress
local listening = setmetatable({}, { __mode = "k" })

local function listen(dice)
  local l = listening[dice]
  if l then return l end
  l = { records = nil }
  listening[dice] = l
  dice:on_roll(function(rec)
    if l.records then l.records[#l.records + 1] = rec end
  end)
  return l
end

-- how many dice a roll record threw and their sides
local function shape(rec)
  local n = rec.expr:match("^1%.%.(%d+)$")
  if n then return 1, math.tointeger(tonumber(n)) end
  local e = dice_expr.parse(rec.expr)
  if not e then error("outcomes: cannot read the roll '" .. tostring(rec.expr) .. "'", 0) end
  return e.count, e.sides
end

-- every face tuple of `count` dice of `sides`, in order
local function tuples(count, sides)
  local out = { {} }
  for _ = 1, count do
    local nxt = {}
    for _, t in ipairs(out) do
      for f = 1, sides do
        local c = { table.unpack(t) }
        c[#c + 1] = f
        nxt[#nxt + 1] = c
      end
    end
    out = nxt
  end
  return out
end

-- a snapshot of every unit's place, hits, face and name
local function snapshot(game)
  local s = {}
  for _, id in ipairs(game:units()) do
    local kind, where = game:get(id, "loc")
    s[id] = { name = game:get(id, "name"), type = game:get(id, "type"), side = game:get(id, "side"),
              loc = kind, where = where, hits = game:get(id, "hits"), face = game:get(id, "face") }
  end
  return s
end

--- What changed between two snapshots: a list of {unit, name, type, what}
--- in unit order; `what` lists "eliminated", "+N hit(s)", "face F",
--- "now NAME", "moved".
function M.changes(before, after)
  local out = {}
  local ids = {}
  for id in pairs(after) do ids[#ids + 1] = id end
  sort(ids)
  for _, id in ipairs(ids) do
    local a, b = before[id], after[id]
    if a then
      local what = {}
      if b.loc == "dead" and a.loc ~= "dead" then what[#what + 1] = "eliminated"
      else
        if b.hits ~= a.hits then what[#what + 1] = ("+%d hit(s)"):format(b.hits - a.hits) end
        if b.face ~= a.face then what[#what + 1] = "face " .. tostring(b.face) end
        if b.loc ~= a.loc or b.where ~= a.where then what[#what + 1] = "moved" end
      end
      if b.name ~= a.name then what[#what + 1] = "now " .. tostring(b.name) end
      if #what > 0 then out[#out + 1] = { unit = id, name = a.name, type = a.type, what = concat(what, ", ") } end
    end
  end
  return out
end

local function key_of(changes)
  if #changes == 0 then return "no change" end
  local parts = {}
  for i, c in ipairs(changes) do parts[i] = tostring(c.name) .. ": " .. c.what end
  return concat(parts, "; ")
end

-- a/b + c/d, reduced
local function add(a, b, c, d)
  local g = gcd(b, d)
  local den = mul(b // g, d, "a denominator")
  local num = mul(a, den // b, "a count") + mul(c, den // d, "a count")
  local r = gcd(num, den)
  return num // r, den // r
end

--- Enumerate every dice path of order `name` with `params` on `game` (a rule
--- set's action): the game is left as it was (each run is undone).
---@param set table a keel.rules set
---@param game table a keel.game
---@param name string the action
---@param params table its parameters (ids and hexes, as set:act takes them)
---@param opts? {max_runs?: integer}
---@return table|nil result {den, runs, paths, outcomes = {{key, changes, num, den}...}, before}, string? reason
function M.enumerate(set, game, name, params, opts)
  local max_runs = opts and opts.max_runs or M.MAX_RUNS
  local dice = game.dice
  local l = listen(dice)
  local hash0 = game:hash_hex()
  local before = snapshot(game)
  local result = { runs = 0, paths = 0, by_key = {}, before = before }
  local function run(prefix)
    result.runs = result.runs + 1
    if result.runs > max_runs then
      error(("outcomes: more than %d runs: too many dice paths to enumerate"):format(max_runs), 0)
    end
    dice:clear_forced()
    local faces = {}
    for _, t in ipairs(prefix) do for _, f in ipairs(t) do faces[#faces + 1] = f end end
    if #faces > 0 then dice:force(faces) end
    l.records = {}
    local res = table.pack(set:act(game, name, params))
    local records = l.records
    l.records = nil
    dice:clear_forced()
    return res, records
  end
  local function explore(prefix, num, den)
    local res, records = run(prefix)
    if res[1] == true then
      local after = snapshot(game)
      game:undo(1)
      if game:hash_hex() ~= hash0 then error("outcomes: undoing the order did not restore the state", 0) end
      if #records > #prefix then
        local count, sides = shape(records[#prefix + 1])
        local ways = tuples(count, sides)
        for _, t in ipairs(ways) do
          local p = {}
          for i, x in ipairs(prefix) do p[i] = x end
          p[#p + 1] = t
          explore(p, num, mul(den, #ways, "a dice path's denominator"))
        end
        return true
      end
      local changes = M.changes(before, after)
      local key = key_of(changes)
      local o = result.by_key[key]
      if not o then
        o = { key = key, changes = changes, num = 0, den = 1 }
        result.by_key[key] = o
      end
      o.num, o.den = add(o.num, o.den, num, den)
      result.paths = result.paths + 1
      return true
    end
    if #prefix == 0 then return nil, res[2] end
    error(("outcomes: the order failed on a dice path: %s"):format(tostring(res[2])), 0)
  end
  local ok, why = explore({}, 1, 1)
  if not ok then return nil, why end
  -- one common denominator
  local den = 1
  for _, o in pairs(result.by_key) do den = mul(den // gcd(den, o.den), o.den, "the common denominator") end
  local list = {}
  for _, o in pairs(result.by_key) do
    o.count = o.num * (den // o.den)
    list[#list + 1] = o
  end
  sort(list, function(a, b) return a.key < b.key end)
  result.outcomes, result.den, result.by_key = list, den, nil
  return result
end

--- Outcomes grouped by unit type: {key = "NT: eliminated x2; DD: +1 hit(s) x1", count} sorted by key.
function M.by_type(result)
  local acc = {}
  for _, o in ipairs(result.outcomes) do
    local n, types = {}, {}
    for _, c in ipairs(o.changes) do
      local k = tostring(c.type) .. ": " .. c.what
      if not n[k] then n[k] = 0; types[#types + 1] = k end
      n[k] = n[k] + 1
    end
    sort(types)
    local parts = {}
    for i, k in ipairs(types) do parts[i] = k .. " x" .. n[k] end
    local key = #parts > 0 and concat(parts, "; ") or "no change"
    acc[key] = (acc[key] or 0) + o.count
  end
  local out = {}
  for k, c in pairs(acc) do out[#out + 1] = { key = k, count = c } end
  sort(out, function(a, b) return a.key < b.key end)
  return out
end

--- Per unit: the chance of each thing that may happen to it:
--- {{unit, name, what = {{what, count}...}}...} in unit order.
function M.per_unit(result)
  local acc, ids = {}, {}
  for _, o in ipairs(result.outcomes) do
    for _, c in ipairs(o.changes) do
      local u = acc[c.unit]
      if not u then u = { unit = c.unit, name = c.name, counts = {} }; acc[c.unit] = u; ids[#ids + 1] = c.unit end
      u.counts[c.what] = (u.counts[c.what] or 0) + o.count
    end
  end
  sort(ids)
  local out = {}
  for _, id in ipairs(ids) do
    local u = acc[id]
    local whats = {}
    for w in pairs(u.counts) do whats[#whats + 1] = w end
    sort(whats)
    local list = {}
    for i, w in ipairs(whats) do list[i] = { what = w, count = u.counts[w] } end
    out[#out + 1] = { unit = id, name = u.name, what = list }
  end
  return out
end

local function pct(count, den) return ("%6.2f%%"):format(100 * count / den) end

--- The result as text: by unit type, per unit, and (up to opts.list, default
--- 24) every distinct outcome.
function M.format(result, opts)
  local limit = opts and opts.list or 24
  local den = result.den
  local lines = { ("%d dice path(s), %d distinct outcome(s); chances over %d"):format(result.paths, #result.outcomes, den), "",
    "by unit type:" }
  for _, o in ipairs(M.by_type(result)) do
    lines[#lines + 1] = ("  %-52s %-16s %s"):format(o.key, odds.format_fraction(o.count, den), pct(o.count, den))
  end
  lines[#lines + 1] = ""
  lines[#lines + 1] = "per unit:"
  for _, u in ipairs(M.per_unit(result)) do
    for _, w in ipairs(u.what) do
      lines[#lines + 1] = ("  %-20s %-30s %-16s %s"):format(tostring(u.name), w.what, odds.format_fraction(w.count, den), pct(w.count, den))
    end
  end
  if #result.outcomes <= limit then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "outcomes:"
    for _, o in ipairs(result.outcomes) do
      lines[#lines + 1] = ("  %-16s %s  %s"):format(odds.format_fraction(o.count, den), pct(o.count, den), o.key)
    end
  end
  return concat(lines, "\n")
end

return M

--- keel.legal — the legal actions of a rule set for a side: every action
-- with its parameters, the values the rules can enumerate for them, every
-- candidate order checked as set:check checks it, and the reason an action
-- is not available. What a user interface offers the player (keel serve).
--
-- A parameter declares its domain in the rule (keel.orders.parse_param):
--
--   actions = { combine = { params = {
--     group = { type = "group", domain = function(ctx, p, side) return {...} end },
--     into  = { type = "group", depends = { "group" },
--               domain = function(ctx, p, side) ... p.group ... end },
--   }, legal = ..., effect = ... } }
--
-- A domain runs with its action's rule in force and gets `p`, the values
-- of the parameters it depends on, and `side`, the side the actions are
-- listed for (nil: any). It returns a list of candidates — values, or
-- { value = v, cost =, note = ... } with plain extras a front-end may show
-- (a move's MP cost) — or nil/empty and why there is none. The candidates
-- of a list parameter ("units") are its elements.
--
-- The candidate orders: each parameter with a domain, in the order the
-- domains are asked, takes each of its candidates and, when optional, is
-- also left out; a list parameter takes every set of its elements (at
-- most its declared `max`), smaller sets first: level k holds the orders
-- whose largest set has k elements. Those without a domain are left out.
-- Every candidate order is checked by the action's `legal` and its vetoes;
-- what survives is listed. At most M.MAX_CHECKS orders are checked per
-- action: the levels are enumerated while the next fits, and an action
-- cut short says `truncated` (what it lists was checked; more may be
-- legal). When a required parameter has no domain the candidates are
-- listed unchecked: the order is checked when it is submitted.
--
-- Each parameter lists, for each combination of the values of the
-- parameters it depends on (`given`), the candidates some legal order
-- uses, the sets of a list parameter (`sets`) and whether some legal
-- order leaves it out (`omit`). When the legal orders are not every
-- combination those lists make (two optional parameters that exclude each
-- other), the action also lists them (`orders`). Entry point:
-- set:legal_actions (keel.rules).
local orders = require "keel.orders"
local json = require "keel.json"
local errors = require "keel.errors"
local sorted_keys = require("keel.keys").sorted

local type, ipairs, pairs, pcall, tostring, error = type, ipairs, pairs, pcall, tostring, error
local min, max = math.min, math.max

local M = {}

--- Candidate orders checked per action at most; past it, `truncated`.
M.MAX_CHECKS = 5000

local PLAIN = { string = true, number = true, boolean = true }
local NONE = {}

-- A key telling values apart (ids, labels, lists of ids): a list of
-- integers (a set of units) as its numbers, anything else as JSON. Keys
-- never leave this file: two values share one only when they are equal.
local concat, math_type = table.concat, math.type
local function key_of(v)
  if type(v) == "table" then
    local n, ints = #v, true
    for i = 1, n do
      if math_type(v[i]) ~= "integer" then ints = false; break end
    end
    if ints and n > 0 then
      local count = 0   -- nothing but 1..n
      for _ in next, v do count = count + 1 end
      if count == n then return "[" .. concat(v, ",") end
    end
    local ok, text = pcall(json.encode, v)
    return ok and text or tostring(v)
  end
  return type(v) .. ":" .. tostring(v)
end

local function copy(t)
  local out = {}
  for k, v in pairs(t) do out[k] = v end
  return out
end

-- The candidates a domain gives: {value=, extras...} each, and why none.
local function ask_domain(set, game, r, name, pname, p, given, side)
  local res = table.pack(set:_call(r, p.domain, game, given, side))
  local list, why = res[1], res[2]
  if list == nil or list == false then return {}, why ~= nil and tostring(why) or nil end
  if type(list) ~= "table" then
    error(("action %s: the domain of '%s' returned %s; a list of candidates expected"):format(name, pname,
      type(list)), 0)
  end
  local out = {}
  for i, c in ipairs(list) do
    local cand
    if type(c) == "table" and c.value ~= nil then
      cand = { value = c.value }
      -- the plain extras (which keys, not their order, makes the listing)
      for k, x in next, c do
        if k ~= "value" and type(k) == "string" and PLAIN[type(x)] then cand[k] = x end
      end
    elseif c ~= nil then
      cand = { value = c }
    end
    if cand == nil then error(("action %s: the domain of '%s': candidate %d is nil"):format(name, pname, i), 0) end
    out[#out + 1] = cand
  end
  return out, #out == 0 and why ~= nil and tostring(why) or nil
end

-- The key of the values of the parameters `p` depends on in `combo` (one
-- value's key_of, or theirs joined; a left-out one as "\0"), and whether
-- none is left out. No table made: asked for every candidate order.
local function given_key(p, combo)
  local deps = p.depends
  local n = #deps
  if n == 0 then return "", true end
  if n == 1 then
    local v = combo[deps[1]]
    if v == nil then return "\0", false end
    return key_of(v), true
  end
  local parts, complete = {}, true
  for i = 1, n do
    local v = combo[deps[i]]
    if v == nil then complete = false; parts[i] = "\0" else parts[i] = key_of(v) end
  end
  return table.concat(parts, "\1"), complete
end

-- The values of the parameters `p` depends on in `combo`: given, its key;
-- complete is false when one of them is left out of the combination.
local function given_of(p, combo)
  local given = {}
  for _, d in ipairs(p.depends) do given[d] = combo[d] end
  local k, complete = given_key(p, combo)
  return given, k, complete
end

-- The candidates of parameter `pname` in a combination, asked once per
-- value of what it depends on: {list, why, index = value key -> {pos, cand}};
-- nil when something it depends on is left out.
local function candidates(E, pname, combo)
  local p = E.decl[pname]
  local k, complete = given_key(p, combo)
  if not complete then return nil end
  local hit = E.cache[pname][k]
  if not hit then
    local given = given_of(p, combo)
    local l, why = ask_domain(E.set, E.game, E.rule, E.name, pname, p, given, E.side)
    local list, index = {}, {}
    for _, cand in ipairs(l) do
      local ck = key_of(cand.value)
      if index[ck] == nil then
        list[#list + 1] = cand
        index[ck] = { pos = #list, cand = cand }
      end
    end
    hit = { list = list, why = why, index = index }
    E.cache[pname][k] = hit
    if #list == 0 then
      local slot = p.optional and "empty_optional" or "empty"
      if not E[slot] then E[slot] = { param = pname, reason = why } end
    end
  end
  return hit
end

-- Call emit(set) for each set of `size` of the candidates in `list` (their
-- values, in list order), sets in order of their positions; stops when
-- emit returns true, and returns true then.
local function each_subset(list, size, emit)
  local n = #list
  if size > n or size < 1 then return false end
  local idx = {}
  for i = 1, size do idx[i] = i end
  while true do
    local s = {}
    for i = 1, size do s[i] = list[idx[i]].value end
    if emit(s) then return true end
    local i = size
    while i >= 1 and idx[i] == n - size + i do i = i - 1 end
    if i == 0 then return false end
    idx[i] = idx[i] + 1
    for j = i + 1, size do idx[j] = idx[j - 1] + 1 end
  end
end

-- The candidate orders of level k: every list parameter holds at most k
-- elements and, past level 1, one holds k (the last list parameter brings
-- k when none before it did). At most `budget` orders: returns them and
-- whether some were left out (then, past level 1, nothing is returned).
local function expand(E, k, budget)
  local combos, tops = { {} }, { 0 }
  local over = false
  for _, pname in ipairs(E.dom_order) do
    local p = E.decl[pname]
    local nexts, ntops = {}, {}
    local function push(c, top)
      if #nexts >= budget then return true end
      nexts[#nexts + 1] = c
      ntops[#ntops + 1] = top
      return false
    end
    local full = false
    for i, combo in ipairs(combos) do
      local top = tops[i]
      local need = k > 1 and pname == E.last_list and top < k   -- this set must have k elements
      local hit = candidates(E, pname, combo)
      local list = hit and hit.list or NONE
      if p.optional and not need then full = push(combo, top) end
      if not full and p.type == "units" then
        local cap = min(#list, p.max or #list)
        if cap > k then E.more = true end
        for size = need and k or 1, min(cap, k) do
          full = each_subset(list, size, function(s)
            local c = copy(combo)
            c[pname] = s
            return push(c, max(top, size))
          end)
          if full then break end
        end
      elseif not full then
        for _, cand in ipairs(list) do
          local c = copy(combo)
          c[pname] = cand.value
          full = push(c, top)
          if full then break end
        end
      end
      if full then break end
    end
    combos, tops = nexts, ntops
    if full then
      over = true
      if k > 1 then return {}, true end
    end
  end
  return combos, over
end

-- A combination as the parameters of an order (lists copied: a rule may not
-- change the candidates by changing its parameters).
local function as_params(combo)
  local out = {}
  for k, v in pairs(combo) do out[k] = type(v) == "table" and copy(v) or v end
  return out
end

-- The positions of a set's elements in its domain, for ordering the sets.
local function set_before(index)
  return function(a, b)
    if #a ~= #b then return #a < #b end
    for i = 1, #a do
      local pa, pb = index[key_of(a[i])].pos, index[key_of(b[i])].pos
      if pa ~= pb then return pa < pb end
    end
    return false
  end
end

-- Do the sets of 1 .. `most` elements of n elements number `have` (2^n - 1
-- without most)? (Counted only while they may: no overflow.)
local function all_sets(n, most, have)
  local total, c = 0, 1
  for size = 1, min(n, most or n) do
    c = c * (n - size + 1) // size
    total = total + c
    if total > have then return false end
  end
  return total == have
end

--- One action for `side`: {name, rule, family, title, params = {...},
--- available, checked, truncated, orders, free, reason, kind, refused =
--- {rule, family, reason}}. Runs inside the set's entry point
--- (set:legal_actions).
---@param set table
---@param game table
---@param name string
---@param side? string
function M.action(set, game, name, side)
  local a = set.actions[name]
  local r, decl = a.rule, a.def.params
  local order = orders.param_order(decl)
  local entry = { name = name, rule = r.id, family = r.family, title = a.def.title or r.title, params = {} }

  local E = { set = set, game = game, rule = r, name = name, side = side, decl = decl, cache = {},
              dom_order = {}, last_list = nil, empty = nil, empty_optional = nil, more = false }
  local free_required = {}
  for _, pname in ipairs(order) do
    local p = decl[pname]
    if p.domain then
      E.dom_order[#E.dom_order + 1] = pname
      E.cache[pname] = {}
      if p.type == "units" then E.last_list = pname end
    elseif not p.optional then
      free_required[#free_required + 1] = pname
    end
  end

  -- the candidate orders, level by level while they fit
  local combos, truncated, k = {}, false, 1
  while true do
    E.more = false
    local level, over = expand(E, k, M.MAX_CHECKS - #combos)
    for _, c in ipairs(level) do combos[#combos + 1] = c end
    if over then truncated = true; break end
    if not E.more then break end
    k = k + 1
  end

  -- check every combination as an order
  local legal = combos
  entry.checked = #free_required == 0 and not truncated
  entry.truncated = truncated or nil
  if #free_required == 0 then
    legal = {}
    for _, combo in ipairs(combos) do
      local params = as_params(combo)
      local why, kind, by = orders.check_params(set, game, name, params), "params", nil
      if not why then
        local ok, w, kd, b = pcall(set._check_action, set, game, name, params, true)
        if ok then why, kind, by = w, kd, b else why, kind = errors.format(w), errors.get_kind(w) or "error" end
      end
      if why then
        if not entry.reason then entry.reason, entry.kind, entry.refused = why, kind, by end
      else
        legal[#legal + 1] = combo
      end
    end
  end
  entry.available = #legal > 0
  -- Not available: a required parameter with no value to offer says why
  -- best; then a rule of the rulebook that refused (a rule with an id);
  -- then an optional parameter with no value (where only the family's
  -- plumbing refused the order without it: "give a path or a destination").
  local empty = E.empty
  if not empty and not (entry.refused and entry.refused.rule) then empty = E.empty_optional end
  if not entry.available and empty then
    entry.kind = "domain"
    entry.reason = ("no value for parameter '%s'%s"):format(empty.param,
      empty.reason and (": " .. empty.reason) or "")
  end
  if entry.available then entry.reason, entry.kind, entry.refused = nil, nil, nil end
  entry.free = free_required

  -- each parameter with what the listed orders do with it, for each given
  local groups_of = {}
  for _, pname in ipairs(order) do
    local p = decl[pname]
    local out = { name = pname, type = p.type, optional = p.optional, title = p.title, max = p.max }
    if p.domain then
      out.depends = #p.depends > 0 and p.depends or nil
      local groups, by_key = {}, {}
      for _, combo in ipairs(legal) do
        local gk = given_key(p, combo)
        local g = by_key[gk]
        if not g then
          local given = given_of(p, combo)
          local hit = E.cache[pname][gk]
          g = { given = given, index = hit and hit.index or {}, found = {}, sets = {}, set_seen = {} }
          by_key[gk] = g
          groups[#groups + 1] = g
        end
        local v = combo[pname]
        local vals = v
        if v == nil then
          g.omit = true
          vals = NONE
        elseif p.type == "units" then
          local sk = key_of(v)
          if not g.set_seen[sk] then
            g.set_seen[sk] = true
            g.sets[#g.sets + 1] = v
          end
        else
          vals = { v }
        end
        for _, x in ipairs(vals) do
          local e = g.index[key_of(x)]
          if e then g.found[e.pos] = e.cand end
        end
      end
      for _, g in ipairs(groups) do
        g.domain, g.values = {}, {}
        local last = 0   -- the positions found, in order (integers: no sort needed)
        for pos in next, g.found do if pos > last then last = pos end end
        for pos = 1, last do
          local c = g.found[pos]
          if c then
            g.domain[#g.domain + 1] = c
            g.values[#g.values + 1] = c.value
          end
        end
        if p.type == "units" then
          table.sort(g.sets, set_before(g.index))
          g.options = g.sets
          g.any_set = all_sets(#g.domain, p.max, #g.sets) or nil
        else
          g.options = g.values
        end
      end
      groups_of[pname] = by_key
      local function shown(g)
        return { given = g.given, domain = g.domain, omit = g.omit, any_set = g.any_set,
                 sets = p.type == "units" and not g.any_set and g.sets or nil }
      end
      if #p.depends == 0 then
        local g = groups[1] and shown(groups[1]) or { domain = {}, sets = p.type == "units" and {} or nil }
        out.domain, out.sets, out.any_set, out.omit = g.domain, g.sets, g.any_set, g.omit
      else
        out.choices = {}
        for i, g in ipairs(groups) do out.choices[i] = shown(g) end
      end
    end
    entry.params[#entry.params + 1] = out
  end

  -- are the listed orders every combination of the lists? (never fewer:
  -- each listed order is one of them)
  local vals = {}
  local function count(i, limit)
    local pname = E.dom_order[i]
    if not pname then return 1 end
    local gk = given_key(decl[pname], vals)
    local g = groups_of[pname][gk]
    if not g then return 0 end
    local n = g.omit and count(i + 1, limit) or 0
    for _, v in ipairs(g.options) do
      if n > limit then break end
      vals[pname] = v
      n = n + count(i + 1, limit - n)
      vals[pname] = nil
    end
    return n
  end
  if #legal > 0 and count(1, #legal) ~= #legal then
    entry.orders = {}
    for i, combo in ipairs(legal) do entry.orders[i] = combo end
  end
  return entry
end

--- Every action of the set for `side` (those of `names` only, when given:
--- the ones the sequence of play lets the side take now), in name order
--- (M.action each); each entry says the `side` it was listed for.
---@param set table
---@param game table
---@param side? string
---@param names? string[] sorted
---@return table[]
function M.list(set, game, side, names)
  local out = {}
  for _, name in ipairs(names or sorted_keys(set.actions)) do
    local e = M.action(set, game, name, side)
    e.side = side
    out[#out + 1] = e
  end
  return out
end

return M

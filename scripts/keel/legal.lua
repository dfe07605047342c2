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
-- The cost is the rules' (domains, legal, vetoes), not the listing's: a
-- domain's candidates are made into items once (each value's key and its
-- check_params verdict), the candidate orders share them, and the
-- domains and the checks each run inside one call of the action's rule
-- (the rules' calls nest, cheaper than one protected call each); an
-- order whose check fails is checked again on its own, so that its
-- reason reads as when each order had a protected call of its own.
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

-- The candidates a domain gives: {value=, extras...} each, and why none;
-- or nil, nil and what is wrong with what it returned (raised by the
-- caller, outside the rule's call: a fault of the domain, not of a script
-- line).
local function ask_domain(set, game, r, name, pname, p, given, side)
  local res = table.pack(set:_call(r, p.domain, game, given, side))
  local list, why = res[1], res[2]
  if list == nil or list == false then return {}, why ~= nil and tostring(why) or nil end
  if type(list) ~= "table" then
    return nil, nil, ("action %s: the domain of '%s' returned %s; a list of candidates expected"):format(name,
      pname, type(list))
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
    if cand == nil then return nil, nil, ("action %s: the domain of '%s': candidate %d is nil"):format(name, pname, i) end
    out[#out + 1] = cand
  end
  return out, #out == 0 and why ~= nil and tostring(why) or nil
end

-- A combination (a candidate order) is an array of items, one per
-- parameter with a domain in the order the domains are asked (E.dom_order;
-- nil: left out). An item is one candidate of a domain for one given:
-- {value =, cand = the candidate as listed, pos = its position in the list,
-- key = key_of(value), bad = why check_params would refuse it} or, for a
-- list parameter, one set of its candidates: {value = the set, set = true,
-- pos = the positions of its elements, key (set_key), bad =}. Items are made once
-- per given and shared by the combinations: nothing copied per order until
-- the order's parameters are made.

-- A set item's key, made when first asked.
local function set_key(it)
  local k = key_of(it.value)
  it.key = k
  return k
end

-- The key of the values of the parameters dom_order[j] depends on in
-- `combo` (one item's key, or theirs joined; a left-out one as "\0"), and
-- whether none is left out. No table made: asked for every candidate order.
local function given_key(E, j, combo)
  local deps = E.dep_pos[j]
  local n = #deps
  if n == 0 then return "", true end
  if n == 1 then
    local it = combo[deps[1]]
    if it == nil then return "\0", false end
    return it.key or set_key(it), true
  end
  local parts, complete = {}, true
  for i = 1, n do
    local it = combo[deps[i]]
    if it == nil then complete = false; parts[i] = "\0" else parts[i] = it.key or set_key(it) end
  end
  return concat(parts, "\1"), complete
end

-- The values of the parameters dom_order[j] depends on in `combo`.
local function given_of(E, j, combo)
  local given, deps = {}, E.dep_pos[j]
  for i, d in ipairs(E.decl[E.dom_order[j]].depends) do
    local it = deps[i] and combo[deps[i]]
    if it then given[d] = it.value end
  end
  return given
end

-- The candidates of parameter dom_order[j] in a combination, asked once
-- per value of what it depends on: {list = items, why, subsets = size ->
-- set items}; nil when something it depends on is left out.
local function candidates(E, j, combo)
  local k, complete = given_key(E, j, combo)
  if not complete then return nil end
  local pname = E.dom_order[j]
  local hit = E.cache[pname][k]
  if not hit then
    local p = E.decl[pname]
    local given = given_of(E, j, combo)
    local l, why, fault = ask_domain(E.set, E.game, E.rule, E.name, pname, p, given, E.side)
    if fault then E.fault = fault; return nil end
    local list, seen = {}, {}
    local set, game, name = E.set, E.game, E.name
    local elements = p.type == "units"   -- the candidates are a set's elements: checked as sets
    for _, cand in ipairs(l) do
      local ck = key_of(cand.value)
      if not seen[ck] then
        seen[ck] = true
        -- (an element of a set: bad when the set of it alone would be)
        local bad = orders.check_param(set, game, name, pname, p, elements and { cand.value } or cand.value)
        list[#list + 1] = { value = cand.value, cand = cand, pos = #list + 1, key = ck, bad = bad }
      end
    end
    hit = { list = list, why = why, subsets = {} }
    E.cache[pname][k] = hit
    if #list == 0 then
      local slot = p.optional and "empty_optional" or "empty"
      if not E[slot] then E[slot] = { param = pname, reason = why } end
    end
  end
  return hit
end

-- The i-th set of `size` of the candidates of `hit` (their values, in list
-- order; sets in order of their positions), made when first asked; nil
-- past the last.
local function subset(E, pname, hit, size, i)
  local all = hit.subsets[size]
  if not all then
    all = { idx = false, done = size > #hit.list or size < 1 }
    hit.subsets[size] = all
  end
  local list, n = hit.list, #hit.list
  while #all < i and not all.done do
    local idx = all.idx
    if not idx then
      idx = {}
      for x = 1, size do idx[x] = x end
      all.idx = idx
    else
      local x = size
      while x >= 1 and idx[x] == n - size + x do x = x - 1 end
      if x == 0 then all.done = true; break end
      idx[x] = idx[x] + 1
      for y = x + 1, size do idx[y] = idx[y - 1] + 1 end
    end
    local s, pos, bad = {}, {}, false
    for x = 1, size do
      local it = list[idx[x]]
      s[x], pos[x] = it.value, idx[x]
      if it.bad then bad = true end   -- (an element that is no unit id)
    end
    -- (its key made when asked: set_key)
    all[#all + 1] = { value = s, set = true, pos = pos,
                      bad = bad and orders.check_param(E.set, E.game, E.name, pname, E.decl[pname], s) or nil }
  end
  return all[i]
end

-- `combo` with item `it` at j (its first j - 1 items copied).
local function extended(combo, j, it)
  local c = {}
  for x = 1, j - 1 do c[x] = combo[x] end
  c[j] = it
  return c
end

-- The candidate orders of level k: every list parameter holds at most k
-- elements and, past level 1, one holds k (the last list parameter brings
-- k when none before it did). At most `budget` orders: returns them and
-- whether some were left out (then, past level 1, nothing is returned).
local function expand(E, k, budget)
  local combos, tops = { {} }, { 0 }
  local over = false
  for j, pname in ipairs(E.dom_order) do
    local p = E.decl[pname]
    local nexts, ntops, nn = {}, {}, 0
    local full = false
    for i = 1, #combos do
      local combo, top = combos[i], tops[i]
      local need = k > 1 and pname == E.last_list and top < k   -- this set must have k elements
      local hit = candidates(E, j, combo)
      if E.fault then return {}, false end
      local list = hit and hit.list or NONE
      if p.optional and not need then
        if nn >= budget then full = true else
          nn = nn + 1
          nexts[nn], ntops[nn] = combo, top   -- left out: the same items
        end
      end
      if not full and p.type == "units" then
        local cap = min(#list, p.max or #list)
        if cap > k then E.more = true end
        for size = need and k or 1, min(cap, k) do
          local t = max(top, size)
          local x = 1
          while true do
            local it = subset(E, pname, hit, size, x)
            if not it then break end
            if nn >= budget then full = true; break end
            nn = nn + 1
            nexts[nn], ntops[nn] = extended(combo, j, it), t
            x = x + 1
          end
          if full then break end
        end
      elseif not full then
        for x = 1, #list do
          if nn >= budget then full = true; break end
          nn = nn + 1
          nexts[nn], ntops[nn] = extended(combo, j, list[x]), top
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
local function as_params(E, combo)
  local out, names = {}, E.dom_order
  for j = 1, #names do
    local it = combo[j]
    if it then
      local v = it.value
      out[names[j]] = type(v) == "table" and copy(v) or v
    end
  end
  return out
end

-- A combination as the values of its parameters (what `orders` lists).
local function as_values(E, combo)
  local out, names = {}, E.dom_order
  for j = 1, #names do
    local it = combo[j]
    if it then out[names[j]] = it.value end
  end
  return out
end

-- Sets in order: smaller first, then by their elements' positions.
local function set_before(a, b)
  local pa, pb = a.pos, b.pos
  if #pa ~= #pb then return #pa < #pb end
  for i = 1, #pa do
    if pa[i] ~= pb[i] then return pa[i] < pb[i] end
  end
  return false
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
              dom_order = {}, dep_pos = {}, last_list = nil, empty = nil, empty_optional = nil, more = false }
  local free_required, at = {}, {}
  for _, pname in ipairs(order) do
    local p = decl[pname]
    if p.domain then
      local j = #E.dom_order + 1
      E.dom_order[j], at[pname] = pname, j
      E.cache[pname] = {}
      if p.type == "units" then E.last_list = pname end
    elseif not p.optional then
      free_required[#free_required + 1] = pname
    end
  end
  -- where each domain's parameters depend on sit in a combination (false:
  -- one without a domain, always left out)
  for j, pname in ipairs(E.dom_order) do
    local deps = {}
    for i, d in ipairs(decl[pname].depends) do deps[i] = at[d] or false end
    E.dep_pos[j] = deps
  end
  -- the parameters with a domain in name order: check_params's order
  local by_name = {}
  for j = 1, #E.dom_order do by_name[j] = j end
  table.sort(by_name, function(x, y) return E.dom_order[x] < E.dom_order[y] end)

  -- the candidate orders, level by level while they fit (as a call of the
  -- action's rule: the domains' calls within it are nested calls, cheaper;
  -- a domain's fault is raised once out of it)
  local function candidate_orders()
    local combos, truncated, k = {}, false, 1
    while true do
      E.more = false
      local level, over = expand(E, k, M.MAX_CHECKS - #combos)
      if E.fault then return end
      for _, c in ipairs(level) do combos[#combos + 1] = c end
      if over then truncated = true; break end
      if not E.more then break end
      k = k + 1
    end
    return combos, truncated
  end
  local ok, combos, truncated = pcall(set._call, set, r, candidate_orders, game)
  if not ok then
    -- a domain failed: again, each domain in a call of its own, for the
    -- error as that gives it (its script frames)
    for _, pname in ipairs(E.dom_order) do E.cache[pname] = {} end
    E.empty, E.empty_optional = nil, nil
    combos, truncated = candidate_orders()
  end
  if E.fault then error(E.fault, 0) end

  -- check every combination as an order: its values as check_params
  -- checks them (each checked once, as its domain gave it), then the
  -- action's legality and vetoes; a failure refuses that order alone
  local legal = combos
  entry.checked = #free_required == 0 and not truncated
  entry.truncated = truncated or nil
  if #free_required == 0 then
    legal = {}
    local n, i = #combos, 0
    local check = set._check_action
    local function refuse(why, kind, by)
      if not entry.reason then entry.reason, entry.kind, entry.refused = why, kind, by end
    end
    -- the orders from i + 1 on, in one protected call (the caller goes on
    -- past an order that failed)
    local function run()
      while i < n do
        i = i + 1
        local combo = combos[i]
        local why
        for x = 1, #by_name do
          local it = combo[by_name[x]]
          if it and it.bad then why = it.bad; break end
        end
        if why then
          refuse(why, "params", nil)
        else
          local w, kd, b = check(set, game, name, as_params(E, combo), true)
          if w then refuse(w, kd, b) else legal[#legal + 1] = combo end
        end
      end
    end
    -- (run as a call of the action's rule: the rules' calls within it are
    -- nested calls, cheaper, and an error still names the rule that failed)
    local function run_in_rule() run() end
    while i < n do
      if not pcall(set._call, set, r, run_in_rule, game) then
        -- order i failed: checked again on its own, for the error as a
        -- check of its own gives it (its script frames)
        local combo = combos[i]
        local fine, w, kd, b = pcall(check, set, game, name, as_params(E, combo), true)
        if not fine then
          refuse(errors.format(w), errors.get_kind(w) or "error")
        elseif w then
          refuse(w, kd, b)
        else
          legal[#legal + 1] = combo
        end
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
      local j = at[pname]
      local units = p.type == "units"
      out.depends = #p.depends > 0 and p.depends or nil
      local groups, by_key = {}, {}
      for x = 1, #legal do
        local combo = legal[x]
        local gk = given_key(E, j, combo)
        local g = by_key[gk]
        if not g then
          g = { given = given_of(E, j, combo), found = {}, sets = {}, set_seen = {} }
          by_key[gk] = g
          groups[#groups + 1] = g
        end
        local it = combo[j]
        if it == nil then
          g.omit = true
        elseif units then
          if not g.set_seen[it] then   -- (one item per set and given)
            g.set_seen[it] = true
            g.sets[#g.sets + 1] = it
          end
          local pos, list = it.pos, E.cache[pname][gk].list
          for y = 1, #pos do g.found[pos[y]] = list[pos[y]] end
        else
          g.found[it.pos] = it
        end
      end
      for _, g in ipairs(groups) do
        g.domain, g.values = {}, {}
        local last = 0   -- the positions found, in order (integers: no sort needed)
        for pos in next, g.found do if pos > last then last = pos end end
        local items = {}
        for pos = 1, last do
          local it = g.found[pos]
          if it then
            items[#items + 1] = it
            g.domain[#g.domain + 1] = it.cand
            g.values[#g.values + 1] = it.value
          end
        end
        if units then
          table.sort(g.sets, set_before)
          g.options = g.sets
          local shown = {}
          for y, it in ipairs(g.sets) do shown[y] = it.value end
          g.sets = shown
          g.any_set = all_sets(#g.domain, p.max, #g.sets) or nil
        else
          g.options = items
        end
      end
      groups_of[j] = by_key
      local function shown(g)
        return { given = g.given, domain = g.domain, omit = g.omit, any_set = g.any_set,
                 sets = units and not g.any_set and g.sets or nil }
      end
      if #p.depends == 0 then
        local g = groups[1] and shown(groups[1]) or { domain = {}, sets = units and {} or nil }
        out.domain, out.sets, out.any_set, out.omit = g.domain, g.sets, g.any_set, g.omit
      else
        out.choices = {}
        for y, g in ipairs(groups) do out.choices[y] = shown(g) end
      end
    end
    entry.params[#entry.params + 1] = out
  end

  -- are the listed orders every combination of the lists? (never fewer:
  -- each listed order is one of them)
  local vals = {}
  local function count(j, limit)
    if j > #E.dom_order then return 1 end
    local gk = given_key(E, j, vals)
    local g = groups_of[j][gk]
    if not g then return 0 end
    local n = g.omit and count(j + 1, limit) or 0
    for _, it in ipairs(g.options) do
      if n > limit then break end
      vals[j] = it
      n = n + count(j + 1, limit - n)
      vals[j] = nil
    end
    return n
  end
  if #legal > 0 and count(1, #legal) ~= #legal then
    entry.orders = {}
    for i, combo in ipairs(legal) do entry.orders[i] = as_values(E, combo) end
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

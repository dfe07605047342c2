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
-- Every combination of candidates (each parameter with a domain filled,
-- those without left out) is an order checked by the action's `legal` and
-- its vetoes; what survives is listed. When a required parameter has no
-- domain, or there are more than M.MAX_CHECKS combinations, the candidates
-- are listed unchecked (`checked = false`): the order is checked when it
-- is submitted. Entry points: set:legal_actions (keel.rules).
local orders = require "keel.orders"
local json = require "keel.json"
local errors = require "keel.errors"
local sorted_keys = require("keel.keys").sorted

local type, ipairs, pairs, pcall, tostring, error = type, ipairs, pairs, pcall, tostring, error

local M = {}

--- Candidate orders checked per action at most; past it, listed unchecked.
M.MAX_CHECKS = 5000

local PLAIN = { string = true, number = true, boolean = true }

-- A key telling values apart (ids, labels, lists of ids).
local function key_of(v)
  if type(v) == "table" then
    local ok, text = pcall(json.encode, v)
    return ok and text or tostring(v)
  end
  return type(v) .. ":" .. tostring(v)
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
      for _, k in ipairs(sorted_keys(c)) do
        if k ~= "value" and type(k) == "string" and PLAIN[type(c[k])] then cand[k] = c[k] end
      end
    elseif c ~= nil then
      cand = { value = c }
    end
    if cand == nil then error(("action %s: the domain of '%s': candidate %d is nil"):format(name, pname, i), 0) end
    out[#out + 1] = cand
  end
  return out, #out == 0 and why ~= nil and tostring(why) or nil
end

-- The value a candidate puts in an order (a list parameter gets a one-element list).
local function order_value(p, cand)
  if p.type == "units" then return { cand.value } end
  return cand.value
end

local function copy(t)
  local out = {}
  for k, v in pairs(t) do out[k] = v end
  return out
end

--- One action for `side`: {name, rule, family, title, params = {...},
--- available, checked, reason, kind, refused = {rule, family, reason}}.
--- Runs inside the set's entry point (set:legal_actions).
---@param set table
---@param game table
---@param name string
---@param side? string
function M.action(set, game, name, side)
  local a = set.actions[name]
  local r, decl = a.rule, a.def.params
  local order = orders.param_order(decl)
  local entry = { name = name, rule = r.id, family = r.family, title = a.def.title or r.title, params = {} }

  -- every combination of candidates, parameter by parameter
  local combos = { {} }
  local cache = {}          -- pname -> given key -> {list, why}
  local empty               -- {param=, reason=} of the first parameter a domain gave no value
  local too_many = false
  local free_required = {}
  for _, pname in ipairs(order) do
    local p = decl[pname]
    if not p.domain then
      if not p.optional then free_required[#free_required + 1] = pname end
    elseif not too_many then
      cache[pname] = {}
      local nexts = {}
      for _, combo in ipairs(combos) do
        local given, missing = {}, nil
        for _, d in ipairs(p.depends) do
          if combo[d] == nil then missing = d end
          given[d] = combo[d]
        end
        local list, why
        if missing then
          list, why = {}, ("it depends on '%s', which has no value"):format(missing)
        else
          local k = key_of(given)
          local hit = cache[pname][k]
          if not hit then
            local l, w = ask_domain(set, game, r, name, pname, p, given, side)
            local index = {}
            for _, cand in ipairs(l) do
              local ck = key_of(cand.value)
              if index[ck] == nil then index[ck] = cand end
            end
            hit = { l, w, index }
            cache[pname][k] = hit
          end
          list, why = hit[1], hit[2]
        end
        if #list == 0 then
          if p.optional then nexts[#nexts + 1] = combo end
          if not empty then empty = { param = pname, reason = why } end
        else
          for _, cand in ipairs(list) do
            local c = copy(combo)
            c[pname] = order_value(p, cand)
            nexts[#nexts + 1] = c
          end
        end
        if #nexts > M.MAX_CHECKS then too_many = true; break end
      end
      combos = nexts
    end
  end

  -- check every combination as an order
  local legal = combos
  entry.checked = #free_required == 0 and not too_many
  if entry.checked then
    legal = {}
    for _, combo in ipairs(combos) do
      local why, kind, by = orders.check_params(set, game, name, combo), "params", nil
      if not why then
        local ok, w, k, b = pcall(set._check_action, set, game, name, combo, true)
        if ok then why, kind, by = w, k, b else why, kind = errors.format(w), errors.get_kind(w) or "error" end
      end
      if why then
        if not entry.reason then entry.reason, entry.kind, entry.refused = why, kind, by end
      else
        legal[#legal + 1] = combo
      end
    end
  end
  entry.available = #legal > 0
  -- not available, and a parameter had no value to offer: that says why best
  if not entry.available and empty then
    entry.kind = "domain"
    entry.reason = ("no value for parameter '%s'%s"):format(empty.param, empty.reason and (": " .. empty.reason) or "")
  end
  if entry.available then entry.reason, entry.kind, entry.refused = nil, nil, nil end
  entry.free = free_required

  -- each parameter with the candidates some listed order uses
  for _, pname in ipairs(order) do
    local p = decl[pname]
    local out = { name = pname, type = p.type, optional = p.optional, title = p.title }
    if p.domain and cache[pname] then
      out.depends = #p.depends > 0 and p.depends or nil
      local groups, by_key = {}, {}
      for _, combo in ipairs(legal) do
        local v = combo[pname]
        if v ~= nil then
          local given = {}
          for _, d in ipairs(p.depends) do given[d] = combo[d] end
          local gk = key_of(given)
          local g = by_key[gk]
          if not g then
            g = { given = given, domain = {}, seen = {}, index = (cache[pname][gk] or {})[3] or {} }
            by_key[gk] = g
            groups[#groups + 1] = g
          end
          local vals = p.type == "units" and v or { v }
          for _, x in ipairs(vals) do
            local xk = key_of(x)
            if not g.seen[xk] and g.index[xk] then
              g.seen[xk] = true
              g.domain[#g.domain + 1] = g.index[xk]
            end
          end
        end
      end
      if #p.depends == 0 then
        out.domain = groups[1] and groups[1].domain or {}
      else
        out.choices = {}
        for i, g in ipairs(groups) do out.choices[i] = { given = g.given, domain = g.domain } end
      end
    end
    entry.params[#entry.params + 1] = out
  end
  return entry
end

--- Every action of the set for `side`, in name order (M.action each).
---@param set table
---@param game table
---@param side? string
---@return table[]
function M.list(set, game, side)
  local out = {}
  for _, name in ipairs(sorted_keys(set.actions)) do out[#out + 1] = M.action(set, game, name, side) end
  return out
end

return M

--- keel.orders — orders: the unit of replay, a concept of the rule set.
--
-- The orders of a rule set are its actions (`actions = { name = { params
-- = {...}, legal =, effect = } }` in a rule) and the kernel's own `emit`
-- (send an event to the rules). Playing an order is one action of the game
-- (the unit of undo) whose journal line carries the order's name, its rule
-- and its parameters, so that `keel replay` can play it again:
--
--   {"ev":"action","action":3,"name":"bomb","rule":"27.A.3.b","order":{"group":1}}
--
-- This module owns the parameter types an action declares ("unit",
-- "hex?" ...), the check of the values an order carries, and the play
-- itself. keel.rules checks legality and vetoes first (set:act) and plays
-- through here; keel replay plays through here too (set:play).
local keel = require "keel"
local sorted_keys = require("keel.keys").sorted

local type, ipairs, pairs, next, tostring, error = type, ipairs, pairs, next, tostring, error
local concat = table.concat

local M = {}

--- The kernel's order for events: emit { event =, data = }.
M.EMIT = "emit"

--- The types a parameter may declare, as the error messages list them.
M.param_types = { "unit", "group", "hex", "integer", "number", "string", "boolean", "table", "any", "units", "side" }
local PARAM_TYPES = {}
for _, t in ipairs(M.param_types) do PARAM_TYPES[t] = true end

local PARAM_FIELDS = { type = true, optional = true, domain = true, depends = true, title = true, max = true }

local parse_param   -- below: the parse itself
local parsed_text = {}   -- "hex?" -> its declaration, shared (read it, never change it)

--- A parameter's declaration: its type as text ("unit" -> {type = "unit",
--- optional = false}, "hex?" -> {type = "hex", optional = true}), or a
--- table { type = "group", optional =, title =, domain = function(ctx, p,
--- side) ... end, depends = { "other param", ... }, max = n } (`type` may
--- end in "?" there too). The domain lists the values the rules can
--- enumerate for the parameter (keel.legal); `max`, for a list ("units"),
--- the most elements a set of them offered has. nil and the reason when it
--- is neither.
---@param decl any
---@return {type: string, optional: boolean, domain?: function, depends?: string[], title?: string, max?: integer}|nil, string? why
function M.parse_param(decl)
  if type(decl) == "string" and parsed_text[decl] then return parsed_text[decl] end
  local p, why = parse_param(decl)
  if p and type(decl) == "string" then parsed_text[decl] = p end
  return p, why
end

-- "hex?" -> "hex", "?" (nil when no type's form), once per text
local parts_of = {}
local function type_parts(text)
  local p = parts_of[text]
  if not p then
    local base, opt = text:match("^(%a+)(%??)$")
    p = { base or false, opt }
    parts_of[text] = p
  end
  return p[1] or nil, p[2]
end

function parse_param(decl)
  local spec = decl
  if type(decl) == "string" then spec = { type = decl } end
  if type(spec) ~= "table" then return nil, "a type (\"unit\", \"hex?\" ...) or a table { type =, domain = ... }" end
  for k in pairs(spec) do
    if not PARAM_FIELDS[k] then
      return nil, ("unknown field '%s' (fields: depends, domain, max, optional, title, type)"):format(tostring(k))
    end
  end
  local base, opt
  if type(spec.type) == "string" then base, opt = type_parts(spec.type) end
  if not base or not PARAM_TYPES[base] then
    return nil, ("unknown type %q (types: %s; add '?' if optional)"):format(tostring(spec.type), concat(M.param_types, ", "))
  end
  if spec.optional ~= nil and type(spec.optional) ~= "boolean" then return nil, "optional must be true or false" end
  if spec.domain ~= nil and type(spec.domain) ~= "function" then return nil, "domain must be a function(ctx, p, side)" end
  if spec.title ~= nil and type(spec.title) ~= "string" then return nil, "title must be a string" end
  if spec.max ~= nil then
    if base ~= "units" then return nil, "max bounds the sets of a list parameter: type \"units\" only" end
    if math.type(spec.max) ~= "integer" or spec.max < 1 then return nil, "max must be a whole number of 1 or more" end
  end
  local depends = {}
  if spec.depends ~= nil then
    if type(spec.depends) ~= "table" then return nil, "depends must be a list of parameter names" end
    for i, d in ipairs(spec.depends) do
      if type(d) ~= "string" then return nil, ("depends[%d] must be a parameter name"):format(i) end
      depends[i] = d
    end
    if spec.domain == nil then return nil, "depends names what a domain reads: it needs a domain" end
  end
  return { type = base, optional = opt == "?" or spec.optional == true, domain = spec.domain,
           depends = depends, title = spec.title, max = spec.max }
end

--- Check the parameter declarations of an action: every name a domain
--- depends on is a parameter with a domain of its own, and no cycle. nil,
--- or the reason.
---@param params table name -> parsed declaration
---@return string|nil
function M.check_depends(params)
  local any = false
  for _, p in pairs(params) do
    if p.depends[1] ~= nil then any = true; break end
  end
  if not any then return nil end   -- nothing depends on anything: no cycle, nothing missing
  local names = sorted_keys(params)
  for _, name in ipairs(names) do
    for _, d in ipairs(params[name].depends) do
      if d == name then return ("parameter '%s' depends on itself"):format(name) end
      if not params[d] then return ("parameter '%s' depends on '%s', which is no parameter"):format(name, d) end
      if not params[d].domain then
        return ("parameter '%s' depends on '%s', which has no domain to enumerate"):format(name, d)
      end
    end
  end
  local ok, why = pcall(M.param_order, params, names)
  if not ok then return why end
end

--- The parameters of a declaration in the order their domains are asked:
--- each after those it depends on, names sorted otherwise.
---@param params table name -> parsed declaration
---@param names? string[] the parameters' names, sorted (keel.keys.sorted), when the caller has them
---@return string[]
function M.param_order(params, names)
  local out, state = {}, {}
  local function visit(name, chain)
    if state[name] == "done" then return end
    if state[name] == "visiting" then
      error(("parameters depend on each other in a cycle: %s"):format(concat(chain, " -> ") .. " -> " .. name), 0)
    end
    state[name] = "visiting"
    chain[#chain + 1] = name
    for _, d in ipairs(params[name].depends) do visit(d, chain) end
    chain[#chain] = nil
    state[name] = "done"
    out[#out + 1] = name
  end
  local chain = {}   -- the names being visited, down to the one visited now (empty between names)
  for _, name in ipairs(names or sorted_keys(params)) do visit(name, chain) end
  return out
end

local check_value
-- Does v fit the declared type? true, or false and what was wanted.
function check_value(game, t, v)
  if t == "any" then return true end
  if t == "unit" then
    return math.type(v) == "integer" and v >= 1 and v <= game.state:count_units(), "a unit id"
  elseif t == "units" then
    if type(v) ~= "table" then return false, "a list of unit ids" end
    for _, u in ipairs(v) do
      if not check_value(game, "unit", u) then return false, "a list of unit ids" end
    end
    return true
  elseif t == "group" then
    return math.type(v) == "integer" and v >= 1 and v <= game.state:count_groups(), "a group id"
  elseif t == "hex" then
    -- with a map, one of its hexes (a rule asks the board about it: a hex id
    -- it does not hold would fail there, not here, with no word of the order)
    if math.type(v) ~= "integer" or not keel.hex.is_valid(v) then return false, "a hex" end
    local b = game.board
    return b == nil or b:contains(v), "a hex on the map"
  elseif t == "integer" then
    return math.type(v) == "integer", "an integer"
  elseif t == "side" then   -- one of the game's sides, when its sequence of play names them (M.check_params)
    return type(v) == "string" and v ~= "", "a side's name"
  end
  return type(v) == t, "a " .. t
end

--- Check one given value `v` of parameter `pname` (declaration `p`) of
--- order `name`: nil when it fits, else the reason (as M.check_params
--- words it). keel.legal checks each domain candidate once with it.
---@param set table a finalized rule set
---@param game table
---@param name string
---@param pname string
---@param p table the parameter's declaration
---@param v any not nil
---@return string|nil reason
function M.check_param(set, game, name, pname, p, v)
  local ok, want = check_value(game, p.type, v)
  if not ok then return ("action '%s': parameter '%s' must be %s"):format(name, pname, want) end
  local sides = p.type == "side" and set.side_names
  if sides and not sides[v] then
    return ("action '%s': parameter '%s': %q is not a side of this game (sides: %s)"):format(name, pname, v,
      concat(sides, ", "))
  end
end

--- Check the parameters of order `name` (an action of the set): nil when
--- they fit its declaration, else the reason.
---@param set table a finalized rule set
---@param game table
---@param name string
---@param params table
---@return string|nil reason
local param_names = setmetatable({}, { __mode = "k" })   -- declaration -> its names, sorted

function M.check_params(set, game, name, params)
  local decl = set.actions[name].def.params
  local names = param_names[decl]
  if not names then
    names = sorted_keys(decl)
    param_names[decl] = names
  end
  for i = 1, #names do
    local pname = names[i]
    local p = decl[pname]
    local v = params[pname]
    if v == nil then
      if not p.optional then return ("action '%s' needs parameter '%s'"):format(name, pname) end
    else
      local why = M.check_param(set, game, name, pname, p, v)
      if why then return why end
    end
  end
  local extra
  local k = next(params)
  while k ~= nil do
    if not decl[k] then
      extra = extra or {}
      extra[#extra + 1] = tostring(k)
    end
    k = next(params, k)
  end
  if extra then
    table.sort(extra)
    return ("action '%s' has no parameter %s"):format(name, concat(extra, ", "))
  end
end

local function emit_order(g, set, args) return set:_dispatch(g, args.event, args.data or {}) end
-- the effect's results, once the sequence of play has checked the victory
-- conditions it checks after every order (set._after_order, keel.sequence)
local function checked(set, g, ...)
  local hook = set._after_order
  set:_call(hook.rule, hook.fn, g)
  return ...
end
local function effect_order(g, set, a, args)
  if set._after_order then return checked(set, g, set:_call(a.rule, a.def.effect, g, args)) end
  return set:_call(a.rule, a.def.effect, g, args)
end

--- Play an order as one action of the game (all or nothing, undoable),
--- journaled with its name, rule and parameters: an action's effect with
--- its rule in force, or `emit` ({event =, data =}) through the handlers;
--- `side`, the side that gave it (its journal line names it). No legality
--- check and no vetoes here (set:act does those first). Used as the rule
--- set's method set:play(game, name, args, side).
---@param set table a rule set
---@param game table
---@param name string
---@param args? table
---@param side? string
---@return any ... what the effect returns
local function play(set, game, name, args, side)
  args = args or {}
  if name == M.EMIT then return game:_action(name, emit_order, nil, args, side, set, args) end
  local a = set.actions[name]
  if not a then error(("unknown order '%s'"):format(tostring(name)), 2) end
  return game:_action(name, effect_order, a.rule.id, args, side, set, a, args)
end

function M.play(set, game, name, args, side)
  set:_ready()
  return play(set, game, name, args, side)
end
--- M.play for a set known to be ready (set:act, which readied it).
M.play_ready = play

return M

--- keel odds TABLE [--mod N | --dist M:W,...] [--with NAMES] [--table NAME] [--column C | --strength V [--shift N]]
--- keel odds FAMILY:QUESTION [OPTIONS]   (a rule family's own question, asked of its rule set)
--- keel odds --hits NdS --on K
--- keel odds NdS[+M]
--- keel odds --scenario FILE --order N [--set KEY=VALUE ...]
local cli = require "keel.cli"

local M = {
  summary = "exact odds of a rule table, of N dice hitting, of a dice total, or of what an order does",
  usage = "keel odds TABLE [--mod N | --dist M:W,...] [--with NAMES] [--table NAME] [--column C | --strength V [--shift N]]\n" ..
          "       keel odds FAMILY:QUESTION [OPTIONS] | --hits NdS --on K | NdS[+M]\n" ..
          "       keel odds --scenario FILE --order N [--set KEY=VALUE ...]",
  help = "TABLE is a table file (.tbl) or the name of a rule family's table (see keel odds --list).\n" ..
         "  --mod N        net die modifier (default 0)\n" ..
         "  --dist M:W,..  a distribution of modifier totals: modifier M with integer weight W\n" ..
         "  --with A,B     the table's named modifiers that apply (added to --mod)\n" ..
         "  --table NAME   which table of a file holding several\n" ..
         "  --column C     the odds of one column's results\n" ..
         "  --strength V   the column whose printed range holds V (1-2, 3-5, 10+), moved --shift N columns\n" ..
         "  --list         list the tables of the rule families on the search path\n" ..
         "FAMILY:QUESTION asks a rule family's own question (its rule set), e.g.\n" ..
         "  keel odds ocs:barrage --ships 7 --protection 2   (without options: what it asks)\n" ..
         "  keel odds seazone:battle --attacker \"2 submarine, cruiser\" --vs \"carrier[fighter], destroyer\"\n" ..
         "  --hits NdS --on K   distribution of hits when each die hits on K or less\n" ..
         "A bare dice expression (2d6+1) prints the distribution of its total.\n" ..
         "  --scenario FILE --order N   play the scenario's orders before N, then every dice\n" ..
         "                 path of order N under the real rules (keel.outcomes): what happens\n" ..
         "                 to the units, by unit type, per unit and outcome by outcome\n" ..
         "  --set KEY=VALUE  change a parameter of order N (repeatable): --set hits=4\n" ..
         "Every chance is exact: a count over the common denominator, reduced.",
}

local function int_opt(v, name)
  local n = math.tointeger(tonumber(v))
  if not n then cli.usage_error(("%s needs an integer, got '%s'"):format(name, v)) end
  return n
end

local function parse_dist(v)
  local dist, any = {}, false
  for part in (v .. ","):gmatch("([^,]*),") do
    local m, w = part:match("^%s*([+-]?%d+)%s*:%s*(%d+)%s*$")
    if not m then cli.usage_error(("--dist: expected M:W[,M:W...], got '%s'"):format(part)) end
    m, w = math.tointeger(tonumber(m)), math.tointeger(tonumber(w))
    dist[m] = (dist[m] or 0) + w
    any = true
  end
  if not any then cli.usage_error("--dist needs at least one M:W") end
  return dist
end

-- The tables a name finds: the rule set of each family on the search path
-- (keel.registry.family_names), opened in turn and asked (set:table), the
-- first that has it. `each(family, set)` may stop the walk by returning true.
local function each_family_set(each)
  local rules = require "keel.rules"
  for _, fam in ipairs(require("keel.registry").family_names()) do
    local set = rules.new {}
    set:load_family(fam)
    if each(fam, set) then return end
  end
end

local function set_table(name)
  local found
  each_family_set(function(_, set)
    found = set:table(name)
    return found ~= nil
  end)
  return found
end

local function find_table(arg, name)
  local tables = require "keel.tables"
  if arg:match("%.tbl$") or arg:find("/", 1, true) then
    local ts = tables.load_file(arg)
    -- a table taking its rows from another: the file's own, else a family's
    for i, t in ipairs(ts) do
      if t.rows_from then
        local l = tables.link(t, ts[t.rows_from] or set_table(t.rows_from))
        ts[i], ts[t.name] = l, l
      end
    end
    if name then
      if not ts[name] then error(("%s: no table named '%s'"):format(arg, name), 0) end
      return ts[name]
    end
    local dice_tables = {}
    for _, t in ipairs(ts) do if t.dice or t.rows_from then dice_tables[#dice_tables + 1] = t end end
    if #dice_tables == 1 then return dice_tables[1] end
    local names = {}
    for i, t in ipairs(ts) do names[i] = t.name end
    error(("%s holds %d dice tables (%s): pick one with --table NAME"):format(arg, #dice_tables,
      table.concat(names, ", ")), 0)
  end
  return set_table(arg)
end

-- --set KEY=VALUE: an integer, a number, true/false, else the text
local function set_value(v)
  local key, text = v:match("^([%w_]+)=(.*)$")
  if not key then cli.usage_error(("--set: expected KEY=VALUE, got '%s'"):format(v)) end
  if text == "true" then return key, true elseif text == "false" then return key, false end
  return key, math.tointeger(tonumber(text)) or tonumber(text) or text
end

-- every dice path of one order of a scenario, under the real rules
local function order_odds(opts, rest)
  if #rest > 0 then cli.usage_error("--scenario takes no TABLE") end
  if not opts.order then cli.usage_error("--scenario needs --order N (the order whose odds to give)") end
  local n = int_opt(opts.order, "--order")
  local scenario = require "keel.scenario"
  local outcomes = require "keel.outcomes"
  local spec = scenario.load(opts.scenario)
  local orders = spec.orders or {}
  local order = orders[n]
  if not order then error(("%s has %d order(s); there is no order %d"):format(opts.scenario, #orders, n), 0) end
  if type(order[1]) ~= "string" then error(("%s: order %d is not an action"):format(opts.scenario, n), 0) end
  local run = scenario.start(spec)
  for i = 1, n - 1 do
    local _, problems = run:play(i, orders[i])
    if #problems > 0 then
      error(("%s: order %d does not play as expected: %s"):format(opts.scenario, i, problems[1]), 0)
    end
  end
  local changed = {}
  for k, v in pairs(order) do if k ~= "expect" then changed[k] = v end end
  for _, sv in ipairs(opts.set or {}) do
    local k, v = set_value(sv)
    changed[k] = v
  end
  local params = run:params_for(order[1], changed)
  local r, why = outcomes.enumerate(run.set, run.game, order[1], params)
  if not r then error(("order %d (%s) is refused: %s"):format(n, order[1], tostring(why)), 0) end
  local parts = {}
  local keys = {}
  for k in pairs(changed) do if k ~= 1 then keys[#keys + 1] = k end end
  table.sort(keys)
  for _, k in ipairs(keys) do parts[#parts + 1] = ("%s=%s"):format(k, type(changed[k]) == "table" and "{...}" or tostring(changed[k])) end
  print(("%s, order %d: %s %s"):format(spec.name or opts.scenario, n, order[1], table.concat(parts, " ")))
  print(outcomes.format(r))
  return 0
end

-- a rule family's own odds question (keel.battle_odds.family_questions), or nil for another word
local function family_question(name)
  local fam, q = name:match("^([%w_]+):([%w_]+)$")
  if not fam then return nil end
  local questions = require("keel.battle_odds").family_questions(fam)
  if not questions[q] then
    local names = {}
    for k in pairs(questions) do names[#names + 1] = fam .. ":" .. k end
    table.sort(names)
    error(("family '%s' has no odds question '%s' (it has: %s)"):format(fam, q, table.concat(names, ", ")), 0)
  end
  return questions[q]
end

function M.run(args)
  for _, a in ipairs(args) do
    if a:sub(1, 1) ~= "-" then
      local q = family_question(a)
      if q then
        local spec = {}
        for k, v in pairs(q.options or {}) do spec[k] = v end
        local qopts, qrest = cli.parse_options(args, spec)
        if next(qopts) == nil then print("usage: " .. q.usage); print(q.summary); return 0 end
        if #qrest ~= 1 then cli.usage_error(q.usage) end
        print(q.run(qopts))
        return 0
      end
      break
    end
  end
  local opts, rest = cli.parse_options(args, { mod = "value", dist = "value", table = "value",
    hits = "value", on = "value", list = "flag", help = "flag", scenario = "value", order = "value", set = "list",
    with = "value", column = "value", strength = "value", shift = "value" })
  local odds = require "keel.odds"
  if opts.help then print(M.usage); print(M.help); return 0 end
  if opts.list then
    each_family_set(function(fam, set)
      for _, n in ipairs(require("keel.keys").sorted(set.tables)) do
        local t = set:table(n)
        print(("%-32s %-8s %-10s %s"):format(n, t.rule or "-", fam, t.title or ""))
      end
    end)
    return 0
  end
  if opts.scenario then return order_odds(opts, rest) end
  if opts.order or opts.set then cli.usage_error("--order and --set go with --scenario FILE") end
  if opts.hits or opts.on then
    if not (opts.hits and opts.on) then cli.usage_error("--hits NdS needs --on K (and --on needs --hits)") end
    if #rest > 0 then cli.usage_error("--hits takes no TABLE") end
    local e, err = require("keel.dice_expr").parse(opts.hits)
    if not e then cli.usage_error(err) end
    local on = int_opt(opts.on, "--on")
    if on < 0 or on > e.sides then cli.usage_error(("--on %d: a die of %s hits on 0..%d"):format(on, e.text, e.sides)) end
    print(odds.format_hits(odds.hits(e, on)))
    return 0
  end
  if #rest ~= 1 then cli.usage_error("odds needs one TABLE (a .tbl file or a table name) or a dice expression") end
  if opts.mod and opts.dist then cli.usage_error("give --mod or --dist, not both") end
  local mod = opts.mod and int_opt(opts.mod, "--mod") or (opts.dist and parse_dist(opts.dist)) or 0
  local t = find_table(rest[1], opts.table)
  if t then
    if not (t.dice or t.rows_from) then
      error(("%s is not a dice table (it has no 'dice' line): no odds to give"):format(t.name), 0)
    end
    if opts.with then
      if opts.dist then cli.usage_error("give --with with --mod, not --dist") end
      local ctx = {}
      for name in opts.with:gmatch("[^,%s]+") do ctx[name] = true end
      local ok, w = pcall(t.modifiers_for, t, ctx)
      if not ok then cli.usage_error(tostring(w):gsub("^.-: ", "")) end
      mod = mod + w
    end
    local o = odds.table(t, mod)
    local column = opts.column
    if opts.strength then
      if column then cli.usage_error("give --column or --strength, not both") end
      local v = tonumber(opts.strength)
      if not v then cli.usage_error("--strength needs a number") end
      local name, why = t:column_for(v, opts.shift and int_opt(opts.shift, "--shift") or 0)
      if not name then
        print(("%s: strength %s is %s: no effect"):format(t.name, opts.strength, why:gsub("^.- is ", "")))
        return 0
      end
      column = name
    end
    if column then
      print(odds.format_column(odds.column(o, column)))
    else
      print(odds.format_table(o))
    end
    return 0
  end
  local e, why = require("keel.dice_expr").parse(rest[1])
  -- written as dice (NdS...) but past a bound: the parser's reason names it
  if not e and rest[1]:match("^%s*%d*[dD]%d") then error(why, 0) end
  if e then
    if opts.mod or opts.dist then cli.usage_error("--mod/--dist apply to tables; write 2d6+1 instead") end
    print(odds.format_expr(odds.expr(e)))
    return 0
  end
  error(("no table named '%s' in the rule families, and it is not a dice expression (try keel odds --list)")
    :format(rest[1]), 0)
end

return M

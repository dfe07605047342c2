--- keel odds TABLE [--mod N | --dist M:W,...] [--table NAME]
--- keel odds --hits NdS --on K
--- keel odds NdS[+M]
local cli = require "keel.cli"

local M = {
  summary = "exact odds of a rule table, of N dice hitting, or of a dice total",
  usage = "keel odds TABLE [--mod N | --dist M:W,...] [--table NAME] | --hits NdS --on K | NdS[+M]\n" ..
          "       keel odds --battle ATTACKER --vs DEFENDER [--policy P] [--family NAME]",
  help = "TABLE is a table file (.tbl) or a registered table name (see keel odds --list).\n" ..
         "  --mod N        net die modifier (default 0)\n" ..
         "  --dist M:W,..  a distribution of modifier totals: modifier M with integer weight W\n" ..
         "  --table NAME   which table of a file holding several\n" ..
         "  --list         list the registered tables\n" ..
         "  --hits NdS --on K   distribution of hits when each die hits on K or less\n" ..
         "A rule family's battle odds (--family NAME, default seazone; its NAME.odds module):\n" ..
         "  --battle ATTACKER --vs DEFENDER   exact odds of a sea battle, forces as\n" ..
         "                 \"2 submarine, cruiser*, carrier[fighter,fighter]\" (* damaged)\n" ..
         "  --policy P, --attacker-policy P, --defender-policy P   casualty order: cheapest,\n" ..
         "                 keep_carriers, or entries \"damage:cruiser,destroyer,cruiser,...\"\n" ..
         "  --sides A,D     the sides (costs): default Opfor,Allies\n" ..
         "  --submerge first|alone   --retreat-at N   --top N (outcomes shown)\n" ..
         "  --surprise-strike \"3 submarine\" [--defending]   --bombard \"2 cruiser, destroyer\"\n" ..
         "A bare dice expression (2d6+1) prints the distribution of its total.\n" ..
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

local function find_table(arg, name)
  local tables = require "keel.tables"
  if arg:match("%.tbl$") or arg:find("/", 1, true) then
    local ts = tables.load_file(arg)
    -- rows-from references in the file resolve through the registry
    for _, t in ipairs(ts) do
      if not tables.get(t.name) then tables.register(t) end
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
  local t = tables.get(arg)
  if t then return t end
  return nil
end

function M.run(args)
  local opts, rest = cli.parse_options(args, { mod = "value", dist = "value", table = "value",
    hits = "value", on = "value", list = "flag", help = "flag",
    family = "value", battle = "value", vs = "value", policy = "value", ["attacker-policy"] = "value",
    ["defender-policy"] = "value", sides = "value", submerge = "value", ["retreat-at"] = "value", top = "value",
    ["surprise-strike"] = "value", defending = "flag", bombard = "value" })
  local odds = require "keel.odds"
  local tables = require "keel.tables"
  if opts.help then print(M.usage); print(M.help); return 0 end
  if opts.list then
    for _, n in ipairs(tables.names()) do
      local t = tables.get(n)
      print(("%-32s %-8s %s"):format(n, t.rule or "-", t.title or ""))
    end
    return 0
  end
  if opts.battle or opts.vs or opts["surprise-strike"] or opts.bombard then   -- a family's battle odds
    local fam = opts.family or "seazone"
    if not fam:match("^[%w_]+$") then cli.usage_error("--family NAME: letters, digits and _") end
    local ok, mod = pcall(require, fam .. ".odds")
    if not ok or type(mod) ~= "table" or type(mod.cli) ~= "function" then
      error(("rule family '%s' has no battle odds (a %s.odds module with cli)"):format(fam, fam), 0)
    end
    return mod.cli(opts, rest, cli)
  end
  if opts.hits or opts.on then
    if not (opts.hits and opts.on) then cli.usage_error("--hits NdS needs --on K (and --on needs --hits)") end
    if #rest > 0 then cli.usage_error("--hits takes no TABLE") end
    local e, err = require("keel.dice_expr").parse(opts.hits)
    if not e then cli.usage_error(err) end
    print(odds.format_hits(odds.hits(e, int_opt(opts.on, "--on"))))
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
    print(odds.format_table(odds.table(t, mod)))
    return 0
  end
  local e = require("keel.dice_expr").parse(rest[1])
  if e then
    if opts.mod or opts.dist then cli.usage_error("--mod/--dist apply to tables; write 2d6+1 instead") end
    print(odds.format_expr(odds.expr(e)))
    return 0
  end
  error(("no table named '%s' is registered and it is not a dice expression (try keel odds --list)")
    :format(rest[1]), 0)
end

return M

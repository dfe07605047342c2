--- keel lab SCENARIO --games N [--player SIDE=KIND ...] [--swap] [--scripted] [--variant FILE ...]
---          [--vs FILE ...] [--until-decided [--max N]] [--seed MASTER] [--jobs J] [--shard I/N]
---          [--json FILE] [--svg FILE] [--quiet] [--cpu SECONDS] [--memory MIB]
--- keel lab merge FILE... [--json FILE] [--svg FILE]
local cli = require "keel.cli"
local limits = require "keel.limits"

local M = {
  summary = "the variant lab: play a scenario many times, base against a house rule",
  usage = "keel lab SCENARIO.lua --games N [--player SIDE=KIND[:OPT=V,...] ...] [--swap] [--scripted]\n" ..
          "                [--variant FILE ...] [--vs FILE ...] [--until-decided [--max N]] [--seed MASTER]\n" ..
          "                [--steps MAX] [--jobs J] [--shard I/N] [--json FILE] [--svg FILE] [--quiet]\n" ..
          "                [--cpu SECONDS] [--memory MIB]\n" ..
          "       keel lab merge FILE.json ... [--json FILE] [--svg FILE]",
  help = "Plays N games of SCENARIO, each to its end by players (the scenario's\n" ..
         "`players`, else random; --player SIDE=KIND as keel play takes it) or, with\n" ..
         "--scripted, by the scenario's orders; each game with its own seed derived from one master\n" ..
         "seed (doc/lab.md says how), on one side with the --vs variants (none: the\n" ..
         "scenario as it is) and, when --variant is given, on a second side with those\n" ..
         "variants instead; both sides play the same seeds. Each side's variants stack\n" ..
         "on the scenario's own. It reports, side by side with 95% intervals and the\n" ..
         "difference's p: how often each order met its expectations, the distribution\n" ..
         "of each outcome the scenario names (its `outcomes` field, doc/guide.md), how\n" ..
         "often each rule fired and each table row came up. A game that fails (a rule\n" ..
         "error, a limit) is counted and its seed printed with the command that replays\n" ..
         "it alone; the study goes on. The exit status is 0 when the report is made.\n" ..
         "  --games N       how many games (seeds) to play on each side\n" ..
         "  --player SIDE=KIND  who plays SIDE (random, greedy, mcts[:OPT=V,...], a .lua file)\n" ..
         "  --swap          play every seed twice, the players' seats swapped the second time\n" ..
         "                  (tells a side's advantage from a player's strength)\n" ..
         "  --scripted      play the scenario's orders instead (a regression of one line of play)\n" ..
         "  --until-decided play in batches until the variant's effect on the first side's win\n" ..
         "                  rate is decided (Wald's SPRT, doc/lab.md), at most --max N games\n" ..
         "  --steps MAX     orders a game may take before it counts as failed (default 20000)\n" ..
         "  --variant FILE  the variant side: a house-rule variant (repeat for more)\n" ..
         "  --vs FILE       the base side's variants (repeat for more; default none)\n" ..
         "  --seed MASTER   the master seed the games' seeds come from (default 1)\n" ..
         "  --jobs J        worker processes (default: the number of processors)\n" ..
         "  --shard I/N     play only slice I of N of the games (for batch systems);\n" ..
         "                  `keel lab merge` adds the slices' --json files up exactly\n" ..
         "  --json FILE     write the statistics and the report as JSON (merge reads it)\n" ..
         "  --svg FILE      draw the outcome distributions, the sides side by side\n" ..
         "  --quiet         no progress and no table (with --json or --svg)\n" ..
         limits.help { memory = "the memory limit of the Lua state games play in" } .. "\n" ..
         "Progress: a bar with an ETA when standard output is a terminal, else a\n" ..
         "line now and then on standard error.",
}

local function write_file(path, text, what)
  local ok, err = require("keel").file.write(path, text)
  if not ok then error(what .. ": " .. tostring(err), 0) end
end

local function outputs(study, opts)
  local lab = require "keel.lab"
  if opts.json then write_file(opts.json, lab.encode(study), "--json") end
  if opts.svg then write_file(opts.svg, require("keel.lab_report").svg(study), "--svg") end
  if not opts.quiet then io.write(require("keel.lab_report").text(study)) end
end

--- Is standard output a terminal? (The shell's test, on the descriptor we share.)
function M.is_tty()
  io.stdout:flush()
  return os.execute("test -t 1") == true
end

local function clock_text(s)
  s = math.floor(s + 0.5)
  if s >= 3600 then return ("%dh%02dm"):format(s // 3600, s % 3600 // 60) end
  if s >= 60 then return ("%dm%02ds"):format(s // 60, s % 60) end
  return ("%ds"):format(s)
end

--- A progress reporter: a bar with an ETA redrawn on a terminal, else a
--- plain line on standard error at every tenth (and at the end).
function M.progress(tty)
  local clock = require("keel").clock
  local start = clock()
  local last_tenth = 0
  local function eta(done, total)
    local spent = clock() - start
    if done == 0 then return "ETA ?" end
    return "ETA " .. clock_text(spent / done * (total - done))
  end
  return function(done, total)
    if tty then
      local width = 30
      local fill = total > 0 and math.floor(width * done / total) or width
      io.stdout:write(("\r[%s%s] %d/%d games %s "):format(("#"):rep(fill), ("."):rep(width - fill), done, total,
        done == total and ("in " .. clock_text(clock() - start)) or eta(done, total)))
      if done == total then io.stdout:write("\r\27[K") end
      io.stdout:flush()
    else
      local tenth = total > 0 and (done * 10 // total) or 10
      if tenth > last_tenth and done > 0 then
        last_tenth = tenth
        io.stderr:write(("keel lab: %d/%d games played (%d%%), %s\n"):format(done, total,
          total > 0 and done * 100 // total or 100, done == total and "done" or eta(done, total)))
      end
    end
  end
end

local function run_study(args)
  local opts, rest = cli.parse_options(args, limits.options { games = "value", variant = "list", vs = "list", seed = "value",
    jobs = "value", shard = "value", json = "value", svg = "value", quiet = "flag", player = "list", swap = "flag",
    scripted = "flag", ["until-decided"] = "flag", max = "value", steps = "value" })
  if #rest ~= 1 then cli.usage_error("lab needs one SCENARIO.lua; try 'keel help lab'") end
  local sequential = opts["until-decided"]
  local games = math.tointeger(tonumber((sequential and opts.max or opts.games) or (sequential and "2000") or ""))
  if not games or games < 1 then
    cli.usage_error(sequential and "--max wants a whole number, at least 1" or "lab needs --games N (a whole number, at least 1)")
  end
  if opts.scripted and (opts.player or opts.swap or sequential) then
    cli.usage_error("--scripted plays the scenario's orders: no --player, --swap or --until-decided with it")
  end
  local players
  if not opts.scripted then
    players = {}
    for _, p in ipairs(opts.player or {}) do
      local side, spec = p:match("^([^=]+)=(.+)$")
      if not side then cli.usage_error(("--player %s: SIDE=KIND expected (e.g. Axis=greedy)"):format(p)) end
      if players[side] then cli.usage_error(("--player: %s is given twice"):format(side)) end
      players[side] = spec
    end
  end
  local steps
  if opts.steps then
    steps = math.tointeger(tonumber(opts.steps))
    if not steps or steps < 1 then cli.usage_error("--steps wants a whole number, at least 1") end
  end
  if sequential and not opts.variant then cli.usage_error("--until-decided compares a variant with the base: --variant FILE") end
  if sequential and opts.shard then cli.usage_error("--until-decided plays the whole study: no --shard") end
  local master = 1
  if opts.seed then
    master = math.tointeger(tonumber(opts.seed))
    if not master then cli.usage_error("--seed wants a whole number") end
  end
  local lab = require "keel.lab"
  local shard = { 1, 1 }
  if opts.shard then
    local i, n = opts.shard:match("^(%d+)/(%d+)$")
    i, n = math.tointeger(tonumber(i or "")), math.tointeger(tonumber(n or ""))
    if not i or not n or n < 1 or i < 1 or i > n then cli.usage_error("--shard wants I/N with 1 <= I <= N, e.g. 2/8") end
    shard = { i, n }
  end
  local jobs
  if opts.jobs then
    jobs = math.tointeger(tonumber(opts.jobs))
    if not jobs or jobs < 1 then cli.usage_error("--jobs wants a whole number, at least 1") end
  else
    jobs = lab.cores()
  end
  local l = limits.resolve(cli.limits(opts))
  local sides = { { name = "base", variants = opts.vs or {} } }
  if opts.variant then sides[2] = { name = "variant", variants = opts.variant } end
  local study = lab.new { scenario = rest[1], games = opts.swap and 2 * games or games, master = master, sides = sides,
                          shard = shard, players = players, swap = opts.swap, steps = steps }
  local tty = not opts.quiet and M.is_tty()
  local run_opts = { jobs = jobs, program = cli.program, cpu = l.cpu, memory = l.memory,
                     on_progress = not opts.quiet and M.progress(tty) or nil }
  if sequential then lab.run_until_decided(study, run_opts) else lab.run(study, run_opts) end
  outputs(study, opts)
  return 0
end

local function read_all(path)
  local s, err = require("keel").file.read(path)
  if not s then error(err, 0) end
  return s
end

local function merge(args)
  local opts, rest = cli.parse_options(args, { json = "value", svg = "value", quiet = "flag" })
  if #rest == 0 then cli.usage_error("lab merge needs the --json files of the slices") end
  local lab = require "keel.lab"
  local list = {}
  for i, f in ipairs(rest) do list[i] = lab.decode(read_all(f), f) end
  outputs(lab.merge(list, rest), opts)
  return 0
end

-- keel lab worker SPEC FIRST LAST OUT: one worker process of a study (keel.lab.run starts them)
local function worker(args)
  local first, last = math.tointeger(tonumber(args[2] or "")), math.tointeger(tonumber(args[3] or ""))
  if #args ~= 4 or not first or not last then cli.usage_error("lab worker SPEC FIRST LAST OUT (keel lab starts workers itself)") end
  return require("keel.lab").worker(args[1], first, last, args[4])
end

function M.run(args)
  if args[1] == "merge" then return merge({ table.unpack(args, 2) }) end
  if args[1] == "worker" then return worker({ table.unpack(args, 2) }) end
  return run_study(args)
end

return M

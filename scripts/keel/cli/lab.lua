--- keel lab SCENARIO --games N [--variant FILE ...] [--vs FILE ...] [--seed MASTER] [--jobs J]
---          [--shard I/N] [--json FILE] [--svg FILE] [--quiet] [--cpu SECONDS] [--memory MIB]
--- keel lab merge FILE... [--json FILE] [--svg FILE]
local cli = require "keel.cli"

local M = {
  summary = "the variant lab: play a scenario many times, base against a house rule",
  usage = "keel lab SCENARIO.lua --games N [--variant FILE ...] [--vs FILE ...] [--seed MASTER]\n" ..
          "                [--jobs J] [--shard I/N] [--json FILE] [--svg FILE] [--quiet]\n" ..
          "                [--cpu SECONDS] [--memory MIB]\n" ..
          "       keel lab merge FILE.json ... [--json FILE] [--svg FILE]",
  help = "Plays N games of SCENARIO, each with its own seed derived from one master\n" ..
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
         "  --variant FILE  the variant side: a house-rule variant (repeat for more)\n" ..
         "  --vs FILE       the base side's variants (repeat for more; default none)\n" ..
         "  --seed MASTER   the master seed the games' seeds come from (default 1)\n" ..
         "  --jobs J        worker processes (default: the number of processors)\n" ..
         "  --shard I/N     play only slice I of N of the games (for batch systems);\n" ..
         "                  `keel lab merge` adds the slices' --json files up exactly\n" ..
         "  --json FILE     write the statistics and the report as JSON (merge reads it)\n" ..
         "  --svg FILE      draw the outcome distributions, the sides side by side\n" ..
         "  --quiet         no progress and no table (with --json or --svg)\n" ..
         "  --cpu SECONDS   the CPU limit of one action (default 5)\n" ..
         "  --memory MIB    the memory limit of the Lua state games play in (default 256)\n" ..
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
  local start = os.time()
  local last_tenth = 0
  local function eta(done, total)
    local spent = os.difftime(os.time(), start)
    if done == 0 or spent < 1 then return "ETA ?" end
    return "ETA " .. clock_text(spent / done * (total - done))
  end
  return function(done, total)
    if tty then
      local width = 30
      local fill = total > 0 and math.floor(width * done / total) or width
      io.stdout:write(("\r[%s%s] %d/%d games %s "):format(("#"):rep(fill), ("."):rep(width - fill), done, total,
        done == total and ("in " .. clock_text(os.difftime(os.time(), start))) or eta(done, total)))
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

-- the memory a game's Lua state may be given (MiB): it loads keel's rule
-- modules and a rule family first; past the top, no allocator would give it
local MIN_MEMORY_MIB, MAX_MEMORY_MIB = 4, 1024 * 1024

local function positive(v, what)
  local n = v and tonumber(v)
  if v and (not n or n <= 0) then cli.usage_error(what) end
  return n
end

local function run_study(args)
  local opts, rest = cli.parse_options(args, { games = "value", variant = "list", vs = "list", seed = "value",
    jobs = "value", shard = "value", json = "value", svg = "value", quiet = "flag", cpu = "value", memory = "value" })
  if #rest ~= 1 then cli.usage_error("lab needs one SCENARIO.lua; try 'keel help lab'") end
  local games = math.tointeger(tonumber(opts.games or ""))
  if not games or games < 1 then cli.usage_error("lab needs --games N (a whole number, at least 1)") end
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
  local cpu = positive(opts.cpu, "--cpu wants a number of seconds")
  local memory = positive(opts.memory, "--memory wants a number of MiB")
  if memory and (memory < MIN_MEMORY_MIB or memory > MAX_MEMORY_MIB) then
    cli.usage_error(("--memory %s: from %d to %d MiB (the Lua state games play in loads keel's rule modules first)")
      :format(opts.memory, MIN_MEMORY_MIB, MAX_MEMORY_MIB))
  end
  local sides = { { name = "base", variants = opts.vs or {} } }
  if opts.variant then sides[2] = { name = "variant", variants = opts.variant } end
  local study = lab.new { scenario = rest[1], games = games, master = master, sides = sides, shard = shard }
  local tty = not opts.quiet and M.is_tty()
  lab.run(study, { jobs = jobs, program = cli.program, cpu = cpu, memory = memory,
                   on_progress = not opts.quiet and M.progress(tty) or nil })
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
  outputs(lab.merge(list), opts)
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

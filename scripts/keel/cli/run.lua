--- keel run SCENARIO.lua [--variant FILE ...] [--seed N] [--journal FILE] [--svg FILE] [--quiet] [--json] [--memory MIB] [--cpu SECONDS]
-- (keel.runner plays it; this module reads the options.)
local cli = require "keel.cli"
local limits = require "keel.limits"

local M = {
  summary = "play a scenario in the sandbox and narrate it",
  usage = "keel run SCENARIO.lua [--variant FILE ...] [--seed N] [--journal FILE] [--svg FILE] [--quiet] [--json]\n" ..
          "                [--memory MIB] [--cpu SECONDS]",
  help = "SCENARIO.lua runs in the sandbox and must return `scenario { ... }`;\n" ..
         "any other file is refused (a host Lua script runs with `keel script`).\n" ..
         "The scenario is played in a sandbox of its own: the map, rule families, variants,\n" ..
         "seed, forces and flags it names are set up, and each of its orders is\n" ..
         "played and narrated: each rule that fires (id and title), each roll\n" ..
         "with its modifiers and result, each change of state. Orders may carry\n" ..
         "expectations; the exit status is 1 when one is not met.\n" ..
         "  --variant FILE  a house-rule variant stacked on the scenario's own (repeat\n" ..
         "                  for more, applied in the order given; a conflict stops the setup)\n" ..
         "  --seed N        play with seed N instead of the scenario's (keel lab names\n" ..
         "                  the seed of a game to replay it alone)\n" ..
         "  --journal FILE  write the game's journal (JSON lines) to FILE\n" ..
         "  --svg FILE      draw the final position (units, last move) as SVG\n" ..
         "  --quiet         print only unmet expectations and the result line\n" ..
         "  --json          narrate as JSON lines (one object per event)\n" ..
         limits.help(),
}

--- Play a scenario in a sandbox state of its own (a memory limit per game).
--- Every FILE is played as a scenario: what it is decides (keel.scenario.load
--- runs it in the sandbox and refuses anything scenario{} did not make).
--- Options may come before or after the scenario's file.
---@param args string[]
---@return integer status
function M.run(args)
  local opts, rest = cli.parse_options(args, limits.options { journal = "value", quiet = "flag", json = "flag",
                                                               svg = "value", variant = "list", seed = "value" })
  local file = rest[1]
  if not file then cli.usage_error("run needs a SCENARIO.lua") end
  if #rest > 1 then cli.usage_error("a scenario takes no arguments, got '" .. rest[2] .. "'") end
  local l = limits.resolve(cli.limits(opts))
  local seed = opts.seed and math.tointeger(tonumber(opts.seed))
  if opts.seed and not seed then cli.usage_error("--seed wants a whole number") end
  return cli.in_sandbox(l.memory, "keel.runner", "play", file,
    { journal = opts.journal, quiet = opts.quiet, json = opts.json, cpu = l.cpu, svg = opts.svg, memory = l.memory,
      variants = opts.variant, seed = seed })
end

return M

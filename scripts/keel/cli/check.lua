--- keel check PATH... [--path DIR ...] [--no-luacheck]
local cli = require "keel.cli"
local limits = require "keel.limits"

local M = {
  summary = "check rule families, variants and scenarios before sharing them",
  usage = "keel check PATH... [--path DIR ...] [--no-luacheck] [--memory MIB] [--cpu SECONDS]",
  help = "Each PATH is a rule family (a folder holding manifest.lua), a variant (a\n" ..
         "file that begins with `variant { ... }`) or a scenario (another .lua file).\n" ..
         "Each is loaded in the sandbox as `keel run` loads it, and every problem is\n" ..
         "printed as `file:line: what is wrong`: what loading refuses (an unknown\n" ..
         "event, a rule id or table row a variant changes that does not exist, a\n" ..
         "table row that does not parse, a scenario field; a family's rule and table\n" ..
         "files one by one), an action without a side, a required parameter without\n" ..
         "a domain (a player's interface has no values to offer), a rule or table\n" ..
         "titled a stand-in without `standin` naming its chapter, the expectations\n" ..
         "of a scenario's orders and of a family's tests/*.lua not met, and, when\n" ..
         "luacheck is installed, its warnings with keel's stds. The exit status is 1\n" ..
         "when anything is wrong.\n" ..
         "  --path DIR      look for rule families in DIR too (repeat for more)\n" ..
         "  --no-luacheck   do not run luacheck\n" ..
         limits.help(),
}

function M.run(args)
  local opts, rest = cli.parse_options(args, limits.options { path = "list", ["no-luacheck"] = "flag" })
  if #rest == 0 then cli.usage_error("check needs a PATH: a rule family's folder, a variant or a scenario") end
  local l = limits.resolve(cli.limits(opts))
  return cli.in_sandbox(l.memory, "keel.check", "main", rest,
    { path = opts.path, luacheck = not opts["no-luacheck"], cpu = l.cpu })
end

return M

--- keel help [COMMAND]
local cli = require "keel.cli"

local M = {
  summary = "describe keel's commands",
  usage = "keel help [COMMAND]",
  help = "Without a COMMAND, lists every command with a line about it.\n" ..
         "With one, prints its usage and what it does.",
}

function M.run(args)
  if #args > 1 then cli.usage_error("help takes at most one command") end
  local name = args[1]
  if name then
    local cmd = cli.command(name)
    if not cmd then cli.usage_error(("unknown command '%s'; try 'keel help'"):format(name)) end
    io.write("usage: ", cmd.usage, "\n\n", cmd.summary, ".\n\n", cmd.help, "\n")
    return 0
  end
  io.write("keel — a naval wargame rules kernel (C, Lua 5.4, LPeg)\n\n",
           "usage: keel COMMAND [ARGS...]\n\ncommands:\n")
  for _, n in ipairs(cli.commands) do
    io.write(("  %-10s %s\n"):format(n, cli.command(n).summary))
  end
  io.write("\n'keel help COMMAND' tells more about one.\n")
  return 0
end

return M

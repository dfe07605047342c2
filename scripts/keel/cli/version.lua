--- keel version
local keel = require "keel"
local cli = require "keel.cli"

local M = {
  summary = "print the versions of keel, Lua and LPeg",
  usage = "keel version",
  help = "Prints one line each: keel's version, the Lua release it embeds,\n" ..
         "and the LPeg version.",
}

function M.run(args)
  if #args > 0 then cli.usage_error("version takes no arguments") end
  io.write("keel ", keel.version, "\n", keel.lua_version, "\n", "LPeg ", keel.lpeg_version, "\n")
  return 0
end

return M

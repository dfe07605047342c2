--- keel run FILE.lua [ARGS...]
local cli = require "keel.cli"

local M = {
  summary = "run a Lua script with the keel module available",
  usage = "keel run FILE.lua [ARGS...]",
  help = "Runs FILE.lua with `keel` loaded (local keel = require \"keel\").\n" ..
         "The global table `arg` holds the script name at 0 and ARGS from 1;\n" ..
         "the ARGS are also passed as the chunk's `...`. The script's exit\n" ..
         "status is its return value when that is an integer, else 0.",
}

function M.run(args)
  local file = args[1]
  if not file then cli.usage_error("run needs a FILE.lua") end
  local chunk, err = loadfile(file, "t")
  if not chunk then error(err, 0) end
  local script_args = { [0] = file }
  for i = 2, #args do script_args[i - 1] = args[i] end
  _G.arg = script_args
  local status = chunk(table.unpack(script_args))
  if math.type(status) == "integer" then return status end
  return 0
end

return M

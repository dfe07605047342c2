--- keel script FILE.lua [ARGS...] — run a host Lua script (trusted: the
-- whole Lua library, files and processes), as bench files, tools and the
-- test runner are. Scenarios and rule files never run this way: `keel run`
-- plays a scenario in the sandbox.
local M = {
  summary = "run a trusted host Lua script with keel loaded",
  usage = "keel script FILE.lua [ARGS...]",
  help = "Runs FILE.lua as a host script, OUTSIDE the sandbox: it can read and\n" ..
         "write files and start processes, like any Lua program. Run only scripts\n" ..
         "you trust (keel's own tools, benchmarks and tests); a scenario or a rule\n" ..
         "family from someone else is played with `keel run`, in the sandbox.\n\n" ..
         "The script gets `keel` with require (local keel = require \"keel\"), and\n" ..
         "keel's Lua modules (require \"keel.game\", \"keel.scenario\" ...). The global\n" ..
         "table `arg` holds the script name at 0 and ARGS from 1; the ARGS are also\n" ..
         "passed as the chunk's `...`. The exit status is the script's return value\n" ..
         "when that is an integer, else 0.",
  passes_args = true,   -- keel script FILE --help: --help is the script's
}

function M.run(args)
  local file = args[1]
  if not file then require("keel.cli").usage_error("script needs a FILE.lua") end
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

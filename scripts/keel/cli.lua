--- keel.cli — the `keel` command line: dispatch to scripts/keel/cli/<command>.lua.
--
-- Each command module returns { summary = "...", usage = "...", help = "...",
-- run = function(args) -> exit status }. Usage errors exit with status 2 and
-- a one-line message.
local M = {}

--- Commands in the order `keel help` lists them.
M.commands = { "new", "check", "run", "play", "fuzz-rules", "script", "rules", "replay", "view", "pbem", "serve", "odds",
               "lab", "render", "version", "help" }

--- The program as it was started (argv[0]): `keel lab` starts its workers with it.
M.program = "keel"

local function known(name)
  for _, c in ipairs(M.commands) do if c == name then return true end end
  return false
end

--- Load the module of a command, or nil when there is none.
---@param name string
function M.command(name)
  if not known(name) then return nil end
  return require("keel.cli." .. name:gsub("-", "_"))
end

--- Raise a usage error: main() prints it on one line and exits with 2.
---@param msg string
function M.usage_error(msg)
  error({ usage = msg }, 0)
end

--- The limits given as --memory and --cpu (keel.limits.parse: only those
--- given, memory in bytes); a usage error when one is not a positive number.
---@param opts {memory?: string, cpu?: string}
---@return {cpu?: number, memory?: integer}
function M.limits(opts)
  local given, err = require("keel.limits").parse(opts)
  if not given then M.usage_error(err) end
  return given
end

--- Call module.fname(...) in a sandbox state of its own with this memory
--- limit (bytes), as the commands that play a game do, and return the exit
--- status it returns; when the state gives up (out of memory, an error
--- outside the call's own handling), say so on one line and return 1.
---@param memory integer
---@param module string
---@param fname string
---@return integer status
function M.in_sandbox(memory, module, fname, ...)
  local sb = require("keel").sandbox.new { memory = memory }
  io.stdout:flush()
  local ok, status, why = sb:call(module, fname, ...)
  sb:close()
  if not ok then
    io.stderr:write("keel: ", tostring(status), why == "memory" and " (try --memory)" or "", "\n")
    return 1
  end
  return status
end

local function report(err)
  if type(err) == "table" and err.usage then
    io.stderr:write("keel: ", err.usage, "\n")
    return 2
  end
  io.stderr:write("keel: ", tostring(err), "\n")
  return 1
end

---@param argv table argv[0] is the program, argv[1..] the arguments
---@return integer status
function M.main(argv)
  local args = {}
  for i = 1, #argv do args[i] = argv[i] end
  if type(argv[0]) == "string" and argv[0] ~= "" then M.program = argv[0] end
  local name = table.remove(args, 1)
  if name == nil then
    io.stderr:write("keel: no command given; try 'keel help'\n")
    return 2
  end
  if name == "--help" or name == "-h" then name = "help" end
  if name == "--version" then name = "version" end
  local cmd = M.command(name)
  if not cmd then
    io.stderr:write(("keel: unknown command '%s'; try 'keel help'\n"):format(name))
    return 2
  end
  -- every command answers --help / -h (before a "--") with its own help;
  -- a command whose later arguments belong to someone else (keel script
  -- FILE ARGS) is asked only before its first argument that is no option
  for _, a in ipairs(args) do
    if a == "--" or (cmd.passes_args and a:sub(1, 1) ~= "-") then break end
    if a == "--help" or a == "-h" then return M.command("help").run({ name }) end
  end
  local ok, status = xpcall(cmd.run, function(e)
    if type(e) == "table" then return e end
    if os.getenv("KEEL_TRACEBACK") then return debug.traceback(tostring(e), 2) end
    return tostring(e)
  end, args)
  if not ok then return report(status) end
  return status or 0
end

--- Split leading options from positional arguments.
-- spec maps option names to "flag" or "value" (or "list" to repeat).
---@param args string[]
---@param spec table<string, string>
---@return table opts, string[] rest
function M.parse_options(args, spec)
  local opts, rest = {}, {}
  local i = 1
  while i <= #args do
    local a = args[i]
    if a == "--" then
      for j = i + 1, #args do rest[#rest + 1] = args[j] end
      break
    elseif a:sub(1, 1) == "-" and #a > 1 and not tonumber(a) then
      local name, inline = a:match("^%-%-?([^=]+)=(.*)$")
      name = name or a:match("^%-%-?(.+)$")
      local kind = spec[name]
      if not kind then M.usage_error(("unknown option '%s'"):format(a)) end
      if kind == "flag" then
        opts[name] = true
      else
        local v = inline
        if v == nil then
          i = i + 1
          v = args[i]
          if v == nil then M.usage_error(("option '%s' needs a value"):format(a)) end
        end
        if kind == "list" then
          opts[name] = opts[name] or {}
          table.insert(opts[name], v)
        else
          opts[name] = v
        end
      end
    else
      rest[#rest + 1] = a
    end
    i = i + 1
  end
  return opts, rest
end

return M

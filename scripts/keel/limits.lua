--- keel.limits — the resource limits a game plays under: the CPU time of
-- one action (or request) and the memory of the sandbox state the game
-- runs in. One default of each, and the one reader of the `--memory MIB`
-- and `--cpu SECONDS` options that keel run, replay, view, serve and lab
-- take (doc/guide.md, "Limits").
--
--   local limits = require "keel.limits"
--   local given = assert(limits.parse { memory = "64" })   -- { memory = 67108864 }
--   local l = limits.resolve(given)                        -- { cpu = 5, memory = 67108864 }
local M = {}

--- Bytes in a MiB (the unit of --memory).
M.MIB = 1024 * 1024

--- The limits a game plays under unless told otherwise: seconds of CPU per
--- action, bytes of memory per sandbox state. A journal's header names
--- limits only when its game was played under others (M.header).
M.DEFAULT = { cpu = 5, memory = 256 * M.MIB }

--- The options every command that plays a game takes, as keel.cli.parse_options
--- reads them.
M.OPTIONS = { memory = "value", cpu = "value" }

--- The bounds of what may be given: below MIN_MEMORY not even keel's own
--- runtime loads (a state that cannot be made, a failure before the first
--- rule); MAX_MEMORY is a TiB; MAX_CPU is the most a journal's header may
--- name (keel.replay).
M.MIN_MEMORY = 4 * M.MIB
M.MAX_MEMORY = 1024 * 1024 * M.MIB
M.MAX_CPU = 1000000

--- The help lines of the two options, each with its default: what each
--- limit is of, e.g. { memory = "the game's memory limit", cpu = "the CPU
--- limit of one action" } (those are the words when none are given).
---@param words? {memory?: string, cpu?: string}
---@return string
function M.help(words)
  words = words or {}
  return ("  --memory MIB    %s (default %d)\n"):format(words.memory or "the game's memory limit",
      M.DEFAULT.memory // M.MIB) ..
    ("  --cpu SECONDS   %s (default %s)"):format(words.cpu or "the CPU limit of one action",
      tostring(M.DEFAULT.cpu))
end

--- Add M.OPTIONS to an option spec of keel.cli.parse_options; returns it.
---@param spec table<string, string>
---@return table<string, string>
function M.options(spec)
  spec.memory, spec.cpu = M.OPTIONS.memory, M.OPTIONS.cpu
  return spec
end

local function number(v)
  local n = type(v) == "string" and tonumber(v) or nil
  if n and n == n then return n end
  return nil
end

--- Read the limits given as options (strings: --memory in MiB, --cpu in
--- seconds): { cpu = seconds?, memory = bytes? } with only those given, or
--- nil and the usage message naming the option and what it takes.
---@param opts {memory?: string, cpu?: string}
---@return {cpu?: number, memory?: integer}|nil given, string? message
function M.parse(opts)
  local out = {}
  if opts.memory ~= nil then
    local mib = number(opts.memory)
    local min, max = M.MIN_MEMORY // M.MIB, M.MAX_MEMORY // M.MIB
    if not mib or mib < min or mib > max then
      return nil, ("--memory wants a number of MiB from %d to %d"):format(min, max)
    end
    out.memory = math.floor(mib * M.MIB)
  end
  if opts.cpu ~= nil then
    local s = number(opts.cpu)
    if not s or s <= 0 or s > M.MAX_CPU then
      return nil, ("--cpu wants a number of seconds, more than 0 and at most %d"):format(M.MAX_CPU)
    end
    out.cpu = s
  end
  return out
end

--- The limits to play under: what was given (M.parse) wins, then the
--- journal header's limits (when a game is played again), then M.DEFAULT.
---@param given? {cpu?: number, memory?: integer}
---@param header? {cpu?: number, memory?: integer}
---@return {cpu: number, memory: integer}
function M.resolve(given, header)
  given = given or {}
  header = type(header) == "table" and header or {}
  return { cpu = given.cpu or header.cpu or M.DEFAULT.cpu,
           memory = given.memory or header.memory or M.DEFAULT.memory }
end

--- What a journal's header says of the limits: nil when they are the
--- defaults (a journal names them only when they are not).
---@param l {cpu: number, memory: integer}
---@return {cpu: number, memory: integer}|nil
function M.header(l)
  if l.cpu == M.DEFAULT.cpu and l.memory == M.DEFAULT.memory then return nil end
  return { cpu = l.cpu, memory = l.memory }
end

return M

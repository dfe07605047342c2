--- keel replay JOURNAL — re-run a game from its journal and compare
-- (keel.replay does it; this module reads the options and prints).
local keel = require "keel"
local cli = require "keel.cli"
local limits = require "keel.limits"

local M = {
  summary = "re-run a game from its journal and name the first divergence",
  usage = "keel replay [--quiet] [--memory MIB] [--cpu SECONDS] JOURNAL",
  help = "Reads a journal written by keel.game (JSON lines), starts the game again\n" ..
         "from the scenario in its header (run in the sandbox; a file that is not a\n" ..
         "scenario is refused, so a journal never runs code outside it) and checks\n" ..
         "that the header's seed, variants and limits are what the scenario gives\n" ..
         "now. It plays every order as `keel run` did (parameters, legality and\n" ..
         "vetoes, then the effect, under the run's CPU and memory limits, in a\n" ..
         "sandbox of its own), every undo and redo, and after each one compares\n" ..
         "the state hash and the events with the journal. On the first order the\n" ..
         "current rules refuse, or the first difference, it names the action, its\n" ..
         "order and the rule, and exits 1.\n" ..
         "Rule files whose hash changed since the journal was written are listed, and\n" ..
         "those the journal lists but the replay does not load, or the other way round.\n" ..
         limits.help { memory = "the memory limit", cpu = "the CPU limit of one order" } .. "\n" ..
         "                  (a journal whose header names limits: those)\n" ..
         "Exit status: 0 identical, 1 refused, diverged, or the journal cannot be read\n" ..
         "or replayed, 2 usage.",
}

--- Replay inside the sandbox state keel replay makes for it (M.run):
--- prints the notes and the result, returns the exit status.
---@param path string
---@param opts table {quiet=, cpu=, text=}
function M.replay_main(path, opts)
  local ok, rep = pcall(require("keel.replay").replay, path, { cpu = opts.cpu, text = opts.text })
  if not ok then
    io.stderr:write("keel: ", require("keel.errors").format(rep), "\n")
    return 1
  end
  for _, f in ipairs(rep.changed_files) do io.stderr:write("note: rule file changed: ", f, "\n") end
  if rep.ok then
    if not opts.quiet then io.write(rep.message, "\n") end
    return 0
  end
  io.stderr:write(rep.message, "\n")
  return 1
end

function M.run(args)
  local opts, rest = cli.parse_options(args, limits.options { quiet = "flag", q = "flag" })
  if #rest ~= 1 then cli.usage_error("replay needs one JOURNAL file") end
  local given = cli.limits(opts)
  -- read once: the header sets the limits, the sandbox replays the text
  local text, rerr = keel.file.read(rest[1])
  if not text then
    io.stderr:write("keel: ", rerr, "\n")
    return 1
  end
  local l = require("keel.replay").limits_of(require("keel.replay").header_of(text), given)
  -- a sandbox state of its own, with the run's memory limit, as keel run plays
  return cli.in_sandbox(l.memory, "keel.cli.replay", "replay_main", rest[1],
    { quiet = opts.quiet or opts.q, cpu = l.cpu, text = text })
end

return M

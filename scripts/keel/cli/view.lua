--- keel view JOURNAL [-o FILE.html] — a replay viewer in one HTML file.
--
-- The game is played again from the journal's header (scenario, seed,
-- variants) by keel.replay, in a sandbox state of its own, with keel run's
-- narrator listening; after each step of the journal the state is
-- snapshotted (keel.view.collect), and keel.view turns the steps into the
-- page. Why this way and not by reading the journal's records alone:
-- doc/viewer.md.
local cli = require "keel.cli"
local limits = require "keel.limits"

local M = {
  summary = "write a replay viewer of a game's journal (one HTML file)",
  usage = "keel view JOURNAL [-o FILE.html] [--size PX] [--memory MIB] [--cpu SECONDS]",
  help = "Plays the game of JOURNAL again from its header (scenario, seed,\n" ..
         "variants), checking every step against the journal as `keel replay`\n" ..
         "does, and writes one self-contained HTML file (no server, no network):\n" ..
         "the board as `keel render` draws it, the units as counters, a timeline\n" ..
         "through every action with its narration (rolls, modifiers, table rows),\n" ..
         "the moving units' paths, and the status the rule families declare.\n" ..
         "Arrow keys step; the wheel zooms; drag pans. See doc/viewer.md.\n" ..
         "  -o FILE.html    where to write it (default: standard output)\n" ..
         "  --size PX       hex size in the page's board, 12 to 120 (default 44)\n" ..
         limits.help { memory = "the replay's memory limit", cpu = "the CPU limit of one order" } .. "\n" ..
         "                  (a journal whose header names limits: those)\n" ..
         "Exit status: 0 written, 1 the journal cannot be replayed or diverges, 2 usage.",
}

--- In the sandbox state: collect, build the page, write it. Returns 0, or
--- 1 after saying why on standard error.
---@param path string
---@param opts {out?: string, size?: number, cpu?: number}
---@return integer status
function M.build(path, opts)
  local ok, err = pcall(function()
    local view = require "keel.view"
    local data, board_svg = view.collect(path, opts)
    local html = view.page(data, board_svg)
    if not opts.out or opts.out == "-" then
      io.stdout:write(html)
    else
      local wok, werr = require("keel").file.write(opts.out, html)
      if not wok then error(tostring(werr), 0) end   -- the reason names the path
    end
  end)
  if not ok then
    io.stderr:write("keel: ", require("keel.errors").format(err), "\n")
    return 1
  end
  return 0
end

function M.run(args)
  local opts, rest = cli.parse_options(args, limits.options { o = "value", output = "value", size = "value" })
  if #rest ~= 1 then cli.usage_error("view needs one JOURNAL file") end
  local size = require("keel.view").SIZE
  if opts.size then
    size = tonumber(opts.size)
    if not size or size < 12 or size > 120 then cli.usage_error("--size must be a number from 12 to 120") end
  end
  local given = cli.limits(opts)
  -- the journal's header sets the limits (as keel replay plays it); the
  -- sandbox state reads the journal again
  local text, rerr = require("keel").file.read(rest[1])
  if not text then
    io.stderr:write("keel: ", rerr, "\n")
    return 1
  end
  local replay = require "keel.replay"
  local l = replay.limits_of(replay.header_of(text), given)
  return cli.in_sandbox(l.memory, "keel.cli.view", "build", rest[1],
    { out = opts.o or opts.output, size = size, cpu = l.cpu, text = text })
end

return M

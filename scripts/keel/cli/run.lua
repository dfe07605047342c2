--- keel run SCENARIO.lua [--variant FILE ...] [--seed N] [--journal FILE] [--svg FILE] [--quiet] [--json] [--memory MIB] [--cpu SECONDS]
local cli = require "keel.cli"

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
         "  --memory MIB    the game's memory limit (default 256)\n" ..
         "  --cpu SECONDS   the CPU limit of one action (default 5)",
}

--- The limits keel run plays under unless told otherwise (--cpu, --memory):
--- seconds per action, bytes per game. A journal's header gives them only
--- when a game was played under others (keel replay plays under those).
M.DEFAULT_LIMITS = { cpu = 5, memory = 256 * 1024 * 1024 }

--- Play a scenario and narrate it; returns the exit status (and, when the
--- scenario cannot be played, the message). Runs inside the scenario's own
--- sandbox state (see M.run).
---@param path string
---@param opts table {journal=, quiet=, json=, cpu=, memory=, silent=, variants=, seed=}
function M.scenario_main(path, opts)
  local keel = require "keel"
  local scenario = require "keel.scenario"
  local errors = require "keel.errors"
  keel.sandbox.limits { cpu = opts.cpu or 5 }
  opts.file = path
  -- silent (the fuzz target): nothing printed; the error comes back
  local write = opts.silent and function() end or io.write
  if opts.silent then opts.write = function() end end
  local n = require("keel.narrator").new(opts)
  local ok, err = pcall(function()
    local spec = scenario.load(path)
    -- the journal's header says the limits when they are not keel run's own
    local cpu, memory = opts.cpu or M.DEFAULT_LIMITS.cpu, opts.memory or M.DEFAULT_LIMITS.memory
    local limits = (cpu ~= M.DEFAULT_LIMITS.cpu or memory ~= M.DEFAULT_LIMITS.memory)
      and { cpu = cpu, memory = memory } or nil
    local run = scenario.start(spec, { narrate = n.event, limits = limits, variants = opts.variants,
                                       seed = opts.seed })
    n.game, n.board = run.game, run.board
    if not opts.quiet and not opts.json then
      local vs = {}
      for _, v in ipairs(run.set.variants) do vs[#vs + 1] = ("%s (%s)"):format(v.name, v.path) end
      write(("scenario: %s (%s), seed %d\n"):format(spec.name or "?", path, run.game.seed))
      write(("rules: %s%s\n"):format(table.concat(spec.rules, ", "),
        #vs > 0 and ("; variants: " .. table.concat(vs, ", ")) or ""))
      write(("setup: %d unit(s), %d group(s)\n"):format(run.game.state:count_units(), run.game.state:count_groups()))
    end
    n.offset = #run.game:journal_text()   -- the setup is not narrated line by line
    local passed, failed = run:play_all(n.order)
    n.flush()
    if opts.journal then
      local wok, werr = run.game:write_journal(opts.journal)
      if not wok then error("--journal: " .. tostring(werr), 0) end
    end
    if opts.svg then M.write_svg(run, spec, opts.svg) end
    local total = passed + failed
    local game = run.set.sequence and run.game:result() or nil
    if opts.json then
      write(require("keel.json").encode({ kind = "result", orders = total, passed = passed, failed = failed,
                                           hash = run.game:hash_hex(), over = game and game.over,
                                           winner = game and game.winner, scores = game and game.scores,
                                           reason = game and game.reason }), "\n")
    else
      write(("result: %d order(s), %d as expected, %d not; state %s\n"):format(total, passed, failed,
        run.game:hash_hex()))
      if game then write(M.result_line(run), "\n") end
    end
    return failed
  end)
  if not ok then
    if not opts.silent then io.stderr:write("keel: ", errors.format(err), "\n") end
    return 1, errors.format(err)
  end
  return err > 0 and 1 or 0
end

--- How a game with a sequence of play stands, in one line: "result: winner
--- Axis, scores Allied 15, Axis 0 (why)", "result: a draw, ..." or, for a
--- game not over, where it is.
function M.result_line(run)
  local r = run.game:result()
  if not r.over then
    local st = run.set:status(run.game)
    return ("result: not over (turn %s, the %s %s)"):format(tostring(st.turn), tostring(st.phasing),
      tostring(st.step or st.phase))
  end
  local scores = {}
  for _, side in ipairs(require("keel.keys").sorted(r.scores)) do
    scores[#scores + 1] = ("%s %s"):format(side, tostring(r.scores[side]))
  end
  return ("result: %s, scores %s (%s)"):format(r.winner and ("winner " .. r.winner) or "a draw",
    #scores > 0 and table.concat(scores, ", ") or "none", tostring(r.reason))
end

--- The hex size of --svg pictures (px): counters a little wider than that.
M.SVG_SIZE = 40
-- how far around the last move the --svg picture reaches (hexes)
M.SVG_RADIUS = 6

--- Draw the final position: the board, the units on it, and the last
--- move's path when a rule answers the query `last_path`.
function M.write_svg(run, spec, path)
  local render = require "keel.render"
  if not run.board then error("--svg: the scenario has no map", 0) end
  local st = run.game.state
  local view = run.set:view()
  local layers = { render.units_layer(render.game_units(run.game)) }
  local around
  if run.set.queries and run.set.queries.last_path then
    -- what the rule returned, read raw: its metamethods would run outside any action
    local hexes = run.set:query(run.game, "last_path")
    if type(hexes) == "table" then
      local list = {}
      while math.type(rawget(hexes, #list + 1)) == "integer" do list[#list + 1] = rawget(hexes, #list + 1) end
      table.insert(layers, 1, render.path_layer(list))
      if #list > 0 then around = list end   -- the picture frames the last move
    end
  end
  -- who owns what now, as the game state says; the status the families declare
  local svg = render.svg(run.board, { title = spec.name, extra_layers = layers, size = M.SVG_SIZE, spec = view,
    owners = function(h) return st:get_owner(h) end, around = around, radius = M.SVG_RADIUS,
    status = require("keel.counter").status_lines(view.status, st) })
  local ok, err = require("keel").file.write(path, svg)
  if not ok then error("--svg: " .. tostring(err), 0) end
end

--- Play a scenario in a sandbox state of its own (a memory limit per game).
--- Every FILE is played as a scenario: what it is decides (keel.scenario.load
--- runs it in the sandbox and refuses anything scenario{} did not make).
--- Options may come before or after the scenario's file.
---@param args string[]
---@return integer status
function M.run(args)
  local opts, rest = cli.parse_options(args, { journal = "value", quiet = "flag", json = "flag",
                                                memory = "value", cpu = "value", svg = "value",
                                                variant = "list", seed = "value" })
  local file = rest[1]
  if not file then cli.usage_error("run needs a SCENARIO.lua") end
  if #rest > 1 then cli.usage_error("a scenario takes no arguments, got '" .. rest[2] .. "'") end
  local memory = tonumber(opts.memory or tostring(M.DEFAULT_LIMITS.memory // (1024 * 1024)))
  local cpu = tonumber(opts.cpu or tostring(M.DEFAULT_LIMITS.cpu))
  if not memory or memory <= 0 then cli.usage_error("--memory wants a number of MiB") end
  if not cpu or cpu <= 0 then cli.usage_error("--cpu wants a number of seconds") end
  local seed = opts.seed and math.tointeger(tonumber(opts.seed))
  if opts.seed and not seed then cli.usage_error("--seed wants a whole number") end
  local keel = require "keel"
  local bytes = math.floor(memory * 1024 * 1024)
  local sb = keel.sandbox.new { memory = bytes }
  io.stdout:flush()
  local ok, status, kind = sb:call("keel.cli.run", "scenario_main", file,
    { journal = opts.journal, quiet = opts.quiet, json = opts.json, cpu = cpu, svg = opts.svg, memory = bytes,
      variants = opts.variant, seed = seed })
  sb:close()
  if not ok then
    io.stderr:write("keel: ", tostring(status), kind == "memory" and " (try --memory)" or "", "\n")
    return 1
  end
  return status
end

return M

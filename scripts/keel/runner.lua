--- keel.runner — a scenario played from its file to its last order and
-- narrated: what `keel run` does inside the sandbox state it makes for the
-- game (and the fuzz target for scenario files does, silently). The
-- scenario is set up (keel.scenario: map, families, variants, seed, forces),
-- each order played and narrated (keel.narrator), its expectations checked;
-- the journal and an SVG of the final position are written on request.
--
--   local status = require("keel.runner").play("scenarios/suez_1942.lua", { quiet = true })
local keel = require "keel"
local scenario = require "keel.scenario"
local errors = require "keel.errors"
local limits = require "keel.limits"

local M = {}

--- Play a scenario and narrate it; returns the exit status (0: every
--- expectation met, 1: one not met or the scenario cannot be played) and,
--- when it cannot be played, the message. Runs inside the game's own
--- sandbox state: opts.memory (bytes) is that state's limit, for the
--- journal's header; opts.cpu the CPU limit of one action.
--- opts.silent (the fuzz target): nothing printed; the error comes back.
---@param path string
---@param opts {journal?: string, svg?: string, quiet?: boolean, json?: boolean, cpu?: number, memory?: integer,
---  silent?: boolean, variants?: string[], seed?: integer}
---@return integer status, string? message
function M.play(path, opts)
  local l = limits.resolve { cpu = opts.cpu, memory = opts.memory }
  keel.sandbox.limits { cpu = l.cpu }
  opts.file = path
  local write = opts.silent and function() end or io.write
  if opts.silent then opts.write = function() end end
  local n = require("keel.narrator").new(opts)
  local part   -- the journal being streamed, until it is renamed
  local ok, err = pcall(function()
    local spec = scenario.load(path)
    -- the journal's header says the limits when they are not the defaults
    local run = scenario.start(spec, { narrate = n.event, limits = limits.header(l), variants = opts.variants,
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
    n.offset = run.game:journal_count()   -- the setup is not narrated line by line
    -- the journal streams to "<file>.part" as the game goes (a long game
    -- holds only what it has not written), renamed to the file at the end;
    -- what is not a file (a FIFO, a device) gets the journal written whole
    local real, kind = keel.file.find_real(opts.journal or "")
    if opts.journal and real and (kind == "file" or kind == "none") then
      part = real .. ".part"
      local sok, serr = run.game:stream_journal(part)
      if not sok then part = nil; error("--journal: " .. tostring(serr), 0) end
      run.game:journal_keep(n.offset)
    end
    local passed, failed = run:play_all(n.order)
    n.flush()
    if part then
      local wok, werr = run.game:close_journal()
      if wok then wok, werr = os.rename(part, real) end
      if not wok then error("--journal: " .. tostring(werr), 0) end
      part = nil
    elseif opts.journal then
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
    if part then os.remove(part) end
    if not opts.silent then io.stderr:write("keel: ", errors.format(err), "\n") end
    return 1, errors.format(err)
  end
  return err > 0 and 1 or 0
end

--- The hex size of --svg pictures (px): counters a little wider than that.
M.SVG_SIZE = 40
-- how far around the last move the --svg picture reaches (hexes)
M.SVG_RADIUS = 6

--- Draw the final position: the board, the units on it, and the last
--- move's path when a rule answers the query `last_path`.
---@param run table a keel.scenario run
---@param spec table its scenario
---@param path string the SVG file to write
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
  local ok, err = keel.file.write(path, svg)
  if not ok then error("--svg: " .. tostring(err), 0) end
end

--- How a game with a sequence of play stands, in one line: "result: winner
--- Axis, scores Allied 15, Axis 0 (why)", "result: a draw, ..." or, for a
--- game not over, where it is.
---@param run table a scenario's run (keel.scenario)
---@return string
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

return M

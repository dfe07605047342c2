--- keel play SCENARIO --player SIDE=KIND[:OPTION=VALUE,...] ... [--seed N] [--journal F] [--quiet]
-- A whole game played by players (keel.player) to its end, narrated as
-- `keel run` narrates, ending with the result line; the journal replays
-- with `keel replay` and shows in `keel view`.
local cli = require "keel.cli"
local limits = require "keel.limits"

local M = {
  summary = "play a scenario's game to its end with players (bots or a person)",
  usage = "keel play SCENARIO.lua [--player SIDE=KIND[:OPTION=VALUE,...] ...] [--seed N] [--journal FILE]\n" ..
          "                 [--quiet] [--json] [--steps MAX] [--memory MIB] [--cpu SECONDS]",
  help = "Plays the scenario's game from its setup to its end: at each point the\n" ..
         "side that must decide is asked for one order by its player, and the\n" ..
         "order is played and narrated as `keel run` narrates. A side given no\n" ..
         "player is played by `random`. Players:\n" ..
         "  random           uniform over the available actions, then each one's candidates\n" ..
         "  greedy[:sample=N,samples=K]  the best of N drawn orders by the scenario's\n" ..
         "                   evaluation (or its victory scores), dice sampled K times\n" ..
         "  mcts[:iterations=N,ms=T,playout=N,c=X,widen=X,alpha=X,scale=X]\n" ..
         "                   information-set Monte Carlo tree search (doc/players.md)\n" ..
         "  human            a numbered menu on the terminal (reads standard input)\n" ..
         "  FILE.lua         a designer's player, run in the sandbox (doc/guide.md)\n" ..
         "  --player SIDE=KIND  who plays SIDE (repeat for each side)\n" ..
         "  --seed N         the game's seed (default the scenario's); the players'\n" ..
         "                   seeds follow from it, so a game is reproducible\n" ..
         "  --journal FILE   write the game's journal (keel replay, keel view read it)\n" ..
         "  --quiet          print only the orders' summary and the result line\n" ..
         "  --json           narrate as JSON lines\n" ..
         "  --steps MAX      stop with an error after MAX orders (default 100000)\n" ..
         limits.help { cpu = "the CPU limit of one order, and of a file player's decision" } .. "\n" ..
         "Exit status: 0 the game ended, 1 it could not be played, 2 usage.",
}

M.MAX_STEPS = 100000

--- Read the --player options: side -> spec text.
---@param list string[]
---@return table<string, string>
function M.players_of(list)
  local out = {}
  for _, item in ipairs(list or {}) do
    local side, spec = item:match("^([^=]+)=(.+)$")
    if not side then cli.usage_error(("--player %s: SIDE=KIND expected (e.g. Axis=mcts:iterations=500)"):format(item)) end
    if out[side] then cli.usage_error(("--player: %s is given twice"):format(side)) end
    local ok, why = require("keel.player").parse(spec)
    if not ok then cli.usage_error("--player " .. item .. ": " .. why) end
    out[side] = spec
  end
  return out
end

---@param args string[]
---@return integer status
function M.run(args)
  local opts, rest = cli.parse_options(args, limits.options { player = "list", seed = "value", journal = "value",
                                                               quiet = "flag", json = "flag", steps = "value" })
  local file = rest[1]
  if not file then cli.usage_error("play needs a SCENARIO.lua") end
  if #rest > 1 then cli.usage_error("a scenario takes no arguments, got '" .. rest[2] .. "'") end
  local seed = opts.seed and math.tointeger(tonumber(opts.seed))
  if opts.seed and not seed then cli.usage_error("--seed wants a whole number") end
  local steps = opts.steps and math.tointeger(tonumber(opts.steps))
  if opts.steps and not (steps and steps >= 1) then cli.usage_error("--steps wants a whole number from 1") end
  local players = M.players_of(opts.player)
  local l = limits.resolve(cli.limits(opts))
  return cli.in_sandbox(l.memory, "keel.cli.play", "play", file,
    { players = players, seed = seed, journal = opts.journal, quiet = opts.quiet, json = opts.json,
      steps = steps or M.MAX_STEPS, cpu = l.cpu, memory = l.memory })
end

--- Play the game (inside the game's sandbox state): the exit status.
---@param path string
---@param opts table
---@return integer status
function M.play(path, opts)
  local keel = require "keel"
  local scenario = require "keel.scenario"
  local errors = require "keel.errors"
  local player = require "keel.player"
  local sequence = require "keel.sequence"
  local runner = require "keel.runner"
  local json = require "keel.json"
  keel.sandbox.limits { cpu = opts.cpu }
  local write = io.write
  local n = require("keel.narrator").new { quiet = opts.quiet, json = opts.json, file = path }
  local ok, err = pcall(function()
    local spec = scenario.load(path)
    local run = scenario.start(spec, { narrate = n.event, seed = opts.seed,
                                       limits = limits.header { cpu = opts.cpu, memory = opts.memory } })
    local set, game = run.set, run.game
    n.game, n.board = game, run.board
    if not set.sequence then error(path .. ": the scenario declares no sequence of play: nothing to play", 0) end
    local sides = sequence.side_names(set.sequence)
    local known = {}
    for _, s in ipairs(sides) do known[s] = true end
    for _, s in ipairs(require("keel.keys").sorted(opts.players)) do
      if not known[s] then error(("--player %s: not a side of this game (sides: %s)"):format(s,
        table.concat(sides, ", ")), 0) end
    end
    local ps, names = {}, {}
    for i, s in ipairs(sides) do
      local spec_text = opts.players[s] or "random"
      local p, why = player.new(spec_text, { seed = player.side_seed(game.seed, i), cpu = opts.cpu })
      if not p then error(("--player %s=%s: %s"):format(s, spec_text, why), 0) end
      ps[s] = p
      names[#names + 1] = ("%s %s"):format(s, spec_text)
    end
    if not opts.json and not opts.quiet then
      write(("scenario: %s (%s), seed %d\n"):format(spec.name or "?", path, game.seed))
      write(("players: %s\n"):format(table.concat(names, ", ")))
    end
    n.offset = #game:journal_text()
    local i = 0
    while not game:result().over do
      local side = set:status(game).active[1]
      if not side then error("no side is to act and the game is not over", 0) end
      i = i + 1
      if i > opts.steps then error(("no end after %d orders (--steps)"):format(opts.steps), 0) end
      local name, params = ps[side]:decide(set, game, side)
      if not name then error(("%s (%s) has no order to give: %s"):format(side, ps[side].spec, tostring(params)), 0) end
      local order = { name, by = side }
      for k, v in pairs(params) do order[k] = v end
      n.order("start", i, order)
      local res = table.pack(set:act(game, name, params, side))
      local outcome = { ok = res[1] == true, kind = res[3], what = name,
                        message = not res[1] and errors.format(res[2]) or nil }
      n.order("end", i, order, outcome, {})
      if not res[1] then
        error(("order %d, %s's %s %s: refused (%s): %s"):format(i, side, name, json.encode(params),
          tostring(res[3]), outcome.message), 0)
      end
    end
    n.flush()
    if opts.journal then
      local wok, werr = game:write_journal(opts.journal)
      if not wok then error("--journal: " .. tostring(werr), 0) end
    end
    local r = game:result()
    if opts.json then
      write(json.encode { kind = "result", orders = i, hash = game:hash_hex(), over = r.over, winner = r.winner,
                          scores = r.scores, reason = r.reason }, "\n")
    else
      write(("played: %d order(s); state %s\n"):format(i, game:hash_hex()))
      write(runner.result_line(run), "\n")
    end
  end)
  if not ok then
    io.stderr:write("keel: ", errors.format(err), "\n")
    return 1
  end
  return 0
end

return M

--- keel fuzz-rules [SCENARIO ...] [--games N] [--seed S] [--steps MAX] — random
-- players on the showcases (all of scenarios/*.lua that declare a sequence
-- of play, without arguments), many seeds, flagging what the rules get
-- wrong (the engine of the command is M.game; tests/lua/fuzz_rules_test.lua
-- runs it briefly, `make fuzz-rules` long).
--
-- Each game: the scenario set up with seed S+g, each side played by the
-- random player seeded as `keel play` seeds it (keel.player.side_seed), and
-- at each step:
--   error       a rule raised (listing, checking or playing an order);
--   dead-end    the active side has nothing legal, not even passing, and
--               the game is not over (or no side is active in a game not over);
--   offered     an order the checks passed (set:check's) that set:act refuses;
--   refused     an order the checks refused that set:act accepts, or that
--               changes the state when refused (hash before and after);
--   side        an order from a side that may not act now that is accepted,
--               or changes the state;
--   actions     set:legal_actions changing the state (hash before/after;
--               every `actions_every` steps and at the first);
--   undo        undo of the order not restoring the hash before it, or redo
--               not the hash after it;
--   steps       no end after MAX orders;
--   replay      the game's journal not replaying to the same hashes.
-- A finding names the scenario, seed, step and a command that reproduces it.
local cli = require "keel.cli"
local errors = require "keel.errors"
local json = require "keel.json"

local M = {
  summary = "play random games of the showcases and flag rule faults",
  usage = "keel fuzz-rules [SCENARIO.lua ...] [--games N] [--seed S] [--steps MAX] [--actions-every K] [--quiet]",
  help = "Plays N games (default 20) of each scenario (default: every scenario in\n" ..
         "scenarios/ with a sequence of play), each side a random player, seeds S,\n" ..
         "S+1, ... (default 1), and flags: a rule error; a dead end (the active side\n" ..
         "has nothing legal, not even passing, and the game is not over); an offered\n" ..
         "order refused; a refused order that is accepted or changes the state; an\n" ..
         "order from a side not to act accepted; a game past MAX orders (default\n" ..
         "2000) without an end; `actions` changing the state (every K orders,\n" ..
         "default 50, and at the first); undo not restoring the hash (or redo the\n" ..
         "hash after); a journal that does not replay to the same hashes.\n" ..
         "Each finding names its scenario, seed and step, and the command that\n" ..
         "plays that game alone. Exit status: 0 nothing found, 1 findings, 2 usage.",
}

M.DEFAULT = { games = 20, seed = 1, steps = 2000, actions_every = 50 }

--- The showcases (scenarios/, each a game with a sequence of play), in name order.
M.SHOWCASES = { "scenarios/ocs_salerno.lua", "scenarios/salerno_1943.lua", "scenarios/seabox_bombing.lua",
                "scenarios/seabox_crete_1941.lua", "scenarios/seabox_house_rules.lua",
                "scenarios/seazone_trident.lua", "scenarios/suez_1942.lua" }

local function command(path, seed, steps)
  return ("keel fuzz-rules %s --seed %d --games 1 --steps %d"):format(path, seed, steps)
end

local function text(e) return type(e) == "table" and errors.format(e) or tostring(e) end

--- Play one game of a scenario with random players and check it: the list
--- of findings ({scenario, seed, step, kind, message, command}) and the
--- number of orders played.
---@param path string the scenario file
---@param seed integer the game's seed (and its players')
---@param opts? {steps?: integer, actions_every?: integer, spec?: table, set?: table}
---@return table[] findings, integer orders
function M.game(path, seed, opts)
  opts = opts or {}
  local scenario = require "keel.scenario"
  local player = require "keel.player"
  local max_steps = opts.steps or M.DEFAULT.steps
  local every = opts.actions_every or M.DEFAULT.actions_every
  local findings = {}
  local step = 0
  local function found(kind, msg)
    findings[#findings + 1] = { scenario = path, seed = seed, step = step, kind = kind, message = msg,
                                command = command(path, seed, max_steps) }
  end
  local ok, err = pcall(function()
    local spec = opts.spec or scenario.load(path)
    local run = scenario.start(spec, { seed = seed, set = opts.set })
    local set, game = run.set, run.game
    if not set.sequence then found("error", "the scenario declares no sequence of play"); return end
    local players = {}
    for i, side in ipairs(require("keel.sequence").side_names(set.sequence)) do
      players[side] = assert(player.new("random", { seed = player.side_seed(seed, i) }))
      players[side].refused = {}
    end
    local sides = require("keel.sequence").side_names(set.sequence)
    while not game:result().over do
      step = step + 1
      if step > max_steps then
        local st = set:status(game)
        found("steps", ("no end after %d orders (turn %s, the %s %s)"):format(max_steps, tostring(st.turn),
          tostring(st.phasing), tostring(st.step or st.phase)))
        return
      end
      local active = set:status(game).active
      local side = active[1]
      if not side then found("dead-end", "no side is active and the game is not over"); return end
      local st = game.state
      if step == 1 or (every > 0 and step % every == 0) then
        local h = st:hash()
        local lok, lerr = pcall(set.legal_actions, set, game, side)
        if not lok then found("error", "listing the actions: " .. text(lerr)); return end
        if st:hash() ~= h then found("actions", "listing the actions of " .. side .. " changed the state") end
      end
      local p = players[side]
      p.refused = {}
      local dok, name, params = pcall(p.decide, p, set, game, side)
      if not dok then
        found(tostring(name):find("changed the game", 1, true) and "actions" or "error",
          "drawing an order for " .. side .. ": " .. text(name))
        return
      end
      if not name then found("dead-end", ("%s has nothing legal, not even passing: %s"):format(side, params)); return end
      -- an order the checks refused: refused again, the state unchanged
      local r = p.refused[1]
      if r then
        local mark, h = game:begin(), st:hash()
        local aok, why = set:act(game, r.name, r.params, side)
        if aok then
          found("refused", ("%s %s: refused by the checks (%s) but accepted"):format(r.name,
            json.encode(r.params), text(r.why)))
        elseif st:hash() ~= h then
          found("refused", ("%s %s: refused (%s) but the state changed"):format(r.name, json.encode(r.params),
            text(why)))
        end
        game:rollback(mark)
      end
      -- an order from a side not to act
      for _, other in ipairs(sides) do
        if other ~= side then
          local mark, h = game:begin(), st:hash()
          local aok = set:act(game, name, params, other)
          if aok then found("side", ("%s %s from %s, not to act, accepted"):format(name, json.encode(params), other))
          elseif st:hash() ~= h then found("side", ("%s from %s refused but the state changed"):format(name, other)) end
          game:rollback(mark)
        end
      end
      local before = st:hash()
      local aok, why, kind = set:act(game, name, params, side)
      if not aok then
        if kind == "illegal" or kind == "vetoed" or kind == "params" or kind == "side" or kind == "phase"
           or kind == "unknown" then
          found("offered", ("%s %s by %s: the checks passed it, set:act refuses it (%s): %s"):format(name,
            json.encode(params), side, tostring(kind), text(why)))
        else
          found("error", ("%s %s by %s: %s"):format(name, json.encode(params), side, text(why)))
        end
        return
      end
      local after = st:hash()
      game:undo(1)
      if st:hash() ~= before then
        found("undo", ("undo of %s %s does not restore the hash"):format(name, json.encode(params)))
        return
      end
      game:redo(1)
      if st:hash() ~= after then
        found("undo", ("redo of %s %s does not give the hash after it"):format(name, json.encode(params)))
        return
      end
    end
    -- the journal replays to the same hashes
    local rep = require("keel.replay").replay(path .. " (journal of seed " .. seed .. ")",
      { text = game:journal_text() })
    if not rep.ok then found("replay", rep.message) end
  end)
  if not ok then found("error", text(err)) end
  return findings, step
end

--- Fuzz scenarios: findings of every game, and counts.
---@param paths string[]
---@param opts {games: integer, seed: integer, steps: integer, actions_every?: integer, on_game?: function}
---@return table[] findings, table counts {games=, orders=}
function M.fuzz(paths, opts)
  local scenario = require "keel.scenario"
  local all, counts = {}, { games = 0, orders = 0 }
  for _, path in ipairs(paths) do
    local spec = scenario.load(path)
    local set = scenario.rule_set(spec, {})
    for g = 0, opts.games - 1 do
      local f, n = M.game(path, opts.seed + g, { steps = opts.steps, actions_every = opts.actions_every,
                                                 spec = spec, set = set })
      counts.games, counts.orders = counts.games + 1, counts.orders + n
      for _, x in ipairs(f) do all[#all + 1] = x end
      if opts.on_game then opts.on_game(path, opts.seed + g, f, n) end
    end
  end
  return all, counts
end

local function whole(v, name, min)
  local n = v and math.tointeger(tonumber(v))
  if v and (not n or n < min) then cli.usage_error(("--%s wants a whole number from %d"):format(name, min)) end
  return n
end

---@param args string[]
---@return integer status
function M.run(args)
  local opts, rest = cli.parse_options(args, { games = "value", seed = "value", steps = "value",
                                               ["actions-every"] = "value", quiet = "flag" })
  local o = {
    games = whole(opts.games, "games", 1) or M.DEFAULT.games,
    seed = whole(opts.seed, "seed", 0) or M.DEFAULT.seed,
    steps = whole(opts.steps, "steps", 1) or M.DEFAULT.steps,
    actions_every = whole(opts["actions-every"], "actions-every", 0) or M.DEFAULT.actions_every,
  }
  local paths = #rest > 0 and rest or M.SHOWCASES
  return cli.in_sandbox(require("keel.limits").DEFAULT.memory, "keel.cli.fuzz_rules", "main", paths, o,
    opts.quiet or false)
end

--- The command's body, in the sandbox state it runs in: prints each
--- finding and a summary per scenario; the exit status.
function M.main(paths, o, quiet)
  local per = {}
  o.on_game = function(path, seed, f, n)
    local c = per[path] or { games = 0, orders = 0, findings = 0 }
    per[path] = c
    c.games, c.orders, c.findings = c.games + 1, c.orders + n, c.findings + #f
    for _, x in ipairs(f) do
      io.write(("%s: seed %d, step %d: %s: %s\n  reproduce: %s\n"):format(x.scenario, x.seed, x.step, x.kind,
        x.message, x.command))
    end
    if not quiet and #f == 0 then io.write(("%s: seed %d: %d orders, ok\n"):format(path, seed, n)) end
  end
  local ok, all = pcall(M.fuzz, paths, o)
  if not ok then
    io.stderr:write("keel: ", text(all), "\n")
    return 1
  end
  for _, path in ipairs(paths) do
    local c = per[path]
    if c then
      io.write(("%s: %d games, %d orders, %d finding(s)\n"):format(path, c.games, c.orders, c.findings))
    end
  end
  io.write(("fuzz-rules: %d finding(s)\n"):format(#all))
  return #all > 0 and 1 or 0
end

return M

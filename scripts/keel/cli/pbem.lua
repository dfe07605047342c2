--- keel pbem new|play|show|verify — a game played by e-mail, one text file
-- passed back and forth (keel.pbem does the work; doc/pbem.md).
local keel = require "keel"
local cli = require "keel.cli"
local limits = require "keel.limits"

local M = {
  summary = "play by e-mail: a game file both players pass back and forth and verify",
  usage = "keel pbem new SCENARIO.lua [--seed N] [--variant FILE ...] -o GAME.keel\n" ..
          "       keel pbem play GAME.keel --side SIDE [--player KIND] [--orders FILE] [--seed N]\n" ..
          "       keel pbem show GAME.keel --side SIDE\n" ..
          "       keel pbem verify GAME.keel [--side SIDE] [--journal FILE]",
  help = "A game by e-mail is one text file: a header (scenario, seed, variants, keel\n" ..
         "version, the hash of every rule file, the state after the setup), then for\n" ..
         "each turn one line per order with its side and the state hash after it, and\n" ..
         "an end line chaining the turn to the one before by hash. Every roll follows\n" ..
         "from the seed and the orders before it.\n" ..
         "  new     set the scenario up (--seed, --variant as keel run) and write the file\n" ..
         "  play    check the file, then play SIDE's part until another side must decide\n" ..
         "          (the end of its phases, or a decision window such as a reaction) and\n" ..
         "          write the file to send: by the `human` player at the terminal (the\n" ..
         "          default), by a bot (--player random|greedy|mcts[:k=v,..]|FILE.lua,\n" ..
         "          keel.player; --seed N its seed), or from --orders FILE (one order a\n" ..
         "          line: NAME or NAME {JSON parameters}; # comments)\n" ..
         "  show    whose turn it is and what happened since SIDE last played; orders\n" ..
         "          hidden from SIDE stay sealed\n" ..
         "  verify  play the whole file again under the rules: the first order refused,\n" ..
         "          state hash or chain that differs is named with its line, turn and\n" ..
         "          rule; --side SIDE also checks it against what SIDE saw before;\n" ..
         "          --journal FILE writes the game's journal (keel replay, keel view)\n" ..
         "Beside GAME.keel, GAME.keel.SIDE.seen keeps the chain of the last turn SIDE\n" ..
         "played or verified: a file sent again, or with its history rewritten, is\n" ..
         "refused.\n" ..
         limits.help { memory = "the memory limit", cpu = "the CPU limit of one order" } .. "\n" ..
         "Exit status: 0 done, 1 refused (the file is not changed), 2 usage.",
}

local function read(path)
  local text, err = keel.file.read(path)
  if not text then error(tostring(err), 0) end
  return text
end

-- where the next orders come from
local function source(opts)
  local pbem = require "keel.pbem"
  if opts.orders then
    local list = pbem.parse_orders(read(opts.orders), opts.orders)
    local next_order, state = pbem.from_list(list)
    return next_order, function()
      if state.used < #list then
        local left = list[state.used + 1]
        error(("%s:%d: %d order(s) left over: the side's part ended before them"):format(opts.orders, left[3],
          #list - state.used), 0)
      end
    end
  end
  local ok, player = pcall(require, "keel.player")
  if not ok then error("--player needs keel.player, which this keel does not have: " .. tostring(player), 0) end
  local p, why = player.new(opts.player or "human", { seed = opts.seed })
  if not p then error("--player " .. tostring(opts.player or "human") .. ": " .. tostring(why), 0) end
  return function(set, game, side) return p:decide(set, game, side) end, function() end
end

--- The subcommands, run in the sandbox state M.run makes.
---@param sub string
---@param path string
---@param opts table
---@return integer status
function M.main(sub, path, opts)
  local pbem = require "keel.pbem"
  keel.sandbox.limits { cpu = opts.cpu_limit }
  local ok, err = pcall(function()
    if sub == "new" then
      local text = pbem.new(path, { seed = opts.seed, variants = opts.variant })
      local wok, werr = keel.file.write(opts.o, text)
      if not wok then error("-o: " .. tostring(werr), 0) end
      local res = pbem.check(text, opts.o)
      io.write(("%s: a new game of %s, seed %d; sides %s; %s to decide (%s)\n"):format(opts.o, path,
        res.header.seed, table.concat(res.status.sides, ", "), table.concat(res.status.active, ", "),
        pbem.where_text(res.status)))
    elseif sub == "play" then
      local text = read(path)
      local next_order, done = source(opts)
      local out, sum = pbem.play(text, path, opts.side, next_order)
      done()
      local wok, werr = keel.file.write(path, out)
      if not wok then error(path .. ": " .. tostring(werr), 0) end
      pbem.write_seen(sum.res, path, opts.side, true)
      local st = sum.status
      io.write(("%s: turn %d, %s played %d order(s); %s; send the file to %s\n"):format(path, sum.turn, opts.side,
        sum.orders, st.over and "the game is over" or ("now " .. pbem.where_text(st)),
        st.over and "the other side" or table.concat(st.active, ", ")))
    elseif sub == "show" then
      local res = pbem.check(read(path), path, { narrate = true })
      io.write(pbem.show(res, opts.side))
    elseif sub == "verify" then
      local res = pbem.check(read(path), path)
      if opts.side then
        local why = pbem.check_seen(res, path, opts.side)
        if why then error(why, 0) end
        pbem.write_seen(res, path, opts.side, false)
      end
      if opts.journal then
        local wok, werr = res.run.game:write_journal(opts.journal)
        if not wok then error("--journal: " .. tostring(werr), 0) end
      end
      local sealed = 0
      for _ in pairs(res.sealed) do sealed = sealed + 1 end
      io.write(("%s: %d turn(s), %d order(s) (%d sealed) played again under the rules; every state hash and "
        .. "the chain check (state %s, chain %s); %s\n"):format(path, #res.turns, #res.orders, sealed,
        res.run.game:hash_hex(), res.chain, res.status.over and "the game is over"
        or ("now " .. pbem.where_text(res.status) .. ", " .. table.concat(res.status.active, ", ") .. " to decide")))
    end
  end)
  if not ok then
    io.stderr:write("keel: ", require("keel.errors").format(err), "\n")
    return 1
  end
  return 0
end

local SUBS = { new = true, play = true, show = true, verify = true }

function M.run(args)
  local sub = table.remove(args, 1)
  if not sub or not SUBS[sub] then
    cli.usage_error(("pbem needs new, play, show or verify%s"):format(sub and (", not '" .. sub .. "'") or ""))
  end
  local opts, rest = cli.parse_options(args, limits.options { seed = "value", variant = "list", o = "value",
    side = "value", player = "value", orders = "value", journal = "value" })
  if #rest ~= 1 then
    cli.usage_error(("pbem %s needs one %s"):format(sub, sub == "new" and "SCENARIO.lua" or "GAME.keel file"))
  end
  if opts.seed then
    local seed = math.tointeger(tonumber(opts.seed))
    if not seed then cli.usage_error("--seed wants a whole number") end
    opts.seed = seed
  end
  if sub == "new" and not opts.o then cli.usage_error("pbem new needs -o GAME.keel") end
  if (sub == "play" or sub == "show") and not opts.side then cli.usage_error("pbem " .. sub .. " needs --side SIDE") end
  if opts.player and opts.orders then cli.usage_error("--player and --orders: one or the other") end
  local l = limits.resolve(cli.limits(opts))
  opts.cpu_limit = l.cpu
  return cli.in_sandbox(l.memory, "keel.cli.pbem", "main", sub, rest[1], opts)
end

return M

--- keel.lab — the variant lab: play a scenario many times, with seeds derived
-- from one master seed, on one side as it is (or with base variants) and on
-- the other with a house rule, and keep what a designer asks about as
-- sufficient statistics (counts, sums, sums of squares, histograms), so
-- that slices played apart (`--shard I/N`, other machines) merge into
-- exactly the numbers of one big run. doc/lab.md tells the whole story.
--
--   local lab = require "keel.lab"
--   local study = lab.new { scenario = "scenarios/suez_1942.lua", games = 200, master = 1,
--                           sides = { { name = "base" }, { name = "variant", variants = { "house.lua" } } } }
--   lab.run(study, { jobs = 2, on_progress = function(done, total) end })
--   print(require("keel.lab_report").text(study))
--   local text = lab.encode(study)            -- the JSON document (merge reads it back)
--   local all = lab.merge { lab.decode(a), lab.decode(b) }
--
-- One game is keel.lab_game's (it runs in a sandbox state of its own); the
-- statistics are keel.stats'; the paired comparisons keel.lab_pairs'; the
-- table and the SVG are keel.lab_report's.
--
-- A study is played by players (`players`: each game to its end, the
-- winner and scores among its outcomes; `swap`: every seed twice, the
-- players' seats swapped) or, without them, by the scenario's scripted
-- orders (a regression of one line of play).
local keel = require "keel"
local json = require "keel.json"
local stats = require "keel.stats"
local lab_pairs = require "keel.lab_pairs"
local limits = require "keel.limits"
local sorted_keys = require("keel.keys").sorted

local type, ipairs, tostring, error, pcall = type, ipairs, tostring, error, pcall
local floor = math.floor
local concat, sort = table.concat, table.sort

local M = {}

M.FORMAT = "keel-lab"
M.VERSION = 2   -- 2: players, swap, pairs, the sequential test (1 is read too)
--- How seeds are derived (doc/lab.md): named in every report.
M.SEEDS = "splitmix64(master + i * 0x9E3779B97F4A7C15) >> 33, game i = 1..games"

-- ---- seeds -----------------------------------------------------------------------------

--- The seed of game i (1-based) of a study with this master seed: SplitMix64
--- (Steele, Lea and Flood 2014) of master + i * golden gamma, its top 31 bits —
--- a whole number from 0 to 2^31 - 1 that `keel run --seed` takes back.
---@param master integer
---@param i integer
---@return integer
function M.seed(master, i)
  local z = master + i * -7046029254386353131   -- 0x9E3779B97F4A7C15 as a signed 64-bit integer
  z = (z ~ (z >> 30)) * -4658895280553007687     -- 0xBF58476D1CE4E5B9
  z = (z ~ (z >> 27)) * -7723592293110705685     -- 0x94D049BB133111EB
  z = z ~ (z >> 31)
  return z >> 33
end

--- The seed of game g of a study: M.seed(master, g); with swap, games 2i-1
--- and 2i both play seed i (the second with the players' seats swapped).
function M.seed_of(study, g)
  if study.swap then return M.seed(study.master, (g + 1) // 2) end
  return M.seed(study.master, g)
end

--- The seats of game g: {side =, spec =, seat =} for each side — the
--- study's, or with swap in an even game each side's player moved to the
--- next side (two sides: swapped). `seat` names the player ("1: random"),
--- so a player keeps its name from seat to seat.
function M.seats_of(study, g)
  local seats = study.seats or {}
  local out = {}
  local shift = (study.swap and g % 2 == 0) and 1 or 0
  for i, s in ipairs(seats) do
    local from = seats[(i - 1 - shift) % #seats + 1]
    out[i] = { side = s.side, spec = from.spec, seat = from.seat }
  end
  return out
end

--- The games of slice `index` of `count` (1-based) of games 1..n: first, last
--- (last < first when the slice is empty). Shards and jobs both cut so.
function M.slice(n, index, count)
  return floor((index - 1) * n / count) + 1, floor(index * n / count)
end

-- ---- a study ---------------------------------------------------------------------------

local function new_side(s)
  local variants = {}
  for i, v in ipairs(s.variants or {}) do variants[i] = v end
  return { name = s.name, variants = variants, played = 0, completed = 0, failures = {},
           met = {}, outcomes = {}, rules = {}, rows = {}, rules_hash = nil,
           rule_keys = s.rule_keys or {}, row_keys = s.row_keys or {} }
end

--- A new, empty study.
---@param opts {scenario: string, games: integer, master?: integer, sides: table[], shard?: integer[],
---  players?: table, swap?: boolean, steps?: integer}
---  sides: {{name=, variants={files}}...} (one or two); shard: {index, count};
---  players: { Side = "spec" } (keel.player; a side not named plays the
---  scenario's `players` choice, else random) — without it, the scripted
---  orders; swap: every seed twice, seats swapped (games counts the games,
---  twice the seeds); steps: orders a game may take (keel.lab_game.STEPS)
---@return table study
function M.new(opts)
  if type(opts.scenario) ~= "string" then error("keel.lab.new: scenario (a file) expected", 2) end
  if math.type(opts.games) ~= "integer" or opts.games < 1 then error("keel.lab.new: games: a whole number >= 1 expected", 2) end
  local sides = {}
  for i, s in ipairs(opts.sides or { { name = "base" } }) do sides[i] = new_side(s) end
  local shard = opts.shard or { 1, 1 }
  if opts.swap and not opts.players then error("keel.lab.new: swap wants players", 2) end
  if opts.swap and opts.games % 2 ~= 0 then error("keel.lab.new: with swap, games counts both seatings: an even number", 2) end
  local study = {
    scenario = { file = opts.scenario }, games = opts.games, master = opts.master or 1, sides = sides,
    shards = shard[2], have = { shard[1] }, orders = nil, outcomes = nil,
    mode = opts.players and "players" or "scripted", asked = opts.players, swap = opts.swap or nil,
    steps = opts.steps, pairs = #sides == 2 and lab_pairs.new() or nil,
  }
  local text = keel.file.read(opts.scenario)
  if not text then error(opts.scenario .. ": cannot read the scenario", 0) end
  study.scenario.hash = keel.state.hash_bytes(text)
  return study
end

--- The games this study (or shard) plays: first, last.
function M.range(study)
  if #study.have ~= 1 then error("keel.lab: a merged study plays no more games", 2) end
  return M.slice(study.games, study.have[1], study.shards)
end

-- ---- adding a game ---------------------------------------------------------------------

local function add_count(t, key, c)
  local e = t[key]
  if not e then e = { games = 0, sum = 0, sumsq = 0 }; t[key] = e end
  e.games = e.games + 1
  e.sum = e.sum + c
  e.sumsq = e.sumsq + c * c
end

--- The key of an outcome's value in its histogram: the value as JSON.
M.value_key = lab_pairs.value_key

--- Count one game's record (keel.lab_game.play) on side k.
---@param study table
---@param k integer the side
---@param game integer the game's number (1-based)
---@param seed integer
---@param rec table
function M.add(study, k, game, seed, rec)
  local side = study.sides[k]
  side.played = side.played + 1
  if not rec.ok then
    side.failures[#side.failures + 1] = { game = game, seed = seed, kind = tostring(rec.kind or "error"),
                                          order = rec.order or 0, message = tostring(rec.message or "?") }
    return
  end
  if side.rules_hash and rec.rules_hash ~= side.rules_hash then
    error(("keel.lab: game %d (seed %d) played other rule files than the games before it " ..
      "(a rule, table or variant file changed during the study?)"):format(game, seed), 0)
  end
  side.rules_hash = rec.rules_hash
  side.completed = side.completed + 1
  for i = 1, #rec.met do
    side.met[i] = (side.met[i] or 0) + (rec.met:sub(i, i) == "1" and 1 or 0)
  end
  for _, d in ipairs(study.outcomes or {}) do
    local h = side.outcomes[d.name]
    if not h then h = {}; side.outcomes[d.name] = h end
    local key = M.value_key(rec.outcomes[d.name])
    h[key] = (h[key] or 0) + 1
  end
  for _, key in ipairs(sorted_keys(rec.rules)) do add_count(side.rules, key, rec.rules[key]) end
  for _, key in ipairs(sorted_keys(rec.rows)) do add_count(side.rows, key, rec.rows[key]) end
end

-- ---- playing ---------------------------------------------------------------------------

-- Games run in a sandbox state of their own (a memory limit; a state that
-- ran out of memory is thrown away and made again).
local Player = {}
Player.__index = Player

local function new_player(opts)
  local l = limits.resolve { cpu = opts.cpu, memory = opts.memory }
  local self = setmetatable({ memory = l.memory, cpu = l.cpu }, Player)
  self.sb = keel.sandbox.new { memory = self.memory }
  return self
end

-- what a call into the sandbox state raised, as text (an error object
-- comes back as a plain table)
local function message_of(e)
  if type(e) == "table" then return tostring(e.message or "(an error without a message)") end
  -- the state adds a traceback of keel's own files: what a user reads is the
  -- message (KEEL_TRACEBACK=1 keeps the rest, as for every keel command)
  local text = tostring(e)
  if not os.getenv("KEEL_TRACEBACK") then text = text:gsub("\nstack traceback:\n.*$", "") end
  return text
end

function Player:call(fname, ...)
  local ok, res, kind = self.sb:call("keel.lab_game", fname, ...)
  if not ok and kind == "memory" then
    self.sb:close()
    self.sb = keel.sandbox.new { memory = self.memory }
  end
  if not ok then res = message_of(res) end
  return ok, res, kind
end

function Player:play(file, variants, seed, seats, steps)
  local ok, rec, kind = self:call("play", file, variants, seed, { cpu = self.cpu, seats = seats, steps = steps })
  if ok then return rec end
  return { ok = false, kind = kind or "error", order = 0, message = (rec:match("^[^\n]*")) }
end

function Player:close() self.sb:close() end

--- Read the scenario (in the sandbox): its name, orders and outcomes go
--- into the study, and each side's rules and table rows. Raises when the
--- scenario does not load or a side does not set up (a variant file that
--- is not there, variants that conflict): no game of it could play.
function M.describe(study, opts)
  local p = new_player(opts or {})
  local variants = {}
  for k, s in ipairs(study.sides) do variants[k] = s.variants end
  local ok, d = p:call("describe", study.scenario.file, variants, study.mode == "players")
  p:close()
  if not ok then error(tostring(d), 0) end
  study.scenario.name = d.name
  study.orders, study.outcomes = d.orders, d.outcomes
  if study.mode == "players" and not study.seats then
    -- every side of the game gets a player: asked for, the scenario's, or random
    if #d.sides == 0 then error(study.scenario.file .. ": the scenario declares no sides (a sequence of play): " ..
      "players have nothing to play; --scripted plays its orders", 0) end
    local known = {}
    for _, side in ipairs(d.sides) do known[side] = true end
    for _, side in ipairs(sorted_keys(study.asked or {})) do
      if not known[side] then
        error(("--player %s: no side of that name (sides: %s)"):format(tostring(side), concat(d.sides, ", ")), 0)
      end
    end
    study.seats = {}
    local player = require "keel.player"
    for i, side in ipairs(d.sides) do
      local spec = (study.asked or {})[side] or d.players[side] or "random"
      local made, why = player.new(spec, { seed = 1 })   -- a bad spec is refused now, not in every game
      if not made then error(("player of %s: %s"):format(side, tostring(why)), 0) end
      study.seats[i] = { side = side, spec = spec, seat = ("%d: %s"):format(i, spec) }
    end
  end
  for k, s in ipairs(study.sides) do
    if d.known[k].error then
      error(("%s side (%s): the scenario does not set up: %s"):format(s.name,
        #s.variants > 0 and ("+ " .. concat(s.variants, " + ")) or "the scenario as it is", d.known[k].error), 0)
    end
    s.rule_keys, s.row_keys = d.known[k].rules, d.known[k].rows
  end
  return study
end

--- Play games first..last of the study on every side, in this process;
--- emit(game, side, seed, record) after each.
function M.play_range(study, first, last, emit, opts)
  local p = new_player(opts or {})
  local ok, err = pcall(function()
    for g = first, last do
      local seed = M.seed_of(study, g)
      local seats = study.mode == "players" and M.seats_of(study, g) or nil
      for k, side in ipairs(study.sides) do
        emit(g, k, seed, p:play(study.scenario.file, side.variants, seed, seats, study.steps))
      end
    end
  end)
  p:close()
  if not ok then error(err, 0) end
end

local function shell_quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end
M.shell_quote = shell_quote

local function read_all(path)
  return (keel.file.read(path))
end

--- The number of processors online (for --jobs), 1 when it cannot be told.
function M.cores()
  local f = io.popen("getconf _NPROCESSORS_ONLN 2>/dev/null || nproc 2>/dev/null")
  local n = f and tonumber(f:read("l") or "")
  if f then f:close() end
  return math.tointeger(n) and n >= 1 and n or 1
end

-- The plain description of a study a worker needs (what lab.worker reads).
local function worker_spec(study, opts)
  local sides = {}
  for i, s in ipairs(study.sides) do sides[i] = { name = s.name, variants = s.variants } end
  return { scenario = study.scenario.file, master = study.master, sides = sides,
           cpu = opts.cpu, memory = opts.memory, mode = study.mode, seats = study.seats, swap = study.swap,
           steps = study.steps }
end

--- The worker's side of `keel lab worker SPEC FIRST LAST OUT`: play games
--- first..last of the study SPEC (JSON) describes, write one JSON line per
--- game and side to OUT, and print one line "lab-progress" per game and side
--- to standard output (the parent counts them for its progress bar).
function M.worker(spec_file, first, last, out_file)
  local spec = json.decode(read_all(spec_file) or "")
  if type(spec) ~= "table" then error(spec_file .. ": not a study description", 0) end
  local out = assert(io.open(out_file, "wb"))
  io.stdout:setvbuf("line")
  local study = { scenario = { file = spec.scenario }, master = spec.master, sides = {}, mode = spec.mode,
                  seats = spec.seats, swap = spec.swap, steps = spec.steps }
  for i, s in ipairs(spec.sides) do study.sides[i] = { name = s.name, variants = s.variants or {} } end
  M.play_range(study, first, last, function(g, k, seed, rec)
    out:write(json.encode({ game = g, side = k, seed = seed, rec = rec }), "\n")
    out:flush()
    io.stdout:write("lab-progress\n")
  end, { cpu = spec.cpu, memory = spec.memory })
  out:close()
  return 0
end

-- JSON read back (a worker's records, a result) with null as nil
local NO_NULLS = { nulls = false }

-- Count one game's record and, when the other side's record of that game
-- is in too (both completed), the pair (keel.lab_pairs).
local function counter(study)
  local pending = {}
  return function(g, k, seed, rec)
    M.add(study, k, g, seed, rec)
    if not study.pairs then return end
    local p = pending[g] or {}
    pending[g] = p
    p[k] = rec
    if p[1] and p[2] then
      if p[1].ok and p[2].ok then lab_pairs.add(study.pairs, study.outcomes, p[1], p[2]) end
      pending[g] = nil
    end
  end
end

-- Play games first..last on every side (jobs worker processes, or this
-- process) and count them with `count`; `tick()` after each game and side.
local function play_games(study, first, last, count, tick, opts)
  local games = last - first + 1
  local jobs = math.max(1, math.min(opts.jobs or 1, games))
  if jobs == 1 or not opts.program then
    M.play_range(study, first, last, function(g, k, seed, rec) count(g, k, seed, rec); tick() end, opts)
    return
  end
  local tmp = os.tmpname()
  local spec_file = tmp .. ".study.json"
  assert(keel.file.write(spec_file, json.encode(worker_spec(study, opts))))
  local cmds, outs, errs, ranges = {}, {}, {}, {}
  for j = 1, jobs do
    local a, b = M.slice(games, j, jobs)
    a, b = first + a - 1, first + b - 1
    outs[j], errs[j], ranges[j] = ("%s.%d.jsonl"):format(tmp, j), ("%s.%d.err"):format(tmp, j), { a, b }
    cmds[j] = ("%s lab worker %s %d %d %s 2>%s &"):format(shell_quote(opts.program), shell_quote(spec_file), a, b,
      shell_quote(outs[j]), shell_quote(errs[j]))
  end
  local pipe = assert(io.popen("(" .. concat(cmds, " ") .. " wait)", "r"))
  for line in pipe:lines() do
    if line == "lab-progress" then tick() end
  end
  pipe:close()
  -- every record the workers wrote, in game order (pairs are counted as
  -- both of a game are in); a game a worker never reported (it died) fails
  local recs = {}
  for j = 1, jobs do
    local lines = io.open(outs[j], "rb")
    if lines then
      for l in lines:lines() do
        local r = json.decode(l, NO_NULLS)   -- a line cut short (the worker died) does not decode
        if type(r) == "table" and type(r.rec) == "table" and math.type(r.game) == "integer"
           and math.type(r.side) == "integer" and not recs[r.game * 64 + r.side] then
          recs[r.game * 64 + r.side] = r
        end
      end
      lines:close()
    end
    local why = (read_all(errs[j]) or ""):match("([^\n]+)\n*$")
    for g = ranges[j][1], ranges[j][2] do
      for k = 1, #study.sides do
        local r = recs[g * 64 + k]
        if r then
          count(g, k, r.seed, r.rec)
        else
          count(g, k, M.seed_of(study, g),
            { ok = false, kind = "worker", order = 0, message = "the worker process stopped: " .. (why or "no message") })
        end
      end
    end
    os.remove(outs[j]); os.remove(errs[j])
  end
  os.remove(spec_file); os.remove(tmp)
end

local function sort_failures(study)
  for _, side in ipairs(study.sides) do
    sort(side.failures, function(x, y) return x.game < y.game end)
  end
end

--- Play the study's games (its shard), on `jobs` worker processes or, with
--- one job, in this process, and count every record (and every pair).
---@param study table from M.new
---@param opts? {jobs?: integer, program?: string, cpu?: number, memory?: integer, on_progress?: fun(done: integer, total: integer)}
---  cpu: seconds per action, memory: bytes per Lua state games play in (keel.limits.DEFAULT when not given)
---@return table study
function M.run(study, opts)
  opts = opts or {}
  if not study.orders then M.describe(study, opts) end
  local first, last = M.range(study)
  local total = (last - first + 1) * #study.sides
  local done = 0
  local progress = opts.on_progress or function() end
  progress(0, total)
  play_games(study, first, last, counter(study), function()
    done = done + 1
    progress(math.min(done, total), total)
  end, opts)
  sort_failures(study)
  return study
end

--- The yes/no the sequential test watches: the first side of the game
--- winning (the outcome `winner` taking the first seat's side).
function M.watched(study)
  local side = study.seats and study.seats[1] and study.seats[1].side
  return "winner", side and json.encode(side) or nil
end

--- Play a study in batches until its main question is decided (Wald's
--- SPRT on the pairs that differ in the first side's win, keel.stats.sprt)
--- or study.games games are played; the study then holds the games played
--- and `sequential` says what was decided and what a fixed-size study of
--- the same power would have played. Wants players and two sides.
---@param opts? {batch?: integer, p1?: number, alpha?: number, beta?: number, jobs?: integer, program?: string, on_progress?: function}
function M.run_until_decided(study, opts)
  opts = opts or {}
  if not study.pairs or study.mode ~= "players" then
    error("keel.lab: --until-decided wants players and two sides (a variant)", 0)
  end
  if study.shards ~= 1 then error("keel.lab: --until-decided plays the whole study: no --shard", 0) end
  if not study.orders then M.describe(study, opts) end
  local max = study.games
  local batch = opts.batch or math.max(20, 10 * (opts.jobs or 1))
  if study.swap and batch % 2 == 1 then batch = batch + 1 end
  local count = counter(study)
  local sopts = { p1 = opts.p1, alpha = opts.alpha, beta = opts.beta }
  local name, key = M.watched(study)
  local played, decided, e = 0, nil, { 0, 0 }
  local progress = opts.on_progress or function() end
  local done = 0
  progress(0, max * #study.sides)
  while played < max and not decided do
    local last = math.min(max, played + batch)
    play_games(study, played + 1, last, count, function()
      done = done + 1
      progress(done, max * #study.sides)
    end, opts)
    played = last
    e = (study.pairs.cat[name] or {})[key] or { 0, 0 }
    decided = stats.sprt(e[1], e[2], sopts)
  end
  study.games = played
  sort_failures(study)
  local n = study.pairs.n
  local need = stats.fixed_discordant(sopts)
  local rate = n > 0 and (e[1] + e[2]) / n or 0
  local fixed = rate > 0 and math.ceil(need / rate) or nil
  study.sequential = { watch = ("%s = %s"):format(name, tostring(key)), decided = decided or "undecided", games = played,
                       max = max, pairs = n, b = e[1], c = e[2], p1 = sopts.p1 or 0.65, alpha = sopts.alpha or stats.ALPHA,
                       beta = sopts.beta or 0.2, fixed_discordant = need, fixed_games = fixed,
                       saved = fixed and (fixed - played) or nil }
  return study
end

-- ---- checking a slice ------------------------------------------------------------------

local function whole(v, min) return math.type(v) == "integer" and v >= (min or 0) end
local function is_list(v)
  if type(v) ~= "table" then return false end
  local n = 0
  for _ in pairs(v) do n = n + 1 end
  return n == #v
end
local function list_of(v, check)
  if not is_list(v) then return false end
  for _, x in ipairs(v) do if not check(x) then return false end end
  return true
end
local function is_string(v) return type(v) == "string" end
local function finite(v) return type(v) == "number" and v == v and v > -math.huge and v < math.huge end

--- Check a study read back (M.decode) against what it claims to be: a
--- slice (or slices) of a study of `games` games cut in `shards`, each side
--- with the games of those slices played, counts that add up (completed
--- at most played, each failed game listed once with its seed, each
--- outcome's histogram and each rule's and row's count over the completed
--- games), every field there and of its kind. Raises "WHERE: what is
--- wrong" (M.merge does it for every slice before adding any up).
---@param study table
---@param where string the file (or slice) for the message
---@return table study
function M.check(study, where)
  local function bad(what, ...) error(("%s: " .. what):format(where, ...), 0) end
  if type(study) ~= "table" then bad("not a study") end
  local sc = study.scenario
  if type(sc) ~= "table" or not is_string(sc.file) or not is_string(sc.hash) then
    bad("\"scenario\" wants the scenario's \"file\" and \"hash\"")
  end
  if not whole(study.games, 1) then bad("\"games\" wants a whole number, at least 1") end
  if not whole(study.master, math.mininteger) then bad("\"master_seed\" wants a whole number") end
  if not whole(study.shards, 1) then bad("\"shards\" wants a whole number, at least 1") end
  -- the games of the slices it holds
  if not list_of(study.have, function(i) return whole(i, 1) and i <= study.shards end) or #study.have == 0 then
    bad("\"have\" wants the slices it holds, each a whole number from 1 to %d", study.shards)
  end
  local holds, claimed, expected = {}, {}, 0
  for _, i in ipairs(study.have) do
    if claimed[i] then bad("slice %d/%d is claimed twice", i, study.shards) end
    claimed[i] = true
    local first, last = M.slice(study.games, i, study.shards)
    for g = first, last do holds[g] = true end
    expected = expected + math.max(0, last - first + 1)
  end
  if not list_of(study.orders, function(o) return type(o) == "table" and is_string(o.text) end) then
    bad("\"orders\" wants a list of orders, each with its \"text\"")
  end
  if not list_of(study.outcomes, function(d) return type(d) == "table" and is_string(d.name) and is_string(d.title) end) then
    bad("\"outcomes\" wants a list of outcomes, each with its \"name\" and \"title\"")
  end
  if not is_list(study.sides) or #study.sides < 1 or #study.sides > 2 then bad("\"sides\" wants one or two sides") end
  for k, s in ipairs(study.sides) do
    local function side_bad(what, ...) bad("side %d (%s): " .. what, k, tostring(s.name), ...) end
    if not is_string(s.name) then bad("side %d has no \"name\"", k) end
    if not list_of(s.variants, is_string) then side_bad("\"variants\" wants a list of files") end
    if not list_of(s.rule_keys, is_string) or not list_of(s.row_keys, is_string) then
      side_bad("\"rule_keys\" and \"row_keys\" want lists of keys")
    end
    if s.played ~= expected then
      side_bad("%d games played, but the slices it claims (%s of %d) hold %d", s.played,
        concat(study.have, ", "), study.shards, expected)
    end
    if not whole(s.completed) or s.completed > s.played then
      side_bad("%s games completed of %d played", tostring(s.completed), s.played)
    end
    if s.completed > 0 and not is_string(s.rules_hash) then side_bad("no \"rules_hash\" of its completed games") end
    -- every game that failed, once, in its slices, with the seed the study gives it
    if not is_list(s.failures) or #s.failures ~= s.played - s.completed then
      side_bad("%d games failed (%d played, %d completed), but %d are listed", s.played - s.completed, s.played,
        s.completed, is_list(s.failures) and #s.failures or 0)
    end
    local failed = {}
    for i, f in ipairs(s.failures) do
      if type(f) ~= "table" or not whole(f.game, 1) or not holds[f.game] or failed[f.game] then
        side_bad("failure %d: \"game\" wants a game of its slices, listed once", i)
      end
      failed[f.game] = true
      if f.seed ~= M.seed_of(study, f.game) then
        side_bad("failure %d: game %d's seed is %d, not %s", i, f.game, M.seed_of(study, f.game), tostring(f.seed))
      end
      if not is_string(f.kind) or not whole(f.order) or not is_string(f.message) then
        side_bad("failure %d wants \"kind\", \"order\" and \"message\"", i)
      end
    end
    -- the counts over the completed games
    if not list_of(s.met, function(c) return whole(c) and c <= s.completed end) or #s.met > #study.orders then
      side_bad("\"met\" wants, for each order, how many of the %d completed games met it", s.completed)
    end
    if type(s.outcomes) ~= "table" then side_bad("no \"outcomes\"") end
    local named = {}
    for _, d in ipairs(study.outcomes) do named[d.name] = true end
    for _, name in ipairs(sorted_keys(s.outcomes)) do
      if not named[name] then side_bad("outcome %s is not one of the study's", tostring(name)) end
    end
    for _, d in ipairs(study.outcomes) do
      local h, n = s.outcomes[d.name] or {}, 0
      if type(h) ~= "table" then side_bad("outcome %s wants a histogram", d.name) end
      for _, key in ipairs(sorted_keys(h)) do
        if not is_string(key) or not whole(h[key], 1) then
          side_bad("outcome %s: each value wants a count of games, at least 1", d.name)
        end
        n = n + h[key]
      end
      if n ~= s.completed then side_bad("outcome %s counts %d games, not the %d completed", d.name, n, s.completed) end
    end
    for _, what in ipairs { "rules", "rows" } do
      if type(s[what]) ~= "table" then side_bad("no \"%s\"", what) end
      for _, key in ipairs(sorted_keys(s[what])) do
        local e = s[what][key]
        if not is_string(key) or type(e) ~= "table" or not whole(e.games) or e.games > s.completed
           or not finite(e.sum) or not finite(e.sumsq) or e.sum < e.games or e.sumsq < e.sum then
          side_bad("%s %s wants {games (at most the %d completed), sum, sumsq} that add up", what,
            tostring(key), s.completed)
        end
      end
    end
  end
  if study.mode ~= "players" and study.mode ~= "scripted" then bad("\"mode\" wants \"players\" or \"scripted\"") end
  if study.mode == "players" then
    if not list_of(study.seats, function(x) return type(x) == "table" and is_string(x.side) and is_string(x.spec)
                                              and is_string(x.seat) end) or #study.seats == 0 then
      bad("\"players\" wants the seats, each {side, spec, seat}")
    end
  end
  if #study.sides == 2 then
    local most = math.min(study.sides[1].completed, study.sides[2].completed)
    lab_pairs.check(study.pairs, most, where)
  end
  return study
end

-- ---- merging ---------------------------------------------------------------------------

local function same_def(a, b) return json.encode(a) == json.encode(b) end

--- Merge studies (slices of one study: the same scenario, master seed,
--- games, sides and rule files, no shard twice) into one. Each is checked
--- first (M.check), named in messages by names[i] (its file) or "slice i".
---@param list table[]
---@param names? string[]
---@return table study
function M.merge(list, names)
  if #list == 0 then error("keel.lab.merge: nothing to merge", 2) end
  for n, b in ipairs(list) do M.check(b, "lab merge: " .. (names and names[n] or ("slice " .. n))) end
  local a = list[1]
  local out = {
    scenario = a.scenario, games = a.games, master = a.master, shards = a.shards, have = {},
    orders = a.orders, outcomes = a.outcomes, sides = {}, mode = a.mode, seats = a.seats, swap = a.swap,
    steps = a.steps, pairs = #a.sides == 2 and lab_pairs.new() or nil,
  }
  for i, s in ipairs(a.sides) do out.sides[i] = new_side(s) end
  local have = {}
  for n, b in ipairs(list) do
    local function refuse(what)
      error(("lab merge: %s: %s"):format(names and names[n] or ("slice " .. n), what), 0)
    end
    if b.scenario.hash ~= a.scenario.hash then refuse("another scenario (or the scenario file changed)") end
    if b.games ~= a.games then refuse(("a study of %d games, not %d"):format(b.games, a.games)) end
    if b.master ~= a.master then refuse(("master seed %d, not %d"):format(b.master, a.master)) end
    if b.shards ~= a.shards then refuse(("cut in %d shards, not %d"):format(b.shards, a.shards)) end
    if #b.sides ~= #a.sides then refuse("another number of sides") end
    if not same_def(b.orders, a.orders) or not same_def(b.outcomes, a.outcomes) then
      refuse("other orders or outcomes (the scenario changed)")
    end
    if b.mode ~= a.mode or not same_def(b.seats, a.seats) or b.swap ~= a.swap or b.steps ~= a.steps then
      refuse("played by other players (or scripted against players, or with other seats)")
    end
    if b.pairs then lab_pairs.merge(out.pairs, b.pairs) end
    for _, i in ipairs(b.have) do
      if have[i] then refuse(("shard %d/%d is there twice"):format(i, a.shards)) end
      have[i] = true
      out.have[#out.have + 1] = i
    end
    for k, s in ipairs(b.sides) do
      local o = out.sides[k]
      if s.name ~= o.name or not same_def(s.variants, o.variants) or not same_def(s.rule_keys, o.rule_keys)
         or not same_def(s.row_keys, o.row_keys) then
        refuse(("side %d is %s with %s, not %s with %s"):format(k, s.name, json.encode(s.variants), o.name, json.encode(o.variants)))
      end
      if s.rules_hash and o.rules_hash and s.rules_hash ~= o.rules_hash then
        refuse(("side %s played other rule files (rules hash %s, not %s)"):format(s.name, s.rules_hash, o.rules_hash))
      end
      o.rules_hash = o.rules_hash or s.rules_hash
      o.played, o.completed = o.played + s.played, o.completed + s.completed
      for _, f in ipairs(s.failures) do o.failures[#o.failures + 1] = f end
      for i = 1, math.max(#o.met, #s.met) do o.met[i] = (o.met[i] or 0) + (s.met[i] or 0) end
      for name, h in pairs(s.outcomes) do
        local oh = o.outcomes[name] or {}
        o.outcomes[name] = oh
        for key, c in pairs(h) do oh[key] = (oh[key] or 0) + c end
      end
      for _, what in ipairs { "rules", "rows" } do
        for key, e in pairs(s[what]) do
          local oe = o[what][key] or { games = 0, sum = 0, sumsq = 0 }
          o[what][key] = oe
          oe.games, oe.sum, oe.sumsq = oe.games + e.games, oe.sum + e.sum, oe.sumsq + e.sumsq
        end
      end
    end
  end
  sort(out.have)
  for _, s in ipairs(out.sides) do
    sort(s.failures, function(x, y) return x.game < y.game end)
  end
  return out
end

--- Is every shard of the study there?
function M.is_complete(study)
  return #study.have == study.shards
end

-- ---- the report ------------------------------------------------------------------------

local R = stats.round

local function rate_entry(k, n)
  local lo, hi = stats.wilson(k, n)
  return { count = k, n = n, rate = n > 0 and R(k / n) or nil, lo = R(lo), hi = R(hi) }
end

local function prop_diff(a, b)
  local z, p = stats.two_proportions(a.count, a.n, b.count, b.n)
  if not z then return nil end
  return { delta = R(b.count / b.n - a.count / a.n), test = "two-proportion z", z = R(z), p = R(p),
           significant = p < stats.ALPHA }
end

local function mean_entry(n, sum, sumsq)
  local mean, var, lo, hi = stats.mean_ci(n, sum, sumsq)
  return { n = n, mean = R(mean), sd = var and R(math.sqrt(var)) or nil, lo = R(lo), hi = R(hi),
           _mean = mean, _var = var }
end

local function mean_diff(a, b)
  if not a._var or not b._var then return nil end
  local t, df, p = stats.welch(a.n, a._mean, a._var, b.n, b._mean, b._var)
  if not t then return nil end
  if t == math.huge or t == -math.huge then t = nil end
  return { delta = R(b._mean - a._mean), test = "Welch t", t = R(t), df = R(df), p = R(p),
           significant = p < stats.ALPHA }
end

local function strip(e) e._mean, e._var = nil, nil; return e end

-- the value keys of an outcome over every side, in order: null, numbers by
-- value, then the rest (strings, booleans) by their JSON text
local function value_order(keys)
  local list = {}
  for k in pairs(keys) do list[#list + 1] = k end
  local function rank(k)
    if k == "null" then return 0 end
    if tonumber(k) then return 1 end
    return 2
  end
  sort(list, function(x, y)
    local rx, ry = rank(x), rank(y)
    if rx ~= ry then return rx < ry end
    if rx == 1 then
      local nx, ny = tonumber(x), tonumber(y)
      if nx ~= ny then return nx < ny end
    end
    return x < y
  end)
  return list
end

--- The report of a study, derived from its statistics: expectations,
--- outcomes, rules and rows, each side's figures with 95% intervals, and
--- with two sides the difference (variant minus base), its test and p.
---@param study table
---@return table report
function M.report(study)
  local sides = study.sides
  local two = #sides == 2
  local rep = { expectations = {}, outcomes = {}, rules = {}, rows = {}, failures = {} }
  if two then rep.paired, rep.comparisons = lab_pairs.report(study) end
  rep.sequential = study.sequential
  -- (players play no orders of the scenario: no expectations to meet)
  for i, o in ipairs(study.mode ~= "players" and study.orders or {}) do
    local e = { order = i, text = o.text, explicit = o.explicit, sides = {} }
    for k, s in ipairs(sides) do e.sides[k] = rate_entry(s.met[i] or 0, s.completed) end
    if two then e.diff = prop_diff(e.sides[1], e.sides[2]) end
    rep.expectations[i] = e
  end
  for _, d in ipairs(study.outcomes or {}) do
    local keys, numeric = {}, true
    for _, s in ipairs(sides) do
      for key in pairs(s.outcomes[d.name] or {}) do
        keys[key] = true
        if math.type(tonumber(key)) == nil or key == "null" then numeric = false end
      end
    end
    local o = { name = d.name, title = d.title, numeric = numeric, sides = {}, distribution = {} }
    -- an outcome no completed game gave a value: nothing it reads was ever written
    local any_game, written = false, false
    for _, s in ipairs(sides) do if s.completed > 0 then any_game = true end end
    for key in pairs(keys) do if key ~= "null" then written = true end end   -- (whether any: order of no account)
    o.never = any_game and not written or nil
    for _, key in ipairs(value_order(keys)) do
      local v = { value = json.decode(key), sides = {} }
      if v.value == json.null then v.value = nil end
      for k, s in ipairs(sides) do v.sides[k] = rate_entry((s.outcomes[d.name] or {})[key] or 0, s.completed) end
      if two then v.diff = prop_diff(v.sides[1], v.sides[2]) end
      o.distribution[#o.distribution + 1] = v
    end
    if numeric then
      for k, s in ipairs(sides) do
        -- sums from the histogram, in value order: the same bits however the games were cut
        local n, sum, sumsq = 0, 0, 0
        for _, key in ipairs(value_order(s.outcomes[d.name] or {})) do
          local x, c = tonumber(key), s.outcomes[d.name][key]
          n, sum, sumsq = n + c, sum + c * x, sumsq + c * x * x
        end
        o.sides[k] = mean_entry(n, sum, sumsq)
      end
      if two then o.diff = mean_diff(o.sides[1], o.sides[2]) end
      for _, e in ipairs(o.sides) do strip(e) end
    end
    rep.outcomes[#rep.outcomes + 1] = o
  end
  -- every active rule is listed, fired or not; the rows of every table that came up
  local used_tables = {}
  for _, s in ipairs(sides) do
    for key in pairs(s.rows) do used_tables[key:match("^(%S+) ")] = true end
  end
  for _, what in ipairs { "rules", "rows" } do
    local keys = {}
    for _, s in ipairs(sides) do
      for key in pairs(s[what]) do keys[key] = true end
      for _, key in ipairs(what == "rules" and s.rule_keys or s.row_keys) do
        if what == "rules" or used_tables[key:match("^(%S+) ")] then keys[key] = true end
      end
    end
    local list = sorted_keys(keys)
    if what == "rows" then   -- a table's rows in the order of their ranges (the first number in each)
      local function rank(key)
        local name, rest = key:match("^(%S+) (.*)$")
        return name or key, tonumber((rest or ""):match("%-?%d+")) or math.huge
      end
      sort(list, function(a, b)
        local na, ra = rank(a)
        local nb, rb = rank(b)
        if na ~= nb then return na < nb end
        if ra ~= rb then return ra < rb end
        return a < b
      end)
    end
    for _, key in ipairs(list) do
      local e = { key = key, sides = {} }
      for k, s in ipairs(sides) do
        local c = s[what][key] or { games = 0, sum = 0, sumsq = 0 }
        local m = mean_entry(s.completed, c.sum, c.sumsq)
        m.games = rate_entry(c.games, s.completed)
        if what == "rules" and not s[what][key] and #s.rule_keys > 0 then
          local has = false
          for _, rk in ipairs(s.rule_keys) do if rk == key then has = true break end end
          if not has then m.absent = true end   -- not a rule of this side's set
        end
        e.sides[k] = m
      end
      if two then
        e.diff = { games = prop_diff(e.sides[1].games, e.sides[2].games), mean = mean_diff(e.sides[1], e.sides[2]) }
        e.diff.significant = (e.diff.games and e.diff.games.significant) or (e.diff.mean and e.diff.mean.significant) or false
      end
      for _, m in ipairs(e.sides) do strip(m) end
      rep[what][#rep[what] + 1] = e
    end
  end
  return rep
end

--- The command that plays one game of a side alone: `keel run` (scripted)
--- or `keel play` with the game's seats (players).
function M.replay_command(study, k, seed, g)
  local players = study.mode == "players"
  local parts = { players and "keel play" or "keel run", shell_quote(study.scenario.file) }
  for _, v in ipairs(study.sides[k].variants) do parts[#parts + 1] = "--variant " .. shell_quote(v) end
  if players then
    for _, s in ipairs(M.seats_of(study, g or 1)) do parts[#parts + 1] = "--player " .. shell_quote(s.side .. "=" .. s.spec) end
    if study.steps then parts[#parts + 1] = "--steps " .. study.steps end
  end
  parts[#parts + 1] = "--seed " .. seed
  return concat(parts, " ")
end

-- ---- JSON ------------------------------------------------------------------------------

-- Arrays are marked (json.array), so that an empty one is written [] and not {}.
local arr = json.array
-- objects with keys sorted, two spaces a level, small ones on one line
local PRETTY = { pretty = true }

local function copy_list(t)
  local out = {}
  for i, v in ipairs(t) do out[i] = v end
  return out
end

local function arrays_in_report(rep)
  arr(rep.expectations); arr(rep.outcomes); arr(rep.rules); arr(rep.rows); arr(rep.failures)
  if rep.paired then arr(rep.paired) end
  for _, e in ipairs(rep.expectations) do arr(e.sides) end
  for _, o in ipairs(rep.outcomes) do
    arr(o.sides); arr(o.distribution)
    for _, v in ipairs(o.distribution) do arr(v.sides) end
  end
  for _, what in ipairs { "rules", "rows" } do for _, e in ipairs(rep[what]) do arr(e.sides) end end
end

--- The study as a JSON document: what it is, its statistics (what merge
--- reads) and its report (derived from them). The same statistics give the
--- same bytes.
---@param study table
---@return string
function M.encode(study)
  local sides = arr()
  for k, s in ipairs(study.sides) do
    local failures = arr()
    for i, f in ipairs(s.failures) do
      failures[i] = { game = f.game, seed = f.seed, kind = f.kind, order = f.order, message = f.message,
                      replay = M.replay_command(study, k, f.seed, f.game) }
    end
    local met = arr()
    for i = 1, #(study.orders or {}) do met[i] = s.met[i] or 0 end
    sides[k] = { name = s.name, variants = arr(copy_list(s.variants)), played = s.played,
                 completed = s.completed, failed = #s.failures, failures = failures, met = met,
                 outcomes = s.outcomes, rules = s.rules, rows = s.rows, rules_hash = s.rules_hash,
                 rule_keys = arr(copy_list(s.rule_keys)), row_keys = arr(copy_list(s.row_keys)) }
  end
  local orders = arr()
  for i, o in ipairs(study.orders or {}) do orders[i] = { text = o.text, explicit = o.explicit } end
  local outcomes = arr()
  for i, d in ipairs(study.outcomes or {}) do outcomes[i] = d end
  local rep = M.report(study)
  arrays_in_report(rep)
  local seats
  if study.seats then
    seats = arr()
    for i, x in ipairs(study.seats) do seats[i] = { side = x.side, spec = x.spec, seat = x.seat } end
  end
  local doc = {
    format = M.FORMAT, version = M.VERSION, keel = keel.version,
    scenario = study.scenario, games = study.games, master_seed = study.master, seeds = M.SEEDS,
    shards = study.shards, have = arr(copy_list(study.have)), complete = M.is_complete(study),
    orders = orders, outcomes = outcomes, sides = sides, report = rep,
    mode = study.mode, players = seats, swap = study.swap, steps = study.steps, pairs = study.pairs,
    sequential = study.sequential,
  }
  if M.is_complete(study) then doc.shards, doc.have = nil, nil end   -- the whole study: however it was cut
  return json.encode(doc, PRETTY) .. "\n"
end

local function need(cond, what, where)
  if not cond then error(("%s: not a keel lab result (%s)"):format(where, what), 0) end
end

--- Read a study back from the JSON M.encode wrote.
---@param text string
---@param where? string the file, for messages
---@return table study
function M.decode(text, where)
  where = where or "lab result"
  local doc, err = json.decode(text, NO_NULLS)
  need(type(doc) == "table", err or "no JSON object", where)
  need(doc.format == M.FORMAT, "no \"format\": \"keel-lab\"", where)
  need(doc.version == 1 or doc.version == M.VERSION,
    ("version %s; this keel reads versions 1 to %d"):format(tostring(doc.version), M.VERSION), where)
  local study = {
    scenario = doc.scenario, games = doc.games, master = doc.master_seed,
    shards = doc.shards or 1, have = doc.have or { 1 }, orders = doc.orders or {}, outcomes = doc.outcomes or {},
    sides = {}, mode = doc.mode or "scripted", seats = doc.players, swap = doc.swap, steps = doc.steps,
    sequential = doc.sequential,
  }
  need(type(study.scenario) == "table" and type(study.scenario.file) == "string", "no scenario", where)
  need(math.type(study.games) == "integer" and math.type(study.master) == "integer", "no games or master seed", where)
  need(doc.sides == nil or type(doc.sides) == "table", "\"sides\" is not a list", where)
  for k, s in ipairs(doc.sides or {}) do
    -- what merge copies must be there to copy (M.check says the rest)
    need(type(s) == "table", ("side %d is not an object"):format(k), where)
    for _, f in ipairs { "variants", "failures", "met" } do
      need(s[f] == nil or type(s[f]) == "table", ("side %d: %q is not a list"):format(k, f), where)
    end
    local side = new_side(s)
    side.played, side.completed, side.rules_hash = s.played, s.completed, s.rules_hash
    need(math.type(side.played) == "integer" and math.type(side.completed) == "integer", "side without counts", where)
    for i, f in ipairs(s.failures or {}) do
      side.failures[i] = type(f) == "table"
        and { game = f.game, seed = f.seed, kind = f.kind, order = f.order, message = f.message } or f
    end
    for i, c in ipairs(s.met or {}) do side.met[i] = c end
    -- an empty object reads back as an empty array: both are empty tables here
    side.outcomes, side.rules, side.rows = s.outcomes or {}, s.rules or {}, s.rows or {}
    study.sides[k] = side
  end
  need(#study.sides >= 1, "no sides", where)
  if #study.sides == 2 then
    -- a version-1 study kept no pairs: none to report
    local p = doc.pairs or lab_pairs.new()
    need(type(p) == "table", "\"pairs\" is not an object", where)
    -- an empty object reads back as an empty array: both are empty tables here
    study.pairs = { n = p.n, met = p.met or {}, cat = p.cat or {}, num = p.num or {} }
  end
  return study
end

return M

--- keel.pbem — a game played by e-mail: one text file both players pass
-- back and forth (doc/pbem.md). Its first line says what it is; the header
-- names the scenario, seed, variants, keel version and every rule file's
-- hash, and the state hash after the setup. Then, for each turn (one side's
-- part, played until another side must decide), a `turn` line, one line per
-- order with its side and the state hash after it, the reveals of sealed
-- orders the rules now show, and an `end` line with the state hash and the
-- chain hash: the hash of the turn's lines and of the chain before it.
-- Every roll follows from the seed and the orders before it, so a file is
-- checked by playing it again under the rules (M.check): the first order the
-- rules refuse, or whose state hash differs, or a broken chain, is named
-- with its line, turn and rule.
--
-- Hidden information: an order naming a unit or group another side does
-- not see in full (keel.visibility) is sealed — its text encoded, with a
-- commitment hash — and revealed when every other side sees all it names,
-- or when the game is over; the check compares reveal and commitment.
--
--   local pbem = require "keel.pbem"
--   local text = pbem.new("scenarios/suez_1942.lua", { seed = 7 })
--   local res = pbem.check(text, "game.keel")
local keel = require "keel"
local json = require "keel.json"
local scenario = require "keel.scenario"
local errors = require "keel.errors"
local sorted_keys = require("keel.keys").sorted

local kstate = keel.state
local hash_bytes, encode = kstate.hash_bytes, kstate.json

local M = {}

--- The file's first line.
M.MAGIC = "keel-pbem 1"
--- Orders one `play` takes at most before it gives up (a bot that never passes).
M.MAX_ORDERS = 5000

local NO_NULLS = { nulls = false }

-- ---- helpers ---------------------------------------------------------------------------

local function fail(fmt, ...) error(fmt:format(...), 0) end

-- hex of a string, and back
local function to_hex(s) return (s:gsub(".", function(c) return ("%02x"):format(c:byte()) end)) end
local function from_hex(h) return (h:gsub("%x%x", function(x) return string.char(tonumber(x, 16)) end)) end

-- the keystream of a salt: 8 bytes a block, hash_bytes(salt .. block number)
local function keystream_xor(salt, text)
  local out, block, k = {}, "", 0
  for i = 1, #text do
    local j = (i - 1) % 8
    if j == 0 then
      k = k + 1
      block = from_hex(hash_bytes(salt .. ":" .. k))
    end
    out[i] = string.char(text:byte(i) ~ block:byte(j + 1))
  end
  return table.concat(out)
end

-- an order as sealed text: name and order, keys sorted
local function order_text(name, order) return encode({ name = name, order = order }) end

--- The commitment to a sealed order's text.
---@param salt string
---@param text string
---@return string
function M.commitment(salt, text) return hash_bytes(salt .. "\n" .. text) end

-- the fingerprint of a game's rule files (paths and hashes, in order)
local function rules_fingerprint(game)
  local parts = {}
  for _, rf in ipairs(game.rule_files) do parts[#parts + 1] = rf[1] .. " " .. rf[2] end
  return hash_bytes(table.concat(parts, "\n")), parts
end

-- the rule of an order's refusal (set:act's error, kind, by)
local function refusal_rule(err, kind, by)
  if type(by) == "table" and by.rule then return by.rule end
  if type(err) == "table" and err.rule then return err.rule end
  if kind == "side" or kind == "phase" or kind == "over" then return "the sequence of play" end
  if kind == "params" or kind == "unknown" then return "the action's declaration" end
  return nil
end

-- the rule of the last action in a game's journal: its own, else the first
-- rule its events name
local function action_rule(game)
  local text = game:journal_text()
  local at = 1
  local from
  while true do
    local i = text:find('{"ev":"action"', at, true)
    if not i then break end
    from, at = i, i + 1
  end
  if not from then return nil end
  for l in text:sub(from):gmatch("[^\n]+") do
    local ok, e = pcall(json.decode, l, NO_NULLS)
    if ok and type(e) == "table" and type(e.rule) == "string" then return e.rule end
  end
  return nil
end

local function where_text(status)
  if status.over then return "the game is over" end
  return ("turn %s, the %s %s"):format(tostring(status.turn), tostring(status.phasing),
    tostring(status.step or status.phase))
    .. (status.window and (", %s's %s window"):format(status.window.side, status.window.title or "decision") or "")
end

-- the ids `side` sees in full: units, groups
local function seen_in_full(set, game, side)
  local v = set:view_for(game, side)
  local units, groups = {}, {}
  for _, u in ipairs(v.units) do if u.known then units[u.id] = true end end
  for _, g in ipairs(v.groups) do if g.known then groups[g.id] = true end end
  return units, groups
end

-- the units and groups an order names (by its action's parameter types)
local function named(set, name, order)
  local a = set.actions[name]
  local out = {}
  if not a or type(order) ~= "table" then return out end
  for _, k in ipairs(sorted_keys(a.def.params or {})) do
    local p, v = a.def.params[k], order[k]
    if p.type == "unit" or p.type == "group" then
      if math.type(v) == "integer" then out[#out + 1] = { p.type, v } end
    elseif p.type == "units" and type(v) == "table" then
      for _, u in ipairs(v) do if math.type(u) == "integer" then out[#out + 1] = { "unit", u } end end
    end
  end
  return out
end

-- the sides other than `side` that do not see in full all an order names
local function hidden_from(set, game, side, name, order, sides)
  local ids = named(set, name, order)
  if #ids == 0 then return {} end
  local out = {}
  for _, s in ipairs(sides) do
    if s ~= side then
      local units, groups = seen_in_full(set, game, s)
      for _, x in ipairs(ids) do
        if not (x[1] == "unit" and units or groups)[x[2]] then out[#out + 1] = s; break end
      end
    end
  end
  return out
end

-- ---- reading a file --------------------------------------------------------------------

-- Decode a file's lines: {header = table, lines = {text...}, events = {table...}}
local function parse(text, path)
  if text:sub(1, #M.MAGIC + 1) ~= M.MAGIC .. "\n" then
    local first = text:match("^[^\n]*") or ""
    if first:match("^keel%-pbem ") then
      fail("%s:1: %s: this keel reads %s", path, first, M.MAGIC)
    end
    fail("%s:1: not a keel play-by-e-mail file (its first line is not %q)", path, M.MAGIC)
  end
  local lines, events = {}, {}
  local n = 0
  for l in text:gmatch("([^\n]*)\n") do
    n = n + 1
    lines[n] = l
    if n > 1 then
      local ok, e = pcall(json.decode, l, NO_NULLS)
      if not ok or type(e) ~= "table" then fail("%s:%d: not a line of a keel game file (JSON object expected)", path, n) end
      events[n] = e
    end
  end
  if #text > 0 and text:sub(-1) ~= "\n" then fail("%s:%d: the last line has no end (a truncated file?)", path, n + 1) end
  local h = events[2]
  if not h or h.game ~= "keel-pbem" then fail("%s:2: no header line ({\"game\":\"keel-pbem\", ...})", path) end
  return { header = h, lines = lines, events = events }
end

--- Set the game of a file's header up again: the run, or an error naming
--- what cannot be set up.
local function setup(h, path, narrate)
  if type(h.scenario) ~= "string" or math.type(h.seed) ~= "integer" or type(h.variants) ~= "table" then
    fail("%s:2: the header needs \"scenario\" (a path), \"seed\" (a whole number) and \"variants\" (a list)", path)
  end
  local spec = scenario.load(h.scenario)
  local extra = {}
  for i = #(spec.variants or {}) + 1, #h.variants do extra[#extra + 1] = h.variants[i] end
  local run = scenario.start(spec, { seed = h.seed, variants = extra, narrate = narrate })
  return run
end

-- ---- a new game ------------------------------------------------------------------------

--- The text of a new game file: the scenario set up (its game started) with
--- opts.seed (else the scenario's) and opts.variants stacked on its own.
---@param scenario_path string
---@param opts? {seed?: integer, variants?: string[]}
---@return string text
function M.new(scenario_path, opts)
  opts = opts or {}
  local spec = scenario.load(scenario_path)
  local run = scenario.start(spec, { seed = opts.seed, variants = opts.variants })
  local set, game = run.set, run.game
  if not set.sequence then
    fail("%s: the scenario has no sequence of play: a game by e-mail needs sides that take turns", scenario_path)
  end
  local status = set:status(game)
  local fp, files = rules_fingerprint(game)
  local header = kstate.json_line("header", "game", "keel-pbem", "keel", keel.version, "scenario", spec.file,
    "seed", game.seed, "variants", game.variants, "sides", status.sides, "rules", fp, "rule_files", files,
    "setup", game:hash_hex())
  return M.MAGIC .. "\n" .. header .. "\n"
end

-- ---- checking a file -------------------------------------------------------------------

--- Play a game file again under the rules and check it: every order (a
--- sealed one unsealed and checked against its commitment), its state hash,
--- every reveal, every turn's chain hash, and that each turn was played
--- under the game's keel and rules. Raises an error naming the line, the
--- order, its turn and side, and the rule for the first thing that does
--- not check. Returns the game:
--- {run, header, turns = {{n, side, chain, first_action, last_action, line}},
---  orders = {{action, side, name, order, sealed, line, turn}}, sealed = {action -> entry},
---  chain, lines}
--- With opts.narrate, each order also keeps its narration (`told`: the
--- lines keel run prints), for M.show.
---@param text string
---@param path string for messages
---@param opts? {narrate?: boolean}
---@return table
function M.check(text, path, opts)
  local f = parse(text, path)
  local h = f.header
  local said
  local narr = opts and opts.narrate
    and require("keel.narrator").new { write = function(_, line) if said then said[#said + 1] = line end end }
  local ok, run = pcall(setup, h, path, narr and narr.event)
  if not ok then fail("%s:2: cannot set the game up again: %s", path, errors.format(run)) end
  local set, game = run.set, run.game
  -- the same keel and rules as the game's
  local fp, files = rules_fingerprint(game)
  if h.rules ~= fp then
    local was = {}
    for _, x in ipairs(type(h.rule_files) == "table" and h.rule_files or {}) do
      if type(x) == "string" then was[#was + 1] = x end
    end
    local diff = {}
    local now_set = {}
    for _, x in ipairs(files) do now_set[x] = true end
    local was_set = {}
    for _, x in ipairs(was) do was_set[x] = true; if not now_set[x] then diff[#diff + 1] = "in the file: " .. x end end
    for _, x in ipairs(files) do if not was_set[x] then diff[#diff + 1] = "here: " .. x end end
    fail("%s:2: the game was set up under other rules or variants than this keel sets its header's up with "
      .. "(variants %s; rule files: %s)", path, json.encode(h.variants), #diff > 0 and table.concat(diff, "; ")
      or "the header's fingerprint does not match its list")
  end
  if h.keel ~= keel.version then
    fail("%s:2: the game was set up by keel %s; this is keel %s", path, tostring(h.keel), keel.version)
  end
  if h.setup ~= game:hash_hex() then
    fail("%s:2: the state after the setup is %s in the file, %s here (scenario %s, seed %d)", path,
      tostring(h.setup), game:hash_hex(), h.scenario, h.seed)
  end
  if narr then
    narr.game, narr.board = game, run.board
    narr.offset = game:journal_count()
  end
  local res = { run = run, header = h, turns = {}, orders = {}, sealed = {}, lines = f.lines }
  local chain = hash_bytes(f.lines[2])
  local turn, block
  local n = #f.lines
  local function where(i, e, side)
    return ("%s:%d: turn %s (%s)"):format(path, i, tostring(turn and turn.n or "?"), tostring(side or (e and e.side)))
  end
  for i = 3, n do
    local e, l = f.events[i], f.lines[i]
    if e.turn ~= nil then
      if turn then fail("%s:%d: turn %s begins before turn %d ends", path, i, tostring(e.turn), turn.n) end
      if e.turn ~= #res.turns + 1 then
        fail("%s:%d: turn %s where turn %d was expected (a turn given twice, left out or out of order)", path, i,
          tostring(e.turn), #res.turns + 1)
      end
      if e.keel ~= keel.version then
        fail("%s:%d: turn %d (%s) was played by keel %s; this is keel %s", path, i, e.turn, tostring(e.side),
          tostring(e.keel), keel.version)
      end
      if e.rules ~= fp then
        fail("%s:%d: turn %d (%s) was played under other rules or variants (rule files %s) than the game's (%s)", path,
          i, e.turn, tostring(e.side), tostring(e.rules), fp)
      end
      local active = set:status(game).active
      local is_active = false
      for _, s in ipairs(active) do if s == e.side then is_active = true end end
      if not is_active then
        fail("%s:%d: turn %d is %s's, but %s (%s) is to decide then", path, i, e.turn, tostring(e.side),
          #active > 0 and table.concat(active, ", ") or "no side", where_text(set:status(game)))
      end
      turn = { n = e.turn, side = e.side, line = i, first_action = nil }
      block = { l }
    elseif e.action ~= nil then
      if not turn then fail("%s:%d: an order outside any turn", path, i) end
      local name, order = e.name, e.order
      local side = e.side
      if side ~= turn.side then
        fail("%s: order %s is %s's, in %s's turn", where(i, e), tostring(e.action), tostring(side), turn.side)
      end
      if e.sealed ~= nil then
        if type(e.sealed) ~= "string" or not e.sealed:match("^%x*$") or type(e.salt) ~= "string"
            or type(e.commit) ~= "string" then
          fail("%s: sealed order %s: \"sealed\" (hex), \"salt\" and \"commit\" expected", where(i, e), tostring(e.action))
        end
        local t = keystream_xor(e.salt, from_hex(e.sealed))
        if M.commitment(e.salt, t) ~= e.commit then
          fail("%s: sealed order %s does not match its commitment %s (the sealed text or the commitment was changed)",
            where(i, e), tostring(e.action), tostring(e.commit))
        end
        local dok, o = pcall(json.decode, t, NO_NULLS)
        if not dok or type(o) ~= "table" then fail("%s: sealed order %s: not an order", where(i, e), tostring(e.action)) end
        name, order = o.name, o.order
      end
      if type(name) ~= "string" then fail("%s: order %s names no action", where(i, e), tostring(e.action)) end
      local before = game.state:action_number()
      said = narr and {}
      local r = table.pack(set:act(game, name, order or {}, side))
      if narr then narr.flush() end
      local told = said
      said = nil
      local shown = e.sealed and "a sealed order" or ("'%s' %s"):format(name, encode(order or {}))
      if not r[1] then
        local rule = refusal_rule(r[2], r[3], r[4])
        fail("%s: the rules refuse order %s %s: %s (rule %s)", where(i, e), tostring(e.action), shown,
          type(r[2]) == "table" and errors.format(r[2]) or tostring(r[2]), tostring(rule))
      end
      local num = game.state:action_number()
      if e.action ~= num or num ~= before + 1 then
        fail("%s: order %s %s is action %d of the game (a line left out, given twice or out of order)", where(i, e),
          tostring(e.action), shown, num)
      end
      if e.hash ~= game:hash_hex() then
        fail("%s: order %s %s: state hash %s in the file, %s on replay (rule %s)", where(i, e), tostring(e.action),
          shown, tostring(e.hash), game:hash_hex(), tostring(action_rule(game) or ("none: the " .. name .. " action")))
      end
      local entry = { action = num, side = side, name = name, order = order or {}, sealed = e.sealed ~= nil,
                      line = i, turn = turn.n, salt = e.salt, commit = e.commit, told = told }
      res.orders[#res.orders + 1] = entry
      if entry.sealed then res.sealed[num] = entry end
      turn.first_action = turn.first_action or num
      turn.last_action = num
      block[#block + 1] = l
    elseif e.reveal ~= nil then
      if not turn then fail("%s:%d: a reveal outside any turn", path, i) end
      local s = res.sealed[e.reveal]
      if not s then fail("%s: reveal of order %s, which is not a sealed order before it", where(i, e), tostring(e.reveal)) end
      if s.revealed then fail("%s: order %s is revealed twice", where(i, e), tostring(e.reveal)) end
      local t = order_text(e.name, e.order or {})
      if M.commitment(tostring(e.salt), t) ~= s.commit or t ~= order_text(s.name, s.order) then
        fail("%s: the reveal of order %s (%s) does not match its commitment %s", where(i, e), tostring(e.reveal),
          s.side, s.commit)
      end
      s.revealed = turn.n
      block[#block + 1] = l
    elseif e["end"] ~= nil then
      if not turn or e["end"] ~= turn.n then fail("%s:%d: an end line with no turn %s begun", path, i, tostring(e["end"])) end
      if e.hash ~= game:hash_hex() then
        fail("%s: the end of turn %d: state hash %s in the file, %s on replay", where(i, e, turn.side), turn.n,
          tostring(e.hash), game:hash_hex())
      end
      local c = hash_bytes(chain .. "\n" .. table.concat(block, "\n") .. "\n" .. game:hash_hex())
      if e.chain ~= c then
        fail("%s: the chain hash of turn %d is %s in the file, %s from its lines and the turn before "
          .. "(a line of the turn or an earlier chain hash was changed)", where(i, e, turn.side), turn.n,
          tostring(e.chain), c)
      end
      chain = c
      turn.chain, turn.end_line = c, i
      res.turns[#res.turns + 1] = turn
      turn, block = nil, nil
    else
      fail("%s:%d: a line that is no turn, order, reveal or end", path, i)
    end
  end
  if turn then fail("%s:%d: turn %d has no end line (a truncated file?)", path, n, turn.n) end
  res.chain = chain
  res.status = set:status(game)
  return res
end

-- ---- what a side has seen --------------------------------------------------------------

--- The file beside a game file where `side` keeps the chain of the last
--- turn it played or checked: a file sent again, or with its history
--- rewritten, is refused against it.
function M.seen_path(path, side) return path .. "." .. side .. ".seen" end

--- Check a checked game against what `side` saw of it before; nil or the reason.
---@param res table from M.check
---@param path string
---@param side string
---@param to_play? boolean true: SIDE is about to play (its own file back, unplayed, is refused)
function M.check_seen(res, path, side, to_play)
  local text = keel.file.read(M.seen_path(path, side))
  if not text then return nil end
  local ok, s = pcall(json.decode, text, NO_NULLS)
  if not ok or type(s) ~= "table" or math.type(s.turn) ~= "integer" then
    return ("%s: not what keel pbem writes there"):format(M.seen_path(path, side))
  end
  local t = res.turns[s.turn]
  if not t then
    return ("%s: %s has already seen turn %d (chain %s); this file ends at turn %d: an old file sent again"):format(
      path, side, s.turn, tostring(s.chain), #res.turns)
  end
  if t.chain ~= s.chain then
    return ("%s: turn %d has chain %s here, but %s saw it as %s: the history was rewritten (a turn played again "
      .. "or a file replayed twice)"):format(path, s.turn, t.chain, side, tostring(s.chain))
  end
  if to_play and s.turn == #res.turns and s.side == side and s.played then
    return ("%s: the last turn (%d) is the one %s sent: the file came back unplayed (sent twice?)"):format(path,
      s.turn, side)
  end
  return nil
end

local function write_seen(res, path, side, played)
  local t = res.turns[#res.turns]
  if not t then return true end
  if not played then   -- a check of the turn this side sent keeps that it sent it
    local ok, s = pcall(json.decode, keel.file.read(M.seen_path(path, side)) or "", NO_NULLS)
    if ok and type(s) == "table" and s.turn == #res.turns and s.chain == t.chain and s.played then played = true end
  end
  return keel.file.write(M.seen_path(path, side), encode({ turn = #res.turns, chain = t.chain, side = side,
    played = played or false }) .. "\n")
end

-- ---- playing a turn --------------------------------------------------------------------

-- the lines of reveals due now: sealed orders whose named units and groups
-- every other side now sees in full (all of them once the game is over)
local function reveals_due(res, set, game, sides)
  local out = {}
  local over = set:status(game).over
  for _, o in ipairs(res.orders) do
    if o.sealed and not o.revealed then
      local due = over or #hidden_from(set, game, o.side, o.name, o.order, sides) == 0
      if due then
        o.revealed = true
        out[#out + 1] = kstate.json_line("reveal", "reveal", o.action, "side", o.side, "name", o.name,
          "order", o.order, "salt", o.salt)
      end
    end
  end
  return out
end

--- Play `side`'s part of a game file: orders from `next_order(set, game,
--- side)` (name, params; nil when it has none) until another side must
--- decide or the game ends. Returns the file's new text and a summary; the
--- text is not written here. Raises on a file that does not check, a side
--- not to decide now, or an order refused (nothing is changed then).
---@param text string the file's text
---@param path string
---@param side string
---@param next_order fun(set: table, game: table, side: string): string|nil, table|nil
---@return string text, table summary
function M.play(text, path, side, next_order)
  local res = M.check(text, path)
  local set, game = res.run.set, res.run.game
  local sides = res.status.sides
  local known = false
  for _, s in ipairs(sides) do if s == side then known = true end end
  if not known then fail("%s is not a side of this game (sides: %s)", tostring(side), table.concat(sides, ", ")) end
  local why = M.check_seen(res, path, side, true)
  if why then error(why, 0) end
  local status = res.status
  if status.over then fail("%s: the game is over: nothing more to play", path) end
  local active = status.active
  local mine = false
  for _, s in ipairs(active) do if s == side then mine = true end end
  if not mine then
    fail("%s: it is %s's to decide now (%s), not %s's", path, table.concat(active, ", "), where_text(status), side)
  end
  local k = #res.turns + 1
  local lines = { kstate.json_line("turn", "turn", k, "side", side, "keel", keel.version,
    "rules", res.header.rules, "at", where_text(status)) }
  local count = 0
  while true do
    local st = set:status(game)
    local still = false
    for _, s in ipairs(st.active) do if s == side then still = true end end
    if st.over or not still then break end
    if count >= M.MAX_ORDERS then
      fail("%s: %d orders played and %s is still to decide (%s): given up", path, count, side, where_text(st))
    end
    local name, params = next_order(set, game, side)
    if name == nil then
      fail("%s: no more orders, and %s is still to decide (%s); nothing written", path, side, where_text(st))
    end
    local hidden = hidden_from(set, game, side, name, params or {}, sides)
    -- the order as the journal holds it (what replay plays again)
    local order = json.decode(encode(params or {}), NO_NULLS)
    local r = table.pack(set:act(game, name, params or {}, side))
    if not r[1] then
      fail("%s: the rules refuse %s's order %d of this turn, '%s' %s: %s (rule %s); nothing written", path, side,
        count + 1, tostring(name), encode(params or {}), type(r[2]) == "table" and errors.format(r[2]) or tostring(r[2]),
        tostring(refusal_rule(r[2], r[3], r[4])))
    end
    count = count + 1
    local num = game.state:action_number()
    if #hidden > 0 then
      local t = order_text(name, order)
      local salt = hash_bytes(("%s\n%d\n%s"):format(res.chain, num, side))
      local entry = { action = num, side = side, name = name, order = order, sealed = true, salt = salt,
                      commit = M.commitment(salt, t), turn = k }
      res.orders[#res.orders + 1] = entry
      lines[#lines + 1] = kstate.json_line("order", "action", num, "side", side, "sealed", to_hex(keystream_xor(salt, t)),
        "salt", salt, "commit", entry.commit, "hidden_from", hidden, "hash", game:hash_hex())
    else
      res.orders[#res.orders + 1] = { action = num, side = side, name = name, order = order, turn = k }
      lines[#lines + 1] = kstate.json_line("order", "action", num, "side", side, "name", name, "order", order,
        "hash", game:hash_hex())
    end
  end
  for _, l in ipairs(reveals_due(res, set, game, sides)) do lines[#lines + 1] = l end
  local chain = hash_bytes(res.chain .. "\n" .. table.concat(lines, "\n") .. "\n" .. game:hash_hex())
  lines[#lines + 1] = kstate.json_line("end", "end", k, "side", side, "hash", game:hash_hex(), "chain", chain)
  local out = text .. table.concat(lines, "\n") .. "\n"
  res.turns[#res.turns + 1] = { n = k, side = side, chain = chain }
  local st = set:status(game)
  return out, { orders = count, turn = k, chain = chain, status = st, res = res }
end

--- Orders from a list: {name, params} pairs, taken in turn.
---@param list table[]
---@return function next_order, table state {used = n}
function M.from_list(list)
  local state = { used = 0 }
  return function()
    state.used = state.used + 1
    local o = list[state.used]
    if not o then return nil end
    return o[1], o[2]
  end, state
end

--- Read an orders file: one order a line, `NAME` or `NAME {JSON params}`;
--- `#` starts a comment line. Raises naming the line of a bad one.
---@param text string
---@param path string
---@return table[] {name, params, line}
function M.parse_orders(text, path)
  local out, n = {}, 0
  for l in (text .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    local s = l:match("^%s*(.-)%s*$")
    if s ~= "" and s:sub(1, 1) ~= "#" then
      local name, rest = s:match("^([%w_]+)%s*(.*)$")
      if not name then fail("%s:%d: an order is NAME or NAME {JSON parameters}, got %q", path, n, s:sub(1, 60)) end
      local params = {}
      if rest ~= "" then
        local ok, p = pcall(json.decode, rest, NO_NULLS)
        if not ok or type(p) ~= "table" then
          fail("%s:%d: the parameters of %s: a JSON object expected, got %q", path, n, name, rest:sub(1, 60))
        end
        params = p
      end
      out[#out + 1] = { name, params, n }
    end
  end
  return out
end

-- ---- telling a side what happened ------------------------------------------------------

--- What `side` is told: whose turn it is, and the orders since its last
--- turn — the other sides' sealed orders as sealed, unless revealed since.
---@param res table from M.check
---@param side string
---@return string
function M.show(res, side)
  local set, game = res.run.set, res.run.game
  local st = res.status
  local known = false
  for _, s in ipairs(st.sides) do if s == side then known = true end end
  if not known then fail("%s is not a side of this game (sides: %s)", tostring(side), table.concat(st.sides, ", ")) end
  local out = {}
  local last = 0
  for _, t in ipairs(res.turns) do if t.side == side then last = t.n end end
  local h = res.header
  out[#out + 1] = ("game: %s, seed %d%s; %d turn(s) played"):format(h.scenario, h.seed,
    #h.variants > 0 and (", variants " .. table.concat(h.variants, ", ")) or "", #res.turns)
  out[#out + 1] = last > 0 and ("since %s's turn %d:"):format(side, last)
    or ("since the start (%s has not played yet):"):format(side)
  -- the narration of each order, as keel run prints it, where the rules
  -- hide nothing from a side (it names what it names: hidden groups too)
  local narrated = not (set.queries.group_visibility or set.queries.unit_visibility)
  local any = false
  for _, o in ipairs(res.orders) do
    if o.turn > last then
      any = true
      if o.sealed and o.side ~= side and not o.revealed then
        out[#out + 1] = ("  turn %d, %s: action %d, an order hidden from %s (sealed, commitment %s)"):format(o.turn,
          o.side, o.action, side, o.commit)
      else
        out[#out + 1] = ("  turn %d, %s: action %d, %s %s%s"):format(o.turn, o.side, o.action, o.name, encode(o.order),
          o.sealed and (o.side == side and " (sealed from the others)" or " (revealed)") or "")
        if narrated then
          for _, text in ipairs(o.told or {}) do out[#out + 1] = "      " .. text:gsub("\n$", "") end
        end
      end
    end
  end
  if not any then out[#out + 1] = "  nothing" end
  -- sealed orders revealed since (the rules now show what they named)
  for _, o in ipairs(res.orders) do
    if o.sealed and o.revealed and o.revealed > last and o.turn <= last and o.side ~= side then
      out[#out + 1] = ("  revealed in turn %d: %s's action %d was %s %s"):format(o.revealed, o.side, o.action,
        o.name, encode(o.order))
    end
  end
  local v = set:view_for(game, side)
  local full, unknown = 0, 0
  for _, g in ipairs(v.groups) do if g.known then full = full + 1 else unknown = unknown + 1 end end
  out[#out + 1] = ("%s sees %d unit(s) listed, %d group(s) in full and %d as unknown counters"):format(side, #v.units,
    full, unknown)
  if st.over then
    local r = st.result
    out[#out + 1] = ("the game is over: %s (%s)"):format(r.winner and ("winner " .. r.winner) or "a draw",
      tostring(r.reason))
  else
    out[#out + 1] = ("now: %s; to decide: %s%s"):format(where_text(st), table.concat(st.active, ", "),
      (function() for _, s in ipairs(st.active) do if s == side then return " (you)" end end return "" end)())
  end
  return table.concat(out, "\n") .. "\n"
end

M.where_text = where_text
M.write_seen = write_seen

return M

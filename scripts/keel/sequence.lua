--- keel.sequence — the sequence of play: game turns, player-turns, phases
-- and steps declared as data, run by the runtime the same way for every
-- family; whose decision it is at every point; decision windows a rule
-- opens for a side; the game's length, scores and victory conditions, and
-- its result.
--
-- A family declares the sequence its chapter implies (`sequence = {...}`
-- in its manifest); a scenario supplies the rest or overrides any field
-- (`sequence`, `turns`, `scores`, `victory`):
--
--   sequence = {
--     cite = "Rule 32 (the naval movement step of each player-turn)",
--     sides = { "Axis", "Allied" },             -- player-turns of a game turn, in order
--     turn = { start = "turn_start", ["end"] = "turn_end" },
--     player_turn = { start = "player_turn_start", ["end"] = "player_turn_end" },
--     phases = {
--       { name = "initial", start = "initial_phase" },
--       { name = "movement", start = "movement_phase",
--         steps = { { name = "naval_step", start = "naval_step_start", ["end"] = "naval_step_end",
--                     data = { step = 1 } } } },
--       { name = "reaction", start = "reaction_phase", active = "other" },
--     },
--   },
--   turns = 5,
--   scores = { Allied = { keyed = { "vp", "Allied" } } },
--   victory = { { when = "game_end", score = "Allied", at_least = 30, winner = "Allied" }, ... },
--
-- The runtime emits each start and end event with the data rules already
-- read: { side = the side whose phase it is, phasing =, turn =, phase =,
-- step =, power = } and the phase's own `data`. Its position lives in the
-- game state (globals `turn`, `phasing`, `power`, `phase`, `step`, and the
-- indices `seq_player_turn`, `seq_phase`, `seq_step`), so undo, saves and
-- replays carry it. Decision windows are the keyed map `window` ({i,
-- "side"}, {i, "actions"}, {i, "title"}, {i, "rule"}; `seq_windows` of
-- them); the result is the keyed map `result` ({"over"}, {"winner"},
-- {"reason"}, {"score", side}).
--
-- The runtime's own orders are the actions of its plumbing rule (family
-- "keel"): `start_game` (the scenario's, played when a scenario is set up)
-- and `end_phase` (the active side passes: it closes the innermost window,
-- else ends the step or phase). Actions declare who may take them (`side`:
-- "phasing" — the default —, "other", "any", "scenario" or a side's name)
-- and when (`phases`: names of phases or steps); set:act refuses an order
-- from a side that may not act now (M.may). Guide: doc/guide.md ("The
-- sequence of play").
local sorted_keys = require("keel.keys").sorted

local type, ipairs, pairs, tostring, error = type, ipairs, pairs, tostring, error
local concat = table.concat

local M = {}

--- What an action's `side` may say besides a side's name.
M.ACTION_SIDES = { phasing = true, other = true, any = true, scenario = true }
--- The runtime's orders.
M.END_PHASE, M.START_GAME = "end_phase", "start_game"
--- When victory conditions are checked.
M.WHEN = { order = true, player_turn_end = true, turn_end = true, game_end = true }

local SEQ_FIELDS = { cite = true, sides = true, turn = true, player_turn = true, phases = true }
local PHASE_FIELDS = { name = true, title = true, start = true, ["end"] = true, active = true, data = true,
                       steps = true, cite = true }
local EDGE_FIELDS = { start = true, ["end"] = true }
local ACTIVE = { phasing = true, other = true }
local VICTORY_FIELDS = { when = true, title = true, winner = true, score = true, at_least = true, at_most = true,
                         owns = true, side = true, global = true, keyed = true, equals = true, eliminated = true,
                         higher_score = true, query = true }
local TESTS = { "score", "owns", "global", "keyed", "eliminated", "higher_score", "query" }
local SCORE_FIELDS = { keyed = true, global = true, owns = true, points = true, query = true }

local show = require("keel.sandbox").show

-- ---- checking declarations -------------------------------------------------------

-- Each checker gets `bad(path, what)`, which raises with the declaration's
-- place (a manifest's file, a scenario's file:line); paths are lists.
local function sub(path, k)
  local p = { table.unpack(path) }
  p[#p + 1] = k
  return p
end

local function fields(v, path, allowed, what, bad)
  if type(v) ~= "table" then bad(path, ("%s expected, got %s"):format(what, show(v))) end
  for _, k in ipairs(sorted_keys(v)) do
    if not allowed[k] then
      bad(sub(path, k), ("unknown field (expected one of: %s)"):format(concat(sorted_keys(allowed), ", ")))
    end
  end
end

local function name_of(v, path, bad, what)
  if type(v) ~= "string" or not v:match("^[%a_][%w_]*$") then
    bad(path, ("%s: a name (letters, digits, _) expected, got %s"):format(what, show(v)))
  end
  return v
end

local function list_of(v, path, bad, what)
  if type(v) ~= "table" then bad(path, ("%s expected, got %s"):format(what, show(v))) end
  local n = #v
  for k in pairs(v) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then
      bad(path, ("%s expected, got a table with the key %s"):format(what, show(k)))
    end
  end
  return v
end

local function edge(v, path, bad)
  if v == nil then return nil end
  fields(v, path, EDGE_FIELDS, "{ start = event, [\"end\"] = event }", bad)
  return { start = v.start ~= nil and name_of(v.start, sub(path, "start"), bad, "an event") or nil,
           ["end"] = v["end"] ~= nil and name_of(v["end"], sub(path, "end"), bad, "an event") or nil }
end

local function plain_data(v, path, bad)
  if v == nil then return {} end
  if type(v) ~= "table" then bad(path, "data { name = value } expected, got " .. show(v)) end
  local out = {}
  for _, k in ipairs(sorted_keys(v)) do
    local x = v[k]
    if type(k) ~= "string" or not (type(x) == "string" or type(x) == "number" or type(x) == "boolean") then
      bad(sub(path, tostring(k)), "data holds names with numbers, strings or booleans, got " .. show(x))
    end
    out[k] = x
  end
  return out
end

local function phase(v, path, bad, names, is_step)
  fields(v, path, PHASE_FIELDS, is_step and "a step { name =, start =, ... }" or "a phase { name =, start =, ... }",
    bad)
  local p = { name = name_of(v.name, sub(path, "name"), bad, is_step and "a step's name" or "a phase's name"),
              title = v.title, cite = v.cite, data = plain_data(v.data, sub(path, "data"), bad) }
  if names[p.name] then bad(sub(path, "name"), ("%s is named twice in the sequence"):format(show(p.name))) end
  names[p.name] = true
  for _, k in ipairs { "title", "cite" } do
    if v[k] ~= nil and type(v[k]) ~= "string" then bad(sub(path, k), "a text expected, got " .. show(v[k])) end
  end
  for _, k in ipairs { "start", "end" } do
    if v[k] ~= nil then p[k] = name_of(v[k], sub(path, k), bad, "an event") end
  end
  if v.active ~= nil and not ACTIVE[v.active] then
    bad(sub(path, "active"), ('"phasing" or "other" expected, got %s'):format(show(v.active)))
  end
  p.active = v.active
  if v.steps ~= nil then
    if is_step then bad(sub(path, "steps"), "a step has no steps of its own") end
    p.steps = {}
    for i, s in ipairs(list_of(v.steps, sub(path, "steps"), bad, "a list of steps")) do
      p.steps[i] = phase(s, sub(sub(path, "steps"), i), bad, names, true)
      p.steps[i].active = p.steps[i].active or p.active
    end
    if #p.steps == 0 then p.steps = nil end
  end
  return p
end

local function sides_of(v, path, bad)
  local out = {}
  for i, s in ipairs(list_of(v, path, bad, "a list of sides (the player-turns of a game turn, in order)")) do
    if type(s) == "string" and s ~= "" then
      out[i] = { side = s }
    elseif type(s) == "table" and type(s.side) == "string" and s.side ~= "" then
      for k in pairs(s) do
        if k ~= "side" and k ~= "power" then bad(sub(path, i), "a player-turn is a side, or { side =, power = }") end
      end
      if s.power ~= nil and type(s.power) ~= "string" then bad(sub(sub(path, i), "power"), "a name expected") end
      out[i] = { side = s.side, power = s.power }
    else
      bad(sub(path, i), "a side's name, or { side =, power = }, expected, got " .. show(s))
    end
  end
  if #out == 0 then bad(path, "a game has player-turns: at least one side") end
  return out
end

--- Check a sequence declaration (a family's or a scenario's, which may
--- give only some fields): the normalized declaration.
---@param v table
---@param bad fun(path: table, what: string)
---@param path? table
---@return table
function M.check(v, bad, path)
  path = path or { "sequence" }
  fields(v, path, SEQ_FIELDS, "a sequence { sides =, phases =, ... }", bad)
  local out = { cite = v.cite }
  if v.cite ~= nil and type(v.cite) ~= "string" then bad(sub(path, "cite"), "a text expected, got " .. show(v.cite)) end
  if v.sides ~= nil then out.sides = sides_of(v.sides, sub(path, "sides"), bad) end
  out.turn = edge(v.turn, sub(path, "turn"), bad)
  out.player_turn = edge(v.player_turn, sub(path, "player_turn"), bad)
  if v.phases ~= nil then
    local names = {}
    out.phases = {}
    for i, p in ipairs(list_of(v.phases, sub(path, "phases"), bad, "a list of phases")) do
      out.phases[i] = phase(p, sub(sub(path, "phases"), i), bad, names, false)
    end
    if #out.phases == 0 then bad(sub(path, "phases"), "a sequence has at least one phase") end
  end
  return out
end

local function score_term(t, path, bad)
  fields(t, path, SCORE_FIELDS, "a score term { keyed = {map, key} | global = name | owns = {hexes} | query = name }",
    bad)
  local n = (t.keyed and 1 or 0) + (t.global and 1 or 0) + (t.owns and 1 or 0) + (t.query and 1 or 0)
  if n ~= 1 then bad(path, "one of keyed, global, owns or query expected") end
  if t.keyed ~= nil and (type(t.keyed) ~= "table" or type(t.keyed[1]) ~= "string" or t.keyed[2] == nil) then
    bad(sub(path, "keyed"), "{map, key} expected")
  end
  if t.global ~= nil and type(t.global) ~= "string" then bad(sub(path, "global"), "a global's name expected") end
  if t.query ~= nil and type(t.query) ~= "string" then bad(sub(path, "query"), "a query's name expected") end
  if t.owns ~= nil then list_of(t.owns, sub(path, "owns"), bad, "a list of hexes") end
  if t.points ~= nil and type(t.points) ~= "number" then bad(sub(path, "points"), "a number expected") end
  return t
end

--- Check a scenario's scores: side -> a term or a list of terms (summed).
function M.check_scores(v, bad, path)
  path = path or { "scores" }
  if type(v) ~= "table" then bad(path, "scores { side = term or { term, ... } } expected, got " .. show(v)) end
  local out = {}
  for _, side in ipairs(sorted_keys(v)) do
    if type(side) ~= "string" then bad(path, "sides (names) expected as keys, got " .. show(side)) end
    local t = v[side]
    local terms = {}
    if type(t) == "table" and t[1] ~= nil then
      for i, x in ipairs(t) do terms[i] = score_term(x, sub(sub(path, side), i), bad) end
    else
      terms[1] = score_term(t, sub(path, side), bad)
    end
    out[side] = terms
  end
  return out
end

--- Check a scenario's victory conditions (a list; the first met decides).
function M.check_victory(v, bad, path)
  path = path or { "victory" }
  local out = {}
  for i, c in ipairs(list_of(v, path, bad, "a list of victory conditions")) do
    local p = sub(path, i)
    fields(c, p, VICTORY_FIELDS, "a victory condition { when =, winner =, ... }", bad)
    local when = c.when or "game_end"
    if not M.WHEN[when] then
      bad(sub(p, "when"), ("one of %s expected, got %s"):format(concat(sorted_keys(M.WHEN), ", "), show(when)))
    end
    local tests = {}
    for _, k in ipairs(TESTS) do if c[k] ~= nil then tests[#tests + 1] = k end end
    if #tests ~= 1 then
      bad(p, ("one test expected (%s), got %s"):format(concat(TESTS, ", "), #tests == 0 and "none" or concat(tests, ", ")))
    end
    local test = tests[1]
    if test ~= "higher_score" and test ~= "query" and type(c.winner) ~= "string" then
      bad(sub(p, "winner"), 'the winning side (or "draw") expected, got ' .. show(c.winner))
    end
    if (test == "score" or test == "keyed") and c.at_least == nil and c.at_most == nil and c.equals == nil then
      bad(p, "a threshold expected: at_least, at_most or equals")
    end
    if test == "owns" then
      list_of(c.owns, sub(p, "owns"), bad, "a list of hexes")
      if type(c.side) ~= "string" then bad(sub(p, "side"), "the side that must own them expected") end
    end
    if test == "keyed" and (type(c.keyed) ~= "table" or type(c.keyed[1]) ~= "string" or c.keyed[2] == nil) then
      bad(sub(p, "keyed"), "{map, key} expected")
    end
    if c.title ~= nil and type(c.title) ~= "string" then bad(sub(p, "title"), "a text expected") end
    local n = {}
    for k, x in pairs(c) do n[k] = x end
    n.when, n.test, n.path = when, test, p
    out[i] = n
  end
  return out
end

--- A family's sequence with a scenario's fields over it.
function M.merge(base, over)
  if not base then return over end
  if not over then return base end
  local out = {}
  for k, x in pairs(base) do out[k] = x end
  for k, x in pairs(over) do out[k] = x end
  return out
end

-- ---- the position, as the state holds it ----------------------------------------------

local function started(game) return game:get_global("seq_phase") ~= nil end
M.is_started = started

local function over(game) return game:get_keyed("result", "over") == true end
M.is_over = over

local function is_side(seq, side)
  for _, pt in ipairs(seq.sides) do if pt.side == side then return true end end
  return false
end

local function side_names(seq)
  local out, seen = {}, {}
  for _, pt in ipairs(seq.sides) do
    if not seen[pt.side] then seen[pt.side] = true; out[#out + 1] = pt.side end
  end
  return out
end
M.side_names = side_names

-- the other side of the game (the first one that is not `side`)
local function other_of(seq, side)
  for _, pt in ipairs(seq.sides) do if pt.side ~= side then return pt.side end end
  return nil
end

-- the phase and step the game is in: their declarations (step may be nil)
local function where(seq, game)
  local pi, si = game:get_global("seq_phase"), game:get_global("seq_step")
  local ph = pi and seq.phases[pi]
  return ph, ph and si and ph.steps and ph.steps[si] or nil
end

-- the innermost open window: { side =, actions = {name = true}, list =, title =, rule = }, or nil
local function top_window(game)
  local i = game:get_global("seq_windows")
  if i == nil then return nil end   -- (the common case: one read, nothing made)
  local text = game:get_keyed("window", { i, "actions" }) or ""
  local acts, list = {}, {}
  for a in text:gmatch("[^,]+") do acts[a] = true; list[#list + 1] = a end
  return { side = game:get_keyed("window", { i, "side" }), actions = acts, list = list,
           title = game:get_keyed("window", { i, "title" }), rule = game:get_keyed("window", { i, "rule" }) }
end

--- The sides that must decide now: the innermost window's side, else the
--- side whose phase or step it is (the phasing side, or the other for a
--- phase declared `active = "other"`).
function M.active(set, game)
  local seq = set.sequence
  if not seq or not started(game) or over(game) then return {} end
  local w = top_window(game)
  if w then return { w.side } end
  local ph, st = where(seq, game)
  local phasing = game:get_global("phasing")
  local active = (st and st.active) or (ph and ph.active) or "phasing"
  if active == "other" then return { other_of(seq, phasing) } end
  return { phasing }
end

--- Where the game is, for a front-end: turn, phase, step, phasing, power,
--- active (the sides to decide), window (the innermost), over, result.
---@return table
function M.status(set, game)
  local seq = set.sequence
  local out = { over = over(game), started = seq ~= nil and started(game) }
  if seq then out.sides = side_names(seq) end
  if out.started then
    local ph, st = where(seq, game)
    out.turn, out.phasing, out.power = game:get_global("turn"), game:get_global("phasing"), game:get_global("power")
    out.phase, out.step = ph and ph.name, st and st.name
    out.turns = set.game_spec and set.game_spec.turns
    local w = top_window(game)
    if w then out.window = { side = w.side, actions = w.list, title = w.title, rule = w.rule } end
  end
  out.active = M.active(set, game)
  if out.over then out.result = M.result(game) end
  return out
end

--- The game's result, as the state holds it: { over, winner, scores, reason }.
function M.result(game)
  local scores = {}
  for i = 1, game:count_keyed("result") do
    local k, v = game:at_keyed("result", i)
    if type(k) == "table" and k[1] == "score" then scores[k[2]] = v end
  end
  return { over = over(game), winner = game:get_keyed("result", "winner"), scores = scores,
           reason = game:get_keyed("result", "reason") }
end

-- ---- who may act ---------------------------------------------------------------------

-- "the Axis naval_step (movement phase, turn 2)"
local function position_text(seq, game)
  local ph, st = where(seq, game)
  local w = top_window(game)
  local turn = game:get_global("turn")
  local text = ("the %s %s%s (turn %s)"):format(tostring(game:get_global("phasing")), st and st.name or ph.name,
    st and (" of the " .. ph.name .. " phase") or " phase", tostring(turn))
  if w then
    text = ("%s's %s window%s, in %s"):format(w.side, w.title or "decision", w.rule and (" (" .. w.rule .. ")") or "",
      text)
  end
  return text
end

-- May an action declared `def` be taken by `side` (the phasing side or
-- not) in phase `ph` (step `st`), by its declaration alone? nil, or what
-- stands against it: "side" (not that side's) or "phase" (not now).
local function declared_for(def, side, phasing, ph, st)
  local decl = def.side or "phasing"
  if decl == "scenario" or (decl == "phasing" and not phasing) or (decl == "other" and phasing)
     or (not M.ACTION_SIDES[decl] and decl ~= side) then
    return "side"
  end
  local phases = def.phases
  if phases and not (phases[ph.name] or (st and phases[st.name])) then return "phase" end
  return nil
end

--- May `side` take action `name` now? nil when yes, else the reason and
--- its kind ("side": not this side's to take now; "phase": not in this
--- phase or step; "over": the game has ended). A game not started (or a
--- set with no sequence) restricts nothing; `side` nil is the scenario's
--- own order (a recorded play's bookkeeping), which only actions declared
--- `side = "scenario"` take once the game has started.
---@return string|nil reason, string? kind
function M.may(set, game, name, side)
  local seq = set.sequence
  if not seq or not started(game) then return nil end
  local a = set.actions[name]
  local function who() return a.rule.id and ("rule " .. a.rule.id) or ("the " .. tostring(a.rule.family) .. " family") end
  if over(game) then
    return ("the game is over (%s): no order is accepted"):format(tostring(game:get_keyed("result", "reason"))),
      "over"
  end
  local decl = a.def.side or "phasing"
  if side == nil then
    if decl == "scenario" then return nil end
    return ("%s (%s) is a side's order: say which side gives it (sides: %s)"):format(name, who(),
      concat(side_names(seq), ", ")), "side"
  end
  if type(side) ~= "string" or not is_side(seq, side) then
    return ("%s is not a side of this game (sides: %s)"):format(show(side), concat(side_names(seq), ", ")), "side"
  end
  if decl == "scenario" then
    return ("%s (%s) is the scenario's own order, not a side's"):format(name, who()), "side"
  end
  local active = M.active(set, game)
  local ok = false
  for _, s in ipairs(active) do if s == side then ok = true end end
  if not ok then
    return ("it is %s: %s is to act, not %s"):format(position_text(seq, game), concat(active, ", "), side), "side"
  end
  local w = top_window(game)
  if w then
    if name == M.END_PHASE or w.actions[name] then return nil end
    return ("%s (%s) is not open in %s: %s, or end_phase to close it"):format(name, who(), position_text(seq, game),
      concat(w.list, ", ")), "phase"
  end
  if name == M.END_PHASE then return nil end
  local ph, st = where(seq, game)
  local kind = declared_for(a.def, side, side == game:get_global("phasing"), ph, st)
  if kind == "side" then
    local whose = decl == "phasing" and "the phasing side's" or decl == "other" and "the non-phasing side's"
      or (decl .. "'s")
    return ("%s (%s) is %s order; it is %s"):format(name, who(), whose, position_text(seq, game)), "side"
  elseif kind == "phase" then
    return ("%s (%s) is taken in %s, not in %s"):format(name, who(), concat(sorted_keys(a.def.phases), ", "),
      position_text(seq, game)), "phase"
  end
  return nil
end

--- The names of the actions `side` may take now, sorted (every action when
--- the sequence restricts nothing).
function M.allowed(set, game, side)
  local out = {}
  for _, name in ipairs(sorted_keys(set.actions)) do
    if not M.may(set, game, name, side) then out[#out + 1] = name end
  end
  return out
end

-- ---- scores and victory -------------------------------------------------------------------

local function hex_of(game, h)
  if math.type(h) == "integer" then return h end
  return game.board and game.board:hex(h) or nil
end

local function term_value(ctx, side, t)
  local game = ctx.game
  if t.keyed then return tonumber(game:get_keyed(t.keyed[1], t.keyed[2])) or 0 end
  if t.global then return tonumber(game:get_global(t.global)) or 0 end
  if t.query then return tonumber(ctx:query(t.query, side)) or 0 end
  local n = 0
  for _, h in ipairs(t.owns) do
    local id = hex_of(game, h)
    if id and game:get_owner(id) == side then n = n + (t.points or 1) end
  end
  return n
end

local function scores_of(ctx, spec)
  local out = {}
  for _, side in ipairs(sorted_keys(spec.scores or {})) do
    local total = 0
    for _, t in ipairs(spec.scores[side]) do total = total + term_value(ctx, side, t) end
    out[side] = total
  end
  return out
end

local function compare(v, c)
  if c.equals ~= nil then return v == c.equals end
  if type(v) ~= "number" then return false end
  if c.at_least ~= nil and v < c.at_least then return false end
  if c.at_most ~= nil and v > c.at_most then return false end
  return true
end

local function in_play(game, side)
  for _, u in ipairs(game:units()) do
    if game:get(u, "side") == side then
      local loc = game:get(u, "loc")
      if loc ~= "dead" then return true end
    end
  end
  return false
end

-- Does condition c hold? winner (a side, or "draw"), or nil.
local function met(ctx, c, scores)
  local game = ctx.game
  local t = c.test
  if t == "score" then return compare(scores[c.score], c) and c.winner or nil end
  if t == "keyed" then return compare(game:get_keyed(c.keyed[1], c.keyed[2]), c) and c.winner or nil end
  if t == "global" then return compare(game:get_global(c.global), c) and c.winner or nil end
  if t == "eliminated" then return not in_play(game, c.eliminated) and c.winner or nil end
  if t == "owns" then
    for _, h in ipairs(c.owns) do
      local id = hex_of(game, h)
      if not id or game:get_owner(id) ~= c.side then return nil end
    end
    return c.winner
  end
  if t == "higher_score" then
    local best, top, tie = nil, nil, false
    for _, side in ipairs(sorted_keys(scores)) do
      local v = scores[side]
      if top == nil or v > top then best, top, tie = side, v, false
      elseif v == top then tie = true end
    end
    if not best then return nil end
    return tie and "draw" or best
  end
  if t == "query" then
    local w, why = ctx:query(c.query)
    if w ~= nil and type(w) ~= "string" then error(("query %s: a side, \"draw\" or nil expected"):format(c.query), 0) end
    return w, why
  end
end

local function where_text(spec, c)
  local line = spec.lines and spec.lines[concat(c.path, ".")]
  return spec.file and (line and ("%s:%d"):format(spec.file, line) or spec.file) or concat(c.path, ".")
end

-- End the game: the result in the state, the news to the rules.
local function finish(ctx, winner, reason, scores)
  local game = ctx.game
  game:set_keyed("result", "over", true)
  if winner ~= nil and winner ~= "draw" then game:set_keyed("result", "winner", winner) end
  game:set_keyed("result", "reason", reason)
  for _, side in ipairs(sorted_keys(scores)) do game:set_keyed("result", { "score", side }, scores[side]) end
  ctx:say("the game is over: %s (%s)", winner == "draw" and "a draw" or (winner .. " wins"), reason)
  ctx:emit("game_end", { winner = winner ~= "draw" and winner or nil, reason = reason })
end

-- Check the conditions checked `when`; true when the game ended.
local function check_victory(ctx, spec, when)
  if over(ctx.game) then return true end
  local list = spec.victory or {}
  local scores
  for _, c in ipairs(list) do
    if c.when == when then
      scores = scores or scores_of(ctx, spec)
      local w, why = met(ctx, c, scores)
      if w ~= nil then
        local reason = ("%s%s (%s)"):format(c.title or (c.test .. " condition"), why and (": " .. tostring(why)) or "",
          where_text(spec, c))
        finish(ctx, w, reason, scores)
        return true
      end
    end
  end
  if when == "game_end" then
    scores = scores or scores_of(ctx, spec)
    finish(ctx, "draw", ("the last turn (%d) ended and no victory condition was met (%s)"):format(
      ctx.game:get_global("turn"), spec.file or "the scenario"), scores)
    return true
  end
  return false
end

-- ---- running the sequence ------------------------------------------------------------------

-- the data of a start or end event: who, when, and the declaration's own
local function event_data(game, seq, ph, st, extra)
  local phasing = game:get_global("phasing")
  local active = (st and st.active) or (ph and ph.active) or "phasing"
  local data = { side = active == "other" and other_of(seq, phasing) or phasing, phasing = phasing,
                 turn = game:get_global("turn"), power = game:get_global("power"),
                 phase = ph and ph.name or nil, step = st and st.name or nil }
  for k, v in pairs(ph and ph.data or {}) do data[k] = v end
  for k, v in pairs(st and st.data or {}) do data[k] = v end
  for k, v in pairs(extra or {}) do data[k] = v end
  return data
end

local function emit(ctx, ev, data) if ev then ctx:emit(ev, data) end end

-- enter phase i (and its first step)
local function enter_phase(ctx, seq, i)
  local game = ctx.game
  local ph = seq.phases[i]
  game:set_global("seq_phase", i)
  game:set_global("phase", ph.name)
  game:set_global("seq_step", nil)
  game:set_global("step", nil)
  emit(ctx, ph.start, event_data(game, seq, ph, nil))
  if ph.steps then
    game:set_global("seq_step", 1)
    game:set_global("step", ph.steps[1].name)
    emit(ctx, ph.steps[1].start, event_data(game, seq, ph, ph.steps[1]))
  end
end

local function enter_player_turn(ctx, seq, k)
  local game = ctx.game
  local pt = seq.sides[k]
  game:set_global("seq_player_turn", k)
  game:set_global("phasing", pt.side)
  game:set_global("power", pt.power)
  ctx:say("turn %d: the %s player-turn%s", game:get_global("turn"), pt.side, pt.power and (" (" .. pt.power .. ")") or "")
  if seq.player_turn then emit(ctx, seq.player_turn.start, event_data(game, seq, nil, nil)) end
  enter_phase(ctx, seq, 1)
end

local function enter_turn(ctx, seq, n)
  local game = ctx.game
  game:set_global("turn", n)
  if seq.turn then emit(ctx, seq.turn.start, { turn = n }) end
  enter_player_turn(ctx, seq, 1)
end

-- Move on from the step or phase the game is in, to the next place where
-- someone decides (or the end of the game).
local function advance(ctx, set)
  local seq, spec, game = set.sequence, set.game_spec or {}, ctx.game
  local ph, st = where(seq, game)
  local pi, si = game:get_global("seq_phase"), game:get_global("seq_step")
  if st then
    emit(ctx, st["end"], event_data(game, seq, ph, st))
    if ph.steps[si + 1] then
      game:set_global("seq_step", si + 1)
      game:set_global("step", ph.steps[si + 1].name)
      emit(ctx, ph.steps[si + 1].start, event_data(game, seq, ph, ph.steps[si + 1]))
      return
    end
  end
  emit(ctx, ph["end"], event_data(game, seq, ph, nil))
  if seq.phases[pi + 1] then return enter_phase(ctx, seq, pi + 1) end
  -- the player-turn ends
  local k = game:get_global("seq_player_turn")
  if seq.player_turn then emit(ctx, seq.player_turn["end"], event_data(game, seq, nil, nil)) end
  if check_victory(ctx, spec, "player_turn_end") then return end
  if seq.sides[k + 1] then return enter_player_turn(ctx, seq, k + 1) end
  -- the game turn ends
  local n = game:get_global("turn")
  if seq.turn then emit(ctx, seq.turn["end"], { turn = n }) end
  if check_victory(ctx, spec, "turn_end") then return end
  if spec.turns and n >= spec.turns then
    check_victory(ctx, spec, "game_end")
    return
  end
  enter_turn(ctx, seq, n + 1)
end

-- Does the side that must decide now have any action of its own here
-- (besides passing)? By the actions' declarations, not their legality.
local function has_decision(set, game)
  local active = M.active(set, game)
  if #active == 0 then return true end   -- over: nothing more to skip
  if game:get_global("seq_windows") ~= nil then return true end
  local side = active[1]
  local phasing = side == game:get_global("phasing")
  local ph, st = where(set.sequence, game)
  -- the answer depends on the declarations alone: kept per set (its
  -- actions table: a set finalized again has another) and position
  local cache = set._decisions
  if not cache or cache.actions ~= set.actions then
    cache = { actions = set.actions }
    set._decisions = cache
  end
  local key = ("%s\0%s\0%s\0%s"):format(ph.name, st and st.name or "", side, phasing and "p" or "o")
  local v = cache[key]
  if v == nil then
    v = false
    for name, a in pairs(set.actions) do   -- (any order: the answer is whether one exists)
      if name ~= M.END_PHASE and not declared_for(a.def, side, phasing, ph, st) then v = true; break end
    end
    cache[key] = v
  end
  return v
end

-- advance, then on past the phases and steps where the side to decide has
-- no action of its own (a whole game turn of them at most: a sequence
-- where no one ever decides stops at its next turn)
local function pass_on(ctx, set)
  advance(ctx, set)
  local game = ctx.game
  local limit = 0
  for _, ph in ipairs(set.sequence.phases) do limit = limit + (ph.steps and #ph.steps or 1) end
  limit = limit * #set.sequence.sides
  while limit > 0 and not over(game) and not has_decision(set, game) do
    advance(ctx, set)
    limit = limit - 1
  end
end

--- A rule opens a decision window for a side (ctx:open_window): only the
--- listed actions, and end_phase to close it, are that side's until it
--- closes; the sequence then goes on where it was.
function M.open_window(ctx, opts, rule_id)
  if type(opts) ~= "table" or type(opts.side) ~= "string" then
    error("open_window { side =, actions = { ... }, title = } expected", 3)
  end
  local list = {}
  for i, a in ipairs(opts.actions or {}) do
    if type(a) ~= "string" or a:find(",", 1, true) then error(("open_window: actions[%d] must be an action's name"):format(i), 3) end
    list[i] = a
  end
  if opts.title ~= nil and type(opts.title) ~= "string" then error("open_window: title must be a text", 3) end
  local game = ctx.game
  local n = (game:get_global("seq_windows") or 0) + 1
  game:set_global("seq_windows", n)
  game:set_keyed("window", { n, "side" }, opts.side)
  game:set_keyed("window", { n, "actions" }, concat(list, ","))
  if opts.title then game:set_keyed("window", { n, "title" }, opts.title) end
  if rule_id then game:set_keyed("window", { n, "rule" }, rule_id) end
  return n
end

--- Close the innermost window (ctx:close_window, or its side's end_phase).
function M.close_window(ctx)
  local game = ctx.game
  local n = game:get_global("seq_windows") or 0
  if n == 0 then return false end
  for _, k in ipairs { "side", "actions", "title", "rule" } do game:set_keyed("window", { n, k }, nil) end
  game:set_global("seq_windows", n > 1 and n - 1 or nil)
  return true
end

-- the runtime's plumbing rule: its two orders
local function runtime_rule(set)
  return {
    title = "The sequence of play (keel's runtime)",
    actions = {
      [M.START_GAME] = {
        title = "start the game: its first turn, player-turn and phase",
        side = "scenario",
        legal = function(ctx)
          if started(ctx.game) then return "the game has started already" end
        end,
        effect = function(ctx)
          ctx:emit("game_start", {})
          enter_turn(ctx, set.sequence, 1)
          local game = ctx.game
          if not has_decision(set, game) then pass_on(ctx, set) end
        end,
      },
      [M.END_PHASE] = {
        title = "pass: close the decision window, or end the step or phase",
        side = "any",
        legal = function(ctx)
          if not started(ctx.game) then return "the game has not started" end
        end,
        effect = function(ctx)
          local game = ctx.game
          local top = top_window(game)
          if top then
            M.close_window(ctx)
            ctx:say("%s closes the %s window", tostring(top.side), top.title or "decision")
            if not has_decision(set, game) then pass_on(ctx, set) end
            return
          end
          pass_on(ctx, set)
        end,
      },
    },
  }
end

--- Give a rule set its sequence of play: the last family's that declares
--- one, with the scenario's fields over it (spec: {sequence =, turns =,
--- scores =, victory =, file =, lines =}, checked), and the runtime's
--- orders. A game plays its sequence when its scenario declares one (at
--- least its `sides`) or a family's names its sides; otherwise nothing
--- changes: a scripted scenario (a test's) sends its own events.
---@param set table a registry being loaded (keel.rules)
---@param spec? table
function M.install(set, spec)
  spec = spec or {}
  local base
  for _, name in ipairs(set.family_order) do
    local f = set.families[name]
    if f.sequence then base = f.sequence end
  end
  if not (spec.sequence or (base and base.sides)) then return end
  local seq = M.merge(base, spec.sequence)
  local file = spec.file or "the rule set"
  if not seq.phases then error(file .. ": the sequence of play has no phases (sequence.phases)", 0) end
  if not seq.sides then
    error(file .. ": the sequence of play names no sides (sequence.sides: the player-turns of a game turn)", 0)
  end
  local function known(ev, what)
    if ev and not set.event_names[ev] then
      error(("%s: %s: unknown event '%s' (a family declares its events in its manifest)"):format(file, what, ev), 0)
    end
  end
  for _, e in ipairs { "turn", "player_turn" } do
    if seq[e] then known(seq[e].start, "sequence." .. e); known(seq[e]["end"], "sequence." .. e) end
  end
  for _, ph in ipairs(seq.phases) do
    known(ph.start, "phase " .. ph.name); known(ph["end"], "phase " .. ph.name)
    for _, st in ipairs(ph.steps or {}) do known(st.start, "step " .. st.name); known(st["end"], "step " .. st.name) end
  end
  set.sequence = seq
  set.game_spec = spec
  -- the game's sides, a list and a lookup (keel.orders checks a "side" parameter against them)
  local names = side_names(seq)
  for _, n in ipairs(names) do names[n] = true end
  set.side_names = names
  local r = set:_normalize(runtime_rule(set), nil, { file = "keel.sequence", line = 0 })
  r.family = "keel"
  set:_add_rule(r)
  if spec.victory then
    local any_order = false
    for _, c in ipairs(spec.victory) do if c.when == "order" then any_order = true end end
    if any_order then
      set._after_order = { rule = r, fn = function(ctx) check_victory(ctx, spec, "order") end }
    end
  end
end

return M

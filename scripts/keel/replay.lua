--- keel.replay — play a game again from its journal and compare, step by
-- step: the engine of `keel replay` and `keel view` (and the fuzz target
-- for journals). A journal's header names the scenario, seed, variants and
-- limits; each order is played as keel run played it (set:act: parameters,
-- legality, vetoes, effect), each undo and redo, and after each one the
-- state hash and the events are compared with the journal. The first order
-- the current rules refuse, or the first difference, ends the replay with
-- a report that names the action, its order and the rule (doc/journal.md).
--
--   local rep = require("keel.replay").replay("game.jsonl")
--   if not rep.ok then print(rep.message) end
local keel = require "keel"
local json = require "keel.json"
local orders = require "keel.orders"
local game_mod = require "keel.game"
local scenario = require "keel.scenario"
local errors = require "keel.errors"
local limits = require "keel.limits"

local M = {}

-- JSON null read as nil in events (a field given as null is absent)
local NO_NULLS = { nulls = false }

local function show(v)
  if type(v) == "string" then return ("%q"):format(#v > 40 and (v:sub(1, 40) .. "...") or v) end
  if type(v) == "number" or type(v) == "boolean" or v == nil then return tostring(v) end
  return "a " .. type(v)
end

-- What each kind of event must carry for replay to use it: field -> check.
local function whole(v) return math.type(v) == "integer" and v >= 1 end
local function hash(v) return type(v) == "string" and v:match("^%x+$") ~= nil and #v == 16 end
local function opt_string(v) return v == nil or type(v) == "string" end
local function opt_table(v) return v == nil or type(v) == "table" end
local WANT = {
  whole = "a whole number >= 1", hash = "a state hash (16 hex digits)",
  opt_string = "a string", opt_table = "an object", string = "a string",
}
local FIELDS = {
  action = { { "action", whole, "whole" }, { "name", function(v) return type(v) == "string" end, "string" },
             { "order", opt_table, "opt_table" }, { "rule", opt_string, "opt_string" } },
  ["end"] = { { "action", whole, "whole" }, { "hash", hash, "hash" } },
  undo = { { "n", whole, "whole" }, { "hash", hash, "hash" } },
  redo = { { "n", whole, "whole" }, { "hash", hash, "hash" } },
  rollback = { { "name", opt_string, "opt_string" }, { "order", opt_table, "opt_table" },
               { "rule", opt_string, "opt_string" }, { "error", opt_string, "opt_string" } },
  rule_file = { { "path", function(v) return type(v) == "string" end, "string" }, { "hash", opt_string, "opt_string" } },
}

local function decode(line, where)
  local ok, v, err = pcall(json.decode, line, NO_NULLS)
  if not ok then v, err = nil, tostring(v) end
  if type(v) ~= "table" or type(v.ev) ~= "string" then
    error(("%s: not a journal event (%s)"):format(where, err or "no \"ev\" field"), 0)
  end
  for _, f in ipairs(FIELDS[v.ev] or {}) do
    if not f[2](v[f[1]]) then
      error(("%s: field %q of the %q event: %s expected, got %s"):format(where, f[1], v.ev, WANT[f[3]],
        show(v[f[1]])), 0)
    end
  end
  return v
end

-- The header's fields that make the game what it is: the scenario's file,
-- seed and variants, and the limits it was played under.
local HEADER_KEYS = { "scenario", "seed", "variants", "limits" }

local function check_header(path, header)
  if header.ev ~= "header" or header.format ~= "keel-journal" then
    error(path .. ":1: not a keel journal (no header line)", 0)
  end
  if header.version ~= game_mod.JOURNAL_VERSION then
    error(("%s:1: journal version %s; this keel replays version %d"):format(path, show(header.version),
      game_mod.JOURNAL_VERSION), 0)
  end
  if type(header.scenario) ~= "string" then
    error(path .. ":1: the journal names no scenario; keel replay plays games set up from a scenario "
      .. "(keel run SCENARIO --journal FILE)", 0)
  end
  if math.type(header.seed) ~= "integer" then
    error(("%s:1: \"seed\" of the header: a whole number expected, got %s"):format(path, show(header.seed)), 0)
  end
  -- a journal written after a load starts at the save, not at the setup:
  -- there is nothing before its first order to play again
  if header.loaded ~= nil then
    error(("%s:1: this journal goes on from a save (%s): it holds the game from that save on, not its "
      .. "setup, so keel replay cannot play it again; replay the journal of the whole game"):format(path,
      show(header.loaded)), 0)
  end
  local v = header.variants
  local ok = v == nil or type(v) == "table"
  for i, x in pairs(ok and v or {}) do
    if math.type(i) ~= "integer" or type(x) ~= "string" then ok = false end
  end
  if not ok then
    error(("%s:1: \"variants\" of the header: a list of file names expected"):format(path), 0)
  end
  local l = header.limits
  if l ~= nil and not (type(l) == "table" and (l.cpu == nil or (type(l.cpu) == "number" and l.cpu > 0 and l.cpu <= limits.MAX_CPU))
      and (l.memory == nil or (math.type(l.memory) == "integer" and l.memory > 0))) then
    error(("%s:1: \"limits\" of the header: { cpu = seconds, memory = bytes } expected"):format(path), 0)
  end
end

--- The limits a journal's game was played under: its header's, else the
--- defaults (keel.limits.DEFAULT); opts.cpu and opts.memory (bytes) win.
---@param header table
---@param opts? {cpu?: number, memory?: integer}
---@return {cpu: number, memory: integer}
function M.limits_of(header, opts)
  opts = opts or {}
  return limits.resolve({ cpu = opts.cpu, memory = opts.memory }, type(header) == "table" and header.limits or nil)
end

--- The header of a journal's text (its first line, decoded), for the
--- limits to play it under before it is replayed; nil when it is not one
--- (M.replay says why).
---@param text string
---@return table|nil
function M.header_of(text)
  local ok, h = pcall(json.decode, text:match("^[^\n]*"))
  return ok and type(h) == "table" and h or nil
end

--- Replay a journal; returns a report table:
--- {ok=bool, actions=n, steps=n, message=string, changed_files={...},
---  kind=("refused"|"action"|"error"|"rollback"|"undo"|"redo"|"setup"|"header")?,
---  action=number?, name=string?, rule=string?, line=number?}
--- Each order plays as keel run played it (set:act: parameters, legality,
--- vetoes, effect; set:emit for events), under the CPU limit of the
--- journal's header (the caller's Lua state sets the memory limit: keel
--- replay plays in a sandbox state made with it).
--- Hooks for a caller that watches the game as it is replayed (keel view):
--- opts.narrate goes to the scenario's rule set (keel.narrator's event);
--- opts.on_start(game, run) runs after the setup is checked; opts.on_step(e,
--- game) after each action, undo, redo or rollback that matched the journal
--- (e: its journal event).
---@param path string
---@param opts? {narrate?: function, on_start?: function, on_step?: function, cpu?: number, text?: string}
function M.replay(path, opts)
  opts = opts or {}
  local text, err = opts.text, nil
  if not text then text, err = keel.file.read(path) end
  if not text then error(tostring(err), 0) end   -- the reason names the path
  local old = {}
  for l in text:gmatch("[^\n]+") do old[#old + 1] = l end
  if #old == 0 then error(path .. ": empty journal", 0) end
  local ev = {}
  for i, l in ipairs(old) do ev[i] = decode(l, path .. ":" .. i) end
  local header = ev[1]
  check_header(path, header)
  local lim = M.limits_of(header, opts)
  local saved = keel.sandbox.limits { cpu = lim.cpu }
  local ok, rep = pcall(M._replay, path, opts, old, ev, header)
  keel.sandbox.limits { cpu = saved.cpu }
  if not ok then error(rep, 0) end
  return rep
end

function M._replay(path, opts, old, ev, header)
  local rep = { ok = true, actions = 0, steps = 0, changed_files = {}, header = header }
  -- the scenario runs in the sandbox, and only a scenario is set up
  local lok, spec = pcall(scenario.load, header.scenario)
  if not lok then
    error(("%s:1: cannot set the journal's scenario up again: %s"):format(path, errors.format(spec)), 0)
  end
  -- the game's own seed and the variants stacked on the scenario's (keel run --seed/--variant)
  local extra = {}
  local hv = type(header.variants) == "table" and header.variants or {}
  for i = #(spec.variants or {}) + 1, #hv do
    if type(hv[i]) == "string" then extra[#extra + 1] = hv[i] end
  end
  local seed = math.type(header.seed) == "integer" and header.seed or nil
  -- (begin = false: the game's start_game order, when it has a sequence of
  -- play, is in the journal and is played again like any other)
  local sok, run = pcall(scenario.start, spec, { narrate = opts.narrate, variants = extra, seed = seed,
                                                 limits = header.limits, begin = false })
  if not sok then   -- a variant the header stacks that is not there, a map, a family ...
    error(("%s:1: cannot set the journal's game up again: %s"):format(path, errors.format(run)), 0)
  end
  local game, set = run.game, run.set
  local new = game:journal_lines()

  -- the header: the game is the same game only with the same scenario,
  -- seed, variants and limits
  local fresh_header = json.decode(new[1], NO_NULLS)
  for _, k in ipairs(HEADER_KEYS) do
    local a, b = json.encode(header[k]), json.encode(fresh_header[k])
    if a ~= b then
      rep.ok, rep.kind, rep.line = false, "header", 1
      rep.message = ("%s:1: the journal's game is not the one its scenario sets up now: %q is %s in the "
        .. "journal, %s now (%s)"):format(path, k, a, b, header.scenario)
      return rep
    end
  end

  -- Play an order as keel run played it: true, or false, the message and
  -- the kind of failure ("unknown", "params", "illegal", "vetoed": the
  -- current rules refuse it; "error", "cpu", "budget", "memory").
  local function play(name, order, side)
    if name == orders.EMIT then
      local event = type(order) == "table" and order.event or nil
      if not set.event_names[event] then
        return false, ("unknown event %s"):format(show(event)), "unknown"
      end
      local ok, e = pcall(set.emit, set, game, event, order.data)
      if ok then return true end
      return false, errors.format(e), errors.get_kind(e)
    end
    local res = table.pack(set:act(game, name, order or {}, side))
    if res[1] then return true end
    return false, type(res[2]) == "table" and errors.format(res[2]) or tostring(res[2]), res[3]
  end
  local REFUSED = { unknown = true, params = true, illegal = true, vetoed = true }
  local function refused(p, e, why)
    rep.ok, rep.kind, rep.line, rep.rule = false, "refused", p, e.rule
    rep.action, rep.name = e.action, e.name
    rep.message = ("%s:%d: the current rules refuse %s '%s' (order %s): %s"):format(path, p,
      e.action and ("action " .. e.action) or "the failed order", e.name, json.encode(e.order or {}), why)
    return rep
  end

  local function diverge(kind, p, q, p_end, what)
    -- first differing line between old[p..p_end] and new[q..]
    local fresh = game:journal_lines(q - 1)   -- the replay's lines from q on
    local k = 0
    while p + k <= p_end and 1 + k <= #fresh and old[p + k] == fresh[1 + k] do k = k + 1 end
    local o, n = old[p + k], fresh[1 + k]
    local oe = o and json.decode(o, NO_NULLS) or {}
    local ne = n and json.decode(n, NO_NULLS) or {}
    local rule = oe.rule or ne.rule
    rep.ok = false
    rep.rule = rule
    rep.line = p + k
    rep.message = ("%s:%d: replay diverges %s\n  first different event (journal line %d), rule %s:\n" ..
                   "    journal: %s\n    replay:  %s"):format(path, p, what, p + k, tostring(rule),
                   o or "(nothing)", n or "(nothing)")
    rep.kind = kind
    return rep
  end

  -- setup: everything before the first step; rule_file events are compared by path
  local p, q = 2   -- q: the first line of the replay's journal not compared yet
  local function is_step(e) return e.ev == "action" or e.ev == "undo" or e.ev == "redo" or e.ev == "rollback" end
  local old_files, old_order, now_files = {}, {}, {}
  while p <= #old and not is_step(ev[p]) do
    if ev[p].ev == "rule_file" then old_files[ev[p].path] = ev[p].hash; old_order[#old_order + 1] = ev[p].path end
    p = p + 1
  end
  for _, rf in ipairs(game.rule_files) do
    now_files[rf[1]] = true
    local was = old_files[rf[1]]
    if was and was ~= rf[2] then
      rep.changed_files[#rep.changed_files + 1] = ("%s (hash %s in the journal, %s now)"):format(rf[1], was, rf[2])
    elseif was == nil then
      rep.changed_files[#rep.changed_files + 1] = ("%s (loaded on replay, not in the journal's rule-file list)")
        :format(rf[1])
    end
  end
  -- a file the journal lists that the replay does not load: dropped from the
  -- rule set, or renamed (the other name is then listed above)
  for _, f in ipairs(old_order) do
    if not now_files[f] then
      rep.changed_files[#rep.changed_files + 1] = ("%s (in the journal's rule-file list, not loaded on replay: "
        .. "dropped or renamed)"):format(f)
    end
  end
  do
    local a, b = 2, 2
    while a < p or b <= #new do
      while a < p and ev[a].ev == "rule_file" do a = a + 1 end
      while b <= #new and new[b]:find('^{"ev":"rule_file"') do b = b + 1 end
      if a >= p and b > #new then break end
      if old[a] ~= new[b] then
        rep.ok = false
        rep.line = a
        local oe = a < p and ev[a] or {}
        local ne = new[b] and json.decode(new[b], NO_NULLS) or {}
        rep.rule = oe.rule or ne.rule
        rep.message = ("%s:%d: replay diverges in the scenario setup, before the first action; rule %s:\n" ..
                       "    journal: %s\n    replay:  %s"):format(path, a, tostring(rep.rule),
                       a < p and old[a] or "(nothing)", new[b] or "(nothing)")
        return rep
      end
      a, b = a + 1, b + 1
    end
    q = #new + 1
  end
  if opts.on_start then opts.on_start(game, run) end

  while p <= #old do
    local e = ev[p]
    if e.ev == "action" then
      local p_end = p
      while p_end <= #old and not (ev[p_end].ev == "end" and ev[p_end].action == e.action) do p_end = p_end + 1 end
      if p_end > #old then error(("%s:%d: action %d has no end line (a truncated journal?)"):format(path, p, e.action), 0) end
      if e.order == nil then
        error(("%s:%d: action %d '%s' was not played as an order; replay needs orders"):format(path, p, e.action, e.name), 0)
      end
      local ok, perr, kind = play(e.name, e.order, e.side)
      rep.actions = rep.actions + 1
      local what = ("at action %d '%s' (order %s)"):format(e.action, e.name, json.encode(e.order))
      if not ok and REFUSED[kind] then return refused(p, e, perr) end
      if not ok then
        return diverge(kind or "error", p, q, p_end, what .. ": on replay it failed: " .. tostring(perr))
      end
      local fresh, count = game:journal_lines(q - 1)   -- the lines the order wrote
      local same = #fresh == p_end - p + 1
      for k = 0, p_end - p do if not same or fresh[1 + k] ~= old[p + k] then same = false break end end
      if game:hash_hex() ~= ev[p_end].hash or not same then
        return diverge("action", p, q, p_end, ("%s: state hash %s in the journal, %s on replay"):format(what,
          tostring(ev[p_end].hash), game:hash_hex()))
      end
      rep.action, rep.name = e.action, e.name
      p, q = p_end + 1, count + 1
      if opts.on_step then opts.on_step(e, game) end
    elseif e.ev == "rollback" then
      if e.name == nil then
        error(("%s:%d: a failed transaction outside any order cannot be replayed"):format(path, p), 0)
      end
      local ok, why, kind = play(e.name, e.order, e.side)
      if not ok and REFUSED[kind] then return refused(p, e, why) end
      local fresh, count = game:journal_lines(q - 1)
      if ok or fresh[1] ~= old[p] then
        return diverge("rollback", p, q, p, ("at the failed order '%s': %s"):format(e.name,
          ok and "it succeeds on replay" or "it fails differently on replay"))
      end
      p, q = p + 1, count + 1
      if opts.on_step then opts.on_step(e, game) end
    elseif e.ev == "undo" or e.ev == "redo" then
      local ok, uerr = pcall(e.ev == "undo" and game.undo or game.redo, game, e.n)
      local fresh, count = game:journal_lines(q - 1)
      if not ok or fresh[1] ~= old[p] or game:hash_hex() ~= e.hash then
        return diverge(e.ev, p, q, p, ("at %s %d%s"):format(e.ev, e.n, ok and "" or (": " .. tostring(uerr))))
      end
      rep.steps = rep.steps + 1
      p, q = p + 1, count + 1
      if opts.on_step then opts.on_step(e, game) end
    else
      error(("%s:%d: event '%s' outside any order cannot be replayed"):format(path, p, e.ev), 0)
    end
  end
  rep.hash = game:hash_hex()
  rep.message = ("%s: replayed %d actions and %d undo/redo; every state hash matches (final %s)"):format(
    path, rep.actions, rep.steps, rep.hash)
  return rep
end

return M

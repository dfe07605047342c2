--- keel replay JOURNAL — re-run a game from its journal and compare.
local cli = require "keel.cli"
local json = require "keel.json"
local game_mod = require "keel.game"
local scenario = require "keel.scenario"
local errors = require "keel.errors"

local M = {
  summary = "re-run a game from its journal and name the first divergence",
  usage = "keel replay [--quiet] JOURNAL",
  help = "Reads a journal written by keel.game (JSON lines), starts the game again\n" ..
         "from the scenario in its header (run in the sandbox; a file that is not a\n" ..
         "scenario is refused, so a journal never runs code outside it), plays\n" ..
         "every order, undo and redo it records, and after each one compares the\n" ..
         "state hash and the events with the journal. On the first difference it\n" ..
         "names the action, its order and the rule of the first event that\n" ..
         "differs, and exits 1.\n" ..
         "Rule files whose hash changed since the journal was written are listed.\n" ..
         "Exit status: 0 identical, 1 diverged, 2 usage or unreadable journal.",
}

local function read_lines(path)
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  local lines = {}
  for l in f:lines() do if l ~= "" then lines[#lines + 1] = l end end
  f:close()
  return lines
end

-- JSON null comes back as json.null: make it nil in events
local function denull(v)
  if v == json.null then return nil end
  if type(v) == "table" then for k, x in pairs(v) do v[k] = denull(x) end end
  return v
end

local function decode(line, where)
  local ok, v, err = pcall(json.decode, line)
  if not ok then v, err = nil, tostring(v) end
  v = denull(v)
  if type(v) ~= "table" or type(v.ev) ~= "string" then
    error(("%s: not a journal event (%s)"):format(where, err or "no \"ev\" field"), 0)
  end
  return v
end

--- Replay a journal; returns a report table:
--- {ok=bool, actions=n, steps=n, message=string, changed_files={...},
---  action=number?, name=string?, rule=string?, line=number?}
--- Hooks for a caller that watches the game as it is replayed (keel view):
--- opts.narrate goes to the scenario's rule set (keel.narrator's event);
--- opts.on_start(game, run) runs after the setup is checked; opts.on_step(e,
--- game) after each action, undo, redo or rollback that matched the journal
--- (e: its journal event).
---@param path string
---@param opts? {narrate?: function, on_start?: function, on_step?: function}
function M.replay(path, opts)
  opts = opts or {}
  local old, err = read_lines(path)
  if not old then error(path .. ": " .. tostring(err), 0) end
  if #old == 0 then error(path .. ": empty journal", 0) end
  local ev = {}
  for i, l in ipairs(old) do ev[i] = decode(l, path .. ":" .. i) end
  local header = ev[1]
  if header.ev ~= "header" or header.format ~= "keel-journal" then
    error(path .. ":1: not a keel journal (no header line)", 0)
  end
  if header.version ~= game_mod.JOURNAL_VERSION then
    error(("%s:1: journal version %s; this keel replays version %d"):format(path, tostring(header.version),
      game_mod.JOURNAL_VERSION), 0)
  end
  if type(header.scenario) ~= "string" then
    error(path .. ":1: the journal names no scenario; keel replay plays games set up from a scenario "
      .. "(keel run SCENARIO --journal FILE)", 0)
  end
  local rep = { ok = true, actions = 0, steps = 0, changed_files = {} }
  -- the scenario runs in the sandbox, and only a scenario is set up
  local lok, spec = pcall(scenario.load, header.scenario)
  if not lok then
    error(("%s:1: cannot set the journal's scenario up again: %s"):format(path, errors.format(spec)), 0)
  end
  local run = scenario.start(spec, { narrate = opts.narrate })
  local game, set = run.game, run.set
  local new = game:journal_lines()

  local function diverge(kind, p, q, p_end, what)
    -- first differing line between old[p..p_end] and new[q..]
    local fresh = game:journal_lines()
    local k = 0
    while p + k <= p_end and q + k <= #fresh and old[p + k] == fresh[q + k] do k = k + 1 end
    local o, n = old[p + k], fresh[q + k]
    local oe = o and denull(json.decode(o)) or {}
    local ne = n and denull(json.decode(n)) or {}
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
  local p, q = 2, nil
  local function is_step(e) return e.ev == "action" or e.ev == "undo" or e.ev == "redo" or e.ev == "rollback" end
  local old_files = {}
  while p <= #old and not is_step(ev[p]) do
    if ev[p].ev == "rule_file" then old_files[ev[p].path] = ev[p].hash end
    p = p + 1
  end
  for _, rf in ipairs(game.rule_files) do
    local was = old_files[rf[1]]
    if was and was ~= rf[2] then
      rep.changed_files[#rep.changed_files + 1] = ("%s (hash %s in the journal, %s now)"):format(rf[1], was, rf[2])
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
        local ne = new[b] and denull(json.decode(new[b])) or {}
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
      local ok, perr = pcall(set.play, set, game, e.name, e.order)
      rep.actions = rep.actions + 1
      local what = ("at action %d '%s' (order %s)"):format(e.action, e.name, json.encode(e.order))
      if not ok then
        return diverge("error", p, q, p_end, what .. ": on replay it failed: " .. tostring(perr))
      end
      local fresh = game:journal_lines()
      local same = #fresh - q + 1 == p_end - p + 1
      for k = 0, p_end - p do if not same or fresh[q + k] ~= old[p + k] then same = false break end end
      if game:hash_hex() ~= ev[p_end].hash or not same then
        return diverge("action", p, q, p_end, ("%s: state hash %s in the journal, %s on replay"):format(what,
          tostring(ev[p_end].hash), game:hash_hex()))
      end
      rep.action, rep.name = e.action, e.name
      p, q = p_end + 1, #fresh + 1
      if opts.on_step then opts.on_step(e, game) end
    elseif e.ev == "rollback" then
      if e.name == nil then
        error(("%s:%d: a failed transaction outside any order cannot be replayed"):format(path, p), 0)
      end
      local ok = pcall(set.play, set, game, e.name, e.order)
      local fresh = game:journal_lines()
      if ok or fresh[q] ~= old[p] then
        return diverge("rollback", p, q, p, ("at the failed order '%s': %s"):format(e.name,
          ok and "it succeeds on replay" or "it fails differently on replay"))
      end
      p, q = p + 1, #fresh + 1
      if opts.on_step then opts.on_step(e, game) end
    elseif e.ev == "undo" or e.ev == "redo" then
      local ok, uerr = pcall(e.ev == "undo" and game.undo or game.redo, game, e.n)
      local fresh = game:journal_lines()
      if not ok or fresh[q] ~= old[p] or game:hash_hex() ~= e.hash then
        return diverge(e.ev, p, q, p, ("at %s %d%s"):format(e.ev, e.n, ok and "" or (": " .. tostring(uerr))))
      end
      rep.steps = rep.steps + 1
      p, q = p + 1, #fresh + 1
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

function M.run(args)
  local opts, rest = cli.parse_options(args, { quiet = "flag", q = "flag" })
  if #rest ~= 1 then cli.usage_error("replay needs one JOURNAL file") end
  local ok, rep = pcall(M.replay, rest[1])
  if not ok then
    io.stderr:write("keel: ", tostring(rep), "\n")
    return 2
  end
  for _, f in ipairs(rep.changed_files) do io.stderr:write("note: rule file changed: ", f, "\n") end
  if rep.ok then
    if not (opts.quiet or opts.q) then io.write(rep.message, "\n") end
    return 0
  end
  io.stderr:write(rep.message, "\n")
  return 1
end

return M

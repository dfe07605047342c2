--- keel.narrator — the narration of a game as it is played: each rule that
-- fires (id and title), each roll with its modifiers and the table row it
-- hit, each line a rule says, each change of state (from the journal).
-- `keel run` prints it; `keel view` keeps it per action.
--
--   local n = require("keel.narrator").new { json = false }
--   local set = rules.load { families = ..., narrate = n.event }
--   n.game, n.board = game, board       -- once the game exists
--   ... play ...; n.flush()
--
-- Every line goes to opts.write(obj, text) when given: obj is the line as
-- data (`kind` = fire, action, roll, table, say, veto, change, order,
-- failed, done, unmet), text the line `keel run` prints. Without it, lines
-- are written to standard output, as text or (opts.json) as JSON lines.
local json = require "keel.json"

local M = {}

--- A value as the narration prints it: hexes and hexsides as board labels,
--- "hex:<id>" locations as "hex <label>", strings quoted.
---@param v any
---@param board? userdata
---@return string
function M.format_value(v, board)
  if v == nil or v == json.null then return "none" end
  if type(v) == "string" then
    local kind, n = v:match("^(%a+):(%-?%d+)$")
    if board and (kind == "hex" or kind == "port") then
      local label = board:format(math.tointeger(tonumber(n)))
      if label then return kind .. " " .. label end
    end
    if board and kind == "zone" then
      local name = board:zones()[math.tointeger(tonumber(n))]
      if name then return "zone " .. name end
    end
    return ("%q"):format(v)
  end
  -- integers of the size of a packed hex (or hexside), on the board, read better as labels
  if board and math.type(v) == "integer" and (v >= 1 << 32 or v < 0) then
    local label = board:format(v)
    if label then return label end
    local ok, side = pcall(board.format_side, board, v)
    if ok and side then return side end
  end
  return tostring(v)
end
local fmt = M.format_value

--- A scenario order as one line: `move group="Regia" to="19A:3412"`.
---@param order table
---@return string
function M.order_text(order)
  if order.event then return "event " .. order.event end
  if order.check then return "check" end
  local parts = {}
  for _, k in ipairs(require("keel.keys").sorted(order)) do
    if k ~= 1 and k ~= "expect" then parts[#parts + 1] = tostring(k) .. "=" .. json.encode(order[k]) end
  end
  return tostring(order[1]) .. (#parts > 0 and (" " .. table.concat(parts, " ")) or "")
end

--- A new narrator.
---@param opts? {json?: boolean, quiet?: boolean, file?: string, write?: fun(obj: table, text: string)}
---@return table narrator
function M.new(opts)
  opts = opts or {}
  local tables_ok, tables = pcall(require, "keel.tables")
  local n = { game = nil, board = nil, offset = 0 }
  local out = io.write

  -- one line: to opts.write, or printed as text or JSON (raw: the JSON text when known)
  local function put(obj, text, raw)
    if opts.write then return opts.write(obj, text) end
    if opts.json then out(raw or json.encode(obj), "\n") else out(text, "\n") end
  end

  local function group_name(g)
    local ok, name = pcall(n.game.state.group_get_name, n.game.state, g)
    return ok and name and (name .. " (group " .. g .. ")") or ("group " .. tostring(g))
  end

  local function unit_name(id)
    local ok, name = pcall(n.game.get, n.game, id, "name")
    return ok and name and (name .. " (unit " .. id .. ")") or ("unit " .. tostring(id))
  end

  local function change_text(e)
    local ev = e.ev
    if ev == "unit" then return ("new %s: %s %s (%s)"):format(unit_name(e.unit), tostring(e.side), tostring(e.type), tostring(e.name)) end
    if ev == "set" or ev == "value" or ev == "marker" then
      return ("%s %s: %s -> %s"):format(unit_name(e.unit), e.field or e.key, fmt(e.old, n.board), fmt(e.new, n.board))
    end
    if ev == "global" then return ("%s: %s -> %s"):format(e.key, fmt(e.old, n.board), fmt(e.new, n.board)) end
    if ev == "keyed" then
      local parts = {}
      for i, p in ipairs(e.key or {}) do parts[i] = fmt(p, n.board) end
      return ("%s[%s]: %s -> %s"):format(e.map, table.concat(parts, ", "), fmt(e.old, n.board), fmt(e.new, n.board))
    end
    if ev == "owner" then return ("hex %s owner: %s -> %s"):format(fmt(e.hex, n.board), fmt(e.old), fmt(e.new)) end
    if ev == "group" then return ("new group %d %s"):format(e.group, fmt(e.name)) end
    if ev == "gvalue" then
      return ("%s %s: %s -> %s"):format(group_name(e.group), e.key, fmt(e.old, n.board), fmt(e.new, n.board))
    end
    if ev == "join" then return ("%s joins %s"):format(unit_name(e.unit), group_name(e.group)) end
    if ev == "leave" then return ("%s leaves %s"):format(unit_name(e.unit), group_name(e.group)) end
    if ev == "rollback" then return "rolled back" end
    return nil
  end

  -- In text, "rule X — on event" is printed only when the rule then does
  -- something (a change, a roll, a line of narration); JSON keeps them all.
  function n.show_pending(rule)
    if n.pending and rule == n.pending_rule then put(n.pending_obj, n.pending); n.pending = nil end
  end

  -- the journal lines written since the last flush: the changes of state
  function n.flush()
    if not n.game then return end
    -- n.offset: the journal lines read so far (fewer when a rollback took
    -- lines back); only the lines after them are copied
    local count = n.game:journal_count()
    if count < n.offset then n.offset = count end
    local chunk
    chunk, count = n.game:journal_since(n.offset)
    n.offset = count
    n.game:journal_keep(count)   -- a streamed journal holds what is not read yet
    if opts.quiet then return end
    for line in chunk:gmatch("[^\n]+") do
      if opts.json and not opts.write then
        out('{"kind":"change","journal":', line, "}\n")
      else
        local e = json.decode(line)
        local t = e and change_text(e)
        if t then
          local rule = e.rule ~= json.null and e.rule or nil   -- null: no rule in force (plumbing)
          n.show_pending(rule)
          put({ kind = "change", rule = rule, journal = e }, "      " .. (rule and ("[" .. rule .. "] ") or "") .. t)
        end
      end
    end
  end

  local function emit(obj, text)
    if opts.quiet then return end
    if not opts.json then n.show_pending(obj.rule) end
    put(obj, text)
  end

  --- The hook a rule set calls (rules.load{narrate = n.event}).
  function n.event(kind, d)
    n.flush()
    local r = d.rule
    local rid, title = r and r.id, r and r.title or ""
    -- "rule 32.B", or a family's name for its plumbing (a rule{} without an id)
    local who = r and require("keel.registry").who(r) or "rule ?"
    if kind == "fire" then
      local obj = { kind = "fire", rule = rid, title = title, event = d.event }
      local text = ("    %s %s — on %s"):format(who, title, d.event)
      if opts.json then emit(obj, text)
      elseif not opts.quiet then n.pending, n.pending_obj, n.pending_rule = text, obj, rid end
    elseif kind == "action" then
      n.pending = nil   -- a new action: the last rule that fired did nothing more
      emit({ kind = "action", rule = rid, title = title, action = d.action },
           ("    %s %s — action %s"):format(who, title, d.action))
    elseif kind == "roll" then
      local rec = d.record
      local faces = rec.faces and table.concat(rec.faces, "+") or "?"
      local mod = (rec.modifier and rec.modifier ~= 0) and (" %+d"):format(rec.modifier) or ""
      emit({ kind = "roll", rule = rid, expr = rec.expr, faces = rec.faces, modifier = rec.modifier,
             total = rec.total, reason = rec.reason },
           ("      roll %s (%s) by %s: %s%s = %d"):format(rec.expr, tostring(rec.reason or ""), who,
             faces, mod, rec.total))
    elseif kind == "resolve" then
      local text = tables_ok and tables.narrate(d.record) or tostring(d.record.result)
      local rec = d.record
      emit({ kind = "table", rule = rid, table = rec.table, die = rec.die, modifier = rec.modifier,
             modified = rec.modified, result = tostring(rec.result), range = rec.range },
           "      " .. text)
    elseif kind == "say" then
      emit({ kind = "say", rule = rid, text = d.text }, ("      %s: %s"):format(rid or (r and r.family) or "?", d.text))
    elseif kind == "veto" then
      emit({ kind = "veto", rule = rid, action = d.action, reason = d.reason },
           ("    %s %s vetoes %s: %s"):format(who, title, d.action, d.reason))
    end
  end

  --- The hook of a scenario run (run:play_all(n.order)): an order starts or ends.
  function n.order(phase, i, order, outcome, problems)
    n.pending = nil
    n.flush()
    if phase == "start" then
      emit({ kind = "order", index = i, order = M.order_text(order) }, ("order %d: %s"):format(i, M.order_text(order)))
      return
    end
    -- "as expected" only when the failure met the order's expectations:
    -- else the unmet line below says what was expected instead
    local expected_failure = order.expect and (order.expect.error or order.expect.illegal or order.expect.vetoed)
      and #problems == 0
    if not outcome.ok and outcome.kind then
      emit({ kind = "failed", index = i, failure = outcome.kind, message = outcome.message,
             expected = expected_failure and true or false },
           ("  %s%s: %s"):format(outcome.kind, expected_failure and " (as expected)" or "",
             outcome.message:gsub("\n", "\n  ")))
    elseif outcome.what ~= "check" then
      emit({ kind = "done", index = i, hash = n.game:hash_hex() }, ("  done (state %s)"):format(n.game:hash_hex()))
    end
    for _, p in ipairs(problems) do
      put({ kind = "unmet", index = i, problem = p },
          ("%s: order %d (%s): %s"):format(opts.file, i, outcome.what or "?", p))
    end
  end

  return n
end

return M

--- keel run SCENARIO.lua [--journal FILE] [--svg FILE] [--quiet] [--json] [--memory MIB] [--cpu SECONDS]
local cli = require "keel.cli"

local M = {
  summary = "play a scenario in the sandbox and narrate it",
  usage = "keel run SCENARIO.lua [--journal FILE] [--svg FILE] [--quiet] [--json] [--memory MIB] [--cpu SECONDS]",
  help = "SCENARIO.lua runs in the sandbox and must return `scenario { ... }`;\n" ..
         "any other file is refused (a host Lua script runs with `keel script`).\n" ..
         "The scenario is played in a sandbox of its own: the map, rule families, variants,\n" ..
         "seed, forces and flags it names are set up, and each of its orders is\n" ..
         "played and narrated: each rule that fires (id and title), each roll\n" ..
         "with its modifiers and result, each change of state. Orders may carry\n" ..
         "expectations; the exit status is 1 when one is not met.\n" ..
         "  --journal FILE  write the game's journal (JSON lines) to FILE\n" ..
         "  --svg FILE      draw the final position (units, last move) as SVG\n" ..
         "  --quiet         print only unmet expectations and the result line\n" ..
         "  --json          narrate as JSON lines (one object per event)\n" ..
         "  --memory MIB    the game's memory limit (default 256)\n" ..
         "  --cpu SECONDS   the CPU limit of one action (default 5)",
}

-- ---- narration (runs inside the scenario's sandbox state) -----------------------

local function fmt(v, board)
  if v == nil or v == require("keel.json").null then return "none" end
  if type(v) == "string" then
    local kind, n = v:match("^(%a+):(%-?%d+)$")
    if board and (kind == "hex" or kind == "port") then
      local label = board:label(math.tointeger(tonumber(n)))
      if label then return kind .. " " .. label end
    end
    return ("%q"):format(v)
  end
  -- integers of the size of a packed hex (or hexside), on the board, read better as labels
  if board and math.type(v) == "integer" and (v >= 1 << 32 or v < 0) then
    local label = board:label(v)
    if label then return label end
    local ok, side = pcall(board.side_label, board, v)
    if ok and side then return side end
  end
  return tostring(v)
end

local function order_text(order)
  local json = require "keel.json"
  if order.event then return "event " .. order.event end
  if order.check then return "check" end
  local parts = {}
  for _, k in ipairs(require("keel.keys").sorted(order)) do
    if k ~= 1 and k ~= "expect" then parts[#parts + 1] = tostring(k) .. "=" .. json.encode(order[k]) end
  end
  return tostring(order[1]) .. (#parts > 0 and (" " .. table.concat(parts, " ")) or "")
end

local function narrator(opts)
  local json = require "keel.json"
  local tables_ok, tables = pcall(require, "keel.tables")
  local n = { game = nil, offset = 0 }
  local out = io.write

  local function group_name(g)
    local ok, name = pcall(n.game.state.group_name, n.game.state, g)
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

  -- the journal lines written since the last flush: the changes of state
  function n.flush()
    if not n.game then return end
    local text = n.game:journal_text()
    if #text < n.offset then n.offset = #text end
    local chunk = text:sub(n.offset + 1)
    n.offset = #text
    if opts.quiet then return end
    for line in chunk:gmatch("[^\n]+") do
      if opts.json then
        out('{"kind":"change","journal":', line, "}\n")
      else
        local e = json.decode(line)
        local t = e and change_text(e)
        if t then
          local rule = e.rule ~= json.null and e.rule or nil   -- null: no rule in force (plumbing)
          n.show_pending(rule)
          out("      ", rule and ("[" .. rule .. "] ") or "", t, "\n")
        end
      end
    end
  end

  -- In text, "rule X — on event" is printed only when the rule then does
  -- something (a change, a roll, a line of narration); JSON keeps them all.
  function n.show_pending(rule)
    if n.pending and rule == n.pending_rule then out(n.pending, "\n"); n.pending = nil end
  end

  local function emit(obj, text)
    if opts.quiet then return end
    if opts.json then out(json.encode(obj), "\n") return end
    n.show_pending(obj.rule)
    out(text, "\n")
  end

  function n.event(kind, d)
    n.flush()
    local r = d.rule
    local rid, title = r and r.id, r and r.title or ""
    -- "rule 32.B", or a family's name for its plumbing (a rule{} without an id)
    local who = r and require("keel.registry").who(r) or "rule ?"
    if kind == "fire" then
      local text = ("    %s %s — on %s"):format(who, title, d.event)
      if opts.json then emit({ kind = "fire", rule = rid, title = title, event = d.event }, text)
      elseif not opts.quiet then n.pending, n.pending_rule = text, rid end
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

  function n.order(phase, i, order, outcome, problems)
    n.pending = nil
    n.flush()
    if phase == "start" then
      emit({ kind = "order", index = i, order = order_text(order) }, ("order %d: %s"):format(i, order_text(order)))
      return
    end
    local expected_failure = order.expect and (order.expect.error or order.expect.illegal or order.expect.vetoed)
    if not outcome.ok and outcome.kind then
      emit({ kind = "failed", index = i, failure = outcome.kind, message = outcome.message,
             expected = expected_failure and true or false },
           ("  %s%s: %s"):format(outcome.kind, expected_failure and " (as expected)" or "",
             outcome.message:gsub("\n", "\n  ")))
    elseif outcome.what ~= "check" then
      emit({ kind = "done", index = i, hash = n.game:hash_hex() }, ("  done (state %s)"):format(n.game:hash_hex()))
    end
    for _, p in ipairs(problems) do
      if opts.json then
        out(json.encode({ kind = "unmet", index = i, problem = p }), "\n")
      else
        out(("%s: order %d (%s): %s\n"):format(opts.file, i, outcome.what or "?", p))
      end
    end
  end

  return n
end

--- Play a scenario and narrate it; returns the exit status. Runs inside
--- the scenario's own sandbox state (see M.run).
---@param path string
---@param opts table {journal=, quiet=, json=, cpu=}
function M.scenario_main(path, opts)
  local keel = require "keel"
  local scenario = require "keel.scenario"
  local errors = require "keel.errors"
  keel.sandbox.limits { cpu = opts.cpu or 5 }
  opts.file = path
  local n = narrator(opts)
  local ok, err = pcall(function()
    local spec = scenario.load(path)
    local run = scenario.start(spec, { narrate = n.event })
    n.game, n.board = run.game, run.board
    if not opts.quiet and not opts.json then
      local vs = {}
      for _, v in ipairs(run.set.variants) do vs[#vs + 1] = ("%s (%s)"):format(v.name, v.path) end
      io.write(("scenario: %s (%s), seed %d\n"):format(spec.name or "?", path, spec.seed or 0))
      io.write(("rules: %s%s\n"):format(table.concat(spec.rules, ", "),
        #vs > 0 and ("; variants: " .. table.concat(vs, ", ")) or ""))
      io.write(("setup: %d unit(s), %d group(s)\n"):format(run.game.state:unit_count(), run.game.state:group_count()))
    end
    n.offset = #run.game:journal_text()   -- the setup is not narrated line by line
    local passed, failed = run:play_all(n.order)
    n.flush()
    if opts.journal then
      local wok, werr = run.game:write_journal(opts.journal)
      if not wok then error("--journal: " .. tostring(werr), 0) end
    end
    if opts.svg then M.write_svg(run, spec, opts.svg) end
    local total = passed + failed
    if opts.json then
      io.write(require("keel.json").encode({ kind = "result", orders = total, passed = passed, failed = failed,
                                              hash = run.game:hash_hex() }), "\n")
    else
      io.write(("result: %d order(s), %d as expected, %d not; state %s\n"):format(total, passed, failed,
        run.game:hash_hex()))
    end
    return failed
  end)
  if not ok then
    io.stderr:write(errors.format(err), "\n")
    return 1
  end
  return err > 0 and 1 or 0
end

--- Draw the final position: the board, the units on it, and the last
--- move's path when a rule answers the query `last_path`.
function M.write_svg(run, spec, path)
  local render = require "keel.render"
  if not run.board then error("--svg: the scenario has no map", 0) end
  -- the board shows who owns what now, as the game state says
  local board, st = run.board, run.game.state
  for _, h in ipairs(board:hexes()) do
    local side = st:owner(h)
    if (side or false) ~= board:owner(h) then board:set_owner(h, side or false) end
  end
  local layers = { render.units_layer(render.game_units(run.game)) }
  if run.set.queries and run.set.queries.last_path then
    -- what the rule returned, read raw: its metamethods would run outside any action
    local hexes = run.set:query(run.game, "last_path")
    if type(hexes) == "table" then
      local list = {}
      while math.type(rawget(hexes, #list + 1)) == "integer" do list[#list + 1] = rawget(hexes, #list + 1) end
      table.insert(layers, 1, render.path_layer(list))
    end
  end
  local svg = render.svg(run.board, { title = spec.name, extra_layers = layers })
  local ok, err = require("keel").state.write_file(path, svg)
  if not ok then error("--svg: " .. tostring(err), 0) end
end

-- A scenario plays in a sandbox state of its own (a memory limit per game).
local function run_scenario(file, args)
  local opts, rest = cli.parse_options(args, { journal = "value", quiet = "flag", json = "flag",
                                                memory = "value", cpu = "value", svg = "value" })
  if #rest > 0 then cli.usage_error("a scenario takes no arguments, got '" .. rest[1] .. "'") end
  local memory = tonumber(opts.memory or "256")
  local cpu = tonumber(opts.cpu or "5")
  if not memory or memory <= 0 then cli.usage_error("--memory wants a number of MiB") end
  if not cpu or cpu <= 0 then cli.usage_error("--cpu wants a number of seconds") end
  local keel = require "keel"
  local sb = keel.sandbox.new { memory = math.floor(memory * 1024 * 1024) }
  io.stdout:flush()
  local ok, status, kind = sb:call("keel.cli.run", "scenario_main", file,
    { journal = opts.journal, quiet = opts.quiet, json = opts.json, cpu = cpu, svg = opts.svg })
  sb:close()
  if not ok then
    io.stderr:write("keel: ", tostring(status), kind == "memory" and " (try --memory)" or "", "\n")
    return 1
  end
  return status
end

-- Every FILE is played as a scenario: what it is decides (keel.scenario.load
-- runs it in the sandbox and refuses anything scenario{} did not make).
function M.run(args)
  local file = args[1]
  if not file then cli.usage_error("run needs a SCENARIO.lua") end
  local rest = {}
  for i = 2, #args do rest[#rest + 1] = args[i] end
  return run_scenario(file, rest)
end

return M

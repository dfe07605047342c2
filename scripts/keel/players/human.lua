--- keel.players.human — a person at a terminal: a numbered menu of the
-- actions the side may take (set:legal_actions), then, for the action
-- chosen, each parameter's candidates (given the values chosen before), a
-- list parameter's sets, and "leave it out" for an optional one. Reads
-- lines from the player's input (io.stdin), writes to its output
-- (io.stdout): `keel play ... --player Axis=human`; testable by piping.
-- An answer out of range is asked again; the end of the input is a pass
-- (end_phase) when passing is allowed, else an error.
local player = require "keel.player"
local json = require "keel.json"

local M = {}

function M.init(_, options)
  return player.check_options(options, {})
end

local function show(v)
  if type(v) == "table" then return json.encode(v) end
  return tostring(v)
end

-- the choices of a parameter given the values chosen so far
local function choices(p, chosen)
  local opts
  if p.choices then
    for _, c in ipairs(p.choices) do
      local same = true
      for k, v in pairs(c.given or {}) do if show(chosen[k]) ~= show(v) then same = false end end
      if same then opts = c; break end
    end
  else
    opts = p
  end
  if not opts then return nil end
  local out = {}
  if p.type == "units" and opts.sets and not opts.any_set then
    for _, s in ipairs(opts.sets) do out[#out + 1] = { value = s, label = show(s) } end
  else
    for _, d in ipairs(opts.domain or {}) do
      out[#out + 1] = { value = p.type == "units" and { d.value } or d.value, label = show(d.value) ..
        (d.label and (" (" .. tostring(d.label) .. ")") or "") }
    end
  end
  if opts.omit or p.optional then out[#out + 1] = { value = nil, label = "(leave it out)", omit = true } end
  return out
end

local function ask(self, title, items)
  local out = self.output or io.stdout
  local input = self.input or io.stdin
  out:write(title, "\n")
  for i, it in ipairs(items) do out:write(("  %d. %s\n"):format(i, it.label)) end
  while true do
    out:write("> ")
    out:flush()
    local line = input:read("l")
    if line == nil then return nil end
    local n = math.tointeger(tonumber(line))
    if n and n >= 1 and n <= #items then return items[n] end
    out:write(("  a number from 1 to %d, please\n"):format(#items))
  end
end

function M.decide(self, set, game, side)
  local entries = set:legal_actions(game, side)
  local items = {}
  local pass
  for _, e in ipairs(entries) do
    if e.available and #e.free == 0 then
      items[#items + 1] = { value = e, label = e.name .. (e.title and (" — " .. e.title) or "") }
      if e.name == "end_phase" then pass = e end
    end
  end
  local st = set:status(game)
  local title = ("turn %s, %s %s: %s to act"):format(tostring(st.turn), tostring(st.phasing),
    tostring(st.step or st.phase), side)
  local it = ask(self, title, items)
  if not it then
    if pass then return "end_phase", {} end
    return nil, "the input ended"
  end
  local e = it.value
  if e.orders then   -- the legal orders are not every combination: offer them as they are
    local os = {}
    for _, o in ipairs(e.orders) do os[#os + 1] = { value = o, label = show(o) } end
    local o = ask(self, e.name .. ": which order?", os)
    if not o then return nil, "the input ended" end
    return e.name, o.value
  end
  local params = {}
  for _, p in ipairs(e.params) do
    local list = choices(p, params)
    if list and #list > 0 then
      local c = #list == 1 and list[1] or ask(self, ("%s: %s?"):format(e.name, p.name), list)
      if not c then return nil, "the input ended" end
      params[p.name] = c.value
    end
  end
  return e.name, params
end

return M

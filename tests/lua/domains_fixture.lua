-- tests/lua/domains_fixture.lua — shared by the <family>_domains_test.lua
-- files: a family's showcase opened through the protocol's session function
-- (keel.serve, what `keel serve --stdio` runs), its orders played up to a
-- point, and the actions offered there (doc/protocol.md, "actions").
local json = require "keel.json"
local serve = require "keel.serve"
local scenario = require "keel.scenario"

local M = {}

-- responses read back with null as nil
local NO_NULLS = { nulls = false }

--- A session with `path` open: {send = fn(req) -> resp, spec = the scenario}.
function M.open(path)
  local s = serve.new()
  local p = { spec = scenario.load(path) }
  function p.send(req) return assert(json.decode(s:handle_line(json.encode(req)), NO_NULLS)) end
  local resp = p.send { op = "open", scenario = path }
  assert(resp.ok, resp.error and resp.error.message)
  return p
end

--- Play the scenario's orders 1 .. upto-1 as protocol orders (a refused
--- order must be one the scenario expects refused).
function M.play(p, upto)
  for i = 1, upto - 1 do
    local o = p.spec.orders[i]
    local req
    if o.event then
      req = { op = "order", event = o.event, data = o.data or {} }
    else
      local params = {}
      for k, v in pairs(o) do if k ~= 1 and k ~= "expect" and k ~= "by" then params[k] = v end end
      req = { op = "order", action = o[1], params = params, side = o.by }
    end
    local resp = p.send(req)
    local refused = o.expect and (o.expect.illegal or o.expect.vetoed or o.expect.error or o.expect.refused)
    assert(resp.ok or refused, ("order %d (%s): %s"):format(i, tostring(o[1] or o.event),
      resp.error and resp.error.message or "?"))
  end
end

--- The index of the first order matching `pred(order)`.
function M.find_order(p, pred)
  for i, o in ipairs(p.spec.orders) do if pred(o) then return i end end
  error("no such order in " .. tostring(p.spec.name))
end

--- The offered action `name` for `side`, and the hash before and after the listing.
function M.action(p, side, name)
  local before = p.send({ op = "view", side = side }).hash
  local resp = p.send { op = "actions", side = side }
  assert(resp.ok, resp.error and resp.error.message)
  for _, e in ipairs(resp.actions) do
    if e.name == name then return e, before, resp.hash end
  end
  error("no action " .. name)
end

function M.param(e, name)
  for _, q in ipairs(e.params) do if q.name == name then return q end end
  error("no parameter " .. name)
end

--- The labels (or values) of a candidate list, in its order.
function M.labels(domain)
  local out = {}
  for i, c in ipairs(domain or {}) do out[i] = c.label or c.value end
  return out
end

--- The candidates of a dependent parameter for the given values ({param = value}),
--- and the choice itself ({given, domain, omit?}).
function M.choice(q, given)
  for _, c in ipairs(q.choices or {}) do
    local same = true
    for k, v in pairs(given) do if json.encode(c.given[k]) ~= json.encode(v) then same = false end end
    if same then return c.domain, c end
  end
end

--- The candidate whose label (or value) is `x`.
function M.find(domain, x)
  for _, c in ipairs(domain or {}) do if c.label == x or c.value == x then return c end end
end

--- The orders an offered action stands for: its `orders` when the listing
--- gives them, else every combination of its parameters' candidates (a
--- dependent parameter's from the choice for the values before it; a list
--- parameter's `sets`, or each element alone; an optional one also left
--- out where `omit` says so), as {action = name, params = {...}}.
function M.orders(e)
  local out = {}
  if e.orders then
    for i, o in ipairs(e.orders) do out[i] = { action = e.name, params = o } end
    return out
  end
  local function enc(v) return v == nil and "null" or json.encode(v) end
  local function walk(i, params)
    local q = e.params[i]
    if not q then
      local copy = {}
      for k, v in pairs(params) do copy[k] = v end
      out[#out + 1] = { action = e.name, params = copy }
      return
    end
    local src = q
    if q.choices then
      src = nil
      for _, c in ipairs(q.choices) do
        local same = true
        for _, d in ipairs(q.depends or {}) do if enc(c.given[d]) ~= enc(params[d]) then same = false end end
        if same then src = c; break end
      end
    end
    local values = {}
    if src and q.type == "units" then
      if src.sets then
        for _, set in ipairs(src.sets) do values[#values + 1] = set end
      else   -- any_set: every non-empty set of the elements (at most q.max)
        values = M.subsets(M.values(src.domain), q.max)
      end
    elseif src then
      for _, c in ipairs(src.domain or {}) do values[#values + 1] = c.value end
    end
    for _, v in ipairs(values) do
      params[q.name] = v
      walk(i + 1, params)
    end
    params[q.name] = nil
    if #values == 0 or (src and src.omit) then walk(i + 1, params) end
  end
  walk(1, {})
  return out
end

--- Every non-empty subset of `list` of at most `max` elements, smaller first.
function M.subsets(list, max)
  local out = {}
  for size = 1, math.min(#list, max or #list) do
    local function pick(from, acc)
      if #acc == size then out[#out + 1] = { table.unpack(acc) } return end
      for i = from, #list do acc[#acc + 1] = list[i]; pick(i + 1, acc); acc[#acc] = nil end
    end
    pick(1, {})
  end
  return out
end

--- The values of a candidate list, in its order.
function M.values(domain)
  local out = {}
  for i, c in ipairs(domain or {}) do out[i] = c.value end
  return out
end

--- The action `name` as set:legal_actions lists it for `side`, checking
--- that listing leaves the state hash as it was.
function M.listed(set, game, side, name)
  local h0 = game:hash_hex()
  for _, e in ipairs(set:legal_actions(game, side)) do
    if e.name == name then
      assert(game:hash_hex() == h0, "listing changed the state hash")
      return e
    end
  end
  error("no action " .. name)
end

--- Submit an order as the protocol does, then take it back: the response.
function M.try(p, order)
  -- the side that gives it: the order's, else the first side to decide now
  local side = order.side or p.send({ op = "status" }).active[1]
  local resp = p.send { op = "order", action = order.action, params = order.params, side = side }
  if resp.ok then assert(p.send({ op = "undo" }).ok, "undo") end
  return resp
end

return M

-- The family's movement front-end (plumbing, no rule id: it carries out
-- the rules of 32.A and asks them at every step, but is no rule of the
-- rulebook): the move, put_to_sea and spend actions. A naval group moves hex
-- by hex (and along riverine hexsides) through the movement engine,
-- spending MPs, and the rules hook each MP (`mp_spent`) and each hex entered
-- (`group_enters_hex`): a handler sets ev.stop = "reason" to end movement
-- there, or ev.combat = {kind=, enemy=, cd=, fired_by=} to pause it for a
-- naval combat (emitted as `naval_combat`); movement resumes while MPs remain.
-- The helpers follow the actions.

local plan, spec_of, position, check_step, name_of          -- planning and checking a path (below)
local new_state, put_to_sea, run_hexes, river_move, spend_one, fight, finish,
  spend_activity                                                             -- executing it (below)
local destinations                                               -- where a move may go (below)
local reach_of, step_memo, move_rec, hex_path, check_hexes   -- what one state's listing works out once (below)

rule {
  title = "movement front-end",
  queries = {
    -- whose player-turn it is: the side a user interface asks the actions of
    side_to_move = function(ctx) return ctx.game:get_global("phasing") end,
    -- the hexes of the last move (hexsides of a river leg are left out):
    -- keyed value `last_path` {i, "hex"|"side"} = the i-th position's id
    last_path = function(ctx)
      local game = ctx.game
      local n = game:count_keyed("last_path")
      if n == 0 then return nil end
      local hexes = {}
      for i = 1, n do
        local key, id = game:at_keyed("last_path", i)
        if key[2] == "hex" then hexes[#hexes + 1] = id end
      end
      return hexes
    end,
  },
  actions = {
    -- move a group along a path (hexes and riverine hexsides) or to a destination
    move = {
      phases = { "movement" },   -- 32.A: in the naval movement steps (a reacting group: in the window 32.C opens)
      params = {
        group = { type = "group", domain = function(ctx, _, side) return ctx:query("side_groups", side) end },
        path = "table?",
        -- a hex or hexside label; the domain: where the MPs left reach, with the cost
        to = { type = "any", optional = true, depends = { "group" }, domain = function(ctx, p) return destinations(ctx, p.group) end },
      },
      legal = function(ctx, p)
        local game = ctx.game
        local m = move_rec(ctx, p.group)
        if m.why then return m.why end
        local b = m.spec   -- a copy: the check moves its coast along
        local spec = { side = b.side, profile = b.profile, friendly = b.friendly, conditions = b.conditions,
                       hex = b.hex, coast = b.coast, allowance = b.allowance, spent = b.spent }
        local path = hex_path(ctx, m, p, spec)
        if path then return check_hexes(ctx, m, spec, path) end
        local steps, err = plan(ctx, p.group, p, spec, m.pos)
        if not steps then return err end
        local cur = m.pos
        local total = 0
        for _, n in ipairs(steps) do
          local reason, cost, coast = step_memo(ctx, m, spec, cur, n)
          if reason then return reason end
          total = total + cost
          if spec.spent + total > spec.allowance then
            return ("32.A: not enough MPs to reach %s (%d needed, %d left)"):format(
              name_of(game.board, n), total, spec.allowance - spec.spent)
          end
          spec.coast = coast
          cur = n
        end
      end,
      effect = function(ctx, p)
        local g = p.group
        local steps = plan(ctx, g, p)
        local st = new_state(ctx, g)
        local start, in_port = position(ctx, g)
        if start and start.kind == "hex" then st.from = start.id end
        if in_port and #steps > 0 then
          if put_to_sea(ctx, st) == "stopped" then return finish(ctx, st) end
        end
        local i = 1
        while i <= #steps do
          local cur = position(ctx, g)
          if cur.kind == "hex" and steps[i].kind == "hex" then
            local run = {}
            while steps[i] and steps[i].kind == "hex" do run[#run + 1] = steps[i].id; i = i + 1 end
            if run_hexes(ctx, st, run) == "stopped" then break end
          else
            local res = river_move(ctx, st, cur, steps[i])
            i = i + 1
            if res == "stopped" then break end
          end
        end
        return finish(ctx, st)
      end,
    },
    -- a blockaded (or any) group in port puts to sea in the port's hex
    put_to_sea = {
      phases = { "movement" },
      params = { group = { type = "group", domain = function(ctx, _, side) return ctx:query("side_groups", side) end } },
      legal = function(ctx, p)
        local why = ctx:query("may_move", p.group)
        if why then return why end
        local _, in_port = ctx:query("group_hex", p.group)
        if not in_port then return "32.A.2: the group is not in port" end
      end,
      effect = function(ctx, p)
        local st = new_state(ctx, p.group)
        put_to_sea(ctx, st)
        return finish(ctx, st)
      end,
    },
    -- spend MPs for an activity of the Naval MP Cost Summary (32.A.3)
    spend = {
      phases = { "movement" },
      params = {
        group = { type = "group", domain = function(ctx, _, side) return ctx:query("side_groups", side) end },
        activity = { type = "string", depends = { "group" },
                     domain = function(ctx, p) return ctx:query("mp_activities", p.group) end },
        opts = "table?",
      },
      legal = function(ctx, p)
        local cost, why = ctx:query("activity_cost", p.group, p.activity, p.opts)
        if not cost then return why end
        local left = ctx:query("mp_left", p.group)
        if cost > left then
          return ("32.A.3: %s costs %d MPs, %d left"):format(p.activity, cost, left)
        end
      end,
      effect = function(ctx, p)
        local cost = ctx:query("activity_cost", p.group, p.activity, p.opts)
        spend_activity(ctx, p.group, p.activity, cost)
        return cost
      end,
    },
  },
  on = {
    -- another rule spends MPs for a group the same way (Rule 37's landings):
    -- {group, activity, cost}; the MPs are spent one by one, with the same
    -- events (coast defences, searches), and ev.stop says why they stopped
    spend_mps = function(ctx, ev)
      ev.stop = spend_activity(ctx, ev.group, ev.activity, ev.cost)
    end,
  },
}

-- ---- what the parameters may take (keel.legal) --------------------------------------

-- the hexes (labels) a group reaches with the MPs it has left, and the
-- riverine hexsides and hexes beyond them, each with its cost in MPs
function destinations(ctx, g)
  local board = ctx.game.board
  -- a group that may not move now has nowhere to go (move's check says why)
  local m = move_rec(ctx, g)
  if m.why then return nil, m.why end
  local pos = position(ctx, g)
  if not pos or not board then return nil, "the group has no units on the board" end
  local spec = spec_of(ctx, g)
  local left = spec.allowance - spec.spent
  if left <= 0 then return nil, "32.A: the group has no MPs left" end
  local side = ctx:query("group_side", g)
  local out, seen = {}, {}
  local function add(n, cost)
    local label = name_of(board, n)
    if seen[label] or (n.kind == pos.kind and n.id == pos.id) then return end
    seen[label] = true
    out[#out + 1] = { value = label, cost = cost }
  end
  if pos.kind == "hex" then
    local r = reach_of(ctx, g, spec, pos, left)
    if r then
      for _, h in ipairs(r:hexes()) do add({ kind = "hex", id = h }, r:cost(h)) end
    end
  end
  local rg = ctx:river_graph(spec.profile)
  if rg:has_node(pos) then
    local beyond = ctx:query("beyond_inland_ports", spec.profile)
    local nodes = rg:reach(pos, left, { allow = function(kind, id)
      if kind == "side" then return not beyond[id] and ctx:query("riverine_allowed", g, id) == nil end
      return ctx:query("entry_blocked", side, id) == nil
    end })
    for _, n in ipairs(nodes or {}) do add(n, n.cost) end
  end
  return out
end

-- ---- planning and checking a path ---------------------------------------------------

-- The hexes group g reaches from `pos` (a hex) with `left` MPs, as ctx:reach
-- gives them (nil: none): searched once per state of the game (ctx:cache),
-- so that a listing's destinations and every move it checks share it.
-- `spec` is spec_of(ctx, g) in this state.
function reach_of(ctx, g, spec, pos, left)
  local cache = ctx:cache("navgroup.reach")
  local e = cache[g]
  if not e or e.at ~= pos.id or e.left ~= left or e.coast ~= spec.coast then
    local r = ctx:reach(spec, pos.id, left, { blocked = ctx:query("blocked_hexes", spec.side), coast = spec.coast })
    e = { at = pos.id, left = left, coast = spec.coast, r = r or false }
    cache[g] = e
  end
  return e.r or nil
end

-- What move's check works out for group g once per state of the game
-- (ctx:cache), so that the moves of one listing share it: why it may not
-- move (may_move, then 32.A.4), else its spec, position and the steps
-- checked so far.
function move_rec(ctx, g)
  local cache = ctx:cache("navgroup.move")
  local m = cache[g]
  if m then return m end
  local why = ctx:query("may_move", g)
  if not why and ctx.game:group_get_value(g, "move_ended") then
    why = "32.A.4: the group has ended its movement this step"
  end
  m = { g = g, why = why, known = {} }
  if not why then m.spec, m.pos = spec_of(ctx, g), position(ctx, g) end
  cache[g] = m
  return m
end

-- The path of a move `p` to a destination hex from the hex the group of
-- move_rec `m` is in, as plan finds it (the cheapest in the reach of its
-- MPs: {hex...} from its own), when plan would take it; else nil (plan
-- tells). `spec` is the group's spec.
function hex_path(ctx, m, p, spec)
  local pos = m.pos
  if p.path or p.to == nil or not pos or pos.kind ~= "hex" then return nil end
  local board = ctx.game.board
  local to = p.to
  local dest
  if math.type(to) == "integer" then
    if keel.hex.is_valid(to) and board:contains(to) then dest = to end
  elseif type(to) == "string" and not to:find("/", 1, true) then
    dest = board:hex(to)
  end
  local left = spec.allowance - spec.spent
  if not dest or math.type(left) ~= "integer" or left < 0 then return nil end
  local r = reach_of(ctx, m.g, spec, pos, left)
  return r and r:cost(dest) and r:path(dest) or nil
end

-- move's check of a path of hexes (hex_path's) for the group of move_rec
-- `m`, as its legal checks plan's steps: nil, or why not.
function check_hexes(ctx, m, spec, path)
  local known = m.hex_known   -- coast -> from -> to -> {reason, cost, coast}
  if not known then known = {}; m.hex_known = known end
  local cur, total, left = path[1], 0, spec.allowance - spec.spent
  for i = 2, #path do
    local n = path[i]
    local c = spec.coast
    local byc = known[c]
    if not byc then byc = {}; known[c] = byc end
    local byf = byc[cur]
    if not byf then byf = {}; byc[cur] = byf end
    local r = byf[n]
    if not r then
      r = table.pack(check_step(ctx, m.g, spec, { kind = "hex", id = cur }, { kind = "hex", id = n }))
      byf[n] = r
    end
    if r[1] then return r[1] end
    total = total + r[2]
    if total > left then
      return ("32.A: not enough MPs to reach %s (%d needed, %d left)"):format(ctx.game.board:format(n), total, left)
    end
    spec.coast = r[3]
    cur = n
  end
end

-- check_step for the group of move_rec `m`, its answers kept with it:
-- reason | nil, cost, coast. The moves of one listing share most of their
-- steps. (`spec` is the group's spec, its coast the coast the step starts on.)
local function key_of(n) return n.kind == "hex" and n.id * 2 or n.id * 2 + 1 end
function step_memo(ctx, m, spec, from, to)
  local known = m.known   -- coast -> from key -> to key -> {reason, cost, coast}
  local c = spec.coast
  local byc = known[c]
  if not byc then byc = {}; known[c] = byc end
  local fk = key_of(from)
  local byf = byc[fk]
  if not byf then byf = {}; byc[fk] = byf end
  local tk = key_of(to)
  local r = byf[tk]
  if not r then
    r = table.pack(check_step(ctx, m.g, spec, from, to))
    byf[tk] = r
  end
  return r[1], r[2], r[3]
end

-- a step of a path: {kind = "hex"|"side", id = n}, from a hex, a label, a
-- place name or a hexside label ("23A:3227/3327")
local function node_of(board, x)
  if math.type(x) == "integer" then
    -- an integer is a hex id: one the board holds (any other, valid or not, is no hex here)
    if not keel.hex.is_valid(x) or not board:contains(x) then return nil, ("%d, not a hex on the board"):format(x) end
    return { kind = "hex", id = x }
  end
  if type(x) ~= "string" then return nil, "a hex or hexside label expected, got " .. type(x) end
  if x:find("/", 1, true) then
    local s, why = board:side(x)
    if not s then return nil, why end
    return { kind = "side", id = s }
  end
  local h, why = board:hex(x)
  if not h then return nil, why end
  return { kind = "hex", id = h }
end

function name_of(board, n)
  return n.kind == "hex" and board:format(n.id) or board:format_side(n.id)
end

-- where the group is: node, in_port
function position(ctx, g)
  local rs = ctx.game:group_get_value(g, "river_side")
  local hex, in_port = ctx:query("group_hex", g)
  if rs then return { kind = "side", id = rs }, false end
  if not hex then return nil end
  return { kind = "hex", id = hex }, in_port
end

-- the group as the movement engine sees it
function spec_of(ctx, g)
  local game = ctx.game
  local side = ctx:query("group_side", g)
  local hex = ctx:query("group_hex", g)
  return {
    side = side, profile = ctx:query("movement_profile", g),
    friendly = side and { side } or nil,
    conditions = side and { both_friendly = ctx:query("strait_conditions") } or nil,
    hex = hex, coast = game:group_get_value(g, "coast") or 0,
    allowance = ctx:query("allowance", g), spent = game:group_get_value(g, "mp_spent") or 0,
  }
end

-- nil, cost, coast when the group may take the step from `from` to `to`
-- (nodes), else the reason
function check_step(ctx, g, spec, from, to)
  local board = ctx.game.board
  local side = spec.side
  if to.kind == "hex" then
    local t = board:get_terrain(to.id)
    if t == "restricted" then return "32.A: a naval group cannot enter a restricted waters hex" end
    if t ~= "all-sea" and t ~= "coastal" and t ~= "lake" then
      return ("32.A: a naval group moves in all-sea or coastal hexes (%s is %s)"):format(board:format(to.id), t)
    end
    local why = ctx:query("entry_blocked", side, to.id)
    if why then return why end
  end
  if from.kind == "hex" and to.kind == "hex" then
    local why = ctx:query("strait_check", side, from.id, to.id)
    if why then return why end
    local cost, coast = ctx:step_cost(spec, from.id, to.id, spec.coast)
    if not cost then
      return ("32.A: no all-water/adjacent route from %s to %s"):format(board:format(from.id), board:format(to.id))
    end
    return nil, cost, coast
  end
  local why, cost = ctx:query("river_step", g, spec.profile, from, to)
  if why then return why end
  return nil, cost, 0
end

-- a path ({label...} or a destination) as nodes from the group's position
-- (spec: the group's spec_of, when the caller has it)
function plan(ctx, g, p, spec, pos)
  local board = ctx.game.board
  pos = pos or position(ctx, g)
  if not pos then return nil, "the group has no units on the board" end
  local steps = {}
  if p.path then
    for i, x in ipairs(p.path) do
      local n, why = node_of(board, x)
      if not n then return nil, ("path[%d]: %s"):format(i, tostring(why)) end
      if not (i == 1 and n.kind == pos.kind and n.id == pos.id) then steps[#steps + 1] = n end
    end
    return steps
  end
  if not p.to then return nil, "move: give a path or a destination (to)" end
  local dest, why = node_of(board, p.to)
  if not dest then return nil, "to: " .. tostring(why) end
  spec = spec or spec_of(ctx, g)
  local left = spec.allowance - spec.spent
  local side = spec.side
  if pos.kind == "hex" and dest.kind == "hex" then
    local path
    if math.type(left) == "integer" and left >= 0 then
      -- the reach the destinations domain searched (ctx:path is that search's path)
      local r = reach_of(ctx, g, spec, pos, left)
      path = r and r:cost(dest.id) and r:path(dest.id)
    else
      path = ctx:path(spec, pos.id, dest.id, left, { blocked = ctx:query("blocked_hexes", side), coast = spec.coast })
    end
    if path then
      for i = 2, #path do steps[#steps + 1] = { kind = "hex", id = path[i] } end
      return steps
    end
  end
  local rg = ctx:river_graph(spec.profile)
  if rg:has_node(pos) and rg:has_node(dest) then
    local beyond = ctx:query("beyond_inland_ports", spec.profile)
    local route = rg:path(pos, dest, left, { allow = function(kind, id)
      if kind == "side" then return not beyond[id] and ctx:query("riverine_allowed", g, id) == nil end
      return ctx:query("entry_blocked", side, id) == nil
    end })
    if route then
      for i = 2, #route do steps[#steps + 1] = route[i] end
      return steps
    end
  end
  return nil, ("move: %s cannot be reached with %d MPs left"):format(name_of(board, dest), left)
end

-- ---- executing a move ---------------------------------------------------------------

-- the combats an event's handlers started, in order: every entry of
-- ev.combats (32.D puts all of them there), and ev.combat when it is not one
-- of them (a handler that sets only the first)
local function started(ev)
  local list = {}
  for _, c in ipairs(ev.combats or {}) do list[#list + 1] = c end
  if ev.combat then
    local listed = false
    for _, c in ipairs(list) do if c == ev.combat then listed = true end end
    if not listed then table.insert(list, 1, ev.combat) end
  end
  return list
end

local function verdict(st, ev)
  if ev.combat == nil and ev.combats == nil then   -- the usual case: no combat started
    if ev.stop then st.stop = ev.stop; return "stop" end
    return "continue"
  end
  local list = started(ev)
  for _, c in ipairs(list) do st.combats[#st.combats + 1] = { combat = c, hex = ev.hex or ev.to } end
  if ev.stop then st.stop = ev.stop; return "stop" end
  if #list > 0 then return "pause" end
  return "continue"
end

-- one MP spent: state, then the mp_spent event
function spend_one(ctx, st, hex, activity, cost, left_hex)
  local game = ctx.game
  st.spent = st.spent + 1
  game:group_set_value(st.g, "mp_spent", st.spent)
  local night = game:get_global("night") == true
  if night then game:group_set_value(st.g, "night_mp", (game:group_get_value(st.g, "night_mp") or 0) + 1) end
  local ev = { group = st.g, hex = hex, mp = 1, spent = st.spent, activity = activity, cost = cost,
    left_hex = left_hex, night = night, river_side = game:group_get_value(st.g, "river_side") }
  ctx:emit("mp_spent", ev)
  return verdict(st, ev)
end

local function place_units(ctx, g, kind, hex)
  local game, units = ctx.game, ctx:query("group_members", g)
  for i = 1, #units do game:move(units[i], kind, hex) end
end

local function enters(ctx, st, from, to, side, cost)
  local ev = { group = st.g, from = from, to = to, side = side, cost = cost, spent = st.spent,
    reacting = ctx.game:group_get_value(st.g, "reacting") == true }
  ctx:emit("group_enters_hex", ev)
  return verdict(st, ev)
end

-- the combats the rules called for: naval_combat each, then go on or stop
function fight(ctx, st)
  local game = ctx.game
  local list = st.combats
  st.combats = {}
  for _, c in ipairs(list) do
    if #ctx:query("group_members", st.g) == 0 then break end     -- sunk in an earlier combat
    -- the entry's fields (kind, enemy, cd, fired_by, value, halved, rule...),
    -- then the group, the hex and the first round
    local ev = {}
    for k, v in pairs(c.combat) do ev[k] = v end
    ev.group, ev.hex, ev.round = st.g, c.hex, 1
    ctx:emit("naval_combat", ev)
    if not ev.resolved then
      -- the record: keyed value `engagement` {n}, n = 1, 2 ...
      local text = ("%s combat: %s at %s%s%s"):format(
        ev.kind == "cd" and "CD" or tostring(ev.kind), game:group_get_name(st.g), game.board:format(c.hex),
        ev.enemy and (" with enemy " .. game:group_get_name(ev.enemy)) or
        ev.cd and (" with the CD at " .. game.board:format(ev.cd)) or "",
        ev.fired_by and (" (fired by the %s)"):format(ev.fired_by == "cd" and "CD" or ev.fired_by) or "")
      game:set_keyed("engagement", game:count_keyed("engagement") + 1, text)
      ctx:say("naval combat recorded: %s", text)
    end
  end
  st.spent = game:group_get_value(st.g, "mp_spent") or st.spent
  if #ctx:query("group_members", st.g) == 0 then st.stop = st.stop or "the group is gone"; return "stopped" end
  if st.stop then return "stopped" end
  if ctx:query("mp_left", st.g) <= 0 then st.stop = "no MPs left"; return "stopped" end
  return "go"
end

-- hex to hex through the engine's mover
function run_hexes(ctx, st, run)
  local game = ctx.game
  local k = 1
  while k <= #run do
    local spec = spec_of(ctx, st.g)
    local moved = 0   -- hexes entered by this mover
    local callbacks = {
      mp_spent = function(_, ev) return spend_one(ctx, st, ev.hex, "enter", nil, true) end,
      hex_entered = function(mv, ev)
        moved = moved + 1
        local pos = mv:position()
        place_units(ctx, st.g, "hex", ev.hex)
        game:group_set_value(st.g, "coast", pos.coast)
        game:group_set_value(st.g, "in_port", false)
        game:group_set_value(st.g, "moved", true)
        st.path[#st.path + 1] = { "hex", ev.hex }
        return enters(ctx, st, ev.from, ev.hex, game.board:side(ev.from, ev.hex), ev.cost)
      end,
    }
    local mv = ctx:mover(spec, callbacks, { blocked = ctx:query("blocked_hexes", ctx:query("group_side", st.g)) })
    local rest = {}
    for j = k, #run do rest[#rest + 1] = run[j] end
    local res, why = mv:move_along(rest)
    k = k + moved
    if not res then st.stop = why; return "stopped" end
    if #st.combats > 0 then
      if fight(ctx, st) == "stopped" then return "stopped" end
    elseif res == "stopped" then
      return "stopped"
    end
  end
  return "done"
end

-- one step onto or along a riverine hexside, or off it into a hex
function river_move(ctx, st, from, to)
  local game = ctx.game
  local why, cost = ctx:query("river_step", st.g, ctx:query("movement_profile", st.g), from, to)
  if why then st.stop = why; return "stopped" end
  local hex = to.kind == "hex" and to.id or (ctx:query("inland_port_at", to.id) or keel.hex.side_hexes(to.id))
  local v = "continue"
  for _ = 1, cost do
    local x = spend_one(ctx, st, hex, "enter", nil, true)
    if x == "stop" or (x == "pause" and v == "continue") then v = x end
  end
  place_units(ctx, st.g, "hex", hex)
  game:group_set_value(st.g, "moved", true)
  game:group_set_value(st.g, "in_port", false)
  if to.kind == "side" then
    game:group_set_value(st.g, "river_side", to.id)
    st.path[#st.path + 1] = { "side", to.id }
  else
    game:group_set_value(st.g, "river_side", nil)
    game:group_set_value(st.g, "coast", 0)
    st.path[#st.path + 1] = { "hex", to.id }
    local x = enters(ctx, st, from.kind == "hex" and from.id or hex, to.id, from.kind == "side" and from.id or nil, cost)
    if x == "stop" or (x == "pause" and v == "continue") then v = x end
  end
  if #st.combats > 0 then
    if fight(ctx, st) == "stopped" then return "stopped" end
  elseif v == "stop" then
    return "stopped"
  end
  return "done"
end

-- leave port into the port's hex (32.A.2: a blockaded group puts to sea in
-- the enemy group's hex, which starts naval combat)
function put_to_sea(ctx, st)
  local game = ctx.game
  local hex = ctx:query("group_hex", st.g)
  place_units(ctx, st.g, "hex", hex)
  game:group_set_value(st.g, "in_port", false)
  local blocker = ctx:query("blocking_group", ctx:query("group_side", st.g), hex)
  local ev = { group = st.g, from = hex, to = hex, cost = 0, spent = st.spent, put_to_sea = true,
    reacting = game:group_get_value(st.g, "reacting") == true }
  ctx:emit("group_enters_hex", ev)
  verdict(st, ev)
  if #st.combats == 0 and blocker then
    st.combats[1] = { combat = { kind = "surface", enemy = blocker, fired_by = "group" }, hex = hex }
    ctx:say("32.A.2: %s puts to sea from a blockaded port into the hex of enemy %s: naval combat",
      game:group_get_name(st.g), game:group_get_name(blocker))
  end
  if #st.combats > 0 then return fight(ctx, st) == "stopped" and "stopped" or "done" end
  if st.stop then return "stopped" end
  return "done"
end

-- spend `cost` MPs on an activity where the group is, one by one (the
-- combats they start are fought); returns why it stopped, if it did
function spend_activity(ctx, g, activity, cost)
  local st = new_state(ctx, g)
  local hex = ctx:query("group_hex", g)
  local left_hex = ctx.game:group_get_value(g, "moved") == true
  for _ = 1, cost do
    local v = spend_one(ctx, st, hex, activity, cost, left_hex)
    if v == "stop" then break end
  end
  if #st.combats > 0 then fight(ctx, st) end
  return finish(ctx, st)
end

function new_state(ctx, g)
  return { g = g, spent = ctx.game:group_get_value(g, "mp_spent") or 0, combats = {}, path = {} }
end

function finish(ctx, st)
  local game = ctx.game
  -- the hexes (and riverine hexsides) of this move, first to last, for
  -- pictures (query last_path): keyed value `last_path` {i, "hex"|"side"} = id
  if #st.path > 0 then
    local path = {}
    if st.from then path[1] = { "hex", st.from } end
    for _, p in ipairs(st.path) do path[#path + 1] = p end
    for i = game:count_keyed("last_path"), 1, -1 do     -- what the new path does not overwrite
      local key = game:at_keyed("last_path", i)
      local p = path[key[1]]
      if not p or p[1] ~= key[2] then game:set_keyed("last_path", key, nil) end
    end
    for i, p in ipairs(path) do
      if game:get_keyed("last_path", { i, p[1] }) ~= p[2] then game:set_keyed("last_path", { i, p[1] }, p[2]) end
    end
  end
  if st.stop then
    game:group_set_value(st.g, "move_ended", true)
    ctx:say("%s stops: %s", game:group_get_name(st.g), tostring(st.stop))
  end
  return st.stop
end

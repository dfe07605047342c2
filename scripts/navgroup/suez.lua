-- 32.A.6.a The Suez Canal: Allied groups only, along Allied-owned canal
-- hexsides while the canal is open; hexside ownership (owns both hexes, or
-- was the last to); open / temporarily closed / permanently closed, each
-- change at its initial phase; 25 VPs lost on a direct Open -> Permanently
-- Closed change.
-- State: global `suez` (the status); keyed values `suez_side` {hexside} =
-- the side that last owned both its hexes, and `vp` {side} = victory
-- points. Whose initial phase it is, the sequence of play says (globals
-- `phase` and `phasing`, keel.sequence).
-- The helpers the rule uses follow it.

local canal_sides, refresh, side_owner, status, in_initial_phase, axis_in_delta   -- helpers, below the rule

rule {
  id = "32.A.6.a", title = "The Suez Canal",
  priority = 100,     -- status changes come first in the initial phase
  values = {
    name = "Suez", from = "Port Said", to = "Suez",
    allied = "Allied", axis = "Axis",
    delta_tag = "delta",
    supply_query = false, -- a query name (unit -> "regular"|...) if another chapter answers it
    vp_loss = 25,
    initial_phase = "initial",   -- the name of the initial phase in the sequence of play
  },
  queries = {
    suez_sides = function(ctx) return { table.unpack(canal_sides(ctx)) } end,
    suez_status = function(ctx) return status(ctx) end,
    -- who owns a canal hexside: owns both hexes, or was the last to
    suez_side_owner = function(ctx, s) return side_owner(ctx, s) end,
    suez_allows = function(ctx, g, s)
      local v = ctx.rule.values
      local side = ctx:query("group_side", g)
      if side ~= v.allied then return "32.A.6.a: Axis naval groups may never move along the Suez Canal" end
      if status(ctx) ~= "open" then return "32.A.6.a: the Suez Canal is " .. status(ctx) end
      if side_owner(ctx, s) ~= v.allied then
        return ("32.A.6.a: the canal hexside %s is not Allied-owned"):format(ctx.game.board:format_side(s))
      end
      return nil
    end,
    -- nil when the Allied player may close the canal now, else why not
    suez_can_close = function(ctx)
      local v = ctx.rule.values
      if not in_initial_phase(ctx, v.allied) then return "32.A.6.a: only in an Allied initial phase" end
      if status(ctx) ~= "open" then return "32.A.6.a: only an open canal is temporarily closed" end
      if not axis_in_delta(ctx) then
        return "32.A.6.a: no Axis unit in regular supply in the Egyptian Delta"
      end
      return nil
    end,
    suez_can_reopen = function(ctx)
      local v = ctx.rule.values
      if not in_initial_phase(ctx, v.allied) then return "32.A.6.a: only in an Allied initial phase" end
      if status(ctx) ~= "temporarily closed" then return "32.A.6.a: only a temporarily closed canal reopens" end
      for _, s in ipairs(canal_sides(ctx)) do
        if side_owner(ctx, s) ~= v.allied then
          return ("32.A.6.a: the canal hexside %s is not Allied-owned"):format(ctx.game.board:format_side(s))
        end
      end
      return nil
    end,
  },
  on = {
    game_start = function(ctx)
      if ctx.game:get_global("suez") == nil then ctx.game:set_global("suez", "open") end
      refresh(ctx)
    end,
    owner_changed = function(ctx) refresh(ctx) end,
    turn_start = function(ctx) refresh(ctx) end,
    player_turn_start = function(ctx) refresh(ctx) end,
    naval_step_start = function(ctx) refresh(ctx) end,
    player_turn_end = function(ctx) refresh(ctx) end,
    -- permanent closure, automatic at the start of the first Allied or Axis
    -- initial phase with an Axis-owned canal hexside
    initial_phase = function(ctx, ev)
      local v, game = ctx.rule.values, ctx.game
      refresh(ctx)
      if ev.side ~= v.allied and ev.side ~= v.axis then return end
      local was = status(ctx)
      if was == "permanently closed" then return end
      for _, s in ipairs(canal_sides(ctx)) do
        if side_owner(ctx, s) == v.axis then
          game:set_global("suez", "permanently closed")
          ctx:say("the Suez Canal is permanently closed (%s is Axis-owned)", game.board:format_side(s))
          if was == "open" then
            game:set_keyed("vp", v.allied, (game:get_keyed("vp", v.allied) or 0) - v.vp_loss)
            ctx:say("the Allied player loses %d victory points", v.vp_loss)
          end
          return
        end
      end
    end,
  },
  actions = {
    close_suez = {
      params = {}, phases = { "initial" },
      legal = function(ctx) return ctx:query("suez_can_close") end,
      effect = function(ctx)
        ctx.game:set_global("suez", "temporarily closed")
        ctx:say("the Allied player temporarily closes the Suez Canal")
      end,
    },
    reopen_suez = {
      params = {}, phases = { "initial" },
      legal = function(ctx) return ctx:query("suez_can_reopen") end,
      effect = function(ctx)
        ctx.game:set_global("suez", "open")
        ctx:say("the Allied player reopens the Suez Canal")
      end,
    },
  },
}

-- ---- helpers used by the rule -------------------------------------------------------

-- The canal's hexsides depend on the board alone: worked out once per
-- board, canal name and port (read them, never change them).
local per_board = setmetatable({}, { __mode = "k" })
local function board_cache(ctx)
  local v, board = ctx.rule.values, ctx.game.board
  local by = per_board[board]
  if not by then by = {}; per_board[board] = by end
  local k = tostring(v.name) .. "|" .. tostring(v.from)
  local c = by[k]
  if not c then c = {}; by[k] = c end
  return c
end

local find_canal_sides

-- the canal's hexsides, in side order: those named `name` reachable along
-- riverine hexsides from the sides of the hex of `from` (none in a game
-- without a board, or on a map without the canal's port)
function canal_sides(ctx)
  if not ctx.game.board then return {} end
  local c = board_cache(ctx)
  if not c.sides then c.sides = find_canal_sides(ctx) end
  return c.sides
end

function find_canal_sides(ctx)
  local v, board = ctx.rule.values, ctx.game.board
  local start = board:hex(v.from)
  if not start then return {} end
  local seen, list, queue = {}, {}, {}
  local function visit(s)
    if s and not seen[s] then
      seen[s] = true
      local f = board:get_features(s)
      if f and f.riverine == "canal" and f.name == v.name then
        list[#list + 1] = s
        queue[#queue + 1] = s
      end
    end
  end
  for _, n in ipairs(keel.hex.neighbors(start)) do
    if board:contains(n) then visit(board:side(start, n)) end
  end
  local i = 1
  while queue[i] do
    for _, t in ipairs(board:riverine_neighbors(queue[i]) or {}) do visit(t) end
    i = i + 1
  end
  table.sort(list)
  return list
end

-- bring the stored hexside owners up to date: a side owning both hexes owns the hexside
function refresh(ctx)
  local game = ctx.game
  local sides = canal_sides(ctx)
  for i = 1, #sides do
    local s = sides[i]
    local a, b = keel.hex.side_hexes(s)
    local oa, ob = game:get_owner(a), game:get_owner(b)
    if oa and oa == ob and game:get_keyed("suez_side", s) ~= oa then game:set_keyed("suez_side", s, oa) end
  end
end

function side_owner(ctx, s)
  local game = ctx.game
  local a, b = keel.hex.side_hexes(s)
  local oa, ob = game:get_owner(a), game:get_owner(b)
  if oa and oa == ob then return oa end
  return game:get_keyed("suez_side", s)
end

function status(ctx) return ctx.game:get_global("suez") or "open" end

function in_initial_phase(ctx, side)
  local game = ctx.game
  return game:get_global("phase") == ctx.rule.values.initial_phase and game:get_global("phasing") == side
end

-- an Axis unit in regular supply anywhere in the Egyptian Delta?
function axis_in_delta(ctx)
  local v, game, board = ctx.rule.values, ctx.game, ctx.game.board
  if not board then return false end
  for _, u in ipairs(game:units { side = v.axis }) do
    local kind, where = game:get(u, "loc")
    if (kind == "hex" or kind == "port") and board:has_tag(where, v.delta_tag) then
      local supply
      if v.supply_query then supply = ctx:query(v.supply_query, u) else supply = game:get_value(u, "supply") end
      if supply == "regular" then return true end
    end
  end
  return false
end

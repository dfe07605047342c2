-- 32.A General rule for naval movement; 32.A.1 combining/splitting;
-- 32.A.1.a/b combining at the end of the player-turn. The queries here
-- (group_members, group_kind, group_side, group_hex, friendly, allowance,
-- mp_left, sea_distance, may_move, naval_group) are the contract other rule
-- areas use. The helpers the rules share follow the rules.

local members, kind_of, absorb, same_place, end_of_turn_combine, is_reacting, sea_reach   -- helpers, below the rules
local KEPT                                                       -- the values a split part keeps (below)

rule {
  id = "32.A", title = "General rule for naval movement",
  values = {
    allowance = 15,            -- a phasing group's MPs per naval movement step (or as printed: unit value mp)
    reacting_allowance = 15,   -- reacting groups: 15 MPs per naval movement step
    combat_types = { TF = true, CG = true },
    cargo_types = { NT = true, LC = true, LB = true },
    submarine_types = { SUB = true },
    naval_types = { TF = true, CG = true, NT = true, LC = true, LB = true, SUB = true, RF = true },
    sea_rows = { enter = { ["all-sea"] = 1, coastal = 1 },
                 cross = { ["all-water"] = 0, ["partial-water"] = 0 }, water_route = true },
  },
  queries = {
    -- the units of the group in play, in group order
    group_members = function(ctx, g) return members(ctx.game, g) end,
    group_kind = function(ctx, g)
      local k = ctx.game:group_get_value(g, "kind")
      if k then return k end
      return kind_of(ctx.rule.values, ctx.game, members(ctx.game, g))
    end,
    group_side = function(ctx, g)
      local game = ctx.game
      local s = game:group_get_value(g, "side")
      if s then return s end
      local first = game:group_units(g, true)[1]   -- the first unit in play
      return first and game:get(first, "side")
    end,
    -- hex, in_port: where the group's first unit is (at sea or in port)
    group_hex = function(ctx, g)
      local game = ctx.game
      local units = game:group_units(g, true)
      for i = 1, #units do   -- a unit out of play is neither at sea nor in port
        local kind, where = game:get(units[i], "loc")
        if kind == "hex" then return where, false end
        if kind == "port" then return where, true end
      end
      return nil
    end,
    friendly = function(ctx, side, hex)
      return side ~= nil and ctx.game:get_owner(hex) == side
    end,
    -- MPs for this step: as set for the step (combining), as set on the
    -- group, 15 when reacting, else 15 or the slowest printed allowance
    allowance = function(ctx, g)
      local game, v = ctx.game, ctx.rule.values
      local a = game:group_get_value(g, "step_allowance") or game:group_get_value(g, "allowance")
      if a then return a end
      if game:group_get_value(g, "reacting") then return v.reacting_allowance end
      local best
      local units = members(game, g)
      for i = 1, #units do
        local mp = game:get_value(units[i], "mp") or v.allowance
        if not best or mp < best then best = mp end
      end
      return best or v.allowance
    end,
    mp_left = function(ctx, g)
      return ctx:query("allowance", g) - (ctx.game:group_get_value(g, "mp_spent") or 0)
    end,
    -- hexes traced by sea (water routes through all-sea and coastal hexes),
    -- or nil beyond limit (and nil, reason in a game without a board: no
    -- sea to trace through)
    sea_distance = function(ctx, from, to, limit)
      local board = ctx.game.board
      if not board then return nil, "32.A: this game has no board" end
      local p = ctx:profile("naval_mp_cost", "TF", ctx.rule.values.sea_rows)
      local r = sea_reach(ctx, board, p, from, limit or 60)
      if not r then return nil end
      return (r:cost(to))
    end,
    -- nil when the group may move now, else why not (32.A: non-reserve
    -- groups in the player's naval movement steps, reserve groups in the
    -- enemy's; reaction movement at any time)
    may_move = function(ctx, g)
      local game = ctx.game
      if #members(game, g) == 0 then return "the group has no units" end
      local phasing = game:get_global("phasing")
      if not phasing then return nil end
      local side = ctx:query("group_side", g)
      local reserve = game:group_get_value(g, "reserve")
      if game:group_get_value(g, "reacting") then return nil end
      if side == phasing then
        if reserve then return "32.A: reserve naval groups move in the enemy player-turn" end
        return nil
      end
      if reserve then return nil end
      return "32.A: non-reserve naval groups move in their own player's naval movement steps"
    end,
    -- the naval groups of `side` (every side when nil) that have units, in
    -- id order: what the actions' parameter domains offer (keel.legal)
    -- the groups with a unit on the map, at sea or in port, in id order (the
    -- kernel's index): only they have a hex (group_hex)
    groups_on_board = function(ctx)
      local game = ctx.game
      local at_sea, in_port = game:groups { loc = "hex" }, game:groups { loc = "port" }
      if #in_port == 0 then return at_sea end
      local out, i, j = {}, 1, 1
      while i <= #at_sea or j <= #in_port do
        local a, b = at_sea[i], in_port[j]
        if b == nil or (a ~= nil and a < b) then out[#out + 1] = a; i = i + 1
        elseif a == nil or b < a then out[#out + 1] = b; j = j + 1
        else out[#out + 1] = a; i = i + 1; j = j + 1 end
      end
      return out
    end,
    -- (worked out once per state of the game: every action's group domain asks it)
    side_groups = function(ctx, side)
      local cache = ctx:cache("navgroup.side_groups")
      local key = side == nil and true or side
      local list = cache[key]
      if not list then
        list = {}
        for _, g in ipairs(ctx.game:groups()) do
          if ctx:query("naval_group", g) and (side == nil or ctx:query("group_side", g) == side) then
            list[#list + 1] = g
          end
        end
        cache[key] = list
      end
      local out = {}   -- the caller's own list
      for i = 1, #list do out[i] = list[i] end
      return out
    end,
    naval_group = function(ctx, g)
      local game, naval = ctx.game, ctx.rule.values.naval_types
      local units, any = game:group_units(g), false
      for i = 1, #units do   -- every unit in play is naval, and there is one
        local u = units[i]
        if game:get(u, "loc") ~= "dead" then
          if not naval[game:get(u, "type")] then return false end
          any = true
        end
      end
      return any
    end,
  },
  on = {
    -- MPs count per naval movement step
    naval_step_start = function(ctx)
      local game = ctx.game
      for _, g in ipairs(game:groups()) do
        if game:group_get_value(g, "mp_spent") ~= nil or game:group_get_value(g, "moved") ~= nil then
          game:group_set_value(g, "mp_spent", 0)
          game:group_set_value(g, "night_mp", 0)
          game:group_set_value(g, "moved", false)
        end
        if game:group_get_value(g, "step_allowance") ~= nil then game:group_set_value(g, "step_allowance", nil) end
        if game:group_get_value(g, "move_ended") ~= nil then game:group_set_value(g, "move_ended", nil) end
      end
    end,
  },
}

rule {
  id = "32.A.1", title = "Combining/splitting naval groups",
  actions = {
    -- two phasing groups in the same hex combine; the combined group has
    -- spent the most MPs either had, with that group's allowance
    combine = {
      phases = { "movement" },   -- in the naval movement steps
      params = {
        group = { type = "group", domain = function(ctx, _, side) return ctx:query("side_groups", side) end },
        -- the side's other groups in the same place
        into = { type = "group", depends = { "group" }, domain = function(ctx, p)
          local out = {}
          local hex = ctx:query("group_hex", p.group)
          if hex then   -- none elsewhere: the groups there (the kernel's index) that are the side's
            local mine = {}
            for _, g in ipairs(ctx:query("side_groups", ctx:query("group_side", p.group))) do mine[g] = true end
            for _, g in ipairs(ctx.game:groups { at = hex }) do
              if mine[g] and g ~= p.group and same_place(ctx, g, p.group) then out[#out + 1] = g end
            end
          end
          return out, "32.A.1: no other group of its side in the same hex"
        end },
      },
      legal = function(ctx, p)
        if p.group == p.into then return "32.A.1: a group cannot combine with itself" end
        local sa, sb = ctx:query("group_side", p.group), ctx:query("group_side", p.into)
        if not sa or not sb then return "32.A.1: both groups need units" end
        if sa ~= sb then return "32.A.1: only groups of one side combine" end
        -- 32.C lets a reacting group split, never combine: not with another
        -- reacting group, nor with any other non-phasing group
        for _, g in ipairs { p.group, p.into } do
          if is_reacting(ctx.game, g) then
            return ("32.A.1/32.C: %s is reacting: a reacting group may split but never combine"):format(
              ctx.game:group_get_name(g))
          end
        end
        local phasing = ctx.game:get_global("phasing")
        if phasing and sa ~= phasing then return "32.A.1: only phasing naval groups combine" end
        if not same_place(ctx, p.group, p.into) then return "32.A.1: the groups must be in the same hex" end
      end,
      effect = function(ctx, p)
        local game = ctx.game
        local sa = game:group_get_value(p.group, "mp_spent") or 0
        local sb = game:group_get_value(p.into, "mp_spent") or 0
        local most = sa > sb and p.group or p.into
        local allowance = ctx:query("allowance", most)
        game:group_set_value(p.into, "mp_spent", math.max(sa, sb))
        game:group_set_value(p.into, "step_allowance", allowance)
        game:group_set_value(p.into, "night_mp", math.max(game:group_get_value(p.group, "night_mp") or 0,
          game:group_get_value(p.into, "night_mp") or 0))
        if game:group_get_value(p.group, "moved") then game:group_set_value(p.into, "moved", true) end
        absorb(game, p.into, p.group)
        ctx:say("%s combines into %s: %d MPs spent, %d left", game:group_get_name(p.group), game:group_get_name(p.into),
          math.max(sa, sb), allowance - math.max(sa, sb))
      end,
    },
    -- a group splits: the named units form a new group; each part keeps the
    -- MPs spent and the movement allowance of the original group
    split = {
      phases = { "movement" },
      params = {
        group = { type = "group", domain = function(ctx, _, side) return ctx:query("side_groups", side) end },
        units = { type = "units", depends = { "group" },   -- any of its units (not all of them)
                  domain = function(ctx, p) return members(ctx.game, p.group) end },
        name = "string?",
      },
      legal = function(ctx, p)
        local game = ctx.game
        local in_group, n = {}, 0
        for _, u in ipairs(members(game, p.group)) do in_group[u] = true; n = n + 1 end
        if #p.units == 0 then return "32.A.1: name the units that split off" end
        if #p.units >= n then return "32.A.1: at least one unit stays in the original group" end
        for _, u in ipairs(p.units) do
          if not in_group[u] then
            return ("32.A.1: %s is not in %s"):format(game:get(u, "name") or ("unit " .. tostring(u)),
              game:group_get_name(p.group))
          end
        end
      end,
      effect = function(ctx, p)
        local game = ctx.game
        local name = p.name or (game:group_get_name(p.group) .. "-split")
        local ng = game:group_new { name = name }
        for _, k in ipairs(KEPT) do
          local v = game:group_get_value(p.group, k)
          if v ~= nil then game:group_set_value(ng, k, v) end
        end
        -- "each group assumes the movement allowance of the original group":
        -- both parts, the original too (its slowest unit may be the one leaving)
        local allowance = ctx:query("allowance", p.group)
        if game:group_get_value(ng, "step_allowance") == nil then game:group_set_value(ng, "step_allowance", allowance) end
        if game:group_get_value(p.group, "step_allowance") == nil then
          game:group_set_value(p.group, "step_allowance", allowance)
        end
        for _, u in ipairs(p.units) do
          game:group_remove(p.group, u)
          game:group_add(ng, u)
        end
        if game:group_get_value(p.group, "kind") then game:group_set_value(p.group, "kind", nil) end
        local names = {}
        for _, u in ipairs(p.units) do names[#names + 1] = game:get(u, "name") end
        ctx:say("%s splits off from %s as %s: %d MPs spent", table.concat(names, ", "), game:group_get_name(p.group),
          name, game:group_get_value(ng, "mp_spent") or 0)
        return ng
      end,
    },
  },
}

rule {
  id = "32.A.1.a", title = "Combining naval groups at sea",
  on = { player_turn_end = function(ctx, ev) end_of_turn_combine(ctx, ev.side, false) end },
}

rule {
  id = "32.A.1.b", title = "Combining naval groups in port",
  on = { player_turn_end = function(ctx, ev) end_of_turn_combine(ctx, ev.side, true) end },
}

-- ---- helpers shared by the rules of this file ---------------------------------------

-- the units of a group that are still in play
function members(game, g) return game:group_units(g, true) end

-- The hexes `profile` reaches by sea from `from` within `limit` MPs (a
-- keel.Reach; false when `from` is off the board): the sea never changes,
-- so each is worked out once per board, profile, hex and limit, and kept
-- here (never handed out). At most 512 per board and profile.
local sea_reaches = setmetatable({}, { __mode = "k" })   -- board -> profile -> { n =, from = { [from] = { [limit] = reach } } }
function sea_reach(ctx, board, profile, from, limit)
  local by_profile = sea_reaches[board]
  if not by_profile then by_profile = setmetatable({}, { __mode = "k" }); sea_reaches[board] = by_profile end
  local kept = by_profile[profile]
  if not kept or kept.n >= 512 then kept = { n = 0, from = {} }; by_profile[profile] = kept end
  local by_limit = kept.from[from]
  if not by_limit then by_limit = {}; kept.from[from] = by_limit end
  local r = by_limit[limit]
  if r == nil then
    r = ctx:reach(profile, from, limit) or false
    by_limit[limit] = r
    kept.n = kept.n + 1
  end
  return r
end

-- the kind a group's units make (32.A.1: combat, cargo, mixed, submarine)
function kind_of(values, game, units)
  if #units == 0 then return nil end
  local combat_types, cargo_types, submarine_types = values.combat_types, values.cargo_types, values.submarine_types
  local combat, cargo, sub = true, true, true
  for i = 1, #units do
    local t = game:get(units[i], "type")
    if not combat_types[t] then combat = false end
    if not cargo_types[t] then cargo = false end
    if not submarine_types[t] then sub = false end
  end
  return combat and "combat" or cargo and "cargo" or sub and "submarine" or "mixed"
end

-- the group values a split part keeps (32.A.1: each part keeps the MPs spent)
KEPT = { "side", "mp_spent", "step_allowance", "allowance", "reserve", "activated", "reacting",
  "in_port", "coast", "river_side", "night_mp", "moved", "known", "found", "move_ended" }

-- put every unit of `from` into `into` and leave `from` empty
function absorb(game, into, from)
  for _, u in ipairs(game:group_units(from)) do
    game:group_remove(from, u)
    game:group_add(into, u)
  end
  game:group_set_value(from, "merged_into", into)
  if game:group_get_value(into, "kind") then game:group_set_value(into, "kind", nil) end
end

-- a reacting group (32.C): the group value, or the reaction its units carry
-- (every part of a split reacting group keeps reacting)
function is_reacting(game, g)
  if game:group_get_value(g, "reacting") == true then return true end
  for _, u in ipairs(members(game, g)) do
    if game:get_value(u, "reacting") == true then return true end
  end
  return false
end

function same_place(ctx, a, b)
  local ha, pa = ctx:query("group_hex", a)
  local hb, pb = ctx:query("group_hex", b)
  return ha ~= nil and ha == hb and pa == pb
    and ctx.game:group_get_value(a, "river_side") == ctx.game:group_get_value(b, "river_side")
end

-- 32.A.1.a/b: at the end of the player-turn the phasing groups combine,
-- at sea (same hex) and in port (same port): combat, cargo and mixed
-- groups into one, submarine groups into another.
function end_of_turn_combine(ctx, side, in_port)
  local game = ctx.game
  local first, order = {}, {}
  for _, g in ipairs(ctx:query("groups_on_board")) do   -- a group elsewhere has no hex: never combined
    if ctx:query("naval_group", g) and ctx:query("group_side", g) == side then
      local hex, port = ctx:query("group_hex", g)
      if hex and port == in_port then
        local sub = ctx:query("group_kind", g) == "submarine"
        local key = tostring(hex) .. (sub and ":sub" or ":surface") .. ":" ..
          tostring(game:group_get_value(g, "river_side") or "")
        if first[key] then
          absorb(game, first[key], g)
          ctx:say("%s combines into %s at %s%s (end of the player-turn)", game:group_get_name(g),
            game:group_get_name(first[key]), game.board and game.board:format(hex) or tostring(hex), port and ", in port" or "")
        else
          first[key] = g
          order[#order + 1] = g
        end
      end
    end
  end
  return order
end

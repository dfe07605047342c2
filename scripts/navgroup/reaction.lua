-- 32.C NAVAL REACTION MOVEMENT (004_0e2364863b8db0db.txt): which groups may
-- react (activated reserves, groups with a "-# Step" marker), what a reacting
-- group may spend MPs on (movement only), how far (15 MPs, or half the
-- printed allowance), splitting, the "-1 Step" marker it gets and its
-- reduction, and night MPs matched to the phasing player's.
--
-- A reaction starts with the action `react { group, against, day }` and is
-- moved by the movement area's `move` action like any other group. The
-- reaction is carried by the units (unit value `reacting` and the plan
-- `reaction_day`/`reaction_night`/`reaction_order`), so every part of a
-- group that splits while reacting keeps reacting (32.A.1 gives each part
-- the MPs spent). Group values: `reacting`, `allowance` (the reaction
-- allowance while reacting), `activated`, `step_moved`, `night_mp`.
--
-- The rule comes first; the helpers it uses follow it.

local units_of, plan_of, reacting, has_step_marker, reaction_allowance, may_react, end_reaction,
  in_zone, in_port   -- helpers, below the rule

rule {
  id = "32.C", title = "Naval Reaction Movement",
  values = {
    allowance = 15,                        -- "when it has spent 15 MPs"
    printed_share = { num = 1, den = 2 },  -- "(or half the printed movement allowance)"
    segment = "naval reaction movement",   -- checked when the game tracks segments
    -- what a reacting group may spend MPs on: movement (and the rounds of a
    -- combat its movement starts, which 32.D charges)
    movement = { enter = true, move = true, ["combat round"] = true },
    marker = "step",                       -- the "-# Step" marker (count = #)
    night_length = 5,                      -- MPs of night in a step ("the 5 MPs of night movement")
  },
  queries = {
    --- is_reacting(g) -> boolean
    is_reacting = function(ctx, g) return reacting(ctx, g) end,
    --- reaction_allowance(g) -> MPs a reacting group may spend (the movement
    --- area's `allowance` answers this for a reacting group)
    reaction_allowance = function(ctx, g) return reaction_allowance(ctx, g) end,
    --- may_react(g) -> nil, or why not
    may_react = function(ctx, g) return may_react(ctx, g) end,
    --- moved_this_step(g) -> boolean: counted as having moved (its marker was reduced)
    moved_this_step = function(ctx, g) return ctx.game:group_get_value(g, "step_moved") == true end,
    --- night_mp_left(g) -> night MPs left in the step for g (night length - its night MPs)
    night_mp_left = function(ctx, g)
      local left = ctx.rule.values.night_length - (ctx.game:group_get_value(g, "night_mp") or 0)
      return left > 0 and left or 0
    end,
  },
  actions = {
    -- Start a reaction. `against`: the phasing group reacted to (its night
    -- MPs and their order are matched); `day`: the day MPs the reacting
    -- player means to spend (default: all the allowance the night MPs leave).
    react = {
      side = "other",   -- in the window 32.B's activation opens for the non-phasing player
      params = {
        group = { type = "group", domain = function(ctx, _, side) return ctx:query("side_groups", side) end },
        -- the enemy groups it may react against
        against = { type = "group", optional = true, depends = { "group" }, domain = function(ctx, p)
          local out, side = {}, ctx:query("group_side", p.group)
          for _, g in ipairs(ctx:query("side_groups")) do
            if ctx:query("group_side", g) ~= side then out[#out + 1] = g end
          end
          return out
        end },
        day = "integer?",
      },
      legal = function(ctx, p)
        local why = may_react(ctx, p.group)
        if why then return why end
        local night = p.against and (ctx.game:group_get_value(p.against, "night_mp") or 0) or 0
        local limit = reaction_allowance(ctx, p.group)
        local day = p.day or limit - night
        if day < 0 or day + night > limit then
          return ("%s may spend %d MPs reacting: not %d by day and %d at night"):format(
            ctx.game:group_get_name(p.group), limit, day, night)
        end
      end,
      effect = function(ctx, p)
        local game = ctx.game
        local g = p.group
        local limit = reaction_allowance(ctx, g)
        local night, order = 0, "day-night"
        if p.against then
          night = game:group_get_value(p.against, "night_mp") or 0
          -- the same order as the phasing player: when it is day now, its night MPs came first
          if night > 0 and game:get_global("night") ~= true then order = "night-day" end
        end
        local day = p.day or limit - night
        game:group_set_value(g, "reacting", true)
        game:group_set_value(g, "allowance", limit)
        game:group_set_value(g, "mp_spent", 0)
        game:group_set_value(g, "night_mp", 0)
        for _, u in ipairs(units_of(ctx, g)) do
          game:set_value(u, "reacting", true)
          game:set_value(u, "reaction_day", day)
          game:set_value(u, "reaction_night", night)
          game:set_value(u, "reaction_order", order)
        end
        ctx:say("%s reacts%s: up to %d MPs, %d by day and %d at night (%s MPs first)", game:group_get_name(g),
          p.against and (" against " .. game:group_get_name(p.against)) or "", limit, day, night,
          order == "night-day" and "night" or "day")
      end,
    },
    end_reaction = {
      side = "other",
      params = { group = { type = "group", domain = function(ctx, _, side) return ctx:query("side_groups", side) end } },
      legal = function(ctx, p)
        if not reacting(ctx, p.group) then return ("%s is not reacting"):format(ctx.game:group_get_name(p.group)) end
      end,
      effect = function(ctx, p) end_reaction(ctx, p.group) end,
    },
  },
  vetoes = {
    -- the movement area's move action: a group counted as having moved does
    -- not move; in the reaction segment only reacting groups move
    move = function(ctx, p)
      if p.group == nil then return nil end
      if ctx.game:group_get_value(p.group, "step_moved") == true then
        return ("%s moved in reaction and is counted as having moved this step"):format(ctx.game:group_get_name(p.group))
      end
      local v = ctx.rule.values
      if ctx.game:get_segment() == v.segment and not reacting(ctx, p.group) then
        return ("in the %s segment only reacting groups move"):format(v.segment)
      end
    end,
    -- ... and its other activities: none while reacting
    spend = function(ctx, p)
      if p.group ~= nil and ctx.game:group_get_value(p.group, "step_moved") == true then
        return ("%s reacted and is counted as having moved this step: it spends no MPs"):format(
          ctx.game:group_get_name(p.group))
      end
      if p.group ~= nil and reacting(ctx, p.group) and not ctx.rule.values.movement[p.activity or ""] then
        return ("a reacting group spends MPs only for movement, not for %s"):format(tostring(p.activity))
      end
    end,
  },
  on = {
    -- 32.B's results activate reserves in port in a sea zone (or any zone)
    reserves_activated = function(ctx, ev)
      local game, opened = ctx.game, nil
      for _, g in ipairs(game:groups()) do
        if game:group_get_value(g, "reserve") == true and game:group_get_value(g, "activated") ~= true
            and #units_of(ctx, g) > 0 and ctx:query("group_side", g) == ev.side and in_port(ctx, g)
            and (ev.zone == nil or ev.zone == "any" or in_zone(ctx, g, ev.zone)) then
          game:group_set_value(g, "activated", true)
          ctx:say("reserve group %s activated (%s)", game:group_get_name(g),
            (ev.zone == nil or ev.zone == "any") and "any sea zone" or ("sea zone " .. tostring(ev.zone)))
          opened = opened or ev.side
        end
      end
      -- the non-phasing player decides now: react with what was activated
      -- (and move it), or decline (end_phase closes the window)
      if not opened and type(ev.groups) == "table" and ev.groups[1] ~= nil then opened = ev.side end
      if opened and ctx:status().started then
        ctx:open_window { side = opened, title = ctx.rule.values.segment,
                          actions = { "react", "move", "split", "end_reaction" } }
      end
    end,
    -- activated "during the turn of activation"
    player_turn_end = function(ctx)
      local game = ctx.game
      for _, g in ipairs(game:groups()) do
        if game:group_get_value(g, "activated") ~= nil then game:group_set_value(g, "activated", nil) end
      end
    end,
    -- At the start of the next friendly phasing naval movement step a group
    -- reduces its marker by one and counts as having moved (after the
    -- movement area's own start-of-step handlers: priority -10).
    naval_step_start = { function(ctx, ev)
      local game, marker = ctx.game, ctx.rule.values.marker
      for _, g in ipairs(game:groups()) do
        if #units_of(ctx, g) > 0 and ctx:query("group_side", g) == ev.side and has_step_marker(ctx, g, marker) then
          for _, u in ipairs(units_of(ctx, g)) do
            if (game:get_marker(u, marker) or 0) > 0 then game:add_marker(u, marker, -1) end
          end
          game:group_set_value(g, "step_moved", true)
          ctx:say("%s: its units' -# Step markers go down one level; it counts as having moved this step",
            game:group_get_name(g))
        end
      end
    end, priority = -10 },
    -- reactions end with the step; so does "having moved" for it
    naval_step_end = function(ctx)
      local game = ctx.game
      for _, g in ipairs(game:groups()) do
        if reacting(ctx, g) then end_reaction(ctx, g) end
        if game:group_get_value(g, "step_moved") ~= nil then game:group_set_value(g, "step_moved", nil) end
      end
    end,
    mp_spent = function(ctx, ev)
      local game, v = ctx.game, ctx.rule.values
      local g = ev.group
      local plan = plan_of(ctx, g)
      if not plan then
        if game:group_get_value(g, "step_moved") == true and ev.activity ~= "combat round" then
          error(("%s reacted and is counted as having moved this step: it spends no MPs"):format(
            game:group_get_name(g)), 0)
        end
        return
      end
      local act = ev.activity or "enter"
      if not v.movement[act] then
        error(("a reacting group spends MPs only for movement, not for %s"):format(act), 0)
      end
      if act == "combat round" then return end   -- 32.D charges combat rounds (and their night MPs)
      -- a "-1 Step" marker, or +1 on the current one, once per reaction
      for _, u in ipairs(units_of(ctx, g)) do
        if not game:get_value(u, "reaction_marked") then
          game:add_marker(u, v.marker, 1)
          game:set_value(u, "reaction_marked", true)
        end
      end
      -- night MPs: as many as the phasing player's, in the same order. The
      -- group's night_mp is set from the plan (not from the game's night flag,
      -- which follows the phasing player's time).
      local function is_night(i)
        if plan.order == "night-day" then return i <= plan.night end
        return i > plan.day
      end
      local mp = ev.mp or 0
      local nights, total = 0, 0
      for i = 1, ev.spent do
        if is_night(i) then
          total = total + 1
          if i > ev.spent - mp then nights = nights + 1 end
        end
      end
      if (game:group_get_value(g, "night_mp") or 0) ~= total then game:group_set_value(g, "night_mp", total) end
      ev.night = nights > 0
      -- the end of the reaction
      local limit = plan.day + plan.night
      local allowance = reaction_allowance(ctx, g)
      if allowance < limit then limit = allowance end
      if ev.spent > limit then
        error(("%s has spent %d MPs reacting; its reaction ends at %d"):format(game:group_get_name(g), ev.spent, limit), 0)
      end
      if ev.spent == limit then
        ev.stop = ("32.C: %s has spent its %d reaction MPs"):format(game:group_get_name(g), limit)
      end
    end,
  },
}

-- ---- helpers used by the rule -------------------------------------------------------

function units_of(ctx, g) return ctx.game:group_units(g) end

-- The reaction plan carried by the group's units (the first that has one).
function plan_of(ctx, g)
  local game = ctx.game
  local units = units_of(ctx, g)
  for i = 1, #units do
    local u = units[i]
    if game:get_value(u, "reacting") then
      return { day = game:get_value(u, "reaction_day") or 0, night = game:get_value(u, "reaction_night") or 0,
               order = game:get_value(u, "reaction_order") or "day-night" }
    end
  end
  return nil
end

function reacting(ctx, g)
  if ctx.game:group_get_value(g, "reacting") == true then return true end
  return plan_of(ctx, g) ~= nil
end

function has_step_marker(ctx, g, marker)
  for _, u in ipairs(units_of(ctx, g)) do
    if (ctx.game:get_marker(u, marker) or 0) > 0 then return true end
  end
  return false
end

-- 15 MPs, or half the printed allowance (unit value `mp`), rounded down; a
-- group takes the smallest of its units'.
function reaction_allowance(ctx, g)
  local v = ctx.rule.values
  local limit
  for _, u in ipairs(units_of(ctx, g)) do
    local printed = ctx.game:get_value(u, "mp")
    local a = v.allowance
    if printed then a = printed * v.printed_share.num // v.printed_share.den end
    if not limit or a < limit then limit = a end
  end
  return limit or v.allowance
end

-- Why group g may not react now (nil: it may).
function may_react(ctx, g)
  local game, v = ctx.game, ctx.rule.values
  local name = game:group_get_name(g)
  if #units_of(ctx, g) == 0 then return ("%s has no units"):format(name) end
  if reacting(ctx, g) then return ("%s is already reacting"):format(name) end
  local seg = game:get_segment()
  if seg ~= nil and v.segment ~= nil and seg ~= v.segment then
    return ("groups react only in the %s segment (now: %s)"):format(v.segment, tostring(seg))
  end
  local phasing = game:get_global("phasing")
  if phasing ~= nil and ctx:query("group_side", g) == phasing then
    return ("%s belongs to the phasing side (%s): it moves, it does not react"):format(name, phasing)
  end
  -- any group with a "-# Step" marker may always move in the reaction phase
  if has_step_marker(ctx, g, v.marker) then return nil end
  if game:group_get_value(g, "reserve") ~= true then
    return ("%s is not a reserve group and has no -# Step marker"):format(name)
  end
  if game:group_get_value(g, "activated") ~= true then
    return ("reserve group %s has not been activated (32.B)"):format(name)
  end
  return nil
end

-- End group g's reaction: clear what the reaction set on it and its units.
function end_reaction(ctx, g)
  local game = ctx.game
  for _, u in ipairs(units_of(ctx, g)) do
    for _, k in ipairs({ "reacting", "reaction_day", "reaction_night", "reaction_order", "reaction_marked" }) do
      if game:get_value(u, k) ~= nil then game:set_value(u, k, nil) end
    end
  end
  if game:group_get_value(g, "reacting") ~= nil then game:group_set_value(g, "reacting", nil) end
  if game:group_get_value(g, "allowance") ~= nil then game:group_set_value(g, "allowance", nil) end
end

-- Is group g's port in sea zone `zone`? The group's value `zone`, else the
-- board's zone of its hex, else (a port hex outside every zone) the zones of
-- the hexes next to it.
function in_zone(ctx, g, zone)
  local game = ctx.game
  local z = game:group_get_value(g, "zone")
  if z then return z == zone end
  local hex = ctx:query("group_hex", g)
  local b = game.board
  if not (hex and b and b:contains(hex)) then return false end
  local own = b:get_zone(hex)
  if own then return own == zone end
  for _, h in ipairs(keel.hex.neighbors(hex)) do
    if b:contains(h) and b:get_zone(h) == zone then return true end
  end
  return false
end

function in_port(ctx, g)
  local game = ctx.game
  if game:group_get_value(g, "in_port") == true then return true end
  local u = units_of(ctx, g)[1]
  return u ~= nil and game:get(u, "loc") == "port"
end

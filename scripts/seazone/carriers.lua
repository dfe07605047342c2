-- Aircraft Carriers (002_37d6fae90ae806a5.txt, "Aircraft Carriers"): the
-- three unit characteristics, in the text's order. The printed values (cost
-- 30+/12+, attack 1, defense 4, move 2) are the `carrier` row of
-- sea_units.tbl (units.aircraft-carriers), whose `hits` column (2) says it
-- is a capital ship.
--
-- Air units aboard a carrier are its cargo (location `unit`); an air unit
-- in a sea zone and not aboard is in the air. A plane's value `landing_on`
-- is the carrier it will land on in Mobilize New Units (declared with the
-- `land` order in Noncombat Move); `defending_from` the carrier it defends
-- from in a battle; `must_reland` that its carrier was damaged or lost
-- under it.

local capacity_left, landing_space, reland_options, carrier_that_could_help, is_plane, planes_aboard
local launch, pending_of

-- the title of the decision window the air units' owner gets to land them after a battle
local RELAND_WINDOW = "landing after combat"

rule {
  id = "units.aircraft-carriers.capital-ship", title = "Capital Ship",
  priority = 10,
  on = {
    -- the first hit (even a submarine's Surprise Strike) turns an undamaged carrier on its
    -- side; a defending carrier stays on the strip until its second hit
    unit_hit = function(ctx, ev)
      local g = ctx.game
      if g:get(ev.unit, "type") ~= "carrier" or g:get(ev.unit, "face") == "damaged" then return end
      g:flip(ev.unit, "damaged")
      ev.damaged = true
      ctx:say("%s is damaged (turned on its side)", ctx:query("unit_label", ev.unit))
    end,
    -- a carrier that survived with one hit is repaired by visiting an operative friendly naval base
    repair_visit = function(ctx, ev)
      local g = ctx.game
      if g:get(ev.unit, "type") ~= "carrier" or g:get(ev.unit, "face") ~= "damaged" then return end
      g:flip(ev.unit, "full")
      ctx:say("%s repaired at %s", ctx:query("unit_label", ev.unit), ctx:query("unit_label", ev.base))
    end,
  },
}

rule {
  id = "units.aircraft-carriers.carry-aircraft", title = "Carry Aircraft",
  values = { capacity = 2, types = { fighter = true, helicopter = true } },
  queries = {
    -- where an air unit could land now: a carrier id, a territory (area index), or nil
    landing_space = function(ctx, plane) return landing_space(ctx, plane) end,
    carrier_space = function(ctx, carrier) return capacity_left(ctx, carrier) end,
  },
  actions = {
    -- in Noncombat Move, a fighter or helicopter in a carrier's sea zone declares its landing;
    -- it lands in Mobilize New Units, if both are still in that zone
    land = {
      phases = { "noncombat_move" },
      params = {
        unit = { type = "unit", domain = function(ctx, _, side) return ctx:query("turn_units", side, "air", "zone") end },
        carrier = { type = "unit", depends = { "unit" }, domain = function(ctx, p)
          local g, out = ctx.game, {}
          local side = g:get(p.unit, "side")
          for _, c in ipairs(side ~= nil and g:units { type = "carrier", side = side } or {}) do
            out[#out + 1] = { value = c, label = g:get(c, "name") }
          end
          return out, "no friendly carrier"
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        local t = g:get(p.unit, "type")
        if not ctx.rule.values.types[t] then
          return ("%s cannot land on a carrier: carriers carry fighters and helicopters, never %s"):format(
            ctx:query("unit_label", p.unit), t == "strategic_bomber" and "strategic bombers" or t)
        end
        if g:get(p.carrier, "type") ~= "carrier" then return ("%s is not a carrier"):format(ctx:query("unit_label", p.carrier)) end
        if g:get_phase() ~= "noncombat_move" then
          return "air units land on carriers in Noncombat Move (landing takes effect in Mobilize New Units)"
        end
        if ctx:query("power_of", p.unit) ~= g:get_global("power") then
          return ("%s moves on %s's turn"):format(ctx:query("unit_label", p.unit), ctx:query("power_of", p.unit))
        end
        if g:get(p.unit, "loc") ~= "zone" then return ("%s is not in the air"):format(ctx:query("unit_label", p.unit)) end
        if g:get(p.carrier, "side") ~= g:get(p.unit, "side") then return "that carrier is not friendly" end
        local ck, cz = g:get(p.carrier, "loc")
        local where = ck == "zone" and cz or (ck == "off" and g:get_value(p.carrier, "mobilize_zone"))
        if where ~= ctx:query("area_of", p.unit) then
          return ("%s and %s must end their movement in the same sea zone"):format(ctx:query("unit_label", p.unit),
            ctx:query("unit_label", p.carrier))
        end
        if g:get(p.carrier, "face") == "damaged" then
          return ("%s is damaged: no air units may land on it"):format(ctx:query("unit_label", p.carrier))
        end
        if g:get_value(p.unit, "landing_on") == p.carrier then return "it already lands there" end
        if capacity_left(ctx, p.carrier) <= 0 then
          return ("%s already carries or expects %d air units (its capacity)"):format(
            ctx:query("unit_label", p.carrier), ctx.rule.values.capacity)
        end
      end,
      effect = function(ctx, p)
        ctx.game:set_value(p.unit, "landing_on", p.carrier)
        ctx:say("%s will land on %s (in Mobilize New Units)", ctx:query("unit_label", p.unit), ctx:query("unit_label", p.carrier))
      end,
    },
  },
  vetoes = {
    -- no air operations from a damaged carrier: guests and own planes aboard are trapped
    fly = function(ctx, p)
      local g = ctx.game
      local kind, c = g:get(p.unit, "loc")
      if kind == "unit" and g:get(c, "type") == "carrier" then
        if g:get(c, "face") == "damaged" then
          return ("%s is damaged: no air units may take off from it until it is repaired"):format(ctx:query("unit_label", c))
        end
        if ctx:query("power_of", c) == g:get_global("power") and ctx:query("power_of", p.unit) ~= g:get_global("power") then
          return "on the carrier owner's turn, a friendly power's air units aboard are cargo"
        end
      end
    end,
    -- a carrier moves in Noncombat Move only if it did not move in Combat Move nor fight
    move = function(ctx, p)
      local g = ctx.game
      if g:get_phase() ~= "noncombat_move" then return nil end
      for _, u in ipairs(p.units) do
        if g:get(u, "type") == "carrier" and g:get_value(u, "sea_combat_turn") == ctx:query("this_turn") then
          return ("%s took part in combat this turn: it does not move in Noncombat Move"):format(ctx:query("unit_label", u))
        end
      end
    end,
    -- a carrier must move if it can, or remain, to give an air unit its only landing space
    end_phase = function(ctx)
      local g = ctx.game
      if g:get_phase() ~= "noncombat_move" then return nil end
      for _, u in ipairs(g:units { loc = "zone" }) do
        if is_plane(ctx, u) and not landing_space(ctx, u) then
          local c, z = carrier_that_could_help(ctx, u)
          if c then
            if z == ctx:query("area_of", c) then
              return ("%s has no landing space, but %s in %s has room: it lands there (land)"):format(
                ctx:query("unit_label", u), ctx:query("unit_label", c), ctx:query("area_name", z))
            end
            return ("%s has no landing space: %s can and must move to %s to give it one"):format(
              ctx:query("unit_label", u), ctx:query("unit_label", c), ctx:query("area_name", z))
          end
        end
      end
    end,
  },
  on = {
    -- on the air units' turn they launch before their carrier moves; a friendly power's
    -- air units stay aboard as cargo and move with it
    sea_units_moving = function(ctx, ev)
      for _, u in ipairs(ev.units) do
        if ctx.game:get(u, "type") == "carrier" then launch(ctx, u, ev.from) end
      end
    end,
    -- air units not in an eligible landing space at the end of Noncombat Move are destroyed
    phase_end = function(ctx, ev)
      if ev.phase ~= "noncombat_move" then return end
      local g = ctx.game
      for _, u in ipairs(g:units { loc = "zone" }) do
        if is_plane(ctx, u) and not landing_space(ctx, u) then
          ctx:say("%s has no landing space at the end of Noncombat Move: destroyed", ctx:query("unit_label", u))
          g:eliminate(u)
        end
      end
    end,
    -- landing takes effect in Mobilize New Units (after new carriers are placed)
    phase_start = { function(ctx, ev)
      if ev.phase ~= "mobilize" then return end
      local g = ctx.game
      for _, u in ipairs(g:units { loc = "zone" }) do
        local c = g:get_value(u, "landing_on")
        if c then
          g:move(u, "unit", c)
          g:set_value(u, "landing_on", nil)
          ctx:say("%s lands on %s", ctx:query("unit_label", u), ctx:query("unit_label", c))
        end
      end
    end, priority = -10 },
  },
}

rule {
  id = "units.aircraft-carriers.air-defense", title = "Air Defense",
  priority = 10,
  actions = {
    -- after a battle, an air unit whose carrier was damaged or lost lands on another friendly
    -- carrier in the zone, or moves one space to a friendly carrier or territory; with
    -- neither given it is destroyed
    reland = {
      side = "any", phases = { "noncombat_move" },   -- the air units' owner: a window when not phasing
      -- domains (keel.legal): the side's air units that must land; the
      -- friendly carriers with room in their zone or one space away; the
      -- friendly territories one space away (with neither, it is destroyed)
      params = {
        unit = { type = "unit", domain = function(ctx, _, side)
          local g, out = ctx.game, {}
          for _, u in ipairs(g:units { side = side }) do
            if g:get_value(u, "must_reland") then
              out[#out + 1] = { value = u, label = g:get(u, "name") }
            end
          end
          return out, "no air unit of the side has a landing to make"
        end },
        carrier = { type = "unit", optional = true, depends = { "unit" }, domain = function(ctx, p)
          local out = {}
          for _, o in ipairs(reland_options(ctx, p.unit)) do
            if o.carrier then out[#out + 1] = { value = o.carrier, label = ctx.game:get(o.carrier, "name") } end
          end
          return out, "no friendly carrier with room in its zone or one space away"
        end },
        to = { type = "string", optional = true, depends = { "unit" }, domain = function(ctx, p)
          local out = {}
          for _, o in ipairs(reland_options(ctx, p.unit)) do
            if not o.carrier then out[#out + 1] = ctx:query("area_name", o.area) end
          end
          return out, "no friendly territory one space away"
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        if not g:get_value(p.unit, "must_reland") then return ("%s has no landing to make"):format(ctx:query("unit_label", p.unit)) end
        if g:get_phase() ~= "noncombat_move" then return "this movement occurs in the Noncombat Move phase" end
        if p.carrier == nil and p.to == nil then return nil end
        for _, o in ipairs(reland_options(ctx, p.unit)) do
          if p.carrier and o.carrier == p.carrier then return nil end
          if p.to and not p.carrier and o.area == ctx:query("area_index", p.to) and not o.carrier then return nil end
        end
        return ("%s cannot land there: a different friendly carrier in its zone, or one space to a friendly carrier or territory"):format(
          ctx:query("unit_label", p.unit))
      end,
      effect = function(ctx, p)
        local g = ctx.game
        g:set_value(p.unit, "must_reland", nil)
        if p.carrier then
          g:move(p.unit, "unit", p.carrier)
          ctx:say("%s lands on %s", ctx:query("unit_label", p.unit), ctx:query("unit_label", p.carrier))
        elseif p.to then
          g:move(p.unit, "zone", ctx:query("area_index", p.to))
          ctx:say("%s lands in %s", ctx:query("unit_label", p.unit), p.to)
        else
          ctx:say("%s finds no landing space: destroyed", ctx:query("unit_label", p.unit))
          g:eliminate(p.unit)
        end
        -- the owner's window closes when its last air unit has landed
        local w = ctx:status().window
        if w and w.title == RELAND_WINDOW and #pending_of(ctx, w.side) == 0 then ctx:close_window() end
      end,
    },
  },
  vetoes = {
    -- the post-battle landings come before the acting player's noncombat movements
    -- (the owner's window stays open until its air units have landed)
    end_phase = function(ctx)
      local w = ctx:status().window
      if w and w.title == RELAND_WINDOW and #pending_of(ctx, w.side) > 0 then
        return ("%s must land first (its carrier was damaged or lost in combat)"):format(
          ctx:query("unit_label", pending_of(ctx, w.side)[1]))
      end
    end,
    move = function(ctx) return ctx:query("pending_relanding") end,
    fly = function(ctx) return ctx:query("pending_relanding") end,
    land = function(ctx) return ctx:query("pending_relanding") end,
  },
  queries = {
    pending_relanding = function(ctx)
      local g = ctx.game
      if g:get_phase() ~= "noncombat_move" then return nil end
      for _, u in ipairs(g:units()) do
        if g:get_value(u, "must_reland") then
          return ("%s must land first (its carrier was damaged or lost in combat)"):format(ctx:query("unit_label", u))
        end
      end
    end,
  },
  on = {
    -- an undamaged defending carrier's air units (friendly powers' too) defend in the air;
    -- those aboard a damaged carrier are cargo and do not defend
    battle_units = function(ctx, ev)
      local g = ctx.game
      for _, c in ipairs(ctx:query("battle_participants")) do
        if g:get(c, "type") == "carrier" and g:get_value(c, "battle_role") == "defender" and g:get(c, "face") ~= "damaged" then
          for _, a in ipairs(planes_aboard(ctx, c)) do
            g:move(a, "zone", ev.battle.zone)
            g:set_value(a, "battle_role", "defender")
            g:set_value(a, "defending_from", c)
            ctx:say("%s defends in the air from %s", ctx:query("unit_label", a), ctx:query("unit_label", c))
          end
        end
      end
    end,
    -- aircraft from a carrier are never a submarine hit's casualty
    may_hit = function(ctx, ev)
      local g = ctx.game
      if g:get_value(ev.target, "defending_from") and g:get(ev.firer, "type") == "submarine" then
        ev.allowed, ev.by = false, ctx.rule.id
        ev.reason = "aircraft on a carrier cannot be a casualty of a submarine hit"
      end
    end,
    -- after the battle: back on the same carrier if it is undamaged, else they must land elsewhere
    battle_end = function(ctx)
      local g = ctx.game
      for _, a in ipairs(g:units { loc = "zone" }) do
        local c = g:get_value(a, "defending_from")
        if c then
          g:set_value(a, "defending_from", nil)
          if g:get(c, "loc") == "zone" and g:get(c, "face") ~= "damaged" then
            g:move(a, "unit", c)
          else
            g:set_value(a, "must_reland", true)
            ctx:say("%s's carrier %s: it must land elsewhere in Noncombat Move", ctx:query("unit_label", a),
              g:get(c, "loc") == "dead" and "was lost" or "was damaged")
          end
        elseif c then
          g:set_value(a, "defending_from", nil)
        end
      end
    end,
    -- at the start of Noncombat Move, those with nowhere to go are destroyed; the others'
    -- owner, when it is not the acting player, lands them first, in its own window
    phase_start = function(ctx, ev)
      if ev.phase ~= "noncombat_move" then return end
      local g = ctx.game
      local owners, seen = {}, {}
      for _, a in ipairs(g:units()) do
        if g:get_value(a, "must_reland") and #reland_options(ctx, a) == 0 then
          ctx:say("%s has no carrier or territory to land on: destroyed", ctx:query("unit_label", a))
          g:eliminate(a)
        elseif g:get_value(a, "must_reland") then
          local side = g:get(a, "side")
          if side ~= g:get_global("phasing") and not seen[side] then seen[side] = true; owners[#owners + 1] = side end
        end
      end
      if ctx:status().started then
        for _, side in ipairs(owners) do ctx:open_window { side = side, title = RELAND_WINDOW, actions = { "reland" } } end
      end
    end,
  },
}

-- ---- helpers of the carrier rules -----------------------------------------------------

function is_plane(ctx, u) return ctx:query("class_of", u) == "air" end

-- the air units of `side` that must land after a battle, id order
function pending_of(ctx, side)
  local g, out = ctx.game, {}
  for _, u in ipairs(side ~= nil and g:units { side = side } or {}) do
    if g:get_value(u, "must_reland") then out[#out + 1] = u end
  end
  return out
end

function planes_aboard(ctx, c)
  local out = {}
  for _, a in ipairs(ctx.game:cargo(c)) do
    if is_plane(ctx, a) then out[#out + 1] = a end
  end
  return out
end

-- room left on carrier c: capacity - air units aboard - air units that declared landing on it
-- (called with carry-aircraft's ctx; other rules ask the query carrier_space)
function capacity_left(ctx, c)
  local g = ctx.game
  local n = #planes_aboard(ctx, c)
  for _, u in ipairs(g:units()) do
    if g:get_value(u, "landing_on") == c and g:get(u, "loc") ~= "unit" and g:get(u, "loc") ~= "dead" then n = n + 1 end
  end
  return ctx.rule.values.capacity - n
end

function launch(ctx, c, from)
  local g = ctx.game
  if g:get(c, "face") == "damaged" then return end
  for _, a in ipairs(planes_aboard(ctx, c)) do
    if ctx:query("power_of", a) == ctx:query("power_of", c) then
      g:move(a, "zone", from)
      ctx:say("%s launches before %s moves", ctx:query("unit_label", a), ctx:query("unit_label", c))
    end
  end
end

-- the landing space an air unit has where it is: a carrier it declared (in its zone, or
-- placed there in Mobilize New Units), or the friendly territory it is in
function landing_space(ctx, u)
  local g = ctx.game
  local z = ctx:query("area_of", u)
  if not z then return nil end
  if ctx:query("is_territory", z) then
    if ctx:query("owner_of", z) == g:get(u, "side") then return z end
    return nil
  end
  local c = g:get_value(u, "landing_on")
  if c and g:get(c, "face") ~= "damaged" then
    local ck, cz = g:get(c, "loc")
    if (ck == "zone" and cz == z) or (ck == "off" and g:get_value(c, "mobilize_zone") == z) then return c end
  end
  return nil
end

-- where an air unit whose carrier was damaged or lost may land: {carrier=} or {area=}
function reland_options(ctx, a)
  local g = ctx.game
  local z = ctx:query("area_of", a)
  local side = g:get(a, "side")
  local out = {}
  local function carriers_in(area)
    for _, c in ipairs(ctx:query("units_in", area)) do
      if g:get(c, "type") == "carrier" and g:get(c, "side") == side and g:get(c, "face") ~= "damaged"
          and c ~= g:get_value(a, "defending_from") and ctx:query("carrier_space", c) > 0 then
        out[#out + 1] = { carrier = c, area = area }
      end
    end
  end
  carriers_in(z)
  for _, n in ipairs(g.board:zone_neighbors(ctx:query("area_name", z)) or {}) do
    local i = ctx:query("area_index", n)
    if ctx:query("is_sea_zone", i) then carriers_in(i)
    elseif ctx:query("owner_of", i) == side then out[#out + 1] = { area = i } end
  end
  return out
end

-- a carrier of the moving power that could still give air unit u a landing space: the
-- carrier and the zone (u's), or nil
function carrier_that_could_help(ctx, u)
  local g = ctx.game
  local z = ctx:query("area_of", u)
  if not z or not ctx:query("is_sea_zone", z) then return nil end
  local side = g:get(u, "side")
  for _, c in ipairs(side ~= nil and g:units { type = "carrier", loc = "zone", side = side } or {}) do
    if ctx:query("may_carry", c, u)
        and g:get(c, "face") ~= "damaged" and ctx:query("power_of", c) == g:get_global("power")
        and g:get_value(c, "sea_combat_turn") ~= ctx:query("this_turn") and capacity_left(ctx, c) > 0
        and not (g:get_value(c, "moved_turn") == ctx:query("this_turn") and g:get_value(c, "moved_phase") == "combat") then
      local from = ctx:query("area_of", c)
      if from == z then return c, z end
      local left = ctx:query("allowance", c) - ctx:query("zones_moved", c)
      if left > 0 and ctx:query("sea_distance", from, z, g:get(c, "side"), left) then return c, z end
    end
  end
  return nil
end

-- 18.4 Landing Craft (000_366d55705cda9bbc.txt): Landing Craft, DUKWs and
-- LSTs ("Landing Craft" together) carry troops and supplies to the beaches.
-- A craft's points are its capacity (the counter's number, the unit's
-- points); cargo is carried inside it (location unit:<craft>) and measured
-- by the Transportation Equivalents of 4.7 (a scenario's chart;
-- scripts/ocs/tables/transport_equivalents_standin.tbl stands in). Landing
-- Craft have no Flak value or Barrage Strength (18.4; 18.3 refuses their
-- fire, 18.3f counts no flak for them).
--
-- Port capacity used in a phase (18.4c loading, 18.5g landings) is kept on
-- a group per port hex (group values kind = "port use", hex, phase, used).

local cargo_load, port_use_group, known   -- helpers, below the rules
local craft_domain, cargo_domain, aboard_domain, split_domain, points_domain, partner_domain, dukw_domain, lst_domain
                                                    -- parameter domains (keel.legal), below

rule {
  id = "18.4a", title = "Capacity",
  queries = {
    --- craft_capacity(u) -> what the craft carries: its points, like Transport Points
    craft_capacity = function(ctx, u) return ctx.game:get(u, "points") end,
    --- transport_size(u) -> the cargo's size in landing-craft points (4.7's equivalents)
    transport_size = function(ctx, u)
      local g = ctx.game
      local t = ctx:table("transport_equivalents")
      local ty = g:get(u, "type")
      if ty == "SP" then return g:get(u, "points") * t:get("sp", "points").value end
      if ty == "TP" then return g:get(u, "points") * t:get("tp", "points").value end
      return (ctx:query("printed", u, "re") or 1) * t:get("re", "points").value
    end,
    --- cargo_load(craft) -> the size of what is aboard
    cargo_load = function(ctx, craft) return cargo_load(ctx, craft) end,
    --- landing_craft_of(side, laden) -> side's landing craft on the map (nil
    --- side: every side's), in id order; laden: only those with cargo aboard.
    --- The candidates the family's actions offer (keel.legal)
    landing_craft_of = function(ctx, side, laden) return craft_domain(ctx, side, laden) end,
    --- cargo_aboard(craft) -> what the craft carries, in id order, as
    --- candidates {value, label} (keel.legal), and why there is none
    cargo_aboard = function(ctx, craft) return aboard_domain(ctx, craft) end,
    --- counts_for_stacking(u): landing craft do not count for stacking (4.8's counts)
    counts_for_stacking = function(ctx, u) return ctx:query("naval_class", u) ~= "landing_craft" end,
  },
}

rule {
  id = "18.4b", title = "Movement",
  values = { speed = 10, dukw_speed = 8 },
  queries = {
    --- landing_craft_speed(u): landing craft are slow ships (18.1f), DUKWs move 8
    landing_craft_speed = function(ctx, u)
      if ctx.game:get(u, "type") == "DUKW" then return ctx.rule.values.dukw_speed end
      return ctx.rule.values.speed
    end,
  },
}

rule {
  id = "18.4c", title = "Loading",
  queries = {
    --- port_used(hex) -> the port capacity used at hex in the current phase
    port_used = function(ctx, hex)
      local g = ctx.game
      local grp = port_use_group(ctx, hex)
      local _, _, n = ctx:query("phase")
      if grp and g:group_get_value(grp, "phase") == n then return g:group_get_value(grp, "used") or 0 end
      return 0
    end,
    --- port_capacity_left(hex, side) -> capacity left this phase at a
    --- functional friendly port (nil when there is none; math.huge when the
    --- map gives the port no capacity)
    port_capacity_left = function(ctx, hex, side)
      local port = ctx:query("port_at", hex, side)
      if not port then return nil end
      return port.capacity - ctx:query("port_used", hex)
    end,
    --- cargo_refusal(craft, u) -> nil, or why u may not go aboard the craft
    cargo_refusal = function(ctx, craft, u)
      local g = ctx.game
      local name = g:get(u, "name")
      local c = ctx:query("naval_class", u)
      local ty = g:get(u, "type")
      if ty ~= "SP" and ty ~= "TP" and not ctx:query("is_combat_unit", u) then
        return ("18.4c: landing craft carry combat units, SP and Transport Points (%s is none)"):format(name)
      end
      if c ~= "ground" and c ~= "coastal_artillery" then return ("18.4c: %s is not cargo"):format(name) end
      if g:get(craft, "type") == "DUKW" then return ctx:query("dukw_cargo_refusal", craft, u) end
      return nil
    end,
  },
  on = {
    -- a unit other chapters moved: it has moved in this phase
    unit_moved = function(ctx, ev)
      local _, _, n = ctx:query("phase")
      ctx.game:set_value(ev.unit, "moved_phase", n)
    end,
    -- port capacity used at a hex in this phase (18.4c, 18.5g)
    port_use = function(ctx, ev)
      local g = ctx.game
      local _, _, n = ctx:query("phase")
      local grp = port_use_group(ctx, ev.hex)
      if not grp then
        grp = g:group_new { name = "port use " .. ctx:label("hex", ev.hex), kind = "port use", hex = ev.hex }
      end
      local used = ev.amount
      if g:group_get_value(grp, "phase") == n then used = used + (g:group_get_value(grp, "used") or 0) end
      g:group_set_value(grp, "phase", n)
      g:group_set_value(grp, "used", used)
    end,
  },
  actions = {
    -- embark {craft, units}: loading costs no movement, only in port hexes
    -- (within the port's capacity left this phase), of cargo that has not
    -- moved in this phase. A DUKW as Transport Points loads SP anywhere, at
    -- 2 MP (18.4e C).
    embark = {
      side = "any", phases = { "movement_segment", "reaction_movement", "exploitation_movement" },   -- craft are ships (18.1e)
      params = {
        craft = { type = "unit", domain = function(ctx, _, side) return craft_domain(ctx, side, false) end },
        units = { type = "units", depends = { "craft" }, domain = function(ctx, p) return cargo_domain(ctx, p.craft) end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        local craft = p.craft
        local cname = g:get(craft, "name")
        -- (what depends on the craft or a unit alone is asked once per
        -- state: a listing checks every set of the units in its hex)
        if known(ctx, "naval_class", craft) ~= "landing_craft" then return ("18.4c: %s is not a landing craft"):format(cname) end
        local why = known(ctx, "may_move_now", craft)
        if why then return why end
        local hex = known(ctx, "unit_hex", craft)
        local side = g:get(craft, "side")
        local by_land = known(ctx, "moves_by_land", craft)
        local n = known(ctx, "phase_stamp")
        local size = 0
        for _, u in ipairs(p.units) do
          local name = g:get(u, "name")
          local kind, w = g:get(u, "loc")
          if kind ~= "hex" or w ~= hex then return ("18.4c: %s is not in %s's hex"):format(name, cname) end
          if g:get(u, "side") ~= side then return ("18.4c: %s is an enemy unit"):format(name) end
          if g:get_value(u, "moved_phase") == n then
            return ("18.4c: %s has moved in this phase: cargo cannot have been moved before being loaded"):format(name)
          end
          why = known(ctx, "cargo_refusal", craft, u)
          if why then return why end
          size = size + known(ctx, "transport_size", u)
        end
        local cap = known(ctx, "craft_capacity", craft)
        local load = known(ctx, "cargo_load", craft)
        if load + size > cap then
          return ("18.4a: %s carries %d points; %d aboard, %d more asked"):format(cname, cap, load, size)
        end
        if by_land then return ctx:query("dukw_mp_refusal", craft, "load") end
        if not ctx.game.board:get_port(hex) and not known(ctx, "port_at", hex, side) then
          return ("18.4c: loading only in port hexes (%s has no port)"):format(ctx:label("hex", hex))
        end
        local left = known(ctx, "port_capacity_left", hex, side)
        if not left then return ("18.4c: the port at %s is not a functional friendly port"):format(ctx:label("hex", hex)) end
        if size > left then
          return ("18.4c: the port at %s has %s capacity left this phase; the cargo needs %d"):format(
            ctx:label("hex", hex), tostring(left), size)
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local hex = ctx:query("unit_hex", p.craft)
        local size, names = 0, {}
        for i, u in ipairs(p.units) do
          size = size + ctx:query("transport_size", u)
          g:embark(u, p.craft)
          names[i] = g:get(u, "name")
        end
        if ctx:query("moves_by_land", p.craft) then
          ctx:emit("dukw_mp", { unit = p.craft, cost = "load" })
        else
          ctx:emit("port_use", { hex = hex, amount = size })
        end
        ctx:say("%s embarks on %s at %s (%d of %d points aboard)", table.concat(names, ", "), g:get(p.craft, "name"),
          ctx:label("hex", hex), cargo_load(ctx, p.craft), ctx:query("craft_capacity", p.craft))
      end,
    },
  },
}

rule {
  id = "18.4d", title = "Handling",
  actions = {
    -- split_craft {craft, points, name?}: a new counter of `points` (no cargo)
    split_craft = {
      side = "any", phases = { "movement_segment", "reaction_movement", "exploitation_movement" },
      -- domains (keel.legal): the side's craft of 2 points or more; the
      -- points that may split off, leaving room for the cargo
      params = {
        craft = { type = "unit", domain = function(ctx, _, side) return split_domain(ctx, side) end },
        points = { type = "integer", depends = { "craft" }, domain = function(ctx, p) return points_domain(ctx, p.craft) end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        local have = g:get(p.craft, "points")
        if ctx:query("naval_class", p.craft) ~= "landing_craft" then return "18.4d: only landing craft split" end
        if p.points < 1 or p.points >= have then
          return ("18.4d: %s has %d points: split off 1 to %d"):format(g:get(p.craft, "name"), have, have - 1)
        end
        if cargo_load(ctx, p.craft) > have - p.points then
          return ("18.4d: the cargo aboard %s needs %d points"):format(g:get(p.craft, "name"), cargo_load(ctx, p.craft))
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local new = g:split(p.craft, p.points)
        ctx:say("%s splits: %d points stay, %d form a new counter (unit %d)", g:get(p.craft, "name"),
          g:get(p.craft, "points"), p.points, new)
      end,
    },
    -- combine_craft {craft, into}: points and cargo go to `into`
    combine_craft = {
      side = "any", phases = { "movement_segment", "reaction_movement", "exploitation_movement" },
      -- domains (keel.legal): the side's craft; for each, the other craft
      -- of its type, side, hex and mode
      params = {
        craft = { type = "unit", domain = function(ctx, _, side) return craft_domain(ctx, side, false) end },
        into = { type = "unit", depends = { "craft" }, domain = function(ctx, p) return partner_domain(ctx, p.craft) end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        local a, b = p.craft, p.into
        if a == b then return "18.4d: a counter does not combine with itself" end
        if ctx:query("naval_class", a) ~= "landing_craft" or ctx:query("naval_class", b) ~= "landing_craft" then
          return "18.4d: only landing craft combine"
        end
        if g:get(a, "type") ~= g:get(b, "type") or g:get(a, "side") ~= g:get(b, "side") then
          return "18.4d: landing craft combine with craft of their own type and side"
        end
        if ctx:query("unit_hex", a) ~= ctx:query("unit_hex", b) then return "18.4d: the craft are not in one hex" end
        if g:get_value(a, "mode") ~= g:get_value(b, "mode") then return "18.4e: DUKWs in different modes do not combine" end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        for _, u in ipairs(g:cargo(p.craft)) do g:embark(u, p.into) end
        local sa, sb = ctx:query("mp_spent", p.craft), ctx:query("mp_spent", p.into)
        if sa > sb then
          g:set_value(p.into, "mp_spent", sa)
          g:set_value(p.into, "mp_phase", g:get_value(p.craft, "mp_phase"))
        end
        -- a counter that entered a hex or ended its move this phase passes
        -- that on (the values name the phase, ctx:query("phase")'s key: a
        -- text, compared for equality only)
        local _, _, n = ctx:query("phase")
        for _, k in ipairs({ "move_ended_phase", "entered_phase" }) do
          if g:get_value(p.craft, k) == n and g:get_value(p.into, k) ~= n then g:set_value(p.into, k, n) end
        end
        g:combine(p.into, p.craft)
        ctx:say("%s combines into %s: %d points", g:get(p.craft, "name"), g:get(p.into, "name"), g:get(p.into, "points"))
      end,
    },
  },
  on = {
    -- A craft loses points (barrage 18.3d B, ALT 18.5f C): the counter is
    -- replaced by one of the reduced value, an LST by Landing Craft (18.3d);
    -- at no points left it is gone with its cargo; cargo it can no longer
    -- carry is lost, chosen at random (18.3d's important note).
    craft_loss = function(ctx, ev)
      local g = ctx.game
      local u = ev.unit
      if g:get(u, "loc") == "dead" then return end
      local name = g:get(u, "name")
      if g:get(u, "type") == "LST" then
        g:set(u, "type", "LC")
        ctx:say("%s, an LST, is hit: it converts to Landing Craft", name)
      end
      local points = g:get(u, "points")
      local lose = ev.points or 1
      if points <= lose then
        g:eliminate(u)
        ctx:say("%s loses its last point (%s): eliminated with its cargo", name, ev.reason or "")
        return
      end
      g:reduce_points(u, lose)
      ctx:say("%s loses %d point%s (%s): %d left", name, lose, lose > 1 and "s" or "", ev.reason or "", points - lose)
      while cargo_load(ctx, u) > ctx:query("craft_capacity", u) do
        local lost = ctx:pick(g:cargo(u), { reason = "which cargo is lost with " .. name })
        g:eliminate(lost)
        ctx:say("%s is lost with the point of %s", g:get(lost, "name"), name)
      end
    end,
  },
}

rule {
  id = "18.4e", title = "DUKWs",
  values = { tp_factor = 3, load_cost = 2 },
  queries = {
    --- moves_by_land(u): a DUKW operating as Transport Points (value mode = "tp")
    moves_by_land = function(ctx, u)
      return ctx.game:get(u, "type") == "DUKW" and ctx.game:get_value(u, "mode") == "tp"
    end,
    --- dukw_allowance(u) -> its MA in Transport-Point MPs: 8 x 3 = 24. A DUKW's
    --- spending is kept in these: a water hex costs 3 of them, so switching
    --- modes triples or divides what is left with nothing to round.
    dukw_allowance = function(ctx, u)
      return ctx:query("landing_craft_speed", u) * ctx.rule.values.tp_factor
    end,
    dukw_move_cost = function(ctx, u, from, to)
      if ctx:query("moves_by_land", u) then return ctx:query("land_move_cost", u, from, to) end
      return ctx.rule.values.tp_factor
    end,
    --- dukw_cargo_refusal(dukw, u): as Landing Craft only air-transportable
    --- cargo (B, 14.9c's restrictions: query air_transport_allowed); as
    --- Transport Points SP only (C)
    dukw_cargo_refusal = function(ctx, dukw, u)
      local g = ctx.game
      if ctx:query("moves_by_land", dukw) then
        if g:get(u, "type") ~= "SP" then
          return ("18.4e C: as Transport Points a DUKW carries only SP (%s is not)"):format(g:get(u, "name"))
        end
        return nil
      end
      if not ctx:query("air_transport_allowed", u) then
        return ("18.4e B: as Landing Craft a DUKW carries only what Air Transport may (%s may not)"):format(
          g:get(u, "name"))
      end
      return nil
    end,
    --- air_transport_allowed(u): 14.9c's restrictions stand in as SP, and
    --- units with the value air_transportable
    air_transport_allowed = function(ctx, u)
      return ctx.game:get(u, "type") == "SP" or ctx.game:get_value(u, "air_transportable") == true
    end,
    --- dukw_mp_refusal(u, what) -> nil, or why a Transport-Point DUKW lacks the 2 MP to load or unload
    dukw_mp_refusal = function(ctx, u, what)
      local left = ctx:query("move_allowance", u) - ctx:query("mp_spent", u)
      if left < ctx.rule.values.load_cost then
        return ("18.4e C: to %s as Transport Points costs %d MP; %s has %s left"):format(what,
          ctx.rule.values.load_cost, ctx.game:get(u, "name"), tostring(left))
      end
      return nil
    end,
    --- overrun_as(u): how an overrun (9.14) treats a DUKW: as Landing Craft
    --- in that mode (B), as a truck as Transport Points (C)
    overrun_as = function(ctx, u)
      if ctx:query("moves_by_land", u) then return "truck" end
      return "landing craft"
    end,
    --- captured_as(u): a DUKW is captured as a truck (9.14c)
    captured_as = function() return "truck" end,
  },
  vetoes = {
    -- as Transport Points a DUKW moves in the Movement Phase only
    move = function(ctx, p)
      local list = ctx:query("moving_units", p)
      for _, u in ipairs(list) do
        if ctx:query("moves_by_land", u) and ctx.game:get_phase() ~= "movement" then
          return ("18.4e: as Transport Points %s moves in the Movement Phase only"):format(ctx.game:get(u, "name"))
        end
      end
    end,
  },
  on = {
    -- loading or unloading as Transport Points: 2 MP
    dukw_mp = function(ctx, ev)
      local g = ctx.game
      local _, _, n = ctx:query("phase")
      g:set_value(ev.unit, "mp_spent", ctx:query("mp_spent", ev.unit) + ctx.rule.values.load_cost)
      g:set_value(ev.unit, "mp_phase", n)
    end,
  },
  actions = {
    -- switch_mode {unit, to = "tp" | "lc"}: in the Movement Phase, where
    -- water meets land. To Transport Points: an ALT roll (A) — unless the
    -- DUKW has landed cargo in this hex in this phase: then the landing's
    -- roll is this one too, and its movement stays ended (18.5a).
    switch_mode = {
      phases = { "movement_segment" },   -- 18.4e
      -- domains (keel.legal): the side's DUKWs on the map; the mode each is not in
      params = {
        unit = { type = "unit", domain = function(ctx, _, side) return dukw_domain(ctx, side) end },
        to = { type = "string", depends = { "unit" }, domain = function(ctx, p)
          if ctx:query("moves_by_land", p.unit) then return { { value = "lc", label = "Landing Craft" } } end
          return { { value = "tp", label = "Transport Points" } }
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        local u = p.unit
        local name = g:get(u, "name")
        if g:get(u, "type") ~= "DUKW" then return ("18.4e: %s is not a DUKW"):format(name) end
        if p.to ~= "tp" and p.to ~= "lc" then return "18.4e: switch to \"tp\" (Transport Points) or \"lc\" (Landing Craft)" end
        if (g:get_value(u, "mode") or "lc") == p.to then return ("18.4e: %s is already in that mode"):format(name) end
        local phase, side = ctx:query("phase")
        if phase ~= "movement" or side ~= g:get(u, "side") then
          return "18.4e: a DUKW switches between Landing Craft and Transport Points in its Movement Phase"
        end
        local hex = ctx:query("unit_hex", u)
        local b = g.board
        if not (b:get_terrain(hex) == "coastal" or (b:get_terrain(hex) == "all-land" and ctx:query("estuary_hex", hex))) then
          return ("18.4e: %s switches where water meets land (a coastal or estuary hex), not at %s"):format(name,
            ctx:label("hex", hex))
        end
        if p.to == "tp" then
          for _, c in ipairs(g:cargo(u)) do
            if g:get(c, "type") ~= "SP" then
              return ("18.4e C: as Transport Points a DUKW carries only SP: land %s first"):format(g:get(c, "name"))
            end
          end
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local u = p.unit
        local _, _, n = ctx:query("phase")
        local left = ctx:query("move_allowance", u) - ctx:query("mp_spent", u)
        local f = ctx.rule.values.tp_factor
        local function num(x) return tostring(math.tointeger(x) or x) end
        g:set_value(u, "mode", p.to == "tp" and "tp" or nil)
        if p.to == "lc" then
          ctx:say("%s moves by water again: %s MP left as Landing Craft (%s Transport-Point MPs / %d)",
            g:get(u, "name"), num(left / f), num(left), f)
          return
        end
        ctx:say("%s moves by land as Transport Points: %s MP left (%s x %d)", g:get(u, "name"), num(left),
          num(left / f), f)
        if g:get_value(u, "move_ended_phase") == n then
          ctx:say("%s landed cargo here in this phase: that landing's ALT roll is this switch's too (18.4e A)",
            g:get(u, "name"))
          return
        end
        ctx:emit("alt_roll", { hex = ctx:query("unit_hex", u), units = g:cargo(u), craft = { u },
          reason = g:get(u, "name") .. " switches to Transport Points (18.4e A)" })
      end,
    },
    -- disembark {craft, units}: a Transport-Point DUKW unloads SP, 2 MP;
    -- Landing Craft unload only by Amphibious Landing or Beach Assault (18.4c)
    disembark = {
      side = "any", phases = { "movement_segment", "reaction_movement", "exploitation_movement" },
      params = {
        craft = { type = "unit", domain = function(ctx, _, side) return craft_domain(ctx, side, true) end },
        units = { type = "units", depends = { "craft" }, domain = function(ctx, p) return aboard_domain(ctx, p.craft) end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        if not ctx:query("moves_by_land", p.craft) then
          return "18.4c: landing craft unload by Amphibious Landing (18.5) or Beach Assault (18.6)"
        end
        local why = ctx:query("may_move_now", p.craft)
        if why then return why end
        for _, u in ipairs(p.units) do
          local kind, w = g:get(u, "loc")
          if kind ~= "unit" or w ~= p.craft then return ("%s is not aboard %s"):format(g:get(u, "name"), g:get(p.craft, "name")) end
        end
        return ctx:query("dukw_mp_refusal", p.craft, "unload")
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local hex = ctx:query("unit_hex", p.craft)
        for _, u in ipairs(p.units) do g:move(u, "hex", hex) end
        ctx:emit("dukw_mp", { unit = p.craft })
        ctx:say("%s unloads %d unit(s) at %s (2 MP)", g:get(p.craft, "name"), #p.units, ctx:label("hex", hex))
      end,
    },
  },
}

rule {
  id = "18.4f", title = "LSTs",
  values = { port_capacity = 1 },
  queries = {
    --- port_at(hex, side) -> {capacity=, kind = "map"|"lst", unit=} for a
    --- functional friendly port in the hex, or nil: a map port the side owns,
    --- or the side's LST port (a 1 SP port, D) from the phase after it
    --- deployed (E)
    port_at = function(ctx, hex, side)
      local g = ctx.game
      local _, _, n = ctx:query("phase")
      local b = g.board
      local mp = b and b:contains(hex) and b:get_port(hex)
      if mp and g:get_owner(hex) == side then return { capacity = mp.capacity or math.huge, kind = "map" } end
      for _, u in ipairs(ctx:query("units_at", hex)) do
        if ctx:query("naval_class", u) == "lst_port" and g:get(u, "side") == side
            and g:get_value(u, "deployed_phase") ~= n then
          return { capacity = ctx.rule.values.port_capacity, kind = "lst", unit = u }
        end
      end
      return nil
    end,
    --- is_supply_source(hex, side): an LST port is a supply source (D)
    is_supply_source = function(ctx, hex, side)
      local p = ctx:query("port_at", hex, side)
      return p ~= nil and p.kind == "lst"
    end,
    --- lst_conversion_refusal(u) -> nil, or why the LST may not convert now
    lst_conversion_refusal = function(ctx, u)
      local g = ctx.game
      local name = g:get(u, "name")
      local c = ctx:query("naval_class", u)
      if c == "lst_port" then return ("18.4f C: %s is a port: it never converts back, nor again"):format(name) end
      if g:get(u, "type") ~= "LST" then return ("18.4f: %s is not an LST"):format(name) end
      local hex, kind = ctx:query("unit_hex", u)
      if kind ~= "hex" then return ("18.4f: %s is not on the map"):format(name) end
      local b = g.board
      if b:get_terrain(hex) ~= "coastal" and not ctx:query("estuary_hex", hex) then
        return ("18.4f: an LST converts into a port in a coastal or estuary hex (%s is %s)"):format(ctx:label("hex", hex),
          b:get_terrain(hex))
      end
      if b:get_port(hex) then return ("18.4f F: %s already has a port"):format(ctx:label("hex", hex)) end
      for _, o in ipairs(ctx:query("units_at", hex)) do
        if o ~= u and ctx:query("naval_class", o) == "lst_port" then
          return ("18.4f F: %s already has a port (%s)"):format(ctx:label("hex", hex), g:get(o, "name"))
        end
      end
      return nil
    end,
  },
  vetoes = {
    -- C: an LST port never moves
    move = function(ctx, p)
      local list = ctx:query("moving_units", p)
      for _, u in ipairs(list) do
        if ctx:query("naval_class", u) == "lst_port" then
          return ("18.4f C: %s is an LST port: it never moves"):format(ctx.game:get(u, "name"))
        end
      end
    end,
  },
  on = {
    -- the hex's ALT rolls are made: an LST still an LST (no loss taken)
    -- deploys as a port; it is not functional in this phase (E)
    alt_hex_done = function(ctx, ev)
      local g = ctx.game
      local _, _, n = ctx:query("phase")
      for _, u in ipairs(ctx:query("units_at", ev.hex)) do
        if g:get_value(u, "deploying_phase") == n then
          g:set_value(u, "deploying_phase", nil)
          if g:get(u, "type") == "LST" and g:get(u, "loc") ~= "dead" then
            g:set(u, "type", ctx:query("lst_port_type"))
            g:set_value(u, "deployed_phase", n)
            ctx:say("%s deploys as a port at %s (a 1 SP port; not functional in this phase)", g:get(u, "name"),
              ctx:label("hex", ev.hex))
          else
            ctx:say("%s took a loss on the ALT: no port", g:get(u, "name"))
          end
        end
      end
    end,
    -- B: an enemy Attack-Capable unit entering its hex destroys it
    unit_enters_hex = function(ctx, ev)
      local g = ctx.game
      for _, u in ipairs(ctx:query("units_at", ev.hex)) do
        if ctx:query("naval_class", u) == "lst_port" and g:get(u, "side") ~= g:get(ev.unit, "side")
            and ctx:query("is_attack_capable", ev.unit) then
          g:eliminate(u)
          ctx:say("%s enters %s: the LST port there is destroyed", g:get(ev.unit, "name"), ctx:label("hex", ev.hex))
        end
      end
    end,
  },
  actions = {
    -- convert_lst {unit, mode?}: in the Movement Phase (an ALT roll, 18.5d);
    -- the cargo lands now (18.5's restrictions apply: 18.5c's mode, no SP or
    -- TP by ALT) and the LST joins the hex's ALT roll; it becomes a port
    -- after that roll if it took no loss.
    convert_lst = {
      phases = { "movement_segment" },   -- an ALT roll (18.4f, 18.5d)
      -- domains (keel.legal): the side's LSTs on the map; the modes its
      -- combat units land in (18.5c)
      params = {
        unit = { type = "unit", domain = function(ctx, _, side) return lst_domain(ctx, side) end },
        mode = { type = "string?", depends = { "unit" }, domain = function(ctx, p) return ctx:query("landing_modes", p.unit) end },
      },
      legal = function(ctx, p)
        local why = ctx:query("lst_conversion_refusal", p.unit)
        if why then return why end
        local g = ctx.game
        why = ctx:query("landing_phase_refusal", g:get(p.unit, "side"), false)
        if why then return why end
        local hex = ctx:query("unit_hex", p.unit)
        why = ctx:query("landing_hex_refusal", hex, g:get(p.unit, "side"), true)
        if why then return why end
        for _, c in ipairs(g:cargo(p.unit)) do
          why = ctx:query("alt_cargo_refusal", c) or ctx:query("landing_mode_refusal", c, p.mode)
          if why then return why end
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local _, _, n = ctx:query("phase")
        local cargo = g:cargo(p.unit)
        if #cargo > 0 then ctx:emit("units_land", { craft = p.unit, units = cargo, mode = p.mode, by = "alt" }) end
        g:set_value(p.unit, "deploying_phase", n)
        g:set_value(p.unit, "move_ended_phase", n)
        ctx:say("%s begins to deploy as a port at %s (the hex's ALT roll decides)", g:get(p.unit, "name"),
          ctx:label("hex", ctx:query("unit_hex", p.unit)))
      end,
    },
  },
}

-- ---- helpers shared by the rules of this file ---------------------------------------

-- side's landing craft on the map (laden: with cargo aboard), in id order
function craft_domain(ctx, side, laden)
  local g = ctx.game
  local out = {}
  for _, u in ipairs(g:units { side = side }) do
    if ctx:query("naval_class", u) == "landing_craft"
      and ctx:query("unit_hex", u) and (not laden or #g:cargo(u) > 0) then
      out[#out + 1] = { value = u, label = g:get(u, "name") }
    end
  end
  return out, laden and "18.4: no landing craft of the side carries cargo" or "18.4: the side has no landing craft on the map"
end

-- the ground units of the craft's side standing in its hex (18.4c loads them there)
function cargo_domain(ctx, craft)
  local g = ctx.game
  local hex, side, out = ctx:query("unit_hex", craft), g:get(craft, "side"), {}
  for _, u in ipairs(ctx:query("units_at", hex)) do
    local kind = g:get(u, "loc")
    local c = ctx:query("naval_class", u)
    if kind == "hex" and g:get(u, "side") == side and (c == "ground" or c == "coastal_artillery") then
      out[#out + 1] = { value = u, label = g:get(u, "name") }
    end
  end
  return out, ("18.4c: no unit of %s's side in its hex"):format(g:get(craft, "name"))
end

-- what is aboard the craft, in id order
function aboard_domain(ctx, craft)
  local g = ctx.game
  local out = {}
  for _, u in ipairs(g:cargo(craft)) do out[#out + 1] = { value = u, label = g:get(u, "name") } end
  table.sort(out, function(a, b) return a.value < b.value end)
  return out, ("%s carries nothing"):format(g:get(craft, "name"))
end

-- side's craft with 2 points or more (they may split), in id order
function split_domain(ctx, side)
  local g = ctx.game
  local out = {}
  for _, c in ipairs(craft_domain(ctx, side, false)) do
    if g:get(c.value, "points") >= 2 then out[#out + 1] = c end
  end
  return out, "18.4d: no landing craft of the side has 2 points or more to split"
end

-- the points that may split off the craft: 1 up to what its cargo leaves free
function points_domain(ctx, craft)
  local g = ctx.game
  local have = g:get(craft, "points")
  local out = {}
  for n = 1, have - math.max(1, cargo_load(ctx, craft)) do out[n] = n end
  return out, ("18.4d: the cargo aboard %s needs its %d points"):format(g:get(craft, "name"), have)
end

-- the craft that `craft` may combine into: same type, side, hex and mode (18.4d, 18.4e)
function partner_domain(ctx, craft)
  local g = ctx.game
  local hex, out = ctx:query("unit_hex", craft), {}
  for _, c in ipairs(craft_domain(ctx, g:get(craft, "side"), false)) do
    local u = c.value
    if u ~= craft and g:get(u, "type") == g:get(craft, "type") and ctx:query("unit_hex", u) == hex
        and g:get_value(u, "mode") == g:get_value(craft, "mode") then
      out[#out + 1] = c
    end
  end
  return out, ("18.4d: no other craft of %s's type and mode in its hex"):format(g:get(craft, "name"))
end

-- side's craft of a type on the map, in id order
local function craft_of_type(ctx, side, ty)
  local g = ctx.game
  local out = {}
  for _, c in ipairs(craft_domain(ctx, side, false)) do
    if g:get(c.value, "type") == ty then out[#out + 1] = c end
  end
  return out
end

function dukw_domain(ctx, side) return craft_of_type(ctx, side, "DUKW"), "18.4e: the side has no DUKW on the map" end

function lst_domain(ctx, side) return craft_of_type(ctx, side, "LST"), "18.4f: the side has no LST on the map" end

-- what the listing asks again and again (ctx:known), and the two answers
-- of this file's own that it keeps the same way (ctx:cache)
local OWN = {
  phase_stamp = function(ctx) return select(3, ctx:query("phase")) end,
  cargo_load = function(ctx, craft) return cargo_load(ctx, craft) end,
}
function known(ctx, q, a, b)
  local own = OWN[q]
  if not own then return ctx:known(q, a, b) end
  local c = ctx:cache("ocs.own")
  local t = c[q]
  if not t then t = {}; c[q] = t end
  local k = a == nil and OWN or a   -- (OWN stands for no argument)
  if t[k] == nil then t[k] = own(ctx, a) end
  return t[k]
end

function cargo_load(ctx, craft)
  local total = 0
  for _, u in ipairs(ctx.game:cargo(craft)) do total = total + ctx:query("transport_size", u) end
  return total
end

-- the group that keeps a port hex's capacity used (nil until first used)
function port_use_group(ctx, hex)
  local g = ctx.game
  for _, grp in ipairs(g:groups()) do
    if g:group_get_value(grp, "kind") == "port use" and g:group_get_value(grp, "hex") == hex then return grp end
  end
  return nil
end

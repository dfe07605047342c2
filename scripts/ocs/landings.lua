-- 18.5 Amphibious Landings (000_366d55705cda9bbc.txt): landing craft unload
-- their units on entering a coastal hex that holds no enemy combat units;
-- the landing is rolled on the Amphibious Landing Table (ALT) after all
-- landing craft have moved, unless it goes through a friendly port's
-- capacity; landed units may move half their MA afterwards. The ALT is the
-- scenario's (scripts/ocs/tables/alt_standin.tbl stands in).
--
-- A landed unit keeps: landed_phase (the phase serial), landed_by ("alt",
-- "port" or "beach assault"), landed_craft (the craft it came off).

local land_plan, min_groups, alt_groups, landed_units, roll_alt   -- helpers, below the rules
local port_domain, after_landing_domain   -- parameter domains (keel.legal), below

rule {
  id = "18.5", title = "Amphibious Landings",
  queries = {
    --- landing_hex_refusal(hex, side, estuary_ok) -> nil, or why units may
    --- not land there: coastal hexes (and estuary hexes where an LST deploys
    --- or stands as a port, 18.4f) with no enemy combat units (those take a
    --- Beach Assault, 18.6)
    landing_hex_refusal = function(ctx, hex, side, estuary_ok)
      local g = ctx.game
      local t = g.board:get_terrain(hex)
      if t ~= "coastal" and not (estuary_ok and ctx:query("estuary_hex", hex)) then
        return ("18.5: landings are made in coastal hexes (%s is %s)"):format(ctx:label("hex", hex), t)
      end
      for _, u in ipairs(ctx:query("units_at", hex)) do
        if g:get(u, "side") ~= side and ctx:query("is_combat_unit", u) then
          return ("18.5: %s holds enemy combat units (%s): landings are made in undefended hexes; "
            .. "see Beach Assaults (18.6)"):format(ctx:label("hex", hex), g:get(u, "name"))
        end
      end
      return nil
    end,
  },
}

rule {
  id = "18.5a", title = "Unloading",
  actions = {
    -- land {craft, units?, mode?, port?}: the craft drops off its units (all
    -- of its cargo unless named) on entering the coastal hex, at no
    -- movement cost, and ends its move there. port = true unloads through a
    -- friendly port's capacity, with no ALT roll (18.5g).
    land = {
      -- by ALT in the Movement Phase, through a port also later (18.5d, 18.5g)
      side = "any", phases = { "movement_segment", "reaction_movement", "exploitation_movement" },
      -- domains (keel.legal): the side's laden craft; for each, its cargo
      -- (left out: all of it), the modes combat units land in (18.5c) when
      -- it carries any, and the port (port = true; left out: by ALT roll)
      -- where the craft's hex has a functional friendly one (18.5g)
      params = {
        craft = { type = "unit", domain = function(ctx, _, side) return ctx:query("landing_craft_of", side, true) end },
        units = { type = "units?", depends = { "craft" }, domain = function(ctx, p) return ctx:query("cargo_aboard", p.craft) end },
        mode = { type = "string?", depends = { "craft" }, domain = function(ctx, p) return ctx:query("landing_modes", p.craft) end },
        port = { type = "boolean?", depends = { "craft" }, domain = function(ctx, p) return port_domain(ctx, p.craft) end },
      },
      legal = function(ctx, p)
        local plan, why = land_plan(ctx, p)
        if not plan then return why end
      end,
      effect = function(ctx, p)
        local plan = land_plan(ctx, p)
        ctx:emit("units_land", { craft = p.craft, units = plan.units, mode = p.mode, by = plan.by })
        if plan.by == "port" then ctx:emit("port_use", { hex = plan.hex, amount = plan.size }) end
      end,
    },
  },
  on = {
    -- cargo comes ashore: the units stand in the hex; the craft's move is over
    units_land = function(ctx, ev)
      local g = ctx.game
      local _, _, n = ctx:query("phase")
      local hex = ev.to or ctx:query("unit_hex", ev.craft)
      local names = {}
      for i, u in ipairs(ev.units) do
        g:move(u, "hex", hex)
        g:set_value(u, "landed_phase", n)
        g:set_value(u, "landed_by", ev.by)
        g:set_value(u, "landed_craft", ev.craft)
        if ev.no_after_landing then g:set_value(u, "no_after_landing", n) end
        if ev.mode and ctx:query("is_combat_unit", u) then g:set_value(u, "mode", ev.mode) end
        names[i] = g:get(u, "name")
      end
      g:set_value(ev.craft, "move_ended_phase", n)
      ctx:say("%s land%s from %s at %s (%s)%s", table.concat(names, ", "), #names == 1 and "s" or "",
        g:get(ev.craft, "name"), ctx:label("hex", hex), ev.by == "port" and "through the port, no ALT roll"
        or ev.by == "alt" and "an ALT landing" or ev.by, ev.mode and (", " .. ev.mode .. " mode") or "")
    end,
  },
  vetoes = {
    -- the craft ended its move where it unloaded
    move = function(ctx, p)
      local list = ctx:query("moving_units", p)
      local _, _, n = ctx:query("phase")
      for _, u in ipairs(list) do
        if ctx.game:get_value(u, "move_ended_phase") == n then
          return ("18.5a: %s unloaded (or deployed) and ended its move in this phase"):format(ctx.game:get(u, "name"))
        end
      end
    end,
  },
}

rule {
  id = "18.5b", title = "Any number of points",
  queries = {
    --- points_landed(hex) -> the landing-craft points that unloaded at hex
    --- in this phase: there is no limit on them
    points_landed = function(ctx, hex)
      local g = ctx.game
      local _, _, n = ctx:query("phase")
      local seen, total = {}, 0
      for _, u in ipairs(ctx:query("units_at", hex)) do
        local c = g:get_value(u, "landed_craft")
        if c and g:get_value(u, "landed_phase") == n and not seen[c] then
          seen[c] = true
          total = total + g:get(c, "points")
        end
      end
      return total
    end,
  },
}

rule {
  id = "18.5c", title = "Landing modes",
  values = { modes = { combat = true, move = true } },
  queries = {
    --- landing_modes(craft) -> the modes the craft's combat units may land
    --- in, or nil and why there is none to choose (keel.legal's domains)
    landing_modes = function(ctx, craft)
      for _, u in ipairs(ctx.game:cargo(craft)) do
        if ctx:query("is_combat_unit", u) then return { "combat", "move" } end
      end
      return nil, "18.5c: no combat unit aboard"
    end,
    --- landing_mode_refusal(u, mode) -> nil, or why: combat units unload in Combat or Move Mode
    landing_mode_refusal = function(ctx, u, mode)
      if not ctx:query("is_combat_unit", u) then return nil end
      if not ctx.rule.values.modes[mode] then
        return ("18.5c: combat units unload in Combat or Move Mode: mode = \"combat\" or \"move\" for %s (got %s)")
          :format(ctx.game:get(u, "name"), tostring(mode))
      end
      return nil
    end,
  },
}

rule {
  id = "18.5d", title = "ALT landings in the Movement Phase",
  values = { port_phases = { movement = true, reaction = true, exploitation = true } },
  queries = {
    --- landing_phase_refusal(side, by_port) -> nil, or why not now: ALT
    --- landings in the player's Movement Phase only, port landings also in
    --- the Reaction and Exploitation Phases
    landing_phase_refusal = function(ctx, side, by_port)
      local phase, ps, n = ctx:query("phase")
      if by_port then
        if ps == side and ctx.rule.values.port_phases[phase] then return nil end
        return ("18.5d: landings through a port are made in the side's Movement, Reaction and Exploitation Phases "
          .. "(now the %s phase of %s)"):format(tostring(phase), tostring(ps))
      end
      if phase ~= "movement" or ps ~= side then
        return ("18.5d: landings that need an ALT roll are made only in the player's Movement Phase (now the %s "
          .. "phase of %s)"):format(tostring(phase), tostring(ps))
      end
      if ctx.game:get_global("alt_done_phase") == n then
        return "18.5f: the ALT rolls of this phase are made: every landing craft has finished moving"
      end
      return nil
    end,
  },
}

rule {
  id = "18.5e", title = "Supplies and transport by landing craft",
  queries = {
    --- alt_cargo_refusal(u) -> nil, or why: Transport Points and SP are not landed by ALT roll (but see 18.5g)
    alt_cargo_refusal = function(ctx, u)
      local ty = ctx.game:get(u, "type")
      if ty == "SP" or ty == "TP" then
        return ("18.5e: Transport Points and SP cannot be landed by ALT roll (%s): land them through a port (18.5g)")
          :format(ctx.game:get(u, "name"))
      end
      return nil
    end,
    --- craft_supply_refusal(unit, craft) -> nil, or why the unit may not
    --- draw on the SP aboard the craft: only units in the same or an
    --- adjacent hex (even off-shore)
    craft_supply_refusal = function(ctx, u, craft)
      local a, b = ctx:query("unit_hex", u), ctx:query("unit_hex", craft)
      if a and b and keel.hex.distance(a, b) <= 1 then return nil end
      return ("18.5e: SP on landing craft serve only units in the same or an adjacent hex (%s is not)"):format(
        ctx.game:get(u, "name"))
    end,
    --- hq_throw_refusal(hq, source) -> nil, or why the HQ may not throw
    --- supply drawn from that source: never from a landing craft
    hq_throw_refusal = function(ctx, hq, source)
      if source and ctx:query("naval_class", source) == "landing_craft" then
        return ("18.5e: HQs do not throw supply drawn from a Landing Craft (%s, from %s)"):format(
          ctx.game:get(hq, "name"), ctx.game:get(source, "name"))
      end
      return nil
    end,
  },
}

rule {
  id = "18.5f", title = "The ALT Roll",
  standin = { alt_effect = "the Amphibious Landing Table's results (cited by 18.5f)" },
  values = {
    group_re = 3,
    -- the terrains of the ALT's modifiers, most difficult first (board tags)
    terrain_order = { "mountain", "very_close", "close" },
  },
  queries = {
    --- alt_modifiers(hex, side) -> the ALT's modifiers: the most difficult
    --- terrain in the hex (A), a functional friendly port (18.4f E)
    alt_modifiers = function(ctx, hex, side)
      local b = ctx.game.board
      local mods = {}
      for _, t in ipairs(ctx.rule.values.terrain_order) do
        if b:has_tag(hex, t) then mods[t .. "_terrain"] = true break end
      end
      if ctx:query("port_at", hex, side) then mods.friendly_port = true end
      return mods
    end,
    --- alt_effect(cell) -> {losses = n, dg = bool}: how an ALT result reads
    --- (the stand-in's codes: Ln, DG, NE; a scenario with another table wraps this)
    alt_effect = function(_, cell)
      if cell.kind == "code" then
        local n = cell.code:match("^L(%d+)$")
        if n then return { losses = math.tointeger(tonumber(n)), dg = false } end
        if cell.code == "DG" then return { losses = 0, dg = true } end
        if cell.code == "NE" then return { losses = 0, dg = false } end
      end
      error(("18.5f: the ALT result '%s' is not one this family reads (Ln, DG, NE): a scenario with another "
        .. "table wraps the query alt_effect"):format(tostring(cell.text)), 0)
    end,
    --- alt_groups(units) -> the fewest groups of at most 3 RE (B), found by
    --- an exact search; ties go to the grouping found first in id order
    alt_groups = function(ctx, units) return alt_groups(ctx, units, ctx.rule.values.group_re) end,
    --- alt_arrangement(side, groups) -> {hex = {group...}} | nil, reason: the
    --- player's grouping (lists of units, by id or name) checked: every unit
    --- landed by ALT in this phase in one group of one hex, each group at
    --- most 3 RE, and no more groups in a hex than the fewest possible (B)
    alt_arrangement = function(ctx, side, groups)
      local g = ctx.game
      local cap = ctx.rule.values.group_re
      local hexes, by_hex = ctx:query("alt_pending", side)
      local pending = {}
      for _, h in ipairs(hexes) do for _, u in ipairs(by_hex[h].units) do pending[u] = h end end
      local out, placed = {}, {}
      for i, grp in ipairs(groups) do
        if type(grp) ~= "table" or #grp == 0 then return nil, ("18.5f B: group %d is not a list of units"):format(i) end
        local ids, hex, re = {}, nil, 0
        for k, x in ipairs(grp) do
          local u = x
          if type(x) == "string" then
            u = nil
            for _, id in ipairs(g:units()) do if g:get(id, "name") == x then u = id break end end
          end
          local h = u and pending[u]
          if not h then return nil, ("18.5f B: %s did not land by ALT in this phase"):format(tostring(x)) end
          if placed[u] then return nil, ("18.5f B: %s is in two groups"):format(g:get(u, "name")) end
          if hex and h ~= hex then return nil, ("18.5f B: group %d mixes units of two hexes"):format(i) end
          placed[u], hex, ids[k] = true, h, u
          re = re + (ctx:query("printed", u, "re") or 1)
        end
        if re > cap and #ids > 1 then return nil, ("18.5f B: group %d holds %s RE (at most %d)"):format(i, tostring(re), cap) end
        table.sort(ids)
        out[hex] = out[hex] or {}
        out[hex][#out[hex] + 1] = ids
      end
      for _, h in ipairs(hexes) do
        for _, u in ipairs(by_hex[h].units) do
          if not placed[u] then return nil, ("18.5f B: %s is in no group"):format(g:get(u, "name")) end
        end
        local fewest = #alt_groups(ctx, by_hex[h].units, cap)
        if #by_hex[h].units > 0 and #out[h] > fewest then
          return nil, ("18.5f B: make as few rolls as possible: %d groups at %s, %d are enough"):format(#out[h],
            ctx:label("hex", h), fewest)
        end
      end
      return out
    end,
    --- alt_pending(side) -> hexes, {hex = {units =, lsts =}}: what this phase's ALT rolls cover
    alt_pending = function(ctx, side)
      local g = ctx.game
      local _, _, n = ctx:query("phase")
      local by_hex, hexes = {}, {}
      local function at(h)
        if not by_hex[h] then by_hex[h] = { units = {}, lsts = {} }; hexes[#hexes + 1] = h end
        return by_hex[h]
      end
      for _, u in ipairs(landed_units(ctx, side, n, "alt")) do
        local e = at(ctx:query("unit_hex", u))
        e.units[#e.units + 1] = u
      end
      for _, u in ipairs(side ~= nil and g:units { side = side } or {}) do
        if g:get_value(u, "deploying_phase") == n and g:get(u, "loc") ~= "dead" then
          local e = at(ctx:query("unit_hex", u))
          e.lsts[#e.lsts + 1] = u
        end
      end
      table.sort(hexes)
      return hexes, by_hex
    end,
  },
  actions = {
    -- alt_rolls {groups?}: after all landing craft have moved, one roll per
    -- group of 3 RE landed in a hex (groups: the player's arrangement, lists
    -- of units; default: the fewest groups). Then 9.14's specialized combat
    -- (E), then the LSTs deploy (18.4f), then after-landing moves (D).
    alt_rolls = {
      phases = { "movement_segment" },   -- 18.5f
      params = { groups = "table?" },
      legal = function(ctx, p)
        local phase, side, n = ctx:query("phase")
        if phase ~= "movement" then return "18.5f: the ALT rolls are made in the Movement Phase, after all landing craft move" end
        if ctx.game:get_global("alt_done_phase") == n then return "18.5f: the ALT rolls of this phase are made" end
        if p.groups then
          local _, why = ctx:query("alt_arrangement", side, p.groups)
          if why then return why end
        end
      end,
      effect = function(ctx, p)
        local hexes = roll_alt(ctx, p.groups and ctx:query("alt_arrangement", select(2, ctx:query("phase")), p.groups))
        if #hexes == 0 then ctx:say("no ALT landings in this phase") end
      end,
    },
  },
  vetoes = {
    -- the rolls are made after all landing craft have finished moving
    move = function(ctx, p)
      local list = ctx:query("moving_units", p)
      local phase, _, n = ctx:query("phase")
      if phase ~= "movement" or ctx.game:get_global("alt_done_phase") ~= n then return nil end
      for _, u in ipairs(list) do
        if ctx:query("naval_class", u) == "landing_craft" then
          return ("18.5f: the ALT rolls of this phase are made: landing craft have finished moving (%s)"):format(
            ctx.game:get(u, "name"))
        end
      end
    end,
  },
  on = {
    -- the Movement Segment ends (the sequence of play): the ALT rolls of
    -- landings the player has not rolled are made now, in the fewest groups
    -- (they come after all the craft have moved, and are not skipped)
    movement_segment_end = function(ctx)
      local _, side, n = ctx:query("phase")
      if ctx.game:get_global("alt_done_phase") == n or #ctx:query("alt_pending", side) == 0 then return end
      ctx:say("the Movement Segment ends before the ALT rolls were asked for: they are made now")
      roll_alt(ctx, nil)
    end,
    -- one ALT roll for a group: the hex's modifiers, the result; losses
    -- taken from the group's craft and cargo at random (C); a DG result
    -- disorganizes the landed units
    alt_roll = function(ctx, ev)
      local g = ctx.game
      local side = g:get((ev.units[1] or ev.craft[1]), "side")
      local mods = ctx:query("alt_modifiers", ev.hex, side)
      local cell = ctx:resolve("amphibious_landing_table", mods, { reason = ev.reason })
      local eff = ctx:query("alt_effect", cell)
      for _ = 1, eff.losses do
        local cand = {}
        for _, c in ipairs(ev.craft) do if g:get(c, "loc") ~= "dead" then cand[#cand + 1] = c end end
        for _, u in ipairs(ev.units) do if g:get(u, "loc") ~= "dead" then cand[#cand + 1] = u end end
        if #cand == 0 then break end
        local x = ctx:pick(cand, { reason = "which craft or cargo the ALT loss takes (18.5f C)" })
        if ctx:query("naval_class", x) == "landing_craft" then
          ctx:emit("craft_loss", { unit = x, points = 1, reason = "ALT" })
        else
          ctx:emit("ground_step_loss", { unit = x, reason = "ALT" })
        end
      end
      if eff.dg then
        for _, u in ipairs(ev.units) do
          if g:get(u, "loc") ~= "dead" and g:get_marker(u, "DG") == 0 then g:add_marker(u, "DG", 1) end
        end
        ctx:say("the landed units are DG")
      end
      if eff.losses == 0 and not eff.dg then ctx:say("the landing goes in without loss") end
    end,
    -- 9.14's specialized combats: the default records them
    specialized_combat = { function(ctx, ev)
      if ev.handled then return end
      ev.handled = true
      local names = {}
      for i, u in ipairs(ev.enemies) do names[i] = ctx.game:get(u, "name") end
      ctx:emit("record", { kind = "specialized_combat", text = ("at %s after the ALT roll, against %s (9.14)")
        :format(ctx:label("hex", ev.hex), table.concat(names, ", ")) })
    end, priority = -100 },
  },
}

rule {
  id = "18.5g", title = "Ports",
  queries = {
    --- port_landing_refusal(craft, size, hex) -> nil, or why the cargo may
    --- not land through a port: a functional friendly port with the capacity left
    port_landing_refusal = function(ctx, craft, size, hex)
      local side = ctx.game:get(craft, "side")
      local left = ctx:query("port_capacity_left", hex, side)
      if not left then return ("18.5g: %s has no functional friendly port"):format(ctx:label("hex", hex)) end
      if size > left then
        return ("18.5g: the port at %s has %s capacity left this phase; the cargo needs %d (land the extra by ALT)")
          :format(ctx:label("hex", hex), tostring(left), size)
      end
      return nil
    end,
  },
}

rule {
  id = "18.5h", title = "After Landing",
  values = { fraction = 2 },
  on = {
    -- units landed by ALT are fueled before landing, free (12.5c C's single-unit method)
    units_land = function(ctx, ev)
      if ev.by ~= "alt" then return end
      local g = ctx.game
      local _, _, n = ctx:query("phase")
      for _, u in ipairs(ev.units) do
        if ctx:query("is_combat_unit", u) then g:set_value(u, "fueled_phase", n) end
      end
      ctx:say("fueled before landing, at no SP cost (12.5c C, single-unit method)")
    end,
  },
  actions = {
    -- after_landing_move {unit, path}: half the MA, in the same Movement
    -- Phase, once all the player's ALT rolls are made; none after a landing
    -- without ALT roll
    after_landing_move = {
      phases = { "movement_segment" },   -- 18.5h
      -- domains (keel.legal): the side's units landed by ALT roll in this
      -- phase; for each, the cheapest path by land to every hex its half MA
      -- left reaches
      params = {
        unit = { type = "unit", domain = function(ctx, _, side) return after_landing_domain(ctx, side) end },
        path = { type = "table", depends = { "unit" }, domain = function(ctx, p)
          local g, u = ctx.game, p.unit
          local left = (ctx:query("printed", u, "ma") or 0) / ctx.rule.values.fraction - (g:get_value(u, "after_mp") or 0)
          return ctx:query("paths_in_reach", u, left, "land"), ("18.5h: %s has %s MP of its half MA left: no hex in reach")
            :format(g:get(u, "name"), tostring(left))
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        local u = p.unit
        local name = g:get(u, "name")
        local phase, side, n = ctx:query("phase")
        if g:get_value(u, "landed_phase") ~= n then return ("18.5h: %s did not land in this phase"):format(name) end
        local by = g:get_value(u, "landed_by")
        if by == "port" then return ("18.5h: %s came ashore without an ALT roll: no after-landing movement"):format(name) end
        if by ~= "alt" or g:get_value(u, "no_after_landing") == n then
          return ("18.6: %s landed by a Beach Assault: no after-landing movement"):format(name)
        end
        if phase ~= "movement" or side ~= g:get(u, "side") then return "18.5h: after-landing moves are made in the same Movement Phase" end
        if g:get_global("alt_done_phase") ~= n then
          return "18.5f D: after-landing moves wait until all the player's ALT rolls are made"
        end
        local ma = ctx:query("printed", u, "ma")
        if not ma then return ("18.5h: %s has no MA printed (value ma)"):format(name) end
        local from, cost = ctx:query("unit_hex", u), 0
        for i, h in ipairs(p.path) do
          local hex = type(h) == "string" and g.board:hex(h) or h
          if math.type(hex) ~= "integer" then return ("after_landing_move: path[%d] is not a hex"):format(i) end
          if keel.hex.distance(from, hex) ~= 1 then
            return ("%s is not next to %s"):format(ctx:label("hex", hex), ctx:label("hex", from))
          end
          local why = ctx:query("land_entry_refusal", u, hex)
          if why then return why end
          cost = cost + ctx:query("land_move_cost", u, from, hex)
          from = hex
        end
        local spent = g:get_value(u, "after_mp") or 0
        local allowed = ma / ctx.rule.values.fraction
        if spent + cost > allowed then
          return ("18.5h: %s moves half its MA after landing (%s); spent %s, the path costs %s"):format(name,
            tostring(allowed), tostring(spent), tostring(cost))
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local u = p.unit
        local _, _, n = ctx:query("phase")
        local from, cost = ctx:query("unit_hex", u), 0
        for _, h in ipairs(p.path) do
          local hex = type(h) == "string" and g.board:hex(h) or h
          cost = cost + ctx:query("land_move_cost", u, from, hex)
          g:move(u, "hex", hex)
          ctx:emit("unit_enters_hex", { unit = u, hex = hex })
          from = hex
        end
        g:set_value(u, "after_mp", (g:get_value(u, "after_mp") or 0) + cost)
        g:set_value(u, "moved_phase", n)
        local half = ctx:query("printed", u, "ma") / ctx.rule.values.fraction
        ctx:say("%s moves after landing to %s (%s MP of %s)", g:get(u, "name"), ctx:label("hex", from),
          tostring(g:get_value(u, "after_mp")), tostring(math.tointeger(half) or half))
      end,
    },
  },
}


-- ---- helpers shared by the rules of this file ---------------------------------------

-- The ALT rolls of the phasing side's landings of this phase (18.5f), in
-- the player's groups (`given`: by hex, alt_arrangement's) or the fewest;
-- then 9.14's specialized combat, the LSTs' deployment: the hexes rolled.
function roll_alt(ctx, given)
  local g = ctx.game
  local _, side, n = ctx:query("phase")
  local hexes, by_hex = ctx:query("alt_pending", side)
  for _, hex in ipairs(hexes) do
    local e = by_hex[hex]
    local groups = given and given[hex] or alt_groups(ctx, e.units, ctx.rule.values.group_re)
    local with_lst = {}
    for gi, grp in ipairs(groups) do
      local craft, seen = {}, {}
      for _, u in ipairs(grp) do
        local c = g:get_value(u, "landed_craft")
        if c and not seen[c] then seen[c] = true; craft[#craft + 1] = c end
      end
      for _, c in ipairs(craft) do with_lst[c] = true end
      ctx:emit("alt_roll", { hex = hex, units = grp, craft = craft,
        reason = ("ALT at %s, group %d of %d"):format(ctx:label("hex", hex), gi, #groups) })
    end
    for _, lst in ipairs(e.lsts) do
      if not with_lst[lst] then
        ctx:emit("alt_roll", { hex = hex, units = {}, craft = { lst },
          reason = ("ALT at %s: %s deploys as a port (18.4f)"):format(ctx:label("hex", hex), g:get(lst, "name")) })
      end
    end
    local enemies = {}
    for _, u in ipairs(ctx:query("units_at", hex)) do
      if g:get(u, "side") ~= side and ctx:query("naval_class", u) == "ground" then enemies[#enemies + 1] = u end
    end
    if #enemies > 0 then ctx:emit("specialized_combat", { hex = hex, units = e.units, enemies = enemies }) end
    ctx:emit("alt_hex_done", { hex = hex })
  end
  g:set_global("alt_done_phase", n)
  return hexes
end

-- The checks of a landing: {units, by, size, hex} | nil, reason.
function land_plan(ctx, p)
  local g = ctx.game
  local craft = p.craft
  local cname = g:get(craft, "name")
  if ctx:query("naval_class", craft) ~= "landing_craft" then return nil, ("18.5: %s is not a landing craft"):format(cname) end
  local side = g:get(craft, "side")
  local hex, kind = ctx:query("unit_hex", craft)
  if kind ~= "hex" then return nil, ("18.5: %s is not at sea off a hex of the map"):format(cname) end
  local by = p.port and "port" or "alt"
  local why = ctx:query("landing_phase_refusal", side, by == "port")
  if why then return nil, why end
  local _, _, n = ctx:query("phase")
  if g:get_value(craft, "entered_phase") ~= n then
    return nil, ("18.5a: units are dropped off when the craft enters the coastal hex; %s has not entered %s in this phase")
      :format(cname, ctx:label("hex", hex))
  end
  why = ctx:query("landing_hex_refusal", hex, side, by == "port")   -- a port may stand in an estuary hex (18.4f)
  if why then return nil, why end
  local units = p.units or g:cargo(craft)
  if #units == 0 then return nil, ("18.5: %s carries nothing to land"):format(cname) end
  local size = 0
  for _, u in ipairs(units) do
    local k, w = g:get(u, "loc")
    if k ~= "unit" or w ~= craft then return nil, ("18.5: %s is not aboard %s"):format(g:get(u, "name"), cname) end
    why = ctx:query("landing_mode_refusal", u, p.mode)
    if not why and by == "alt" then why = ctx:query("alt_cargo_refusal", u) end
    if why then return nil, why end
    size = size + ctx:query("transport_size", u)
  end
  if by == "port" then
    why = ctx:query("port_landing_refusal", craft, size, hex)
    if why then return nil, why end
  end
  return { units = units, by = by, size = size, hex = hex }
end

-- The units of a side that landed by `by` in phase n, alive, in id order.
function landed_units(ctx, side, n, by)
  local g = ctx.game
  return g:units(function(gm, u)
    return gm:get_value(u, "landed_phase") == n and gm:get_value(u, "landed_by") == by and gm:get(u, "side") == side
      and gm:get(u, "loc") ~= "dead"
  end)
end

-- The fewest bins of capacity cap for items {id, size} (sizes > cap go alone).
function min_groups(items, cap)
  local order = {}
  for i, it in ipairs(items) do order[i] = it end
  table.sort(order, function(a, b)
    if a.size ~= b.size then return a.size > b.size end
    return a.id < b.id
  end)
  local best, best_bins = #order + 1, nil
  local bins, loads = {}, {}
  local function place(i)
    if #bins >= best then return end
    if i > #order then
      best = #bins
      best_bins = {}
      for b, list in ipairs(bins) do
        best_bins[b] = {}
        for k, v in ipairs(list) do best_bins[b][k] = v end
      end
      return
    end
    local it = order[i]
    local tried = {}
    for b = 1, #bins do
      if loads[b] + it.size <= cap and not tried[loads[b]] then
        tried[loads[b]] = true
        loads[b] = loads[b] + it.size
        bins[b][#bins[b] + 1] = it.id
        place(i + 1)
        bins[b][#bins[b]] = nil
        loads[b] = loads[b] - it.size
      end
    end
    if #bins + 1 < best then
      local b = #bins + 1
      bins[b], loads[b] = { it.id }, it.size
      place(i + 1)
      bins[b], loads[b] = nil, nil
    end
  end
  place(1)
  for _, list in ipairs(best_bins or {}) do table.sort(list) end
  table.sort(best_bins or {}, function(a, b) return a[1] < b[1] end)
  return best_bins or {}
end

-- the fewest groups of at most `cap` RE for units (18.5f B)
function alt_groups(ctx, units, cap)
  local items = {}
  for i, u in ipairs(units) do items[i] = { id = u, size = ctx:query("printed", u, "re") or 1 } end
  return min_groups(items, cap)
end

-- ---- parameter domains (keel.legal) ------------------------------------------------

-- through the port, where the craft's hex has a functional friendly one (left out: by ALT roll)
function port_domain(ctx, craft)
  local g = ctx.game
  local hex = ctx:query("unit_hex", craft)
  if hex and ctx:query("port_at", hex, g:get(craft, "side")) then
    return { { value = true, label = "through the port (18.5g)" } }
  end
  return nil, ("18.5g: no functional friendly port at %s"):format(hex and ctx:label("hex", hex) or "?")
end

-- side's units that landed by ALT roll in this phase (nil side: the phasing side's)
function after_landing_domain(ctx, side)
  local g = ctx.game
  local _, ps, n = ctx:query("phase")
  local out = {}
  for _, u in ipairs(landed_units(ctx, side or ps, n, "alt")) do
    if g:get_value(u, "no_after_landing") ~= n and ctx:query("is_combat_unit", u) then
      out[#out + 1] = { value = u, label = g:get(u, "name") }
    end
  end
  return out, "18.5h: no unit of the side landed by ALT roll in this phase"
end

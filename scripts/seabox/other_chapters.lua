-- scripts/seabox/other_chapters.lua — STAND-INS, not rule content.
--
-- Rule 27 (001_dc9ef6cc32bfaa07.txt) and the campaign's house rules cite
-- chapters the text does not contain: naval reinforcements (Rule 35, cited
-- by 27.C.1), reaction movement (Rule 28B, cited by 27.C.2), night (Rule
-- 34A2) and sea conditions (Rule 36C, both cited by 27.B.6), and the three
-- chapters the house rules change: the USA organisation problems, the
-- contingents rule, and the transfers to the East. Each rule below is the
-- smallest stand-in that gives the hook something to do in a scenario, says
-- so in its title, and makes no claim to be the real chapter: a scenario or
-- a later family replaces it (variant `replace`) when that chapter is
-- written. The ids are the cited rule numbers where the text gives one, and
-- a plain name where it gives none. The campaign's house rules switch three
-- of them off: variants/campaign_001.lua.

local group_named, ground_units, objective -- helpers, defined after the rules

rule {
  id = "35", title = "Naval reinforcements (stand-in for Rule 35)",
  standin = "Rule 35 (naval reinforcements)",
  notes = "Ships off the map with values arrive_turn (a turn) and arrive_at (a hex label or place) arrive in port "
    .. "there in their side's initial phase of that turn (at sea in the hex when the port is full), in the TF "
    .. "named by values arrive_tf (else one of their own).",
  on = {
    naval_reinforcements = function(ctx, ev)
      local g = ctx.game
      for _, u in ipairs(ev.side ~= nil and g:units { loc = "off", side = ev.side } or {}) do
        if g:get_value(u, "arrive_turn") == g:get_global("turn")
          and ctx:query("is_ship", u) then
          local at = g.board:hex(g:get_value(u, "arrive_at"))
          if not at then error(("Rule 35 (stand-in): %s arrives at '%s', which is not a hex of the map"):format(
            ctx:label("unit", u), tostring(g:get_value(u, "arrive_at"))), 0) end
          local room = g.board:get_port(at) and ctx:query("port_room", at)
          local in_port = g.board:get_port(at) ~= nil and (room == nil or room > 0)
          g:move(u, in_port and "port" or "hex", at)
          local tname = g:get_value(u, "arrive_tf") or ctx:label("unit", u)
          local tf = group_named(ctx, tname) or g:group_new { name = tname, kind = "tf" }
          g:group_add(tf, u)
          ctx:say("%s arrives %s %s (TF %s)", ctx:label("unit", u), in_port and "in port at" or "at sea in", ctx:label("hex", at), tname)
        end
      end
    end,
  },
}

rule {
  id = "28B", title = "Reaction movement (stand-in for Rule 28B)",
  standin = "Rule 28B (reaction movement)",
  notes = "A TF of the non-phasing player may move once in each movement or exploitation phase of the enemy, in "
    .. "one of its naval steps, as 27.C.2 moves ships: each time a phasing TF has sailed, the non-phasing player "
    .. "decides in a window of its own (sail, or end_phase to let it pass) while one of its TFs may still react. "
    .. "Rule 28B's triggers and limits are not in this text.",
  queries = {
    -- nil when the non-phasing TF may react now, else why not
    may_react = function(ctx, tf)
      local g = ctx.game
      if g:group_get_value(tf, "reacted_phase") == ctx:query("phase_key") then
        return ("%s has already reacted in this phase (stand-in: once a phase)"):format(g:group_get_name(tf))
      end
      return nil
    end,
  },
  on = {
    tf_moved = function(ctx, ev)
      local g = ctx.game
      local phasing = g:get_global("phasing")
      if ctx:query("tf_side", ev.tf) ~= phasing then
        g:group_set_value(ev.tf, "reacted_phase", ctx:query("phase_key"))
        ctx:say("%s moved in reaction", g:group_get_name(ev.tf))
        return
      end
      -- the phasing player's TF has moved: the other player may react
      local other = ctx:query("other_side")
      if not other or not ctx:status().started then return end
      for _, c in ipairs(ctx:query("side_tfs", other)) do
        if not ctx:query("may_react", c.value) then
          ctx:open_window { side = other, title = "reaction movement", actions = { "sail" } }
          return
        end
      end
    end,
  },
}

rule {
  id = "34A2", title = "Night (stand-in for Rule 34A2)",
  standin = "Rule 34A2 (night)",
  notes = "Sets the global `night` that 27.B.6 reads; when night falls is Rule 34A2's (a scenario's order).",
  actions = {
    set_night = {
      side = "scenario",
      params = { night = { type = "boolean", domain = function() return { false, true } end } },
      effect = function(ctx, p)
        ctx.game:set_global("night", p.night)
        ctx:say(p.night and "night falls" or "day breaks")
      end,
    },
  },
}

rule {
  id = "36C", title = "Sea conditions (stand-in for Rule 36C)",
  standin = "Rule 36C (sea conditions)",
  values = { states = { calm = true, rough = true, stormy = true } },
  notes = "Sets the global `sea` (calm, rough, stormy) that 27.B.6 reads; how the sea changes is Rule 36C's "
    .. "(a scenario's order).",
  actions = {
    set_sea = {
      side = "scenario",
      params = { sea = { type = "string", domain = function(ctx)
        local out = {}
        for k in pairs(ctx.rule.values.states) do out[#out + 1] = k end
        table.sort(out)
        return out
      end } },
      legal = function(ctx, p)
        if not ctx.rule.values.states[p.sea] then
          return ("Rule 36C (stand-in): sea conditions are calm, rough or stormy, not '%s'"):format(p.sea)
        end
      end,
      effect = function(ctx, p)
        ctx.game:set_global("sea", p.sea)
        ctx:say("the sea is %s", p.sea)
      end,
    },
  },
}

rule {
  id = "divisions", title = "Assembling divisions (stand-in for the organisation chapter)",
  standin = "the organisation chapter (assembling divisions)",
  notes = "Regiments and brigades in one hex assemble into a division counter waiting off the map, in the "
    .. "phasing player's movement phase.",
  actions = {
    assemble_division = {
      phases = { "movement" },
      -- domains (keel.legal): the side's ground units off the map; the
      -- side's ground units on the map
      params = {
        division = { type = "unit", domain = function(ctx, _, side)
          return ground_units(ctx, side, function(kind) return kind == "off" end),
            "divisions (stand-in): no division of the side waits off the map"
        end },
        units = { type = "units", depends = { "division" }, domain = function(ctx, p)
          return ground_units(ctx, ctx.game:get(p.division, "side"), function(kind) return kind == "hex" end)
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        if #p.units < 2 then return "divisions (stand-in): a division assembles from two or more units" end
        local acting = ctx:query("acting_side")
        if acting and g:get(p.division, "side") ~= acting then
          return ("divisions (stand-in): %s is not a unit of %s"):format(ctx:label("unit", p.division), acting)
        end
        if g:get(p.division, "loc") ~= "off" then
          return ("divisions (stand-in): %s is not waiting off the map"):format(ctx:label("unit", p.division))
        end
        local _, hex = g:get(p.units[1], "loc")
        for _, u in ipairs(p.units) do
          local kind, where = g:get(u, "loc")
          if kind ~= "hex" or where ~= hex then return "divisions (stand-in): the units are not together in one hex" end
          if g:get(u, "side") ~= g:get(p.division, "side") then return "divisions (stand-in): one side only" end
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local _, hex = g:get(p.units[1], "loc")
        for _, u in ipairs(p.units) do g:move(u, "off") end
        g:move(p.division, "hex", hex)
        ctx:say("%s assembles at %s", ctx:label("unit", p.division), ctx:label("hex", hex))
      end,
    },
  },
}

rule {
  id = "usa_organisation", title = "USA organisation problems (stand-in)",
  standin = "the organisation chapter (USA organisation problems)",
  values = {
    contingent = "US",        -- units with values.contingent = this are the USA's
    drm = -1,                 -- the one-time DRM (applied by the combat chapter, not here)
    assemble_from_turn = 3,   -- before this turn US divisions cannot assemble
  },
  notes = "At the start of the game the one-time DRM is set as the global usa_drm for the combat rules; "
    .. "US divisions cannot assemble before turn assemble_from_turn.",
  on = {
    game_start = function(ctx)
      ctx.game:set_global("usa_drm", ctx.rule.values.drm)
      ctx:say("USA organisation problems: a one-time DRM of %d is pending", ctx.rule.values.drm)
    end,
  },
  vetoes = {
    assemble_division = function(ctx, p)
      local v = ctx.rule.values
      if ctx.game:get_value(p.division, "contingent") == v.contingent and (ctx.game:get_global("turn") or 0) < v.assemble_from_turn then
        return ("USA organisation problems (stand-in): US divisions cannot assemble before turn %d"):format(v.assemble_from_turn)
      end
    end,
  },
}

rule {
  id = "ground_combat", title = "Combination stacks and air support (stand-in for the combat chapter)",
  standin = "the combat chapter (combination stacks and air support)",
  notes = "Ground units in one hex form a combination stack (a group of kind 'stack'); an air unit supports it; "
    .. "both in the phasing player's combat phase.",
  actions = {
    form_stack = {
      phases = { "combat" },
      -- domains (keel.legal): the side's ground units on the map; a name no
      -- group has yet (any name will do)
      params = {
        units = { type = "units", domain = function(ctx, _, side)
          return ground_units(ctx, side, function(kind) return kind == "hex" end),
            "ground combat (stand-in): the side has no ground unit on the map"
        end },
        name = { type = "string", domain = function(ctx) return { ctx:query("unused_group_name", "Stack") } end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        if #p.units < 2 then return "ground combat (stand-in): a combination stack is two or more units" end
        local acting = ctx:query("acting_side")
        if acting and g:get(p.units[1], "side") ~= acting then
          return ("ground combat (stand-in): %s is not a unit of %s"):format(ctx:label("unit", p.units[1]), acting)
        end
        local _, hex = g:get(p.units[1], "loc")
        for _, u in ipairs(p.units) do
          local kind, where = g:get(u, "loc")
          if kind ~= "hex" or where ~= hex then return "ground combat (stand-in): the units are not together in one hex" end
        end
      end,
      effect = function(ctx, p)
        ctx.game:group_new { name = p.name, kind = "stack", units = p.units }
        ctx:say("combination stack %s of %d units", p.name, #p.units)
      end,
    },
    air_support = {
      phases = { "combat" },
      -- domains (keel.legal): the side's air units on the map or based on a
      -- ship; the side's combination stacks
      params = {
        air = { type = "unit", domain = function(ctx, _, side)
          local g, out = ctx.game, {}
          for _, u in ipairs(g:units { side = side }) do
            local kind = g:get(u, "loc")
            if ctx:query("is_air_group", u) and (kind == "hex" or kind == "port" or kind == "unit") then
              out[#out + 1] = { value = u, label = ctx:label("unit", u) }
            end
          end
          return out, "ground combat (stand-in): the side has no air unit in play"
        end },
        stack = { type = "group", depends = { "air" }, domain = function(ctx, p)
          local g, out = ctx.game, {}
          for _, grp in ipairs(g:groups()) do
            local first = g:group_units(grp)[1]
            if g:group_get_value(grp, "kind") == "stack" and first and g:get(first, "side") == g:get(p.air, "side") then
              out[#out + 1] = { value = grp, label = g:group_get_name(grp) }
            end
          end
          return out, "ground combat (stand-in): the side has no combination stack"
        end },
      },
      legal = function(ctx, p)
        if ctx.game:group_get_value(p.stack, "kind") ~= "stack" then
          return "ground combat (stand-in): air support goes to a combination stack"
        end
        local acting = ctx:query("acting_side")
        if acting and ctx.game:get(p.air, "side") ~= acting then
          return ("ground combat (stand-in): %s is not an air unit of %s"):format(ctx:label("unit", p.air), acting)
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        g:group_set_value(p.stack, "air_support", (g:group_get_value(p.stack, "air_support") or 0) + 1)
        g:set_value(p.air, "supports", p.stack)
        ctx:say("%s supports %s", ctx:label("unit", p.air), g:group_get_name(p.stack))
      end,
    },
  },
}

rule {
  id = "contingents", title = "Contingents (stand-in)",
  standin = "the campaign's contingent rules",
  notes = "Combination stacks and air support are limited to one contingent (values.contingent of each unit).",
  vetoes = {
    form_stack = function(ctx, p)
      local g = ctx.game
      local c = g:get_value(p.units[1], "contingent")
      for _, u in ipairs(p.units) do
        if g:get_value(u, "contingent") ~= c then
          return ("contingents (stand-in): a combination stack is of one contingent; %s is %s, %s is %s"):format(
            ctx:label("unit", p.units[1]), tostring(c), ctx:label("unit", u), tostring(g:get_value(u, "contingent")))
        end
      end
    end,
    air_support = function(ctx, p)
      local g = ctx.game
      local units = g:group_units(p.stack)
      local c = units[1] and g:get_value(units[1], "contingent")
      if g:get_value(p.air, "contingent") ~= c then
        return ("contingents (stand-in): %s (%s) may support only its own contingent, not %s"):format(
          ctx:label("unit", p.air), tostring(g:get_value(p.air, "contingent")), tostring(c))
      end
    end,
  },
}

rule {
  id = "east_transfers", title = "Transfers to the East (stand-in)",
  standin = "the campaign's transfers to the Eastern front",
  notes = "In the initial phase of their side's player turn, units with values.east_turn equal to the turn leave "
    .. "for the Eastern front (off map).",
  on = {
    initial_phase = function(ctx)
      local g = ctx.game
      local phasing = g:get_global("phasing")
      for _, u in ipairs(phasing ~= nil and g:units { side = phasing } or {}) do
        if g:get_value(u, "east_turn") == g:get_global("turn")
          and g:get(u, "loc") ~= "off" and g:get(u, "loc") ~= "dead" then
          g:move(u, "off")
          ctx:say("%s transfers to the East", ctx:label("unit", u))
        end
      end
    end,
  },
}

rule {
  id = "victory", title = "Victory points (stand-in for the campaign's victory conditions)",
  standin = "the campaign's victory conditions",
  notes = "What the showcases score (their `scores`, keel.sequence): RE ashore at the objective (the global "
    .. "`objective`, a hex label a scenario's flags give), transports afloat there, RE in the West, RE ready "
    .. "for combat. The campaign's own victory conditions are not in this text.",
  queries = {
    -- RE (values["size.RE"], not doubled) of the side's ground units ashore at the objective hex
    re_at_objective = function(ctx, side)
      local at = objective(ctx)
      local n = 0
      for _, c in ipairs(ground_units(ctx, side, function(kind) return kind == "hex" end)) do
        if select(2, ctx.game:get(c.value, "loc")) == at then n = n + (ctx.game:get_value(c.value, "size.RE") or 0) end
      end
      return n
    end,
    -- the side's NTs and AFs afloat at the objective hex (at sea or in port)
    transports_at_objective = function(ctx, side)
      local g, at, n = ctx.game, objective(ctx), 0
      for _, u in ipairs((at ~= nil and side ~= nil) and g:units { at = at, side = side } or {}) do
        local cat = ctx:query("category", u)
        if (cat == "NT" or cat == "AF") and ctx:query("afloat", u) then
          n = n + 1
        end
      end
      return n
    end,
    -- RE of the side's ground units on the map
    re_on_map = function(ctx, side)
      local n = 0
      for _, c in ipairs(ground_units(ctx, side, function(kind) return kind == "hex" end)) do
        n = n + (ctx.game:get_value(c.value, "size.RE") or 0)
      end
      return n
    end,
    -- RE of the side's ground units in combination stacks (each unit once),
    -- and 1 more for each air unit supporting one
    combat_ready = function(ctx, side)
      local g, seen, n = ctx.game, {}, 0
      for _, grp in ipairs(g:groups()) do
        if g:group_get_value(grp, "kind") == "stack" then
          for _, u in ipairs(g:group_units(grp)) do
            if not seen[u] and g:get(u, "side") == side and g:get(u, "loc") == "hex" then
              seen[u] = true
              n = n + (g:get_value(u, "size.RE") or 0)
            end
          end
        end
      end
      for _, u in ipairs(side ~= nil and g:units { side = side } or {}) do
        if g:get_value(u, "supports") ~= nil then n = n + 1 end
      end
      return n
    end,
  },
}

-- ---- helpers ------------------------------------------------------------------------

function group_named(ctx, name)
  for _, grp in ipairs(ctx.game:groups()) do
    if ctx.game:group_get_name(grp) == name then return grp end
  end
  return nil
end

-- the side's ground units (no ship, no air group) whose location kind
-- `where(kind)` accepts, in id order, as candidates (keel.legal)
function ground_units(ctx, side, where)
  local g, out = ctx.game, {}
  for _, u in ipairs(g:units { side = side }) do
    if where((g:get(u, "loc"))) and not ctx:query("is_ship", u)
      and not ctx:query("is_air_group", u) then
      out[#out + 1] = { value = u, label = ctx:label("unit", u) }
    end
  end
  return out
end

-- the objective hex of the game (global `objective`, a label), or an error naming it
function objective(ctx)
  local label = ctx.game:get_global("objective")
  local at = label ~= nil and ctx.game.board and ctx.game.board:hex(label)
  if not at then
    error(("victory (stand-in): the objective '%s' is not a hex of the map (flags.objective)"):format(tostring(label)), 0)
  end
  return at
end

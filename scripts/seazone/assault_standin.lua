-- STAND-IN: the Amphibious Assaults steps. 002_37d6fae90ae806a5.txt cites
-- "Amphibious Assaults— Step 2. Cruiser & Destroyer Bombardment" and the
-- land combat that follows, without giving that chapter. This stand-in
-- supplies the two steps the sea units take part in; a scenario with the
-- real chapter replaces them by id:
--
-- * amphibious-assaults.step-2: after the assault ships have offloaded
--   (offload, in Conduct Combat, into a hostile territory), the `bombard`
--   order: each cruiser or destroyer the unit rules allow (may_bombard:
--   units.cruisers.offshore-bombardment, units.destroyers.offshore-bombardment)
--   rolls one die against the enemy units in the territory; the defender
--   chooses the casualties (a declared policy or a casualties order) and they
--   go behind the casualty strip;
-- * amphibious-assaults.land-combat: the land combat is another chapter:
--   `land_combat` emits the event of that name for the rules that resolve
--   it, then removes the casualties behind the casualty strip.

local assaulted, offloaded_count, bombarded_count, assaulted_domain

rule {
  id = "amphibious-assaults.step-2", title = "Cruiser & Destroyer Bombardment (stand-in)",
  standin = "Amphibious Assaults, Step 2 (Cruiser & Destroyer Bombardment)",
  actions = {
    bombard = {
      phases = { "conduct_combat" },
      -- domains (keel.legal): the territories being assaulted; the sea units
      -- of the power whose turn it is in the sea zones next to it (may_bombard
      -- says which bombard); a named casualty policy for the defender, or none
      params = {
        territory = { type = "string", domain = function(ctx) return assaulted_domain(ctx) end },
        ships = { type = "units", depends = { "territory" }, domain = function(ctx, p, side)
          local t = ctx:query("area_index", p.territory)
          local out = {}
          for _, c in ipairs(ctx:query("turn_units", side, "sea", "zone")) do
            if ctx:query("adjacent", ctx:query("area_of", c.value), t) then out[#out + 1] = c end
          end
          return out, "no sea unit of the power whose turn it is next to the territory"
        end },
        -- (the defender's own decision: not offered in a game the sequence of play runs,
        -- where it names its casualties in its window; see general-combat's battle)
        defender = { type = "any", optional = true, domain = function(ctx)
          if ctx:status().started then return nil, "the defender chooses its own casualties (its window)" end
          return ctx:query("named_policies")
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        if g:get_phase() ~= "conduct_combat" then return "bombardment is a step of an amphibious assault (Conduct Combat)" end
        if g:get_global("choice_side") then return "casualties are being chosen" end
        local t = ctx:query("area_index", p.territory)
        if not t or not assaulted(ctx, t) then return ("no amphibious assault is being made into %s"):format(p.territory) end
        if #p.ships == 0 then return "no ships named" end
        -- the limit of one ship per land unit offloaded is the assault's total: the ships
        -- of earlier orders count with this order's
        local n, before = offloaded_count(ctx, t), bombarded_count(ctx, t)
        for _, s in ipairs(p.ships) do
          if ctx:query("power_of", s) ~= g:get_global("power") then return ("%s is not yours"):format(ctx:query("unit_label", s)) end
          local ev = { unit = s, territory = t, count = before + #p.ships, bombarded = before, land_units = n, allowed = false,
                       reason = "only cruisers and destroyers conduct offshore bombardment" }
          ctx:emit("may_bombard", ev)
          if not ev.allowed then return ("%s: %s"):format(ctx:query("unit_label", s), ev.reason) end
        end
        local targets = {}
        for _, u in ipairs(ctx:query("units_in", t)) do
          if g:get(u, "side") ~= g:get_global("phasing") then targets[#targets + 1] = u end
        end
        return ctx:query("policy_problem", targets, p.defender)
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local t = ctx:query("area_index", p.territory)
        local hits = 0
        local n, before = offloaded_count(ctx, t), bombarded_count(ctx, t)
        for _, s in ipairs(p.ships) do
          local ev = { unit = s, territory = t, count = before + #p.ships, bombarded = before, land_units = n, allowed = false }
          ctx:emit("may_bombard", ev)
          local roll = ctx:roll("1d6", { reason = ("%s bombards %s (hits on %d or less)"):format(ctx:query("unit_label", s),
            p.territory, ev.value) })
          g:set_value(s, "bombarded_turn", ctx:query("this_turn"))
          g:set_value(s, "bombarded_to", t)
          if roll <= ev.value then
            g:set_value(s, "scored", (g:get_value(s, "scored") or 0) + 1)
            hits = hits + 1
          end
        end
        local targets = {}
        local side
        for _, u in ipairs(ctx:query("units_in", t)) do
          if g:get(u, "side") ~= g:get_global("phasing") and not g:get_value(u, "casualty") then
            targets[#targets + 1] = u
            side = g:get(u, "side")
          end
        end
        ctx:emit("bombardment", { territory = t, ships = p.ships, hits = hits })
        if not side then
          for _, s in ipairs(p.ships) do g:set_value(s, "scored", nil) end
          ctx:say("%d hit(s), but no enemy unit is in %s", hits, p.territory)
          return
        end
        if p.defender ~= nil then ctx:query("declare_policy", targets, p.defender) end
        ctx:query("resolve_hits", side, targets, "strip", "bombardment", t)
        for _, u in ipairs(targets) do
          for _, k in ipairs { "loss_rank", "soak_rank" } do
            if g:get_value(u, k) ~= nil then g:set_value(u, k, nil) end
          end
        end
      end,
    },
  },
}

rule {
  id = "amphibious-assaults.land-combat", title = "Land combat of an amphibious assault (stand-in)",
  standin = "Amphibious Assaults (the land combat)",
  actions = {
    land_combat = {
      phases = { "conduct_combat" },
      -- domain (keel.legal): the territories being assaulted
      params = { territory = { type = "string", domain = function(ctx) return assaulted_domain(ctx) end } },
      legal = function(ctx, p)
        local g = ctx.game
        if g:get_phase() ~= "conduct_combat" then return "land combat is fought in Conduct Combat" end
        if g:get_global("choice_side") then return "casualties are being chosen" end
        local t = ctx:query("area_index", p.territory)
        if not t or not assaulted(ctx, t) then return ("no amphibious assault is being made into %s"):format(p.territory) end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local t = ctx:query("area_index", p.territory)
        ctx:emit("land_combat", { territory = t, power = g:get_global("power") })
        for _, u in ipairs(ctx:query("units_in", t)) do
          if g:get_value(u, "casualty") then
            ctx:say("%s removed (behind the casualty strip)", ctx:query("unit_label", u))
            g:eliminate(u)
          elseif g:get_value(u, "offloaded_to") == t and g:get_value(u, "assault_turn") == ctx:query("this_turn") then
            g:set_value(u, "land_combat_turn", ctx:query("this_turn"))
          end
        end
      end,
    },
  },
}

-- is an amphibious assault being made into territory t this turn (offloaded, land combat not fought)?
function assaulted(ctx, t)
  local g = ctx.game
  local any = false
  for _, u in ipairs(ctx:query("units_in", t)) do
    if g:get_value(u, "assault_turn") == ctx:query("this_turn") and g:get_value(u, "offloaded_to") == t then
      if g:get_value(u, "land_combat_turn") == ctx:query("this_turn") then return false end
      any = true
    end
  end
  return any
end

-- land units offloaded into t this turn from amphibious assault ships
function offloaded_count(ctx, t)
  local g = ctx.game
  local n = 0
  for _, u in ipairs(ctx:query("units_in", t)) do
    if g:get_value(u, "offloaded_turn") == ctx:query("this_turn") and g:get_value(u, "offloaded_to") == t then n = n + 1 end
  end
  return n
end

-- ships that bombarded territory t this turn (orders before this one)
function bombarded_count(ctx, t)
  local g = ctx.game
  local n, turn = 0, ctx:query("this_turn")
  for _, u in ipairs(g:units()) do
    if g:get_value(u, "bombarded_turn") == turn and g:get_value(u, "bombarded_to") == t then n = n + 1 end
  end
  return n
end

-- the territories into which an amphibious assault is being made this turn (keel.legal)
function assaulted_domain(ctx)
  local out = {}
  for i, name in ipairs(ctx.game.board:zones()) do
    if ctx:query("is_territory", i) and assaulted(ctx, i) then out[#out + 1] = name end
  end
  return out, "no amphibious assault is being made"
end

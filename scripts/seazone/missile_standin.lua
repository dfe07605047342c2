-- STAND-IN: Missile. The sitrep paragraphs of 002_37d6fae90ae806a5.txt say
-- that a cruiser, a destroyer or a submarine "is capable of transporting and
-- launching one (1) cruise missile (See Missile)"; the Missile chapter is
-- not in the text. How many a unit carries is the unit rules' (the event
-- missile_capacity: units.cruisers.missiles, units.destroyers.missiles,
-- units.submarines.missiles, in play when the global sitrep_missiles is
-- true); this stand-in gives the two orders that use it:
--
-- * embark_missile: a missile unit of the power whose turn it is, in a
--   territory next to the ship's sea zone, goes aboard (Combat or Noncombat Move);
-- * launch_missile: the ship launches it at a target area; what it does there
--   is the Missile chapter's (the event launch_missile); the missile is spent.

local missile_aboard, area_names

rule {
  id = "missile", title = "Cruise missiles (stand-in for the chapter the text cites)",
  standin = "Missile (\"See Missile\")",
  actions = {
    embark_missile = {
      phases = { "combat_move", "noncombat_move" },
      -- domains (keel.legal): the missiles of the power whose turn it is in a
      -- territory; the friendly sea units next to it (missile_capacity says which carry one)
      params = {
        missile = { type = "unit", domain = function(ctx, _, side)
          local out = {}
          for _, c in ipairs(ctx:query("turn_units", side, nil, "zone")) do
            if ctx.game:get(c.value, "type") == "missile" and ctx:query("is_territory", ctx:query("area_of", c.value)) then
              out[#out + 1] = c
            end
          end
          return out, "no missile of the power whose turn it is in a territory"
        end },
        ship = { type = "unit", depends = { "missile" }, domain = function(ctx, p)
          local g, out = ctx.game, {}
          local at = ctx:query("area_of", p.missile)
          local side = g:get(p.missile, "side")
          for _, u in ipairs(side ~= nil and g:units { loc = "zone", side = side } or {}) do
            if ctx:query("class_of", u) == "sea"
                and ctx:query("adjacent", at, ctx:query("area_of", u)) then
              out[#out + 1] = { value = u, label = g:get(u, "name") }
            end
          end
          return out, "no friendly sea unit next to the missile's territory"
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        if g:get(p.missile, "type") ~= "missile" then return ("%s is not a missile"):format(ctx:query("unit_label", p.missile)) end
        local ev = { unit = p.ship, capacity = 0 }
        ctx:emit("missile_capacity", ev)
        if ev.capacity <= 0 then
          return ("%s carries no cruise missile (the missiles sitrep is %s)"):format(ctx:query("unit_label", p.ship),
            g:get_global("sitrep_missiles") and "in play, but not for this unit" or "not in play")
        end
        if missile_aboard(ctx, p.ship) then return ("%s already carries its missile"):format(ctx:query("unit_label", p.ship)) end
        local ph = g:get_phase()
        if ph ~= "combat_move" and ph ~= "noncombat_move" then return "missiles go aboard in Combat Move or Noncombat Move" end
        if ctx:query("power_of", p.missile) ~= g:get_global("power") or g:get(p.ship, "side") ~= g:get(p.missile, "side") then
          return "a missile of the power whose turn it is goes aboard a friendly ship"
        end
        local kind, at = g:get(p.missile, "loc")
        if kind ~= "zone" or not ctx:query("is_territory", at) or not ctx:query("adjacent", at, ctx:query("area_of", p.ship)) then
          return ("%s is not in a territory next to the ship"):format(ctx:query("unit_label", p.missile))
        end
      end,
      effect = function(ctx, p)
        ctx.game:move(p.missile, "unit", p.ship)
        ctx:say("%s goes aboard %s", ctx:query("unit_label", p.missile), ctx:query("unit_label", p.ship))
      end,
    },
    launch_missile = {
      -- domains (keel.legal): the ships of the power whose turn it is with a
      -- missile aboard; every area of the map (its range is the Missile chapter's)
      params = {
        ship = { type = "unit", domain = function(ctx, _, side)
          local out = {}
          for _, c in ipairs(ctx:query("turn_units", side, "sea", "zone")) do
            if missile_aboard(ctx, c.value) then out[#out + 1] = c end
          end
          return out, "no ship of the power whose turn it is carries a missile"
        end },
        target = { type = "string", domain = function(ctx) return area_names(ctx) end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        if not missile_aboard(ctx, p.ship) then return ("%s carries no missile"):format(ctx:query("unit_label", p.ship)) end
        if ctx:query("power_of", p.ship) ~= g:get_global("power") then return "a ship launches on its power's turn" end
        if not ctx:query("area_index", p.target) then return ("'%s' is not an area of the map"):format(p.target) end
      end,
      effect = function(ctx, p)
        local m = missile_aboard(ctx, p.ship)
        ctx:say("%s launches %s at %s", ctx:query("unit_label", p.ship), ctx:query("unit_label", m), p.target)
        ctx:emit("launch_missile", { unit = p.ship, missile = m, target = ctx:query("area_index", p.target) })
        ctx.game:eliminate(m)
      end,
    },
  },
}

function missile_aboard(ctx, ship)
  for _, c in ipairs(ctx.game:cargo(ship)) do
    if ctx.game:get(c, "type") == "missile" then return c end
  end
  return nil
end

function area_names(ctx)
  local out = {}
  for i, name in ipairs(ctx.game.board:zones()) do out[i] = name end
  return out
end

-- Submarines (002_37d6fae90ae806a5.txt, "Submarines"): the seven unit
-- characteristics, in the text's order. The printed values (cost 18+/9+,
-- attack 2, defense 2, move 2) are the `submarine` row of sea_units.tbl
-- (units.submarines). Most characteristics are cancelled or stopped by an
-- enemy frigate: frigates.lua says how, on the same hooks (lower priority,
-- so it runs after the rules below).

local is_sub, is_air

rule {
  id = "units.submarines.surprise-strike", title = "Surprise Strike",
  priority = 10,
  notes = "Step 2 of the General Combat sequence (combat_standin.lua) asks each submarine through "
    .. "`may_surprise_strike`; with no eligible submarine on either side there is no step 2.",
  on = {
    may_surprise_strike = function(ctx, ev)
      if is_sub(ctx, ev.unit) then ev.eligible = true; ev.reason = nil end
    end,
  },
}

rule {
  id = "units.submarines.submersible", title = "Submersible",
  priority = 10,
  notes = "Instead of rolling, a submarine may submerge: it leaves the battle strip for the map and "
    .. "neither fires nor takes hits in that combat (the submerge order, or a declared policy).",
  on = {
    may_submerge = function(ctx, ev)
      if is_sub(ctx, ev.unit) then ev.allowed = true; ev.reason = nil end
    end,
  },
}

rule {
  id = "units.submarines.treat-hostile-sea-zones-as-friendly", title = "Treat Hostile Sea Zones as Friendly",
  queries = {
    -- may this unit move through (and end a noncombat move in) a hostile sea zone?
    -- (an enemy frigate still stops it: units.frigates.anti-sub-vessel)
    passes_hostile_zone = function(ctx, u) return is_sub(ctx, u) end,
  },
}

rule {
  id = "units.submarines.does-not-block-enemy-movement", title = "Does Not Block Enemy Movement",
  queries = {
    -- does this unit make its sea zone hostile to enemy sea units? Submarines do not.
    blocks_movement = function(ctx, u)
      local class = ctx:query("class_of", u)
      return not is_sub(ctx, u) and (class == "sea" or class == "air" or class == "land")
    end,
  },
  vetoes = {
    -- ending a combat move where only enemy submarines are: the player says whether to attack
    move = function(ctx, p)
      local g = ctx.game
      if g:get_phase() ~= "combat_move" or p.attack ~= nil or #p.path == 0 then return nil end
      local z = ctx:query("area_index", p.path[#p.path])
      if not z then return nil end
      local side = g:get(p.units[1], "side")
      if ctx:query("is_hostile", z, side) then return nil end
      for _, u in ipairs(ctx:query("units_in", z)) do
        if g:get(u, "side") ~= side and is_sub(ctx, u) then
          return ("%s holds only enemy submarines (%s): say attack = true or attack = false"):format(
            ctx:query("area_name", z), ctx:query("unit_label", u))
        end
      end
    end,
  },
}

rule {
  id = "units.submarines.cannot-hit-air-units", title = "Cannot Hit Air Units",
  priority = 10,
  on = {
    may_hit = function(ctx, ev)
      if is_sub(ctx, ev.firer) and is_air(ctx, ev.target) then
        ev.allowed, ev.by = false, ctx.rule.id
        ev.reason = "submarines cannot hit air units"
      end
    end,
  },
}

rule {
  id = "units.submarines.cannot-be-hit-by-air-units", title = "Cannot Be Hit by Air Units",
  priority = 10,
  on = {
    may_hit = function(ctx, ev)
      if is_air(ctx, ev.firer) and is_sub(ctx, ev.target) then
        ev.allowed, ev.by = false, ctx.rule.id
        ev.reason = "hits scored by air units cannot go to submarines (no frigate friendly to the air units is in the battle)"
      end
    end,
  },
}

rule {
  id = "units.submarines.missiles", title = "Missiles (sitrep)",
  values = { capacity = 1 },
  notes = "An optional (sitrep) rule: in play when the global sitrep_missiles is true.",
  on = {
    missile_capacity = function(ctx, ev)
      if ctx.game:get_global("sitrep_missiles") == true and is_sub(ctx, ev.unit) then
        ev.capacity = ctx.rule.values.capacity
      end
    end,
  },
}

function is_sub(ctx, u) return ctx.game:get(u, "type") == "submarine" end
function is_air(ctx, u) return ctx:query("class_of", u) == "air" end

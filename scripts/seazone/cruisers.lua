-- Cruisers (002_37d6fae90ae806a5.txt, "Cruisers"): the three unit
-- characteristics, in the text's order. The printed values (cost 14+/8+,
-- attack 4, defense 4, move 2) are the `cruiser` row of sea_units.tbl
-- (units.cruisers), whose `hits` column (2) says it is a capital ship.

local bombard_problem

rule {
  id = "units.cruisers.capital-ship", title = "Capital Ship",
  priority = 10,
  on = {
    -- the first hit (even a submarine's Surprise Strike) turns an undamaged cruiser on its
    -- side; a defending cruiser stays on the strip until its second hit
    unit_hit = function(ctx, ev)
      local g = ctx.game
      if g:get(ev.unit, "type") ~= "cruiser" or g:get(ev.unit, "face") == "damaged" then return end
      g:flip(ev.unit, "damaged")
      ev.damaged = true
      ctx:say("%s is damaged (turned on its side)", ctx:query("unit_label", ev.unit))
    end,
    -- a cruiser that survived with one hit is repaired by visiting an operative friendly naval base
    repair_visit = function(ctx, ev)
      local g = ctx.game
      if g:get(ev.unit, "type") ~= "cruiser" or g:get(ev.unit, "face") ~= "damaged" then return end
      g:flip(ev.unit, "full")
      ctx:say("%s repaired at %s", ctx:query("unit_label", ev.unit), ctx:query("unit_label", ev.base))
    end,
  },
}

rule {
  id = "units.cruisers.offshore-bombardment", title = "Offshore Bombardment",
  values = { hit_on = 4 },
  notes = "The bombard order is amphibious-assaults.step-2 (assault_standin.lua); this rule says which "
    .. "cruisers may bombard and what they hit on.",
  queries = {
    -- why this ship may not bombard (ev: {unit, territory, count, bombarded, land_units}), or nil: the
    -- conditions the cruisers' and the destroyers' sections both give
    bombard_problem = function(ctx, ev) return bombard_problem(ctx, ev) end,
  },
  on = {
    may_bombard = function(ctx, ev)
      if ctx.game:get(ev.unit, "type") ~= "cruiser" then return end
      ev.value = ctx.rule.values.hit_on
      ev.reason = bombard_problem(ctx, ev)
      ev.allowed = ev.reason == nil
    end,
  },
}

rule {
  id = "units.cruisers.missiles", title = "Missiles (sitrep)",
  values = { capacity = 1 },
  notes = "An optional (sitrep) rule: in play when the global sitrep_missiles is true.",
  on = {
    missile_capacity = function(ctx, ev)
      if ctx.game:get_global("sitrep_missiles") == true and ctx.game:get(ev.unit, "type") == "cruiser" then
        ev.capacity = ctx.rule.values.capacity
      end
    end,
  },
}

-- in the same sea zone as an assault ship that offloaded into the territory this turn, not
-- in a sea combat this turn, not bombarded this turn, and no more ships than land units offloaded
function bombard_problem(ctx, ev)
  local g = ctx.game
  local u, turn = ev.unit, ctx:query("this_turn")
  local z = ctx:query("area_of", u)
  local with_ships = false
  for _, s in ipairs(ctx:query("units_in", z)) do
    if g:get(s, "type") == "assault_ship" and g:get_value(s, "offloaded_turn") == turn
        and g:get_value(s, "offloaded_to") == ev.territory then
      with_ships = true
    end
  end
  if not with_ships then
    return "it is not in the sea zone of the assault ships that offloaded into that territory"
  end
  if g:get_value(u, "sea_combat_turn") == turn then return "it was in a sea combat before the amphibious assault" end
  if g:get_value(u, "bombarded_turn") == turn then return "it has already bombarded this turn" end
  -- ev.count: every ship bombarding in this assault, those of earlier orders (ev.bombarded) too
  if ev.count > ev.land_units then
    local before = ev.bombarded or 0
    return ("%d ships may bombard: one per land unit offloaded there (%d)%s"):format(ev.land_units, ev.land_units,
      before > 0 and ("; %d have bombarded there this turn"):format(before) or "")
  end
  return nil
end

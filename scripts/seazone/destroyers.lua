-- Destroyers (002_37d6fae90ae806a5.txt, "Destroyers"): the two unit
-- characteristics, in the text's order. The printed values (cost 12+/6+,
-- attack 3, defense 3, move 2) are the `destroyer` row of sea_units.tbl
-- (units.destroyers).

rule {
  id = "units.destroyers.offshore-bombardment", title = "Offshore Bombardment",
  values = { hit_on = 3 },
  notes = "The text repeats the cruisers' conditions word for word: units.cruisers.offshore-bombardment "
    .. "answers them (query bombard_problem); the bombard order is amphibious-assaults.step-2.",
  on = {
    may_bombard = function(ctx, ev)
      if ctx.game:get(ev.unit, "type") ~= "destroyer" then return end
      ev.value = ctx.rule.values.hit_on
      ev.reason = ctx:query("bombard_problem", ev)
      ev.allowed = ev.reason == nil
    end,
  },
}

rule {
  id = "units.destroyers.missiles", title = "Missiles (sitrep)",
  values = { capacity = 1 },
  notes = "An optional (sitrep) rule: in play when the global sitrep_missiles is true.",
  on = {
    missile_capacity = function(ctx, ev)
      if ctx.game:get_global("sitrep_missiles") == true and ctx.game:get(ev.unit, "type") == "destroyer" then
        ev.capacity = ctx.rule.values.capacity
      end
    end,
  },
}

-- Rule 27.A.3 (probe): each hit is a point of damage; a ship whose hits
-- reach its strength is sunk, with its cargo. Rule 32.A (probe): a move to
-- a hex, and a move the rules refuse by raising (a failed order, for the
-- replay of a rollback).

rule {
  id = "27.A.3", title = "Damage",
  on = {
    unit_hit = function(ctx, ev)
      local g = ctx.game
      local hits = g:add_hits(ev.unit, ev.hits)
      if hits >= g:get_value(ev.unit, "strength") then g:sink(ev.unit) end
    end,
  },
}

rule {
  id = "32.A", title = "Naval movement",
  actions = {
    move = {
      params = { unit = "unit", hex = "hex" },
      effect = function(ctx, p) ctx.game:move(p.unit, "hex", p.hex) end,
    },
  },
}

rule {
  id = "32.A.1", title = "Naval movement: no such move",
  actions = {
    illegal = {
      effect = function() error("no such move") end,
    },
  },
}

-- P.1 A repair action, as some other chapter might offer: flips a unit back to full.
rule {
  id = "P.1", title = "Repair (test stand-in)",
  actions = {
    repair = {
      params = { unit = "unit" },
      effect = function(ctx, p) ctx.game:flip(p.unit, "full") end,
    },
  },
}

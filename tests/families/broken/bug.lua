local function strength_of(ctx, unit)
  return ctx.game:get_value(unit, "strenght") + 0   -- the typo is the bug
end

rule {
  id = "99.X", title = "Explodes",
  actions = {
    explode = {
      params = { unit = "unit" },
      effect = function(ctx, p)
        ctx.game:add_hits(p.unit, 1)
        return strength_of(ctx, p.unit)
      end,
    },
  },
}

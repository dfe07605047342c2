-- A scenario's combat resolution for the 32.D tests, supplied by wrapping
-- the query 32.D asks each round: fight until the enemy is sunk, here a
-- fixed two rounds, and name the result.
variant { name = "navgroup resolver", base = "navgroup" }

wrap("32.D", {
  queries = {
    resolve_naval_combat = function(orig, ctx, info)
      local base = orig(ctx, info)
      return { more = info.round < 2, text = ("hit (default said: %s)"):format(base.text) }
    end,
  },
})

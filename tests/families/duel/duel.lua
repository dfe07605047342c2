-- D.1 Fire: once in each of its fire phases, the phasing side may fire —
-- one die, plus its bonus (a house rule's lever), added to its score.

rule {
  id = "D.1", title = "Fire",
  values = { bonus = { A = 0, B = 0 } },
  actions = {
    fire = {
      phases = { "fire" },
      params = {},
      legal = function(ctx)
        local game = ctx.game
        if game:get_keyed("fired", { game:get_global("phasing"), game:get_global("turn") }) then
          return "D.1: one shot per fire phase"
        end
      end,
      effect = function(ctx)
        local game = ctx.game
        local side = game:get_global("phasing")
        local roll = ctx:roll("1d6", { reason = "fire" })
        local hit = roll + (ctx.rule.values.bonus[side] or 0)
        game:set_keyed("fired", { side, game:get_global("turn") }, true)
        game:set_keyed("score", side, (game:get_keyed("score", side) or 0) + hit)
        ctx:say("%s fires: %d", side, hit)
      end,
    },
  },
}

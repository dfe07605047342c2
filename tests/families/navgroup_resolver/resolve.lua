-- S.1 The scenario's naval combat: four rounds, every one a miss.
rule {
  id = "S.1", title = "Scenario naval combat",
  values = { rounds = 4 },
  on = {
    naval_combat = function(ctx, ev)
      ev.result = { rounds = ctx.rule.values.rounds, text = "miss" }
    end,
  },
}

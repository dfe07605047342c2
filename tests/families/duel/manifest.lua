-- A duel of dice for the variant lab's tests (tests/lua/lab_test.lua,
-- issue 30): no rulebook's; small on purpose, so that hundreds of games
-- played by players take a moment and a house rule's effect on who wins is
-- known in advance.
return family {
  name = "duel",
  rulebook = "none: a test family (a duel of dice)",
  files = { "duel.lua" },
  sequence = {
    cite = "test family: each player turn has one fire phase",
    phases = { { name = "fire", title = "fire phase" } },
  },
}

-- The players' test game (tests/lua/player_test.lua): two sides, three
-- turns, Red's score the global `score`.
return scenario {
  name = "players' fixture",
  rules = { "player_fixture" },
  path = { "../families" },
  sequence = { sides = { "Red", "Blue" } },
  turns = 3,
  scores = { Red = { global = "score" } },
  evaluate = { Red = { global = "score" } },
  victory = { { score = "Red", at_least = 10, winner = "Red" }, { score = "Red", at_most = 9, winner = "Blue" } },
}

-- The duel of dice (tests/families/duel) as a game for the variant lab's
-- tests: two sides, four turns, the higher score wins.
return scenario {
  name = "A duel of dice (the lab's tests)",
  rules = { "duel" },
  path = { "../families" },
  sequence = { cite = "test scenario: two sides, A first", sides = { "A", "B" } },
  turns = 4,
  keyed = { { "score", "A", 0 }, { "score", "B", 0 } },
  scores = { A = { keyed = { "score", "A" } }, B = { keyed = { "score", "B" } } },
  victory = { { higher_score = true, title = "the higher score after four turns" } },
  players = { A = "random", B = "random" },
  outcomes = { shots = { count = "fired", title = "shots fired" } },
}

-- keel fuzz-rules must flag this game (tests/lua/fuzz_rules_test.lua): fault "dead".
return scenario {
  name = "fuzz fault: dead",
  rules = { "fuzz_faults" },
  path = { "../families" },
  flags = { fault = "dead" },
  sequence = { sides = { "Red", "Blue" } },
  turns = 3,
  scores = { Red = { global = "count" } },
  victory = { { higher_score = true } },
}

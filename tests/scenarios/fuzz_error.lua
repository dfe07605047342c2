-- keel fuzz-rules must flag this game (tests/lua/fuzz_rules_test.lua): fault "error".
return scenario {
  name = "fuzz fault: error",
  rules = { "fuzz_faults" },
  path = { "../families" },
  flags = { fault = "error" },
  sequence = { sides = { "Red", "Blue" } },
  turns = 3,
  scores = { Red = { global = "count" } },
  victory = { { higher_score = true } },
}

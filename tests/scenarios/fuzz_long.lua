-- keel fuzz-rules must flag this game (tests/lua/fuzz_rules_test.lua): fault "long".
return scenario {
  name = "fuzz fault: long",
  rules = { "fuzz_faults" },
  path = { "../families" },
  flags = { fault = "long" },
  sequence = { sides = { "Red", "Blue" } },
  turns = 1000,
  scores = { Red = { global = "count" } },
  victory = { { higher_score = true } },
}

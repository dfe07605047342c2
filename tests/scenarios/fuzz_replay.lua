-- keel fuzz-rules must flag this game (tests/lua/fuzz_rules_test.lua): fault "replay".
return scenario {
  name = "fuzz fault: replay",
  rules = { "fuzz_faults" },
  path = { "../families" },
  flags = { fault = "replay" },
  sequence = { sides = { "Red", "Blue" } },
  turns = 3,
  scores = { Red = { global = "count" } },
  victory = { { higher_score = true } },
}

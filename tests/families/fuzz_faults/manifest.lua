-- A family with one fault of each kind keel fuzz-rules flags, chosen by the
-- scenario's flag `fault` (tests/lua/fuzz_rules_test.lua).
return family {
  name = "fuzz_faults", rulebook = "test fixture", files = { "faults.lua" },
  events = { "tick" },
  sequence = {
    cite = "test fixture: one phase a player-turn",
    phases = { { name = "play", start = "tick" } },
  },
}

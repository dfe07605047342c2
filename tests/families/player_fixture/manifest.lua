-- A family whose legal orders are known, for the players' tests
-- (tests/lua/player_test.lua): what the random player draws, and how often.
return family {
  name = "player_fixture", rulebook = "test fixture", files = { "orders.lua" },
  events = { "tick" },
  sequence = {
    cite = "test fixture: one phase a player-turn",
    phases = { { name = "play", start = "tick" } },
  },
}

-- A small rule family for the journal, replay and save tests
-- (tests/lua/game_test.lua, save_test.lua): a barrage and disruption after
-- OCS 18.3c/d, damage after Rule 27.A.3 of 001_dc9ef6cc32bfaa07.txt, a move
-- and a move that always fails after Rule 32.A. Just enough for orders that
-- roll, hit, sink, move and fail; the real families live under scripts/.
return family {
  name = "journal_probe",
  rulebook = "OCS 18.3, Rules 27.A.3 and 32.A (probe for the journal tests)",
  depends = {},
  files = { "ocs.lua", "naval.lua" },
}

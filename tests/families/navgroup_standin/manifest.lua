-- tests/families/navgroup_standin — a test-only stand-in for the queries and
-- the `move` action of Rule 32's movement area (32.A, scripts/navgroup/groups.lua
-- and move.lua), so that the reaction and combat tests (32.C, 32.D) run before
-- the movement area lands. The tests load it only when no rule of the
-- navgroup family answers `group_kind` (see tests/lua/navgroup_combat_test.lua).
-- It answers as doc/navgroup.md's contract says, from the group's values.
return family {
  name = "navgroup_standin",
  rulebook = "Rule 32 stand-in for tests (the queries of scripts/navgroup/groups.lua)",
  depends = { "navgroup" },
  files = { "standin.lua" },
}

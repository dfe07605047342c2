-- doc/examples/convoy — the rule family of doc/guide.md: a convoy, its
-- escort, and an air attack table. Run by tests/lua/guide_test.lua.
return family {
  name = "convoy",
  rulebook = "Guide example: convoys under air attack",
  depends = {},
  files = { "attack.lua", "escort.lua" },
  tables = { "air_attack.tbl" },
  events = { "air_attack" },
}

-- A scenario family for the Rule 37 tests that supplies its own SUCCESS
-- TABLE (a made-up one), as a scenario supplies the real table.
return family {
  name = "navgroup_success",
  rulebook = "Test scenario: a SUCCESS TABLE of its own",
  depends = { "navgroup" },
  files = {},
  tables = { "success_table.tbl" },
}

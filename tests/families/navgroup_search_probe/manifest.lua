-- tests/families/navgroup_search_probe — writes what the 32.B events carry into
-- globals (`probe:*`), for tests/lua/navgroup_search_test.lua to read.
return family {
  name = "navgroup_search_probe",
  rulebook = "test probe for the Rule 32 search events",
  depends = { "navgroup" },
  files = { "probe.lua" },
}

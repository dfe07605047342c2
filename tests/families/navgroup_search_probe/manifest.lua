-- tests/families/navgroup_search_probe — writes what the 32.B events carry into
-- keyed values (`probe`, `probe_attack_base`), for tests/lua/navgroup_search_test.lua
-- and tests/scenarios/navgroup_integration.lua to read.
return family {
  name = "navgroup_search_probe",
  rulebook = "test probe for the Rule 32 search events",
  depends = { "navgroup" },
  files = { "probe.lua" },
}

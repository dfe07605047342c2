-- A probe family for tests/lua/navgroup_movement_test.lua: hooks the Rule 32
-- movement events and answers them as the globals probe_* say.
return family {
  name = "navgroup_probe",
  rulebook = "test probe for the Rule 32 movement events",
  depends = { "navgroup" },
  files = { "probe.lua" },
}

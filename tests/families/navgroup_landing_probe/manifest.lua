-- A scenario family for the Rule 37 tests: it stands in for the chapters
-- Rule 37 leaves out, as a test needs them — ground combat results (set by
-- the test through the game value `probe_result`) and a naval combat that
-- sinks a named carrier (`probe_sink`) — and records what it was given.
return family {
  name = "navgroup_landing_probe",
  rulebook = "Test stand-in: ground and naval combat results for the Rule 37 tests",
  depends = { "navgroup" },
  files = { "combat.lua" },
}

-- tests/families/ocs_probe — what the OCS tests need from chapters section
-- 18 leaves out: a repair action (another chapter's) for 18.3d's veto.
return family {
  name = "ocs_probe",
  rulebook = "Test stand-ins for the OCS tests (not from the rule texts)",
  depends = { "ocs" },
  files = { "probe.lua" },
}

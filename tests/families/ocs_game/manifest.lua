-- tests/families/ocs_game — a game's own charts for the OCS family, as a
-- scenario supplies them: a family that depends on ocs and lists tables of
-- the same names, which replace the stand-ins in the rule set.
return family {
  name = "ocs_game",
  rulebook = "Test charts for the OCS tests (not from the rule texts)",
  depends = { "ocs" },
  files = {},
  tables = { "charts.tbl" },
}

-- tests/families/navgroup_stub — stands in for the shared queries of Rule 32
-- (group_kind, group_side, group_hex, friendly, sea_distance; the contract's
-- queries that engineer A's scripts/navgroup/groups.lua answers) in the
-- tests of 32.B, while those are not on main. Loaded only when the
-- navgroup family answers none of them.
return family {
  name = "navgroup_stub",
  rulebook = "test stand-in for the Rule 32 shared queries",
  depends = {},
  files = { "queries.lua" },
}

-- A scenario family for the 32.D tests: it resolves naval combat with a rule
-- of its own (a naval_combat handler that runs before 32.D's bookkeeping).
return family {
  name = "navgroup_resolver",
  rulebook = "Test scenario: naval combat resolved by the scenario",
  depends = { "navgroup" },
  files = { "resolve.lua" },
}

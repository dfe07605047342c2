-- A scenario whose rule fails: the error names file, line and rule id, with
-- a traceback of script files only (tests/lua/scenario_test.lua).
return scenario {
  name = "Broken rule",
  rules = { "broken" },
  path = { "../families" },
  seed = 7,
  forces = { { name = "Hood", type = "BC", side = "Allied", values = { strength = 6 } } },
  orders = {
    { "explode", unit = "Hood" },
    { "explode", unit = "Hood", expect = { error = "attempt to perform arithmetic" } },
    { check = { units = { Hood = { hits = 0 } } } },
    { check = { units = { Hood = { hits = 3 } } } },
  },
}

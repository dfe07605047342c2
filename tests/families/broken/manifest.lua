-- A family with a bug in it, for the error-format tests.
return family { name = "broken", rulebook = "test fixture", files = { "bug.lua" } }

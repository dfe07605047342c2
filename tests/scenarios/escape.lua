-- A scenario that tries to read a file: refused by the sandbox.
local f = io.open("/etc/passwd")
return scenario { name = "escape", rules = { "toy27" }, path = { "../families" } }

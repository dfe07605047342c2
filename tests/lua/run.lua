-- tests/lua/run.lua — run Lua test files through bin/keel:
--   bin/keel script tests/lua/run.lua tests/lua/*_test.lua
-- Each file calls t.test(...) from keel.testing; a file that fails to load
-- or raises outside a test counts as one failed test.
local t = require "keel.testing"
for i = 1, #arg do
  local file = arg[i]
  local chunk, err = loadfile(file, "t")
  if not chunk then
    t.test(file .. ": loads", function() error(err, 0) end)
  else
    local ok, e = pcall(chunk)
    if not ok then t.test(file .. ": runs", function() error(e, 0) end) end
  end
end
return t.report()

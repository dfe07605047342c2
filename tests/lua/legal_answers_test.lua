-- tests/lua/legal_answers_test.lua — issue 28: making the legal actions
-- fast must not change them. The listing of the active side at each step
-- of each showcase hashes as it did on main before the speed work
-- (tests/lua/data/legal_answers.lua, written by tools/legal_answers.lua).
local t = require "keel.testing"

local gen = assert(loadfile("tools/legal_answers.lua"))("--lib")
local want = dofile("tests/lua/data/legal_answers.lua")

for _, file in ipairs(gen.SHOWCASES) do
  local name = file:match("([^/]+)%.lua$")
  t.test("28-same-answers-" .. name .. ": the legal actions at every step, byte for byte", function()
    local have = gen.hashes(file)
    t.ok(want[file], "the fixture has " .. file)
    t.eq(#have, #want[file], "steps")
    for i, h in ipairs(have) do
      t.eq(h, want[file][i], ("%s step %d"):format(file, i))
    end
  end)
end

-- tests/lua/fuzz_corpus_test.lua — every input of the fuzz corpora
-- (tests/fuzz/corpus/TARGET: seeds; tests/fuzz/regress/TARGET: inputs that
-- once crashed, hung or made keel misbehave) run through its target as
-- `make fuzz` runs it, in the release and the sanitizer build.
local t = require "keel.testing"
package.path = "tests/fuzz/?.lua;" .. package.path
local targets = require "targets"

local function files(dir)
  local out = {}
  local p = io.popen("ls -1 " .. dir .. " 2>/dev/null")
  for name in p:lines() do out[#out + 1] = dir .. "/" .. name end
  p:close()
  table.sort(out)
  return out
end

for _, name in ipairs(targets.names) do
  for _, kind in ipairs({ "corpus", "regress" }) do
    local list = files("tests/fuzz/" .. kind .. "/" .. name)
    if #list > 0 then
      t.test(("fuzz-%s-%s: %d inputs run clean"):format(name, kind, #list), function()
        for _, path in ipairs(list) do
          local ok, err = pcall(targets[name], t.read_file(path))
          t.ok(ok, path .. ": " .. tostring(err))
        end
      end)
    end
  end
end

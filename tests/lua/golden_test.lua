-- golden_test.lua — scenario runs compared to golden journals (tests/golden/):
-- each scenario, played in a fresh process, must write its journal byte for
-- byte as recorded. After a deliberate change, `make golden` records them
-- again; review that diff like code.
local t = require "keel.testing"
local keel_bin, read = t.keel_bin, t.read_file

local GOLDEN = {
  { scenario = "scenarios/suez_1942.lua", journal = "tests/golden/suez_1942.jsonl" },
  { scenario = "scenarios/salerno_1943.lua", journal = "tests/golden/salerno_1943.jsonl" },
  { scenario = "tests/scenarios/convoy_crete.lua", journal = "tests/golden/convoy_crete.jsonl" },
  { scenario = "tests/scenarios/navgroup_integration.lua", journal = "tests/golden/navgroup_integration.jsonl" },
  { scenario = "scenarios/seabox_crete_1941.lua", journal = "tests/golden/seabox_crete_1941.jsonl" },
  { scenario = "scenarios/ocs_salerno.lua", journal = "tests/golden/ocs_salerno.jsonl" },
  { scenario = "scenarios/seazone_trident.lua", journal = "tests/golden/seazone_trident.jsonl" },
}

local function first_difference(a, b)
  local la, lb = {}, {}
  for l in a:gmatch("[^\n]*\n?") do la[#la + 1] = l end
  for l in b:gmatch("[^\n]*\n?") do lb[#lb + 1] = l end
  for i = 1, math.max(#la, #lb) do
    if la[i] ~= lb[i] then
      return ("line %d:\n  golden: %s\n  now:    %s"):format(i, tostring(la[i]):sub(1, 300), tostring(lb[i]):sub(1, 300))
    end
  end
end

for _, g in ipairs(GOLDEN) do
  t.test("golden: " .. g.scenario .. " writes its golden journal byte for byte", function()
    local out = os.tmpname()
    local ok = os.execute(("%s run %s --quiet --journal %s >/dev/null"):format(keel_bin, g.scenario, out))
    local now = read(out)
    os.remove(out)
    t.ok(ok, g.scenario .. ": every expectation of the scenario is met")
    local want = read(g.journal)
    if now ~= want then
      error({ test_failure = "journal differs from " .. g.journal .. " at " .. tostring(first_difference(want, now))
        .. "\n  (after a deliberate change: make golden, and review the diff)" })
    end
  end)
end

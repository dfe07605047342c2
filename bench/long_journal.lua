-- bench/long_journal.lua — write a long journal for bench/big.lua's viewer
-- figure: a navgroup game on the eastmed map (the showcase's family and
-- map) in which the Axis group Regia sails 19A:3406 -> 3408 and back, again
-- and again, each move in a naval step of its own (searches, surface
-- combat with the Allied Escort, the last path: every kind of line the
-- showcase writes), played by `keel run` until the journal has at least
-- LINES lines. Nothing is committed: the scenario goes beside the journal
-- (OUT.scenario.lua: replaying the journal, keel view runs it again).
-- bench/big.lua removes both.
--
--   bin/keel script bench/long_journal.lua OUT.jsonl [LINES]
local out, want = ...
want = math.tointeger(tonumber(want or "23000"))
assert(out and want, "usage: bench/long_journal.lua OUT.jsonl [LINES]")
local KEEL = "bin/keel"
local dir = os.getenv("PWD") or "."

local function scenario_text(cycles)
  local o = {}
  local step = '    { event = "naval_step_start", data = { side = "Axis", step = 1 } },'
  for _ = 1, cycles do
    o[#o + 1] = step
    o[#o + 1] = '    { "move", group = "Regia", path = { "19A:3407", "19A:3408" } },'
    o[#o + 1] = step
    o[#o + 1] = '    { "move", group = "Regia", path = { "19A:3407", "19A:3406" } },'
  end
  return ([[
return scenario {
  name = "A long game (bench)",
  map = "%s/scenarios/maps/eastmed.map",
  rules = { "navgroup" },
  seed = 32,
  flags = { phasing = "Axis", sea = "calm", night = false },
  forces = {
    { name = "Littorio", type = "TF", side = "Axis", at = "19A:3406", group = "Regia" },
    { name = "Trento", type = "TF", side = "Axis", at = "19A:3406", group = "Regia" },
    { name = "Orion", type = "TF", side = "Allied", at = "19A:3309", group = "Escort" },
  },
  orders = {
%s
  },
}
]]):format(dir, table.concat(o, "\n"))
end

local scen = out .. ".scenario.lua"
local function lines_for(cycles)
  local f = assert(io.open(scen, "w"))
  f:write(scenario_text(cycles))
  f:close()
  assert(os.execute(("%s run %s --quiet --journal %s >/dev/null"):format(KEEL, scen, out)), "keel run failed")
  local n = 0
  for _ in io.lines(out) do n = n + 1 end
  return n
end
local a = lines_for(10)
local b = lines_for(20)
local per = (b - a) / 10
local cycles = 20 + math.max(0, math.ceil((want - b) / per))
local n = lines_for(cycles)
while n < want do cycles = cycles + math.ceil((want - n) / per); n = lines_for(cycles) end
print(("%s: %d lines, %d orders"):format(out, n, cycles * 4))

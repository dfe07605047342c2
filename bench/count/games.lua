-- bench/count/games.lua — N showcase games with one shared rule set (after
-- one played to warm the caches), for bench/count/run.sh:
--   bin/keel script bench/count/games.lua N
local scenario = require "keel.scenario"
local n = tonumber(arg and arg[1] or (...)) or 0
local spec = scenario.load("scenarios/suez_1942.lua")
local set = scenario.rule_set(spec)
scenario.start(spec, { set = set }):play_all()
for _ = 1, n do
  local _, failed = scenario.start(spec, { set = set }):play_all()
  assert(failed == 0, "an expectation of the showcase failed")
end
print("count: done")

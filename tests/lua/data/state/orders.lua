-- tests/lua/data/state/orders.lua — a game driven by a host script of
-- orders, undo and redo, on a scenario of the journal_probe family:
--   keel script tests/lua/data/state/orders.lua SCENARIO JOURNAL_OUT [SAVE_OUT]
-- An order the rules refuse (32.A.1 raises) is played too: its rollback is
-- journaled, and replay expects it to fail again.
local scenario = require "keel.scenario"
local errors = require "keel.errors"
local path, out, save = ...
local run = scenario.start(scenario.load(path))
local set, game = run.set, run.game

local function play(name, params)
  local ok, why = set:act(game, name, params)
  if not ok then error(errors.format(why), 2) end
end

play("barrage", { target = 5 })
play("dg", { target = 1 })
play("move", { unit = 1, hex = 4294967300 })
assert(not set:act(game, "illegal", {}))
play("dg", { target = 1 })
game:undo(2)
game:redo(1)
play("barrage", { target = 1 })
play("barrage", { target = 2 })
play("barrage", { target = 5 })
assert(game:write_journal(out))
if save then assert(game:save(save)) end
print(game:hash_hex())

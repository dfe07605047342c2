-- tests/lua/data/state/orders.lua — a game driven by a script of orders:
--   keel run tests/lua/data/state/orders.lua SCENARIO JOURNAL_OUT [SAVE_OUT]
local game_mod = require "keel.game"
local scenario, out, save = ...
local game = game_mod.from_scenario(scenario, { seed = 1234, variants = { "house-27" } })
game:play("barrage", { target = 5 })
game:play("dg", { target = 1 })
game:play("move", { unit = 1, hex = 4294967300 })
pcall(game.play, game, "illegal", {})
game:play("dg", { target = 1 })
game:undo(2)
game:redo(1)
game:play("barrage", { target = 1 })
game:play("barrage", { target = 2 })
game:play("barrage", { target = 5 })
assert(game:write_journal(out))
if save then assert(game:save(save)) end
print(game:hash_hex())

-- A house rule that keeps state between games, for the variant lab's tests
-- (tests/lua/lab_test.lua, lab-14): a file-level counter of the games it has
-- seen, and the id tostring gives a new table (one counter per Lua state).
-- Both go into the Allied victory points at the start. Played alone (keel
-- run) every game sees 1 and the same id; a lab worker that kept one rule
-- set for game after game would add more and more, so that --jobs 1 and
-- --jobs 2 reported other statistics.
variant { name = "lab: stateful", base = "navgroup" }

local games = 0

add {
  id = "H.2", title = "Remembers (a test house rule with state between games)",
  on = {
    game_start = function(ctx)
      games = games + 1
      local id = tonumber(tostring({}):match("#(%d+)$")) or 0
      local vp = ctx.game:get_keyed("vp", "Allied") or 0
      ctx.game:set_keyed("vp", "Allied", vp + games * 100 + id % 7)
    end,
  },
}

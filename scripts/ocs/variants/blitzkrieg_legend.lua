-- The game-specific exception of 18.1c (000_366d55705cda9bbc.txt, the
-- Specific Game Note for THE BLITZKRIEG LEGEND): destroyers may move into a
-- port, and a large ship in a port is automatically DG — so that one more
-- DG is a hit (18.3d C). A variant of the base rules, not a part of them:
--   keel rules ocs --variant scripts/ocs/variants/blitzkrieg_legend.lua
-- "Large" is read as every ship that is not a destroyer (doc/ocs.md).
variant { name = "The Blitzkrieg Legend: destroyers in port", base = "ocs" }

local DESTROYERS = { DD = true }

-- is the ship in a port (a hex of the map with a port)?
local function in_port(ctx, u)
  local hex = ctx:query("unit_hex", u)
  local b = ctx.game.board
  return hex ~= nil and b ~= nil and b:contains(hex) and b:get_port(hex) ~= nil
end

-- every large ship in a port carries a DG marker
local function dg_large_ships_in_port(ctx)
  local g = ctx.game
  for _, u in ipairs(g:units()) do
    local c = ctx:query("naval_class", u)
    if (c == "ship" or c == "carrier") and not DESTROYERS[g:get(u, "type")] and g:get(u, "loc") ~= "dead"
        and in_port(ctx, u) and g:get_marker(u, "DG") == 0 then
      g:add_marker(u, "DG", 1)
      ctx:say("%s is a large ship in port: automatically DG (game note to 18.1c)", g:get(u, "name"))
    end
  end
end

wrap("18.1c", {
  queries = {
    may_enter = function(orig, ctx, u, hex)
      local b = ctx.game.board
      if DESTROYERS[ctx.game:get(u, "type")] and b and b:contains(hex) and b:get_port(hex) then return nil end
      return orig(ctx, u, hex)
    end,
  },
})

-- before a barrage's result is applied to ships (18.3d), and after the
-- Clean Up Phase has taken the DG markers off (18.1d): large ships in port
-- carry a DG marker
wrap("18.3d", {
  on = {
    barrage_fired = function(orig, ctx, data)
      dg_large_ships_in_port(ctx)
      return orig(ctx, data)
    end,
  },
})
wrap("18.1d", {
  on = {
    clean_up_phase = function(orig, ctx, data)
      orig(ctx, data)
      dg_large_ships_in_port(ctx)
    end,
  },
})

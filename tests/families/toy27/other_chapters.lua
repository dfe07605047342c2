-- Stand-ins for rules of other chapters that the campaign of
-- 001_dc9ef6cc32bfaa07.txt changed by house rule. They are not in the rule
-- text; they are here so that the campaign's variant has something to change.

rule {
  id = "US.1", title = "USA organisation problems (stand-in)",
  values = { drm = -1 },
  on = {
    game_start = function(ctx)
      ctx.game:set_global("us_drm", ctx.rule.values.drm)
      ctx.game:set_global("us_divisions_assemble", false)
    end,
  },
}

rule {
  id = "CT.1", title = "Contingents (stand-in)",
  on = {
    game_start = function(ctx) ctx.game:set_global("contingents", true) end,
  },
}

rule {
  id = "EF.1", title = "Transfers to the EAST (stand-in)",
  values = { units = 2 },
  on = {
    transfer_east = function(ctx, ev)
      local n = 0
      for _, u in ipairs(ctx.game:units()) do
        if n < ctx.rule.values.units and ctx.game:get(u, "side") == ev.side and ctx.game:get(u, "loc") ~= "dead" then
          ctx.game:move(u, "off")
          n = n + 1
        end
      end
      ctx.game:set_global("transferred_east", n)
    end,
  },
}

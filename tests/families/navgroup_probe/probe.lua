-- T.1: stop or pause for combat where the globals say; log every event
-- (keyed value `probe_log` {n} = the n-th line).
local function log(ctx, line)
  ctx.game:set_keyed("probe_log", ctx.game:count_keyed("probe_log") + 1, line)
end

rule {
  id = "T.1", title = "Movement event probe",
  on = {
    mp_spent = function(ctx, ev)
      log(ctx, ("mp %s %d %s"):format(ctx.game.board:format(ev.hex), ev.spent, ev.activity))
      if ctx.game:get_global("probe_stop_mp") == ev.spent then ev.stop = "probe stop" end
    end,
    group_enters_hex = function(ctx, ev)
      local label = ctx.game.board:format(ev.to)
      log(ctx, ("enter %s %d"):format(label, ev.spent))
      if ctx.game:get_global("probe_combat_at") == label then
        ev.combat = { kind = "surface", fired_by = "group" }
      end
      if ctx.game:get_global("probe_combats_at") == label then   -- two at once, as 32.D sets them
        ev.combats = { { kind = "submarine" }, { kind = "surface", fired_by = "group" } }
        ev.combat = ev.combats[1]
      end
      if ctx.game:get_global("probe_stop_at") == label then ev.stop = "probe stop at " .. label end
    end,
    naval_combat = function(ctx, ev)
      log(ctx, ("combat %s %s"):format(ctx.game.board:format(ev.hex), ev.kind))
      if ctx.game:get_global("probe_resolve") then
        ev.resolved = true
        local g = ev.group
        ctx.game:group_set_value(g, "mp_spent", ctx.game:group_get_value(g, "mp_spent") + 1)   -- a second round
      end
    end,
  },
}

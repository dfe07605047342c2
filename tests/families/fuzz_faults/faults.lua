-- FZ.1: a counter each side may raise (domain: 1 or 2), with a fault when
-- the flag `fault` says so:
--   "error"  the effect fails once the counter passes 4
--   "dead"   end_phase is vetoed and `raise` is refused past 2: nothing legal
--   "replay" the effect writes how often the order was checked, a count
--            kept outside the game state (a replay checks it less often)
--   "long"   the game has no end short of 1000 turns
local outside = 0   -- the fault of "replay": state no journal or undo knows

rule {
  id = "FZ.1", title = "Raise the counter",
  actions = {
    raise = {
      side = "phasing",
      params = { by = { type = "integer", domain = function() return { 1, 2 } end } },
      legal = function(ctx)
        local g = ctx.game
        if g:get_global("fault") == "replay" then outside = outside + 1 end
        if g:get_global("fault") == "dead" and (g:get_global("count") or 0) >= 2 then return "FZ.1: no more" end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local fault = g:get_global("fault")
        local n = (g:get_global("count") or 0) + p.by
        if fault == "error" and n > 4 then return nil + n end
        if fault == "replay" then n = n + outside end
        g:set_global("count", n)
      end,
    },
  },
  vetoes = {
    end_phase = function(ctx)
      if ctx.game:get_global("fault") == "dead" then return "FZ.1: a side may not pass" end
    end,
  },
  on = { tick = function() end },
}

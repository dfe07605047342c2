-- A house rule for the guide: cruisers escort too, and a convoy is never
-- attacked at night.
variant { name = "cruiser escorts", base = "convoy" }

set_values("G.1", { escort_types = { CL = true } })

wrap("G.2", {
  on = {
    air_attack = function(orig, ctx, ev)
      if ctx.game:get_global("night") then
        ctx:say("no air attack at night (house rule)")
        return
      end
      return orig(ctx, ev)
    end,
  },
})

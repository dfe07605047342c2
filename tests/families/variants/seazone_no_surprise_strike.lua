-- A house rule for the sea-zone family's tests: no Surprise Strike step;
-- submarines fire with the other units of their side. It replaces the
-- General Combat stand-in's step 2 by its id (tests/lua/seazone_combat_test.lua).
variant { name = "no surprise strike", base = "seazone" }

replace("general-combat.step-2", {
  title = "No Surprise Strike (house rule)",
  on = {
    combat_step = function(ctx, ev)
      if ev.step == 2 then ctx:say("house rule: no Surprise Strike; submarines fire with their side") end
    end,
  },
})

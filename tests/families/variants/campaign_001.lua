-- The campaign of 001_dc9ef6cc32bfaa07.txt as a variant of the toy Rule 27:
-- its house rules, and the exploitation phase of its Rule 27.C.4 (4 naval
-- steps). Nothing in the base family is edited.
variant {
  name = "campaign 001",
  base = "toy27",
  description = "Dave's campaign: Rule 27 as changed, plus the house rules in play",
}

-- "divided up into 4 naval steps, each 36 hours long" (27.C.4)
set_values("27.C.4", { naval_steps = 4 })

-- "We discarded the USA organization problems, both the one-time DRM and
-- the initial inability to assemble divisions"
disable("US.1", "discarded: no one-time DRM, divisions may assemble")

-- "The contingents rule was also discarded such that combination stacks and
-- air support were not limited by contingents."
disable("CT.1", "discarded: combination stacks and air support not limited")

-- "Dave notes cancelled transfers to the EAST even though he doesn't control
-- that theater, meaning the German forces remained a bit stronger in the West."
wrap("EF.1", {
  on = {
    transfer_east = function(orig, ctx, ev)
      if ev.side == "German" then
        ctx:say("transfer to the EAST cancelled (house rule)")
        ctx.game:set_global("transferred_east", 0)
        return
      end
      return orig(ctx, ev)
    end,
  },
})

-- A house rule of our own, added: the campaign starts with good weather.
add {
  id = "H.1", title = "Campaign start: clear weather (house rule)",
  on = { game_start = function(ctx) ctx.game:set_global("weather", "clear") end },
}

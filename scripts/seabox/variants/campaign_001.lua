-- scripts/seabox/variants/campaign_001.lua — the campaign's house rules
-- (the three bullets at the top of 001_dc9ef6cc32bfaa07.txt) as one variant
-- of the seabox family. The base family is Rule 27 as that campaign changed
-- it; the house rules change three chapters the text does not contain,
-- which the family ships as stand-ins (other_chapters.lua). Nothing in the
-- base family is edited: `keel rules seabox --variant` shows each change.
variant {
  name = "campaign 001 house rules",
  base = "seabox",
  description = "The campaign's three house rules: no USA organisation problems, no contingent limits, "
    .. "no transfers to the East.",
}

-- House rule 1: the USA's organisation problems are dropped, both the
-- one-time DRM and the early inability to assemble divisions.
disable("usa_organisation", "house rule 1: no USA organisation problems (no one-time DRM; US divisions assemble from the start)")

-- House rule 2: the contingents rule is dropped, so contingents limit
-- neither combination stacks nor air support.
disable("contingents", "house rule 2: contingents limit neither combination stacks nor air support")

-- House rule 3: the German player's transfers to the East are cancelled
-- (though he does not play that front), so the West keeps those units.
replace("east_transfers", {
  title = "Transfers to the East cancelled (house rule 3)",
  on = {
    initial_phase = function(ctx)
      local g = ctx.game
      local kept = 0
      for _, u in ipairs(g:units()) do
        if g:get_value(u, "east_turn") == g:get_global("turn") and g:get(u, "side") == g:get_global("phasing")
          and g:get(u, "loc") ~= "off" and g:get(u, "loc") ~= "dead" then
          kept = kept + 1
          ctx:say("%s stays in the West: its transfer to the East is cancelled", tostring(g:get(u, "name")))
        end
      end
      if kept > 0 then g:set_global("east_transfers_cancelled", (g:get_global("east_transfers_cancelled") or 0) + kept) end
    end,
  },
})

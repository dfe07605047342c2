-- P.1 The test's ground combat: records what 37.B sends, and returns the
-- result the test asked for (game value probe_result).
rule {
  id = "P.1", title = "Probe ground combat",
  on = {
    ground_combat = function(ctx, ev)
      local g = ctx.game
      g:set_global("probe_combats", (g:get_global("probe_combats") or 0) + 1)
      g:set_global("probe_kind", ev.kind)
      g:set_global("probe_largest_marker", ev.largest_mp_marker)
      g:set_global("probe_attackers", #ev.attackers)
      g:set_global("probe_defenders", #ev.defenders)
      g:set_global("probe_airborne", ev.as_airborne_landing == true)
      g:set_global("probe_full", ev.full_strength == true)
      local how = g:get_global("probe_result")
      if how == "disrupt_attackers" then
        ev.result = { disrupted = ev.attackers, text = "the attackers are disrupted" }
      elseif how == "eliminate_attackers" then
        ev.result = { losses = ev.attackers, text = "the attackers are eliminated" }
      elseif how == "eliminate_defenders" then
        ev.result = { losses = ev.defenders, text = "the defenders are eliminated" }
      end
    end,
  },
}

-- P.2 The test's naval combat: the carrier named by probe_sink goes down.
rule {
  id = "P.2", title = "Probe naval combat",
  on = {
    naval_combat = function(ctx, ev)
      local g = ctx.game
      local u = g:get_global("probe_sink")
      if u and g:get(u, "loc") ~= "dead" then
        g:eliminate(u)
        g:set_global("probe_sink", nil)
        ev.result = { rounds = 1, text = "sunk" }
      end
    end,
  },
}

-- Records the 32.B events in keyed values: `probe` {what} (counts, the last
-- search's contact, searcher and result, the last activated zone) and
-- `probe_attack_base` {attack n, i} = the i-th airbase of the n-th attack.
local function add(g, k, n) g:set_keyed("probe", k, (g:get_keyed("probe", k) or 0) + n) end

rule {
  id = "T.32.probe", title = "Search event probe",
  on = {
    naval_search = function(ctx, ev)
      local g = ctx.game
      add(g, "searches", 1)
      g:set_keyed("probe", "search_kinds", ev.contact)
      g:set_keyed("probe", "searcher", ev.searcher or false)
      g:set_keyed("probe", "result", ev.result)
    end,
    search_air_attack = function(ctx, ev)
      local g = ctx.game
      add(g, "attacks", 1)
      local n = g:get_keyed("probe", "attacks")
      for i, b in ipairs(ev.airbases) do g:set_keyed("probe_attack_base", { n, i }, b) end
    end,
    reserves_activated = function(ctx, ev)
      local g = ctx.game
      add(g, "activations", 1)
      g:set_keyed("probe", "activated_zone", ev.zone)
    end,
  },
}

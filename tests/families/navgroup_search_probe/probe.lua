-- Records the 32.B events in globals.
local function add(g, k, n) g:set_global("probe:" .. k, (g:get_global("probe:" .. k) or 0) + n) end

rule {
  id = "T.32.probe", title = "Search event probe",
  on = {
    naval_search = function(ctx, ev)
      local g = ctx.game
      add(g, "searches", 1)
      g:set_global("probe:search_kinds", ev.contact)
      g:set_global("probe:searcher", ev.searcher or false)
      g:set_global("probe:result", ev.result)
    end,
    search_air_attack = function(ctx, ev)
      local g = ctx.game
      add(g, "attacks", 1)
      local labels = {}
      for i, b in ipairs(ev.airbases) do labels[i] = g.board:format(b) end
      local prev = g:get_global("probe:attack_bases")
      local s = table.concat(labels, ",")
      g:set_global("probe:attack_bases", prev and prev .. ";" .. s or s)
    end,
    reserves_activated = function(ctx, ev)
      local g = ctx.game
      add(g, "activations", 1)
      g:set_global("probe:activated_zone", ev.zone)
    end,
  },
}

-- 27.A.3 Damage (toy): hits on SF/CF reduce strength, pairs flip at half,
-- equal to current strength sinks; any hit sinks an AF or NT. Bombing hits
-- are spread NT, AF, CF, SF, a random ship of each category in turn.

rule {
  id = "27.A.3", title = "Damage",
  values = {
    flips_at_half = { CA = true, CL = true, DD = true, CVE = true },
  },
  on = {
    unit_hit = function(ctx, ev)
      local g, u = ctx.game, ev.unit
      local cat = ctx:query("category", u)
      if cat == "AF" or cat == "NT" then
        g:eliminate(u)
        ctx:emit("unit_sunk", { unit = u })
        return
      end
      g:add_hits(u, ev.hits or 1)
      local strength = g:get_value(u, "strength")
      local hits = g:get(u, "hits")
      if hits >= strength then
        g:eliminate(u)
        ctx:emit("unit_sunk", { unit = u })
      elseif ctx.rule.values.flips_at_half[g:get(u, "type")] and hits * 2 >= strength
             and g:get(u, "face") == "full" then
        g:flip(u, "half")
      end
    end,
  },
}

rule {
  id = "27.A.3.b", title = "Bombing hit distribution",
  values = { order = { "NT", "AF", "CF", "SF" } },
  actions = {
    bomb = {
      params = { group = "group", strikes = "integer?" },
      legal = function(ctx, p)
        if #ctx.game:group_units(p.group) == 0 then return "the group has no ships" end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local hits = 0
        for _ = 1, p.strikes or 1 do hits = hits + ctx:resolve("bombing_hits", {}, { reason = "air strike" }).value end
        ctx:say("%d bombing hit(s) on group %d", hits, p.group)
        while hits > 0 do
          local any = false
          for _, cat in ipairs(ctx.rule.values.order) do
            if hits == 0 then break end
            local ships = {}
            for _, u in ipairs(g:group_units(p.group)) do
              if g:get(u, "loc") ~= "dead" and ctx:query("category", u) == cat then ships[#ships + 1] = u end
            end
            if #ships > 0 then
              local pick = ships[1]
              if #ships > 1 then
                pick = ships[ctx:roll("1d" .. #ships, { reason = "which " .. cat .. " is hit" })]
              end
              ctx:emit("unit_hit", { unit = pick, hits = 1 })
              hits = hits - 1
              any = true
            end
          end
          if not any then break end
        end
      end,
    },
  },
}

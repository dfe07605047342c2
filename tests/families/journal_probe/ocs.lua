-- OCS 18.3c/d (probe): a barrage rolls 2d6 and hits a ship once, or twice
-- on a high roll; a second DG marker turns into a hit.

rule {
  id = "18.3c", title = "Barrage",
  values = { two_hits_at = 7 },
  actions = {
    barrage = {
      params = { target = "unit" },
      effect = function(ctx, p)
        local total = ctx:roll("2d6", { reason = "barrage vs " .. p.target })
        ctx:emit("unit_hit", { unit = p.target, hits = total >= ctx.rule.values.two_hits_at and 2 or 1 })
      end,
    },
  },
}

rule {
  id = "18.3d", title = "Disruption",
  actions = {
    dg = {
      params = { target = "unit" },
      effect = function(ctx, p)
        local g = ctx.game
        if g:add_marker(p.target, "DG", 1) >= 2 then
          g:remove_marker(p.target, "DG")
          ctx:emit("unit_hit", { unit = p.target, hits = 1 })
        end
      end,
    },
  },
}

-- 27.A Ships: categories, strength, stacking (toy).

rule {
  id = "27.A", title = "Ships",
  values = {
    -- ship type -> category (SF, CF, AF, NT)
    category = { BB = "SF", BC = "SF", CA = "SF", CL = "SF", DD = "SF",
                 CV = "CF", CVE = "CF", LS = "AF", LC = "AF", NT = "NT" },
  },
  queries = {
    --- The category of a unit: "SF", "CF", "AF" or "NT".
    category = function(ctx, unit)
      local t = ctx.game:get(unit, "type")
      local c = ctx.rule.values.category[t]
      if not c then error(("unknown ship type '%s'"):format(tostring(t))) end
      return c
    end,
  },
}

rule {
  id = "27.A.1", title = "Strength and AA",
  queries = {
    --- Current strength: printed strength minus hits.
    strength = function(ctx, unit)
      return (ctx.game:get_value(unit, "strength") or 0) - ctx.game:get(unit, "hits")
    end,
  },
}

rule {
  id = "27.A.2", title = "Stacking",
  values = { limit = false },   -- "There is no limit on the number of naval units that may stack in a hex."
  vetoes = {
    move = function(ctx, p)
      local limit = ctx.rule.values.limit
      if not limit then return nil end
      local n = 0
      for _, id in ipairs(ctx.game:units()) do
        local u = ctx.game:get_unit(id)
        if u.where == p.to then n = n + 1 end
      end
      if n >= limit then return ("at most %d naval units may stack in a hex"):format(limit) end
    end,
  },
}

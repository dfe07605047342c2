-- 27.C Naval Activities (toy): the movement and exploitation phases set how
-- many naval steps there are; a ship's rate is sea boxes per naval step.

rule {
  id = "27.C.2", title = "Movement Phase",
  values = {
    naval_steps = 6,
    rates = { BC = 12, CV = 12, CA = 12, CL = 12, DD = 12, BB = 9, CVE = 9, LS = 6, NT = 6, LC = 3 },
  },
  on = {
    movement_phase = function(ctx)
      ctx.game:set_global("naval_steps", ctx.rule.values.naval_steps)
    end,
  },
  queries = {
    movement_rate = function(ctx, unit)
      return ctx.rule.values.rates[ctx.game:get(unit, "type")] or 0
    end,
  },
  actions = {
    move = {
      params = { unit = "unit", to = "hex", boxes = "integer" },
      legal = function(ctx, p)
        local rate = ctx:query("movement_rate", p.unit)
        if p.boxes > rate then
          return ("%s moves %d sea boxes a naval step, not %d"):format(ctx.game:get(p.unit, "type"), rate, p.boxes)
        end
      end,
      effect = function(ctx, p)
        ctx.game:move(p.unit, "hex", p.to)
      end,
    },
  },
}

rule {
  id = "27.C.4", title = "Exploitation Phase",
  values = { naval_steps = 3 },
  on = {
    exploitation_phase = function(ctx)
      ctx.game:set_global("naval_steps", ctx.rule.values.naval_steps)
    end,
  },
}

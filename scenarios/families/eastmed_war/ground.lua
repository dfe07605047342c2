-- S.1 The ground war, as far as the showcase needs it: a ground unit
-- advances to a hex; a side takes a hex (the kernel's owner_changed event
-- tells Rule 32, whose Suez hexside owners follow hex owners, 32.A.6.a).
rule {
  id = "S.1", title = "Ground advance and capture (scenario stand-in)",
  standin = "the ground movement and combat chapters (advance and capture)",
  actions = {
    advance = {
      params = { unit = "unit", to = "hex" },
      legal = function(ctx, p)
        local t = ctx.game.board:get_terrain(p.to)
        if t == "all-sea" then return "a ground unit cannot advance into an all-sea hex" end
      end,
      effect = function(ctx, p)
        ctx.game:move(p.unit, "hex", p.to)
        ctx:say("%s advances to %s", ctx.game:get(p.unit, "name"), ctx.game.board:format(p.to))
      end,
    },
    capture = {
      params = { side = "string", hex = "hex" },
      legal = function(ctx, p)
        if ctx.game:get_owner(p.hex) == p.side then return "the hex is already " .. p.side end
      end,
      effect = function(ctx, p)
        ctx.game:set_owner(p.hex, p.side)
        ctx:say("%s takes %s", p.side, ctx.game.board:format(p.hex))
      end,
    },
  },
}

-- S.2 The turn sequence the showcase walks through: whose player-turn it is.
rule {
  id = "S.2", title = "Phasing player (scenario stand-in for the sequence of play)",
  standin = "the sequence of play (the phasing player)",
  actions = {
    set_phasing = {
      params = { side = "string" },
      effect = function(ctx, p)
        ctx.game:set_global("phasing", p.side)
        ctx:say("the %s player-turn begins", p.side)
      end,
    },
  },
}

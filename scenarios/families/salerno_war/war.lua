-- S.1 Naval transport, as far as the showcase needs it: a ground unit
-- embarks on a naval unit in the same hex or port (the capacity rules of
-- naval transport are another chapter).
rule {
  id = "S.1", title = "Embark (scenario stand-in for naval transport)",
  standin = "naval transport (embarking)",
  actions = {
    embark = {
      params = { unit = "unit", carrier = "unit" },
      legal = function(ctx, p)
        local game = ctx.game
        if game:get(p.unit, "side") ~= game:get(p.carrier, "side") then return "a unit embarks on its own side's ships" end
        local _, a = game:get(p.unit, "loc")
        local _, b = game:get(p.carrier, "loc")
        if a ~= b then return "the unit and the ship are not in the same hex" end
      end,
      effect = function(ctx, p)
        ctx.game:embark(p.unit, p.carrier)
        ctx:say("%s embarks on %s", ctx.game:get(p.unit, "name"), ctx.game:get(p.carrier, "name"))
      end,
    },
  },
}

-- S.2 The sequence of play the showcase walks through: the turn, whose
-- player-turn it is, and the sea state.
rule {
  id = "S.2", title = "Sequence of play (scenario stand-in)",
  standin = "the sequence of play",
  actions = {
    next_turn = {
      effect = function(ctx)
        local game = ctx.game
        game:set_global("turn", (game:get_global("turn") or 1) + 1)
        ctx:say("turn %d", game:get_global("turn"))
      end,
    },
    set_phasing = {
      params = { side = "string" },
      effect = function(ctx, p)
        ctx.game:set_global("phasing", p.side)
        ctx:say("the %s player-turn begins", p.side)
      end,
    },
    set_sea = {
      params = { sea = "string" },
      legal = function(_, p)
        if p.sea ~= "calm" and p.sea ~= "rough" and p.sea ~= "stormy" then return "calm, rough or stormy" end
      end,
      effect = function(ctx, p)
        ctx.game:set_global("sea", p.sea)
        ctx:say("the sea is %s", p.sea)
      end,
    },
  },
}

-- S.4 The theatre's SP pool (a stand-in: supply is another chapter). Rule
-- 37.B takes SPs from it (items 10, 11, 13): keyed value sp_pool, by side.
rule {
  id = "S.4", title = "Theatre SP pool (scenario stand-in for supply)",
  standin = "supply (the theatre SP pool)",
  actions = {
    set_sp_pool = {
      params = { side = "string", sp = "integer" },
      legal = function(_, p) if p.sp < 0 then return "a pool holds 0 SPs or more" end end,
      effect = function(ctx, p)
        ctx.game:set_keyed("sp_pool", p.side, p.sp)
        ctx:say("%s's theatre SP pool: %d SPs", p.side, p.sp)
      end,
    },
  },
}

-- S.3 Ground combat (a stand-in: the ground combat chapter is not in the
-- rule texts). One die, less the attackers' largest "+ # MP" marker (Rule
-- 37 (e): the markers affect a required attack's die): 5 or more, the
-- defenders are eliminated; 1 or less, the attackers are disrupted; else no
-- decision. Rule 37.B applies the result (item 6: disruptions on an
-- initially defended beach eliminate).
rule {
  id = "S.3", title = "Ground combat (scenario stand-in)",
  standin = "ground combat",
  on = {
    ground_combat = function(ctx, ev)
      local die = ctx:roll("1d6", { reason = ("%s at %s"):format(ev.kind, ctx.game.board:format(ev.hex)) })
      local n = die - (ev.largest_mp_marker or 0)
      if n >= 5 then
        ev.result = { losses = ev.defenders, text = ("die %d - %d (markers) = %d: the defenders are eliminated")
          :format(die, ev.largest_mp_marker or 0, n) }
      elseif n <= 1 then
        ev.result = { disrupted = ev.attackers, text = ("die %d - %d (markers) = %d: the attackers are disrupted")
          :format(die, ev.largest_mp_marker or 0, n) }
      else
        ev.result = { text = ("die %d - %d (markers) = %d: no decision"):format(die, ev.largest_mp_marker or 0, n) }
      end
    end,
  },
}

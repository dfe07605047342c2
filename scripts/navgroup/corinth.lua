-- 32.A.6.a.1 The Corinth Canal (15B:0813/0814): a side owning both hexes may
-- move its groups without TFs or CGs through it.
rule {
  id = "32.A.6.a.1", title = "The Corinth Canal",
  values = { name = "Corinth", excluded_types = { TF = true, CG = true } },
  queries = {
    corinth_allows = function(ctx, g, s)
      local game = ctx.game
      local side = ctx:query("group_side", g)
      local a, b = keel.hex.side_hexes(s)
      if game:get_owner(a) ~= side or game:get_owner(b) ~= side then
        return "32.A.6.a.1: the Corinth Canal: the side must own both hexes " ..
          game.board:format(a) .. " and " .. game.board:format(b)
      end
      for _, u in ipairs(ctx:query("group_members", g)) do
        if ctx.rule.values.excluded_types[game:get(u, "type")] then
          return "32.A.6.a.1: a naval group with a TF or CG may not move through the Corinth Canal"
        end
      end
      return nil
    end,
  },
}

-- 32.A.5 Narrow straits: a naval group moves through a narrow strait only
-- when the hexes on both sides of it are friendly-owned.
rule {
  id = "32.A.5", title = "Narrow straits",
  values = { features = { "narrow-strait" } },
  queries = {
    -- hexside features crossed only when both hexes are friendly (the cost
    -- map's fast path; a crossing with a strait passage is judged by the strait)
    strait_conditions = function(ctx) return ctx.rule.values.features end,
    -- nil when a group of `side` may cross from `from` to `to`, else why not
    strait_check = function(ctx, side, from, to)
      local board, game = ctx.game.board, ctx.game
      local crossing = board:side(from, to)
      if not crossing then return nil end
      local strait = board:strait_passage(crossing)
      if not strait then
        local f = board:get_features(crossing)
        if f and f.narrow_strait then strait = crossing end
      end
      if not strait then return nil end
      local a, b = keel.hex.side_hexes(strait)
      if game:get_owner(a) ~= side or game:get_owner(b) ~= side then
        return ("32.A.5: the narrow strait at %s: both hexes must be friendly-owned"):format(board:format_side(strait))
      end
      return nil
    end,
  },
}

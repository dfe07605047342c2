-- 32.A.6 Rivers and canals (riverine hexsides): only cargo groups, between
-- the coast and inland ports; both hexes of the hexside friendly-owned; 1 MP
-- per riverine hexside (the table's "Enter river/canal hexside" row); no
-- further upriver than the first hexside adjacent to the inland port.
-- The helper the rule uses follows it.

local inland_port_beside   -- helper, below the rule

-- what beyond_inland_ports works out depends on the river graph (one per
-- board and profile's costs) alone: kept per graph
local beyond_cache = setmetatable({}, { __mode = "k" })

rule {
  id = "32.A.6", title = "Rivers and canals",
  values = { group_kinds = { cargo = true } },
  queries = {
    -- the inland port a riverine hexside is adjacent to (a hex of the side), or nil
    inland_port_at = function(ctx, s) return inland_port_beside(ctx.game.board, s) end,
    -- nil when group g may enter the riverine hexside s, else why not
    riverine_allowed = function(ctx, g, s)
      local board, game = ctx.game.board, ctx.game
      local f = board:get_features(s)
      if not f or not f.riverine then return "32.A.6: not a riverine hexside" end
      if f.name == "Suez" then return ctx:query("suez_allows", g, s) end
      if f.name == "Corinth" then return ctx:query("corinth_allows", g, s) end
      if not ctx.rule.values.group_kinds[ctx:query("group_kind", g)] then
        return "32.A.6: only cargo naval groups move along rivers and canals"
      end
      local side = ctx:query("group_side", g)
      local a, b = keel.hex.side_hexes(s)
      if game:get_owner(a) ~= side or game:get_owner(b) ~= side then
        return ("32.A.6: both hexes of %s must be friendly-owned"):format(board:format_side(s))
      end
      return nil
    end,
    -- the riverine hexsides beyond an inland port (reached from the sea only
    -- through a hexside adjacent to an inland port), as a set {side = true}
    beyond_inland_ports = function(ctx, profile)
      local board = ctx.game.board
      local rg = ctx:river_graph(profile)
      local known = beyond_cache[rg]   -- the sides, in order: a copy made without a sort
      if known then
        local copy = {}
        for i = 1, #known do copy[known[i]] = true end
        return copy
      end
      local stops, reached = {}, {}
      for _, n in ipairs(rg:nodes()) do
        if n.kind == "side" and inland_port_beside(board, n.id) then stops[#stops + 1] = n end
      end
      for _, n in ipairs(rg:nodes()) do
        if n.kind == "hex" then
          for _, r in ipairs(rg:reach(n, 4096, { stop = stops })) do
            if r.kind == "side" then reached[r.id] = true end
          end
        end
      end
      local beyond, list = {}, {}
      for _, n in ipairs(rg:nodes()) do
        if n.kind == "side" and not reached[n.id] then beyond[n.id] = true; list[#list + 1] = n.id end
      end
      beyond_cache[rg] = list
      return beyond
    end,
    -- nil when group g (on a river at node `from`) may go on to node `to`
    -- ({kind=, id=}), else why not; cost when allowed (second value)
    river_step = function(ctx, g, profile, from, to)
      local board = ctx.game.board
      local rg = ctx:river_graph(profile)
      local cost = rg:cost(from, to)
      if not cost then
        return ("32.A.6: %s does not lead along a river or canal to %s"):format(
          from.kind == "hex" and board:format(from.id) or board:format_side(from.id),
          to.kind == "hex" and board:format(to.id) or board:format_side(to.id))
      end
      if to.kind == "side" then
        local why = ctx:query("riverine_allowed", g, to.id)
        if why then return why end
        local beyond = ctx:query("beyond_inland_ports", profile)
        if from.kind == "side" and inland_port_beside(board, from.id) and beyond[to.id] then
          return ("32.A.6: no further upriver than %s, the first hexside adjacent to the inland port"):format(
            board:format_side(from.id))
        end
        if beyond[to.id] and not (from.kind == "side" and beyond[from.id]) then
          return "32.A.6: no further upriver than the first hexside adjacent to the inland port"
        end
      end
      return nil, cost
    end,
  },
}

-- ---- helper -------------------------------------------------------------------------

function inland_port_beside(board, s)
  local a, b = keel.hex.side_hexes(s)
  for _, h in ipairs { a, b } do
    local p = board:contains(h) and board:get_port(h)
    if p and p.inland then return h end
  end
  return nil
end

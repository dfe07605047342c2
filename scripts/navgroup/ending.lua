-- 32.A.4 Ending movement: a naval group (and its cargo) may end its movement
-- at sea; one that ends it in the hex of a friendly-owned port may enter the
-- port or stay at sea in the port hex. The helper the rule uses follows it.

local port_for   -- helper, below the rule

rule {
  id = "32.A.4", title = "Ending movement",
  actions = {
    -- end movement in a friendly-owned port's hex: enter the port
    enter_port = {
      phases = { "movement" },   -- a naval movement step's end, for the group
      params = { group = { type = "group", domain = function(ctx, _, side) return ctx:query("side_groups", side) end } },
      legal = function(ctx, p)
        local h, why = port_for(ctx, p.group)
        if not h then return why end
      end,
      effect = function(ctx, p)
        local game = ctx.game
        local h = port_for(ctx, p.group)
        for _, u in ipairs(ctx:query("group_members", p.group)) do game:move(u, "port", h) end
        game:group_set_value(p.group, "in_port", true)
        game:group_set_value(p.group, "river_side", nil)
        game:group_set_value(p.group, "coast", nil)
        game:group_set_value(p.group, "move_ended", true)
        ctx:say("%s ends its movement in port at %s", game:group_get_name(p.group), game.board:format(h))
      end,
    },
    -- end movement at sea (the group may not move again this step)
    end_movement = {
      phases = { "movement" },
      params = { group = { type = "group", domain = function(ctx, _, side) return ctx:query("side_groups", side) end } },
      legal = function(ctx, p)
        if #ctx:query("group_members", p.group) == 0 then return "the group has no units" end
      end,
      effect = function(ctx, p) ctx.game:group_set_value(p.group, "move_ended", true) end,
    },
  },
}

-- ---- helper -------------------------------------------------------------------------

-- the friendly-owned port where a group may enter: its hex, or (on a
-- riverine hexside) the inland port beside it
function port_for(ctx, g)
  local game, board = ctx.game, ctx.game.board
  local side = ctx:query("group_side", g)
  local rs = game:group_get_value(g, "river_side")
  local cands
  if rs then
    local a, b = keel.hex.side_hexes(rs)
    cands = { a, b }
  else
    local hex, port = ctx:query("group_hex", g)
    if port then return nil, "32.A.4: the group is in port already" end
    cands = { hex }
  end
  for _, h in ipairs(cands) do
    if board:contains(h) and board:get_port(h) and game:get_owner(h) == side then return h end
  end
  return nil, "32.A.4: a group enters only a friendly-owned port in its hex"
end

-- 32.A.2 Effects of enemy naval groups: enemy groups in port are ignored at
-- sea; a group in the hex of an enemy-owned port blocks it; no entering a
-- hex with an enemy combat or mixed group at sea, except a blockaded group
-- putting to sea there, which starts naval combat.
-- The helper the rule uses follows it.

local enemies_at_sea   -- helper, below the rule

rule {
  id = "32.A.2", title = "Effects of enemy naval groups",
  values = { blocking_kinds = { combat = true, mixed = true } },
  queries = {
    enemy_groups_at_sea = function(ctx, side, hex) return (enemies_at_sea(ctx, side, hex)) end,
    -- the enemy combat or mixed group at sea in the hex, if any
    blocking_group = function(ctx, side, hex)
      for _, e in ipairs(enemies_at_sea(ctx, side, hex)) do
        if ctx.rule.values.blocking_kinds[ctx:query("group_kind", e)] then return e end
      end
      return nil
    end,
    -- the hexes a group of `side` may not enter (sorted)
    blocked_hexes = function(ctx, side)
      local seen, out = {}, {}
      local enemies, at = enemies_at_sea(ctx, side)
      for i, e in ipairs(enemies) do
        if ctx.rule.values.blocking_kinds[ctx:query("group_kind", e)] then
          local h = at[i]
          if not seen[h] then seen[h] = true; out[#out + 1] = h end
        end
      end
      table.sort(out)
      return out
    end,
    -- is the port at hex blocked (a group of another side than its owner at
    -- sea in its hex)? blocked, the blocking group
    port_blocked = function(ctx, hex)
      local owner = ctx.game:get_owner(hex)
      if not owner or not ctx.game.board:get_port(hex) then return false end
      local e = enemies_at_sea(ctx, owner, hex)[1]
      return e ~= nil, e
    end,
    -- nil when a group of `side` may enter the hex at sea, else the reason
    entry_blocked = function(ctx, side, hex)
      local e = ctx:query("blocking_group", side, hex)
      if e then
        return ("32.A.2: %s holds an enemy %s naval group at sea"):format(ctx.game.board:format(hex),
          ctx:query("group_kind", e))
      end
      return nil
    end,
  },
}

-- ---- helper -------------------------------------------------------------------------

-- the naval groups of other sides at sea (not in port) (at `hex`, when
-- given), in group order; and their hexes. The kernel's index gives the
-- groups with a unit at sea (there): a group at sea is one of them, and
-- the far away and the parked are never looked at.
function enemies_at_sea(ctx, side, hex)
  local out, at = {}, {}
  local groups = ctx.game:groups(hex and { loc = "hex", at = hex } or { loc = "hex" })
  for i = 1, #groups do
    local g = groups[i]
    -- where first (its first unit in play may be elsewhere); then the side,
    -- which rules out the friendly groups before the costlier naval_group
    local h, in_port = ctx:query("group_hex", g)
    if h and not in_port and (hex == nil or h == hex)
      and ctx:query("group_side", g) ~= side and ctx:query("naval_group", g) then
      out[#out + 1] = g
      at[#out] = h
    end
  end
  return out, at
end

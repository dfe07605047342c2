-- Test-only answers to the Rule 32 shared queries (the contract's meaning;
-- sea distance is plain hex distance: the test maps are open sea).
local CARGO = { NT = true, LC = true, LB = true }
local COMBAT = { TF = true, CG = true }

rule {
  id = "T.32", title = "Stand-in shared queries",
  queries = {
    group_kind = function(ctx, gid)
      local g = ctx.game
      local k = g:group_get(gid, "kind")
      if k then return k end
      local cargo, combat, sub, n = 0, 0, 0, 0
      for _, u in ipairs(g:group_units(gid)) do
        local t = g:get(u, "type")
        n = n + 1
        if CARGO[t] then cargo = cargo + 1 elseif COMBAT[t] then combat = combat + 1 elseif t == "SUB" then sub = sub + 1 end
      end
      if n > 0 and cargo == n then return "cargo" end
      if n > 0 and combat == n then return "combat" end
      if n > 0 and sub == n then return "submarine" end
      return "mixed"
    end,
    group_side = function(ctx, gid)
      local g = ctx.game
      return g:group_get(gid, "side") or g:get(g:group_units(gid)[1], "side")
    end,
    group_hex = function(ctx, gid)
      local g = ctx.game
      local u = g:group_units(gid)[1]
      if not u then return nil end
      local kind, where = g:get(u, "loc")
      if kind == "hex" or kind == "port" then return where end
    end,
    friendly = function(ctx, side, hex) return ctx.game:owner(hex) == side end,
    sea_distance = function(_, from, to, limit)
      local d = keel.hex.distance(from, to)
      if limit and d > limit then return nil end
      return d
    end,
  },
}

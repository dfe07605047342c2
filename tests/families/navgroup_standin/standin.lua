-- T.32.A Stand-in queries: what groups.lua answers, read from the group's
-- values (kind, side, allowance, mp_spent) and its first unit's place.
local CARGO = { NT = true, LC = true, LB = true }
local COMBAT = { TF = true, CG = true }

local function units_kind(ctx, g)
  local cargo, combat, sub, other = 0, 0, 0, 0
  for _, u in ipairs(ctx.game:group_units(g)) do
    local ty = ctx.game:get(u, "type")
    if CARGO[ty] then cargo = cargo + 1
    elseif COMBAT[ty] then combat = combat + 1
    elseif ty == "SUB" then sub = sub + 1
    else other = other + 1 end
  end
  if other == 0 and combat == 0 and sub == 0 and cargo > 0 then return "cargo" end
  if other == 0 and cargo == 0 and sub == 0 and combat > 0 then return "combat" end
  if other == 0 and cargo == 0 and combat == 0 and sub > 0 then return "submarine" end
  return "mixed"
end

rule {
  id = "T.32.A", title = "Stand-in queries of the movement area",
  queries = {
    group_kind = function(ctx, g) return ctx.game:group_get(g, "kind") or units_kind(ctx, g) end,
    group_side = function(ctx, g)
      local s = ctx.game:group_get(g, "side")
      if s then return s end
      local u = ctx.game:group_units(g)[1]
      return u and ctx.game:get(u, "side") or nil
    end,
    group_hex = function(ctx, g)
      local u = ctx.game:group_units(g)[1]
      if not u then return nil end
      local kind, where = ctx.game:get(u, "loc")
      if kind == "hex" or kind == "port" then return where end
      return nil
    end,
    friendly = function(ctx, side, hex) return ctx.game:owner(hex) == side end,
    allowance = function(ctx, g)
      local a = ctx.game:group_get(g, "allowance")
      if a then return a end
      if ctx:query("is_reacting", g) then return ctx:query("reaction_allowance", g) end
      local printed
      for _, u in ipairs(ctx.game:group_units(g)) do
        local mp = ctx.game:value(u, "mp")
        if mp and (not printed or mp < printed) then printed = mp end
      end
      return printed or 15
    end,
    mp_left = function(ctx, g)
      return ctx:query("allowance", g) - (ctx.game:group_get(g, "mp_spent") or 0)
    end,
  },
  actions = {
    -- one hex at 1 MP, with the contract's events (enough for the vetoes' tests)
    move = {
      params = { group = "group", to = "hex" },
      effect = function(ctx, p)
        local g = ctx.game
        local from = ctx:query("group_hex", p.group)
        local spent = (g:group_get(p.group, "mp_spent") or 0) + 1
        for _, u in ipairs(g:group_units(p.group)) do g:move(u, "hex", p.to) end
        g:group_set(p.group, "mp_spent", spent)
        local reacting = ctx:query("is_reacting", p.group)
        ctx:emit("group_enters_hex", { group = p.group, from = from, to = p.to, cost = 1, spent = spent,
                                       reacting = reacting })
        ctx:emit("mp_spent", { group = p.group, hex = p.to, mp = 1, spent = spent, activity = "enter",
                               left_hex = true, night = g:global("night") == true })
      end,
    },
    spend = {
      params = { group = "group", mp = "integer", activity = "string" },
      effect = function(ctx, p)
        local g = ctx.game
        local spent = (g:group_get(p.group, "mp_spent") or 0) + p.mp
        g:group_set(p.group, "mp_spent", spent)
        ctx:emit("mp_spent", { group = p.group, hex = ctx:query("group_hex", p.group), mp = p.mp, spent = spent,
                               activity = p.activity, left_hex = false, night = g:global("night") == true })
      end,
    },
  },
}

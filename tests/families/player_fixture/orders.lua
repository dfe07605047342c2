-- PF.1 choose {a = 1..4, b = 1..3}: legal when a + b is even (6 of 12)
-- PF.2 never {x = 1..5}: never legal (not available)
-- PF.3 sparse {x = 1..200}: legal for x = 137 only (found by enumeration)
-- PF.4 pair {first = 1..3, second = depends on first: 1..first}: every order legal
-- Each order adds to the global `score` (what a greedy player looks at).
local function range(n)
  local out = {}
  for i = 1, n do out[i] = i end
  return out
end

rule {
  id = "PF.1", title = "Choose",
  actions = {
    choose = {
      params = { a = { type = "integer", domain = function() return range(4) end },
                 b = { type = "integer", domain = function() return range(3) end } },
      legal = function(_, p) if (p.a + p.b) % 2 ~= 0 then return "PF.1: a + b must be even" end end,
      effect = function(ctx, p) ctx.game:set_global("score", (ctx.game:get_global("score") or 0) + p.a * p.b) end,
    },
  },
  on = { tick = function() end },
}

rule {
  id = "PF.2", title = "Never",
  actions = {
    never = {
      params = { x = { type = "integer", domain = function() return range(5) end } },
      legal = function() return "PF.2: never" end,
      effect = function() end,
    },
  },
}

rule {
  id = "PF.3", title = "Sparse",
  actions = {
    sparse = {
      params = { x = { type = "integer", domain = function() return range(200) end } },
      legal = function(_, p) if p.x ~= 137 then return "PF.3: only 137" end end,
      effect = function(ctx) ctx.game:set_global("score", (ctx.game:get_global("score") or 0) - 1) end,
    },
  },
}

rule {
  id = "PF.4", title = "Pair",
  actions = {
    pair = {
      params = { first = { type = "integer", domain = function() return range(3) end },
                 second = { type = "integer", depends = { "first" }, domain = function(_, p) return range(p.first) end } },
      effect = function() end,
    },
  },
}

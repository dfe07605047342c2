-- Probes of keel serve (no rulebook): every action adds one to the global
-- "count", then returns what its name says.

local function count(ctx)
  local g = ctx.game
  g:set_global("count", (g:get_global("count") or 0) + 1)
end

-- a table whose __pairs never ends: a reader that honours __pairs hangs
local function endless()
  return setmetatable({}, { __pairs = function(t) return function() return 1, t end, t, nil end })
end

rule {
  id = "P.1", title = "Probe results",
  actions = {
    plain = { effect = function(ctx) count(ctx); return { n = ctx.game:get_global("count"), list = { 1, 2 } } end },
    endless = { effect = function(ctx) count(ctx); return { inner = endless() } end },
    endless_top = { effect = function(ctx) count(ctx); return endless() end },
    mixed = { effect = function(ctx) count(ctx); return { 1, 2, x = 3 } end },
    nan = { effect = function(ctx) count(ctx); return { x = 0 / 0 } end },
    huge = {
      effect = function(ctx)
        count(ctx)
        local t = {}
        for i = 1, 200000 do t[i] = i end
        return t
      end,
    },
  },
}

rule {
  id = "P.2", title = "Probe candidates",
  actions = {
    pick = {
      params = {
        unit = { type = "unit", domain = function() return { { value = 1, cost = 0 / 0 } } end },
      },
      effect = function(ctx) count(ctx) end,
    },
  },
}

rule {
  id = "P.3", title = "Probe text: caf\xe9 \xff",
  actions = {
    refuse_bytes = { effect = function(ctx) count(ctx); error("no: \xff\xfe") end },
    narrate_bytes = { effect = function(ctx) count(ctx); ctx:say("said \xc3(") end },
  },
}

rule {
  id = "P.4", title = "Probe events",
  on = { probe = function(ctx) count(ctx) end },
}

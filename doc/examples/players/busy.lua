-- doc/examples/players/busy.lua — a player of the guide: it passes one
-- time in four while it has something else to do (a side that never
-- passes may toggle bookkeeping forever: OCS's landing-craft modes), and
-- picks among the offered orders at random. `keel play SCENARIO --player Allied=doc/examples/players/busy.lua`
local function choose(info, list) return list[info.random(#list)] end

-- a value and a value given: the same unit, hex ..., or the same list of them
local function same(a, b)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  if #a ~= #b then return false end
  for i = 1, #a do if a[i] ~= b[i] then return false end end
  return true
end

-- the values a parameter offers given the ones chosen before it
local function offered(p, chosen)
  if not p.choices then return p end
  for _, c in ipairs(p.choices) do
    local all = true
    for k, v in pairs(c.given) do if not same(chosen[k], v) then all = false end end
    if all then return c end
  end
end

local function order_of(info, a)
  if a.orders then return choose(info, a.orders) end   -- not every combination is legal: one of them
  local params = {}
  for _, p in ipairs(a.params) do
    local o = offered(p, params)
    if o and o.domain and #o.domain > 0 then
      if p.type == "units" then
        params[p.name] = o.sets and choose(info, o.sets) or { choose(info, o.domain).value }
      else
        params[p.name] = choose(info, o.domain).value
      end
    end
  end
  return params
end

return {
  name = "busy",
  decide = function(info)
    local doable = {}
    for _, a in ipairs(info.actions) do
      if a.available and #a.free == 0 and a.name ~= "end_phase" then doable[#doable + 1] = a end
    end
    if #doable == 0 or info.random(4) == 1 then return "end_phase", {} end
    local a = choose(info, doable)
    return a.name, order_of(info, a)
  end,
}

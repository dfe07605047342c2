-- tests/browser/orders.lua SCENARIO — the scenario's orders as JSON lines,
-- for the browser tests to play by clicks: {name, by, params, skip} where
-- skip is why keel run refuses the order (refused, illegal, vetoed: it
-- writes nothing to the journal, and the page never offers it).
local json = require "keel.json"
local scenario = require "keel.scenario"
local spec = scenario.load(assert(arg[1], "usage: orders.lua SCENARIO"))
for _, o in ipairs(spec.orders or {}) do
  local params = {}
  for k, v in pairs(o) do if k ~= 1 and k ~= "by" and k ~= "expect" then params[k] = v end end
  local e = o.expect or {}
  io.write(json.encode { name = o[1], by = o.by, params = params,
    skip = e.refused or e.illegal or e.vetoed or nil }, "\n")
end

---@meta keel.outcomes
-- LuaLS definitions for scripts/keel/outcomes.lua (the exact odds of what
-- an order does, every dice path enumerated under the real rules).

---@class keel.outcomes
---@field MAX_RUNS integer
local outcomes = {}

---@class keel.Outcome
---@field key string what changed, unit by unit
---@field changes {unit: integer, name: string, type: string, what: string}[]
---@field count integer chances over the result's den

---@class keel.Outcomes
---@field den integer the common denominator
---@field paths integer dice paths
---@field runs integer runs of the order
---@field outcomes keel.Outcome[] sorted by key

---@param set table a keel.rules set
---@param game table a keel.game
---@param name string the action
---@param params table
---@param opts? {max_runs?: integer}
---@return keel.Outcomes|nil, string? reason
function outcomes.enumerate(set, game, name, params, opts) end
---@return {unit: integer, name: string, type: string, what: string}[]
function outcomes.changes(before, after) end
---@return {key: string, count: integer}[]
function outcomes.by_type(result) end
---@return {unit: integer, name: string, what: {what: string, count: integer}[]}[]
function outcomes.per_unit(result) end
---@param opts? {list?: integer}
---@return string
function outcomes.format(result, opts) end

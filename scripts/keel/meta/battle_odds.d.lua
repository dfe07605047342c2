---@meta keel.battle_odds
-- LuaLS definitions for keel.battle_odds (scripts/keel/battle_odds.lua): the
-- exact odds of a battle of the General Combat shape, over the battle model
-- a family's rule set gives (doc/architecture.md, doc/seazone.md).

---@class keel.battle_odds
---@field MAX_UNITS integer units of one force (cargo counted)
---@field MAX_WORK integer battle positions and transitions one battle may weigh
---@field RESULTS string[] the results, in their order
local battle_odds = {}

---@class keel.BattleResult
---@field p table<string, number> probability of each result
---@field outcomes {p: number, result: string, attacker: string, defender: string}[] most likely first
---@field losses {attacker: {units: number, cost: number, by_type: table<string, number>}, defender: table}
---@field states integer battle positions weighed
---@field rounds number expected rounds
---@field total number the results' sum (1 up to rounding)

---@class keel.BattleOdds
---@field model table the family's battle model
---@field RESULTS string[]
local engine = {}
---@param spec table {attacker=, defender=, attacker_side=, defender_side=, policy=, attacker_policy=, defender_policy=, max_work=}
---@return keel.BattleResult
function engine.battle(spec) end
---@param spec table as battle's
---@return {p: number, result: string|nil, attacker: string[], defender: string[]}[]
function engine.first_round(spec) end
---@param spec table as battle's
---@param n integer battles
---@param seed? integer
---@return {p: table<string, number>, n: integer, counts: table<string, integer>}
function engine.simulate(spec, n, seed) end
---@param name string a hit question of the model
---@param force string|table
---@param role? string "attacker" (default) or "defender"
---@return table distribution keel.odds.hits_mixed's
function engine.hits(name, force, role) end
---@param r keel.BattleResult
---@param opts? {top?: integer}
---@return string
function engine.format(r, opts) end

---@param model table
---@param casualty_ranks fun(types: string[], side: string, order: any): table
---@param policy_problem fun(types: string[], policy: any): string|nil
---@return keel.BattleOdds
function battle_odds.new(model, casualty_ranks, policy_problem) end
---@param set table a keel.rules set
---@return keel.BattleOdds|nil, string? why
function battle_odds.for_set(set) end
---@param opts {families: string[]}
---@return keel.BattleOdds
function battle_odds.open(opts) end
---@param set table a keel.rules set
---@return table|nil questions, string? why
function battle_odds.questions(set) end
---@param fam string
---@return table questions {QUESTION = {summary=, usage=, options=, run=}}
function battle_odds.family_questions(fam) end
---@param model table
---@param spec string|table
---@return table|nil force, string? why
function battle_odds.parse_force(model, spec) end

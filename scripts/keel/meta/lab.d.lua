---@meta keel.lab
-- LuaLS definitions for scripts/keel/lab.lua (the variant lab: studies of
-- many games, base against a house rule; doc/lab.md) and keel.stats.

---@class keel.lab
---@field FORMAT string "keel-lab"
---@field VERSION integer
---@field SEEDS string how game seeds are derived
local lab = {}

---@class keel.LabSide
---@field name string "base" or "variant"
---@field variants string[] stacked on the scenario's own
---@field played integer
---@field completed integer
---@field failures {game: integer, seed: integer, kind: string, order: integer, message: string}[]
---@field met integer[] per order: games in which its expectations were met
---@field outcomes table<string, table<string, integer>> per outcome: value (as JSON) -> games
---@field rules table<string, {games: integer, sum: integer, sumsq: integer}>
---@field rows table<string, {games: integer, sum: integer, sumsq: integer}>

---@class keel.LabStudy
---@field scenario {file: string, name?: string, hash: string}
---@field games integer
---@field master integer
---@field shards integer
---@field have integer[] the shards it holds
---@field sides keel.LabSide[]

---@param master integer
---@param i integer the game, 1-based
---@return integer seed 0 .. 2^31-1
function lab.seed(master, i) end
---@return integer first, integer last
function lab.slice(n, index, count) end
---@param opts {scenario: string, games: integer, master?: integer, sides?: {name: string, variants?: string[]}[], shard?: integer[]}
---@return keel.LabStudy
function lab.new(opts) end
---@param opts? {jobs?: integer, program?: string, cpu?: number, memory?: number, on_progress?: fun(done: integer, total: integer)}
---@return keel.LabStudy
function lab.run(study, opts) end
---@param list keel.LabStudy[]
---@return keel.LabStudy
function lab.merge(list) end
---@return table report expectations, outcomes, rules, rows: per side and the difference
function lab.report(study) end
---@return string json
function lab.encode(study) end
---@return keel.LabStudy
function lab.decode(text, where) end
---@return string
function lab.replay_command(study, side, seed) end

---@class keel.stats
---@field Z95 number
---@field ALPHA number
local stats = {}
---@return number|nil lo, number|nil hi
function stats.wilson(k, n, z) end
---@return number|nil mean, number|nil variance, number|nil lo, number|nil hi
function stats.mean_ci(n, sum, sumsq, z) end
---@return number|nil z, number|nil p
function stats.two_proportions(k1, n1, k2, n2) end
---@return number|nil t, number|nil df, number|nil p
function stats.welch(n1, m1, v1, n2, m2, v2) end
---@return number p two-sided
function stats.normal_p(z) end
---@return number p two-sided
function stats.t_p(t, df) end

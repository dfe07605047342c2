---@meta keel
-- LuaLS definitions for keel.dice (kernel/l_dice.c), keel.dice_expr,
-- keel.tables and keel.odds (scripts/keel/*.lua). Kept in step with them.

---@class keel
---@field dice keel.dicelib

---@class keel.dicelib
---@field DEFAULT_STREAM string "default"
---@field MAX_COUNT integer most dice in one roll (100)
---@field MAX_SIDES integer most faces on a die (1000)
local dicelib = {}

---@class keel.RollOpts
---@field stream? string 1..63 printable characters, no blanks (default "default")
---@field rule? string the rule id asking for the roll ("32.B")
---@field reason? string why, for the journal

---@class keel.RollRecord
---@field stream string
---@field expr string canonical expression ("1d6", "2d6+1"), or "1..n" for range
---@field faces integer[]
---@field modifier integer
---@field total integer
---@field rule? string
---@field reason? string
---@field forced boolean any face came from the forced queue
---@field n integer the roll's number in its stream (from 1)

---@class keel.Dice
local Dice = {}

---@param seed? integer
---@return keel.Dice
function dicelib.new(seed) end

---@param x any
---@return boolean
function dicelib.is_dice(x) end

---Roll a dice expression ("2d6+3"): the total, then each die's face.
---The roll's record: d:get_record().
---@param expr string
---@param opts? keel.RollOpts
---@return integer total
---@return integer ... faces, one per die
function Dice:roll(expr, opts) end

---A uniform integer in 1..n, as one roll.
---@param n integer
---@param opts? keel.RollOpts
---@return integer value
function Dice:range(n, opts) end

---The record of the last roll or range (a new table), nil before any.
---@return keel.RollRecord|nil
function Dice:get_record() end

---Journal every roll and range from now on into the state's journal (a
---`roll` line, written in C); opts.rule, else the state's rule in force, is
---the roll's rule. nil stops it.
---@param state keel.State|nil
---@return keel.Dice
function Dice:set_journal(state) end

---Call fn(record) after every roll (nil removes all callbacks).
---@param fn fun(rec: keel.RollRecord)|nil
---@return keel.Dice
function Dice:on_roll(fn) end

---Queue faces the next dice will show: d:force(6, 6) or d:force{6, 6}.
---@param ... integer|integer[]
---@return keel.Dice
function Dice:force(...) end

---@return integer queued forced faces
function Dice:forced() end

---@return keel.Dice
function Dice:clear_forced() end

---Bulk Monte Carlo in C: counts of each total over n rolls.
---@param expr string
---@param n integer
---@param opts? keel.RollOpts
---@return table<integer, integer>
function Dice:histogram(expr, n, opts) end

---@return string text one line per stream, in name order
function Dice:save() end

--- A count that moves whenever save's text would change (a roll, a
--- new stream, a load): equal versions, equal saved states.
---@return integer
function Dice:get_version() end

---Restore a saved state exactly; raises on malformed text (dice unchanged).
---@param text string
---@return true
function Dice:load(text) end

---@return integer
function Dice:get_seed() end

---@return string[] stream names in name order
function Dice:streams() end

---@param stream? string
---@return integer rolls made on the stream
function Dice:rolls(stream) end
--- Free what the dice own now (also done by the garbage collector and __close).
function Dice:close() end

-- ---- keel.dice_expr ----------------------------------------------------------

---@class keel.DiceExpr
---@field count integer
---@field sides integer
---@field modifier integer
---@field text string canonical

---@class keel.dice_expr
---@field pattern userdata LPeg pattern capturing a keel.DiceExpr
local dice_expr = {}
---@param text string
---@return keel.DiceExpr|nil expr
---@return string|nil err
function dice_expr.parse(text) end
---@param text string
---@return keel.DiceExpr
function dice_expr.check(text) end
---@param e keel.DiceExpr
---@return table<integer, integer> counts, integer outcomes, integer lo, integer hi
function dice_expr.distribution(e) end
--- The most dice of `sides` faces whose outcomes fit a Lua integer (the limit of exact odds).
---@param sides integer
---@return integer
function dice_expr.max_dice(sides) end
--- The refusal for too many dice: names `text` and the limit.
---@param text string
---@param count integer
---@param sides integer
---@return string
function dice_expr.too_many(text, count, sides) end

-- ---- keel.tables ----------------------------------------------------------------

---@class keel.Cell
---@field kind "code"|"mp"|"scatter"|"multiply"|"number"|"none"
---@field text string
---@field code? string
---@field mp? integer
---@field num? integer
---@field den? integer
---@field value? integer

---@class keel.TableModifier
---@field name string
---@field amount integer
---@field per boolean a ±# modifier
---@field text string

---@class keel.TableRecord
---@field table string
---@field rule? string
---@field roll keel.RollRecord
---@field die integer
---@field modifier integer
---@field modified integer
---@field clamped boolean
---@field row integer
---@field range string
---@field modifiers {name: string, amount: integer, text: string}[]
---@field result keel.Cell|table<string, keel.Cell>

---@class keel.Table
---@field name string
---@field title? string
---@field rule? string
---@field source? string
---@field notes string[]
---@field dice? keel.DiceExpr
---@field rows_from? string
---@field columns string[]
---@field rows table[]
---@field modifiers keel.TableModifier[]
---@field legend table<string, string>
---@field file string
---@field line integer
local Table = {}
---@param bindings table<string, any>
---@return keel.Table
function Table:bind(bindings) end
---@param ctx? table
---@return integer total, table[] applied
function Table:modifiers_for(ctx) end
--- The modifier total under a context: modifiers_for's first value, with
--- the same errors (a plain ctx of a table without bindings is summed in C).
---@param ctx? table
---@return integer total
function Table:sum_modifiers(ctx) end
---@param roll integer
---@return keel.Cell|table<string, keel.Cell> result, table row, boolean clamped
function Table:lookup(roll) end
---@param dice keel.Dice
---@param ctx? table
---@param opts? {stream?: string, rule?: string, reason?: string, modifier?: integer}
---@return keel.Cell|table<string, keel.Cell> result, keel.TableRecord record
function Table:resolve(dice, ctx, opts) end
---@param key string
---@param column? string
---@return keel.Cell|table<string, keel.Cell>
function Table:get(key, column) end
---@param cell keel.Cell|string
---@return string|nil
function Table:describe(cell) end

---@class keel.tables
local tables = {}
---@param text string
---@param filename? string
---@return keel.Table[]
function tables.parse(text, filename) end
---@param path string
---@return keel.Table[]
function tables.load_file(path) end
---@param path string
---@param name? string
---@return keel.Table
function tables.load(path, name) end
---A copy of `t` (a `rows from` table) taking its dice and rows from `src`.
---@param t keel.Table
---@param src? keel.Table
---@return keel.Table
function tables.link(t, src) end
---@param rec keel.TableRecord
---@return string
function tables.narrate(rec) end
---@param cells keel.Cell[]
---@return {num: integer, den: integer}
function tables.product(cells) end
---The C half (kernel/l_tables.c, `require("keel").tables`): a table's
---modifier total under a plain ctx from the ctx's keys; nil when the
---ordered walk (Table:modifiers_for) must decide.
---@param ctx table
---@param amounts table<string, integer> the table's modifier_amounts
---@param per table<string, boolean> the table's modifier_per
---@return integer|nil
function tables.sum_modifiers(ctx, amounts, per) end

-- ---- keel.odds ----------------------------------------------------------------------

---@class keel.Fraction
---@field num integer
---@field den integer

---@class keel.odds
local odds = {}
---@param t keel.Table
---@param mod? integer|table<integer, integer>
---@return table
function odds.table(t, mod) end
---@param t keel.Table
---@param ctx table
---@return table
function odds.table_for(t, ctx) end
--- Raises, naming the expression and the limit, when sides^dice passes a 64-bit integer.
---@param expr string|keel.DiceExpr
---@param k integer
---@return table
function odds.hits(expr, k) end
---@param thresholds integer[] one die each, hitting on its threshold or less
---@param sides? integer faces per die (6)
---@return table
function odds.hits_mixed(thresholds, sides) end
---@param expr string|keel.DiceExpr
---@return table
function odds.expr(expr) end
---@param num integer
---@param den integer
---@return keel.Fraction
function odds.fraction(num, den) end

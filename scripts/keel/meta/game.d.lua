---@meta keel.game
-- LuaLS definitions for keel.game (scripts/keel/game.lua).

---@class keel.gamelib
---@field JOURNAL_VERSION integer
local gamelib = {}

---@class keel.GameOpts
---@field seed? integer
---@field board? any
---@field dice? keel.Dice
---@field scenario? string
---@field variants? string[]
---@field journal? boolean

---@param opts? keel.GameOpts
---@return keel.Game
function gamelib.new(opts) end
--- Load a saved game; its journal goes on from the one the save keeps.
---@param path string
---@return keel.Game|nil game, string? reason
function gamelib.load(path) end

---@class keel.UnitSpec
---@field name string
---@field type? string
---@field side? string
---@field values? table<string, keel.Value>
---@field markers? table<string, integer>
---@field points? integer
---@field face? keel.Face
---@field hits? integer
---@field at? table {kind, where}

---@class keel.Game
---@field state keel.State
---@field dice keel.Dice
---@field seed integer
---@field rule_files string[][]
---@field warnings? string[]
local Game = {}
---@param fn fun(g: keel.Game, ...): ...
---@param opts? {rule?: string}
function Game:transaction(fn, opts, ...) end
---@return boolean ok, ...
function Game:try(fn, opts, ...) end
---@param rule string
---@param fn fun(g: keel.Game, ...): ...
function Game:with_rule(rule, fn, ...) end
---@return string?
function Game:get_rule() end
---@param name string
---@param fn fun(g: keel.Game): ...
---@param opts? {rule?: string, order?: any}
function Game:action(name, fn, opts) end
--- How the game ended, as its state holds it (keel.sequence): over, winner
--- (nil for a draw or a game not over), scores per side, reason.
---@return {over: boolean, winner?: string, scores: table<string, number>, reason?: string}
function Game:result() end
---@param n? integer
function Game:undo(n) end
---@param n? integer
function Game:redo(n) end
---A transaction around whole actions: rollback(mark) puts state, journal,
---actions, what can be redone and dice back as at begin().
---@return table mark
function Game:begin() end
---@param mark table
function Game:commit(mark) end
---@param mark table
function Game:rollback(mark) end
---Roll through the game's dice: journaled with opts.rule, else the rule in
---force; the record is game.dice:get_record().
---@param expr string
---@param opts? keel.RollOpts
---@return integer total
---@return integer ... faces, one per die
function Game:roll(expr, opts) end
---@return integer
function Game:hash() end
---@return string
function Game:hash_hex() end
--- The lines after the first `from` (default 0), and the number of lines so far.
---@param from? integer
---@return string[] lines, integer count
function Game:journal_lines(from) end
--- The text of the lines after the first `from`, and the number of lines so far.
---@param from integer
---@return string text, integer count
function Game:journal_since(from) end
---@return integer lines, integer bytes
function Game:journal_count() end
--- The whole journal (a copy: for tests and short games).
---@return string
function Game:journal_text() end
---@param path string
---@return true|nil ok, string? reason
function Game:write_journal(path) end
--- Stream the journal to path as the game goes; the state drops what it wrote.
---@param path string
---@return true|nil ok, string? reason
function Game:stream_journal(path) end
---@param line integer|nil
function Game:journal_keep(line) end
---@return true|nil ok, string? reason
function Game:close_journal() end
--- At most n actions undoable (1000 by default, doc/state.md).
---@param n integer
function Game:set_undo_depth(n) end
---@return integer
function Game:get_undo_depth() end
---@param path string
---@return true|nil ok, string? reason
function Game:save(path) end
--- Runtime plumbing (set:declare_files, keel.scenario): record a rule file in use.
---@param path string
---@return string hash
function Game:add_rule_file(path) end
---@param spec keel.UnitSpec
---@return integer id
function Game:unit_new(spec) end
---@param id integer
---@return keel.UnitInfo
function Game:get_unit(id) end
---@class keel.UnitFilter the kernel's index of units (kernel/index.c)
---@field loc? "off"|"hex"|"port"|"box"|"zone"|"unit"|"dead" the kind of location
---@field at? integer where: a hex (without loc: on the map there or in its port), box, zone or carrier
---@field side? string
---@field type? string

---@param filter? keel.UnitFilter|fun(g: keel.Game, id: integer): boolean
---@return integer[]
function Game:units(filter) end
---The groups in id order; with a filter, those holding a unit it matches
---@param filter? keel.UnitFilter
---@return integer[]
function Game:groups(filter) end
---@param id integer
---@param n? integer
---@return integer hits
function Game:add_hits(id, n) end
---@param id integer
---@param face? keel.Face
---@return keel.Face
function Game:flip(id, face) end
---@param id integer
function Game:eliminate(id) end
---@param id integer
function Game:sink(id) end
---@param cargo integer
---@param carrier integer
function Game:embark(cargo, carrier) end
---@param carriers integer|integer[]
---@param measure string
---@return keel.CargoReport
function Game:cargo_check(carriers, measure) end
---@param carriers integer|integer[]
---@param measure string
---@return integer[] eliminated
function Game:drop_excess(carriers, measure) end
---@param spec string|table
---@return integer gid
function Game:group_new(spec) end
---@param id integer
---@param key string
---@param n? integer
---@return integer previous
function Game:remove_marker(id, key, n) end
---The value of a key in a keyed map (structured rule data), nil when none.
---@param map string
---@param key keel.Key
---@return keel.Value
function Game:get_keyed(map, key) end
---Set a key of a keyed map (nil removes it); journaled, undone, hashed, saved.
---@param map string
---@param key keel.Key
---@param v keel.Value
function Game:set_keyed(map, key, v) end
---How many keys a keyed map holds.
---@param map string
---@return integer
function Game:count_keyed(map) end
---The i-th key (an array of parts) and value of a keyed map, in key order.
---@param map string
---@param i integer 1-based
---@return (integer|string)[] key, keel.Value value
function Game:at_keyed(map, i) end

---@meta keel
-- LuaLS definitions for keel.state (kernel/l_state.c). Kept in step with it.

---@class keel
---@field state keel.statelib

---@alias keel.Value nil|boolean|integer|number|string
---@alias keel.LocKind "off"|"hex"|"port"|"box"|"zone"|"unit"|"dead"
---@alias keel.Face "full"|"damaged"|"half"
---@alias keel.Field "name"|"type"|"side"|"face"|"hits"|"points"|"loc"
---A keyed value's key: one part (an integer or a string of at most 255
---bytes) or an array of 1 to 3 parts.
---@alias keel.Key integer|string|(integer|string)[]

---@class keel.statelib
---@field save_version integer
---@field json_null table JSON null: json writes it as null, in a table too (read-only; tostring gives "null")
local statelib = {}

---@return keel.State
function statelib.new() end
---@param path string
---@return keel.State|nil state, table|string meta_or_reason
function statelib.load(path) end
---@param text string
---@param name? string
---@return keel.State|nil state, table|string meta_or_reason
function statelib.load_text(text, name) end
--- Deterministic JSON: object keys sorted, integers as integers, floats
--- shortest round-trip, strings as valid UTF-8 (U+FFFD for each ill-formed
--- part); json_null is null, a table marked by json_array an array ([] when
--- empty). Raises "json: ..." for NaN, infinities, functions, mixed keys,
--- nesting over 64. pretty: two spaces a level, scalars-only arrays and
--- short scalars-only objects on one line.
---@param v any
---@param pretty? boolean
---@return string
function statelib.json(v, pretty) end
--- Mark t as a JSON array (its keys must be 1..n; [] when empty) and
--- return it. A table with a metatable of its own is refused.
---@generic T: table
---@param t T
---@return T
function statelib.json_array(t) end

--- One journal line: {"ev":EV,"key":VALUE,...}, the fields in the order given (nil is null).
---@param ev string
---@param ... any key, value pairs
---@return string
function statelib.json_line(ev, ...) end
---@param s string
---@return string hex16
function statelib.hash_bytes(s) end
--- Owners many games share (a board's declared owners): a later entry wins for a hex two name.
---@param groups {side: string, hexes: integer[]}[]
---@return keel.state.OwnerBase
function statelib.owner_base(groups) end

---@class keel.state.OwnerBase
local OwnerBase = {}
---@return integer hexes owned
function OwnerBase:count() end
function OwnerBase:close() end

---@class keel.UnitInfo
---@field id integer
---@field name string
---@field type string?
---@field side string?
---@field face keel.Face
---@field hits integer
---@field points integer
---@field loc keel.LocKind
---@field where integer?

---@class keel.CargoReport
---@field capacity integer
---@field used integer
---@field over integer
---@field excess integer[]

---@class keel.State
local State = {}
---@param name string
---@param type? string
---@param side? string
---@return integer id
function State:unit_new(name, type, side) end
---@return integer
function State:count_units() end
---Every unit's id, {1, ..., count_units()} (a new list); with a filter,
---the units it matches in id order (the kernel's index)
---@param filter? keel.UnitFilter
---@return integer[]
function State:unit_ids(filter) end
---@param id integer
---@return keel.UnitInfo
function State:get_unit(id) end
---@param id integer
---@param field keel.Field
---@return any value, integer? where
function State:get(id, field) end
---@param id integer
---@param field keel.Field
---@param v any
function State:set(id, field, v) end
---@param id integer
---@param kind keel.LocKind
---@param where? integer
function State:move(id, kind, where) end
---@param id integer
---@param key string
---@return keel.Value
function State:get_value(id, key) end
---@param id integer
---@param key string
---@param v keel.Value
function State:set_value(id, key, v) end
---@param id integer
---@return table<string, keel.Value>
function State:values(id) end
---@param id integer
---@return string[]
function State:value_keys(id) end
---@param id integer
---@param name string
---@return integer
function State:get_marker(id, name) end
---@param id integer
---@param name string
---@param n integer
function State:set_marker(id, name, n) end
---@param id integer
---@param name string
---@param n? integer
---@return integer count
function State:add_marker(id, name, n) end
---@param id integer
---@return table<string, integer>
function State:markers(id) end
---@param kind keel.LocKind
---@param where? integer
---@return integer[]
function State:units_at(kind, where) end
---@param id integer
---@param n integer
---@return integer hits
function State:add_hits(id, n) end
---@param id integer
---@param n integer
---@return integer points
function State:reduce_points(id, n) end
---@param id integer
---@param points integer
---@return integer new_id
function State:split(id, points) end
---@param a integer
---@param b integer
function State:combine(a, b) end
---@param id integer
function State:eliminate(id) end
---@param carrier integer
---@return integer[]
function State:cargo(carrier) end
---@param carriers integer|integer[]
---@param measure string
---@return keel.CargoReport
function State:cargo_check(carriers, measure) end
---@param name string
---@return integer gid
function State:group_new(name) end
---@return integer
function State:count_groups() end
---Every group's id, {1, ..., count_groups()} (a new list); with a filter,
---the groups holding a unit it matches, in id order
---@param filter? keel.UnitFilter
---@return integer[]
function State:group_ids(filter) end
---@param g integer
---@return string
function State:group_get_name(g) end
---@param g integer
---@param unit integer
---@param pos? integer 1-based
function State:group_add(g, unit, pos) end
---@param g integer
---@param unit integer
function State:group_remove(g, unit) end
---@param g integer
---@param in_play? boolean only the units that are not dead
---@return integer[]
function State:group_units(g, in_play) end
---@param unit integer
---@return integer[]
function State:groups_of(unit) end
---@param g integer
---@param key string
---@return keel.Value
function State:group_get_value(g, key) end
---@param g integer
---@param key string
---@param v keel.Value
function State:group_set_value(g, key, v) end
---@param g integer
---@return table<string, keel.Value>
function State:group_values(g) end
---@param key string
---@return keel.Value
function State:get_global(key) end
---@param key string
---@param v keel.Value
function State:set_global(key, v) end
---@return table<string, keel.Value> values, string[] keys
function State:globals() end
---The value of a key in a keyed map (structured rule data), nil when none.
---@param map string
---@param key keel.Key
---@return keel.Value
function State:get_keyed(map, key) end
---Set a key of a keyed map (nil removes it); journaled, undone, hashed, saved.
---@param map string
---@param key keel.Key
---@param v keel.Value
function State:set_keyed(map, key, v) end
---How many keys a keyed map holds.
---@param map string
---@return integer
function State:count_keyed(map) end
---The i-th key (always an array of parts) and value of a keyed map, in key
---order: integers before strings, a shorter key before a longer one it begins.
---@param map string
---@param i integer 1-based
---@return (integer|string)[] key, keel.Value value
function State:at_keyed(map, i) end
---@param hex integer
---@return string?
function State:get_owner(hex) end
---@param hex integer|integer[]
---@param side string?
function State:set_owner(hex, side) end
---@return integer
function State:count_owned() end
--- A state with no owners yet starts from base's (the same owners, count and hash).
---@param base keel.state.OwnerBase
function State:set_owner_base(base) end
--- Changes with every owner change (rollback, undo and redo included) and
--- never comes back: what was computed from the owners holds while it stands.
---@return integer
function State:get_owner_version() end
--- Changes with every change to the state (rollback, undo and redo
--- included) and never comes back: what was worked out from the state
--- holds while it stands.
---@return integer
function State:get_version() end
--- Push the rule in force: its id (nil: none), or the atom an earlier push
--- of that id returned (nothing to intern again).
---@param rule string|integer|nil
---@return integer atom
function State:push_rule(rule) end
function State:pop_rule() end
---@return string?
function State:get_rule() end
--- Method `name` bound to this state: f(any, ...) is st:name(...), a C
--- function with no lookup or check of the state (the rules' facade).
---@param name string
---@return function
function State:bind(name) end
---@return integer level
function State:begin() end
---@param level integer
function State:commit(level) end
---@param level integer
function State:rollback(level) end
---@return integer
function State:depth() end
--- Begin an action (the unit of undo); its journal line carries the
--- order and, when given, the side that gave it.
---@param name string
---@param order_json? string
---@param side? string
---@return integer number
function State:action_begin(name, order_json, side) end
--- Freeze the state (true; it nests) or thaw it once (false): while it is
--- frozen every change and every new action raises "the state is frozen".
---@param frozen boolean
function State:set_frozen(frozen) end
---@return boolean
function State:is_frozen() end
function State:action_end() end
---@param n? integer
function State:undo(n) end
---@param n? integer
function State:redo(n) end
---@return integer
function State:count_actions() end
---@return integer
function State:count_redos() end
---@return integer
function State:action_number() end
--- A loaded state's numbering goes on from n (no actions, redo or transaction yet).
---@param n integer
function State:set_action_number(n) end
---@return integer
function State:hash() end
---@return string
function State:hash_hex() end
---@return integer
function State:hash_full() end
---@return string
function State:journal() end
---@return integer
function State:journal_size() end
---@param on boolean
function State:journal_enable(on) end
---@param line string
function State:journal_append(line) end
function State:journal_clear() end
--- Lines and bytes of the whole journal (written to its file or held).
---@return integer lines, integer bytes
function State:journal_count() end
--- The text of the lines after the first `line` (only they are copied), and the number of lines.
---@param line integer
---@return string text, integer lines
function State:journal_since(line) end
--- The whole journal written to path atomically (keel.file.write), without a copy in Lua.
---@param path string
---@return true|nil ok, string? reason
function State:journal_write(path) end
--- Stream the journal to path (made afresh): what it has and every line after it; nil stops.
---@param path string|nil
---@return true|nil ok, string? reason
function State:journal_stream(path) end
--- Write what is held (all, or once it passes 1 MiB); nothing while a transaction is open.
---@param all boolean
---@return true|nil ok, string? reason
function State:journal_flush(all) end
--- Write the rest of a streamed journal and close its file.
---@return true|nil ok, string? reason
function State:journal_close() end
---@return boolean
function State:is_journal_streamed() end
--- Lines from `line` on stay held once written (a reader yet to read them); nil: none.
---@param line integer|nil
function State:journal_keep(line) end
--- At most n actions stay undoable (1000 by default); older ones are dropped.
---@param n integer
function State:set_undo_depth(n) end
---@return integer
function State:get_undo_depth() end
---@return integer total, integer units
function State:memory() end
---@param meta? string[][]
---@return string
function State:save_text(meta) end
---@param path string
---@param meta? string[][]
---@return true|nil ok, string? reason
function State:save(path, meta) end
function State:close() end

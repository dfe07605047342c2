---@meta keel.rules
-- LuaLS definitions for rule authors: the globals of rule files, manifests,
-- variants and scenarios (scripts/keel/registry.lua, variant.lua,
-- scenario.lua), the ctx a rule's functions get, and the modules of the
-- rules runtime (keel.registry, keel.orders, keel.rules).

-- ---- what a rule's functions get ----------------------------------------------

---@class keel.RuleView
---@field id string? the rulebook id ("27.A.3"); nil for family plumbing
---@field title string
---@field values table the rule's values, as variants left them (read-only)
---@field file string
---@field line integer

---@class keel.Ctx
---@field game keel.GameFacade the game's state (no files, journal or undo)
---@field rule keel.RuleView this rule
local Ctx = {}
--- Roll the kernel's dice; journaled with this rule's id. Returns the
--- total, then each die's face: `local total, a, b = ctx:roll("2d6")`.
---@param expr string "2d6", "1d6+1"
---@param opts? {reason?: string, stream?: string}
---@return integer total
---@return integer ... faces, one per die
function Ctx:roll(expr, opts) end
--- Roll on a table: the result of the row (read-only). The roll is
--- journaled; the resolution record goes to the narration.
---@param name string
---@param modifiers? table modifier name -> true/false/count
---@param opts? {reason?: string, stream?: string, modifier?: integer}
---@return any result
function Ctx:resolve(name, modifiers, opts) end
--- A random pick among items, with the kernel's dice (keel.pick): 1dN over
--- the items left for each draw, journaled with this rule's id.
---@param items any[]
---@param opts? {count?: integer, reason?: string, stream?: string}
---@return any item the item picked, or the list of `count` items when count is given
function Ctx:pick(items, opts) end
--- A table of the rule set (read-only).
---@param name string
---@return table
function Ctx:table(name) end
--- Send an event to the rules that hook it.
---@param event string
---@param data? table
function Ctx:emit(event, data) end
--- Ask the rule that answers a query.
---@param name string
---@return any ...
function Ctx:query(name, ...) end
--- A value of this rule (a table as a read-only view, as ctx.rule.values shows it).
---@param key string
---@return any
function Ctx:get_value(key) end
--- A line of narration attributed to this rule.
---@param fmt string
function Ctx:say(fmt, ...) end
--- Open a decision window for a side (keel.sequence): only `actions`, and end_phase
--- to close it, are that side's until it closes. Returns its depth.
---@param opts {side: string, actions: string[], title?: string}
---@return integer
function Ctx:open_window(opts) end
--- Close the innermost decision window; false when none is open.
---@return boolean
function Ctx:close_window() end
--- A table the rule set keeps for this game while its state is unchanged
--- (emptied when the state's version moves): what a rule works out from
--- the state alone, kept under a key for the next domain or check. Every
--- rule naming the same cache shares it; a family names its caches after
--- itself ("navgroup.reach").
---@param name string
---@return table
function Ctx:cache(name) end
--- ctx:query(name, a, b)'s answer for the state as it is, asked once while
--- the state is unchanged (ctx:cache): for what a listing of the legal
--- actions asks of every candidate order. Queries of at most two arguments
--- whose answer is a value, or a table no caller changes.
---@param name string
---@param a? any
---@param b? any
---@return any
function Ctx:known(name, a, b) end
--- How narration names a hex (the board's name: "19A:3406", a place), a
--- unit or a group (its name) or a sea zone (its name, by its index in
--- board:zones()).
---@param kind "hex"|"unit"|"group"|"zone"
---@param v integer
---@return string
function Ctx:label(kind, v) end
--- Where the game is in its sequence of play (RuleSet:status).
---@return table
function Ctx:status() end
--- A movement profile from one column of a keyed table (read-only).
---@param table string
---@param column string
---@param rows table {enter=, cross=, river=, water_route=}
---@return table profile
function Ctx:profile(table, column, rows) end
--- Reach set of a group {profile=, friendly=, conditions=, ...} (or a profile).
---@return userdata|nil reach
---@return string|nil reason
function Ctx:reach(group, start, budget, opts) end
--- Cheapest legal path: path, cost | nil, reason.
function Ctx:path(group, from, to, budget, opts) end
--- One move as the search prices it: cost, coast | nil, reason.
function Ctx:step_cost(group, from, to, coast) end
--- A mover for step-by-step execution (doc/movement.md); callbacks get (mover, ev).
function Ctx:mover(group, callbacks, opts) end
--- The river graph of the board for a profile (32.A.6): has, nodes, cost, reach, path.
function Ctx:river_graph(profile) end
--- The zones within `budget` moves of zone `from` over the board's zone
--- graph (zones adjacent when two of their hexes are): {zone name = moves}
--- | nil, reason. opts.blocked: zone names never entered; opts.stop: zone
--- names entered but not left (the start is always left).
---@param from string
---@param budget integer
---@param opts? {blocked?: string[], stop?: string[]}
---@return table<string, integer>|nil
---@return string|nil reason
function Ctx:zone_reach(from, budget, opts) end
--- Water routes counted in sea boxes on the game's board (keel.boxroute,
--- doc/api/boxroute.md): path, trace, reach, adjacent, neighbors.
---@param enter? table<string, boolean> terrains ships may enter (default all-sea, coastal)
---@return table
function Ctx:boxroute(enter) end

---@class keel.GameFacade
---@field board? table read-only board queries (get_terrain, get_features, get_port, hex, format, ...)
local GameFacade = {}
---@return table snapshot
function GameFacade:get_unit(id) end
---@param filter? keel.UnitFilter|fun(g: keel.GameFacade, id: integer): boolean a table: answered by the kernel's index
---@return integer[]
function GameFacade:units(filter) end
---@param filter? keel.UnitFilter the groups holding a unit it matches (at a hex, of a side ...)
---@return integer[]
function GameFacade:groups(filter) end
function GameFacade:get(id, field) end
function GameFacade:set(id, field, v) end
function GameFacade:get_value(id, key) end
function GameFacade:set_value(id, key, v) end
function GameFacade:get_marker(id, key) end
function GameFacade:set_marker(id, key, n) end
function GameFacade:add_marker(id, key, n) end
function GameFacade:remove_marker(id, key, n) end
function GameFacade:move(id, kind, where) end
function GameFacade:add_hits(id, n) end
function GameFacade:flip(id, face) end
function GameFacade:reduce_points(id, n) end
function GameFacade:eliminate(id) end
function GameFacade:unit_new(spec) end
function GameFacade:group_new(spec) end
function GameFacade:group_add(g, u, pos) end
function GameFacade:group_remove(g, u) end
---@param in_play? boolean only the units that are not dead
---@return integer[]
function GameFacade:group_units(g, in_play) end
---@return string name the group's name
function GameFacade:group_get_name(g) end
function GameFacade:group_get_value(g, k) end
function GameFacade:group_set_value(g, k, v) end
function GameFacade:embark(cargo, carrier) end
function GameFacade:get_turn() end
function GameFacade:get_phase() end
function GameFacade:get_segment() end
function GameFacade:get_step() end
function GameFacade:get_global(k) end
function GameFacade:set_global(k, v) end
---Keyed values: structured rule data (doc/guide.md "Game data rules share").
---@param map string
---@param key keel.Key
---@return keel.Value
function GameFacade:get_keyed(map, key) end
---@param map string
---@param key keel.Key
---@param v keel.Value nil removes the key
function GameFacade:set_keyed(map, key, v) end
---@param map string
---@return integer
function GameFacade:count_keyed(map) end
---@param map string
---@param i integer 1-based, in key order
---@return (integer|string)[] key, keel.Value value
function GameFacade:at_keyed(map, i) end
function GameFacade:get_owner(hex) end
--- Changes with every change to the state and never comes back: what a
--- rule worked out from the state holds while it stands.
---@return integer
function GameFacade:get_version() end
function GameFacade:set_owner(hex, side) end
---@return integer total
---@return integer ... faces, one per die
function GameFacade:roll(expr, opts) end

-- ---- rule files ----------------------------------------------------------------

---@alias keel.Handler fun(ctx: keel.Ctx, ev: table)|{[1]: fun(ctx: keel.Ctx, ev: table), priority: integer}

---@class keel.ParamSpec
---@field type string "unit"|"group"|"hex"|"integer"|"number"|"string"|"boolean"|"table"|"any"|"units"|"side" (add "?" if optional)
---@field optional? boolean
---@field title? string
---@field domain? fun(ctx: keel.Ctx, p: table, side: string?): (any[]|nil), string? the values the rules can enumerate (values or {value=, cost=, ...}), and why there is none
---@field depends? string[] the parameters (with domains) whose values the domain reads in `p`
---@field max? integer a list parameter ("units"): the most elements of a set keel.legal offers

---@class keel.ActionSpec
---@field params? table<string, string|keel.ParamSpec> name -> a type ("hex?") or a declaration with a domain
---@field legal? fun(ctx: keel.Ctx, p: table): (string|boolean|nil), string? nil when legal, else the reason
---@field effect fun(ctx: keel.Ctx, p: table): any
---@field side? string who may take it (keel.sequence): "phasing" (the default), "other", "any", "scenario" or a side's name
---@field phases? string[] the phases or steps it is taken in (none: any)

---@class keel.RuleSpec
---@field id? string the rulebook id; none for family plumbing (actions, queries and handlers that are no rule of the rulebook)
---@field title string
---@field priority? integer handlers run by priority (higher first), then load order
---@field values? table
---@field on? table<string, keel.Handler>
---@field actions? table<string, keel.ActionSpec>
---@field vetoes? table<string, fun(ctx: keel.Ctx, p: table): string?>
---@field queries? table<string, fun(ctx: keel.Ctx, ...): any>
---@field notes? string
---@field standin? string|table the chapter the rule stands in for, or { part = chapter } for parts of it

--- Define a rule (in a rule file), or without an id the family's plumbing.
---@param spec keel.RuleSpec
---@return string? id
function rule(spec) end

---@class keel.FamilySpec
---@field name string the folder's name
---@field rulebook? string
---@field description? string
---@field depends? string[]
---@field files string[] rule files, in load order
---@field tables? string[] files in tables/
---@field events? string[] events of the family's own
---@field sequence? keel.SequenceSpec the sequence of play its chapter implies (keel.sequence)

---@class keel.PhaseSpec
---@field name string
---@field title? string
---@field cite? string
---@field start? string the event sent as it starts
---@field end? string the event sent as it ends
---@field active? "phasing"|"other" whose decisions it holds (default the phasing side's)
---@field data? table plain values added to its events' data
---@field steps? keel.PhaseSpec[] a phase's steps (a step has none)

---@class keel.SequenceSpec
---@field cite? string where it comes from, or what it stands in for
---@field sides? (string|{side: string, power?: string})[] the player-turns of a game turn, in order
---@field turn? {start?: string, end?: string} the game turn's events
---@field player_turn? {start?: string, end?: string} each player-turn's events
---@field phases? keel.PhaseSpec[]

--- Describe a rule family (in manifest.lua).
---@param spec keel.FamilySpec
---@return keel.FamilySpec
function family(spec) end

-- ---- variants --------------------------------------------------------------------

--- Begin a variant file: its name, the family it changes, and the rules an
--- earlier variant changed that it means to change again.
---@param spec {name: string, base: string, overrides?: string[], description?: string}
function variant(spec) end
---@param id string
---@param values table
function set_values(id, values) end
---@param id string
---@param reason? string
function disable(id, reason) end
---@param id string
---@param spec {on?: table<string, fun(orig: function, ctx: keel.Ctx, ...)>, actions?: table, vetoes?: table, queries?: table}
function wrap(id, spec) end
---@param id string
---@param spec keel.RuleSpec
function replace(id, spec) end
---@param spec keel.RuleSpec
function add(spec) end
--- Change one row of a table: its label ("4-6", or a row name) and one cell per column.
---@param table_name string
---@param row string
---@param ... string
function set_row(table_name, row, ...) end

-- ---- scenarios ------------------------------------------------------------------

---@class keel.ForceSpec
---@field name string
---@field type? string
---@field side? string
---@field values? table
---@field markers? table
---@field face? string
---@field hits? integer
---@field points? integer
---@field at? string|integer a hex label of the map, or a hex
---@field port? boolean the unit starts in port at `at`
---@field group? string
---@field aboard? string the unit starts as cargo of the force of that name (listed before it)

---@class keel.ScenarioSpec
---@field name string
---@field description? string
---@field map? string
---@field rules string[]
---@field path? string[]
---@field variants? string[]
---@field seed? integer
---@field flags? table starting globals
---@field keyed? table[] starting keyed values: { {map, key, value}, ... }
---@field forces? keel.ForceSpec[]
---@field groups? table<string, table> group values by group name, set after the forces
---@field orders? table[] a recorded play: { "action", by = "Side", params... }, { check = ... }, { event = ... } (tests only)
---@field sequence? keel.SequenceSpec over the families' (sides at least: the game then plays its sequence)
---@field turns? integer the game's length
---@field scores? table<string, table> side -> a term or terms summed: {keyed = {map, key}} | {global = name} | {owns = {hexes}, points = n} | {query = name}
---@field victory? table[] conditions, the first met decides: { when =, score|keyed|global|owns|eliminated|higher_score|query =, at_least =, at_most =, equals =, side =, winner =, title = }

--- A scenario: a scenario file returns what this makes (keel run and keel
--- replay refuse a file that returns anything else).
---@param spec keel.ScenarioSpec
---@return keel.ScenarioSpec
function scenario(spec) end

-- ---- the module ---------------------------------------------------------------------

---@class keel.registrylib
---@field events string[] the kernel's events
---@field path string[] where families are looked for, after a set's own path
local registrylib = {}
--- Where the caller of a definition function is.
---@param level integer
---@return {file: string, line: integer}
function registrylib.caller(level) end
--- How messages name a rule: "rule 27.A.3", or its family's name for plumbing.
---@param r table a rule of a set
---@return string
function registrylib.who(r) end

---@class keel.orderslib
---@field EMIT string "emit"
---@field param_types string[]
local orderslib = {}
--- A parameter's declaration from its type text or table; nil and why when it is neither.
---@param decl string|keel.ParamSpec
---@return {type: string, optional: boolean, domain?: function, depends: string[], title?: string}|nil
---@return string? why
function orderslib.parse_param(decl) end
--- nil when every `depends` names a parameter with a domain and there is no cycle, else why.
---@param params table name -> parsed declaration
---@return string|nil
function orderslib.check_depends(params) end
--- The parameter names in the order their domains are asked.
---@param params table name -> parsed declaration
---@param names? string[] the parameters' names, sorted (keel.keys.sorted), when the caller has them
---@return string[]
function orderslib.param_order(params, names) end
---@param set keel.RuleSet
---@param game keel.Game
---@param name string
---@param params table
---@return string|nil reason
function orderslib.check_params(set, game, name, params) end
---@param set keel.RuleSet
---@param game keel.Game
---@param name string
---@param pname string
---@param p table
---@param v any
---@return string|nil reason
function orderslib.check_param(set, game, name, pname, p, v) end
---@param set keel.RuleSet
---@param game keel.Game
---@param name string
---@param args? table
function orderslib.play(set, game, name, args) end

---@class keel.ruleslib
---@field game_methods string[]
---@field board_methods string[]
local ruleslib = {}
---@param opts {families: string[], variants?: string[], path?: string[], narrate?: fun(kind: string, data: table), blame?: fun(kind: string, i: integer, err: any)}
---@return keel.RuleSet
function ruleslib.load(opts) end
---@param opts? {path?: string[], narrate?: fun(kind: string, data: table)}
---@return keel.RuleSet
function ruleslib.new(opts) end
---The C half (kernel/l_rules.c, `require("keel").rules`): a ctx's query
---(its fast path: a query between rules that no script can catch the error
---of; every other case goes to `general`). Upvalue 1 (the ctx) is set once
---the ctx is made (debug.setupvalue).
---@param ctx table|false
---@param queries table name -> { rule, fn, ctx, rec }, the game's queries resolved (their frames)
---@param running table the frames of the set's rules running
---@param rec table this ctx's game record
---@param catching table keel.sandbox.catching
---@param general function ctx:query's general path (Lua)
---@param rs table the set's rule stack counters { pushed, frame of the last rule }
---@return fun(ctx: table, name: string, ...): ...
function ruleslib.new_query(ctx, queries, running, rec, catching, general, rs) end

---@class keel.RuleSet
---@field families table
---@field rules table
---@field plumbing table[] the rules without an id (family plumbing), in load order
---@field variants table[]
---@field conflicts table[]
local RuleSet = {}
function RuleSet:load_family(name) end
function RuleSet:apply_variant(path) end
function RuleSet:finalize() end
---@return true|nil ok
---@return any reason_or_result
---@return string? kind
---@return {rule: string?, family: string?, reason: string}? by who refused (illegal, vetoed)
--- `side`: the side that gives the order (a game playing its sequence refuses
--- an order from a side that may not take it now: kind "side", "phase" or "over").
---@param game keel.Game
---@param name string
---@param params? table
---@param side? string
function RuleSet:act(game, name, params, side) end
--- Where the game is in its sequence of play: turn, phase, step, phasing, power,
--- active (the sides to decide now), window, over, result (keel.sequence).
---@param game keel.Game
---@return table
function RuleSet:status(game) end
--- May `side` take action `name` now? nil, or the reason and its kind ("side", "phase", "over").
---@param game keel.Game
---@param name string
---@param side? string
---@return string|nil reason
---@return string? kind
function RuleSet:may(game, name, side) end
---@return string|nil reason
---@return string? kind
---@return {rule: string?, family: string?, reason: string}? by who refused (illegal, vetoed)
function RuleSet:check(game, name, params) end
--- Every action for `side` with its parameters' candidates (values, sets of a list, left out),
--- each candidate order checked, bounded by keel.legal.MAX_CHECKS (keel.legal).
---@param game keel.Game
---@param side? string
---@return table[]
function RuleSet:legal_actions(game, side) end
--- What `side` may see: units, groups, status lines (keel.visibility).
---@param game keel.Game
---@param side string
---@return {side: string, units: table[], groups: table[], status: table[]}
function RuleSet:view_for(game, side) end
function RuleSet:emit(game, event, data) end
function RuleSet:query(game, name, ...) end
--- Play an order again (keel replay): no legality check, no vetoes.
---@param game keel.Game
---@param name string
---@param args? table
function RuleSet:play(game, name, args) end
function RuleSet:rule(id) end
---@return string[]
function RuleSet:ids(all) end
--- The set's table of that name (a `rows from` table linked to the set's rows table), or nil.
---@param name string
---@return keel.Table|nil
function RuleSet:table(name) end
function RuleSet:declare_files(game) end

-- tests/lua/rules_test.lua — rule families, events, actions, vetoes,
-- queries, errors (scripts/keel/rules.lua) and house-rule variants
-- (scripts/keel/variant.lua), on the toy Rule 27 family in tests/families.
local t = require "keel.testing"
local rules = require "keel.rules"
local game_mod = require "keel.game"
local sandbox = require "keel.sandbox"
local errors = require "keel.errors"
local keel_hex = require("keel").hex

local FAM = "tests/families"
local V = FAM .. "/variants/"

local function load(variants, extra)
  local opts = { families = { "toy27" }, path = { FAM }, variants = variants }
  for k, v in pairs(extra or {}) do opts[k] = v end
  return rules.load(opts)
end

-- a small fleet: returns game, ids
local function fleet(seed)
  local g = game_mod.new { seed = seed or 1 }
  local ids = {
    bb = g:unit_new { name = "Warspite", type = "BB", side = "Allied", values = { strength = 5 } },
    cl = g:unit_new { name = "CL Pair", type = "CL", side = "Allied", values = { strength = 2 } },
    nt = g:unit_new { name = "NT1", type = "NT", side = "Allied", values = { strength = 1 } },
    ge = g:unit_new { name = "Tirpitz", type = "BB", side = "German", values = { strength = 6 } },
  }
  ids.convoy = g:group_new { name = "convoy", units = { ids.bb, ids.cl, ids.nt } }
  return g, ids
end

-- a family written on the fly, in a temporary folder
local function temp_family(name, manifest, files)
  local dir = os.tmpname()
  os.remove(dir)
  os.execute("mkdir -p " .. dir .. "/" .. name)
  local function write(rel, text)
    local f = assert(io.open(dir .. "/" .. name .. "/" .. rel, "w"))
    f:write(text)
    f:close()
  end
  write("manifest.lua", manifest)
  for rel, text in pairs(files) do write(rel, text) end
  return dir
end

-- ---- families ----------------------------------------------------------------

t.test("rules-1: a family loads with its rules in file order, each with file and line", function()
  local set = load()
  t.eq(set:ids(), { "27.A", "27.A.1", "27.A.2", "27.A.3", "27.A.3.b", "27.C.2", "27.C.4",
                    "US.1", "CT.1", "EF.1" })
  local r = set:rule("27.A.3")
  t.eq(r.title, "Damage")
  t.eq(r.file, FAM .. "/toy27/damage.lua")
  t.eq(r.line, 5)
  t.eq(set.families.toy27.rulebook:match("^Rule 27"), "Rule 27")
  t.ok(set:table("bombing_hits"), "the family's table loaded with it")
end)

t.test("rules-2: unknown families, bad manifests and typos say where", function()
  t.raises(function() rules.load { families = { "nope" }, path = { FAM } } end, "no rule family 'nope'")
  local dir = temp_family("bad", [[return family { name = "bad", files = { "r.lua" }, depend = {} }]], {})
  t.raises(function() rules.load { families = { "bad" }, path = { dir } } end, "unknown field depend")
  dir = temp_family("typo", [[return family { name = "typo", files = { "r.lua" } }]], {
    ["r.lua"] = "rule { id = '1.A', title = 'x', on = { unit_hti = function() end } }\n" })
  t.raises(function() rules.load { families = { "typo" }, path = { dir } } end, "unknown event 'unit_hti'")
  dir = temp_family("twice", [[return family { name = "twice", files = { "r.lua" } }]], {
    ["r.lua"] = "rule { id = '1.A', title = 'x' }\nrule { id = '1.A', title = 'y' }\n" })
  t.raises(function() rules.load { families = { "twice" }, path = { dir } } end, "r.lua:2: rule 1.A: defined twice (first at ")
  dir = temp_family("esc", [[return family { name = "esc", files = { "r.lua" } }]], {
    ["r.lua"] = "local f = io.open('/etc/passwd')\n" })
  t.raises(function() rules.load { families = { "esc" }, path = { dir } } end, "esc/r.lua:1: io is not available")
end)

t.test("rules-3: a family's dependencies load first, once", function()
  local root = temp_family("base", [[return family { name = "base", files = { "a.lua" } }]],
    { ["a.lua"] = "rule { id = 'B.1', title = 'base rule' }\n" })
  os.execute("mkdir -p " .. root .. "/top")
  local f = assert(io.open(root .. "/top/manifest.lua", "w"))
  f:write([[return family { name = "top", depends = { "base" }, files = { "t.lua" } }]])
  f:close()
  f = assert(io.open(root .. "/top/t.lua", "w"))
  f:write("rule { id = 'T.1', title = 'top rule' }\n")
  f:close()
  local set = rules.load { families = { "top", "base" }, path = { root } }
  t.eq(set:ids(), { "B.1", "T.1" })
  t.eq(set.family_order, { "base", "top" })
end)

-- ---- events --------------------------------------------------------------------

t.test("rules-4: events dispatch by priority, then load order", function()
  local dir = temp_family("order", [[return family { name = "order", files = { "r.lua" } }]], {
    ["r.lua"] = [[
      rule { id = "O.1", title = "first loaded", on = { turn_start = function(ctx) ctx:say("O.1") end } }
      rule { id = "O.2", title = "urgent", priority = 10, on = { turn_start = function(ctx) ctx:say("O.2") end } }
      rule { id = "O.3", title = "late", on = { turn_start = { function(ctx) ctx:say("O.3") end, priority = -5 } } }
      rule { id = "O.4", title = "second loaded", on = { turn_start = function(ctx) ctx:say("O.4") end } }
    ]] })
  local said = {}
  local set = rules.load { families = { "order" }, path = { dir },
    narrate = function(kind, d) if kind == "say" then said[#said + 1] = d.text end end }
  set:emit(game_mod.new {}, "turn_start")
  t.eq(said, { "O.2", "O.1", "O.4", "O.3" })
end)

t.test("27.A.3-1: a hit event flows through queries and emits; changes carry the rule id", function()
  local set = load()
  local g, u = fleet()
  -- an NT is sunk by any hit
  local ok = set:act(g, "bomb", { group = u.convoy })
  t.ok(ok)
  local lines = table.concat(g:journal_lines(), "\n")
  t.ok(lines:find('"rule":"27.A.3.b"', 1, true), "the bombing rule rolled")
  t.ok(lines:find('"ev":"action","action":1,"name":"bomb","rule":"27.A.3.b"', 1, true))
end)

t.test("27.A.3-2: a 5-pt BB with 2 hits takes 3 more and sinks", function()
  local set = load()
  local g, u = fleet()
  g:add_hits(u.bb, 2)
  local sunk = {}
  local set2 = rules.load { families = { "toy27" }, path = { FAM },
    narrate = function(kind, d) if kind == "fire" and d.event == "unit_sunk" then sunk[#sunk + 1] = d end end }
  set2:emit(g, "unit_hit", { unit = u.bb, hits = 3 })
  t.eq(g:get(u.bb, "loc"), "dead")
  -- and the CL pair flips at half
  set:emit(g, "unit_hit", { unit = u.cl, hits = 1 })
  t.eq(g:get(u.cl, "face"), "half")
end)

-- ---- actions ------------------------------------------------------------------------

t.test("rules-5: an action checks parameters, legality, then runs as an undoable action", function()
  local set = load()
  local g, u = fleet()
  t.eq({ set:act(g, "move", { unit = u.bb }) }, { nil, "action 'move' needs parameter 'boxes'", "params" })
  t.eq(select(3, set:act(g, "move", { unit = u.bb, to = "x", boxes = 1 })), "params")
  t.eq(select(3, set:act(g, "move", { unit = u.bb, to = 5, boxes = 1, fly = true })), "params")
  t.eq(select(3, set:act(g, "fly", {})), "unknown")
  local ok, reason, kind = set:act(g, "move", { unit = u.bb, to = 5, boxes = 12 })
  t.eq(ok, nil)
  t.eq(kind, "illegal")
  t.ok(reason:find("rule 27.C.2", 1, true) and reason:find("BB moves 9 sea boxes", 1, true), reason)
  local before = g:hash()
  t.ok(set:act(g, "move", { unit = u.bb, to = 5, boxes = 9 }))
  t.eq(g:get(u.bb, "loc"), "hex")
  g:undo(1)
  t.eq(g:hash(), before)
end)

t.test("rules-6: a rule vetoes an action with a reason", function()
  local set = load()
  local g, u = fleet()
  set:rule("27.A.2").values.limit = 1   -- a stacking limit of one ship (a test setting)
  t.ok(set:act(g, "move", { unit = u.bb, to = 7, boxes = 1 }))
  local ok, reason, kind = set:act(g, "move", { unit = u.cl, to = 7, boxes = 1 })
  t.eq(ok, nil)
  t.eq(kind, "vetoed")
  t.eq(reason, "move vetoed by rule 27.A.2 (Stacking): at most 1 naval units may stack in a hex")
  t.eq(set:check(g, "move", { unit = u.cl, to = 8, boxes = 1 }), nil)
end)

t.test("rules-7: an error in a rule rolls the action back and names file, line and rule", function()
  local dir = temp_family("boom", [[return family { name = "boom", files = { "r.lua" } }]], {
    ["r.lua"] = [[
      local function deep(x) return x.missing.field end
      rule { id = "9.Z", title = "Explodes", actions = { boom = { params = { unit = "unit" },
        effect = function(ctx, p)
          ctx.game:add_hits(p.unit, 2)
          deep({})
        end } } }
    ]] })
  local set = rules.load { families = { "boom" }, path = { dir } }
  local g, u = fleet()
  local before = g:hash()
  local ok, err, kind = set:act(g, "boom", { unit = u.bb })
  t.eq(ok, nil)
  t.eq(kind, "error")
  t.eq(g:hash(), before)
  t.eq(g:get(u.bb, "hits"), 0)
  local msg = errors.format(err)
  t.ok(msg:find("boom/r.lua:1: rule 9.Z: attempt to index a nil value (field 'missing')", 1, true), msg)
  t.ok(msg:find("script traceback:", 1, true), msg)
  t.ok(msg:find("r.lua:5: in", 1, true), msg)
  t.ok(not msg:find("scripts/keel/", 1, true), "the traceback shows script files only: " .. msg)
end)

t.test("rules-8: a runaway rule is stopped by the CPU limit and rolled back", function()
  local dir = temp_family("spin", [[return family { name = "spin", files = { "r.lua" } }]], {
    ["r.lua"] = [[
      rule { id = "9.S", title = "Spins", actions = { spin = { params = { unit = "unit" },
        effect = function(ctx, p)
          ctx.game:add_hits(p.unit, 1)
          while true do pcall(function() while true do end end) end
        end } } }
    ]] })
  local set = rules.load { families = { "spin" }, path = { dir } }
  local g, u = fleet()
  local before = g:hash()
  local old = sandbox.limits { cpu = 0.05 }
  local ok, err, kind = set:act(g, "spin", { unit = u.bb })
  sandbox.limits { cpu = old.cpu }
  t.eq(ok, nil)
  t.eq(kind, "cpu")
  local msg = errors.format(err)
  t.ok(msg:find("rule 9.S: CPU limit exceeded", 1, true), msg)
  t.eq(g:hash(), before)
  -- and the game goes on
  t.eq(g:get(u.bb, "hits"), 0)
end)

t.test("rules-9: rules see the game through a facade, never the game object", function()
  local dir = temp_family("peek", [[return family { name = "peek", files = { "r.lua" } }]], {
    ["r.lua"] = [[
      rule { id = "P.1", title = "Peeks", values = { n = 1 }, queries = {
        save = function(ctx) return ctx.game.save end,
        state = function(ctx) return ctx.game.state end,
        set = function(ctx) ctx.game.units = nil end,
        rawctx = function(ctx) ctx.x = 1 end,
        rawset_ctx = function(ctx) rawset(ctx, "x", 1) end,
        rule_key = function(ctx) ctx.rule.x = 1 end,
        rule_values = function(ctx) ctx.rule.values.x = 1 end,
        late = function() rule { id = "P.2", title = "sneaked in" } end,
        filter = function(ctx)
          local seen
          ctx.game:units(function(g) seen = g; return true end)
          return seen.save, seen.state, type(seen.get_unit)
        end,
      } }
      -- a ctx is its rule's own (one per rule and game): a rule that sets
      -- ctx.game again breaks only its own
      rule { id = "P.3", title = "Breaks its own ctx", queries = {
        own = function(ctx) ctx.game = nil; return ctx.game end,
      } }
      rule { id = "P.4", title = "Looks after P.3", queries = {
        other = function(ctx) return type(ctx.game.get_unit) end,
      } }
    ]] })
  local set = rules.load { families = { "peek" }, path = { dir } }
  local g = fleet()
  t.eq(set:query(g, "save"), nil)
  t.eq(set:query(g, "state"), nil)
  t.raises(function() set:query(g, "set") end, "game is read-only")
  t.raises(function() set:query(g, "rawctx") end, "ctx is read-only")
  t.raises(function() set:query(g, "rawset_ctx") end, "rawset: ctx is read-only")
  t.raises(function() set:query(g, "rule_key") end, "ctx.rule is read-only")
  t.raises(function() set:query(g, "rule_values") end, "ctx.rule.values is read-only")
  t.eq(set:query(g, "own"), nil)
  t.eq(set:query(g, "other"), "function")
  t.raises(function() set:query(g, "late") end, "rule{...} may only be called while its file loads")
  t.eq({ set:query(g, "filter") }, { nil, nil, "function" })   -- a filter gets the facade too
end)

t.test("rules-9b: one set plays game after game, interleaved or nested: each rule sees its own game", function()
  local dir = temp_family("who", [[return family { name = "who", files = { "r.lua" } }]], {
    ["r.lua"] = [[
      rule { id = "W.1", title = "Names", queries = {
        -- a query asking another: both see the game asked about
        name_of = function(ctx, u) return ctx.game:get(u, "name") end,
        first_name = function(ctx) return ctx:query("name_of", 1) end,
      },
      actions = {
        rename = { params = { to = "string" }, effect = function(ctx, p)
          ctx:say("renaming %s", ctx:query("first_name"))
          ctx.game:set(1, "name", p.to)
          return ctx:query("first_name")
        end },
      } }
    ]] })
  local other
  local set = rules.load { families = { "who" }, path = { dir },
    -- a host's narrate that asks about another game before a rule runs
    -- (the action) and while one runs (what it says)
    narrate = function(kind) if (kind == "action" or kind == "say") and other then
      other.seen[#other.seen + 1] = other.set:query(other.game, "first_name")
    end end }
  local a, b = fleet(1), fleet(2)
  b:set(1, "name", "Valiant")
  t.eq(set:query(a, "first_name"), "Warspite")
  t.eq(set:query(b, "first_name"), "Valiant")
  t.eq(select(2, set:act(a, "rename", { to = "Barham" })), "Barham")
  t.eq(set:query(b, "first_name"), "Valiant")
  t.eq(set:query(a, "first_name"), "Barham")
  other = { set = set, game = b, seen = {} }
  t.eq(select(2, set:act(a, "rename", { to = "Malaya" })), "Malaya")
  t.eq(other.seen, { "Valiant", "Valiant" })
  t.eq({ set:query(a, "first_name"), set:query(b, "first_name") }, { "Malaya", "Valiant" })
  t.eq(a:get(1, "name"), "Malaya")
  t.eq(b:get(1, "name"), "Valiant")
end)

t.test("rules-9d: ctx:cache keeps a table per game while its state is unchanged, shared by the rules", function()
  local dir = temp_family("cached", [[return family { name = "cached", files = { "r.lua" } }]], {
    ["r.lua"] = [[
      rule { id = "C.1", title = "Counts", queries = {
        -- how often the name was worked out, and the name
        name = function(ctx)
          local c = ctx:cache("cached.names")
          if c.name == nil then c.name = ctx.game:get(1, "name"); c.made = (c.made or 0) + 1 end
          return c.name, c.made
        end,
        same = function(ctx) return ctx:cache("cached.names") end,
      } }
      rule { id = "C.2", title = "Other rule", queries = {
        other = function(ctx) return ctx:cache("cached.names") end,
        bad = function(ctx) return ctx:cache(3) end,
      },
      actions = { rename = { params = { to = "string" }, effect = function(ctx, p) ctx.game:set(1, "name", p.to) end } } }
    ]] })
  local set = rules.load { families = { "cached" }, path = { dir } }
  local a, b = fleet(1), fleet(2)
  b:set(1, "name", "Valiant")
  t.eq({ set:query(a, "name") }, { "Warspite", 1 })
  t.eq({ set:query(a, "name") }, { "Warspite", 1 }, "kept: worked out once")
  t.ok(set:query(a, "same") == set:query(a, "other"), "every rule naming the cache shares its table")
  t.eq({ set:query(b, "name") }, { "Valiant", 1 }, "another game: its own")
  t.eq({ set:query(a, "name") }, { "Warspite", 1 }, "and back: worked out again for a")
  t.ok(set:act(a, "rename", { to = "Barham" }))
  t.eq({ set:query(a, "name") }, { "Barham", 1 }, "the state changed: emptied")
  a:undo(1)
  t.eq({ set:query(a, "name") }, { "Warspite", 1 }, "undone: emptied too (versions never go back)")
  t.raises(function() set:query(a, "bad") end, "rule C.2: ctx:cache(name): a name (string) expected")
end)

t.test("rules-9e: ctx:label names a hex, a unit, a group and a sea zone as narration does", function()
  local dir = temp_family("labels", [[return family { name = "labels", files = { "r.lua" } }]], {
    ["r.lua"] = [[rule { id = "L.1", title = "Labels", queries = {
      label = function(ctx, kind, v) return ctx:label(kind, v) end } }]] })
  local set = rules.load { families = { "labels" }, path = { dir } }
  local g, ids = fleet()
  local h = keel_hex.from_qr(3, -1)
  t.eq(set:query(g, "label", "hex", h), keel_hex.tostring(h), "no board: the hex's own name")
  t.eq(set:query(g, "label", "hex", "x"), "x")
  t.eq(set:query(g, "label", "unit", ids.bb), "Warspite")
  t.eq(set:query(g, "label", "group", ids.convoy), "convoy")
  t.eq(set:query(g, "label", "zone", 2), "area 2", "no board: the zone's index")
  t.raises(function() set:query(g, "label", "planet", 1) end, 'kind "hex", "unit", "group" or "zone" expected')
  local board = assert(require("keel.map").load("scenarios/maps/seazone.map"))
  local gb = game_mod.new { seed = 1, board = board }
  local hx = board:hexes()[1]
  t.eq(set:query(gb, "label", "hex", hx), board:format(hx))
  t.eq(set:query(gb, "label", "zone", 1), board:zones()[1])
end)

t.test("rules-9c: the facade's groups() and units() list every id, a new list each time", function()
  local dir = temp_family("ids", [[return family { name = "ids", files = { "r.lua" } }]], {
    ["r.lua"] = [[rule { id = "I.1", title = "Ids", queries = {
      ids = function(ctx) return ctx.game:units(), ctx.game:groups() end,
      changed = function(ctx) local u = ctx.game:units(); u[1] = 99; return ctx.game:units()[1] end } }]] })
  local set = rules.load { families = { "ids" }, path = { dir } }
  local g = fleet()
  t.eq({ set:query(g, "ids") }, { { 1, 2, 3, 4 }, { 1 } })
  t.eq(set:query(g, "changed"), 1)
end)

t.test("rules-12: rules keep structured data in keyed values: journaled, rolled back, undone", function()
  local dir = temp_family("zoc", [[return family { name = "zoc", files = { "r.lua" } }]], {
    ["r.lua"] = [[
      rule { id = "Z.1", title = "Zones of control",
        values = { home = { "Allied", 7 } },
        actions = {
          exert = { params = { side = "string", hex = "integer", level = "integer", fail = "boolean?" },
            effect = function(ctx, p)
              ctx.game:set_keyed("zoc", { p.side, p.hex }, p.level)
              if p.fail then error("no such ZOC") end
            end },
          home = { effect = function(ctx) ctx.game:set_keyed("zoc", ctx.rule.values.home, 1) end },
        },
        queries = {
          level = function(ctx, side, hex) return ctx.game:get_keyed("zoc", { side, hex }) or 0 end,
          all = function(ctx)
            local out = {}
            for i = 1, ctx.game:count_keyed("zoc") do
              local key, v = ctx.game:at_keyed("zoc", i)
              out[i] = key[1] .. "/" .. key[2] .. "=" .. v
            end
            return out
          end,
        } }
    ]] })
  local set = rules.load { families = { "zoc" }, path = { dir } }
  local g = fleet()
  t.ok(set:act(g, "exert", { side = "Axis", hex = 3, level = 2 }))
  t.ok(set:act(g, "exert", { side = "Allied", hex = 12, level = 1 }))
  t.eq(set:query(g, "level", "Axis", 3), 2)
  t.eq(set:query(g, "level", "Allied", 3), 0)
  t.eq(set:query(g, "all"), { "Allied/12=1", "Axis/3=2" }, "in key order")
  t.ok(g:journal_text():find('{"ev":"keyed","rule":"Z.1","map":"zoc","key":["Axis",3],"old":null,"new":2}', 1, true))
  local before = g:hash()
  local ok, _, kind = set:act(g, "exert", { side = "Axis", hex = 3, level = 3, fail = true })
  t.eq({ ok, kind }, { nil, "error" })
  t.eq(g:hash(), before, "a failed rule leaves the keyed values as they were")
  t.eq(set:query(g, "level", "Axis", 3), 2)
  t.ok(set:act(g, "home"), "a key from the rule's read-only values")
  t.eq(set:query(g, "level", "Allied", 7), 1)
  g:undo(2)
  t.eq(set:query(g, "all"), { "Axis/3=2" })
  g:redo(1)
  t.eq(set:query(g, "level", "Allied", 12), 1)
  t.eq(g:hash(), g.state:hash_full())
end)

t.test("rules-10: tables seen by rules are read-only", function()
  local dir = temp_family("tbl", [[return family { name = "tbl", depends = { "toy27" }, files = { "r.lua" } }]], {
    ["r.lua"] = [[
      rule { id = "T.9", title = "Table writer", queries = {
        write = function(ctx) ctx:table("bombing_hits").rows[1].cells[1].value = 99 end,
        read = function(ctx) return ctx:table("bombing_hits").rows[4].cells[1].value end,
      } }
    ]] })
  local set = rules.load { families = { "tbl" }, path = { dir, FAM } }
  local g = fleet()
  t.raises(function() set:query(g, "write") end, "read-only")
  t.eq(set:query(g, "read"), 3)
end)

t.test("rules-10b: a table's methods seen by rules run on the table: a bound modifier counts", function()
  local dir = temp_family("tblb", [[return family { name = "tblb", depends = { "toy27" }, files = { "r.lua" } }]], {
    ["r.lua"] = [[
      rule { id = "T.9", title = "Table reader", queries = {
        totals = function(ctx, m)
          local t = ctx:table("probe")
          return (t:modifiers_for(m)), t:sum_modifiers(m), t:row_for(7).result
        end,
        bound = function(ctx) return ctx:table("probe"):bind { night = true }:sum_modifiers {} end,
        write_row = function(ctx) ctx:table("probe"):row_for(7).result = "S" end,
      } }
    ]] })
  local set = rules.load { families = { "tblb" }, path = { dir, FAM } }
  local real = t.family_tables("navgroup").naval_search
  set.tables.probe = real:bind { stormy_seas = true }
  local g = fleet()
  local total, sum, result = set:query(g, "totals", { cargo_group = true })
  local want = real:bind { stormy_seas = true }:modifiers_for { cargo_group = true }
  t.eq(want, -2 + 2, "stormy seas -2, cargo +2")
  t.eq(total, want, "modifiers_for through ctx:table sees the bound modifier")
  t.eq(sum, want, "sum_modifiers too")
  t.eq(result, real:row_for(7).result)
  t.eq(set:query(g, "bound"), real:bind { stormy_seas = true, night = true }:sum_modifiers {})
  t.raises(function() set:query(g, "write_row") end, "read-only")
end)

t.test("rules-11: family plumbing is a rule{} without an id: no rule of the set, nothing in force", function()
  local dir = temp_family("plumb", [[return family { name = "plumb", files = { "r.lua" } }]], {
    ["r.lua"] = [[
      rule { title = "the push action", actions = { push = { params = { unit = "unit" },
        legal = function(ctx, p) if ctx.game:get(p.unit, "hits") > 0 then return "damaged" end end,
        effect = function(ctx, p) ctx.game:add_hits(p.unit, ctx:query("double", 1)) end } } }
      rule { id = "P.1", title = "Doubling", queries = { double = function(ctx, x)
        ctx.game:set_global("doubled", true)
        return 2 * x
      end } }
    ]] })
  local set = rules.load { families = { "plumb" }, path = { dir } }
  t.eq(set:ids(), { "P.1" }, "plumbing is not one of the set's rules")
  local g, u = fleet()
  t.ok(set:act(g, "push", { unit = u.bb }))
  t.eq(g:get(u.bb, "hits"), 2)
  local journal = g:journal_text()
  t.ok(journal:find('"name":"push","rule":null', 1, true), journal)
  t.ok(journal:find('"ev":"global","rule":"P.1","key":"doubled"', 1, true), "a rule it asks is in force: " .. journal)
  t.ok(journal:find('"ev":"set","rule":null,"unit":' .. u.bb .. ',"field":"hits"', 1, true), journal)
  local ok, why = set:act(g, "push", { unit = u.bb })
  t.eq(ok, nil)
  t.eq(why, "illegal push (plumb the push action): damaged")
  dir = temp_family("plumb2", [[return family { name = "plumb2", files = { "r.lua" } }]], {
    ["r.lua"] = "rule { title = 'a', actions = { go = { effect = function() end } } }\n" ..
                "rule { title = 'b', actions = { go = { effect = function() end } } }\n" })
  t.raises(function() rules.load { families = { "plumb2" }, path = { dir } } end,
    "plumb2 (" .. dir .. "/plumb2/r.lua:2) defines action 'go', which plumb2 already defines")
  dir = temp_family("plumb3", [[return family { name = "plumb3", files = { "r.lua" } }]], {
    ["r.lua"] = "rule { title = 'a', on = { turn_strat = function() end } }\n" })
  t.raises(function() rules.load { families = { "plumb3" }, path = { dir } } end,
    "rule without id (" .. dir .. "/plumb3/r.lua:1): unknown event 'turn_strat'")
  dir = temp_family("plumb4", [[return family { name = "plumb4", files = { "r.lua" } }]], {
    ["r.lua"] = "rule { id = 5, title = 'a' }\n" })
  t.raises(function() rules.load { families = { "plumb4" }, path = { dir } } end, 'a rule id like "27.A.3" expected')
end)

t.test("rules-13: a query between rules runs with its rule in force; its errors name it", function()
  local dir = temp_family("ask", [[return family { name = "ask", files = { "r.lua" } }]], {
    ["r.lua"] = [[
      local function explode(x) return x.missing.field end
      rule { id = "Q.1", title = "Asker", actions = {
        ask = { params = { unit = "unit" }, effect = function(ctx, p)
          ctx.game:set_global("before", ctx:query("outer", 1))
          ctx.game:set_global("in_force", ctx.game:get_rule())
          ctx.game:add_hits(p.unit, 1)
        end },
        caught = { params = {}, effect = function(ctx)
          local ok, e = pcall(ctx.query, ctx, "fails")
          ctx.game:set_global("caught", type(e) == "table" and e.rule or tostring(e))
          ctx.game:set_global("after_pcall", ctx.game:get_rule())
        end },
        in_coroutine = { params = {}, effect = function(ctx)
          local co = coroutine.create(function() return ctx:query("fails") end)
          local ok = coroutine.resume(co)
          ctx.game:set_global("co_ok", ok)
          ctx.game:set_global("after_co", ctx.game:get_rule())
        end },
        boom = { params = {}, effect = function(ctx) ctx.game:set_global("x", 1); ctx:query("fails") end },
      } }
      rule { id = "Q.2", title = "Outer", queries = {
        outer = function(ctx, x) return ctx:query("inner", x) + ctx:query("pure", x) end,
        pure = function(_, x) return x end,
      } }
      rule { id = "Q.3", title = "Inner", queries = {
        inner = function(ctx, x)
          ctx.game:set_global("inner_rule", ctx.game:get_rule())
          return x + 1
        end,
        fails = function(ctx) ctx.game:set_global("failing", true); return explode({}) end,
      } }
    ]] })
  local set = rules.load { families = { "ask" }, path = { dir } }
  local g, u = fleet()
  t.ok(set:act(g, "ask", { unit = u.bb }))
  t.eq(g:get_global("before"), 3)
  t.eq(g:get_global("inner_rule"), "Q.3", "the query's rule is in force where it changes the state")
  t.eq(g:get_global("in_force"), "Q.1", "and its caller's again once it returned")
  local journal = g:journal_text()
  t.ok(journal:find('"ev":"global","rule":"Q.3","key":"inner_rule"', 1, true), journal)
  t.ok(journal:find('"ev":"global","rule":"Q.1","key":"before"', 1, true), journal)
  t.ok(journal:find('"ev":"set","rule":"Q.1","unit":' .. u.bb .. ',"field":"hits"', 1, true), journal)
  -- an error in a query (in a helper it tail-calls) names the query's rule, file and line
  local before = g:hash()
  local ok, err, kind = set:act(g, "boom", {})
  t.eq(ok, nil)
  t.eq(kind, "error")
  t.eq(g:hash(), before)
  local msg = errors.format(err)
  t.ok(msg:find("ask/r.lua:1: rule Q.3: attempt to index a nil value (field 'missing')", 1, true), msg)
  t.eq(g:get_rule(), nil, "nothing left in force")
  -- a script's pcall gets the error as before; its caller's rule is in force after it
  t.ok(set:act(g, "caught", {}))
  t.eq(g:get_global("caught"), "Q.3")
  t.eq(g:get_global("after_pcall"), "Q.1")
  journal = g:journal_text()
  t.ok(journal:find('"ev":"global","rule":"Q.3","key":"failing"', 1, true), journal)
  t.ok(journal:find('"ev":"global","rule":"Q.1","key":"after_pcall"', 1, true), journal)
  -- so does a coroutine the error ends
  t.ok(set:act(g, "in_coroutine", {}))
  t.eq(g:get_global("co_ok"), false)
  t.eq(g:get_global("after_co"), "Q.1")
  t.ok(set:act(g, "ask", { unit = u.bb }))
  t.eq(g:get_global("in_force"), "Q.1")
  t.eq(g:get_rule(), nil)
  t.eq(sandbox.catching[1], 0, "no catch point left counted")
end)

t.test("rules-14: a query between rules passes every argument and result as asked, nils and counts too", function()
  local dir = temp_family("pass", [[return family { name = "pass", files = { "r.lua" } }]], {
    ["r.lua"] = [[
      local kept   -- Q.2's ctx, kept by its query: asked through another ctx's query below
      rule { id = "P.1", title = "Asker", actions = {
        ask = { params = {}, effect = function(ctx)
          local function count(...) return select("#", ...), ... end
          local n, a, b, c = count(ctx:query("echo", 1, nil, 3, nil, 5, nil))
          ctx.game:set_global("results", n)
          ctx.game:set_global("third", c)
          ctx.game:set_global("second_nil", b == nil and a == 1)
          ctx.game:set_global("none", select("#", ctx:query("nothing")))
          ctx.game:set_global("one_nil", select("#", ctx:query("one_nil")))
          ctx.game:set_global("args", ctx:query("count", nil, nil))
          -- another ctx's query asked with this one: this ctx's rule asks
          ctx.game:set_global("other", ctx.query(kept, "whose"))
        end },
      } }
      rule { id = "P.2", title = "Answers", queries = {
        echo = function(ctx, ...) kept = ctx; return ... end,
        nothing = function() end,
        one_nil = function() return nil end,
        count = function(_, ...) return select("#", ...) end,
        whose = function(ctx) return ctx.game:get_rule() end,
      } }
    ]] })
  local set = rules.load { families = { "pass" }, path = { dir } }
  local g = fleet()
  t.ok(set:act(g, "ask", {}))
  t.eq(g:get_global("results"), 6)
  t.eq(g:get_global("third"), 3)
  t.eq(g:get_global("second_nil"), true)
  t.eq(g:get_global("none"), 0)
  t.eq(g:get_global("one_nil"), 1)
  t.eq(g:get_global("args"), 2)
  t.eq(g:get_global("other"), "P.2")
  t.eq(g:get_rule(), nil)
end)

-- ---- variants ------------------------------------------------------------------------

t.test("variant-1: a variant changes a value (27.C.4: 4 naval steps in the campaign)", function()
  local g = fleet()
  load():emit(g, "exploitation_phase")
  t.eq(g:get_global("naval_steps"), 3)
  local set = load { V .. "campaign_001.lua" }
  set:emit(g, "exploitation_phase")
  t.eq(g:get_global("naval_steps"), 4)
  local c = set:rule("27.C.4").changes[1]
  t.eq({ c.kind, c.variant, c.detail }, { "values", "campaign 001", "naval_steps 3 -> 4" })
  t.eq(c.line, 11)
end)

t.test("variant-2: a variant disables a rule (no US organisation problems)", function()
  local g = fleet()
  load():emit(g, "game_start")
  t.eq(g:get_global("us_drm"), -1)
  t.eq(g:get_global("contingents"), true)
  local g2 = fleet()
  local set = load { V .. "campaign_001.lua" }
  set:emit(g2, "game_start")
  t.eq(g2:get_global("us_drm"), nil)
  t.eq(g2:get_global("contingents"), nil)
  t.ok(set:rule("US.1").disabled)
  t.eq(set:rule("US.1").disabled_reason, "discarded: no one-time DRM, divisions may assemble")
  t.ok(not table.concat(set:ids(), " "):find("US.1", 1, true))
end)

t.test("variant-3: a variant wraps a rule (transfers to the EAST cancelled for the Germans)", function()
  local g, u = fleet()
  load():emit(g, "transfer_east", { side = "German" })
  t.eq(g:get_global("transferred_east"), 1)
  t.eq(g:get(u.ge, "loc"), "off")
  local g2, u2 = fleet()
  local set = load { V .. "campaign_001.lua" }
  set:emit(g2, "transfer_east", { side = "German" })
  t.eq(g2:get_global("transferred_east"), 0)
  -- the wrapper still calls the original for the other side
  set:emit(g2, "transfer_east", { side = "Allied" })
  t.eq(g2:get_global("transferred_east"), 2)
  t.eq(g2:get(u2.ge, "hits"), 0)
end)

t.test("variant-4: a variant adds a rule", function()
  local g = fleet()
  local set = load { V .. "campaign_001.lua" }
  set:emit(g, "game_start")
  t.eq(g:get_global("weather"), "clear")
  local r = set:rule("H.1")
  t.eq(r.file, V .. "campaign_001.lua")
  t.eq(r.origin, "campaign 001")
end)

t.test("variant-5: two variants stack in order; a table row changes", function()
  local set = load { V .. "campaign_001.lua", V .. "fast_convoys.lua" }
  local g, u = fleet()
  t.eq(set:query(g, "movement_rate", u.nt), 9)
  t.eq(set:query(g, "movement_rate", u.bb), 9)
  t.eq(set:table("bombing_hits").rows[4].cells[1].value, 2)
  t.eq(set:table("bombing_hits"):lookup(6).value, 2, "a roll of 6 finds the changed row")
  -- the base table is untouched for a set without the variant
  t.eq(load():table("bombing_hits").rows[4].cells[1].value, 3)
  t.eq(load():table("bombing_hits"):lookup(6).value, 3)
  t.eq(#set.variants, 2)
  t.eq(set.variants[2].name, "fast convoys")
  t.eq(#set.conflicts, 0)
  -- both variants' effects show in one game's journal
  set:emit(g, "exploitation_phase")
  t.ok(set:act(g, "move", { unit = u.nt, to = 3, boxes = 9 }))
  local j = table.concat(g:journal_lines(), "\n")
  t.ok(j:find('{"ev":"global","rule":"27.C.4","key":"naval_steps","old":null,"new":4}', 1, true), j)
  t.ok(j:find('"name":"move","rule":"27.C.2","order":{"boxes":9', 1, true), j)
end)

t.test("variant-6: two variants changing one rule conflict, unless the later means to", function()
  local set = rules.new { path = { FAM } }
  set:load_family("toy27")
  set:apply_variant(V .. "campaign_001.lua")
  set:apply_variant(V .. "conflict.lua")
  t.eq(#set.conflicts, 1)
  t.ok(set.conflicts[1].message:find("conflict.lua:4: variant 'short exploitation' changes 27.C.4, " ..
    "which variant 'campaign 001' already changed (tests/families/variants/campaign_001.lua:11)", 1, true),
    set.conflicts[1].message)
  t.raises(function() set:emit(fleet(), "exploitation_phase") end, "add overrides = { \"27.C.4\" }")
  local ok_set = load { V .. "campaign_001.lua", V .. "override.lua" }
  t.eq(#ok_set.conflicts, 0)
  local g = fleet()
  ok_set:emit(g, "exploitation_phase")
  t.eq(g:get_global("naval_steps"), 2)
  t.eq(ok_set:rule("27.C.4").changes[2].overrides, "campaign 001")
end)

t.test("variant-7: a replace and mistakes in variants are reported with file and line", function()
  local dir = os.tmpname()
  local function variant(text)
    local f = assert(io.open(dir, "w"))
    f:write(text)
    f:close()
    local set = rules.new { path = { FAM } }
    set:apply_variant(dir)
    return set:finalize()
  end
  local set = variant([[
    variant { name = "r", base = "toy27" }
    replace("27.C.4", { on = { exploitation_phase = function(ctx) ctx.game:set_global("naval_steps", 5) end } })
  ]])
  local g = fleet()
  set:emit(g, "exploitation_phase")
  t.eq(g:get_global("naval_steps"), 5)
  t.eq(set:rule("27.C.4").title, "Exploitation Phase")
  t.eq(set:rule("27.C.4").base_line, 36)
  t.raises(function() variant("set_values('27.C.4', {})") end, "begins with variant")
  local late = variant([[
    variant { name = "late", base = "toy27" }
    wrap("27.C.4", { on = { exploitation_phase = function(orig, ctx) disable("27.C.2") end } })
  ]])
  t.raises(function() late:emit(fleet(), "exploitation_phase") end,
    "disable may only be called while the variant file loads")
  t.raises(function() variant("variant { name = 'x', base = 'toy27' }\nset_values('27.Q', {})") end,
    ":2: set_values: no rule 27.Q")
  t.raises(function() variant("variant { name = 'x', base = 'toy27' }\nset_values('27.C.4', { steps = 2 })") end,
    "rule 27.C.4 has no value 'steps' (its values: naval_steps)")
  t.raises(function() variant("variant { name = 'x', base = 'toy27' }\nwrap('27.C.4', { on = { turn_end = function() end } })") end,
    "has no handler for event 'turn_end'")
  t.raises(function() variant("variant { name = 'x', base = 'toy27' }\nadd { id = '27.C.4', title = 'again' }") end,
    "add: rule 27.C.4 already exists")
  t.raises(function() variant("variant { name = 'x', base = 'toy27' }\nset_row('bombing_hits', '7', '1')") end,
    "has no row '7' (rows: 1-2, 3-4, 5, 6)")
  os.remove(dir)
end)

t.test("variant-8: keel rules lists the set and what each variant changed", function()
  local out = os.tmpname()
  local rc = os.execute(("bin/keel rules --path %s toy27 --variant %s --variant %s > %s"):format(
    FAM, V .. "campaign_001.lua", V .. "fast_convoys.lua", out))
  local text = t.read_file(out)
  t.ok(rc, "exit 0")
  t.ok(text:find("27.C.4     Exploitation Phase", 1, true), text)
  t.ok(text:find("values changed by 'campaign 001' (tests/families/variants/campaign_001.lua:11): naval_steps 3 -> 4", 1, true), text)
  t.ok(text:find("US.1       USA organisation problems (stand-in)         tests/families/toy27/other_chapters.lua:5  DISABLED", 1, true), text)
  t.ok(text:find("wrapped by 'campaign 001'", 1, true))
  t.ok(text:find("added by 'campaign 001'", 1, true))
  t.ok(text:find("row changed by 'fast convoys' (tests/families/variants/fast_convoys.lua:6): 6: 3 -> 2", 1, true))
  t.ok(text:find("11 rules (9 active, 2 disabled), 2 variant(s), 0 conflict(s)", 1, true))
  local ok, _, code = os.execute(("bin/keel rules --path %s --variant %s --variant %s > %s"):format(
    FAM, V .. "campaign_001.lua", V .. "conflict.lua", out))
  t.eq({ ok, code }, { nil, 1 })
  os.remove(out)
end)

t.test("rules-cache: two sets from the same files (one compiled chunk) keep their own file state", function()
  local dir = os.tmpname()
  os.remove(dir)
  os.execute("mkdir -p " .. dir .. "/counting")
  local function write(name, text)
    local f = assert(io.open(dir .. "/counting/" .. name, "w"))
    f:write(text)
    f:close()
  end
  write("manifest.lua", 'return family { name = "counting", files = { "c.lua" } }\n')
  write("c.lua", [[
local n = 0   -- file state: one per load of the file
rule { id = "C.1", title = "count", queries = { bump = function() n = n + 1; return n end } }
]])
  local a = rules.load { families = { "counting" }, path = { dir } }
  local b = rules.load { families = { "counting" }, path = { dir } }
  local ga, gb = game_mod.new { seed = 1 }, game_mod.new { seed = 1 }
  t.eq(a:query(ga, "bump"), 1)
  t.eq(a:query(ga, "bump"), 2)
  t.eq(b:query(gb, "bump"), 1, "the second set's file state is its own")
  t.eq(a.hashes[dir .. "/counting/c.lua"], b.hashes[dir .. "/counting/c.lua"])
  -- a changed file is another text: compiled again, its new hash declared
  local changed = [[
rule { id = "C.1", title = "count", queries = { bump = function() return 100 end } }
]]
  write("c.lua", changed)
  local c = rules.load { families = { "counting" }, path = { dir } }
  t.eq(c.hashes[dir .. "/counting/c.lua"], require("keel").state.hash_bytes(changed))
  t.eq(c:query(game_mod.new { seed = 1 }, "bump"), 100)
  t.ok(c.hashes[dir .. "/counting/c.lua"] ~= a.hashes[dir .. "/counting/c.lua"])
  t.eq(a:query(ga, "bump"), 3, "the first set still runs what it loaded")
  os.execute("rm -rf " .. dir)
end)

t.test("runtime-families-1: the rules runtime names no family and requires none, nor the renderer", function()
  -- a fresh keel loads every family on the search path, asks each set for
  -- its view and its tables, and lists what got required
  local dir = t.tmpdir()
  local f = assert(io.open(dir .. "/probe.lua", "w"))
  f:write([[
local registry = require "keel.registry"
local rules = require "keel.rules"
local fams = registry.family_names()
for _, fam in ipairs(fams) do
  local set = rules.load { families = { fam } }
  set:view()
  for name in pairs(set.tables) do
    local tb = set:table(name)
    if tb.rows_from then assert(tb:rows_table() == set.tables[tb.rows_from]) end
  end
end
local loaded = {}
for name in pairs(package.loaded) do loaded[#loaded + 1] = name end
table.sort(loaded)
print("families " .. table.concat(fams, " "))
print("loaded " .. table.concat(loaded, " "))
]])
  f:close()
  local status, out = t.sh(t.keel_bin .. " script " .. dir .. "/probe.lua")
  os.execute("rm -rf " .. dir)
  t.eq(status, 0, out)
  local fams = out:match("families ([^\n]*)")
  t.ok(fams and fams:find("navgroup", 1, true) and fams:find("seazone", 1, true), out)
  local loaded = " " .. out:match("loaded ([^\n]*)") .. " "
  t.ok(not loaded:find(" keel.counter ", 1, true), "keel.counter (the renderer) not required: " .. loaded)
  t.ok(not loaded:find(" keel.render ", 1, true), "keel.render not required")
  for fam in fams:gmatch("%S+") do
    t.ok(not loaded:find(" " .. fam .. "[. ]"), fam .. " is required by nothing: " .. loaded)
  end
  -- and no runtime file requires a family by name
  for fam in fams:gmatch("%S+") do
    local _, grep = t.sh("grep -rlE 'require *\\(? *\"" .. fam .. "[.\"]' scripts/keel")
    t.eq(grep, "", fam .. " required under scripts/keel/")
  end
end)

t.test("runtime-families-2: a manifest's view is checked by keel.view_spec, with the manifest's name", function()
  local dir = temp_family("badview", [[return family { name = "badview", view = { types = { TF = { symbol = "battleship" } } } }]], {})
  local ok, err = pcall(rules.load, { families = { "badview" }, path = { dir, FAM } })
  t.ok(not ok)
  t.ok(tostring(err):find("badview/manifest.lua: view.types.TF.symbol: unknown symbol \"battleship\"", 1, true), tostring(err))
  t.eq(require("keel.view_spec").symbol_names(), require("keel.counter").symbol_names(),
    "the symbols a view may name are the ones the counter draws")
end)

t.test("standin-1: a rule says it is a stand-in (the chapter), or which of its parts are; bad declarations name the rule", function()
  local dir = temp_family("stand", [[return family { name = "stand", files = { "r.lua" } }]], {
    ["r.lua"] = [[
      rule { id = "S.1", title = "Night", standin = "Rule 34A2 (night)", queries = { night = function() return true end } }
      rule { id = "S.2", title = "Search", values = { port_sizes = { minor = 1 } },
             queries = { entry = function() return 1 end },
             standin = { port_sizes = "the port chapter", entry = "the terrain chapter" } }
      rule { id = "S.3", title = "Plain" }
    ]] })
  local set = rules.load { families = { "stand" }, path = { dir, FAM } }
  t.eq(set:rule("S.1").standin, "Rule 34A2 (night)")
  t.eq(set:rule("S.2").standin, { port_sizes = "the port chapter", entry = "the terrain chapter" })
  t.eq(set:rule("S.3").standin, nil)
  local cases = {
    { 'standin = ""', "rule S.9: standin must name the chapter the rule stands in for" },
    { "standin = 3", "rule S.9: standin must be the chapter it stands in for" },
    { 'standin = { speed = "x" }', "rule S.9: standin.speed: the rule has no value, query, action or handler named speed" },
    { 'standin = { night = 2 }, queries = { night = function() end }', "rule S.9: standin.night must name the chapter" },
    { "standin = {}", "rule S.9: standin {} names no part" },
  }
  for i, c in ipairs(cases) do
    local d = temp_family("bad" .. i, ("return family { name = %q, files = { 'r.lua' } }"):format("bad" .. i),
      { ["r.lua"] = ('rule { id = "S.9", title = "x", %s }\n'):format(c[1]) })
    local ok, err = pcall(rules.load, { families = { "bad" .. i }, path = { d, FAM } })
    t.ok(not ok and tostring(err):find(c[2], 1, true), ("case %d: %s"):format(i, tostring(err)))
    t.ok(tostring(err):find("r.lua:1", 1, true), ("case %d names the file and line: %s"):format(i, tostring(err)))
  end
end)

t.test("standin-2: every stand-in of the families says so in its declaration", function()
  -- the families mark stand-ins in their titles and file names too: each
  -- such rule or table must declare `standin` (doc/standins.md lists them)
  local registry = require "keel.registry"
  local sets = {}
  for _, fam in ipairs(registry.family_names()) do sets[#sets + 1] = { fam, {} } end
  for _, fam in ipairs(registry.family_names { "scenarios/families" }) do sets[#sets + 1] = { fam, { "scenarios/families" } } end
  local n_rules, n_tables = 0, 0
  for _, fp in ipairs(sets) do
    local set = rules.load { families = { fp[1] }, path = fp[2] }
    for _, id in ipairs(set.order) do
      local r = set.rules[id]
      if r.family == fp[1] and ((r.title or ""):lower():find("stand%-in") or r.file:find("_standin%.lua$")) then
        t.ok(r.standin ~= nil, ("%s rule %s (%s:%d) is a stand-in that does not declare it"):format(fp[1], id, r.file, r.line))
        n_rules = n_rules + 1
      end
    end
    for name, tb in pairs(set.tables) do
      if tb.file:find("_standin%.tbl$") or (tb.title or ""):find("stand%-in") then
        t.ok(tb.standin ~= nil, ("table %s (%s:%d) is a stand-in that does not declare it"):format(name, tb.file, tb.line))
        n_tables = n_tables + 1
      end
    end
  end
  -- (29 until the sequence of play replaced the eastmed "phasing player" stand-in)
  t.ok(n_rules >= 28 and n_tables >= 7, ("found %d stand-in rules, %d tables"):format(n_rules, n_tables))
end)

t.test("rules-values: ctx:get_value hands out the rule's values read-only, as ctx.rule.values does", function()
  local dir = temp_family("valued", [[return family { name = "valued", files = { "r.lua" } }]], {
    ["r.lua"] = [[
      rule { id = "V.1", title = "Values", values = { n = 2, list = { 1, 2 }, nested = { inner = { 3 } } },
        queries = {
          n = function(ctx) return ctx:get_value("n") end,
          read = function(ctx) local l = ctx:get_value("list"); return #l, l[2], ctx:get_value("nested").inner[1] end,
          grow = function(ctx) local l = ctx:get_value("list"); l[3] = 3 end,
          change = function(ctx) ctx:get_value("list")[1] = 9 end,
          deep = function(ctx) ctx:get_value("nested").inner[1] = 9 end,
          insert = function(ctx) table.insert(ctx:get_value("list"), 4) end,
          same = function(ctx) return ctx:get_value("list") == ctx.rule.values.list end,
        } }
    ]] })
  local set = rules.load { families = { "valued" }, path = { dir } }
  local g = fleet()
  t.eq(set:query(g, "n"), 2)
  t.eq({ set:query(g, "read") }, { 2, 2, 3 })
  t.raises(function() set:query(g, "grow") end, "is read-only")
  t.raises(function() set:query(g, "change") end, "is read-only")
  t.raises(function() set:query(g, "deep") end, "is read-only")
  t.raises(function() set:query(g, "insert") end, "read-only")
  t.eq(set:query(g, "same"), true, "one view of a value")
  -- nothing changed: the next game (and the rule set's own table) sees the values as declared
  t.eq({ set:query(fleet(), "read") }, { 2, 2, 3 })
  t.eq(set.rules["V.1"].values.list, { 1, 2 })
  os.execute("rm -rf " .. dir)
end)

t.test("26-action-side: an action's side and phases are checked where the rule declares them", function()
  for _, c in ipairs {
    { 'side = 5', 'action go: side must be "phasing", "other", "any", "scenario" or a side\'s name' },
    { 'phases = "movement"', "action go: phases must be a list of names" },
    { 'phases = { 1 }', "action go: phases[1] must be a phase's or step's name" },
  } do
    local dir = temp_family("sided", [[return family { name = "sided", files = { "r.lua" } }]], {
      ["r.lua"] = "rule { id = \"X.1\", title = \"Go\", actions = { go = { " .. c[1]
        .. ", effect = function() end } } }\n" })
    local ok, err = pcall(rules.load, { families = { "sided" }, path = { dir } })
    t.ok(not ok, c[1])
    local msg = errors.format(err)
    t.ok(msg:find("r.lua:1:", 1, true) and msg:find("rule X.1", 1, true), msg)
    t.ok(msg:find(c[2], 1, true), msg)
    os.execute("rm -rf " .. dir)
  end
end)

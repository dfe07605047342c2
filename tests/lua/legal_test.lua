-- tests/lua/legal_test.lua — what a user interface asks the rules runtime:
-- parameter domains and the legal actions of a side (scripts/keel/legal.lua),
-- and what a side may see (scripts/keel/visibility.lua), on families
-- written on the fly.
local t = require "keel.testing"
local rules = require "keel.rules"
local game_mod = require "keel.game"
local orders = require "keel.orders"

-- a family written on the fly, in a temporary folder
local function temp_family(name, files)
  local dir = t.tmpdir()
  os.execute("mkdir -p " .. dir .. "/" .. name)
  local list = {}
  for rel in pairs(files) do list[#list + 1] = ("%q"):format(rel) end
  table.sort(list)
  files["manifest.lua"] = ("return family { name = %q, files = { %s } }"):format(name, table.concat(list, ", "))
  for rel, text in pairs(files) do
    local f = assert(io.open(dir .. "/" .. name .. "/" .. rel, "w"))
    f:write(text)
    f:close()
  end
  return dir
end

-- Two sides, three groups; the action `join` moves a unit into a group of
-- its side (dependent domain), `sink` takes a unit of the enemy (vetoed for
-- the flagship), `rally` has a required parameter without a domain, and
-- `pass` has none at all and is legal only on turn 2.
local RULES = [[
rule {
  id = "T.1", title = "Test actions",
  actions = {
    join = {
      title = "a unit joins a group",
      params = {
        unit = { type = "unit", title = "who", domain = function(ctx, _, side)
          local out = {}
          for _, u in ipairs(ctx.game:units()) do
            if side == nil or ctx.game:get(u, "side") == side then out[#out + 1] = { value = u, note = "n" .. u } end
          end
          return out, "no unit of " .. tostring(side)
        end },
        group = { type = "group", depends = { "unit" }, domain = function(ctx, p)
          local out = {}
          for _, g in ipairs(ctx.game:groups()) do
            if ctx.game:group_get_value(g, "side") == ctx.game:get(p.unit, "side") then out[#out + 1] = { value = g, cost = g * 10 } end
          end
          return out
        end },
      },
      legal = function(ctx, p)
        for _, u in ipairs(ctx.game:group_units(p.group)) do
          if u == p.unit then return "T.1: already in that group" end
        end
      end,
      effect = function(ctx, p) ctx.game:group_add(p.group, p.unit) end,
    },
    sink = {
      params = { target = { type = "unit", domain = function(ctx, _, side)
        local out = {}
        for _, u in ipairs(ctx.game:units()) do
          if ctx.game:get(u, "side") ~= side then out[#out + 1] = u end
        end
        return out
      end } },
      effect = function(ctx, p) ctx.game:eliminate(p.target) end,
    },
    rally = { params = { unit = "unit", hex = "hex?" }, effect = function() end },
    pass = {
      params = {},
      legal = function(ctx) if ctx.game:get_turn() ~= 2 then return "T.1: only on turn 2" end end,
      effect = function() end,
    },
    split_off = {
      params = { units = { type = "units", domain = function(ctx) return ctx.game:group_units(1) end } },
      legal = function(ctx, p) if #p.units ~= 1 then return "one at a time" end end,
      effect = function() end,
    },
  },
}
rule {
  id = "T.2", title = "The flagship",
  vetoes = { sink = function(ctx, p)
    if p.target and ctx.game:get(p.target, "name") == "Flag" then return "T.2: the flagship is protected" end
  end },
}
]]

local function setup(extra)
  local files = { ["t.lua"] = RULES }
  for k, v in pairs(extra or {}) do files[k] = v end
  local dir = temp_family("legal_t", files)
  local set = rules.load { families = { "legal_t" }, path = { dir } }
  local g = game_mod.new { seed = 3 }
  local ids = {
    a = g:unit_new { name = "A", type = "TF", side = "Blue" },
    b = g:unit_new { name = "B", type = "TF", side = "Blue" },
    flag = g:unit_new { name = "Flag", type = "TF", side = "Red" },
    r = g:unit_new { name = "R", type = "TF", side = "Red" },
  }
  ids.blue = g:group_new { name = "Blue group", side = "Blue", units = { ids.a } }
  ids.blue2 = g:group_new { name = "Blue two", side = "Blue" }
  ids.red = g:group_new { name = "Red group", side = "Red", units = { ids.flag, ids.r } }
  return set, g, ids
end

local function entry(list, name)
  for _, e in ipairs(list) do if e.name == name then return e end end
  error("no action " .. name)
end

local function param(e, name)
  for _, p in ipairs(e.params) do if p.name == name then return p end end
  error("no parameter " .. name)
end

local function values(domain)
  local out = {}
  for i, c in ipairs(domain) do out[i] = c.value end
  return out
end

-- ---- declarations ------------------------------------------------------------------------

t.test("legal-1: a parameter is a type, or a table with type, domain, depends, title", function()
  t.eq(orders.parse_param("hex?"), { type = "hex", optional = true, depends = {} })
  local fn = function() end
  local p = orders.parse_param { type = "group", domain = fn, title = "the group" }
  t.eq(p.type, "group"); t.eq(p.optional, false); t.eq(p.domain, fn); t.eq(p.title, "the group")
  t.eq(orders.parse_param { type = "unit?", domain = fn }.optional, true)
  t.eq(orders.parse_param { type = "unit", optional = true }.optional, true)
  t.eq(select(2, orders.parse_param { type = "ship" }):match("^unknown type"), "unknown type")
  t.ok(select(2, orders.parse_param { type = "unit", values = {} }):find("unknown field 'values'", 1, true))
  t.ok(select(2, orders.parse_param { type = "unit", depends = { "x" } }):find("needs a domain", 1, true))
  t.ok(select(2, orders.parse_param { type = "unit", domain = 3 }):find("domain must be a function", 1, true))
end)

t.test("legal-2: a domain depends on parameters that have domains, without cycles (load errors)", function()
  local cases = {
    { 'params = { a = { type = "unit", depends = { "b" }, domain = function() end } }', "'b', which is no parameter" },
    { 'params = { a = { type = "unit", depends = { "b" }, domain = function() end }, b = "unit" }', "no domain to enumerate" },
    { 'params = { a = { type = "unit", depends = { "b" }, domain = function() end },' ..
      ' b = { type = "unit", depends = { "a" }, domain = function() end } }', "cycle" },
    { 'params = { a = { type = "unit", depends = { "a" }, domain = function() end } }', "depends on itself" },
  }
  for _, c in ipairs(cases) do
    local dir = temp_family("legal_bad", { ["bad.lua"] = 'rule { id = "B.1", actions = { x = { ' .. c[1] ..
      ', effect = function() end } } }' })
    local ok, err = pcall(rules.load, { families = { "legal_bad" }, path = { dir } })
    t.ok(not ok, c[2])
    local msg = require("keel.errors").format(err)
    t.ok(msg:find(c[2], 1, true), msg)
    t.ok(msg:find("bad.lua:1", 1, true), "names the file and line: " .. msg)
  end
end)

-- ---- listing -----------------------------------------------------------------------------

t.test("legal-3: the actions of a side: domains, dependent choices, extras kept, illegal combinations left out", function()
  local set, g, ids = setup()
  local list = set:legal_actions(g, "Blue")
  local join = entry(list, "join")
  t.eq(join.available, true)
  t.eq(join.checked, true)
  t.eq(join.rule, "T.1")
  t.eq(join.title, "a unit joins a group")
  t.eq(values(param(join, "unit").domain), { ids.a, ids.b })
  t.eq(param(join, "unit").domain[1].note, "n" .. ids.a, "a candidate's plain extras are kept")
  t.eq(param(join, "unit").title, "who")
  local choices = param(join, "group").choices
  t.eq(#choices, 2)
  -- A is in the first Blue group already: only the second is legal for it
  t.eq(choices[1].given, { unit = ids.a })
  t.eq(values(choices[1].domain), { ids.blue2 })
  t.eq(choices[1].domain[1].cost, ids.blue2 * 10)
  t.eq(choices[2].given, { unit = ids.b })
  t.eq(values(choices[2].domain), { ids.blue, ids.blue2 })
  t.eq(param(join, "group").depends, { "unit" })
end)

t.test("legal-4: a vetoed candidate is left out; the veto is not narrated while listing", function()
  local said = {}
  local set, g, ids = setup()
  set.narrate = function(kind) said[#said + 1] = kind end
  local sink = entry(set:legal_actions(g, "Blue"), "sink")
  t.eq(values(param(sink, "target").domain), { ids.r }, "the flagship's veto (T.2) leaves it out")
  t.eq(#said, 0)
  -- the candidate as an order: vetoed with the rule that vetoes it
  local why, kind, by = set:check(g, "sink", { target = ids.flag })
  t.eq(kind, "vetoed")
  t.ok(why:find("T.2", 1, true))
  t.eq(by, { rule = "T.2", family = "legal_t", reason = "T.2: the flagship is protected" })
end)

t.test("legal-5: an action not available says why: legal's reason with its rule, or an empty domain's", function()
  local set, g = setup()
  local list = set:legal_actions(g, "Green")
  local pass = entry(list, "pass")
  t.eq(pass.available, false)
  t.eq(pass.kind, "illegal")
  t.eq(pass.refused, { rule = "T.1", family = "legal_t", reason = "T.1: only on turn 2" })
  local join = entry(list, "join")
  t.eq(join.available, false)
  t.eq(join.kind, "domain")
  t.eq(join.reason, "no value for parameter 'unit': no unit of Green")
  g:set_turn(2)
  t.eq(entry(set:legal_actions(g, "Green"), "pass").available, true)
end)

t.test("legal-6: a required parameter without a domain: listed unchecked, with what is free", function()
  local set, g = setup()
  local rally = entry(set:legal_actions(g, "Blue"), "rally")
  t.eq(rally.checked, false)
  t.eq(rally.available, true)
  t.eq(rally.free, { "unit" })
  t.eq(param(rally, "hex").optional, true)
  t.eq(param(rally, "unit").domain, nil)
end)

t.test("legal-7: a list parameter's candidates are its elements, each checked as a one-element list", function()
  local set, g, ids = setup()
  local e = entry(set:legal_actions(g, "Red"), "split_off")
  t.eq(e.available, true)
  t.eq(values(param(e, "units").domain), { ids.a })
end)

t.test("legal-8: listing changes nothing: the state hash and the journal are as before", function()
  local set, g = setup()
  local hash, size = g:hash_hex(), #g:journal_text()
  set:legal_actions(g, "Blue")
  set:legal_actions(g, nil)
  t.eq(g:hash_hex(), hash)
  t.eq(#g:journal_text(), size)
end)

t.test("legal-9: a domain that returns no list is an error naming the action and the parameter", function()
  local set, g = setup { ["u.lua"] = [[
rule { id = "U.1", actions = { odd = { params = { x = { type = "integer", domain = function() return 7 end } },
  effect = function() end } } }
]] }
  local ok, err = pcall(set.legal_actions, set, g, "Blue")
  t.ok(not ok)
  t.ok(require("keel.errors").format(err):find("action odd: the domain of 'x' returned number", 1, true))
end)

-- ---- what a side sees ---------------------------------------------------------------------

local SIGHT = [[
rule {
  id = "S.1", title = "Fog of war",
  queries = {
    group_visibility = function(ctx, side, g)
      if ctx.game:group_get_value(g, "side") == side then return "full" end
      if ctx.game:group_get_value(g, "secret") then return "hidden" end
      return "unknown", { count = #ctx.game:group_units(g), f = function() end }
    end,
    unit_visibility = function(ctx, side, u)
      if ctx.game:get(u, "side") ~= side and ctx.game:get_value(u, "spy") then return "hidden" end
      return "full"
    end,
  },
}
]]

t.test("legal-10: a side's view: its groups in full, the enemy's unknown with facts, hidden ones left out", function()
  local set, g, ids = setup { ["s.lua"] = SIGHT }
  local v = set:view_for(g, "Blue")
  t.eq(v.side, "Blue")
  t.eq(#v.groups, 2, "the empty group is not listed")
  t.eq(v.groups[1], { id = ids.blue, known = true, name = "Blue group", units = { ids.a },
                      values = { side = "Blue" } })
  t.eq(v.groups[2], { id = ids.red, known = false, side = "Red", loc = "off", facts = { count = 2 } },
    "an unknown group: its side, where it is, the facts (plain values only)")
  local seen = {}
  for _, u in ipairs(v.units) do seen[#seen + 1] = u.name or ("?" .. u.id) end
  t.eq(seen, { "A", "B" }, "the units of an unknown group are not listed")
  g:group_set_value(ids.red, "secret", true)
  t.eq(#set:view_for(g, "Blue").groups, 1)
  -- Red sees everything of its own, and Blue's groups as unknown
  local red = set:view_for(g, "Red")
  t.eq(red.groups[1].known, false)
  t.eq(#red.units, 3, "Red's two units, and Blue's B, which is in no group")
end)

t.test("legal-11: a unit aboard a carrier the side does not see is not listed", function()
  local set, g, ids = setup { ["s.lua"] = SIGHT }
  local cargo = g:unit_new { name = "Cargo", type = "inf", side = "Red" }
  g:embark(cargo, ids.flag)
  local spy = g:unit_new { name = "Spy", type = "inf", side = "Red", values = { spy = true } }
  local inside = g:unit_new { name = "Inside", type = "inf", side = "Red" }
  g:embark(inside, spy)
  local names = {}
  for _, u in ipairs(set:view_for(g, "Blue").units) do names[#names + 1] = u.name end
  t.eq(names, { "A", "B" })
  names = {}
  for _, u in ipairs(set:view_for(g, "Red").units) do names[#names + 1] = u.name end
  t.eq(names, { "B", "Flag", "R", "Cargo", "Spy", "Inside" })
end)

t.test("legal-12: without a visibility rule everything is seen; status lines are the declared ones", function()
  local set, g = setup()
  g:set_global("turn", 3)
  g:set_global("secret_bookkeeping", 1)
  local v = set:view_for(g, "Blue")
  t.eq(#v.units, 4)
  t.eq(#v.groups, 2)
  t.eq(v.status, { { key = "turn", label = "turn", value = 3 } }, "only declared status keys, never other globals")
end)

t.test("legal-13: a visibility query answering something else is an error", function()
  local set, g = setup { ["s.lua"] = [[
rule { id = "S.1", queries = { unit_visibility = function() return "partly" end } }
]] }
  local ok, err = pcall(set.view_for, set, g, "Blue")
  t.ok(not ok)
  t.ok(require("keel.errors").format(err):find('"full", "unknown" or "hidden" expected', 1, true))
end)

t.test("legal-14: status lines: globals declared; a keyed map counted, or a line per entry, its label filled", function()
  local counter = require "keel.counter"
  local st = require("keel").state.new()
  st:set_global("sea", "calm")
  st:set_global("private", 1)
  st:set_keyed("vp", "Axis", 3)
  st:set_keyed("vp", "Allied", 40)
  st:set_keyed("fights", 1, "a")
  st:set_keyed("fights", 2, "b")
  local lines = counter.status_lines({ { keyed = "vp", label = "victory points (%s)" }, { key = "sea", label = "sea" },
    { key = "turn", label = "turn" }, { keyed = "fights", count = true, label = "fights" } }, st)
  t.eq(lines, { { key = "vp[Allied]", label = "victory points (Allied)", value = 40 },
                { key = "vp[Axis]", label = "victory points (Axis)", value = 3 },
                { key = "sea", label = "sea", value = "calm" },
                { key = "fights#", label = "fights", value = 2 } })
end)

-- tests/lua/legal_test.lua — what a user interface asks the rules runtime:
-- parameter domains and the legal actions of a side (scripts/keel/legal.lua),
-- and what a side may see (scripts/keel/visibility.lua), on families
-- written on the fly.
local t = require "keel.testing"
local rules = require "keel.rules"
local game_mod = require "keel.game"
local orders = require "keel.orders"
local json = require "keel.json"

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
    hail = {   -- an optional parameter with nothing to offer, and a rule that refuses
      params = { note = { type = "string", optional = true, domain = function() return {}, "nothing to say" end } },
      legal = function() return "T.1: no one answers" end,
      effect = function() end,
    },
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

t.test("legal-1: a parameter is a type, or a table with type, domain, depends, title, max", function()
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
  t.eq(orders.parse_param { type = "units", domain = fn, max = 2 }.max, 2)
  t.ok(select(2, orders.parse_param { type = "unit", max = 2 }):find("type \"units\" only", 1, true))
  t.ok(select(2, orders.parse_param { type = "units", max = 0 }):find("max must be a whole number", 1, true))
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
  -- an optional parameter with no value is left out: the rule's refusal is the reason
  local hail = entry(list, "hail")
  t.eq({ hail.available, hail.kind }, { false, "illegal" })
  t.ok(hail.reason:find("T.1: no one answers", 1, true), hail.reason)
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

t.test("legal-7: a list parameter's candidates are its elements; its sets are checked, a one-element rule keeps singletons", function()
  local set, g, ids = setup()
  g:group_add(ids.blue, ids.b)
  local e = entry(set:legal_actions(g, "Red"), "split_off")
  t.eq(e.available, true)
  t.eq(e.checked, true)
  t.eq(values(param(e, "units").domain), { ids.a, ids.b })
  t.eq(param(e, "units").sets, { { ids.a }, { ids.b } }, "{A, B} was checked and refused (one at a time)")
  t.eq(param(e, "units").any_set, nil)
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

t.test("legal-22: an order whose check fails is refused alone: the orders after it are still checked", function()
  local set, g = setup { ["u.lua"] = [[
rule { id = "U.2", title = "Picky", actions = {
  pick = { params = { x = { type = "integer", domain = function() return { 1, 2, 3, 4 } end } },
    legal = function(ctx, p)
      if p.x == 2 then error("U.2: two breaks it") end
      if p.x == 3 then return "U.2: not three" end
    end, effect = function() end },
  fail = { params = { x = { type = "integer", domain = function() return { 1, 2 } end } },
    legal = function(ctx, p)
      if p.x == 1 then error("U.2: one breaks it") end
      return "U.2: not two"
    end, effect = function() end },
  typed = { params = { x = { type = "integer", domain = function() return { "a", 5, 2.5 } end },
                       y = { type = "unit", optional = true, domain = function() return { 99 } end } },
    effect = function() end },
} }
]] }
  local list = set:legal_actions(g, "Blue")
  local pick = entry(list, "pick")
  t.eq(pick.available, true)
  t.eq(values(param(pick, "x").domain), { 1, 4 })
  local fail = entry(list, "fail")
  t.eq(fail.available, false)
  t.eq(fail.kind, "error")   -- the first refusal: the failure, naming its rule
  -- (the failure as a check of its own words it: its line, its rule, its frames)
  t.ok(fail.reason:match("^[^\n]*") :find("u.lua:9: rule U.2: U.2: one breaks it$"))
  t.ok(fail.reason:find("u.lua:9: in function <[^\n]*u.lua:8>"))
  -- candidates of the wrong type are refused with check_params' words; the others listed
  local typed = entry(list, "typed")
  t.eq(values(param(typed, "x").domain), { 5 })
  t.eq(param(typed, "y").omit, true)
  t.eq(values(param(typed, "y").domain), {})
  set:check(g, "typed", { x = 5 })
  t.eq(select(1, set:check(g, "typed", { x = 5, y = 99 })), "action 'typed': parameter 'y' must be a unit id")
  -- the same words when every candidate is refused so
  local set2, g2 = setup { ["u.lua"] = [[
rule { id = "U.3", actions = { typed = { params = { x = { type = "integer", domain = function() return { "a" } end } },
  effect = function() end } } }
]] }
  local typed2 = entry(set2:legal_actions(g2, "Blue"), "typed")
  t.eq(typed2.available, false)
  t.eq(typed2.kind, "params")
  t.eq(typed2.reason, "action 'typed': parameter 'x' must be an integer")
  -- a domain that fails: the listing fails with the domain's error
  local set3, g3 = setup { ["u.lua"] = [[
rule { id = "U.4", actions = { broken = { params = { x = { type = "integer", domain = function()
  error("U.4: no domain today") end } }, effect = function() end } } }
]] }
  local ok, err = pcall(set3.legal_actions, set3, g3, "Blue")
  t.eq(ok, false)
  local text = require("keel.errors").format(err)
  t.ok(text:match("^[^\n]*"):find("u.lua:2: rule U.4: U.4: no domain today$"), text)
  t.ok(text:find("u.lua:2: in function <[^\n]*u.lua:1>"), text)
  -- the game goes on: an order checked afresh gets the same answers
  t.eq(set:check(g, "pick", { x = 4 }), nil)
  t.eq(select(2, set:check(g, "pick", { x = 2 })), "error")
end)

-- ---- optional parameters left out, sets of a list parameter ------------------------------

-- `fire` names a unit or a group to fire at, never both nor neither: two
-- optional parameters that exclude each other. `lift` carries a cargo of
-- size 3 on ships of capacity 2, 2 and 1: it needs two of them together;
-- `ferry` is the same with at most two ships a set (max). `escort` takes
-- any set of the side's ships.
local FIRE_LIFT = [[
local function enemies(ctx, p, kind)
  local out, side = {}, ctx.game:get(p.by, "side")
  if kind == "unit" then
    for _, u in ipairs(ctx.game:units()) do
      if ctx.game:get(u, "side") ~= side and ctx.game:get(u, "side") ~= "Cargo" then out[#out + 1] = u end
    end
  else
    for _, g in ipairs(ctx.game:groups()) do
      if ctx.game:group_get_value(g, "side") ~= side then out[#out + 1] = g end
    end
  end
  return out
end
local function ships(ctx)
  local out = {}
  for _, u in ipairs(ctx.game:units()) do
    if ctx.game:get_value(u, "capacity") then out[#out + 1] = { value = u, label = ctx.game:get(u, "name") } end
  end
  return out
end
local function carried(ctx, p)
  local room = 0
  for _, s in ipairs(p.ships) do room = room + ctx.game:get_value(s, "capacity") end
  if room < ctx.game:get_value(p.cargo, "size") then return "L.2: not room enough" end
end
local function cargo(ctx)
  local out = {}
  for _, u in ipairs(ctx.game:units()) do
    if ctx.game:get_value(u, "size") then out[#out + 1] = u end
  end
  return out
end
rule {
  id = "L.1", title = "Fire",
  actions = { fire = {
    params = {
      by = { type = "unit", domain = function(ctx, _, side)
        local out = {}
        for _, u in ipairs(ctx.game:units()) do
          if ctx.game:get(u, "side") == side and not ctx.game:get_value(u, "capacity") then out[#out + 1] = u end
        end
        return out
      end },
      at_unit = { type = "unit?", depends = { "by" }, domain = function(ctx, p) return enemies(ctx, p, "unit") end },
      at_group = { type = "group?", depends = { "by" }, domain = function(ctx, p) return enemies(ctx, p, "group") end },
    },
    legal = function(ctx, p)
      if (p.at_unit == nil) == (p.at_group == nil) then return "L.1: fire at a unit or at a group" end
    end,
    effect = function() end,
  } },
}
rule {
  id = "L.2", title = "Lift",
  actions = {
    lift = {
      params = { cargo = { type = "unit", domain = cargo },
                 ships = { type = "units", depends = { "cargo" }, domain = ships } },
      legal = carried, effect = function() end,
    },
    ferry = {
      params = { cargo = { type = "unit", domain = cargo },
                 ships = { type = "units", depends = { "cargo" }, max = 2, domain = ships } },
      legal = carried, effect = function() end,
    },
    escort = { params = { ships = { type = "units", domain = ships } }, effect = function() end },
    -- a mode only with a ship named, and then required
    signal = {
      params = {
        ship = { type = "unit?", domain = ships },
        mode = { type = "string?", depends = { "ship" }, domain = function() return { "lamp", "flag" } end },
      },
      legal = function(ctx, p) if (p.ship == nil) ~= (p.mode == nil) then return "L.2: a mode with a ship" end end,
      effect = function() end,
    },
  },
}
]]

local function lift_setup()
  local set, g, ids = setup { ["l.lua"] = FIRE_LIFT }
  ids.x = g:unit_new { name = "X", type = "NT", side = "Cargo", values = { capacity = 2 } }
  ids.y = g:unit_new { name = "Y", type = "NT", side = "Cargo", values = { capacity = 2 } }
  ids.z = g:unit_new { name = "Z", type = "NT", side = "Cargo", values = { capacity = 1 } }
  ids.c = g:unit_new { name = "C", type = "inf", side = "Cargo", values = { size = 3 } }
  return set, g, ids
end

-- the orders an entry describes: its `orders`, or every combination of its parameters' lists
local function combos_of(e)
  if e.orders then return e.orders end
  local out = {}
  local function walk(i, vals)
    local q = e.params[i]
    if not q then out[#out + 1] = vals; return end
    local function with(v)
      local c = {}
      for k, x in pairs(vals) do c[k] = x end
      c[q.name] = v
      walk(i + 1, c)
    end
    local g = q
    if q.choices then
      g = nil
      for _, ch in ipairs(q.choices) do
        local same = true
        for _, d in ipairs(q.depends) do
          if json.encode(ch.given[d]) ~= json.encode(vals[d]) then same = false end
        end
        if same then g = ch end
      end
      if not g then return end
    elseif not q.domain then
      return walk(i + 1, vals)
    end
    if g.omit then with(nil) end
    for _, v in ipairs(q.type == "units" and g.sets or values(g.domain)) do with(v) end
  end
  walk(1, {})
  return out
end

t.test("legal-15: two optional parameters that exclude each other: each offered with its values and left out", function()
  local set, g, ids = lift_setup()
  local e = entry(set:legal_actions(g, "Blue"), "fire")
  t.eq(e.available, true)
  t.eq(e.checked, true)
  local at_unit, at_group = param(e, "at_unit"), param(e, "at_group")
  local a = at_unit.choices[1]
  t.eq(a.given, { by = ids.a })
  t.eq(values(a.domain), { ids.flag, ids.r })
  t.eq(a.omit, true, "at_unit may be left out (then at_group is named)")
  t.eq(values(at_group.choices[1].domain), { ids.red })
  t.eq(at_group.choices[1].omit, true)
  -- the lists alone would allow neither and both: the legal orders are listed
  t.eq(e.orders, {
    { by = ids.a, at_unit = ids.flag }, { by = ids.a, at_unit = ids.r }, { by = ids.a, at_group = ids.red },
    { by = ids.b, at_unit = ids.flag }, { by = ids.b, at_unit = ids.r }, { by = ids.b, at_group = ids.red },
  })
  for _, o in ipairs(e.orders) do t.eq(set:check(g, "fire", o), nil, "each listed order is legal") end
  t.ok(set:check(g, "fire", { by = ids.a }), "neither: refused")
  t.ok(set:check(g, "fire", { by = ids.a, at_unit = ids.r, at_group = ids.red }), "both: refused")
  -- where the lists are exact, no orders are listed
  local join = entry(set:legal_actions(g, "Blue"), "join")
  t.eq(join.orders, nil)
  t.eq(#combos_of(join), 3)
end)

t.test("legal-16: a required parameter is never left out; an optional one only where the order without it is legal", function()
  local set, g, ids = lift_setup()
  local e = entry(set:legal_actions(g, "Blue"), "fire")
  t.eq(param(e, "by").omit, nil)
  -- only Red's groups to fire at: with no Red group, at_unit must be named
  g:group_set_value(ids.red, "side", "Blue")
  e = entry(set:legal_actions(g, "Blue"), "fire")
  t.eq(param(e, "at_unit").choices[1].omit, nil, "without a group to fire at, the unit is required")
  t.eq(values(param(e, "at_unit").choices[1].domain), { ids.flag, ids.r })
  t.eq(param(e, "at_group").choices[1], { given = { by = ids.a }, domain = {}, omit = true },
    "no group to offer: it is only left out")
  t.eq(e.orders, nil, "the lists are exact again")
end)

t.test("legal-17: a cargo that needs two ships together is offered with the sets that carry it", function()
  local set, g, ids = lift_setup()
  local e = entry(set:legal_actions(g, "Cargo"), "lift")
  t.eq(e.available, true)
  t.eq(e.checked, true)
  local ships = param(e, "ships").choices[1]
  t.eq(ships.given, { cargo = ids.c })
  t.eq(values(ships.domain), { ids.x, ids.y, ids.z })
  t.eq(ships.domain[1].label, "X", "the elements keep their extras")
  t.eq(ships.sets, { { ids.x, ids.y }, { ids.x, ids.z }, { ids.y, ids.z }, { ids.x, ids.y, ids.z } },
    "no ship alone has room for 3; smaller sets first")
  t.eq(ships.any_set, nil)
  for _, s in ipairs(ships.sets) do t.eq(set:check(g, "lift", { cargo = ids.c, ships = s }), nil) end
  t.eq(e.orders, nil, "cargo and its sets are exact")
  -- at most two ships a set (max)
  local ferry = param(entry(set:legal_actions(g, "Cargo"), "ferry"), "ships")
  t.eq(ferry.max, 2)
  t.eq(ferry.choices[1].sets, { { ids.x, ids.y }, { ids.x, ids.z }, { ids.y, ids.z } })
end)

t.test("legal-18: when every set is legal, the list says so (any_set) instead of listing 2^n - 1 sets", function()
  local set, g, ids = lift_setup()
  local escort = param(entry(set:legal_actions(g, "Cargo"), "escort"), "ships")
  t.eq(values(escort.domain), { ids.x, ids.y, ids.z })
  t.eq(escort.any_set, true)
  t.eq(escort.sets, nil)
  local lift = param(entry(set:legal_actions(g, "Cargo"), "lift"), "ships")
  t.eq(lift.choices[1].any_set, nil)
end)

t.test("legal-19: past MAX_CHECKS the larger sets are not enumerated: truncated, unchecked, what is listed legal", function()
  local legal = require "keel.legal"
  local set, g, ids = lift_setup()
  local saved = legal.MAX_CHECKS
  legal.MAX_CHECKS = 5    -- escort: 3 one-ship sets, then 3 two-ship sets would make 6
  local ok, e = pcall(function() return entry(set:legal_actions(g, "Cargo"), "escort") end)
  legal.MAX_CHECKS = saved
  assert(ok, e)
  t.eq(e.truncated, true)
  t.eq(e.checked, false)
  t.eq(e.available, true)
  t.eq(param(e, "ships").sets, { { ids.x }, { ids.y }, { ids.z } })
  t.eq(param(e, "ships").any_set, nil)
  legal.MAX_CHECKS = 6
  ok, e = pcall(function() return entry(set:legal_actions(g, "Cargo"), "escort") end)
  legal.MAX_CHECKS = saved
  assert(ok, e)
  t.eq(e.truncated, true, "the three-ship set does not fit")
  t.eq(#param(e, "ships").sets, 6)
  legal.MAX_CHECKS = 7
  ok, e = pcall(function() return entry(set:legal_actions(g, "Cargo"), "escort") end)
  legal.MAX_CHECKS = saved
  assert(ok, e)
  t.eq(e.checked, true)
  t.eq(param(e, "ships").any_set, true)
end)

t.test("legal-21: a parameter whose dependency is left out is only left out; given then lacks it", function()
  local set, g, ids = lift_setup()
  local e = entry(set:legal_actions(g, "Cargo"), "signal")
  t.eq(e.checked, true)
  local ship, mode = param(e, "ship"), param(e, "mode")
  t.eq(values(ship.domain), { ids.x, ids.y, ids.z })
  t.eq(ship.omit, true)
  t.eq(mode.choices[1], { given = {}, domain = {}, omit = true }, "no ship: no mode")
  t.eq(mode.choices[2], { given = { ship = ids.x }, domain = { { value = "lamp" }, { value = "flag" } } },
    "a ship: a mode, required")
  t.eq(#mode.choices, 4)
  t.eq(e.orders, nil, "the lists are exact")
  t.eq(#combos_of(e), 7)
end)

-- the real thing: OCS 18.3, a barrage names a naval target or a ground hex
t.test("legal-20: 18.3 barrage: naval targets and ground hexes each also left out, firers together, the orders", function()
  local D = dofile("tests/lua/domains_fixture.lua")
  local p = D.open("scenarios/ocs_salerno.lua")
  D.play(p, D.find_order(p, function(o) return o[1] == "barrage" and o.hex == "S:0805" end))
  local e = D.action(p, "Allied", "barrage")
  t.eq(e.available, true)
  t.eq(e.checked, true)
  local units = D.param(e, "units")
  local id = {}
  for _, c in ipairs(units.domain) do id[c.label] = c.value end
  local ws, ug, a820, a826 = id.Warspite, id.Uganda, id["Albacore 820"], id["Albacore 826"]
  local target = D.choice(D.param(e, "target"), { units = { ws } })
  t.eq(D.labels(target), { "Lupo", "Sagittario", "Batteria Salerno" })
  local hexes
  for _, ch in ipairs(D.param(e, "hex").choices) do
    if json.encode(ch.given) == json.encode({ units = { ws } }) then hexes = ch end
  end
  t.ok(D.find(hexes.domain, "S:0805"), "Warspite's ground barrage at S:0805 (the showcase's order) is offered")
  t.eq(hexes.omit, true)
  for _, ch in ipairs(D.param(e, "target").choices) do
    if json.encode(ch.given) == json.encode({ units = { ws } }) then t.eq(ch.omit, true) end
  end
  -- the orders: one of target and hex, never both, never neither
  local lupo, sag = D.find(target, "Lupo").value, D.find(target, "Sagittario").value
  local listed = {}
  for _, o in ipairs(e.orders) do
    t.ok((o.target == nil) ~= (o.hex == nil), json.encode(o))
    listed[json.encode(o)] = true
  end
  t.ok(listed[json.encode({ hex = "S:0805", units = { ws } })])
  t.ok(listed[json.encode({ target = lupo, units = { ws } })])
  -- firers together: the two Albacores at Sagittario (the showcase's later order);
  -- Warspite and Uganda at Lupo, not at Sagittario (beyond Uganda's range 3)
  t.ok(listed[json.encode({ target = sag, units = { a820, a826 } })], "two planes fire together")
  t.ok(listed[json.encode({ target = lupo, units = { ws, ug } })])
  t.eq(listed[json.encode({ target = sag, units = { ws, ug } })], nil)
  local two = false
  for _, set in ipairs(units.sets) do if #set == 2 then two = true end end
  t.ok(two, "sets of two firers are offered")
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

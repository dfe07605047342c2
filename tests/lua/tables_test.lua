-- tests/lua/tables_test.lua — keel.tables: the format, the transcribed Rule
-- 32/37 tables against the rule texts, modifiers, and malformed tables.
-- luacheck: no max line length (printed rule texts are quoted whole)
local t = require "keel.testing"
local keel = require "keel"
local tables = require "keel.tables"
local odds = require "keel.odds"
local nt = t.family_tables("navgroup")
local ot = t.family_tables("ocs")

local function codes(tbl, column)
  local out = {}
  for i, row in ipairs(tbl.rows) do
    out[i] = tables.range_text(row.range) .. " " .. tostring(column and row[column] or row.cells[1])
  end
  return out
end

local function amounts(tbl)
  local out = {}
  for i, m in ipairs(tbl.modifiers) do
    out[i] = (m.per and (m.amount < 0 and "-#" or "+#") or ("%+d"):format(m.amount)) .. " " .. m.text
  end
  return out
end

-- ---- 32.B Naval Search Table ------------------------------------------------------

t.test("32.B-search-1: the Naval Search Table rows are as printed (2D6)", function()
  local s = nt.naval_search
  t.eq(s.title, "NAVAL SEARCH TABLE")
  t.eq(s.rule, "32.B")
  t.eq(s.dice.text, "2d6")
  t.eq(codes(s), { "3 or less D", "4-6 F*", "7-10 F", "11-13 S", "14+ S*" })
end)

t.test("32.B-search-2: all 21 modifiers, cumulative, with their printed amounts", function()
  t.eq(amounts(nt.naval_search), {
    "-# Where # equals each 5 hexes from the furthest enemy airbase flying naval patrol whose air units are used in the search..",
    "-2 During stormy sea conditions.",
    "-1 During rough sea conditions.",
    "-1 For each air unit on naval air escort up to a maximum equal to air units on naval air patrol.",
    "-1 If phasing naval group is moving at night.",
    "-1 If phasing naval group did not leave the search hex.",
    "+1 If search hex is a friendly owned coastal hex.",
    "+1 If search hex is a friendly owned major or great port",
    "+1 If naval base is within 10 hexes.",
    "+1 If search hex is in an enemy partial ZOC.",
    "+1 Each air unit within range used to search on naval air patrol.",
    "+1 If the phasing naval group has been previously found in the current step.",
    "+1 If phasing naval group is mixed.",
    "+2 If phasing naval group is cargo.",
    "+2 If search hex is in an enemy full ZOC",
    "+3 If search hex is in an enemy double (or greater) ZOC.",
    "+# Where # equals the port interdiction level in the search hex.",
    "+# Where # equals the BLOCKADE level in the search hex.",
    "+# Where # is equal to the largest port size within range.",
    "+# Where # is equal to the highest CD level within range.",
    "+# Where # is equal to TF size divided by 4 (rounded down).",
  })
  t.eq(nt.naval_search.notes, { "Protected waters negate all non-air, non-ground unit ZOC modifiers." })
end)

t.test("32.B-search-3: a net +1 gives D 1/36, F* 9/36, F 20/36, S 6/36, S* 0", function()
  local o = odds.table(nt.naval_search, 1)
  t.eq(o.den, 36)
  local got = {}
  for i, r in ipairs(o.rows) do got[i] = r.result .. " " .. r.count end
  t.eq(got, { "D 1", "F* 9", "F 20", "S 6", "S* 0" })
  t.eq(tostring(odds.result(o, "F*")), "1/4")
  t.eq(tostring(odds.result(o, "F")), "5/9")
  t.eq(tostring(odds.result(o, "S")), "1/6")
end)

t.test("32.B-search-4: results are described as printed", function()
  local s = nt.naval_search
  t.eq(s.legend_order, { "D", "F*", "F", "S", "S*" })
  t.ok(s:describe(s.rows[1].cells[1]):find('^Disaster: The attempt fails%. The searching naval group gets a "%-2 Step" marker'),
    "D is a disaster with a -2 Step marker")
  t.ok(s.legend["S*"]:find("If another great success is rolled, continue to roll for more airbases.", 1, true),
    "S* text complete")
end)

t.test("32.B-search-5: modifiers are cumulative; counts and # values multiply", function()
  local s = nt.naval_search
  local total, applied = s:modifiers_for { cargo_group = true, stormy_seas = true, port_size = 3,
    air_patrol = 2, airbase_distance = 2, night = false }
  t.eq(total, 2 - 2 + 3 + 2 - 2)
  local names = {}
  for i, a in ipairs(applied) do names[i] = a.name .. a.amount end
  t.eq(names, { "airbase_distance-2", "stormy_seas-2", "air_patrol2", "cargo_group2", "port_size3" })
  t.raises(function() s:modifiers_for { port_size = true } end, "needs a number")
  t.raises(function() s:modifiers_for { cargo_group = 1.5 } end, "boolean or an integer")
  t.raises(function() s:modifiers_for { cargo = true } end, "no modifier named cargo")
end)

t.test("32.B-search-6: rolls beyond the ends clamp to the first/last row", function()
  local s = nt.naval_search
  -- "3 or less" and "14+" are open: nothing beyond them to clamp
  local r, row, clamped = s:lookup(-20)
  t.eq({ tostring(r), row.index, clamped }, { "D", 1, false })
  r, row, clamped = s:lookup(40)
  t.eq({ tostring(r), row.index, clamped }, { "S*", 5, false })
  -- the Landing Effects Table tops out at a closed 6: a 9 clamps to it
  local e, erow, eclamped = nt.amphibious_landing_effects:lookup(9)
  t.eq({ e.Unit.code, erow.index, eclamped }, { "NE", 1, true })
  r, row, clamped = s:lookup(14)
  t.eq(row.index, 5)
  t.eq({ tostring(r), clamped }, { "S*", false })
  t.eq(tostring((s:lookup(3))), "D")
  t.eq(tostring((s:lookup(4))), "F*")
  t.eq(tostring((s:lookup(10))), "F")
  t.eq(tostring((s:lookup(11))), "S")
end)

t.test("32.B-search-7: resolve rolls, applies bound predicates and records them", function()
  local s = nt.naval_search:bind {
    cargo_group = function(ctx) return ctx.group.kind == "cargo" end,
    tf_size = function(ctx) return ctx.group.tfs // 4 end,
  }
  local d = keel.dice.new(99)
  local seen
  d:on_roll(function(rec) seen = rec end)
  d:force(6, 6)
  local res, rec = s:resolve(d, { group = { kind = "cargo", tfs = 9 }, night = true },
    { stream = "navgroup", reason = "search by port at 33:1223" })
  t.eq(res.code, "S*")
  t.eq(rec.die, 12)
  t.eq(rec.modifier, 2 + 2 - 1)
  t.eq(rec.modified, 15)
  t.eq(rec.range, "14+")
  t.eq(rec.rule, "32.B")
  t.eq(rec.roll, seen)
  t.eq(seen.rule, "32.B")
  t.eq(seen.reason, "search by port at 33:1223")
  t.eq(seen.forced, true)
  t.eq(#rec.modifiers, 3)
  t.eq(tables.narrate(rec),
    "naval_search (rule 32.B): rolled 12 (6+6) -1 night +2 cargo_group +2 tf_size = 15 -> 14+: S*")
  t.raises(function() nt.naval_search:bind { cargo = true } end, "no modifier named cargo")
  -- the unbound table is unchanged
  t.eq(next(nt.naval_search.bindings), nil)
  local _, rec2 = s:resolve(d, { group = { kind = "combat", tfs = 0 } }, { modifier = -3 })
  t.eq(rec2.modifier, -3)
  t.eq(rec2.modifiers[1].name, "extra")
end)

t.test("32.B-search-8: the quick modifier sum (C) agrees with modifiers_for, and leaves it what it must decide", function()
  local s = nt.naval_search
  local sum = keel.tables.sum_modifiers
  local amts, per = s.modifier_amounts, s.modifier_per
  t.eq(amts.cargo_group, 2)
  t.eq(amts.night, -1)
  t.eq(per.blockade, true)
  -- random plain contexts: the same total as the ordered walk
  local d = keel.dice.new(17)
  local names = {}
  for i, m in ipairs(s.modifiers) do names[i] = m.name end
  for _ = 1, 300 do
    local ctx = { group = "context for predicates", [1] = 5 }
    for _ = 1, d:range(6) do
      local name = names[d:range(#names)]
      local v = d:range(4)
      if per[name] then ctx[name] = v - 1 elseif v == 1 then ctx[name] = false
      elseif v == 2 then ctx[name] = 0 elseif v == 3 then ctx[name] = true else ctx[name] = v end
    end
    t.eq(sum(ctx, amts, per), (s:modifiers_for(ctx)))
  end
  -- what the ordered walk must decide
  t.eq(sum({ nigth = true }, amts, per), nil, "a boolean under a name that is no modifier")
  t.eq(sum({ blockade = true }, amts, per), nil, "true for a # modifier")
  t.eq(sum({ night = 1.5 }, amts, per), nil, "a float")
  t.eq(sum({ night = function() return true end }, amts, per), nil, "a predicate")
  t.eq(sum({ night = "yes" }, amts, per), nil, "a string")
  t.eq(sum({}, amts, per), 0)
  t.eq(sum({ blockade = math.maxinteger, cargo_group = 1 }, amts, per), math.maxinteger + 2, "wraps as Lua does")
  t.eq(sum(nil, amts, per), nil, "no table")
  t.eq(sum(setmetatable({}, { __index = { night = true } }), amts, per), nil, "a table read through a metatable")
  t.raises(function() sum({}, nil, per) end, "table expected")
  -- a resolve without a record takes the same row as one with
  local a, b = keel.dice.new(5), keel.dice.new(5)
  for _, ctx in ipairs({ { cargo_group = true, night = true, air_patrol = 3 }, { blockade = 2 }, {} }) do
    for _ = 1, 20 do
      local quick = s:_resolve(a, ctx, "32.B", "x", nil, nil, nil, false)
      local full, rec = s:resolve(b, ctx)
      t.eq(quick, full)
      t.eq(rec.modifier, (s:modifiers_for(ctx)))
    end
  end
  t.raises(function() s:_resolve(a, { nigth = true }, "32.B", "x", nil, nil, nil, false) end, "nigth")
end)

-- ---- 32.A.3 Naval MP Cost Summary ------------------------------------------------------

t.test("32.A.3-mp-1: the MP cost summary has its 29 activities and TF/NT/LC/LB columns", function()
  local c = nt.naval_mp_cost
  t.eq(c.columns, { "TF", "NT", "LC", "LB" })
  t.eq(#c.rows, 29)
  t.eq(c.rows[1].label, "Each round of naval combat after the first.")
  t.eq(c.rows[29].label, "Disembark c/m, or cavalry cargo making an amphibious assault.")
  t.eq(c.dice, nil)
end)

t.test("32.A.3-mp-2: costs, '-' for not allowed, and the x5 multiplier", function()
  local c = nt.naval_mp_cost
  local function row(key)
    local out = {}
    for i, col in ipairs(c.columns) do out[i] = tostring(c:get(key, col)) end
    return table.concat(out, " ")
  end
  t.eq(row("combat_round"), "1 1 1 1")
  t.eq(row("enter_all_sea"), "1 1 1 2")
  t.eq(row("enter_river_canal"), "1 1 1 2")
  t.eq(row("enter_coastal"), "2 2 2 3")
  t.eq(row("river_flotilla"), "6 - - -")
  t.eq(row("lay_mine"), "5 - - -")
  t.eq(row("load_code_air"), "5 - - -")
  t.eq(row("port_interdiction"), "x5 x5 x5 x5")
  t.eq(row("replenish"), "15 15 15 15")
  t.eq(row("sweep_mine"), "15 - - -")
  t.eq(row("prepare_pi_quarter"), "15 - - -")
  t.eq(row("prepare_pi_half"), "30 - - -")
  t.eq(row("prepare_pi_full"), "60 - - -")
  t.eq(row("prepare_ngs_quarter"), "15 - - -")
  t.eq(row("prepare_ngs_half"), "30 - - -")
  t.eq(row("prepare_ngs_full"), "60 - - -")
  t.eq(row("transfer_nt_to_lc"), "- 30 30 -")
  t.eq(row("transfer_nt_to_lb"), "- 45 - 45")
  t.eq(row("ed_port"), "15 15 15 15")
  t.eq(row("ed_port_he"), "30 30 30 30")
  t.eq(row("ed_beach_amph"), "- - 30 45")
  t.eq(row("ed_beach_intrinsic"), "30 30 30 30")
  t.eq(row("ed_beach_non_amph_he"), "105 105 45 60")
  t.eq(row("ed_beach_non_amph"), "45 45 - -")
  t.eq(row("assault_intrinsic"), "45 45 45 45")
  t.eq(row("assault_amph"), "- - 45 60")
  t.eq(row("assault_non_amph"), "60 60 - -")
  t.eq(row("assault_he"), "120 120 60 75")
  t.eq(row("assault_cm_cavalry"), "- - 75 90")
  local x5 = c:get("port_interdiction", "LB")
  t.eq({ x5.kind, x5.num, x5.den }, { "multiply", 5, 1 })
  t.eq(c:get("enter_coastal", "LB").value, 3)
  t.eq(c:get("river_flotilla", "NT").kind, "none")
  t.raises(function() c:get("fly") end, "no row 'fly'")
  t.raises(function() c:get("replenish", "BB") end, "no column 'BB'")
  t.eq(#c.notes, 4)
end)

-- ---- 37.B Strength/RE multipliers and the Landing Effects Table --------------------------

t.test("37.B-strength-1: strength and RE size multipliers as printed", function()
  local s, re = nt.amphibious_strength, nt.amphibious_re_size
  local got = {}
  for i, row in ipairs(s.rows) do got[i] = tostring(row.cells[1]) .. " " .. row.label end
  t.eq(got, { "x 1/2 Cavalry unit", "x 1/2 Armour unit (non-amphibious)*", "x 1 Intrinsically amphibious unit.",
    "x 1 Carried by Landing Craft during the amph assault.",
    "x3/4 Carried by Landing Barge to beach during amph assault.",
    "x 1/2 Carried by NT or TF/ship to beach during amph assault.",
    "x 1/2 Coastal cliffs or mountains in hex.", "x 1/2 Rough sea conditions.", "x 1/2 Heavy snow weather." })
  local lb = s:get("landing_barge", "multiplier")
  t.eq({ lb.num, lb.den }, { 3, 4 })
  t.eq(re:get("heavy_equipment", "multiplier").num, 2)
  t.eq(re:get("cavalry_cm", "multiplier").num, 4)
  t.eq(tables.product { s:get("cavalry", "multiplier"), s:get("rough_seas", "multiplier"),
    s:get("landing_barge", "multiplier") }, { num = 3, den = 16 })
end)

t.test("37.B-effects-1: the Landing Effects Table rows, 6 down to -6 or less", function()
  local e = nt.amphibious_landing_effects
  t.eq(e.dice.text, "1d6")
  t.eq(e.columns, { "Unit", "SP/SRP" })
  t.eq(codes(e, "Unit"), { "6 NE", "5 NE", "4 NE", "3 + 1 MP", "2 + 2 MP", "1 + 3 MP", "0 + 4 MP",
    "-1 + 5 MP", "-2 + 6 MP", "-3 + 7 MP", "-4 + 8 MP", "-5 + 9 MP", "-6 or less + 10 MP" })
  t.eq(codes(e, "SP/SRP"), { "6 NE", "5 1/12 S", "4 1/6 S", "3 1/4 S", "2 1/3 S", "1 ½ S", "0 2/3 S",
    "-1 3/4 S", "-2 5/6 S", "-3 11/12 S", "-4 E", "-5 E", "-6 or less E" })
  t.eq(e:lookup(9).Unit.code, "NE")           -- above 6 clamps to 6
  t.eq(e:lookup(-9).Unit.mp, 10)
end)

t.test("37.B.13-1: a modified 1 places +3 MP and scatters 1/2 SP; a modified -2, +6 MP and 5/6", function()
  local e = nt.amphibious_landing_effects
  local r1 = e:lookup(1)
  t.eq(r1.Unit.mp, 3)
  t.eq({ r1["SP/SRP"].num, r1["SP/SRP"].den }, { 1, 2 })   -- 1/2 SP lands
  local r2 = e:lookup(-2)
  t.eq(r2.Unit.mp, 6)
  local sc = r2["SP/SRP"]
  t.eq({ sc.num, sc.den }, { 5, 6 })                         -- 1/6 SP lands
  t.eq(e:describe(r2.Unit), 'MP Penalty: Place the appropriate "+ # MP" marker on the unit. Double the # if placed on a motorized unit.')
  t.eq(e:describe(sc), "Supply Scattered: Reduce the SP/SRP by the #.")
end)

t.test("37.B-effects-2: the 23 landing modifiers with their printed amounts", function()
  t.eq(amounts(nt.amphibious_landing_effects), {
    "+# The operational port size of an in-hex port captured earlier this turn.",
    '+# The largest "+ # MP" marker currently on the defending enemy units.',
    "+3 Hex was captured in a previous friendly player-turn.",
    "+3 LC used in landing/amph. assault for non-intrinsically amphibious units.",
    "+2 Hex captured during previous phase of current turn.",
    "+2 LB used in landing non-intrinsically amphibious units.",
    "+2 Landing unit is a commando.",
    "+2 Landing unit is a marine.",
    "+1 Landing unit is a mountain unit.",
    "-1 Amphibious landing before Nov 1 43",
    "-1 If transporting naval unit is in restricted waters",
    "-1 For each non-suppressed CD level in the hex of an amphibious landing.",
    "-1 For amphibiously assaulting a hex occupied before reaction movement.",
    "-1 For amphibiously landing into a non-clear terrain hex.",
    "-1 For amphibiously landing into a partial ZOC.",
    "-1 For amphibiously landing in a hex containing an enemy fort.",
    "-2 If unit is c/m, artillery, or cavalry.",
    "-2 For amphibiously landing into a full ZOC.",
    "-3 Amphibious landing in rough seas.",
    "-3 For amphibiously landing into a double or triple ZOC.",
    "-3 If the landing unit is not intrinsically amphibious.",
    "-3 If the landing unit has heavy equipment.",
    "-1 For each 5 MP reduction in total naval MP cost of the landing or assault. Up to a maximum of ½ of the total cost may be reduced.",
  })
  local total = nt.amphibious_landing_effects:modifiers_for { cd_level = 2, mp_reduction = 3, marine = true }
  t.eq(total, -2 - 3 + 2)
  t.eq(#nt.amphibious_landing_effects.notes, 2)
end)

-- ---- 37.D Landing craft damage ------------------------------------------------------------

t.test("37.D-damage-1: results and the 7 modifiers as printed; rows from the SUCCESS TABLE", function()
  local dmg = nt.landing_craft_damage
  t.eq(dmg.rows_from, "success_table")
  t.eq(amounts(dmg), { "-1 If cargo disembarked into an enemy occupied hex.",
    "-1 If invasion hex contains coastal cliffs or mountains.",
    "-1 For each strength point of CDs that may fire into the hex.",
    "-1 If rolling for an LB.", "-3 If rolling for an NT.", "+1 During rough sea conditions.",
    "+3 During calm sea conditions." })
  t.eq(dmg.legend_order, { "D", "F*", "F", "S", "S*" })
  t.eq(dmg.legend.D, "Disaster: The LC is destroyed. An LB/NT is permanently eliminated")
  t.eq(dmg.legend.S, "Success: The LC/LB disembarked without incurring damage. NTs spend 30 extra MPs.")
  t.ok(nt.success_table.title:find("stand%-in"), "the SUCCESS TABLE here says it is a stand-in")
end)

t.test("37.D-damage-2: each result per type (LC / LB / NT) as the result texts give it", function()
  local fx = nt.landing_craft_damage_effects
  local function per(code)
    return ("%s %s %s"):format(tostring(fx:get(code, "LC")), tostring(fx:get(code, "LB")),
      tostring(fx:get(code, "NT")))
  end
  t.eq(per("D"), "destroyed eliminated eliminated")
  t.eq(per("F*"), "damaged destroyed destroyed")
  t.eq(per("F"), "damaged damaged destroyed")
  t.eq(per("S"), "NE NE +30 MP")
  t.eq(per("S*"), "-5 MP -5 MP NE")
  t.eq(fx:get("S", "NT").mp, 30)
end)

t.test("37.D-damage-3: an NT in calm seas, and a scenario's own SUCCESS TABLE", function()
  local dmg = nt.landing_craft_damage
  local d = keel.dice.new(4)
  d:force(1)
  local res, rec = dmg:resolve(d, { naval_transport = true, calm_seas = true })
  t.eq(rec.modified, 1)
  t.eq(res.code, nt.success_table:lookup(1).code)
  t.eq(rec.rule, "37.D")
  -- a scenario replaces the stand-in; tables citing it follow
  local mine = tables.parse([[
table success_table
title SUCCESS TABLE (scenario)
dice 1d6
rows
2 or less  F
3+         S
]], "scenario.tbl")[1]
  local set = nt.set
  local old = set.tables.success_table
  set.tables.success_table = mine             -- as a scenario's variant does
  local linked = set:table("landing_craft_damage")
  t.eq(tostring((linked:lookup(1))), "F")
  t.eq(tostring(odds.result(odds.table(linked, 0), "S")), "2/3")
  t.eq(tostring((dmg:lookup(1))), tostring(old:lookup(1)), "a table asked before keeps the rows it was given")
  t.eq(tostring((t.family_tables("navgroup").landing_craft_damage:lookup(1))), tostring(old:lookup(1)),
    "another set keeps the stand-in")
  set.tables.success_table = old
  t.eq(tostring((set:table("landing_craft_damage"):lookup(1))), tostring(old:lookup(1)))
  -- a table nobody linked (read from its file alone) names what it lacks
  local raw = tables.load("scripts/navgroup/tables/landing_craft_damage.tbl", "landing_craft_damage")
  t.raises(function() raw:lookup(1) end, "which the rule set does not have")
end)

-- ---- 37.E Enemy reaction -------------------------------------------------------------------

t.test("37.E-reaction-1: results and the 9 modifiers as printed", function()
  local r = nt.invasion_reaction
  t.eq(r.rows_from, "success_table")
  t.eq(amounts(r), { "-1 Airdrops.", "-1 German airdrops before Aug 1 41.",
    "-1 Commandos (only) are making airdrop/invasion.",
    "-1 For each 5 hexes that one of the adjacent airdrop/invasion hexes is from the front line (or from enemy-owned hexes).",
    "-1 If all of the group of adjacent airdrop/invasion hexes are unoccupied by enemy units.",
    "-1 If the airdrop/invasion occurs during a surprise phase.",
    "+1 If the theatre's MDs are all active.",
    "+1 If one of the invasion/airdrop hexes includes a minor/standard port.",
    "+2 If one of the invasion/airdrop hexes includes a major/great port" })
  t.eq(r.legend_order, { "D", "F*", "F", "S", "S*" })
  t.ok(r.legend["F*"]:find("^Complete Failure: Reserves within 5 hexes"), "F* text")
  t.eq(r.notes[1], "No reacting unit may start in an enemy ZOC.")
  t.eq(r:modifiers_for { distance_from_front = 2, major_port = true }, 0)
end)

-- ---- the OCS stand-in ---------------------------------------------------------------------------

t.test("18.3-barrage-1: the Barrage Table stand-in loads and says it is one", function()
  local b = ot.barrage_table
  t.ok(b.title:find("stand%-in"), "stand-in title")
  t.eq(b.columns, { "1-2", "3-5", "6-9", "10+" })
  t.eq(tostring(b:lookup(12)["10+"]), "2")
end)

t.test("18.5f-alt-1: the ALT stand-in: two dice per hex, says it is a stand-in", function()
  local alt = ot.amphibious_landing_table
  t.ok(alt.title:find("stand%-in"), "stand-in title")
  t.eq(alt.rule, "18.5f")
  t.eq(tostring(alt:lookup(2)), "L2")
  t.eq(tostring(alt:lookup(12)), "NE")
end)

t.test("tables-columns-1: column_for finds the column whose printed range holds a strength, shifts and clamps", function()
  local b = ot.barrage_table          -- columns 1-2 3-5 6-9 10+
  t.eq({ b:column_for(1) }, { "1-2", 1, false })
  t.eq({ b:column_for(5) }, { "3-5", 2, false })
  t.eq({ b:column_for(5.5) }, { "3-5", 2, false }, "a fraction between two ranges stays in the lower")
  t.eq({ b:column_for(40) }, { "10+", 4, false })
  t.eq({ b:column_for(7, -1) }, { "3-5", 2, false }, "one column left")
  t.eq({ b:column_for(7, 5) }, { "10+", 4, true }, "clamped to the last column")
  t.eq({ b:column_for(2, -3) }, { "1-2", 1, true }, "clamped to the first column")
  local name, why = b:column_for(0.5)
  t.eq(name, nil)
  t.ok(why:find("below the first column", 1, true), why)
  local search = nt.naval_search
  t.raises(function() search:column_for(3) end, "is not a range")
end)

-- ---- the format ---------------------------------------------------------------------------------

t.test("tables-format-1: cells parse into structure", function()
  local function c(s) return tables.parse_cell(s) end
  t.eq({ c("+3 MP").kind, c("+3 MP").mp }, { "mp", 3 })
  t.eq({ c("+ 10 MP").mp, c("-5 MP").mp }, { 10, -5 })
  t.eq({ c("1/6 S").kind, c("1/6 S").num, c("1/6 S").den }, { "scatter", 1, 6 })
  t.eq({ c("½ S").num, c("½ S").den }, { 1, 2 })
  t.eq({ c("x5").kind, c("x5").num, c("x5").den }, { "multiply", 5, 1 })
  t.eq({ c("x 1/2").num, c("x 1/2").den }, { 1, 2 })
  t.eq({ c("E").kind, c("E").code }, { "code", "E" })
  t.eq(c("F*").code, "F*")
  t.eq(c("NE").code, "NE")
  t.eq(c("D").code, "D")
  t.eq(c("S*").code, "S*")
  t.eq({ c("15").kind, c("15").value }, { "number", 15 })
  t.eq(c("-").kind, "none")
  t.eq(c("?"), nil)
end)

t.test("tables-format-2: comments, several tables a file, ranges in any order", function()
  local ts = tables.parse([[
-- a comment
table a
dice 1d6
rows
  -- rows may be indented; comments between them
  5+       S
  2-4      F
  1 or less D

table b
columns x y
rows
one  The first | 1 -
two          | x2 +1 MP
]], "two.tbl")
  t.eq(#ts, 2)
  t.eq(ts.a.file, "two.tbl")
  t.eq(ts.b.line, 10)
  t.eq(tostring((ts.a:lookup(3))), "F")
  t.eq(ts.b.rows[2].label, nil)
  t.eq(tostring(ts.b:get("two", "y")), "+1 MP")
end)

-- ---- malformed tables: file:line:col and what was expected ------------------------------------

local malformed = {
  { "", "1:1: no tables in the file" },
  { "tabel x\n", "1:1: expected a table line" },
  { "table 9x\n", "1:7: expected a table name" },
  { "table t\ndice 2x6\n", "2:7: expected 'd'" },
  { "table t\ndice 2d6 junk\nrows\n2 D\n", "2:10: expected the end of the line" },
  { "table t\ndice\n", "2:1: expected a table line" },
  { "table t\ndice 2d6\nrows\n3 or less D\n4-6 F* ?\n", "5:8: expected a result such as" },
  { "table t\ndice 2d6\nrows\n3 or less D\n4-6\n", "5:1: expected a row" },
  { "table t\ndice 2d6\nrows\n3 or less D\n5-6 F\n", "5:1: range 5-6 leaves a gap after 3 or less (4 uncovered)" },
  { "table t\ndice 2d6\nrows\n3 or less D\n3-6 F\n", "5:1: range 3-6 overlaps range 3 or less" },
  { "table t\ndice 2d6\nrows\n6-4 D\n", "4:1: empty range 6-4" },
  { "table t\ndice 2d6\ncolumns A B\nrows\n3 or less D\n4+ F\n", "5:1: 2 result(s) expected (columns: A B), got 1" },
  { "table t\ndice 2d6\nrows\n2+ D\nmodifiers\n+2 If cargo.\n", "6:6: expected ':' after the modifier name" },
  { "table t\ndice 2d6\nrows\n2+ D\nmodifiers\ncargo: If cargo.\n", "6:1: expected a modifier amount" },
  { "table t\ndice 2d6\nrows\n2+ D\nmodifiers\n+2 9x: If cargo.\n", "6:4: expected a modifier name" },
  { "table t\ndice 2d6\nrows\n2+ D\nmodifiers\n+2 a: x\n-1 a: y\n", "7:1: modifier 'a' given twice" },
  { "table t\ndice 2d6\nrows\n2+ D\nresults\nS: Success.\n", "4:1: result 'D' is not described" },
  { "table t\ncolumns A\nrows\nfoo The foo 3\n", "4:14: expected '|' between the row's label and its cells" },
  { "table t\ndice 2d6\nrows\nfoo Foo | D\n", "4:1: a die range (as in 4-6, 3 or less, 14+) expected" },
  { "table t\ncolumns A\nrows\n3 D\n", "4:1: a row name expected in table t" },
  { "table t\nrows from s\nrows\n", "3:1: 'rows' given twice" },
  { "table t\nrows from s\n", nil },   -- valid: rows come from s
  { "table t\nrows from 9\n", "2:11: expected a table name after 'rows from'" },
  { "table t\ndice 1d6\nrows from s\n", "1:1: table t: 'dice' and 'rows from' exclude each other" },
  { "table t\ncolumns A\nrows\na x | 1\nmodifiers\n+1 m: x\n", "6:1: table t has modifiers but no 'dice' line" },
  { "table t\ndice 1d6\nrows\n1+ D\ntable t\ndice 1d6\nrows\n1+ D\n", "5:1: table 't' defined twice" },
  { "table t\ntitle A\ntitle B\ndice 1d6\nrows\n1+ D\n", "3:1: 'title' given twice" },
  { "table t\ncolumns A A\nrows\na x | 1 2\n", "1:1: column 'A' given twice" },
  { "table t\ndice 1d6\n", "1:1: table t has no rows" },
  { "table t\ndice 1d6\nrows\n1+ 1/0 S\n", "4:4: a fraction with denominator 0" },
  { "table t\ndice 1d6\nrows\n1+ D\nresults\nD Disaster\n", "6:11: expected ':' after the result code" },
  { "table t\ncolums TF\n", "2:1: expected a table line" },
  { "table t\ncolumns A\nrows\na x | 1\na y | 2\n", "5:1: row 'a' given twice" },
  { "table t\ndice 1d6\nrows\n1+ D -- no trailing comments\n", "4:6: expected a result such as" },
  { "table t\ndice 200d6\n", "2:6: dice count 200 out of range 1..100" },
  { "table t\ncolumns\n", "2:8: expected column names" },
  -- once hung the loader: the width of this range overflowed an integer
  { "table t\ndice 1d6\nrows\n-9223372036854775807--1 A\n0-9223372036854775807 B\n",
    "4:1: a die roll value between -999999999 and 999999999 (got -9223372036854775807)" },
  { "table t\ndice 1d6\nrows\n1-99999999999999999999 A\n", "4:3: a die roll value between" },
}

t.test("tables-malformed-1: " .. #malformed .. " malformed tables give file:line:col and what was expected", function()
  local n = 0
  for i, c in ipairs(malformed) do
    local ok, err = pcall(tables.parse, c[1], "bad.tbl")
    if c[2] == nil then
      t.ok(ok, ("case %d should parse: %s"):format(i, tostring(err)))
    else
      n = n + 1
      t.ok(not ok, ("case %d should fail"):format(i))
      t.ok(type(err) == "string" and err:find("bad.tbl:" .. c[2], 1, true),
        ("case %d: got %q, expected it to contain %q"):format(i, tostring(err), "bad.tbl:" .. c[2]))
    end
  end
  t.ok(n >= 20, "at least 20 malformed cases")
end)

t.test("tables-columns-1: a column named as a row's own field (range, cells, index ...) is refused at its line, naming the column", function()
  for _, name in ipairs { "range", "cells", "index", "key", "label", "kind", "pos", "range_pos" } do
    local dice = ("table t\ndice 1d6\ncolumns %s hits\nrows\n1-3 A 1\n4-6 B 2\n"):format(name)
    local ok, err = pcall(tables.parse, dice, "cols.tbl")
    t.ok(not ok, name)
    t.ok(tostring(err):find(("cols.tbl:3:1: column '%s' in table t: a row keeps its "):format(name), 1, true)
      and tostring(err):find("name the column otherwise", 1, true), tostring(err))
    local keyed = ("table k\ncolumns %s\nrows\na x | 1\n"):format(name)
    ok, err = pcall(tables.parse, keyed, "cols.tbl")
    t.ok(not ok and tostring(err):find(("cols.tbl:2:1: column '%s' in table k"):format(name), 1, true), tostring(err))
  end
  -- before, `range` silently replaced each row's die range: the odds came out wrong or keel failed inside
  local ok, ts = pcall(tables.parse, "table t\ndice 1d6\ncolumns ranges hits\nrows\n1-3 A 1\n4-6 B 2\n", "ok.tbl")
  t.ok(ok, tostring(ts))
  local res = ts.t:lookup(2)
  t.eq({ tostring(res.ranges), tostring(res.hits) }, { "A", "1" })
end)

t.test("tables-malformed-2: resolving a table whose rows table is missing names both", function()
  local x = tables.parse("table orphan\nrows from no_such_table\n", "orphan.tbl")[1]
  t.raises(function() x:lookup(3) end, "orphan.tbl:1: table orphan takes its rows from 'no_such_table'")
  t.raises(function() tables.load("no/such/file.tbl") end, "cannot read table file")
  t.raises(function() tables.load("scripts/navgroup/tables/landing_craft_damage.tbl") end,
    "holds 2 tables")
end)

t.test("tables-malformed-3: 20,000 tables in one file load, each with its line", function()
  local parts = {}
  for i = 1, 20000 do parts[i] = ("table t%d\ndice 1d6\nrows\n1-6 A\n"):format(i) end
  local ts = tables.parse(table.concat(parts), "many.tbl")
  t.eq(#ts, 20000)
  t.eq(ts.t20000.line, 4 * 19999 + 1)
  parts[#parts + 1] = "?\n"
  t.raises(function() tables.parse(table.concat(parts), "many.tbl") end, "many.tbl:80001:1: expected a row")
end)

-- ---- doc/tables.md: the worked example runs ------------------------------------------------------

t.test("doc-tables-1: the worked example in doc/tables.md runs and agrees with the shipped table", function()
  local md = t.read_file("doc/tables.md")
  local tbl_text = md:match("```tbl\n(.-)```")
  local lua_text = md:match("```lua\n(.-)```")
  t.ok(tbl_text and lua_text, "doc/tables.md has a ```tbl and a ```lua block")
  local doc_table = tables.parse(tbl_text, "doc/tables.md")[1]
  t.eq(codes(doc_table), codes(nt.naval_search))
  t.eq(amounts(doc_table), amounts(nt.naval_search))
  local chunk = assert(load(lua_text, "=doc/tables.md", "t"))
  chunk()
end)

t.test("tables-standin-1: a table says it stands in for a chapter (`standin`), once, with a text", function()
  local ts = tables.parse("table x\ntitle X\nstandin the SUCCESS TABLE (cited by 37.D)  \ndice 1d6\nrows\n1-6 A\n", "s.tbl")
  t.eq(ts.x.standin, "the SUCCESS TABLE (cited by 37.D)")
  t.eq(tables.parse("table y\ndice 1d6\nrows\n1-6 A\n", "s.tbl").y.standin, nil)
  t.raises(function() tables.parse("table x\nstandin  \ndice 1d6\nrows\n1-6 A\n", "s.tbl") end,
    "s.tbl:2:10: expected the chapter the table stands in for")
  t.raises(function() tables.parse("table x\nstandin a\nstandin b\ndice 1d6\nrows\n1-6 A\n", "s.tbl") end,
    "s.tbl:3:1: 'standin' given twice in table x")
  t.eq(nt.success_table.standin, "the SUCCESS TABLE (cited by 37.D and 37.E, not printed)")
end)

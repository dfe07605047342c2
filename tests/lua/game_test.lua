-- tests/lua/game_test.lua — keel.game: transactions, actions, undo/redo,
-- the damage models of the rule texts built from the kernel's primitives,
-- determinism across processes, and replay.
local t = require "keel.testing"
local keel = require "keel"
local game_mod = require "keel.game"
local json = require "keel.json"

local function new_game(seed) return game_mod.new { seed = seed or 1 } end

local function ship(g, name, type_, strength, extra)
  local values = { strength = strength }
  for k, v in pairs(extra or {}) do values[k] = v end
  return g:unit_new { name = name, type = type_, side = "Allied", values = values }
end

local sh, tmpdir, read, KEEL = t.sh, t.tmpdir, t.read_file, t.keel_bin

-- ---- damage models on the rule texts' examples -----------------------------------

-- Rule 27.A.3 (001): strength minus hits; CA/CL/DD/CVE flip at half; sunk
-- when hits reach strength; any hit sinks AF/NT. Built from the primitives.
local pairs_types = { CA = true, CL = true, DD = true, CVE = true }
local function hit_27(g, unit, n)
  g:with_rule("27.A.3", function()
    local ty = g:get(unit, "type")
    if ty == "AF" or ty == "NT" or ty == "LS" or ty == "LC" then g:sink(unit) return end
    local hits = g:add_hits(unit, n)
    local strength = g:get_value(unit, "strength")
    if hits >= strength then g:sink(unit)
    elseif pairs_types[ty] and hits * 2 >= strength then g:flip(unit, "half") end
  end)
end

t.test("27.A.3-1: a 5-pt BB with 2 hits takes 3 more hits and is sunk", function()
  local g = new_game()
  local bb = ship(g, "BB", "BB", 5)
  g:add_hits(bb, 2)
  g:action("bombing", function() hit_27(g, bb, 3) end)
  t.eq(g:get(bb, "loc"), "dead")
  t.eq(g:get(bb, "hits"), 5)
end)

t.test("27.A.3-2: a 5-pt BB with 2 hits taking 2 more still floats", function()
  local g = new_game()
  local bb = ship(g, "BB", "BB", 5)
  g:add_hits(bb, 2)
  hit_27(g, bb, 2)
  t.eq(g:get(bb, "loc"), "off")
  t.eq(g:get(bb, "face"), "full", "a BB does not flip at half")
end)

t.test("27.A.3-3: a CA hit to half its strength flips to its half side; any hit sinks an NT", function()
  local g = new_game()
  local ca = ship(g, "CA pair", "CA", 4)
  local nt = ship(g, "NT", "NT", 1)
  hit_27(g, ca, 2)
  t.eq(g:get(ca, "face"), "half")
  hit_27(g, nt, 1)
  t.eq(g:get(nt, "loc"), "dead")
end)

t.test("27.A.3-4: two half CLs of the same type combine to a full unit", function()
  local g = new_game()
  local a = ship(g, "CL a", "CL", 4, { aa = 1 })
  local b = ship(g, "CL b", "CL", 4, { aa = 1 })
  g:set(a, "face", "half"); g:set(b, "face", "half")
  g:action("combine", function()
    g:with_rule("27.A.3", function()
      assert(g:get_value(a, "aa") == g:get_value(b, "aa"))
      g:set(a, "face", "full"); g:set(a, "hits", 0)
      g:sink(b)
    end)
  end)
  t.eq(g:get(a, "face"), "full")
  t.eq(g:get(b, "loc"), "dead")
end)

t.test("27.B.4-1: an undamaged CA carrying a mountain regiment takes 1 hit; the regiment is eliminated", function()
  local g = new_game()
  -- 27.A.1: each undamaged SF has a cargo capacity of 1 RE
  local ca = ship(g, "CA", "CA", 4, { ["capacity.RE"] = 1 })
  local mtn = g:unit_new { name = "Mtn regt", type = "mountain", side = "Axis", values = { ["size.RE"] = 1 } }
  g:embark(mtn, ca)
  t.eq(g:cargo_check(ca, "RE").over, 0)
  g:action("hit", function()
    g:with_rule("27.B.4", function()
      hit_27(g, ca, 1)
      g:set_value(ca, "capacity.RE", 0)          -- no longer undamaged
      t.eq(g:drop_excess(ca, "RE"), { mtn })
    end)
  end)
  t.eq(g:get(mtn, "loc"), "dead")
  t.eq(g:get(ca, "loc"), "off", "the CA itself floats")
end)

t.test("27.B.4-2: 3 NTs carry a division; one is sunk; the division in excess is cut to a cadre", function()
  local g = new_game()
  local nts = {}
  for i = 1, 3 do nts[i] = ship(g, "NT" .. i, "NT", 1, { ["capacity.RE"] = 1 }) end
  local div = g:unit_new { name = "5-6 Inf XX", type = "inf", side = "Allied", values = { ["size.RE"] = 3 } }
  g:embark(div, nts[1])
  t.eq(g:cargo_check(nts, "RE").over, 0)
  hit_27(g, nts[3], 1)
  local rep = g:cargo_check({ nts[1], nts[2] }, "RE")
  t.eq(rep.capacity, 2); t.eq(rep.used, 3); t.eq(rep.over, 1)
  t.eq(rep.excess, { div })
  -- the rule, not the kernel, decides: reduce to a 2-6* cadre of 1 RE
  g:set(div, "name", "2-6* cadre"); g:set_value(div, "size.RE", 1)
  t.eq(g:cargo_check({ nts[1], nts[2] }, "RE").over, 0)
end)

t.test("27.B.4-3: a sunk ship takes its cargo with it", function()
  local g = new_game()
  local nt = ship(g, "NT", "NT", 1, { ["capacity.RE"] = 1 })
  local inf = g:unit_new { name = "inf", type = "inf", side = "Allied" }
  g:embark(inf, nt)
  hit_27(g, nt, 1)
  t.eq(g:get(inf, "loc"), "dead")
end)

-- OCS 18.3d (000)
local function hit_183(g, ship_id)
  g:with_rule("18.3d", function()
    local ty = g:get(ship_id, "type")
    if ty == "LC" or ty == "LST" or ty == "DUKW" then
      -- B) each hit eliminates one point; an LST converts to Landing Craft
      if ty == "LST" then g:set(ship_id, "type", "LC") end
      if g:get(ship_id, "points") <= 1 then g:sink(ship_id) else g:reduce_points(ship_id, 1) end
    elseif g:get(ship_id, "face") == "full" then
      g:flip(ship_id, "damaged")                 -- A) a hit flips the ship
    else
      g:sink(ship_id)                            -- a second sinks it
    end
  end)
end

local function dg_183(g, ship_id)
  g:with_rule("18.3d", function()
    -- C) the first DG does no damage; on a second remove the marker and apply a hit
    if g:add_marker(ship_id, "DG", 1) >= 2 then
      g:remove_marker(ship_id, "DG")
      hit_183(g, ship_id)
    end
  end)
end

t.test("18.3d-1: a hit flips a ship to its damaged side; a second sinks it", function()
  local g = new_game()
  local dd = ship(g, "DD", "DD", 1)
  hit_183(g, dd)
  t.eq(g:get(dd, "face"), "damaged")
  hit_183(g, dd)
  t.eq(g:get(dd, "loc"), "dead")
end)

t.test("18.3d-2: a second DG converts to a hit", function()
  local g = new_game()
  local bb = ship(g, "BB", "BB", 5)
  dg_183(g, bb)
  t.eq(g:get_marker(bb, "DG"), 1)
  t.eq(g:get(bb, "face"), "full", "the first DG does no damage")
  dg_183(g, bb)
  t.eq(g:get_marker(bb, "DG"), 0, "the marker is removed")
  t.eq(g:get(bb, "face"), "damaged", "and a hit applied")
  local lines = g:journal_lines()
  t.ok(lines[#lines]:find('"rule":"18.3d","unit":1,"field":"face","old":"full","new":"damaged"', 1, true))
end)

t.test("18.3d-3: an LST hit converts it to Landing Craft of the reduced point value", function()
  local g = new_game()
  local lst = g:unit_new { name = "LST", type = "LST", side = "Allied", points = 3 }
  hit_183(g, lst)
  t.eq(g:get(lst, "type"), "LC")
  t.eq(g:get(lst, "points"), 2)
  local lc = g:unit_new { name = "LC", type = "LC", side = "Allied", points = 4 }
  hit_183(g, lc)
  t.eq({ g:get(lc, "type"), g:get(lc, "points") }, { "LC", 3 })
end)

t.test("18.3-note: a 2-point DUKW with a regiment and an SP takes a loss; a roll picks the lost cargo", function()
  local g = new_game(5)
  local dukw = g:unit_new { name = "DUKW", type = "DUKW", side = "Allied", points = 2,
                            values = { ["capacity.load"] = 2 } }
  local regt = g:unit_new { name = "regt", type = "inf", side = "Allied", values = { ["size.load"] = 1 } }
  local sp = g:unit_new { name = "SP", type = "SP", side = "Allied", values = { ["size.load"] = 1 } }
  g:embark(regt, dukw); g:embark(sp, dukw)
  g:action("loss", function()
    hit_183(g, dukw)
    g:set_value(dukw, "capacity.load", g:get(dukw, "points"))
    local rep = g:cargo_check(dukw, "load")
    t.eq(rep.over, 1)
    local cargo = g:cargo(dukw)
    local lost = cargo[g:roll("1d2", { reason = "which cargo is lost (18.3 note)" })]
    g:eliminate(lost)
  end, { rule = "18.3d" })
  t.eq(g:get(dukw, "points"), 1)
  t.eq(#g:cargo(dukw), 1)
  t.ok(g:journal_text():find('"ev":"roll","rule":"18.3d","reason":"which cargo is lost (18.3 note)"', 1, true))
end)

t.test("18.4d-1: landing craft split and combine their points", function()
  local g = new_game()
  local lc = g:unit_new { name = "LC", type = "LC", side = "Allied", points = 5, at = { "hex", 7 } }
  local part = g:split(lc, 2)
  t.eq({ g:get(lc, "points"), g:get(part, "points"), (g:get(part, "loc")) }, { 3, 2, "hex" })
  g:combine(lc, part)
  t.eq(g:get(lc, "points"), 5)
end)

t.test("002-carrier-1: a carrier takes 2 hits; the first damages it; a naval base repairs it", function()
  local g = new_game()
  local cv = g:unit_new { name = "CVN", type = "carrier", side = "Allies", values = { ["capacity.air"] = 2 } }
  local function hit(u)
    if g:get(u, "face") == "full" then g:flip(u, "damaged") else g:sink(u) end
  end
  g:with_rule("002.capital", function() hit(cv) end)
  t.eq(g:get(cv, "face"), "damaged")
  g:with_rule("002.naval-base", function() g:flip(cv, "full") end)
  t.eq(g:get(cv, "face"), "full")
end)

t.test("002-carrier-2: a carrier lost takes its air units with it", function()
  local g = new_game()
  local cv = g:unit_new { name = "CVN", type = "carrier", side = "Allies", values = { ["capacity.air"] = 2 } }
  local f = g:unit_new { name = "fighter", type = "fighter", side = "Allies", values = { ["size.air"] = 1 } }
  local h = g:unit_new { name = "helo", type = "helicopter", side = "Allies", values = { ["size.air"] = 1 } }
  g:embark(f, cv); g:embark(h, cv)
  local extra = g:unit_new { name = "3rd", type = "fighter", side = "Allies", values = { ["size.air"] = 1 } }
  g:embark(extra, cv)
  t.eq(g:cargo_check(cv, "air").excess, { extra }, "up to two air units")
  g:move(extra, "zone", 4)
  g:sink(cv)
  t.eq({ (g:get(f, "loc")), (g:get(h, "loc")), (g:get(extra, "loc")) }, { "dead", "dead", "zone" })
end)

t.test("32.C-1: a group that reacts gets a -1 Step marker or one more level; it drops a level next step", function()
  local g = new_game()
  local dd = ship(g, "DD", "DD", 1)
  local grp = g:group_new { name = "NG 1", kind = "combat", reserve = true, units = { dd } }
  g:with_rule("32.C", function()
    g:add_marker(dd, "-1 Step", 1)
    g:add_marker(dd, "-1 Step", 1)
  end)
  t.eq(g:get_marker(dd, "-1 Step"), 2)
  g:with_rule("32.C", function() g:add_marker(dd, "-1 Step", -1) end)
  t.eq(g:get_marker(dd, "-1 Step"), 1)
  g:group_set_value(grp, "mp", 14)
  t.eq(g:group_get_value(grp, "mp"), 14)
end)

t.test("37.C-1: a +3 MP marker is doubled on a motorized unit", function()
  local g = new_game()
  local inf = g:unit_new { name = "2-8 X", type = "inf", side = "Axis" }
  local mot = g:unit_new { name = "mot", type = "mot", side = "Axis", values = { motorized = true } }
  for _, u in ipairs({ inf, mot }) do
    g:with_rule("37.C", function() g:add_marker(u, "+MP", g:get_value(u, "motorized") and 6 or 3) end)
  end
  t.eq({ g:get_marker(inf, "+MP"), g:get_marker(mot, "+MP") }, { 3, 6 })
end)

t.test("32.A.2-1: combined naval groups take the MPs of the group that spent most", function()
  local g = new_game()
  local a, b = ship(g, "a", "DD", 1), ship(g, "b", "DD", 1)
  local ga = g:group_new { name = "A", mp = 6, units = { a } }
  local gb = g:group_new { name = "B", mp = 20, units = { b } }
  g:action("combine", function()
    for _, u in ipairs(g:group_units(gb)) do g:group_remove(gb, u); g:group_add(ga, u) end
    g:group_set_value(ga, "mp", math.max(g:group_get_value(ga, "mp"), g:group_get_value(gb, "mp")))
  end, { rule = "32.A.2" })
  t.eq(g:group_units(ga), { a, b })
  t.eq(g:group_get_value(ga, "mp"), 20)
end)

-- ---- transactions ------------------------------------------------------------------

t.test("tx-1: a failing rule leaves the state exactly as before, and names rule, file and line", function()
  local g = new_game()
  local bb = ship(g, "BB", "BB", 5)
  g:set_owner(keel.hex.from_qr(1, 2), "Allied")
  local h0, j0 = g:hash(), g:journal_text()
  local msg = t.raises(function()
    g:transaction(function()
      g:add_hits(bb, 3)
      g:set_owner(keel.hex.from_qr(1, 2), "Axis")
      g:group_new { name = "TF", units = { bb } }
      g:unit_new { name = "new" }
      error("the table has no row for 13")
    end, { rule = "27.A.3" })
  end, "rule 27.A.3: the table has no row for 13")
  t.ok(msg:find("game_test.lua:%d+: rule 27.A.3"), msg)
  t.eq(g:hash(), h0)
  t.eq(g.state:count_units(), 1)
  t.eq(g:journal_text():sub(1, #j0), j0, "the journal up to the transaction is unchanged")
  t.ok(g:journal_text():find('{"ev":"rollback","rule":"27.A.3","error":', #j0, true))
end)

t.test("tx-2: an error without a position still names file and line", function()
  local g = new_game()
  local ok, err = g:try(function() error({ code = 7 }) end, { rule = "32.A.6.a" })
  t.eq(ok, false)
  t.ok(require("keel.errors").is_error(err))
  t.eq(err.rule, "32.A.6.a")
  t.ok(err.file and err.file:find("game_test.lua"), tostring(err.file))
  t.ok(err.line and err.line > 0)
end)

t.test("tx-3: the innermost rule is named; an inner failure caught keeps the outer changes", function()
  local g = new_game()
  local bb = ship(g, "BB", "BB", 5)
  g:transaction(function()
    g:add_hits(bb, 1)
    local ok, err = g:try(function() g:add_hits(bb, 1); g:add_hits(bb, -9) end, { rule = "18.3d" })
    t.eq(ok, false)
    t.ok(tostring(err):find("rule 18.3d:", 1, true), tostring(err))
  end, { rule = "18.3c" })
  t.eq(g:get(bb, "hits"), 1)
  t.eq(g.state:get_rule(), nil, "the rule stack is back to empty")
end)

t.test("tx-4: a rolled back transaction rewinds the dice", function()
  local g = new_game(99)
  local rolled
  g:try(function() rolled = g:roll("3d6"); error("no") end, { rule = "x" })
  local again = g:roll("3d6")
  t.eq(again, rolled)
end)

t.test("tx-5: a rule stopped by an instruction limit rolls back too", function()
  local g = new_game()
  local bb = ship(g, "BB", "BB", 5)
  local h0 = g:hash()
  local ok, err = g:try(function()
    g:add_hits(bb, 2)
    debug.sethook(function() debug.sethook(); error("instruction budget exceeded") end, "", 1000)
    while true do end
  end, { rule = "32.B.1" })
  debug.sethook()
  t.eq(ok, false)
  t.ok(tostring(err):find("rule 32.B.1: instruction budget exceeded", 1, true), tostring(err))
  t.eq(g:hash(), h0)
end)

-- ---- undo / redo ---------------------------------------------------------------------

t.test("undo-1: undo N actions and redo them; hashes and dice follow", function()
  local g = new_game(3)
  local bb = ship(g, "BB", "BB", 9)
  local hashes, rolls = { g:hash() }, {}
  for i = 1, 3 do
    g:action("hit", function() rolls[i] = g:roll("1d6"); g:add_hits(bb, 1) end, { rule = "27.A.3" })
    hashes[i + 1] = g:hash()
  end
  g:undo(2)
  t.eq(g:hash(), hashes[2])
  t.eq(g:get(bb, "hits"), 1)
  t.eq(g:roll("1d6"), rolls[2], "the dice are back where they were before action 2")
  g:undo(1)
  t.eq(g:hash(), hashes[1])
  g:redo(3)
  t.eq(g:hash(), hashes[4])
  t.eq(g:hash(), g.state:hash_full())
  t.raises(function() g:redo(1) end, "0 actions can be redone")
  t.raises(function() g:undo(4) end, "3 actions can be undone")
end)

t.test("undo-2: a change outside any action ends the undo history", function()
  local g = new_game()
  local bb = ship(g, "BB", "BB", 9)
  g:action("a", function() g:add_hits(bb, 1) end)
  t.eq(g.state:count_actions(), 1)
  g:set_global("weather", "storm")
  t.eq(g.state:count_actions(), 0)
end)

t.test("undo-3: a failed action is not undoable and keeps the redo list", function()
  local g = new_game()
  local bb = ship(g, "BB", "BB", 9)
  g:action("a", function() g:add_hits(bb, 1) end)
  g:undo(1)
  pcall(g.action, g, "bad", function() g:add_hits(bb, 1); error("x") end)
  t.eq(g.state:count_redos(), 1)
  g:redo(1)
  t.eq(g:get(bb, "hits"), 1)
end)

-- ---- journal, determinism, replay ----------------------------------------------------

-- the journal_probe scenario (tests/families/journal_probe) and a host
-- script that plays its orders, with undo and redo
local PROBE, ORDERS = "tests/scenarios/journal_probe.lua", "tests/lua/data/state/orders.lua"

t.test("journal-1: every line is JSON with ev first and the header first", function()
  local run = require("keel.scenario").start(require("keel.scenario").load(PROBE))
  local g = run.game
  t.ok(run.set:act(g, "barrage", { target = 5 }))
  local lines = g:journal_lines()
  t.ok(lines[1]:find('^{"ev":"header","format":"keel%-journal","version":1,'))
  for i, l in ipairs(lines) do
    local v = json.decode(l)
    t.ok(v and v.ev, "line " .. i)
    t.ok(l:find('^{"ev":'), "ev first on line " .. i)
  end
end)

t.test("journal-2: the same script in two processes gives byte-identical journals", function()
  local dir = tmpdir()
  local cmd = ("%s script %s %s %s/%s.jsonl")
  local rc1 = sh(cmd:format(KEEL, ORDERS, PROBE, dir, "a"))
  local rc2 = sh(cmd:format(KEEL, ORDERS, PROBE, dir, "b"))
  t.eq({ rc1, rc2 }, { 0, 0 })
  local a, b = read(dir .. "/a.jsonl"), read(dir .. "/b.jsonl")
  t.ok(#a > 1000)
  t.ok(a == b, "journals differ")
  os.execute("rm -rf " .. dir)
end)

t.test("replay-1: keel replay re-runs a journal and every hash matches", function()
  local dir = tmpdir()
  local rc = sh(("%s script %s %s %s/j.jsonl"):format(KEEL, ORDERS, PROBE, dir))
  t.eq(rc, 0)
  local rc2, out = sh(("%s replay %s/j.jsonl"):format(KEEL, dir))
  t.eq(rc2, 0, out)
  t.ok(out:find("replayed 7 actions and 2 undo/redo; every state hash matches", 1, true), out)
  os.execute("rm -rf " .. dir)
end)

-- A copy of the probe scenario, family and variant in dir, laid out as in tests/.
local function copy_probe(dir)
  os.execute(("mkdir -p %s/scenarios %s/families/variants && cp %s %s/scenarios/ && "
    .. "cp -R tests/families/journal_probe %s/families/ && cp tests/families/variants/journal_house.lua %s/families/variants/")
    :format(dir, dir, PROBE, dir, dir, dir))
end

t.test("replay-2: a changed rule file makes replay name the first divergent action and its rule", function()
  local dir = tmpdir()
  copy_probe(dir)
  t.eq(sh(("%s script %s %s/scenarios/journal_probe.lua %s/j.jsonl"):format(KEEL, ORDERS, dir, dir)), 0)
  -- a house rule: every hit does one more point of damage
  local naval = dir .. "/families/journal_probe/naval.lua"
  local src = read(naval)
  local changed = src:gsub('g:add_hits%(ev.unit, ev.hits%)', 'g:add_hits(ev.unit, ev.hits + 1)')
  t.ok(changed ~= src)
  local f = assert(io.open(naval, "wb")); f:write(changed); f:close()
  local rc, out = sh(("%s replay %s/j.jsonl"):format(KEEL, dir))
  t.eq(rc, 1, out)
  t.ok(out:find("rule file changed: " .. naval, 1, true), out)
  t.ok(out:find("replay diverges at action 1 'barrage' (order {\"target\":5})", 1, true), out)
  t.ok(out:find("rule 27.A.3:", 1, true), out)
  os.execute("rm -rf " .. dir)
end)

t.test("replay-3: a journal that is not one is refused with exit 1", function()
  local dir = tmpdir()
  local f = assert(io.open(dir .. "/x.jsonl", "wb")); f:write("hello\n"); f:close()
  local rc, out = sh(("%s replay %s/x.jsonl"):format(KEEL, dir))
  t.eq(rc, 1, out)
  t.ok(out:find("x.jsonl:1: not a journal event", 1, true), out)
  os.execute("rm -rf " .. dir)
end)

t.test("game: hex ownership starts from the owners the map declares (32.A.6.a Suez map)", function()
  local map = require "keel.map"
  local board = assert(map.load("scenarios/maps/suez.map"))
  local g = game_mod.new { seed = 3, board = board }
  local port_said = board:hex("Port Said")
  t.eq(g.state:get_owner(port_said), "Allied")
  local declared, n = {}, 0
  for _, o in ipairs(map.get_owners(board)) do
    for _, h in ipairs(o.hexes) do n = n + (declared[h] and 0 or 1); declared[h] = o.side end
  end
  t.eq(n, 9 * 5 + 1, "19A:2812..3616 (9 columns, 5 rows) and 19A:3718")
  for _, h in ipairs(board:hexes()) do t.eq(g.state:get_owner(h), declared[h]) end
  t.eq(g.state:count_owned(), n)
  local again = game_mod.new { seed = 3, board = board }
  t.eq(again:hash(), g:hash())
  -- the state is the one place owners live: a change in one game is not in the other's
  again:set_owner(port_said, "Axis")
  t.eq(g.state:get_owner(port_said), "Allied")
  t.eq(map.get_owners(board)[1].side, "Allied", "the declared owners are data, not changed by play")
  t.eq(board.get_owner, nil, "a board has no owners")
end)

t.test("keyed-1: keyed values through the game: set, get, count, walk in key order, undone with the action", function()
  local g = game_mod.new { seed = 1 }
  g:action("mark", function(gm)
    gm:set_keyed("captured", { 7, "side" }, "Allied")
    gm:set_keyed("captured", { 3, "side" }, "Axis")
    gm:set_keyed("sp_pool", "Allied", 5)
  end)
  t.eq(g:get_keyed("captured", { 7, "side" }), "Allied")
  t.eq(g:get_keyed("sp_pool", "Allied"), 5)
  t.eq(g:count_keyed("captured"), 2)
  local key, v = g:at_keyed("captured", 1)
  t.eq({ key, v }, { { 3, "side" }, "Axis" })
  g:undo(1)
  t.eq(g:get_keyed("captured", { 7, "side" }), nil)
  t.eq(g:count_keyed("captured"), 0)
end)

-- ---- a long game: undo depth, a streamed journal (issue 28) ----------------------------

-- one action: a roll and two changes (the dice records of each action differ)
local function long_step(gm, id)
  local r = gm:roll("1d6")
  gm:add_hits(id, 1)
  gm:set_global("last", r)
end

t.test("undo-depth-2: the game keeps the undo depth's actions (1000 by default), dice and all; past it refused", function()
  local g = new_game(9)
  t.eq(g:get_undo_depth(), 1000)
  local id = ship(g, "Warspite", "BB", 5)
  g:set_undo_depth(40)
  local hash_at, roll_after = {}, {}
  for k = 1, 500 do
    hash_at[k] = g:hash()
    g:action("step", long_step, { rule = "U.1" }, id)
    roll_after[k] = g:get_global("last")
  end
  t.eq(g.state:count_actions(), 40)
  t.ok(#g._acts <= 4 * 40 + 2 * 64 + 2, "the dice records of about twice the depth: " .. #g._acts)
  local h = g:hash()
  local ok, err = pcall(g.undo, g, 41)
  t.ok(not ok and tostring(err):find("past the undo depth (40 actions are kept undoable", 1, true), tostring(err))
  t.eq(g:hash(), h, "a refused undo changes nothing")
  g:undo(40)
  t.eq(g:hash(), hash_at[461], "40 actions back")
  -- the dice as they were before action 461: it rolls again what it rolled
  g:action("step", long_step, { rule = "U.1" }, id)
  t.eq(g:get_global("last"), roll_after[461])
  t.eq(g.state:count_actions(), 1)
end)

t.test("journal-stream-2: a streamed journal's file holds the very bytes a game holding it whole writes", function()
  local dir = tmpdir()
  local function play(g)
    local id = ship(g, "Warspite", "BB", 5)
    for _ = 1, 3000 do g:action("step", long_step, { rule = "U.1" }, id) end
    g:undo(2)
    g:redo(1)
    g:action("step", long_step, { rule = "U.1" }, id)
  end
  local a = new_game(4)
  t.ok(a:stream_journal(dir .. "/a.jsonl"))
  play(a)
  local lines, bytes = a:journal_count()
  t.raises(function() return a:journal_text() end, "streamed to its file")
  local tail, count = a:journal_since(lines - 1)
  t.eq(count, lines)
  t.ok(tail:find('^{"ev":"end","action":3001,'), tail)   -- numbers are never reused
  t.ok(a:close_journal())
  local b = new_game(4)
  play(b)
  t.ok(b:write_journal(dir .. "/b.jsonl"))
  local sa, sb = read(dir .. "/a.jsonl"), read(dir .. "/b.jsonl")
  t.eq(#sa, bytes)
  t.ok(sa == sb, "the same bytes")
  -- journal_lines(from): only the lines after the first `from`
  local last, n = b:journal_lines(lines - 2)
  t.eq(n, lines)
  t.eq(#last, 2)
  t.eq(last[2], (tail:gsub("\n$", "")))
end)

-- Rule 27.A Ships (scripts/seabox/ships.lua): categories, strength and AA,
-- stacking and port limits, damage and the bombing-hit distribution, CFs
-- and their air groups. Every worked example of 27.A is a test here.
local t = require "keel.testing"
local fx = dofile("tests/lua/seabox_fixture.lua")

local function ship(name, type_, at, group, values, extra)
  local f = { name = name, type = type_, side = extra and extra.side or "Allied", at = at or "15B:2407",
              group = group, values = values, port = extra and extra.port, hits = extra and extra.hits,
              face = extra and extra.face }
  return f
end

-- ---- 27.A ---------------------------------------------------------------------------

t.test("27.A: four categories: SF (BB BC CA CL DD), CF (CV CVE), AF (LS LC), NT", function()
  local forces = {}
  for _, ty in ipairs({ "BB", "BC", "CA", "CL", "DD", "CV", "CVE", "LS", "LC", "NT" }) do
    forces[#forces + 1] = ship(ty, ty, nil, nil, { strength = 3 })
  end
  forces[#forces + 1] = { name = "Inf", type = "inf", side = "Allied", at = "15B:2508" }
  local w = fx.world { forces = forces }
  local want = { BB = "SF", BC = "SF", CA = "SF", CL = "SF", DD = "SF", CV = "CF", CVE = "CF", LS = "AF", LC = "AF", NT = "NT" }
  for ty, cat in pairs(want) do
    t.eq(w.q("category", w.id(ty)), cat, ty)
    t.ok(w.q("is_ship", w.id(ty)))
    t.ok(w.q("afloat", w.id(ty)))
  end
  t.eq(w.q("category", w.id("Inf")), nil)
  t.eq(w.q("afloat", w.id("Inf")), false)
end)

t.test("27.A: ship types are counter data a scenario extends with a variant", function()
  local dir = t.tmpdir()
  local f = assert(io.open(dir .. "/mas.lua", "w"))
  f:write('variant { name = "MAS boats", base = "seabox" }\nset_values("27.A", { category = { MAS = "SF" } })\n')
  f:close()
  local w = fx.world { variants = { dir .. "/mas.lua" }, forces = { ship("MAS 1", "MAS", nil, nil, { strength = 1 }) } }
  t.eq(w.q("category", w.id("MAS 1")), "SF")
  t.eq(w.q("category", w.id("MAS 1")), "SF")
end)

-- ---- 27.A.1 ---------------------------------------------------------------------------

t.test("27.A.1: an SF's strength is its naval combat, gunfire support and damage strength", function()
  local w = fx.world { forces = { ship("Warspite", "BB", nil, nil, { strength = 5, aa = 3 }) } }
  local bb = w.id("Warspite")
  t.eq({ w.q("strength", bb), w.q("combat_strength", bb), w.q("gunfire_strength", bb), w.q("printed_strength", bb) },
    { 5, 5, 5, 5 })
  t.eq(w.q("aa", bb), 3, "AA as printed")
  w.game:add_hits(bb, 2)
  t.eq({ w.q("strength", bb), w.q("combat_strength", bb), w.q("gunfire_strength", bb) }, { 3, 3, 3 })
end)

t.test("27.A.1: an undamaged SF carries 1 RE of non-c/m units without HE; a damaged one nothing", function()
  local w = fx.world { forces = {
    ship("Kent", "CA", nil, nil, { strength = 4 }),
    { name = "Mtn regt", type = "mtn", side = "Allied", values = { ["size.RE"] = 1 } },
    { name = "Tank bde", type = "arm", side = "Allied", values = { ["size.RE"] = 1, class = "c/m" } },
    { name = "Art regt", type = "art", side = "Allied", values = { ["size.RE"] = 1, he = true } },
  } }
  local ca = w.id("Kent")
  t.eq(w.q("cargo_capacity", ca), 1)
  t.eq(w.q("may_carry", ca, w.id("Mtn regt")), nil)
  t.ok(w.q("may_carry", ca, w.id("Tank bde")):find("27.A.1: an SF carries only non-c/m units", 1, true))
  t.ok(w.q("may_carry", ca, w.id("Art regt")):find("without heavy equipment", 1, true))
  w.game:add_hits(ca, 1)
  t.eq(w.q("cargo_capacity", ca), 0)
  t.ok(w.q("may_carry", ca, w.id("Mtn regt")):find("only an undamaged SF carries cargo", 1, true))
end)

t.test("27.A.1: a CF's strength is damage only: no gunfire support, no cargo (the parentheses)", function()
  local w = fx.world { forces = { ship("Illustrious", "CV", nil, nil, { strength = 4 }),
    { name = "Inf", type = "inf", side = "Allied", values = { ["size.RE"] = 1 } } } }
  local cv = w.id("Illustrious")
  t.eq(w.q("printed_strength", cv), 4)
  t.eq({ w.q("gunfire_strength", cv), w.q("combat_strength", cv), w.q("cargo_capacity", cv) }, { 0, 0, 0 })
  t.ok(w.q("may_carry", cv, w.id("Inf")):find("is a CF: it has no cargo capacity", 1, true))
end)

t.test("27.A.1: an AF's and an NT's 1 point is damage strength and cargo capacity; they combine", function()
  local w = fx.world { forces = { ship("NT 1", "NT"), ship("LC 1", "LC"), ship("Ajax", "CL", nil, nil, { strength = 2 }) } }
  for _, n in ipairs({ "NT 1", "LC 1" }) do
    t.eq(w.q("printed_strength", w.id(n)), 1)
    t.eq(w.q("cargo_capacity", w.id(n)), 1)
    t.eq(w.q("gunfire_strength", w.id(n)), 0)
    t.ok(w.q("combines", w.id(n)))
  end
  t.eq(w.q("combines", w.id("Ajax")), false)
end)

t.test("27.A.1: 2x LC may combine to carry a tank brigade (example)", function()
  -- a tank brigade is 1 RE; c/m, so 2 RE for naval transport (27.B.4)
  local w = fx.world { forces = {
    ship("LC 1", "LC", "15B:2508", "Lift", nil, { port = true }), ship("LC 2", "LC", "15B:2508", "Lift", nil, { port = true }),
    { name = "Tank bde", type = "arm", side = "Allied", at = "15B:2508", values = { ["size.RE"] = 1, class = "c/m" } },
  } }
  w.movement()
  w.refused({ "embark", cargo = "Tank bde", ships = { "LC 1" } }, "27.B.4: Tank bde is 2 RE (doubled for its class); LC 1 can carry 1 RE more")
  w.ok { "embark", cargo = "Tank bde", ships = { "LC 1", "LC 2" } }
  t.eq(w.at("Tank bde"), "aboard LC 1")
  t.eq(#w.q("carriers_of", w.id("Tank bde")), 2)
end)

t.test("27.A.1: 3x NT may combine to carry a division (example)", function()
  local forces = { { name = "5-6 Inf XX", type = "inf", side = "Allied", at = "15B:2508", values = { ["size.RE"] = 3 } } }
  for i = 1, 3 do forces[#forces + 1] = ship("NT " .. i, "NT", "15B:2508", "Convoy", nil, { port = true }) end
  local w = fx.world { forces = forces }
  w.movement()
  w.refused({ "embark", cargo = "5-6 Inf XX", ships = { "NT 1", "NT 2" } }, "can carry 2 RE more")
  w.ok { "embark", cargo = "5-6 Inf XX", ships = { "NT 1", "NT 2", "NT 3" } }
  t.eq(w.at("5-6 Inf XX"), "aboard NT 1")
end)

-- ---- 27.A.2 ---------------------------------------------------------------------------

t.test("27.A.2: no limit on the number of naval units in a hex", function()
  local forces = {}
  for i = 1, 24 do forces[i] = ship("DD " .. i, "DD", i % 2 == 0 and "15B:2406" or "15B:2407", "Flotilla " .. (i % 2), { strength = 1 }) end
  local w = fx.world { forces = forces }
  w.movement()
  w.ok { "sail", tf = "Flotilla 1", to = "15B:2406" }
  w.ok { "join_tf", tf = "Flotilla 1", into = "Flotilla 0" }
  t.eq(#w.q("tf_ships", w.group("Flotilla 0")), 24)
  w.ok { "sail", tf = "Flotilla 0", to = "15B:2508", port = true }
  t.eq(w.at("DD 24"), "port 15B:2508", "a minor port without a capacity on the map has no limit")
end)

t.test("27.A.2: medium and minor ports limit how many ships enter them (the map's port capacity)", function()
  -- eastmed.map: Tobruk is a standard (medium) port of capacity 2, Alexandria a major one
  local w = fx.world { map = "../../scenarios/maps/eastmed.map", forces = {
    ship("NT 1", "NT", "19A:0511", "Convoy"), ship("NT 2", "NT", "19A:0511", "Convoy"), ship("NT 3", "NT", "19A:0511", "Convoy"),
    ship("NT 4", "NT", "19A:0511", "Lone"),
  } }
  w.movement()
  t.eq(w.q("port_room", w.hex("19A:0512")), 2)
  w.refused({ "sail", tf = "Convoy", to = "19A:0512", port = true },
    "27.A.2: 19A:0512 is a standard port that 2 ship(s) may enter: room for 2 more, not 3")
  w.ok { "split_tf", tf = "Convoy", ships = { "NT 3" }, name = "Straggler" }
  w.ok { "sail", tf = "Convoy", to = "19A:0512", port = true }
  t.eq(w.q("port_room", w.hex("19A:0512")), 0)
  w.refused({ "sail", tf = "Lone", to = "19A:0512", port = true }, "room for 0 more, not 1")
  w.ok { "sail", tf = "Lone", to = "19A:0512" }
  t.eq(w.at("NT 4"), "hex 19A:0512", "at sea in the port's hex: no limit")
end)

-- ---- 27.A.3 ---------------------------------------------------------------------------

t.test("27.A.3: a 5-pt BB with 2 hits takes 3 more hits and is sunk (example)", function()
  local w = fx.world { forces = { ship("Warspite", "BB", nil, "Force A", { strength = 5 }, { hits = 2 }) } }
  t.eq(w.q("strength", w.id("Warspite")), 3)
  local r = w.q("damage_after", w.id("Warspite"), 2)
  t.eq(r.sunk, false, "2 more hits leave it afloat")
  w.ok { "naval_hits", ship = "Warspite", hits = 3 }
  t.eq(w.at("Warspite"), "dead")
  t.ok(fx.said(w.news(), "Warspite takes 3 hit(s): sunk"))
end)

t.test("27.A.3: one hit of damage per hit on an SF or CF; CA, CL, DD and CVE flip at half, BB, BC, CV never", function()
  local w = fx.world { forces = {
    ship("Kent", "CA", nil, nil, { strength = 4 }), ship("Ajax", "CL", nil, nil, { strength = 3 }),
    ship("Jervis", "DD", nil, nil, { strength = 2 }), ship("Audacity", "CVE", nil, nil, { strength = 2 }),
    ship("Hood", "BC", nil, nil, { strength = 6 }), ship("Formidable", "CV", nil, nil, { strength = 4 }),
  } }
  w.ok { "naval_hits", ship = "Kent", hits = 1 }
  t.eq({ w.get("Kent", "hits"), w.get("Kent", "face") }, { 1, "full" })
  w.ok { "naval_hits", ship = "Kent", hits = 1 }
  t.eq({ w.get("Kent", "hits"), w.get("Kent", "face") }, { 2, "half" }, "2 hits = half of 4")
  w.ok { "naval_hits", ship = "Ajax", hits = 2 }
  t.eq(w.get("Ajax", "face"), "half", "2 hits >= half of 3")
  w.ok { "naval_hits", ship = "Jervis", hits = 1 }
  t.eq(w.get("Jervis", "face"), "half")
  w.ok { "naval_hits", ship = "Audacity", hits = 1 }
  t.eq(w.get("Audacity", "face"), "half")
  w.ok { "naval_hits", ship = "Hood", hits = 5 }
  t.eq({ w.get("Hood", "face"), w.q("strength", w.id("Hood")) }, { "full", 1 })
  w.ok { "naval_hits", ship = "Formidable", hits = 3 }
  t.eq(w.get("Formidable", "face"), "full")
  w.ok { "naval_hits", ship = "Kent", hits = 2 }
  t.eq(w.at("Kent"), "dead", "hits equal to its current strength sink it")
end)

t.test("27.A.3: each hit on an AF or NT sinks it", function()
  local w = fx.world { forces = { ship("NT 1", "NT"), ship("LS 1", "LS"), ship("LC 1", "LC", nil, nil, { strength = 1 }) } }
  for _, n in ipairs({ "NT 1", "LS 1", "LC 1" }) do
    w.ok { "naval_hits", ship = n, hits = 1 }
    t.eq(w.at(n), "dead", n)
  end
end)

t.test("27.A.3: two half ships of the same type, half strength and AA combine into a full-strength unit", function()
  local w = fx.world { forces = {
    ship("Ajax", "CL", "15B:2508", "A", { strength = 4, aa = 1 }, { port = true, hits = 2, face = "half" }),
    ship("Achilles", "CL", "15B:2508", "A", { strength = 4, aa = 1 }, { port = true, hits = 2, face = "half" }),
    ship("Orion", "CL", "15B:2508", "A", { strength = 4, aa = 2 }, { port = true, hits = 2, face = "half" }),
    ship("Kent", "CA", "15B:2508", "A", { strength = 4, aa = 1 }, { port = true, hits = 2, face = "half" }),
    ship("Neptune", "CL", "15B:2508", "A", { strength = 4, aa = 1 }, { port = true, hits = 3, face = "half" }),
    ship("Sydney", "CL", "15B:2508", "A", { strength = 4, aa = 1 }, { port = true }),
  } }
  w.refused({ "combine_halves", ship = "Ajax", with = "Kent" }, "27.A.3: only half ships of the same type combine (CL and CA)")
  w.refused({ "combine_halves", ship = "Ajax", with = "Orion" }, "27.A.3: half ships combine only with the same AA (1 and 2)")
  w.refused({ "combine_halves", ship = "Ajax", with = "Neptune" }, "27.A.3: half ships combine only at the same half strength (2 and 1)")
  w.refused({ "combine_halves", ship = "Ajax", with = "Sydney" }, "27.A.3: Sydney is not on its half-strength side")
  w.ok { "combine_halves", ship = "Ajax", with = "Achilles" }
  t.eq({ w.get("Ajax", "face"), w.get("Ajax", "hits"), w.q("strength", w.id("Ajax")) }, { "full", 0, 4 })
  t.eq(w.at("Achilles"), "off")
  t.eq(#w.q("tf_ships", w.group("A")), 5)
end)

-- 8 NT escorted by a CL and a DD
local function convoy(extra)
  local forces = {}
  for i = 1, 8 do forces[#forces + 1] = ship("NT " .. i, "NT", "15B:2407", "Convoy") end
  forces[#forces + 1] = ship("Ajax", "CL", "15B:2407", "Convoy", { strength = 2 })
  forces[#forces + 1] = ship("Jervis", "DD", "15B:2407", "Convoy", { strength = 2 })
  for _, f in ipairs(extra or {}) do forces[#forces + 1] = f end
  return forces
end

local function rolls(game)
  local out = {}
  for line in game:journal_text():gmatch("[^\n]+") do
    if line:find('"ev":"roll"', 1, true) then
      out[#out + 1] = line:match('"expr":"([^"]+)"') .. " " .. (line:match('"reason":"([^"]+)"') or "")
    end
  end
  return out
end

t.test("27.A.3: 8 NT, a CL and a DD take 3 bombing hits: a random NT, a random SF, another random NT (example)", function()
  for seed = 1, 12 do
    local w = fx.world { seed = seed, forces = convoy() }
    w.ok { "bomb", tf = "Convoy", hits = 3 }
    local sunk, sf_hit = 0, 0
    for i = 1, 8 do if w.at("NT " .. i) == "dead" then sunk = sunk + 1 end end
    for _, n in ipairs({ "Ajax", "Jervis" }) do if w.get(n, "hits") > 0 then sf_hit = sf_hit + 1 end end
    t.eq({ sunk, sf_hit }, { 2, 1 }, "seed " .. seed)
    t.eq(rolls(w.game), { "1d8 bombing hit 1: which NT", "1d2 bombing hit 2: which SF", "1d7 bombing hit 3: which NT" })
  end
end)

t.test("27.A.3: the distribution goes round the categories present in the order NT, AF, CF, SF", function()
  local w = fx.world { forces = { ship("NT 1", "NT", nil, "TF"), ship("LC 1", "LC", nil, "TF"),
    ship("Audacity", "CVE", nil, "TF", { strength = 4 }), ship("Warspite", "BB", nil, "TF", { strength = 5 }) } }
  w.ok { "bomb", tf = "TF", hits = 6 }
  -- round 1: NT, LC, CVE, BB; round 2 (NT and LC sunk): CVE, BB
  t.eq({ w.at("NT 1"), w.at("LC 1"), w.get("Audacity", "hits"), w.get("Warspite", "hits") }, { "dead", "dead", 2, 2 })
  t.eq(w.get("Audacity", "face"), "half")
  local news = w.news()
  t.ok(fx.said(news, "bombing hit 1 of 6: to the NT, NT 1"))
  t.ok(fx.said(news, "bombing hit 2 of 6: to the AF, LC 1"))
  t.ok(fx.said(news, "bombing hit 3 of 6: to the CF, Audacity"))
  t.ok(fx.said(news, "bombing hit 4 of 6: to the SF, Warspite"))
  t.ok(fx.said(news, "bombing hit 5 of 6: to the CF, Audacity"))
  t.eq(#rolls(w.game), 0, "one ship per category: no roll")
end)

t.test("27.A.3: hits left when every ship is sunk are lost; bad bombing orders change nothing", function()
  local w = fx.world { forces = { ship("NT 1", "NT", nil, "TF"), ship("NT 2", "NT", "15B:2406", "Empty") } }
  w.ok { "bomb", tf = "TF", hits = 3 }
  t.ok(fx.said(w.news(), "2 bombing hit(s) left over"))
  w.refused({ "bomb", tf = "TF", hits = 1 }, "27.A.3: TF has no ships afloat")
  w.refused({ "bomb", tf = "Empty", hits = 0 }, "27.A.3: bombing hits come one or more at a time, not 0")
end)

-- ---- 27.A.4 ---------------------------------------------------------------------------

t.test("27.A.4: a CF's airbase capacity is its damage strength, one less per hit", function()
  local w = fx.world { forces = { ship("Illustrious", "CV", nil, "H", { strength = 3 }), ship("Ajax", "CL", nil, "H", { strength = 3 }) } }
  t.eq(w.q("airbase_capacity", w.id("Illustrious")), 3)
  t.eq(w.q("airbase_capacity", w.id("Ajax")), 0)
  w.ok { "naval_hits", ship = "Illustrious", hits = 1 }
  t.eq(w.q("airbase_capacity", w.id("Illustrious")), 2)
  t.ok(fx.said(w.news(), "Illustrious: airbase capacity now 2, 0 air group(s) based"))
end)

t.test("27.A.4: only Code C air groups base on a CF; a CVE refuses a Code A group", function()
  local w = fx.world { forces = {
    ship("Audacity", "CVE", nil, "H", { strength = 1 }), ship("Ajax", "CL", nil, "H", { strength = 3 }),
    { name = "813 Sqn", type = "AIR", side = "Allied", at = "15B:2407", values = { code = "C" } },
    { name = "802 Sqn", type = "AIR", side = "Allied", at = "15B:2407", values = { code = "C" } },
    { name = "RAF 30 Sqn", type = "AIR", side = "Allied", at = "15B:2407", values = { code = "A" } },
    { name = "Inf", type = "inf", side = "Allied", at = "15B:2407" },
  } }
  w.refused({ "base_air", air = "RAF 30 Sqn", carrier = "Audacity" },
    "27.A.4: only Code C air groups (Rule 23F1) may base on a CF; RAF 30 Sqn is Code A")
  w.refused({ "base_air", air = "813 Sqn", carrier = "Ajax" }, "27.A.4: Ajax is a CL, not a CF type")
  w.refused({ "base_air", air = "Inf", carrier = "Audacity" }, "27.A.4: Inf is not an air group")
  w.ok { "base_air", air = "813 Sqn", carrier = "Audacity" }
  t.eq(w.at("813 Sqn"), "aboard Audacity")
  w.refused({ "base_air", air = "802 Sqn", carrier = "Audacity" },
    "27.A.4: Audacity has an airbase capacity of 1 (strength 1 minus 0 hit(s)) and 1 air group(s) based")
  t.eq(#w.q("cargo_of", w.id("Audacity")), 0, "air groups on a CF are not cargo")
  -- based air groups sail with the carrier
  w.movement()
  w.ok { "sail", tf = "H", to = "15B:2406" }
  t.eq(w.at("813 Sqn"), "aboard Audacity")
end)

t.test("27.A.3: the example's exact odds: 2 NTs sunk, each NT 1/4; the CL or the DD hit, 1/2 each", function()
  local outcomes = require "keel.outcomes"
  local w = fx.world { forces = convoy() }
  local hash = w.game:hash_hex()
  local r = assert(outcomes.enumerate(w.set, w.game, "bomb", { tf = w.group("Convoy"), hits = 3 }))
  t.eq(w.game:hash_hex(), hash, "enumerating changes nothing")
  t.eq({ r.paths, #r.outcomes, r.den }, { 8 * 2 * 7, 56, 56 })
  for _, o in ipairs(r.outcomes) do t.eq(o.count, 1, o.key) end
  local by_type = outcomes.by_type(r)
  t.eq(by_type, {
    { key = "CL: +1 hit(s), face half x1; NT: eliminated x2", count = 28 },
    { key = "DD: +1 hit(s), face half x1; NT: eliminated x2", count = 28 },
  })
  for _, u in ipairs(outcomes.per_unit(r)) do
    local want = u.name:match("^NT") and 14 or 28
    t.eq(u.what[1].count, want, u.name)
  end
end)

t.test("27.A.1: a ship without a printed strength is an error naming the rule; the state is as before", function()
  local w = fx.world { forces = { ship("Mystery", "CA", nil, "X", nil), ship("NT 1", "NT", nil, "X") } }
  local hash = w.game:hash_hex()
  local out = w.play { "bomb", tf = "X", hits = 2 }
  t.eq(out.ok, false)
  t.eq(out.kind, "error")
  t.ok(out.message:find("27.A.1: Mystery (CA) has no printed strength: give it values.strength", 1, true), out.message)
  t.eq(w.game:hash_hex(), hash, "the NT sunk by the first hit is afloat again")
  t.eq(w.at("NT 1"), "hex 15B:2407")
end)

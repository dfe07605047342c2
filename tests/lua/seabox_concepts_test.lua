-- Rule 27.B Concepts (scripts/seabox/concepts.lua): sea zones, sea boxes,
-- task forces and when they are known, cargo and its loss, water routes and
-- naval adjacency, naval combat zones. Every worked example of 27.B is a
-- test here.
local t = require "keel.testing"
local fx = dofile("tests/lua/seabox_fixture.lua")

local function ship(name, type_, at, group, values, extra)
  extra = extra or {}
  return { name = name, type = type_, side = extra.side or "Allied", at = at, group = group, values = values,
           port = extra.port, hits = extra.hits, face = extra.face }
end

local function map_file(text)
  local path = t.tmpdir() .. "/test.map"
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  return path
end

-- three seas side by side: the Atlantic (columns 01-05), the Mediterranean
-- (06-13) beyond a strait at column 06, a land bridge at column 14, the Red
-- Sea (15-18). Two Axis islands in the Mediterranean: A:0904 with a CD of
-- 2, A:1204 with a CD of 1. Boxes of radius 2.
local SEAS = [[
map "three seas"
hexes flat even digits 2 first 1 1
section A at 0 0 size 18 8
default all-sea
terrain at A:0101 {
  . . . . . L . . . . . . . L . . . .
  . . . . . L . . . . . . . L . . . .
  . . . . . L . . . . . . . L . . . .
  . . . . . . . . c . . c . L . . . .
  . . . . . . . . . . . . . L . . . .
  . . . . . L . . . . . . . L . . . .
  . . . . . L . . . . . . . L . . . .
  . . . . . L . . . . . . . L . . . .
}
zone "Atlantic Ocean" A:0101..0508
zone "Mediterranean Sea" A:0601..1308
zone "Red Sea" A:1501..1808
owner Axis A:0904 A:1204
cd A:0904 2
cd A:1204 1
seaboxes radius 2 origin A:0304
]]

-- ---- 27.B -------------------------------------------------------------------------------

t.test("27.B: a TF's position: its hex, in port or not, its coast, sea box and sea zone", function()
  local w = fx.world { map = map_file(SEAS), forces = { ship("Ajax", "CL", "A:0304", "Force K", { strength = 2 }) } }
  local pos = w.q("position", w.group("Force K"))
  t.eq(w.board:format(pos.hex), "A:0304")
  t.eq({ pos.in_port, pos.coast, pos.zone }, { false, 0, "Atlantic Ocean" })
  t.eq(pos.box, w.board:box_of(w.hex("A:0304")))
end)

-- ---- 27.B.1 ---------------------------------------------------------------------------

t.test("27.B.1: three separate sea zones: the Atlantic Ocean, the Mediterranean Sea, the Red Sea", function()
  local w = fx.world { map = map_file(SEAS) }
  t.eq(w.q("sea_zone", w.hex("A:0204")), "Atlantic Ocean")
  t.eq(w.q("sea_zone", w.hex("A:1004")), "Mediterranean Sea")
  t.eq(w.q("sea_zone", w.hex("A:1704")), "Red Sea")
  -- no water route from the Mediterranean to the Red Sea on this map: the land bridge
  t.fails("no water route", w.q("route", w.hex("A:1004"), 0, w.hex("A:1704")))
  local crete = fx.world {}
  t.fails("27.B.1: 15B:2406 is in 'Aegean Sea', which is none of the 3 sea zones", crete.q("sea_zone", crete.hex("15B:2406")))
  t.fails("27.B.1: 15B:2003 is in no sea zone", crete.q("sea_zone", crete.hex("15B:2003")))
end)

t.test("27.B.1: a map's finer seas are parts of the three zones (scenario data)", function()
  local dir = t.tmpdir()
  local f = assert(io.open(dir .. "/aegean.lua", "w"))
  f:write('variant { name = "Aegean", base = "seabox" }\nset_values("27.B.1", { parts = { ["Aegean Sea"] = "Mediterranean Sea" } })\n')
  f:close()
  local w = fx.world { variants = { dir .. "/aegean.lua" } }
  t.eq(w.q("sea_zone", w.hex("15B:2406")), "Mediterranean Sea")
end)

-- ---- 27.B.2 ---------------------------------------------------------------------------

t.test("27.B.2: sea boxes 5 hexes across overlay the sea zones; movement counts boxes, not hexes", function()
  local w = fx.world { map = map_file(SEAS), forces = { ship("Ajax", "CL", "A:0104", "K", { strength = 2 }) } }
  local radius = w.board:get_seaboxes()
  t.eq(radius, 2)
  t.eq(#w.board:box_hexes(w.board:box_of(w.hex("A:0304"))), 19)
  -- every sea hex of every zone lies in a sea box
  for _, h in ipairs(w.board:hexes()) do
    if w.q("sea_zone", h) and w.board:get_terrain(h) ~= "all-land" then t.ok(w.board:box_of(h) ~= nil) end
  end
  local hexes = { w.hex("A:0104"), w.hex("A:0204"), w.hex("A:0304"), w.hex("A:0404"), w.hex("A:0504"), w.hex("A:0604") }
  local boxes = 0
  for i = 2, #hexes do if w.board:box_of(hexes[i]) ~= w.board:box_of(hexes[i - 1]) then boxes = boxes + 1 end end
  t.eq(w.q("boxes_along", hexes), boxes)
  t.ok(boxes < #hexes - 1, "five hexes, fewer boxes")
end)

t.test("27.B.2: a map whose sea boxes are not 5 hexes across is refused", function()
  local w = fx.world { map = map_file(SEAS:gsub("radius 2", "radius 1")), forces = { ship("Ajax", "CL", "A:0104", "K", { strength = 2 }) } }
  w.movement()
  local out = w.play { "sail", tf = "K", to = "A:0304" }
  t.eq(out.ok, false)
  t.ok(out.message:find("27.B.2: sea boxes are 5 hexes across (map statement 'seaboxes radius 2'); this map's are 3 across", 1, true), out.message)
end)

-- ---- 27.B.3 ---------------------------------------------------------------------------

t.test("27.B.3: a TF is one or more friendly ships moving together; form, split, join", function()
  local w = fx.world { forces = {
    ship("Ajax", "CL", "15B:2407", "Force B", { strength = 2 }), ship("Jervis", "DD", "15B:2407", "Force B", { strength = 1 }),
    ship("Kandahar", "DD", "15B:2406", "Force C", { strength = 1 }),
    ship("Trento", "CA", "15B:2407", "Regia", { strength = 3 }, { side = "Axis" }),
  } }
  w.movement()
  t.ok(w.q("is_tf", w.group("Force B")))
  t.eq(w.q("tf_side", w.group("Force B")), "Allied")
  w.refused({ "form_tf", ships = { "Ajax", "Trento" }, name = "Mixed" }, "27.B.3: a TF is made of friendly ships: one side only")
  w.refused({ "form_tf", ships = { "Ajax", "Kandahar" }, name = "Apart" }, "27.B.3: Ajax and Kandahar are not in the same place")
  w.refused({ "split_tf", tf = "Force B", ships = { "Ajax", "Jervis" }, name = "All" }, "27.B.3: a split leaves one or more ships in each TF")
  w.refused({ "join_tf", tf = "Force C", into = "Force B" }, "27.B.3: the two TFs are not in the same place")
  w.ok { "split_tf", tf = "Force B", ships = { "Jervis" }, name = "Force D" }
  t.eq(#w.q("tf_ships", w.group("Force B")), 1)
  w.ok { "sail", tf = "Force D", to = "15B:2406" }
  t.eq(w.status().window.side, "Axis", "Regia may react (Rule 28B stand-in)")
  w.pass()
  w.ok { "join_tf", tf = "Force D", into = "Force C" }
  t.eq(#w.q("tf_ships", w.group("Force C")), 2)
  w.ok { "form_tf", ships = { "Kandahar" }, name = "Force E" }
  t.eq(w.q("tf_of", w.id("Kandahar")), w.group("Force E"))
  -- the ships of a TF move together
  w.ok { "sail", tf = "Force C", to = "15B:2405" }
  t.eq({ w.at("Jervis"), w.at("Kandahar") }, { "hex 15B:2405", "hex 15B:2406" })
end)

t.test("27.B.3: known after naval gunfire support from the same hex in the preceding combat phase", function()
  local w = fx.world { forces = { ship("Ajax", "CL", "15B:2407", "Force B", { strength = 2 }),
    ship("Trento", "CA", "15B:2406", "Regia", { side = "Axis", strength = 3 }) } }
  w.movement()
  local tf = w.group("Force B")
  t.eq(w.q("tf_known", tf), false, "unknown otherwise")
  local view = w.q("tf_view", tf, "Axis")
  t.eq({ view.known, view.ships, w.board:format(view.hex) }, { false, nil, "15B:2407" }, "the enemy sees a TF marker only")
  local own = w.q("tf_view", tf, "Allied")
  t.eq(own.ships[1].name, "Ajax")
  w.to("combat")
  w.ok { "gunfire_support", tf = "Force B", hex = "15B:2508" }
  local known, why = w.q("tf_known", tf)
  t.eq(known, true)
  t.ok(why:find("naval gunfire support from 15B:2407", 1, true))
  view = w.q("tf_view", tf, "Axis")
  t.eq(view.ships, { { type = "CL", face = "full" } }, "the enemy sees its ships' types and faces, not hits or cargo")
  -- still known in the exploitation phase and the enemy's next movement phase while it stays
  w.to("exploitation")
  t.eq(w.q("tf_known", tf), true)
  w.ok { "sail", tf = "Force B", to = "15B:2406" }
  t.eq(w.q("tf_known", tf), false, "it left the hex")
  w.pass()   -- Regia does not react
  w.ok { "sail", tf = "Force B", to = "15B:2407" }
  t.eq(w.q("tf_known", tf), true, "back in the hex, before the next combat phase")
  w.movement("Axis", 1)
  t.eq(w.q("tf_known", tf), true)
  w.to("combat")
  t.eq(w.q("tf_known", tf), false, "a new combat phase without support")
end)

t.test("27.B.3: known after engaging coast defences in naval combat from the same hex in the current phase", function()
  local w = fx.world { map = map_file(SEAS), forces = { ship("Ajax", "CL", "A:0702", "Force K", { strength = 2 }) } }
  w.movement()
  local tf = w.group("Force K")
  w.ok { "sail", tf = "Force K", to = "A:1103", via = { "A:0802", "A:0803", "A:0903", "A:1003" } }
  t.eq(w.at("Ajax"), "hex A:0803", "stopped on entering the CD's zone")
  local known, why = w.q("tf_known", tf)
  t.eq(known, true)
  t.ok(why:find("engaged coast defences from A:0803 in this phase", 1, true))
  w.step()
  t.eq(w.q("tf_known", tf), true, "the whole phase")
  w.to("combat")
  t.eq(w.q("tf_known", tf), false, "not in the next phase")
end)

-- ---- 27.B.4 ---------------------------------------------------------------------------

t.test("27.B.4: cargo by RE size; cavalry and c/m units count double", function()
  local w = fx.world { forces = {
    { name = "Inf bde", type = "inf", side = "Allied", values = { ["size.RE"] = 1 } },
    { name = "Cav bde", type = "cav", side = "Allied", values = { ["size.RE"] = 1, class = "cavalry" } },
    { name = "Pz regt", type = "arm", side = "Allied", values = { ["size.RE"] = 0.5, class = "c/m" } },
    { name = "Supply", type = "SP", side = "Allied", values = { ["size.RE"] = 1 } },
  } }
  t.eq(w.q("cargo_size", w.id("Inf bde")), 1)
  t.eq(w.q("cargo_size", w.id("Cav bde")), 2)
  t.eq(w.q("cargo_size", w.id("Pz regt")), 1.0)
  t.eq(w.q("cargo_size", w.id("Supply")), 1)
end)

t.test("27.B.4: cargo over capacity is refused; the order changes nothing", function()
  local w = fx.world { forces = {
    ship("NT 1", "NT", "15B:2508", "C", nil, { port = true }), ship("Kent", "CA", "15B:2508", "C", { strength = 4 }, { port = true }),
    { name = "Armd div", type = "arm", side = "Allied", at = "15B:2508", values = { ["size.RE"] = 3, class = "c/m" } },
    { name = "Inf bde", type = "inf", side = "Allied", at = "15B:2508", values = { ["size.RE"] = 1 } },
    { name = "Inf bde 2", type = "inf", side = "Allied", at = "15B:2508", values = { ["size.RE"] = 1 } },
  } }
  w.movement()
  w.refused({ "embark", cargo = "Armd div", ships = { "NT 1" } }, "27.B.4: Armd div is 6 RE (doubled for its class); NT 1 can carry 1 RE more")
  w.refused({ "embark", cargo = "Inf bde", ships = { "NT 1", "Kent" } }, "27.A.1: only AF and NT combine to carry larger cargo; Kent is a SF")
  w.ok { "embark", cargo = "Inf bde", ships = { "NT 1" } }
  w.step()
  w.refused({ "embark", cargo = "Inf bde 2", ships = { "NT 1" } }, "NT 1 can carry 0 RE more")
end)

t.test("27.B.4: a sunk ship's cargo is eliminated", function()
  local w = fx.world { forces = { ship("NT 1", "NT", "15B:2508", "C", nil, { port = true }),
    { name = "Inf bde", type = "inf", side = "Allied", at = "15B:2508", values = { ["size.RE"] = 1 } } } }
  w.movement()
  w.ok { "embark", cargo = "Inf bde", ships = { "NT 1" } }
  w.ok { "naval_hits", ship = "NT 1", hits = 1 }
  t.eq({ w.at("NT 1"), w.at("Inf bde") }, { "dead", "dead" })
  t.ok(fx.said(w.news(), "Inf bde goes down with NT 1"))
end)

t.test("27.B.4: an undamaged CA carrying a mountain regiment takes 1 hit: the regiment is eliminated (example)", function()
  local w = fx.world { forces = { ship("Kent", "CA", "15B:2508", "C", { strength = 4 }, { port = true }),
    { name = "Mtn regt", type = "mtn", side = "Allied", at = "15B:2508", values = { ["size.RE"] = 1 } } } }
  w.movement()
  w.ok { "embark", cargo = "Mtn regt", ships = { "Kent" } }
  t.eq(w.at("Mtn regt"), "aboard Kent")
  w.ok { "naval_hits", ship = "Kent", hits = 1 }
  t.eq(w.at("Mtn regt"), "dead")
  t.eq(w.at("Kent"), "port 15B:2508", "the CA itself floats")
  t.ok(fx.said(w.news(), "Kent's cargo capacity is now 0 RE: Mtn regt is eliminated"))
end)

t.test("27.B.4: 3 NTs carry a 5-6 Inf XX; one is sunk: a 2-6* cadre aboard a surviving NT (example)", function()
  for _, sunk in ipairs({ "NT 1", "NT 2", "NT 3" }) do
    local w = fx.world { forces = {
      ship("NT 1", "NT", "15B:2508", "C", nil, { port = true }), ship("NT 2", "NT", "15B:2508", "C", nil, { port = true }),
      ship("NT 3", "NT", "15B:2508", "C", nil, { port = true }),
      { name = "5-6 Inf XX", type = "inf", side = "Allied", at = "15B:2508",
        values = { ["size.RE"] = 3, ["cadre.name"] = "2-6* cadre", ["cadre.RE"] = 1 } },
    } }
    w.movement()
    w.ok { "embark", cargo = "5-6 Inf XX", ships = { "NT 1", "NT 2", "NT 3" } }
    w.ok { "naval_hits", ship = sunk, hits = 1 }
    local div = w.id("5-6 Inf XX")
    t.eq(w.game:get(div, "name"), "2-6* cadre", sunk)
    t.eq(w.game:get_value(div, "size.RE"), 1)
    local kind, carrier = w.game:get(div, "loc")
    t.eq(kind, "unit", "still aboard")
    t.ok(carrier ~= w.id(sunk) and w.q("afloat", carrier), "aboard a surviving NT")
    t.eq(#w.q("carriers_of", div), 1, "one NT carries the cadre; the other is free")
    t.ok(fx.said(w.news(), "5-6 Inf XX (3 RE) is more than the 2 RE the surviving ships carry: reduced to its cadre 2-6* cadre (1 RE)"))
  end
end)

t.test("27.B.4: combined ships that lose a ship: excess cargo without a cadre is eliminated; lifts move together", function()
  local w = fx.world { forces = {
    ship("NT 1", "NT", "15B:2508", "C", nil, { port = true }), ship("NT 2", "NT", "15B:2508", "C", nil, { port = true }),
    { name = "Armd bde", type = "arm", side = "Allied", at = "15B:2508", values = { ["size.RE"] = 1, class = "c/m" } },
  } }
  w.movement()
  w.ok { "embark", cargo = "Armd bde", ships = { "NT 1", "NT 2" } }
  w.step()
  w.refused({ "split_tf", tf = "C", ships = { "NT 2" }, name = "Away" }, "27.B.4: NT 2 and NT 1 combine to carry Armd bde: they move together")
  w.ok { "naval_hits", ship = "NT 2", hits = 1 }
  t.eq(w.at("Armd bde"), "dead")
  t.eq(w.at("NT 1"), "port 15B:2508")
end)

-- ---- 27.B.5 ---------------------------------------------------------------------------

t.test("27.B.5: a ship in 15B:2407 enters 15B:2508 on Crete but may not continue south (example)", function()
  local w = fx.world { forces = { ship("Ajax", "CL", "15B:2407", "Force B", { strength = 2 }) } }
  w.movement()
  w.ok { "sail", tf = "Force B", to = "15B:2508", port = true }
  t.eq(w.at("Ajax"), "port 15B:2508")
  w.refused({ "sail", tf = "Force B", to = "15B:2509" , via = {} },
    "27.B.5: 15B:2508 was entered on another coast: from there no water route leads to 15B:2509")
  w.refused({ "sail", tf = "Force B", to = "15B:2610", via = { "15B:2509", "15B:2510" } },
    "27.B.5: 15B:2508 was entered on another coast: from there no water route leads to 15B:2509")
  -- round an end of the island instead: the route of fewest boxes goes round
  local path = w.q("route", w.hex("15B:2508"), w.game:group_get_value(w.group("Force B"), "coast"), w.hex("15B:2509"))
  t.ok(#path > 3)
end)

t.test("27.B.5: never across land; coastal to coastal only across a partial-water hexside", function()
  local w = fx.world { forces = { ship("Ajax", "CL", "15B:2509", "Force B", { strength = 2 }),
    ship("Orion", "CL", "15B:2905", "Force C", { strength = 2 }) } }
  w.movement()
  -- from the south, Heraklion is entered on its south coast: the north is across land
  w.refused({ "sail", tf = "Force B", to = "15B:2407", via = { "15B:2508" } },
    "27.B.5: 15B:2508 was entered on another coast: from there no water route leads to 15B:2407")
  w.ok { "sail", tf = "Force B", to = "15B:2408", via = { "15B:2409" } }
  -- 15B:2408 -> 15B:2508: both coastal, the hexside between them is Crete's spine (all-land)
  w.refused({ "sail", tf = "Force B", to = "15B:2508", via = {} },
    "27.B.5: no water route between 15B:2408 and 15B:2508: the hexside between them is land")
  -- two coastal hexes across a partial-water hexside
  t.eq(w.board:get_features(w.board:side("15B:2905/2906")).water, "partial-water")
  w.ok { "sail", tf = "Force C", to = "15B:2906", via = {} }
  t.eq(w.at("Orion"), "hex 15B:2906")
end)

t.test("27.B.5: naval adjacency is a water route directly between two hexes", function()
  local w = fx.world {}
  t.eq(w.q("naval_adjacent", w.hex("15B:2407"), w.hex("15B:2508")), true)
  t.eq(w.q("naval_adjacent", w.hex("15B:2408"), w.hex("15B:2508")), false, "Crete's spine")
  t.eq(w.q("naval_adjacent", w.hex("15B:2407"), w.hex("15B:2409")), false, "not adjacent at all")
  local nb = {}
  for _, h in ipairs(w.q("naval_neighbors", w.hex("15B:2508"))) do nb[#nb + 1] = w.board:format(h) end
  t.ok(#nb >= 4)
end)

-- ---- 27.B.6 ---------------------------------------------------------------------------

t.test("27.B.6: BB and BC zones: own hex and water-route-adjacent hexes; CA, CL, DD: own hex; others none", function()
  local w = fx.world { map = map_file(SEAS), forces = {
    ship("Littorio", "BB", "A:0207", "R1", { strength = 5 }, { side = "Axis" }),
    ship("Trento", "CA", "A:1007", "R2", { strength = 3 }, { side = "Axis" }),
    ship("NT A", "NT", "A:1107", "R3", nil, { side = "Axis" }),
  } }
  local function zones(label)
    local a = w.q("enemy_zones", w.hex(label), "Allied")
    local out = {}
    for _, u in ipairs(a.ships) do out[#out + 1] = w.game:get(u, "name") end
    return out
  end
  t.eq(zones("A:0207"), { "Littorio" })
  t.eq(zones("A:0206"), { "Littorio" })
  t.eq(zones("A:0307"), { "Littorio" })
  t.eq(zones("A:0205"), {})
  t.eq(zones("A:1007"), { "Trento" })
  t.eq(zones("A:1006"), {})
  t.eq(zones("A:1107"), {}, "an NT has no zone")
  t.eq(w.q("enemy_zones", w.hex("A:0206"), "Axis").ships, {}, "only enemy zones count")
end)

t.test("27.B.6: CD 2 or more: own hex and adjacent hexes; CD 1: own hex; a TF entering one stops for naval combat", function()
  local w = fx.world { map = map_file(SEAS), forces = { ship("Ajax", "CL", "A:0702", "Force K", { strength = 2 }),
    ship("Orion", "CL", "A:1103", "Force L", { strength = 2 }) } }
  local function cds(label) return #w.q("enemy_zones", w.hex(label), "Allied").cds end
  t.eq({ cds("A:0904"), cds("A:0903"), cds("A:1004"), cds("A:0902") }, { 1, 1, 1, 0 })
  t.eq({ cds("A:1204"), cds("A:1203"), cds("A:1205") }, { 1, 0, 0 })
  t.eq(#w.q("enemy_zones", w.hex("A:0903"), "Axis").cds, 0, "a CD's own side")
  w.movement()
  w.ok { "sail", tf = "Force L", to = "A:1305", via = { "A:1203", "A:1304" } }
  t.eq(w.at("Orion"), "hex A:1305", "past a CD 1 without entering its hex")
  w.ok { "sail", tf = "Force K", to = "A:1103", via = { "A:0802", "A:0803", "A:0903", "A:1003" } }
  t.eq(w.at("Ajax"), "hex A:0803")
  t.ok(fx.said(w.news(), "Force K enters an enemy naval combat zone at A:0803 (CD 2 at A:0904): naval combat, resolved now"))
end)

t.test("27.B.6: at night and in rough or stormy seas zones shrink by 1, never below the own hex", function()
  for _, cond in ipairs({ { "set_night", night = true }, { "set_sea", sea = "rough" }, { "set_sea", sea = "stormy" } }) do
    local w = fx.world { map = map_file(SEAS), forces = { ship("Ajax", "CL", "A:0702", "Force K", { strength = 2 }),
      ship("Littorio", "BB", "A:0207", "R1", { strength = 5 }, { side = "Axis" }) } }
    w.ok(cond)
    local a = w.q("enemy_zones", w.hex("A:0903"), "Allied")
    t.eq(#a.cds, 0, cond[1])
    t.eq(#w.q("enemy_zones", w.hex("A:0904"), "Allied").cds, 1, "the CD's own hex")
    t.eq(#w.q("enemy_zones", w.hex("A:0206"), "Allied").ships, 0)
    t.eq(#w.q("enemy_zones", w.hex("A:0207"), "Allied").ships, 1, "the BB's own hex")
    w.movement()
    w.ok { "sail", tf = "Force K", to = "A:1103", via = { "A:0802", "A:0803", "A:0903", "A:1003" } }
    t.eq(w.at("Ajax"), "hex A:1103", "passes the CD's zone")
    t.ok(fx.said(w.news(), "passes A:0803 outside the coast defence zone of A:0904 (CD 2), reduced by"))
  end
  local w = fx.world { map = map_file(SEAS) }
  w.refused({ "set_sea", sea = "choppy" }, "sea conditions are calm, rough or stormy, not 'choppy'")
end)

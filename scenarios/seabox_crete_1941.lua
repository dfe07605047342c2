-- scenarios/seabox_crete_1941.lua — the Rule 27 showcase (001_dc9ef6cc32bfaa07.txt,
-- scripts/seabox) on scenarios/maps/seabox_med.map: the Mediterranean with
-- its three sea zones and sea boxes 5 hexes across.
--
-- May 1941, the Allied player turn. In the initial phase a cruiser arrives
-- at Alexandria (27.C.1, Rule 35 stand-in). Movement phase, naval step 1: a
-- 5-6 Inf XX embarks across 3 NTs of convoy AN-31 (27.B.4, a whole naval
-- step: 27.C.2), a brigade on a fourth. Step 2: the convoy (8 NTs, the CL
-- Ajax and the DD Jervis) cannot reach the north of Crete in one step (7
-- sea boxes; NTs make 6) and stops south-east of it; German bombers score 3
-- hits, spread NT, SF, NT at random (27.A.3), and an NT of the division
-- goes down: the division is cut to its cadre (27.B.4). Step 3: night; the
-- convoy slips through the Kaso strait past the Italian coast defence on
-- Kasos, whose zone shrinks to its own hex at night (27.B.6), and enters
-- Heraklion from the north (27.B.5): the south side of Crete is out of
-- reach from there. Step 4: the cadre and the brigade go ashore. In the
-- combat phase the escort gives naval gunfire support to the defence of
-- Heraklion and so becomes known to the enemy (27.B.3); in the exploitation
-- phase (4 naval steps, 27.C.4) it sails away and is unknown again.
--
-- Each order carries expectations, so the showcase is also a test; its
-- journal is tests/golden/seabox_crete_1941.jsonl.
--   keel run scenarios/seabox_crete_1941.lua --svg crete_1941.svg
return scenario {
  name = "Crete, May 1941: Rule 27 in the Eastern Mediterranean",
  map = "maps/seabox_med.map",
  rules = { "seabox" },
  seed = 6,
  flags = { night = false, sea = "calm" },
  forces = {
    { name = "NT 1", type = "NT", side = "Allied", at = "Alexandria", port = true, group = "Convoy AN-31" },
    { name = "NT 2", type = "NT", side = "Allied", at = "Alexandria", port = true, group = "Convoy AN-31" },
    { name = "NT 3", type = "NT", side = "Allied", at = "Alexandria", port = true, group = "Convoy AN-31" },
    { name = "NT 4", type = "NT", side = "Allied", at = "Alexandria", port = true, group = "Convoy AN-31" },
    { name = "NT 5", type = "NT", side = "Allied", at = "Alexandria", port = true, group = "Convoy AN-31" },
    { name = "NT 6", type = "NT", side = "Allied", at = "Alexandria", port = true, group = "Convoy AN-31" },
    { name = "NT 7", type = "NT", side = "Allied", at = "Alexandria", port = true, group = "Convoy AN-31" },
    { name = "NT 8", type = "NT", side = "Allied", at = "Alexandria", port = true, group = "Convoy AN-31" },
    { name = "Ajax", type = "CL", side = "Allied", at = "Alexandria", port = true, group = "Convoy AN-31",
      values = { strength = 2, aa = 2 } },
    { name = "Jervis", type = "DD", side = "Allied", at = "Alexandria", port = true, group = "Convoy AN-31",
      values = { strength = 2, aa = 1 } },
    { name = "Orion", type = "CL", side = "Allied",
      values = { strength = 2, aa = 2, arrive_turn = 1, arrive_at = "Alexandria", arrive_tf = "Force C" } },
    { name = "5-6 Inf XX", type = "inf", side = "Allied", at = "Alexandria",
      values = { ["size.RE"] = 3, mp = 6, ["cadre.name"] = "2-6* Inf cadre", ["cadre.RE"] = 1 } },
    { name = "14th Inf bde", type = "inf", side = "Allied", at = "Alexandria", values = { ["size.RE"] = 1, mp = 6 } },
  },
  orders = {
    { event = "player_turn_start", data = { side = "Allied", turn = 1 } },
    { event = "initial_phase", expect = { units = { Orion = { loc = "port" } } } },

    -- ---- the movement phase: 6 naval steps ------------------------------------------
    { event = "movement_phase" },
    -- step 1: embarking takes the whole naval step
    { "embark", cargo = "5-6 Inf XX", ships = { "NT 1", "NT 2", "NT 3" },
      expect = { units = { ["5-6 Inf XX"] = { loc = "unit", values = { mp_spent = 1 } } } } },
    { "embark", cargo = "14th Inf bde", ships = { "Orion", "NT 4" }, expect = { illegal = "27.A.1: only AF and NT combine" } },
    { "embark", cargo = "14th Inf bde", ships = { "NT 4" } },
    { "sail", tf = "Convoy AN-31", to = "19A:2801", expect = { illegal = "used this naval step to embark cargo" } },
    { "next_step" },
    -- step 2: 6 sea boxes at the NTs' speed; the north of Crete is 7 away
    { "sail", tf = "Convoy AN-31", to = "15B:2407", expect = { illegal = "moves at most 6 sea box(es)" } },
    { "sail", tf = "Convoy AN-31", to = "15B:2810",
      expect = { units = { ["NT 1"] = { at = "15B:2810" }, Ajax = { at = "15B:2810", values = { step_boxes = 6 } } } } },
    -- German bombers (Rule 20G2 scored 3 hits): NT, SF, NT
    { "bomb", tf = "Convoy AN-31", hits = 3,
      expect = { units = { ["5-6 Inf XX"] = { name = "2-6* Inf cadre", values = { ["size.RE"] = 1 } } } } },
    { "next_step", expect = { units = { ["5-6 Inf XX"] = { values = { mp_spent = 2 } } } } },
    -- step 3: night; through the Kaso strait past Kasos (CD 2) to the north of Crete
    { "set_night", night = true },
    { "sail", tf = "Convoy AN-31", to = "15B:2407",
      via = { "15B:2910", "15B:2909", "15B:2908", "15B:2807", "15B:2707", "15B:2607", "15B:2507" },
      expect = { units = { Ajax = { at = "15B:2407" } } } },
    { "sail", tf = "Convoy AN-31", to = "Heraklion", port = true, expect = { units = { Ajax = { loc = "port" } } } },
    { "sail", tf = "Convoy AN-31", to = "15B:2509", via = {}, expect = { illegal = "27.B.5: 15B:2508 was entered on another coast" } },
    { "next_step", expect = { units = { ["5-6 Inf XX"] = { values = { mp_spent = 3 } } } } },
    -- step 4: day; ashore
    { "set_night", night = false },
    { "disembark", cargo = "5-6 Inf XX", expect = { units = { ["5-6 Inf XX"] = { at = "Heraklion", values = { mp_spent = 4 } } } } },
    { "disembark", cargo = "14th Inf bde", expect = { units = { ["14th Inf bde"] = { at = "Heraklion" } } } },
    { "next_step" },
    -- step 5: the escort leaves the convoy and stands off Heraklion
    { "split_tf", tf = "Convoy AN-31", ships = { "Ajax", "Jervis" }, name = "Force B" },
    { "sail", tf = "Force B", to = "15B:2407", expect = { units = { Ajax = { at = "15B:2407" } } } },
    { "next_step" },

    -- ---- the combat phase: gunfire support for the defence of Heraklion -------------
    { event = "combat_phase" },
    { "gunfire_support", tf = "Convoy AN-31", hex = "Heraklion", expect = { illegal = "only SF have a naval gunfire support strength" } },
    { "gunfire_support", tf = "Force B", hex = "Heraklion" },

    -- ---- the exploitation phase: 4 naval steps ---------------------------------------
    { event = "exploitation_phase" },
    { "sail", tf = "Force B", to = "15B:2005" },
    { event = "player_turn_end" },
  },
}

-- scenarios/seabox_crete_1941.lua — the Rule 27 showcase (001_dc9ef6cc32bfaa07.txt,
-- scripts/seabox) on scenarios/maps/seabox_med.map: the Mediterranean with
-- its three sea zones and sea boxes 5 hexes across.
--
-- May 1941: a game of one turn, an Allied then an Axis player turn, each
-- the initial, movement (6 naval steps), combat and exploitation (4 naval
-- steps) phases of 27.C. The Allies must land 2 RE or more at Heraklion.
-- Its recorded play, the Allied player turn: in the initial phase a cruiser
-- arrives at Alexandria (27.C.1, Rule 35 stand-in). Naval step 1: a 5-6 Inf
-- XX embarks across 3 NTs of convoy AN-31 (27.B.4, a whole naval step:
-- 27.C.2), a brigade on a fourth. Step 2: the convoy (8 NTs, the CL Ajax and
-- the DD Jervis) cannot reach the north of Crete in one step (7 sea boxes;
-- NTs make 6) and stops south-east of it; German bombers score 3 hits,
-- spread NT, SF, NT at random (27.A.3), and an NT of the division goes down:
-- the division is cut to its cadre (27.B.4). Step 3: night; the convoy
-- slips through the Kaso strait past the Italian coast defence on Kasos,
-- whose zone shrinks to its own hex at night (27.B.6), and enters Heraklion
-- from the north (27.B.5): the south side of Crete is out of reach from
-- there. Step 4: the cadre and the brigade go ashore. In the combat phase
-- the escort gives naval gunfire support to the defence of Heraklion and so
-- becomes known to the enemy (27.B.3); in the exploitation phase it sails
-- away and is unknown again. The Axis, with no ship at sea, passes its
-- player turn; 2 RE stand at Heraklion and the Allies win.
--
-- The bombing hits and the night are the scenario's own orders (no side):
-- the air rules that score hits (Rule 20G2) and the night's chapter (Rule
-- 34A2) are not in the text. Each order carries expectations, so the
-- showcase is also a test; its journal is tests/golden/seabox_crete_1941.jsonl.
--   keel run scenarios/seabox_crete_1941.lua --svg crete_1941.svg
return scenario {
  name = "Crete, May 1941: Rule 27 in the Eastern Mediterranean",
  map = "maps/seabox_med.map",
  rules = { "seabox" },
  seed = 6,
  flags = { night = false, sea = "calm", objective = "Heraklion" },
  -- the campaign's game turn (a stand-in: Rule 27 cites it, does not contain
  -- it): an Allied then an Axis player turn, each 27.C's phases
  sequence = {
    cite = "stand-in for the campaign's game turn: an Allied then an Axis player turn of 27.C's phases",
    sides = { "Allied", "Axis" },
  },
  turns = 1,
  scores = { Allied = { query = "re_at_objective" } },
  victory = {
    { score = "Allied", at_least = 2, winner = "Allied", title = "2 RE or more of the Allies ashore at Heraklion" },
    { score = "Allied", at_most = 1, winner = "Axis", title = "Heraklion not reinforced: less than 2 RE ashore" },
  },
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
    -- ---- turn 1, the Allied player turn: the initial phase (no decision) -------------
    -- ---- the movement phase: 6 naval steps ------------------------------------------
    -- step 1: embarking takes the whole naval step
    { "embark", by = "Allied", cargo = "5-6 Inf XX", ships = { "NT 1", "NT 2", "NT 3" },
      expect = { global = { phase = "movement", step = "movement_step_1" },
                 units = { Orion = { loc = "port" }, ["5-6 Inf XX"] = { loc = "unit", values = { mp_spent = 1 } } } } },
    { "end_phase", by = "Axis", expect = { refused = "Allied is to act, not Axis" } },
    { "embark", by = "Allied", cargo = "14th Inf bde", ships = { "Orion", "NT 4" },
      expect = { illegal = "27.A.1: only AF and NT combine" } },
    { "embark", by = "Allied", cargo = "14th Inf bde", ships = { "NT 4" } },
    { "sail", by = "Allied", tf = "Convoy AN-31", to = "19A:2801", expect = { illegal = "used this naval step to embark cargo" } },
    { "end_phase", by = "Allied", expect = { global = { step = "movement_step_2" } } },
    -- step 2: 6 sea boxes at the NTs' speed; the north of Crete is 7 away
    { "sail", by = "Allied", tf = "Convoy AN-31", to = "15B:2407", expect = { illegal = "moves at most 6 sea box(es)" } },
    { "sail", by = "Allied", tf = "Convoy AN-31", to = "15B:2810",
      expect = { units = { ["NT 1"] = { at = "15B:2810" }, Ajax = { at = "15B:2810", values = { step_boxes = 6 } } } } },
    -- German bombers (Rule 20G2 scored 3 hits): NT, SF, NT
    { "bomb", tf = "Convoy AN-31", hits = 3,
      expect = { units = { ["5-6 Inf XX"] = { name = "2-6* Inf cadre", values = { ["size.RE"] = 1 } } } } },
    { "end_phase", by = "Allied", expect = { units = { ["5-6 Inf XX"] = { values = { mp_spent = 2 } } } } },
    -- step 3: night; through the Kaso strait past Kasos (CD 2) to the north of Crete
    { "set_night", night = true },
    { "sail", by = "Allied", tf = "Convoy AN-31", to = "15B:2407",
      via = { "15B:2910", "15B:2909", "15B:2908", "15B:2807", "15B:2707", "15B:2607", "15B:2507" },
      expect = { units = { Ajax = { at = "15B:2407" } } } },
    { "sail", by = "Allied", tf = "Convoy AN-31", to = "Heraklion", port = true, expect = { units = { Ajax = { loc = "port" } } } },
    { "sail", by = "Allied", tf = "Convoy AN-31", to = "15B:2509", via = {},
      expect = { illegal = "27.B.5: 15B:2508 was entered on another coast" } },
    { "end_phase", by = "Allied", expect = { units = { ["5-6 Inf XX"] = { values = { mp_spent = 3 } } } } },
    -- step 4: day; ashore
    { "set_night", night = false },
    { "disembark", by = "Allied", cargo = "5-6 Inf XX",
      expect = { units = { ["5-6 Inf XX"] = { at = "Heraklion", values = { mp_spent = 4 } } } } },
    { "disembark", by = "Allied", cargo = "14th Inf bde", expect = { units = { ["14th Inf bde"] = { at = "Heraklion" } } } },
    { "end_phase", by = "Allied" },
    -- step 5: the escort leaves the convoy and stands off Heraklion
    { "split_tf", by = "Allied", tf = "Convoy AN-31", ships = { "Ajax", "Jervis" }, name = "Force B" },
    { "sail", by = "Allied", tf = "Force B", to = "15B:2407", expect = { units = { Ajax = { at = "15B:2407" } } } },
    { "end_phase", by = "Allied" },
    { "end_phase", by = "Allied", expect = { global = { phase = "combat" } } },

    -- ---- the combat phase: gunfire support for the defence of Heraklion -------------
    { "gunfire_support", by = "Allied", tf = "Convoy AN-31", hex = "Heraklion",
      expect = { illegal = "only SF have a naval gunfire support strength" } },
    { "gunfire_support", by = "Allied", tf = "Force B", hex = "Heraklion" },
    { "end_phase", by = "Allied", expect = { global = { phase = "exploitation", step = "exploitation_step_1" } } },

    -- ---- the exploitation phase: 4 naval steps ---------------------------------------
    { "sail", by = "Allied", tf = "Force B", to = "15B:2005" },
    { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" },
    { "end_phase", by = "Allied", expect = { global = { phasing = "Axis", step = "movement_step_1" } } },

    -- ---- turn 1, the Axis player turn: no ship at sea, nothing to do ------------------
    { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" },
    { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" },
    -- the Axis combat phase: the Allies may support ground combat (27.C.3); Force B is far away
    { "end_phase", by = "Axis", expect = { global = { phase = "combat" }, refused = "Allied is to act, not Axis" } },
    { "end_phase", by = "Allied" },
    { "end_phase", by = "Axis", expect = { global = { phase = "exploitation" } } },
    { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" },
    { "end_phase", by = "Axis", expect = { keyed = { { "result", "winner", "Allied" }, { "result", { "score", "Allied" }, 2 } } } },
    { "end_phase", by = "Allied", expect = { refused = "the game is over" } },
  },
}

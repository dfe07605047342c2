-- scenarios/ocs_salerno.lua — the showcase of the OCS section 18 family
-- (000_366d55705cda9bbc.txt) on its own map, scenarios/maps/ocs_salerno.map:
-- the Gulf of Salerno, September 1943 (Operation Avalanche), much simplified.
--
--   keel run scenarios/ocs_salerno.lua --journal out/ocs_salerno.jsonl --svg out/ocs_salerno.svg
--
-- A game of two turns (9-12 and 13-16 September: OCS turns of three or
-- four days), each an Allied then an Axis player-turn of the series' turn
-- (the family's stand-in for OCS 4.3 2.2, scripts/ocs/manifest.lua: the
-- Allies are first in both, which 2.3's first-player roll would decide).
-- The Allies win if at the end they hold two of the three objectives the
-- landing was for — Salerno (the port), Montecorvino airfield and Paestum
-- (the southern beaches) — or all three at the end of a turn; else the
-- Axis, which held them, wins. Hex control is the scenario's stand-in
-- (scenarios/families/avalanche): a combat unit ashore takes a hex free of
-- enemy combat units.
--
-- The recorded play. Turn 1, Allied: in the Aircraft Refit Phase Formidable
-- refits its Albacores (18.2b). In the Movement Phase the Martlets land on
-- her (18.2a); the assault forces embark at Agropoli within the port's
-- capacity (18.4c); an LST may not become a port where there is one (18.4f
-- F); the fleet closes the coast; the landing craft land two battalions on
-- the beach (18.5a), an LST deploys as a port in the Sele estuary (18.4f),
-- one DUKW lands a commando and switches to Transport Points on the same
-- roll, another switches with a roll of its own and drives inland with an SP
-- (18.4e); the ALT rolls come after all the craft have moved, one per group
-- of 3 RE (18.5f), then a battalion moves half its MA inland and takes
-- Montecorvino airfield (18.5h). In the Air/Naval Barrage Segment Warspite
-- barrages the panzergrenadiers (18.3b: a step loss, for the ground
-- chapter) and may not fire at a second target (18.3a); Uganda fires at the
-- DG'd Lupo (18.3d: a second DG is a hit); the Albacores may not bomb the
-- shore (18.3e) but torpedo Sagittario from the carrier's hex (18.2c,
-- 18.3c) and DG it. In the Axis Reaction Phase the Salerno
-- battery fires at a destroyer (18.3g A). In the Combat Phase the Artillery
-- Barrage Segment has no naval barrages (2.2); a Beach Assault goes in at
-- Paestum, the Axis player decides in the window it opens and takes it on
-- the ALT (18.6b). In the Exploitation Phase an ALT landing is refused
-- (18.5d), loading off a beach is refused (18.4c), and an SP comes ashore
-- through the new LST port without a roll (18.5g). The Clean Up Phase takes
-- the DG markers off the Allied ships (18.1d).
-- Turn 1, Axis: the destroyers steam away (damaged Lupo at slow speed,
-- 18.1f) and the battery fires at Warspite, to no effect; in the Allied
-- Reaction Phase Warspite may not fire at a ground target again this game
-- turn (18.3a B). Turn 2: Formidable refits the Albacores, the
-- panzergrenadiers' counter-attack meets Warspite's guns again; the Allies
-- hold Montecorvino and Paestum at the end, and win.
--
-- The Barrage Table, the ALT and the Transportation Equivalents are the
-- family's labelled stand-ins (scripts/ocs/tables/): a real game supplies
-- its own. Each order carries expectations, so the showcase is also a test.
local INF = { re = 1, ma = 4, attack = 2, steps = 2, mode = "combat" }

local function inf(extra)
  local v = {}
  for k, x in pairs(INF) do v[k] = x end
  for k, x in pairs(extra or {}) do v[k] = x end
  return v
end

-- the orders below, flattened: a list may hold lists of orders (passes)
local function play(parts)
  local out = {}
  local function add(x)
    if type(x[1]) == "table" then
      for _, y in ipairs(x) do add(y) end
    else
      out[#out + 1] = x
    end
  end
  for _, p in ipairs(parts) do add(p) end
  return out
end

-- n passes by a side (end_phase: it is done with the step or phase)
local function pass(side, n)
  local out = {}
  for i = 1, n do out[i] = { "end_phase", by = side } end
  return out
end

local OBJECTIVES = { "Salerno", "Montecorvino", "Paestum" }

return scenario {
  name = "Salerno, 1943: OCS Naval Power",
  map = "maps/ocs_salerno.map",
  rules = { "ocs", "avalanche" },
  path = { "families" },
  seed = 7,
  -- the family's sequence of play (the stand-in for OCS 4.3 2.2), with the
  -- scenario's player-turns: the Allies first
  sequence = { sides = { "Allied", "Axis" } },
  turns = 2,
  scores = {
    Allied = { owns = OBJECTIVES },
    Axis = { owns = OBJECTIVES },
  },
  victory = {
    { when = "turn_end", owns = OBJECTIVES, side = "Allied", winner = "Allied",
      title = "Avalanche succeeds: Salerno, Montecorvino airfield and Paestum taken" },
    { score = "Allied", at_least = 2, winner = "Allied",
      title = "the beachhead holds: the Allies hold two of the three objectives" },
    { score = "Allied", at_most = 1, winner = "Axis",
      title = "the Allies are held on the beaches: one objective or none" },
  },
  forces = {
    -- the carrier group and the bombardment force
    { name = "Formidable", type = "CV", side = "Allied", at = "S:0405", values = { ["capacity.planes"] = 3, flak = 2 } },
    { name = "Albacore 820", type = "air", side = "Allied", aboard = "Formidable",
      values = { barrage = 3, range = 6, torpedo = true, inactive = true } },
    { name = "Albacore 826", type = "air", side = "Allied", aboard = "Formidable",
      values = { barrage = 2, range = 6, torpedo = true, inactive = true } },
    { name = "Martlet 888", type = "air", side = "Allied", values = { barrage = 1, range = 4 } },
    { name = "Warspite", type = "BB", side = "Allied", at = "S:0505",
      values = { barrage = 12, range = 4, protection = 4, flak = 2 } },
    { name = "Jervis", type = "DD", side = "Allied", at = "S:0505", values = { barrage = 3, range = 2, flak = 1, multi_ship = true } },
    { name = "Uganda", type = "CL", side = "Allied", at = "S:0507", values = { barrage = 6, range = 3, protection = 2, flak = 1 } },
    -- the assault shipping and the troops, at Agropoli
    { name = "LCT Flotilla", type = "LC", side = "Allied", at = "Agropoli", points = 4 },
    { name = "LST 409", type = "LST", side = "Allied", at = "Agropoli", points = 2 },
    { name = "DUKW A", type = "DUKW", side = "Allied", at = "Agropoli", points = 1 },
    { name = "DUKW B", type = "DUKW", side = "Allied", at = "Agropoli", points = 2 },
    { name = "LCI 124", type = "LC", side = "Allied", at = "Agropoli", points = 2 },
    { name = "LCT 2", type = "LC", side = "Allied", at = "Agropoli", points = 1 },
    { name = "2/4 Hampshire", type = "inf", side = "Allied", at = "Agropoli", values = inf() },
    { name = "2/5 Hampshire", type = "inf", side = "Allied", at = "Agropoli", values = inf() },
    { name = "1/4 Hampshire", type = "inf", side = "Allied", at = "Agropoli", values = inf() },
    { name = "No 2 Commando", type = "inf", side = "Allied", at = "Agropoli", values = inf { air_transportable = true } },
    { name = "2/6 Queens", type = "inf", side = "Allied", at = "Agropoli", values = inf() },
    { name = "SP Dump A", type = "SP", side = "Allied", at = "Agropoli", points = 1 },
    { name = "SP Dump B", type = "SP", side = "Allied", at = "Agropoli", points = 1 },
    { name = "SP Dump C", type = "SP", side = "Allied", at = "Agropoli", points = 1 },
    -- the defence
    { name = "Lupo", type = "DD", side = "Axis", at = "S:0406", values = { barrage = 3, range = 2, flak = 1 }, markers = { DG = 1 } },
    { name = "Sagittario", type = "DD", side = "Axis", at = "S:0202", values = { barrage = 3, range = 2, flak = 1 } },
    { name = "Batteria Salerno", type = "CoastArty", side = "Axis", at = "S:0703", values = { barrage = 4, range = 3 } },
    { name = "Pz Gren Bn", type = "inf", side = "Axis", at = "S:0805", values = { re = 1, attack = 3 } },
    { name = "KG Stempel", type = "inf", side = "Axis", at = "Paestum", values = { re = 1, attack = 2 } },
  },
  orders = play {
    -- ==== turn 1 (9-12 September): the Allied player-turn ==========================

    -- ---- the Aircraft Refit Phase ------------------------------------------------
    { "move", by = "Axis", unit = "Lupo", path = { "S:0306" },
      expect = { refused = "Allied is to act, not Axis" } },
    { "refit", by = "Allied", carrier = "Formidable",
      expect = { units = { Formidable = { values = { refit_phase = "1 Allied aircraft_refit" } } } } },
    { "end_phase", by = "Allied", expect = { global = { phase = "movement", step = "movement_segment" } } },

    -- ---- the Movement Phase: its Movement Segment ----------------------------------
    { "base_plane", by = "Allied", plane = "Martlet 888", carrier = "Formidable" },
    { "embark", by = "Allied", craft = "LCT Flotilla", units = { "2/4 Hampshire", "2/5 Hampshire" } },
    { "embark", by = "Allied", craft = "LST 409", units = { "1/4 Hampshire" } },
    { "embark", by = "Allied", craft = "DUKW A", units = { "No 2 Commando" } },
    { "embark", by = "Allied", craft = "DUKW B", units = { "SP Dump B" } },
    { "embark", by = "Allied", craft = "LCI 124", units = { "2/6 Queens", "SP Dump A" } },
    { "embark", by = "Allied", craft = "LCT 2", units = { "SP Dump C" } },
    { "convert_lst", by = "Allied", unit = "LST 409", mode = "combat", expect = { illegal = "18.4f F: S:0710 already has a port" } },
    { "move", by = "Allied", units = { "Warspite", "Jervis" }, path = { "S:0604" },
      expect = { units = { Warspite = { at = "S:0604" }, Jervis = { at = "S:0604" } } } },
    { "move", by = "Allied", unit = "LCT Flotilla", path = { "S:0609", "S:0608", "S:0607", "S:0606", "S:0605", "S:0705" } },
    { "land", by = "Allied", craft = "LCT Flotilla", mode = "combat",
      expect = { units = { ["2/4 Hampshire"] = { at = "S:0705", values = { mode = "combat", landed_by = "alt" } } } } },
    { "move", by = "Allied", unit = "LST 409", path = { "S:0609", "S:0608", "S:0607", "S:0707", "S:0806" } },
    { "convert_lst", by = "Allied", unit = "LST 409", mode = "combat", expect = { units = { ["1/4 Hampshire"] = { at = "S:0806" } } } },
    { "move", by = "Allied", unit = "DUKW A", path = { "S:0609", "S:0608", "S:0607", "S:0606", "S:0706" } },
    { "land", by = "Allied", craft = "DUKW A", mode = "combat" },
    { "switch_mode", by = "Allied", unit = "DUKW A", to = "tp", expect = { units = { ["DUKW A"] = { values = { mode = "tp" } } } } },
    { "move", by = "Allied", unit = "DUKW B", path = { "S:0609", "S:0608", "S:0607", "S:0707" } },
    { "switch_mode", by = "Allied", unit = "DUKW B", to = "tp", expect = { units = { ["DUKW B"] = { points = 1 } } } },
    { "move", by = "Allied", unit = "DUKW B", path = { "S:0807", "S:0907" } },
    { "disembark", by = "Allied", craft = "DUKW B", units = { "SP Dump B" },
      expect = { units = { ["SP Dump B"] = { at = "S:0907" }, ["DUKW B"] = { values = { mp_spent = 16 } } } } },
    { "move", by = "Allied", unit = "LCI 124", path = { "S:0609", "S:0608" } },
    { "land", by = "Allied", craft = "LCI 124", mode = "combat",
      expect = { illegal = "18.5: landings are made in coastal hexes (S:0608 is all-sea)" } },
    { "alt_rolls", by = "Allied", expect = { units = { ["LST 409"] = { type = "LST port", at = "S:0806" },
                                                      ["2/4 Hampshire"] = { values = { steps = 1 } } } } },
    { "after_landing_move", by = "Allied", unit = "2/4 Hampshire", path = { "S:0804", "S:0904" },
      expect = { units = { ["2/4 Hampshire"] = { at = "Montecorvino" } } } },
    { "move", by = "Allied", unit = "LCT Flotilla", path = { "S:0605" }, expect = { vetoed = "18.5a: LCT Flotilla unloaded" } },
    { "end_phase", by = "Allied", expect = { global = { step = "movement_barrage" } } },

    -- ---- the Movement Phase: its Air/Naval Barrage Segment -------------------------------
    { "barrage", by = "Allied", units = { "Warspite" }, hex = "S:0805",
      expect = { keyed = { { "ground_barrage", 1, "ground units at S:0805: 1" } } } },
    { "barrage", by = "Allied", units = { "Warspite" }, target = "Sagittario",
      expect = { illegal = "18.3a: Warspite has fired in this Barrage Segment" } },
    { "barrage", by = "Allied", units = { "Uganda" }, target = "Lupo",
      expect = { units = { Lupo = { face = "damaged", markers = { DG = 1 } } } } },
    { "barrage", by = "Allied", units = { "Albacore 820" }, hex = "S:0805",
      expect = { illegal = "18.3e: Albacore 820 is a torpedo bomber" } },
    { "barrage", by = "Allied", units = { "Albacore 820", "Albacore 826" }, target = "Sagittario",
      expect = { units = { Sagittario = { markers = { DG = 1 } }, ["Albacore 820"] = { values = { inactive = true } } },
                 keyed = { { "flak", 1, "ship flak 1 at S:0202 joins the flak roll against 2 air unit(s)" } } } },
    { "end_phase", by = "Allied", expect = { global = { phase = "reaction", step = "reaction_movement", phasing = "Allied" } } },

    -- ---- the Axis Reaction Phase -------------------------------------------------
    { "end_phase", by = "Axis", expect = { global = { step = "reaction_barrage" } } },
    { "barrage", by = "Axis", units = { "Batteria Salerno" }, target = "Jervis",
      expect = { units = { Jervis = { markers = { DG = 1 } } } } },
    { "end_phase", by = "Axis", expect = { global = { phase = "combat", step = "artillery_barrage" } } },

    -- ---- the Combat Phase --------------------------------------------------------
    { "barrage", by = "Allied", units = { "Warspite" }, target = "Lupo",
      expect = { illegal = "2.2: the Combat Phase's Barrage Segment is the artillery's" } },
    { "end_phase", by = "Allied", expect = { global = { step = "combat_segment" } } },
    { "announce_beach_assault", by = "Allied", hex = "Paestum", units = { "2/6 Queens" } },
    -- the defender's choice (18.6b): the Axis player decides in the window
    { "resolve_beach_assault", by = "Allied", hex = "Paestum", expect = { refused = "Axis is to act, not Allied" } },
    { "beach_assault_choice", by = "Axis", hex = "Paestum", alt = true },
    { "beach_assault_choice", by = "Axis", hex = "Paestum", alt = false, expect = { refused = "Allied is to act, not Axis" } },
    { "resolve_beach_assault", by = "Allied", hex = "Paestum",
      expect = { units = { ["KG Stempel"] = { loc = "dead" }, ["2/6 Queens"] = { at = "Paestum", markers = { DG = 1 } },
                           ["SP Dump A"] = { points = 1 } } } },
    { "end_phase", by = "Allied", expect = { global = { phase = "exploitation", step = "exploitation_movement" } } },

    -- ---- the Exploitation Phase ----------------------------------------------------
    { "move", by = "Allied", unit = "LCT 2", path = { "S:0609", "S:0608", "S:0607", "S:0707" } },
    { "land", by = "Allied", craft = "LCT 2",
      expect = { illegal = "18.5d: landings that need an ALT roll are made only in the player's Movement Phase" } },
    { "embark", by = "Allied", craft = "LCT Flotilla", units = { "2/5 Hampshire" },
      expect = { illegal = "18.4c: loading only in port hexes (S:0705 has no port)" } },
    { "move", by = "Allied", unit = "LCT 2", path = { "S:0806" } },
    { "land", by = "Allied", craft = "LCT 2", port = true,
      expect = { units = { ["SP Dump C"] = { at = "S:0806", values = { landed_by = "port" } } } } },
    pass("Allied", 1),
    -- ---- the Clean Up Phase (nothing to decide): the Allied ships' DG markers go
    { "end_phase", by = "Allied",
      expect = { global = { phasing = "Axis", phase = "aircraft_refit" },
                 units = { Lupo = { markers = { DG = 1 } }, Sagittario = { markers = { DG = 1 } } } } },

    -- ==== turn 1: the Axis player-turn =================================================
    pass("Axis", 1),
    { "move", by = "Axis", unit = "Sagittario", path = { "S:0201", "S:0101" },
      expect = { units = { Sagittario = { at = "S:0101" } } } },
    { "move", by = "Axis", unit = "Lupo", path = { "S:0306", "S:0206", "S:0106" } },
    { "end_phase", by = "Axis", expect = { global = { step = "movement_barrage" } } },
    { "barrage", by = "Axis", units = { "Batteria Salerno" }, target = "Warspite" },
    { "end_phase", by = "Axis", expect = { global = { phase = "reaction", step = "reaction_movement" } } },
    { "end_phase", by = "Allied" },
    { "barrage", by = "Allied", units = { "Warspite" }, hex = "S:0805",
      expect = { illegal = "18.3a B: Warspite has fired at a ground target this game turn (in the movement phase)" } },
    { "end_phase", by = "Allied", expect = { global = { phase = "combat", phasing = "Axis" } } },
    pass("Axis", 4),

    -- ==== turn 2 (13-16 September): the counter-attack =========================================
    { "refit", by = "Allied", carrier = "Formidable",
      expect = { units = { Formidable = { values = { refit_phase = "2 Allied aircraft_refit" } } } } },
    { "end_phase", by = "Allied", expect = { global = { turn = 2, phase = "movement" } } },
    { "end_phase", by = "Allied" },
    { "barrage", by = "Allied", units = { "Warspite" }, hex = "S:0805",
      expect = { keyed = { { "ground_barrage", 2, "ground units at S:0805: 1" } } } },
    pass("Allied", 1),
    pass("Axis", 2),
    pass("Allied", 4),
    pass("Axis", 3),
    pass("Allied", 2),
    pass("Axis", 4),
    { "end_phase", by = "Axis", expect = { refused = "the game is over" } },
  },
}

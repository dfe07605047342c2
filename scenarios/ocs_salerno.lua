-- scenarios/ocs_salerno.lua — the showcase of the OCS section 18 family
-- (000_366d55705cda9bbc.txt) on its own map, scenarios/maps/ocs_salerno.map:
-- the Gulf of Salerno, September 1943, much simplified.
--
--   keel run scenarios/ocs_salerno.lua --journal out/ocs_salerno.jsonl --svg out/ocs_salerno.svg
--
-- One Allied player-turn. In the Aircraft Refit Phase Formidable refits its
-- Albacores (18.2b). In the Movement Phase the assault forces embark at
-- Agropoli within the port's capacity (18.4c); an LST may not become a port
-- where there is one (18.4f F); the fleet closes the coast; the landing
-- craft land two battalions on the beach (18.5a), an LST deploys as a port
-- in the Sele estuary (18.4f), one DUKW lands a commando and switches to
-- Transport Points on the same roll, another switches with a roll of its own
-- and drives inland with an SP (18.4e); the ALT rolls come after all the
-- craft have moved, one per group of 3 RE (18.5f), then a battalion moves
-- half its MA inland (18.5h). In the Axis Reaction Phase the Salerno battery
-- fires at a destroyer (18.3g A). In the Combat Phase Warspite barrages the
-- panzergrenadiers ashore (18.3b) and may not fire at a second target
-- (18.3a); Uganda fires at the already DG'd Lupo (18.3d: a second DG is a
-- hit); the Albacores may not bomb the shore (18.3e) but torpedo Sagittario
-- from the carrier's hex (18.2c, 18.3c); a beach assault goes in at Paestum
-- and the defender chooses to take it on the ALT (18.6b). In the
-- Exploitation Phase an ALT landing is refused (18.5d), loading off a beach
-- is refused (18.4c), and an SP comes ashore through the new LST port
-- without a roll (18.5g). The Clean Up Phase takes the DG markers off the
-- Allied ships (18.1d).
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

return scenario {
  name = "Salerno, 1943: OCS Naval Power",
  map = "maps/ocs_salerno.map",
  rules = { "ocs" },
  seed = 7,
  forces = {
    -- the carrier group and the bombardment force
    { name = "Formidable", type = "CV", side = "Allied", at = "S:0405", values = { ["capacity.planes"] = 3, flak = 2 } },
    { name = "Albacore 820", type = "air", side = "Allied", values = { barrage = 3, range = 6, torpedo = true, inactive = true } },
    { name = "Albacore 826", type = "air", side = "Allied", values = { barrage = 2, range = 6, torpedo = true, inactive = true } },
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
  orders = {
    { event = "turn_start", data = { turn = 1 } },
    { "base_plane", plane = "Albacore 820", carrier = "Formidable" },
    { "base_plane", plane = "Albacore 826", carrier = "Formidable" },
    { "base_plane", plane = "Martlet 888", carrier = "Formidable" },

    -- ---- the Aircraft Refit Phase ------------------------------------------------
    { event = "aircraft_refit_phase", data = { side = "Allied" } },
    { "refit", carrier = "Formidable", expect = { units = { Formidable = { values = { refit_phase = 1 } } } } },

    -- ---- the Movement Phase ----------------------------------------------------
    { event = "movement_phase", data = { side = "Allied" } },
    { "embark", craft = "LCT Flotilla", units = { "2/4 Hampshire", "2/5 Hampshire" } },
    { "embark", craft = "LST 409", units = { "1/4 Hampshire" } },
    { "embark", craft = "DUKW A", units = { "No 2 Commando" } },
    { "embark", craft = "DUKW B", units = { "SP Dump B" } },
    { "embark", craft = "LCI 124", units = { "2/6 Queens", "SP Dump A" } },
    { "embark", craft = "LCT 2", units = { "SP Dump C" } },
    { "convert_lst", unit = "LST 409", mode = "combat", expect = { illegal = "18.4f F: S:0710 already has a port" } },
    { "move", units = { "Warspite", "Jervis" }, path = { "S:0604" },
      expect = { units = { Warspite = { at = "S:0604" }, Jervis = { at = "S:0604" } } } },
    { "move", unit = "LCT Flotilla", path = { "S:0609", "S:0608", "S:0607", "S:0606", "S:0605", "S:0705" } },
    { "land", craft = "LCT Flotilla", mode = "combat",
      expect = { units = { ["2/4 Hampshire"] = { at = "S:0705", values = { mode = "combat", landed_by = "alt" } } } } },
    { "move", unit = "LST 409", path = { "S:0609", "S:0608", "S:0607", "S:0707", "S:0806" } },
    { "convert_lst", unit = "LST 409", mode = "combat", expect = { units = { ["1/4 Hampshire"] = { at = "S:0806" } } } },
    { "move", unit = "DUKW A", path = { "S:0609", "S:0608", "S:0607", "S:0606", "S:0706" } },
    { "land", craft = "DUKW A", mode = "combat" },
    { "switch_mode", unit = "DUKW A", to = "tp", expect = { units = { ["DUKW A"] = { values = { mode = "tp" } } } } },
    { "move", unit = "DUKW B", path = { "S:0609", "S:0608", "S:0607", "S:0707" } },
    { "switch_mode", unit = "DUKW B", to = "tp", expect = { units = { ["DUKW B"] = { points = 1 } } } },
    { "move", unit = "DUKW B", path = { "S:0807", "S:0907" } },
    { "disembark", craft = "DUKW B", units = { "SP Dump B" },
      expect = { units = { ["SP Dump B"] = { at = "S:0907" }, ["DUKW B"] = { values = { mp_spent = 16 } } } } },
    { "move", unit = "LCI 124", path = { "S:0609", "S:0608" } },
    { "land", craft = "LCI 124", mode = "combat",
      expect = { illegal = "18.5: landings are made in coastal hexes (S:0608 is all-sea)" } },
    { "alt_rolls", expect = { units = { ["LST 409"] = { type = "LST port", at = "S:0806" },
                                        ["2/4 Hampshire"] = { values = { steps = 1 } } } } },
    { "after_landing_move", unit = "2/4 Hampshire", path = { "S:0804", "S:0904" },
      expect = { units = { ["2/4 Hampshire"] = { at = "Montecorvino" } } } },
    { "move", unit = "LCT Flotilla", path = { "S:0605" }, expect = { vetoed = "18.5a: LCT Flotilla unloaded" } },

    -- ---- the Axis Reaction Phase -------------------------------------------------
    { event = "reaction_phase", data = { side = "Axis" } },
    { event = "barrage_segment", data = { side = "Axis" } },
    { "barrage", units = { "Batteria Salerno" }, target = "Jervis", expect = { units = { Jervis = { markers = { DG = 1 } } } } },

    -- ---- the Combat Phase --------------------------------------------------------
    { event = "combat_phase", data = { side = "Allied" } },
    { event = "barrage_segment", data = { side = "Allied" } },
    { "barrage", units = { "Warspite" }, hex = "S:0805",
      expect = { keyed = { { "ground_barrage", 1, "ground units at S:0805: DG" } } } },
    { "barrage", units = { "Warspite" }, target = "Sagittario",
      expect = { illegal = "18.3a: Warspite has fired in this Barrage Segment" } },
    { "barrage", units = { "Uganda" }, target = "Lupo", expect = { units = { Lupo = { face = "damaged", markers = { DG = 1 } } } } },
    { "barrage", units = { "Albacore 820" }, hex = "S:0805", expect = { illegal = "18.3e: Albacore 820 is a torpedo bomber" } },
    { "barrage", units = { "Albacore 820", "Albacore 826" }, target = "Sagittario",
      expect = { units = { Sagittario = { face = "damaged" }, ["Albacore 820"] = { values = { inactive = true } } },
                 keyed = { { "flak", 1, "ship flak 1 at S:0202 joins the flak roll against 2 air unit(s)" } } } },
    { "announce_beach_assault", hex = "Paestum", units = { "2/6 Queens" } },
    { "beach_assault_choice", hex = "Paestum", alt = true },
    { "beach_assault_choice", hex = "Paestum", alt = false, expect = { illegal = "18.6b: the decision cannot be changed once made" } },
    { "resolve_beach_assault", hex = "Paestum",
      expect = { units = { ["KG Stempel"] = { loc = "dead" }, ["2/6 Queens"] = { at = "Paestum", markers = { DG = 1 } },
                           ["SP Dump A"] = { points = 1 } } } },

    -- ---- the Exploitation Phase ----------------------------------------------------
    { event = "exploitation_phase", data = { side = "Allied" } },
    { "move", unit = "LCT 2", path = { "S:0609", "S:0608", "S:0607", "S:0707" } },
    { "land", craft = "LCT 2",
      expect = { illegal = "18.5d: landings that need an ALT roll are made only in the player's Movement Phase" } },
    { "embark", craft = "LCT Flotilla", units = { "2/5 Hampshire" },
      expect = { illegal = "18.4c: loading only in port hexes (S:0705 has no port)" } },
    { "move", unit = "LCT 2", path = { "S:0806" } },
    { "land", craft = "LCT 2", port = true, expect = { units = { ["SP Dump C"] = { at = "S:0806", values = { landed_by = "port" } } } } },

    -- ---- the Clean Up Phase ----------------------------------------------------------
    { event = "clean_up_phase", data = { side = "Allied" },
      expect = { units = { Lupo = { markers = { DG = 1 } }, Sagittario = { markers = { DG = 1 } } } } },
  },
}

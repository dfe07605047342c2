-- scripts/ocs — OCS 4.3 section 18 "Naval Power" (000_366d55705cda9bbc.txt):
-- ships, carriers, naval combat by barrage, landing craft, amphibious
-- landings and beach assaults. One file per rule area, rules in rulebook
-- order; the rule ids, their files and tests, the contract between the
-- areas and with a scenario (the tables and hooks other chapters supply),
-- and the readings chosen where the text is open are in doc/ocs.md.
-- The game-specific exception of 18.1c is a variant: variants/blitzkrieg_legend.lua.
return family {
  name = "ocs",
  rulebook = "OCS 4.3 section 18 Naval Power",
  depends = {},
  files = {
    "general.lua",         -- plumbing, 18.1a-18.1f
    "carriers.lua",        -- 18.2a-18.2d
    "combat.lua",          -- 18.3, 18.3a-18.3g
    "landing_craft.lua",   -- 18.4, 18.4a-18.4f
    "landings.lua",        -- 18.5, 18.5a-18.5h
    "beach_assaults.lua",  -- 18.6, 18.6a, 18.6b
  },
  tables = {
    "barrage_table_standin.tbl",          -- cited by 18.3, supplied by a scenario
    "alt_standin.tbl",                    -- cited by 18.5f, supplied by a scenario
    "transport_equivalents_standin.tbl",  -- 4.7, cited by 18.4c, supplied by a scenario
  },
  -- The sequence of play: section 18 cites the series' turn (18.1d's Clean
  -- Up Phase, 18.1e's Movement, Exploitation and Reaction Phases, 18.2b's
  -- Aircraft Refit Phase, 18.3a's Barrage Segments, 18.5d's Movement Phase,
  -- 18.6a's Combat Phase) but its text does not contain it: this is a
  -- stand-in for OCS 4.3 2.2 (the Outline Sequence of Play), in its order.
  -- Its Pre-Turn Phase (weather, 2.3's first-player determination) is the
  -- scenario's: its `sides` fix who is first. The phases and segments no
  -- rule of section 18 acts in (reinforcement, breakout, supply) are kept
  -- for the order; the runtime passes them by.
  sequence = {
    cite = "stand-in for OCS 4.3 2.2 (the Outline Sequence of Play: section 18 cites its phases and "
      .. "segments, its text does not contain it)",
    turn = { start = "turn_start", ["end"] = "turn_end" },
    player_turn = { start = "player_turn_start", ["end"] = "player_turn_end" },
    phases = {
      { name = "aircraft_refit", title = "Aircraft Refit Phase", start = "aircraft_refit_phase", cite = "2.2; 18.2b" },
      { name = "reinforcement", title = "Reinforcement Phase", cite = "2.2 (chapter 13's)" },
      { name = "movement", title = "Movement Phase", start = "movement_phase", cite = "2.2; 18.1e, 18.5d",
        steps = {
          { name = "breakout", title = "Breakout Segment", cite = "2.2 (12.8e's)" },
          { name = "movement_segment", title = "Movement Segment", ["end"] = "movement_segment_end" },
          { name = "movement_barrage", title = "Air/Naval Barrage Segment (no artillery barrages)",
            start = "barrage_segment", cite = "2.2; 18.3a" },
        } },
      { name = "supply", title = "Supply Phase", cite = "2.2 (chapter 12's)" },
      { name = "reaction", title = "Reaction Phase (the non-phasing player)", start = "reaction_phase",
        active = "other", cite = "2.2 (chapter 7's); 18.1e",
        steps = {
          { name = "reaction_movement", title = "Movement Segment" },
          { name = "reaction_barrage", title = "Barrage Segment", start = "barrage_segment", cite = "2.2; 18.3a" },
        } },
      { name = "combat", title = "Combat Phase", start = "combat_phase", cite = "2.2 (chapter 9's); 18.6a",
        steps = {
          { name = "artillery_barrage", title = "Artillery Barrage Segment (no air or naval barrages)",
            start = "barrage_segment", cite = "2.2; 18.3g" },
          { name = "combat_segment", title = "Combat Segment" },
        } },
      { name = "exploitation", title = "Exploitation Phase", start = "exploitation_phase",
        cite = "2.2 (chapter 11's); 18.1e",
        steps = {
          { name = "exploitation_movement", title = "Movement Segment" },
          { name = "exploitation_barrage", title = "Barrage Segment", start = "barrage_segment", cite = "2.2; 18.3a" },
          { name = "exploitation_combat", title = "Combat Segment" },
        } },
      { name = "clean_up", title = "Clean Up Phase", start = "clean_up_phase", cite = "2.2; 18.1d" },
    },
  },
  events = {
    -- the phases and segments of a player-turn, sent by the sequence of play
    -- (data.side: whose phase it is; the reacting side's in the Reaction Phase)
    "aircraft_refit_phase", "reaction_phase", "barrage_segment", "clean_up_phase",
    "movement_segment_end",  -- the Movement Phase's Movement Segment ends: ALT rolls not asked for are made (18.5f)
    "record",              -- {kind, text}: a line of the game's records (plumbing)
    "unit_moved",          -- {unit}: another chapter moved a ground unit (18.4c)
    "unit_enters_hex",     -- {unit, hex}: a ground unit entered a hex (18.4f B)
    "barrage_fired",       -- {plan}: a barrage was rolled (18.3); its results follow in 18.3b-18.3g
    "coastal_artillery_hit", -- {unit, effect}: a naval-target barrage result on coastal artillery (18.3g C)
    "port_use",            -- {hex, amount}: port capacity used in this phase (18.4c, 18.5g)
    "dukw_mp",             -- {unit}: a Transport-Point DUKW loads or unloads, 2 MP (18.4e C)
    "units_land",          -- {craft, units, mode, by, to?, no_after_landing?}: cargo comes ashore (18.5)
    "alt_roll",            -- {hex, units, craft, reason, no_after_landing}: one ALT roll for a group (18.5f)
    "alt_hex_done",        -- {hex}: the ALT rolls of a hex are made (18.4f deploys LST ports)
    "craft_loss",          -- {unit, points, reason}: a landing craft loses points (18.4d)
    "ground_step_loss",    -- {unit, reason}: a ground unit loses a step (chapter 9's; a stand-in in the plumbing)
    "ground_barrage_result", -- {hex, facility, result, firers}: 18.3b, applied by chapter 9/14 (default records)
    "air_flak",            -- {hex, planes, flak}: 18.3f ship flak joins the flak roll (chapter 14's; default records)
    "supply_spent",        -- {units, amount, why}: supply paid (chapter 12's; default records)
    "specialized_combat",  -- {hex, units, enemies}: 18.5f E, chapter 9.14's (default records)
  },
  -- what a counter and the status panel show (keel view, keel render; doc/viewer.md)
  view = {
    types = {
      BB = { symbol = "warship", title = "battleship", values = { "barrage", "protection" } },
      BC = { symbol = "warship", title = "battlecruiser", values = { "barrage", "protection" } },
      CA = { symbol = "warship", title = "heavy cruiser", values = { "barrage", "protection" } },
      CL = { symbol = "warship", title = "light cruiser", values = { "barrage", "protection" } },
      DD = { symbol = "warship", title = "destroyers", values = { "barrage", "protection" } },
      CV = { symbol = "carrier", title = "aircraft carrier", values = { "capacity.planes" } },
      CVL = { symbol = "carrier", title = "light carrier", values = { "capacity.planes" } },
      CVE = { symbol = "carrier", title = "escort carrier", values = { "capacity.planes" } },
      LC = { symbol = "landing", title = "landing craft", values = { "points" } },
      LST = { symbol = "landing", title = "LST", values = { "points" } },
      DUKW = { symbol = "landing", title = "DUKW", values = { "points" } },
      ["LST port"] = { symbol = "supply", title = "LST port (18.4f)" },
      CoastArty = { symbol = "coastal", title = "coastal artillery", values = { "barrage", "range" } },
      air = { symbol = "air", title = "air unit", values = { "barrage", "range" } },
      inf = { symbol = "infantry", title = "infantry", values = { "attack", "re" } },
      arm = { symbol = "armor", title = "armour", values = { "attack", "re" } },
      HQ = { symbol = "headquarters", title = "headquarters" },
      SP = { symbol = "supply", title = "supply points", values = { "points" } },
      TP = { symbol = "transport", title = "transport points", values = { "points" } },
      truck = { symbol = "transport", title = "trucks" },
    },
    marks = {
      { value = "inactive", label = "Inactive" },  -- an air unit that has flown (18.2b refits it)
      { value = "mode", label = "%s" },            -- a DUKW as Transport Points (18.4e), a landed unit's mode (18.5c)
    },
    status = {
      { key = "phasing", label = "phasing player" },
      { key = "alt_done_phase", label = "ALT rolls made in phase" },
      { keyed = "ground_barrage", count = true, label = "ground barrages recorded" },
      { keyed = "ground_combat", count = true, label = "ground combats recorded" },
      { keyed = "supply", count = true, label = "supply payments recorded" },
    },
  },
}

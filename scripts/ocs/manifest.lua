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
  events = {
    -- the phases and segments of a player-turn (data.side: whose phase it is)
    "aircraft_refit_phase", "reaction_phase", "barrage_segment", "clean_up_phase",
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
      { key = "phase_side", label = "phase of" },
      { key = "alt_done_phase", label = "ALT rolls made in phase" },
      { keyed = "ground_barrage", count = true, label = "ground barrages recorded" },
      { keyed = "ground_combat", count = true, label = "ground combats recorded" },
      { keyed = "supply", count = true, label = "supply payments recorded" },
    },
  },
}

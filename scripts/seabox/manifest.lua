-- scripts/seabox — Rule 27 "Naval Rules Introduction" (001_dc9ef6cc32bfaa07.txt),
-- the sea-box naval rules of a WWII hex game as changed for one campaign:
-- ships and their damage (27.A), sea zones, sea boxes, task forces, cargo,
-- water routes and naval combat zones (27.B), and the naval activities of
-- each phase (27.C). One file per rule area; the chapters the text cites but
-- does not contain are stand-ins in other_chapters.lua, and the campaign's
-- house rules are the variant variants/campaign_001.lua. The rule ids, their
-- files and tests, and the contract with a scenario are in doc/seabox.md.
return family {
  name = "seabox",
  rulebook = "Rule 27 — Naval Rules Introduction (campaign version, 001_dc9ef6cc32bfaa07.txt)",
  depends = {},
  files = {
    "ships.lua",          -- 27.A, 27.A.1-27.A.4
    "concepts.lua",       -- 27.B, 27.B.1-27.B.6
    "activities.lua",     -- 27.C, 27.C.1-27.C.4
    "other_chapters.lua", -- stand-ins: Rules 35, 28B, 34A2, 36C; USA organisation, contingents, East transfers
  },
  events = {
    "ship_damaged",         -- {unit, hits}: 27.A.3 applied hits that did not sink the ship
    "ship_sinking",         -- {unit}: 27.A.3 is about to sink a ship (its cargo is still aboard)
    "tf_moved",             -- {tf, from, to, boxes, path}: 27.C.2 moved a TF
    "naval_combat",         -- {tf, hex, ships, cds}: a TF entered an enemy naval combat zone (27.B.6, 27.C.2)
    "gunfire_support",      -- {tf, hex, strength, side}: 27.C.3 allocated naval gunfire support
    "naval_reinforcements", -- {side}: 27.C.1's initial phase; Rule 35 (stand-in) answers
  },
}

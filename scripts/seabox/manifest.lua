-- scripts/seabox — Rule 27 "Naval Rules Introduction" (001_dc9ef6cc32bfaa07.txt),
-- the sea-box naval rules of a WWII hex game as changed for one campaign:
-- ships and their damage (27.A), sea zones, sea boxes, task forces, cargo,
-- water routes and naval combat zones (27.B), and the naval activities of
-- each phase (27.C). One file per rule area; the chapters the text cites but
-- does not contain are stand-ins in other_chapters.lua, and the campaign's
-- house rules are the variant variants/campaign_001.lua. The rule ids, their
-- files and tests, and the contract with a scenario are in doc/seabox.md.

-- the naval steps of a phase (27.C.2: 6 in the movement phase; 27.C.4: 4 in
-- the exploitation phase), each 36 hours; `data` reaches the step's events
local function naval_steps(phase, n, cite)
  local out = {}
  for i = 1, n do
    out[i] = { name = ("%s_step_%d"):format(phase, i), title = ("naval step %d of %d"):format(i, n), cite = cite,
               start = "naval_step_start", ["end"] = "naval_step_end", data = { step = i, naval_steps = n } }
  end
  return out
end

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
  -- The sequence its chapter implies: naval activities occur in each player
  -- turn (27.C), phase by phase in the order of 27.C.1-27.C.4, the movement
  -- and exploitation phases divided into naval steps. The campaign's game
  -- turn (which sides, whose player turn first, how many turns) is a
  -- chapter the text does not contain: each scenario declares it (sides,
  -- turns), as a stand-in.
  sequence = {
    cite = "27.C: in each player turn the initial phase (27.C.1), the movement phase's 6 naval steps (27.C.2), "
      .. "the combat phase (27.C.3) and the exploitation phase's 4 naval steps (27.C.4); the campaign's game "
      .. "turn is a scenario's",
    turn = { start = "turn_start", ["end"] = "turn_end" },
    player_turn = { start = "player_turn_start", ["end"] = "player_turn_end" },
    phases = {
      { name = "initial", title = "initial phase", cite = "27.C.1", start = "initial_phase" },
      { name = "movement", title = "movement phase", cite = "27.C.2", start = "movement_phase",
        steps = naval_steps("movement", 6, "27.C.2") },
      { name = "combat", title = "combat phase", cite = "27.C.3", start = "combat_phase" },
      { name = "exploitation", title = "exploitation phase", cite = "27.C.4", start = "exploitation_phase",
        steps = naval_steps("exploitation", 4, "27.C.4") },
    },
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

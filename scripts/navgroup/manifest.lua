-- scripts/navgroup — Rule 32 Naval Unit Movement (004_0e2364863b8db0db.txt):
-- naval groups, their movement, searches, reaction and combat; and Rule 37
-- Amphibious Landings (003_324962bba0bb45e8.txt) of the same game. One file
-- per rule area; the rule ids, their files and tests, and the contract
-- between the areas (queries, events, game data) are in doc/navgroup.md.
return family {
  name = "navgroup",
  rulebook = "Rule 32 Naval Unit Movement (V 11.07.19), Rule 37 Amphibious Landings (V 11.08.05)",
  depends = {},
  files = {
    "groups.lua",   -- 32.A, 32.A.1, 32.A.1.a, 32.A.1.b
    "enemy.lua",    -- 32.A.2
    "costs.lua",    -- 32.A.3
    "ending.lua",   -- 32.A.4
    "straits.lua",  -- 32.A.5
    "rivers.lua",   -- 32.A.6
    "suez.lua",     -- 32.A.6.a
    "corinth.lua",  -- 32.A.6.a.1
    "move.lua",     -- family plumbing (no rule id): the move, put_to_sea and spend actions
    "search.lua",   -- 32.B, 32.B.1-32.B.6
    "reaction.lua", -- 32.C
    "combat.lua",   -- 32.D, 32.D.1-32.D.3
    "landings.lua",         -- 37, 37 (a)-(g), the East Front limitation: the land action
    "landing_costs.lua",    -- 37.A
    "landing_ground.lua",   -- 37.B, items 1-13, Tables 1 and 2
    "landing_planning.lua", -- 37.C
    "landing_craft.lua",    -- 37.D, Table 3
    "landing_reaction.lua", -- 37.E, Table 4
  },
  tables = {
    "naval_search.tbl",                 -- 32.B
    "naval_mp_cost.tbl",                -- 32.A.3
    "amphibious_assault_modifiers.tbl", -- 37.B Table 1
    "amphibious_landing_effects.tbl",   -- 37.B Table 2
    "landing_craft_damage.tbl",         -- 37.D Table 3
    "invasion_reaction.tbl",            -- 37.E Table 4
    "success_table_standin.tbl",        -- cited by 37.D/37.E, supplied by a scenario
    "amphibious_planning_standin.tbl",  -- cited by 37.C, supplied by a scenario
  },
  -- The sequence its chapters imply, in the order of the player-turn: the
  -- initial phase is when the Suez Canal's status changes (32.A.6.a);
  -- naval groups move, and landings are made, in the naval movement steps
  -- of the phasing player's movement phase (32.A, 37 (a)); the enemy moves
  -- in the reaction phase that follows landings (37.E: the other side's);
  -- landing units attack in the combat phase (37.B items 4-6, 37 (e)) and
  -- trace special supply in the supply judgement phase (37.B item 10), after
  -- combat (37.B's "movement, combat, and supply judgement phases"). The
  -- sides and their order, how many steps and what else a turn holds are
  -- the series' chapter, which a scenario supplies (its `sequence`
  -- overrides any of these fields).
  sequence = {
    cite = "Rule 32 (naval movement steps, 32.A; the initial phase, 32.A.6.a) and Rule 37 (landings in a naval "
      .. "movement step, 37 (a); the enemy's reaction phase, 37.E; the combat, exploitation and supply judgement "
      .. "phases, 37.B); the rest of the series' turn is a scenario's",
    turn = { start = "turn_start", ["end"] = "turn_end" },
    player_turn = { start = "player_turn_start", ["end"] = "player_turn_end" },
    phases = {
      { name = "initial", start = "initial_phase" },
      { name = "movement", start = "movement_phase",
        steps = { { name = "naval_step", start = "naval_step_start", ["end"] = "naval_step_end",
                    data = { step = 1 } } } },
      { name = "reaction", start = "reaction_phase", active = "other", cite = "37.E" },
      { name = "combat", start = "combat_phase" },
      { name = "exploitation", start = "exploitation_phase" },
      { name = "supply", start = "supply_phase", cite = "37.B item 10" },
    },
  },
  events = {
    "naval_combat",       -- {group, hex, kind, enemy, cd, fired_by, round}: emitted by move, resolved by 32.D's hook
    "naval_search",       -- 32.B: a search was rolled
    "reserves_activated", -- 32.B/32.C: reserve groups activated
    "search_contact",     -- 32.B: contacts found at a hex, before the roll
    "search_air_attack",  -- 32.B S/S*, 32.B.2: air units may attack the group
    "spend_mps",          -- {group, activity, cost}: another rule spends a group's MPs (move.lua carries it out)
    "landing_begins",     -- 37: {landing, group, hex, units, assault, side, reduce}: 37.A pays
    "landing_made",       -- 37: {landing, group, hex, units, lost, carriers, assault, side}: 37.B, 37.C, 37.D
    "ground_combat",      -- 37.B/37.E: a ground combat for the ground combat chapter (ev.result)
    "airborne_landing",   -- 37.E: {hex, side, units}: sent by the airborne chapter
    "reaction_phase",     -- 37.E: {side = the reacting player}
    "supply_phase",       -- 37.B item 10: {side}: the supply judgement phase
  },
  -- what a counter and the status panel show (keel view, keel render; doc/viewer.md)
  view = {
    types = {
      TF = { symbol = "warship", title = "task force", values = { "strength", "mp" } },
      CG = { symbol = "carrier", title = "carrier group", values = { "strength", "mp" } },
      NT = { symbol = "transport", title = "naval transport", values = { "mp" } },
      LC = { symbol = "landing", title = "landing craft", values = { "mp" } },
      LB = { symbol = "landing", title = "landing barge", values = { "mp" } },
      SUB = { symbol = "submarine", title = "submarine", values = { "strength", "mp" } },
      RF = { symbol = "flotilla", title = "river flotilla", values = { "strength", "mp" } },
    },
    marks = {
      { marker = "step", label = "-%d Step" },   -- 32.C: the -# Step marker
      { value = "reacting", label = "React" },   -- 32.C: reacting this step
      { value = "cd", label = "CD%s" },
    },
    status = {
      { key = "phasing", label = "phasing player" },
      { key = "search_segment", label = "naval step" },
      { key = "night", label = "night" },
      { key = "sea", label = "sea state" },
      { key = "suez", label = "Suez Canal" },
      { keyed = "naval_combat", count = true, label = "naval combats" },   -- 32.D's records
      { keyed = "vp", label = "victory points (%s)" },                   -- per side
    },
  },
}

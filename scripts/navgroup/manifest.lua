-- scripts/navgroup — Rule 32 Naval Unit Movement (004_0e2364863b8db0db.txt):
-- naval groups, their movement, searches, reaction and combat. One file per
-- rule area; the rule ids, their files and tests, and the contract between
-- the areas (queries, events, game data) are in doc/navgroup.md.
return family {
  name = "navgroup",
  rulebook = "Rule 32 Naval Unit Movement (V 11.07.19)",
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
  },
  tables = {
    "naval_search.tbl",                 -- 32.B
    "naval_mp_cost.tbl",                -- 32.A.3
    "amphibious_assault_modifiers.tbl", -- 37.B Table 1
    "amphibious_landing_effects.tbl",   -- 37.B Table 2
    "landing_craft_damage.tbl",         -- 37.D Table 3
    "invasion_reaction.tbl",            -- 37.E Table 4
    "success_table_standin.tbl",        -- cited by 37.D/37.E, supplied by a scenario
  },
  events = {
    "naval_combat",       -- {group, hex, kind, enemy, cd, fired_by, round}: emitted by move, resolved by 32.D's hook
    "naval_search",       -- 32.B: a search was rolled
    "reserves_activated", -- 32.B/32.C: reserve groups activated
    "search_contact",     -- 32.B: contacts found at a hex, before the roll
    "search_air_attack",  -- 32.B S/S*, 32.B.2: air units may attack the group
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
      { key = "initial_phase", label = "initial phase of" },
      { key = "naval_combats", label = "naval combats" },
      { key = "vp:*", label = "victory points (%s)" },
    },
  },
}

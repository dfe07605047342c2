-- scripts/navgroup — Rule 32 Naval Unit Movement (004_0e2364863b8db0db.txt):
-- naval groups, their movement, searches, reaction and combat. One file per
-- rule area; the contract between the areas is doc/navgroup.md.
return family {
  name = "navgroup",
  rulebook = "Rule 32 Naval Unit Movement (V 11.07.19)",
  depends = {},
  files = {
    "groups.lua",   -- 32.A, 32.A.1, 32.A.1.a, 32.A.1.b, 32.A.4 (A)
    "costs.lua",    -- 32.A.3 (A)
    "enemy.lua",    -- 32.A.2 (A)
    "straits.lua",  -- 32.A.5 (A)
    "rivers.lua",   -- 32.A.6 (A)
    "suez.lua",     -- 32.A.6.a (A)
    "corinth.lua",  -- 32.A.6.a.1 (A)
    "move.lua",     -- the move and spend actions (A)
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
    "naval_combat",   -- {group, hex, kind, enemy, cd, fired_by, round}: emitted by move (A), resolved by C
    "owner_changed",  -- {hex, side}: a rule that changes a hex's owner says so (A: Suez hexside owners)
  },
}

-- scripts/navgroup — Rule 32 NAVAL UNIT MOVEMENT (004_0e2364863b8db0db.txt),
-- one file per rule area; /work/rule32-contract.md and doc/navgroup.md say
-- who answers which query and fires which event.
return family {
  name = "navgroup",
  rulebook = "Rule 32 — Naval Unit Movement (004_0e2364863b8db0db.txt)",
  depends = {},
  files = {
    "reaction.lua",   -- 32.C
    "combat.lua",     -- 32.D, 32.D.1-32.D.3
  },
  tables = { "naval_mp_cost.tbl" },
  events = {
    "naval_combat",        -- 32.D (resolved by 32.D's hook)
    "reserves_activated",  -- 32.B results, 32.C
  },
}

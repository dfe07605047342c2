-- scripts/navgroup — Rule 32 NAVAL UNIT MOVEMENT (004_0e2364863b8db0db.txt).
-- The contract between its rule areas: /work/rule32-contract.md; the rule
-- ids and their files and tests: doc/navgroup.md.
return family {
  name = "navgroup",
  rulebook = "Rule 32 — Naval Unit Movement (004_0e2364863b8db0db.txt)",
  depends = {},
  files = {
    "search.lua",           -- 32.B, 32.B.1-32.B.6 (B)
  },
  tables = { "naval_search.tbl" },
  events = {
    "naval_search",         -- 32.B: a search was rolled (B)
    "reserves_activated",   -- 32.B/32.C: reserve groups activated (B, C)
    "search_contact",       -- 32.B: contacts found at a hex, before the roll (B)
    "search_air_attack",    -- 32.B S/S*, 32.B.2: air units may attack the group (B)
  },
}

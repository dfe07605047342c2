--- navgroup.tables — the tables of the naval-group rules (Rules 32 and 37),
-- loaded from scripts/navgroup/tables/*.tbl and registered in keel.tables.
--
--   local nt = require "navgroup.tables"
--   nt.naval_search:resolve(dice, { cargo_group = true })
local tables = require "keel.tables"

return tables.load_family("navgroup", {
  "naval_search.tbl",                 -- 32.B
  "naval_mp_cost.tbl",                -- 32.A.3
  "amphibious_assault_modifiers.tbl", -- 37.B Table 1
  "amphibious_landing_effects.tbl",   -- 37.B Table 2
  "landing_craft_damage.tbl",         -- 37.D Table 3
  "invasion_reaction.tbl",            -- 37.E Table 4
  "success_table_standin.tbl",        -- cited by 37.D/37.E, supplied by a scenario
})

--- ocs.tables — the tables of the OCS naval rules (section 18), loaded from
-- scripts/ocs/tables/*.tbl and registered in keel.tables. The texts print
-- none of them in full; the Barrage Table and the ALT here are labelled
-- stand-ins.
local tables = require "keel.tables"

return tables.load_family("ocs", {
  "barrage_table_standin.tbl",   -- cited by 18.3, supplied by a scenario
  "alt_standin.tbl",             -- cited by 18.5f, supplied by a scenario
})

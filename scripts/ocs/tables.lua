--- ocs.tables — the tables of the OCS naval rules (section 18), loaded from
-- scripts/ocs/tables/*.tbl and registered in keel.tables. The texts print
-- none of them in full; the Barrage Table here is a labelled stand-in.
local tables = require "keel.tables"

return tables.load_family("ocs", {
  "barrage_table_standin.tbl",   -- cited by 18.3, supplied by a scenario
})

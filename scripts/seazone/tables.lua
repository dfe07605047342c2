--- seazone.tables — the tables of the sea-zone family (002_37d6fae90ae806a5.txt),
-- loaded from scripts/seazone/tables/*.tbl and registered in keel.tables.
-- The list of files is the manifest's `tables` (scripts/seazone/manifest.lua).
--
--   local st = require "seazone.tables"
--   st.sea_units:get("cruiser", "attack").value    --> 4
local keel = require "keel"
local tables = require "keel.tables"

local manifest = assert(loadfile(keel.script_dir .. "/seazone/manifest.lua", "t",
  { family = function(spec) return spec end }))()
return tables.load_family("seazone", manifest.tables)

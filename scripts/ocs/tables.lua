--- ocs.tables — the tables of the OCS naval rules (section 18), loaded from
-- scripts/ocs/tables/*.tbl and registered in keel.tables. The texts print
-- none of them: the Barrage Table and its adjustments, the ALT and the
-- Transportation Equivalents here are labelled stand-ins that a scenario
-- replaces. The list of files is the manifest's `tables`
-- (scripts/ocs/manifest.lua).
local keel = require "keel"
local tables = require "keel.tables"

local manifest = assert(loadfile(keel.script_dir .. "/ocs/manifest.lua", "t",
  { family = function(spec) return spec end }))()
return tables.load_family("ocs", manifest.tables)

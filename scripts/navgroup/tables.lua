--- navgroup.tables — the tables of the naval-group rules (Rules 32 and 37),
-- loaded from scripts/navgroup/tables/*.tbl and registered in keel.tables.
-- The list of files is the manifest's `tables` (scripts/navgroup/manifest.lua).
--
--   local nt = require "navgroup.tables"
--   nt.naval_search:resolve(dice, { cargo_group = true })
local keel = require "keel"
local tables = require "keel.tables"

local manifest = assert(loadfile(keel.script_dir .. "/navgroup/manifest.lua", "t",
  { family = function(spec) return spec end }))()
return tables.load_family("navgroup", manifest.tables)

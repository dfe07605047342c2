--- keel.luacheck_stds — luacheck's view of keel's sandbox: the custom stds
-- that let luacheck check rule files, manifests, variants and scenarios the
-- way the sandbox runs them (an `io` or `os` flagged where the sandbox
-- would refuse it; `rule`, `family`, `variant`, `scenario` and the variant
-- calls known). One file for keel's own .luacheckrc, the .luacheckrc that
-- `keel new` writes (it dofile()s this file where keel is installed:
-- <prefix>/share/keel/scripts/keel/luacheck_stds.lua) and `keel check`.
-- Plain Lua that also runs under luacheck's own Lua (5.1).
local M = {}

M.stds = {
  -- what every sandboxed script may use (scripts/keel/sandbox.lua)
  keel_script = {
    read_globals = {
      "assert", "error", "ipairs", "next", "pairs", "pcall", "select", "tonumber",
      "tostring", "type", "xpcall", "rawequal", "rawlen", "rawget", "rawset",
      "getmetatable", "setmetatable", "load", "print", "_VERSION",
      "string", "table", "math", "utf8", "coroutine", "keel",
    },
    globals = { "_G" },
  },
  -- rule files and manifests (scripts/keel/registry.lua)
  keel_rules = { read_globals = { "rule", "family" } },
  -- variant files (scripts/keel/variant.lua)
  keel_variant = {
    read_globals = { "variant", "set_values", "disable", "wrap", "replace", "add", "set_row" },
  },
  -- scenario files (scripts/keel/scenario.lua)
  keel_scenario = { read_globals = { "scenario" } },
}

--- The std of each kind of file keel loads in its sandbox.
M.std = {
  family = "keel_script+keel_rules",
  variant = "keel_script+keel_variant",
  scenario = "keel_script+keel_scenario",
}

--- Add the stds to a luacheck config's `stds` table (in a .luacheckrc:
--- `dofile(".../luacheck_stds.lua").define(stds)`).
---@param stds table
---@return table M
function M.define(stds)
  for name, std in pairs(M.stds) do stds[name] = std end
  return M
end

return M

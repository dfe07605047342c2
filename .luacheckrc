-- .luacheckrc — luacheck settings for keel (`make lint`; luacheck --std lua54).
--
-- Kernel and test code is plain Lua 5.4. Rule files, manifests, variants
-- and scenarios run in keel's sandbox: they get the custom stds below, so
-- that an editor flags `io`, `os`, `require` ... in a rule file the way the
-- sandbox would refuse them, and knows `rule`, `family`, `variant`,
-- `scenario` and the variant calls.
std = "lua54"
max_line_length = 140
codes = true

-- keel's stds (keel_script, keel_rules, keel_variant, keel_scenario): one
-- file, installed with the scripts, that `keel new`'s .luacheckrc and
-- `keel check` use too.
require("scripts.keel.luacheck_stds").define(stds)   -- found beside this file

files["tests/families"] = { std = "keel_script+keel_rules" }
-- rule families under scripts/ (their tables.lua is a plain module)
files["scripts/navgroup"] = { std = "keel_script+keel_rules" }
files["scripts/navgroup/tables.lua"] = { std = "lua54" }
files["scripts/seabox"] = { std = "keel_script+keel_rules" }
files["scripts/seabox/variants"] = { std = "keel_script+keel_variant" }
files["scripts/ocs"] = { std = "keel_script+keel_rules" }
files["scripts/ocs/tables.lua"] = { std = "lua54" }
files["scripts/ocs/odds.lua"] = { std = "lua54" }
files["scripts/ocs/variants"] = { std = "keel_script+keel_variant" }
files["scripts/seazone"] = { std = "keel_script+keel_rules" }
files["scripts/seazone/odds.lua"] = { std = "lua54" }
files["scripts/seazone/battle_odds.lua"] = { std = "lua54" }
files["scripts/seazone/tables.lua"] = { std = "lua54" }
files["tests/families/variants"] = { std = "keel_script+keel_variant" }
files["tests/scenarios"] = { std = "keel_script+keel_scenario" }
files["scenarios/families"] = { std = "keel_script+keel_rules" }
files["scenarios/suez_1942.lua"] = { std = "keel_script+keel_scenario" }
files["scenarios/salerno_1943.lua"] = { std = "keel_script+keel_scenario" }
files["scenarios/seabox_*.lua"] = { std = "keel_script+keel_scenario" }
files["scenarios/ocs_salerno.lua"] = { std = "keel_script+keel_scenario" }
files["scenarios/seazone_trident.lua"] = { std = "keel_script+keel_scenario" }
files["doc/examples/convoy"] = { std = "keel_script+keel_rules" }
files["doc/examples/variants"] = { std = "keel_script+keel_variant" }
files["doc/examples/convoy_scenario.lua"] = { std = "keel_script+keel_scenario" }

-- LuaLS ---@meta files declare things and never use them.
files["scripts/keel/meta"] = { ignore = { "111", "112", "211", "212", "241" }, max_line_length = false }

-- Tests and benchmarks spell out long expected strings and commands.
files["tests/lua"] = { max_line_length = false }
files["bench"] = { max_line_length = false }

-- A scenario that tries to escape the sandbox on purpose (a test of it).
exclude_files = { "tests/scenarios/escape.lua" }

-- Known and harmless, in files of other areas (left as they are).
files["tests/lua/cli_test.lua"] = { ignore = { "311/out" } }

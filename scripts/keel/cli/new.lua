--- keel new family NAME | variant FILE --of FAMILY | scenario FILE [--map MAP] [--rules FAMILY ...]
local cli = require "keel.cli"

local M = {
  summary = "start a rule family, a variant or a scenario in your own folder",
  usage = "keel new family NAME | variant FILE --of FAMILY | scenario FILE [--map MAP] [--rules FAMILY ...]\n" ..
          "                [--path DIR ...]",
  help = "Writes a small working start that `keel check` passes and that plays:\n" ..
         "  family NAME     the folder NAME: a manifest, one rule (placeholder id X.1)\n" ..
         "                  with an action each side takes, a table, and the rule's\n" ..
         "                  test NAME/tests/X.1.lua (a scenario with expectations)\n" ..
         "  variant FILE    a house rule of the family --of FAMILY that changes one\n" ..
         "                  named table row (to what it is: edit it)\n" ..
         "  scenario FILE   a scenario with a sequence of play, a length, a victory\n" ..
         "                  condition, one force per side and orders that play it to\n" ..
         "                  its end, with the families --rules names (default: the\n" ..
         "                  families in FILE's folder) on --map MAP (a map file\n" ..
         "                  relative to FILE's folder; default: no map)\n" ..
         "Beside it, a .luacheckrc (luacheck with keel's stds, installed with keel) and\n" ..
         "a .luarc.json (LuaLS with keel's meta files); a .luacheckrc `keel new` wrote\n" ..
         "gets a line for the new thing. Nothing is ever overwritten.\n" ..
         "  --path DIR      look for rule families in DIR too (repeat for more)",
}

function M.run(args)
  local opts, rest = cli.parse_options(args, { of = "value", map = "value", rules = "list", path = "list" })
  local what, target = rest[1], rest[2]
  if what ~= "family" and what ~= "variant" and what ~= "scenario" then
    cli.usage_error("new makes a family, a variant or a scenario: keel new family NAME | variant FILE --of FAMILY "
      .. "| scenario FILE")
  end
  if not target then cli.usage_error(("new %s needs a %s"):format(what, what == "family" and "NAME" or "FILE")) end
  if #rest > 2 then cli.usage_error(("new %s takes one %s, got '%s' too"):format(what, what == "family" and "NAME"
    or "FILE", rest[3])) end
  local new = require "keel.new"
  local did
  if what == "family" then
    if opts.of or opts.map or opts.rules then cli.usage_error("new family takes no --of, --map or --rules") end
    did = new.family(target)
  elseif what == "variant" then
    if not opts.of then cli.usage_error("new variant needs --of FAMILY, the family it changes") end
    if opts.map or opts.rules then cli.usage_error("new variant takes no --map or --rules") end
    did = new.variant(target, opts.of, { path = opts.path })
  else
    if opts.of then cli.usage_error("new scenario takes --rules FAMILY, not --of") end
    did = new.scenario(target, { map = opts.map, rules = opts.rules, path = opts.path })
  end
  for _, line in ipairs(did) do io.write(line, "\n") end
  return 0
end

return M

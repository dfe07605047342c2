--- keel rules [--variant FILE ...] [--path DIR ...] [--json] [FAMILY ...]
local cli = require "keel.cli"

local M = {
  summary = "list the active rule set: ids, titles, files, what variants changed",
  usage = "keel rules [--variant FILE ...] [--path DIR ...] [--json] [FAMILY ...]",
  help = "Loads the rule FAMILY folders (and what they depend on), applies each\n" ..
         "--variant FILE in the order given, and lists every rule: its id, title,\n" ..
         "the file and line it comes from, and what each variant replaced, wrapped,\n" ..
         "disabled, changed or added; then the tables and what changed in them.\n" ..
         "Families are looked for in each --path DIR, then in keel's scripts folder;\n" ..
         "without a FAMILY, the bases the variants name are loaded.\n" ..
         "Two variants changing the same rule is a conflict unless the later one\n" ..
         "lists the rule in its `overrides`: conflicts are listed and the exit\n" ..
         "status is 1. --json prints the same as one JSON document.",
}

local function change_text(c)
  local verb = ({ values = "values changed", disabled = "disabled", replaced = "replaced",
                  wrapped = "wrapped", added = "added", row = "row changed" })[c.kind] or c.kind
  local s = ("%s by '%s' (%s:%d)"):format(verb, c.variant, c.file, c.line)
  if c.overrides then s = s .. (", over '%s'"):format(c.overrides) end
  if c.detail and c.detail ~= "" then s = s .. ": " .. c.detail end
  return s
end

--- The listing as plain data (what --json prints).
---@param set table a keel.rules set
function M.listing(set)
  local out = { families = {}, variants = {}, tables = {}, conflicts = {} }
  local by_family = {}
  for _, name in ipairs(set.family_order) do
    local fam = set.families[name]
    local entry = { name = name, rulebook = fam.rulebook, dir = fam.dir, rules = {} }
    out.families[#out.families + 1] = entry
    by_family[name] = entry
  end
  for _, id in ipairs(set.order) do
    local r = set.rules[id]
    local fam = by_family[r.family] or out.families[#out.families]
    local changes = {}
    for _, c in ipairs(r.changes) do
      changes[#changes + 1] = { kind = c.kind, variant = c.variant, file = c.file, line = c.line,
                                detail = c.detail, overrides = c.overrides, text = change_text(c) }
    end
    fam.rules[#fam.rules + 1] = {
      id = id, title = r.title or "", file = r.file, line = r.line, active = not r.disabled,
      base_file = r.base_file, base_line = r.base_line, origin = r.origin, changes = changes,
    }
  end
  for _, v in ipairs(set.variants) do
    out.variants[#out.variants + 1] = { name = v.name, base = v.base, file = v.path,
                                        description = v.description, changes = #v.changes }
  end
  for _, name in ipairs(require("keel.keys").sorted(set.tables)) do
    local t = set.tables[name]
    local changes = {}
    for _, v in ipairs(set.variants) do
      for _, c in ipairs(v.changes) do
        if c.key == "table " .. name then changes[#changes + 1] = { text = change_text(c) } end
      end
    end
    out.tables[#out.tables + 1] = { name = name, title = t.title, file = t.file, line = t.line,
                                    changes = changes }
  end
  for _, c in ipairs(set.conflicts) do out.conflicts[#out.conflicts + 1] = c.message end
  return out
end

local function print_listing(l)
  local w = io.write
  local n, active = 0, 0
  for _, fam in ipairs(l.families) do
    w(("%s — %s  [%s]\n"):format(fam.name, fam.rulebook or "(no rulebook given)", fam.dir))
    for _, r in ipairs(fam.rules) do
      n = n + 1
      if r.active then active = active + 1 end
      w(("  %-10s %-44s %s:%d%s\n"):format(r.id, r.title, r.file, r.line, r.active and "" or "  DISABLED"))
      if r.base_file and (r.base_file ~= r.file or r.base_line ~= r.line) then
        w(("  %-10s %-44s was %s:%d\n"):format("", "", r.base_file, r.base_line))
      end
      for _, c in ipairs(r.changes) do w(("  %-10s   %s\n"):format("", c.text)) end
    end
    w("\n")
  end
  if #l.tables > 0 then
    w("tables:\n")
    for _, t in ipairs(l.tables) do
      w(("  %-22s %s:%s\n"):format(t.name, t.file or "?", tostring(t.line or "?")))
      for _, c in ipairs(t.changes) do w(("  %-22s   %s\n"):format("", c.text)) end
    end
    w("\n")
  end
  if #l.variants > 0 then
    w("variants, in the order applied:\n")
    for i, v in ipairs(l.variants) do
      w(("  %d. %s (%s), base %s: %d change(s)\n"):format(i, v.name, v.file, v.base, v.changes))
    end
    w("\n")
  end
  if #l.conflicts > 0 then
    w("conflicts:\n")
    for _, c in ipairs(l.conflicts) do w("  ", c, "\n") end
    w("\n")
  end
  w(("%d rules (%d active, %d disabled), %d variant(s), %d conflict(s)\n"):format(
    n, active, n - active, #l.variants, #l.conflicts))
end

function M.run(args)
  local opts, rest = cli.parse_options(args, { variant = "list", path = "list", json = "flag" })
  local rules = require "keel.rules"
  local families = rest
  if #families == 0 and not opts.variant then
    cli.usage_error("rules needs a FAMILY or a --variant FILE; try 'keel help rules'")
  end
  local set = rules.new { path = opts.path }
  local ok, err = pcall(function()
    for _, f in ipairs(families) do set:load_family(f) end
    for _, v in ipairs(opts.variant or {}) do set:apply_variant(v) end
    set:finalize()
  end)
  if not ok then error(require("keel.errors").format(err), 0) end
  local l = M.listing(set)
  if opts.json then
    io.write(require("keel.json").encode(l), "\n")
  else
    print_listing(l)
  end
  return #l.conflicts > 0 and 1 or 0
end

return M

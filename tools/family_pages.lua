-- tools/family_pages.lua — what `make coverage` writes from the rule sets
-- themselves (no rule texts needed): the rule id -> file:line -> tests tables
-- of the family pages (doc/<family>.md, between marker comments) and
-- doc/standins.md, the list of every stand-in. tools/coverage.lua writes
-- them; tests/lua/coverage_test.lua fails when a page is not what it would
-- write.
--
-- A family page marks each generated table:
--
--   <!-- make coverage: rules of navgroup, ids 32, plumbing -->
--   ...generated...
--   <!-- end of make coverage -->
--
-- `ids P`: only the rules whose id is P or begins with P followed by a
-- '.' (32 -> 32, 32.A, 32.A.1 ...); `plumbing`: the family's rules without
-- an id too.
local rules = require "keel.rules"
local registry = require "keel.registry"
local read = require("keel").file.read

local M = {}

--- Where rule families are, for the pages: keel's own, then the scenarios'.
M.PATHS = { {}, { "scenarios/families" } }
--- The pages with generated tables.
M.PAGES = { "doc/navgroup.md", "doc/ocs.md", "doc/seabox.md", "doc/seazone.md" }
M.STANDINS = "doc/standins.md"

--- The lines a shell command prints, sorted (tools/coverage.lua uses it too).
---@param cmd string
---@return string[]
local function lines_of(cmd)
  local p = assert(io.popen(cmd))
  local t = {}
  for l in p:lines() do t[#t + 1] = l end
  p:close()
  table.sort(t)
  return t
end
M.lines_of = lines_of

local function plain(s) return (s:gsub("%p", "%%%0")) end

-- a path as the pages give it: from the top of the tree (scripts/..., scenarios/...)
local SCRIPT_DIR = require("keel").script_dir
local function rel(path)
  if path:sub(1, #SCRIPT_DIR + 1) == SCRIPT_DIR .. "/" then return "scripts/" .. path:sub(#SCRIPT_DIR + 2) end
  return (path:gsub("^%./", ""))
end

-- every test: {name=, short=, file=, line=}, by file then line
local tests_cache
local function tests()
  if tests_cache then return tests_cache end
  tests_cache = {}
  for _, f in ipairs(lines_of("ls tests/lua/*_test.lua")) do
    local n = 0
    for line in ((read(f) or "") .. "\n"):gmatch("([^\n]*)\n") do
      n = n + 1
      local name = line:match('t%.test%(%s*"([^"]+)"')
      if name then
        tests_cache[#tests_cache + 1] = { name = name, short = name:match("^([^:]*)"), file = f:match("[^/]+$"), line = n }
      end
    end
  end
  return tests_cache
end

--- The tests whose names begin with a rule id (as "32.A.5-1: ...").
---@param id string
---@return table[]
function M.tests_for(id)
  local out = {}
  local pat = "^" .. plain(id) .. "[%-: ]"
  for _, tt in ipairs(tests()) do
    if tt.name == id or tt.name:find(pat) then out[#out + 1] = tt end
  end
  return out
end

-- the rule sets, one per family: {family=, set=}, keel's families first
local sets_cache
local function family_sets()
  if sets_cache then return sets_cache end
  sets_cache = {}
  for _, path in ipairs(M.PATHS) do
    for _, fam in ipairs(registry.family_names(#path > 0 and path or nil)) do
      if #path == 0 or not sets_cache[fam] then
        local set = rules.load { families = { fam }, path = path }
        sets_cache[#sets_cache + 1] = { family = fam, set = set }
        sets_cache[fam] = set
      end
    end
  end
  return sets_cache
end

-- a family's own rules, in load order, then its plumbing
local function rules_of(fam)
  local set = assert(family_sets()[fam], "no rule family " .. fam)
  local out = {}
  for _, id in ipairs(set.order) do
    local r = set.rules[id]
    if r.family == fam then out[#out + 1] = r end
  end
  for _, r in ipairs(set.plumbing) do
    if r.family == fam then out[#out + 1] = r end
  end
  return out
end

local function cell(s) return (tostring(s or ""):gsub("|", "\\|"):gsub("\n", " ")) end

local function parts_text(standin)
  local keys = require("keel.keys").sorted(standin)
  return table.concat(keys, ", ")
end

--- The rule table of a family: rows of `| rule | title | defined at | tests |`.
---@param fam string
---@param opts {ids?: string, plumbing?: boolean}
---@return string[] lines
function M.rules_table(fam, opts)
  local out = { "| rule | title | defined at | tests (file:line) |", "|---|---|---|---|" }
  local prefix = opts.ids
  for _, r in ipairs(rules_of(fam)) do
    local take
    if r.id == nil then take = opts.plumbing
    else take = not prefix or r.id == prefix or r.id:sub(1, #prefix + 1) == prefix .. "." end
    if take then
      local title = r.title or ""
      if type(r.standin) == "string" then title = title .. " — stand-in for " .. r.standin
      elseif type(r.standin) == "table" then title = title .. " — stand-in parts: " .. parts_text(r.standin) end
      local ts = {}
      if r.id then
        for _, tt in ipairs(M.tests_for(r.id)) do ts[#ts + 1] = ("%s (%s:%d)"):format(tt.short, tt.file, tt.line) end
      end
      out[#out + 1] = ("| %s | %s | `%s:%d` | %s |"):format(r.id or "(plumbing)", cell(title), rel(r.file), r.line,
        #ts > 0 and cell(table.concat(ts, ", ")) or "—")
    end
  end
  return out
end

local BEGIN = "<!%-%- make coverage: rules of ([%w_%-]+)([^\n]-) %-%->\n"
local END = "<!-- end of make coverage -->"

--- A page's text with each generated table made again.
---@param text string
---@param path string (for errors)
---@return string
function M.update_page(text, path)
  local out, pos = {}, 1
  while true do
    local s, e, fam, rest = text:find(BEGIN, pos)
    if not s then break end
    local stop = text:find(END, e + 1, true)
    if not stop then error(path .. ": a make coverage marker without its end marker", 0) end
    local opts = { ids = rest:match(",%s*ids%s+([^,%s]+)"), plumbing = rest:find(",%s*plumbing") ~= nil }
    out[#out + 1] = text:sub(pos, e)
    out[#out + 1] = table.concat(M.rules_table(fam, opts), "\n") .. "\n"
    pos = stop
  end
  out[#out + 1] = text:sub(pos)
  return table.concat(out)
end

--- Every stand-in: {rules = {...}, parts = {...}, tables = {...}}, each entry
--- {family=, name=, title=, chapter=, file=, line=}.
function M.standins()
  local r_out, p_out, t_out = {}, {}, {}
  for _, fs in ipairs(family_sets()) do
    local fam, set = fs.family, fs.set
    for _, r in ipairs(rules_of(fam)) do
      local name = r.id or "(plumbing)"
      if type(r.standin) == "string" then
        r_out[#r_out + 1] = { family = fam, name = name, title = r.title, chapter = r.standin, file = rel(r.file), line = r.line }
      elseif type(r.standin) == "table" then
        for _, part in ipairs(require("keel.keys").sorted(r.standin)) do
          p_out[#p_out + 1] = { family = fam, name = name, part = part, title = r.title, chapter = r.standin[part],
                                file = rel(r.file), line = r.line }
        end
      end
    end
    local fam_dir = set.families[fam].dir
    for _, name in ipairs(require("keel.keys").sorted(set.tables)) do
      local tb = set.tables[name]
      if tb.standin and tb.file:sub(1, #fam_dir + 1) == fam_dir .. "/" then
        t_out[#t_out + 1] = { family = fam, name = name, title = tb.title, chapter = tb.standin, file = rel(tb.file), line = tb.line }
      end
    end
  end
  return { rules = r_out, parts = p_out, tables = t_out }
end

--- The stand-in tables (markdown lines), for doc/standins.md and doc/coverage.md.
function M.standin_lines()
  local s = M.standins()
  local out = {}
  local function add(l) out[#out + 1] = l end
  add("### Rules that stand in for a chapter")
  add("")
  add("| family | rule | title | stands in for | defined at |")
  add("|---|---|---|---|---|")
  for _, e in ipairs(s.rules) do
    add(("| %s | %s | %s | %s | `%s:%d` |"):format(e.family, e.name, cell(e.title), cell(e.chapter), e.file, e.line))
  end
  add("")
  add("### Parts of rulebook rules (values, queries, handlers) that stand in for another chapter")
  add("")
  add("| family | rule | part | stands in for | defined at |")
  add("|---|---|---|---|---|")
  for _, e in ipairs(s.parts) do
    add(("| %s | %s | `%s` | %s | `%s:%d` |"):format(e.family, e.name, e.part, cell(e.chapter), e.file, e.line))
  end
  add("")
  add("### Tables")
  add("")
  add("| family | table | title | stands in for | defined at |")
  add("|---|---|---|---|---|")
  for _, e in ipairs(s.tables) do
    add(("| %s | %s | %s | %s | `%s:%d` |"):format(e.family, e.name, cell(e.title), cell(e.chapter), e.file, e.line))
  end
  add("")
  add(("%d rules, %d parts of rules and %d tables stand in for chapters the rule texts cite but do not contain.")
    :format(#s.rules, #s.parts, #s.tables))
  return out
end

--- The text of doc/standins.md.
function M.standins_page()
  local out = {
    "# Stand-ins",
    "",
    "Generated by `make coverage` (tools/family_pages.lua) from the rule sets; do not edit by hand",
    "(`coverage-pages-1` checks it). A stand-in is rule content the rule texts cite but do not",
    "contain — another chapter, a table they do not print — written so that the rules can be",
    "played; a scenario with the real chapter replaces it (a variant's `replace`, `set_values`,",
    "`set_row`, or a family of its own that lists tables of the same names). Each says so where",
    "it is declared: `rule { ..., standin = \"the chapter\" }` for a whole rule,",
    "`standin = { part = \"the chapter\" }` for parts of a rulebook rule, and a `standin` line in",
    "a table (doc/api/rules.md, doc/tables.md). `scenarios/families/` are the showcases' own.",
    "",
  }
  for _, l in ipairs(M.standin_lines()) do out[#out + 1] = l end
  return table.concat(out, "\n") .. "\n"
end

--- Every generated file: {path=, now=, want=} (now: the text on disk).
function M.outputs()
  local out = {}
  for _, p in ipairs(M.PAGES) do
    local now = read(p) or ""
    out[#out + 1] = { path = p, now = now, want = M.update_page(now, p) }
  end
  out[#out + 1] = { path = M.STANDINS, now = read(M.STANDINS) or "", want = M.standins_page() }
  return out
end

return M

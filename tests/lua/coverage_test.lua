-- tests/lua/coverage_test.lua — the pages `make coverage` writes from the
-- rule sets (tools/family_pages.lua): the rule id -> file:line -> tests
-- tables of the family pages and doc/standins.md are up to date.
local t = require "keel.testing"
local pages = dofile("tools/family_pages.lua")

-- the first line where two texts differ, for the message
local function first_diff(a, b)
  local n = 0
  local ia, ib = (a .. "\n"):gmatch("([^\n]*)\n"), (b .. "\n"):gmatch("([^\n]*)\n")
  while true do
    n = n + 1
    local la, lb = ia(), ib()
    if la ~= lb then return ("line %d:\n  on disk: %s\n  wanted:  %s"):format(n, tostring(la), tostring(lb)) end
    if la == nil then return "same" end
  end
end

t.test("coverage-pages-1: the family pages' rule tables and doc/standins.md are what make coverage writes", function()
  for _, o in ipairs(pages.outputs()) do
    t.ok(o.now == o.want, ("%s is out of date (run make coverage): %s"):format(o.path, first_diff(o.now, o.want)))
  end
  -- every family page has a generated table
  for _, p in ipairs(pages.PAGES) do
    t.ok(t.read_file(p):find("<!-- make coverage: rules of ", 1, true), p .. " has a generated rule table")
  end
end)

t.test("coverage-pages-2: a generated table gives each rule its file:line and each test its file:line", function()
  local lines = pages.rules_table("navgroup", { ids = "32.B" })
  local row
  for _, l in ipairs(lines) do if l:find("^| 32%.B |") then row = l end end
  t.ok(row, table.concat(lines, "\n"))
  t.ok(row:find("`scripts/navgroup/search.lua:%d+`"), row)
  t.ok(row:find("32%.B%-1 %(navgroup_search_test%.lua:%d+%)"), row)
  t.ok(not table.concat(lines, "\n"):find("| 32.A", 1, true), "ids 32.B takes 32.B and its sub-ids only")
  -- a page whose table went stale is written again, the text around it kept
  local stale = "intro\n<!-- make coverage: rules of navgroup, ids 32.B.6 -->\n| old |\n<!-- end of make coverage -->\nafter\n"
  local fresh = pages.update_page(stale, "x.md")
  local head = "intro\n<!-- make coverage: rules of navgroup, ids 32.B.6 -->\n| rule | title | defined at"
  t.eq(fresh:sub(1, #head), head)
  t.ok(fresh:find("| 32.B.6 |", 1, true) and not fresh:find("| old |", 1, true), fresh)
  local tail = "<!-- end of make coverage -->\nafter\n"
  t.eq(fresh:sub(-#tail), tail)
  t.raises(function() pages.update_page("<!-- make coverage: rules of navgroup -->\n| x |\n", "y.md") end,
    "y.md: a make coverage marker without its end marker")
end)

t.test("coverage-standins-1: doc/standins.md lists every stand-in with the chapter it stands for", function()
  local s = pages.standins()
  local page = t.read_file("doc/standins.md")
  local function has(e) return page:find(("| %s | %s |"):format(e.family, e.name), 1, true) and page:find(e.chapter, 1, true) end
  for _, e in ipairs(s.rules) do t.ok(has(e), "rule " .. e.name) end
  for _, e in ipairs(s.tables) do t.ok(has(e), "table " .. e.name) end
  for _, e in ipairs(s.parts) do t.ok(page:find("`" .. e.part .. "`", 1, true), "part " .. e.part) end
  local fams = {}
  for _, e in ipairs(s.rules) do fams[e.family] = true end
  for _, e in ipairs(s.parts) do fams[e.family] = true end
  for _, e in ipairs(s.tables) do fams[e.family] = true end
  for _, f in ipairs { "navgroup", "ocs", "seabox", "seazone", "salerno_war", "eastmed_war" } do
    t.ok(fams[f], f .. " has its stand-ins listed")
  end
end)

-- A probe family for keel view's page (tests/browser/view_markup_test.lua):
-- every text a game hands the page — rule titles, narration, status labels
-- and values, type titles, side names, table rows — carries markup that
-- would run script if the page took it as HTML. The scenario
-- tests/scenarios/view_markup.lua adds unit, group, side and scenario names.
-- Each piece calls keel_markup_ran('<where>') when it runs: the test checks
-- that none does, and that each shows as the text it is.
local function mark(where)
  return ("<img src=x onerror=\"keel_markup_ran('%s')\"><svg onload=\"keel_markup_ran('%s')\"></svg>"):format(where, where)
end

return family {
  name = "view_markup",
  rulebook = "probe: markup in every text keel view shows",
  depends = {},
  files = { "rules.lua" },
  tables = { "markup.tbl" },
  view = {
    types = { TF = { symbol = "warship", title = mark("type title") } },
    sides = { [mark("side")] = "#0000ff" },   -- (a colour is "#rrggbb": the manifest check refuses any other)
    status = {
      { key = "markup", label = mark("status label") },
      { keyed = "markup_map", label = mark("keyed label") .. " %s" },
    },
    marks = { { marker = "flag", text = mark("mark") } },
  },
}

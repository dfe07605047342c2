-- Markup in every name a scenario gives (the scenario, a unit, a group, a
-- side) on the Crete map, under the view_markup probe family: keel view's
-- page must show each as text and run none (tests/browser/view_markup_test.lua).
local function mark(where)
  return ("<img src=x onerror=\"keel_markup_ran('%s')\"><svg onload=\"keel_markup_ran('%s')\"></svg>"):format(where, where)
end

return scenario {
  name = mark("scenario name"),
  map = "../../scenarios/maps/crete.map",
  rules = { "view_markup" },
  path = { "../families" },
  seed = 5,
  forces = {
    { name = mark("unit name"), type = "TF", side = mark("side"), at = "15B:2407", group = mark("group name") },
    { name = "Plain", type = mark("type code"), side = "Allied", at = "15B:2508" },
  },
  orders = {
    { "provoke", unit = mark("unit name"), to = "15B:2508" },
  },
}

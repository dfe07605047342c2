-- A carrier with its planes aboard on the Crete map, under the toy Rule 27
-- family: keel view's cargo (tests/lua/view_test.lua, tests/browser/view_test.lua).
return scenario {
  name = "Planes aboard",
  map = "../../scenarios/maps/crete.map",
  rules = { "toy27" },
  path = { "../families" },
  seed = 27,
  forces = {
    { name = "Illustrious", type = "CV", side = "Allied", values = { strength = 3, ["capacity.planes"] = 2 },
      at = "15B:2407" },
    { name = "Swordfish", type = "air", side = "Allied", values = { ["size.planes"] = 1 }, aboard = "Illustrious" },
    { name = "Fulmar", type = "air", side = "Allied", values = { ["size.planes"] = 1 }, aboard = "Illustrious" },
  },
  orders = {
    { "move", unit = "Illustrious", to = "15B:2508", boxes = 6,
      expect = { units = { Illustrious = { at = "15B:2508" }, Swordfish = { loc = "unit" } } } },
  },
}

-- Rule 32.A.5's example on scenarios/maps/straits.map: a naval group in
-- 33:1225 cannot move 33:1225-1224-1324 while 33:1223 and 1224 are
-- enemy-owned. `keel run tests/scenarios/navgroup_straits.lua`
return scenario {
  name = "Narrow straits (32.A.5)",
  map = "../../scenarios/maps/straits.map",
  rules = { "navgroup" },
  seed = 32,
  flags = { phasing = "Allied" },
  forces = {
    { name = "Force K", type = "TF", side = "Allied", at = "33:1225", group = "K" },
  },
  orders = {
    { event = "naval_step_start", data = { side = "Allied", step = 1 } },
    { "move", group = "K", path = { "33:1224", "33:1324" },
      expect = { illegal = "32.A.5: the narrow strait at 33:1223/1224" } },
    { "move", group = "K", to = "33:1324", expect = { illegal = "cannot be reached" } },
    { "move", group = "K", path = { "33:1224" }, expect = { units = { ["Force K"] = { at = "33:1224" } } } },
  },
}

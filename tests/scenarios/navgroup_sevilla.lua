-- Rule 32.A.6's example on scenarios/maps/sevilla.map: a cargo group from
-- 23A:3228 up the Guadalquivir to Sevilla: 2 MPs to 3227, 1 MP for
-- 3227/3327, 1 MP for 3327/3226, 4 MPs on to 3224/3225, then into port.
return scenario {
  name = "Up the river to Sevilla (32.A.6)",
  map = "../../scenarios/maps/sevilla.map",
  rules = { "navgroup" },
  seed = 32,
  flags = { phasing = "Allied" },
  forces = {
    { name = "NT 1", type = "NT", side = "Allied", at = "23A:3228", group = "Convoy" },
    { name = "Renown", type = "TF", side = "Allied", at = "23A:3227", group = "Escort" },
  },
  orders = {
    { event = "naval_step_start", data = { side = "Allied", step = 1 } },
    { "move", group = "Escort", path = { "23A:3227/3327" }, expect = { illegal = "only cargo naval groups" } },
    { "move", group = "Convoy", path = { "23A:3227", "23A:3227/3327", "23A:3327/3226" } },
    { "move", group = "Convoy", path = { "23A:3226/3326", "23A:3326/3225", "23A:3225/3325", "23A:3224/3225" } },
    { "spend", group = "Convoy", activity = "replenish", expect = { illegal = "costs 15 MPs, 7 left" } },
    { "enter_port", group = "Convoy", expect = { units = { ["NT 1"] = { loc = "port" } } } },
  },
}

-- a small scenario for the scenario fuzz target (played from build/fuzz/scratch/)
return scenario {
  name = "small", rules = { "toy27" }, path = { "../../../tests/families" }, seed = 5,
  flags = { turn = 1, weather = "clear" },
  forces = {
    { name = "A", type = "BB", side = "Allied", values = { strength = 5 }, markers = { dg = 1 }, group = "G" },
    { name = "B", type = "NT", side = "Allied", values = { strength = 1 }, aboard = "A", face = "damaged", hits = 0 },
  },
  groups = { G = { reserve = true } },
  orders = {
    { event = "game_start" },
    { "bomb", group = "G", strikes = 1, expect = { ok = true } },
    { event = "transfer_east", data = { side = "German" } },
    { check = { units = { A = { hits = 0 } }, global = { turn = 1 } } },
  },
}

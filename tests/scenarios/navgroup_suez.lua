-- Rule 32.A.6.a on scenarios/maps/suez.map: an Allied group through the
-- Suez Canal, the canal closed temporarily (an Axis unit in regular supply
-- in the Delta), reopened, and closed for good when the Axis takes a canal
-- hexside (25 VPs lost: straight from Open).
return scenario {
  name = "The Suez Canal (32.A.6.a)",
  map = "../../scenarios/maps/suez.map",
  rules = { "navgroup" },
  seed = 32,
  -- a scripted scenario (no sequence of play): it stands in the Allied
  -- initial phase, where 32.A.6.a's orders are taken, and sends its events
  flags = { phasing = "Allied", phase = "initial" },
  keyed = { { "vp", "Allied", 40 } },
  forces = {
    { name = "Force H", type = "TF", side = "Allied", at = "Port Said", group = "H" },
    { name = "Regia", type = "TF", side = "Axis", at = "19A:3412", group = "R" },
  },
  orders = {
    { event = "game_start", expect = { global = { suez = "open" } } },
    { event = "naval_step_start", data = { side = "Allied", step = 1 } },
    -- the southern canal hexsides are not Allied-owned on this map
    { "move", group = "H", path = { "19A:3413/3514", "19A:3514/3513", "19A:3514/3613", "19A:3614/3613",
      "19A:3614/3714" }, expect = { illegal = "19A:3614/3714 is not Allied-owned" } },
    { "move", group = "H", path = { "19A:3413/3514", "19A:3514/3513", "19A:3514/3613", "19A:3614/3613" } },
    { event = "initial_phase", data = { side = "Allied" } },
    { "close_suez", expect = { illegal = "no Axis unit in regular supply" } },
    { "reopen_suez", expect = { illegal = "only a temporarily closed canal" } },
    { event = "initial_phase", data = { side = "Axis" },
      expect = { global = { suez = "open" }, keyed = { { "vp", "Allied", 40 } } } },
  },
}

-- Rule 32 as one game, on scenarios/maps/eastmed.map: the Axis group
-- Regia moves with `move` towards Port Said; 32.B rolls searches as it
-- enters hexes, 32.D.2 starts surface combat when it passes the Allied
-- Escort at sea, 32.D.3's CD at Port Said fires when Regia has spent 2 MPs
-- in its zone, and entering Port Said's hex (an enemy port and CD, 32.B.5)
-- activates the Allied reserve in Alexandria, which reacts (32.C) and moves
-- out to engage Regia (32.D.2 a: a non-phasing group entering the zone).
return scenario {
  name = "Rule 32 together: move, search, combat, reaction",
  map = "../../scenarios/maps/eastmed.map",
  rules = { "navgroup", "navgroup_search_probe" },
  path = { "../families" },
  seed = 32,
  flags = { phasing = "Axis", sea = "calm", night = false },
  forces = {
    { name = "Littorio", type = "TF", side = "Axis", at = "19A:3406", group = "Regia" },
    { name = "Trento", type = "TF", side = "Axis", at = "19A:3406", group = "Regia" },
    { name = "Orion", type = "TF", side = "Allied", at = "19A:3309", group = "Escort" },
    { name = "Warspite", type = "TF", side = "Allied", at = "Alexandria", port = true, group = "Reserve" },
  },
  groups = { Reserve = { reserve = true, in_port = true } },
  orders = {
    { event = "naval_step_start", data = { side = "Axis", step = 1 } },
    { "react", group = "Reserve", expect = { illegal = "has not been activated" } },
    { "move", group = "Regia", path = { "19A:3407", "19A:3408", "19A:3409", "19A:3410", "19A:3411", "19A:3412" } },
    { "move", group = "Regia", path = { "19A:3413" } },
    { "react", group = "Reserve", against = "Regia" },
    { "move", group = "Reserve", path = { "19A:2811", "19A:2911", "19A:3010", "19A:3110", "19A:3211", "19A:3311" } },
  },
}

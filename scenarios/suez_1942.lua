-- scenarios/suez_1942.lua — the showcase: Rule 32 (004_0e2364863b8db0db.txt)
-- around the Suez Canal and the Eastern Mediterranean, on
-- scenarios/maps/eastmed.map. `make demo` plays it, narrated, and writes its
-- journal (out/suez_1942.jsonl) and the final position (out/suez_1942.svg).
--
-- The Axis step: the Italian group Regia sails for Port Said. 32.B rolls a
-- search as it moves, with every modifier narrated; 32.D.2 starts surface
-- combat in the Allied escort's combat zone; the Port Said CD fires (32.D.3);
-- a great success activates the Allied reserve in Alexandria, which reacts
-- (32.C) and brings Regia to battle.
-- The Allied step: a convoy at Port Said splits, half of it steams down the
-- canal (32.A.6.a) and back, and the two halves combine again (32.A.1).
-- Then the canal: the Afrika Korps reaches the Delta, so the Allies close it
-- temporarily; the Axis falls back, the Allies reopen it; the Axis takes a
-- canal bank, and at the next initial phase the canal is closed for good,
-- straight from Open: the Allies lose 25 victory points.
--
-- The land war is a scenario stand-in (scenarios/families/eastmed_war), not
-- rule content: Rule 32 only reads who owns what and where enemy units are.
-- Each order carries expectations, so the showcase is also a test; its
-- outcomes are what `keel lab` measures over many seeds (doc/lab.md).
return scenario {
  name = "Suez, 1942: Rule 32 in the Eastern Mediterranean",
  map = "maps/eastmed.map",
  rules = { "navgroup", "eastmed_war" },
  path = { "families" },
  seed = 32,
  flags = { phasing = "Axis", sea = "calm", night = false, year = 1942 },
  keyed = { { "vp", "Allied", 40 } },
  forces = {
    { name = "Littorio", type = "TF", side = "Axis", at = "19A:3406", group = "Regia" },
    { name = "Trento", type = "TF", side = "Axis", at = "19A:3406", group = "Regia" },
    { name = "Orion", type = "TF", side = "Allied", at = "19A:3309", group = "Escort" },
    { name = "Warspite", type = "TF", side = "Allied", at = "Alexandria", port = true, group = "Reserve" },
    { name = "Convoy WS-1", type = "NT", side = "Allied", at = "Port Said", group = "Convoy" },
    { name = "Convoy WS-2", type = "NT", side = "Allied", at = "Port Said", group = "Convoy" },
    { name = "Afrika Korps", type = "PZ", side = "Axis", at = "19A:1214", values = { supply = "regular" } },
  },
  groups = { Reserve = { reserve = true, in_port = true } },
  -- what `keel lab` reports the distribution of, game after game (doc/guide.md)
  outcomes = {
    vp = { keyed = "vp", key = "Allied", title = "Allied victory points at the end" },
    sunk = { units = { loc = "dead", type = { "TF", "NT" } }, title = "ships sunk" },
    canal = { global = "suez", title = "the Suez Canal at the end" },
    combats = { global = "naval_combats", title = "rounds of naval combat fought (32.D)" },
  },
  orders = {
    { event = "game_start", expect = { global = { suez = "open" } } },

    -- ---- the Axis naval movement step -------------------------------------------
    { event = "naval_step_start", data = { side = "Axis", step = 1 } },
    { "move", group = "Regia", path = { "19A:3407", "19A:3408", "19A:3409", "19A:3410", "19A:3411", "19A:3412" },
      expect = { units = { Littorio = { at = "19A:3412" } } } },
    { "move", group = "Regia", path = { "19A:3413" }, expect = { units = { Littorio = { at = "19A:3413" } } } },
    { "react", group = "Reserve", against = "Regia" },
    { "move", group = "Reserve", to = "19A:3412", expect = { units = { Warspite = { at = "19A:3412" } } } },
    { event = "naval_step_end", data = { side = "Axis", step = 1 } },
    { event = "player_turn_end", data = { side = "Axis" } },

    -- ---- the Allied player-turn: the canal and the convoy --------------------------
    { "set_phasing", side = "Allied" },
    { event = "initial_phase", data = { side = "Allied" }, expect = { global = { suez = "open" } } },
    { event = "naval_step_start", data = { side = "Allied", step = 1 } },
    { "split", group = "Convoy", units = { "Convoy WS-2" }, name = "Convoy B" },
    { "move", group = "Convoy B", path = { "19A:3413/3514", "19A:3514/3513", "19A:3514/3613", "19A:3614/3613" },
      expect = { units = { ["Convoy WS-2"] = { at = "19A:3614" } } } },
    { "move", group = "Escort", to = "19A:3412", expect = { units = { Orion = { at = "19A:3412" } } } },
    { "move", group = "Convoy", path = { "19A:3412" }, expect = { units = { ["Convoy WS-1"] = { at = "19A:3412" } } } },
    { "combine", group = "Convoy", into = "Escort" },
    { event = "naval_step_end", data = { side = "Allied", step = 1 } },

    -- ---- the canal: open -> temporarily closed -> reopened -> permanently closed ----
    { "advance", unit = "Afrika Korps", to = "19A:3014" },
    { event = "initial_phase", data = { side = "Allied" } },
    { "close_suez", expect = { global = { suez = "temporarily closed" } } },
    { "advance", unit = "Afrika Korps", to = "19A:2614" },
    { event = "initial_phase", data = { side = "Allied" } },
    { "reopen_suez", expect = { global = { suez = "open" } } },
    { "capture", side = "Axis", hex = "19A:3514" },
    { "capture", side = "Axis", hex = "19A:3513" },
    { event = "initial_phase", data = { side = "Axis" },
      expect = { global = { suez = "permanently closed" }, keyed = { { "vp", "Allied", 15 } } } },
  },
}

-- scenarios/suez_1942.lua — the showcase: Rule 32 (004_0e2364863b8db0db.txt)
-- around the Suez Canal and the Eastern Mediterranean, on
-- scenarios/maps/eastmed.map. `make demo` plays it, narrated, and writes its
-- journal (out/suez_1942.jsonl) and the final position (out/suez_1942.svg).
--
-- A game of five turns, each an Axis then an Allied player-turn: the
-- initial phase, one naval movement step and the ground phase (the
-- series' sequence of play, which the rule texts cite but do not contain:
-- declared below as a stand-in). Its recorded play:
-- Turn 1, Axis: the Italian group Regia sails for Port Said. 32.B rolls a
-- search as it moves, with every modifier narrated; 32.D.2 starts surface
-- combat in the Allied escort's combat zone; the Port Said CD fires (32.D.3);
-- a success activates the Allied reserve in Alexandria, and the Allied
-- player decides in the window it opens: the reserve reacts (32.C) and
-- brings Regia to battle.
-- Turn 1, Allied: the canal may not be closed yet (no Axis unit in the
-- Delta); a convoy at Port Said splits, half of it steams down the canal
-- (32.A.6.a) and back, and the two halves combine again (32.A.1).
-- Turns 2-4: the Afrika Korps reaches the Delta and the Allies close the
-- canal temporarily; the Axis falls back, the Allies reopen it; the Axis
-- takes a canal bank, and at the next initial phase (the Allies', turn 4)
-- the canal is closed for good, straight from Open: the Allies lose 25
-- victory points, and at the end of that player-turn the Axis wins.
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
  flags = { sea = "calm", night = false, year = 1942 },
  -- the series' sequence of play (a stand-in: the texts cite it, do not
  -- contain it): navgroup's phases with the ground war's after them
  sequence = {
    cite = "stand-in for the series' sequence of play: Rule 32's initial phase and naval movement step, "
      .. "then the ground phase of the eastmed_war stand-in",
    sides = { "Axis", "Allied" },
    phases = {
      { name = "initial", start = "initial_phase" },
      { name = "movement", start = "movement_phase",
        steps = { { name = "naval_step", start = "naval_step_start", ["end"] = "naval_step_end",
                    data = { step = 1 } } } },
      { name = "ground" },
    },
  },
  turns = 5,
  scores = { Allied = { keyed = { "vp", "Allied" } } },
  victory = {
    { when = "player_turn_end", global = "suez", equals = "permanently closed", winner = "Axis",
      title = "the Suez Canal permanently closed (32.A.6.a)" },
    { score = "Allied", at_least = 30, winner = "Allied", title = "the Allies keep 30 victory points or more" },
    { score = "Allied", at_most = 29, winner = "Axis", title = "the Allies fall below 30 victory points" },
  },
  keyed = { { "vp", "Allied", 40 } },
  forces = {
    { name = "Littorio", type = "TF", side = "Axis", at = "19A:3406", group = "Regia" },
    { name = "Trento", type = "TF", side = "Axis", at = "19A:3406", group = "Regia" },
    { name = "Orion", type = "TF", side = "Allied", at = "19A:3309", group = "Escort" },
    { name = "Warspite", type = "TF", side = "Allied", at = "Alexandria", port = true, group = "Reserve" },
    { name = "Convoy WS-1", type = "NT", side = "Allied", at = "Port Said", group = "Convoy" },
    { name = "Convoy WS-2", type = "NT", side = "Allied", at = "Port Said", group = "Convoy" },
    { name = "Afrika Korps", type = "PZ", side = "Axis", at = "19A:2614", values = { supply = "regular" } },
  },
  groups = { Reserve = { reserve = true, in_port = true } },
  -- what `keel lab` reports the distribution of, game after game (doc/guide.md)
  outcomes = {
    vp = { keyed = "vp", key = "Allied", title = "Allied victory points at the end" },
    sunk = { units = { loc = "dead", type = { "TF", "NT" } }, title = "ships sunk" },
    canal = { global = "suez", title = "the Suez Canal at the end" },
    combats = { count = "naval_combat", title = "rounds of naval combat fought (32.D)" },
  },
  orders = {
    -- ---- turn 1: the Axis naval movement step ---------------------------------------
    { "end_phase", by = "Axis", expect = { global = { suez = "open", step = "naval_step" } } },
    { "move", by = "Allied", group = "Escort", to = "19A:3411", expect = { refused = "Axis is to act, not Allied" } },
    { "move", by = "Axis", group = "Regia", path = { "19A:3407", "19A:3408", "19A:3409", "19A:3410", "19A:3411", "19A:3412" },
      expect = { units = { Littorio = { at = "19A:3412" } } } },
    -- the search's success opened the Allied reaction window: the Allies decide now
    { "move", by = "Axis", group = "Regia", path = { "19A:3413" }, expect = { refused = "Allied is to act, not Axis" } },
    { "react", by = "Allied", group = "Reserve", against = "Regia" },
    { "move", by = "Allied", group = "Reserve", to = "19A:3411", expect = { units = { Warspite = { at = "19A:3411" } } } },
    { "end_phase", by = "Allied" },
    { "move", by = "Axis", group = "Regia", path = { "19A:3413" }, expect = { units = { Littorio = { at = "19A:3413" } } } },
    { "end_phase", by = "Axis", expect = { global = { phase = "ground" } } },
    { "end_phase", by = "Axis", expect = { global = { phasing = "Allied", phase = "initial" } } },

    -- ---- turn 1: the Allied player-turn: the convoy --------------------------------
    { "close_suez", by = "Allied", expect = { illegal = "no Axis unit in regular supply in the Egyptian Delta" } },
    { "end_phase", by = "Allied", expect = { global = { suez = "open", step = "naval_step" } } },
    { "split", by = "Allied", group = "Convoy", units = { "Convoy WS-2" }, name = "Convoy B" },
    { "move", by = "Allied", group = "Convoy B", path = { "19A:3413/3514", "19A:3514/3513", "19A:3514/3613", "19A:3614/3613" },
      expect = { units = { ["Convoy WS-2"] = { at = "19A:3614" } } } },
    { "move", by = "Allied", group = "Escort", to = "19A:3412", expect = { units = { Orion = { at = "19A:3412" } } } },
    { "move", by = "Allied", group = "Convoy", path = { "19A:3412" }, expect = { units = { ["Convoy WS-1"] = { at = "19A:3412" } } } },
    { "combine", by = "Allied", group = "Convoy", into = "Escort" },
    { "end_phase", by = "Allied" },
    { "end_phase", by = "Allied", expect = { global = { turn = 2, phasing = "Axis" } } },

    -- ---- turns 2-4, the canal: open -> temporarily closed -> reopened -> permanently closed
    { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" },
    { "advance", by = "Axis", unit = "Afrika Korps", to = "19A:3014" },
    { "end_phase", by = "Axis" },
    { "close_suez", by = "Allied", expect = { global = { suez = "temporarily closed" } } },
    { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" },
    { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" },
    { "advance", by = "Axis", unit = "Afrika Korps", to = "19A:2614" },
    { "end_phase", by = "Axis" },
    { "reopen_suez", by = "Allied", expect = { global = { suez = "open" } } },
    { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" },
    { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" },
    { "advance", by = "Axis", unit = "Afrika Korps", to = "19A:3514" },
    { "capture", by = "Axis", hex = "19A:3514" },
    { "capture", by = "Axis", hex = "19A:3513" },
    { "end_phase", by = "Axis", expect = { global = { suez = "permanently closed" }, keyed = { { "vp", "Allied", 15 } } } },
    { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" },
    { "end_phase", by = "Axis", expect = { refused = "the game is over" } },
  },
}

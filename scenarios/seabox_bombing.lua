-- scenarios/seabox_bombing.lua — the worked example of 27.A.3
-- (001_dc9ef6cc32bfaa07.txt): a convoy of 8 NTs escorted by a CL and a DD
-- takes 3 bombing hits. The first goes to a random NT, the second to a
-- random SF, the third to another random NT. A game of one turn, an Allied
-- then an Axis player turn of 27.C's phases: the convoy, north of Crete,
-- must bring 6 NTs or more to Heraklion. The bombing hits fall in the first
-- naval step (a scenario's order: the air rules that score them, Rule 20G2,
-- are not in the text), then the convoy sails into Heraklion; the Axis,
-- with no ship at sea, passes.
--   keel run scenarios/seabox_bombing.lua               # one roll of the dice, narrated
--   keel odds --scenario scenarios/seabox_bombing.lua --order 1             # the exact odds
--   keel odds --scenario scenarios/seabox_bombing.lua --order 1 --set hits=5
return scenario {
  name = "27.A.3: a convoy takes bombing hits",
  map = "maps/crete.map",
  rules = { "seabox" },
  seed = 27,
  flags = { objective = "Heraklion" },
  -- the campaign's game turn (a stand-in: Rule 27 cites it, does not contain it)
  sequence = {
    cite = "stand-in for the campaign's game turn: an Allied then an Axis player turn of 27.C's phases",
    sides = { "Allied", "Axis" },
  },
  turns = 1,
  scores = { Allied = { query = "transports_at_objective" } },
  victory = {
    { score = "Allied", at_least = 6, winner = "Allied", title = "6 NTs or more of the convoy reach Heraklion" },
    { score = "Allied", at_most = 5, winner = "Axis", title = "fewer than 6 NTs reach Heraklion" },
  },
  forces = {
    { name = "NT 1", type = "NT", side = "Allied", at = "15B:2407", group = "Convoy" },
    { name = "NT 2", type = "NT", side = "Allied", at = "15B:2407", group = "Convoy" },
    { name = "NT 3", type = "NT", side = "Allied", at = "15B:2407", group = "Convoy" },
    { name = "NT 4", type = "NT", side = "Allied", at = "15B:2407", group = "Convoy" },
    { name = "NT 5", type = "NT", side = "Allied", at = "15B:2407", group = "Convoy" },
    { name = "NT 6", type = "NT", side = "Allied", at = "15B:2407", group = "Convoy" },
    { name = "NT 7", type = "NT", side = "Allied", at = "15B:2407", group = "Convoy" },
    { name = "NT 8", type = "NT", side = "Allied", at = "15B:2407", group = "Convoy" },
    { name = "Ajax", type = "CL", side = "Allied", at = "15B:2407", group = "Convoy", values = { strength = 2, aa = 2 } },
    { name = "Jervis", type = "DD", side = "Allied", at = "15B:2407", group = "Convoy", values = { strength = 1, aa = 1 } },
  },
  orders = {
    -- turn 1, the Allied player turn, naval step 1: the bombers' 3 hits
    { "bomb", tf = "Convoy", hits = 3, expect = { global = { phasing = "Allied", step = "movement_step_1" } } },
    { "sail", by = "Allied", tf = "Convoy", to = "Heraklion", port = true },
    -- the rest of the Allied player turn: nothing more to do
    { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" },
    { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" },
    { "end_phase", by = "Allied", expect = { global = { phase = "exploitation" } } },
    { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" },
    { "end_phase", by = "Allied", expect = { global = { phasing = "Axis" } } },
    -- the Axis player turn (the Allied TF may give gunfire support in its combat phase)
    { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" },
    { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" },
    { "end_phase", by = "Allied", expect = { global = { phase = "combat" } } },
    { "end_phase", by = "Axis" },
    { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" },
    { "end_phase", by = "Axis", expect = { keyed = { { "result", "winner", "Allied" }, { "result", { "score", "Allied" }, 6 } } } },
  },
}

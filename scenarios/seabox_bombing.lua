-- scenarios/seabox_bombing.lua — the worked example of 27.A.3
-- (001_dc9ef6cc32bfaa07.txt): a convoy of 8 NTs escorted by a CL and a DD
-- takes 3 bombing hits. The first goes to a random NT, the second to a
-- random SF, the third to another random NT.
--   keel run scenarios/seabox_bombing.lua               # one roll of the dice, narrated
--   keel odds --scenario scenarios/seabox_bombing.lua --order 1             # the exact odds
--   keel odds --scenario scenarios/seabox_bombing.lua --order 1 --set hits=5
return scenario {
  name = "27.A.3: a convoy takes bombing hits",
  map = "maps/crete.map",
  rules = { "seabox" },
  seed = 27,
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
    { "bomb", tf = "Convoy", hits = 3 },
  },
}

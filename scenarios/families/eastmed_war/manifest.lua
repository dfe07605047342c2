-- scenarios/families/eastmed_war — what the Eastern Mediterranean showcase
-- needs from chapters the rule texts leave out: ground units advancing and
-- taking hexes. A scenario-supplied stand-in, not rule content of Rule 32:
-- Rule 32 only reads who owns what and where the enemy's ground units are.
return family {
  name = "eastmed_war",
  rulebook = "Showcase stand-in for the ground war (not from the rule texts)",
  depends = { "navgroup" },
  files = { "ground.lua" },
  -- the stand-in's ground units on a counter (keel view, keel render; doc/viewer.md)
  view = {
    types = { PZ = { symbol = "armor", title = "panzer corps" } },
  },
}

-- Rule 32 as one game, on scenarios/maps/eastmed.map: the three rule areas
-- (movement, searches, reaction and combat) together, seed 32.
--
-- The Axis group Regia moves with `move` down column 34 towards Port Said.
-- 32.B rolls a search on its first MP (proximity of the Allied Escort: F,
-- so Escort searches no more this segment); 32.D.2 starts surface combat
-- as Regia enters 19A:3408 and 3409, in Escort's combat zone, and movement
-- resumes after each. In range of Port Said's port and CD, 32.B rolls
-- again as the modifier rises: S* (reserves in port in any sea zone
-- activated: Warspite in Alexandria), then S. Entering Port Said's hex, the
-- CD fires at Regia's 2nd MP in its zone (32.D.3 a). In the Allied reaction
-- Warspite reacts (32.C: a -1 Step marker) and moves out to 19A:3412, in
-- Regia's zone: surface combat started by the non-phasing group (32.D.2 a).
return scenario {
  name = "Rule 32 together: move, search, combat, reaction",
  map = "../../scenarios/maps/eastmed.map",
  rules = { "navgroup", "navgroup_search_probe" },   -- the probe keeps each search's result in keyed values
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
    { "react", group = "Reserve", expect = { illegal = "reserve group Reserve has not been activated" } },
    { "move", group = "Regia", path = { "19A:3407", "19A:3408", "19A:3409", "19A:3410", "19A:3411", "19A:3412" },
      expect = {
        units = { Littorio = { at = "19A:3412" }, Trento = { at = "19A:3412" } },
        keyed = {
          { "naval_combat", 1, "round 1 of surface combat: Regia with enemy Escort at 19A:3408: engagement recorded" },
          { "naval_combat", 2, "round 1 of surface combat: Regia with enemy Escort at 19A:3409: engagement recorded" },
          { "naval_combat", 3 },   -- no third
          { "probe", "searches", 3 }, { "probe", "result", "S" }, { "probe", "search_kinds", "CD/port range" },
          { "probe", "activations", 1 }, { "probe", "activated_zone", "any" },
        },
      } },
    { "move", group = "Regia", path = { "19A:3413" },
      expect = {
        units = { Littorio = { at = "19A:3413" } },
        keyed = {
          { "naval_combat", 3, "round 1 of CD combat: the CD at 19A:3413 (value 2) fires on Regia in its hex: "
            .. "engagement recorded" },
          { "naval_combat", 4 },
          { "probe", "searches", 4 },
        },
      } },
    -- Escort is not a reserve and has no -# Step marker: it does not react
    { "react", group = "Escort", expect = { illegal = "Escort is not a reserve group" } },
    { "react", group = "Reserve", against = "Regia" },
    { "move", group = "Reserve", to = "19A:3412",
      expect = {
        units = { Warspite = { at = "19A:3412", values = { reacting = true } } },
        keyed = {
          { "naval_combat", 4, "round 1 of surface combat: Reserve with enemy Regia at 19A:3412: engagement recorded" },
          { "naval_combat", 5 },
          { "probe", "searches", 4 },   -- a reacting group is not searched for
        },
      } },
  },
}

-- The guide's scenario: a convoy sails from 15B:2407 to Heraklion under the
-- cruiser-escort house rule. `keel run doc/examples/convoy_scenario.lua`
return scenario {
  name = "Guide convoy",
  map = "../../scenarios/maps/crete.map",
  rules = { "convoy" },
  variants = { "variants/cruiser_escorts.lua" },
  seed = 7,
  flags = { night = false },
  forces = {
    { name = "Ajax", type = "CL", side = "Allied", at = "15B:2407", group = "Convoy" },
    { name = "NT 1", type = "NT", side = "Allied", at = "15B:2407", group = "Convoy" },
    { name = "NT 2", type = "NT", side = "Allied", at = "15B:2407", group = "Convoy" },
    { name = "NT 3", type = "NT", side = "Allied", at = "15B:2407", group = "Lone" },
  },
  orders = {
    { "sail", group = "Lone", to = "15B:2508", expect = { illegal = "only with an escort" } },
    { "sail", group = "Convoy", to = "15B:2508", expect = { units = { Ajax = { at = "15B:2508" } } } },
  },
  -- what `keel lab` reports, game after game
  outcomes = {
    afloat = { units = { type = "NT", loc = { "hex", "port" } }, title = "transports afloat" },
    ajax_hits = { unit = "Ajax", field = "hits" },
  },
}

-- A convoy to Heraklion under the campaign of 001_dc9ef6cc32bfaa07.txt: the
-- toy Rule 27 family, the campaign's house rules and fast convoys stacked on
-- top, on the Crete map of 27.B.5. The orders carry expectations, so this
-- scenario is also a test (tests/lua/scenario_test.lua plays it).
return scenario {
  name = "Convoy to Heraklion",
  map = "../../../scenarios/maps/crete.map",
  rules = { "toy27" },
  path = { "../../../tests/families" },
  variants = { "../../../tests/families/variants/campaign_001.lua", "../../../tests/families/variants/fast_convoys.lua" },
  seed = 1941,
  flags = { turn = 1, sea_state = "calm" },
  forces = {
    { name = "Warspite", type = "BB", side = "Allied", values = { strength = 5 }, at = "15B:2407", group = "Force A" },
    { name = "Orion", type = "CL", side = "Allied", values = { strength = 2 }, at = "15B:2407", group = "Force A" },
    { name = "Convoy NT", type = "NT", side = "Allied", values = { strength = 1 }, at = "15B:2407", group = "Force A" },
    { name = "Tirpitz", type = "BB", side = "German", values = { strength = 6 }, at = "15B:2003" },
  },
  orders = {
    { event = "game_start", expect = { global = { weather = "clear", contingents = nil, us_drm = nil } } },
    { event = "exploitation_phase", expect = { global = { naval_steps = 4 } } },   -- campaign 001
    -- fast convoys: an NT moves 9 sea boxes a naval step
    { "move", unit = "Convoy NT", to = "15B:2508", boxes = 9, expect = { units = { ["Convoy NT"] = { at = "15B:2508" } } } },
    { "move", unit = "Warspite", to = "15B:2508", boxes = 12, expect = { illegal = "BB moves 9 sea boxes a naval step, not 12" } },
    { "move", unit = "Warspite", to = "15B:2508", boxes = 9 },
    { "bomb", group = "Force A", strikes = 2 },
    { event = "transfer_east", data = { side = "German" }, expect = { global = { transferred_east = 0 } } },
    { check = { units = { Tirpitz = { loc = "hex", hits = 0 } } } },
  },
}

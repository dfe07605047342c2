-- scenarios/seabox_house_rules.lua — the house rules of the campaign of
-- 001_dc9ef6cc32bfaa07.txt at work: a turn in which the chapters they
-- change would bite. Played as the campaign played it (with the variant
-- scripts/seabox/variants/campaign_001.lua): the US division assembles,
-- British and US units stack and support each other, and the panzer
-- division due in the East stays. Without the variant the same orders meet
-- the stand-ins of those chapters (tests/lua/seabox_variant_test.lua plays
-- both and compares the journals). `keel run scenarios/seabox_house_rules.lua`
return scenario {
  name = "Campaign 001: the house rules",
  map = "maps/crete.map",
  rules = { "seabox" },
  variants = { "../scripts/seabox/variants/campaign_001.lua" },
  seed = 1,
  forces = {
    { name = "US 16th Inf regt", type = "inf", side = "Allied", at = "15B:2408", values = { contingent = "US", ["size.RE"] = 1 } },
    { name = "US 18th Inf regt", type = "inf", side = "Allied", at = "15B:2408", values = { contingent = "US", ["size.RE"] = 1 } },
    { name = "US 26th Inf regt", type = "inf", side = "Allied", at = "15B:2408", values = { contingent = "US", ["size.RE"] = 1 } },
    { name = "US 1st Inf Div", type = "inf", side = "Allied", values = { contingent = "US", ["size.RE"] = 3 } },
    { name = "Br 4th Armd bde", type = "arm", side = "Allied", at = "15B:2608",
      values = { contingent = "British", ["size.RE"] = 1, class = "c/m" } },
    { name = "Br 22nd Gds bde", type = "inf", side = "Allied", at = "15B:2608", values = { contingent = "British", ["size.RE"] = 1 } },
    { name = "US 1st Armd regt", type = "arm", side = "Allied", at = "15B:2608",
      values = { contingent = "US", ["size.RE"] = 1, class = "c/m" } },
    { name = "US 33rd FG", type = "AIR", side = "Allied", at = "15B:2608", values = { contingent = "US", code = "A" } },
    { name = "1st SS Pz Div", type = "arm", side = "Axis", at = "15B:2208",
      values = { contingent = "German", ["size.RE"] = 3, class = "c/m", east_turn = 1 } },
  },
  orders = {
    { event = "game_start" },
    { event = "player_turn_start", data = { side = "Allied", turn = 1 } },
    { event = "initial_phase", expect = { global = { east_transfers_cancelled = 1 },
      units = { ["1st SS Pz Div"] = { at = "15B:2208" } } } },
    { "assemble_division", units = { "US 16th Inf regt", "US 18th Inf regt", "US 26th Inf regt" }, division = "US 1st Inf Div",
      expect = { units = { ["US 1st Inf Div"] = { at = "15B:2408" } } } },
    { "form_stack", units = { "Br 4th Armd bde", "Br 22nd Gds bde" }, name = "Eighth Army stack" },
    { "form_stack", units = { "Br 4th Armd bde", "US 1st Armd regt" }, name = "Combat Command" },
    { "air_support", air = "US 33rd FG", stack = "Eighth Army stack" },
  },
}

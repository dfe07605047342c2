-- scenarios/seabox_house_rules.lua — the house rules of the campaign of
-- 001_dc9ef6cc32bfaa07.txt at work: a turn in which the chapters they
-- change would bite. Played as the campaign played it (with the variant
-- scripts/seabox/variants/campaign_001.lua): the US division assembles,
-- British and US units stack and support each other, and the panzer
-- division due in the East stays. Without the variant the same orders meet
-- the stand-ins of those chapters (tests/lua/seabox_variant_test.lua plays
-- both and compares the journals). `keel run scenarios/seabox_house_rules.lua`
--
-- A game of one turn, an Allied then an Axis player turn of 27.C's phases:
-- the Allies score the RE they have ready for combat (in combination stacks,
-- and 1 for each supporting air unit), the Axis the RE it keeps in the West;
-- the higher score wins. The Allies assemble the division in their movement
-- phase, stack and support in their combat phase (4: 3 RE and the fighter
-- group); in the Axis initial phase the panzer division stays (3): the Allies win.
return scenario {
  name = "Campaign 001: the house rules",
  map = "maps/crete.map",
  rules = { "seabox" },
  variants = { "../scripts/seabox/variants/campaign_001.lua" },
  seed = 1,
  -- the campaign's game turn (a stand-in: Rule 27 cites it, does not contain it)
  sequence = {
    cite = "stand-in for the campaign's game turn: an Allied then an Axis player turn of 27.C's phases",
    sides = { "Allied", "Axis" },
  },
  turns = 1,
  scores = { Allied = { query = "combat_ready" }, Axis = { query = "re_on_map" } },
  victory = { { higher_score = true, title = "the higher score: RE ready for combat against RE in the West" } },
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
    -- turn 1, the Allied player turn: the initial phase (no decision; the East transfers)
    -- the movement phase, naval step 1: the US division assembles
    { "assemble_division", by = "Allied", units = { "US 16th Inf regt", "US 18th Inf regt", "US 26th Inf regt" },
      division = "US 1st Inf Div",
      expect = { global = { step = "movement_step_1" }, units = { ["US 1st Inf Div"] = { at = "15B:2408" } } } },
    { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" },
    { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" },
    { "end_phase", by = "Allied", expect = { global = { phase = "combat" } } },
    -- the combat phase: combination stacks and air support
    { "form_stack", by = "Allied", units = { "Br 4th Armd bde", "Br 22nd Gds bde" }, name = "Eighth Army stack" },
    { "form_stack", by = "Allied", units = { "Br 4th Armd bde", "US 1st Armd regt" }, name = "Combat Command" },
    { "air_support", by = "Allied", air = "US 33rd FG", stack = "Eighth Army stack" },
    { "end_phase", by = "Allied" },
    { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" },
    { "end_phase", by = "Allied", expect = { global = { phasing = "Axis", step = "movement_step_1" } } },
    -- the Axis player turn: in its initial phase the panzer division's transfer to the East is cancelled
    { "form_stack", by = "Axis", units = { "1st SS Pz Div" }, name = "Stack 1",
      expect = { refused = "form_stack (rule ground_combat) is taken in combat", global = { east_transfers_cancelled = 1 },
                 units = { ["1st SS Pz Div"] = { at = "15B:2208" } } } },
    { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" },
    { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" },
    { "end_phase", by = "Axis", expect = { global = { phase = "exploitation" } } },
    { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" },
    { "end_phase", by = "Axis", expect = { keyed = { { "result", "winner", "Allied" },
      { "result", { "score", "Allied" }, 4 }, { "result", { "score", "Axis" }, 3 } } } },
  },
}

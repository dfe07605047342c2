-- scenarios/salerno_1943.lua — the Rule 37 showcase (003_324962bba0bb45e8.txt):
-- an amphibious assault on a made-up Gulf of Salerno
-- (scenarios/maps/salerno.map), September 1943. `bin/keel run` plays it,
-- narrated; its journal is tests/golden/salerno_1943.jsonl.
--
-- Turn 1: the Allies embark two attack forces and plan two landings (37.C):
-- the southern one at Paestum, held by a German battle group, and the
-- northern one next to it. A third plan would exceed the LC capacity in
-- play and is refused.
-- Turn 2: the forces sail to the beaches (Rule 32: searches find them). A
-- storm forbids landing (37 (b)); the sea calms. The southern force assaults
-- Paestum: the LCs pay the dearest row of the MP cost summary (37.A), every
-- unit rolls on the Landing Effects Table with its modifiers narrated
-- (37.B), gets its "+ # MP" marker and its share of the theatre's SPs, the
-- hex becomes dual-owned; one LC flotilla is damaged, the other's great
-- success takes 5 MPs off its next unloading (37.D). The northern force may
-- not land its marines, who are not in reserve (37 (f)); the commandos land
-- alone and take their empty beach.
-- The reaction phase: the two beaches are one landing group; the German
-- roll (37.E) is a Failure: one reserve enters the Paestum beach, a second
-- may not enter the other, a non-reserve battalion is too far to react.
-- The combat phase: every unit that landed at Paestum (bar the c/m tanks,
-- 37 (g)) must attack (37.B item 4); the beach was initially defended, so
-- the disrupted attackers are eliminated (item 6). The supply phase: the
-- commandos trace to a special supply source with theatre SPs (item 10).
--
-- Naval transport, the turn sequence and ground combat are not in the rule
-- texts: scenarios/families/salerno_war stands in for them and says so.
-- Each order carries expectations, so the showcase is also a test.
return scenario {
  name = "Salerno, 1943: Rule 37 amphibious assault",
  map = "maps/salerno.map",
  rules = { "navgroup", "salerno_war" },
  path = { "families" },
  seed = 37,
  flags = { phasing = "Allied", sea = "calm", year = 1943, month = 9, turn = 1 },
  forces = {
    { name = "LCT Flotilla A", type = "LC", side = "Allied", at = "S:0507", group = "Southern Attack Force",
      values = { mp = 120, capacity = 3 } },
    { name = "LCT Flotilla B", type = "LC", side = "Allied", at = "S:0507", group = "Southern Attack Force",
      values = { mp = 120, capacity = 3 } },
    { name = "LCI Flotilla", type = "LC", side = "Allied", at = "S:0506", group = "Northern Attack Force",
      values = { mp = 120, capacity = 1 } },
    { name = "141st RCT", type = "INF", side = "Allied", at = "S:0507",
      values = { re = 1, strength = 4, mp = 8, reserve = true } },
    { name = "142nd RCT", type = "INF", side = "Allied", at = "S:0507",
      values = { re = 1, strength = 4, mp = 8, reserve = true } },
    { name = "751st Tank Bn", type = "ARM", side = "Allied", at = "S:0507",
      values = { re = 1, strength = 3, mp = 10, reserve = true, cm = true, he = true } },
    { name = "No. 2 Commando", type = "CDO", side = "Allied", at = "S:0506",
      values = { re = 1, strength = 2, mp = 8, reserve = true, commando = true } },
    { name = "41 RM Commando", type = "MAR", side = "Allied", at = "S:0506",
      values = { re = 1, strength = 2, mp = 8, marine = true } },
    { name = "36th Div Engineers", type = "ENG", side = "Allied", at = "S:0506", values = { re = 1, strength = 1, mp = 8 } },
    { name = "KG von Doering", type = "PZG", side = "Axis", at = "S:0708", values = { re = 1, strength = 3, mp = 8 } },
    { name = "16th Pz Recon", type = "REC", side = "Axis", at = "S:0906",
      values = { re = 1, strength = 2, mp = 8, reserve = true } },
    { name = "KG Stempel", type = "PZ", side = "Axis", at = "S:0808", values = { re = 1, strength = 4, mp = 8, reserve = true } },
    { name = "Coastal Bn 600", type = "INF", side = "Axis", at = "S:0805", values = { re = 1, strength = 1, mp = 6 } },
  },
  orders = {
    -- ---- turn 1: embark and plan (37.C) ------------------------------------------------
    { "set_sp_pool", side = "Allied", sp = 6 },
    { event = "player_turn_start", data = { side = "Allied" } },
    { "embark", unit = "141st RCT", carrier = "LCT Flotilla A" },
    { "embark", unit = "142nd RCT", carrier = "LCT Flotilla A" },
    { "embark", unit = "751st Tank Bn", carrier = "LCT Flotilla B" },
    { "embark", unit = "No. 2 Commando", carrier = "LCI Flotilla" },
    { "embark", unit = "41 RM Commando", carrier = "LCI Flotilla" },
    { "embark", unit = "36th Div Engineers", carrier = "LCI Flotilla" },
    -- 6 REs against 7 of LC capacity: the c/m tanks count four (Table 1)
    { "plan_landing", hex = "S:0708", units = { "141st RCT", "142nd RCT", "751st Tank Bn" },
      expect = { units = { ["751st Tank Bn"] = { values = { plan = 1, plan_assault = true } } } } },
    -- the marines are intrinsically amphibious: no capacity (37.C item 1)
    { "plan_landing", hex = "S:0707", units = { "No. 2 Commando", "41 RM Commando" } },
    { "plan_landing", hex = "S:0707", units = { "36th Div Engineers" }, expect = { illegal = "37.C (2)" } },
    { event = "player_turn_end", data = { side = "Allied" } },

    -- ---- turn 2: the assault --------------------------------------------------------------
    { "next_turn", expect = { global = { turn = 2 } } },
    { event = "player_turn_start", data = { side = "Allied" } },
    { event = "movement_phase", data = { side = "Allied" } },
    { event = "naval_step_start", data = { side = "Allied", step = 1 } },
    { "move", group = "Southern Attack Force", to = "S:0708", expect = { units = { ["LCT Flotilla A"] = { at = "S:0708" } } } },
    { "move", group = "Northern Attack Force", to = "S:0707", expect = { units = { ["LCI Flotilla"] = { at = "S:0707" } } } },
    { "set_sea", sea = "stormy" },
    { "land", group = "Southern Attack Force", units = { "141st RCT", "142nd RCT", "751st Tank Bn" },
      expect = { illegal = "37 (b): no amphibious landing during stormy sea conditions" } },
    { "set_sea", sea = "calm" },
    { "land", group = "Southern Attack Force", units = { "141st RCT", "142nd RCT", "751st Tank Bn" },
      attack = { "141st RCT", "142nd RCT" },
      expect = { keyed = { { "landing", { 1, "cost" }, 75 }, { "landing", { 1, "dual" }, true }, { "sp_pool", "Allied", 3 } },
                 units = { ["141st RCT"] = { at = "S:0708", markers = { mp_penalty = 5 }, values = { sp = 6, reserve = nil } },
                           ["751st Tank Bn"] = { markers = { mp_penalty = 18 }, values = { sp = 0 } },
                           ["LCT Flotilla A"] = { face = "damaged" },
                           ["LCT Flotilla B"] = { values = { unload_credit_next = 5 } } } } },
    { "land", group = "Northern Attack Force", units = { "No. 2 Commando", "41 RM Commando" },
      expect = { illegal = "37 (f): only units in reserve may perform amphibious assaults; 41 RM Commando is not in reserve" } },
    { "land", group = "Northern Attack Force", units = { "No. 2 Commando" },
      expect = { units = { ["No. 2 Commando"] = { at = "S:0707", markers = { mp_penalty = 2 }, values = { sp = 16 } } } } },
    { event = "naval_step_end", data = { side = "Allied", step = 1 } },

    -- ---- the German reaction (37.E) ------------------------------------------------------
    { "group_landings", hexes = { "S:0708", "S:0707" } },
    { event = "reaction_phase", data = { side = "Axis" }, expect = { keyed = { { "reaction_set", { 1, "result" }, "F" } } } },
    { "react_move", unit = "KG Stempel", path = { "S:0708" }, expect = { units = { ["KG Stempel"] = { at = "S:0708" } } } },
    { "react_move", unit = "16th Pz Recon", path = { "S:0806", "S:0707" },
      expect = { illegal = "37.E (F): only one unit may enter the landing hex S:0707" } },
    { "react_move", unit = "16th Pz Recon", path = { "S:0806", "S:0807" },
      expect = { units = { ["16th Pz Recon"] = { at = "S:0807", values = { mp_left = 4 } } } } },
    { "react_move", unit = "Coastal Bn 600", path = { "S:0706" }, as_reserve = true,
      expect = { illegal = "37.E (F): the unit not in reserve must be within 1/2 M - 2 = 1 hexes" } },

    -- ---- the combat phase: the required attack (37 (e), 37.B items 4 and 6) ------------
    { event = "combat_phase", data = { side = "Allied" } },
    { "amphibious_attack", hex = "S:0708", units = { "141st RCT" }, expect = { illegal = "37.B item 4" } },
    { "amphibious_attack", hex = "S:0708", units = { "141st RCT", "142nd RCT" },
      expect = { units = { ["141st RCT"] = { loc = "dead", values = { loss_class = "combat isolated" } } } } },
    { event = "exploitation_phase", data = { side = "Allied" } },

    -- ---- the supply judgement phase (37.B item 10) ------------------------------------------
    { event = "supply_phase", data = { side = "Allied" } },
    { "special_supply", units = { "No. 2 Commando" },
      expect = { keyed = { { "sp_pool", "Allied", 1 } }, units = { ["No. 2 Commando"] = { values = { supply = "special" } } } } },
    { event = "player_turn_end", data = { side = "Allied" } },
  },
}

-- scenarios/salerno_1943.lua — the Rule 37 showcase (003_324962bba0bb45e8.txt):
-- an amphibious assault on a made-up Gulf of Salerno
-- (scenarios/maps/salerno.map), September 1943. `bin/keel run` plays it,
-- narrated; its journal is tests/golden/salerno_1943.jsonl.
--
-- A game of three turns, each an Allied then an Axis player-turn: the
-- initial phase, the movement phase with one naval movement step, the
-- enemy's reaction phase (37.E), the combat, exploitation and supply
-- judgement phases (37.B) — the series' sequence of play, which the rule
-- texts cite but do not contain: declared below as a stand-in. The Allies
-- win if they hold both beaches of the beachhead, Paestum and the beach
-- north of it, when the game ends; the Axis wins if it holds either, and
-- at once if it throws the Allies back into the sea. Its recorded play:
-- Turn 1, Allied: the Allies plan two landings (37.C): the southern one at
-- Paestum, held by a German battle group, and the northern one next to it;
-- a third plan would exceed the LC capacity in play and is refused. In the
-- movement phase the forces embark. The Axis, not knowing where the blow
-- will fall, waits.
-- Turn 2, Allied: the forces sail to the beaches (Rule 32: searches find
-- them). A storm forbids landing (37 (b)); the sea calms. The southern force
-- assaults Paestum: the LCs pay the dearest row of the MP cost summary
-- (37.A), every unit rolls on the Landing Effects Table with its modifiers
-- narrated (37.B), gets its "+ # MP" marker and its share of the theatre's
-- SPs, the hex becomes dual-owned; one LC flotilla is damaged, the other's
-- great success takes 5 MPs off its next unloading (37.D). The northern
-- force may not land its marines, who are not in reserve (37 (f)); the
-- commandos land alone and take their empty beach. The two beaches are one
-- landing group. In the Axis reaction phase (37.E: the Axis decides now)
-- the German roll is a Failure: one reserve enters the Paestum beach, a
-- second may not enter the other, a non-reserve battalion is too far to
-- react. In the combat phase every unit that landed at Paestum (bar the c/m
-- tanks, 37 (g)) must attack (37.B item 4), and the phase may not end
-- before they do; the beach was initially defended, so the disrupted
-- attackers are eliminated (item 6). In the supply judgement phase the
-- commandos trace to a special supply source with theatre SPs (item 10).
-- Turn 2, Axis: the counterattack (ground movement and combat are the
-- salerno_war stand-ins): the commandos hold, the tanks left in Paestum are
-- destroyed. Turn 3: the commandos' attack on Paestum decides nothing, the
-- last German attack on them is disrupted; the game ends with Paestum in
-- German hands: the Axis wins.
--
-- Naval transport, the weather, supply, ground movement and combat are not
-- in the rule texts: scenarios/families/salerno_war stands in for them and
-- says so. Each order carries expectations, so the showcase is also a test.
return scenario {
  name = "Salerno, 1943: Rule 37 amphibious assault",
  map = "maps/salerno.map",
  rules = { "navgroup", "salerno_war" },
  path = { "families" },
  seed = 37,
  flags = { sea = "calm", year = 1943, month = 9 },
  -- the series' sequence of play (a stand-in: the texts cite it, do not
  -- contain it): navgroup's phases as its manifest declares them, the
  -- Allies' player-turn first
  sequence = {
    cite = "stand-in for the series' sequence of play: the initial phase, one naval movement step in the "
      .. "movement phase (32.A, 37 (a)), the enemy's reaction phase (37.E), the combat, exploitation and supply "
      .. "judgement phases (37.B); ground movement and attacks are the salerno_war stand-in's",
    sides = { "Allied", "Axis" },
  },
  turns = 3,
  scores = { Allied = { owns = { "S:0708", "S:0707" } }, Axis = { owns = { "S:0708", "S:0707" } } },
  victory = {
    { when = "player_turn_end", query = "thrown_back", title = "the Allies thrown back into the sea (S.7)" },
    { owns = { "S:0708", "S:0707" }, side = "Allied", winner = "Allied",
      title = "the Allies hold the beachhead: Paestum and the beach north of it" },
    { score = "Axis", at_least = 1, winner = "Axis", title = "the Axis holds a beach of the beachhead" },
  },
  keyed = { { "sp_pool", "Allied", 6 } },
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
    -- ---- turn 1, Allied: plan (37.C) and embark ---------------------------------------------
    -- 6 REs against 7 of LC capacity: the c/m tanks count four (Table 1)
    { "plan_landing", by = "Allied", hex = "S:0708", units = { "141st RCT", "142nd RCT", "751st Tank Bn" },
      expect = { units = { ["751st Tank Bn"] = { values = { plan = 1, plan_assault = true } } } } },
    -- the marines are intrinsically amphibious: no capacity (37.C item 1)
    { "plan_landing", by = "Allied", hex = "S:0707", units = { "No. 2 Commando", "41 RM Commando" } },
    { "plan_landing", by = "Allied", hex = "S:0707", units = { "36th Div Engineers" }, expect = { illegal = "37.C (2)" } },
    { "embark", by = "Allied", unit = "141st RCT", carrier = "LCT Flotilla A", expect = { refused = "is taken in movement" } },
    { "end_phase", by = "Allied", expect = { global = { step = "naval_step" } } },
    { "embark", by = "Allied", unit = "141st RCT", carrier = "LCT Flotilla A" },
    { "embark", by = "Allied", unit = "142nd RCT", carrier = "LCT Flotilla A" },
    { "embark", by = "Allied", unit = "751st Tank Bn", carrier = "LCT Flotilla B" },
    { "embark", by = "Allied", unit = "No. 2 Commando", carrier = "LCI Flotilla" },
    { "embark", by = "Allied", unit = "41 RM Commando", carrier = "LCI Flotilla" },
    { "embark", by = "Allied", unit = "36th Div Engineers", carrier = "LCI Flotilla" },
    { "end_phase", by = "Allied", expect = { global = { phase = "reaction" } } },
    { "end_phase", by = "Axis", expect = { global = { phase = "combat" } } },
    -- nothing to do in the exploitation phase: the sequence goes on to the supply judgement phase
    { "end_phase", by = "Allied", expect = { global = { phase = "supply" } } },
    { "end_phase", by = "Allied", expect = { global = { phasing = "Axis", phase = "initial" } } },
    -- ---- turn 1, Axis: it waits -----------------------------------------------------------------
    { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" }, { "end_phase", by = "Allied" }, { "end_phase", by = "Axis" },
    { "end_phase", by = "Axis", expect = { global = { turn = 2, phasing = "Allied", phase = "initial" } } },

    -- ---- turn 2, Allied: the assault ------------------------------------------------------------
    { "end_phase", by = "Allied", expect = { global = { step = "naval_step" } } },
    { "move", by = "Allied", group = "Southern Attack Force", to = "S:0708",
      expect = { units = { ["LCT Flotilla A"] = { at = "S:0708" } } } },
    { "move", by = "Allied", group = "Northern Attack Force", to = "S:0707",
      expect = { units = { ["LCI Flotilla"] = { at = "S:0707" } } } },
    { "set_sea", sea = "stormy" },
    { "land", by = "Allied", group = "Southern Attack Force", units = { "141st RCT", "142nd RCT", "751st Tank Bn" },
      expect = { illegal = "37 (b): no amphibious landing during stormy sea conditions" } },
    { "set_sea", sea = "calm" },
    { "land", by = "Allied", group = "Southern Attack Force", units = { "141st RCT", "142nd RCT", "751st Tank Bn" },
      attack = { "141st RCT", "142nd RCT" },
      expect = { keyed = { { "landing", { 1, "cost" }, 75 }, { "landing", { 1, "dual" }, true }, { "sp_pool", "Allied", 3 } },
                 units = { ["141st RCT"] = { at = "S:0708", markers = { mp_penalty = 5 }, values = { sp = 6, reserve = nil } },
                           ["751st Tank Bn"] = { markers = { mp_penalty = 18 }, values = { sp = 0 } },
                           ["LCT Flotilla A"] = { face = "damaged" },
                           ["LCT Flotilla B"] = { values = { unload_credit_next = 5 } } } } },
    { "land", by = "Allied", group = "Northern Attack Force", units = { "No. 2 Commando", "41 RM Commando" },
      expect = { illegal = "37 (f): only units in reserve may perform amphibious assaults; 41 RM Commando is not in reserve" } },
    { "land", by = "Allied", group = "Northern Attack Force", units = { "No. 2 Commando" },
      expect = { units = { ["No. 2 Commando"] = { at = "S:0707", markers = { mp_penalty = 2 } , values = { sp = 16 } } } } },
    { "group_landings", by = "Allied", hexes = { "S:0708", "S:0707" } },
    { "end_phase", by = "Allied",
      expect = { global = { phase = "reaction" }, keyed = { { "reaction_set", { 1, "result" }, "F" } } } },

    -- ---- turn 2: the German reaction (37.E) -------------------------------------------------------
    { "react_move", by = "Allied", unit = "KG Stempel", path = { "S:0708" }, expect = { refused = "Axis is to act, not Allied" } },
    { "react_move", by = "Axis", unit = "KG Stempel", path = { "S:0708" }, expect = { units = { ["KG Stempel"] = { at = "S:0708" } } } },
    { "react_move", by = "Axis", unit = "16th Pz Recon", path = { "S:0806", "S:0707" },
      expect = { illegal = "37.E (F): only one unit may enter the landing hex S:0707" } },
    { "react_move", by = "Axis", unit = "16th Pz Recon", path = { "S:0806", "S:0807" },
      expect = { units = { ["16th Pz Recon"] = { at = "S:0807", values = { mp_left = 4 } } } } },
    { "react_move", by = "Axis", unit = "Coastal Bn 600", path = { "S:0706" }, as_reserve = true,
      expect = { illegal = "37.E (F): the unit not in reserve must be within 1/2 M - 2 = 1 hexes" } },
    { "end_phase", by = "Axis", expect = { global = { phasing = "Allied", phase = "combat" } } },

    -- ---- turn 2, Allied: the required attack (37 (e), 37.B items 4 and 6) -------------------------
    { "end_phase", by = "Allied", expect = { vetoed = "must attack its defenders before the combat phase ends" } },
    { "amphibious_attack", by = "Allied", hex = "S:0708", units = { "141st RCT" }, expect = { illegal = "37.B item 4" } },
    { "amphibious_attack", by = "Allied", hex = "S:0708", units = { "141st RCT", "142nd RCT" },
      expect = { units = { ["141st RCT"] = { loc = "dead", values = { loss_class = "combat isolated" } } } } },
    { "end_phase", by = "Allied", expect = { global = { phase = "supply" } } },

    -- ---- turn 2, Allied: the supply judgement phase (37.B item 10) --------------------------------
    { "special_supply", by = "Allied", units = { "No. 2 Commando" },
      expect = { keyed = { { "sp_pool", "Allied", 1 } }, units = { ["No. 2 Commando"] = { values = { supply = "special" } } } } },
    { "end_phase", by = "Allied", expect = { global = { phasing = "Axis", phase = "initial" } } },

    -- ---- turn 2, Axis: the counterattack (the salerno_war stand-ins) -------------------------------
    { "end_phase", by = "Axis", expect = { global = { step = "naval_step" } } },
    { "advance", by = "Axis", unit = "Coastal Bn 600", to = "S:0706", expect = { units = { ["Coastal Bn 600"] = { at = "S:0706" } } } },
    { "attack", by = "Axis", hex = "S:0707", units = { "16th Pz Recon" }, expect = { refused = "is taken in combat" } },
    { "end_phase", by = "Axis", expect = { global = { phase = "reaction" } } },
    -- no Axis landing: the Allies have nothing to react to, and pass
    { "end_phase", by = "Allied", expect = { global = { phase = "combat" } } },
    { "attack", by = "Axis", hex = "S:0707", units = { "16th Pz Recon", "Coastal Bn 600" },
      expect = { keyed = { { "ground_combat", 2, "attack at S:0707: die 2 - 0 (markers) = 2: no decision" } } } },
    { "attack", by = "Axis", hex = "S:0708", units = { "KG von Doering", "KG Stempel" },
      expect = { units = { ["751st Tank Bn"] = { loc = "dead" } } } },
    { "attack", by = "Axis", hex = "S:0707", units = { "16th Pz Recon" }, expect = { illegal = "has attacked this player-turn" } },
    { "end_phase", by = "Axis" },
    { "end_phase", by = "Axis", expect = { global = { turn = 3, phasing = "Allied", phase = "initial" } } },

    -- ---- turn 3, Allied: the commandos strike at Paestum ---------------------------------------------
    { "end_phase", by = "Allied" }, { "end_phase", by = "Allied" }, { "end_phase", by = "Axis" },
    { "attack", by = "Allied", hex = "S:0708", units = { "No. 2 Commando" },
      expect = { keyed = { { "ground_combat", 4, "attack at S:0708: die 4 - 0 (markers) = 4: no decision" } } } },
    { "end_phase", by = "Allied" },
    { "end_phase", by = "Allied", expect = { global = { phasing = "Axis", phase = "initial" } } },

    -- ---- turn 3, Axis: the last attack on the northern beach, and the end ----------------------------
    { "end_phase", by = "Axis" }, { "end_phase", by = "Axis" }, { "end_phase", by = "Allied" },
    { "attack", by = "Axis", hex = "S:0707", units = { "16th Pz Recon", "Coastal Bn 600" },
      expect = { units = { ["No. 2 Commando"] = { at = "S:0707" } } } },
    { "end_phase", by = "Axis" },
    { "end_phase", by = "Axis", expect = { keyed = { { "result", "winner", "Axis" }, { "result", { "score", "Allied" }, 1 } } } },
    { "attack", by = "Allied", hex = "S:0708", units = { "No. 2 Commando" }, expect = { refused = "the game is over" } },
  },
}

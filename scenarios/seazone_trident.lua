-- scenarios/seazone_trident.lua — the sea-zone family's showcase
-- (scripts/seazone, 002_37d6fae90ae806a5.txt) on scenarios/maps/seazone.map:
-- six sea zones, the Allied Homeland with its naval base, the Opfor's Isle
-- and Coastland. `keel run scenarios/seazone_trident.lua --svg out.svg`
-- narrates it and draws the zones with their units.
--
-- A game of two turns, each a player-turn of Russia (the Opfor), then of
-- the United States and of the United Kingdom (the Allies), each turn the
-- four phases the family declares (a stand-in for the turn sequence the
-- text cites: Combat Move, Conduct Combat, Noncombat Move, Mobilize New
-- Units). Each side scores the printed cost of the enemy's sea units it
-- destroyed; the higher score wins when the game ends.
--
-- Its recorded play. Turn 1, Russia: the submarine Kazan slips through
-- hostile SZ 3 (a US destroyer there does not stop a submarine) and is
-- stopped in SZ 2 by the British frigate Iron Duke, which also cancels its
-- Surprise Strike; the submarine Vepr and the cruiser Varyag attack the US
-- carrier group in SZ 5: the carrier's own fighter and its British guest
-- defend in the air, the submarine strikes first, and the Allied player
-- names the casualties in the window the hits open for it.
-- Turn 1, the United States: the damaged cruiser Belknap, in a zone the
-- Homeland base serves, is repaired as the turn begins; the assault ship
-- Wasp loads marines and tanks and, departing from the base's zone, steams
-- three sea zones to Coastland; it offloads in an amphibious assault,
-- Belknap and Spruance bombard, the Opfor player names its casualty, and
-- the land combat (another chapter) follows. In Noncombat Move the carrier
-- sails: its own fighter launches first, the British guest stays aboard as
-- cargo; the fighter lands again in Mobilize New Units. The United Kingdom
-- and the second turn pass, and the score decides. Refused orders along
-- the way say which rule (or whose turn it is) refuses them and leave the
-- state unchanged. Each order carries expectations, so the showcase is
-- also a test (tests/golden/seazone_trident.jsonl).
return scenario {
  name = "Trident Sea: the sea-zone family",
  map = "maps/seazone.map",
  rules = { "seazone" },
  seed = 24,
  -- the player-turns of a game turn: one per power, its alliance the phasing side (the
  -- family declares the phases: scripts/seazone/manifest.lua)
  sequence = {
    sides = { { side = "Opfor", power = "Russia" }, { side = "Allies", power = "USA" }, { side = "Allies", power = "UK" } },
  },
  turns = 2,
  scores = { Allies = { query = "enemy_sea_losses" }, Opfor = { query = "enemy_sea_losses" } },
  victory = {
    { higher_score = true, title = "the greater cost of enemy sea units destroyed" },
  },
  forces = {
    -- the Allies: the United States and the United Kingdom
    { name = "Norfolk", type = "naval_base", side = "Allies", at = "Homeland", values = { power = "USA" } },
    { name = "Nimitz", type = "carrier", side = "Allies", at = "SZ 5", values = { power = "USA" } },
    { name = "Hornet", type = "fighter", side = "Allies", aboard = "Nimitz", values = { power = "USA" } },
    { name = "Lightning", type = "fighter", side = "Allies", aboard = "Nimitz", values = { power = "UK" } },
    { name = "Belknap", type = "cruiser", side = "Allies", at = "SZ 5", values = { power = "USA" } },
    { name = "Spruance", type = "destroyer", side = "Allies", at = "SZ 3", values = { power = "USA" } },
    { name = "Iron Duke", type = "frigate", side = "Allies", at = "SZ 2", values = { power = "UK" } },
    { name = "Wasp", type = "assault_ship", side = "Allies", at = "SZ 1", values = { power = "USA" } },
    { name = "1st Marines", type = "infantry", side = "Allies", at = "Homeland", values = { power = "USA" } },
    { name = "2nd Tanks", type = "tank", side = "Allies", at = "Homeland", values = { power = "USA" } },
    { name = "Stratofortress", type = "strategic_bomber", side = "Allies", at = "Homeland", values = { power = "USA" } },
    { name = "Viper", type = "fighter", side = "Allies", at = "Homeland", values = { power = "USA" } },
    -- the Opfor: Russia
    { name = "Sevastopol", type = "naval_base", side = "Opfor", at = "Coastland", values = { power = "Russia" } },
    { name = "Kazan", type = "submarine", side = "Opfor", at = "SZ 4", values = { power = "Russia" } },
    { name = "Vepr", type = "submarine", side = "Opfor", at = "SZ 6", values = { power = "Russia" } },
    { name = "Varyag", type = "cruiser", side = "Opfor", at = "SZ 6", values = { power = "Russia" } },
    { name = "Guards Rifles", type = "infantry", side = "Opfor", at = "Coastland", values = { power = "Russia" } },
    { name = "Naval Infantry", type = "infantry", side = "Opfor", at = "Coastland", values = { power = "Russia" } },
    { name = "T-90 Regiment", type = "tank", side = "Opfor", at = "Coastland", values = { power = "Russia" } },
  },
  orders = {
    -- ---- turn 1: Russia ---------------------------------------------------------------------
    -- Kazan may pass hostile SZ 3, but the British frigate in SZ 2 ends its movement there
    { "move", by = "Allies", units = { "Spruance" }, path = { "SZ 4" }, expect = { refused = "Opfor is to act, not Allies" } },
    { "move", by = "Opfor", units = { "Kazan" }, path = { "SZ 3", "SZ 2", "SZ 1" },
      expect = { vetoed = "must end its movement in SZ 2, where enemy Iron Duke (frigate) is" } },
    { "move", by = "Opfor", units = { "Kazan" }, path = { "SZ 3", "SZ 2" },
      expect = { units = { Kazan = { at = "SZ 2", values = { attacking_turn = "1/Russia" } } } } },
    { "move", by = "Opfor", units = { "Vepr", "Varyag" }, path = { "SZ 5" },
      expect = { units = { Varyag = { at = "SZ 5", values = { attacking_turn = "1/Russia" } } } } },
    { "end_phase", by = "Opfor", expect = { global = { phase = "conduct_combat" } } },
    -- the frigate is in the battle: no Surprise Strike for Kazan (the Allies would name a casualty)
    { "battle", by = "Opfor", zone = "SZ 2", attacker = "cheapest" },
    -- Surprise Strike first; the carrier's fighters defend in the air; the Allies name the casualties
    { "battle", by = "Opfor", zone = "SZ 5", attacker = "cheapest",
      expect = { global = { choice_side = "Allies" }, units = { Hornet = { at = "SZ 5" }, Lightning = { at = "SZ 5" } } } },
    { "end_phase", by = "Opfor", expect = { refused = "Allies is to act, not Opfor" } },
    { "end_phase", by = "Allies", expect = { vetoed = "Allies has casualties to choose" } },
    { "casualties", by = "Allies", units = { "Lightning" }, expect = { illegal = "submarines cannot hit air units" } },
    { "casualties", by = "Allies", units = { "Belknap" },
      expect = { units = { Belknap = { face = "damaged", at = "SZ 5" }, Vepr = { loc = "dead" }, Varyag = { loc = "dead" },
                           Hornet = { loc = "unit" }, Lightning = { loc = "unit" } } } },
    { "end_phase", by = "Opfor", expect = { global = { phase = "noncombat_move" } } },
    { "end_phase", by = "Opfor", expect = { global = { phase = "mobilize" } } },
    { "end_phase", by = "Opfor", expect = { global = { turn = 1, phasing = "Allies", power = "USA", phase = "combat_move" } } },

    -- ---- turn 1: the United States ---------------------------------------------------------
    -- Belknap, in SZ 5 which the Norfolk base serves, was repaired as the turn began
    { "move", by = "Allies", units = { "Spruance" }, path = { "SZ 4", "SZ 6", "SZ 5" },
      expect = { illegal = "3 only when departing from a zone an operative friendly naval base serves",
                 units = { Belknap = { face = "full" } } } },
    -- loading is the land units' whole move; departing from SZ 1, Wasp steams three sea zones
    { "embark", by = "Allies", unit = "1st Marines", ship = "Wasp" },
    { "embark", by = "Allies", unit = "2nd Tanks", ship = "Wasp" },
    { "embark", by = "Allies", unit = "Viper", ship = "Wasp", expect = { illegal = "carries only land units" } },
    { "move", by = "Allies", units = { "Wasp" }, path = { "SZ 2", "SZ 3", "SZ 4" }, expect = { units = { Wasp = { at = "SZ 4" } } } },
    { "move", by = "Allies", units = { "Belknap" }, path = { "SZ 6", "SZ 4" } },
    { "move", by = "Allies", units = { "Spruance" }, path = { "SZ 4" } },
    { "end_phase", by = "Allies", expect = { global = { phase = "conduct_combat" } } },
    -- the amphibious assault on Coastland: everything loaded in Combat Move goes ashore
    { "offload", by = "Allies", ship = "Wasp", to = "Coastland", units = { "1st Marines" },
      expect = { vetoed = "2nd Tanks (tank) was loaded in Combat Move" } },
    { "offload", by = "Allies", ship = "Wasp", to = "Coastland",
      expect = { units = { ["1st Marines"] = { at = "Coastland" }, ["2nd Tanks"] = { at = "Coastland" } } } },
    { "offload", by = "Allies", ship = "Wasp", to = "Coastland", expect = { illegal = "already offloaded into Coastland this turn" } },
    -- offshore bombardment: one ship per land unit offloaded; cruisers hit on 4, destroyers on 3
    { "bombard", by = "Allies", ships = { "Belknap", "Spruance" }, territory = "Coastland",
      expect = { global = { choice_side = "Opfor" } } },
    -- the defender chooses, in its window; its casualty goes behind the casualty strip and still fights on land
    { "land_combat", by = "Allies", territory = "Coastland", expect = { refused = "Opfor is to act, not Allies" } },
    { "end_phase", by = "Opfor", expect = { vetoed = "Opfor has casualties to choose" } },
    { "casualties", by = "Opfor", units = { "Naval Infantry" },
      expect = { units = { ["Naval Infantry"] = { at = "Coastland", values = { casualty = true } } } } },
    -- the land combat is another chapter's; after it the casualties behind the strip are removed
    { "land_combat", by = "Allies", territory = "Coastland", expect = { units = { ["Naval Infantry"] = { loc = "dead" } } } },
    { "bombard", by = "Allies", ships = { "Belknap" }, territory = "Coastland", expect = { illegal = "no amphibious assault" } },
    { "end_phase", by = "Allies", expect = { global = { phase = "noncombat_move" } } },
    -- the carrier sails: its own fighter launches first; the British guest stays aboard as cargo
    { "move", by = "Allies", units = { "Nimitz" }, path = { "SZ 1" },
      expect = { units = { Nimitz = { at = "SZ 1" }, Hornet = { at = "SZ 5" }, Lightning = { loc = "unit" } } } },
    { "end_phase", by = "Allies", expect = { vetoed = "Nimitz (carrier) can and must move to SZ 5" } },
    { "fly", by = "Allies", unit = "Hornet", path = { "SZ 1" } },
    { "land", by = "Allies", unit = "Hornet", carrier = "Nimitz",
      expect = { units = { Hornet = { at = "SZ 1", values = { landing_on = 2 } } } } },
    { "fly", by = "Allies", unit = "Stratofortress", path = { "SZ 1" } },
    { "land", by = "Allies", unit = "Stratofortress", carrier = "Nimitz", expect = { illegal = "never strategic bombers" } },
    { "fly", by = "Allies", unit = "Viper", path = { "SZ 1" } },
    { "land", by = "Allies", unit = "Viper", carrier = "Nimitz", expect = { illegal = "already carries or expects 2 air units" } },
    { "fly", by = "Allies", unit = "Viper", path = { "Homeland" } },
    { "fly", by = "Allies", unit = "Stratofortress", path = { "Homeland" } },
    -- landing takes effect in Mobilize New Units
    { "end_phase", by = "Allies", expect = { global = { phase = "mobilize" }, units = { Hornet = { loc = "unit" } } } },
    { "end_phase", by = "Allies", expect = { global = { turn = 1, phasing = "Allies", power = "UK", phase = "combat_move" } } },

    -- ---- turn 1: the United Kingdom; turn 2: the powers pass ---------------------------------
    { "end_phase", by = "Allies" }, { "end_phase", by = "Allies" }, { "end_phase", by = "Allies" },
    { "end_phase", by = "Allies", expect = { global = { turn = 2, phasing = "Opfor", power = "Russia" } } },
    { "end_phase", by = "Opfor" }, { "end_phase", by = "Opfor" }, { "end_phase", by = "Opfor" }, { "end_phase", by = "Opfor" },
    { "end_phase", by = "Allies" }, { "end_phase", by = "Allies" }, { "end_phase", by = "Allies" }, { "end_phase", by = "Allies" },
    { "end_phase", by = "Allies" }, { "end_phase", by = "Allies" }, { "end_phase", by = "Allies" }, { "end_phase", by = "Allies" },
    { "move", by = "Opfor", units = { "Kazan" }, path = { "SZ 3" }, expect = { refused = "the game is over" } },
  },
}

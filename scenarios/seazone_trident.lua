-- scenarios/seazone_trident.lua — the sea-zone family's showcase
-- (scripts/seazone, 002_37d6fae90ae806a5.txt) on scenarios/maps/seazone.map:
-- six sea zones, the Allied Homeland with its naval base, the Opfor's Isle
-- and Coastland. `keel run scenarios/seazone_trident.lua --svg out.svg`
-- narrates it and draws the zones with their units.
--
-- Russia's turn: the submarine Kazan slips through hostile SZ 3 (a US
-- destroyer there does not stop a submarine) and is stopped in SZ 2 by the
-- British frigate Iron Duke, which also cancels its Surprise Strike; the
-- submarine Vepr and the cruiser Varyag attack the US carrier group in SZ 5:
-- the carrier's own fighter and its British guest defend in the air, the
-- submarine strikes first, and the Allied player names the casualties.
-- The US turn: the damaged cruiser Belknap, in a zone the Homeland base
-- serves, is repaired as the turn begins; the assault ship Wasp loads
-- marines and tanks and, departing from the base's zone, steams three sea
-- zones to Coastland; it offloads in an amphibious assault, Belknap and
-- Spruance bombard, and the land combat (another chapter) follows. In
-- Noncombat Move the carrier sails: its own fighter launches first, the
-- British guest stays aboard as cargo; the fighter lands again in Mobilize
-- New Units. Refused orders along the way say which rule refuses them and
-- leave the state unchanged. Each order carries expectations, so the
-- showcase is also a test (tests/golden/seazone_trident.jsonl).
return scenario {
  name = "Trident Sea: the sea-zone family",
  map = "maps/seazone.map",
  rules = { "seazone" },
  seed = 24,
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
    -- ---- Russia ----------------------------------------------------------------------------
    { "begin_turn", power = "Russia", expect = { global = { turn = 1, phase = "combat_move", side = "Opfor" } } },
    -- Kazan may pass hostile SZ 3, but the British frigate in SZ 2 ends its movement there
    { "move", units = { "Kazan" }, path = { "SZ 3", "SZ 2", "SZ 1" },
      expect = { vetoed = "must end its movement in SZ 2, where enemy Iron Duke (frigate) is" } },
    { "move", units = { "Kazan" }, path = { "SZ 3", "SZ 2" },
      expect = { units = { Kazan = { at = "SZ 2", values = { attacking_turn = 1 } } } } },
    { "move", units = { "Vepr", "Varyag" }, path = { "SZ 5" },
      expect = { units = { Varyag = { at = "SZ 5", values = { attacking_turn = 1 } } } } },
    { "end_phase", expect = { global = { phase = "conduct_combat" } } },
    -- the frigate is in the battle: no Surprise Strike for Kazan
    { "battle", zone = "SZ 2", attacker = "cheapest", defender = "cheapest" },
    -- Surprise Strike first; the carrier's fighters defend in the air; the Allies name the casualties
    { "battle", zone = "SZ 5", attacker = "cheapest",
      expect = { global = { choice_side = "Allies" }, units = { Hornet = { at = "SZ 5" }, Lightning = { at = "SZ 5" } } } },
    { "casualties", units = { "Lightning" }, expect = { illegal = "submarines cannot hit air units" } },
    { "casualties", units = { "Belknap" },
      expect = { units = { Belknap = { face = "damaged", at = "SZ 5" }, Vepr = { loc = "dead" }, Varyag = { loc = "dead" },
                           Hornet = { loc = "unit" }, Lightning = { loc = "unit" } } } },
    { "end_phase", expect = { global = { phase = "noncombat_move" } } },
    { "end_phase", expect = { global = { phase = "mobilize" } } },
    { "end_phase", expect = { global = { phase = "end" } } },

    -- ---- the United States ----------------------------------------------------------------
    -- Belknap, in SZ 5 which the Norfolk base serves, is repaired as the turn begins
    { "begin_turn", power = "USA", expect = { global = { turn = 2, side = "Allies" }, units = { Belknap = { face = "full" } } } },
    { "move", units = { "Spruance" }, path = { "SZ 4", "SZ 6", "SZ 5" },
      expect = { illegal = "3 only when departing from a zone an operative friendly naval base serves" } },
    -- loading is the land units' whole move; departing from SZ 1, Wasp steams three sea zones
    { "embark", unit = "1st Marines", ship = "Wasp" },
    { "embark", unit = "2nd Tanks", ship = "Wasp" },
    { "embark", unit = "Viper", ship = "Wasp", expect = { illegal = "carries only land units" } },
    { "move", units = { "Wasp" }, path = { "SZ 2", "SZ 3", "SZ 4" }, expect = { units = { Wasp = { at = "SZ 4" } } } },
    { "move", units = { "Belknap" }, path = { "SZ 6", "SZ 4" } },
    { "move", units = { "Spruance" }, path = { "SZ 4" } },
    { "end_phase", expect = { global = { phase = "conduct_combat" } } },
    -- the amphibious assault on Coastland: everything loaded in Combat Move goes ashore
    { "offload", ship = "Wasp", to = "Coastland", units = { "1st Marines" },
      expect = { vetoed = "2nd Tanks (tank) was loaded in Combat Move" } },
    { "offload", ship = "Wasp", to = "Coastland",
      expect = { units = { ["1st Marines"] = { at = "Coastland" }, ["2nd Tanks"] = { at = "Coastland" } } } },
    { "offload", ship = "Wasp", to = "Coastland", expect = { illegal = "already offloaded into Coastland this turn" } },
    -- offshore bombardment: one ship per land unit offloaded; cruisers hit on 4, destroyers on 3
    { "bombard", ships = { "Belknap", "Spruance" }, territory = "Coastland", expect = { global = { choice_side = "Opfor" } } },
    { "end_phase", expect = { vetoed = "Opfor has casualties to choose" } },
    -- the defender chooses; its casualty goes behind the casualty strip and still fights on land
    { "casualties", units = { "Naval Infantry" },
      expect = { units = { ["Naval Infantry"] = { at = "Coastland", values = { casualty = true } } } } },
    -- the land combat is another chapter's; after it the casualties behind the strip are removed
    { "land_combat", territory = "Coastland", expect = { units = { ["Naval Infantry"] = { loc = "dead" } } } },
    { "bombard", ships = { "Belknap" }, territory = "Coastland", expect = { illegal = "no amphibious assault" } },
    { "end_phase", expect = { global = { phase = "noncombat_move" } } },
    -- the carrier sails: its own fighter launches first; the British guest stays aboard as cargo
    { "move", units = { "Nimitz" }, path = { "SZ 1" },
      expect = { units = { Nimitz = { at = "SZ 1" }, Hornet = { at = "SZ 5" }, Lightning = { loc = "unit" } } } },
    { "end_phase", expect = { vetoed = "Nimitz (carrier) can and must move to SZ 5" } },
    { "fly", unit = "Hornet", path = { "SZ 1" } },
    { "land", unit = "Hornet", carrier = "Nimitz", expect = { units = { Hornet = { at = "SZ 1", values = { landing_on = 2 } } } } },
    { "fly", unit = "Stratofortress", path = { "SZ 1" } },
    { "land", unit = "Stratofortress", carrier = "Nimitz", expect = { illegal = "never strategic bombers" } },
    { "fly", unit = "Viper", path = { "SZ 1" } },
    { "land", unit = "Viper", carrier = "Nimitz", expect = { illegal = "already carries or expects 2 air units" } },
    { "fly", unit = "Viper", path = { "Homeland" } },
    { "fly", unit = "Stratofortress", path = { "Homeland" } },
    -- landing takes effect in Mobilize New Units
    { "end_phase", expect = { global = { phase = "mobilize" }, units = { Hornet = { loc = "unit" } } } },
    { "end_phase", expect = { global = { phase = "end" } } },
  },
}

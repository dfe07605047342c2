-- scripts/seazone — the sea units of a modern area-movement game
-- (002_37d6fae90ae806a5.txt): sea zones and hostile zones, aircraft
-- carriers, amphibious assault ships, cruisers, destroyers, frigates and
-- submarines. One file per unit, in the text's order; the chapters the text
-- cites without giving them (the turn sequence, naval bases, air movement,
-- the General Combat sequence and the amphibious assault steps) are
-- stand-ins in files named *_standin.lua that say so. Rule ids, files, tests
-- and the contract with a scenario: doc/seazone.md.
return family {
  name = "seazone",
  rulebook = "Sea units (modern, sea zones): 002_37d6fae90ae806a5.txt",
  depends = {},
  files = {
    "sea_units.lua",          -- units.sea-units
    "carriers.lua",           -- units.aircraft-carriers (capital ship, carry aircraft, air defense)
    "assault_ships.lua",      -- units.amphibious-assault-ships (5 characteristics)
    "cruisers.lua",           -- units.cruisers (capital ship, offshore bombardment, missiles)
    "destroyers.lua",         -- units.destroyers (offshore bombardment, missiles)
    "frigates.lua",           -- units.frigates (anti-sub vessel)
    "submarines.lua",         -- units.submarines (7 characteristics)
    "sequence_standin.lua",   -- STAND-IN: the turn sequence the text cites (Mobilize New Units)
    "bases_standin.lua",      -- STAND-IN: Naval Bases (cited: "see Naval Bases")
    "air_standin.lua",        -- STAND-IN: air movement and landing spaces (cited)
    "combat_standin.lua",     -- STAND-IN: the General Combat sequence (cited: "step 2 of ...")
    "assault_standin.lua",    -- STAND-IN: Amphibious Assaults steps (cited: "Step 2. Cruiser & Destroyer Bombardment")
    "missile_standin.lua",    -- STAND-IN: Missile (cited: "See Missile")
  },
  tables = {
    "sea_units.tbl",            -- the printed stat blocks (cost, attack, defense, move)
    "other_units_standin.tbl",  -- STAND-IN: air, land and facility values (cited, not given)
  },
  -- STAND-IN: the turn sequence. The text cites the phases of a power's
  -- turn (Combat Move, Conduct Combat, "Phase 4: Noncombat Move", Mobilize
  -- New Units) without the chapter that defines them; this declares those
  -- four, in that order, as keel's sequence of play runs them (keel.sequence):
  -- each phase starts with `phase_start` and ends with `phase_end`, its name
  -- in the event's `phase`. A game turn is one player-turn per power, in the
  -- order the scenario declares (`sequence.sides`, each { side =, power = }):
  -- the runtime sets the globals `turn`, `phasing` (the side), `power` and
  -- `phase`. The chapter's other phases (purchase, income) are not cited.
  sequence = {
    cite = "STAND-IN for the turn sequence chapter 002_37d6fae90ae806a5.txt cites: Combat Move, Conduct Combat, "
      .. "Phase 4: Noncombat Move, Mobilize New Units (each power's turn)",
    player_turn = { start = "player_turn_start", ["end"] = "player_turn_end" },
    phases = {
      { name = "combat_move", title = "Combat Move", start = "phase_start", ["end"] = "phase_end" },
      { name = "conduct_combat", title = "Conduct Combat", start = "phase_start", ["end"] = "phase_end" },
      { name = "noncombat_move", title = "Noncombat Move", start = "phase_start", ["end"] = "phase_end" },
      { name = "mobilize", title = "Mobilize New Units", start = "phase_start", ["end"] = "phase_end" },
    },
  },
  events = {
    "phase_start",        -- {phase, power, side, phasing, turn}: the sequence of play entered a phase
    "phase_end",          -- {phase, power, side, phasing, turn}: a phase is ending (handlers act before the next starts)
    "sea_units_moving",   -- {units, from, path, mode}: before sea units leave their zone
    "sea_units_moved",    -- {units, from, to, path, mode}: after they arrived
    "battle_units",       -- {battle}: step 1, who is on the battle strip
    "may_fire",           -- {battle, unit, step, value, fires}: a unit about to roll
    "may_surprise_strike",-- {battle, unit, eligible, reason}: step 2 eligibility
    "may_submerge",       -- {battle, unit, allowed, reason}
    "may_hit",            -- {battle, firer, target, allowed, reason}: may this firer's hit go to that target
    "battle_end",         -- {battle, result}: step 7, after the battle
    "repair_visit",       -- {unit, base, zone}: a damaged unit visits an operative friendly naval base
    "bombardment",        -- {territory, ships, hits}: offshore bombardment resolved
    "land_combat",        -- {territory, power}: the land combat of an amphibious assault (another chapter)
    "launch_missile",     -- {unit, missile, target}: a cruise missile launched (another chapter)
    "missile_capacity",   -- {unit, capacity}: cruise missiles a unit may carry (sitrep rules set it)
    "may_bombard",        -- {unit, territory, count, bombarded, land_units, value, allowed, reason}: offshore bombardment
    "combat_step",        -- {battle, step, next, wait}: one step of the General Combat sequence
  },
  view = {   -- counters and the status panel (doc/viewer.md)
    types = {
      carrier = { symbol = "carrier", title = "aircraft carrier" },
      assault_ship = { symbol = "landing", title = "amphibious assault ship" },
      cruiser = { symbol = "warship", title = "cruiser" },
      destroyer = { symbol = "warship", title = "destroyer" },
      frigate = { symbol = "warship", title = "frigate" },
      submarine = { symbol = "submarine", title = "submarine" },
      fighter = { symbol = "air", title = "fighter" },
      helicopter = { symbol = "air", title = "helicopter" },
      strategic_bomber = { symbol = "air", title = "strategic bomber" },
      infantry = { symbol = "infantry", title = "infantry" },
      special_force = { symbol = "infantry", title = "special force" },
      tank = { symbol = "armor", title = "tank" },
      apc = { symbol = "mech", title = "APC" },
      lav = { symbol = "recon", title = "LAV" },
      artillery = { symbol = "artillery", title = "artillery" },
      naval_base = { symbol = "coastal", title = "naval base" },
    },
    marks = {
      { value = "casualty", label = "Casualty" },        -- behind the casualty strip
      { value = "submerged", label = "Submerged" },
      { value = "must_reland", label = "Reland" },       -- units.aircraft-carriers.air-defense
      { value = "landing_on", label = "Landing" },       -- units.aircraft-carriers.carry-aircraft
    },
    sides = { Allies = "#1f4e9c", Opfor = "#7a1f1f" },
    status = {
      { key = "power", label = "power" },
      { key = "phasing", label = "phasing side" },
      { key = "choice_side", label = "choosing casualties" },
      { key = "battle_round", label = "battle round" },
      { key = "sitrep_missiles", label = "missiles sitrep" },
      { key = "sitrep_marine_transport", label = "marine transport sitrep" },
    },
  },
}

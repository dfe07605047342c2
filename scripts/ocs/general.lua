-- 18.1 General Naval Rules (000_366d55705cda9bbc.txt), after the family's
-- plumbing (what a ship, a carrier, a landing craft and coastal artillery
-- are; the phases a player-turn walks through): supply, stacking, where
-- ships may go, naval DG, when ships move and how far. The queries here are the contract
-- the other rule areas use (doc/ocs.md, "The contract").

local hexlib = keel.hex
local label, units_at, unit_hex, printed, phase_of, say_phase, move_plan, moving_units   -- helpers, below the rules
local mover_domain, paths_in_reach, path_key   -- parameter domains (keel.legal), below

-- Family plumbing (no rule id): what the counters are, the phases of a
-- player-turn, the records default hooks keep, and stand-ins for what other
-- chapters decide (ground movement, step losses, supply paid).
rule {
  title = "naval classes, phases and records",
  standin = { land_move_cost = "ground movement (another chapter)", land_entry_refusal = "ground movement (another chapter)",
              is_attack_capable = "chapter 5 (attack-capable units)",
              other_side_phases = "OCS 4.3 2.2, the sequence of play (the non-phasing player's Reaction Phase)",
              barrage_steps = "OCS 4.3 2.2, the sequence of play (what may fire in each Barrage Segment)" },
  priority = 1000,   -- where the game is is said before any other handler speaks
  values = {
    -- counter types by what they are (the scenario's forces use these types)
    ship_types = { BB = true, BC = true, CA = true, CL = true, DD = true, CV = true, CVL = true, CVE = true },
    carrier_types = { CV = true, CVL = true, CVE = true },
    landing_craft_types = { LC = true, DUKW = true, LST = true },
    lst_port_type = "LST port",                  -- an LST flipped to its port side (18.4f)
    coastal_artillery_types = { CoastArty = true },
    air_types = { air = true },                  -- air units (torpedo bombers: value torpedo = true)
    noncombat_types = { SP = true, TP = true, truck = true },
    -- the sequence of play (the manifest's stand-in for OCS 4.3 2.2): the
    -- phases the non-phasing player acts in, and the barrage steps with
    -- what may fire in each (2.2: no artillery barrages in the Movement
    -- Phase's Air/Naval Barrage Segment, no air or naval barrages in the
    -- Combat Phase's Artillery Barrage Segment)
    other_side_phases = { reaction = true },
    barrage_steps = { movement_barrage = "air_naval", reaction_barrage = "all", artillery_barrage = "artillery",
                      exploitation_barrage = "all" },
    barrage_notes = { all = "", air_naval = " (air and naval barrages)", artillery = " (artillery barrages)" },
  },
  queries = {
    --- naval_class(u) -> "carrier" | "ship" | "landing_craft" | "lst_port" |
    --- "coastal_artillery" | "air" | "ground"
    naval_class = function(ctx, u)
      local v, t = ctx.rule.values, ctx.game:get(u, "type")
      if t == v.lst_port_type then return "lst_port" end
      if v.landing_craft_types[t] then return "landing_craft" end
      if v.carrier_types[t] then return "carrier" end
      if v.ship_types[t] then return "ship" end
      if v.coastal_artillery_types[t] then return "coastal_artillery" end
      if v.air_types[t] then return "air" end
      return "ground"
    end,
    --- is_ship(u): a ship of any kind that moves: surface ships, carriers, landing craft
    is_ship = function(ctx, u)
      local c = ctx:query("naval_class", u)
      return c == "ship" or c == "carrier" or c == "landing_craft"
    end,
    --- is_naval(u): a ship, or an LST deployed as a port (a naval counter that no longer moves)
    is_naval = function(ctx, u)
      return ctx:query("is_ship", u) or ctx:query("naval_class", u) == "lst_port"
    end,
    --- is_combat_unit(u): a ground unit that is not a non-combat unit (coastal artillery is one)
    is_combat_unit = function(ctx, u)
      local c = ctx:query("naval_class", u)
      if c ~= "ground" and c ~= "coastal_artillery" then return false end
      if ctx.rule.values.noncombat_types[ctx.game:get(u, "type")] then return false end
      return ctx.game:get_value(u, "combat") ~= false
    end,
    --- unit_hex(u) -> hex, kind: where a unit is, following its carrier (nil off the map or dead)
    unit_hex = function(ctx, u) return unit_hex(ctx.game, u) end,
    --- moving_units(p) -> the units a move order {unit=, units=} moves: unit, then units
    moving_units = function(_, p) return moving_units(p) end,
    --- units_at(hex) -> ids at sea, in port or ashore in the hex (not cargo), in id order
    units_at = function(ctx, hex) return units_at(ctx, hex) end,
    --- printed(u, key): the counter's value on its current side ("damaged.<key>" on the damaged side)
    printed = function(ctx, u, key) return printed(ctx.game, u, key) end,
    --- phase() -> name, side, stamp: the phase the sequence of play is in
    --- (the runtime's global `phase`: "aircraft_refit", "movement",
    --- "reaction", "combat", "exploitation", "clean_up" ...), whose phase it
    --- is (the phasing side; the other side in a phase the sequence gives
    --- it, the Reaction Phase), and a stamp that names this phase of the
    --- game ("<turn> <phasing> <phase>"): "in this phase" is "stamped with
    --- it". No phase yet: nil, nil, "none".
    phase = function(ctx) return phase_of(ctx) end,
    --- barrage_segment() -> side, stamp, fires: the friendly Barrage Segment
    --- in progress (the runtime's `step`, one of the barrage steps of the
    --- sequence), whose it is, its stamp, and what may fire in it ("all",
    --- "air_naval": no artillery, "artillery": no air or naval barrages);
    --- nil outside one
    barrage_segment = function(ctx)
      local g = ctx.game
      local step = g:get_global("step")
      local fires = step and ctx.rule.values.barrage_steps[step]
      if not fires then return nil end
      local _, side, stamp = phase_of(ctx)
      return side, stamp .. " " .. step, fires
    end,
    lst_port_type = function(ctx) return ctx.rule.values.lst_port_type end,
    --- Ground movement is another chapter's; these stand in for it (a
    --- scenario wraps them): land_move_cost(u, from, to) -> 1 MP a hex;
    --- land_entry_refusal(u, hex) -> nil, or why a unit moving by land may
    --- not enter: not water, not a hex of enemy combat units.
    land_move_cost = function() return 1 end,
    land_entry_refusal = function(ctx, u, hex)
      local g = ctx.game
      local b = g.board
      if not b or not b:contains(hex) then return ("%s is not on the map"):format(label(g, hex)) end
      local t = b:get_terrain(hex)
      if t ~= "coastal" and t ~= "all-land" then
        return ("%s moves by land: %s is %s"):format(g:get(u, "name"), label(g, hex), t)
      end
      for _, o in ipairs(units_at(ctx, hex)) do
        if g:get(o, "side") ~= g:get(u, "side") and ctx:query("is_combat_unit", o) then
          return ("%s holds enemy combat units"):format(label(g, hex))
        end
      end
      return nil
    end,
    --- is_attack_capable(u): chapter 5's definition stands in as a combat
    --- unit with an attack strength (printed value attack) above 0
    is_attack_capable = function(ctx, u)
      return ctx:query("is_combat_unit", u) and (printed(ctx.game, u, "attack") or 0) > 0
    end,
  },
  on = {
    -- the sequence of play (keel.sequence) has set the globals before it
    -- sends these: they only say where the game is
    aircraft_refit_phase = function(ctx, ev) say_phase(ctx, "Aircraft Refit", ev) end,
    movement_phase = function(ctx, ev) say_phase(ctx, "Movement", ev) end,
    reaction_phase = function(ctx, ev) say_phase(ctx, "Reaction", ev) end,
    combat_phase = function(ctx, ev) say_phase(ctx, "Combat", ev) end,
    exploitation_phase = function(ctx, ev) say_phase(ctx, "Exploitation", ev) end,
    clean_up_phase = function(ctx, ev) say_phase(ctx, "Clean Up", ev) end,
    barrage_segment = function(ctx, ev)
      local side, _, fires = ctx:query("barrage_segment")
      if side == nil then
        error(("barrage_segment: the sequence is not in a barrage step (phase %s, step %s)"):format(
          tostring(ctx.game:get_global("phase")), tostring(ctx.game:get_global("step"))), 0)
      end
      if ev.side ~= nil and ev.side ~= side then
        error(("barrage_segment: the segment is %s's, not %s's"):format(side, tostring(ev.side)), 0)
      end
      ctx:say("%s Barrage Segment of the %s phase%s", side, tostring(ctx.game:get_global("phase")),
        ctx.rule.values.barrage_notes[fires])
    end,
    -- the records default hooks keep: keyed value `<kind>` {n} = the text,
    -- n = 1, 2 ... (how many: count_keyed(kind))
    record = function(ctx, ev)
      local g = ctx.game
      local n = g:count_keyed(ev.kind) + 1
      g:set_keyed(ev.kind, n, ev.text)
      ctx:say("%s %d recorded: %s", ev.kind, n, ev.text)
    end,
    -- Chapter 9's step losses stand in here: a unit with a `steps` value
    -- loses one, and is eliminated at none; one without is eliminated. A
    -- scenario's rule that applies it itself sets ev.handled.
    ground_step_loss = { function(ctx, ev)
      if ev.handled then return end
      ev.handled = true
      local g, u = ctx.game, ev.unit
      local steps = g:get_value(u, "steps")
      if steps and steps > 1 then
        g:set_value(u, "steps", steps - 1)
        ctx:say("%s loses a step (%s): %d left", g:get(u, "name"), ev.reason or "", steps - 1)
      else
        g:eliminate(u)
        ctx:say("%s loses its last step (%s): eliminated", g:get(u, "name"), ev.reason or "")
      end
    end, priority = -100 },
    -- supply paid (chapter 12's): recorded
    supply_spent = { function(ctx, ev)
      if ev.handled then return end
      ev.handled = true
      ctx:emit("record", { kind = "supply", text = ("%s SP for %s"):format(tostring(ev.amount), ev.why or "?") })
    end, priority = -100 },
  },
}

rule {
  id = "18.1a", title = "Supply",
  queries = {
    --- needs_supply(u): false for ships (they never need supply); true for others (their chapters' rules)
    needs_supply = function(ctx, u) return not ctx:query("is_naval", u) end,
  },
}

rule {
  id = "18.1b", title = "Stacking",
  queries = {
    --- stacking_refusal(u, hex) -> nil, or why ship u may not be in hex: no
    --- limit on ships; never with enemy ships or enemy combat units (enemy
    --- non-combat units are no obstacle)
    stacking_refusal = function(ctx, u, hex)
      local g = ctx.game
      local side = g:get(u, "side")
      for _, o in ipairs(units_at(ctx, hex)) do
        if o ~= u and g:get(o, "side") ~= side then
          if ctx:query("is_ship", o) then
            return ("18.1b: ships cannot stack with enemy ships (%s at %s)"):format(g:get(o, "name"), label(g, hex))
          end
          if ctx:query("is_combat_unit", o) then
            return ("18.1b: ships cannot stack with enemy combat units (%s at %s)"):format(g:get(o, "name"),
              label(g, hex))
          end
        end
      end
      return nil
    end,
  },
}

rule {
  id = "18.1c", title = "Naval Movement",
  values = {
    ship_terrain = { ["all-sea"] = true },
    landing_craft_terrain = { ["all-sea"] = true, coastal = true },
  },
  queries = {
    --- estuary_hex(hex): does the hex border an estuary hexside? (rivers and canals are not estuaries)
    estuary_hex = function(ctx, hex)
      local b = ctx.game.board
      if not b or not b:contains(hex) then return false end
      for _, s in ipairs(hexlib.sides(hex)) do
        local a, c = hexlib.side_hexes(s)
        if b:contains(a) and b:contains(c) then
          local f = b:get_features(s)
          if f and f.estuary and not f.riverine then return true end
        end
      end
      return false
    end,
    --- may_enter(u, hex) -> nil, or why ship u may not enter hex: most ships
    --- all-sea hexes only; landing craft also coastal hexes and either hex of
    --- an estuary hexside
    may_enter = function(ctx, u, hex)
      local g, v = ctx.game, ctx.rule.values
      local b = g.board
      if not b or not b:contains(hex) then return ("18.1c: %s is not on the map"):format(label(g, hex)) end
      if ctx:query("moves_by_land", u) then return ctx:query("land_entry_refusal", u, hex) end
      local terrain = b:get_terrain(hex)
      local class = ctx:query("naval_class", u)
      if class == "landing_craft" or class == "lst_port" then   -- an LST port is an LC counter (18.4f C: it never moves)
        if v.landing_craft_terrain[terrain] or ctx:query("estuary_hex", hex) then return nil end
        return ("18.1c: landing craft enter all-sea and coastal hexes and hexes bordering an estuary; %s is %s")
          :format(label(g, hex), terrain)
      end
      if v.ship_terrain[terrain] then return nil end
      return ("18.1c: %s enters all-sea hexes only; %s is %s"):format(g:get(u, "name"), label(g, hex), terrain)
    end,
  },
}

rule {
  id = "18.1d", title = "Naval DG",
  queries = {
    --- is_dg(u): does the ship carry a DG marker?
    is_dg = function(ctx, u) return ctx.game:get_marker(u, "DG") > 0 end,
    --- has_modes(u): ships have none (they use DG markers instead)
    has_modes = function(ctx, u) return not ctx:query("is_naval", u) end,
  },
  on = {
    -- the player's Clean Up Phase removes the DG markers of that player's ships
    clean_up_phase = function(ctx, ev)
      local g = ctx.game
      for _, u in ipairs(ev.side ~= nil and g:units { side = ev.side } or {}) do
        if g:get_marker(u, "DG") > 0 and ctx:query("is_ship", u)
            and g:get(u, "loc") ~= "dead" then
          g:remove_marker(u, "DG")
          ctx:say("%s: DG marker removed", g:get(u, "name"))
        end
      end
    end,
  },
}

rule {
  id = "18.1e", title = "Phasing",
  values = {
    move_phases = { movement = true, exploitation = true, reaction = true },
    mp_per_hex = 1,
  },
  queries = {
    --- mp_spent(u): MPs the unit has spent in the current phase
    mp_spent = function(ctx, u)
      local _, _, n = ctx:query("phase")
      if ctx.game:get_value(u, "mp_phase") ~= n then return 0 end
      return ctx.game:get_value(u, "mp_spent") or 0
    end,
    --- move_allowance(u): MPs per phase (the speed, 18.1f; a DUKW's in Transport-Point MPs, 18.4e)
    move_allowance = function(ctx, u)
      if ctx.game:get(u, "type") == "DUKW" then return ctx:query("dukw_allowance", u) end
      return ctx:query("speed", u)
    end,
    --- move_cost(u, from, to): MPs to enter `to` (1 per hex; a DUKW's by 18.4e)
    move_cost = function(ctx, u, from, to)
      if ctx.game:get(u, "type") == "DUKW" then return ctx:query("dukw_move_cost", u, from, to) end
      return ctx.rule.values.mp_per_hex
    end,
    --- paths_in_reach(u, mp, how) -> the cheapest path (hex labels) to
    --- every hex u reaches with mp, as parameter candidates {value = path,
    --- label, cost}, nearest first: how = "sea", a ship's move (may_enter,
    --- stacking_refusal, move_cost); "land", a move by land
    --- (land_entry_refusal, land_move_cost: 18.5h's after-landing move)
    paths_in_reach = function(ctx, u, mp, how) return paths_in_reach(ctx, u, mp, how) end,
    --- may_move_now(u) -> nil, or why the ship may not move in this phase
    may_move_now = function(ctx, u)
      local name, side = ctx:query("phase")
      local g = ctx.game
      if not name then return "18.1e: no phase has begun" end
      if not ctx.rule.values.move_phases[name] or side ~= g:get(u, "side") then
        return ("18.1e: ships move in their side's Movement, Exploitation and Reaction Phases (now the %s phase of %s)")
          :format(name, tostring(side))
      end
      return nil
    end,
  },
  actions = {
    -- move {unit | units, path = {hex...}}: a ship, or a stack of ships,
    -- hex by hex; each hex entered costs its MPs. The whole path is checked
    -- before anything moves.
    move = {
      side = "any",   -- 18.1e: the Movement Segments of the three phases; a carrier also
      -- in their Barrage Segments, before or after its planes fly (18.2c)
      phases = { "movement_segment", "movement_barrage", "reaction_movement", "reaction_barrage",
                 "exploitation_movement", "exploitation_barrage" },
      -- domains (keel.legal): the side's ships that may move now; for each,
      -- the cheapest path to every hex its MPs left reach (cost: the MPs);
      -- a stack (units) is the player's: each ship is offered alone
      params = {
        unit = { type = "unit?", domain = function(ctx, _, side) return mover_domain(ctx, side) end },
        units = "units?",
        path = { type = "table", depends = { "unit" }, domain = function(ctx, p)
          local u = p.unit
          local left = ctx:query("move_allowance", u) - ctx:query("mp_spent", u)
          local list = ctx:query("paths_in_reach", u, left, "sea")
          -- each path is a chain of steps the search allowed, with their
          -- MPs: its check finds the total again (move_plan)
          local proven = {}
          for _, c in ipairs(list) do proven[path_key(c.value)] = c.cost end
          ctx:cache("ocs.move_paths")[u] = proven
          return list, ("18.1f: %s has %s MP left: no hex in reach"):format(ctx.game:get(u, "name"), tostring(left))
        end },
      },
      legal = function(ctx, p)
        local list, why = move_plan(ctx, p)
        if not list then return why end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local units, path, costs = move_plan(ctx, p)
        local _, _, n = ctx:query("phase")
        for i, u in ipairs(units) do
          for _, h in ipairs(path) do g:move(u, "hex", h) end
          local spent = ctx:query("mp_spent", u) + costs[i]
          g:set_value(u, "mp_phase", n)
          g:set_value(u, "mp_spent", spent)
          g:set_value(u, "entered_phase", n)
          ctx:say("%s moves to %s (%s MP spent, %s of %s this phase)", g:get(u, "name"), label(g, path[#path]),
            tostring(costs[i]), tostring(spent), tostring(ctx:query("move_allowance", u)))
        end
      end,
    },
  },
}
rule {
  id = "18.1f", title = "Speed",
  values = { speed = 20, slow_speed = 10 },
  queries = {
    --- speed(u): hexes per phase: 20; slow ships (white stripe: value slow)
    --- 10; a damaged single-ship counter is slow, a damaged multi-ship
    --- counter (value multi_ship) keeps its speed; landing craft by 18.4b
    speed = function(ctx, u)
      local g, v = ctx.game, ctx.rule.values
      if ctx:query("naval_class", u) == "landing_craft" then return ctx:query("landing_craft_speed", u) end
      if printed(g, u, "slow") then return v.slow_speed end
      if g:get(u, "face") == "damaged" and not printed(g, u, "multi_ship") then return v.slow_speed end
      return v.speed
    end,
  },
}

-- ---- helpers shared by the rules of this file ---------------------------------------

function label(game, hex)
  local b = game.board
  if b and math.type(hex) == "integer" and b:contains(hex) then return b:format(hex) end
  return tostring(hex)
end

-- where a unit is: its hex (following the units that carry it) and how it is there
function unit_hex(game, u)
  for _ = 1, 16 do
    local kind, w = game:get(u, "loc")
    if kind == "hex" or kind == "port" then return w, kind end
    if kind ~= "unit" then return nil, kind end
    u = w
  end
  return nil
end

-- the units at sea, in port or ashore in a hex (not cargo), in id order
-- (the kernel's index)
function units_at(ctx, hex)
  return ctx.game:units { at = hex }
end

function printed(game, u, key)
  if game:get(u, "face") == "damaged" then
    local v = game:get_value(u, "damaged." .. key)
    if v ~= nil then return v end
  end
  return game:get_value(u, key)
end

-- where the sequence of play is (module doc: the phase query); the side of
-- a phase the other side acts in is the game's other side (its sequence's sides)
function phase_of(ctx)
  local g = ctx.game
  local name = g:get_global("phase")
  if name == nil then return nil, nil, "none" end
  local phasing = g:get_global("phasing")
  local side = phasing
  if ctx.rule.values.other_side_phases[name] then
    side = nil
    for _, s in ipairs(ctx:status().sides or {}) do
      if s ~= phasing then side = s; break end
    end
  end
  return name, side, ("%s %s %s"):format(tostring(g:get_global("turn") or 0), tostring(phasing), name)
end

-- a phase begins (the sequence of play sent its start event): say so
function say_phase(ctx, title, ev)
  if type(ev.side) ~= "string" then
    error(("the %s Phase event needs data.side (whose phase it is)"):format(title), 0)
  end
  ctx:say("%s %s Phase", ev.side, title)
end

function moving_units(p)
  local units = {}
  if p.unit then units[1] = p.unit end
  for _, u in ipairs(p.units or {}) do units[#units + 1] = u end
  return units
end

-- The checks of a move (18.1b, 18.1c, 18.1e, 18.1f), shared by its legality
-- and its effect: units, path (hexes), costs (per unit) | nil, reason.
function move_plan(ctx, p)
  local g = ctx.game
  local units = moving_units(p)
  if #units == 0 then return nil, "move: name the unit or the units that move" end
  local path = {}
  for i, h in ipairs(p.path) do
    local hex = h
    if type(h) == "string" then hex = g.board and g.board:hex(h) end
    if math.type(hex) ~= "integer" then return nil, ("move: path[%d] %s is not a hex of the map"):format(i, tostring(h)) end
    path[i] = hex
  end
  if #path == 0 then return nil, "move: the path is empty" end
  local start = unit_hex(g, units[1])
  local side = g:get(units[1], "side")
  -- whether a ship may move at all, asked once per ship and state (ctx:cache)
  local movers = ctx:cache("ocs.may_move")
  for _, u in ipairs(units) do
    local why = movers[u]
    if why == nil then
      local name = g:get(u, "name")
      local h, k = unit_hex(g, u)
      if not ctx:query("is_naval", u) then why = ("18.1e: %s is not a ship"):format(name)
      elseif k ~= "hex" and k ~= "port" then why = ("%s is not on the map"):format(name)
      else why = { hex = h, refusal = ctx:query("may_move_now", u) } end
      movers[u] = why
    end
    if type(why) == "string" then return nil, why end
    if why.hex ~= start or g:get(u, "side") ~= side then
      return nil, "move: a stack moves together: every unit in the same hex, of the same side"
    end
    if why.refusal then return nil, why.refusal end
  end
  local costs = {}
  -- a path the move domain found for a ship alone, in this state: each
  -- step allowed (may_enter, stacking_refusal), its MPs summed in order
  local proven = #units == 1 and ctx:cache("ocs.move_paths")[units[1]]
  local found = proven and proven[path_key(p.path)]
  if found then
    local u = units[1]
    local spent, allowance = ctx:query("mp_spent", u), ctx:query("move_allowance", u)
    if spent + found > allowance then
      return nil, ("18.1f: %s has %s MP left this phase; the path costs %s"):format(g:get(u, "name"),
        tostring(allowance - spent), tostring(found))
    end
    return units, path, { found }
  end
  for i, u in ipairs(units) do
    local from, total = start, 0
    for _, h in ipairs(path) do
      if hexlib.distance(from, h) ~= 1 then
        return nil, ("move: %s is not next to %s"):format(label(g, h), label(g, from))
      end
      local why = ctx:query("may_enter", u, h)
      if not why and not ctx:query("moves_by_land", u) then why = ctx:query("stacking_refusal", u, h) end
      if why then return nil, why end
      total = total + ctx:query("move_cost", u, from, h)
      from = h
    end
    local spent, allowance = ctx:query("mp_spent", u), ctx:query("move_allowance", u)
    if spent + total > allowance then
      return nil, ("18.1f: %s has %s MP left this phase; the path costs %s"):format(g:get(u, "name"),
        tostring(allowance - spent), tostring(total))
    end
    costs[i] = total
  end
  return units, path, costs
end

-- ---- parameter domains (keel.legal) ------------------------------------------------

-- a path of hex labels as a key (nil when it is not one)
function path_key(path)
  if type(path) ~= "table" then return nil end
  for i = 1, #path do
    if type(path[i]) ~= "string" then return nil end
  end
  return table.concat(path, "\n")
end

-- side's ships on the map (nil side: every side's) that may move in this
-- phase and have not ended their move, in id order
function mover_domain(ctx, side)
  local g = ctx.game
  local _, _, n = ctx:query("phase")
  local out, why = {}, nil
  for _, u in ipairs(g:units { side = side }) do
    if ctx:query("is_ship", u) then
      local kind = g:get(u, "loc")
      local refusal = ctx:query("may_move_now", u)
      if (kind == "hex" or kind == "port") and not refusal and g:get_value(u, "move_ended_phase") ~= n
          and ctx:query("move_allowance", u) > ctx:query("mp_spent", u) then
        out[#out + 1] = { value = u, label = g:get(u, "name") }
      end
      why = why or refusal
    end
  end
  return out, why or ("18.1e: no ship of %s may move in this phase"):format(tostring(side or "any side"))
end

-- the cheapest paths of the query paths_in_reach (18.1e); ties go to the
-- lower hex id, then the neighbour order
function paths_in_reach(ctx, u, left, how)
  local g = ctx.game
  local start = unit_hex(g, u)
  if not start then return {} end
  local by_land = ctx:query("moves_by_land", u)   -- a Transport-Point DUKW: may_enter asks land_entry_refusal
  -- may the unit enter `to` (asked once per hex: whence does not matter)
  local barred = {}
  local function enters(to)
    local b = barred[to]
    if b == nil then
      if how == "land" then
        b = ctx:query("land_entry_refusal", u, to) and true or false
      else
        b = (ctx:query("may_enter", u, to) or (not by_land and ctx:query("stacking_refusal", u, to))) and true or false
      end
      barred[to] = b
    end
    return not b
  end
  -- the MPs to step from `from` into `to`, or nil when it may not
  local function step(from, to)
    if not enters(to) then return nil end
    if how == "land" then return ctx:query("land_move_cost", u, from, to) end
    return ctx:query("move_cost", u, from, to)
  end
  -- the open hexes, a binary heap by (cost, hex): the next settled is the
  -- cheapest, ties to the lower hex id (entries made stale by a cheaper
  -- cost are skipped)
  local cost, prev, done, order = { [start] = 0 }, {}, {}, {}
  local heap_c, heap_h, n_heap = { 0 }, { start }, 1
  local function before(i, j)
    local ci, cj = heap_c[i], heap_c[j]
    return ci < cj or (ci == cj and heap_h[i] < heap_h[j])
  end
  local function swap(i, j)
    heap_c[i], heap_c[j] = heap_c[j], heap_c[i]
    heap_h[i], heap_h[j] = heap_h[j], heap_h[i]
  end
  local function push(c, h)
    n_heap = n_heap + 1
    heap_c[n_heap], heap_h[n_heap] = c, h
    local i = n_heap
    while i > 1 and before(i, i // 2) do swap(i, i // 2); i = i // 2 end
  end
  local function pop()
    local c, h = heap_c[1], heap_h[1]
    heap_c[1], heap_h[1] = heap_c[n_heap], heap_h[n_heap]
    heap_c[n_heap], heap_h[n_heap] = nil, nil
    n_heap = n_heap - 1
    local i = 1
    while true do
      local l, r, m = 2 * i, 2 * i + 1, i
      if l <= n_heap and before(l, m) then m = l end
      if r <= n_heap and before(r, m) then m = r end
      if m == i then break end
      swap(i, m)
      i = m
    end
    return c, h
  end
  while n_heap > 0 do
    local c0, best = pop()
    if not done[best] and c0 == cost[best] then
      done[best] = true
      if best ~= start then order[#order + 1] = best end
      for _, n in ipairs(hexlib.neighbors(best)) do
        if not done[n] then
          local c = step(best, n)
          if c then
            c = cost[best] + c
            if c <= left and (cost[n] == nil or c < cost[n]) then
              cost[n], prev[n] = c, best
              push(c, n)
            end
          end
        end
      end
    end
  end
  local out = {}
  for i, h in ipairs(order) do
    local path, x = {}, h
    while x ~= start do table.insert(path, 1, label(g, x)); x = prev[x] end
    out[i] = { value = path, label = label(g, h), cost = cost[h] }
  end
  return out
end

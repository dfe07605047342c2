-- 18.3 Naval Combat (000_366d55705cda9bbc.txt): ships, planes and coastal
-- artillery barrage ground and naval targets; what a hit and a DG do to a
-- ship, to a stack of landing craft and to coastal artillery; torpedo
-- bombers; ship flak. The Barrage Table and its adjustments are the
-- scenario's (scripts/ocs/tables/barrage_table_standin.tbl stands in).
--
-- barrage {units, target} fires at a naval target (a ship; the landing craft
-- of a hex, as one; coastal artillery, 18.3g C); barrage {units, hex,
-- facility?} at a ground target: the enemy ground units of the hex, or the
-- facility named. The whole barrage is checked before any die is rolled.

local plan_barrage, strength_of, hit_ship, dg_ship, hit_craft, dg_craft   -- helpers, below the rules
local firer_domain, naval_target_domain, ground_hex_domain, facility_domain      -- parameter domains, below

rule {
  id = "18.3", title = "Naval Combat",
  queries = {
    --- barrage_strength(spec) -> strength, exact: the Barrage Table column's
    --- strength from the firers' printed strengths by kind (spec: ships,
    --- planes, others, naval, facility, protection): ships reduced against
    --- ground units but not facilities (18.3b); against naval targets planes
    --- x2 and the total divided by the Protection Rating (18.3c B, C);
    --- rounded down (doc/ocs.md, "Readings"). `keel odds ocs:barrage` asks it.
    barrage_strength = function(ctx, spec)
      local ships = spec.ships or 0
      if not spec.naval and not spec.facility then
        local m = ctx:table("barrage_adjustments"):get("naval_vs_ground", "effect")
        ships = ships * m.num / m.den
      end
      local total = ships + (spec.planes or 0) * ctx:query("barrage_multiplier", "air", spec.naval) + (spec.others or 0)
      if spec.naval then total = total / (spec.protection or ctx:query("protection", nil)) end
      return math.floor(total), total
    end,
  },
  actions = {
    barrage = {
      side = "any",   -- the phasing player's, and the reacting player's in the Reaction Phase
      phases = { "movement_barrage", "reaction_barrage", "artillery_barrage", "exploitation_barrage" },   -- 18.3a; 2.2
      -- domains (keel.legal): the units that may fire now; for each, the
      -- naval targets in its range, and the hexes of enemy ground units or
      -- of facilities not its side's in range; for a hex, its facilities.
      -- target and hex exclude each other: the runtime offers each also
      -- left out, and plan_barrage keeps the orders that name one.
      params = {
        units = { type = "units", domain = function(ctx, _, side) return firer_domain(ctx, side) end },
        target = { type = "unit?", depends = { "units" },
                   domain = function(ctx, p) return naval_target_domain(ctx, p.units[1]) end },
        hex = { type = "hex?", depends = { "units" }, domain = function(ctx, p) return ground_hex_domain(ctx, p.units[1]) end },
        facility = { type = "string?", depends = { "hex" }, domain = function(ctx, p) return facility_domain(ctx, p.hex) end },
      },
      legal = function(ctx, p)
        local plan, why = plan_barrage(ctx, p)
        if not plan then return why end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local plan = plan_barrage(ctx, p)
        local _, seg = ctx:query("barrage_segment")
        local _, _, n = ctx:query("phase")
        local phase = g:get_phase()
        local names = {}
        for i, f in ipairs(plan.firers) do
          names[i] = g:get(f, "name")
          g:set_value(f, "fired_segment", seg)
          local c = ctx:query("naval_class", f)
          if c == "coastal_artillery" then
            g:set_value(f, "ca_fire_phase", n)
            g:set_value(f, "ca_fire_kind", plan.naval and "naval" or "ground")
          end
          if c == "air" then g:set_value(f, "inactive", true) end   -- the air chapter's: Inactive after a mission
          if not plan.naval and (c == "ship" or c == "carrier") then
            g:set_value(f, "ground_fire_turn", g:get_turn() or 0)
            g:set_value(f, "ground_fire_phase", phase)
          end
        end
        for _, t in ipairs(plan.targets) do g:set_value(t, "targeted_phase", n) end
        local column = ctx:table("barrage_table"):column_for(plan.strength, plan.shift)
        ctx:say("%s barrage %s: strength %s%s -> %s", table.concat(names, ", "), plan.what,
          tostring(plan.strength), plan.shift ~= 0 and (", shift %d"):format(plan.shift) or "",
          column and ("column " .. column) or "below the first column: no effect, no roll")
        if column then
          local mods = {}
          if not plan.naval then mods = ctx:query("ground_barrage_modifiers", plan.hex, plan) end
          local row = ctx:resolve("barrage_table", mods, { reason = "barrage " .. plan.what })
          plan.column, plan.cell = column, row[column]
        end
        ctx:emit("barrage_fired", { plan = plan })
      end,
    },
  },
}

rule {
  id = "18.3a", title = "Ship Barrages",
  values = {
    segment_refusals = {
      artillery = "2.2: the Combat Phase's Barrage Segment is the artillery's: %s fires no air or naval barrage in it",
      air_naval = "2.2: the Movement Phase's Barrage Segment is for air and naval barrages: %s fires at ground "
        .. "targets by the artillery rules, not in it",
    },
  },
  queries = {
    --- firer_refusal(u, naval) -> nil, or why u may not fire now: once per
    --- friendly Barrage Segment (A: at naval targets in every one it does
    --- not fire at a ground target); at ground targets once per game turn (B)
    firer_refusal = function(ctx, u, naval)
      local g = ctx.game
      local side, seg, fires = ctx:query("barrage_segment")
      local name = g:get(u, "name")
      if side == nil then return "18.3a: barrages are fired in a friendly Barrage Segment (none is in progress)" end
      if side ~= g:get(u, "side") then
        return ("18.3a: %s barrages in its side's Barrage Segments (this one is %s's)"):format(name, side)
      end
      if g:get_value(u, "fired_segment") == seg then return ("18.3a: %s has fired in this Barrage Segment"):format(name) end
      local c = ctx:query("naval_class", u)
      -- the sequence of play's segments (2.2, the manifest's stand-in):
      -- artillery (coastal artillery at ground targets) not in the Movement
      -- Phase's Air/Naval Barrage Segment, ships and planes not in the
      -- Combat Phase's Artillery Barrage Segment
      local why = ctx.rule.values.segment_refusals[fires]
      if fires == "artillery" and c ~= "coastal_artillery" then return why:format(name) end
      if fires == "air_naval" and c == "coastal_artillery" and not naval then return why:format(name) end
      if not naval and (c == "ship" or c == "carrier") and g:get_value(u, "ground_fire_turn") == (g:get_turn() or 0) then
        return ("18.3a B: %s has fired at a ground target this game turn (in the %s phase)"):format(name,
          tostring(g:get_value(u, "ground_fire_phase")))
      end
      return nil
    end,
  },
}

rule {
  id = "18.3b", title = "Ground Targets",
  standin = { ground_barrage_modifiers = "chapter 9 (barrage modifiers against ground units)" },
  -- the board tags that are facilities a barrage may aim at besides ports
  -- (the candidates offered to a user interface; a scenario's family may
  -- name others)
  values = { facility_tags = { "airbase" } },
  queries = {
    --- facilities_at(hex) -> the facilities of the hex a barrage may aim at:
    --- "port" (a map port: an LST port is none, 18.4f A), then its facility tags
    facilities_at = function(ctx, hex)
      local b = ctx.game.board
      local out = {}
      if not b or not b:contains(hex) then return out end
      if b:get_port(hex) then out[#out + 1] = "port" end
      for _, t in ipairs(ctx.rule.values.facility_tags) do
        if b:has_tag(hex, t) then out[#out + 1] = t end
      end
      return out
    end,
    --- ground_target_refusal(firer_side, hex, facility) -> nil, or why the hex (or facility) is no ground target
    ground_target_refusal = function(ctx, side, hex, facility)
      local g = ctx.game
      local b = g.board
      if facility then
        if facility == "port" then
          if b and b:get_port(hex) then return nil end
          for _, u in ipairs(ctx:query("units_at", hex)) do
            if ctx:query("naval_class", u) == "lst_port" then
              return "18.4f A: an LST port cannot be targeted by barrage (the hex can be)"
            end
          end
          return ("18.3b: no port at %s"):format(ctx:label("hex", hex))
        end
        if b and b:has_tag(hex, facility) then return nil end
        return ("18.3b: no %s at %s"):format(facility, ctx:label("hex", hex))
      end
      for _, u in ipairs(ctx:query("units_at", hex)) do
        local c = ctx:query("naval_class", u)
        if g:get(u, "side") ~= side and (c == "ground" or c == "coastal_artillery") then return nil end
      end
      return ("18.3b: no enemy ground units at %s"):format(ctx:label("hex", hex))
    end,
    --- ground_barrage_modifiers(hex, plan) -> the Barrage Table's modifiers
    --- against ground units (chapter 9's: terrain, density, spotting). The
    --- stand-in applies none; a scenario wraps this query.
    ground_barrage_modifiers = function() return {} end,
  },
  on = {
    -- a barrage at a ground target: its result goes to the chapter that applies it
    barrage_fired = function(ctx, ev)
      local plan = ev.plan
      if plan.naval then return end
      ctx:emit("ground_barrage_result", { hex = plan.hex, facility = plan.facility, firers = plan.firers,
        result = plan.cell and plan.cell.text or "no effect" })
    end,
    -- Chapter 9/14 applies a barrage result to the units of a hex or to a
    -- facility; the default records it (a scenario's rule that applies it
    -- sets ev.handled). An LST port in the hex ignores it (18.4f A).
    ground_barrage_result = { function(ctx, ev)
      if ev.handled then return end
      ev.handled = true
      local ignores = ""
      for _, u in ipairs(ctx:query("units_at", ev.hex)) do
        if ctx:query("naval_class", u) == "lst_port" then ignores = " (the LST port there ignores it, 18.4f A)" end
      end
      ctx:emit("record", { kind = "ground_barrage", text = ("%s at %s: %s%s"):format(ev.facility or "ground units",
        ctx:label("hex", ev.hex), ev.result, ignores) })
    end, priority = -100 },
  },
}

rule {
  id = "18.3c", title = "Naval Targets",
  standin = { air_distance_shift = "the air chapter (an aircraft's distance from its base)" },
  values = { plane_multiplier = 2, no_protection = 1 },
  queries = {
    --- naval_target_refusal(firers, target) -> nil, or why
    naval_target_refusal = function(ctx, firers, target)
      local g = ctx.game
      local tname = g:get(target, "name")
      local c = ctx:query("naval_class", target)
      if c == "lst_port" then return "18.4f A: an LST port cannot be targeted by barrage" end
      if c ~= "ship" and c ~= "carrier" and c ~= "landing_craft" and c ~= "coastal_artillery" then
        return ("18.3c: %s is not a naval target"):format(tname)
      end
      for _, f in ipairs(firers) do
        local fc = ctx:query("naval_class", f)
        if fc ~= "ship" and fc ~= "carrier" and fc ~= "air" and fc ~= "coastal_artillery" then
          return ("18.3c: enemy ships are barraged only by naval units, planes and coastal artillery (%s is none)")
            :format(g:get(f, "name"))
        end
      end
      local _, _, n = ctx:query("phase")
      for _, t in ipairs(ctx:query("naval_targets", target)) do
        if g:get_value(t, "targeted_phase") == n then
          return ("18.3c: no ship can be targeted by more than one barrage in a phase (%s has been)"):format(
            g:get(t, "name"))
        end
      end
      return nil
    end,
    --- naval_targets(target) -> the ships one barrage at `target` hits: the
    --- ship itself, or all the landing craft of its side in its hex (D)
    naval_targets = function(ctx, target)
      local g = ctx.game
      if ctx:query("naval_class", target) ~= "landing_craft" then return { target } end
      local out, side = {}, g:get(target, "side")
      for _, u in ipairs(ctx:query("units_at", ctx:query("unit_hex", target))) do
        if ctx:query("naval_class", u) == "landing_craft" and g:get(u, "side") == side then out[#out + 1] = u end
      end
      return out
    end,
    --- ships_seen(hex, side) -> what the firer sees of side's ships in a
    --- hex before choosing targets: each ship, not its cargo
    ships_seen = function(ctx, hex, side)
      local g = ctx.game
      local out = {}
      for _, u in ipairs(ctx:query("units_at", hex)) do
        if g:get(u, "side") == side and ctx:query("is_ship", u) then
          out[#out + 1] = { unit = u, name = g:get(u, "name"), type = g:get(u, "type"), face = g:get(u, "face"),
                            points = g:get(u, "points"), dg = g:get_marker(u, "DG") > 0,
                            protection = ctx:query("printed", u, "protection") }
        end
      end
      return out
    end,
    --- barrage_multiplier(class, naval) -> what a firer's strength is multiplied by (B: planes x2 against ships)
    barrage_multiplier = function(ctx, class, naval)
      if naval and class == "air" then return ctx.rule.values.plane_multiplier end
      return 1
    end,
    --- protection(target) -> the Protection Rating a barrage is divided by (1 when none is printed)
    protection = function(ctx, target)
      return target and ctx:query("printed", target, "protection") or ctx.rule.values.no_protection
    end,
    --- air_distance_shift(plane, hex) -> columns: the only shift against a
    --- naval target (A). The distance rule is the air chapter's; the stand-in
    --- shifts by the adjustments table's air_distance row when the target is
    --- more than half the plane's range from its base.
    air_distance_shift = function(ctx, plane, hex)
      local from = ctx:query("mission_hex", plane)
      local range = ctx:query("printed", plane, "range")
      if not from or not range then return 0 end
      if keel.hex.distance(from, hex) * 2 > range then
        return ctx:table("barrage_adjustments"):get("air_distance", "effect").value
      end
      return 0
    end,
  },
}

rule {
  id = "18.3d", title = "Naval Damage",
  queries = {
    --- barrage_effect(cell) -> {hits = n, dg = bool}: how a Barrage Table
    --- result reads against a ship ("-": nothing; DG; a number: hits)
    barrage_effect = function(_, cell)
      if cell == nil or cell.kind == "none" then return { hits = 0, dg = false } end
      if cell.kind == "number" then return { hits = cell.value, dg = false } end
      if cell.kind == "code" and cell.code == "DG" then return { hits = 0, dg = true } end
      error(("18.3d: the Barrage Table result '%s' is not one this family reads (-, DG, a number of hits): "
        .. "a scenario with another table wraps the query barrage_effect"):format(tostring(cell.text)), 0)
    end,
  },
  vetoes = {
    -- damaged ships cannot be repaired (whatever rule offers a repair)
    repair = function(ctx, p)
      local u = p.unit
      if u and ctx:query("is_naval", u) then
        return ("18.3d: damaged ships cannot be repaired (%s)"):format(ctx.game:get(u, "name"))
      end
    end,
  },
  on = {
    -- the result of a barrage at a naval target (ships: A and C; landing
    -- craft: B and C, the target chosen at random; coastal artillery: 18.3g C)
    barrage_fired = { function(ctx, ev)
      local plan = ev.plan
      if not plan.naval or not plan.cell then return end
      local g = ctx.game
      local eff = ctx:query("barrage_effect", plan.cell)
      local target = plan.target
      local c = ctx:query("naval_class", target)
      if c == "coastal_artillery" then
        ctx:emit("coastal_artillery_hit", { unit = target, effect = eff })
      elseif c == "landing_craft" then
        local hex, side = ctx:query("unit_hex", target), g:get(target, "side")
        for _ = 1, eff.hits do hit_craft(ctx, hex, side, "barrage") end
        if eff.dg then dg_craft(ctx, hex, side, "barrage") end
      else
        for _ = 1, eff.hits do hit_ship(ctx, target) end
        if eff.dg then dg_ship(ctx, target) end
      end
      if eff.hits == 0 and not eff.dg then ctx:say("no effect on %s", g:get(target, "name")) end
    end, priority = -10 },
  },
}

rule {
  id = "18.3e", title = "Torpedo Bombers",
  queries = {
    --- torpedo_refusal(u, target) -> nil, or why: torpedo bombers (a Barrage
    --- Strength in parentheses: value torpedo) barrage ships only
    torpedo_refusal = function(ctx, u, target)
      if not ctx.game:get_value(u, "torpedo") then return nil end
      if target and ctx:query("is_ship", target) then return nil end
      return ("18.3e: %s is a torpedo bomber: it barrages ships only, never land targets"):format(
        ctx.game:get(u, "name"))
    end,
  },
}

rule {
  id = "18.3f", title = "Ship Flak",
  queries = {
    --- ship_flak(hex, side) -> the Flak of side's ships in the hex (landing craft have none, 18.4)
    ship_flak = function(ctx, hex, side)
      local total = 0
      for _, u in ipairs(ctx:query("units_at", hex)) do
        local c = ctx:query("naval_class", u)
        if ctx.game:get(u, "side") == side and (c == "ship" or c == "carrier") then   -- landing craft: none (18.4)
          total = total + (ctx:query("printed", u, "flak") or 0)
        end
      end
      return total
    end,
  },
  on = {
    -- every air barrage into a hex with enemy ships: their flak joins the flak roll
    barrage_fired = function(ctx, ev)
      local plan = ev.plan
      if #plan.planes == 0 then return end
      local g = ctx.game
      local enemy = nil
      for _, u in ipairs(ctx:query("units_at", plan.hex)) do
        if g:get(u, "side") ~= plan.side then enemy = g:get(u, "side") end
      end
      local flak = enemy and ctx:query("ship_flak", plan.hex, enemy) or 0
      if flak > 0 then ctx:emit("air_flak", { hex = plan.hex, planes = plan.planes, flak = flak }) end
    end,
    -- the flak roll is the air chapter's: the default records what the ships add
    air_flak = { function(ctx, ev)
      if ev.handled then return end
      ev.handled = true
      ctx:emit("record", { kind = "flak", text = ("ship flak %d at %s joins the flak roll against %d air unit(s)")
        :format(ev.flak, ctx:label("hex", ev.hex), #ev.planes) })
    end, priority = -100 },
  },
}

rule {
  id = "18.3g", title = "Coastal Artillery",
  standin = { artillery_barrage_refusal = "chapter 9 (artillery barrage restrictions)",
              barrage_supply_cost = "the supply chapter (a barrage's SP cost)" },
  queries = {
    --- coastal_artillery_refusal(u, naval) -> nil, or why: ground fire by
    --- the normal artillery rules and not in a phase it fires at ships;
    --- ship fire not in a phase it fires at ground targets
    coastal_artillery_refusal = function(ctx, u, naval)
      local g = ctx.game
      if ctx:query("naval_class", u) ~= "coastal_artillery" then return nil end
      local _, _, n = ctx:query("phase")
      local name = g:get(u, "name")
      if g:get_value(u, "ca_fire_phase") == n then
        local kind = g:get_value(u, "ca_fire_kind")
        if naval and kind == "ground" then
          return ("18.3g B: %s fired at a ground target in this phase: no fire at ships"):format(name)
        end
        if not naval and kind == "naval" then
          return ("18.3g B: %s fired at ships in this phase: no fire at ground targets"):format(name)
        end
      end
      if not naval then return ctx:query("artillery_barrage_refusal", u) end
      return nil
    end,
    --- artillery_barrage_refusal(u) -> nil, or why the normal artillery
    --- rules (mode and phase restrictions, limits: chapter 9's) forbid a
    --- ground barrage. The stand-in forbids none; a scenario wraps it.
    artillery_barrage_refusal = function() return nil end,
    --- barrage_supply_cost(u) -> SP a ground barrage by coastal artillery
    --- costs: the normal cost (the supply chapter's). Stand-in: the unit's
    --- value barrage_cost, else 1.
    barrage_supply_cost = function(ctx, u) return ctx:query("printed", u, "barrage_cost") or 1 end,
  },
  on = {
    -- C: a step loss eliminates the coastal artillery unit; a DG is ignored
    coastal_artillery_hit = function(ctx, ev)
      local g = ctx.game
      if ev.effect.hits > 0 then
        g:eliminate(ev.unit)
        ctx:say("%s takes a step loss: eliminated", g:get(ev.unit, "name"))
      elseif ev.effect.dg then
        ctx:say("%s: DG ignored", g:get(ev.unit, "name"))
      end
    end,
    -- B: a ground barrage pays the normal supply; A: fire at ships none
    barrage_fired = function(ctx, ev)
      local plan = ev.plan
      if plan.naval then return end
      local g = ctx.game
      for _, f in ipairs(plan.firers) do
        if ctx:query("naval_class", f) == "coastal_artillery" then
          ctx:emit("supply_spent", { units = { f }, amount = ctx:query("barrage_supply_cost", f),
            why = g:get(f, "name") .. "'s ground barrage (18.3g B)" })
        end
      end
    end,
  },
}

-- ---- helpers shared by the rules of this file ---------------------------------------

-- The whole barrage, checked: {firers, planes, naval, target, targets, hex,
-- side, what, strength, shift, column, cell} | nil, reason. The die is
-- rolled here (once the checks pass) when `roll` is given.
function plan_barrage(ctx, p)
  local g = ctx.game
  local firers = p.units
  if #firers == 0 then return nil, "barrage: name the units that fire" end
  if (p.target == nil) == (p.hex == nil) then return nil, "barrage: name either a naval target or a ground hex" end
  local naval = p.target ~= nil
  local seen, side = {}, g:get(firers[1], "side")
  local plan = { firers = firers, planes = {}, naval = naval, target = p.target, targets = {}, side = side,
                 facility = p.facility }
  for _, f in ipairs(firers) do
    local name = g:get(f, "name")
    if seen[f] then return nil, ("18.3c: the strength of a barraging unit cannot be split (%s named twice)"):format(name) end
    seen[f] = true
    if g:get(f, "side") ~= side then return nil, "barrage: the units that fire together are of one side" end
    local c = ctx:query("naval_class", f)
    if c == "landing_craft" or c == "lst_port" then
      return nil, ("18.4: %s is a landing craft: it has no Barrage Strength"):format(name)
    end
    if c == "ground" then return nil, ("18.3g: %s: coastal artillery is the only ground unit that fires "
      .. "with this order (other artillery barrages by the ground rules)"):format(name) end
    if not ctx:query("unit_hex", f) then return nil, ("barrage: %s is not on the map"):format(name) end
    if c == "air" then
      if g:get_value(f, "inactive") then return nil, ("barrage: %s is Inactive (it flies no mission until refitted)"):format(name) end
      plan.planes[#plan.planes + 1] = f
    end
    if (ctx:query("printed", f, "barrage") or 0) <= 0 then return nil, ("barrage: %s has no Barrage Strength"):format(name) end
  end
  if naval then
    local t = p.target
    if g:get(t, "side") == side then return nil, ("barrage: %s is not an enemy"):format(g:get(t, "name")) end
    plan.hex = ctx:query("unit_hex", t)
    if not plan.hex then return nil, ("barrage: %s is not on the map"):format(g:get(t, "name")) end
    local why = ctx:query("naval_target_refusal", firers, t)
    if why then return nil, why end
    if ctx:query("naval_class", t) == "coastal_artillery" then
      for _, f in ipairs(firers) do
        local c = ctx:query("naval_class", f)
        if c ~= "ship" and c ~= "carrier" then
          return nil, ("18.3g C: only ships fire at coastal artillery as a naval target (%s is not a ship)")
            :format(g:get(f, "name"))
        end
      end
    end
    plan.targets = ctx:query("naval_targets", t)
    plan.what = ("at %s (%s)"):format(g:get(t, "name"), ctx:label("hex", plan.hex))
  else
    plan.hex = p.hex
    local why = ctx:query("ground_target_refusal", side, p.hex, p.facility)
    if why then return nil, why end
    plan.what = ("at %s %s"):format(p.facility or "the ground units of", ctx:label("hex", p.hex))
  end
  for _, f in ipairs(firers) do
    local why = ctx:query("firer_refusal", f, naval) or ctx:query("torpedo_refusal", f, p.target)
      or ctx:query("coastal_artillery_refusal", f, naval)
    if why then return nil, why end
    local from = ctx:query("naval_class", f) == "air" and ctx:query("mission_hex", f) or ctx:query("unit_hex", f)
    local range = ctx:query("printed", f, "range") or 0
    local d = keel.hex.distance(from, plan.hex)
    if d > range then
      return nil, ("18.3a: %s at %s is out of range (%d hexes, range %d)"):format(g:get(f, "name"),
        ctx:label("hex", from), d, range)
    end
  end
  plan.strength, plan.shift = strength_of(ctx, plan)
  return plan
end

-- Domains of the barrage's parameters (keel.legal): cheap supersets in id
-- order, every candidate then checked by plan_barrage and the vetoes.
local FIRES = { ship = true, carrier = true, air = true, coastal_artillery = true }
local NAVAL_TARGET = { ship = true, carrier = true, landing_craft = true, coastal_artillery = true }

-- the units of `side` (nil: the side of the Barrage Segment) that may fire
-- in this segment: a firing class, a Barrage Strength, on the map
function firer_domain(ctx, side)
  local g = ctx.game
  local seg_side = ctx:query("barrage_segment")
  if seg_side == nil then return nil, "18.3a: barrages are fired in a friendly Barrage Segment (none is in progress)" end
  side = side or seg_side
  local out = {}
  for _, u in ipairs(side ~= nil and g:units { side = side } or {}) do
    if FIRES[ctx:query("naval_class", u)]
      and (ctx:query("printed", u, "barrage") or 0) > 0 and ctx:query("unit_hex", u)
      and not ctx:query("firer_refusal", u, true) then
      out[#out + 1] = { value = u, label = g:get(u, "name") }
    end
  end
  return out, ("18.3a: no unit of %s may barrage in this segment"):format(side)
end

-- where a firer fires from and how far it reaches
local function reach_of(ctx, f)
  local from = ctx:query("naval_class", f) == "air" and ctx:query("mission_hex", f) or ctx:query("unit_hex", f)
  return from, ctx:query("printed", f, "range") or 0
end

-- the enemy naval targets within the firer's range, in id order; the
-- landing craft of a hex are one target (18.3c D): the first of them stands for all
local function naval_targets_of(ctx, f)
  local g = ctx.game
  local from, range = reach_of(ctx, f)
  local side, out, craft_hexes = g:get(f, "side"), {}, {}
  if not from then return out end
  for _, u in ipairs(g:units()) do
    local c = ctx:query("naval_class", u)
    if g:get(u, "side") ~= side and NAVAL_TARGET[c] then
      local h, kind = ctx:query("unit_hex", u)
      if h and g:get(u, "loc") == kind and keel.hex.distance(from, h) <= range then
        if c ~= "landing_craft" then
          out[#out + 1] = { value = u, label = g:get(u, "name") }
        elseif not craft_hexes[h] then
          craft_hexes[h] = true
          out[#out + 1] = { value = u, label = ("the landing craft at %s"):format(ctx:label("hex", h)) }
        end
      end
    end
  end
  return out
end

function naval_target_domain(ctx, f)
  return naval_targets_of(ctx, f), ("18.3a: no enemy naval target within %s's range"):format(ctx.game:get(f, "name"))
end

-- the hexes of enemy ground units, and of facilities its side does not
-- own, within the firer's range, in hex id order
function ground_hex_domain(ctx, f)
  local g = ctx.game
  local from, range = reach_of(ctx, f)
  if not from then return nil, "the firer is not on the map" end
  local side, seen, hexes = g:get(f, "side"), {}, {}
  for _, u in ipairs(g:units()) do
    local c = ctx:query("naval_class", u)
    if g:get(u, "side") ~= side and (c == "ground" or c == "coastal_artillery") then
      local h, kind = ctx:query("unit_hex", u)
      if h and g:get(u, "loc") == kind and not seen[h] and keel.hex.distance(from, h) <= range then
        seen[h] = true
        hexes[#hexes + 1] = h
      end
    end
  end
  for _, h in ipairs(keel.hex.spiral(from, range)) do
    if not seen[h] and #ctx:query("facilities_at", h) > 0 and g:get_owner(h) ~= side then
      seen[h] = true
      hexes[#hexes + 1] = h
    end
  end
  table.sort(hexes)
  local out = {}
  for i, h in ipairs(hexes) do out[i] = { value = h, label = ctx:label("hex", h) } end
  return out, ("18.3b: no enemy ground units or facilities within %s's range"):format(g:get(f, "name"))
end

-- the facilities of the hex (18.3b): barraged without the reduction against units
function facility_domain(ctx, hex)
  return ctx:query("facilities_at", hex), ("18.3b: no facility at %s"):format(ctx:label("hex", hex))
end

-- The barrage's strength and column shift, from its units: the sums by
-- kind go to the query barrage_strength; the only shift is the aircraft's
-- distance (18.3c A), the largest among the planes.
function strength_of(ctx, plan)
  local spec = { ships = 0, planes = 0, others = 0, naval = plan.naval, facility = plan.facility ~= nil }
  for _, f in ipairs(plan.firers) do
    local s = ctx:query("printed", f, "barrage")
    local c = ctx:query("naval_class", f)
    if c == "ship" or c == "carrier" then spec.ships = spec.ships + s
    elseif c == "air" then spec.planes = spec.planes + s
    else spec.others = spec.others + s end
  end
  if plan.naval then spec.protection = ctx:query("protection", plan.target) end
  local strength = ctx:query("barrage_strength", spec)
  local shift = 0
  for _, pl in ipairs(plan.planes) do
    local s = ctx:query("air_distance_shift", pl, plan.hex)
    if s < shift then shift = s end
  end
  return strength, shift
end

-- 18.3d A: a hit flips a ship to its damaged side, a second sinks it; then a DG.
function hit_ship(ctx, u)
  local g = ctx.game
  if g:get(u, "loc") == "dead" then return end
  if g:get(u, "face") ~= "damaged" then
    g:flip(u, "damaged")
    ctx:say("%s is hit: flipped to its damaged side", g:get(u, "name"))
    dg_ship(ctx, u)
  else
    g:eliminate(u)
    ctx:say("%s is hit again: sunk", g:get(u, "name"))
  end
end

-- 18.3d C: a first DG does no damage; a second removes the marker and hits.
function dg_ship(ctx, u)
  local g = ctx.game
  if g:get(u, "loc") == "dead" then return end
  if ctx:query("is_dg", u) then
    g:remove_marker(u, "DG")
    ctx:say("%s: a second DG: the marker comes off and a hit is applied", g:get(u, "name"))
    hit_ship(ctx, u)
  else
    g:add_marker(u, "DG", 1)
    ctx:say("%s is DG", g:get(u, "name"))
  end
end

-- 18.3d B: a hit on landing craft takes one point off a craft chosen at
-- random (the important note), then a DG to all the landing craft in the hex.
function hit_craft(ctx, hex, side, why)
  local g = ctx.game
  local stack = {}
  for _, u in ipairs(ctx:query("units_at", hex)) do
    if ctx:query("naval_class", u) == "landing_craft" and g:get(u, "side") == side then stack[#stack + 1] = u end
  end
  if #stack == 0 then return end
  local u = ctx:pick(stack, { reason = "which landing craft is hit (18.3d)" })
  ctx:emit("craft_loss", { unit = u, points = 1, reason = why })
  dg_craft(ctx, hex, side, why)
end

-- 18.3c D, 18.3d C: the landing craft of a hex take DG as one ship.
function dg_craft(ctx, hex, side, why)
  local g = ctx.game
  local stack, dg = {}, false
  for _, u in ipairs(ctx:query("units_at", hex)) do
    if ctx:query("naval_class", u) == "landing_craft" and g:get(u, "side") == side then
      stack[#stack + 1] = u
      if ctx:query("is_dg", u) then dg = true end
    end
  end
  if #stack == 0 then return end
  if dg then
    for _, u in ipairs(stack) do g:remove_marker(u, "DG") end
    ctx:say("the landing craft at %s: a second DG: the markers come off and a hit is applied", ctx:label("hex", hex))
    hit_craft(ctx, hex, side, why)
  else
    for _, u in ipairs(stack) do g:add_marker(u, "DG", 1) end
    ctx:say("the landing craft at %s are DG", ctx:label("hex", hex))
  end
end

-- Amphibious Assault Ships (002_37d6fae90ae806a5.txt, "Amphibious Assault
-- Ships"): the five unit characteristics, in the text's order. The printed
-- values (cost 10+/6+, attack 0, defense 1, move 2) are the `assault_ship`
-- row of sea_units.tbl (units.amphibious-assault-ships).
--
-- Cargo is at location `unit` (the ship). Per-turn facts (values stamped
-- with the turn): a land unit's `moved_turn` (loading or offloading is its
-- whole move), `loaded_turn` and `loaded_phase` (combat | noncombat); a
-- ship's `offloaded_turn` and `offloaded_to` (the territory), and
-- `retreated_turn` (set by the General Combat stand-in).
--
-- The paragraph on friendly powers' land units follows the sitrep paragraph
-- in the text but is about any cargo: it is read here as part of "Carry Land
-- Units as cargo", with the paragraph after it ("Loading onto and/or
-- offloading ... counts as a land unit's entire move").

local cargo_problem, land_cargo, offload_legal, offload_effect, in_hostile_zone, helicopter_cargo
local ships_domain, shores_domain, combat_cargo, moves_left, assault_zone_within, next_to, noncombat_escape

rule {
  id = "units.amphibious-assault-ships.combat-value", title = "Combat Value",
  on = {
    -- defense 1, attack 0: it never fires in the attacking units' fire steps
    may_fire = function(ctx, ev)
      if ctx.game:get(ev.unit, "type") == "assault_ship" and ctx.game:get_value(ev.unit, "battle_role") == "attacker" then
        ev.fires = false
      end
    end,
  },
}

rule {
  id = "units.amphibious-assault-ships.carry-land-units-as-cargo", title = "Carry Land Units as cargo",
  values = {
    -- any one land unit plus one additional infantry
    capacity = 2, extra_type = "infantry",
    never = { industrial_complex = true, airbase = true, naval_base = true },
  },
  queries = {
    -- why `unit` may not go aboard `ship` (capacity and kind), or nil
    assault_cargo_problem = function(ctx, ship, unit) return cargo_problem(ctx, ship, unit) end,
  },
  actions = {
    -- a land unit of the power whose turn it is, in a territory next to the ship's sea zone, loads
    embark = {
      phases = { "combat_move", "noncombat_move" },
      params = {
        unit = { type = "unit", domain = function(ctx, _, side) return ctx:query("turn_units", side, "land", "zone") end },
        ship = { type = "unit", depends = { "unit" }, domain = function(ctx, p)
          return ships_domain(ctx, ctx.game:get(p.unit, "side"), false)
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        if g:get(p.ship, "type") ~= "assault_ship" then
          return ("%s is not an amphibious assault ship"):format(ctx:query("unit_label", p.ship))
        end
        local ph = g:get_phase()
        if ph ~= "combat_move" and ph ~= "noncombat_move" then return "cargo loads in Combat Move or Noncombat Move" end
        local why = cargo_problem(ctx, p.ship, p.unit)
        if why then return why end
        if g:get(p.unit, "side") ~= g:get(p.ship, "side") then return "the ship is not friendly" end
        if ctx:query("power_of", p.unit) ~= g:get_global("power") then
          return ("%s belongs to %s: it loads on its controller's turn"):format(ctx:query("unit_label", p.unit),
            ctx:query("power_of", p.unit))
        end
        if g:get_value(p.unit, "moved_turn") == ctx:query("this_turn") then
          return ("%s has moved this turn: loading is a land unit's entire move"):format(ctx:query("unit_label", p.unit))
        end
        local kind, at = g:get(p.unit, "loc")
        local sz = ctx:query("area_of", p.ship)
        if kind ~= "zone" or not ctx:query("is_territory", at) or not ctx:query("adjacent", at, sz) then
          return ("%s is not in a territory next to %s"):format(ctx:query("unit_label", p.unit), ctx:query("area_name", sz))
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        g:move(p.unit, "unit", p.ship)
        g:set_value(p.unit, "moved_turn", ctx:query("this_turn"))
        g:set_value(p.unit, "loaded_turn", ctx:query("this_turn"))
        g:set_value(p.unit, "loaded_phase", g:get_phase() == "combat_move" and "combat" or "noncombat")
        ctx:say("%s loads onto %s", ctx:query("unit_label", p.unit), ctx:query("unit_label", p.ship))
      end,
    },
  },
  vetoes = {
    -- a friendly power's land units offload on a later turn of their controller
    offload = function(ctx, p)
      local g = ctx.game
      for _, u in ipairs(land_cargo(ctx, p)) do
        local owner = ctx:query("power_of", u)
        if owner ~= g:get_global("power") then
          return ("%s belongs to %s: it offloads on its controller's turn"):format(ctx:query("unit_label", u), owner)
        end
        if owner ~= ctx:query("power_of", p.ship) and g:get_value(u, "loaded_turn") == ctx:query("this_turn") then
          return ("%s loaded this turn onto a friendly power's ship: it offloads on a later turn of its controller"):format(
            ctx:query("unit_label", u))
        end
      end
    end,
  },
}

rule {
  id = "units.amphibious-assault-ships.marine-transport-by-helicopters", title = "Marine transport by helicopters (sitrep)",
  values = { types = { special_force = true, lav = true, artillery = true }, capacity = 1 },
  notes = "An optional (sitrep) rule: in play when the global sitrep_marine_transport is true.",
  actions = {
    -- a helicopter picks up one special force, LAV or artillery unit in its area, or from an
    -- amphibious assault ship in its sea zone
    heli_embark = {
      -- domains (keel.legal): the side's units a helicopter may carry, in
      -- an area or aboard an assault ship; the friendly helicopters of the
      -- power whose turn it is in that area (the sitrep is checked by the rule)
      params = {
        unit = { type = "unit", domain = function(ctx, _, side)
          local g, out = ctx.game, {}
          for _, u in ipairs(g:units { side = side }) do
            local kind, where = g:get(u, "loc")
            if ctx.rule.values.types[g:get(u, "type")]
                and (kind == "zone" or (kind == "unit" and g:get(where, "type") == "assault_ship")) then
              out[#out + 1] = { value = u, label = g:get(u, "name") }
            end
          end
          return out, "no special force, LAV or artillery unit of the side in play"
        end },
        helicopter = { type = "unit", depends = { "unit" }, domain = function(ctx, p)
          local g, out = ctx.game, {}
          local at = ctx:query("area_of", p.unit)
          for _, c in ipairs(ctx:query("turn_units", g:get(p.unit, "side"), "air")) do
            if g:get(c.value, "type") == "helicopter" and ctx:query("area_of", c.value) == at then out[#out + 1] = c end
          end
          return out, "no helicopter of the power whose turn it is in the unit's area"
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        if g:get_global("sitrep_marine_transport") ~= true then return "the marine-transport sitrep is not in play" end
        if g:get(p.helicopter, "type") ~= "helicopter" then
          return ("%s is not a helicopter"):format(ctx:query("unit_label", p.helicopter))
        end
        if not ctx.rule.values.types[g:get(p.unit, "type")] then
          return ("a helicopter carries one special force, LAV or artillery unit, not %s"):format(g:get(p.unit, "type"))
        end
        if #helicopter_cargo(ctx, p.helicopter) >= ctx.rule.values.capacity then return "the helicopter carries one unit" end
        if ctx:query("power_of", p.helicopter) ~= g:get_global("power") then return "your helicopters act as transports on your turn" end
        if g:get(p.unit, "side") ~= g:get(p.helicopter, "side") then return "not a friendly unit" end
        local hz = ctx:query("area_of", p.helicopter)
        local kind, where = g:get(p.unit, "loc")
        if kind == "zone" and where == hz then return nil end
        if kind == "unit" and g:get(where, "type") == "assault_ship" and ctx:query("area_of", where) == hz then return nil end
        return ("%s is neither in the helicopter's area nor aboard an amphibious assault ship there"):format(
          ctx:query("unit_label", p.unit))
      end,
      effect = function(ctx, p)
        ctx.game:move(p.unit, "unit", p.helicopter)
        ctx:say("%s picks up %s", ctx:query("unit_label", p.helicopter), ctx:query("unit_label", p.unit))
      end,
    },
    -- it puts the unit down in the territory it is in, or aboard an amphibious assault ship
    -- in its sea zone (the fleet)
    heli_offload = {
      -- domains (keel.legal): the side's units carried by helicopters; over
      -- a sea zone, the assault ships there (over a territory, none: put down there)
      params = {
        unit = { type = "unit", domain = function(ctx, _, side)
          local g, out = ctx.game, {}
          for _, u in ipairs(g:units { loc = "unit", side = side }) do
            local _, where = g:get(u, "loc")
            if g:get(where, "type") == "helicopter" then
              out[#out + 1] = { value = u, label = g:get(u, "name") }
            end
          end
          return out, "no unit of the side is carried by a helicopter"
        end },
        ship = { type = "unit", optional = true, depends = { "unit" }, domain = function(ctx, p)
          local z = ctx:query("area_of", p.unit)
          if not z or not ctx:query("is_sea_zone", z) then return nil, "over a territory the unit is put down there" end
          local out = {}
          for _, c in ipairs(ships_domain(ctx, ctx.game:get(p.unit, "side"), false)) do
            if ctx:query("area_of", c.value) == z then out[#out + 1] = c end
          end
          return out, "no amphibious assault ship in the helicopter's sea zone"
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        if g:get_global("sitrep_marine_transport") ~= true then return "the marine-transport sitrep is not in play" end
        local kind, h = g:get(p.unit, "loc")
        if kind ~= "unit" or g:get(h, "type") ~= "helicopter" then
          return ("%s is not carried by a helicopter"):format(ctx:query("unit_label", p.unit))
        end
        if ctx:query("power_of", h) ~= g:get_global("power") then return "your helicopters act as transports on your turn" end
        local z = ctx:query("area_of", h)
        if p.ship then
          if g:get(p.ship, "type") ~= "assault_ship" or ctx:query("area_of", p.ship) ~= z then
            return "the ship must be an amphibious assault ship in the helicopter's sea zone"
          end
          return ctx:query("assault_cargo_problem", p.ship, p.unit)
        end
        if not ctx:query("is_territory", z) then return "over a sea zone, name the amphibious assault ship (ship =)" end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local _, h = g:get(p.unit, "loc")
        if p.ship then g:move(p.unit, "unit", p.ship)
        else g:move(p.unit, "zone", ctx:query("area_of", h)) end
        ctx:say("%s puts %s down %s", ctx:query("unit_label", h), ctx:query("unit_label", p.unit),
          p.ship and ("aboard " .. ctx:query("unit_label", p.ship)) or ("in " .. ctx:query("area_name", ctx:query("area_of", h))))
      end,
    },
  },
}

rule {
  id = "units.amphibious-assault-ships.loading-and-offloading", title = "Loading and Offloading",
  actions = {
    -- offload `units` (default: all its cargo of the power whose turn it is) into territory `to`
    offload = {
      phases = { "conduct_combat", "noncombat_move" },
      params = {
        ship = { type = "unit", domain = function(ctx, _, side) return ships_domain(ctx, side, true) end },
        to = { type = "string", depends = { "ship" }, domain = function(ctx, p) return shores_domain(ctx, p.ship) end },
        -- some of its cargo (left out: all of the power's)
        units = { type = "units", optional = true, depends = { "ship" }, domain = function(ctx, p)
          local out = {}
          for _, u in ipairs(ctx.game:cargo(p.ship)) do out[#out + 1] = { value = u, label = ctx.game:get(u, "name") } end
          return out, "the ship carries nothing"
        end },
      },
      legal = function(ctx, p) return offload_legal(ctx, p) end,
      effect = function(ctx, p) return offload_effect(ctx, p) end,
    },
  },
  vetoes = {
    embark = function(ctx, p)
      local g = ctx.game
      if g:get(p.ship, "type") ~= "assault_ship" then return nil end
      if in_hostile_zone(ctx, p.ship) then
        return ("%s is in a hostile sea zone: it cannot load there"):format(ctx:query("unit_label", p.ship))
      end
      if g:get_value(p.ship, "offloaded_turn") == ctx:query("this_turn") then
        return ("%s offloaded this turn: it cannot move, load or offload again"):format(ctx:query("unit_label", p.ship))
      end
    end,
    move = function(ctx, p)
      local g = ctx.game
      for _, u in ipairs(p.units) do
        if g:get(u, "type") == "assault_ship" and g:get_value(u, "offloaded_turn") == ctx:query("this_turn") then
          return ("%s offloaded this turn: it cannot move again"):format(ctx:query("unit_label", u))
        end
      end
    end,
    -- cargo stays aboard at the end of the turn only if it was loaded on an earlier turn, or in
    -- this turn's Noncombat Move
    end_phase = function(ctx)
      local g = ctx.game
      if g:get_phase() ~= "noncombat_move" then return nil end
      for _, s in ipairs(g:units { type = "assault_ship" }) do
        if g:get_value(s, "retreated_turn") ~= ctx:query("this_turn") then
          for _, u in ipairs(g:cargo(s)) do
            if g:get_value(u, "loaded_turn") == ctx:query("this_turn") and g:get_value(u, "loaded_phase") == "combat" then
              return ("%s still carries %s, loaded in this turn's Combat Move: it cannot remain at sea with it"):format(
                ctx:query("unit_label", s), ctx:query("unit_label", u))
            end
          end
        end
      end
    end,
  },
}

rule {
  id = "units.amphibious-assault-ships.amphibious-assaults", title = "Amphibious Assaults",
  vetoes = {
    -- cargo loaded in Combat Move cannot remain at sea: it goes ashore in an amphibious
    -- assault (or the ship retreats), or into a friendly territory in Noncombat Move. A ship
    -- carrying it keeps one of those within reach: its combat moves end where an assault
    -- zone is still reachable or next to a friendly territory, its noncombat moves next to
    -- a friendly territory
    move = function(ctx, p)
      local g = ctx.game
      local ph = g:get_phase()
      if (ph ~= "combat_move" and ph ~= "noncombat_move") or #p.path == 0 then return nil end
      local to = ctx:query("area_index", p.path[#p.path])
      if not to then return nil end
      for _, s in ipairs(p.units) do
        local u = combat_cargo(ctx, s)
        if u then
          local side = g:get(s, "side")
          local ok = next_to(ctx, to, side, true)
            or (ph == "combat_move" and assault_zone_within(ctx, s, to, moves_left(ctx, s) - #p.path))
          if not ok then
            return ("%s carries %s, loaded in Combat Move: from %s it could neither assault a hostile territory nor "
              .. "offload into a friendly one this turn"):format(ctx:query("unit_label", s), ctx:query("unit_label", u),
              p.path[#p.path])
          end
        end
      end
    end,
    -- only in an amphibious assault (Conduct Combat) into a hostile territory; then it offloads
    -- everything it loaded in Combat Move, and only units of its own power already aboard besides
    offload = function(ctx, p)
      local g = ctx.game
      local t = ctx:query("area_index", p.to)
      if not t or not ctx:query("is_territory", t) then return nil end
      local hostile = ctx:query("owner_of", t) ~= g:get(p.ship, "side")
      if g:get_phase() ~= "conduct_combat" then
        if hostile then
          return ("%s is hostile: an amphibious assault ship offloads into a hostile territory only in an amphibious "
            .. "assault (Conduct Combat)"):format(p.to)
        end
        -- one offload a turn, and cargo loaded in Combat Move cannot remain at sea: it goes too
        local chosen = {}
        for _, u in ipairs(land_cargo(ctx, p)) do chosen[u] = true end
        for _, u in ipairs(g:cargo(p.ship)) do
          if not chosen[u] and g:get_value(u, "loaded_turn") == ctx:query("this_turn")
              and g:get_value(u, "loaded_phase") == "combat" then
            return ("%s was loaded in Combat Move and cannot remain at sea: it is offloaded with the rest"):format(
              ctx:query("unit_label", u))
          end
        end
        return nil
      end
      if not hostile then return ("in Conduct Combat, offloading is an amphibious assault: %s is friendly"):format(p.to) end
      local chosen = {}
      for _, u in ipairs(land_cargo(ctx, p)) do chosen[u] = true end
      for _, u in ipairs(g:cargo(p.ship)) do
        local combat_loaded = g:get_value(u, "loaded_turn") == ctx:query("this_turn") and g:get_value(u, "loaded_phase") == "combat"
        if combat_loaded and not chosen[u] then
          return ("%s was loaded in Combat Move: the ship offloads it in the assault (or retreats)"):format(ctx:query("unit_label", u))
        end
        if chosen[u] and not combat_loaded and ctx:query("power_of", u) ~= ctx:query("power_of", p.ship) then
          return ("%s is a friendly power's unit: only the ship's power's units aboard since the start of the turn "
            .. "join the assault"):format(
            ctx:query("unit_label", u))
        end
      end
    end,
    -- Combat Move ends with every ship carrying cargo it loaded in Combat Move next to a hostile
    -- territory; Conduct Combat ends with that cargo ashore, unless the ship retreated
    end_phase = function(ctx)
      local g = ctx.game
      if g:get_phase() == "combat_move" then
        for _, s in ipairs(g:units()) do
          local z = ctx:query("area_of", s)
          if z and combat_cargo(ctx, s) and not next_to(ctx, z, g:get(s, "side"), false) and not noncombat_escape(ctx, s) then
            return ("%s carries %s, loaded in Combat Move: it ends its combat move next to the hostile territory it "
              .. "assaults"):format(ctx:query("unit_label", s), ctx:query("unit_label", combat_cargo(ctx, s)))
          end
        end
        return nil
      end
      if g:get_phase() ~= "conduct_combat" then return nil end
      for _, s in ipairs(g:units()) do
        if combat_cargo(ctx, s) and g:get_value(s, "retreated_turn") ~= ctx:query("this_turn")
            and g:get_value(s, "sea_combat_turn") ~= ctx:query("this_turn") and not noncombat_escape(ctx, s) then
          return ("%s must offload %s (loaded in Combat Move) in the amphibious assault: it could not offload into a "
            .. "friendly territory in Noncombat Move"):format(ctx:query("unit_label", s),
            ctx:query("unit_label", combat_cargo(ctx, s)))
        end
        if g:get(s, "type") == "assault_ship" and g:get_value(s, "retreated_turn") ~= ctx:query("this_turn")
            and g:get_value(s, "sea_combat_turn") == ctx:query("this_turn") then
          for _, u in ipairs(g:cargo(s)) do
            if g:get_value(u, "loaded_turn") == ctx:query("this_turn") and g:get_value(u, "loaded_phase") == "combat" then
              return ("%s must offload %s (loaded in Combat Move) in the amphibious assault, or have retreated"):format(
                ctx:query("unit_label", s), ctx:query("unit_label", u))
            end
          end
        end
      end
    end,
  },
}

-- ---- helpers of the amphibious assault ship rules ------------------------------------------

-- the land units an offload order moves: those named, else all the ship's cargo
function land_cargo(ctx, p)
  if p.units then return p.units end
  local g = ctx.game
  local out = {}
  for _, u in ipairs(g:cargo(p.ship)) do
    if ctx:query("power_of", u) == g:get_global("power") then out[#out + 1] = u end
  end
  return out
end

function helicopter_cargo(ctx, h) return ctx.game:cargo(h) end

-- the first unit aboard assault ship `s` that was loaded in this turn's Combat Move, or nil
function combat_cargo(ctx, s)
  local g = ctx.game
  if g:get(s, "type") ~= "assault_ship" or g:get(s, "loc") ~= "zone" then return nil end
  for _, u in ipairs(g:cargo(s)) do
    if g:get_value(u, "loaded_turn") == ctx:query("this_turn") and g:get_value(u, "loaded_phase") == "combat" then
      return u
    end
  end
  return nil
end

-- the sea zones a ship may still move this turn
function moves_left(ctx, s)
  return ctx:query("allowance", s) - ctx:query("zones_moved", s)
end

-- is sea zone z next to a territory friendly (`friendly` true) or hostile to `side`?
function next_to(ctx, z, side, friendly)
  for _, n in ipairs(ctx.game.board:zone_neighbors(ctx:query("area_name", z)) or {}) do
    local t = ctx:query("area_index", n)
    if t and ctx:query("is_territory", t) and (ctx:query("owner_of", t) == side) == friendly then return true end
  end
  return false
end

-- can ship s still offload into a friendly territory in Noncombat Move: next to one, or (not
-- moved in Combat Move) within the sea zones it may still move?
function noncombat_escape(ctx, s)
  local g = ctx.game
  local z, side = ctx:query("area_of", s), g:get(s, "side")
  if not z then return false end
  if next_to(ctx, z, side, true) then return true end
  if g:get_value(s, "moved_turn") == ctx:query("this_turn") and g:get_value(s, "moved_phase") == "combat" then return false end
  local left = moves_left(ctx, s)
  for i in ipairs(g.board:zones()) do
    if ctx:query("is_sea_zone", i) and left > 0 and next_to(ctx, i, side, true) and ctx:query("sea_distance", z, i, side, left) then
      return true
    end
  end
  return false
end

-- a sea zone next to a territory hostile to the ship's side that it reaches from `from` within
-- `left` sea zones (`from` itself included), or nil
function assault_zone_within(ctx, s, from, left)
  local g = ctx.game
  local side = g:get(s, "side")
  for i, name in ipairs(g.board:zones()) do
    if ctx:query("is_sea_zone", i) and (i == from or (left > 0 and ctx:query("sea_distance", from, i, side, left))) then
      for _, n in ipairs(g.board:zone_neighbors(name) or {}) do
        local t = ctx:query("area_index", n)
        if t and ctx:query("is_territory", t) and ctx:query("owner_of", t) ~= side then return i end
      end
    end
  end
  return nil
end

function in_hostile_zone(ctx, ship)
  local z = ctx:query("area_of", ship)
  return z ~= nil and ctx:query("is_hostile", z, ctx.game:get(ship, "side"))
end

-- any one land unit plus one infantry; never a facility (called with carry-land-units' ctx)
function cargo_problem(ctx, ship, unit)
  local g = ctx.game
  local t = g:get(unit, "type")
  local class = ctx:query("class_of", unit)
  if ctx.rule.values.never[t] or class == "facility" then
    return ("an amphibious assault ship cannot carry an industrial complex, an airbase or a naval base (%s)"):format(t)
  end
  if class ~= "land" then return ("an amphibious assault ship carries only land units, not %s"):format(t) end
  local aboard = {}
  for _, c in ipairs(g:cargo(ship)) do
    if ctx:query("class_of", c) == "land" then aboard[#aboard + 1] = g:get(c, "type") end
  end
  aboard[#aboard + 1] = t
  if #aboard > ctx.rule.values.capacity then
    return ("%s is full: any one land unit plus one infantry"):format(ctx:query("unit_label", ship))
  end
  local others = 0
  for _, ty in ipairs(aboard) do if ty ~= ctx.rule.values.extra_type then others = others + 1 end end
  if others > 1 then
    return ("%s carries any one land unit plus one infantry: not two non-infantry units"):format(ctx:query("unit_label", ship))
  end
  return nil
end

function offload_legal(ctx, p)
  local g = ctx.game
  if g:get(p.ship, "type") ~= "assault_ship" then
    return ("%s is not an amphibious assault ship"):format(ctx:query("unit_label", p.ship))
  end
  local ph = g:get_phase()
  if ph ~= "conduct_combat" and ph ~= "noncombat_move" then
    return "cargo offloads in an amphibious assault (Conduct Combat) or in Noncombat Move"
  end
  local t = ctx:query("area_index", p.to)
  if not t then return ("'%s' is not an area of the map"):format(p.to) end
  if not ctx:query("is_territory", t) then
    return ("%s is a sea zone: an amphibious assault ship offloads into a territory, never onto another "
      .. "amphibious assault ship"):format(p.to)
  end
  local z = ctx:query("area_of", p.ship)
  if not ctx:query("adjacent", z, t) then return ("%s is not next to %s"):format(p.to, ctx:query("area_name", z)) end
  if in_hostile_zone(ctx, p.ship) then
    return ("%s is in a hostile sea zone (%s): it cannot offload there"):format(ctx:query("unit_label", p.ship), ctx:query("area_name", z))
  end
  if g:get_value(p.ship, "retreated_turn") == ctx:query("this_turn") then
    return ("%s retreated this turn: it cannot offload"):format(ctx:query("unit_label", p.ship))
  end
  if g:get_value(p.ship, "offloaded_turn") == ctx:query("this_turn") then
    local before = ctx:query("area_name", g:get_value(p.ship, "offloaded_to"))
    return ("%s already offloaded into %s this turn: one offload, in one territory, a turn"):format(ctx:query("unit_label", p.ship), before)
  end
  local list = land_cargo(ctx, p)
  if #list == 0 then return "nothing to offload" end
  for _, u in ipairs(list) do
    local kind, where = g:get(u, "loc")
    if kind ~= "unit" or where ~= p.ship then
      return ("%s is not aboard %s"):format(ctx:query("unit_label", u), ctx:query("unit_label", p.ship))
    end
  end
end

function offload_effect(ctx, p)
  local g = ctx.game
  local t = ctx:query("area_index", p.to)
  local turn = ctx:query("this_turn")
  local assault = g:get_phase() == "conduct_combat"
  for _, u in ipairs(land_cargo(ctx, p)) do
    g:move(u, "zone", t)
    g:set_value(u, "moved_turn", turn)
    g:set_value(u, "offloaded_turn", turn)
    g:set_value(u, "offloaded_to", t)
    if assault then g:set_value(u, "assault_turn", turn) end
  end
  g:set_value(p.ship, "offloaded_turn", turn)
  g:set_value(p.ship, "offloaded_to", t)
  ctx:say("%s offloads into %s%s", ctx:query("unit_label", p.ship), p.to, assault and " (amphibious assault)" or "")
end

-- ---- parameter domains (keel.legal) ------------------------------------------------

-- the amphibious assault ships of `side` (any: nil) in sea zones; laden ones only, when `laden`
function ships_domain(ctx, side, laden)
  local g = ctx.game
  local out = {}
  for _, s in ipairs(g:units { type = "assault_ship", loc = "zone", side = side }) do
    if not laden or #g:cargo(s) > 0 then
      out[#out + 1] = { value = s, label = g:get(s, "name") }
    end
  end
  return out, laden and "no laden amphibious assault ship" or "no amphibious assault ship"
end

-- the territories next to the ship's sea zone
function shores_domain(ctx, ship)
  local z = ctx:query("area_of", ship)
  local out = {}
  for _, n in ipairs(z and ctx.game.board:zone_neighbors(ctx:query("area_name", z)) or {}) do
    if ctx:query("is_territory", ctx:query("area_index", n)) then out[#out + 1] = n end
  end
  return out, "no territory next to the ship"
end

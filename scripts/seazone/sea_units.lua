-- units.sea-units — the opening section of 002_37d6fae90ae806a5.txt ("Sea
-- Units"): sea units move, attack and defend in sea zones and never enter
-- territories; which of them are surface warships; two sea zones a turn,
-- three when departing from a zone an operative friendly naval base serves;
-- hostile sea zones (enemy units other than submarines) end movement and
-- start combat; which units carry what (the carrying rules themselves are in
-- carriers.lua and assault_ships.lua).
--
-- This rule owns the definitions the other rules of the family share, as
-- queries: areas (sea zones and territories), where a unit is, its power and
-- side, its printed values, hostile zones, movement allowance. The `move`
-- action moves a fleet along a path of sea zones.
--
-- Game data (doc/seazone.md): a unit's side is its alliance ("Allies" or
-- "Opfor"), its value `power` the power that owns it (default: the side);
-- areas are the board's zones, by 1-based index; a unit in an area is at
-- location `zone`, cargo is at `unit`; per-turn facts are values stamped
-- with the power's turn (`moved_turn`, `zones_moved`, `attacking_turn` ...):
-- the query `this_turn`, which reads the sequence of play's globals.

-- helpers, defined after the rule (rule first, as the text reads)
local area_kinds, area_index, area_name, adjacent, unit_data, area_of, units_in, power_of, owner_of
local label, may_carry, hostile_units, zones_moved, allowance, move_legal, move_effect, sea_distance
local turn_units, movers_domain, paths_domain, attack_domain, this_turn, find_unit_data, copy

rule {
  id = "units.sea-units", title = "Sea Units",
  values = {
    -- the opening paragraphs' numbers (the printed Move is in sea_units.tbl)
    base_move = 3,          -- "You can move these ships 3 sea zones when departing from the naval base location"
    surface_warships = { carrier = true, cruiser = true, frigate = true, destroyer = true, assault_ship = true },
    warships_not_surface = { submarine = true },
    -- what carries what: "Amphibious assault ships can carry only land units.
    -- Aircraft carriers can carry fighters and/or helicopters, but never strategic bombers."
    carries = { assault_ship = { land = true }, carrier = { fighter = true, helicopter = true } },
  },
  queries = {
    -- the printed values of a unit type: {class = "sea"|"air"|"land"|"facility", attack, defense,
    -- move, hits, surface, cost = {Allies =, Opfor =}, cargo}; nil for an unknown type
    unit_data = function(ctx, utype) return find_unit_data(ctx, utype) end,
    area_index = function(ctx, name) return area_index(ctx, name) end,
    area_name = function(ctx, i) return area_name(ctx, i) end,
    is_sea_zone = function(ctx, i) return area_kinds(ctx)[i] == "sea" end,
    is_territory = function(ctx, i) return area_kinds(ctx)[i] == "land" end,
    adjacent = function(ctx, a, b) return adjacent(ctx, a, b) end,
    area_of = function(ctx, u) return area_of(ctx, u) end,
    units_in = function(ctx, i) return units_in(ctx, i) end,
    power_of = function(ctx, u) return power_of(ctx, u) end,
    -- who owns a territory (a side), from its hexes' owner in the game state
    owner_of = function(ctx, i) return owner_of(ctx, i) end,
    class_of = function(ctx, u) local d = unit_data(ctx, ctx.game:get(u, "type")); return d and d.class end,
    is_surface_warship = function(ctx, u) return ctx.rule.values.surface_warships[ctx.game:get(u, "type")] == true end,
    is_warship = function(ctx, u)
      local t = ctx.game:get(u, "type")
      return ctx.rule.values.surface_warships[t] == true or ctx.rule.values.warships_not_surface[t] == true
    end,
    -- may `carrier` carry `cargo` at all (by kind; capacities are the carrying rules')
    may_carry = function(ctx, carrier, cargo) return may_carry(ctx, carrier, cargo) end,
    -- the enemy units that make sea zone i hostile to `side` (those that block movement), in id order
    hostile_units = function(ctx, i, side) return copy(hostile_units(ctx, i, side)) end,
    is_hostile = function(ctx, i, side) return #hostile_units(ctx, i, side) > 0 end,
    -- sea zones a unit may move this turn (2, or 3 departing from a served zone)
    allowance = function(ctx, u) return allowance(ctx, u) end,
    zones_moved = function(ctx, u) return zones_moved(ctx, u) end,
    -- the fewest sea zones from `from` to `to` for a unit of `side` (through zones not hostile
    -- to it), at most `max`; nil when farther or unreachable
    sea_distance = function(ctx, from, to, side, max) return sea_distance(ctx, from, to, side, max) end,
    unit_label = function(ctx, u) return label(ctx, u) end,
    -- the stamp of the power's turn the game is in, for per-turn facts ("moved this turn"):
    -- each power has its own turn within a game turn, so "2/USA" (game turn 2, the USA's
    -- player-turn); a game the sequence of play does not run gives its turn number
    this_turn = function(ctx) return this_turn(ctx) end,
    -- the printed cost (to their owner) of the sea units of sides other than `side` that
    -- were destroyed: what a scenario may score a naval war by
    enemy_sea_losses = function(ctx, side)
      local g, total = ctx.game, 0
      for _, u in ipairs(g:units { loc = "dead" }) do
        local s = g:get(u, "side")
        if s ~= side then
          local d = unit_data(ctx, g:get(u, "type"))
          if d and d.class == "sea" then total = total + (d.cost[s] or 0) end
        end
      end
      return total
    end,
    -- parameter candidates ({value, label}, id order): the units of the power whose turn it is
    -- (and of `side`, when given) whose class is `class` (any: nil) and, when `loc` is given,
    -- whose location is of that kind ("zone", "unit")
    turn_units = function(ctx, side, class, loc) return turn_units(ctx, side, class, loc) end,
  },
  actions = {
    -- move a fleet: units (all in one sea zone, the turn's power's) along
    -- path (sea zone names, each adjacent to the one before); attack says
    -- whether they attack at the end of a combat move into a zone that
    -- holds only enemy submarines (units.submarines.does-not-block-enemy-movement)
    move = {
      phases = { "combat_move", "noncombat_move" },
      params = {
        units = { type = "units", domain = function(ctx, _, side) return movers_domain(ctx, side) end },
        path = { type = "table", depends = { "units" }, domain = function(ctx, p) return paths_domain(ctx, p.units) end },
        -- whether to attack where the move ends among enemy units that do not
        -- make the zone hostile (submarines): asked only there, in Combat Move
        attack = { type = "boolean", optional = true, depends = { "units", "path" },
                   domain = function(ctx, p) return attack_domain(ctx, p.units, p.path) end },
      },
      legal = function(ctx, p) return move_legal(ctx, p) end,
      effect = function(ctx, p) return move_effect(ctx, p) end,
    },
  },
}

-- ---- helpers of units.sea-units --------------------------------------------------

local kinds_cache = setmetatable({}, { __mode = "k" })

-- area index -> "sea" | "land": a zone with an all-sea (or other water) hex is
-- a sea zone, one whose hexes are all land or coastal is a territory
function area_kinds(ctx)
  local b = ctx.game.board
  local k = kinds_cache[b]
  if k then return k end
  k = {}
  local index = {}
  for i, name in ipairs(b:zones()) do index[name] = i; k[i] = "land" end
  for _, h in ipairs(b:hexes()) do
    local z = b:get_zone(h)
    if z then
      local t = b:get_terrain(h)
      if t ~= "all-land" and t ~= "coastal" then k[index[z]] = "sea" end
    end
  end
  k.index = index
  kinds_cache[b] = k
  return k
end

function copy(list)
  local out = {}
  for i, v in ipairs(list) do out[i] = v end
  return out
end

function area_index(ctx, name)
  if math.type(name) == "integer" then
    if area_kinds(ctx)[name] then return name end
    return nil
  end
  return area_kinds(ctx).index[name]
end

function area_name(ctx, i)
  return ctx.game.board:zones()[i] or ("area " .. tostring(i))
end

function adjacent(ctx, a, b)
  local b_name = area_name(ctx, b)
  for _, n in ipairs(ctx.game.board:zone_neighbors(area_name(ctx, a)) or {}) do
    if n == b_name then return true end
  end
  return false
end

local NO_DATA = {}   -- a type unit_data does not know, as its cache keeps it

-- (once per type and state: ctx:cache; the answer is shared, never changed)
function unit_data(ctx, utype)
  local known = ctx:cache("seazone.unit_data")
  local d = known[utype]
  if d == nil then
    d = find_unit_data(ctx, utype) or NO_DATA
    known[utype] = d
  end
  if d == NO_DATA then return nil end
  return d
end

function find_unit_data(ctx, utype)
  local sea = ctx:table("sea_units")
  for _, row in ipairs(sea.rows) do
    if row.key == utype then
      return { class = "sea", attack = row.attack.value, defense = row.defense.value, move = row.move.value,
               hits = row.hits.value, surface = row.surface.value == 1,
               cost = { Allies = row.cost_allies.value, Opfor = row.cost_opfor.value }, cargo = 0 }
    end
  end
  local other = ctx:table("other_units")
  for _, row in ipairs(other.rows) do
    if row.key == utype then
      return { class = row.class.code, attack = row.attack.value, defense = row.defense.value,
               move = row.move.value, hits = 1, surface = false,
               cost = { Allies = row.cost_allies.value, Opfor = row.cost_opfor.value }, cargo = row.cargo.value }
    end
  end
  return nil
end

-- the area a unit is in: its own, or its carrier's (cargo); nil off map or dead
function area_of(ctx, u)
  local g = ctx.game
  for _ = 1, 8 do
    local kind, where = g:get(u, "loc")
    if kind == "zone" then return where end
    if kind ~= "unit" then return nil end
    u = where
  end
  return nil
end

local NO_SIDE = {}   -- the key of a nil side in hostile_units' cache

-- the units in area i, in id order (the kernel's index)
function units_in(ctx, i)
  return ctx.game:units { loc = "zone", at = i }
end

function this_turn(ctx)
  local g = ctx.game
  if g:get_global("seq_player_turn") == nil then return g:get_turn() end
  return ("%s/%s"):format(tostring(g:get_turn()), tostring(g:get_global("power") or g:get_global("phasing")))
end

function power_of(ctx, u)
  return ctx.game:get_value(u, "power") or ctx.game:get(u, "side")
end

function owner_of(ctx, i)
  local b = ctx.game.board
  local name = area_name(ctx, i)
  for _, h in ipairs(b:hexes()) do
    if b:get_zone(h) == name then return ctx.game:get_owner(h) end
  end
  return nil
end

function label(ctx, u)
  local g = ctx.game
  return ("%s (%s)"):format(g:get(u, "name"), g:get(u, "type"))
end

function may_carry(ctx, carrier, cargo)
  local allowed = ctx.rule.values.carries[ctx.game:get(carrier, "type")]
  if not allowed then return false end
  local t = ctx.game:get(cargo, "type")
  local d = unit_data(ctx, t)
  return allowed[t] == true or (d ~= nil and allowed[d.class] == true)
end

-- (once per zone, side and state: ctx:cache; callers only read the list)
function hostile_units(ctx, i, side)
  local known = ctx:cache("seazone.hostile")
  local per = known[side == nil and NO_SIDE or side]
  if not per then per = {}; known[side == nil and NO_SIDE or side] = per end
  local out = per[i]
  if out then return out end
  local g = ctx.game
  out = {}
  for _, u in ipairs(units_in(ctx, i)) do
    if g:get(u, "side") ~= side and ctx:query("blocks_movement", u) then out[#out + 1] = u end
  end
  per[i] = out
  return out
end

function zones_moved(ctx, u)
  local g = ctx.game
  if g:get_value(u, "moved_turn") ~= ctx:query("this_turn") then return 0 end
  return g:get_value(u, "zones_moved") or 0
end

-- the fewest sea zones from `from` to `to` within `max` (the query
-- sea_distance): the kernel's search over the board's zone graph
-- (ctx:zone_reach), never into a territory, leaving no zone hostile to
-- `side` but the start; one search per start, side and reach for the state
-- (ctx:cache), which answers every destination
function sea_distance(ctx, from, to, side, max)
  if from == to then return 0 end
  local kinds = area_kinds(ctx)
  if not kinds[from] then return nil end
  local zones = ctx.game.board:zones()
  local budget = max and math.min(math.ceil(max), #zones) or #zones
  if budget <= 0 then return nil end
  local cache = ctx:cache("seazone.sea_reach")
  local key = ("%d/%s/%d"):format(from, tostring(side), budget)
  local dist = cache[key]
  if not dist then
    local land, stop = {}, {}
    for i, name in ipairs(zones) do
      if i == from then -- luacheck: ignore 542 (the start is left whatever it is)
      elseif kinds[i] ~= "sea" then land[#land + 1] = name
      elseif #hostile_units(ctx, i, side) > 0 then stop[#stop + 1] = name end
    end
    local reached = ctx:zone_reach(zones[from], budget, { blocked = land, stop = stop })
    dist = {}
    for name, n in pairs(reached) do dist[kinds.index[name]] = n end
    cache[key] = dist
  end
  return dist[to]
end

-- the zone the unit departed from this turn (where it is, if it has not moved)
local function start_zone(ctx, u)
  local g = ctx.game
  if g:get_value(u, "moved_turn") == ctx:query("this_turn") then return g:get_value(u, "start_zone") end
  return area_of(ctx, u)
end

function allowance(ctx, u)
  local d = unit_data(ctx, ctx.game:get(u, "type"))
  local n = d and d.move or 0
  local from = start_zone(ctx, u)
  if from and ctx:query("serving_base", from, ctx.game:get(u, "side")) then
    if ctx.rule.values.base_move > n then n = ctx.rule.values.base_move end
  end
  return n
end

local MODES = { combat_move = "combat", noncombat_move = "noncombat" }

local function names(ctx, list)
  local out = {}
  for i, u in ipairs(list) do out[i] = label(ctx, u) end
  return table.concat(out, ", ")
end

-- the path as area indexes, or nil and why
local function path_of(ctx, p)
  local path = {}
  if #p.path == 0 then return nil, "an empty path: name the sea zones to move through, in order" end
  for i, name in ipairs(p.path) do
    local z = area_index(ctx, name)
    if not z then return nil, ("path[%d]: '%s' is not a sea zone of the map"):format(i, tostring(name)) end
    path[i] = z
  end
  return path
end

function move_legal(ctx, p)
  local g = ctx.game
  local mode = MODES[g:get_phase() or ""]
  if not mode then
    return ("sea units move in the Combat Move or Noncombat Move phase (the phase is %s)"):format(tostring(g:get_phase()))
  end
  if #p.units == 0 then return "no units to move" end
  local from
  for _, u in ipairs(p.units) do
    if ctx:query("class_of", u) ~= "sea" then
      return ("%s is not a sea unit: only cruisers, carriers, frigates, destroyers, amphibious assault ships "
        .. "and submarines move through sea zones"):format(label(ctx, u))
    end
    local kind, where = g:get(u, "loc")
    if kind ~= "zone" then return ("%s is not in a sea zone (%s)"):format(label(ctx, u), kind) end
    if from and where ~= from then return "the units of one move start in one sea zone" end
    from = where
    if power_of(ctx, u) ~= g:get_global("power") then
      return ("%s belongs to %s; it is %s's turn"):format(label(ctx, u), power_of(ctx, u), tostring(g:get_global("power")))
    end
    if g:get_value(u, "moved_turn") == ctx:query("this_turn") and g:get_value(u, "moved_phase") ~= mode then
      return ("%s moved in the %s move this turn"):format(label(ctx, u), g:get_value(u, "moved_phase"))
    end
    if g:get_value(u, "attacking_turn") == ctx:query("this_turn") then
      return ("%s ended its movement in hostile %s: it is in combat there"):format(label(ctx, u), area_name(ctx, from))
    end
  end
  local path, why = path_of(ctx, p)
  if not path then return why end
  local side = g:get(p.units[1], "side")
  local prev = from
  for i, z in ipairs(path) do
    if area_kinds(ctx)[z] ~= "sea" then
      return ("%s is a territory: sea units cannot move into territories"):format(area_name(ctx, z))
    end
    if not adjacent(ctx, prev, z) then
      return ("%s is not adjacent to %s"):format(area_name(ctx, z), area_name(ctx, prev))
    end
    local enemies = hostile_units(ctx, z, side)
    if #enemies > 0 then
      for _, u in ipairs(p.units) do
        if not ctx:query("passes_hostile_zone", u) then
          if i < #path then
            return ("%s cannot move through hostile %s (enemy %s): its movement ends there"):format(
              label(ctx, u), area_name(ctx, z), names(ctx, enemies))
          elseif mode == "noncombat" then
            return ("%s cannot end a noncombat move in hostile %s (enemy %s)"):format(
              label(ctx, u), area_name(ctx, z), names(ctx, enemies))
          end
        end
      end
    end
    prev = z
  end
  for _, u in ipairs(p.units) do
    local n, max = zones_moved(ctx, u) + #path, allowance(ctx, u)
    if n > max then
      local served = ctx:query("serving_base", start_zone(ctx, u), side)
      return ("%s would move %d sea zones this turn; it may move %d%s"):format(label(ctx, u), n, max,
        served and "" or " (3 only when departing from a zone an operative friendly naval base serves)")
    end
  end
end

function move_effect(ctx, p)
  local g = ctx.game
  local mode = MODES[g:get_phase()]
  local path = path_of(ctx, p)
  local from = area_of(ctx, p.units[1])
  local to = path[#path]
  local side = g:get(p.units[1], "side")
  ctx:emit("sea_units_moving", { units = p.units, from = from, path = path, mode = mode })
  local turn = ctx:query("this_turn")
  for _, u in ipairs(p.units) do
    if g:get_value(u, "moved_turn") ~= turn then
      g:set_value(u, "start_zone", from)
      g:set_value(u, "zones_moved", 0)
    end
    g:set_value(u, "moved_turn", turn)
    g:set_value(u, "moved_phase", mode)
    g:set_value(u, "zones_moved", (g:get_value(u, "zones_moved") or 0) + #path)
    g:move(u, "zone", to)
  end
  local steps = {}
  for i, z in ipairs(path) do steps[i] = area_name(ctx, z) end
  ctx:say("%s: %s -> %s (%s move)", names(ctx, p.units), area_name(ctx, from), table.concat(steps, " -> "), mode)
  if mode == "combat" then
    local enemies = hostile_units(ctx, to, side)
    local attack = #enemies > 0
    if not attack and p.attack then
      for _, u in ipairs(units_in(ctx, to)) do
        if g:get(u, "side") ~= side then attack = true end
      end
    end
    if attack then
      for _, u in ipairs(p.units) do g:set_value(u, "attacking_turn", turn) end
      ctx:say("combat will occur in %s", area_name(ctx, to))
    end
  end
  ctx:emit("sea_units_moved", { units = p.units, from = from, to = to, path = path, mode = mode })
end

-- ---- parameter domains of move (keel.legal) ---------------------------------------

function turn_units(ctx, side, class, loc)
  local g = ctx.game
  local out = {}
  for _, u in ipairs(g:units { loc = loc, side = side }) do
    if power_of(ctx, u) == g:get_global("power") and (class == nil or ctx:query("class_of", u) == class) then
      out[#out + 1] = { value = u, label = g:get(u, "name") }
    end
  end
  return out
end

-- the sea units in sea zones of the power whose turn it is (of `side`, when given)
function movers_domain(ctx, side)
  if not MODES[ctx.game:get_phase() or ""] then return nil, "sea units move in the Combat Move or Noncombat Move phase" end
  return turn_units(ctx, side, "sea", "zone"), "no sea unit of the power whose turn it is"
end

-- every path of sea zones the units may still take this turn: no zone twice, within the
-- allowance left, through a hostile zone only for units that pass it (the rules check the rest)
function paths_domain(ctx, units)
  local from = area_of(ctx, units[1])
  if not from then return nil, "the units are not in a sea zone" end
  local side, left, passes = ctx.game:get(units[1], "side"), math.huge, true
  for _, u in ipairs(units) do
    left = math.min(left, allowance(ctx, u) - zones_moved(ctx, u))
    passes = passes and ctx:query("passes_hostile_zone", u)
  end
  local out, path, seen = {}, {}, { [from] = true }
  local function walk(z)
    for _, n in ipairs(ctx.game.board:zone_neighbors(area_name(ctx, z)) or {}) do
      local i = area_index(ctx, n)
      if i and not seen[i] and area_kinds(ctx)[i] == "sea" then
        path[#path + 1] = n
        out[#out + 1] = { value = table.move(path, 1, #path, 1, {}), label = table.concat(path, " > "), to = n, cost = #path }
        if #path < left and (passes or #hostile_units(ctx, i, side) == 0) then
          seen[i] = true
          walk(i)
          seen[i] = nil
        end
        path[#path] = nil
      end
    end
  end
  if left > 0 then walk(from) end
  return out, "no sea zone left to move to this turn"
end

-- attack or not: only for a combat move that ends where enemy units are but none makes the
-- zone hostile (they do not block movement: submarines); elsewhere the order leaves it out
function attack_domain(ctx, units, path)
  if MODES[ctx.game:get_phase() or ""] ~= "combat" then return nil, "only a combat move attacks" end
  local to = area_index(ctx, path[#path])
  local side = ctx.game:get(units[1], "side")
  if not to or #hostile_units(ctx, to, side) > 0 then return nil, "the move ends in a hostile zone: combat occurs" end
  for _, u in ipairs(units_in(ctx, to)) do
    if ctx.game:get(u, "side") ~= side then return { false, true } end
  end
  return nil, "no enemy unit where the move ends"
end

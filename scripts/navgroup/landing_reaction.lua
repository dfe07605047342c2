-- 37.E ENEMY REACTION MOVEMENT (003_324962bba0bb45e8.txt): after amphibious
-- landings, the enemy's reaction phase is governed by a roll on the SUCCESS
-- TABLE for each landing hex or group of up to three adjacent landing hexes
-- (Table 4's modifiers; the phasing player groups them and orders the
-- rolls, airborne landings apart), and each result says which reacting
-- units may move, how, and who may enter the landing hex. No reacting unit
-- starts in an enemy ZOC; one in a hex with enemy units may leave it, or
-- overrun them (Rule 12: the overrun is another chapter's, through 37.B's
-- `ground_combat` event).
--
-- The family event `reaction_phase { side }` (side: the reacting player)
-- rolls for every landing group; `react_move` and `react_overrun` are the
-- reacting player's orders, refused when the result forbids them. What
-- other chapters give is a hook: `ground_entry_mp(u, from, to)` (terrain
-- costs; the default is a STAND-IN 1 MP a hex), `overrun_mp` (a STAND-IN
-- value), airborne landings (the family event `airborne_landing`, which the
-- airborne chapter sends), the theatre's MDs (global `mds_active`), a
-- surprise phase (global `surprise_phase`).
--
-- The rule comes first; the helpers it uses follow it.

local set_field, set_hexes, landing_hexes, sets_of_turn, roll_set, modifiers_for,
  pick_set, eligibility, half_m, nearest, step_cost, connected, entry_refused, groupings, reactors,
  landings_for, as_reserve_for, paths_for   -- helpers, below the rule

rule {
  id = "37.E", title = "Enemy reaction movement",
  standin = { overrun_mp = "Rule 12 (the overrun cost)", terrain_mp = "the terrain chapter (a hex's cost)",
              ground_entry_mp = "the terrain chapter (a hex's cost)" },
  values = {
    table = "invasion_reaction",
    group_size = 3,            -- "each hex or group of up to three adjacent hexes"
    range = 5,                 -- "within 5 hexes of the airdrop/invasion hex"
    front_per = 5,             -- "for each 5 hexes ... from the front line"
    terrain_factor = 2,        -- "all terrain costs are doubled"
    minor_ports = { minor = true, standard = true, medium = true },
    major_ports = { major = true, great = true },
    german = "German", airdrop_before = { year = 1941, month = 8 },
    overrun_mp = 3,            -- STAND-IN: Rule 12's overrun cost (another chapter)
    terrain_mp = 1,            -- STAND-IN: terrain cost of a hex (another chapter), ground_entry_mp's default
    sea_terrains = { ["all-sea"] = true, restricted = true, lake = true },
  },
  queries = {
    --- ground_entry_mp(u, from, to) -> the terrain cost for u to enter `to` (another chapter:
    --- the default is the STAND-IN values.terrain_mp)
    ground_entry_mp = function(ctx) return ctx.rule.values.terrain_mp end,
    --- reaction_sets() -> the landing groups of this player-turn, in roll order
    reaction_sets = function(ctx) return sets_of_turn(ctx) end,
    --- reaction_set(id, field) -> result, side, airborne, entered, free_used, rolled, count
    reaction_set = function(ctx, id, f) return set_field(ctx, id, f) end,
    --- reaction_set_hexes(id) -> its hexes
    reaction_set_hexes = function(ctx, id) return set_hexes(ctx, id) end,
  },
  actions = {
    -- The phasing player groups up to three adjacent landing hexes of this
    -- player-turn (airborne apart); the groups are rolled in the order made.
    -- Domain (keel.legal): every group of one to three adjacent ungrouped
    -- landing hexes (labels, in the order landed), airborne ones apart.
    group_landings = {
      phases = { "movement" },   -- before the enemy's reaction phase rolls
      params = { hexes = { type = "table", domain = function(ctx, _, side) return groupings(ctx, side) end } },
      legal = function(ctx, p)
        local game, v = ctx.game, ctx.rule.values
        local side = game:get_global("phasing")
        local hexes, why = {}, nil
        for i, x in ipairs(p.hexes) do
          local h = x
          if type(x) == "string" then h, why = game.board:hex(x) end
          if not h then return ("37.E: hexes[%d]: %s"):format(i, tostring(why)) end
          hexes[i] = h
        end
        if #hexes == 0 or #hexes > v.group_size then
          return ("37.E: a group is of one to %d adjacent landing hexes"):format(v.group_size)
        end
        local landings = landing_hexes(ctx, side)
        local airborne
        for i, h in ipairs(hexes) do
          local rec = landings[h]
          if not rec then return ("37.E: no landing was made at %s this player-turn"):format(ctx:label("hex", h)) end
          if rec.set then return ("37.E: %s is grouped already"):format(ctx:label("hex", h)) end
          if airborne == nil then airborne = rec.airborne
          elseif airborne ~= rec.airborne then return "37.E: airborne landings are grouped separately" end
          for j = 1, i - 1 do
            if hexes[j] == h then return ("37.E: %s is named twice"):format(ctx:label("hex", h)) end
          end
        end
        -- adjacent: every hex next to another of the group (a connected group)
        local apart = connected(hexes)
        if apart then return ("37.E: %s is not adjacent to the others"):format(ctx:label("hex", apart)) end
        if game:get_keyed("reaction", "rolled") == (ctx:query("clock")) then
          return "37.E: the reaction has been rolled this player-turn"
        end
      end,
      effect = function(ctx, p)
        local game = ctx.game
        local hexes = {}
        for i, x in ipairs(p.hexes) do hexes[i] = type(x) == "string" and game.board:hex(x) or x end
        local id = roll_set(ctx, hexes, game:get_global("phasing"))
        local names = {}
        for _, h in ipairs(hexes) do names[#names + 1] = ctx:label("hex", h) end
        ctx:say("landing group %d: %s (rolled in this order)", id, table.concat(names, ", "))
        return id
      end,
    },
    -- A reacting unit moves along `path` (hexes); `landing`: the landing hex
    -- it reacts to (default: the nearest); `as_reserve`: a unit not in
    -- reserve moving as if it had started in reserve (F, S, S*).
    -- Domains: the reacting side's units that may react to a rolled landing
    -- group; one landing hex per group (its nearest: the group's result is
    -- what counts); as_reserve (for a unit not in reserve); and the cheapest
    -- path (labels) to every hex its MPs reach, with the cost.
    react_move = {
      side = "other", phases = { "reaction" },   -- the reacting player, in its reaction phase
      params = {
        unit = { type = "unit", domain = function(ctx, _, side) return reactors(ctx, side, false) end },
        landing = { type = "hex", optional = true, depends = { "unit" }, domain = function(ctx, p)
          return landings_for(ctx, p.unit)
        end },
        as_reserve = { type = "boolean", optional = true, depends = { "unit" }, domain = function(ctx, p)
          return as_reserve_for(ctx, p.unit)
        end },
        path = { type = "table", depends = { "unit", "landing" }, domain = function(ctx, p)
          return paths_for(ctx, p.unit, p.landing)
        end },
      },
      legal = function(ctx, p)
        local game, v = ctx.game, ctx.rule.values
        local e, why = eligibility(ctx, p.unit, p.landing, p.as_reserve)
        if not e then return why end
        local M = game:get_value(p.unit, "mp")
        local at, cost = e.start, 0
        for i, x in ipairs(p.path) do
          local h = x
          if type(x) == "string" then h = game.board:hex(x) end
          if not h then return ("37.E: path[%d]: not a hex of the map"):format(i) end
          if not (i == 1 and h == at) then
            if keel.hex.distance(at, h) ~= 1 then
              return ("37.E: %s is not next to %s"):format(ctx:label("hex", h), ctx:label("hex", at))
            end
            if v.sea_terrains[game.board:get_terrain(h)] then return ("37.E: %s is water"):format(ctx:label("hex", h)) end
            local c = step_cost(ctx, p.unit, at, h, e)
            cost = cost + c
            local no = entry_refused(ctx, e, p.unit, h)
            if no then return no end
            at = h
          end
        end
        if cost > M then
          return ("37.E (%s): the move costs %d MPs, %s has %d"):format(e.result, cost, ctx:label("unit", p.unit), M)
        end
      end,
      effect = function(ctx, p)
        local game = ctx.game
        local e = eligibility(ctx, p.unit, p.landing, p.as_reserve)
        local at, cost, entered = e.start, 0, false
        local steps = {}
        for i, x in ipairs(p.path) do
          local h = type(x) == "string" and game.board:hex(x) or x
          if not (i == 1 and h == at) then
            local c = step_cost(ctx, p.unit, at, h, e)
            cost = cost + c
            steps[#steps + 1] = ("%s (%d)"):format(ctx:label("hex", h), c)
            if e.hexes_in[h] then entered = true end
            at = h
          end
        end
        game:move(p.unit, "hex", at)
        game:set_value(p.unit, "reacted", true)
        game:set_value(p.unit, "mp_left", game:get_value(p.unit, "mp") - cost)
        if entered then game:set_keyed("reaction_set", { e.set, "entered" }, (set_field(ctx, e.set, "entered") or 0) + 1) end
        if e.as_reserve then
          game:set_keyed("reaction_set", { e.set, "free_used" }, (set_field(ctx, e.set, "free_used") or 0) + 1)
        end
        ctx:say("%s reacts (%s%s): %s — %d MPs", ctx:label("unit", p.unit), e.result,
          e.as_reserve and ", moving as if it had started in reserve" or "", table.concat(steps, ", "), cost)
      end,
    },
    -- A reacting unit in a hex with enemy units attempts to overrun them
    -- (Rule 12: MPs spent, ZOC costs ignored; the overrun itself is another
    -- chapter's, sent as `ground_combat` with kind "overrun").
    -- Domains: as react_move's, for units in a hex with enemy units.
    react_overrun = {
      side = "other", phases = { "reaction" },
      params = {
        unit = { type = "unit", domain = function(ctx, _, side) return reactors(ctx, side, true) end },
        landing = { type = "hex", optional = true, depends = { "unit" }, domain = function(ctx, p)
          return landings_for(ctx, p.unit)
        end },
        as_reserve = { type = "boolean", optional = true, depends = { "unit" }, domain = function(ctx, p)
          return as_reserve_for(ctx, p.unit)
        end },
      },
      legal = function(ctx, p)
        local game, v = ctx.game, ctx.rule.values
        local e, why = eligibility(ctx, p.unit, p.landing, p.as_reserve)
        if not e then return why end
        if #ctx:query("defenders_at", e.start, game:get(p.unit, "side")) == 0 then
          return ("37.E: %s is in no hex with enemy units to overrun"):format(ctx:label("unit", p.unit))
        end
        if (game:get_value(p.unit, "mp") or 0) < v.overrun_mp then
          return ("37.E: an overrun costs %d MPs, %s has %d"):format(v.overrun_mp, ctx:label("unit", p.unit),
            game:get_value(p.unit, "mp") or 0)
        end
      end,
      effect = function(ctx, p)
        local game, v = ctx.game, ctx.rule.values
        local e = eligibility(ctx, p.unit, p.landing, p.as_reserve)
        local side = game:get(p.unit, "side")
        game:set_value(p.unit, "reacted", true)
        game:set_value(p.unit, "mp_left", game:get_value(p.unit, "mp") - v.overrun_mp)
        if e.as_reserve then
          game:set_keyed("reaction_set", { e.set, "free_used" }, (set_field(ctx, e.set, "free_used") or 0) + 1)
        end
        ctx:say("%s attempts to overrun the enemy units in %s (%d MPs, no ZOC costs)", ctx:label("unit", p.unit),
          ctx:label("hex", e.start), v.overrun_mp)
        local ev = { kind = "overrun", hex = e.start, side = side, attackers = { p.unit },
                     defenders = ctx:query("defenders_at", e.start, side), as_airborne_landing = true, rule = ctx.rule.id }
        ctx:emit("ground_combat", ev)
        return ev.record
      end,
    },
  },
  on = {
    -- an airborne landing (another chapter) counts for the reaction, grouped apart
    airborne_landing = function(ctx, ev)
      local game = ctx.game
      local id = (game:get_keyed("landing", "count") or 0) + 1
      game:set_keyed("landing", "count", id)
      game:set_keyed("landing", { id, "hex" }, ev.hex)
      game:set_keyed("landing", { id, "side" }, ev.side)
      game:set_keyed("landing", { id, "airborne" }, true)
      game:set_keyed("landing", { id, "player_turn" }, (ctx:query("clock")))
      game:set_keyed("landing", { id, "defended" }, #ctx:query("defenders_at", ev.hex, ev.side) > 0)
      for _, u in ipairs(ev.units or {}) do game:set_value(u, "landing", id) end
      ctx:say("airborne landing at %s recorded for the enemy's reaction", ctx:label("hex", ev.hex))
    end,
    -- the reaction phase: a roll for each landing group, in order
    reaction_phase = function(ctx, ev)
      local game = ctx.game
      local pt = ctx:query("clock")
      if game:get_keyed("reaction", "rolled") == pt then return end
      local lside
      for _, id in ipairs(ctx:query("landings", { this_turn = true })) do
        local s = ctx:query("landing", id, "side")
        if s ~= ev.side then lside = s end
      end
      if not lside then return end
      -- the hexes no group holds: one group each, in the order landed
      local landings = landing_hexes(ctx, lside)
      for _, h in ipairs(landings.order) do
        if not landings[h].set then roll_set(ctx, { h }, lside) end
      end
      game:set_keyed("reaction", "rolled", pt)
      game:set_keyed("reaction", "side", ev.side)
      local t = ctx:table(ctx.rule.values.table)
      for _, id in ipairs(sets_of_turn(ctx)) do
        local hexes = set_hexes(ctx, id)
        local names = {}
        for _, h in ipairs(hexes) do names[#names + 1] = ctx:label("hex", h) end
        local mods = modifiers_for(ctx, id, lside)
        local res = ctx:resolve(ctx.rule.values.table, mods, { reason = ("%s's reaction to the landings at %s")
          :format(ev.side, table.concat(names, ", ")) })
        game:set_keyed("reaction_set", { id, "result" }, res.code)
        ctx:say("reaction to %s: %s", table.concat(names, ", "), t.legend[res.code])
      end
    end,
    player_turn_end = function(ctx)
      local game = ctx.game
      if game:get_keyed("reaction", "side") ~= nil then game:set_keyed("reaction", "side", nil) end
      for _, u in ipairs(game:units()) do
        if game:get_value(u, "reacted") ~= nil then game:set_value(u, "reacted", nil) end
      end
    end,
  },
}

-- ---- helpers used by the rule -------------------------------------------------------

-- the board's label of a hex: 37's query hex_label
function set_field(ctx, id, f) return ctx.game:get_keyed("reaction_set", { id, f }) end

function set_hexes(ctx, id)
  local out = {}
  for i = 1, set_field(ctx, id, "count") or 0 do out[i] = set_field(ctx, id, "hex" .. i) end
  return out
end

-- the hexes of `side`'s landings this player-turn: hex -> {set=, airborne=}, and .order
function landing_hexes(ctx, side)
  local out = { order = {} }
  for _, id in ipairs(ctx:query("landings", { side = side, this_turn = true })) do
    local h = ctx:query("landing", id, "hex")
    if not out[h] then
      out[h] = { airborne = ctx:query("landing", id, "airborne") == true }
      out.order[#out.order + 1] = h
    end
    out[h].set = out[h].set or ctx:query("landing", id, "reaction_set")
  end
  return out
end

-- a new landing group of `hexes` (its landing records point to it)
function roll_set(ctx, hexes, side)
  local game = ctx.game
  local id = (game:get_keyed("reaction_set", "count") or 0) + 1
  game:set_keyed("reaction_set", "count", id)
  game:set_keyed("reaction_set", { id, "count" }, #hexes)
  game:set_keyed("reaction_set", { id, "player_turn" }, (ctx:query("clock")))
  game:set_keyed("reaction_set", { id, "side" }, side)
  local airborne = false
  for i, h in ipairs(hexes) do
    game:set_keyed("reaction_set", { id, "hex" .. i }, h)
    for _, l in ipairs(ctx:query("landings", { hex = h, side = side, this_turn = true })) do
      game:set_keyed("landing", { l, "reaction_set" }, id)
      if ctx:query("landing", l, "airborne") then airborne = true end
    end
  end
  game:set_keyed("reaction_set", { id, "airborne" }, airborne)
  return id
end

function sets_of_turn(ctx)
  local pt = ctx:query("clock")
  local out = {}
  for id = 1, (ctx.game:get_keyed("reaction_set", "count") or 0) do
    if set_field(ctx, id, "player_turn") == pt then out[#out + 1] = id end
  end
  return out
end

-- Table 4's modifiers for a landing group of `side` (the landing player)
function modifiers_for(ctx, id, side)
  local game, v = ctx.game, ctx.rule.values
  local b = game.board
  local hexes = set_hexes(ctx, id)
  local m = {}
  local airborne = set_field(ctx, id, "airborne") == true
  if airborne then m.airdrop = true end
  local landed, commandos, german = {}, true, false
  local landing_ids = {}
  for _, h in ipairs(hexes) do
    for _, l in ipairs(ctx:query("landings", { hex = h, side = side, this_turn = true })) do landing_ids[l] = true end
  end
  for _, u in ipairs(game:units()) do
    local l = game:get_value(u, "landing")
    if l and landing_ids[l] then
      landed[#landed + 1] = u
      if not ctx:query("unit_is", u, "commando") then commandos = false end
      if (game:get_value(u, "nationality") or "") == v.german then german = true end
    end
  end
  local year, month = game:get_global("year"), game:get_global("month") or 1
  local before = year and (year < v.airdrop_before.year or (year == v.airdrop_before.year and month < v.airdrop_before.month))
  if airborne and german and before then m.german_airdrop_before_aug_41 = true end
  if #landed > 0 and commandos then m.commandos_only = true end
  -- distance to the front line: the nearest hex of the landing side's that no landing took this turn
  local d = nearest(ctx, hexes, side)
  if d and d >= v.front_per then m.distance_from_front = d // v.front_per end
  local occupied = false
  for _, h in ipairs(hexes) do
    if #ctx:query("defenders_at", h, side) > 0 then occupied = true end
  end
  if not occupied then m.all_unoccupied = true end
  if game:get_global("surprise_phase") == true then m.surprise_phase = true end
  if game:get_global("mds_active") == true then m.mds_active = true end
  for _, h in ipairs(hexes) do
    local port = b and b:contains(h) and b:get_port(h)
    if port and v.minor_ports[port.size] then m.minor_port = true end
    if port and v.major_ports[port.size] then m.major_port = true end
  end
  return m
end

-- the distance from the group's hexes to the nearest hex `side` owns that is
-- no landing hex of this player-turn (the front line)
function nearest(ctx, hexes, side)
  local game = ctx.game
  local landed = {}
  for _, id in ipairs(ctx:query("landings", { side = side, this_turn = true })) do
    landed[ctx:query("landing", id, "hex")] = true
  end
  local best
  for _, h in ipairs(game.board:hexes()) do
    if game:get_owner(h) == side and not landed[h] then
      for _, x in ipairs(hexes) do
        local d = keel.hex.distance(h, x)
        if not best or d < best then best = d end
      end
    end
  end
  return best
end

function half_m(M) return (M or 0) // 2 - 2 end

-- the landing group a unit reacts to: the one holding `landing`, else the nearest
function pick_set(ctx, start, want)
  local best, best_d
  for _, id in ipairs(sets_of_turn(ctx)) do
    if set_field(ctx, id, "result") then
      for _, h in ipairs(set_hexes(ctx, id)) do
        local d = keel.hex.distance(start, h)
        if (want == nil or want == h) and (not best_d or d < best_d) then best, best_d = id, d end
      end
    end
  end
  return best, best_d
end

-- May unit u react now, and under which landing group's result? e = {set,
-- result, start, hexes_in, as_reserve, range_in}, or nil, why
function eligibility(ctx, u, want, as_reserve)
  local game, v = ctx.game, ctx.rule.values
  local name = ctx:label("unit", u)
  local side = game:get(u, "side")
  if game:get_keyed("reaction", "side") ~= side then
    return nil, ("37.E: %s is not in a reaction phase of its side"):format(name)
  end
  if not ctx:query("is_ground_unit", u) then return nil, ("37.E: %s is not a ground unit"):format(name) end
  local kind, start = game:get(u, "loc")
  if kind ~= "hex" then return nil, ("37.E: %s is not on the map"):format(name) end
  if game:get_value(u, "reacted") then return nil, ("37.E: %s has reacted already"):format(name) end
  if game:get_value(u, "mp") == nil then return nil, ("37.E: %s has no movement allowance (unit value mp)"):format(name) end
  local id, d = pick_set(ctx, start, want)
  if not id then return nil, "37.E: no landing reaction has been rolled" .. (want and (" for " .. ctx:label("hex", want)) or "") end
  local code = set_field(ctx, id, "result")
  local hexes = set_hexes(ctx, id)
  if d > v.range then
    return nil, ("37.E (%s): only units within %d hexes of the landing hex react; %s is %d away"):format(code,
      v.range, name, d)
  end
  local reserve = game:get_value(u, "reserve") == true
  if reserve and as_reserve then
    return nil, ("37.E: %s is in reserve: as_reserve is for a unit not in reserve"):format(name)
  end
  if not reserve then
    if not as_reserve then
      return nil, ("37.E (%s): %s is not in reserve (a non-reserve unit reacts only as the result allows: as_reserve)")
        :format(code, name)
    end
    local used = set_field(ctx, id, "free_used") or 0
    if code == "D" or code == "F*" then
      return nil, ("37.E (%s): only units in reserve react"):format(code)
    elseif code == "F" or code == "S" then
      if used >= 1 then return nil, ("37.E (%s): one unit not in reserve may react, and one has"):format(code) end
      if code == "F" then
        local limit = half_m(game:get_value(u, "mp"))
        if d > limit then
          return nil, ("37.E (F): the unit not in reserve must be within 1/2 M - 2 = %d hexes of the landing hex (%d)")
            :format(limit, d)
        end
      end
    elseif used >= #hexes then
      return nil, ("37.E (S*): one unit not in reserve per landing hex may react (%d have)"):format(used)
    end
  end
  -- no reacting unit starts in an enemy ZOC, unless it is in a hex with enemy units (it may leave)
  if ctx:query("zoc_level", side, start, true) >= 1 and #ctx:query("defenders_at", start, side) == 0 then
    return nil, ("37.E: %s starts in an enemy ZOC: no reacting unit may"):format(name)
  end
  local hexes_in = {}
  for _, h in ipairs(hexes) do hexes_in[h] = true end
  return { set = id, result = code, start = start, hexes_in = hexes_in, hexes = hexes,
           as_reserve = not reserve }
end

-- MPs to enter `to`: the terrain cost (doubled after a Disaster, and within 5
-- hexes of a landing hex), plus the ZOC cost (37.B), not doubled
function step_cost(ctx, u, from, to, e)
  local v = ctx.rule.values
  local terrain = ctx:query("ground_entry_mp", u, from, to)
  local near = false
  for _, h in ipairs(e.hexes) do
    if keel.hex.distance(h, to) <= v.range then near = true end
  end
  if e.result == "D" or near then terrain = terrain * v.terrain_factor end
  local side = ctx.game:get(u, "side")
  return terrain + ctx:query("zoc_entry_mp", side, to, true)
end

-- nil when hexes form one connected group, else the first hex apart from the others
function connected(hexes)
  local reached, queue = { [hexes[1]] = true }, { hexes[1] }
  while #queue > 0 do
    local h = table.remove(queue, 1)
    for _, o in ipairs(hexes) do
      if not reached[o] and keel.hex.distance(h, o) == 1 then reached[o] = true; queue[#queue + 1] = o end
    end
  end
  for _, h in ipairs(hexes) do
    if not reached[h] then return h end
  end
end

-- nil when the reacting unit u (eligibility e) may enter hex h as the result
-- allows, else why not (only landing hexes are limited)
function entry_refused(ctx, e, u, h)
  if not e.hexes_in[h] then return nil end
  local code = e.result
  if code == "D" or code == "F*" then
    return ("37.E (%s): no reacting unit may enter the landing hex %s"):format(code, ctx:label("hex", h))
  end
  if code == "F" and (set_field(ctx, e.set, "entered") or 0) >= 1 then
    return ("37.E (F): only one unit may enter the landing hex %s, and one has"):format(ctx:label("hex", h))
  end
  local limit = half_m(ctx.game:get_value(u, "mp"))
  if (code == "F" or code == "S") and keel.hex.distance(e.start, h) > limit then
    return ("37.E (%s): a unit entering the landing hex must start within 1/2 M - 2 = %d hexes of it "
      .. "(%s starts %d away)"):format(code, limit, ctx:label("unit", u), keel.hex.distance(e.start, h))
  end
end

-- group_landings' domain: the groups of one to three adjacent ungrouped
-- landing hexes of the phasing side, airborne apart, as label lists
function groupings(ctx, side)
  local game, v = ctx.game, ctx.rule.values
  local phasing = game:get_global("phasing")
  if side ~= nil and side ~= phasing then
    return {}, ("37.E: the phasing player (%s) groups the landing hexes"):format(tostring(phasing))
  end
  if game:get_keyed("reaction", "rolled") == (ctx:query("clock")) then
    return {}, "37.E: the reaction has been rolled this player-turn"
  end
  local landings = landing_hexes(ctx, phasing)
  local free = {}
  for _, h in ipairs(landings.order) do
    if not landings[h].set then free[#free + 1] = h end
  end
  local out = {}
  local function add(list)
    if #list > 1 and connected(list) then return end
    local names = {}
    for i, h in ipairs(list) do
      if landings[h].airborne ~= landings[list[1]].airborne then return end
      names[i] = ctx:label("hex", h)
    end
    out[#out + 1] = { value = names, airborne = landings[list[1]].airborne }
  end
  local function walk(from, list)
    if #list > 0 then add(list) end
    if #list == v.group_size then return end
    for i = from, #free do
      list[#list + 1] = free[i]
      walk(i + 1, list)
      list[#list] = nil
    end
  end
  walk(1, {})
  return out, "37.E: no ungrouped landing hex this player-turn"
end

-- the rolled landing groups' hexes a unit may react to, one per group (its nearest)
function landings_for(ctx, u)
  local kind, start = ctx.game:get(u, "loc")
  if kind ~= "hex" then return {}, ("37.E: %s is not on the map"):format(ctx:label("unit", u)) end
  local out, why = {}, nil
  for _, id in ipairs(sets_of_turn(ctx)) do
    if set_field(ctx, id, "result") then
      local best, best_d
      for _, h in ipairs(set_hexes(ctx, id)) do
        local d = keel.hex.distance(start, h)
        if not best_d or d < best_d then best, best_d = h, d end
      end
      local e, no = eligibility(ctx, u, best, ctx.game:get_value(u, "reserve") ~= true)
      if e then
        out[#out + 1] = { value = best, result = e.result, distance = best_d }
      else
        why = why or no
      end
    end
  end
  return out, why or "37.E: no landing reaction has been rolled"
end

-- the units of the reacting side (`side` if it asks) that may react to a
-- rolled landing group; overrun: only those in a hex with enemy units
function reactors(ctx, side, overrun)
  local game = ctx.game
  local reacting = game:get_keyed("reaction", "side")
  if reacting == nil then return {}, "37.E: no reaction phase after landings is open" end
  if side ~= nil and side ~= reacting then
    return {}, ("37.E: the reaction phase is %s's"):format(reacting)
  end
  local out, why = {}, nil
  for _, u in ipairs(game:units { loc = "hex", side = reacting }) do
    if ctx:query("is_ground_unit", u) then
      local ok, no = landings_for(ctx, u)
      if #ok > 0 and overrun then
        local _, at = game:get(u, "loc")
        if #ctx:query("defenders_at", at, reacting) == 0 then
          ok, no = {}, ("37.E: %s is in no hex with enemy units to overrun"):format(ctx:label("unit", u))
        end
      end
      if #ok > 0 then out[#out + 1] = u else why = why or no end
    end
  end
  return out, why or ("37.E: %s has no ground unit that may react"):format(reacting)
end

-- as_reserve: true (eligibility refuses it for a unit in reserve)
function as_reserve_for() return { true } end

-- the cheapest path (labels, the start left out) from the unit's hex to every
-- land hex its MPs reach, as the result lets it enter, with the MPs
function paths_for(ctx, u, landing)
  local game, v = ctx.game, ctx.rule.values
  local e, why = eligibility(ctx, u, landing, game:get_value(u, "reserve") ~= true)
  if not e then return {}, why end
  local b = game.board
  local M = game:get_value(u, "mp") or 0
  local cost, prev, done = { [e.start] = 0 }, {}, {}
  local order = { e.start }
  while true do
    -- the cheapest hex not done (ties: the lowest id), Dijkstra on a small disk
    local at
    for _, h in ipairs(order) do
      if not done[h] and (at == nil or cost[h] < cost[at] or (cost[h] == cost[at] and h < at)) then at = h end
    end
    if at == nil then break end
    done[at] = true
    for _, h in ipairs(keel.hex.neighbors(at)) do
      if b:contains(h) and not v.sea_terrains[b:get_terrain(h)] and not done[h]
          and entry_refused(ctx, e, u, h) == nil then
        local c = cost[at] + step_cost(ctx, u, at, h, e)
        if c <= M and (cost[h] == nil or c < cost[h]) then
          if cost[h] == nil then order[#order + 1] = h end
          cost[h], prev[h] = c, at
        end
      end
    end
  end
  local out = {}
  for _, h in ipairs(b:hexes()) do
    if cost[h] and h ~= e.start then
      local path, x = {}, h
      while x ~= e.start do table.insert(path, 1, ctx:label("hex", x)); x = prev[x] end
      out[#out + 1] = { value = path, cost = cost[h], to = ctx:label("hex", h) }
    end
  end
  return out, ("37.E: %s's MPs reach no hex"):format(ctx:label("unit", u))
end

-- 32.D MOVEMENT AND COMBAT (004_0e2364863b8db0db.txt): when the movement of
-- naval groups starts submarine, surface and CD combat. The movement area's
-- `move` action emits `group_enters_hex` and `mp_spent`; the rules below put
-- the combats the text starts into the event (`ev.combat`, and every one of
-- them in `ev.combats`), and the move action emits `naval_combat` for each,
-- then resumes if MPs are left. How a combat is resolved is not in the text:
-- 32.D calls the query `resolve_naval_combat` for each round (a scenario or
-- variant supplies it; the default records the engagement) and charges the
-- MP of each round after the first (32.A.3).
--
-- "Combat zone" is defined in another chapter: here it is data, 32.D's
-- value `combat_zone` (hexes within N of the group or CD; default 1: its hex
-- and the adjacent hexes), which a scenario or variant may change.
--
-- The rules come first, in rulebook order; the helpers they share follow them.

local hexlib = keel.hex
local kind_name, combatants, mp_left, is_sub, enemy_groups_near, spends_without_leaving,
  start_group_combats, start_surface, enemy_cds, cd_value, fire_points, add_combat,
  clear_keyed, sub_foes, surface_foes                         -- helpers, below the rules

-- ---- 32.D ---------------------------------------------------------------------------

rule {
  id = "32.D", title = "Movement and Combat",
  values = {
    -- combat zone radius in hexes, by what the zone belongs to (0: its hex only)
    combat_zone = { naval = 1, submarine = 1, cd = 1 },
    -- the default resolution: rounds fought when no scenario resolves combat
    default_rounds = 1,
    -- 32.A.3, first row: each round after the first costs the row's MPs
    round_cost_row = "combat_round",
    -- table columns by unit type (the other types pay as a TF, 32.A's note)
    columns = { TF = "TF", CG = "TF", NT = "NT", LC = "LC", LB = "LB" },
  },
  queries = {
    --- in_combat_zone(center, hex, source) -> boolean, distance: is `hex` in the
    --- combat zone of a group or CD (source "naval", "submarine" or "cd") at `center`?
    in_combat_zone = function(ctx, center, hex, source)
      local r = ctx.rule.values.combat_zone[source or "naval"] or ctx.rule.values.combat_zone.naval
      local d = hexlib.distance(center, hex)
      return d <= r, d
    end,
    --- combat_zone(center, source) -> hexes of the zone (centre first, then rings)
    combat_zone = function(ctx, center, source)
      local r = ctx.rule.values.combat_zone[source or "naval"] or ctx.rule.values.combat_zone.naval
      return hexlib.spiral(center, r)
    end,
    --- resolve_naval_combat(info) -> { more = bool, text = string }: one round
    --- of a combat. The default records the engagement and fights
    --- `default_rounds` rounds; a scenario or variant supplies the real one.
    resolve_naval_combat = function(ctx, info)
      return { more = info.round < ctx.rule.values.default_rounds, text = "engagement recorded" }
    end,
  },
  on = {
    -- per-step bookkeeping of the triggers below: group value `c_left` (the
    -- group has left its hex this step); keyed values `engaged` {group,
    -- enemy} (fought once this step, 32.D.1 e, 32.D.2 b) and `cd_mp` {group,
    -- CD hex} (MPs spent in that CD's zone this step, 32.D.3)
    naval_step_start = function(ctx)
      local game = ctx.game
      for _, g in ipairs(game:groups()) do
        if game:group_get_value(g, "c_left") ~= nil then game:group_set_value(g, "c_left", nil) end
      end
      clear_keyed(game, "engaged")
      clear_keyed(game, "cd_mp")
    end,
    group_enters_hex = function(ctx, ev)
      if not ctx.game:group_get_value(ev.group, "c_left") then ctx.game:group_set_value(ev.group, "c_left", true) end
    end,
    -- The resolution: after the scenario's own handlers (priority -100).
    naval_combat = { function(ctx, ev)
      local game, g = ctx.game, ev.group
      local v = ctx.rule.values
      -- a scenario's rule that resolved the combat itself (the contract's
      -- ev.resolved: it fought, charged and recorded it) leaves nothing to do
      if ev.resolved then return end
      -- 32.D.2 note (and 32.D.3: CD combat affects movement as surface combat):
      -- no combat when the moving units have spent all their MPs.
      if ev.kind ~= "submarine" and mp_left(ctx, g) <= 0 then
        ev.occurred, ev.resolved = false, true
        ctx:say("no %s combat for %s: it has spent all its MPs (32.D.2)", kind_name(ev.kind), game:group_get_name(g))
        return
      end
      ev.resolved = true   -- the move action records nothing of its own
      local hex = ev.hex or ctx:query("group_hex", g)
      -- a CD's value when the move action did not pass it (32.D.3: halved next door)
      if ev.kind == "cd" and ev.value == nil and ev.cd ~= nil and hex ~= nil then
        local level = ctx:query("cd_level", ev.cd)
        local _, d = ctx:query("in_combat_zone", ev.cd, hex, "cd")
        ev.value, ev.halved = ctx:query("cd_value", level, d)
      end
      local night = ev.night
      if night == nil then night = game:get_global("night") == true end
      local round, rounds, charged = ev.round or 1, 0, 0
      local later = {}
      while true do
        rounds = rounds + 1
        local info = { group = g, hex = hex, kind = ev.kind, enemy = ev.enemy, cd = ev.cd, fired_by = ev.fired_by,
                       value = ev.value, halved = ev.halved, round = round, night = night }
        local res
        if ev.result then   -- resolved by a scenario's handler: { rounds = n }
          res = { more = round < (ev.result.rounds or 1), text = ev.result.text }
        else
          res = ctx:query("resolve_naval_combat", info) or {}
        end
        -- the record: journaled (keyed value `naval_combat` {n}, n = 1, 2 ...) and narrated
        local n = game:count_keyed("naval_combat") + 1
        local text = ("round %d of %s combat: %s%s: %s"):format(round, kind_name(ev.kind), combatants(ctx, ev, g, hex),
          night and " (night)" or "", res.text or "fought")
        game:set_keyed("naval_combat", n, text)
        ctx:say("%s", text)
        if not res.more then break end
        -- each round after the first costs 1 MP (32.A.3); none left: the combat ends
        local cost = 0
        local tbl = ctx:table("naval_mp_cost")
        for _, u in ipairs(game:group_units(g)) do
          local cell = tbl:get(v.round_cost_row, v.columns[game:get(u, "type")] or "TF")
          if cell.value and cell.value > cost then cost = cell.value end
        end
        if mp_left(ctx, g) < cost then
          ctx:say("combat ends: %s has no MPs for another round (32.D.2)", game:group_get_name(g))
          break
        end
        local night_left = night and ctx:query("night_mp_left", g)
        if night_left and night_left < cost then
          ctx:say("combat ends: %s has no night MPs left for another round (32.C)", game:group_get_name(g))
          break
        end
        local spent = (game:group_get_value(g, "mp_spent") or 0) + cost
        game:group_set_value(g, "mp_spent", spent)
        if night then game:group_set_value(g, "night_mp", (game:group_get_value(g, "night_mp") or 0) + cost) end
        charged = charged + cost
        local me = { group = g, hex = hex, mp = cost, spent = spent, activity = "combat round",
                     left_hex = false, night = night }
        ctx:emit("mp_spent", me)
        for _, c in ipairs(me.combats or {}) do later[#later + 1] = c end
        round = round + 1
      end
      ev.occurred, ev.rounds, ev.mp = true, rounds, charged
      ev.resume = mp_left(ctx, g) > 0
      -- combats started by the rounds' MPs (a CD's fire point reached), in order
      for _, c in ipairs(later) do
        ctx:emit("naval_combat", { group = g, hex = hex, kind = c.kind, enemy = c.enemy, cd = c.cd,
                                   fired_by = c.fired_by, value = c.value, halved = c.halved, round = 1,
                                   night = night })
      end
    end, priority = -100 },
  },
}

-- ---- 32.D.1 -------------------------------------------------------------------------

rule {
  id = "32.D.1", title = "Submarine Naval Combat",
  on = {
    -- d) a non-submarine group (phasing or not) enters a hex in the combat
    -- zone of an enemy submarine group
    group_enters_hex = function(ctx, ev)
      local subs = enemy_groups_near(ctx, ev.group, ev.to, "submarine", sub_foes)
      start_group_combats(ctx, ev, "submarine", subs, false)
    end,
    -- e) a phasing non-submarine group that started the step in the zone
    -- spends MPs in its hex without leaving it
    mp_spent = function(ctx, ev)
      if not spends_without_leaving(ctx, ev) then return end
      local subs = enemy_groups_near(ctx, ev.group, ev.hex, "submarine", sub_foes)
      start_group_combats(ctx, ev, "submarine", subs, true)
    end,
  },
}

-- ---- 32.D.2 -------------------------------------------------------------------------

rule {
  id = "32.D.2", title = "Surface Naval Combat",
  on = {
    -- a) a non-submarine group (phasing or not) enters a hex in the combat
    -- zone of an enemy naval group
    group_enters_hex = function(ctx, ev) start_surface(ctx, ev, ev.to, false) end,
    -- b) a phasing non-submarine group that started the step in the zone
    -- spends MPs in its hex without leaving it
    mp_spent = function(ctx, ev)
      if spends_without_leaving(ctx, ev) then start_surface(ctx, ev, ev.hex, true) end
    end,
  },
}

-- ---- 32.D.3 -------------------------------------------------------------------------

rule {
  id = "32.D.3", title = "CD Combat",
  values = {
    cd_first = 2,      -- a) by the CD at the first 2 MPs in its zone (entry included)
    cd_every = 5,      -- b) by the CD every 5 MPs after the first 2
    group_every = 5,   -- c) by the naval unit at 5 MPs in the zone (entry included), and each 5 after
    adjacent = { num = 1, den = 2 },   -- a CD firing into an adjacent hex: value halved
    cd_types = { CD = true },          -- units that are coast defences (value `cd` = level)
  },
  queries = {
    --- cd_level(hex) -> the coast-defence level at hex (the board's, else a CD unit's), 0 if none
    cd_level = function(ctx, hex)
      local game, v = ctx.game, ctx.rule.values
      local b = game.board
      if b and b:contains(hex) and (b:get_cd(hex) or 0) > 0 then return b:get_cd(hex) end
      for _, u in ipairs(game:units { at = hex }) do   -- on the map there or in its port
        if v.cd_types[game:get(u, "type")] then
          return game:get_value(u, "cd") or game:get_value(u, "strength") or 0
        end
      end
      return 0
    end,
    --- cd_value(level, distance) -> value, halved: a CD firing into an adjacent hex fires at half
    cd_value = function(ctx, level, distance)
      return cd_value(ctx.rule.values, level, distance)
    end,
  },
  on = {
    mp_spent = function(ctx, ev)
      local game, v = ctx.game, ctx.rule.values
      local g, hex, mp = ev.group, ev.hex, ev.mp or 0
      if hex == nil then return end
      -- the group's side, asked once it matters (false: not asked; nil: the
      -- group has none, and then no CD combat and no count changes)
      local cds, side = enemy_cds(ctx, g, hex)
      if side == nil then return end
      local seen = {}
      local left   -- the MPs left matter only at a fire point: asked then, once
      for _, cd in ipairs(cds) do
        if not seen[cd.hex] then
          seen[cd.hex] = true
          -- the MPs spent in this CD's zone this step (keyed value `cd_mp` {group, CD hex})
          local b = game:get_keyed("cd_mp", { g, cd.hex }) or 0
          local a = b + mp
          local pts = fire_points(v, b, a)
          if left == nil and #pts > 0 then left = mp_left(ctx, g, ev.spent) end
          if a ~= b then game:set_keyed("cd_mp", { g, cd.hex }, a) end
          for _, p in ipairs(pts) do
            if left <= 0 then
              -- effects on movement as surface combat: none without MPs (32.D.2)
              ctx:say("no CD combat for %s at %s: it has spent all its MPs", game:group_get_name(g), ctx:label("hex", hex))
            else
              local value, halved = cd_value(v, cd.level, cd.distance)
              add_combat(ev, { kind = "cd", cd = cd.hex, fired_by = p.by, value = value, halved = halved,
                               level = cd.level, at_mp = p.at, return_fire = true, rule = ctx.rule.id })
              local name = game:group_get_name(g)
              ctx:say("CD combat: %s after %d MPs in the CD's zone%s", p.by == "cd"
                and ("the CD at %s fires on %s"):format(ctx:label("hex", cd.hex), name)
                or ("%s fires on the CD at %s"):format(name, ctx:label("hex", cd.hex)), p.at,
                halved and " (adjacent: value halved)" or "")
            end
          end
        end
      end
      -- out of a CD's zone, the count for that CD starts again (last key
      -- first: the indices hold)
      for i = game:count_keyed("cd_mp"), 1, -1 do
        local key = game:at_keyed("cd_mp", i)
        if key[1] == g and not seen[key[2]] then
          if side == false then side = ctx:query("group_side", g) end
          if side == nil then return end
          game:set_keyed("cd_mp", key, nil)
        end
      end
    end,
  },
}

-- ---- helpers shared by the rules of this file ---------------------------------------

-- Remove every key of a keyed map, last first so that the indices hold.
function clear_keyed(game, map)
  for i = game:count_keyed(map), 1, -1 do game:set_keyed(map, game:at_keyed(map, i), nil) end
end

-- ev.combat is the first combat an event starts, ev.combats all of them in order.
function add_combat(ev, c)
  local list = ev.combats or {}
  list[#list + 1] = c
  ev.combats = list
  if ev.combat == nil then ev.combat = c end
end

-- A combat's kind as the narration names it.
function kind_name(kind) return kind == "cd" and "CD" or kind end

-- Who fights whom, and where, for a combat's record: "Regia with enemy Escort
-- at 19A:3408", "the CD at 19A:3413 (value 1, halved) fires on Regia at 19A:3412".
function combatants(ctx, ev, g, hex)
  local game = ctx.game
  local name, at = game:group_get_name(g), ctx:label("hex", hex)
  if ev.kind ~= "cd" then
    local enemy = ev.enemy and game:group_get_name(ev.enemy) or "an unknown group"
    return ("%s with enemy %s at %s"):format(name, enemy, at)
  end
  local cd = ("the CD at %s (value %s%s)"):format(ctx:label("hex", ev.cd), tostring(ev.value), ev.halved and ", halved" or "")
  local where = ev.cd == hex and "in its hex" or ("at " .. at)
  if ev.fired_by == "group" then return ("%s %s fires on %s"):format(name, where, cd) end
  return ("%s fires on %s %s"):format(cd, name, where)
end

-- MPs the group has left after `spent` (its reaction allowance when reacting, 32.C).
function mp_left(ctx, g, spent)
  spent = spent or ctx.game:group_get_value(g, "mp_spent") or 0
  local left = ctx:query("allowance", g) - spent
  if ctx:query("is_reacting", g) then
    local r = ctx:query("reaction_allowance", g) - spent
    if r < left then left = r end
  end
  return left
end

-- The enemy naval groups at sea whose combat zone holds `hex` and that `g`
-- fights: `accept(kind of g, kind of the enemy)` filters. A group at sea
-- ignores enemy groups in port (32.A.2). Ids in order.
function enemy_groups_near(ctx, g, hex, source, accept)
  local game = ctx.game
  local out = {}
  if hex == nil then return out end
  -- where first: most groups are out of the zone, and then whether they
  -- have units, and g's side and kind (pure reads), are not needed at all
  local side, kind
  local groups = ctx:query("groups_on_board")   -- only they have a hex
  for i = 1, #groups do
    local e = groups[i]
    if e ~= g and game:group_get_value(e, "in_port") ~= true then
      local eh = ctx:query("group_hex", e)
      if eh and ctx:query("in_combat_zone", eh, hex, source) and #game:group_units(e) > 0 then
        if side == nil then
          side = ctx:query("group_side", g)
          if side == nil then return out end
          kind = ctx:query("group_kind", g)
        end
        local es = ctx:query("group_side", e)
        if es ~= nil and es ~= side and accept(kind, ctx:query("group_kind", e)) then out[#out + 1] = e end
      end
    end
  end
  return out
end

-- The condition "starts the step in a hex in the combat zone ... and spends
-- any MPs in its hex without leaving the hex" (32.D.1 e, 32.D.2 b): a phasing
-- group spending MPs on an activity (not on entering a hex, not on a combat
-- round) before it has left its hex this step.
function spends_without_leaving(ctx, ev)
  if ev.left_hex or ev.activity == "enter" or ev.activity == "combat round" then return false end
  local g = ev.group
  if ctx.game:group_get_value(g, "c_left") then return false end
  local phasing = ctx.game:get_global("phasing")
  return phasing ~= nil and ctx:query("group_side", g) == phasing
end

-- Start one combat per enemy group (once per step for the start-of-step
-- case: keyed value `engaged` {group, enemy}).
function start_group_combats(ctx, ev, kind, enemies, once)
  local game, g = ctx.game, ev.group
  for _, e in ipairs(enemies) do
    if not (once and game:get_keyed("engaged", { g, e })) then
      if once then game:set_keyed("engaged", { g, e }, true) end
      add_combat(ev, { kind = kind, enemy = e, rule = ctx.rule.id })
      ctx:say("%s combat: %s with enemy %s at %s", kind, game:group_get_name(g), game:group_get_name(e),
        ctx:label("hex", ev.to or ev.hex))
    end
  end
end

function is_sub(kind) return kind == "submarine" end

-- Whom a group of `kind` fights in an enemy submarine's zone (32.D.1):
-- submarines ignore submarines.
function sub_foes(kind, ek) return is_sub(ek) and not is_sub(kind) end

-- Whom a group of `kind` fights at the surface (32.D.2): never submarines
-- (nor does a submarine); a cargo group ignores enemy cargo groups.
function surface_foes(kind, ek)
  if is_sub(kind) or is_sub(ek) then return false end
  return not (kind == "cargo" and ek == "cargo")
end

-- Surface combat with the enemies whose zone holds `hex` (a, or b with
-- `once`): none when the group has no MPs left after this expenditure.
function start_surface(ctx, ev, hex, once)
  local enemies = enemy_groups_near(ctx, ev.group, hex, "naval", surface_foes)
  if #enemies == 0 then return end
  if mp_left(ctx, ev.group, ev.spent) <= 0 then
    ctx:say("no surface combat for %s at %s: it has spent all its MPs", ctx.game:group_get_name(ev.group), ctx:label("hex", hex))
    return
  end
  start_group_combats(ctx, ev, "surface", enemies, once)
end

-- The board's coast defences, {hex = level}, found once per board.
local cd_levels = setmetatable({}, { __mode = "k" })
local function board_cd_levels(board)
  local m = cd_levels[board]
  if not m then
    m = {}
    for _, c in ipairs(board:cds()) do m[c.hex] = c.level end
    cd_levels[board] = m
  end
  return m
end

-- The CDs enemy to group `g` whose combat zone holds `hex`: the board's
-- coast defences (owned by the hex's owner) and CD units (`cd_types`, level
-- = value `cd`), each as { hex =, level =, distance = }, in hex order then
-- unit order; and g's side, asked at the first CD met (false when none is,
-- nil when g has no side: then no CDs).
function enemy_cds(ctx, g, hex)
  local game, v = ctx.game, ctx.rule.values
  local out, seen = {}, {}
  local side = false
  local board = game.board
  -- the zone is symmetric: the CDs whose zone holds `hex` are in the zone around `hex`
  local levels = board and board_cd_levels(board) or {}
  local zone = ctx:query("combat_zone", hex, "cd")
  for i = 1, #zone do
    local h = zone[i]
    local level = levels[h]   -- a hex off the board has none
    local owner = level and game:get_owner(h)
    if owner then
      if side == false then side = ctx:query("group_side", g) end
      if side == nil then return out, nil end
      if owner ~= side then
        local inz, d = ctx:query("in_combat_zone", h, hex, "cd")
        if inz then out[#out + 1] = { hex = h, level = level, distance = d }; seen[h] = true end
      end
    end
  end
  local units, cd_types = game:units(), v.cd_types
  for i = 1, #units do
    local u = units[i]
    if cd_types[game:get(u, "type")] then
      if side == false then side = ctx:query("group_side", g) end
      if side == nil then return out, nil end
      if game:get(u, "side") ~= side then
        local kind, where = game:get(u, "loc")
        if (kind == "hex" or kind == "port") and not seen[where] then
          local inz, d = ctx:query("in_combat_zone", where, hex, "cd")
          local level = game:get_value(u, "cd") or game:get_value(u, "strength") or 0
          if inz and level > 0 then out[#out + 1] = { hex = where, level = level, distance = d, unit = u } end
        end
      end
    end
  end
  return out, side
end

-- A CD's value firing at `distance`: halved next door (value, halved).
function cd_value(v, level, distance)
  if distance == nil or distance == 0 then return level, false end
  local value = level * v.adjacent.num / v.adjacent.den
  if math.type(value) == "float" and value == math.floor(value) then value = math.tointeger(value) end
  return value, true
end

-- The fire points crossed when the MPs spent in a CD's zone go from `before`
-- to `after`: { at = n, by = "cd"|"group" } in order.
function fire_points(v, before, after)
  local pts = {}
  for t = before + 1, after do
    if t == v.cd_first or (t > v.cd_first and (t - v.cd_first) % v.cd_every == 0) then
      pts[#pts + 1] = { at = t, by = "cd" }
    end
    if t % v.group_every == 0 then pts[#pts + 1] = { at = t, by = "group" } end
  end
  return pts
end

-- 37 AMPHIBIOUS LANDINGS (003_324962bba0bb45e8.txt, V 11.08.05): the
-- chapter's opening and its restrictions (a)-(g), and the East Front
-- limitation the text prints after Table 1 — the `land` action, with which
-- the phasing player lands ground units from a naval group at a beach.
--
-- A landing is one order: `land { group, units, hex?, attack?, reduce? }`.
-- Its legality is 37's (a)-(g) below; 37.A, 37.C and 37.D add their say as
-- vetoes (MPs, the plan, damaged craft). Its effect records the landing,
-- sends `landing_begins` (37.A pays the naval MPs; coast defences may fire,
-- and a carrier sunk then takes its cargo with it, 37.B item 7), puts the
-- surviving units ashore, and sends `landing_made` (37.B rolls the Landing
-- Effects Table for each unit; 37.D rolls for each craft; 37.E counts the
-- hex for the enemy's reaction). doc/navgroup.md "Rule 37" has the contract.
--
-- Where the text cites a rule it does not contain, the part is a hook:
-- the breakdown rule of (c) is the query `breakdown_check` (the default
-- reads the unit value `breaks_down`); the friendly beach's 3 RE limit is
-- the query `beach_re_used` (the default counts the REs landed there this
-- player-turn).
--
-- The rule comes first; the helpers it uses follow it.

local side_of, alive_at, is_ground, enemies_at, carrier_in, beach_of, east_front,
  clock_tick, landing_units_text, beaches_of, default_attack, planned_quiet   -- helpers, below the rule

rule {
  id = "37", title = "Amphibious landings",
  values = {
    -- unit types that are not ground units (naval units, coast defences)
    naval_types = { TF = true, CG = true, NT = true, LC = true, LB = true, SUB = true, RF = true },
    cd_types = { CD = true },
    beach_re_limit = 3,              -- a friendly-owned beach's limit (Rule ???): landings only beyond it
    -- the East Front limitation: a scenario switches it on with the global
    -- `east_front` and tags its regions on the map
    east_front = { nationality = "Soviet", soviet_union_tag = "soviet_union", bulgaria_tag = "bulgaria" },
    -- unit values that say what a unit is (doc/navgroup.md, "Rule 37: units")
    classes = { amphibious = "amphibious", marine = "marine", commando = "commando", mountain = "mountain",
                cm = "cm", motorized = "motorized", artillery = "artillery", cavalry = "cavalry",
                armour = "armour", amphibious_armour = "amphibious_armour", heavy_equipment = "he" },
  },
  queries = {
    --- unit_is(u, class) -> boolean: intrinsic (amphibious or marine symbol), marine,
    --- commando, mountain, cm (not amphibious armour, 37 Table 1 *), motorized (c/m too),
    --- artillery, cavalry, armour, amphibious_armour, heavy_equipment (amphibious armour too)
    unit_is = function(ctx, u, class)
      local game, c = ctx.game, ctx.rule.values.classes
      local function has(k) return game:get_value(u, c[k]) == true end
      if class == "intrinsic" then return has("amphibious") or has("marine") end
      if class == "cm" then return has("cm") and not has("amphibious_armour") end
      if class == "motorized" then return has("motorized") or (has("cm") and not has("amphibious_armour")) end
      if class == "heavy_equipment" then return has("heavy_equipment") or has("amphibious_armour") end
      if c[class] == nil then error(("37: no unit class '%s'"):format(tostring(class)), 2) end
      return has(class)
    end,
    --- is_ground_unit(u) -> boolean: in play, not a naval unit, a coast defence or an air unit
    is_ground_unit = function(ctx, u) return is_ground(ctx, u) end,
    --- ground_units_at(hex, side?) -> units: ground units in play at hex (of side, if given)
    ground_units_at = function(ctx, hex, side) return alive_at(ctx, hex, side) end,
    --- defenders_at(hex, side) -> units: the enemy ground units at hex (not side's)
    defenders_at = function(ctx, hex, side) return enemies_at(ctx, hex, side) end,
    --- unit_re(u) -> the unit's printed RE size (unit value `re`, default 1)
    unit_re = function(ctx, u) return ctx.game:get_value(u, "re") or 1 end,
    --- clock() -> player_turn, phase_seq, phase: the player-turn counter (player_turn_start),
    --- the phase counter within it and the phase's name (each phase event)
    clock = function(ctx)
      local game = ctx.game
      return game:get_keyed("clock", "player_turn") or 0, game:get_keyed("clock", "phase_seq") or 0,
        game:get_keyed("clock", "phase")
    end,
    --- landings(filter?) -> ids of landing records, oldest first (filter: {side=, hex=,
    --- player_turn=, this_turn = true})
    landings = function(ctx, filter)
      local game = ctx.game
      filter = filter or {}
      local pt = filter.this_turn and (game:get_keyed("clock", "player_turn") or 0) or filter.player_turn
      local out = {}
      for id = 1, (game:get_keyed("landing", "count") or 0) do
        if (filter.side == nil or game:get_keyed("landing", { id, "side" }) == filter.side)
            and (filter.hex == nil or game:get_keyed("landing", { id, "hex" }) == filter.hex)
            and (pt == nil or game:get_keyed("landing", { id, "player_turn" }) == pt) then
          out[#out + 1] = id
        end
      end
      return out
    end,
    --- landing(id, field) -> a field of a landing record (hex, side, group, assault,
    --- defended, initially_defended, player_turn, airborne, cost, reduction, ...)
    landing = function(ctx, id, field) return ctx.game:get_keyed("landing", { id, field }) end,
    --- breakdown_check(u) -> nil, or why the unit may not land as it is (37 (c)). The
    --- breakdown rule is another chapter: the default reads the unit value
    --- `breaks_down` (true: it has smaller components); a scenario replaces it.
    breakdown_check = function(ctx, u)
      if ctx.game:get_value(u, "breaks_down") == true then
        return ("%s must first be broken down into its smallest components (unit value breaks_down; "
          .. "the breakdown rule is another chapter)"):format(ctx.game:get(u, "name"))
      end
    end,
    --- beach_re_used(hex, side) -> REs side has put ashore at hex this player-turn. The
    --- 3 RE limit is another chapter's: the default counts the landings recorded here.
    beach_re_used = function(ctx, hex, side)
      local game = ctx.game
      local pt = game:get_keyed("clock", "player_turn") or 0
      local n = 0
      for _, u in ipairs(game:units()) do
        local id = game:get_value(u, "landing")
        if id and game:get_keyed("landing", { id, "hex" }) == hex and game:get_keyed("landing", { id, "side" }) == side
            and game:get_keyed("landing", { id, "player_turn" }) == pt then
          n = n + (game:get_value(u, "re") or 1)
        end
      end
      return n
    end,
  },
  actions = {
    -- Land ground units carried by a naval group's units at a beach: the
    -- group's own (coastal) hex, or a coastal hex next to it. `attack`: the
    -- landing units that attack the defenders of an occupied hex (default:
    -- all of them but the c/m units their plan has land without attacking,
    -- 37 (g) and 37.C); `reduce = false` declines a 37.D great-success reduction.
    land = {
      phases = { "movement" },   -- (a): in a naval movement step of the phasing player's movement phase
      params = {
        group = { type = "group", domain = function(ctx, _, side) return ctx:query("side_groups", side) end },
        -- the units its naval units carry
        units = { type = "units", depends = { "group" }, domain = function(ctx, p)
          local out = {}
          for _, c in ipairs(ctx:query("group_members", p.group)) do
            for _, u in ipairs(ctx.game:cargo(c)) do out[#out + 1] = u end
          end
          return out, "37: the group carries no units"
        end },
        -- its hex and those next to it, with owner and defenders (the rule keeps the beaches)
        hex = { type = "hex", optional = true, depends = { "group" }, domain = function(ctx, p)
          return beaches_of(ctx, p.group)
        end },
        -- who attacks: landing units (the rule keeps them to a beach with defenders, 37 (e)),
        -- not those planned to land without attacking (37 (g))
        attack = { type = "units", optional = true, depends = { "units" }, domain = function(ctx, p)
          local out = {}
          for _, u in ipairs(p.units) do
            if not planned_quiet(ctx, u) then out[#out + 1] = u end
          end
          return out, "37 (g): every landing unit was planned to land without attacking"
        end },
        -- false declines a 37.D reduction (37.D refuses it when there is none); left out, it is taken
        reduce = { type = "boolean", optional = true, domain = function() return { false } end },
      },
      legal = function(ctx, p)
        local game, v = ctx.game, ctx.rule.values
        local side = ctx:query("group_side", p.group)
        if not side then return "37: the naval group has no units" end
        -- (a) the phasing player, in any naval movement step
        local phasing = game:get_global("phasing")
        if phasing ~= side then
          return ("37 (a): amphibious landings are made by the phasing player (%s is %s's, the phasing "
            .. "player is %s)"):format(game:group_get_name(p.group), side, tostring(phasing))
        end
        if game:get_keyed("naval_step", side) ~= true then
          return "37 (a): amphibious landings are made in a naval movement step (none is open)"
        end
        -- (b) never in stormy seas
        if game:get_global("sea") == "stormy" then
          return "37 (b): no amphibious landing during stormy sea conditions"
        end
        local hex, why = beach_of(ctx, p.group, p.hex)
        if not hex then return why end
        -- (d) an assault is a landing on an enemy-owned beach; a friendly-owned
        -- beach takes a landing only beyond its 3 RE limit (or, 37.B note 1,
        -- when the landing's MP cost is reduced: the table is then used)
        local owner = game:get_owner(hex)
        if owner == nil then
          return ("37: an amphibious landing is made at an enemy-owned beach, or at a friendly-owned one "
            .. "beyond its %d RE limit; %s is owned by no one"):format(v.beach_re_limit, ctx:label("hex", hex))
        end
        local assault = owner ~= side
        -- the units: ground units of the group's side, carried by its naval units
        if #p.units == 0 then return "37: name the units that land" end
        local seen, re = {}, 0
        for _, u in ipairs(p.units) do
          local name = game:get(u, "name")
          if seen[u] then return ("37: %s is named twice"):format(name) end
          seen[u] = true
          if not is_ground(ctx, u) then return ("37: %s is not a ground unit"):format(name) end
          if game:get(u, "side") ~= side then return ("37: %s is not %s's"):format(name, side) end
          if not carrier_in(ctx, u, p.group) then
            return ("37: %s is not carried by a naval unit of %s"):format(name, game:group_get_name(p.group))
          end
          -- (c) broken down into its smallest components, unless intrinsically amphibious
          if not ctx:query("unit_is", u, "intrinsic") then
            local no = ctx:query("breakdown_check", u)
            if no then return "37 (c): " .. no end
          end
          -- (f) only units in reserve assault
          if assault and game:get_value(u, "reserve") ~= true then
            return ("37 (f): only units in reserve may perform amphibious assaults; %s is not in reserve"):format(name)
          end
          re = re + (game:get_value(u, "re") or 1)
        end
        if not assault then
          local used = ctx:query("beach_re_used", hex, side)
          local _, _, reduced = ctx:query("landing_cost", p.group, p.units, hex, false, { no_credit = p.reduce == false })
          if used + re <= v.beach_re_limit and not (reduced and reduced > 0) then
            return ("37: %s is a friendly-owned beach within its %d RE limit (%d used, %d landing): that is "
              .. "naval transport, not an amphibious landing"):format(ctx:label("hex", hex), v.beach_re_limit, used, re)
          end
        end
        -- (e), 37.B item 4, (g): who attacks the defenders of an occupied hex
        local defenders = enemies_at(ctx, hex, side)
        local attack = p.attack or default_attack(ctx, p.units, #defenders > 0)
        if #defenders == 0 and #attack > 0 then
          return ("37 (e): %s has no defenders to attack"):format(ctx:label("hex", hex))
        end
        if #defenders > 0 then
          local attacking = {}
          for _, u in ipairs(attack) do
            if not seen[u] then return ("37 (e): %s attacks but does not land"):format(game:get(u, "name")) end
            if planned_quiet(ctx, u) then
              return ("37 (g): %s was planned to land without attacking (37.C: it counts double its RE size); "
                .. "it may not attack"):format(game:get(u, "name"))
            end
            attacking[u] = true
          end
          if #attack == 0 then
            return ("37 (e): at least one landing unit must attack the defenders of %s"):format(ctx:label("hex", hex))
          end
          if assault then
            for _, u in ipairs(p.units) do
              if not attacking[u] and not ctx:query("unit_is", u, "cm") then
                return ("37.B item 4: units making an amphibious assault in an enemy-occupied hex must attack its "
                  .. "defenders; only c/m units may land without attacking (37 (g)): %s"):format(game:get(u, "name"))
              end
            end
          end
        end
        -- the East Front limitation (printed after Table 1)
        local no = east_front(ctx, p.units, hex, assault)
        if no then return no end
      end,
      effect = function(ctx, p)
        local game = ctx.game
        local g = p.group
        local side = ctx:query("group_side", g)
        local hex = beach_of(ctx, g, p.hex)
        local assault = game:get_owner(hex) ~= side
        local defenders = enemies_at(ctx, hex, side)
        local initially = false   -- 37.B item 6: CDs and units in reserve do not count
        for _, u in ipairs(defenders) do
          if game:get_value(u, "reserve") ~= true then initially = true end
        end
        local id = (game:get_keyed("landing", "count") or 0) + 1
        game:set_keyed("landing", "count", id)
        local pt = ctx:query("clock")
        game:set_keyed("landing", { id, "hex" }, hex)
        game:set_keyed("landing", { id, "side" }, side)
        game:set_keyed("landing", { id, "group" }, g)
        game:set_keyed("landing", { id, "assault" }, assault)
        game:set_keyed("landing", { id, "defended" }, #defenders > 0)
        game:set_keyed("landing", { id, "initially_defended" }, assault and initially)
        game:set_keyed("landing", { id, "player_turn" }, pt)
        game:set_keyed("landing", { id, "airborne" }, false)
        local attackers = p.attack or default_attack(ctx, p.units, #defenders > 0)
        game:set_keyed("landing", { id, "attack_required" }, #defenders > 0)
        local carriers = {}
        for _, u in ipairs(p.units) do carriers[u] = select(2, game:get(u, "loc")) end
        ctx:say("%s %s %s at %s%s", game:group_get_name(g), assault and "makes an amphibious assault with" or
          "makes an amphibious landing with", landing_units_text(ctx, p.units), ctx:label("hex", hex),
          #defenders > 0 and (" (defended by %d enemy unit%s)"):format(#defenders, #defenders > 1 and "s" or "") or "")
        -- 37.A pays the naval group's MPs (coast defences may fire meanwhile)
        ctx:emit("landing_begins", { landing = id, group = g, hex = hex, units = p.units, assault = assault,
          side = side, reduce = p.reduce ~= false })
        -- the units still aboard go ashore; those lost with their carrier do not
        local landed, lost = {}, {}
        for _, u in ipairs(p.units) do
          local kind = game:get(u, "loc")
          if kind == "unit" then landed[#landed + 1] = u else lost[#lost + 1] = u end
        end
        local attacking = {}
        for _, u in ipairs(attackers) do attacking[u] = true end
        for _, u in ipairs(landed) do
          game:move(u, "hex", hex)
          game:set_value(u, "landing", id)
          if attacking[u] then game:set_value(u, "must_attack", true) end
        end
        ctx:emit("landing_made", { landing = id, group = g, hex = hex, units = landed, lost = lost,
          carriers = carriers, assault = assault, side = side })
        -- units ashore on an empty enemy beach take it (an occupied one is
        -- dual-owned, 37.B item 8)
        if assault and #defenders == 0 and #landed > 0 then
          game:set_owner(hex, side)
          ctx:say("%s takes %s", side, ctx:label("hex", hex))
        end
        return id
      end,
    },
  },
  on = {
    -- the naval movement step in which landings are made (37 (a))
    naval_step_start = function(ctx, ev)
      if ev.side then ctx.game:set_keyed("naval_step", ev.side, true) end
    end,
    naval_step_end = function(ctx, ev)
      if ev.side then ctx.game:set_keyed("naval_step", ev.side, nil) end
    end,
    -- the clock the rules of 37.B-37.E read: player-turns and their phases
    player_turn_start = function(ctx, ev) clock_tick(ctx, "player_turn_start", ev) end,
    initial_phase = function(ctx, ev) clock_tick(ctx, "initial", ev) end,
    movement_phase = function(ctx, ev) clock_tick(ctx, "movement", ev) end,
    reaction_phase = { function(ctx, ev) clock_tick(ctx, "reaction", ev) end, priority = 100 },
    combat_phase = { function(ctx, ev) clock_tick(ctx, "combat", ev) end, priority = 100 },
    exploitation_phase = { function(ctx, ev) clock_tick(ctx, "exploitation", ev) end, priority = 100 },
    supply_phase = { function(ctx, ev) clock_tick(ctx, "supply", ev) end, priority = 100 },
  },
}

-- ---- helpers used by the rule -------------------------------------------------------

function side_of(ctx, u) return ctx.game:get(u, "side") end

-- 37 (g): a c/m unit whose plan (37.C) has it land without attacking
function planned_quiet(ctx, u) return ctx.game:get_value(u, "plan_no_attack") == true end

-- who attacks when the order leaves it out: every landing unit of a defended
-- beach but those planned to land without attacking (37 (g))
function default_attack(ctx, units, defended)
  local out = {}
  if not defended then return out end
  for _, u in ipairs(units) do
    if not planned_quiet(ctx, u) then out[#out + 1] = u end
  end
  return out
end

function is_ground(ctx, u)
  local game, v = ctx.game, ctx.rule.values
  if game:get(u, "loc") == "dead" then return false end
  local t = game:get(u, "type")
  if v.naval_types[t] or v.cd_types[t] then return false end
  if game:get_value(u, "air") == true or game:get_value(u, "mission") ~= nil then return false end
  return true
end

-- ground units in play at hex (of side, if given), in id order (the
-- kernel's index gives the units there)
function alive_at(ctx, hex, side)
  local out = {}
  for _, u in ipairs(ctx.game:units { loc = "hex", at = hex, side = side }) do
    if is_ground(ctx, u) then out[#out + 1] = u end
  end
  return out
end

-- the ground units at hex of any side but `side`
function enemies_at(ctx, hex, side)
  local out = {}
  for _, u in ipairs(alive_at(ctx, hex)) do
    if side_of(ctx, u) ~= side then out[#out + 1] = u end
  end
  return out
end

-- is u carried by a naval unit of group g?
function carrier_in(ctx, u, g)
  local kind, carrier = ctx.game:get(u, "loc")
  if kind ~= "unit" then return false end
  for _, m in ipairs(ctx:query("group_members", g)) do
    if m == carrier then return true end
  end
  return false
end

-- the beach: the group's hex when coastal, else `hex`, a coastal hex next to it
function beach_of(ctx, g, want)
  local game = ctx.game
  local at, in_port = ctx:query("group_hex", g)
  if not at then return nil, "37: the naval group has no units on the map" end
  if in_port then return nil, ("37: %s is in port: it lands units from the sea"):format(game:group_get_name(g)) end
  local hex = want or at
  if hex ~= at and keel.hex.distance(hex, at) ~= 1 then
    return nil, ("37: %s lands in its own hex or the next one, not at %s"):format(game:group_get_name(g), ctx:label("hex", hex))
  end
  local b = game.board
  if b and (not b:contains(hex) or b:get_terrain(hex) ~= "coastal") then
    return nil, ("37: %s is no beach (a beach is a coastal hex)"):format(ctx:label("hex", hex))
  end
  return hex
end

-- the hexes a group may land at: its own and those next to it, on the map,
-- with their owner and defenders (beach_of, in the rule, says which are beaches)
function beaches_of(ctx, g)
  local game = ctx.game
  local at = ctx:query("group_hex", g)
  if not at then return {}, "37: the naval group has no units on the map" end
  local side = ctx:query("group_side", g)
  local out = {}
  for _, h in ipairs(keel.hex.spiral(at, 1)) do
    if not game.board or game.board:contains(h) then
      out[#out + 1] = { value = h, owner = game:get_owner(h), defenders = #enemies_at(ctx, h, side) }
    end
  end
  return out
end

-- The East Front limitation: Soviet units land neither in nor next to a port
-- hex outside the Soviet Union, and make no assault in Bulgaria.
function east_front(ctx, units, hex, assault)
  local game, v = ctx.game, ctx.rule.values.east_front
  if game:get_global("east_front") ~= true then return nil end
  local soviet = false
  for _, u in ipairs(units) do
    if (game:get_value(u, "nationality") or game:get(u, "side")) == v.nationality then soviet = true end
  end
  if not soviet then return nil end
  local b = game.board
  for _, h in ipairs(keel.hex.spiral(hex, 1)) do
    if b:contains(h) and b:get_port(h) and not b:has_tag(h, v.soviet_union_tag) then
      return ("37 (East Front): Soviet units may not land in or next to a port outside the Soviet Union (%s)")
        :format(ctx:label("hex", h))
    end
  end
  if assault and b:has_tag(hex, v.bulgaria_tag) then
    return ("37 (East Front): Soviet units make no amphibious assault in Bulgaria (%s)"):format(ctx:label("hex", hex))
  end
end

-- player_turn_start starts a new player-turn (phase 0); each phase event the next phase
function clock_tick(ctx, what, _)
  local game = ctx.game
  if what == "player_turn_start" then
    game:set_keyed("clock", "player_turn", (game:get_keyed("clock", "player_turn") or 0) + 1)
    game:set_keyed("clock", "phase_seq", 0)
    game:set_keyed("clock", "phase", nil)
    return
  end
  game:set_keyed("clock", "phase_seq", (game:get_keyed("clock", "phase_seq") or 0) + 1)
  game:set_keyed("clock", "phase", what)
end

function landing_units_text(ctx, units)
  local names = {}
  for _, u in ipairs(units) do names[#names + 1] = ctx.game:get(u, "name") end
  return table.concat(names, ", ")
end

-- 37.B GROUND OPERATIONS (003_324962bba0bb45e8.txt): what landing does to a
-- unit during the movement, combat and supply judgement phases of the
-- player-turn it lands — items 1) to 13), the Strength/RE Modifier Table
-- (Table 1), the Landing Effects Table (Table 2) with every modifier and its
-- two notes, and the last paragraph (overruns and combat as after an
-- airborne landing).
--
-- Chapters the text cites but does not contain are hooks a scenario
-- supplies; each default records what happened and says so:
--   ZOC            queries unit_zoc, zoc_level, zoc_entry_mp (units exert the
--                  ZOC of their value `zoc`; a scenario wraps them for its own)
--   ground combat  the family event `ground_combat` (a scenario rule sets
--                  ev.result; the default records the combat, no casualties)
--   supply         the theatre SP pool (keyed value sp_pool, by side), the SP
--                  costs of special supply and full-strength attacks (values)
--   terrain, forts board tags (values.ground_terrains, fort_tag)
--   port size      values.port_sizes (stand-in ordinal, as 32.B's)
--   CD suppression keyed value cd_suppressed, by hex (levels), set by the
--                  chapter that suppresses CDs
-- How the strength multipliers combine is written in doc/navgroup.md.
--
-- The rule comes first; the helpers it uses follow it.

local is, landed_this_turn, defenders_of, capture_of, modifiers_for, apply_effects,
  strength_factors, re_factor, exerted, zoc_at, cds_into, clear_values, fraction_text, sp_text,
  apply_combat, combat_info, pool_of, spend_pool, landing_hexes_of, units_near, landed_units, unmade_attack,
  quiet, units_around, zoc_scan, YES   -- helpers, below the rule

rule {
  id = "37.B", title = "Ground operations",
  standin = { port_sizes = "the operational port size (another chapter)",
              zoc_entry_mp = "the ZOC chapter (MPs to enter an enemy ZOC)",
              special_supply_sp = "the supply chapter (SP costs)", full_strength_sp = "the supply chapter (SP costs)" },
  values = {
    effects_table = "amphibious_landing_effects",
    strength_table = "amphibious_strength",
    re_table = "amphibious_re_size",
    marker = "mp_penalty",                  -- the "+ # MP" marker (count = #)
    motorized_factor = 2,                   -- "Double the # if placed on a motorized unit"
    sp_parts = 24,                          -- SPs with units are kept in 24ths (the table's fractions, halved)
    -- port size as a number (the operational port size is another chapter's: a stand-in ordinal)
    port_sizes = { minor = 1, standard = 2, medium = 2, major = 3, great = 4 },
    -- ground terrain (another chapter): the first of these board tags a hex has; none: clear
    ground_terrains = { "mountain", "cliffs", "hills", "forest", "woods", "rough", "swamp", "marsh", "city" },
    cliff_terrains = { mountain = true, cliffs = true },   -- "coastal cliffs or mountains"
    fort_tag = "fort", fort_types = { FORT = true },
    restricted_tag = "restricted_waters",
    before = { year = 1943, month = 11 },                  -- "before Nov 1 43"
    heavy_snow = "heavy snow",                             -- the global `weather`
    -- ZOC (another chapter): unit value `zoc` -> level it exerts in its hex and the next
    zoc_levels = { none = 0, partial = 1, full = 2, double = 3, triple = 4 },
    default_zoc = "full",
    -- MPs to enter an enemy ZOC by level: 1 for a partial ZOC is item 9's example;
    -- the others are another chapter's (STAND-IN values a scenario replaces)
    zoc_entry_mp = { 1, 2, 3, 3 },
    -- SP costs of the supply chapter (STAND-IN values a scenario replaces): per RE
    special_supply_sp = 1,       -- item 10: trace to a special supply source
    full_strength_sp = 1,        -- item 11: attack at full strength
    sp_sources = { hq = true, special = true },   -- item 5's exception: army/front HQ, special supply source
    disrupted_marker = "disrupted",
  },
  queries = {
    --- strength_factor(u) -> num, den, factors: Table 1 (or item 2) and the note's halving
    strength_factor = function(ctx, u)
      local f = strength_factors(ctx, u)
      local num, den = 1, 1
      for _, x in ipairs(f) do num, den = num * x.num, den * x.den end
      return num, den, f
    end,
    --- transport_re(u, opts) -> RE size for amphibious transport (Table 1's RE multipliers;
    --- opts.no_attack: a c/m unit landing in the first wave without attacking, 37 (g))
    transport_re = function(ctx, u, opts)
      -- kept per state of the game: every plan a listing checks asks it of its units
      local cache = ctx:cache("navgroup.transport_re")
      local no_attack = opts ~= nil and opts.no_attack or false
      local key = no_attack and -u or u
      local re = cache[key]
      if re == nil then
        re = (ctx.game:get_value(u, "re") or 1) * re_factor(ctx, u, opts or {})
        cache[key] = re
      end
      return re
    end,
    --- unit_zoc(u) -> level u exerts in its own hex, level in the hexes next to it (item 9)
    unit_zoc = function(ctx, u) return exerted(ctx, u) end,
    --- zoc_level(side, hex) -> the highest ZOC level units of `side` exert in hex
    --- ("enemy": of every side but the named one: zoc_level(side, hex, true))
    zoc_level = function(ctx, side, hex, others) return zoc_at(ctx, side, hex, others) end,
    --- zoc_entry_mp(side, hex, others) -> MPs to enter hex in the ZOC `side` (others: every
    --- side but it) exerts there
    zoc_entry_mp = function(ctx, side, hex, others)
      local level = zoc_at(ctx, side, hex, others)
      if level <= 0 then return 0 end
      local t = ctx.rule.values.zoc_entry_mp
      return t[level] or t[#t]
    end,
    --- ground_terrain(hex) -> the ground terrain name (board tag), "clear" if none
    ground_terrain = function(ctx, hex)
      local b = ctx.game.board
      if b and b:contains(hex) then
        for _, t in ipairs(ctx.rule.values.ground_terrains) do
          if b:has_tag(hex, t) then return t end
        end
      end
      return "clear"
    end,
    --- cd_strength_into(side, hex) -> strength points of enemy CDs (of a side but `side`)
    --- that may fire into hex, non-suppressed levels only
    cd_strength_into = function(ctx, side, hex) return cds_into(ctx, side, hex) end,
    --- landing_modifiers(landing, u) -> the Landing Effects Table's modifiers for u
    landing_modifiers = function(ctx, id, u) return modifiers_for(ctx, id, u) end,
    --- sp_pool(side) -> SPs in the side's theatre pool
    sp_pool = function(ctx, side) return pool_of(ctx, side) end,
    --- hex_owners(hex) -> the owner, and the side that forced dual ownership (item 8)
    hex_owners = function(ctx, hex)
      local game = ctx.game
      local owner = game:get_owner(hex)
      for _, id in ipairs(ctx:query("landings", { hex = hex })) do
        local side = ctx:query("landing", id, "side")
        if ctx:query("landing", id, "dual") and side ~= owner and #ctx:query("ground_units_at", hex, side) > 0 then
          return owner, side
        end
      end
      return owner
    end,
    --- combat_isolated(u, hex) -> true when u's casualties in hex are classed as combat
    --- isolated: it landed there this player-turn on an initially defended beach (item 6)
    combat_isolated = function(ctx, u, hex)
      local id = ctx.game:get_value(u, "landing")
      if not id or not landed_this_turn(ctx, u) then return false end
      return ctx:query("landing", id, "hex") == hex and ctx:query("landing", id, "initially_defended") == true
    end,
  },
  actions = {
    -- Items 4, 5, 11 and 37 (e): the attack on the defenders of a landing
    -- hex, in the combat phase. `units`: the attackers (every unit that must
    -- attack there, item 4; others may join); `planned`/`overstack`: item 5
    -- (not for assaulting units, unless their SPs come from `sp_source`
    -- "hq" or "special"); `full_strength`: item 11 (theatre SPs).
    -- Domains (keel.legal): the phasing side's landing hexes of this
    -- player-turn that have defenders; its ground units in or next to one;
    -- the item 5 and 11 options (each flag offered set; left out, it is off).
    amphibious_attack = {
      phases = { "combat" },
      params = {
        hex = { type = "hex", domain = function(ctx, _, side) return landing_hexes_of(ctx, side, "attack") end },
        units = { type = "units", depends = { "hex" }, domain = function(ctx, p)
          return units_near(ctx, p.hex, ctx.game:get_global("phasing"), true)
        end },
        planned = { type = "boolean", optional = true, domain = function() return YES end },
        overstack = { type = "boolean", optional = true, domain = function() return YES end },
        -- item 5: the source of the SPs (it matters for a planned attack or one from overstack)
        sp_source = { type = "string", optional = true, domain = function(ctx)
          local out = {}
          for k in pairs(ctx.rule.values.sp_sources) do out[#out + 1] = k end
          table.sort(out)
          return out
        end },
        full_strength = { type = "boolean", optional = true, domain = function() return YES end },
      },
      legal = function(ctx, p)
        local game, v = ctx.game, ctx.rule.values
        local side = game:get_global("phasing")
        local _, _, phase = ctx:query("clock")
        if phase ~= "combat" then return ("37.B: attacks are made in the combat phase (now: %s)"):format(tostring(phase)) end
        if #p.units == 0 then return "37.B: name the attacking units" end
        if #defenders_of(ctx, p.hex, side) == 0 then return ("37.B: %s has no defenders"):format(ctx:label("hex", p.hex)) end
        local named, landing_unit, assaulting = {}, false, false
        for _, u in ipairs(p.units) do
          named[u] = true
          local kind, at = game:get(u, "loc")
          if game:get(u, "side") ~= side or not ctx:query("is_ground_unit", u) then
            return ("37.B: %s is not a ground unit of the phasing player"):format(ctx:label("unit", u))
          end
          if quiet(ctx, u) then
            return ("37 (g): %s landed without attacking (its plan says so, 37.C); it may not attack this player-turn")
              :format(ctx:label("unit", u))
          end
          if kind ~= "hex" or keel.hex.distance(at, p.hex) > 1 then
            return ("37.B: %s is neither in nor next to %s"):format(ctx:label("unit", u), ctx:label("hex", p.hex))
          end
          if landed_this_turn(ctx, u) and at == p.hex then
            landing_unit = true
            if ctx:query("landing", game:get_value(u, "landing"), "assault") then assaulting = true end
          end
        end
        for _, u in ipairs(ctx:query("ground_units_at", p.hex, side)) do
          if game:get_value(u, "must_attack") == true and landed_this_turn(ctx, u) and not named[u] then
            return ("37.B item 4: %s made an amphibious assault into an occupied hex and must attack its defenders")
              :format(ctx:label("unit", u))
          end
        end
        if not landing_unit then
          return ("37 (e): at least one unit that landed at %s must attack its defenders"):format(ctx:label("hex", p.hex))
        end
        if assaulting and (p.planned or p.overstack) and not v.sp_sources[p.sp_source or ""] then
          return ("37.B item 5: units making an amphibious assault may not use %s, unless they expend SPs from "
            .. "an army/front HQ or a special supply source"):format(p.planned and "a planned attack" or
            "an attack from overstack")
        end
        if p.full_strength then
          local need = 0
          for _, u in ipairs(p.units) do need = need + math.ceil(game:get_value(u, "re") or 1) * v.full_strength_sp end
          if pool_of(ctx, side) < need then
            return ("37.B item 11: a full-strength attack costs %d SPs from the theatre pool, %d there")
              :format(need, pool_of(ctx, side))
          end
        end
      end,
      effect = function(ctx, p)
        local game, v = ctx.game, ctx.rule.values
        local side = game:get_global("phasing")
        local sp = 0
        if p.full_strength then
          for _, u in ipairs(p.units) do sp = sp + math.ceil(game:get_value(u, "re") or 1) * v.full_strength_sp end
          spend_pool(ctx, side, sp, "item 11: a full-strength attack (no port or NT capacity used)")
        end
        for _, id in ipairs(ctx:query("landings", { hex = p.hex, side = side, this_turn = true })) do
          game:set_keyed("landing", { id, "attacked" }, true)
        end
        local ev = combat_info(ctx, "amphibious assault", p.hex, side, p.units, defenders_of(ctx, p.hex, side))
        ev.planned, ev.overstack, ev.sp_source = p.planned == true, p.overstack == true, p.sp_source
        ev.full_strength, ev.sp_spent = p.full_strength == true, sp
        ctx:emit("ground_combat", ev)
        return ev.record
      end,
    },
    -- Item 3: defending units may make hasty attacks against units making an
    -- amphibious assault (the hasty attack itself is another chapter's).
    -- Domains: the phasing side's assault hexes of this player-turn, and the
    -- other sides' ground units in or next to one.
    hasty_attack = {
      side = "other", phases = { "reaction" },   -- the defender, before the landing player's combat phase
      params = {
        hex = { type = "hex", domain = function(ctx, _, side) return landing_hexes_of(ctx, side, "hasty") end },
        units = { type = "units", depends = { "hex" }, domain = function(ctx, p, side)
          if side then return units_near(ctx, p.hex, side, true) end
          return units_near(ctx, p.hex, ctx.game:get_global("phasing"), false)
        end },
      },
      legal = function(ctx, p)
        local game = ctx.game
        local phasing = game:get_global("phasing")
        local assault = false
        for _, id in ipairs(ctx:query("landings", { hex = p.hex, side = phasing, this_turn = true })) do
          if ctx:query("landing", id, "assault") then assault = true end
        end
        if not assault then
          return ("37.B item 3: hasty attacks are against units making an amphibious assault; none at %s")
            :format(ctx:label("hex", p.hex))
        end
        if #p.units == 0 then return "37.B: name the attacking units" end
        for _, u in ipairs(p.units) do
          local kind, at = game:get(u, "loc")
          if game:get(u, "side") == phasing or not ctx:query("is_ground_unit", u) then
            return ("37.B item 3: %s is not a defending ground unit"):format(ctx:label("unit", u))
          end
          if kind ~= "hex" or keel.hex.distance(at, p.hex) > 1 then
            return ("37.B: %s is neither in nor next to %s"):format(ctx:label("unit", u), ctx:label("hex", p.hex))
          end
        end
      end,
      effect = function(ctx, p)
        local game = ctx.game
        local phasing = game:get_global("phasing")
        local ev = combat_info(ctx, "hasty attack", p.hex, game:get(p.units[1], "side"), p.units,
          ctx:query("ground_units_at", p.hex, phasing))
        ctx:emit("ground_combat", ev)
        return ev.record
      end,
    },
    -- Item 10: in the supply judgement phase, landing units trace to a special
    -- supply source by expending SPs from the theatre's pool.
    -- Domain: the side's units that landed this player-turn.
    special_supply = {
      phases = { "supply" },
      params = { units = { type = "units", domain = function(ctx, _, side) return landed_units(ctx, side) end } },
      legal = function(ctx, p)
        local game, v = ctx.game, ctx.rule.values
        local _, _, phase = ctx:query("clock")
        if phase ~= "supply" then
          return ("37.B item 10: special supply is traced in the supply judgement phase (now: %s)"):format(tostring(phase))
        end
        if #p.units == 0 then return "37.B: name the units" end
        local side, need = game:get(p.units[1], "side"), 0
        for _, u in ipairs(p.units) do
          if not landed_this_turn(ctx, u) then
            return ("37.B item 10: %s did not land this player-turn"):format(ctx:label("unit", u))
          end
          need = need + math.ceil(game:get_value(u, "re") or 1) * v.special_supply_sp
        end
        if pool_of(ctx, side) < need then
          return ("37.B item 10: special supply costs %d SPs from the theatre pool, %d there"):format(need, pool_of(ctx, side))
        end
      end,
      effect = function(ctx, p)
        local game, v = ctx.game, ctx.rule.values
        local side, need = game:get(p.units[1], "side"), 0
        for _, u in ipairs(p.units) do
          need = need + math.ceil(game:get_value(u, "re") or 1) * v.special_supply_sp
          game:set_value(u, "supply", "special")
        end
        spend_pool(ctx, side, need, "item 10: special supply (no port or NT capacity used)")
      end,
    },
  },
  vetoes = {
    -- item 4 / 37 (e): the combat phase does not end (the sequence of play's
    -- pass) before the required attacks are made
    end_phase = function(ctx)
      local _, _, phase = ctx:query("clock")
      if phase ~= "combat" or (ctx.game:get_global("seq_windows") or 0) > 0 then return nil end
      local hex = unmade_attack(ctx, ctx.game:get_global("phasing"))
      if hex then
        return ("37 (e), item 4: the units that landed at %s must attack its defenders before the combat phase "
          .. "ends (amphibious_attack)"):format(ctx:label("hex", hex))
      end
    end,
  },
  on = {
    -- Items 1, 2, 8, 9, 12, 13 and Table 1 for the units that landed; item 7
    -- for those lost aboard their carrier
    landing_made = function(ctx, ev) apply_effects(ctx, ev) end,
    -- Item 7: a carrier sunk with units bound for a planned assault
    unit_sunk = function(ctx, ev)
      local game = ctx.game
      local list = { ev.unit }
      for _, u in ipairs(ev.cargo or {}) do list[#list + 1] = u end
      for _, u in ipairs(list) do
        local plan = u and game:get_value(u, "plan")
        if plan and game:get_value(u, "plan_assault") == true then
          local hex = ctx:query("plan_field", plan, "hex")
          local initially = false
          for _, d in ipairs(defenders_of(ctx, hex, game:get(u, "side"))) do
            if game:get_value(d, "reserve") ~= true then initially = true end
          end
          game:set_value(u, "loss_class", initially and "combat isolated" or "normal")
          ctx:say("item 7: %s, lost aboard on its way to assault %s, is %s", ctx:label("unit", u), ctx:label("hex", hex),
            initially and "classed as combat isolated (the beach is initially defended)" or "lost normally")
        end
      end
    end,
    -- the ground combat chapter resolves a combat (ev.result); this applies it
    ground_combat = { function(ctx, ev) apply_combat(ctx, ev) end, priority = -100 },
    -- who captured a hex, and when (the capture modifiers of Table 2)
    owner_changed = function(ctx, ev)
      if math.type(ev.hex) ~= "integer" then return end   -- a refresh that names no hex
      local game = ctx.game
      local pt, seq = ctx:query("clock")
      game:set_keyed("captured", { ev.hex, "side" }, ev.side)
      game:set_keyed("captured", { ev.hex, "player_turn" }, pt)
      game:set_keyed("captured", { ev.hex, "phase_seq" }, seq)
    end,
    -- the note to Table 1: halved until the next enemy combat phase
    combat_phase = function(ctx, ev)
      local game = ctx.game
      for _, u in ipairs(game:units()) do
        if game:get_value(u, "transport_halved") == true and ev.side ~= nil and game:get(u, "side") ~= ev.side then
          game:set_value(u, "transport_halved", nil)
          ctx:say("%s is no longer halved for its transport by sea (the enemy combat phase)", ctx:label("unit", u))
        end
      end
    end,
    -- item 4 / 37 (e): the required attacks were made in the combat phase
    exploitation_phase = function(ctx, ev)
      local hex = unmade_attack(ctx, ev.side or ctx.game:get_global("phasing"))
      if hex then
        error(("37 (e): the units that landed at %s have not attacked its defenders (a required attack)")
          :format(ctx:label("hex", hex)), 0)
      end
    end,
    -- items 1-13 hold for the player-turn of the landing
    player_turn_end = function(ctx, ev)
      local game = ctx.game
      for _, u in ipairs(game:units()) do
        if game:get_value(u, "landing") and (ev.side == nil or game:get(u, "side") == ev.side) then
          clear_values(game, u, { "zoc_reduced", "must_attack", "strength_num", "strength_den" })
        end
      end
    end,
  },
}

-- ---- helpers used by the rule -------------------------------------------------------

-- the board's label of a hex: 37's query hex_label
function is(ctx, u, class) return ctx:query("unit_is", u, class) end

function landed_this_turn(ctx, u)
  local id = ctx.game:get_value(u, "landing")
  if not id then return false end
  return ctx:query("landing", id, "player_turn") == (ctx:query("clock"))
end

function defenders_of(ctx, hex, side) return ctx:query("defenders_at", hex, side) end

-- 37 (g): a c/m unit that landed this player-turn without attacking, as its plan said (37.C)
function quiet(ctx, u)
  return ctx.game:get_value(u, "plan_no_attack") == true and landed_this_turn(ctx, u)
end

-- The first landing hex of `side` this player-turn whose required attack
-- (item 4, 37 (e)) is still to be made: it has defenders, no attack was
-- made there, and a unit that landed there to attack is still in it (when
-- none is left, nobody is left to make it). Nil when there is none.
function unmade_attack(ctx, side)
  local game = ctx.game
  for _, id in ipairs(ctx:query("landings", { side = side, this_turn = true })) do
    local hex = ctx:query("landing", id, "hex")
    if ctx:query("landing", id, "attack_required") and not ctx:query("landing", id, "attacked")
        and #defenders_of(ctx, hex, ctx:query("landing", id, "side")) > 0 then
      for _, u in ipairs(ctx:query("ground_units_at", hex, ctx:query("landing", id, "side"))) do
        if game:get_value(u, "landing") == id and game:get_value(u, "must_attack") == true then return hex end
      end
    end
  end
end

-- a flag's one value to offer (left out, it is false)
YES = { true }

-- The phasing side's landing hexes of this player-turn, in the order landed:
-- those with defenders (what = "attack": the phasing side's attacks), or
-- those of an assault (what = "hasty": the defender's hasty attacks, item 3),
-- with their defenders counted. `side`: the side asking (nil: any).
function landing_hexes_of(ctx, side, what)
  local phasing = ctx.game:get_global("phasing")
  if side ~= nil and what == "attack" and side ~= phasing then
    return {}, ("37.B: attacks from a landing are the phasing player's (%s)"):format(tostring(phasing))
  end
  if side ~= nil and what == "hasty" and side == phasing then
    return {}, "37.B item 3: hasty attacks are made by the defending player"
  end
  local out, seen = {}, {}
  for _, id in ipairs(ctx:query("landings", { side = phasing, this_turn = true })) do
    local h = ctx:query("landing", id, "hex")
    local n = #defenders_of(ctx, h, phasing)
    local fits = what == "attack" and n > 0 or what == "hasty" and ctx:query("landing", id, "assault") == true
    if fits and not seen[h] then
      seen[h] = true
      out[#out + 1] = { value = h, defenders = n }
    end
  end
  return out, what == "attack" and "37.B: no landing this player-turn has defenders to attack"
    or "37.B item 3: no amphibious assault this player-turn"
end

-- the units on the map in hex and the hexes next to it, in id order (the
-- kernel's index: units_near and zoc_at look at nothing farther)
function units_around(game, hex)
  local ids = game:units { loc = "hex", at = hex }
  for _, n in ipairs(keel.hex.neighbors(hex)) do
    for _, u in ipairs(game:units { loc = "hex", at = n }) do ids[#ids + 1] = u end
  end
  table.sort(ids)
  return ids
end

-- The ground units in or next to hex: of `side` (own = true), or of the
-- sides but `side` (own = false)
function units_near(ctx, hex, side, own)
  local game = ctx.game
  local out = {}
  for _, u in ipairs(units_around(game, hex)) do
    local kind, at = game:get(u, "loc")
    local s = game:get(u, "side")
    if kind == "hex" and keel.hex.distance(at, hex) <= 1 and ((own and s == side) or (not own and s ~= side))
        and ctx:query("is_ground_unit", u) and not (own and quiet(ctx, u)) then
      out[#out + 1] = { value = u, landed = landed_this_turn(ctx, u) and at == hex,
                        must_attack = game:get_value(u, "must_attack") == true }
    end
  end
  return out, ("37.B: no ground unit in or next to %s"):format(ctx:label("hex", hex))
end

-- the units of `side` (nil: any) on the map that landed this player-turn
function landed_units(ctx, side)
  local game = ctx.game
  local out = {}
  for _, u in ipairs(game:units { loc = "hex", side = side }) do
    if landed_this_turn(ctx, u) then
      out[#out + 1] = u
    end
  end
  return out, "37.B item 10: no unit landed this player-turn"
end

function clear_values(game, u, keys)
  for _, k in ipairs(keys) do
    if game:get_value(u, k) ~= nil then game:set_value(u, k, nil) end
  end
end

-- the theatre SP pool of a side (the supply chapter's; keyed value sp_pool, by side)
function pool_of(ctx, side) return ctx.game:get_keyed("sp_pool", side) or 0 end

function spend_pool(ctx, side, n, why)
  local left = pool_of(ctx, side) - n
  ctx.game:set_keyed("sp_pool", side, left)
  ctx:say("%s: %d SP%s from %s's theatre pool (%d left)", why, n, n == 1 and "" or "s", side, left)
end

-- who captured a hex and when: side, player_turn, phase_seq
function capture_of(ctx, hex)
  local game = ctx.game
  return game:get_keyed("captured", { hex, "side" }), game:get_keyed("captured", { hex, "player_turn" }),
    game:get_keyed("captured", { hex, "phase_seq" })
end

-- ZOC: the levels a unit exerts in its own hex and in the hexes next to it
-- (unit value `zoc`, default full); a unit that made an amphibious assault
-- this player-turn exerts a partial ZOC in its hex and none next to it (item 9)
function exerted(ctx, u)
  local game, v = ctx.game, ctx.rule.values
  local level = v.zoc_levels[game:get_value(u, "zoc") or v.default_zoc] or 0
  if game:get_value(u, "zoc_reduced") == true then
    return math.min(level, v.zoc_levels.partial), 0
  end
  return level, level
end

-- the highest ZOC level units of `side` (others: of every side but it) exert in hex
-- (kept per state of the game: a reaction's paths ask it of every hex they try)
function zoc_at(ctx, side, hex, others)
  local cache = ctx:cache(others and "navgroup.zoc_others" or "navgroup.zoc")
  local by_side = cache[side or false]
  if not by_side then by_side = {}; cache[side or false] = by_side end
  local level = by_side[hex]
  if level == nil then
    level = zoc_scan(ctx, side, hex, others)
    by_side[hex] = level
  end
  return level
end

function zoc_scan(ctx, side, hex, others)
  local game = ctx.game
  local best = 0
  for _, u in ipairs(units_around(game, hex)) do
    local kind, at = game:get(u, "loc")
    if kind == "hex" and ctx:query("is_ground_unit", u) then
      local s = game:get(u, "side")
      if (others and s ~= side) or (not others and s == side) then
        local d = keel.hex.distance(at, hex)
        if d <= 1 then
          local own, next_to = exerted(ctx, u)
          local l = d == 0 and own or next_to
          if l > best then best = l end
        end
      end
    end
  end
  return best
end

-- strength points of CDs of a side but `side` that may fire into hex: those
-- whose combat zone (32.D) holds it, at 32.D.3's value for the distance,
-- without the suppressed levels (keyed value cd_suppressed, by hex)
function cds_into(ctx, side, hex)
  local game = ctx.game
  local total = 0
  for _, h in ipairs(ctx:query("combat_zone", hex, "cd")) do
    local owner = game:get_owner(h)
    local level = ctx:query("cd_level", h) - (game:get_keyed("cd_suppressed", h) or 0)
    if level > 0 and owner ~= nil and owner ~= side then
      local value = ctx:query("cd_value", level, keel.hex.distance(h, hex))
      total = total + value
    end
  end
  return math.floor(total)
end

-- Table 1's strength multipliers for an assault, item 2 for a landing, and
-- the note's halving for transport by sea: { {num, den, why}, ... }
function strength_factors(ctx, u)
  local game = ctx.game
  local out = {}
  local id = game:get_value(u, "landing")
  local function add(num, den, why) out[#out + 1] = { num = num, den = den, why = why } end
  if id and game:get_value(u, "strength_num") then
    add(game:get_value(u, "strength_num"), game:get_value(u, "strength_den"), "Table 1 / item 2")
  end
  if game:get_value(u, "transport_halved") == true then add(1, 2, "transported by sea (note to Table 1)") end
  return out
end

-- Table 1's multipliers as they apply to u landing from `carrier` at hex
local function table1(ctx, u, carrier_type, hex, assault)
  local game, v = ctx.game, ctx.rule.values
  local t = ctx:table(v.strength_table)
  local rows = {}
  local function row(key)
    local c = t:get(key, "multiplier")
    rows[#rows + 1] = { num = c.num, den = c.den, why = t.by_key[key].label }
  end
  if not assault then
    -- item 2: a unit transported by NTs halves its combat strength
    if carrier_type == "NT" then row("nt_or_tf") end
    return rows
  end
  if is(ctx, u, "cavalry") then row("cavalry") end
  if is(ctx, u, "armour") and not is(ctx, u, "intrinsic") and not is(ctx, u, "amphibious_armour") then row("armour") end
  if is(ctx, u, "intrinsic") then row("intrinsic_amphibious") end
  if carrier_type == "LC" then row("landing_craft")
  elseif carrier_type == "LB" then row("landing_barge")
  else row("nt_or_tf") end
  if v.cliff_terrains[ctx:query("ground_terrain", hex)] then row("cliffs_mountains") end
  if game:get_global("sea") == "rough" then row("rough_seas") end
  if game:get_global("weather") == v.heavy_snow then row("heavy_snow") end
  return rows
end

-- Table 1's RE size multiplier for transport: x4 cavalry or c/m (x2 for a c/m
-- unit landing without attacking, 37 (g)), else x2 heavy equipment
-- (amphibious armour counts only as having heavy equipment); the larger only
function re_factor(ctx, u, opts)
  local t = ctx:table(ctx.rule.values.re_table)
  local function m(key) local c = t:get(key, "multiplier") return c.num // c.den end
  if is(ctx, u, "cm") and opts.no_attack then return m("heavy_equipment") end
  if is(ctx, u, "cavalry") or is(ctx, u, "cm") then return m("cavalry_cm") end
  if is(ctx, u, "heavy_equipment") then return m("heavy_equipment") end
  return 1
end

-- The Landing Effects Table's modifiers for unit u of landing `id`, by name
function modifiers_for(ctx, id, u)
  local game, v = ctx.game, ctx.rule.values
  local function rec(f) return ctx:query("landing", id, f) end
  local hex, side, assault = rec("hex"), rec("side"), rec("assault")
  local m = {}
  local b = game.board
  -- when the hex was captured (by the landing side)
  local cside, cpt, cseq = capture_of(ctx, hex)
  local pt, seq = ctx:query("clock")
  if cside == side and game:get_owner(hex) == side then
    if cpt == pt then
      local port = b and b:contains(hex) and b:get_port(hex)
      if port then m.port_captured_this_turn = v.port_sizes[port.size] or 0 end
      if cseq < seq then m.captured_previous_phase = true end
    elseif cpt < pt then
      m.captured_previous_turn = true
    end
  end
  -- the largest "+ # MP" marker on the defending enemy units
  local largest = 0
  for _, d in ipairs(defenders_of(ctx, hex, side)) do
    local n = game:get_marker(d, v.marker) or 0
    if n > largest then largest = n end
  end
  if largest > 0 then m.defender_mp_marker = largest end
  local carrier = game:get_value(u, "landed_from")
  local intrinsic = is(ctx, u, "intrinsic")
  if carrier == "LC" and not intrinsic then m.landing_craft = true end
  if carrier == "LB" and not intrinsic then m.landing_barge = true end
  if is(ctx, u, "commando") then m.commando = true end
  if is(ctx, u, "marine") then m.marine = true end
  if is(ctx, u, "mountain") then m.mountain = true end
  local year, month = game:get_global("year"), game:get_global("month") or 1
  if year and (year < v.before.year or (year == v.before.year and month < v.before.month)) then m.before_nov_43 = true end
  local group_hex = ctx:query("group_hex", rec("group"))
  if b and group_hex and b:contains(group_hex)
      and (b:get_terrain(group_hex) == "restricted" or b:has_tag(group_hex, v.restricted_tag)) then
    m.restricted_waters = true
  end
  if rec("cd_level") > 0 then m.cd_level = rec("cd_level") end
  if assault and rec("defended") then m.occupied_before_reaction = true end
  if ctx:query("ground_terrain", hex) ~= "clear" then m.non_clear_terrain = true end
  local zoc = rec("enemy_zoc")
  if zoc == 1 then m.partial_zoc = true elseif zoc == 2 then m.full_zoc = true elseif zoc >= 3 then m.double_zoc = true end
  local fort = b and b:contains(hex) and b:has_tag(hex, v.fort_tag) and game:get_owner(hex) ~= side
  for _, d in ipairs(defenders_of(ctx, hex, side)) do
    if v.fort_types[game:get(d, "type")] then fort = true end
  end
  if fort then m.enemy_fort = true end
  if is(ctx, u, "cm") or is(ctx, u, "artillery") or is(ctx, u, "cavalry") then m.cm_artillery_cavalry = true end
  if game:get_global("sea") == "rough" then m.rough_seas = true end
  if not intrinsic then m.not_intrinsic = true end
  if is(ctx, u, "heavy_equipment") then m.heavy_equipment = true end
  local red = rec("reduction") or 0
  if red >= 5 then m.mp_reduction = red // 5 end
  return m
end

-- a number of 24ths of an SP as text ("1/2", "1 1/6", "0")
function sp_text(parts, den)
  if parts == 0 then return "0" end
  local whole, rest = parts // den, parts % den
  local function gcd(a, c) while c ~= 0 do a, c = c, a % c end return a end
  local g = gcd(rest, den)
  local frac = rest > 0 and ("%d/%d"):format(rest // g, den // g) or ""
  if whole == 0 then return frac end
  return rest > 0 and ("%d %s"):format(whole, frac) or tostring(whole)
end

function fraction_text(num, den)
  if den == 1 then return tostring(num) end
  return ("%d/%d"):format(num, den)
end

-- The effects of a landing on its units (items 1, 2, 8, 9, 12, 13, Table 1)
-- and on those lost aboard (item 7)
function apply_effects(ctx, ev)
  local game, v = ctx.game, ctx.rule.values
  local id, hex, side = ev.landing, ev.hex, ev.side
  local initially = ctx:query("landing", id, "initially_defended") == true
  -- item 7: units eliminated while loaded, during an amphibious assault
  for _, u in ipairs(ev.lost or {}) do
    local class = (ev.assault and initially) and "combat isolated" or "normal"
    game:set_value(u, "loss_class", class)
    ctx:say("item 7: %s was eliminated aboard during the assault: %s", ctx:label("unit", u),
      class == "combat isolated" and "classed as combat isolated (the beach is initially defended)"
      or "a normal loss (the beach is not initially defended)")
  end
  if #ev.units == 0 then return end
  -- what the table's modifiers read of the hex before the landing changes it
  local owner_before = game:get_owner(hex)
  game:set_keyed("landing", { id, "cd_level" },
    owner_before ~= side and math.max(0, ctx:query("cd_level", hex) - (game:get_keyed("cd_suppressed", hex) or 0)) or 0)
  game:set_keyed("landing", { id, "enemy_zoc" }, zoc_at(ctx, side, hex, true))
  for _, u in ipairs(ev.units) do
    game:set_value(u, "landed_from", game:get(ev.carriers[u], "type"))
  end
  -- item 9: reduced ZOCs for the assaulting units; item 12: no more reserve
  for _, u in ipairs(ev.units) do
    if ev.assault then game:set_value(u, "zoc_reduced", true) end
    if game:get_value(u, "reserve") ~= nil then
      game:set_value(u, "reserve", nil)
      ctx:say("item 12: %s loses its reserve status", ctx:label("unit", u))
    end
  end
  -- item 1: each unit rolls on the Landing Effects Table
  local results = {}
  for _, u in ipairs(ev.units) do
    local mods = modifiers_for(ctx, id, u)
    local res = ctx:resolve(v.effects_table, mods, { reason = ("%s landing at %s"):format(ctx:label("unit", u), ctx:label("hex", hex)) })
    results[u] = res
    local cell = res.Unit
    if cell.kind == "mp" then
      local n = cell.mp
      if is(ctx, u, "motorized") then n = n * v.motorized_factor end
      local have = game:get_marker(u, v.marker) or 0
      if n > have then game:set_marker(u, v.marker, n) end
      ctx:say("%s: a \"+%d MP\" marker%s", ctx:label("unit", u), n, is(ctx, u, "motorized") and " (doubled: motorized)" or "")
    else
      ctx:say("%s lands safely (NE)", ctx:label("unit", u))
    end
    -- item 2 / Table 1: the combat strength multipliers; the note: halved until the next enemy combat phase
    local rows = table1(ctx, u, game:get_value(u, "landed_from"), hex, ev.assault)
    local num, den = 1, 1
    local why = {}
    for _, r in ipairs(rows) do
      num, den = num * r.num, den * r.den
      why[#why + 1] = ("x%s %s"):format(fraction_text(r.num, r.den), r.why)
    end
    game:set_value(u, "strength_num", num)
    game:set_value(u, "strength_den", den)
    game:set_value(u, "transport_halved", true)
    ctx:say("%s's combat strength: %s, then x1/2 for its transport by sea until the next enemy combat phase",
      ctx:label("unit", u), #why > 0 and table.concat(why, ", ") or "x1")
  end
  -- item 8: an occupied enemy hex becomes dual-owned (an empty one the
  -- landing side takes, after the landing: 37's land action)
  if ev.assault and ctx:query("landing", id, "defended") then
    game:set_keyed("landing", { id, "dual" }, true)
    ctx:say("item 8: the landing units enter %s (terrain costs paid) and force dual ownership", ctx:label("hex", hex))
  end
  -- item 13 and note 2: the SPs of the theatre pool, one per landing RE
  local friendly_zoc = zoc_at(ctx, side, hex)
  for _, u in ipairs(ev.units) do
    local re = math.ceil(game:get_value(u, "re") or 1)
    local sp = math.min(re, pool_of(ctx, side))
    if sp > 0 then
      local cell = results[u]["SP/SRP"]
      local parts = sp * v.sp_parts
      local lands
      if cell.kind == "scatter" then lands = parts - parts * cell.num // cell.den
      elseif cell.kind == "code" and cell.code == "E" then lands = 0
      else lands = parts end
      local halved = false
      if friendly_zoc < 1 and lands > 0 then lands = lands // 2; halved = true end
      game:set_keyed("sp_pool", side, pool_of(ctx, side) - sp)
      game:set_value(u, "sp", (game:get_value(u, "sp") or 0) + lands)
      game:set_keyed("sp_lost", side, (game:get_keyed("sp_lost", side) or 0) + parts - lands)
      ctx:say("item 13: %d SP from %s's theatre pool (%d left) for %s (%s): %s SP lands with it%s, the rest is eliminated",
        sp, side, pool_of(ctx, side), ctx:label("unit", u), cell.text, sp_text(lands, v.sp_parts),
        halved and " (halved: not disembarked in a friendly partial ZOC, note 2)" or "")
    else
      ctx:say("item 13: %s's theatre pool has no SP for %s", side, ctx:label("unit", u))
    end
  end
end

-- a combat's payload for the ground combat chapter
function combat_info(ctx, kind, hex, side, attackers, defenders)
  local game, v = ctx.game, ctx.rule.values
  local strengths, markers, largest = {}, {}, 0
  for _, u in ipairs(attackers) do
    local num, den = ctx:query("strength_factor", u)
    strengths[u] = { strength = game:get_value(u, "strength"), num = num, den = den }
    local n = game:get_marker(u, v.marker) or 0
    markers[u] = n
    if n > largest then largest = n end
  end
  return { kind = kind, hex = hex, side = side, attackers = attackers, defenders = defenders,
           strengths = strengths, mp_markers = markers, largest_mp_marker = largest,
           as_airborne_landing = true, rule = ctx.rule.id }
end

-- Apply a ground combat's result (the scenario's ev.result, else the
-- default: recorded, no casualties): losses are eliminated; disruptions of
-- units that landed this player-turn on an initially defended beach are
-- classed as combat isolated (item 6): eliminated; others get the marker.
function apply_combat(ctx, ev)
  local game, v = ctx.game, ctx.rule.values
  local res = ev.result or { text = "ground combat recorded (the ground combat chapter resolves it; a scenario supplies it)" }
  local n = (game:get_keyed("ground_combat", "count") or 0) + 1
  game:set_keyed("ground_combat", "count", n)
  local parts = { ("%s at %s: %s"):format(ev.kind, ctx:label("hex", ev.hex), res.text or "resolved") }
  local function iso(u) return ctx:query("combat_isolated", u, ev.hex) end
  for _, u in ipairs(res.losses or {}) do
    if game:get(u, "loc") ~= "dead" then
      if iso(u) then game:set_value(u, "loss_class", "combat isolated") end
      game:eliminate(u)
      parts[#parts + 1] = ("%s eliminated%s"):format(ctx:label("unit", u), iso(u) and " (combat isolated)" or "")
    end
  end
  for _, u in ipairs(res.disrupted or {}) do
    if game:get(u, "loc") ~= "dead" then
      if iso(u) then
        game:set_value(u, "loss_class", "combat isolated")
        game:eliminate(u)
        parts[#parts + 1] = ("%s disrupted: eliminated, combat isolated (item 6)"):format(ctx:label("unit", u))
      else
        game:add_marker(u, v.disrupted_marker, 1)
        parts[#parts + 1] = ("%s disrupted"):format(ctx:label("unit", u))
      end
    end
  end
  local text = table.concat(parts, "; ")
  game:set_keyed("ground_combat", n, text)
  ev.record = text
  ctx:say("%s", text)
end

-- 18.6 Beach Assaults (000_366d55705cda9bbc.txt): units aboard landing craft
-- assault a coastal hex held by enemy combat units, in the friendly Combat
-- Phase. Ground combat is another chapter's: the query resolve_ground_combat
-- is the hook a scenario supplies (a variant wraps it); its default records
-- the combat and decides nothing.
--
-- An assault is announced (announce_beach_assault), the defender may choose
-- to take it on the ALT instead (beach_assault_choice, 18.6b), then it is
-- resolved (resolve_beach_assault). An announced assault is a group (kind =
-- "beach assault"; values hex, side, phase, state, choice, terrain) whose
-- units are the attackers.

local pending, attackers_craft, enemies_in, land_assault, sorted_keys   -- helpers, below the rules
local target_domain, attacker_domain, assault_domain, supply_domain   -- parameter domains (keel.legal), below

rule {
  id = "18.6", title = "Beach Assaults",
  queries = {
    --- beach_assault_hex_refusal(hex, side) -> nil, or why no assault goes
    --- in there: a coastal hex holding enemy combat units (without them it
    --- is a landing, 18.5)
    beach_assault_hex_refusal = function(ctx, hex, side)
      local b = ctx.game.board
      if not b:contains(hex) or b:get_terrain(hex) ~= "coastal" then
        return ("18.6: a Beach Assault goes in against a coastal hex (%s is not one)"):format(ctx:label("hex", hex))
      end
      if #enemies_in(ctx, hex, side, true) == 0 then
        return ("18.6: %s holds no enemy combat units: land by ALT (18.5)"):format(ctx:label("hex", hex))
      end
      return nil
    end,
    --- beach_assault_at(hex) -> the group of the assault announced against hex and not yet resolved
    beach_assault_at = function(ctx, hex) return pending(ctx, hex) end,
  },
}

rule {
  id = "18.6a", title = "Beach Assault procedure",
  standin = { resolve_ground_combat = "the ground combat chapter", combat_supply_cost = "the supply chapter (combat SP)" },
  values = { max_re = 3, beach_multiplier = { num = 1, den = 2 }, combat_supply = 1,
             choice_window = "defender's choice (18.6b)" },
  queries = {
    --- resolve_ground_combat(info) -> the result of a ground combat: the
    --- ground combat chapter's, which a scenario supplies by wrapping this
    --- query. info: {hex, attackers, defenders, terrain = "beach"|"hex",
    --- attack_multiplier = {num, den}, beach_assault, attacker_options_as_steps}.
    --- A result: {dislodged = bool, attacker_steps = n, attacker_options = n,
    --- defender_steps = n, exploit = bool}. The default only records it.
    resolve_ground_combat = function()
      return { recorded = true }
    end,
    --- combat_supply_cost(attackers) -> SP a Beach Assault draws (the supply
    --- chapter's; stand-in: 1 SP)
    combat_supply_cost = function(ctx) return ctx.rule.values.combat_supply end,
  },
  actions = {
    -- announce_beach_assault {hex, units}: the attackers aboard landing craft
    -- in one hex next to the target, in Combat Mode, at most 3 RE (A); only
    -- units aboard: none that have already landed (G)
    announce_beach_assault = {
      phases = { "combat_segment" },   -- 18.6a
      -- domains (keel.legal): the coastal hexes of enemy combat units next
      -- to the side's laden landing craft; for each, the units in Combat
      -- Mode aboard the craft next to it
      params = {
        hex = { type = "hex", domain = function(ctx, _, side) return target_domain(ctx, side) end },
        units = { type = "units", depends = { "hex" }, domain = function(ctx, p, side) return attacker_domain(ctx, p.hex, side) end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        if #p.units == 0 then return "18.6a: name the attacking units" end
        local side = g:get(p.units[1], "side")
        local phase, ps = ctx:query("phase")
        if phase ~= "combat" or ps ~= side then
          return ("18.6a: Beach Assaults are resolved in the friendly Combat Phase (now the %s phase of %s)")
            :format(tostring(phase), tostring(ps))
        end
        local why = ctx:query("beach_assault_hex_refusal", p.hex, side)
        if why then return why end
        if pending(ctx, p.hex) then return ("18.6a: an assault on %s is already announced"):format(ctx:label("hex", p.hex)) end
        local from, re = nil, 0
        for _, u in ipairs(p.units) do
          local name = g:get(u, "name")
          local kind, craft = g:get(u, "loc")
          if kind ~= "unit" or ctx:query("naval_class", craft) ~= "landing_craft" then
            return ("18.6a G: a Beach Assault is made only by units aboard landing craft, never with units "
              .. "that have already landed (%s)"):format(name)
          end
          if g:get(u, "side") ~= side then return "18.6a: the attackers are of one side" end
          local h = ctx:query("unit_hex", craft)
          if from and h ~= from then return "18.6a A: the attacking units must be stacked in the same hex" end
          from = h
          if g:get_value(u, "mode") ~= "combat" then return ("18.6a A: %s is not in Combat Mode"):format(name) end
          re = re + (ctx:query("printed", u, "re") or 1)
        end
        if re > ctx.rule.values.max_re then
          return ("18.6a A: the attacking units total %s RE (no more than %d)"):format(tostring(re), ctx.rule.values.max_re)
        end
        if keel.hex.distance(from, p.hex) ~= 1 then
          return ("18.6a: the landing craft must be next to %s"):format(ctx:label("hex", p.hex))
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local _, side, n = ctx:query("phase")
        local grp = g:group_new { name = "beach assault at " .. ctx:label("hex", p.hex), kind = "beach assault",
                                  hex = p.hex, side = side, phase = n, state = "announced" }
        for _, u in ipairs(p.units) do g:group_add(grp, u) end
        ctx:say("a Beach Assault on %s is announced (%d unit(s))", ctx:label("hex", p.hex), #p.units)
        -- 18.6b: the defender decides now, before the assault is executed: a
        -- decision window of the sequence of play (its pass leaves the
        -- assault to be fought as a Beach Assault)
        if ctx:status().started then
          local defender = g:get(enemies_in(ctx, p.hex, side, true)[1], "side")
          ctx:open_window { side = defender, title = ctx.rule.values.choice_window,
                            actions = { "beach_assault_choice" } }
        end
      end,
    },
    -- resolve_beach_assault {hex, supply?}: as the ALT when the defender chose
    -- it (18.6b) or when a barrage destroyed every defender (H); else the
    -- combat, with supply from landing craft carrying SP in the same or an
    -- adjacent hex (B), the defender's terrain choice (F), attacker options
    -- as step losses (C), an Exploit marker kept (D), and every attacker
    -- and its craft destroyed if the defenders stay (E)
    resolve_beach_assault = {
      phases = { "combat_segment" },
      -- domains (keel.legal): the side's announced assaults; for each that
      -- is fought (not on the ALT), the landing craft carrying SP in the
      -- attackers' hex or next to it (B)
      params = {
        hex = { type = "hex", domain = function(ctx, _, side) return assault_domain(ctx, side, false) end },
        supply = { type = "unit?", depends = { "hex" }, domain = function(ctx, p) return supply_domain(ctx, p.hex) end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        local grp = pending(ctx, p.hex)
        if not grp then return ("18.6a: no Beach Assault is announced against %s"):format(ctx:label("hex", p.hex)) end
        local side = g:group_get_value(grp, "side")
        local phase, ps = ctx:query("phase")
        if phase ~= "combat" or ps ~= side then return "18.6a: Beach Assaults are resolved in the friendly Combat Phase" end
        if g:group_get_value(grp, "choice") == "alt" or #enemies_in(ctx, p.hex, side, true) == 0 then return nil end
        local units = g:group_units(grp)
        local from = ctx:query("unit_hex", units[1])
        local s = p.supply
        if not s or ctx:query("naval_class", s) ~= "landing_craft" or g:get(s, "side") ~= side then
          return "18.6a B: combat supply for a Beach Assault is drawn only from landing craft carrying SP (name it: supply)"
        end
        local has_sp = false
        for _, c in ipairs(g:cargo(s)) do if g:get(c, "type") == "SP" then has_sp = true end end
        if not has_sp then return ("18.6a B: %s carries no SP"):format(g:get(s, "name")) end
        if keel.hex.distance(ctx:query("unit_hex", s), from) > 1 then
          return ("18.6a B: %s is not in the same or an adjacent hex"):format(g:get(s, "name"))
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local grp = pending(ctx, p.hex)
        local side = g:group_get_value(grp, "side")
        local units = g:group_units(grp)
        g:group_set_value(grp, "state", "resolved")
        if g:group_get_value(grp, "choice") == "alt" then
          local defenders = enemies_in(ctx, p.hex, side, false)
          for _, d in ipairs(defenders) do g:eliminate(d) end
          ctx:say("the defender chose the ALT (18.6b): the defenders are destroyed; no supply is spent")
          land_assault(ctx, grp, units, "ALT instead of a Beach Assault at %s (18.6b)")
          return
        end
        if #enemies_in(ctx, p.hex, side, true) == 0 then
          ctx:say("every defender was destroyed by barrage: the assault is resolved on the ALT (18.6a H)")
          land_assault(ctx, grp, units, "ALT for the Beach Assault at %s (18.6a H)")
          return
        end
        -- B: combat supply from the craft's SP
        local cost = ctx:query("combat_supply_cost", units)
        local paid = 0
        for _, c in ipairs(g:cargo(p.supply)) do
          if paid < cost and g:get(c, "type") == "SP" then
            local take = math.min(cost - paid, g:get(c, "points"))
            if take >= g:get(c, "points") then g:eliminate(c) else g:reduce_points(c, take) end
            paid = paid + take
          end
        end
        ctx:emit("supply_spent", { units = { p.supply }, amount = paid,
          why = "combat supply of the Beach Assault at " .. ctx:label("hex", p.hex) .. " (18.6a B)" })
        local terrain = g:group_get_value(grp, "terrain") or "beach"
        local mult = terrain == "beach" and ctx.rule.values.beach_multiplier or { num = 1, den = 1 }
        local defenders = enemies_in(ctx, p.hex, side, true)
        local result = ctx:query("resolve_ground_combat", {
          hex = p.hex, attackers = units, defenders = defenders, terrain = terrain,
          attack_multiplier = { num = mult.num, den = mult.den }, beach_assault = true,
          attacker_options_as_steps = true })
        local anames, dnames = {}, {}
        for i, u in ipairs(units) do anames[i] = g:get(u, "name") end
        for i, u in ipairs(defenders) do dnames[i] = g:get(u, "name") end
        local text = ("Beach Assault at %s: %s against %s, %s terrain (attackers x%d/%d), attacker options as step losses")
          :format(ctx:label("hex", p.hex), table.concat(anames, ", "), table.concat(dnames, ", "), terrain, mult.num, mult.den)
        if result.dislodged == nil then
          ctx:emit("record", { kind = "ground_combat", text = text .. ": recorded (the ground combat chapter decides)" })
          return
        end
        ctx:emit("record", { kind = "ground_combat", text = text .. (result.dislodged and ": the defenders are dislodged"
          or ": the defenders hold") })
        -- C: attacker options are step losses
        local losses = (result.attacker_steps or 0) + (result.attacker_options or 0)
        for _ = 1, losses do
          for _, u in ipairs(units) do
            if g:get(u, "loc") ~= "dead" then ctx:emit("ground_step_loss", { unit = u, reason = "Beach Assault" }) break end
          end
        end
        for _ = 1, result.defender_steps or 0 do
          for _, d in ipairs(defenders) do
            if g:get(d, "loc") ~= "dead" then ctx:emit("ground_step_loss", { unit = d, reason = "Beach Assault" }) break end
          end
        end
        if not result.dislodged then
          -- E: the attackers and their landing craft are destroyed
          for _, c in ipairs(attackers_craft(ctx, units)) do g:eliminate(c) end
          for _, u in ipairs(units) do if g:get(u, "loc") ~= "dead" then g:eliminate(u) end end
          ctx:say("the defenders hold: every attacking unit and its landing craft are destroyed (18.6a E)")
          return
        end
        local alive = {}
        for _, u in ipairs(units) do if g:get(u, "loc") ~= "dead" then alive[#alive + 1] = u end end
        for _, c in ipairs(attackers_craft(ctx, alive)) do
          local mine = {}
          for _, u in ipairs(alive) do
            local _, w = g:get(u, "loc")
            if w == c then mine[#mine + 1] = u end
          end
          ctx:emit("units_land", { craft = c, units = mine, by = "beach assault", no_after_landing = true, to = p.hex })
        end
        if result.exploit then
          for _, u in ipairs(alive) do g:add_marker(u, "Exploit", 1) end
          ctx:say("the attackers keep the Exploit marker they earned (18.6a D)")
        end
      end,
    },
  },
}

rule {
  id = "18.6b", title = "The defender's choice",
  actions = {
    -- beach_assault_choice {hex, alt, terrain?}: the defending player's, just
    -- before the assault is executed: resolve it on the ALT (alt = true), or
    -- as a Beach Assault on the beach's nominal hexside or the hex's terrain
    -- (18.6a F). Made once, before any die is rolled or supply paid.
    beach_assault_choice = {
      side = "other",   -- the defender's, in the window the announcement opens
      phases = { "combat_segment" },
      -- domains (keel.legal): the assaults announced against the side; the
      -- ALT or the Beach Assault, and for a Beach Assault the terrain (18.6a F)
      params = {
        hex = { type = "hex", domain = function(ctx, _, side) return assault_domain(ctx, side, true) end },
        alt = { type = "boolean", domain = function()
          return { { value = true, label = "on the ALT (18.6b)" }, { value = false, label = "as a Beach Assault" } }
        end },
        terrain = { type = "string?", depends = { "alt" }, domain = function(_, p)
          if p.alt then return nil, "18.6b: an assault resolved on the ALT has no terrain choice" end
          return { { value = "beach", label = "the beach's nominal hexside (x1/2)" }, { value = "hex", label = "the hex's terrain" } }
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        local grp = pending(ctx, p.hex)
        if not grp then
          for _, gr in ipairs(g:groups()) do
            if g:group_get_value(gr, "kind") == "beach assault" and g:group_get_value(gr, "hex") == p.hex then
              return "18.6b: the choice is made before any die is rolled or supply paid: this assault is resolved"
            end
          end
          return ("18.6b: no Beach Assault is announced against %s"):format(ctx:label("hex", p.hex))
        end
        if g:group_get_value(grp, "choice") then return "18.6b: the decision cannot be changed once made" end
        if p.terrain and p.terrain ~= "beach" and p.terrain ~= "hex" then
          return "18.6a F: the defender chooses the beach's nominal hexside (\"beach\") or the hex's terrain (\"hex\")"
        end
        if p.alt and p.terrain then return "18.6b: an assault resolved on the ALT has no terrain choice" end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local grp = pending(ctx, p.hex)
        g:group_set_value(grp, "choice", p.alt and "alt" or "ba")
        if p.terrain then g:group_set_value(grp, "terrain", p.terrain) end
        -- made once: the window the announcement opened for it closes
        local w = ctx:status().window
        if w and w.actions[1] == "beach_assault_choice" then ctx:close_window() end
        ctx:say("the defender of %s chooses %s", ctx:label("hex", p.hex), p.alt and "to resolve the landing on the ALT"
          or ("the Beach Assault, on the %s"):format(p.terrain == "hex" and "hex's terrain" or "beach (attackers x1/2)"))
      end,
    },
  },
}

-- ---- parameter domains (keel.legal) ------------------------------------------------

local function hex_candidates(ctx, hexes)
  table.sort(hexes)
  local out = {}
  for i, h in ipairs(hexes) do out[i] = { value = h, label = ctx:label("hex", h) } end
  return out
end

-- side's units (nil side: the phasing side's) in Combat Mode aboard landing craft, by the craft's hex
local function aboard_by_hex(ctx, side)
  local g = ctx.game
  local _, ps = ctx:query("phase")
  side = side or ps
  local by_hex = {}
  for _, u in ipairs(side ~= nil and g:units { loc = "unit", side = side } or {}) do
    local _, craft = g:get(u, "loc")
    if ctx:query("naval_class", craft) == "landing_craft"
        and ctx:query("is_combat_unit", u) and g:get_value(u, "mode") == "combat" then
      local h = ctx:query("unit_hex", craft)
      if h then
        by_hex[h] = by_hex[h] or {}
        by_hex[h][#by_hex[h] + 1] = u
      end
    end
  end
  return by_hex, side
end

-- the coastal hexes of enemy combat units (18.6) next to side's units aboard landing craft (18.6a)
function target_domain(ctx, side)
  local by_hex, s = aboard_by_hex(ctx, side)
  local seen, hexes = {}, {}
  for _, from in ipairs(sorted_keys(by_hex)) do
    for _, n in ipairs(keel.hex.neighbors(from)) do
      if not seen[n] and not ctx:query("beach_assault_hex_refusal", n, s) then
        seen[n] = true
        hexes[#hexes + 1] = n
      end
    end
  end
  return hex_candidates(ctx, hexes), ("18.6: no coastal hex of enemy combat units next to %s's units aboard landing craft")
    :format(tostring(s))
end

-- side's units in Combat Mode aboard landing craft next to hex (at most 3 RE together: the rules check)
function attacker_domain(ctx, hex, side)
  local by_hex = aboard_by_hex(ctx, side)
  local out = {}
  for _, from in ipairs(sorted_keys(by_hex)) do
    if keel.hex.distance(from, hex) == 1 then
      for _, u in ipairs(by_hex[from]) do out[#out + 1] = { value = u, label = ctx.game:get(u, "name") } end
    end
  end
  return out, ("18.6a A: no unit in Combat Mode aboard landing craft next to %s"):format(ctx:label("hex", hex))
end

-- the hexes of the assaults announced and not resolved: by side (against
-- it when `against`); nil side: every one
function assault_domain(ctx, side, against)
  local g = ctx.game
  local hexes = {}
  for _, grp in ipairs(g:groups()) do
    if g:group_get_value(grp, "kind") == "beach assault" and g:group_get_value(grp, "state") == "announced" then
      local by = g:group_get_value(grp, "side")
      if side == nil or (against and by ~= side) or (not against and by == side) then
        hexes[#hexes + 1] = g:group_get_value(grp, "hex")
      end
    end
  end
  return hex_candidates(ctx, hexes), against and "18.6b: no Beach Assault is announced against the side"
    or "18.6a: the side has announced no Beach Assault"
end

-- the landing craft carrying SP in the attackers' hex or next to it (B);
-- none when the assault is resolved on the ALT (18.6b, H: no supply spent)
function supply_domain(ctx, hex)
  local g = ctx.game
  local grp = pending(ctx, hex)
  local side = g:group_get_value(grp, "side")
  if g:group_get_value(grp, "choice") == "alt" or #enemies_in(ctx, hex, side, true) == 0 then
    return nil, "18.6b: an assault resolved on the ALT spends no supply"
  end
  local from = ctx:query("unit_hex", g:group_units(grp)[1])
  local out = {}
  for _, c in ipairs(ctx:query("landing_craft_of", side, true)) do
    local h = ctx:query("unit_hex", c.value)
    if h and from and keel.hex.distance(h, from) <= 1 then
      for _, x in ipairs(g:cargo(c.value)) do
        if g:get(x, "type") == "SP" then out[#out + 1] = c break end
      end
    end
  end
  return out, "18.6a B: no landing craft carrying SP in the attackers' hex or next to it"
end

-- ---- helpers shared by the rules of this file ---------------------------------------

function sorted_keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out)
  return out
end

function pending(ctx, hex)
  local g = ctx.game
  for _, grp in ipairs(g:groups()) do
    if g:group_get_value(grp, "kind") == "beach assault" and g:group_get_value(grp, "hex") == hex
        and g:group_get_value(grp, "state") == "announced" then
      return grp
    end
  end
  return nil
end

-- the landing craft the units are aboard, in id order
function attackers_craft(ctx, units)
  local g = ctx.game
  local seen, out = {}, {}
  for _, u in ipairs(units) do
    local kind, c = g:get(u, "loc")
    if kind == "unit" and not seen[c] then seen[c] = true; out[#out + 1] = c end
  end
  table.sort(out)
  return out
end

-- the enemy ground units (combat units only when combat_only) in the hex
function enemies_in(ctx, hex, side, combat_only)
  local g = ctx.game
  local out = {}
  for _, u in ipairs(ctx:query("units_at", hex)) do
    local c = ctx:query("naval_class", u)
    if g:get(u, "side") ~= side and (c == "ground" or c == "coastal_artillery")
        and (not combat_only or ctx:query("is_combat_unit", u)) then
      out[#out + 1] = u
    end
  end
  return out
end

-- The assault goes in as a landing on the ALT, with no after-landing
-- movement: the attackers come ashore into the hex, then one ALT roll.
function land_assault(ctx, grp, units, reason)
  local g = ctx.game
  local hex = g:group_get_value(grp, "hex")
  local craft = attackers_craft(ctx, units)
  for _, c in ipairs(craft) do
    local mine = {}
    for _, u in ipairs(units) do
      local _, w = g:get(u, "loc")
      if w == c then mine[#mine + 1] = u end
    end
    ctx:emit("units_land", { craft = c, units = mine, by = "beach assault", no_after_landing = true, to = hex })
  end
  ctx:emit("alt_roll", { hex = hex, units = units, craft = craft, reason = reason:format(ctx:label("hex", hex)) })
end

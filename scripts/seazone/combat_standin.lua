-- STAND-IN: the General Combat sequence. 002_37d6fae90ae806a5.txt cites it
-- ("As detailed in step 2 of the General Combat sequence, submarines make
-- their rolls before any other units"; "Players move directly to step 3")
-- and the casualty strip, but does not contain it. This file supplies the
-- sequence those citations fit, one rule per step so that a variant can
-- replace any step by its id (replace("general-combat.step-3", {...})):
--
--   1  place the units on the battle strip            general-combat.step-1
--   2  submarine Surprise Strike (both sides at once;  general-combat.step-2
--      casualties removed before they fire; no step 2 when no submarine may)
--   3  attacking units fire; the defender chooses      general-combat.step-3
--      casualties and moves them behind the casualty strip
--   4  defending units fire (casualties behind the     general-combat.step-4
--      strip too); the attacker removes its casualties
--   5  remove the defender's casualties                general-combat.step-5
--   6  press the attack or retreat (then step 2 again) general-combat.step-6
--   7  conclude the combat                             general-combat.step-7
--
-- Each unit rolls one die and hits on its attack (attacking) or defense
-- (defending) value or less. The unit characteristics hook the steps
-- through events: may_fire, may_surprise_strike, may_submerge, may_hit,
-- unit_hit (a capital ship is damaged, not a casualty, on its first hit),
-- battle_units and battle_end.
--
-- Casualties are the owner's choice: a side assigns as many of the hits it
-- took as can be assigned (a hit goes only to a unit that may take it),
-- either by a `casualties` order naming the units, or by a policy declared
-- in the `battle` order: an ordered list of entries, "damage:cruiser" (an
-- undamaged capital ship of that type takes a hit and stays) and "cruiser"
-- (a hit on a unit of that type, a damaged one first), or a named list
-- ("cheapest", "keep_carriers"). Without a policy the battle waits for the
-- order; nothing is picked silently. keel's exact odds (keel.battle_odds,
-- `keel odds seazone:battle`) model exactly this sequence, and ask this file
-- for the battle model and these policies (queries battle_model,
-- casualty_ranks, casualty_policy_problem).

local battle_of, participants, alive_of, fire_value, roll_units, resolve_hits, assign_policy
local check_end, conclude, declare_policy, policy_problem, pending_attackers, say_units, run
local maxmatch, pref_key, capacity, choice_hits, apply_hit, validate_choice
local fire_step, retreat_attackers, capacities, end_if_side_gone
local battle_zones_domain, casualties_domain, retreat_domain, named_policies, close_choice_window
local twice_domain, hit_list, casualty_ranks, casualty_policy_problem, battle_model

-- the title of the decision window a casualty choice opens for the owner
local CHOICE_WINDOW = "casualties"

rule {
  id = "general-combat", title = "General Combat sequence (stand-in for the chapter the text cites)",
  standin = "the General Combat sequence",
  values = {
    -- the named policies, as lists of unit types made from the units' costs (see policy_list)
    named_policies = { cheapest = true, keep_carriers = true },
  },
  queries = {
    -- units taking part in the current battle (on the strip or behind the casualty strip), id order
    battle_participants = function(ctx) return participants(ctx) end,
    -- the current battle {zone, attacker, power, round}, or nil
    battle = function(ctx) return battle_of(ctx) end,
    -- resolve the pending hits scored by `firers` on the units `targets` (ids) of `side`:
    -- effect "remove" | "strip"; returns true when done, false when it waits for a casualties order
    resolve_hits = function(ctx, side, targets, effect, context, area)
      return resolve_hits(ctx, side, targets, effect, context, area)
    end,
    declare_policy = function(ctx, units, policy) return declare_policy(ctx, units, policy) end,
    -- does this submarine submerge at this chance to roll (an order or its side's policy, if allowed)?
    submerges_now = function(ctx, u)
      local g = ctx.game
      local want = g:get_value(u, "submerge_next") == true
      local pol = g:get_value(u, "submerge_policy")
      if pol == "first" then want = true
      elseif pol == "alone" then
        want = true
        for _, o in ipairs(alive_of(ctx, g:get_value(u, "battle_role"))) do
          if g:get(o, "type") ~= "submarine" then want = false end
        end
      end
      if not want then return false end
      local ev = { battle = battle_of(ctx), unit = u, allowed = false }
      ctx:emit("may_submerge", ev)
      return ev.allowed
    end,
    policy_problem = function(ctx, units, policy) return policy_problem(ctx, units, policy) end,
    -- the casualty policies over unit types, for keel.battle_odds (the same functions the
    -- battle's declared policies use): ranks {list, soak, loss}; why a policy does not do
    casualty_ranks = function(ctx, types, side, order) return casualty_ranks(ctx, types, side, order) end,
    casualty_policy_problem = function(ctx, types, policy) return casualty_policy_problem(ctx, types, policy) end,
    -- what keel.battle_odds needs of this battle (plain data; see battle_model below)
    battle_model = function(ctx) return battle_model(ctx) end,
    -- the names of the declared casualty policies, sorted (parameter candidates, keel.legal)
    named_policies = function(ctx) return named_policies(ctx) end,
  },
  actions = {
    -- fight the battle in `zone` (or go on with it after a stop for the attacker's decision):
    -- attacker/defender are declared casualty policies; rounds stops after that many rounds
    battle = {
      phases = { "conduct_combat" },
      params = {
        zone = { type = "string", domain = function(ctx, _, side) return battle_zones_domain(ctx, side) end },
        -- the named casualty policies (left out: casualties are chosen as they come; a
        -- policy table is the player's to write). The defender's is its owner's decision:
        -- in a game the sequence of play runs it is not offered to the attacker (the
        -- defender names its casualties in its own window); a recorded play may still
        -- give one both players agreed on
        attacker = { type = "any", optional = true, domain = function(ctx) return named_policies(ctx) end },
        defender = { type = "any", optional = true, domain = function(ctx)
          if ctx:status().started then return nil, "the defender chooses its own casualties (its window)" end
          return named_policies(ctx)
        end },
        rounds = "integer?",
      },
      legal = function(ctx, p)
        local g = ctx.game
        if g:get_phase() ~= "conduct_combat" then return "battles are fought in the Conduct Combat phase" end
        local z = ctx:query("area_index", p.zone)
        if not z then return ("'%s' is not a sea zone of the map"):format(tostring(p.zone)) end
        local b = battle_of(ctx)
        if b then
          if b.zone ~= z then return ("the battle in %s is not over"):format(ctx:query("area_name", b.zone)) end
          if g:get_global("battle_wait") ~= "decision" then
            return "the battle waits for " .. tostring(g:get_global("battle_wait"))
          end
          return nil
        end
        local att = pending_attackers(ctx, z)
        if #att == 0 then return ("no attack is pending in %s"):format(p.zone) end
        local side = g:get(att[1], "side")
        local defenders = {}
        for _, u in ipairs(ctx:query("units_in", z)) do
          if g:get(u, "side") ~= side then
            defenders[#defenders + 1] = u
            -- an undamaged carrier's aircraft defend in the air (air defense); a damaged one's are cargo
            if g:get(u, "type") == "carrier" and g:get(u, "face") ~= "damaged" then
              for _, c in ipairs(g:cargo(u)) do
                if ctx:query("class_of", c) == "air" then defenders[#defenders + 1] = c end
              end
            end
          end
        end
        return policy_problem(ctx, att, p.attacker) or policy_problem(ctx, defenders, p.defender)
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local z = ctx:query("area_index", p.zone)
        if battle_of(ctx) then
          g:set_global("battle_wait", nil)
          g:set_global("battle_rounds_left", p.rounds)
          g:set_global("battle_round", g:get_global("battle_round") + 1)
          g:set_global("battle_step", 2)
          ctx:say("the attacker presses the attack")
          return run(ctx)
        end
        local att = pending_attackers(ctx, z)
        g:set_global("battle_zone", z)
        g:set_global("battle_side", g:get(att[1], "side"))
        g:set_global("battle_power", g:get_global("power"))
        g:set_global("battle_round", 1)
        g:set_global("battle_rounds_left", p.rounds)
        g:set_global("battle_step", 1)
        local ev = { battle = battle_of(ctx), step = 1, next = 2 }
        ctx:emit("combat_step", ev)
        for _, role in ipairs { "attacker", "defender" } do
          if p[role] ~= nil then declare_policy(ctx, participants(ctx, role), p[role]) end
        end
        if type(p.attacker) == "table" then
          g:set_global("battle_retreat_at", p.attacker.retreat_at)
          local to = p.attacker.retreat_to
          g:set_global("battle_retreat_to", to and ctx:query("area_index", to) or nil)
        end
        g:set_global("battle_step", ev.next)
        return run(ctx)
      end,
    },
    -- the owner's choice of casualties for the hits its side took: each unit takes one hit
    -- (a capital ship named twice takes two)
    -- (`twice`: units of `units` that take a second hit, the same as naming them twice there;
    -- the form a listing of candidate sets can offer, each unit being one candidate)
    casualties = {
      side = "any", phases = { "conduct_combat" },   -- the owner's: in its window
      params = {
        units = { type = "units", domain = function(ctx, _, side) return casualties_domain(ctx, side) end },
        twice = { type = "units", optional = true, depends = { "units" }, domain = function(ctx, p)
          return twice_domain(ctx, p.units)
        end },
      },
      legal = function(ctx, p)
        if not ctx.game:get_global("choice_side") then return "no side is choosing casualties now" end
        local named = {}
        for _, u in ipairs(p.units) do named[u] = true end
        for _, u in ipairs(p.twice or {}) do
          if not named[u] then
            return ("%s takes a second hit only when it is named among the casualties"):format(ctx:query("unit_label", u))
          end
        end
        return validate_choice(ctx, hit_list(p))
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local effect, context = g:get_global("choice_effect"), g:get_global("choice_context")
        local side = g:get_global("choice_side")
        for _, u in ipairs(hit_list(p)) do apply_hit(ctx, u, effect) end
        for _, f in ipairs(choice_hits(ctx, side)) do g:set_value(f.firer, "scored", nil) end
        g:set_global("choice_side", nil)
        g:set_global("choice_effect", nil)
        g:set_global("choice_context", nil)
        g:set_global("choice_area", nil)
        close_choice_window(ctx, side)
        if context == "battle" then
          g:set_global("battle_wait", nil)
          return run(ctx)
        end
      end,
    },
    -- the attacker retreats (when the battle stopped for its decision) to an adjacent sea zone
    retreat = {
      phases = { "conduct_combat" },
      params = { to = { type = "string", domain = function(ctx) return retreat_domain(ctx) end } },
      legal = function(ctx, p)
        local g = ctx.game
        local b = battle_of(ctx)
        if not b or g:get_global("battle_wait") ~= "decision" then return "no battle waits for the attacker's decision" end
        local to = ctx:query("area_index", p.to)
        if not to or not ctx:query("is_sea_zone", to) then return ("'%s' is not a sea zone"):format(p.to) end
        if not ctx:query("adjacent", b.zone, to) then return ("%s is not adjacent to %s"):format(p.to, ctx:query("area_name", b.zone)) end
        if ctx:query("is_hostile", to, b.attacker) then return ("%s is hostile"):format(p.to) end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        retreat_attackers(ctx, ctx:query("area_index", p.to))
        ctx:say("the attackers retreat to %s", p.to)
        g:set_global("battle_wait", nil)
        g:set_global("battle_result", "attacker retreats")
        g:set_global("battle_step", 7)
        return run(ctx)
      end,
    },
    -- submarines of either side that will submerge at their next chance to roll
    submerge = {
      side = "any", phases = { "conduct_combat" },
      -- domain (keel.legal): the side's units on the battle strip, not submerged
      -- (may_submerge says which may)
      params = {
        units = { type = "units", domain = function(ctx, _, side)
          local g = ctx.game
          if not battle_of(ctx) then return nil, "no battle is being fought" end
          local out = {}
          for _, u in ipairs(participants(ctx)) do
            if g:get_value(u, "battle_role") and not g:get_value(u, "submerged") and (side == nil or g:get(u, "side") == side) then
              out[#out + 1] = { value = u, label = g:get(u, "name") }
            end
          end
          return out, "no unit of the side is on the battle strip"
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        if not battle_of(ctx) then return "no battle is being fought" end
        for _, u in ipairs(p.units) do
          if not g:get_value(u, "battle_role") or g:get_value(u, "submerged") then
            return ("%s is not on the battle strip"):format(ctx:query("unit_label", u))
          end
          local ev = { battle = battle_of(ctx), unit = u, allowed = false, reason = "it cannot submerge" }
          ctx:emit("may_submerge", ev)
          if not ev.allowed then return ("%s: %s"):format(ctx:query("unit_label", u), ev.reason) end
        end
      end,
      effect = function(ctx, p)
        for _, u in ipairs(p.units) do ctx.game:set_value(u, "submerge_next", true) end
      end,
    },
  },
  vetoes = {
    end_phase = function(ctx)
      local g = ctx.game
      if g:get_global("choice_side") then return ("%s has casualties to choose"):format(g:get_global("choice_side")) end
      if g:get_phase() ~= "conduct_combat" then return nil end
      local b = battle_of(ctx)
      if b then return ("the battle in %s is not over"):format(ctx:query("area_name", b.zone)) end
      for _, u in ipairs(g:units()) do
        if g:get_value(u, "attacking_turn") == ctx:query("this_turn") and g:get_value(u, "sea_combat_turn") ~= ctx:query("this_turn")
            and g:get(u, "loc") == "zone" then
          return ("the attack in %s has not been fought"):format(ctx:query("area_name", ctx:query("area_of", u)))
        end
      end
    end,
  },
}

rule {
  id = "general-combat.step-1", title = "Place units on the battle strip",
  standin = "the General Combat sequence (step 1)",
  on = {
    combat_step = function(ctx, ev)
      if ev.step ~= 1 then return end
      local g = ctx.game
      local b = ev.battle
      for _, u in ipairs(pending_attackers(ctx, b.zone)) do g:set_value(u, "battle_role", "attacker") end
      for _, u in ipairs(ctx:query("units_in", b.zone)) do
        local class = ctx:query("class_of", u)
        if g:get(u, "side") ~= b.attacker and (class == "sea" or class == "air") then
          g:set_value(u, "battle_role", "defender")
        end
      end
      ctx:emit("battle_units", { battle = b })
      ctx:say("battle in %s: %s attack %s", ctx:query("area_name", b.zone), say_units(ctx, participants(ctx, "attacker")),
        say_units(ctx, participants(ctx, "defender")))
      if check_end(ctx) then ev.next = 7 end
    end,
  },
}

rule {
  id = "general-combat.step-2", title = "Submarine Surprise Strike",
  standin = "the General Combat sequence (step 2)",
  on = {
    combat_step = function(ctx, ev)
      if ev.step ~= 2 then return end
      local g = ctx.game
      local b = ev.battle
      if g:get_global("battle_rolled") ~= 2 then
        local strikers = {}
        for _, u in ipairs(participants(ctx)) do
          local e = { battle = b, unit = u, eligible = false }
          ctx:emit("may_surprise_strike", e)
          if e.eligible then
            if ctx:query("submerges_now", u) then
              g:set_value(u, "submerged", true)
              ctx:say("%s submerges instead of making its Surprise Strike", ctx:query("unit_label", u))
            else
              strikers[#strikers + 1] = u
            end
          end
        end
        if #strikers == 0 then
          ctx:say("round %d: no submarine may make a Surprise Strike: no step 2", b.round)
          return end_if_side_gone(ctx, ev)
        end
        ctx:say("round %d: Surprise Strike", b.round)
        roll_units(ctx, b, strikers)
        g:set_global("battle_rolled", 2)
      end
      for _, taking in ipairs { "defender", "attacker" } do
        if not resolve_hits(ctx, taking, alive_of(ctx, taking), "remove", "battle") then
          ev.wait = "casualties"
          return
        end
      end
      g:set_global("battle_rolled", nil)
      end_if_side_gone(ctx, ev)
    end,
  },
}

rule {
  id = "general-combat.step-3", title = "Attacking units fire",
  standin = "the General Combat sequence (step 3)",
  on = {
    -- the defender's casualties go behind the casualty strip (they still fire in step 4)
    combat_step = function(ctx, ev)
      if ev.step == 3 then fire_step(ctx, ev, "attacker", "defender", "strip") end
    end,
  },
}

rule {
  id = "general-combat.step-4", title = "Defending units fire",
  standin = "the General Combat sequence (step 4)",
  on = {
    -- the attacker removes its casualties at once
    combat_step = function(ctx, ev)
      if ev.step == 4 then fire_step(ctx, ev, "defender", "attacker", "remove") end
    end,
  },
}

rule {
  id = "general-combat.step-5", title = "Remove defending casualties",
  standin = "the General Combat sequence (step 5)",
  on = {
    combat_step = function(ctx, ev)
      if ev.step ~= 5 then return end
      local g = ctx.game
      for _, u in ipairs(participants(ctx, "defender")) do
        if g:get_value(u, "casualty") then
          ctx:say("%s removed (behind the casualty strip)", ctx:query("unit_label", u))
          g:eliminate(u)
          ctx:emit("unit_sunk", { unit = u })
        end
      end
    end,
  },
}

rule {
  id = "general-combat.step-6", title = "Press attack or retreat",
  standin = "the General Combat sequence (step 6)",
  on = {
    combat_step = function(ctx, ev)
      if ev.step ~= 6 then return end
      local g = ctx.game
      local b = ev.battle
      if check_end(ctx) then ev.next = 7 return end
      local at, to = g:get_global("battle_retreat_at"), g:get_global("battle_retreat_to")
      if at and #participants(ctx, "attacker") <= at then
        retreat_attackers(ctx, to)
        ctx:say("the attackers retreat to %s (declared: at %d unit(s) or fewer)", ctx:query("area_name", to), at)
        g:set_global("battle_result", "attacker retreats")
        ev.next = 7
        return
      end
      local left = g:get_global("battle_rounds_left")
      if left then
        left = left - 1
        g:set_global("battle_rounds_left", left)
        if left <= 0 then
          ctx:say("round %d over: the attacker presses the attack (battle) or retreats (retreat)", b.round)
          ev.wait, ev.next = "decision", 6
          return
        end
      end
      g:set_global("battle_round", b.round + 1)
      ev.next = 2
    end,
  },
}

rule {
  id = "general-combat.step-7", title = "Conclude combat",
  standin = "the General Combat sequence (step 7)",
  on = {
    combat_step = function(ctx, ev)
      if ev.step ~= 7 then return end
      conclude(ctx, ev.battle)
      ev.next = nil
    end,
  },
}

-- ---- helpers of the General Combat stand-in -------------------------------------------

function battle_of(ctx)
  local g = ctx.game
  local z = g:get_global("battle_zone")
  if not z then return nil end
  return { zone = z, attacker = g:get_global("battle_side"), power = g:get_global("battle_power"),
           round = g:get_global("battle_round"), step = g:get_global("battle_step") }
end

-- the driver: run steps until the battle waits for an order or is over
function run(ctx)
  local g = ctx.game
  for _ = 1, 100000 do
    local step = g:get_global("battle_step")
    if not step or g:get_global("battle_wait") then return end
    local ev = { battle = battle_of(ctx), step = step, next = step + 1 }
    ctx:emit("combat_step", ev)
    if not g:get_global("battle_zone") then return end
    if ev.wait then
      g:set_global("battle_wait", ev.wait)
      if ev.next ~= step then g:set_global("battle_step", ev.next) end
      return
    end
    g:set_global("battle_step", ev.next)
  end
  error("the battle did not end in 100000 steps")
end

-- steps 3 and 4: the `firing` side's units roll (once, even if the step waits for a casualties
-- order), then the hits on the `taking` side are resolved with `effect` ("strip" | "remove")
function fire_step(ctx, ev, firing, taking, effect)
  local g = ctx.game
  if g:get_global("battle_rolled") ~= ev.step then
    roll_units(ctx, ev.battle, participants(ctx, firing), ev.step)
    g:set_global("battle_rolled", ev.step)
  end
  if not resolve_hits(ctx, taking, alive_of(ctx, taking), effect, "battle") then
    ev.wait = "casualties"
    return
  end
  g:set_global("battle_rolled", nil)
end

-- attacking units of the turn's power in zone z that have not fought yet
function pending_attackers(ctx, z)
  local g = ctx.game
  local out = {}
  for _, u in ipairs(ctx:query("units_in", z)) do
    if g:get_value(u, "attacking_turn") == ctx:query("this_turn") and g:get_value(u, "sea_combat_turn") ~= ctx:query("this_turn") then
      out[#out + 1] = u
    end
  end
  return out
end

-- the attackers leave the battle for sea zone `to`
function retreat_attackers(ctx, to)
  local g = ctx.game
  for _, u in ipairs(participants(ctx, "attacker")) do
    g:move(u, "zone", to)
    g:set_value(u, "retreated_turn", ctx:query("this_turn"))
  end
end

-- units in the battle (role "attacker"/"defender", or both), id order; casualties behind the strip included
function participants(ctx, role)
  local g = ctx.game
  local z = g:get_global("battle_zone")
  local out = {}
  if not z then return out end
  for _, u in ipairs(ctx:query("units_in", z)) do
    local r = g:get_value(u, "battle_role")
    if r and not g:get_value(u, "submerged") and (role == nil or r == role) then out[#out + 1] = u end
  end
  return out
end

-- participants that may still take hits (not behind the casualty strip)
function alive_of(ctx, role)
  local out = {}
  for _, u in ipairs(participants(ctx, role)) do
    if not ctx.game:get_value(u, "casualty") then out[#out + 1] = u end
  end
  return out
end

function say_units(ctx, list)
  if #list == 0 then return "nothing" end
  local out = {}
  for i, u in ipairs(list) do
    out[i] = ctx:query("unit_label", u) .. (ctx.game:get(u, "face") == "damaged" and " damaged" or "")
  end
  return table.concat(out, ", ")
end

-- the value a unit rolls for in this step (nil: it does not fire)
function fire_value(ctx, b, u, step)
  local d = ctx:query("unit_data", ctx.game:get(u, "type"))
  local role = ctx.game:get_value(u, "battle_role")
  local value = role == "attacker" and d.attack or d.defense
  local ev = { battle = b, unit = u, step = step, value = value, fires = value > 0 }
  ctx:emit("may_fire", ev)
  if ev.fires and ev.value > 0 then return ev.value end
  return nil
end

-- roll one die for each unit that fires (step 2: the strikers; else those that have not fired this round)
function roll_units(ctx, b, list, step)
  local g = ctx.game
  for _, u in ipairs(list) do
    if g:get_value(u, "fired_round") ~= b.round and not g:get_value(u, "submerged") then
      if step and ctx:query("submerges_now", u) then
        g:set_value(u, "submerged", true)
        ctx:say("%s submerges instead of firing", ctx:query("unit_label", u))
      else
        local v = fire_value(ctx, b, u, step or 2)
        if v then
          local roll = ctx:roll("1d6", { reason = ("%s fires (hits on %d or less)"):format(ctx:query("unit_label", u), v) })
          g:set_value(u, "fired_round", b.round)
          if roll <= v then g:set_value(u, "scored", (g:get_value(u, "scored") or 0) + 1) end
        end
      end
    end
  end
end

-- a unit's hit capacity: 2 for an undamaged capital ship, else 1
function capacity(ctx, u)
  local d = ctx:query("unit_data", ctx.game:get(u, "type"))
  if d and d.hits >= 2 and ctx.game:get(u, "face") ~= "damaged" then return 2 end
  return 1
end

-- the hits the other side scored on `side`: {firer=} per hit (eligibility adds its targets);
-- in a battle (context "battle"), only the participants' hits count
function choice_hits(ctx, side, context)
  local g = ctx.game
  local out = {}
  for _, u in ipairs(g:units()) do
    local n = g:get_value(u, "scored")
    if n and g:get(u, "side") ~= side and (context ~= "battle" or g:get_value(u, "battle_role")) then
      for _ = 1, n do out[#out + 1] = { firer = u } end
    end
  end
  return out
end

-- each target's hit capacity
function capacities(ctx, targets)
  local cap = {}
  for _, t in ipairs(targets) do cap[t] = capacity(ctx, t) end
  return cap
end

-- eligibility of each hit for each target, and its kind: 1 refuses an air unit, 2 refuses another, 3 none
local function eligibility(ctx, hits, targets, context)
  local g = ctx.game
  local b = battle_of(ctx) or { bombardment = true }
  if context == "bombardment" then b = { bombardment = true, zone = g:get_global("choice_area") } end
  local memo = {}
  for _, h in ipairs(hits) do
    local e = memo[h.firer]
    if not e then
      e = { set = {}, kind = 3 }
      for _, t in ipairs(targets) do
        local ev = { battle = b, firer = h.firer, target = t, allowed = true }
        ctx:emit("may_hit", ev)
        if ev.allowed then e.set[t] = true
        elseif ctx:query("class_of", t) == "air" then e.kind = 1
        elseif e.kind == 3 then e.kind = 2 end
      end
      memo[h.firer] = e
    end
    h.elig, h.kind = e.set, e.kind
  end
  table.sort(hits, function(a, c)
    if a.kind ~= c.kind then return a.kind < c.kind end
    return a.firer < c.firer
  end)
end

-- the largest number of hits that can be assigned (hits to target slots, by eligibility)
function maxmatch(hits, targets, cap)
  local owner = {}   -- target -> list of hit indexes holding its slots
  local function try(i, seen)
    for _, t in ipairs(targets) do
      if hits[i].elig[t] and (cap[t] or 0) > 0 and not seen[t] then
        seen[t] = true
        local held = owner[t] or {}
        if #held < cap[t] then
          held[#held + 1] = i
          owner[t] = held
          return true
        end
        for k, j in ipairs(held) do
          if try(j, seen) then
            held[k] = i
            return true
          end
        end
      end
    end
    return false
  end
  local n = 0
  for i = 1, #hits do
    if try(i, {}) then n = n + 1 end
  end
  return n
end

-- preference of a target under its side's declared ranks: smaller first
function pref_key(ctx, u)
  local g = ctx.game
  local loss = g:get_value(u, "loss_rank") or math.maxinteger
  local rank = loss
  local damaged = g:get(u, "face") == "damaged"
  if capacity(ctx, u) == 2 then
    local soak = g:get_value(u, "soak_rank")
    if soak and soak < rank then rank = soak end
  end
  return rank, damaged and 0 or 1, #g:cargo(u), u
end

local function less(ctx, a, b)
  local a1, a2, a3, a4 = pref_key(ctx, a)
  local b1, b2, b3, b4 = pref_key(ctx, b)
  if a1 ~= b1 then return a1 < b1 end
  if a2 ~= b2 then return a2 < b2 end
  if a3 ~= b3 then return a3 < b3 end
  return a4 < b4
end

-- a hit on a unit: its capital-ship rule may damage it instead; else it is a casualty
function apply_hit(ctx, u, effect)
  local g = ctx.game
  local ev = { unit = u, damaged = false }
  ctx:emit("unit_hit", ev)
  if ev.damaged then return end
  if effect == "remove" then
    ctx:say("%s is lost", ctx:query("unit_label", u))
    g:eliminate(u)
    ctx:emit("unit_sunk", { unit = u })
  else
    g:set_value(u, "casualty", true)
    ctx:say("%s goes behind the casualty strip", ctx:query("unit_label", u))
  end
end

function assign_policy(ctx, hits, targets, effect)
  local cap = capacities(ctx, targets)
  local live = {}
  for _, h in ipairs(hits) do live[#live + 1] = h end
  while true do
    local m = maxmatch(live, targets, cap)
    if m == 0 then break end
    local order = {}
    for _, t in ipairs(targets) do if cap[t] > 0 then order[#order + 1] = t end end
    table.sort(order, function(a, b) return less(ctx, a, b) end)
    local chosen, chosen_i
    for _, t in ipairs(order) do
      for i, h in ipairs(live) do
        if h.elig[t] then
          cap[t] = cap[t] - 1
          table.remove(live, i)
          local ok = maxmatch(live, targets, cap) == m - 1
          table.insert(live, i, h)
          cap[t] = cap[t] + 1
          if ok then chosen, chosen_i = t, i break end
        end
      end
      if chosen then break end
    end
    table.remove(live, chosen_i)
    cap[chosen] = cap[chosen] - 1
    apply_hit(ctx, chosen, effect)
    if ctx.game:get(chosen, "loc") ~= "zone" then cap[chosen] = 0 end
  end
  if #live > 0 then ctx:say("%d hit(s) could not be assigned", #live) end
end

-- resolve the hits scored on `side`: by its declared policy, else wait for a casualties order
function resolve_hits(ctx, side_role, targets, effect, context, area)
  local g = ctx.game
  local side
  if context == "battle" then
    side = side_role == "attacker" and g:get_global("battle_side") or nil
    local defenders = participants(ctx, "defender")
    if not side and defenders[1] then side = g:get(defenders[1], "side") end
  else
    side = side_role
  end
  local hits = side and choice_hits(ctx, side, context) or {}
  if #hits == 0 then return true end
  local has_policy = #targets > 0
  for _, t in ipairs(targets) do if not g:get_value(t, "loss_rank") then has_policy = false end end
  eligibility(ctx, hits, targets, context)
  local cap = capacities(ctx, targets)
  if maxmatch(hits, targets, cap) == 0 then
    ctx:say("%d hit(s) on %s, none can be assigned", #hits, tostring(side))
    for _, h in ipairs(hits) do g:set_value(h.firer, "scored", nil) end
    return true
  end
  if has_policy then
    ctx:say("%d hit(s) on %s: casualties by the declared policy", #hits, side)
    assign_policy(ctx, hits, targets, effect)
    for _, h in ipairs(hits) do g:set_value(h.firer, "scored", nil) end
    return true
  end
  g:set_global("choice_side", side)
  g:set_global("choice_effect", effect)
  g:set_global("choice_context", context)
  g:set_global("choice_area", area)
  ctx:say("%d hit(s) on %s: its owner chooses the casualties (order: casualties)", #hits, side)
  -- the owner decides now, in its own window (the sequence of play waits for it); in a
  -- battle its submarines may also say they submerge at their next chance to roll
  if ctx:status().started then
    ctx:open_window { side = side, title = CHOICE_WINDOW,
                      actions = context == "battle" and { "casualties", "submerge" } or { "casualties" } }
  end
  return false
end

-- close the casualty window the choice opened (its order was given)
function close_choice_window(ctx, side)
  local w = ctx:status().window
  if w and w.title == CHOICE_WINDOW and w.side == side then ctx:close_window() end
end

-- the targets a pending choice may name
local function choice_targets(ctx)
  local g = ctx.game
  local side = g:get_global("choice_side")
  if g:get_global("choice_context") == "battle" then
    local role = side == g:get_global("battle_side") and "attacker" or "defender"
    return alive_of(ctx, role)
  end
  local out = {}
  for _, u in ipairs(ctx:query("units_in", g:get_global("choice_area"))) do
    if g:get(u, "side") == side and not g:get_value(u, "casualty") then out[#out + 1] = u end
  end
  return out
end

function validate_choice(ctx, units)
  local g = ctx.game
  local side = g:get_global("choice_side")
  local targets = choice_targets(ctx)
  local is_target = {}
  for _, t in ipairs(targets) do is_target[t] = true end
  local hits = choice_hits(ctx, side, g:get_global("choice_context"))
  eligibility(ctx, hits, targets, g:get_global("choice_context"))
  local cap = capacities(ctx, targets)
  local m = maxmatch(hits, targets, cap)
  local named = {}
  for _, u in ipairs(units) do
    if not is_target[u] then
      return ("%s cannot be a casualty now (not one of %s's units in the fight)"):format(ctx:query("unit_label", u), side)
    end
    named[u] = (named[u] or 0) + 1
    if named[u] > cap[u] then
      return ("%s cannot take %d hits"):format(ctx:query("unit_label", u), named[u])
    end
  end
  if #units ~= m then
    return ("%d hit(s) can be assigned to %s's units and must be: name %d casualt%s, not %d"):format(
      m, side, m, m == 1 and "y" or "ies", #units)
  end
  local list = {}
  for u in pairs(named) do list[#list + 1] = u end
  table.sort(list)
  if maxmatch(hits, list, named) < m then
    return "those casualties do not fit the hits (submarines cannot hit air units; "
      .. "air units cannot hit submarines unless a frigate friendly to them is in the battle)"
  end
end

-- true (and the result set) when the battle is over
function check_end(ctx)
  local g = ctx.game
  local b = battle_of(ctx)
  local a, d = alive_of(ctx, "attacker"), alive_of(ctx, "defender")
  local result
  if #a == 0 and #d == 0 then result = "both destroyed"
  elseif #a == 0 then result = "defender holds"
  elseif #d == 0 then result = "attacker wins"
  else
    local function can_hurt(from, to)
      for _, f in ipairs(from) do
        local e = { battle = b, unit = f, eligible = false }
        ctx:emit("may_surprise_strike", e)
        if e.eligible or fire_value(ctx, b, f, 3) then
          for _, t in ipairs(to) do
            local ev = { battle = b, firer = f, target = t, allowed = true }
            ctx:emit("may_hit", ev)
            if ev.allowed then return true end
          end
        end
      end
      return false
    end
    if not can_hurt(a, d) and not can_hurt(d, a) then result = "no side can hit the other" end
  end
  if result then g:set_global("battle_result", result) end
  return result ~= nil
end

-- a side wiped out before the other units fire ends the battle (on to step 7)
function end_if_side_gone(ctx, ev)
  if #alive_of(ctx, "attacker") == 0 or #alive_of(ctx, "defender") == 0 then
    check_end(ctx)
    ev.next = 7
  end
end

function conclude(ctx, b)
  local g = ctx.game
  local result = g:get_global("battle_result") or "over"
  ctx:say("battle in %s over: %s", ctx:query("area_name", b.zone), result)
  ctx:emit("battle_end", { battle = b, result = result })
  local turn = ctx:query("this_turn")
  for _, u in ipairs(g:units()) do
    if g:get_value(u, "battle_role") then
      if g:get(u, "loc") == "zone" then g:set_value(u, "sea_combat_turn", turn) end
      for _, k in ipairs { "battle_role", "casualty", "fired_round", "scored", "soak_rank", "loss_rank",
                           "submerge_policy", "submerge_next", "submerged" } do
        if g:get_value(u, k) ~= nil then g:set_value(u, k, nil) end
      end
    end
  end
  for _, k in ipairs { "battle_zone", "battle_side", "battle_power", "battle_round", "battle_step", "battle_wait",
                       "battle_rounds_left", "battle_retreat_at", "battle_retreat_to", "battle_rolled", "battle_result" } do
    if g:get_global(k) ~= nil then g:set_global(k, nil) end
  end
end

-- ---- casualty policies ------------------------------------------------------------------
-- Written once: the game's declared policies (declare_policy, policy_problem) and the
-- exact odds (keel.battle_odds, through the queries casualty_ranks and
-- casualty_policy_problem) both use these three functions, over the types in a battle.

-- the policy's list of entries for these types of `side` (a named list is made from their costs)
local function casualty_list(ctx, types, side, order)
  if type(order) == "table" then return order end
  local sorted = {}
  for i, t in ipairs(types) do sorted[i] = t end
  local function cost(t)
    local d = ctx:query("unit_data", t)
    return d and d.cost[side] or 0
  end
  table.sort(sorted, function(a, b)
    if cost(a) ~= cost(b) then return cost(a) < cost(b) end
    return a < b
  end)
  local list = {}
  local last = {}
  for _, t in ipairs(sorted) do
    local d = ctx:query("unit_data", t)
    if d and d.hits >= 2 then
      if order == "keep_carriers" and t == "carrier" then last[#last + 1] = "damage:" .. t
      else list[#list + 1] = "damage:" .. t end
    end
  end
  for _, t in ipairs(sorted) do
    if order == "keep_carriers" and t == "carrier" then last[#last + 1] = t else list[#list + 1] = t end
  end
  for _, e in ipairs(last) do list[#list + 1] = e end
  return list
end

-- the casualty ranks of a policy: {list = entries, soak = {type = rank of "damage:type"},
-- loss = {type = rank of "type"}}; a unit is hit at its smallest rank first
function casualty_ranks(ctx, types, side, order)
  local list = casualty_list(ctx, types, side, order)
  local soak, loss = {}, {}
  for i, e in ipairs(list) do
    local s, t = tostring(e):match("^(damage:)(.+)$")
    if s then soak[t] = soak[t] or i else loss[e] = loss[e] or i end
  end
  return { list = list, soak = soak, loss = loss }
end

local function order_of(policy)
  if type(policy) == "string" then return policy end
  if type(policy) == "table" then return policy.order end
  return nil
end

-- why a policy does not do for a battle with units of these types (nil: it does)
function casualty_policy_problem(ctx, types, policy)
  if policy == nil then return nil end
  local order = order_of(policy)
  if type(policy) ~= "string" and type(policy) ~= "table" then
    return "a casualty policy is a name (cheapest, keep_carriers) or { order = {...}, submerge =, retreat_at =, retreat_to = }"
  end
  if type(order) == "string" then
    if not ctx.rule.values.named_policies[order] then
      return ("no casualty policy named '%s' (cheapest, keep_carriers)"):format(order)
    end
    return nil
  end
  if type(order) ~= "table" then return "a casualty policy needs order = a list or a name" end
  local named = {}
  for i, e in ipairs(order) do
    local soak, t = tostring(e):match("^(damage:)(.+)$")
    t = t or tostring(e)
    local d = ctx:query("unit_data", t)
    if not d then return ("policy entry %d: no unit type '%s'"):format(i, t) end
    if soak and d.hits < 2 then return ("policy entry %d: %s is not a capital ship (damage: needs one)"):format(i, t) end
    if not soak then named[t] = true end
  end
  for _, t in ipairs(types) do
    if not named[t] then
      return ("the casualty policy does not name %s (every type in the battle needs an entry)"):format(t)
    end
  end
  if type(policy) == "table" and policy.submerge ~= nil and policy.submerge ~= "first" and policy.submerge ~= "alone" then
    return "submerge = \"first\" or \"alone\""
  end
  return nil
end

-- the types of these units, in the order first met
local function types_and_side(ctx, units)
  local g = ctx.game
  local types, seen, side = {}, {}, nil
  for _, u in ipairs(units) do
    local t = g:get(u, "type")
    side = side or g:get(u, "side")
    if not seen[t] then seen[t] = true; types[#types + 1] = t end
  end
  return types, side
end

function policy_problem(ctx, units, policy)
  return casualty_policy_problem(ctx, (types_and_side(ctx, units)), policy)
end

function declare_policy(ctx, units, policy)
  local g = ctx.game
  local types, side = types_and_side(ctx, units)
  local ranks = casualty_ranks(ctx, types, side, order_of(policy))
  for _, u in ipairs(units) do
    local t = g:get(u, "type")
    g:set_value(u, "loss_rank", ranks.loss[t])
    if ranks.soak[t] then g:set_value(u, "soak_rank", ranks.soak[t]) end
    if type(policy) == "table" and policy.submerge and t == "submarine" then
      g:set_value(u, "submerge_policy", policy.submerge)
    end
  end
  ctx:say("declared casualty order: %s", table.concat(ranks.list, ", "))
end

-- ---- the battle as exact odds see it (keel.battle_odds) -----------------------------------

-- the battle model: each unit type's numbers (its table row) and its part in the General
-- Combat sequence, named by the rules that give it; the families' words for the forces
function battle_model(ctx)
  local units = {}
  for _, name in ipairs { "sea_units", "other_units" } do
    for _, row in ipairs(ctx:table(name).rows) do
      local t = row.key
      local d = ctx:query("unit_data", t)
      units[t] = { attack = d.attack, defense = d.defense, hits = d.hits, class = d.class,
                   cost = { Allies = d.cost.Allies, Opfor = d.cost.Opfor }, air = d.class == "air",
                   first_strike = t == "submarine",    -- units.submarines.surprise-strike (step 2)
                   submerges = t == "submarine",       -- units.submarines.submersible
                   detector = t == "frigate",          -- units.frigates.anti-sub-vessel
                   air_defense = t == "carrier" }      -- units.aircraft-carriers.air-defense
    end
  end
  return {
    family = "seazone",
    units = units,
    aliases = { sub = "submarine", subs = "submarine", cv = "carrier", ca = "cruiser", dd = "destroyer",
                ff = "frigate", ss = "submarine", lha = "assault_ship", ftr = "fighter", heli = "helicopter",
                bomber = "strategic_bomber", inf = "infantry" },
    policies = named_policies(ctx),
    sides = { "Allies", "Opfor" },
    hits = {
      surprise_strike = {
        option = "subs", flag = "defending", only = "submarines make a Surprise Strike",
        values = { submarine = "attack" },
        title = "Surprise Strike of %s (%s) — hits:",
        summary = "The exact hits of submarines' Surprise Strike (units.submarines.surprise-strike):\n" ..
          "  --subs FORCE    e.g. \"3 submarine\"   --defending: at their defense value",
        usage = "keel odds seazone:surprise_strike --subs FORCE [--defending]",
      },
      bombard = {
        option = "ships", only = "cruisers and destroyers bombard",
        values = { cruiser = { rule = "units.cruisers.offshore-bombardment", value = "hit_on" },
                   destroyer = { rule = "units.destroyers.offshore-bombardment", value = "hit_on" } },
        title = "Offshore bombardment by %s (cruisers hit on 4 or less, destroyers on 3 or less) — hits:",
        summary = "The exact hits of an offshore bombardment (cruisers hit on 4 or less, destroyers on 3 or less):\n" ..
          "  --ships FORCE   e.g. \"2 cruiser, destroyer\"",
        usage = "keel odds seazone:bombard --ships FORCE",
      },
    },
  }
end

function battle_zones_domain(ctx, side)
  local g = ctx.game
  if g:get_phase() ~= "conduct_combat" then return nil, "battles are fought in the Conduct Combat phase" end
  local b = battle_of(ctx)
  if b then
    if side and side ~= g:get_global("battle_side") then return nil, "the battle is the other side's attack" end
    return { ctx:query("area_name", b.zone) }
  end
  local out = {}
  for i, name in ipairs(g.board:zones()) do
    local att = pending_attackers(ctx, i)
    if #att > 0 and (side == nil or g:get(att[1], "side") == side) then out[#out + 1] = name end
  end
  return out, "no attack is pending"
end

-- the units the choosing side may name as casualties (keel.legal offers the sets of them
-- that fit the hits)
function casualties_domain(ctx, side)
  local g = ctx.game
  local chooser = g:get_global("choice_side")
  if not chooser then return nil, "no side is choosing casualties now" end
  if side and side ~= chooser then return nil, chooser .. " chooses the casualties" end
  local out = {}
  for _, u in ipairs(choice_targets(ctx)) do out[#out + 1] = { value = u, label = g:get(u, "name") } end
  return out
end

-- of the units named as casualties, those that can take a second hit (an undamaged capital ship)
function twice_domain(ctx, units)
  local out = {}
  for _, u in ipairs(units or {}) do
    if capacity(ctx, u) >= 2 then out[#out + 1] = { value = u, label = ctx.game:get(u, "name") } end
  end
  return out, "no casualty named can take a second hit"
end

-- the hits a casualties order assigns: each unit named, then each named again in `twice`
function hit_list(p)
  local out = {}
  for _, u in ipairs(p.units) do out[#out + 1] = u end
  for _, u in ipairs(p.twice or {}) do out[#out + 1] = u end
  return out
end

-- the sea zones adjacent to the battle's
function retreat_domain(ctx)
  local b = battle_of(ctx)
  if not b then return nil, "no battle is being fought" end
  return ctx.game.board:zone_neighbors(ctx:query("area_name", b.zone)) or {}
end

function named_policies(ctx)
  local out = {}
  for name in pairs(ctx.rule.values.named_policies) do out[#out + 1] = name end
  table.sort(out)
  return out
end

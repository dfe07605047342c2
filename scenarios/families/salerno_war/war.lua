-- What the Salerno showcase needs from chapters the rule texts leave out,
-- each a stand-in that says so: naval transport (S.1), the weather at sea
-- (S.2), ground combat (S.3), the theatre's SP pool (S.4), ground movement
-- (S.5), the attacks of units that did not land this player-turn (S.6) and
-- how the game is lost (S.7). The sequence of play is the scenario's
-- declaration (scenarios/salerno_1943.lua, over navgroup's), not a rule here.
--
-- The rules come first; the helpers they use follow them.

local ground_units, is_ground, landed_this_turn, enemies_at, names_of, take   -- helpers, below

-- S.1 Naval transport, as far as the showcase needs it: in the movement
-- phase, a ground unit of the phasing side embarks on one of its side's
-- naval units in the same hex, unless it landed this player-turn (the
-- capacity rules of naval transport are another chapter: Rule 37.C's plans
-- count the LC capacity, not this).
rule {
  id = "S.1", title = "Embark (scenario stand-in for naval transport)",
  standin = "naval transport (embarking)",
  actions = {
    embark = {
      phases = { "movement" },
      params = {
        unit = { type = "unit", domain = function(ctx, _, side)
          local out = {}
          for _, u in ipairs(ground_units(ctx, side or ctx.game:get_global("phasing"))) do
            if not landed_this_turn(ctx, u) then out[#out + 1] = u end
          end
          return out, "S.1: no ground unit on the map to embark"
        end },
        carrier = { type = "unit", depends = { "unit" }, domain = function(ctx, p)
          local game, out = ctx.game, {}
          local _, at = game:get(p.unit, "loc")
          for _, c in ipairs(game:units()) do
            local kind, where = game:get(c, "loc")
            if kind == "hex" and where == at and game:get(c, "side") == game:get(p.unit, "side")
                and ctx:query("naval_type", c) then
              out[#out + 1] = c
            end
          end
          return out, "S.1: no naval unit of its side in its hex"
        end },
      },
      legal = function(ctx, p)
        local game = ctx.game
        local phasing = game:get_global("phasing")
        if phasing and game:get(p.unit, "side") ~= phasing then return "S.1: the phasing side's units embark" end
        if not is_ground(ctx, p.unit) then return "S.1: only a ground unit embarks" end
        if landed_this_turn(ctx, p.unit) then
          return ("S.1: %s landed this player-turn: it does not embark again"):format(game:get(p.unit, "name"))
        end
        if not ctx:query("naval_type", p.carrier) then return "S.1: a unit embarks on a naval unit" end
        if game:get(p.unit, "side") ~= game:get(p.carrier, "side") then return "a unit embarks on its own side's ships" end
        local kind, a = game:get(p.unit, "loc")
        local ckind, b = game:get(p.carrier, "loc")
        if kind ~= "hex" or ckind ~= "hex" or a ~= b then return "the unit and the ship are not in the same hex" end
      end,
      effect = function(ctx, p)
        ctx.game:embark(p.unit, p.carrier)
        ctx:say("%s embarks on %s", ctx.game:get(p.unit, "name"), ctx.game:get(p.carrier, "name"))
      end,
    },
  },
  queries = {
    --- naval_type(u) -> true when u is a naval unit (37's naval types)
    naval_type = function(ctx, u)
      return ctx.game:get(u, "loc") ~= "dead" and not ctx:query("is_ground_unit", u)
        and ctx.game:get(u, "type") ~= "CD"
    end,
  },
}

-- S.2 The sea state (a stand-in for the series' weather): the scenario sets
-- it, as its own bookkeeping, never a player's order. Rule 37 (b) and
-- Table 1 read the global `sea`.
rule {
  id = "S.2", title = "Sea state (scenario stand-in for the weather)",
  standin = "the weather chapter (sea state)",
  actions = {
    set_sea = {
      side = "scenario",
      params = { sea = "string" },
      legal = function(_, p)
        if p.sea ~= "calm" and p.sea ~= "rough" and p.sea ~= "stormy" then return "calm, rough or stormy" end
      end,
      effect = function(ctx, p)
        ctx.game:set_global("sea", p.sea)
        ctx:say("the sea is %s", p.sea)
      end,
    },
  },
}

-- S.4 The theatre's SP pool (a stand-in: supply is another chapter). Rule
-- 37.B takes SPs from it (items 10, 11, 13): keyed value sp_pool, by side.
-- The scenario sets it (its `keyed`, or this order of its own).
rule {
  id = "S.4", title = "Theatre SP pool (scenario stand-in for supply)",
  standin = "supply (the theatre SP pool)",
  actions = {
    set_sp_pool = {
      side = "scenario",
      params = { side = "side", sp = "integer" },
      legal = function(_, p) if p.sp < 0 then return "a pool holds 0 SPs or more" end end,
      effect = function(ctx, p)
        ctx.game:set_keyed("sp_pool", p.side, p.sp)
        ctx:say("%s's theatre SP pool: %d SPs", p.side, p.sp)
      end,
    },
  },
}

-- S.3 Ground combat (a stand-in: the ground combat chapter is not in the
-- rule texts). One die, less the attackers' largest "+ # MP" marker (Rule
-- 37 (e): the markers affect a required attack's die): 5 or more, the
-- defenders are eliminated; 1 or less, the attackers are disrupted; else no
-- decision. Rule 37.B applies the result (item 6: disruptions on an
-- initially defended beach eliminate). Then hex control (another chapter
-- too): a hex the defenders no longer hold is the attackers' when they are
-- in it (a dual-owned beach, 37.B item 8, becomes theirs).
rule {
  id = "S.3", title = "Ground combat (scenario stand-in)",
  standin = "ground combat",
  on = {
    ground_combat = {
      function(ctx, ev)
        local die = ctx:roll("1d6", { reason = ("%s at %s"):format(ev.kind, ctx.game.board:format(ev.hex)) })
        local n = die - (ev.largest_mp_marker or 0)
        if n >= 5 then
          ev.result = { losses = ev.defenders, text = ("die %d - %d (markers) = %d: the defenders are eliminated")
            :format(die, ev.largest_mp_marker or 0, n) }
        elseif n <= 1 then
          ev.result = { disrupted = ev.attackers, text = ("die %d - %d (markers) = %d: the attackers are disrupted")
            :format(die, ev.largest_mp_marker or 0, n) }
        else
          ev.result = { text = ("die %d - %d (markers) = %d: no decision"):format(die, ev.largest_mp_marker or 0, n) }
        end
      end,
    },
  },
}

-- hex control after a combat, once 37.B has applied its result (priority
-- below 37.B's -100)
rule {
  id = "S.3.1", title = "Hex control after ground combat (scenario stand-in)",
  standin = "ground combat (hex control)",
  on = {
    ground_combat = {
      function(ctx, ev)
        local game = ctx.game
        if #enemies_at(ctx, ev.hex, ev.side) > 0 then return end
        local own = 0
        for _, u in ipairs(ev.attackers or {}) do
          local kind, at = game:get(u, "loc")
          if kind == "hex" and at == ev.hex then own = own + 1 end
        end
        if own > 0 and game:get_owner(ev.hex) ~= ev.side then take(ctx, ev.hex, ev.side) end
      end,
      priority = -200,
    },
  },
}

-- S.5 Ground movement (a stand-in for the series' movement chapter): in
-- the movement phase each ground unit of the phasing side on the map that
-- did not land this player-turn (its MPs went into the landing, 37.B) may
-- move once, to a land hex within `reach` hexes with no enemy unit (no
-- terrain or ZOC costs: other chapters). Entering an enemy-owned hex takes
-- it.
rule {
  id = "S.5", title = "Ground movement (scenario stand-in)",
  standin = "ground movement",
  values = { reach = 2 },
  actions = {
    advance = {
      phases = { "movement" },
      params = {
        unit = { type = "unit", domain = function(ctx, _, side)
          local out = {}
          for _, u in ipairs(ground_units(ctx, side or ctx.game:get_global("phasing"), true)) do
            if ctx.game:get_value(u, "advanced") == nil and not landed_this_turn(ctx, u) then out[#out + 1] = u end
          end
          return out, "S.5: no ground unit left to move"
        end },
        to = { type = "hex", depends = { "unit" }, domain = function(ctx, p)
          local game, out = ctx.game, {}
          local kind, at = game:get(p.unit, "loc")
          if kind ~= "hex" then return {}, "S.5: the unit is not on the map" end
          local side = game:get(p.unit, "side")
          for _, h in ipairs(keel.hex.spiral(at, ctx.rule.values.reach)) do
            if h ~= at and game.board:contains(h) and game.board:get_terrain(h) ~= "all-sea"
                and #enemies_at(ctx, h, side) == 0 then
              out[#out + 1] = { value = h, owner = game:get_owner(h) }
            end
          end
          table.sort(out, function(a, b) return a.value < b.value end)
          return out, "S.5: no hex to move to"
        end },
      },
      legal = function(ctx, p)
        local game = ctx.game
        local name = game:get(p.unit, "name")
        if game:get(p.unit, "side") ~= game:get_global("phasing") then
          return ("S.5: %s is not a unit of the phasing side"):format(name)
        end
        if not is_ground(ctx, p.unit) then return ("S.5: %s is not a ground unit"):format(name) end
        local kind, at = game:get(p.unit, "loc")
        if kind ~= "hex" then return ("S.5: %s is not on the map"):format(name) end
        if game.board:get_terrain(at) == "all-sea" then
          return ("S.5: %s is at sea: it comes ashore by landing (Rule 37)"):format(name)
        end
        if game:get_value(p.unit, "advanced") ~= nil then return ("S.5: %s has moved this player-turn"):format(name) end
        if landed_this_turn(ctx, p.unit) then return ("S.5: %s landed this player-turn"):format(name) end
        if not game.board:contains(p.to) or game.board:get_terrain(p.to) == "all-sea" then
          return "S.5: a ground unit moves over land"
        end
        if p.to == at then return ("S.5: %s is there already"):format(name) end
        local d = keel.hex.distance(at, p.to)
        if d > ctx.rule.values.reach then
          return ("S.5: a ground unit moves at most %d hexes (%s is %d away)"):format(ctx.rule.values.reach,
            ctx:label("hex", p.to), d)
        end
        if #enemies_at(ctx, p.to, game:get(p.unit, "side")) > 0 then
          return ("S.5: %s holds enemy units (attack it in the combat phase)"):format(ctx:label("hex", p.to))
        end
      end,
      effect = function(ctx, p)
        local game = ctx.game
        local side = game:get(p.unit, "side")
        game:move(p.unit, "hex", p.to)
        game:set_value(p.unit, "advanced", true)
        ctx:say("%s moves to %s", game:get(p.unit, "name"), ctx:label("hex", p.to))
        if game:get_owner(p.to) ~= side then take(ctx, p.to, side) end
      end,
    },
  },
  on = {
    player_turn_end = function(ctx)
      local game = ctx.game
      for _, u in ipairs(game:units()) do
        if game:get_value(u, "advanced") ~= nil then game:set_value(u, "advanced", nil) end
      end
    end,
  },
}

-- S.6 Ground attacks (a stand-in for the series' combat chapter): in the
-- combat phase ground units of the phasing side attack an enemy-held hex
-- they are in or next to, each unit once a player-turn; units that landed
-- this player-turn attack under Rule 37.B (its amphibious_attack), and a
-- disrupted unit does not attack until it recovers at the start of its
-- side's next player-turn. S.3 decides the combat; when the defenders are
-- eliminated and no attacker is in the hex, the first attacker moves in.
rule {
  id = "S.6", title = "Ground attacks (scenario stand-in)",
  standin = "ground combat (attacks of units that did not land)",
  values = { disrupted = "disrupted" },
  actions = {
    attack = {
      phases = { "combat" },
      params = {
        hex = { type = "hex", domain = function(ctx, _, side)
          side = side or ctx.game:get_global("phasing")
          local out, seen = {}, {}
          for _, u in ipairs(ground_units(ctx, side, true)) do
            local _, at = ctx.game:get(u, "loc")
            for _, h in ipairs(keel.hex.spiral(at, 1)) do
              if not seen[h] and ctx.game.board:contains(h) and #enemies_at(ctx, h, side) > 0 then
                seen[h] = true
                out[#out + 1] = { value = h, defenders = #enemies_at(ctx, h, side) }
              end
            end
          end
          table.sort(out, function(a, b) return a.value < b.value end)
          return out, "S.6: no enemy unit in or next to a ground unit of the side"
        end },
        units = { type = "units", depends = { "hex" }, domain = function(ctx, p)
          local game, out = ctx.game, {}
          for _, u in ipairs(ground_units(ctx, game:get_global("phasing"), true)) do
            local _, at = game:get(u, "loc")
            if keel.hex.distance(at, p.hex) <= 1 and game:get_value(u, "attacked") == nil
                and not landed_this_turn(ctx, u) and (game:get_marker(u, ctx.rule.values.disrupted) or 0) == 0 then
              out[#out + 1] = u
            end
          end
          return out, "S.6: no unit may attack it"
        end },
      },
      legal = function(ctx, p)
        local game = ctx.game
        local phasing = game:get_global("phasing")
        if #p.units == 0 then return "S.6: name the attacking units" end
        if #enemies_at(ctx, p.hex, phasing) == 0 then return ("S.6: %s holds no enemy unit"):format(ctx:label("hex", p.hex)) end
        local seen = {}
        for _, u in ipairs(p.units) do
          local name = game:get(u, "name")
          if seen[u] then return ("S.6: %s is named twice"):format(name) end
          seen[u] = true
          if game:get(u, "side") ~= phasing or not is_ground(ctx, u) then
            return ("S.6: %s is not a ground unit of the phasing side"):format(name)
          end
          local kind, at = game:get(u, "loc")
          if kind ~= "hex" or keel.hex.distance(at, p.hex) > 1 then
            return ("S.6: %s is neither in nor next to %s"):format(name, ctx:label("hex", p.hex))
          end
          if game.board:get_terrain(at) == "all-sea" then return ("S.6: %s is at sea"):format(name) end
          if game:get_value(u, "attacked") ~= nil then return ("S.6: %s has attacked this player-turn"):format(name) end
          if landed_this_turn(ctx, u) then
            return ("S.6: %s landed this player-turn: it attacks under Rule 37.B (amphibious_attack)"):format(name)
          end
          if (game:get_marker(u, ctx.rule.values.disrupted) or 0) > 0 then
            return ("S.6: %s is disrupted"):format(name)
          end
        end
      end,
      effect = function(ctx, p)
        local game = ctx.game
        local side = game:get_global("phasing")
        for _, u in ipairs(p.units) do game:set_value(u, "attacked", true) end
        local defenders = enemies_at(ctx, p.hex, side)
        ctx:say("%s attack%s %s (%s)", names_of(ctx, p.units), #p.units == 1 and "s" or "", ctx:label("hex", p.hex),
          names_of(ctx, defenders))
        local ev = { kind = "attack", hex = p.hex, side = side, attackers = p.units, defenders = defenders,
                     rule = ctx.rule.id }
        ctx:emit("ground_combat", ev)
        if #enemies_at(ctx, p.hex, side) == 0 then
          local inside
          for _, u in ipairs(p.units) do
            local kind, at = game:get(u, "loc")
            if kind == "hex" and at == p.hex then inside = u end
          end
          if not inside then
            for _, u in ipairs(p.units) do
              if not inside and game:get(u, "loc") == "hex" then
                inside = u
                game:move(u, "hex", p.hex)
                ctx:say("%s moves into %s", game:get(u, "name"), ctx:label("hex", p.hex))
              end
            end
            if inside and game:get_owner(p.hex) ~= side then take(ctx, p.hex, side) end
          end
        end
        return ev.record
      end,
    },
  },
  on = {
    -- a side's disrupted units recover as its player-turn begins
    player_turn_start = function(ctx, ev)
      local game, m = ctx.game, ctx.rule.values.disrupted
      for _, u in ipairs(game:units()) do
        if game:get(u, "side") == ev.side and (game:get_marker(u, m) or 0) > 0 then
          game:set_marker(u, m, 0)
          ctx:say("%s recovers from its disruption", game:get(u, "name"))
        end
      end
    end,
    player_turn_end = function(ctx)
      local game = ctx.game
      for _, u in ipairs(game:units()) do
        if game:get_value(u, "attacked") ~= nil then game:set_value(u, "attacked", nil) end
      end
    end,
  },
}

-- S.7 Thrown back into the sea (the scenario's sudden death, a victory
-- condition's query): once the invader has landed, a player-turn that ends
-- with none of its ground units ashore ends the game.
rule {
  id = "S.7", title = "Thrown back into the sea (scenario victory condition)",
  values = { invader = "Allied", defender = "Axis" },
  queries = {
    --- thrown_back() -> the defender and why, when the invader landed and has no ground unit ashore; else nil
    thrown_back = function(ctx)
      local v = ctx.rule.values
      if #ctx:query("landings", { side = v.invader }) == 0 then return nil end
      if #ground_units(ctx, v.invader, true) > 0 then return nil end
      return v.defender, ("no %s ground unit is left ashore"):format(v.invader)
    end,
  },
}

-- ---- helpers used by the rules -------------------------------------------------------

function is_ground(ctx, u) return ctx:query("is_ground_unit", u) end

-- the ground units of `side` on the map (not aboard), in id order; `ashore`:
-- only those on land (a unit in an all-sea hex stands for one waiting on
-- its ships: it comes ashore by landing)
function ground_units(ctx, side, ashore)
  local game, out = ctx.game, {}
  for _, u in ipairs(game:units()) do
    local kind, at = game:get(u, "loc")
    if game:get(u, "side") == side and kind == "hex" and is_ground(ctx, u)
        and not (ashore and game.board:get_terrain(at) == "all-sea") then
      out[#out + 1] = u
    end
  end
  return out
end

-- did u land (Rule 37) in this player-turn?
function landed_this_turn(ctx, u)
  local id = ctx.game:get_value(u, "landing")
  return id ~= nil and ctx:query("landing", id, "player_turn") == (ctx:query("clock"))
end

function enemies_at(ctx, hex, side) return ctx:query("defenders_at", hex, side) end

function names_of(ctx, units)
  local out = {}
  for i, u in ipairs(units) do out[i] = ctx.game:get(u, "name") end
  return #out > 0 and table.concat(out, ", ") or "none"
end

function take(ctx, hex, side)
  ctx.game:set_owner(hex, side)
  ctx:say("%s takes %s", side, ctx:label("hex", hex))
end

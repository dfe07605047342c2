-- STAND-IN: the turn sequence. 002_37d6fae90ae806a5.txt cites the phases of
-- a turn (the Combat Move phase, the Conduct Combat phase, "Phase 4:
-- Noncombat Move", the Mobilize New Units phase) without giving the chapter
-- that defines them. This file supplies the smallest sequence those
-- citations need, so that the sea-unit rules can say when things happen; a
-- scenario or variant that has the real chapter replaces this rule
-- (replace("turn-sequence", {...})).
--
-- A turn is one power's: begin_turn {power} starts it (turn number + 1, the
-- power and its side in the globals `power` and `side`, phase combat_move);
-- end_phase ends the phase the game is in and starts the next:
-- combat_move -> conduct_combat -> noncombat_move -> mobilize -> end.
-- Handlers of `phase_end` act before a phase closes (a veto on end_phase
-- says why it may not close yet); handlers of `phase_start` act as the next
-- one opens. Units bought for the turn wait off the map with the value
-- `mobilize_zone` (an area index) and are placed in Mobilize New Units.

local PHASES = { "combat_move", "conduct_combat", "noncombat_move", "mobilize" }
local next_phase, side_of_power, powers_domain

rule {
  id = "turn-sequence", title = "Turn sequence (stand-in for the chapter the text cites)",
  standin = "the turn sequence (the phases the text names)",
  actions = {
    begin_turn = {
      -- domain (keel.legal): the powers that own units (of `side`, when
      -- given); a power's side is that of its units
      params = { power = { type = "string", domain = function(ctx, _, side) return powers_domain(ctx, side) end },
                 side = "string?" },
      legal = function(ctx, p)
        local ph = ctx.game:get_phase()
        if ph ~= nil and ph ~= "end" then
          return ("%s's turn is in its %s phase: end it first"):format(tostring(ctx.game:get_global("power")), ph)
        end
        if not (p.side or side_of_power(ctx, p.power)) then
          return ("no unit belongs to %s: give its side"):format(p.power)
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local side = p.side or side_of_power(ctx, p.power)
        g:set_turn((g:get_turn() or 0) + 1)
        g:set_global("power", p.power)
        g:set_global("side", side)
        g:set_phase(PHASES[1])
        ctx:say("turn %d: %s (%s)", g:get_turn(), p.power, side)
        ctx:emit("player_turn_start", { power = p.power, side = side })
        ctx:emit("phase_start", { phase = PHASES[1], power = p.power })
      end,
    },
    end_phase = {
      params = {},
      legal = function(ctx)
        if not next_phase(ctx.game:get_phase()) then return "no turn is in progress (begin_turn starts one)" end
      end,
      effect = function(ctx)
        local g = ctx.game
        local ph, power = g:get_phase(), g:get_global("power")
        ctx:emit("phase_end", { phase = ph, power = power })
        local nx = next_phase(ph)
        g:set_phase(nx)
        if nx == "end" then
          ctx:say("end of %s's turn", power)
          ctx:emit("player_turn_end", { power = power, side = g:get_global("side") })
        else
          ctx:say("%s: %s", power, nx)
          ctx:emit("phase_start", { phase = nx, power = power })
        end
      end,
    },
  },
  on = {
    -- Mobilize New Units: the power's units waiting off the map are placed
    phase_start = function(ctx, ev)
      if ev.phase ~= "mobilize" then return end
      local g = ctx.game
      for _, u in ipairs(g:units()) do
        local kind = g:get(u, "loc")
        local z = g:get_value(u, "mobilize_zone")
        if kind == "off" and z and ctx:query("power_of", u) == ev.power then
          g:move(u, "zone", z)
          g:set_value(u, "mobilize_zone", nil)
          ctx:say("%s placed in %s", ctx:query("unit_label", u), ctx:query("area_name", z))
        end
      end
    end,
  },
}

function next_phase(ph)
  for i, p in ipairs(PHASES) do
    if p == ph then return PHASES[i + 1] or "end" end
  end
  return nil
end

-- the side of a power: that of its first unit (id order)
function side_of_power(ctx, power)
  for _, u in ipairs(ctx.game:units()) do
    if ctx:query("power_of", u) == power then return ctx.game:get(u, "side") end
  end
  return nil
end

-- the powers of the units in the game (of `side`, when given), in the order their first units come
function powers_domain(ctx, side)
  local g, out, seen = ctx.game, {}, {}
  for _, u in ipairs(g:units()) do
    local power = ctx:query("power_of", u)
    if not seen[power] and (side == nil or g:get(u, "side") == side) then
      seen[power] = true
      out[#out + 1] = power
    end
  end
  return out, "no unit of the side"
end

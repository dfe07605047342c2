-- STAND-IN: the turn sequence. 002_37d6fae90ae806a5.txt cites the phases of
-- a power's turn (the Combat Move phase, the Conduct Combat phase, "Phase 4:
-- Noncombat Move", the Mobilize New Units phase) without giving the chapter
-- that defines them. The family's manifest declares those four phases as
-- keel's sequence of play (keel.sequence runs it: `end_phase` passes, the
-- globals `turn`, `phasing`, `power` and `phase` say where the game is; a
-- scenario names the powers' player-turns in `sequence.sides`); this file
-- keeps what the cited phases do that no unit rule does: Mobilize New Units.
-- A scenario or variant that has the real chapter replaces the declaration
-- (its own `sequence`) and this rule (replace("turn-sequence", {...})).
--
-- Handlers of `phase_end` act as a phase closes (a veto on end_phase says
-- why it may not close yet); handlers of `phase_start` act as the next one
-- opens. Units bought for the turn wait off the map with the value
-- `mobilize_zone` (an area index) and are placed in Mobilize New Units.

rule {
  id = "turn-sequence", title = "Turn sequence (stand-in for the chapter the text cites)",
  standin = "the turn sequence (the phases the text names)",
  on = {
    -- Mobilize New Units: the power's units waiting off the map are placed
    phase_start = function(ctx, ev)
      if ev.phase ~= "mobilize" then return end
      local g = ctx.game
      for _, u in ipairs(g:units { loc = "off" }) do
        local z = g:get_value(u, "mobilize_zone")
        if z and ctx:query("power_of", u) == ev.power then
          g:move(u, "zone", z)
          g:set_value(u, "mobilize_zone", nil)
          ctx:say("%s placed in %s", ctx:query("unit_label", u), ctx:query("area_name", z))
        end
      end
    end,
  },
}

-- Frigates (002_37d6fae90ae806a5.txt, "Frigates"): the Anti-sub Vessel
-- characteristic. The printed values (cost 10+/6+, attack 2, defense 2, move
-- 2) are the `frigate` row of sea_units.tbl (units.frigates).
--
-- Two effects: an enemy submarine entering a frigate's sea zone ends its
-- movement there (a veto on `move`; ending a combat move there starts combat
-- because the frigate makes the zone hostile), and a frigate taking part in
-- a battle cancels the enemy submarines' Surprise Strike, Submersible and
-- Cannot Be Hit by Air Units (handlers on the same events as the submarine
-- rules, at a lower priority so they run after them). Taking part means
-- being on the battle strip: a frigate of a power friendly to the attacker
-- that is only present in the zone is not in the battle.

local frigate_in_battle

rule {
  id = "units.frigates.anti-sub-vessel", title = "Anti-sub Vessel",
  priority = -10,
  queries = {
    -- the first frigate taking part in the battle (a unit id, in id order) on `side`, or with
    -- opposing = true on the side opposing `side`; nil when there is none
    frigate_in_battle = function(ctx, side, opposing) return frigate_in_battle(ctx, side, opposing) end,
  },
  vetoes = {
    move = function(ctx, p)
      local g = ctx.game
      local n = #p.path
      for i = 1, n - 1 do
        local z = ctx:query("area_index", p.path[i])
        if z then
          for _, u in ipairs(p.units) do
            if g:get(u, "type") == "submarine" then
              for _, e in ipairs(ctx:query("units_in", z)) do
                if g:get(e, "type") == "frigate" and g:get(e, "side") ~= g:get(u, "side") then
                  return ("%s must end its movement in %s, where enemy %s is"):format(
                    ctx:query("unit_label", u), p.path[i], ctx:query("unit_label", e))
                end
              end
            end
          end
        end
      end
    end,
  },
  on = {
    may_surprise_strike = function(ctx, ev)
      local f = ev.eligible and frigate_in_battle(ctx, ctx.game:get(ev.unit, "side"), true)
      if f then
        ev.eligible = false
        ev.reason = ("enemy %s is in the battle"):format(ctx:query("unit_label", f))
      end
    end,
    may_submerge = function(ctx, ev)
      local f = ev.allowed and frigate_in_battle(ctx, ctx.game:get(ev.unit, "side"), true)
      if f then
        ev.allowed = false
        ev.reason = ("cannot submerge: enemy %s is in the battle"):format(ctx:query("unit_label", f))
      end
    end,
    may_hit = function(ctx, ev)
      if ev.allowed == false and ev.by == "units.submarines.cannot-be-hit-by-air-units" then
        local f = frigate_in_battle(ctx, ctx.game:get(ev.firer, "side"))
        if f then
          ev.allowed, ev.reason, ev.by = true, nil, nil
        end
      end
    end,
  },
}

function frigate_in_battle(ctx, side, opposing)
  local g = ctx.game
  for _, u in ipairs(ctx:query("battle_participants")) do
    local s = g:get(u, "side")
    if g:get(u, "type") == "frigate" and (s == side) ~= (opposing == true) then
      return u
    end
  end
  return nil
end

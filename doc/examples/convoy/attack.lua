-- G.2 Air attack: roll on the AIR ATTACK TABLE; each hit sinks a transport.
rule {
  id = "G.2", title = "Air attack",
  on = {
    air_attack = function(ctx, ev)
      local g = ctx.game
      local escorted = ctx:query("escorted", ev.group)
      local result = ctx:resolve("air_attack", {
        has_no_escort = not escorted, at_night = g:get_global("night") == true,
      }, { reason = "air attack on " .. tostring(ev.group) })
      local hits = result.value
      for _, u in ipairs(g:group_units(ev.group)) do
        if hits == 0 then break end
        if g:get(u, "type") == "NT" and g:get(u, "loc") ~= "dead" then
          g:eliminate(u)
          hits = hits - 1
        end
      end
    end,
  },
}

-- A.1 Hex control, as far as the Salerno showcase needs it (a stand-in for
-- the series' control rules, which section 18's text does not contain): a
-- combat unit that comes ashore in a hex (a landing, 18.5; a Beach
-- Assault, 18.6) or enters it by land (18.5h's after-landing move) takes
-- the hex for its side when no enemy combat unit is in it. The map's owner
-- statements give the control a game starts with.

local take   -- helper, below the rule

rule {
  id = "A.1", title = "Hex control (scenario stand-in)",
  standin = "hex control (the series' rules, not in section 18)",
  on = {
    -- after section 18 has put the units ashore (its handlers run first)
    units_land = { function(ctx, ev)
      for _, u in ipairs(ev.units or {}) do
        local hex, kind = ctx:query("unit_hex", u)
        if hex and kind == "hex" then take(ctx, u, hex) end
      end
    end, priority = -50 },
    unit_enters_hex = { function(ctx, ev) take(ctx, ev.unit, ev.hex) end, priority = -50 },
  },
}

-- u's side takes hex: u a combat unit ashore, no enemy combat unit there
function take(ctx, u, hex)
  local g = ctx.game
  if g:get(u, "loc") == "dead" or not ctx:query("is_combat_unit", u) then return end
  local side = g:get(u, "side")
  if g:get_owner(hex) == side or g.board:get_terrain(hex) == "all-sea" then return end
  for _, o in ipairs(ctx:query("units_at", hex)) do
    if g:get(o, "side") ~= side and ctx:query("is_combat_unit", o) then return end
  end
  g:set_owner(hex, side)
  ctx:say("%s takes %s for the %s", g:get(u, "name"), ctx:label("hex", hex), side)
end

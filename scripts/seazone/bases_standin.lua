-- STAND-IN: Naval Bases. 002_37d6fae90ae806a5.txt says "see Naval Bases"
-- for two things it relies on — a sea zone "serviced by an operative
-- friendly naval base" (ships departing from it move 3 sea zones) and
-- repairing a damaged capital ship "by a visit to an operative friendly
-- naval base" — but does not contain that chapter. This stand-in supplies
-- the smallest reading of both; a scenario with the real chapter replaces
-- it (replace("naval-bases", {...})):
--
-- * a naval base is a unit of type `naval_base` in a territory; it is
--   operative unless its value `operative` is false (the game state; the
--   action set_operative changes it, as bombing rules of another chapter
--   would), and friendly to the side that owns its territory;
-- * it serves every sea zone adjacent to its territory;
-- * a damaged unit of the power whose turn begins, in a sea zone an
--   operative friendly base serves, visits it: `repair_visit` is emitted,
--   and the unit's capital-ship rule repairs it (the text's "can be
--   repaired by a visit"; this stand-in repairs at the start of the owner's
--   turn, as the common phase for repairs).

local serving_base

rule {
  id = "naval-bases", title = "Naval bases (stand-in for the chapter the text cites)",
  standin = "Naval Bases (\"see Naval Bases\")",
  queries = {
    -- the operative naval base friendly to `side` that serves sea zone z (lowest id), or nil
    serving_base = function(ctx, z, side) return serving_base(ctx, z, side) end,
  },
  actions = {
    set_operative = {
      side = "scenario",   -- the scenario's bookkeeping (what the bases chapter would decide)
      -- domains (keel.legal): the naval bases on the map (a side's own, or
      -- the enemy's its bombers strike); the other state than the one it is in
      params = {
        base = { type = "unit", domain = function(ctx)
          local g, out = ctx.game, {}
          for _, u in ipairs(g:units { type = "naval_base", loc = "zone" }) do
            out[#out + 1] = { value = u, label = g:get(u, "name") }
          end
          return out, "no naval base on the map"
        end },
        operative = { type = "boolean", depends = { "base" }, domain = function(ctx, p)
          return { ctx.game:get_value(p.base, "operative") == false }
        end },
      },
      legal = function(ctx, p)
        if ctx.game:get(p.base, "type") ~= "naval_base" then return "not a naval base" end
      end,
      effect = function(ctx, p)
        ctx.game:set_value(p.base, "operative", p.operative)
        ctx:say("%s is %s", ctx:query("unit_label", p.base), p.operative and "operative" or "not operative")
      end,
    },
  },
  on = {
    player_turn_start = function(ctx, ev)
      local g = ctx.game
      for _, u in ipairs(g:units { loc = "zone" }) do
        if g:get(u, "face") == "damaged" and ctx:query("power_of", u) == ev.power then
          local z = ctx:query("area_of", u)
          local base = serving_base(ctx, z, g:get(u, "side"))
          if base then ctx:emit("repair_visit", { unit = u, base = base, zone = z }) end
        end
      end
    end,
  },
}

function serving_base(ctx, z, side)
  if not z or not ctx:query("is_sea_zone", z) then return nil end
  local g = ctx.game
  local name = ctx:query("area_name", z)
  for _, n in ipairs(g.board:zone_neighbors(name) or {}) do
    local t = ctx:query("area_index", n)
    if ctx:query("is_territory", t) and ctx:query("owner_of", t) == side then
      for _, u in ipairs(ctx:query("units_in", t)) do
        if g:get(u, "type") == "naval_base" and g:get_value(u, "operative") ~= false then return u end
      end
    end
  end
  return nil
end

-- S.1 The ground war, as far as the showcase needs it (a stand-in for the
-- series' ground movement and combat chapters, which the rule texts do not
-- contain): in the ground phase the phasing player's ground units advance
-- up to `reach` hexes over land, and take hexes next to them (the kernel's
-- owner_changed event tells Rule 32, whose Suez hexside owners follow hex
-- owners, 32.A.6.a).

local ground_units, land_near   -- helpers, below the rule

rule {
  id = "S.1", title = "Ground advance and capture (scenario stand-in)",
  standin = "the ground movement and combat chapters (advance and capture)",
  values = { reach = 10, take = 1 },
  actions = {
    advance = {
      phases = { "ground" },
      params = {
        unit = { type = "unit", domain = function(ctx) return ground_units(ctx) end },
        to = { type = "hex", depends = { "unit" }, domain = function(ctx, p)
          local kind, at = ctx.game:get(p.unit, "loc")
          if kind ~= "hex" then return {} end
          return land_near(ctx, at, ctx.rule.values.reach, false)
        end },
      },
      legal = function(ctx, p)
        local game = ctx.game
        if game:get(p.unit, "side") ~= game:get_global("phasing") then return "not a unit of the phasing side" end
        local kind, at = game:get(p.unit, "loc")
        if kind ~= "hex" then return "the unit is not on the map" end
        if game.board:get_terrain(p.to) == "all-sea" then return "a ground unit cannot advance into an all-sea hex" end
        if p.to == at then return "the unit is there already" end
        if keel.hex.distance(at, p.to) > ctx.rule.values.reach then
          return ("a ground unit advances at most %d hexes"):format(ctx.rule.values.reach)
        end
      end,
      effect = function(ctx, p)
        ctx.game:move(p.unit, "hex", p.to)
        ctx:say("%s advances to %s", ctx.game:get(p.unit, "name"), ctx.game.board:format(p.to))
      end,
    },
    capture = {
      phases = { "ground" },
      params = { hex = { type = "hex", domain = function(ctx)
        local out, seen = {}, {}
        for _, u in ipairs(ground_units(ctx)) do
          local _, at = ctx.game:get(u, "loc")
          for _, h in ipairs(land_near(ctx, at, ctx.rule.values.take, true)) do
            if not seen[h] then seen[h] = true; out[#out + 1] = h end
          end
        end
        table.sort(out)
        return out
      end } },
      legal = function(ctx, p)
        local game, side = ctx.game, ctx.game:get_global("phasing")
        if game.board:get_terrain(p.hex) == "all-sea" then return "an all-sea hex is nobody's" end
        if game:get_owner(p.hex) == side then return "the hex is already " .. side end
        for _, u in ipairs(ground_units(ctx)) do
          local _, at = game:get(u, "loc")
          if keel.hex.distance(at, p.hex) <= ctx.rule.values.take then return nil end
        end
        return ("no %s ground unit is within %d hex of it"):format(side, ctx.rule.values.take)
      end,
      effect = function(ctx, p)
        local side = ctx.game:get_global("phasing")
        ctx.game:set_owner(p.hex, side)
        ctx:say("%s takes %s", side, ctx.game.board:format(p.hex))
      end,
    },
  },
}

-- the phasing side's ground units on the map (those in no naval group), in id order
function ground_units(ctx)
  local game, side, out = ctx.game, ctx.game:get_global("phasing"), {}
  for _, u in ipairs(game:units()) do
    if game:get(u, "side") == side and game:get(u, "loc") == "hex" and #game:groups_of(u) == 0 then
      out[#out + 1] = u
    end
  end
  return out
end

-- the hexes on the map within n of `at` that are not all sea (with `at`
-- itself when `self`), in hex order
function land_near(ctx, at, n, self)
  local board, out = ctx.game.board, {}
  for _, h in ipairs(keel.hex.spiral(at, n)) do
    if board:contains(h) and (self or h ~= at) and board:get_terrain(h) ~= "all-sea" then out[#out + 1] = h end
  end
  table.sort(out)
  return out
end

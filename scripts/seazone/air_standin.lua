-- STAND-IN: air movement. 002_37d6fae90ae806a5.txt speaks of fighters and
-- helicopters moving, launching, landing and using "their remaining
-- movement", and of air units attacking in sea battles, but air movement is
-- another chapter. This stand-in gives air units the smallest movement the
-- carrier rules need, so that they can be played; a scenario with the real
-- chapter replaces it (replace("air-units", {...})):
--
-- * `fly` moves an air unit of the power whose turn it is along a path of
--   adjacent areas (sea zones and territories), in Combat Move or
--   Noncombat Move, up to its Move (other_units_standin.tbl) in a turn;
-- * taking off from a carrier is leaving its cargo (the carrier rules may
--   refuse it); a declared landing is dropped when the unit flies on;
-- * ending a combat move in an area with enemy units is an attack there.

local fly_legal, flyers_domain, air_paths_domain

rule {
  id = "air-units", title = "Air movement (stand-in for the chapter the text cites)",
  standin = "air movement (fighters and helicopters moving and landing)",
  actions = {
    fly = {
      phases = { "combat_move", "noncombat_move" },
      -- domains (keel.legal): the air units of the power whose turn it is on
      -- the map; for each, the shortest path to every area its Move left reaches
      params = {
        unit = { type = "unit", domain = function(ctx, _, side) return flyers_domain(ctx, side) end },
        path = { type = "table", depends = { "unit" }, domain = function(ctx, p) return air_paths_domain(ctx, p.unit) end },
      },
      legal = function(ctx, p) return fly_legal(ctx, p) end,
      effect = function(ctx, p)
        local g = ctx.game
        local from = ctx:query("area_of", p.unit)
        local to = ctx:query("area_index", p.path[#p.path])
        if g:get_value(p.unit, "air_moved_turn") ~= ctx:query("this_turn") then g:set_value(p.unit, "air_moved", 0) end
        g:set_value(p.unit, "air_moved_turn", ctx:query("this_turn"))
        g:set_value(p.unit, "air_moved", g:get_value(p.unit, "air_moved") + #p.path)
        g:set_value(p.unit, "landing_on", nil)
        g:move(p.unit, "zone", to)
        ctx:say("%s flies %s -> %s", ctx:query("unit_label", p.unit), ctx:query("area_name", from), table.concat(p.path, " -> "))
        if g:get_phase() == "combat_move" then
          for _, u in ipairs(ctx:query("units_in", to)) do
            if g:get(u, "side") ~= g:get(p.unit, "side") then
              g:set_value(p.unit, "attacking_turn", ctx:query("this_turn"))
              ctx:say("%s attacks in %s", ctx:query("unit_label", p.unit), ctx:query("area_name", to))
              break
            end
          end
        end
      end,
    },
  },
}

function fly_legal(ctx, p)
  local g = ctx.game
  if ctx:query("class_of", p.unit) ~= "air" then return ("%s is not an air unit"):format(ctx:query("unit_label", p.unit)) end
  local ph = g:get_phase()
  if ph ~= "combat_move" and ph ~= "noncombat_move" then return "air units move in Combat Move and Noncombat Move" end
  if ctx:query("power_of", p.unit) ~= g:get_global("power") then
    return ("%s moves on %s's turn"):format(ctx:query("unit_label", p.unit), ctx:query("power_of", p.unit))
  end
  if #p.path == 0 then return "an empty path" end
  local prev = ctx:query("area_of", p.unit)
  if not prev then return ("%s is not on the map"):format(ctx:query("unit_label", p.unit)) end
  for i, name in ipairs(p.path) do
    local z = ctx:query("area_index", name)
    if not z then return ("path[%d]: '%s' is not an area of the map"):format(i, tostring(name)) end
    if not ctx:query("adjacent", prev, z) then
      return ("%s is not adjacent to %s"):format(name, ctx:query("area_name", prev))
    end
    prev = z
  end
  local d = ctx:query("unit_data", g:get(p.unit, "type"))
  local used = g:get_value(p.unit, "air_moved_turn") == ctx:query("this_turn") and g:get_value(p.unit, "air_moved") or 0
  if used + #p.path > d.move then
    return ("%s may move %d areas a turn (%d used)"):format(ctx:query("unit_label", p.unit), d.move, used)
  end
end

-- ---- parameter domains (keel.legal) ------------------------------------------------

-- the air units of the power whose turn it is (of `side`, when given) in an area or aboard
function flyers_domain(ctx, side)
  local ph = ctx.game:get_phase()
  if ph ~= "combat_move" and ph ~= "noncombat_move" then return nil, "air units move in Combat Move and Noncombat Move" end
  local out = {}
  for _, c in ipairs(ctx:query("turn_units", side, "air")) do
    if ctx:query("area_of", c.value) then out[#out + 1] = c end
  end
  return out, "no air unit of the power whose turn it is is on the map"
end

-- one path to every other area within the unit's Move left this turn: the
-- shortest (breadth first, neighbours in the map's order); extras to, cost
function air_paths_domain(ctx, unit)
  local g = ctx.game
  local from = ctx:query("area_of", unit)
  if not from then return nil, "the unit is not on the map" end
  local d = ctx:query("unit_data", g:get(unit, "type"))
  local used = g:get_value(unit, "air_moved_turn") == ctx:query("this_turn") and g:get_value(unit, "air_moved") or 0
  local left = d.move - used
  local out, seen, frontier = {}, { [from] = true }, { { area = from, path = {} } }
  for _ = 1, left do
    local nexts = {}
    for _, f in ipairs(frontier) do
      for _, n in ipairs(g.board:zone_neighbors(ctx:query("area_name", f.area)) or {}) do
        local i = ctx:query("area_index", n)
        if i and not seen[i] then
          seen[i] = true
          local path = table.move(f.path, 1, #f.path, 1, {})
          path[#path + 1] = n
          out[#out + 1] = { value = path, label = table.concat(path, " > "), to = n, cost = #path }
          nexts[#nexts + 1] = { area = i, path = path }
        end
      end
    end
    frontier = nexts
  end
  return out, ("no Move left this turn (%d of %d used)"):format(used, d.move)
end

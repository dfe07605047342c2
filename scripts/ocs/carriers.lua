-- 18.2 Aircraft Carriers (000_366d55705cda9bbc.txt): what a carrier may
-- carry, its refit, its planes flying from its hex and going where it goes,
-- and the screen that keeps surface gunfire off it. Planes aboard a carrier
-- are its cargo (location unit:<carrier>): they move with it and go to the
-- dead pile with it by the kernel's own cargo rule. An Inactive plane has
-- the value inactive = true.

local planes_aboard   -- helper, below the rules
local plane_domain, carrier_domain, refit_carrier_domain, inactive_domain   -- parameter domains (keel.legal), below

rule {
  id = "18.2a", title = "Capacity",
  queries = {
    --- planes_aboard(cv) -> the air units aboard the carrier, Active and Inactive, in id order
    planes_aboard = function(ctx, cv) return planes_aboard(ctx, cv) end,
    --- carrier_refusal(cv, plane) -> nil, or why the plane may not use the
    --- carrier: a carrier with a number (value capacity.planes) supports that
    --- many planes, Inactive ones included; one without takes only the
    --- planes that carry its name (value carrier)
    carrier_refusal = function(ctx, cv, plane)
      local g = ctx.game
      local name, pname = g:get(cv, "name"), g:get(plane, "name")
      if ctx:query("naval_class", cv) ~= "carrier" then return ("18.2a: %s is not a carrier"):format(name) end
      if ctx:query("naval_class", plane) ~= "air" then return ("18.2a: %s is not an air unit"):format(pname) end
      if g:get(cv, "side") ~= g:get(plane, "side") then return ("18.2a: %s is an enemy carrier"):format(name) end
      local cap = ctx:query("printed", cv, "capacity.planes")
      if cap ~= nil then
        local n = 0
        for _, p in ipairs(planes_aboard(ctx, cv)) do if p ~= plane then n = n + 1 end end
        if n >= cap then
          return ("18.2a: %s supports %d aircraft, Active and Inactive, and has %d aboard"):format(name, cap, n)
        end
        return nil
      end
      if g:get_value(plane, "carrier") ~= name then
        return ("18.2a: only planes with the carrier's name on them use %s (%s is %s)"):format(name, pname,
          g:get_value(plane, "carrier") and ("of " .. g:get_value(plane, "carrier")) or "not a carrier plane")
      end
      return nil
    end,
  },
  actions = {
    -- base_plane {plane, carrier}: the plane goes aboard (its flight there is
    -- the air chapter's; only the carrier's capacity is checked here)
    base_plane = {
      side = "any",   -- where air units fly (the air chapter's): in the movement and barrage segments (18.2c)
      phases = { "movement_segment", "movement_barrage", "reaction_movement", "reaction_barrage",
                 "exploitation_movement", "exploitation_barrage" },
      -- domains (keel.legal): the side's air units; for each, the carriers
      -- of its side that would take it (carrier_refusal), not the one it is on
      params = {
        plane = { type = "unit", domain = function(ctx, _, side) return plane_domain(ctx, side) end },
        carrier = { type = "unit", depends = { "plane" }, domain = function(ctx, p) return carrier_domain(ctx, p.plane) end },
      },
      legal = function(ctx, p) return ctx:query("carrier_refusal", p.carrier, p.plane) end,
      effect = function(ctx, p)
        local g = ctx.game
        g:embark(p.plane, p.carrier)
        ctx:say("%s is based on %s", g:get(p.plane, "name"), g:get(p.carrier, "name"))
      end,
    },
  },
}

rule {
  id = "18.2b", title = "Refit",
  values = { damaged_refit = 2 },
  queries = {
    --- refit_plan(cv, planes?) -> the planes to refit | nil, reason
    refit_plan = function(ctx, cv, wanted)
      local g = ctx.game
      local name = g:get(cv, "name")
      if ctx:query("naval_class", cv) ~= "carrier" then return nil, ("18.2b: %s is not a carrier"):format(name) end
      local phase, side, n = ctx:query("phase")
      if phase ~= "aircraft_refit" or side ~= g:get(cv, "side") then
        return nil, ("18.2b: carriers refit in their side's Aircraft Refit Phase (now the %s phase of %s)")
          :format(tostring(phase), tostring(side))
      end
      if g:get_value(cv, "refit_phase") == n then return nil, ("18.2b: %s has refitted in this phase"):format(name) end
      local inactive = {}
      for _, p in ipairs(planes_aboard(ctx, cv)) do
        if g:get_value(p, "inactive") then inactive[#inactive + 1] = p end
      end
      local chosen = inactive
      if wanted then
        chosen = {}
        for _, p in ipairs(wanted) do
          local kind, w = g:get(p, "loc")
          if kind ~= "unit" or w ~= cv then
            return nil, ("18.2b: %s is not aboard %s"):format(g:get(p, "name"), name)
          end
          if not g:get_value(p, "inactive") then return nil, ("18.2b: %s is not Inactive"):format(g:get(p, "name")) end
          chosen[#chosen + 1] = p
        end
      end
      if #chosen == 0 then return nil, ("18.2b: %s has no Inactive plane aboard to refit"):format(name) end
      local limit = ctx.rule.values.damaged_refit
      if g:get(cv, "face") == "damaged" and #chosen > limit then
        if wanted then
          return nil, ("18.2b: %s is damaged and refits only %d planes, whatever its rating"):format(name, limit)
        end
        local some = {}
        for i = 1, limit do some[i] = chosen[i] end
        chosen = some
      end
      return chosen
    end,
  },
  actions = {
    -- refit {carrier, planes?}: all the Inactive planes aboard (a damaged
    -- carrier: 2, the first in id order unless the player names them)
    refit = {
      phases = { "aircraft_refit" },   -- 18.2b
      -- domains (keel.legal): the side's carriers on the map (refit_plan
      -- says which may refit now); for each, the Inactive planes aboard
      -- (left out: all of them, or a damaged carrier's first two)
      params = {
        carrier = { type = "unit", domain = function(ctx, _, side) return refit_carrier_domain(ctx, side) end },
        planes = { type = "units?", depends = { "carrier" }, domain = function(ctx, p) return inactive_domain(ctx, p.carrier) end },
      },
      legal = function(ctx, p)
        local list, why = ctx:query("refit_plan", p.carrier, p.planes)
        if not list then return why end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local list = ctx:query("refit_plan", p.carrier, p.planes)
        local _, _, n = ctx:query("phase")
        g:set_value(p.carrier, "refit_phase", n)
        local names = {}
        for i, plane in ipairs(list) do
          g:set_value(plane, "inactive", nil)
          names[i] = g:get(plane, "name")
        end
        ctx:say("%s refits %s (no SP cost)", g:get(p.carrier, "name"), table.concat(names, ", "))
      end,
    },
  },
}

rule {
  id = "18.2c", title = "Carrier Planes",
  queries = {
    --- mission_hex(plane) -> the hex the plane flies its missions from and
    --- projects its Patrol Zone from: its carrier's hex when aboard one
    --- (wherever the carrier has moved, before or after the planes fly),
    --- else where it is (its air base: the air chapter's)
    mission_hex = function(ctx, plane)
      local g = ctx.game
      local kind, w = g:get(plane, "loc")
      if kind == "unit" and ctx:query("naval_class", w) == "carrier" then return (ctx:query("unit_hex", w)) end
      return (ctx:query("unit_hex", plane))
    end,
    patrol_zone_center = function(ctx, plane) return ctx:query("mission_hex", plane) end,
    --- carrier_of(plane) -> the carrier it is aboard, or nil
    carrier_of = function(ctx, plane)
      local kind, w = ctx.game:get(plane, "loc")
      if kind == "unit" and ctx:query("naval_class", w) == "carrier" then return w end
      return nil
    end,
  },
}

rule {
  id = "18.2d", title = "Surface gunfire and carriers",
  vetoes = {
    -- surface ship gunfire may not be aimed at a carrier while a non-carrier
    -- surface ship of its side is in the firing ship's range; coastal
    -- artillery and planes are not surface ship gunfire
    barrage = function(ctx, p)
      local g = ctx.game
      local cv = p.target
      if not cv or ctx:query("naval_class", cv) ~= "carrier" then return nil end
      local side = g:get(cv, "side")
      for _, f in ipairs(p.units) do
        local c = ctx:query("naval_class", f)
        if c == "ship" or c == "carrier" then
          local fh, range = ctx:query("unit_hex", f), ctx:query("printed", f, "range") or 0
          for _, s in ipairs(side ~= nil and g:units { side = side } or {}) do
            local sc = ctx:query("naval_class", s)
            if sc == "ship" or sc == "landing_craft" then
              local sh = ctx:query("unit_hex", s)
              if sh and fh and keel.hex.distance(fh, sh) <= range then
                return ("18.2d: %s is screened: %s is in range of %s"):format(g:get(cv, "name"), g:get(s, "name"),
                  g:get(f, "name"))
              end
            end
          end
        end
      end
      return nil
    end,
  },
}

-- ---- helpers shared by the rules of this file ---------------------------------------

function planes_aboard(ctx, cv)
  local out = {}
  for _, u in ipairs(ctx.game:cargo(cv)) do
    if ctx:query("naval_class", u) == "air" then out[#out + 1] = u end
  end
  return out
end

-- ---- parameter domains (keel.legal) ------------------------------------------------

local function named(g, u) return { value = u, label = g:get(u, "name") } end

-- side's air units (nil side: every side's) not in the dead pile, in id order
function plane_domain(ctx, side)
  local g = ctx.game
  local out = {}
  for _, u in ipairs(g:units { side = side }) do
    if ctx:query("naval_class", u) == "air" and g:get(u, "loc") ~= "dead" then
      out[#out + 1] = named(g, u)
    end
  end
  return out, ("18.2a: %s has no air unit"):format(tostring(side or "no side"))
end

-- the carriers on the map that would take the plane (18.2a), other than the one it is aboard
function carrier_domain(ctx, plane)
  local g = ctx.game
  local out, on = {}, ctx:query("carrier_of", plane)
  for _, u in ipairs(g:units()) do
    if u ~= on and ctx:query("naval_class", u) == "carrier" and ctx:query("unit_hex", u)
        and not ctx:query("carrier_refusal", u, plane) then
      out[#out + 1] = named(g, u)
    end
  end
  return out, ("18.2a: no carrier of its side takes %s%s"):format(g:get(plane, "name"), on and " (but the one it is aboard)" or "")
end

-- side's carriers on the map, in id order
function refit_carrier_domain(ctx, side)
  local g = ctx.game
  local out = {}
  for _, u in ipairs(g:units { side = side }) do
    if ctx:query("naval_class", u) == "carrier" and ctx:query("unit_hex", u) then
      out[#out + 1] = named(g, u)
    end
  end
  return out, ("18.2b: %s has no carrier on the map"):format(tostring(side or "no side"))
end

-- the Inactive planes aboard the carrier, in id order
function inactive_domain(ctx, cv)
  local g = ctx.game
  local out = {}
  for _, u in ipairs(planes_aboard(ctx, cv)) do
    if g:get_value(u, "inactive") then out[#out + 1] = named(g, u) end
  end
  return out, ("18.2b: no Inactive plane aboard %s"):format(g:get(cv, "name"))
end

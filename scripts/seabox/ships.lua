-- scripts/seabox/ships.lua — 27.A Ships (001_dc9ef6cc32bfaa07.txt): the four
-- categories (27.A), strength and AA (27.A.1), stacking and port limits
-- (27.A.2), damage and the bombing-hit distribution (27.A.3), carriers and
-- the air groups they base (27.A.4).
--
-- Queries answered here, for the other areas: category, is_ship, afloat
-- (27.A); printed_strength, strength, combat_strength, gunfire_strength,
-- cargo_capacity, may_carry, combines, aa (27.A.1); port_room (27.A.2);
-- damage_after, hits_to_sink (27.A.3); airbase_capacity, is_air_group,
-- based_air (27.A.4).

local name_of, place_of, same_place, candidate, ships_afloat, enemy_tfs, upto -- helpers, defined after the rules

rule {
  id = "27.A", title = "Ships",
  values = {
    -- ship type -> category: SF surface force, CF carrier force, AF
    -- amphibious force, NT naval transport. Counter data: a scenario adds
    -- types with set_values("27.A", { category = { MAS = "SF" } }).
    category = { BB = "SF", BC = "SF", CA = "SF", CL = "SF", DD = "SF",
                 CV = "CF", CVE = "CF", LS = "AF", LC = "AF", NT = "NT" },
  },
  queries = {
    -- "SF", "CF", "AF" or "NT" for a ship; nil for any other unit
    category = function(ctx, unit) return ctx.rule.values.category[ctx.game:get(unit, "type")] end,
    is_ship = function(ctx, unit) return ctx.rule.values.category[ctx.game:get(unit, "type")] ~= nil end,
    -- a ship in play: at sea or in port (not sunk, off map or carried)
    afloat = function(ctx, unit)
      if ctx.rule.values.category[ctx.game:get(unit, "type")] == nil then return false end
      local kind = ctx.game:get(unit, "loc")
      return kind == "hex" or kind == "port"
    end,
  },
}

rule {
  id = "27.A.1", title = "Strength and AA",
  values = {
    sf_cargo = 1,   -- RE of non-c/m units without HE that an undamaged SF carries
    point = 1,      -- an AF's or NT's strength: its damage strength and its cargo capacity
  },
  queries = {
    -- the strength printed on the counter (AF, NT: 1 unless printed otherwise)
    printed_strength = function(ctx, ship)
      local v = ctx.game:get_value(ship, "strength")
      local cat = ctx:query("category", ship)
      if cat == "AF" or cat == "NT" then return v or ctx.rule.values.point end
      if v == nil then
        error(("27.A.1: %s (%s) has no printed strength: give it values.strength"):format(
          name_of(ctx, ship), tostring(ctx.game:get(ship, "type"))), 0)
      end
      return v
    end,
    -- damage strength left: printed strength minus hits
    strength = function(ctx, ship)
      return ctx:query("printed_strength", ship) - ctx.game:get(ship, "hits")
    end,
    -- an SF's strength is its naval combat strength; other ships have none
    combat_strength = function(ctx, ship)
      if ctx:query("category", ship) ~= "SF" then return 0 end
      return ctx:query("strength", ship)
    end,
    -- an SF's strength is its naval gunfire support strength; a CF (its
    -- strength in parentheses), an AF or an NT has none
    gunfire_strength = function(ctx, ship)
      if ctx:query("category", ship) ~= "SF" then return 0 end
      return ctx:query("strength", ship)
    end,
    -- cargo capacity in RE: an undamaged SF 1, a damaged SF or any CF 0,
    -- an AF or NT its 1 point while afloat
    cargo_capacity = function(ctx, ship)
      local cat = ctx:query("category", ship)
      if not ctx:query("afloat", ship) then return 0 end
      if cat == "SF" then return ctx.game:get(ship, "hits") == 0 and ctx.rule.values.sf_cargo or 0 end
      if cat == "AF" or cat == "NT" then return ctx:query("strength", ship) end
      return 0
    end,
    -- nil when `ship` may carry `cargo` (capacity aside), else why not
    may_carry = function(ctx, ship, cargo)
      local cat = ctx:query("category", ship)
      local g = ctx.game
      if cat == nil then return ("27.A.1: %s is not a ship"):format(name_of(ctx, ship)) end
      if cat == "CF" then
        return ("27.A.1: %s is a CF: it has no cargo capacity"):format(name_of(ctx, ship))
      end
      if cat == "SF" then
        if g:get(ship, "hits") > 0 then
          return ("27.A.1: only an undamaged SF carries cargo; %s has %d hit(s)"):format(
            name_of(ctx, ship), g:get(ship, "hits"))
        end
        if ctx:query("cargo_class", cargo) == "c/m" then
          return ("27.A.1: an SF carries only non-c/m units; %s is c/m"):format(name_of(ctx, cargo))
        end
        if g:get_value(cargo, "he") then
          return ("27.A.1: an SF carries only units without heavy equipment; %s has HE"):format(name_of(ctx, cargo))
        end
      end
      return nil
    end,
    -- AF and NT may combine to carry larger items of cargo (with their own category)
    combines = function(ctx, ship)
      local cat = ctx:query("category", ship)
      return cat == "AF" or cat == "NT"
    end,
    -- AA strength as printed (Rule 22A4 uses it; not in this text)
    aa = function(ctx, ship) return ctx.game:get_value(ship, "aa") or 0 end,
  },
}

rule {
  id = "27.A.2", title = "Stacking",
  values = {
    -- port sizes whose entry is limited; the number is the map's port
    -- capacity (`port HEX minor capacity 2`); without one there is no limit
    limited = { minor = true, standard = true },
  },
  queries = {
    -- how many more ships may enter the port at hex: nil when no limit
    -- applies (any number of ships may stack in a hex, at sea or in a
    -- major port); 0, reason when there is no port
    port_room = function(ctx, hex)
      local board = ctx.game.board
      local port = board and board:get_port(hex)
      if not port then return 0, "no port" end
      if not ctx.rule.values.limited[port.size] or port.capacity == nil then return nil end
      local n = 0
      for _, u in ipairs(ctx.game:units { loc = "port", at = hex }) do
        if ctx:query("afloat", u) then n = n + 1 end
      end
      return math.max(0, port.capacity - n)
    end,
  },
  vetoes = {
    sail = function(ctx, p)
      if not p.port then return nil end
      local room = ctx:query("port_room", p.to)
      if room == nil then return nil end
      local n = 0
      for _, u in ipairs(ctx:query("tf_ships", p.tf)) do
        local kind, where = ctx.game:get(u, "loc")
        if not (kind == "port" and where == p.to) then n = n + 1 end
      end
      if n > room then
        local port = ctx.game.board:get_port(p.to)
        return ("27.A.2: %s is a %s port that %d ship(s) may enter: room for %d more, not %d"):format(
          ctx.game.board:format(p.to), port.size, port.capacity, room, n)
      end
    end,
  },
}

rule {
  id = "27.A.3", title = "Damage",
  values = {
    flips = { CA = true, CL = true, DD = true, CVE = true },   -- flip to the half side at hits >= half strength
    bombing_order = { "NT", "AF", "CF", "SF" },               -- one hit per category present, in this order
  },
  queries = {
    -- what `hits` more hits do to a ship: {sunk =, hits =, face =}
    damage_after = function(ctx, ship, hits)
      local g = ctx.game
      local cat = ctx:query("category", ship)
      local total = g:get(ship, "hits") + hits
      if cat == "AF" or cat == "NT" then return { sunk = true, hits = total, face = g:get(ship, "face") } end
      local strength = ctx:query("printed_strength", ship)
      if total >= strength then return { sunk = true, hits = total, face = g:get(ship, "face") } end
      local face = g:get(ship, "face")
      if face == "full" and ctx.rule.values.flips[g:get(ship, "type")] and total * 2 >= strength then
        face = "half"
      end
      return { sunk = false, hits = total, face = face }
    end,
    -- hits that sink a ship afloat: 1 for an AF or NT, its damage strength left for an SF or CF
    hits_to_sink = function(ctx, ship)
      local cat = ctx:query("category", ship)
      if cat == "AF" or cat == "NT" then return 1 end
      return math.max(1, ctx:query("strength", ship))
    end,
  },
  on = {
    -- a naval combat or bombing hit on a ship ({unit, hits, cause}); other units are not this rule's
    unit_hit = function(ctx, ev)
      local g, u, n = ctx.game, ev.unit, ev.hits or 1
      if not ctx:query("afloat", u) then return end
      local r = ctx:query("damage_after", u, n)
      local cat = ctx:query("category", u)
      if r.sunk then
        if cat == "SF" or cat == "CF" then g:add_hits(u, n) end
        ctx:say("%s takes %d hit(s): sunk", name_of(ctx, u), n)
        ctx:emit("ship_sinking", { unit = u })
        g:eliminate(u)
        ctx:emit("unit_sunk", { unit = u, cause = ev.cause })
        return
      end
      g:add_hits(u, n)
      local flipped = r.face ~= g:get(u, "face")
      if flipped then g:flip(u, r.face) end
      ctx:say("%s takes %d hit(s): %d of %d strength left%s", name_of(ctx, u), n,
        ctx:query("strength", u), ctx:query("printed_strength", u), flipped and ", flipped to its half-strength side" or "")
      ctx:emit("ship_damaged", { unit = u, hits = n, cause = ev.cause })
    end,
  },
  actions = {
    -- bombing hits on a TF: as many as the air rules (Rule 20G2, not in this
    -- text) scored, spread one per category present in the order NT, AF,
    -- CF, SF, a ship picked at random in each, over and over
    bomb = {
      -- the hits are the air rules' result (Rule 20G2, not in this text):
      -- the scenario gives them, standing in for that chapter
      side = "scenario",
      -- domains (keel.legal): the TFs of the side's enemies (their bombers
      -- score the hits); 1 hit up to the hits that sink every ship of the
      -- TF (more are left over)
      params = {
        tf = { type = "group", domain = function(ctx, _, side) return enemy_tfs(ctx, side) end },
        hits = { type = "integer", depends = { "tf" }, domain = function(ctx, p)
          local n = 0
          for _, u in ipairs(ctx:query("tf_ships", p.tf)) do n = n + ctx:query("hits_to_sink", u) end
          return upto(n), "27.A.3: the TF has no ship afloat"
        end },
      },
      legal = function(ctx, p)
        if p.hits < 1 then return ("27.A.3: bombing hits come one or more at a time, not %d"):format(p.hits) end
        if #ctx:query("tf_ships", p.tf) == 0 then
          return ("27.A.3: %s has no ships afloat to take bombing hits"):format(ctx.game:group_get_name(p.tf))
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local placed = 0
        ctx:say("%d bombing hit(s) on %s", p.hits, g:group_get_name(p.tf))
        while placed < p.hits do
          local any = false
          for _, cat in ipairs(ctx.rule.values.bombing_order) do
            if placed == p.hits then break end
            local ships = {}
            for _, u in ipairs(ctx:query("tf_ships", p.tf)) do
              if ctx:query("category", u) == cat then ships[#ships + 1] = u end
            end
            if #ships > 0 then
              placed = placed + 1
              local ship = ctx:pick(ships, { reason = ("bombing hit %d: which %s"):format(placed, cat) })
              ctx:say("bombing hit %d of %d: to the %s, %s (picked from %d)", placed, p.hits, cat, name_of(ctx, ship), #ships)
              ctx:emit("unit_hit", { unit = ship, hits = 1, cause = "bombing" })
              any = true
            end
          end
          if not any then
            ctx:say("%d bombing hit(s) left over: no ship of %s is afloat", p.hits - placed, g:group_get_name(p.tf))
            break
          end
        end
      end,
    },
    -- hits of naval combat (its procedure is another chapter): one hit of
    -- damage each on an SF or CF; any hit sinks an AF or NT
    naval_hits = {
      -- the naval combat procedure's result (not in this text): the
      -- scenario gives it, standing in for that chapter
      side = "scenario",
      -- domains (keel.legal): the enemy's ships afloat; 1 hit up to the
      -- hits that sink the ship
      params = {
        ship = { type = "unit", domain = function(ctx, _, side)
          return ships_afloat(ctx, function(u) return side == nil or ctx.game:get(u, "side") ~= side end),
            "27.A.3: no enemy ship is afloat"
        end },
        hits = { type = "integer", depends = { "ship" }, domain = function(ctx, p)
          return upto(ctx:query("hits_to_sink", p.ship))
        end },
      },
      legal = function(ctx, p)
        if not ctx:query("afloat", p.ship) then return ("27.A.3: %s is not a ship afloat"):format(name_of(ctx, p.ship)) end
        if p.hits < 1 then return ("27.A.3: naval combat hits come one or more at a time, not %d"):format(p.hits) end
      end,
      effect = function(ctx, p)
        ctx:emit("unit_hit", { unit = p.ship, hits = p.hits, cause = "naval combat" })
      end,
    },
    -- two half ships of the same type, half strength and AA make one full unit
    combine_halves = {
      phases = { "movement", "exploitation" },   -- the phasing player, in its naval steps
      -- domains (keel.legal): the side's half ships afloat; the other half
      -- ships of that type in the same place
      params = {
        ship = { type = "unit", domain = function(ctx, _, side)
          return ships_afloat(ctx, function(u)
            return (side == nil or ctx.game:get(u, "side") == side) and ctx.game:get(u, "face") == "half"
          end), "27.A.3: the side has no ship on its half-strength side"
        end },
        with = { type = "unit", depends = { "ship" }, domain = function(ctx, p)
          local g = ctx.game
          return ships_afloat(ctx, function(u)
            return u ~= p.ship and g:get(u, "face") == "half" and g:get(u, "type") == g:get(p.ship, "type")
              and same_place(ctx, u, p.ship)
          end), ("27.A.3: no other half %s in the same place"):format(tostring(g:get(p.ship, "type")))
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        local a, b = p.ship, p.with
        if a == b then return "27.A.3: a ship does not combine with itself" end
        local acting = ctx:query("acting_side")
        if acting and g:get(a, "side") ~= acting then
          return ("27.A.3: %s is not a ship of %s"):format(name_of(ctx, a), acting)
        end
        for _, u in ipairs({ a, b }) do
          if not ctx:query("afloat", u) then return ("27.A.3: %s is not a ship afloat"):format(name_of(ctx, u)) end
          if g:get(u, "face") ~= "half" then
            return ("27.A.3: %s is not on its half-strength side"):format(name_of(ctx, u))
          end
        end
        if g:get(a, "type") ~= g:get(b, "type") then
          return ("27.A.3: only half ships of the same type combine (%s and %s)"):format(g:get(a, "type"), g:get(b, "type"))
        end
        if g:get(a, "side") ~= g:get(b, "side") then return "27.A.3: only friendly half ships combine" end
        if not same_place(ctx, a, b) then return "27.A.3: the two half ships are not in the same place" end
        if ctx:query("strength", a) ~= ctx:query("strength", b) then
          return ("27.A.3: half ships combine only at the same half strength (%d and %d)"):format(
            ctx:query("strength", a), ctx:query("strength", b))
        end
        if ctx:query("aa", a) ~= ctx:query("aa", b) then
          return ("27.A.3: half ships combine only with the same AA (%s and %s)"):format(
            tostring(ctx:query("aa", a)), tostring(ctx:query("aa", b)))
        end
        if #g:cargo(b) > 0 then return ("27.A.3: %s still has units aboard"):format(name_of(ctx, b)) end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local left = ctx:query("strength", p.ship) + ctx:query("strength", p.with)
        g:flip(p.ship, "full")
        g:set(p.ship, "hits", math.max(0, ctx:query("printed_strength", p.ship) - left))
        for _, grp in ipairs(g:groups_of(p.with)) do g:group_remove(grp, p.with) end
        g:move(p.with, "off")
        ctx:say("%s and %s combine into a full-strength %s", name_of(ctx, p.ship), name_of(ctx, p.with), g:get(p.ship, "type"))
      end,
    },
  },
}

rule {
  id = "27.A.4", title = "CF and Aircraft",
  values = {
    code = "C",                 -- the air group code (Rule 23F1) that may base on a CF
    air_types = { AIR = true }, -- unit types that are air groups (counter data)
  },
  queries = {
    is_air_group = function(ctx, unit) return ctx.rule.values.air_types[ctx.game:get(unit, "type")] == true end,
    -- an undamaged CF's airbase capacity is its damage strength, one less per hit
    airbase_capacity = function(ctx, ship)
      if ctx:query("category", ship) ~= "CF" or not ctx:query("afloat", ship) then return 0 end
      return math.max(0, ctx:query("strength", ship))
    end,
    -- the air groups based on a ship, in id order
    based_air = function(ctx, ship)
      local out = {}
      for _, u in ipairs(ctx.game:cargo(ship)) do
        if ctx:query("is_air_group", u) then out[#out + 1] = u end
      end
      return out
    end,
  },
  on = {
    ship_damaged = function(ctx, ev)
      if ctx:query("category", ev.unit) ~= "CF" then return end
      local based, cap = #ctx:query("based_air", ev.unit), ctx:query("airbase_capacity", ev.unit)
      ctx:say("%s: airbase capacity now %d, %d air group(s) based%s", name_of(ctx, ev.unit), cap, based,
        based > cap and " (over capacity: the air rules decide)" or "")
    end,
  },
  actions = {
    -- an air group at a CF's place bases on it
    base_air = {
      phases = { "movement", "exploitation" },   -- the phasing player, in its naval steps
      -- domains (keel.legal): the side's air groups of the code that bases
      -- on a CF, on the map; the friendly CFs afloat at their hex
      params = {
        air = { type = "unit", domain = function(ctx, _, side)
          local g, out = ctx.game, {}
          for _, u in ipairs(g:units { side = side }) do
            local kind = g:get(u, "loc")
            if (kind == "hex" or kind == "port") and ctx:query("is_air_group", u)
              and g:get_value(u, "code") == ctx.rule.values.code then
              out[#out + 1] = candidate(ctx, u)
            end
          end
          return out, ("27.A.4: the side has no Code %s air group on the map"):format(ctx.rule.values.code)
        end },
        carrier = { type = "unit", depends = { "air" }, domain = function(ctx, p)
          local g = ctx.game
          local _, at = place_of(ctx, p.air)
          return ships_afloat(ctx, function(u)
            return ctx:query("category", u) == "CF" and g:get(u, "side") == g:get(p.air, "side")
              and select(2, place_of(ctx, u)) == at
          end), "27.A.4: no friendly CF at the air group's hex"
        end },
      },
      legal = function(ctx, p)
        local g, v = ctx.game, ctx.rule.values
        if not ctx:query("is_air_group", p.air) then return ("27.A.4: %s is not an air group"):format(name_of(ctx, p.air)) end
        local acting = ctx:query("acting_side")
        if acting and g:get(p.air, "side") ~= acting then
          return ("27.A.4: %s is not an air group of %s"):format(name_of(ctx, p.air), acting)
        end
        if ctx:query("category", p.carrier) ~= "CF" then
          return ("27.A.4: %s is a %s, not a CF type: only CVs and CVEs base air groups"):format(
            name_of(ctx, p.carrier), tostring(g:get(p.carrier, "type")))
        end
        if not ctx:query("afloat", p.carrier) then return ("27.A.4: %s is not afloat"):format(name_of(ctx, p.carrier)) end
        if g:get_value(p.air, "code") ~= v.code then
          return ("27.A.4: only Code %s air groups (Rule 23F1) may base on a CF; %s is Code %s"):format(
            v.code, name_of(ctx, p.air), tostring(g:get_value(p.air, "code") or "none"))
        end
        if g:get(p.air, "side") ~= g:get(p.carrier, "side") then return "27.A.4: an air group bases only on a friendly CF" end
        local akind, awhere = g:get(p.air, "loc")
        if akind == "unit" and awhere == p.carrier then return ("27.A.4: %s is already based there"):format(name_of(ctx, p.air)) end
        if not (akind == "hex" or akind == "port") or awhere ~= select(2, place_of(ctx, p.carrier)) then
          return ("27.A.4: %s is not at %s's hex"):format(name_of(ctx, p.air), name_of(ctx, p.carrier))
        end
        local cap, based = ctx:query("airbase_capacity", p.carrier), #ctx:query("based_air", p.carrier)
        if based >= cap then
          return ("27.A.4: %s has an airbase capacity of %d (strength %d minus %d hit(s)) and %d air group(s) based"):format(
            name_of(ctx, p.carrier), cap, ctx:query("printed_strength", p.carrier), g:get(p.carrier, "hits"), based)
        end
      end,
      effect = function(ctx, p)
        ctx.game:embark(p.air, p.carrier)
        ctx:say("%s bases on %s", name_of(ctx, p.air), name_of(ctx, p.carrier))
      end,
    },
  },
}

-- ---- helpers ------------------------------------------------------------------------

function name_of(ctx, u) return tostring(ctx.game:get(u, "name")) end

-- where a unit is: kind ("hex", "port", ...), hex
function place_of(ctx, u) return ctx.game:get(u, "loc") end

function same_place(ctx, a, b)
  local ka, wa = place_of(ctx, a)
  local kb, wb = place_of(ctx, b)
  return ka == kb and wa == wb
end

-- ---- parameter domains (keel.legal) ------------------------------------------------

-- a unit as a candidate, labelled with its name
function candidate(ctx, u) return { value = u, label = name_of(ctx, u) } end

-- the ships afloat that `keep(u)` accepts, in id order, as candidates
function ships_afloat(ctx, keep)
  local out = {}
  for _, u in ipairs(ctx.game:units()) do
    if ctx:query("afloat", u) and keep(u) then out[#out + 1] = candidate(ctx, u) end
  end
  return out
end

-- the TFs afloat of the sides other than `side` (nil: every TF)
function enemy_tfs(ctx, side)
  local out = {}
  for _, c in ipairs(ctx:query("side_tfs", nil)) do
    if side == nil or ctx:query("tf_side", c.value) ~= side then out[#out + 1] = c end
  end
  return out, "27.A.3: no enemy TF is afloat"
end

-- 1 .. n
function upto(n)
  local out = {}
  for i = 1, n do out[i] = i end
  return out
end

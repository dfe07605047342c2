-- scripts/seabox/concepts.lua — 27.B Concepts (001_dc9ef6cc32bfaa07.txt):
-- where a TF is (27.B), sea zones (27.B.1), sea boxes (27.B.2), task forces
-- and when the enemy knows them (27.B.3), cargo and what is lost with
-- capacity (27.B.4), water routes and naval adjacency (27.B.5), naval
-- combat zones (27.B.6).
--
-- Queries answered here: position (27.B); sea_zone (27.B.1); box_of,
-- boxes_along (27.B.2); is_tf, side_tfs, unused_group_name, tf_ships,
-- tf_side, tf_of, tf_known, tf_view (27.B.3); cargo_class, cargo_size,
-- cargo_of, lift_of, carriers_of, free_capacity, can_carry (27.B.4); route,
-- reach, naval_adjacent, naval_neighbors (27.B.5); zones_reduced,
-- combat_zone_radius, enemy_zones (27.B.6).
-- Game data: a TF is a group of ships (kind "tf" or none) with the values
-- coast (27.B.5), ngs_hex/ngs_target/ngs_strength/ngs_combat (27.C.3) and
-- cd_hex/cd_phase (27.B.3; the phase as 27.C's phase_key names it); ships that combine to carry one item of cargo
-- form a group of kind "lift" whose value `cargo` is the cargo's unit id.

local members, is_lift, lift_of, settle_lift, settle_ship, cargo_aboard,
  same_place, units_at, unused_name -- helpers, defined after the rules

rule {
  id = "27.B", title = "Concepts",
  queries = {
    -- where a TF is: {hex, in_port, coast, box, zone}; nil when no ship of it is afloat
    position = function(ctx, tf)
      local ships = ctx:query("tf_ships", tf)
      if #ships == 0 then return nil end
      local kind, hex = ctx.game:get(ships[1], "loc")
      return { hex = hex, in_port = kind == "port", coast = ctx.game:group_get_value(tf, "coast") or 0,
               box = ctx.game.board and ctx:query("box_of", hex) or nil,
               zone = ctx.game.board and (ctx:query("sea_zone", hex)) or nil }
    end,
  },
}

rule {
  id = "27.B.1", title = "Sea Zones",
  values = {
    zones = { "Atlantic Ocean", "Mediterranean Sea", "Red Sea" },
    -- finer sea names of a map -> the sea zone they are part of (map data: a
    -- scenario adds, e.g. parts = { ["Aegean Sea"] = "Mediterranean Sea" })
    parts = {},
  },
  queries = {
    -- the sea zone of a hex, or nil, reason
    sea_zone = function(ctx, hex)
      local board = ctx.game.board
      if not board then return nil, "27.B.1: this game has no map" end
      local z = board:get_zone(hex)
      if not z then return nil, ("27.B.1: %s is in no sea zone"):format(board:format(hex)) end
      local v = ctx.rule.values
      z = v.parts[z] or z
      for _, name in ipairs(v.zones) do
        if name == z then return z end
      end
      return nil, ("27.B.1: %s is in '%s', which is none of the %d sea zones"):format(board:format(hex), z, #v.zones)
    end,
  },
}

rule {
  id = "27.B.2", title = "Sea Box",
  values = { across = 5 },   -- hexes across a sea box: the map's `seaboxes radius 2`
  queries = {
    -- the sea box of a hex (a keel box id); the map's overlay must be 5 hexes across
    box_of = function(ctx, hex)
      local board = ctx.game.board
      local radius = board and board:get_seaboxes()
      local want = (ctx.rule.values.across - 1) // 2
      if radius ~= want then
        error(("27.B.2: sea boxes are %d hexes across (map statement 'seaboxes radius %d'); this map's %s"):format(
          ctx.rule.values.across, want, radius and ("are " .. (2 * radius + 1) .. " across") or "has none"), 0)
      end
      return board:box_of(hex)
    end,
    -- sea boxes a ship sails across along a route given hex by hex: one
    -- for each box it enters
    boxes_along = function(ctx, hexes)
      local n = 0
      for i = 2, #hexes do
        if ctx:query("box_of", hexes[i]) ~= ctx:query("box_of", hexes[i - 1]) then n = n + 1 end
      end
      return n
    end,
  },
}

rule {
  id = "27.B.3", title = "Task Force (TF)",
  queries = {
    -- a TF: a group (not a lift) of one or more ships, all of one side
    is_tf = function(ctx, grp)
      if is_lift(ctx, grp) then return false end
      local side
      local any = false
      for _, u in ipairs(ctx.game:group_units(grp)) do
        if not ctx:query("is_ship", u) then return false end
        side = side or ctx.game:get(u, "side")
        if ctx.game:get(u, "side") ~= side then return false end
        any = true
      end
      return any
    end,
    -- the TFs of `side` (nil: every side's) with ships afloat, in group id
    -- order, labelled: the candidates the family's actions offer (keel.legal)
    side_tfs = function(ctx, side)
      local out = {}
      for _, grp in ipairs(ctx.game:groups()) do
        if ctx:query("is_tf", grp) and #members(ctx, grp) > 0 and (side == nil or ctx:query("tf_side", grp) == side) then
          out[#out + 1] = { value = grp, label = ctx.game:group_get_name(grp) }
        end
      end
      return out, "27.B.3: the side has no TF afloat"
    end,
    -- "<base> n" for the lowest n no group is named ("TF 1"): the name a
    -- user interface offers for a new group (keel.legal; any name will do)
    unused_group_name = function(ctx, base) return unused_name(ctx, base or "TF") end,
    -- the ships of a TF that are afloat, in group order
    tf_ships = function(ctx, tf) return members(ctx, tf) end,
    tf_side = function(ctx, tf)
      local u = ctx.game:group_units(tf)[1]
      return u and ctx.game:get(u, "side") or nil
    end,
    -- the TF a ship moves in, or nil
    tf_of = function(ctx, ship)
      for _, grp in ipairs(ctx.game:groups_of(ship)) do
        if not is_lift(ctx, grp) then return grp end
      end
      return nil
    end,
    -- known to the enemy only (1) in the hex from which it gave naval
    -- gunfire support in the immediately preceding combat phase, or (2) in
    -- the hex from which it engaged coast defences in naval combat in the
    -- current phase: known, why
    tf_known = function(ctx, tf)
      local g = ctx.game
      local pos = ctx:query("position", tf)
      if not pos then return false, "no ship of it is afloat" end
      local combat = g:get_global("combat_serial")
      if combat ~= nil and g:group_get_value(tf, "ngs_combat") == combat and g:group_get_value(tf, "ngs_hex") == pos.hex then
        return true, ("it gave naval gunfire support from %s in the last combat phase"):format(ctx:label("hex", pos.hex))
      end
      local phase = ctx:query("phase_key")
      if g:group_get_value(tf, "cd_phase") == phase and g:group_get_value(tf, "cd_hex") == pos.hex then
        return true, ("it engaged coast defences from %s in this phase"):format(ctx:label("hex", pos.hex))
      end
      return false, "neither condition of 27.B.3 applies"
    end,
    -- what `side` may see of a TF. Its own side: everything. The enemy: a
    -- TF marker at its hex (and whether it is in port); of a known TF also
    -- its ships' types and faces (never their hits or cargo).
    tf_view = function(ctx, tf, side)
      local g = ctx.game
      local pos = ctx:query("position", tf)
      if not pos then return nil end
      local owner = ctx:query("tf_side", tf)
      local is_known = ctx:query("tf_known", tf)
      local view = { tf = tf, side = owner, hex = pos.hex, in_port = pos.in_port, known = is_known }
      if side == owner then
        view.ships = {}
        for _, u in ipairs(members(ctx, tf)) do
          local cargo = {}
          for _, c in ipairs(g:cargo(u)) do cargo[#cargo + 1] = ctx:label("unit", c) end
          view.ships[#view.ships + 1] = { name = ctx:label("unit", u), type = g:get(u, "type"), face = g:get(u, "face"),
            hits = g:get(u, "hits"), strength = ctx:query("strength", u), cargo = cargo }
        end
      elseif is_known then
        view.ships = {}
        for _, u in ipairs(members(ctx, tf)) do
          view.ships[#view.ships + 1] = { type = g:get(u, "type"), face = g:get(u, "face") }
        end
      end
      return view
    end,
  },
  on = {
    -- a known TF that leaves the hex it was known in is unknown again
    tf_moved = function(ctx, ev)
      local g = ctx.game
      local was = (g:group_get_value(ev.tf, "ngs_hex") == ev.from
          and g:group_get_value(ev.tf, "ngs_combat") == g:get_global("combat_serial"))
        or (g:group_get_value(ev.tf, "cd_hex") == ev.from
          and g:group_get_value(ev.tf, "cd_phase") == ctx:query("phase_key"))
      if was and ev.from ~= ev.to and not ctx:query("tf_known", ev.tf) then
        ctx:say("%s has left %s: unknown to the enemy again", g:group_get_name(ev.tf), ctx:label("hex", ev.from))
      end
    end,
    -- condition (2): a TF that meets coast defences in naval combat
    naval_combat = function(ctx, ev)
      if ev.cds and #ev.cds > 0 then
        ctx.game:group_set_value(ev.tf, "cd_hex", ev.hex)
        ctx.game:group_set_value(ev.tf, "cd_phase", ctx:query("phase_key"))
        ctx:say("%s engaged coast defences at %s: known to the enemy for the rest of this phase while it stays there",
          ctx.game:group_get_name(ev.tf), ctx:label("hex", ev.hex))
      end
    end,
  },
  actions = {
    -- friendly ships in one place form a new TF (each leaves its old one)
    form_tf = {
      phases = { "movement", "exploitation" },   -- the phasing player, in its naval steps
      -- domains (keel.legal): the side's ships afloat; a name no group has
      -- yet (any name will do)
      params = {
        ships = { type = "units", domain = function(ctx, _, side)
          local out = {}
          for _, u in ipairs(ctx.game:units { side = side }) do
            if ctx:known("afloat", u) then
              out[#out + 1] = { value = u, label = ctx:label("unit", u) }
            end
          end
          return out, "27.B.3: the side has no ship afloat"
        end },
        name = { type = "string", domain = function(ctx) return { unused_name(ctx, "TF") } end },
      },
      legal = function(ctx, p)
        if #p.ships == 0 then return "27.B.3: a TF is one or more ships" end
        local acting = ctx:known("acting_side")
        if acting and ctx.game:get(p.ships[1], "side") ~= acting then
          return ("27.B.3: %s is not a ship of %s"):format(ctx:label("unit", p.ships[1]), acting)
        end
        for _, u in ipairs(p.ships) do
          if not ctx:known("afloat", u) then return ("27.B.3: %s is not a ship afloat"):format(ctx:label("unit", u)) end
          if ctx.game:get(u, "side") ~= ctx.game:get(p.ships[1], "side") then
            return "27.B.3: a TF is made of friendly ships: one side only"
          end
          if not same_place(ctx, u, p.ships[1]) then
            return ("27.B.3: %s and %s are not in the same place"):format(ctx:label("unit", p.ships[1]), ctx:label("unit", u))
          end
        end
        return ctx:query("lifts_kept_whole", p.ships)
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local old = ctx:query("tf_of", p.ships[1])
        local tf = g:group_new { name = p.name, kind = "tf" }
        if old then g:group_set_value(tf, "coast", g:group_get_value(old, "coast")) end
        for _, u in ipairs(p.ships) do
          local from = ctx:query("tf_of", u)
          if from then g:group_remove(from, u) end
          g:group_add(tf, u)
        end
        ctx:say("TF %s formed of %d ship(s)", p.name, #p.ships)
      end,
    },
    -- some ships of a TF leave it as a new TF
    split_tf = {
      phases = { "movement", "exploitation" },   -- the phasing player, in its naval steps
      -- domains (keel.legal): the side's TFs; the ships of the TF; a name
      -- no group has yet (any name will do)
      params = {
        tf = { type = "group", domain = function(ctx, _, side) return ctx:query("side_tfs", side) end },
        ships = { type = "units", depends = { "tf" }, domain = function(ctx, p)
          local out = {}
          for _, u in ipairs(members(ctx, p.tf)) do out[#out + 1] = { value = u, label = ctx:label("unit", u) } end
          return out
        end },
        name = { type = "string", domain = function(ctx) return { unused_name(ctx, "TF") } end },
      },
      legal = function(ctx, p)
        local acting = ctx:known("acting_side")
        if acting and ctx:known("tf_side", p.tf) ~= acting then
          return ("27.B.3: %s is not a TF of %s"):format(ctx.game:group_get_name(p.tf), acting)
        end
        local set = {}
        for _, u in ipairs(members(ctx, p.tf)) do set[u] = true end
        for _, u in ipairs(p.ships) do
          if not set[u] then
            return ("27.B.3: %s is not a ship of %s"):format(ctx:label("unit", u), ctx.game:group_get_name(p.tf))
          end
        end
        if #p.ships == 0 or #p.ships >= #members(ctx, p.tf) then
          return "27.B.3: a split leaves one or more ships in each TF"
        end
        return ctx:query("lifts_kept_whole", p.ships)
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local tf = g:group_new { name = p.name, kind = "tf" }
        g:group_set_value(tf, "coast", g:group_get_value(p.tf, "coast"))
        for _, u in ipairs(p.ships) do
          g:group_remove(p.tf, u)
          g:group_add(tf, u)
        end
        ctx:say("%s splits: %d ship(s) leave as TF %s", g:group_get_name(p.tf), #p.ships, p.name)
      end,
    },
    -- two TFs in one place become one
    join_tf = {
      phases = { "movement", "exploitation" },   -- the phasing player, in its naval steps
      params = {
        tf = { type = "group", domain = function(ctx, _, side) return ctx:query("side_tfs", side) end },
        into = { type = "group", depends = { "tf" }, domain = function(ctx, p)
          local out = {}
          for _, c in ipairs(ctx:query("side_tfs", ctx:query("tf_side", p.tf))) do
            if c.value ~= p.tf then out[#out + 1] = c end
          end
          return out, "27.B.3: no other friendly TF"
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        if p.tf == p.into then return "27.B.3: a TF does not join itself" end
        local acting = ctx:known("acting_side")
        if acting and ctx:known("tf_side", p.tf) ~= acting then
          return ("27.B.3: %s is not a TF of %s"):format(g:group_get_name(p.tf), acting)
        end
        local a, b = members(ctx, p.tf), members(ctx, p.into)
        if #a == 0 or #b == 0 then return "27.B.3: both TFs need ships afloat" end
        if g:get(a[1], "side") ~= g:get(b[1], "side") then return "27.B.3: only friendly TFs join" end
        if not same_place(ctx, a[1], b[1]) then return "27.B.3: the two TFs are not in the same place" end
        local ca, cb = g:group_get_value(p.tf, "coast") or 0, g:group_get_value(p.into, "coast") or 0
        if ca ~= 0 and cb ~= 0 and ca ~= cb then
          return ("27.B.5: the two TFs are on different coasts of %s"):format(ctx:label("hex", select(2, g:get(a[1], "loc"))))
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        if (g:group_get_value(p.into, "coast") or 0) == 0 then g:group_set_value(p.into, "coast", g:group_get_value(p.tf, "coast")) end
        for _, u in ipairs(members(ctx, p.tf)) do
          g:group_remove(p.tf, u)
          g:group_add(p.into, u)
        end
        ctx:say("%s joins %s", g:group_get_name(p.tf), g:group_get_name(p.into))
      end,
    },
  },
}

rule {
  id = "27.B.4", title = "Cargo",
  values = {
    -- unit classes (values.class) whose RE size doubles for naval transport
    doubled = { ["c/m"] = true, cavalry = true },
  },
  queries = {
    cargo_class = function(ctx, unit) return ctx.game:get_value(unit, "class") end,
    -- RE size for naval transport: values["size.RE"], doubled for cavalry and c/m units
    cargo_size = function(ctx, unit)
      local s = ctx.game:get_value(unit, "size.RE")
      if s == nil then
        error(("27.B.4: %s has no RE size: give it values[\"size.RE\"]"):format(ctx:label("unit", unit)), 0)
      end
      if ctx.rule.values.doubled[ctx:query("cargo_class", unit)] then s = s * 2 end
      return s
    end,
    -- the cargo aboard a ship (air groups based on a CF are not cargo)
    cargo_of = function(ctx, ship) return cargo_aboard(ctx, ship) end,
    lift_of = function(ctx, ship) return lift_of(ctx, ship) end,
    -- the ships that carry a unit: a lift's ships, or its one carrier
    carriers_of = function(ctx, cargo)
      local kind, carrier = ctx.game:get(cargo, "loc")
      if kind ~= "unit" then return {} end
      local lift = lift_of(ctx, carrier)
      if lift and ctx.game:group_get_value(lift, "cargo") == cargo then return members(ctx, lift) end
      return { carrier }
    end,
    -- capacity not yet used: none while the ship is part of a lift
    free_capacity = function(ctx, ship)
      if lift_of(ctx, ship) then return 0 end
      local used = 0
      for _, c in ipairs(cargo_aboard(ctx, ship)) do used = used + ctx:query("cargo_size", c) end
      return ctx:query("cargo_capacity", ship) - used
    end,
    -- nil when `ships` may carry `cargo` together, else why not
    can_carry = function(ctx, ships, cargo)
      local g = ctx.game
      if #ships == 0 then return "27.B.4: cargo needs a ship to carry it" end
      local free, cat = 0, nil
      for _, s in ipairs(ships) do
        if not ctx:known("afloat", s) then return ("27.B.4: %s is not a ship afloat"):format(ctx:label("unit", s)) end
        if g:get(s, "side") ~= g:get(cargo, "side") then return "27.B.4: ships carry only friendly cargo" end
        local why = ctx:known("may_carry", s, cargo)
        if why then return why end
        if #ships > 1 then
          if not ctx:known("combines", s) then
            return ("27.A.1: only AF and NT combine to carry larger cargo; %s is a %s"):format(
              ctx:label("unit", s), tostring(ctx:known("category", s)))
          end
          cat = cat or ctx:known("category", s)
          if ctx:known("category", s) ~= cat then return "27.A.1: ships combine with their own category only" end
        end
        free = free + ctx:known("free_capacity", s)
      end
      local size = ctx:known("cargo_size", cargo)
      if size > free then
        return ("27.B.4: %s is %s RE%s; %s can carry %s RE more"):format(ctx:label("unit", cargo), tostring(size),
          ctx.rule.values.doubled[ctx:query("cargo_class", cargo)] and " (doubled for its class)" or "",
          #ships == 1 and ctx:label("unit", ships[1]) or ("the " .. #ships .. " ships together"), tostring(free))
      end
      return nil
    end,
    -- nil when a set of ships does not split a lift, else why
    lifts_kept_whole = function(ctx, ships)
      local chosen = {}
      for _, s in ipairs(ships) do chosen[s] = true end
      for _, s in ipairs(ships) do
        local lift = lift_of(ctx, s)
        if lift then
          for _, m in ipairs(members(ctx, lift)) do
            if not chosen[m] then
              return ("27.B.4: %s and %s combine to carry %s: they move together"):format(ctx:label("unit", s),
                ctx:label("unit", m), ctx:label("unit", ctx.game:group_get_value(lift, "cargo")))
            end
          end
        end
      end
      return nil
    end,
  },
  on = {
    -- before a ship sinks: what it carries alone is lost with it; what it
    -- carries with others moves to a surviving ship of its lift, and what
    -- the survivors cannot carry is lost (or cut to its cadre)
    ship_sinking = function(ctx, ev)
      local g, ship = ctx.game, ev.unit
      local lift = lift_of(ctx, ship)
      if lift then g:group_remove(lift, ship) end
      for _, c in ipairs(cargo_aboard(ctx, ship)) do
        local others = lift and g:group_get_value(lift, "cargo") == c and members(ctx, lift) or {}
        if #others > 0 then
          g:embark(c, others[1])
          ctx:say("%s is now aboard %s", ctx:label("unit", c), ctx:label("unit", others[1]))
        else
          g:eliminate(c)
          ctx:say("%s goes down with %s", ctx:label("unit", c), ctx:label("unit", ship))
        end
      end
      if lift then settle_lift(ctx, lift) end
    end,
    -- a damaged ship's capacity may fall (an SF is no longer undamaged)
    ship_damaged = function(ctx, ev) settle_ship(ctx, ev.unit) end,
  },
}

rule {
  id = "27.B.5", title = "Water Route/Adjacent",
  values = {
    water = { ["all-sea"] = true, coastal = true },   -- terrains a ship may be in
  },
  queries = {
    -- the route from (from, coast) to `to`: through `via` (hexes in order)
    -- when given, each step a water route; else the route of fewest sea
    -- boxes. Returns hexes (from first), the coast it arrives on | nil, reason
    route = function(ctx, from, coast, to, via)
      local net = ctx:boxroute(ctx.rule.values.water)
      if via then
        local hexes = { from }
        for i, h in ipairs(via) do
          local id = math.type(h) == "integer" and h or ctx.game.board:hex(h)
          if not id then return nil, ("27.B.5: via[%d] '%s' is not a hex of the map"):format(i, tostring(h)) end
          hexes[#hexes + 1] = id
        end
        if hexes[#hexes] ~= to then hexes[#hexes + 1] = to end
        local boxes, arrive = net:trace(hexes, { coast = coast })
        if not boxes then return nil, "27.B.5: " .. arrive end
        return hexes, arrive
      end
      local path, boxes_or_why, arrive = net:path(from, to, { coast = coast })
      if not path then return nil, "27.B.5: " .. tostring(boxes_or_why) end
      return path, arrive
    end,
    -- a hex is adjacent to another for naval purposes when a water route
    -- leads directly between them (from the given coast of `a`)
    -- every hex within `boxes` sea boxes of (from, coast) along water
    -- routes, in hex order: {hex, boxes} each (what sail offers, keel.legal)
    reach = function(ctx, from, coast, boxes)
      local r, why = ctx:boxroute(ctx.rule.values.water):reach(from, boxes, { coast = coast })
      if not r then return nil, "27.B.5: " .. tostring(why) end
      local out = {}
      for _, h in ipairs(r:hexes()) do out[#out + 1] = { hex = h, boxes = r:boxes(h) } end
      return out
    end,
    naval_adjacent = function(ctx, a, b, coast)
      return (ctx:boxroute(ctx.rule.values.water):adjacent(a, b, coast))
    end,
    naval_neighbors = function(ctx, hex, coast)
      return ctx:boxroute(ctx.rule.values.water):neighbors(hex, coast)
    end,
  },
}

rule {
  id = "27.B.6", title = "Naval Combat Zones",
  values = {
    -- ship types with a zone: 1 = its hex and the naval-adjacent hexes, 0 = its hex
    ships = { BB = 1, BC = 1, CA = 0, CL = 0, DD = 0 },
    cd_wide = 2,                               -- CDs of this strength or more reach the adjacent hexes
    reducing_seas = { rough = true, stormy = true },   -- sea conditions (Rule 36C) that reduce zones
  },
  queries = {
    -- zones are reduced by 1 at night (Rule 34A2) or in rough or stormy
    -- seas (Rule 36C): reduced, why
    zones_reduced = function(ctx)
      local g = ctx.game
      if g:get_global("night") then return true, "night" end
      local sea = g:get_global("sea")
      if sea and ctx.rule.values.reducing_seas[sea] then return true, sea .. " seas" end
      return false
    end,
    -- a source's zone: 1 (its hex and naval-adjacent hexes), 0 (its hex),
    -- nil (none); reduced by 1 but never below its own hex. Source: a ship,
    -- or {cd = hex} for a coast defence
    combat_zone_radius = function(ctx, source, unreduced)
      local r
      if type(source) == "table" then
        local level = ctx.game.board:get_cd(source.cd) or 0
        if level <= 0 then return nil end
        r = level >= ctx.rule.values.cd_wide and 1 or 0
      else
        r = ctx.rule.values.ships[ctx.game:get(source, "type")]
        if r == nil or not ctx:query("afloat", source) then return nil end
      end
      if not unreduced and ctx:query("zones_reduced") then r = math.max(0, r - 1) end
      return r
    end,
    -- the enemy (of `side`) combat zones covering hex: {ships = {...}, cds =
    -- {hex...}}, and those that would cover it if the zones were not reduced
    enemy_zones = function(ctx, hex, side)
      local g, board = ctx.game, ctx.game.board
      local active, waived = { ships = {}, cds = {} }, { ships = {}, cds = {} }
      local function consider(list_key, source, at, item)
        local r = ctx:query("combat_zone_radius", source)
        local full = ctx:query("combat_zone_radius", source, true)
        if full == nil then return end
        local covers_full = at == hex or full >= 1
        local covers = r ~= nil and (at == hex or r >= 1)
        if covers then active[list_key][#active[list_key] + 1] = item
        elseif covers_full then waived[list_key][#waived[list_key] + 1] = item end
      end
      local around = { hex }
      for _, n in ipairs(ctx:query("naval_neighbors", hex)) do around[#around + 1] = n end
      for _, at in ipairs(around) do
        local level = board:get_cd(at) or 0
        local owner = g:get_owner(at)
        if level > 0 and owner ~= nil and owner ~= side and (at == hex or ctx:query("naval_adjacent", at, hex)) then
          consider("cds", { cd = at }, at, at)
        end
        for _, u in ipairs(units_at(ctx, at)) do
          if g:get(u, "side") ~= side and ctx:query("afloat", u) then
            local tf = ctx:query("tf_of", u)
            local coast = tf and g:group_get_value(tf, "coast") or 0
            if at == hex or ctx:query("naval_adjacent", at, hex, coast) then consider("ships", u, at, u) end
          end
        end
      end
      return active, waived
    end,
  },
}

-- ---- helpers ------------------------------------------------------------------------

-- the ships of a group that are afloat, in group order (a new list)
function members(ctx, grp)
  local out = {}
  for _, u in ipairs(ctx.game:group_units(grp)) do
    if ctx:known("afloat", u) then out[#out + 1] = u end
  end
  return out
end

function unused_name(ctx, base)
  local used = {}
  for _, grp in ipairs(ctx.game:groups()) do used[ctx.game:group_get_name(grp)] = true end
  local n = 1
  while used[base .. " " .. n] do n = n + 1 end
  return base .. " " .. n
end

function is_lift(ctx, grp) return ctx.game:group_get_value(grp, "kind") == "lift" end

function lift_of(ctx, ship)
  local c = ctx:cache("seabox.lift_of")
  local hit = c[ship]
  if hit ~= nil then return hit or nil end
  for _, grp in ipairs(ctx.game:groups_of(ship)) do
    if is_lift(ctx, grp) and #ctx.game:group_units(grp) > 0 then
      c[ship] = grp
      return grp
    end
  end
  c[ship] = false
  return nil
end

function cargo_aboard(ctx, ship)
  local out = {}
  for _, u in ipairs(ctx.game:cargo(ship)) do
    if not ctx:query("is_air_group", u) then out[#out + 1] = u end
  end
  return out
end

function same_place(ctx, a, b)
  local ka, wa = ctx.game:get(a, "loc")
  local kb, wb = ctx.game:get(b, "loc")
  return ka == kb and wa == wb
end

-- the units at sea or in port at a hex, in id order (the kernel's index)
function units_at(ctx, hex)
  return ctx.game:units { at = hex }
end

-- the ships left in a lift must carry its cargo: what does not fit is cut
-- to its cadre (scenario data: values["cadre.name"], values["cadre.RE"])
-- or eliminated; ships no longer needed leave the lift
function settle_lift(ctx, lift)
  local g = ctx.game
  local cargo = g:group_get_value(lift, "cargo")
  local ships = members(ctx, lift)
  local kind = cargo and g:get(cargo, "loc")
  if kind ~= "unit" then
    for _, s in ipairs(ships) do g:group_remove(lift, s) end
    return
  end
  local cap = 0
  for _, s in ipairs(ships) do cap = cap + ctx:query("cargo_capacity", s) end
  local size = ctx:query("cargo_size", cargo)
  if size > cap then
    local cname, cre = g:get_value(cargo, "cadre.name"), g:get_value(cargo, "cadre.RE")
    local csize = cre and (ctx.rule.values.doubled[ctx:query("cargo_class", cargo)] and cre * 2 or cre)
    if cname and csize and csize <= cap then
      ctx:say("%s (%s RE) is more than the %s RE the surviving ships carry: reduced to its cadre %s (%s RE)",
        ctx:label("unit", cargo), tostring(size), tostring(cap), cname, tostring(cre))
      g:set(cargo, "name", cname)
      g:set_value(cargo, "size.RE", cre)
      g:set_value(cargo, "cadre.name", nil)
      g:set_value(cargo, "cadre.RE", nil)
      g:set_value(cargo, "cadre", true)
      size = csize
    else
      ctx:say("%s (%s RE) is more than the %s RE the surviving ships carry: eliminated", ctx:label("unit", cargo),
        tostring(size), tostring(cap))
      g:eliminate(cargo)
      for _, s in ipairs(ships) do g:group_remove(lift, s) end
      return
    end
  end
  -- keep the ships needed, in lift order; the cargo rides on the first
  local need, kept = size, {}
  for _, s in ipairs(ships) do
    if need > 0 then
      kept[#kept + 1] = s
      need = need - ctx:query("cargo_capacity", s)
    else
      g:group_remove(lift, s)
    end
  end
  if select(2, g:get(cargo, "loc")) ~= kept[1] then g:embark(cargo, kept[1]) end
  if #kept == 1 then g:group_remove(lift, kept[1]) end
end

-- cargo beyond a ship's remaining capacity is eliminated (the last first)
function settle_ship(ctx, ship)
  local g = ctx.game
  if lift_of(ctx, ship) then return end
  local aboard = cargo_aboard(ctx, ship)
  local cap = ctx:query("cargo_capacity", ship)
  local used = 0
  for _, c in ipairs(aboard) do used = used + ctx:query("cargo_size", c) end
  for i = #aboard, 1, -1 do
    if used <= cap then break end
    local c = aboard[i]
    used = used - ctx:query("cargo_size", c)
    ctx:say("%s's cargo capacity is now %s RE: %s is eliminated", ctx:label("unit", ship), tostring(cap), ctx:label("unit", c))
    g:eliminate(c)
  end
end

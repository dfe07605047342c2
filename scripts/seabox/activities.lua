-- scripts/seabox/activities.lua — 27.C Naval Activities (001_dc9ef6cc32bfaa07.txt):
-- the phases of a player turn (27.C), naval reinforcements in the initial
-- phase (27.C.1), the movement phase's six naval steps, ship speeds in sea
-- boxes, embarking, disembarking, replenishing and the ground units' MPs
-- (27.C.2), naval gunfire support in the combat phase (27.C.3) and the
-- exploitation phase's four naval steps (27.C.4).
--
-- The phases and naval steps are the family's sequence of play
-- (manifest.lua, run by keel.sequence): the runtime keeps the globals turn,
-- phasing, phase (initial, movement, combat, exploitation) and step (the
-- naval step's name, movement_step_1 ... exploitation_step_4) and emits
-- the phase and step events; the rules here read them. Game data: global
-- combat_serial (one more each combat phase), night and sea (set by the
-- stand-ins of Rules 34A2 and 36C). Ships keep step_boxes (sea boxes sailed
-- this naval step) and step_moved (sailed in it at all); ships and ground
-- units keep step_busy (the activity that took the whole step); ground
-- units keep mp (their allowance, when limited) and mp_spent.

local naval_phase_problem, sail_problem, sail_facts, boxes_left_of,
  end_step, mp_cost, mp_left,
  charge_mp, ground_cargo, acting_side, other_side -- helpers, defined after the rules

-- the phases whose naval steps ships move in (27.C.2, 27.C.4)
local NAVAL = { "movement", "exploitation" }

rule {
  id = "27.C", title = "Naval Activities",
  on = {
    -- each naval step of the movement and exploitation phases, as the
    -- sequence of play begins it (its data: step, naval_steps)
    naval_step_start = function(ctx, ev)
      if ev.step and ev.naval_steps then
        ctx:say("naval step %d of %d (%s phase)", ev.step, ev.naval_steps, tostring(ctx.game:get_global("phase")))
      end
    end,
  },
  queries = {
    -- nil while ships may move (a naval step of the movement or
    -- exploitation phase), else why not
    naval_step_problem = function(ctx) return naval_phase_problem(ctx) end,
    -- the phase of the player turn the game is in, as a key ("turn/phasing/
    -- phase"): what "this phase" means to 27.B.3 and Rule 28B
    phase_key = function(ctx)
      local g = ctx.game
      return ("%s/%s/%s"):format(tostring(g:get_global("turn")), tostring(g:get_global("phasing")),
        tostring(g:get_global("phase")))
    end,
    -- the side whose order it is now (keel.sequence: the side to decide);
    -- nil in a game whose sequence of play has not started
    acting_side = function(ctx) return acting_side(ctx) end,
    -- the non-phasing side of the game, or nil
    other_side = function(ctx) return other_side(ctx) end,
  },
}

rule {
  id = "27.C.1", title = "Initial Phase",
  on = {
    -- the phasing player's naval reinforcements (Rule 35 says what they are)
    initial_phase = function(ctx)
      ctx:emit("naval_reinforcements", { side = ctx.game:get_global("phasing") })
    end,
  },
}

rule {
  id = "27.C.2", title = "Movement Phase",
  values = {
    -- (its 6 naval steps of 36 hours are the family's sequence of play: manifest.lua)
    -- sea boxes a ship type moves in one naval step (counter data)
    speeds = { BC = 12, CV = 12, CA = 12, CL = 12, DD = 12, BB = 9, CVE = 9, LS = 6, NT = 6, LC = 3 },
    -- MPs a non-c/m ground unit spends on embarking, disembarking and each
    -- naval step (or part of one) on board; c/m units pay cm_factor times
    mp = { embark = 1, disembark = 1, step = 1 },
    cm_factor = 2,
  },
  on = {
    -- the phasing side's ground units start the movement phase with no MPs
    -- spent (their allowances, and those of the exploitation phase, are the
    -- ground rules')
    movement_phase = function(ctx)
      local g = ctx.game
      local phasing = g:get_global("phasing")
      for _, u in ipairs(phasing ~= nil and g:units { side = phasing } or {}) do
        if (g:get_value(u, "mp_spent") or 0) ~= 0 and not ctx:query("is_ship", u) then
          g:set_value(u, "mp_spent", 0)
        end
      end
    end,
    naval_step_end = function(ctx) end_step(ctx) end,
  },
  queries = {
    -- sea boxes a ship moves in one naval step
    speed = function(ctx, ship)
      local v = ctx.game:get_value(ship, "speed") or ctx.rule.values.speeds[ctx.game:get(ship, "type")]
      if v == nil then error(("27.C.2: %s (%s) has no speed in sea boxes"):format(ctx:label("unit", ship),
        tostring(ctx.game:get(ship, "type"))), 0) end
      return v
    end,
    -- a TF moves at the speed of its slowest ship: boxes left this naval
    -- step, and that ship
    boxes_left = function(ctx, tf)
      local left, slowest
      for _, u in ipairs(ctx:query("tf_ships", tf)) do
        local l = ctx:query("speed", u) - (ctx.game:get_value(u, "step_boxes") or 0)
        if not left or l < left then left, slowest = l, u end
      end
      return math.max(0, left or 0), slowest
    end,
    mp_cost = function(ctx, unit, activity) return mp_cost(ctx, unit, activity) end,
    mp_left = function(ctx, unit) return mp_left(ctx, unit) end,
  },
  actions = {
    -- a TF sails to `to` (in port with port = true): through the hexes of
    -- `via` when given, else by the water route of fewest sea boxes; naval
    -- combat is resolved as it occurs, so the TF stops where it enters an
    -- enemy naval combat zone
    sail = {
      -- the phasing player's TFs in its naval steps; the non-phasing
      -- player's in the reaction window Rule 28B (stand-in) opens
      side = "any", phases = NAVAL,
      -- domains (keel.legal): the side's TFs; every hex within the sea
      -- boxes the TF has left this naval step, with their cost in boxes (its
      -- own hex only when it has a port to enter or leave); in port (true)
      -- where the hex has a port, or at sea (left out). `via` is the player's.
      params = {
        tf = { type = "group", domain = function(ctx, _, side) return ctx:query("side_tfs", side) end },
        to = { type = "hex", depends = { "tf" }, domain = function(ctx, p)
          local f = sail_facts(ctx, p.tf)
          if f.problem then return nil, f.problem end
          local pos = f.pos
          local reach, rwhy = ctx:query("reach", pos.hex, pos.coast, (boxes_left_of(ctx, f, p.tf)))
          if not reach then return nil, rwhy end
          -- what the check of each candidate finds again: the sea boxes of
          -- the route of fewest boxes to each hex reached (keel.legal)
          local boxes = {}
          f.boxes = boxes
          local board, out = ctx.game.board, {}
          for _, r in ipairs(reach) do
            boxes[r.hex] = r.boxes
            if r.hex ~= pos.hex or board:get_port(r.hex) then
              out[#out + 1] = { value = r.hex, label = ctx:label("hex", r.hex), cost = r.boxes }
            end
          end
          return out, "27.C.2: no sea box left to sail this naval step"
        end },
        via = "table?",
        port = { type = "boolean", optional = true, depends = { "to" }, domain = function(ctx, p)
          if ctx.game.board:get_port(p.to) then return { true } end
          return nil, "27.C.2: no port there"
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        local f = sail_facts(ctx, p.tf)
        if f.problem then return f.problem end
        if p.port and not g.board:get_port(p.to) then
          return ("27.C.2: %s has no port"):format(ctx:label("hex", p.to))
        end
        local pos = f.pos
        -- by the route of fewest boxes to a hex the destinations reached
        -- (sail's `to`), its boxes are known: within what is left
        local boxes = p.via == nil and f.boxes and f.boxes[p.to]
        local single = p.to == pos.hex
        if not boxes then
          local hexes, rwhy = ctx:query("route", pos.hex, pos.coast, p.to, p.via)
          if not hexes then return rwhy end
          single = #hexes == 1
          boxes = ctx:query("boxes_along", hexes)
        end
        if single and pos.in_port == (p.port == true) then
          return ("27.C.2: %s is already %s %s"):format(ctx:label("group", p.tf), pos.in_port and "in port at" or "at",
            ctx:label("hex", p.to))
        end
        local left, slowest = boxes_left_of(ctx, f, p.tf)
        if boxes > left then
          return ("27.C.2: %s moves at most %d sea box(es) more this naval step (slowest ship %s: %s, %d a step, %d used);"
            .. " the route to %s crosses %d"):format(ctx:label("group", p.tf), left, ctx:label("unit", slowest),
            g:get(slowest, "type"), ctx:query("speed", slowest), g:get_value(slowest, "step_boxes") or 0,
            ctx:label("hex", p.to), boxes)
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local side = ctx:query("tf_side", p.tf)
        local pos = ctx:query("position", p.tf)
        local hexes = ctx:query("route", pos.hex, pos.coast, p.to, p.via)
        -- naval combat is resolved as it occurs: stop on entering an enemy zone
        local stop, combat = #hexes, nil
        for i = 2, #hexes do
          local active, waived = ctx:query("enemy_zones", hexes[i], side)
          for _, cd in ipairs(waived.cds) do
            ctx:say("passes %s outside the coast defence zone of %s (CD %d), reduced by %s", ctx:label("hex", hexes[i]),
              ctx:label("hex", cd), g.board:get_cd(cd), select(2, ctx:query("zones_reduced")))
          end
          for _, u in ipairs(waived.ships) do
            ctx:say("passes %s outside the combat zone of %s, reduced by %s", ctx:label("hex", hexes[i]), ctx:label("unit", u),
              select(2, ctx:query("zones_reduced")))
          end
          if #active.ships > 0 or #active.cds > 0 then
            stop, combat = i, active
            break
          end
        end
        local path = {}
        for i = 1, stop do path[i] = hexes[i] end
        local via = {}
        for i = 2, stop do via[#via + 1] = hexes[i] end
        local _, coast = ctx:query("route", pos.hex, pos.coast, path[stop], via)
        local boxes = ctx:query("boxes_along", path)
        local to, in_port = path[stop], p.port == true and stop == #hexes
        for _, u in ipairs(ctx:query("tf_ships", p.tf)) do
          g:move(u, in_port and "port" or "hex", to)
          if boxes > 0 then g:set_value(u, "step_boxes", (g:get_value(u, "step_boxes") or 0) + boxes) end
          g:set_value(u, "step_moved", true)
        end
        g:group_set_value(p.tf, "coast", coast)
        ctx:say("%s sails %s -> %s%s: %d hex(es), %d sea box(es); %d box(es) left this naval step", ctx:label("group", p.tf),
          ctx:label("hex", pos.hex), ctx:label("hex", to), in_port and " (in port)" or "", #path - 1, boxes,
          (ctx:query("boxes_left", p.tf)))
        ctx:emit("tf_moved", { tf = p.tf, from = pos.hex, to = to, boxes = boxes, path = path })
        if combat then
          local names = {}
          for _, u in ipairs(combat.ships) do names[#names + 1] = ctx:label("unit", u) end
          for _, cd in ipairs(combat.cds) do names[#names + 1] = ("CD %d at %s"):format(g.board:get_cd(cd), ctx:label("hex", cd)) end
          ctx:say("%s enters an enemy naval combat zone at %s (%s): naval combat, resolved now", ctx:label("group", p.tf),
            ctx:label("hex", to), table.concat(names, ", "))
          ctx:emit("naval_combat", { tf = p.tf, hex = to, ships = combat.ships, cds = combat.cds })
        end
      end,
    },
    -- ships in port take cargo aboard: the whole naval step for the ships,
    -- MPs for a ground unit
    embark = {
      phases = NAVAL,
      -- domains (keel.legal): the side's cargo on the map in a port hex; the
      -- side's ships in port there
      params = {
        cargo = { type = "unit", domain = function(ctx, _, side)
          local g, out = ctx.game, {}
          for _, u in ipairs(g:units { loc = "hex", side = side }) do
            local _, hex = g:get(u, "loc")
            if not ctx:known("is_ship", u) and g.board:get_port(hex) then
              out[#out + 1] = u
            end
          end
          return out, "27.C.2: no cargo of the side stands in a port hex"
        end },
        ships = { type = "units", depends = { "cargo" }, domain = function(ctx, p)
          local g, out = ctx.game, {}
          local _, hex = g:get(p.cargo, "loc")
          local side = g:get(p.cargo, "side")
          for _, u in ipairs(side ~= nil and g:units { loc = "port", at = hex, side = side } or {}) do
            if ctx:known("is_ship", u) then
              out[#out + 1] = u
            end
          end
          return out, "27.C.2: no friendly ship in port there"
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        local why = naval_phase_problem(ctx)
        if why then return why end
        if g:get(p.cargo, "side") ~= g:get_global("phasing") then return "27.C.2: the phasing player embarks cargo" end
        if ctx:known("is_ship", p.cargo) then return ("27.B.4: %s is a ship, not cargo"):format(ctx:label("unit", p.cargo)) end
        local ckind, chex = g:get(p.cargo, "loc")
        if ckind ~= "hex" then return ("27.C.2: %s is not on the map to embark"):format(ctx:label("unit", p.cargo)) end
        local tf
        for _, s in ipairs(p.ships) do
          local kind, where = g:get(s, "loc")
          if kind ~= "port" or where ~= chex then
            return ("27.C.2: cargo embarks in port: %s is not in port at %s"):format(ctx:label("unit", s), ctx:label("hex", chex))
          end
          if g:get_value(s, "step_moved") then
            return ("27.C.2: embarking takes a whole naval step; %s has already sailed in this one"):format(ctx:label("unit", s))
          end
          if g:get_value(s, "step_busy") then
            return ("27.C.2: %s has used this naval step to %s"):format(ctx:label("unit", s), g:get_value(s, "step_busy"))
          end
        end
        why = ctx:query("can_carry", p.ships, p.cargo)
        if why then return why end
        for _, s in ipairs(p.ships) do
          local t = ctx:known("tf_of", s)
          tf = tf or t
          if t ~= tf then return "27.B.4: ships that combine to carry cargo move together: put them in one TF" end
        end
        local cost = mp_cost(ctx, p.cargo, "embark")
        if mp_left(ctx, p.cargo) < cost then
          return ("27.C.2: embarking costs %s %d MP; it has %s left"):format(ctx:label("unit", p.cargo), cost,
            tostring(mp_left(ctx, p.cargo)))
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        g:embark(p.cargo, p.ships[1])
        if #p.ships > 1 then
          g:group_new { name = "lift: " .. ctx:label("unit", p.cargo), kind = "lift", cargo = p.cargo, units = p.ships }
        end
        for _, s in ipairs(p.ships) do g:set_value(s, "step_busy", "embark cargo") end
        g:set_value(p.cargo, "step_busy", "embark")
        charge_mp(ctx, p.cargo, "embark")
        local names = {}
        for i, s in ipairs(p.ships) do names[i] = ctx:label("unit", s) end
        ctx:say("%s (%s RE) embarks on %s", ctx:label("unit", p.cargo), tostring(ctx:query("cargo_size", p.cargo)),
          table.concat(names, " + "))
      end,
    },
    -- cargo goes ashore in the port its ships are in: the whole naval step
    disembark = {
      phases = NAVAL,
      -- domain (keel.legal): the side's units aboard ships
      params = {
        cargo = { type = "unit", domain = function(ctx, _, side)
          local g, out = ctx.game, {}
          for _, u in ipairs(g:units { loc = "unit", side = side }) do
            if #ctx:query("carriers_of", u) > 0 then out[#out + 1] = u end
          end
          return out, "27.C.2: no unit of the side is aboard a ship"
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        local why = naval_phase_problem(ctx)
        if why then return why end
        if g:get(p.cargo, "side") ~= g:get_global("phasing") then return "27.C.2: the phasing player disembarks cargo" end
        local carriers = ctx:query("carriers_of", p.cargo)
        if #carriers == 0 then return ("27.C.2: %s is not aboard a ship"):format(ctx:label("unit", p.cargo)) end
        for _, s in ipairs(carriers) do
          if g:get(s, "loc") ~= "port" then
            return ("27.C.2: cargo disembarks in port (landings are the amphibious rules'); %s is at sea"):format(ctx:label("unit", s))
          end
          if g:get_value(s, "step_moved") then
            return ("27.C.2: disembarking takes a whole naval step; %s has already sailed in this one"):format(ctx:label("unit", s))
          end
          if g:get_value(s, "step_busy") then
            return ("27.C.2: %s has used this naval step to %s"):format(ctx:label("unit", s), g:get_value(s, "step_busy"))
          end
        end
        local cost = mp_cost(ctx, p.cargo, "disembark")
        if mp_left(ctx, p.cargo) < cost then
          return ("27.C.2: disembarking costs %s %d MP; it has %s left"):format(ctx:label("unit", p.cargo), cost,
            tostring(mp_left(ctx, p.cargo)))
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local carriers = ctx:query("carriers_of", p.cargo)
        local lift = ctx:query("lift_of", carriers[1])
        if lift then
          for _, s in ipairs(carriers) do g:group_remove(lift, s) end
        end
        local _, hex = g:get(carriers[1], "loc")
        g:move(p.cargo, "hex", hex)
        for _, s in ipairs(carriers) do g:set_value(s, "step_busy", "disembark cargo") end
        g:set_value(p.cargo, "step_busy", "disembark")
        charge_mp(ctx, p.cargo, "disembark")
        ctx:say("%s disembarks at %s", ctx:label("unit", p.cargo), ctx:label("hex", hex))
      end,
    },
    -- replenishing takes the whole naval step (what it restores is another chapter's)
    replenish = {
      phases = NAVAL,
      params = { tf = { type = "group", domain = function(ctx, _, side) return ctx:query("side_tfs", side) end } },
      legal = function(ctx, p)
        local why = naval_phase_problem(ctx)
        if why then return why end
        if ctx:query("tf_side", p.tf) ~= ctx.game:get_global("phasing") then return "27.C.2: the phasing player replenishes" end
        for _, s in ipairs(ctx:query("tf_ships", p.tf)) do
          if ctx.game:get_value(s, "step_moved") or ctx.game:get_value(s, "step_busy") then
            return ("27.C.2: replenishing takes a whole naval step; %s has already used this one"):format(ctx:label("unit", s))
          end
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        for _, s in ipairs(ctx:query("tf_ships", p.tf)) do g:set_value(s, "step_busy", "replenish") end
        g:group_set_value(p.tf, "replenished", ctx:query("phase_key"))
        ctx:say("%s replenishes for this naval step (%s)", ctx:label("group", p.tf), tostring(g:get_global("step")))
      end,
    },
  },
}

rule {
  id = "27.C.3", title = "Combat Phase",
  on = {
    combat_phase = function(ctx)
      ctx.game:set_global("combat_serial", (ctx.game:get_global("combat_serial") or 0) + 1)
      -- both players allocate: the non-phasing one decides in a window of
      -- its own, when it has a TF with a gunfire support strength
      local other = other_side(ctx)
      if other and ctx:status().started then
        for _, c in ipairs(ctx:query("side_tfs", other)) do
          local strength = 0
          for _, u in ipairs(ctx:query("tf_ships", c.value)) do strength = strength + ctx:query("gunfire_strength", u) end
          if strength > 0 then
            ctx:open_window { side = other, title = "naval gunfire support", actions = { "gunfire_support" } }
            break
          end
        end
      end
    end,
  },
  queries = {
    -- naval gunfire support for ground combat at hex by side, this combat
    -- phase: strength, the TFs giving it
    gunfire_at = function(ctx, hex, side)
      local g = ctx.game
      local total, tfs = 0, {}
      for _, grp in ipairs(g:groups()) do
        if g:group_get_value(grp, "ngs_combat") == g:get_global("combat_serial") and g:group_get_value(grp, "ngs_target") == hex
          and ctx:query("tf_side", grp) == side then
          total = total + g:group_get_value(grp, "ngs_strength")
          tfs[#tfs + 1] = grp
        end
      end
      return total, tfs
    end,
  },
  actions = {
    -- either player allocates a TF's gunfire support (its SFs' strength)
    -- to ground combat in its own hex or an adjacent one
    gunfire_support = {
      -- both players: the phasing one in its combat phase, the other in
      -- the window 27.C.3 opens for it at the start of that phase
      side = "any", phases = { "combat" },
      -- domains (keel.legal): the side's TFs; the TF's hex and those next to it
      params = {
        tf = { type = "group", domain = function(ctx, _, side) return ctx:query("side_tfs", side) end },
        hex = { type = "hex", depends = { "tf" }, domain = function(ctx, p)
          local pos = ctx:query("position", p.tf)
          if not pos or not pos.hex then return nil, "27.C.3: the TF is not on the map" end
          local hexes = { pos.hex }
          for _, h in ipairs(keel.hex.neighbors(pos.hex)) do
            if ctx.game.board:contains(h) then hexes[#hexes + 1] = h end
          end
          table.sort(hexes)
          return hexes
        end },
      },
      legal = function(ctx, p)
        local g = ctx.game
        if g:get_global("phase") ~= "combat" then
          return ("27.C.3: naval gunfire support is allocated in the combat phase, not the %s phase"):format(
            tostring(g:get_global("phase")))
        end
        if not ctx:query("is_tf", p.tf) then return ("27.B.3: %s is not a TF"):format(ctx:label("group", p.tf)) end
        local acting = acting_side(ctx)
        if acting and ctx:query("tf_side", p.tf) ~= acting then
          return ("27.C.3: %s is not a TF of %s"):format(ctx:label("group", p.tf), acting)
        end
        local strength = 0
        for _, u in ipairs(ctx:query("tf_ships", p.tf)) do strength = strength + ctx:query("gunfire_strength", u) end
        if strength <= 0 then
          return ("27.A.1: only SF have a naval gunfire support strength; %s has none"):format(ctx:label("group", p.tf))
        end
        if g:group_get_value(p.tf, "ngs_combat") == g:get_global("combat_serial") then
          return ("27.C.3: %s already supports ground combat at %s this combat phase"):format(ctx:label("group", p.tf),
            ctx:label("hex", g:group_get_value(p.tf, "ngs_target")))
        end
        local pos = ctx:query("position", p.tf)
        if p.hex ~= pos.hex and keel.hex.distance(p.hex, pos.hex) ~= 1 then
          return ("27.C.3: %s at %s supports ground combat in its own hex or an adjacent one, not at %s"):format(
            ctx:label("group", p.tf), ctx:label("hex", pos.hex), ctx:label("hex", p.hex))
        end
      end,
      effect = function(ctx, p)
        local g = ctx.game
        local strength = 0
        for _, u in ipairs(ctx:query("tf_ships", p.tf)) do strength = strength + ctx:query("gunfire_strength", u) end
        local pos = ctx:query("position", p.tf)
        g:group_set_value(p.tf, "ngs_hex", pos.hex)
        g:group_set_value(p.tf, "ngs_target", p.hex)
        g:group_set_value(p.tf, "ngs_strength", strength)
        g:group_set_value(p.tf, "ngs_combat", g:get_global("combat_serial"))
        local side = ctx:query("tf_side", p.tf)
        ctx:say("%s gives naval gunfire support %d to ground combat at %s (from %s)", ctx:label("group", p.tf), strength,
          ctx:label("hex", p.hex), ctx:label("hex", pos.hex))
        ctx:emit("gunfire_support", { tf = p.tf, hex = p.hex, strength = strength, side = side })
        if ctx:query("tf_known", p.tf) then
          ctx:say("%s is known to the enemy while it stays at %s (27.B.3)", ctx:label("group", p.tf), ctx:label("hex", pos.hex))
        end
      end,
    },
  },
}

rule {
  id = "27.C.4", title = "Exploitation Phase",
  notes = "The exploitation phase's 4 naval steps of 36 hours are the family's sequence of play (manifest.lua); "
    .. "ships move in them as in the movement phase's (27.C.2).",
}

-- ---- helpers ------------------------------------------------------------------------

-- what sailing checks of a TF, worked out once per state (ctx:cache: one
-- listing of the legal actions asks it for every destination): problem
-- (sail_problem), pos (its position), left and slowest (boxes_left, once
-- asked: boxes_left_of); the
-- `to` domain adds boxes (hex -> sea boxes of the best route within left)
function sail_facts(ctx, tf)
  local cache = ctx:cache("seabox.sail")
  local f = cache[tf]
  if f then return f end
  f = { problem = sail_problem(ctx, tf) }
  if not f.problem then f.pos = ctx:query("position", tf) end
  cache[tf] = f
  return f
end

-- the boxes a TF has left and its slowest ship (boxes_left), kept in its facts
function boxes_left_of(ctx, f, tf)
  if f.left == nil then f.left, f.slowest = ctx:query("boxes_left", tf) end
  return f.left, f.slowest
end

-- why a TF cannot sail at all this naval step (wherever it goes), or nil
function sail_problem(ctx, tf)
  local g = ctx.game
  local why = naval_phase_problem(ctx)
  if why then return why end
  if not ctx:query("is_tf", tf) then return ("27.B.3: %s is not a TF"):format(ctx:label("group", tf)) end
  local ships = ctx:query("tf_ships", tf)
  if #ships == 0 then return ("27.C.2: %s has no ship afloat"):format(ctx:label("group", tf)) end
  local acting = acting_side(ctx)
  if acting and ctx:query("tf_side", tf) ~= acting then
    return ("27.C.2: %s is not a TF of %s"):format(ctx:label("group", tf), acting)
  end
  if ctx:query("tf_side", tf) ~= g:get_global("phasing") then
    local r = ctx:query("may_react", tf)
    if r then
      return ("27.C.2: the non-phasing player moves ships only in reaction movement (Rule 28B): %s"):format(r)
    end
  end
  for _, u in ipairs(ships) do
    local busy = g:get_value(u, "step_busy")
    if busy then
      return ("27.C.2: %s has used this naval step to %s: that takes the whole step"):format(ctx:label("unit", u), busy)
    end
  end
  for _, u in ipairs(ships) do
    for _, c in ipairs(ground_cargo(ctx, u)) do
      local cost = mp_cost(ctx, c, "step")
      if mp_left(ctx, c) < cost then
        return ("27.C.2: %s aboard %s has %s MP left; a naval step on board costs it %d"):format(
          ctx:label("unit", c), ctx:label("unit", u), tostring(mp_left(ctx, c)), cost)
      end
    end
  end
  return nil
end

function naval_phase_problem(ctx)
  local g = ctx.game
  local phase = g:get_global("phase")
  if (phase ~= "movement" and phase ~= "exploitation") or g:get_global("step") == nil then
    return ("27.C.2: ships move and embark in the naval steps of the movement and exploitation phases (now: %s phase)")
      :format(tostring(phase))
  end
  return nil
end

-- the end of a naval step: ground units on board pay for it (unless the
-- step was their embarking); boxes left over are lost; activities end
function end_step(ctx)
  local g = ctx.game
  for _, u in ipairs(g:units()) do
    if g:get(u, "loc") == "dead" then -- luacheck: ignore 542
    elseif ctx:query("is_ship", u) then
      for _, k in ipairs({ "step_boxes", "step_moved", "step_busy" }) do
        if g:get_value(u, k) ~= nil then g:set_value(u, k, nil) end
      end
    elseif not ctx:query("is_air_group", u) then
      local kind, carrier = g:get(u, "loc")
      if kind == "unit" and ctx:query("is_ship", carrier) and not g:get_value(u, "step_busy") then
        charge_mp(ctx, u, "step")
      end
      if g:get_value(u, "step_busy") ~= nil then g:set_value(u, "step_busy", nil) end
    end
  end
end

function mp_cost(ctx, unit, activity)
  local v = ctx.rule.values
  local base = v.mp[activity]
  if ctx:query("cargo_class", unit) == "c/m" then return base * v.cm_factor end
  return base
end

-- MPs left: values.mp (the allowance, when given) minus values.mp_spent
function mp_left(ctx, unit)
  local allowance = ctx.game:get_value(unit, "mp")
  if allowance == nil then return math.huge end
  return allowance - (ctx.game:get_value(unit, "mp_spent") or 0)
end

-- spend a ground unit's MPs on a naval activity (never past its allowance)
function charge_mp(ctx, unit, activity)
  local g = ctx.game
  local cost = mp_cost(ctx, unit, activity)
  local spent = (g:get_value(unit, "mp_spent") or 0) + cost
  local allowance = g:get_value(unit, "mp")
  if allowance and spent > allowance then spent = allowance end
  g:set_value(unit, "mp_spent", spent)
  ctx:say("%s spends %d MP (%s); %d spent", ctx:label("unit", unit), cost,
    activity == "step" and "a naval step on board" or activity, spent)
end

-- ground units aboard a ship (not the air groups based on it)
function ground_cargo(ctx, ship)
  return ctx:query("cargo_of", ship)
end

-- the side to decide now (keel.sequence), nil before the game has started
function acting_side(ctx)
  local st = ctx:status()
  if not st.started then return nil end
  return st.active[1]
end

-- the side of the game that is not phasing, nil without a sequence of play
function other_side(ctx)
  local st = ctx:status()
  local phasing = ctx.game:get_global("phasing")
  for _, s in ipairs(st.sides or {}) do
    if s ~= phasing then return s end
  end
  return nil
end

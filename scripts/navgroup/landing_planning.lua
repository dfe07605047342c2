-- 37.C PLANNING, DELAYING, AND CANCELLING (003_324962bba0bb45e8.txt): an
-- amphibious landing is planned in advance, like an airborne landing, and
-- may be delayed or cancelled the same way; the planning time comes from
-- the AIRBORNE/AMPHIBIOUS ASSAULT PLANNING TABLE, with three modifications:
-- (1) unlimited planning for intrinsically amphibious units; (2) for the
-- others an RE limit equal to the LC/LB cargo capacity in play (not sunk or
-- damaged) or designated as an increase for the invasion turn; (3) only the
-- assaulting units' REs count for the planning time.
--
-- The airborne planning rule and its table are another chapter: the table
-- is scenario data (`amphibious_planning`, a STAND-IN is shipped in
-- tables/amphibious_planning_standin.tbl and says so), and delaying or
-- cancelling "in the same manner" is the default below (a delay moves the
-- invasion turn later; a cancel frees the units), which a scenario replaces.
-- Paying for a capacity increase is another chapter too: `increase_capacity`
-- records it.
--
-- 37 (g) joins item (2): c/m units may land in the first wave without
-- attacking the defenders, and then count double their RE size instead of
-- four times. A plan says which (`no_attack`); they count x2 against the
-- capacity, and the landing holds them to it (37's land, 37.B's attack).
--
-- A plan is a record (keyed values: map "plan", key {id, field}; its last id
-- at key "count"); its units carry
-- the unit values `plan` (its id), `plan_assault` (an assaulting unit) and
-- `plan_no_attack` (a c/m unit that lands without attacking, 37 (g)).
--
-- The rule comes first; the helpers it uses follow it.

local field, active, planned_re, capacity_in_play, capacity_for, planning_time,
  units_of, plannable, beaches, plans_of, sides_of, plan_re, cm_of, planning_turns   -- helpers, below the rule

rule {
  id = "37.C", title = "Planning, delaying, and cancelling",
  values = {
    planning_table = "amphibious_planning",
    capacity_types = { LC = true, LB = true },
    capacity_value = "capacity",   -- unit value: cargo capacity in REs
    default_capacity = 1,          -- an LC/LB without the value carries 1 RE (the example: 6 LBs for 6 REs)
    delay_turns = 1,               -- the default delay (the airborne rule's, a scenario replaces it)
  },
  queries = {
    --- plan_field(id, field) -> a field of a plan (side, hex, status, turn, ready_turn, re, assault_re)
    plan_field = function(ctx, id, f) return field(ctx, id, f) end,
    --- planning_capacity(side, turn) -> REs: LC/LB capacity in play plus increases for `turn`
    planning_capacity = function(ctx, side, turn) return capacity_for(ctx, side, turn) end,
    --- planned_re(side) -> REs of non-intrinsically amphibious units in active plans
    planned_re = function(ctx, side) return planned_re(ctx, side) end,
  },
  actions = {
    -- Plan a landing at `hex` for `units`; `assault`: those of them that will
    -- make the amphibious assault (default: all, when the hex is enemy-owned);
    -- `turn`: the invasion turn (default: as soon as the planning time allows);
    -- `no_attack`: the c/m units of the plan that land in the first wave
    -- without attacking (37 (g): they count x2, not x4; default none).
    -- Domains (keel.legal): the side's ground units in no active plan, the
    -- coastal hexes someone owns (a landing is made at an owned beach, 37)
    -- and the plan's c/m units (for `no_attack`). Not offered: `assault`, a subset of the plan's units (the sets of
    -- every set would pass keel.legal's cap; left out, every unit assaults
    -- an enemy-owned beach), and `turn`, any turn from the earliest the
    -- planning time allows (a number; left out, the earliest).
    plan_landing = {
      phases = { "initial" },   -- planned in advance (the series' initial phase: a stand-in, the airborne rule's)
      params = {
        hex = { type = "hex", domain = function(ctx, _, side) return beaches(ctx, side) end },
        units = { type = "units", domain = function(ctx, _, side) return plannable(ctx, side) end },
        assault = "units?",
        turn = "integer?",
        no_attack = { type = "units", optional = true, depends = { "units" }, domain = function(ctx, p)
          return cm_of(ctx, p.units)
        end },
      },
      legal = function(ctx, p)
        local game = ctx.game
        if #p.units == 0 then return "37.C: name the units of the plan" end
        local side = game:get(p.units[1], "side")
        local seen = {}
        for _, u in ipairs(p.units) do
          if seen[u] then return ("37.C: %s is named twice"):format(ctx:label("unit", u)) end
          seen[u] = true
          if not ctx:query("is_ground_unit", u) then return ("37.C: %s is not a ground unit"):format(ctx:label("unit", u)) end
          if game:get(u, "side") ~= side then return "37.C: a plan is one side's" end
          local other = game:get_value(u, "plan")
          if other and active(ctx, other) then
            return ("37.C: %s is already in the plan for %s"):format(ctx:label("unit", u), ctx:label("hex", field(ctx, other, "hex")))
          end
        end
        for _, u in ipairs(p.assault or {}) do
          if not seen[u] then return ("37.C: %s assaults but is not in the plan"):format(ctx:label("unit", u)) end
        end
        -- 37 (g): only the plan's c/m units land without attacking
        local quiet = {}
        for _, u in ipairs(p.no_attack or {}) do
          if quiet[u] then return ("37 (g): %s is named twice"):format(ctx:label("unit", u)) end
          quiet[u] = true
          if not seen[u] then return ("37 (g): %s lands without attacking but is not in the plan"):format(ctx:label("unit", u)) end
          if not ctx:query("unit_is", u, "cm") then
            return ("37 (g): %s is not a c/m unit: only c/m units may land without attacking"):format(ctx:label("unit", u))
          end
        end
        -- (2) the RE limit for units that are not intrinsically amphibious
        local re = plan_re(ctx, p)
        local ready = (game:get_turn() or 1) + planning_time(ctx, p, side)
        local turn = p.turn or ready
        if turn < ready then
          return ("37.C: the planning time puts the landing on turn %d at the earliest, not %d"):format(ready, turn)
        end
        if re > 0 then
          local cap, used = capacity_for(ctx, side, turn), planned_re(ctx, side)
          if used + re > cap then
            return ("37.C (2): plans for %d REs of units not intrinsically amphibious exceed the LC/LB capacity "
              .. "of %d REs (%d already planned, %d in this plan)"):format(used + re, cap, used, re)
          end
        end
      end,
      effect = function(ctx, p)
        local game = ctx.game
        local side = game:get(p.units[1], "side")
        local id = (game:get_keyed("plan", "count") or 0) + 1
        game:set_keyed("plan", "count", id)
        local time = planning_time(ctx, p, side)
        local ready = (game:get_turn() or 1) + time
        local re, assault_re = plan_re(ctx, p), 0
        local assaulting = {}
        for _, u in ipairs(p.assault or (game:get_owner(p.hex) ~= side and p.units or {})) do assaulting[u] = true end
        for _, u in ipairs(p.units) do
          game:set_value(u, "plan", id)
          if assaulting[u] then
            game:set_value(u, "plan_assault", true)
            assault_re = assault_re + (game:get_value(u, "re") or 1)
          end
        end
        for _, u in ipairs(p.no_attack or {}) do game:set_value(u, "plan_no_attack", true) end
        game:set_keyed("plan", { id, "side" }, side)
        game:set_keyed("plan", { id, "hex" }, p.hex)
        game:set_keyed("plan", { id, "status" }, "planning")
        game:set_keyed("plan", { id, "ready_turn" }, ready)
        game:set_keyed("plan", { id, "turn" }, p.turn or ready)
        game:set_keyed("plan", { id, "re" }, re)
        game:set_keyed("plan", { id, "assault_re" }, assault_re)
        ctx:say("%s plans a landing at %s: %d units, %d assaulting REs -> %d turn%s of planning (ready on turn %d, "
          .. "landing on turn %d); %d REs count against the LC/LB capacity (%d of %d)%s", side, ctx:label("hex", p.hex),
          #p.units, assault_re, time, time == 1 and "" or "s", ready, p.turn or ready, re, planned_re(ctx, side),
          capacity_for(ctx, side, p.turn or ready), p.no_attack and #p.no_attack > 0
            and ("; %d c/m unit%s land%s without attacking (37 (g)), counted x2"):format(#p.no_attack,
              #p.no_attack == 1 and "" or "s", #p.no_attack == 1 and "s" or "") or "")
        return id
      end,
    },
    -- Delay a plan (default: the invasion turn `turns` later).
    delay_landing = {
      phases = { "initial" },
      params = {
        plan = { type = "integer", domain = function(ctx, _, side) return plans_of(ctx, side) end },
        turns = "integer?",
      },
      legal = function(ctx, p)
        if not active(ctx, p.plan) then return ("37.C: plan %d is not active"):format(p.plan) end
        if (p.turns or 1) < 1 then return "37.C: a delay is of one turn or more" end
      end,
      effect = function(ctx, p)
        local game = ctx.game
        local turn = field(ctx, p.plan, "turn") + (p.turns or ctx.rule.values.delay_turns)
        game:set_keyed("plan", { p.plan, "turn" }, turn)
        game:set_keyed("plan", { p.plan, "status" }, "delayed")
        ctx:say("the landing at %s is delayed to turn %d", ctx:label("hex", field(ctx, p.plan, "hex")), turn)
      end,
    },
    -- Cancel a plan: its units are free again, its REs no longer count.
    cancel_landing = {
      phases = { "initial" },
      params = { plan = { type = "integer", domain = function(ctx, _, side) return plans_of(ctx, side) end } },
      legal = function(ctx, p)
        if not active(ctx, p.plan) then return ("37.C: plan %d is not active"):format(p.plan) end
      end,
      effect = function(ctx, p)
        local game = ctx.game
        game:set_keyed("plan", { p.plan, "status" }, "cancelled")
        for _, u in ipairs(units_of(ctx, p.plan)) do
          game:set_value(u, "plan", nil)
          if game:get_value(u, "plan_assault") ~= nil then game:set_value(u, "plan_assault", nil) end
          if game:get_value(u, "plan_no_attack") ~= nil then game:set_value(u, "plan_no_attack", nil) end
        end
        ctx:say("the landing at %s is cancelled", ctx:label("hex", field(ctx, p.plan, "hex")))
      end,
    },
    -- (2) a capacity increase designated for an invasion turn (paid for
    -- under another chapter: recorded here)
    increase_capacity = {
      phases = { "initial" },
      params = { side = { type = "side", domain = function(ctx, _, side) return sides_of(ctx, side) end },
                 re = "integer", turn = "integer" },
      legal = function(_, p)
        if p.re < 1 then return "37.C: an increase is of one RE or more" end
      end,
      effect = function(ctx, p)
        local game = ctx.game
        local have = game:get_keyed("capacity_increase", { p.side, p.turn }) or 0
        game:set_keyed("capacity_increase", { p.side, p.turn }, have + p.re)
        ctx:say("%s designates %d REs of increased LC/LB capacity for turn %d (its cost is another chapter's)",
          p.side, p.re, p.turn)
      end,
    },
  },
  vetoes = {
    -- a landing must have been planned: every unit in one plan for this hex, its turn come
    land = function(ctx, p)
      local game = ctx.game
      if p.units == nil or #p.units == 0 or p.group == nil then return nil end
      local hex = p.hex or ctx:query("group_hex", p.group)
      local plan
      for _, u in ipairs(p.units) do
        local id = game:get_value(u, "plan")
        if not id or not active(ctx, id) then
          return ("37.C: %s's landing was not planned"):format(ctx:label("unit", u))
        end
        if plan and id ~= plan then return "37.C: the units belong to different plans" end
        plan = id
      end
      if field(ctx, plan, "hex") ~= hex then
        return ("37.C: the plan is for %s, not %s"):format(ctx:label("hex", field(ctx, plan, "hex")), ctx:label("hex", hex))
      end
      local turn = game:get_turn() or 1
      if turn < field(ctx, plan, "turn") then
        return ("37.C: the landing at %s is planned for turn %d (now turn %d)"):format(ctx:label("hex", hex),
          field(ctx, plan, "turn"), turn)
      end
    end,
  },
  on = {
    -- a plan whose units have all landed (or are gone) is carried out
    landing_made = function(ctx, ev)
      local game = ctx.game
      local plans = {}
      for _, u in ipairs(ev.units) do
        local id = game:get_value(u, "plan")
        if id and not plans[id] then
          plans[id] = true
          local done = true
          for _, m in ipairs(units_of(ctx, id)) do
            if game:get(m, "loc") ~= "dead" and not game:get_value(m, "landing") then done = false end
          end
          if done then game:set_keyed("plan", { id, "status" }, "executed") end
        end
      end
    end,
  },
}

-- ---- helpers used by the rule -------------------------------------------------------

-- the board's label of a hex: 37's query hex_label
-- the ground units of `side` (nil: any) in play and in no active plan, in id order
function plannable(ctx, side)
  local game = ctx.game
  local out = {}
  for _, u in ipairs(game:units { side = side }) do
    local plan = game:get_value(u, "plan")
    if ctx:query("is_ground_unit", u) and game:get(u, "loc") ~= "off"
        and not (plan and active(ctx, plan)) then
      out[#out + 1] = u
    end
  end
  return out, ("37.C: %s has no ground unit free to plan a landing"):format(side or "no side")
end

-- the coastal hexes of a board, in board order (a board never changes:
-- worked out once per board)
local coastal_of = setmetatable({}, { __mode = "k" })
local function coastal_hexes(b)
  local list = coastal_of[b]
  if not list then
    list = {}
    for _, h in ipairs(b:hexes()) do
      if b:get_terrain(h) == "coastal" then list[#list + 1] = h end
    end
    coastal_of[b] = list
  end
  return list
end

-- the coastal hexes someone owns, in board order, with their owner
function beaches(ctx, side)
  local game = ctx.game
  local b = game.board
  if not b then return {}, "37.C: no map" end
  local out = {}
  for _, h in ipairs(coastal_hexes(b)) do
    local owner = game:get_owner(h)
    if owner then
      local c = { value = h, owner = owner }
      if side then c.assault = owner ~= side end
      out[#out + 1] = c
    end
  end
  return out, "37.C: no coastal hex is owned by a side"
end

-- the active plans of `side` (nil: any), with their hex and turn
function plans_of(ctx, side)
  local out = {}
  for id = 1, (ctx.game:get_keyed("plan", "count") or 0) do
    if active(ctx, id) and (side == nil or field(ctx, id, "side") == side) then
      out[#out + 1] = { value = id, hex = ctx:label("hex", field(ctx, id, "hex")), turn = field(ctx, id, "turn"),
                        status = field(ctx, id, "status") }
    end
  end
  return out, ("37.C: %s has no active landing plan"):format(side or "no side")
end

-- the side asking, or every side with LCs/LBs (their capacity is what grows)
function sides_of(ctx, side)
  if side then return { side } end
  local game, v = ctx.game, ctx.rule.values
  local out, seen = {}, {}
  for _, u in ipairs(game:units()) do
    local s = game:get(u, "side")
    if v.capacity_types[game:get(u, "type")] and s and not seen[s] then seen[s] = true; out[#out + 1] = s end
  end
  table.sort(out)
  return out, "37.C: no side has landing craft"
end

function field(ctx, id, f) return ctx.game:get_keyed("plan", { id, f }) end

-- (2) the transport REs a plan's units count against the LC/LB capacity: the
-- units not intrinsically amphibious, by Table 1's RE multipliers; a c/m unit
-- named in `no_attack` counts double its RE size, not four times (37 (g))
function plan_re(ctx, p)
  local quiet = {}
  for _, u in ipairs(p.no_attack or {}) do quiet[u] = true end
  local re = 0
  for _, u in ipairs(p.units) do
    if not ctx:query("unit_is", u, "intrinsic") then
      re = re + ctx:query("transport_re", u, quiet[u] and { no_attack = true } or nil)
    end
  end
  return re
end

-- the c/m units among `units` (those 37 (g) lets land without attacking)
function cm_of(ctx, units)
  local out = {}
  for _, u in ipairs(units or {}) do
    if ctx:query("unit_is", u, "cm") then out[#out + 1] = u end
  end
  return out, "37 (g): no c/m unit in the plan"
end

function active(ctx, id)
  local s = field(ctx, id, "status")
  return s == "planning" or s == "delayed"
end

function units_of(ctx, id)
  local game = ctx.game
  local out = {}
  for _, u in ipairs(game:units()) do
    if game:get_value(u, "plan") == id then out[#out + 1] = u end
  end
  return out
end

-- REs of non-intrinsically amphibious units in the side's active plans
-- (kept per state of the game: every plan a listing checks asks it)
function planned_re(ctx, side)
  local cache = ctx:cache("navgroup.planned_re")
  if cache[side] then return cache[side] end
  local n = 0
  for id = 1, (ctx.game:get_keyed("plan", "count") or 0) do
    if active(ctx, id) and field(ctx, id, "side") == side then n = n + field(ctx, id, "re") end
  end
  cache[side] = n
  return n
end

-- cargo capacity of the side's LCs/LBs in play, neither sunk nor damaged
-- (kept per state of the game)
function capacity_in_play(ctx, side)
  local cache = ctx:cache("navgroup.lc_capacity")
  if cache[side] then return cache[side] end
  local game, v = ctx.game, ctx.rule.values
  local n = 0
  for _, u in ipairs(game:units { side = side }) do
    local kind = game:get(u, "loc")
    if v.capacity_types[game:get(u, "type")] and kind ~= "dead" and kind ~= "off"
        and game:get(u, "face") ~= "damaged" then
      n = n + (game:get_value(u, v.capacity_value) or v.default_capacity)
    end
  end
  cache[side] = n
  return n
end

function capacity_for(ctx, side, turn)
  return capacity_in_play(ctx, side) + (ctx.game:get_keyed("capacity_increase", { side, turn }) or 0)
end

-- turns of planning: the planning table's row for the assaulting units' REs (3)
function planning_time(ctx, p, side)
  local game = ctx.game
  local re = 0
  for _, u in ipairs(p.assault or (game:get_owner(p.hex) ~= side and p.units or {})) do re = re + (game:get_value(u, "re") or 1) end
  local cache = ctx:cache("navgroup.planning_time")   -- REs -> turns, per state: every plan checked asks it
  if cache[re] == nil then cache[re] = planning_turns(ctx, re) end
  return cache[re]
end

-- the planning table's turns for `re` assaulting REs
function planning_turns(ctx, re)
  local t = ctx:table(ctx.rule.values.planning_table)
  for _, row in ipairs(t.rows) do
    if re <= t:get(row.key, "max_re").value then return t:get(row.key, "turns").value end
  end
  return t:get(t.rows[#t.rows].key, "turns").value
end

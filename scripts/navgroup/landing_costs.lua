-- 37.A TRANSPORT COSTS (003_324962bba0bb45e8.txt): a naval group spends the
-- MPs of the NAVAL MP COST SUMMARY (32.A.3's table, with its footnotes) to
-- land units, and a ground unit spends all its remaining MPs to land.
--
-- The row for each landing unit comes from what it is and what carries it
-- (the summary's note: a unit is amphibious cargo when it is carried by an
-- LVT, or is non-motorized, without heavy equipment, and carried by an
-- LC/LB); its column from its carrier (TF, NT, LC, LB). A landing is one
-- disembarking activity of the group: it costs the dearest row and column
-- among the units it lands (as 32.A.3 takes a group's dearest column). The
-- * footnote (non-intrinsic armour doubles landing costs) and port
-- interdiction apply through 32.A.3's `activity_cost`, and so does a 37.D
-- great success's reduction (at most half the cost; `reduce = false` on
-- the landing declines it).
--
-- The rule comes first; the helpers it uses follow it.

local row_for, column_for   -- helpers, below the rule

rule {
  id = "37.A", title = "Transport costs",
  values = {
    columns = { TF = "TF", CG = "TF", SUB = "TF", RF = "TF", NT = "NT", LC = "LC", LB = "LB" },
    amph_carriers = { LC = true, LB = true },   -- "being transported by an LC/LB"
  },
  queries = {
    --- landing_cost(g, units, hex, assault, opts) -> cost, why, reduction, row, column: the MPs the
    --- group spends to land the units (nil, why when its craft cannot land one of them)
    landing_cost = function(ctx, g, units, hex, assault, opts)
      opts = opts or {}
      local best, best_row, best_col, best_red
      for _, u in ipairs(units) do
        local row = row_for(ctx, u, assault)
        local col = column_for(ctx, u)
        if not col then return nil, ("37.A: %s is not carried by a naval unit"):format(ctx:label("unit", u)) end
        local armour = ctx:query("unit_is", u, "armour") and not ctx:query("unit_is", u, "intrinsic")
        local cost, why, red = ctx:query("activity_cost", g, row, { column = col, armour = armour, hex = hex,
          no_credit = opts.no_credit })
        if not cost then return nil, ("37.A: %s cannot be landed that way: %s"):format(ctx:label("unit", u), why) end
        if not best or cost + (red or 0) > best + (best_red or 0) then
          best, best_row, best_col, best_red = cost, row, col, red or 0
        end
      end
      return best, nil, best_red, best_row, best_col
    end,
  },
  vetoes = {
    -- the naval group must have the MPs of the landing
    land = function(ctx, p)
      if p.group == nil or p.units == nil or #p.units == 0 then return nil end
      local hex = p.hex or ctx:query("group_hex", p.group)
      if not hex then return nil end
      local assault = ctx.game:get_owner(hex) ~= ctx:query("group_side", p.group)
      local cost, why = ctx:query("landing_cost", p.group, p.units, hex, assault, { no_credit = p.reduce == false })
      if not cost then return why end
      local left = ctx:query("mp_left", p.group)
      if cost > left then
        return ("37.A: the landing costs %s %d MPs, %d left"):format(ctx.game:group_get_name(p.group), cost, left)
      end
    end,
  },
  on = {
    -- the landing's MPs: the naval group's (through the movement front-end,
    -- so that they count like any other: coast defences, searches), and all
    -- that the ground units have left
    landing_begins = { function(ctx, ev)
      local game = ctx.game
      local cost, _, red, row, col = ctx:query("landing_cost", ev.group, ev.units, ev.hex, ev.assault,
        { no_credit = not ev.reduce })
      game:set_keyed("landing", { ev.landing, "cost" }, cost)
      game:set_keyed("landing", { ev.landing, "reduction" }, red or 0)
      game:set_keyed("landing", { ev.landing, "row" }, row)
      ctx:say("%s spends %d MPs (%s, %s column%s)", game:group_get_name(ev.group), cost,
        ctx:table("naval_mp_cost").by_key[row].label, col,
        (red or 0) > 0 and (", %d MPs less for 37.D great successes"):format(red) or "")
      for _, u in ipairs(ev.units) do
        local left = game:get_value(u, "mp_left")
        if left == nil then left = game:get_value(u, "mp") end
        game:set_value(u, "mp_left", 0)
        ctx:say("%s spends all its remaining MPs (%s) to land", ctx:label("unit", u), tostring(left or "all"))
      end
      ctx:emit("spend_mps", { group = ev.group, activity = row, cost = cost })
    end, priority = 10 },
  },
}

-- ---- helpers used by the rule -------------------------------------------------------

-- the carrier's column (nil when the unit is not aboard a naval unit)
function column_for(ctx, u)
  local game = ctx.game
  local kind, carrier = game:get(u, "loc")
  if kind ~= "unit" then return nil end
  return ctx.rule.values.columns[game:get(carrier, "type")]
end

-- the row of the NAVAL MP COST SUMMARY a unit lands by
function row_for(ctx, u, assault)
  local game = ctx.game
  local function is(c) return ctx:query("unit_is", u, c) end
  local _, carrier = game:get(u, "loc")
  local by_lc = ctx.rule.values.amph_carriers[game:get(carrier, "type")] == true
  local lvt = game:get_value(u, "lvt") == true
  local he = is("heavy_equipment")
  -- the summary's note: amphibious cargo
  local amph = lvt or (by_lc and not is("motorized") and not he)
  if assault then
    if is("intrinsic") then return "assault_intrinsic" end
    if is("cm") or is("cavalry") then return "assault_cm_cavalry" end
    if he then return "assault_he" end
    if amph then return "assault_amph" end
    return "assault_non_amph"
  end
  if is("intrinsic") then return "ed_beach_intrinsic" end
  if he then return "ed_beach_non_amph_he" end
  if amph then return "ed_beach_amph" end
  return "ed_beach_non_amph"
end

-- 32.A.3 Naval MP Cost Summary: every activity, every column (TF, NT, LC,
-- LB), with the footnotes (* armour doubles landing costs unless using port
-- capacity; ** not before 1942 with TFs and NTs; port interdiction x5 per level).
-- Unloading and transfer costs are 5 MPs less for each LC/LB of the group
-- with a 37.D great success (unit value `unload_credit`, set by 37.D for the
-- next naval movement step), at most half the cost (37.B's table).
-- The helpers the rule uses follow it.

local has_stars, marker_level, credited, slowest_column   -- helpers, below the rule

rule {
  id = "32.A.3", title = "Naval MP cost summary",
  values = {
    table = "naval_mp_cost",
    -- the column each naval unit type pays from ("count each ship as a single TF")
    columns = { TF = "TF", CG = "TF", SUB = "TF", RF = "TF", NT = "NT", LC = "LC", LB = "LB" },
    -- the movement rows, as keel.movement profiles read them
    rows = { enter = { ["all-sea"] = "enter_all_sea", coastal = "enter_coastal" },
             river = "enter_river_canal",
             cross = { ["all-water"] = 0, ["partial-water"] = 0 }, water_route = true },
    -- a group with a river flotilla pays its row for coastal, river and lake
    flotilla_rows = { enter = { ["all-sea"] = "enter_all_sea", coastal = "river_flotilla",
                                lake = "river_flotilla" },
                      river = "river_flotilla",
                      cross = { ["all-water"] = 0, ["partial-water"] = 0 }, water_route = true },
    flotilla_types = { RF = true },
    -- ties between equally slow columns go to the first of these
    column_order = { "LB", "TF", "NT", "LC" },
    -- the landing costs the * footnote doubles
    landing_rows = { ed_port = true, ed_port_he = true, ed_beach_amph = true, ed_beach_intrinsic = true,
      ed_beach_non_amph_he = true, ed_beach_non_amph = true, assault_intrinsic = true,
      assault_amph = true, assault_non_amph = true, assault_he = true, assault_cm_cavalry = true },
    -- rows done with port capacity (the * footnote does not apply there)
    port_rows = { ed_port = true, ed_port_he = true },
    -- the ** footnote: not before this year with these columns
    before_year = 1942, not_before_columns = { TF = true, NT = true },
    pi_row = "port_interdiction",
    movement_activities = { enter = true },
    combat_row = "combat_round",   -- charged by 32.D for each round, never spent as an activity
    -- 37.D S*: "reduces the movement cost to unload units or transfer them
    -- from NTs by 5 MPs" (the LC/LB's unit value unload_credit), up to half
    credit_types = { LC = true, LB = true },
    credit_prefixes = { "ed_", "assault_", "transfer_" },
    credit_share = { num = 1, den = 2 },
  },
  queries = {
    -- the columns the group's units pay from, in column_order
    group_columns = function(ctx, g)
      local v, present = ctx.rule.values, {}
      local units = ctx:query("group_members", g)
      for i = 1, #units do
        local c = v.columns[ctx.game:get(units[i], "type")]
        if c then present[c] = true end
      end
      local out = {}
      local order = v.column_order
      for i = 1, #order do if present[order[i]] then out[#out + 1] = order[i] end end
      return out
    end,
    -- the column the group moves by: the most expensive one for movement
    -- (LB if any LB; TF, NT and LC cost the same)
    group_column = function(ctx, g)
      return slowest_column(ctx.rule.values, ctx:table(ctx.rule.values.table), ctx:query("group_columns", g))
    end,
    -- the movement profile of a group (its column; river flotilla rows if it has one)
    movement_profile = function(ctx, g)
      local v = ctx.rule.values
      local rows = v.rows
      local units = ctx:query("group_members", g)
      for i = 1, #units do
        if v.flotilla_types[ctx.game:get(units[i], "type")] then rows = v.flotilla_rows end
      end
      return ctx:profile(v.table, ctx:query("group_column", g), rows)
    end,
    -- the port interdiction level of an enemy marker in the hex, for a group
    -- of `side` (port interdiction is another chapter: the scenario's): the
    -- markers in play, keyed value `port_interdiction` {side, hex} = level
    -- (the side whose marker it is; the highest other side's counts), else
    -- the map's tags `port_interdiction` (level 1) / `port_interdiction_<N>`
    pi_level = function(ctx, side, hex)
      local game, board = ctx.game, ctx.game.board
      local level = marker_level(game, "port_interdiction", side, hex)
      if level then return level end
      for _, tag in ipairs(board and board:tags(hex) or {}) do
        if tag == "port_interdiction" then return 1 end
        local n = tag:match("^port_interdiction_(%d+)$")
        if n then return math.tointeger(n) end
      end
      return 0
    end,
    -- the activities (rows that are neither movement, combat rounds nor the
    -- interdiction multiplier) the group's units may do, each {value = row
    -- key, cost = MPs}, in table order: the `spend` action's choices
    mp_activities = function(ctx, g)
      local v = ctx.rule.values
      local other = { [v.pi_row] = true, [v.combat_row] = true, [v.rows.river] = true, [v.flotilla_rows.river] = true }
      for _, r in ipairs { v.rows.enter, v.flotilla_rows.enter } do
        for _, key in pairs(r) do other[key] = true end
      end
      local out = {}
      for _, row in ipairs(ctx:table(v.table).rows) do
        local cost = not other[row.key] and ctx:query("activity_cost", g, row.key)
        if cost then out[#out + 1] = { value = row.key, cost = cost } end
      end
      return out
    end,
    -- the MPs the group spends for an activity (a row key of the table):
    -- cost, nil, reduction (MPs taken off by 37.D great successes), or nil,
    -- reason. opts: column (who does it), year, armour (non-intrinsic
    -- amphibious armour), port_capacity, hex, pi_level, no_credit.
    activity_cost = function(ctx, g, activity, opts)
      opts = opts or {}
      local v, game = ctx.rule.values, ctx.game
      local t = ctx:table(v.table)
      local row = t.by_key[activity]
      if not row then return nil, ("32.A.3: no activity '%s' on the Naval MP Cost Summary"):format(tostring(activity)) end
      local columns = opts.column and { opts.column } or ctx:query("group_columns", g)
      local year = opts.year or game:get_global("year")
      local cost, why
      for _, c in ipairs(columns) do
        local cell = t:get(activity, c)
        if cell.kind == "number" then
          if has_stars(row.label) and year and year < v.before_year and v.not_before_columns[c] then
            why = ("32.A.3 **: not before %d with TFs and NTs"):format(v.before_year)
          elseif not cost or cell.value > cost then
            cost = cell.value
          end
        end
      end
      if not cost then
        return nil, why or ("32.A.3: %s: not done by %s"):format(row.label, table.concat(columns, "/"))
      end
      if opts.armour and v.landing_rows[activity] then
        local capacity = opts.port_capacity
        if capacity == nil then capacity = v.port_rows[activity] or false end
        if not capacity then cost = cost * 2 end
      end
      if not v.movement_activities[activity] then
        local hex = opts.hex or ctx:query("group_hex", g)
        local level = opts.pi_level or (hex and ctx:query("pi_level", ctx:query("group_side", g), hex)) or 0
        if level > 0 then
          local cell = t:get(v.pi_row, columns[1] or "TF")
          local mult = cell.kind == "multiply" and cell.num // cell.den or 5
          cost = cost * mult * level
        end
      end
      local reduction = 0
      if not opts.no_credit and credited(v, activity) then
        for _, u in ipairs(ctx:query("group_members", g)) do
          if v.credit_types[game:get(u, "type")] then reduction = reduction + (game:get_value(u, "unload_credit") or 0) end
        end
        local most = cost * v.credit_share.num // v.credit_share.den
        if reduction > most then reduction = most end
      end
      return cost - reduction, nil, reduction
    end,
  },
}

-- ---- helpers ------------------------------------------------------------------------

function has_stars(label) return label:find("%*%*") ~= nil end

-- The highest level of the markers of a keyed map {side, hex} = level in
-- `hex` that are not `side`'s: 0 when the hex has only `side`'s own, nil
-- when it has none.
function marker_level(game, map, side, hex)
  local level
  for i = 1, game:count_keyed(map) do
    local key, n = game:at_keyed(map, i)
    if key[2] == hex then
      level = level or 0
      if key[1] ~= side and n > level then level = n end
    end
  end
  return level
end

-- an unloading or transfer row (37.D's reduction applies to it)
function credited(v, activity)
  for _, prefix in ipairs(v.credit_prefixes) do
    if activity:sub(1, #prefix) == prefix then return true end
  end
  return false
end

-- The column (of `columns`, in order) whose movement rows (all-sea,
-- coastal, river: a "-" costs as 1000) cost the most, first on a tie; TF
-- when there is none. Worked out once per table, values and columns: a
-- rule set's tables and values never change.
local slowest = setmetatable({}, { __mode = "k" })   -- table -> values -> "columns" -> column
function slowest_column(v, t, columns)
  local by_values = slowest[t]
  if not by_values then by_values = setmetatable({}, { __mode = "k" }); slowest[t] = by_values end
  local memo = by_values[v]
  if not memo then memo = {}; by_values[v] = memo end
  local key = table.concat(columns, ",")
  local best = memo[key]
  if best then return best end
  local best_cost
  for _, c in ipairs(columns) do
    local sum = 0
    for _, row in ipairs { v.rows.enter["all-sea"], v.rows.enter.coastal, v.rows.river } do
      local cell = t:get(row, c)
      sum = sum + (cell.kind == "number" and cell.value or 1000)
    end
    if not best_cost or sum > best_cost then best, best_cost = c, sum end
  end
  best = best or "TF"
  memo[key] = best
  return best
end

-- 37.D LANDING CRAFT/BARGE DAMAGE (003_324962bba0bb45e8.txt): each LC, LB
-- and NT that disembarks cargo at a beach rolls one die on the SUCCESS TABLE
-- with every modifier of Table 3, and the result is carried out at once, as
-- the table says for each kind of craft (tables/landing_craft_damage.tbl,
-- `landing_craft_damage_effects`): destroyed, permanently eliminated,
-- damaged (flipped), 30 extra MPs for an NT, or 5 MPs off the cost of
-- unloading and of transfers from NTs in the next naval movement step. A
-- damaged LC/LB carries nothing until repaired (repair is another chapter's:
-- a rule that flips the craft back to its full face).
--
-- The SUCCESS TABLE is not in the texts: a scenario supplies it (the
-- shipped tables/success_table_standin.tbl is a STAND-IN and says so).
--
-- The rule comes first; the helpers it uses follow it.

local crafts_of, modifiers, apply_result, damaged   -- helpers, below the rule

rule {
  id = "37.D", title = "Landing craft/barge damage",
  values = {
    table = "landing_craft_damage",
    effects = "landing_craft_damage_effects",
    craft_types = { LC = true, LB = true, NT = true },
    carrier_types = { LC = true, LB = true },   -- the ones that are damaged (flipped)
    -- the rows of the MP cost summary that are naval transport (no damaged LC/LB does them)
    transport_prefixes = { "ed_", "assault_", "transfer_" },
  },
  queries = {
    --- craft_damage_modifiers(craft, landing) -> Table 3's modifiers for a craft of a landing
    craft_damage_modifiers = function(ctx, craft, id) return modifiers(ctx, craft, id) end,
  },
  vetoes = {
    -- a damaged LC/LB is not used for amphibious landings until repaired;
    -- and a reduction is declined (reduce = false) only when there is one
    land = function(ctx, p)
      local game = ctx.game
      if p.reduce == false and p.group ~= nil then
        local credit = false
        for _, u in ipairs(ctx:query("group_members", p.group)) do
          if (game:get_value(u, "unload_credit") or 0) > 0 then credit = true end
        end
        if not credit then
          return ("37.D: %s's craft have no great-success reduction to decline (reduce = false)"):format(
            game:group_get_name(p.group))
        end
      end
      for _, u in ipairs(p.units or {}) do
        local kind, carrier = game:get(u, "loc")
        if kind == "unit" and damaged(ctx, carrier) then
          return ("37.D: %s is damaged and carries nothing until repaired (%s aboard)"):format(
            ctx:label("unit", carrier), ctx:label("unit", u))
        end
      end
    end,
    -- ... nor for naval transport: a group whose LCs/LBs are all damaged does
    -- no unloading or transfer with them
    spend = function(ctx, p)
      local game, v = ctx.game, ctx.rule.values
      if p.group == nil or type(p.activity) ~= "string" then return nil end
      local transport = false
      for _, prefix in ipairs(v.transport_prefixes) do
        if p.activity:sub(1, #prefix) == prefix then transport = true end
      end
      if not transport then return nil end
      local column = p.opts and p.opts.column
      local any, usable = false, false
      for _, u in ipairs(ctx:query("group_members", p.group)) do
        local t = game:get(u, "type")
        if v.carrier_types[t] and (column == nil or column == t) then
          any = true
          if not damaged(ctx, u) then usable = true end
        elseif not v.carrier_types[t] and column == nil then
          usable = true
        end
      end
      if any and not usable then
        return ("37.D: %s's landing craft are damaged: no naval transport until repaired"):format(game:group_get_name(p.group))
      end
    end,
  },
  on = {
    -- each LC, LB and NT that disembarked cargo rolls, in the order of the units landed
    landing_made = function(ctx, ev)
      for _, craft in ipairs(crafts_of(ctx, ev)) do
        local mods = modifiers(ctx, craft, ev.landing)
        local res = ctx:resolve(ctx.rule.values.table, mods, { reason = ("%s disembarking at %s"):format(
          ctx:label("unit", craft), ctx:label("hex", ev.hex)) })
        apply_result(ctx, craft, res, ev)
      end
    end,
    -- a great success's 5 MPs apply in the next naval movement step of the craft's side
    naval_step_start = function(ctx, ev)
      local game = ctx.game
      for _, u in ipairs(game:units()) do
        if game:get_value(u, "unload_credit_next") and game:get(u, "side") == ev.side then
          game:set_value(u, "unload_credit", game:get_value(u, "unload_credit_next"))
          game:set_value(u, "unload_credit_next", nil)
          ctx:say("%s: 5 MPs off unloading and transfers from NTs this step (37.D great success)", ctx:label("unit", u))
        end
      end
    end,
    naval_step_end = function(ctx, ev)
      local game = ctx.game
      for _, u in ipairs(game:units()) do
        if game:get_value(u, "unload_credit") and (ev.side == nil or game:get(u, "side") == ev.side) then
          game:set_value(u, "unload_credit", nil)
        end
      end
    end,
  },
}

-- ---- helpers used by the rule -------------------------------------------------------

-- the board's label of a hex: 37's query hex_label
function damaged(ctx, u)
  return ctx.rule.values.carrier_types[ctx.game:get(u, "type")] == true and ctx.game:get(u, "face") == "damaged"
end

-- the LCs, LBs and NTs that disembarked cargo in this landing, in the order of the units landed
function crafts_of(ctx, ev)
  local game, v = ctx.game, ctx.rule.values
  local out, seen = {}, {}
  for _, u in ipairs(ev.units) do
    local c = ev.carriers[u]
    if c and not seen[c] and v.craft_types[game:get(c, "type")] and game:get(c, "loc") ~= "dead" then
      seen[c] = true
      out[#out + 1] = c
    end
  end
  return out
end

-- Table 3's modifiers for a craft, by name
function modifiers(ctx, craft, id)
  local game = ctx.game
  local hex, side = ctx:query("landing", id, "hex"), ctx:query("landing", id, "side")
  local t = game:get(craft, "type")
  local m = {}
  if ctx:query("landing", id, "defended") then m.enemy_occupied = true end
  local ground = ctx:query("ground_terrain", hex)
  if ground == "mountain" or ground == "cliffs" then m.cliffs_mountains = true end
  local cd = ctx:query("cd_strength_into", side, hex)
  if cd > 0 then m.cd_strength = cd end
  if t == "LB" then m.landing_barge = true end
  if t == "NT" then m.naval_transport = true end
  local sea = game:get_global("sea")
  if sea == "rough" then m.rough_seas = true end
  if sea == "calm" then m.calm_seas = true end
  return m
end

-- carry out a result for one craft, as the effects table gives it for its kind
function apply_result(ctx, craft, res, ev)
  local game, v = ctx.game, ctx.rule.values
  local t = game:get(craft, "type")
  local code = res.code or tostring(res)
  local cell = ctx:table(v.effects):get(code, t)
  local what = cell.kind == "code" and cell.code or cell.kind
  local name = ctx:label("unit", craft)
  if what == "destroyed" then
    game:eliminate(craft)
    ctx:say("%s: %s is destroyed", code, name)
  elseif what == "eliminated" then
    game:set_value(craft, "permanently_eliminated", true)
    game:eliminate(craft)
    ctx:say("%s: %s is permanently eliminated", code, name)
  elseif what == "damaged" then
    game:flip(craft, "damaged")
    ctx:say("%s: %s is damaged (flipped) and carries nothing until repaired", code, name)
  elseif cell.kind == "mp" and cell.mp > 0 then
    local g = ev.group
    local left = ctx:query("mp_left", g)
    local mp = math.min(cell.mp, math.max(left, 0))
    ctx:say("%s: %s spends %d extra MPs%s", code, name, cell.mp,
      mp < cell.mp and (" (%s has %d left: it spends them all)"):format(game:group_get_name(g), left) or "")
    if mp > 0 then ctx:emit("spend_mps", { group = g, activity = "NT landing (37.D)", cost = mp }) end
  elseif cell.kind == "mp" and cell.mp < 0 then
    game:set_value(craft, "unload_credit_next", -cell.mp)
    ctx:say("%s: %s disembarked without damage; 5 MPs off unloading and transfers from NTs in the next naval "
      .. "movement step", code, name)
  else
    ctx:say("%s: %s disembarked without damage", code, name)
  end
end

-- The probe's one rule (see manifest.lua): an order that narrates markup,
-- sets status values and a unit's values to it, hands the unit's hex to a
-- side named with it, rolls on its table and moves the unit.

local function mark(where)
  return ("<img src=x onerror=\"keel_markup_ran('%s')\"><svg onload=\"keel_markup_ran('%s')\"></svg>"):format(where, where)
end

rule {
  id = "VM.1", title = mark("rule title"),
  actions = {
    provoke = {
      params = { unit = "unit", to = "hex" },
      effect = function(ctx, p)
        local g = ctx.game
        local _, at = g:get(p.unit, "loc")
        ctx:say("%s", mark("narration"))
        g:set_global("markup", mark("status value"))
        g:set_keyed("markup_map", mark("keyed key"), mark("keyed value"))
        g:set_value(p.unit, "note", mark("unit value"))
        g:add_marker(p.unit, "flag", 1)
        g:set_owner(at, mark("owner side"))
        local res = ctx:resolve("markup_roll", {}, { reason = mark("roll reason") })
        ctx:say("the roll gave %s; a row: %s", tostring(res), ctx:table("markup_rows").by_key.r.label)
        g:move(p.unit, "hex", p.to)
      end,
    },
  },
}

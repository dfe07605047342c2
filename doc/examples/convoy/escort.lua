-- G.1 Escorts: a group with a DD is escorted; only escorted convoys sail.
rule {
  id = "G.1", title = "Escorts",
  values = { escort_types = { DD = true } },
  queries = {
    escorted = function(ctx, group)
      for _, u in ipairs(ctx.game:group_units(group)) do
        if ctx.rule.values.escort_types[ctx.game:get(u, "type")] then return true end
      end
      return false
    end,
  },
  actions = {
    sail = {
      params = { group = "group", to = "hex" },
      legal = function(ctx, p)
        if not ctx:query("escorted", p.group) then return "a convoy sails only with an escort" end
      end,
      effect = function(ctx, p)
        for _, u in ipairs(ctx.game:group_units(p.group)) do ctx.game:move(u, "hex", p.to) end
        ctx:emit("air_attack", { group = p.group })
      end,
    },
  },
}

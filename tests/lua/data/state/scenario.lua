-- tests/lua/data/state/scenario.lua — a tiny scenario for the journal,
-- replay and determinism tests: two fleets, a carrier with planes, a
-- convoy, and orders whose rules live in damage.lua (loaded as a rule file).
return {
  rules = function(game)
    local damage = game:load_rules("damage.lua")
    game:define_order("barrage", function(g, args)
      local total = g:roll("2d6", { reason = "barrage vs " .. args.target })
      damage.hit(g, args.target, total >= 7 and 2 or 1)
    end, { rule = "18.3c" })
    game:define_order("dg", function(g, args) damage.dg(g, args.target) end, { rule = "18.3d" })
    game:define_order("move", function(g, args) g:move(args.unit, "hex", args.hex) end, { rule = "32.A" })
    game:define_order("illegal", function() error("no such move") end, { rule = "32.A.1" })
  end,
  setup = function(game)
    game:set_turn(1)
    game:set_global("weather", "clear")
    game:set_global("suez", "open")
    local bb = game:unit_new { name = "Warspite", type = "BB", side = "Allied", values = { strength = 5 },
                               at = { "hex", 4294967299 } }
    local cv = game:unit_new { name = "Illustrious", type = "CV", side = "Allied",
                               values = { strength = 3, ["capacity.planes"] = 2 } }
    for _, n in ipairs({ "Swordfish", "Fulmar" }) do
      game:load(game:unit_new { name = n, type = "air", side = "Allied", values = { ["size.planes"] = 1 } }, cv)
    end
    local it = game:unit_new { name = "Littorio", type = "BB", side = "Axis", values = { strength = 5 } }
    game:group_new { name = "Force H", kind = "combat", known = false, units = { bb, cv } }
    game:group_new { name = "Squadra", kind = "combat", units = { it } }
  end,
}

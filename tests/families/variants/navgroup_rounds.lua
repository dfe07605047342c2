-- A house rule for the 32.D tests: the default resolution fights three
-- rounds, and combat zones reach two hexes for naval groups.
variant { name = "navgroup three rounds", base = "navgroup" }

set_values("32.D", { default_rounds = 3, combat_zone = { naval = 2 } })

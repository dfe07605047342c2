-- A house rule for the sea-zone game (doc/lab.md's worked study): "hunter-
-- killer" submarines. Submarines attack at 3 instead of 2 (the attack
-- column of the sea_units table, units.submarines); cost, defense, move,
-- hits and the surface column stay as printed.
variant { name = "hunter-killer submarines", base = "seazone" }

set_row("sea_units", "submarine", "18", "9", "3", "2", "2", "1", "0")

-- A second variant to stack on top of the campaign: faster transports and
-- a kinder bombing table.
variant { name = "fast convoys", base = "toy27" }

set_values("27.C.2", { rates = { NT = 9, LS = 9 } })
set_row("bombing_hits", "6", "2")

-- Changes 27.C.4 again and says it means to.
variant { name = "short exploitation (meant)", base = "toy27", overrides = { "27.C.4" } }

set_values("27.C.4", { naval_steps = 2 })

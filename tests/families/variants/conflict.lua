-- Changes 27.C.4 again without saying so: a conflict with campaign 001.
variant { name = "short exploitation", base = "toy27" }

set_values("27.C.4", { naval_steps = 2 })

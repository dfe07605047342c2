-- A house rule for the lab's tests that changes nothing (D.1's bonuses set
-- to what they are): the lab must find no difference.
variant { name = "nothing", base = "duel" }
set_values("D.1", { bonus = { A = 0, B = 0 } })

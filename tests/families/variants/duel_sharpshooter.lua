-- A house rule for the lab's tests: side A's shots count 2 more (D.1), so
-- A should win more often; the lab must say so.
variant { name = "sharpshooter", base = "duel" }
set_values("D.1", { bonus = { A = 2, B = 0 } })

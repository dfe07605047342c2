-- A broken house rule for the variant lab's tests (tests/lua/lab_test.lua):
-- at the start of the game's first naval step (its first order, the Axis
-- player's pass of the initial phase) it rolls a die and raises a rule error on a 6,
-- so that about one game in six fails. The lab counts those games and names
-- their seeds; `keel run SCENARIO --variant this --seed S` fails alone.
variant { name = "lab: unlucky start", base = "navgroup" }

add {
  id = "H.1", title = "Unlucky start (a test house rule that fails on a 6)",
  on = {
    naval_step_start = function(ctx, ev)
      if ev.turn == 1 and ev.side == "Axis" and ctx:roll("1d6", { reason = "unlucky start" }) == 6 then
        error("unlucky start: rolled a 6")
      end
    end,
  },
}

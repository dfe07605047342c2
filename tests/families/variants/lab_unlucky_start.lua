-- A broken house rule for the variant lab's tests (tests/lua/lab_test.lua):
-- at the start of the game it rolls a die and raises a rule error on a 6,
-- so that about one game in six fails. The lab counts those games and names
-- their seeds; `keel run SCENARIO --variant this --seed S` fails alone.
variant { name = "lab: unlucky start", base = "navgroup" }

add {
  id = "H.1", title = "Unlucky start (a test house rule that fails on a 6)",
  on = {
    game_start = function(ctx)
      if ctx:roll("1d6", { reason = "unlucky start" }) == 6 then
        error("unlucky start: rolled a 6")
      end
    end,
  },
}

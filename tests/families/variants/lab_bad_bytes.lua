-- A broken house rule for the variant lab's tests (tests/lua/lab_test.lua,
-- lab-14): it fails at the start of every game's first naval step (its
-- first order) with a message holding bytes
-- that are not UTF-8, so that the study's failures carry them into the
-- JSON result, which must still be valid UTF-8.
variant { name = "lab: bad bytes", base = "navgroup" }

add {
  id = "H.2", title = "Bad bytes (a test house rule whose error is not UTF-8)",
  on = {
    naval_step_start = function()
      error("no start: \xff\xfe\xc3 here")
    end,
  },
}

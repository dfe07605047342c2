-- A house rule for the variant lab's tests (tests/lua/lab_test.lua): on the
-- Naval Search Table (Rule 32.B), a modified roll of 7-10 is a success (S)
-- instead of a failure (F). The lab should show the 7-10 row giving S
-- instead of F, and what follows from more groups being found.
variant { name = "lab: 7-10 finds", base = "navgroup" }

set_row("naval_search", "7-10", "S")

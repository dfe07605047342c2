-- For the Rule 37 tests: no naval searches (32.B), so that the dice a test
-- forces go to the landing tables and not to a search roll.
variant { name = "no naval searches", base = "navgroup" }

disable("32.B", "the Rule 37 tests force the dice of the landing tables")

-- A house rule for the journal probe family: a barrage needs 8 for two hits.
variant { name = "house", base = "journal_probe" }

set_values("18.3c", { two_hits_at = 8 })

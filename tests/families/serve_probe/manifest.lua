-- A rule family for keel serve's tests (tests/lua/serve_test.lua): actions
-- whose results, events and candidates have no JSON form, or are made to
-- hang a reader that is not raw, and a rule whose text is not UTF-8. Each
-- action first changes the game (a global), so that a test sees whether
-- the server took the order back. Not a rulebook's: probes of the protocol.
return family {
  name = "serve_probe",
  rulebook = "none (probes of the protocol server)",
  depends = {},
  files = { "probe.lua" },
  events = {
    "probe",   -- any data: journaled and echoed in the order's events
  },
}

-- The scenario of keel serve's probes (tests/lua/serve_test.lua): the
-- serve_probe family, one unit, no map.
return scenario {
  name = "Serve probe",
  rules = { "serve_probe" },
  path = { "../families" },
  seed = 5,
  forces = {
    { name = "Probe", type = "BB", side = "Allied" },
  },
}

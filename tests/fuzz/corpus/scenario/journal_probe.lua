-- A tiny scenario for the journal, replay, determinism and save tests
-- (tests/lua/game_test.lua, save_test.lua): two fleets, a carrier with its
-- planes aboard, and the journal_probe family's orders. No map: hexes are
-- given as integers. tests/lua/data/state/orders.lua plays it from a host
-- script, with undo and redo.
return scenario {
  name = "Journal probe",
  rules = { "journal_probe" },
  path = { "../../../tests/families" },
  variants = { "../../../tests/families/variants/journal_house.lua" },
  seed = 77,
  flags = { turn = 1, weather = "clear", suez = "open" },
  forces = {
    { name = "Warspite", type = "BB", side = "Allied", values = { strength = 5 }, at = 4294967299, group = "Force H" },
    { name = "Illustrious", type = "CV", side = "Allied", values = { strength = 3, ["capacity.planes"] = 2 },
      group = "Force H" },
    { name = "Swordfish", type = "air", side = "Allied", values = { ["size.planes"] = 1 }, aboard = "Illustrious" },
    { name = "Fulmar", type = "air", side = "Allied", values = { ["size.planes"] = 1 }, aboard = "Illustrious" },
    { name = "Littorio", type = "BB", side = "Axis", values = { strength = 5 }, group = "Squadra" },
  },
  groups = {
    ["Force H"] = { kind = "combat", known = false },
    Squadra = { kind = "combat" },
  },
}

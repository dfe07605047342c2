-- scenarios/families/avalanche — what the OCS Salerno showcase
-- (scenarios/ocs_salerno.lua, Operation Avalanche) needs from chapters
-- section 18 leaves out: who controls a hex, which its victory conditions
-- read. A scenario-supplied stand-in, not rule content of section 18.
return family {
  name = "avalanche",
  rulebook = "Showcase stand-in for hex control (not from the rule texts)",
  depends = { "ocs" },
  files = { "control.lua" },
}

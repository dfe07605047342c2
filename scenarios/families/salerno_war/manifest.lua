-- scenarios/families/salerno_war — what the Salerno showcase needs from
-- chapters the rule texts leave out: embarking units (naval transport), the
-- sequence of play (turns, whose player-turn, the sea), the theatre's SP
-- pool (supply), and the ground combat an amphibious assault must fight. A scenario-supplied stand-in, not
-- rule content: Rule 37 sends the combat (`ground_combat`) and applies the
-- result; how a combat is decided is this stand-in's, and says so.
return family {
  name = "salerno_war",
  rulebook = "Showcase stand-in for naval transport, the turn sequence and ground combat (not from the rule texts)",
  depends = { "navgroup" },
  files = { "war.lua" },
}

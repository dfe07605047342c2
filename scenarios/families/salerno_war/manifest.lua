-- scenarios/families/salerno_war — what the Salerno showcase needs from
-- chapters the rule texts leave out: embarking units (naval transport), the
-- sea state (weather), the theatre's SP pool (supply), ground movement,
-- ground combat and hex control, and how the game is lost. A
-- scenario-supplied stand-in, not rule content: Rule 37 sends its combats
-- (`ground_combat`) and applies the result; how a combat is decided is this
-- stand-in's, and says so. The sequence of play is the scenario's own
-- declaration over navgroup's (scenarios/salerno_1943.lua).
return family {
  name = "salerno_war",
  rulebook = "Showcase stand-in for naval transport, weather, supply, ground movement and ground combat "
    .. "(not from the rule texts)",
  depends = { "navgroup" },
  files = { "war.lua" },
}

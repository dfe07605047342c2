-- A test stand-in for the ground combat chapter that OCS 18.6a leaves out:
-- the result of a Beach Assault's combat is read from the test's globals
-- (gc_dislodged, gc_attacker_steps, gc_attacker_options, gc_defender_steps,
-- gc_exploit), and the information 18.6a passes is kept in globals for the
-- test to check (gc_terrain, gc_multiplier_num / gc_multiplier_den,
-- gc_options_as_steps).
variant { name = "ocs ground combat (test)", base = "ocs" }

wrap("18.6a", {
  queries = {
    resolve_ground_combat = function(_, ctx, info)
      local g = ctx.game
      g:set_global("gc_terrain", info.terrain)
      g:set_global("gc_multiplier_num", info.attack_multiplier.num)
      g:set_global("gc_multiplier_den", info.attack_multiplier.den)
      g:set_global("gc_options_as_steps", info.attacker_options_as_steps)
      return { dislodged = g:get_global("gc_dislodged"), attacker_steps = g:get_global("gc_attacker_steps"),
               attacker_options = g:get_global("gc_attacker_options"), defender_steps = g:get_global("gc_defender_steps"),
               exploit = g:get_global("gc_exploit") }
    end,
  },
})

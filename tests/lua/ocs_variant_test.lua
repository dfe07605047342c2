-- tests/lua/ocs_variant_test.lua — the game-specific exception of 18.1c as a
-- variant (scripts/ocs/variants/blitzkrieg_legend.lua): destroyers enter
-- ports; a large ship in port is automatically DG, so one more DG is a hit.
local t = require "keel.testing"
local F = dofile("tests/lua/ocs_fixture.lua")

local VARIANT = "scripts/ocs/variants/blitzkrieg_legend.lua"

t.test("18.1c-variant-1: destroyers may move into a port under the game note, not under the base rules; large ships never", function()
  local set, g = F.setup()
  F.phase(set, g, "movement_phase", "Allied")
  local dd = F.unit(g, { name = "Jervis", type = "DD", side = "Allied", at = "A:0403" })
  F.refused(set, g, "move", { unit = dd, path = { "A:0504" } }, "18.1c: Jervis enters all-sea hexes only; A:0504 is coastal")
  local vset, vg = F.setup { variants = { VARIANT } }
  F.phase(vset, vg, "movement_phase", "Allied")
  local vdd = F.unit(vg, { name = "Jervis", type = "DD", side = "Allied", at = "A:0403" })
  local vbb = F.unit(vg, { name = "Warspite", type = "BB", side = "Allied", at = "A:0403" })
  F.ok(vset, vg, "move", { unit = vdd, path = { "A:0504" } })
  F.refused(vset, vg, "move", { unit = vbb, path = { "A:0504" } }, "18.1c: Warspite enters all-sea hexes only")
  F.refused(vset, vg, "move", { unit = vdd, path = { "A:0505" } }, "A:0505 is coastal", "a coastal hex without a port")
  t.eq(vg:get_marker(vdd, "DG"), 0, "a destroyer in port is not DG")
end)

t.test("18.1c-variant-2: a large ship in port is automatically DG (when fired at, and after Clean Up); one DG result is a hit, two sink it", function()
  local set, g = F.setup { variants = { VARIANT } }
  local cl = F.unit(g, { name = "Abdiel", type = "CL", side = "Allied", at = "A:0504", port = true })
  local bb = F.unit(g, { name = "Littorio", type = "BB", side = "Axis", at = "A:0403", values = { barrage = 12, range = 3 } })
  F.phase(set, g, "clean_up_phase", "Allied")
  t.eq(g:get_marker(cl, "DG"), 1, "DG after the Clean Up Phase")
  F.phase(set, g, "movement_phase", "Axis")
  F.phase(set, g, "barrage_segment", "Axis")
  g.dice:force(3, 3)                  -- 10+: 6 -> DG
  F.ok(set, g, "barrage", { units = { bb }, target = cl })
  t.eq({ g:get(cl, "face"), g:get_marker(cl, "DG") }, { "damaged", 1 }, "another DG converts to a loss")
  F.phase(set, g, "exploitation_phase", "Axis")
  F.phase(set, g, "barrage_segment", "Axis")
  g.dice:force(3, 3)
  F.ok(set, g, "barrage", { units = { bb }, target = cl })
  t.eq(g:get(cl, "loc"), "dead")
end)

t.test("18.1c-variant-3: a large ship in port never cleaned up is DG when fired at: a DG result is already its second", function()
  local set, g = F.setup { variants = { VARIANT } }
  local ca = F.unit(g, { name = "Trento", type = "CA", side = "Axis", at = "A:0504", port = true })
  local bb = F.unit(g, { name = "Warspite", type = "BB", side = "Allied", at = "A:0403", values = { barrage = 12, range = 3 } })
  t.eq(g:get_marker(ca, "DG"), 0)
  F.phase(set, g, "movement_phase", "Allied")
  F.phase(set, g, "barrage_segment", "Allied")
  g.dice:force(3, 3)
  F.ok(set, g, "barrage", { units = { bb }, target = ca })
  t.eq({ g:get(ca, "face"), g:get_marker(ca, "DG") }, { "damaged", 1 })
end)

-- tests/lua/ocs_odds_test.lua — `keel odds` answers the chapter's questions
-- exactly (scripts/ocs/odds.lua, the rules' own arithmetic): the barrage
-- results for a strength and a Protection Rating, and the ALT under its
-- named modifiers.
local t = require "keel.testing"

local function odds(args)
  local status, out = t.sh(t.keel_bin .. " odds " .. args)
  return status, out
end

t.test("18.3c-odds-1: keel odds ocs:barrage: 7 against Protection Rating 2 is 3 (rounded down): column 3-5, exact", function()
  local status, out = odds("ocs:barrage --ships 7 --protection 2")
  t.eq(status, 0, out)
  t.ok(out:find("strength 3.5 -> 3 -> column 3-5", 1, true), out)
  t.ok(out:find("-        58.3333%  21/36 = 7/12   no effect", 1, true), out)
  t.ok(out:find("DG       38.8889%  14/36 = 7/18   DG (18.3d C)", 1, true), out)
  t.ok(out:find("1         2.7778%  1/36   1 hit on the ship (18.3d A)", 1, true), out)
end)

t.test("18.3c-odds-2: planes x2 before the Protection Rating; the air-distance shift; a strength below the first column", function()
  local _, out = odds("ocs:barrage --planes 3 --protection 3 --shift -1")
  t.ok(out:find("strength 2 -> 2, shift -1 -> column 1-2", 1, true), out)
  _, out = odds("ocs:barrage --ships 1 --protection 2")
  t.ok(out:find("strength 0.5 -> 0", 1, true) and out:find("no effect, no roll", 1, true), out)
end)

t.test("18.3b-odds-1: ships against ground units are reduced, against a facility not", function()
  local _, out = odds("ocs:barrage --ships 12 --ground")
  t.ok(out:find("at ground units: strength 6 -> 6 -> column 6-9", 1, true), out)
  _, out = odds("ocs:barrage --ships 12 --facility")
  t.ok(out:find("at a facility: strength 12 -> 12 -> column 10+", 1, true), out)
  local status, err = odds("ocs:barrage --ships 12 --ground --protection 2")
  t.eq(status, 1)
  t.ok(err:find("--protection is for a naval target", 1, true), err)
end)

t.test("18.5f-odds-1: the ALT's odds under its named modifiers (the most difficult terrain, a port)", function()
  local status, out = odds("amphibious_landing_table --with close_terrain,friendly_port")
  local _
  t.eq(status, 0, out)
  t.ok(out:find("2d6, no modifier", 1, true), "close -1 and port +1 cancel: " .. out)
  _, out = odds("amphibious_landing_table --with mountain_terrain")
  t.ok(out:find("modifier -3", 1, true) and out:find("4 or less  L2       58.3333%  21/36 = 7/12", 1, true), out)
end)

t.test("18.3c-odds-bounds-1: a strength or shift of 2^63-1 is refused with the range named; no string.format error", function()
  local status, out = odds("ocs:barrage --ships 9223372036854775807")
  t.ok(status ~= 0 and out:find("--ships 9223372036854775807: out of range -1000000..1000000", 1, true), out)
  t.ok(not out:find("string.format", 1, true), out)
  status, out = odds("ocs:barrage --ships 10 --shift 9223372036854775807")
  t.ok(status ~= 0 and out:find("--shift 9223372036854775807: out of range -1000000..1000000", 1, true), out)
  status, out = odds("ocs:barrage --planes 1e308")
  t.ok(status ~= 0 and out:find("--planes 1e308: out of range", 1, true), out)
  -- a shift within the range but past the table clamps to its last column
  status, out = odds("ocs:barrage --ships 7 --shift 1000000")
  t.ok(status == 0 and out:find("-> column 10+", 1, true), out)
end)

-- tests/lua/index_test.lua — issue 28: the kernel's index of units and
-- groups by location and side, as keel.state, keel.game and the ctx.game
-- facade answer it (filter tables), against scans of every unit and group.
local t = require "keel.testing"
local keel = require "keel"
local scenario = require "keel.scenario"

local H1, H2 = keel.hex.from_qr(3, 4), keel.hex.from_qr(5, 6)

local function state()
  local st = keel.state.new()
  local a = st:unit_new("Littorio", "TF", "Axis")
  local b = st:unit_new("Trento", "TF", "Axis")
  local c = st:unit_new("Orion", "TF", "Allied")
  local d = st:unit_new("Afrika Korps", "PZ", "Axis")
  st:move(a, "hex", H1); st:move(b, "hex", H2); st:move(c, "port", H1); st:move(d, "hex", H1)
  local g1, g2 = st:group_new("Regia"), st:group_new("Escort")
  st:group_add(g1, b); st:group_add(g1, a); st:group_add(g2, c)
  return st, { a = a, b = b, c = c, d = d, g1 = g1, g2 = g2 }
end

t.test("28-index-units: unit_ids{...} answers by location, side and type in id order", function()
  local st, u = state()
  t.eq(st:unit_ids { at = H1 }, { u.a, u.c, u.d }, "at a hex: on the map there and in its port")
  t.eq(st:unit_ids { loc = "hex", at = H1 }, { u.a, u.d })
  t.eq(st:unit_ids { loc = "port", at = H1 }, { u.c })
  t.eq(st:unit_ids { loc = "hex" }, { u.a, u.b, u.d }, "every unit on the map")
  t.eq(st:unit_ids { side = "Axis", type = "TF" }, { u.a, u.b })
  t.eq(st:unit_ids { at = H1, side = "Allied" }, { u.c })
  t.eq(st:unit_ids { side = "Neutral" }, {}, "a side no unit has")
  t.eq(st:unit_ids { loc = "off" }, {})
  t.eq(st:units_at("hex", H1), { u.a, u.d })
  t.eq(st:unit_ids(), { 1, 2, 3, 4 })
end)

t.test("28-index-groups: group_ids{...} gives the groups at a hex, of a side", function()
  local st, u = state()
  t.eq(st:group_ids { at = H1 }, { u.g1, u.g2 })
  t.eq(st:group_ids { loc = "hex", at = H1 }, { u.g1 })
  t.eq(st:group_ids { side = "Allied" }, { u.g2 })
  t.eq(st:group_ids { loc = "hex" }, { u.g1 }, "one group, though two of its units are at sea")
  t.eq(st:groups_of(u.a), { u.g1 })
  st:eliminate(u.a)
  t.eq(st:groups_of(u.a), {})
  t.eq(st:group_ids { at = H1 }, { u.g2 })
  t.eq(st:unit_ids { loc = "dead" }, { u.a })
  t.eq(st:group_ids(), { 1, 2 })
end)

t.test("28-index-rollback: the index follows a rollback, an undo and a redo; the hash is unchanged", function()
  local st, u = state()
  local h = st:hash()
  local before = st:unit_ids { at = H1 }
  local m = st:begin()
  st:move(u.a, "hex", H2); st:set(u.c, "side", "Axis"); st:group_remove(u.g1, u.b)
  t.eq(st:unit_ids { at = H2 }, { u.a, u.b })
  t.eq(st:unit_ids { side = "Axis", loc = "port" }, { u.c })
  st:rollback(m)
  t.eq(st:unit_ids { at = H1 }, before)
  t.eq(st:unit_ids { side = "Axis", loc = "port" }, {})
  t.eq(st:group_ids { at = H2 }, { u.g1 })
  t.eq(st:hash(), h)
  t.eq(st:hash(), st:hash_full())
  st:action_begin("sail")
  local e = st:unit_new("Eugenio", "TF", "Axis")
  st:move(e, "hex", H2)
  st:group_add(u.g1, e)
  st:action_end()
  t.eq(st:unit_ids { at = H2, type = "TF" }, { u.b, e })
  st:undo(1)
  t.eq(st:unit_ids { at = H2 }, { u.b })
  t.eq(st:unit_ids { side = "Axis" }, { u.a, u.b, u.d })
  st:redo(1)
  t.eq(st:unit_ids { at = H2 }, { u.b, e })
  t.eq(st:group_ids { loc = "hex", at = H2 }, { u.g1 })
  t.eq(st:hash(), st:hash_full())
end)

t.test("28-index-errors: a misspelt or ill-typed filter is an error naming it", function()
  local st = state()
  t.raises(function() st:unit_ids { sid = "Axis" } end, "unknown filter field sid")
  t.raises(function() st:group_ids { side = 3 } end, "filter field 'side' must be a string")
  t.raises(function() st:unit_ids { loc = "sea" } end, "filter field loc")
  t.raises(function() st:unit_ids { loc = "off", at = 3 } end, "none for loc 'off'")
end)

t.test("28-index-game: game:units{...}, game:groups{...} and ctx.game answer from the index", function()
  local spec = scenario.load("scenarios/suez_1942.lua")
  local run = scenario.start(spec, {})
  local game = run.game
  local function scan(pred)
    local out = {}
    for _, id in ipairs(game:units()) do if pred(id) then out[#out + 1] = id end end
    return out
  end
  local regia_hex = select(2, game:get(game:group_units(run.groups.Regia)[1], "loc"))
  t.eq(game:units { at = regia_hex }, scan(function(id) return select(2, game:get(id, "loc")) == regia_hex end))
  t.eq(game:units { side = "Allied", loc = "port" },
    scan(function(id) return game:get(id, "side") == "Allied" and game:get(id, "loc") == "port" end))
  t.eq(game:groups { at = regia_hex }, { run.groups.Regia })
  t.eq(game:units(function(_, id) return game:get(id, "side") == "Axis" end),
    scan(function(id) return game:get(id, "side") == "Axis" end), "the function filter still works")
  local facade = run.set:facade(game)
  t.eq(facade:units { side = "Axis" }, game:units { side = "Axis" })
  t.eq(facade:groups { side = "Allied" }, game:groups { side = "Allied" })
  t.eq(#facade:groups(), #game:groups())
end)

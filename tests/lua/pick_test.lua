-- tests/lua/pick_test.lua — keel.pick (scripts/keel/pick.lua): a uniform draw
-- without replacement on the kernel's dice, its exact chance, and ctx:pick in
-- a rule (journaled with the rule's id).
local t = require "keel.testing"
local keel = require "keel"
local pick = require "keel.pick"
local rules = require "keel.rules"
local game_mod = require "keel.game"

-- a roll function that gives the queued faces and records the dice asked for
local function queued(faces)
  local asked = {}
  return function(sides)
    asked[#asked + 1] = sides
    return table.remove(faces, 1)
  end, asked
end

t.test("pick-1: one of n: a 1dn roll chooses the item at that place", function()
  for k = 1, 3 do
    local roll, asked = queued { k }
    local got, idx = pick.draw(roll, { "a", "b", "c" })
    t.eq({ got, idx, asked }, { { ({ "a", "b", "c" })[k] }, { k }, { 3 } })
  end
end)

t.test("pick-2: k of n draws over the items left: every ordered pair once over all faces", function()
  local seen, count = {}, 0
  for f1 = 1, 3 do
    for f2 = 1, 2 do
      local roll, asked = queued { f1, f2 }
      local got = pick.draw(roll, { "a", "b", "c" }, 2)
      t.eq(asked, { 3, 2 })
      t.ok(got[1] ~= got[2], "distinct")
      local key = got[1] .. got[2]
      t.ok(not seen[key], "each ordered pair once: " .. key)
      seen[key] = true
      count = count + 1
    end
  end
  t.eq(count, 6)
end)

t.test("pick-3: no roll for the last item left, none for count 0; bad arguments raise", function()
  local roll, asked = queued {}
  t.eq(pick.draw(roll, { "only" }), { "only" })
  t.eq(pick.draw(roll, { "a", "b" }, 0), {})
  t.eq(asked, {})
  local r2, asked2 = queued { 2 }
  t.eq(pick.draw(r2, { "a", "b" }, 2), { "b", "a" }, "the second draw has one item left: no roll")
  t.eq(asked2, { 2 })
  t.raises(function() pick.draw(roll, { "a" }, 2) end, "2 items asked of 1")
  t.raises(function() pick.draw(queued { 7 }, { "a", "b" }) end, "the roll gave 7, expected 1..2")
  t.raises(function() pick.draw(nil, {}) end, "a roll function expected")
end)

t.test("pick-4: the chance of an item is count/n, exact", function()
  t.eq(tostring(pick.chance(4, 2)), "1/2")
  t.eq(tostring(pick.chance(3)), "1/3")
  t.raises(function() pick.chance(2, 3) end, "count <= n")
end)

t.test("pick-5: ctx:pick in a rule rolls the game's dice with the rule's id and reason", function()
  local dir = t.tmpdir()
  os.execute("mkdir -p " .. dir .. "/picker")
  local f = assert(io.open(dir .. "/picker/manifest.lua", "w"))
  f:write('return family { name = "picker", files = { "p.lua" } }\n')
  f:close()
  f = assert(io.open(dir .. "/picker/p.lua", "w"))
  f:write([[
rule { id = "P.1", title = "Pick",
  actions = { choose = { params = { n = "integer" }, effect = function(ctx, p)
    local items = {}
    for i = 1, p.n do items[i] = "item" .. i end
    ctx.game:set_global("one", ctx:pick(items, { reason = "which item" }))
    local two = ctx:pick(items, { count = 2, reason = "two items" })
    for i, item in ipairs(two) do ctx.game:set_keyed("two", i, item) end
  end } } }
]])
  f:close()
  local set = rules.load { families = { "picker" }, path = { dir } }
  local g = game_mod.new { seed = 3 }
  g.dice:force(2, 3, 1)
  t.ok(set:act(g, "choose", { n = 3 }))
  t.eq(g:get_global("one"), "item2")
  t.eq({ g:get_keyed("two", 1), g:get_keyed("two", 2), g:count_keyed("two") }, { "item3", "item1", 2 })
  local text = g:journal_text()
  t.ok(text:find('"ev":"roll","rule":"P.1","reason":"which item"', 1, true), "journaled with the rule and reason")
  t.ok(text:find('"reason":"two items"', 1, true))
  os.execute("rm -rf " .. dir)
  t.ok(keel.version)
end)

-- tests/lua/legal_proven_test.lua — issue 28: while the legal actions are
-- listed, checks reuse what the domains worked out (ctx:cache: sail's
-- boxes per destination, move's paths, what a unit or craft may do). Each
-- candidate order the listing checks must get the answer set:check gives
-- it in a game that never listed: two runs of a showcase in step, the one
-- listing (its checks recorded), the other checking the same orders afresh.
local t = require "keel.testing"
local scenario = require "keel.scenario"

local function same_answers(file, every)
  local a = scenario.start(scenario.load(file), {})
  local b = scenario.start(scenario.load(file), {})
  local seen = {}
  local orig = a.set._check_action
  a.set._check_action = function(set, game, name, params, quiet)
    local why = orig(set, game, name, params, quiet)
    seen[#seen + 1] = { name = name, params = params, why = why }
    return why
  end
  local step, compared, refused, differ = 0, 0, 0, {}
  local function compare()
    step = step + 1
    local st = a.set:status(a.game)
    if st.over or (step - 1) % every ~= 0 then return end
    seen = {}
    a.set:legal_actions(a.game, st.active and st.active[1])
    for _, c in ipairs(seen) do
      local why = b.set:check(b.game, c.name, c.params)
      compared = compared + 1
      if why then refused = refused + 1 end
      if why ~= c.why and #differ < 5 then
        differ[#differ + 1] = ("step %d %s: listed %s, afresh %s"):format(step, c.name, tostring(c.why), tostring(why))
      end
    end
  end
  a:play_all(function(what, i, order)
    if what == "start" then compare() elseif what == "end" then b:play(i, order) end
  end)
  t.eq(a.game:hash_hex(), b.game:hash_hex(), "the two runs in step")
  t.eq(differ, {})
  return compared, refused
end

t.test("28-proven-1: ocs_salerno: every order the listing checks, the same answer checked afresh", function()
  local n, refused = same_answers("scenarios/ocs_salerno.lua", 1)
  t.ok(n > 10000 and refused > 1000, ("%d compared, %d refused"):format(n, refused))
end)

t.test("28-proven-2: seabox showcases: every order the listing checks, the same answer checked afresh", function()
  local n, refused = same_answers("scenarios/seabox_bombing.lua", 1)
  t.ok(n > 1000 and refused > 10, ("%d compared, %d refused"):format(n, refused))
  n, refused = same_answers("scenarios/seabox_crete_1941.lua", 4)
  t.ok(n > 5000 and refused > 10, ("%d compared, %d refused"):format(n, refused))
end)

t.test("28-proven-3: seazone_trident: every order the listing checks, the same answer checked afresh", function()
  local n, refused = same_answers("scenarios/seazone_trident.lua", 1)
  t.ok(n > 1000 and refused > 100, ("%d compared, %d refused"):format(n, refused))
end)

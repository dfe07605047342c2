-- bench/actions_bench.lua — legal actions (issue 28): what a front-end or a
-- bot asks before every order. Each figure beside the one recorded on main
-- before the work (EARLIER, same method, this machine) as a ratio, with the
-- issue's targets:
--   * every showcase (scenarios/*.lua): set:legal_actions for the active side
--     at the start of every order of its scripted game and at its end — the
--     median and the worst step (ms; each step the best of REPS listings:
--     the machine is shared, and noise only adds time), and whether any
--     action came back truncated (unchecked); target median <= 1 ms, worst
--     <= 5 ms, none truncated;
--   * suez_1942 with 10,000 extra groups parked out of play (one unit each,
--     off the map, both sides): its game played, and its listings, within
--     1.2x of plain suez;
--   * 300 groups on the moving side (reserve groups in port: no order of
--     theirs is legal in their own turn) against 10: the listing within 2x;
--   * the whole showcase game with a shared rule set <= 3 ms, its journal
--     byte-identical to tests/golden/suez_1942.jsonl.
-- Run: bin/keel script bench/actions_bench.lua (make bench runs it).
-- perf_other (the ocs, seabox and seazone families) runs it too.
package.path = "bench/?.lua;" .. package.path
local lib = require "lib"
local scenario = require "keel.scenario"

local fmt, min = string.format, math.min
local REPS = 3
io.stdout:setvbuf("line")
-- the sections to run (all when none is named): showcases parked crowd game
local ONLY = {}
for _, a in ipairs(arg or {}) do ONLY[a] = true end
local function section(name) return next(ONLY) == nil or ONLY[name] end

-- Figures on main before the work (commit 8615d5e, this bench's method:
-- CPU seconds, each step the best of 3 listings), for the ratios.
local EARLIER_COMMIT = "main at 8615d5e"
local EARLIER = {
  ["scenarios/ocs_salerno.lua"] = { median = 44.23e-3, worst = 97.85e-3 },
  ["scenarios/salerno_1943.lua"] = { median = 2.25e-3, worst = 68.30e-3 },
  ["scenarios/seabox_bombing.lua"] = { median = 0.74e-3, worst = 92.06e-3 },
  ["scenarios/seabox_crete_1941.lua"] = { median = 186.60e-3, worst = 652.85e-3 },
  ["scenarios/seabox_house_rules.lua"] = { median = 0.26e-3, worst = 1.23e-3 },
  ["scenarios/seazone_trident.lua"] = { median = 1.39e-3, worst = 10.32e-3 },
  ["scenarios/suez_1942.lua"] = { median = 2.12e-3, worst = 119.95e-3 },
  -- suez with 10,000 parked groups: the game, the first step's listing (on
  -- main all 44 listings took minutes: the first is the figure kept); plain suez's
  parked = { game = 837.70e-3, first = 149.17e-3 },
  plain = { game = 5.53e-3, first = 2.01e-3 },
  crowd10 = 73.49e-3, crowd300 = 619.90e-3,   -- one listing, 10 and 300 extra groups on the moving side (300: 3 truncated)
  game = 6.17e-3,                              -- the showcase game, shared rule set (this run; noisy machine)
}

local TARGET = { median = 1e-3, worst = 5e-3, parked = 1.2, crowd = 2.0, game = 3e-3 }

local function ms(s) return s and fmt("%.2f ms", s * 1e3) or "?" end
local function ratio(now, before) return before and fmt("%.2fx", before / now) or "n/a" end
local function verdict(ok) return ok and "met" or "not met" end

-- The showcases: every scenarios/*.lua (folders are not showcases).
local function showcases()
  local out = {}
  local p = assert(io.popen("ls scenarios/*.lua 2>/dev/null"))
  for l in p:lines() do out[#out + 1] = l end
  p:close()
  table.sort(out)
  return out
end

-- One listing for the active side (nil when the game is over): seconds (the
-- best of REPS), the number of truncated actions.
local function listing(run, reps)
  local st = run.set:status(run.game)
  if st.over then return nil end
  local side = st.active and st.active[1]
  local best, truncated = math.huge, 0
  for rep = 1, reps or REPS do
    local t0 = os.clock()
    local acts = run.set:legal_actions(run.game, side)
    best = min(best, os.clock() - t0)
    if rep == 1 then
      for _, a in ipairs(acts) do if a.truncated then truncated = truncated + 1 end end
    end
  end
  return best, truncated
end

-- The listings of a scripted game at every step: median, worst, sum, steps,
-- truncated actions. prepare(run), when given, runs before the first order.
local function steps_of(spec, set, prepare, reps)
  local run = scenario.start(spec, { set = set })
  if prepare then prepare(run) end
  local times, truncated = {}, 0
  local function measure()
    local t, tr = listing(run, reps)
    if t then times[#times + 1] = t; truncated = truncated + tr end
  end
  run:play_all(function(what) if what == "start" then measure() end end)
  measure()
  table.sort(times)
  local sum = 0
  for _, t in ipairs(times) do sum = sum + t end
  return { median = times[(#times + 1) // 2], worst = times[#times], sum = sum, steps = #times,
           truncated = truncated }
end

-- ---- every showcase ---------------------------------------------------------------

if section("showcases") then
print(fmt("legal actions per step (set:legal_actions for the active side; best of %d per step), "
  .. "beside %s:", REPS, EARLIER_COMMIT))
local all_met = true
for _, file in ipairs(showcases()) do
  local spec = scenario.load(file)
  local r = steps_of(spec, scenario.rule_set(spec))
  local e = EARLIER[file] or {}
  local ok = r.median <= TARGET.median and r.worst <= TARGET.worst and r.truncated == 0
  all_met = all_met and ok
  print(fmt("%-34s %3d steps  median %9s (earlier %9s, %7s)  worst %9s (earlier %9s, %7s)  truncated %d  "
    .. "target median <= 1 ms, worst <= 5 ms: %s", file, r.steps, ms(r.median), ms(e.median), ratio(r.median, e.median),
    ms(r.worst), ms(e.worst), ratio(r.worst, e.worst), r.truncated, verdict(ok)))
end
print(fmt("  every showcase: %s", verdict(all_met)))
end

-- ---- the far away: 10,000 groups parked out of play ------------------------------------

local SUEZ = "scenarios/suez_1942.lua"
local spec = scenario.load(SUEZ)
local set = scenario.rule_set(spec)

local function park(n)
  return function(run)
    local game = run.game
    for i = 1, n do
      local u = game:unit_new { name = "Parked " .. i, type = "TF", side = i % 2 == 0 and "Axis" or "Allied" }
      game:group_new { name = "Parked " .. i, units = { u } }
    end
  end
end

-- the game alone (no listing), prepared: CPU seconds, the best of three
local function game_time(prepare)
  local best = math.huge
  for _ = 1, 3 do
    local run = scenario.start(spec, { set = set })
    if prepare then prepare(run) end
    collectgarbage("collect")
    local t0 = os.clock()
    local _, failed = run:play_all()
    best = min(best, os.clock() - t0)
    assert(failed == 0, "the showcase's expectations failed")
  end
  return best
end

local function first_listing(prepare)
  local run = scenario.start(spec, { set = set })
  if prepare then prepare(run) end
  return listing(run)
end

if section("parked") then
  local plain_game, parked_game = game_time(), game_time(park(10000))
  print(fmt("suez_1942 with 10,000 groups parked out of play (off the map), beside plain suez_1942:"))
  print(fmt("  the game played: %s, plain %s: %.2fx (earlier %s, plain %s); target within %.1fx: %s",
    ms(parked_game), ms(plain_game), parked_game / plain_game, ms(EARLIER.parked.game), ms(EARLIER.plain.game),
    TARGET.parked, verdict(parked_game <= TARGET.parked * plain_game)))
  local pf, ff = first_listing(park(10000)), first_listing()
  print(fmt("  the first step's listing: %s, plain %s: %.2fx (earlier %s, plain %s)", ms(pf), ms(ff), pf / ff,
    ms(EARLIER.parked.first), ms(EARLIER.plain.first)))
  if not ONLY.quick then
    local plain, parked = steps_of(spec, set, nil, 1), steps_of(spec, set, park(10000), 1)
    print(fmt("  its listings, summed over %d steps: %s, plain %s: %.2fx; worst %s, plain %s; target within %.1fx: %s",
      parked.steps, ms(parked.sum), ms(plain.sum), parked.sum / plain.sum, ms(parked.worst), ms(plain.worst),
      TARGET.parked, verdict(parked.sum <= TARGET.parked * plain.sum)))
  end
end

-- ---- many groups on the moving side ----------------------------------------------------

-- suez_1942 at its first Axis naval step (before order 3) with n more Axis
-- groups, reserve groups in the board's first Axis port
local function crowd(n)
  local run = scenario.start(spec, { set = set })
  for i = 1, 2 do run:play(i, spec.orders[i]) end
  local game = run.game
  local port
  for _, x in ipairs(game.board:ports()) do
    if game:get_owner(x.hex) == "Axis" then port = x.hex; break end
  end
  assert(port, "suez_1942: no Axis port")
  for i = 1, n do
    local u = game:unit_new { name = "Crowd " .. i, type = "TF", side = "Axis", at = { "port", port } }
    game:group_new { name = "Crowd " .. i, units = { u }, reserve = true, in_port = true }
  end
  local t, truncated = listing(run)
  return t, truncated
end

if section("crowd") then
local c10, tr10 = crowd(10)
local c300, tr300 = crowd(300)
print(fmt("suez_1942's first Axis naval step with 300 more Axis groups beside 10 (reserve, in port): "
  .. "%s vs %s: %.2fx (earlier %s vs %s); truncated %d/%d; target within %.1fx: %s", ms(c300), ms(c10), c300 / c10,
  ms(EARLIER.crowd300), ms(EARLIER.crowd10), tr300, tr10, TARGET.crowd, verdict(c300 <= TARGET.crowd * c10)))
end

-- ---- the whole game --------------------------------------------------------------------

if section("game") then
  local run = scenario.start(spec, { set = set })
  run:play_all()
  local f = assert(io.open("tests/golden/suez_1942.jsonl", "rb"))
  local golden = f:read("a")
  f:close()
  local same = run.game:journal_text() == golden
  local t = math.huge
  for _ = 1, 3 do
    collectgarbage("collect")
    t = min(t, lib.time(function(n)
      for _ = 1, n do scenario.start(spec, { set = set }):play_all() end
    end, 0.3))
  end
  print(fmt("the showcase game (suez_1942), shared rule set: %s (earlier %s, %s); target <= 3 ms: %s; "
    .. "its journal byte-identical to tests/golden/suez_1942.jsonl: %s", ms(t), ms(EARLIER.game), ratio(t, EARLIER.game),
    verdict(t <= TARGET.game), same and "yes" or "NO"))
end

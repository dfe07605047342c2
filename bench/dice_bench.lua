-- bench/dice_bench.lua — the kernel's dice and tables, each beside a
-- reference measured in the same run:
--   * rolls per second through the Lua API (d:roll, with its record) vs a
--     pure-Lua xoshiro256** with the same unbiased ranges (no record), and
--     vs Lua's own math.random (a benchmark reference only: rules never see
--     math.random);
--   * bulk Monte Carlo in C (d:histogram) vs the pure-Lua generator;
--   * table lookups (Naval Search Table, keel.tables) vs a hand-written
--     if-chain;
--   * exact odds of a 2d6 table under a distribution of modifiers vs a
--     Monte Carlo estimate of 100,000 rolls.
local lib = require "bench.lib"
local keel = require "keel"
local odds = require "keel.odds"
local nt = require("keel.testing").family_tables("navgroup")

-- ---- pure-Lua xoshiro256** (the reference) -------------------------------------
local ult = math.ult
local function rotl(x, k) return (x << k) | (x >> (64 - k)) end
local function xoshiro(s0, s1, s2, s3)
  return function()
    local result = rotl(s1 * 5, 7) * 9
    local t = s1 << 17
    s2 = s2 ~ s0; s3 = s3 ~ s1; s1 = s1 ~ s2; s0 = s0 ~ s3
    s2 = s2 ~ t; s3 = rotl(s3, 45)
    return result
  end
end
local function urem(x, n)   -- x mod n, x read as unsigned
  if x >= 0 then return x % n end
  local q = ((x >> 1) // n) << 1
  local r = x - q * n
  while not ult(r, n) do r = r - n end
  return r
end
local function below(next_, n)   -- unbiased 0..n-1 by rejection, as keel_rng_below
  local threshold = urem(-n, n)
  while true do
    local x = next_()
    if not ult(x, threshold) then return urem(x, n) end
  end
end
do   -- the reference is right: the published vector from state {1,2,3,4}
  local g = xoshiro(1, 2, 3, 4)
  assert(g() == 11520 and g() == 0 and g() == 1509978240 and g() == 1215971899390074240)
end

local d = keel.dice.new(1)
local lua_gen = xoshiro(0x0123456789abcdef, 0x1111, 0x2222, 0x3333)

local keel_roll = lib.time(function(n)
  for _ = 1, n do d:roll("2d6", { stream = "bench" }) end
end)
local lua_roll = lib.time(function(n)
  for _ = 1, n do local _ = below(lua_gen, 6) + below(lua_gen, 6) + 2 end
end)
local mr = math.random   -- reference only (not reachable from rules)
local mr_roll = lib.time(function(n)
  for _ = 1, n do local _ = mr(1, 6) + mr(1, 6) end
end)
lib.compare("2d6 roll via d:roll (with record)", keel_roll, "pure-Lua xoshiro256**", lua_roll)
lib.compare("2d6 roll via d:roll (with record)", keel_roll, "math.random", mr_roll)
print(("  keel: %.2f M rolls/s through the Lua API"):format(1e-6 / keel_roll))

local keel_range = lib.time(function(n)
  for _ = 1, n do d:range(27) end
end)
lib.compare("range(27) via d:range", keel_range, "pure-Lua xoshiro256**",
  lib.time(function(n) for _ = 1, n do local _ = below(lua_gen, 27) + 1 end end))

local keel_bulk = lib.time(function(n) d:histogram("2d6", n * 1000) end) / 1000
lib.compare("2d6 roll in bulk (d:histogram, per roll)", keel_bulk, "pure-Lua xoshiro256**", lua_roll)
print(("  keel: %.1f M rolls/s in bulk"):format(1e-6 / keel_bulk))

-- ---- table lookups ----------------------------------------------------------------
local search = nt.naval_search
local function if_chain(v)
  if v <= 3 then return "D" elseif v <= 6 then return "F*" elseif v <= 10 then return "F"
  elseif v <= 13 then return "S" else return "S*" end
end
local keel_lookup = lib.time(function(n)
  for i = 1, n do search:lookup(i % 16) end
end)
lib.compare("Naval Search lookup (keel.tables)", keel_lookup, "hand-written if-chain",
  lib.time(function(n) for i = 1, n do if_chain(i % 16) end end))
local ctx = { cargo_group = true, stormy_seas = true, port_size = 2 }
local keel_resolve = lib.time(function(n)
  for _ = 1, n do search:resolve(d, ctx, { stream = "bench" }) end
end)
lib.compare("Naval Search resolve (21 modifiers, roll)", keel_resolve, "if-chain + math.random",
  lib.time(function(n)
    for _ = 1, n do if_chain(mr(1, 6) + mr(1, 6) + 2) end
  end))
print(("  keel: %.0f k resolutions/s"):format(1e-3 / keel_resolve))

-- ---- exact odds vs Monte Carlo ---------------------------------------------------------
local dist = { [-2] = 1, [-1] = 2, [0] = 3, [1] = 2, [2] = 1 }
local exact = lib.time(function(n)
  for _ = 1, n do odds.table(search, dist) end
end)
local mc_estimate
local mc = lib.time(function(n)
  for _ = 1, n do
    local counts = {}
    for m, w in pairs(dist) do
      local h = d:histogram("2d6", 100000 * w // 9)
      for total, c in pairs(h) do
        local _, row = search:lookup(total + m)
        counts[row.index] = (counts[row.index] or 0) + c
      end
    end
    mc_estimate = counts
  end
end)
assert(#mc_estimate >= 4)
lib.compare("2d6 table odds, 5 modifier totals", exact, "Monte Carlo 100k rolls (C)", mc)
print(("  exact odds: %s per table; the Monte Carlo estimate is still +-0.3%%"):format(lib.fmt_time(exact)))

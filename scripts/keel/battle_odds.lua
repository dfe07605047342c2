--- keel.battle_odds — the exact outcome distribution of a naval battle of the
-- General Combat shape, for a rule family whose rule set describes its battle
-- (the query `battle_model`) and owns its casualty policies (the queries
-- `casualty_ranks` and `casualty_policy_problem`). Not a Monte Carlo
-- estimate: a dynamic program over battle states, each step's transitions
-- built from the per-step hit distributions (one die per firing unit, hitting
-- on its value or less).
--
--   local battle_odds = require "keel.battle_odds"
--   local odds = battle_odds.open { families = { "seazone" } }   -- or battle_odds.for_set(set)
--   local r = odds.battle { attacker = "2 submarine, cruiser", defender = "carrier[fighter,fighter], frigate",
--                           attacker_side = "Opfor", defender_side = "Allies",
--                           attacker_policy = "cheapest", defender_policy = "keep_carriers" }
--   r.p["attacker wins"], r.p["defender holds"], r.outcomes[1], r.losses.attacker.cost
--
-- The shape (doc/architecture.md, "Exact battle odds"): a round is a
-- first-strike step for each side whose first strikers face no enemy
-- detector (casualties removed at once; a side wiped out ends the battle),
-- then both sides fire at once (the casualties of one still fire back), then
-- the end of the round: one side gone, neither able to hit the other, or the
-- attacker's declared retreat. A first striker's hits never go to air units;
-- air units' hits go to first strikers only with a detector of theirs in the
-- battle; a capital ship (2 hits) is damaged by its first hit; a defending
-- undamaged ship marked `air_defense` launches its aircraft (they fight on
-- their own), other cargo is lost with its ship. Each side assigns as many
-- hits as can be assigned, taking casualties in the order the family's
-- casualty ranks give (the rule set's own policies), each hit to the first
-- unit in that order that may take one while the rest can still all be
-- assigned. Probabilities are doubles, exact up to rounding.
--
-- The model (plain data, the family's query `battle_model`):
--   units = { [type] = { attack=, defense=, hits=, cost = {[side]=}, air=, first_strike=,
--                        detector=, submerges=, air_defense= } },
--   aliases = { [word] = type }, policies = { "name", ... }, sides = { side, side },
--   hits = { [question] = { option=, only=, title=, summary=, usage=, flag=,
--                           values = { [type] = "attack" | n | {rule=, value=} } } }
-- How the dynamic program runs, and why it is fast: doc/architecture.md.
local kodds = require "keel.odds"
local dice_expr = require "keel.dice_expr"
local sorted_keys = require("keel.keys").sorted

local M = {}

-- The bounds of exact odds: every input is answered or refused, within
-- seconds, before the work or the memory grows with it.
M.MAX_UNITS = 100           -- units of one force (cargo counted), for a battle or a hit question
M.MAX_WORK = 20000000       -- battle positions and transitions one battle may weigh (a few seconds)

M.RESULTS = { "attacker wins", "defender holds", "both destroyed", "no side can hit the other", "attacker retreats" }
local WINS, HOLDS, BOTH, NOHIT, RETREAT = 1, 2, 3, 4, 5

local type, ipairs, pairs, tostring, error, tointeger = type, ipairs, pairs, tostring, error, math.tointeger
local concat, sort = table.concat, table.sort

-- ---- forces --------------------------------------------------------------------------------------

local function type_of(model, word)
  local w = word:lower()
  w = model.aliases[w] or w
  if model.units[w] then return w end
  local singular = w:gsub("s$", "")
  if model.units[singular] then return singular end
  return nil
end

--- A force from text: "2 submarine, cruiser*, carrier[fighter,fighter], destroyer" (a `*`
--- marks a damaged capital ship; brackets list what a ship carries), or a list of
--- {type=, damaged=, cargo={...}, n=}. Returns the list, or nil and why.
---@param model table
---@param spec string|table
---@return table|nil force, string? why
function M.parse_force(model, spec)
  if type(spec) == "table" then
    local units = 0
    for i, item in ipairs(spec) do
      local n = item.n or 1
      if math.type(n) ~= "integer" or n < 0 or n > M.MAX_UNITS then
        return nil, ("item %d: %s units, not a count 0..%d (the limit of exact odds)"):format(i, tostring(n), M.MAX_UNITS)
      end
      units = units + n * (1 + #(item.cargo or {}))
      if units > M.MAX_UNITS then
        return nil, ("a force of more than %d units (cargo counted): the limit of exact odds"):format(M.MAX_UNITS)
      end
    end
    return spec
  end
  if type(spec) ~= "string" then return nil, "a force is a text or a list of units" end
  local items, depth, cur = {}, 0, {}
  for ch in spec:gmatch(".") do
    if ch == "[" then depth = depth + 1 elseif ch == "]" then depth = depth - 1 end
    if ch == "," and depth == 0 then items[#items + 1] = concat(cur); cur = {}
    else cur[#cur + 1] = ch end
  end
  items[#items + 1] = concat(cur)
  local out, units = {}, 0
  for _, item in ipairs(items) do
    if item:match("%S") then
      local n, word, star, rest = item:match("^%s*(%d*)%s*x?%s*([%a_]+)%s*(%*?)%s*(.-)%s*$")
      if not word then return nil, ("cannot read '%s' (as in: 2 destroyer, cruiser*, carrier[fighter])"):format(item) end
      local t = type_of(model, word)
      if not t then return nil, ("no unit type '%s'"):format(word) end
      local cargo = {}
      if rest ~= "" then
        local inside = rest:match("^%[(.*)%]$")
        if not inside then return nil, ("cannot read '%s' after %s"):format(rest, word) end
        for c in inside:gmatch("[^,%s]+") do
          local ct = type_of(model, c)
          if not ct then return nil, ("no unit type '%s'"):format(c) end
          cargo[#cargo + 1] = ct
        end
      end
      if star == "*" and model.units[t].hits < 2 then return nil, ("%s is not a capital ship: it cannot be damaged"):format(t) end
      -- the count is read as digits: compared before it is a number, it cannot wrap
      local count = n ~= "" and n:gsub("^0+(%d)", "%1") or "1"
      if #count > 9 or tonumber(count) > M.MAX_UNITS then
        return nil, ("'%s': %s units, more than the %d of one force exact odds take"):format(item:match("^%s*(.-)%s*$"),
          count, M.MAX_UNITS)
      end
      units = units + tonumber(count) * (1 + #cargo)
      if units > M.MAX_UNITS then
        return nil, ("a force of more than %d units (cargo counted): the limit of exact odds"):format(M.MAX_UNITS)
      end
      out[#out + 1] = { type = t, damaged = star == "*", cargo = cargo, n = tointeger(tonumber(count)) }
    end
  end
  if #out == 0 then return nil, "an empty force" end
  return out
end

-- ---- classes of units: what the battle state counts -------------------------------------------

local function class_key(t, damaged, cargo, submerged)
  local c = {}
  for i, x in ipairs(cargo) do c[i] = x end
  sort(c)
  return t .. (damaged and "*" or "") .. (#c > 0 and ("[" .. concat(c, ",") .. "]") or "") .. (submerged and "~" or "")
end

-- hit kinds: 1 may not go to air units (a first striker's), 2 may not go to first
-- strikers (air units' without a detector of theirs), 3 may go to any unit
local KIND_SUB, KIND_AIR, KIND_SEA = 1, 2, 3

-- the units of one side as battle classes, the initial counts
local function build_side(model, force, role, side)
  local units = model.units
  local S = { role = role, side = side, classes = {}, by_key = {}, init = {} }
  local function add_class(t, damaged, cargo, submerged)
    local key = class_key(t, damaged, cargo, submerged)
    local c = S.by_key[key]
    if c then return c end
    local d = units[t]
    local cost, n = d.cost[side] or 0, 1
    for _, x in ipairs(cargo) do cost = cost + (units[x].cost[side] or 0); n = n + 1 end
    c = { key = key, type = t, damaged = damaged, cargo = cargo, submerged = submerged, index = #S.classes + 1,
          capital = d.hits >= 2, kind = d.first_strike and "sub" or (d.air and "air" or "sea"),
          detector = d.detector == true, submerges = d.submerges == true,
          value = role == "attacker" and d.attack or d.defense, cost = cost, units = n }
    c.k = c.kind == "sub" and KIND_SUB or (c.kind == "air" and KIND_AIR or KIND_SEA)
    c.cap = (c.capital and not damaged) and 2 or 1
    S.classes[c.index] = c
    S.by_key[key] = c
    return c
  end
  for _, item in ipairs(force) do
    for _ = 1, item.n or 1 do
      local cargo = item.cargo or {}
      local d = units[item.type]
      if not d then error("no unit type " .. tostring(item.type), 3) end
      if role == "defender" and d.air_defense and not item.damaged then
        -- an undamaged defending ship's aircraft defend in the air (air defense)
        local c = add_class(item.type, false, {}, false)
        S.init[c.index] = (S.init[c.index] or 0) + 1
        for _, p in ipairs(cargo) do
          local a = add_class(p, false, {}, false)
          S.init[a.index] = (S.init[a.index] or 0) + 1
        end
      else
        local c = add_class(item.type, item.damaged == true, cargo, false)
        S.init[c.index] = (S.init[c.index] or 0) + 1
      end
    end
  end
  -- the classes a class can become: damaged (capital ships), submerged
  local n = #S.classes
  for i = 1, n do
    local c = S.classes[i]
    if c.capital and not c.damaged then c.to_damaged = add_class(c.type, true, c.cargo, false).index end
    if c.submerges then c.to_submerged = add_class(c.type, c.damaged, c.cargo, true).index end
  end
  for i = 1, #S.classes do S.init[i] = S.init[i] or 0 end
  -- radices: a class never holds more units than start in it or can flow into it
  local most = {}
  for i = 1, #S.classes do most[i] = S.init[i] end
  for i, c in ipairs(S.classes) do   -- derived classes come after their sources
    if c.to_damaged then most[c.to_damaged] = most[c.to_damaged] + most[i] end
    if c.to_submerged then most[c.to_submerged] = most[c.to_submerged] + most[i] end
  end
  S.radix, S.mult = {}, {}
  local m = 1
  for i = 1, #S.classes do
    S.radix[i] = most[i] + 1
    S.mult[i] = m
    if m * 1.0 * (most[i] + 1) > 2.0 ^ 30 then
      error("battle odds: too many kinds of units on one side for the state encoding", 3)
    end
    m = m * (most[i] + 1)
  end
  S.size = m
  S.infos = {}      -- encoded state -> its facts (info_of)
  S.assigned = {}   -- encoded state -> {[hits key] = state after}
  S.caps = {}       -- encoded state -> {counts, capacities by kind} (caps_of)
  S.effects = {}    -- encoded state -> {[fire id] = outcome list} (effect)
  S.still = {}      -- encoded state -> the outcome list of no fire
  return S
end

local function encode(S, counts)
  local x = 0
  for i = 1, #S.classes do x = x + counts[i] * S.mult[i] end
  return x
end

local function decode(S, x)
  local counts = {}
  for i = 1, #S.classes do counts[i] = (x // S.mult[i]) % S.radix[i] end
  return counts
end

-- ---- casualty order: the family's ranks, by class ----------------------------------------------

-- each class's place in the casualty order: smaller first (rank, damaged first, cargo, key),
-- from the ranks the rule set gives for the side's types (its query casualty_ranks)
local function set_preference(S, ranks, policy)
  local soak, loss = ranks.soak or {}, ranks.loss or {}
  local INF = math.maxinteger
  local keyed = {}
  for i, c in ipairs(S.classes) do
    local rank = loss[c.type] or INF
    if c.capital and not c.damaged and soak[c.type] and soak[c.type] < rank then rank = soak[c.type] end
    keyed[i] = { c = c, rank = rank }
  end
  sort(keyed, function(a, b)
    if a.rank ~= b.rank then return a.rank < b.rank end
    if a.c.damaged ~= b.c.damaged then return a.c.damaged end
    if #a.c.cargo ~= #b.c.cargo then return #a.c.cargo < #b.c.cargo end
    return a.c.key < b.c.key
  end)
  S.pref = {}
  for _, k in ipairs(keyed) do
    if not k.c.submerged then S.pref[#S.pref + 1] = k.c.index end
  end
  S.list = ranks.list or {}
  S.submerge = type(policy) == "table" and policy.submerge or nil
end

-- ---- one side's state: its facts, computed once per state ----------------------------------------

-- presence bits of a side's units in battle (what the other side's fire may find)
local HAS_NONAIR, HAS_NONSUB, HAS_SUB = 1, 2, 4

-- the submarines-submerge policy applied to counts (at a first-strike step)
local function submerge(S, counts)
  if not S.submerge then return counts end
  if S.submerge == "alone" then
    for i, c in ipairs(S.classes) do
      if counts[i] > 0 and not c.submerged and c.kind ~= "sub" then return counts end
    end
  end
  local out = {}
  for i = 1, #counts do out[i] = counts[i] end
  for i, c in ipairs(S.classes) do
    if c.to_submerged and out[i] > 0 then
      out[c.to_submerged] = out[c.to_submerged] + out[i]
      out[i] = 0
    end
  end
  return out
end

-- what a state says, once: units in battle, hit capacity left (the potential every
-- change lowers), presence bits, the bits of the presence it can hit (its threat),
-- whether a detector of its is in battle, its state after submerging, its counts
local function info_of(S, x)
  local info = S.infos[x]
  if info then return info end
  local counts = decode(S, x)
  local inb, pot, pres, frig = 0, 0, 0, false
  local has_sub_unit, has_air_firing, has_sea_firing = false, false, false
  for i, c in ipairs(S.classes) do
    local n = counts[i]
    if n > 0 and not c.submerged then
      inb = inb + n
      pot = pot + n * c.cap
      if c.kind ~= "air" then pres = pres | HAS_NONAIR end
      if c.kind ~= "sub" then pres = pres | HAS_NONSUB end
      if c.kind == "sub" then pres = pres | HAS_SUB; has_sub_unit = true
      elseif c.value > 0 then
        if c.kind == "air" then has_air_firing = true else has_sea_firing = true end
      end
      if c.detector then frig = true end
    end
  end
  -- can this side hit the other? first strikers hit non-air units; air units hit non-first
  -- strikers (first strikers too with a detector); the others hit anything
  local threat = 0
  if has_sub_unit then threat = threat | HAS_NONAIR end
  if has_air_firing then threat = threat | HAS_NONSUB | (frig and HAS_SUB or 0) end
  if has_sea_firing then threat = threat | HAS_NONAIR | HAS_NONSUB end
  info = { inb = inb, pot = pot, pres = pres, threat = threat, frig = frig, counts = counts }
  local sc = submerge(S, counts)
  info.sub = sc == counts and x or encode(S, sc)
  S.infos[x] = info
  return info
end

-- ---- casualties ----------------------------------------------------------------------------------

-- max hits assignable: hits h1 (no air), h2 (no first strikers), h3 (any), on hit
-- capacities csub (first strikers), cair (air units), csea (the others)
local function maxmatch(csub, cair, csea, h1, h2, h3)
  local a1 = h1 < csub and h1 or csub
  local a2 = h2 < cair and h2 or cair
  local r = csea
  local b1 = h1 - a1 < r and h1 - a1 or r
  r = r - b1
  local b2 = h2 - a2 < r and h2 - a2 or r
  r = r - b2
  local free = r + (csub - a1) + (cair - a2)
  local c3 = h3 < free and h3 or free
  return a1 + a2 + b1 + b2 + c3
end

-- may a hit of kind `kind` go to a unit of kind `k`?
local ELIGIBLE = { [1] = { true, false, true }, [2] = { false, true, true }, [3] = { true, true, true } }

-- a state's counts and hit capacities by unit kind {counts, first strikers, air, others}; cached
local function caps_of(S, x)
  local e = S.caps[x]
  if e then return e end
  local counts = decode(S, x)
  local c1, c2, c3 = 0, 0, 0
  for i, c in ipairs(S.classes) do
    if not c.submerged then
      local k, n = c.k, counts[i] * c.cap
      if k == KIND_SUB then c1 = c1 + n elseif k == KIND_AIR then c2 = c2 + n else c3 = c3 + n end
    end
  end
  e = { counts, c1, c2, c3 }
  S.caps[x] = e
  return e
end

-- the side's state after taking hits (h1, h2, h3) by its casualty order. Each hit goes to
-- the first class in the order that may take one while the most hits that can be assigned
-- still are; a hit lowers its class's kind's capacity by one (a capital ship's first hit
-- damages it, any other removes the unit). That choice depends only on the state and the
-- hits left, so a state and hits lead where the state after one hit and the hits left
-- lead: each (state, hits) is worked out once, the chain remembered whole.
local function assign(S, x, h1, h2, h3)
  local memo = S.assigned[x]
  if not memo then memo = {}; S.assigned[x] = memo end
  local key = (h1 << 20) | (h2 << 10) | h3
  local hit = memo[key]
  if hit then return hit end
  local classes, pref, mult, assigned = S.classes, S.pref, S.mult, S.assigned
  local memos, keys, n = {}, {}, 0
  local h = { h1, h2, h3 }
  local cap = { 0, 0, 0 }
  local y = x
  while true do
    n = n + 1
    memos[n], keys[n] = memo, key
    local e = caps_of(S, y)
    local counts = e[1]
    cap[1], cap[2], cap[3] = e[2], e[3], e[4]
    local m = maxmatch(cap[1], cap[2], cap[3], h[1], h[2], h[3])
    if m == 0 then break end
    local to
    for _, ci in ipairs(pref) do
      if counts[ci] > 0 then
        local c = classes[ci]
        local k = c.k
        local el = ELIGIBLE[k]
        for kind = 1, 3 do
          if h[kind] > 0 and el[kind] then
            h[kind] = h[kind] - 1
            cap[k] = cap[k] - 1
            if maxmatch(cap[1], cap[2], cap[3], h[1], h[2], h[3]) == m - 1 then
              to = y - mult[ci] + (c.to_damaged and mult[c.to_damaged] or 0)
              break
            end
            cap[k] = cap[k] + 1
            h[kind] = h[kind] + 1
          end
        end
      end
      if to then break end
    end
    if not to then break end
    y = to
    memo = assigned[y]
    if not memo then memo = {}; assigned[y] = memo end
    key = (h[1] << 20) | (h[2] << 10) | h[3]
    local known = memo[key]
    if known then y = known break end
  end
  for i = 1, n do
    local mt = memos[i]
    mt[keys[i]] = y
  end
  return y
end

-- ---- hit distributions ---------------------------------------------------------------------------

-- P(k hits) for dice hitting with probabilities ps (Poisson binomial)
local function poisson_binomial(ps)
  local d = { [0] = 1.0 }
  for i, p in ipairs(ps) do
    local nd = {}
    for k = 0, i do nd[k] = (d[k] or 0) * (1 - p) + (d[k - 1] or 0) * p end
    d = nd
  end
  return d, #ps
end

-- the joint hits of a firing list (counts by kind*16+value): one record per distinct list,
-- {id=, h1={}, h2={}, h3={}, p={}, n=, groups = {{key, count}...} (for the Monte Carlo)}
local function fire_dist(fires, groups)
  local keys = {}
  for k in pairs(groups) do keys[#keys + 1] = k end
  sort(keys)
  local sig = {}
  for i, k in ipairs(keys) do sig[i] = k .. ":" .. groups[k] end
  local key = concat(sig, ",")
  local hit = fires.by_sig[key]
  if hit then return hit end
  local ps = { {}, {}, {} }
  local glist = {}
  for _, k in ipairs(keys) do
    local kind, v = k // 16, k % 16
    local l = ps[kind]
    for _ = 1, groups[k] do l[#l + 1] = v / 6 end
    glist[#glist + 1] = { kind, v, groups[k] }
  end
  local d1, n1 = poisson_binomial(ps[1])
  local d2, n2 = poisson_binomial(ps[2])
  local d3, n3 = poisson_binomial(ps[3])
  local f = { h1 = {}, h2 = {}, h3 = {}, key = {}, p = {}, n = 0, groups = glist, id = #fires + 1 }
  local n = 0
  for a = 0, n1 do
    for b = 0, n2 do
      for c = 0, n3 do
        local p = d1[a] * d2[b] * d3[c]
        if p > 0 then
          n = n + 1
          f.h1[n], f.h2[n], f.h3[n], f.p[n] = a, b, c, p
          f.key[n] = (a << 20) | (b << 10) | c     -- as assign keys its memo
        end
      end
    end
  end
  f.n = n
  fires[f.id] = f
  fires.by_sig[key] = f
  return f
end

-- the fire of a side in a state: its first strikers at a first-strike step, or the others
-- (its first strikers too when they did not strike) when both sides fire; nil: no dice
local function fire_of(S, info, fires, first, struck)
  local slot = first and "f1" or (struck and "f3" or "f2")
  local f = info[slot]
  if f ~= nil then return f or nil end
  local groups, any = {}, false
  local counts = info.counts
  for i, c in ipairs(S.classes) do
    local n = counts[i]
    if n > 0 and not c.submerged then
      local rolls
      if first then rolls = c.kind == "sub"
      else rolls = c.value > 0 and not (c.kind == "sub" and struck) end
      if rolls and c.value > 0 then
        local kind = c.kind == "sub" and KIND_SUB or ((c.kind == "air" and not info.frig) and KIND_AIR or KIND_SEA)
        local k = kind * 16 + c.value
        groups[k] = (groups[k] or 0) + n
        any = true
      end
    end
  end
  f = any and fire_dist(fires, groups) or false
  info[slot] = f
  return f or nil
end

-- an outcome list of a side: its next states k and their probabilities p (n of them), in
-- state order, with what the loops of run_battle read: for the attacker, each state's
-- info (info_of); for the defender, the states with units in battle (lk, lp, lpot, linfo;
-- ln of them) apart from those without (dk, dp; dn), and reach = {[a threat] = whether it
-- finds every state with units in battle}
local function outcomes_of(S, ks, ps)
  local n = #ks
  if S.role == "attacker" then
    local info = {}
    for i = 1, n do info[i] = info_of(S, ks[i]) end
    return { k = ks, p = ps, n = n, info = info }
  end
  local lk, lp, lpot, linfo, ln = {}, {}, {}, {}, 0
  local dk, dp, dn = {}, {}, 0
  for i = 1, n do
    local y = ks[i]
    local info = info_of(S, y)
    if info.inb > 0 then
      ln = ln + 1
      lk[ln], lp[ln], lpot[ln], linfo[ln] = y, ps[i], info.pot, info
    else
      dn = dn + 1
      dk[dn], dp[dn] = y, ps[i]
    end
  end
  return { k = ks, p = ps, n = n, lk = lk, lp = lp, lpot = lpot, linfo = linfo, ln = ln, dk = dk, dp = dp, dn = dn,
           reach = {} }
end

-- the side's next states when the fire f hits it in state x (f nil: no fire, x stays):
-- an outcome list, made once per state and fire
local function effect(S, x, f, spend)
  if not f then
    local e = S.still[x]
    if not e then e = outcomes_of(S, { x }, { 1.0 }); S.still[x] = e end
    return e
  end
  local per = S.effects[x]
  if not per then per = {}; S.effects[x] = per end
  local e = per[f.id]
  if e then return e end
  spend(f.n)
  -- the states in the order first met (the fire's outcomes' order: the same on every run)
  local acc, ks = {}, {}
  local hk, p = f.key, f.p
  local memo = S.assigned[x]
  for i = 1, f.n do
    local y = memo and memo[hk[i]]
    if not y then
      y = assign(S, x, f.h1[i], f.h2[i], f.h3[i])
      memo = S.assigned[x]
    end
    local a = acc[y]
    if a then acc[y] = a + p[i] else acc[y] = p[i]; ks[#ks + 1] = y end
  end
  local ps = {}
  for i = 1, #ks do ps[i] = acc[ks[i]] end
  e = outcomes_of(S, ks, ps)
  per[f.id] = e
  return e
end

-- the result when (ia, id) ends a step: nil when the battle goes on
local function result_of(ia, id)
  local na, nd = ia.inb, id.inb
  if na == 0 and nd == 0 then return BOTH end
  if na == 0 then return HOLDS end
  if nd == 0 then return WINS end
  if ia.threat & id.pres == 0 and id.threat & ia.pres == 0 then return NOHIT end
  return nil
end

-- ---- the work limit ------------------------------------------------------------------------------

local function new_spend(limit, what)
  limit = limit or M.MAX_WORK
  local work = 0
  return function(n)
    work = work + n
    if work > limit then
      error(("%s: more than %d battle positions and transitions to weigh, the limit of exact battle odds "
        .. "(fewer units, or a Monte Carlo estimate)"):format(what or "the battle", limit), 0)
    end
  end
end

-- ---- setup ---------------------------------------------------------------------------------------

local function types_of(S)
  local types, seen = {}, {}
  for i, c in ipairs(S.classes) do
    if S.init[i] > 0 and not seen[c.type] then seen[c.type] = true; types[#types + 1] = c.type end
  end
  return types
end

local function order_of(policy)
  if type(policy) == "string" then return policy end
  if type(policy) == "table" then return policy.order end
  return nil
end

-- the two sides of a battle spec, ready to play: A, D, the attacker's retreat threshold
local function setup(E, spec, level)
  local model = E.model
  local fa, why = M.parse_force(model, spec.attacker)
  if not fa then error("attacker: " .. why, level + 1) end
  local fd, why2 = M.parse_force(model, spec.defender)
  if not fd then error("defender: " .. why2, level + 1) end
  local aside = spec.attacker_side or model.sides[2]
  local dside = spec.defender_side or (aside == model.sides[2] and model.sides[1] or model.sides[2])
  local A = build_side(model, fa, "attacker", aside)
  local D = build_side(model, fd, "defender", dside)
  local ap, dp = spec.attacker_policy or spec.policy, spec.defender_policy or spec.policy
  for _, sp in ipairs { { A, ap }, { D, dp } } do
    local S, policy = sp[1], sp[2]
    if policy == nil then
      error("a casualty policy is needed (" .. concat(model.policies, ", ") .. ", or { order = {...} })", level + 1)
    end
    local bad = E.policy_problem(types_of(S), policy)
    if bad then error(("%s: %s"):format(S.role, bad), level + 1) end
  end
  set_preference(A, E.casualty_ranks(types_of(A), A.side, order_of(ap)), ap)
  set_preference(D, E.casualty_ranks(types_of(D), D.side, order_of(dp)), dp)
  A.x0, D.x0 = encode(A, A.init), encode(D, D.init)
  return A, D, type(ap) == "table" and ap.retreat_at or nil
end

-- ---- the battle ----------------------------------------------------------------------------------

local function side_text(S, counts)
  local parts = {}
  for i, c in ipairs(S.classes) do
    if counts[i] > 0 then
      parts[#parts + 1] = (counts[i] > 1 and (counts[i] .. " ") or "") .. c.key:gsub("~$", " (submerged)")
    end
  end
  return #parts > 0 and concat(parts, ", ") or "nothing"
end

-- The dynamic program. A battle position is a pair of side states, at the start of a
-- round ("start") or after its first-strike step ("mid", which also keeps whether each
-- side's first strikers struck). Every step that changes a position lowers the hit
-- capacity left in battle (its potential), so positions are weighed level by level,
-- highest first; a step that changes nothing leads from a start to its own mid and back,
-- a two-state loop solved in closed form. Each position's step is computed once, however
-- many ways lead to it, and each side's reaction to a fire once per state and fire.
local function run_battle(A, D, retreat_at, spend)
  local DS = D.size
  local fires = { by_sig = {} }
  local starts, mids = {}, {}         -- position key -> mass
  local levels = {}                   -- potential -> { starts = {keys}, mids = {keys} }
  local terminal = { {}, {}, {}, {}, {} }
  local maxpot = 0
  local function level(pot)
    local l = levels[pot]
    if not l then
      l = { starts = {}, mids = {} }
      levels[pot] = l
      if pot > maxpot then maxpot = pot end
    end
    return l
  end
  local function finish(r, k, p)
    local t = terminal[r]
    t[k] = (t[k] or 0) + p
  end

  -- the first-strike step of start (xa, xd): each side's outcome list, and the flags of
  -- the mids they make (whose first strikers struck)
  local function first_step(xa, xd, ia, id)
    local a_ss, d_ss = not id.frig, not ia.frig
    local xa1 = a_ss and ia.sub or xa
    local xd1 = d_ss and id.sub or xd
    local fa = a_ss and fire_of(A, info_of(A, xa1), fires, true) or nil
    local fd = d_ss and fire_of(D, info_of(D, xd1), fires, true) or nil
    return effect(A, xa1, fd, spend), effect(D, xd1, fa, spend), (a_ss and 2 or 0) + (d_ss and 1 or 0)
  end

  -- the step where both fire, from mid (xa, xd) with flags: each side's outcome list
  local function fire_step(xa, xd, flags, ia, id)
    local fa = fire_of(A, ia, fires, false, flags & 2 ~= 0)
    local fd = fire_of(D, id, fires, false, flags & 1 ~= 0)
    return effect(A, xa, fd, spend), effect(D, xd, fa, spend)
  end

  -- mass m along the first-strike outcomes (ea, ed), but the one to mid self_mid
  local function push_first(ea, ed, flags, m, self_mid)
    spend(ea.n * ed.n)
    local lk, lp, lpot, ln, dk, dp, dn = ed.lk, ed.lp, ed.lpot, ed.ln, ed.dk, ed.dp, ed.dn
    local wins, holds, both = terminal[WINS], terminal[HOLDS], terminal[BOTH]
    local ak, ap, ainfo = ea.k, ea.p, ea.info
    for i = 1, ea.n do
      local mi = m * ap[i]
      local base = ak[i] * DS
      local ia = ainfo[i]
      if ia.inb == 0 then
        for j = 1, ln do local k = base + lk[j]; holds[k] = (holds[k] or 0) + mi * lp[j] end
        for j = 1, dn do local k = base + dk[j]; both[k] = (both[k] or 0) + mi * dp[j] end
      else
        for j = 1, dn do local k = base + dk[j]; wins[k] = (wins[k] or 0) + mi * dp[j] end
        local apot = ia.pot
        for j = 1, ln do
          local mk = (base + lk[j]) * 4 + flags
          if mk ~= self_mid then
            local old = mids[mk]
            if old then mids[mk] = old + mi * lp[j]
            else
              mids[mk] = mi * lp[j]
              local l = level(apot + lpot[j]).mids
              l[#l + 1] = mk
            end
          end
        end
      end
    end
  end

  -- mass m along the outcomes (ea, ed) where both fire, but the one back to start self_key
  local function push_fire(ea, ed, m, self_key)
    spend(ea.n * ed.n)
    local lk, lp, lpot, linfo, ln = ed.lk, ed.lp, ed.lpot, ed.linfo, ed.ln
    local dk, dp, dn, reach = ed.dk, ed.dp, ed.dn, ed.reach
    local ak, ap, ainfo = ea.k, ea.p, ea.info
    local wins, holds, both, nohit, retreat = terminal[WINS], terminal[HOLDS], terminal[BOTH], terminal[NOHIT],
      terminal[RETREAT]
    local self_x = self_key and self_key // DS
    for i = 1, ea.n do
      local x = ak[i]
      local mi = m * ap[i]
      local base = x * DS
      local ia = ainfo[i]
      local ainb = ia.inb
      if ainb == 0 then
        for j = 1, ln do local k = base + lk[j]; holds[k] = (holds[k] or 0) + mi * lp[j] end
        for j = 1, dn do local k = base + dk[j]; both[k] = (both[k] or 0) + mi * dp[j] end
      else
        for j = 1, dn do local k = base + dk[j]; wins[k] = (wins[k] or 0) + mi * dp[j] end
        local apres, athreat, apot = ia.pres, ia.threat, ia.pot
        -- (can this side's threat find every live state of the other? once per list and threat)
        local finds = reach[athreat]
        if finds == nil then
          finds = true
          for j = 1, ln do if athreat & linfo[j].pres == 0 then finds = false break end end
          reach[athreat] = finds
        end
        if finds and x ~= self_x and not (retreat_at and ainb <= retreat_at) then
          -- the common case: every pair goes on to a start of another position
          for j = 1, ln do
            local k = base + lk[j]
            local old = starts[k]
            if old then starts[k] = old + mi * lp[j]
            else
              starts[k] = mi * lp[j]
              local l = level(apot + lpot[j]).starts
              l[#l + 1] = k
            end
          end
        else
          local retreats = retreat_at and ainb <= retreat_at
          for j = 1, ln do
            local k = base + lk[j]
            local p = mi * lp[j]
            local id = linfo[j]
            if athreat & id.pres == 0 and id.threat & apres == 0 then nohit[k] = (nohit[k] or 0) + p
            elseif retreats then retreat[k] = (retreat[k] or 0) + p
            elseif k ~= self_key then
              local old = starts[k]
              if old then starts[k] = old + p
              else
                starts[k] = p
                local l = level(apot + lpot[j]).starts
                l[#l + 1] = k
              end
            end
          end
        end
      end
    end
  end

  -- the probability of one position in a pair of outcome lists
  local function p_of(ea, ed, xa, xd)
    local pi, pj
    local k = ea.k
    for i = 1, ea.n do if k[i] == xa then pi = ea.p[i] break end end
    if not pi then return 0 end
    k = ed.k
    for j = 1, ed.n do if k[j] == xd then pj = ed.p[j] break end end
    return pj and pi * pj or 0
  end

  local ia0, id0 = info_of(A, A.x0), info_of(D, D.x0)
  local k0 = A.x0 * DS + D.x0
  local r0 = result_of(ia0, id0)
  if r0 then finish(r0, k0, 1.0) else starts[k0] = 1.0; level(ia0.pot + id0.pot).starts[1] = k0 end
  local states, rounds = 0, 0.0
  for pot = maxpot, 0, -1 do
    local l = levels[pot]
    if l then
      -- mids whose flags differ from those their own start would have: they lead only to starts
      -- (positions of one level do not lead to one another but for those loops: they are
      -- weighed in the order they were met, the same on every run)
      local lm = l.mids
      local paired, paired_list = {}, {}
      for _, mk in ipairs(lm) do
        local k, flags = mk // 4, mk % 4
        local xa, xd = k // DS, k % DS
        local ia, id = info_of(A, xa), info_of(D, xd)
        if flags == (not id.frig and 2 or 0) + (not ia.frig and 1 or 0) then
          if not paired[k] then paired[k] = true; paired_list[#paired_list + 1] = k end
        else
          local m = mids[mk]
          mids[mk] = nil
          local ea, ed = fire_step(xa, xd, flags, ia, id)
          push_fire(ea, ed, m, nil)
        end
      end
      -- each start with its own mid: start -> mid (nothing changed at the first strike,
      -- q0) and mid -> start (nothing changed when both fired, r0) is a loop
      local ls = l.starts
      for _, k in ipairs(paired_list) do
        if not starts[k] then starts[k] = 0.0; ls[#ls + 1] = k end
      end
      for _, k in ipairs(ls) do
        local a = starts[k]
        starts[k] = nil
        local xa, xd = k // DS, k % DS
        local ia, id = info_of(A, xa), info_of(D, xd)
        local flags = (not id.frig and 2 or 0) + (not ia.frig and 1 or 0)
        local mk = k * 4 + flags
        local b = mids[mk] or 0.0
        mids[mk] = nil
        -- the step where both fire from the paired mid: r0 = back to this start
        local fa, fd = fire_step(xa, xd, flags, ia, id)
        -- (a start that would end the battle there never comes back to itself)
        local ends = result_of(ia, id) or (retreat_at and ia.inb <= retreat_at)
        local r0p = ends and 0 or p_of(fa, fd, xa, xd)
        local q0, sa, sd = 0, nil, nil
        if a > 0 or r0p > 0 then
          sa, sd = first_step(xa, xd, ia, id)
          q0 = p_of(sa, sd, xa, xd)
        end
        local stay = q0 * r0p
        if stay >= 1 - 1e-15 then
          states = states + 1
          finish(NOHIT, k, a + b)
        else
          local A_tot = (a + r0p * b) / (1 - stay)      -- rounds started here
          local B_tot = b + q0 * A_tot                  -- times both fired from here
          if A_tot > 0 then
            states = states + 1
            rounds = rounds + A_tot
            push_first(sa, sd, flags, A_tot, mk)
          end
          if B_tot > 0 then push_fire(fa, fd, B_tot, k) end
        end
      end
      levels[pot] = nil
    end
  end
  return terminal, states, rounds
end

-- ---- the engine for one model ----------------------------------------------------------------------

local function lose(L, S, counts, p)
  -- units (cargo included) and cost lost: initial minus what is left (in battle or submerged)
  local left_units, left_cost, init_units, init_cost = 0, 0, 0, 0
  local left_type, init_type = {}, {}
  for i, c in ipairs(S.classes) do
    left_units = left_units + counts[i] * c.units
    left_cost = left_cost + counts[i] * c.cost
    init_units = init_units + S.init[i] * c.units
    init_cost = init_cost + S.init[i] * c.cost
    left_type[c.type] = (left_type[c.type] or 0) + counts[i]
    init_type[c.type] = (init_type[c.type] or 0) + S.init[i]
    for _, x in ipairs(c.cargo) do
      left_type[x] = (left_type[x] or 0) + counts[i]
      init_type[x] = (init_type[x] or 0) + S.init[i]
    end
  end
  L.units = L.units + p * (init_units - left_units)
  L.cost = L.cost + p * (init_cost - left_cost)
  for _, t in ipairs(sorted_keys(init_type)) do
    L.by_type[t] = (L.by_type[t] or 0) + p * (init_type[t] - (left_type[t] or 0))
  end
end

local function keys_of(S, counts)
  local out = {}
  for i, c in ipairs(S.classes) do
    for _ = 1, counts[i] do out[#out + 1] = c.key end
  end
  sort(out)
  return out
end

local function pct(p) return ("%9.4f%%"):format(100 * p) end

--- The engine for one battle model: E.battle(spec), E.first_round(spec), E.simulate(spec, n, seed),
--- E.hits(question, force, role), E.format(r), E.format_hits(o, title), E.policy_from_text(...),
--- E.parse_force(spec), E.RESULTS, E.model.
---@param model table the family's battle model (above)
---@param casualty_ranks fun(types: string[], side: string, order: any): table {list=, soak=, loss=}
---@param policy_problem fun(types: string[], policy: any): string|nil
---@return table engine
function M.new(model, casualty_ranks, policy_problem)
  local E = { model = model, RESULTS = M.RESULTS, casualty_ranks = casualty_ranks, policy_problem = policy_problem }

  function E.parse_force(spec) return M.parse_force(model, spec) end

  --- The exact odds of a battle.
  ---@param spec table {attacker=, defender= (force text or list), attacker_side=, defender_side=,
  ---   max_work= (default M.MAX_WORK; past it, an error naming the limit),
  ---   attacker_policy=, defender_policy= (a name or {order=, submerge=, retreat_at=}), policy= (both)}
  ---@return table r {p = {[result] = probability}, outcomes = { {p=, result=, attacker=text, defender=text} } (most
  ---   likely first), losses = {attacker = {units=, cost=, by_type={}}, defender = {...}}, states=, rounds=, total=}
  function E.battle(spec)
    local A, D, retreat_at = setup(E, spec, 2)
    local spend = new_spend(spec.max_work, type(spec.attacker) == "string" and type(spec.defender) == "string"
      and ("%s against %s"):format(spec.attacker, spec.defender) or nil)
    local terminal, states, rounds = run_battle(A, D, retreat_at, spend)
    local res = { p = {}, outcomes = {}, states = states, rounds = rounds, attacker = A, defender = D,
                  attacker_order = A.list, defender_order = D.list }
    for _, r in ipairs(M.RESULTS) do res.p[r] = 0.0 end
    local losses = { attacker = { units = 0, cost = 0, by_type = {} }, defender = { units = 0, cost = 0, by_type = {} } }
    for ri, name in ipairs(M.RESULTS) do
      local t = terminal[ri]
      local keys = {}
      for k in pairs(t) do keys[#keys + 1] = k end
      sort(keys)
      for _, k in ipairs(keys) do
        local p = t[k]
        local a, d = decode(A, k // D.size), decode(D, k % D.size)
        res.p[name] = res.p[name] + p
        res.outcomes[#res.outcomes + 1] = { p = p, result = name, attacker = side_text(A, a), defender = side_text(D, d),
                                            attacker_counts = a, defender_counts = d }
        lose(losses.attacker, A, a, p)
        lose(losses.defender, D, d, p)
      end
    end
    sort(res.outcomes, function(x, y)
      if x.p ~= y.p then return x.p > y.p end
      return (x.result .. x.attacker .. x.defender) < (y.result .. y.attacker .. y.defender)
    end)
    local total = 0
    for _, r in ipairs(M.RESULTS) do total = total + res.p[r] end
    res.total = total
    res.losses = losses
    return res
  end

  --- The outcomes of the first round alone: { {p=, result= (nil: the battle goes on),
  --- attacker = {class keys}, defender = {class keys}} } (the tests play the rule set's
  --- battle round against it, die by die).
  function E.first_round(spec)
    local A, D, retreat_at = setup(E, spec, 2)
    local spend = new_spend(spec.max_work)
    local fires = { by_sig = {} }
    local out = {}
    local function add(xa, xd, r, p)
      out[#out + 1] = { p = p, result = r and M.RESULTS[r] or nil, attacker = keys_of(A, decode(A, xa)),
                        defender = keys_of(D, decode(D, xd)) }
    end
    local ia, id = info_of(A, A.x0), info_of(D, D.x0)
    local a_ss, d_ss = not id.frig, not ia.frig
    local xa1, xd1 = a_ss and ia.sub or A.x0, d_ss and id.sub or D.x0
    local fa = a_ss and fire_of(A, info_of(A, xa1), fires, true) or nil
    local fd = d_ss and fire_of(D, info_of(D, xd1), fires, true) or nil
    local ea, ed = effect(A, xa1, fd, spend), effect(D, xd1, fa, spend)
    for i, x in ipairs(ea.k) do
      for j, y in ipairs(ed.k) do
        local ix, iy = info_of(A, x), info_of(D, y)
        local p = ea.p[i] * ed.p[j]
        if ix.inb == 0 or iy.inb == 0 then add(x, y, result_of(ix, iy), p)
        else
          local fa3 = fire_of(A, ix, fires, false, a_ss)
          local fd3 = fire_of(D, iy, fires, false, d_ss)
          local ea3, ed3 = effect(A, x, fd3, spend), effect(D, y, fa3, spend)
          for i3, x3 in ipairs(ea3.k) do
            for j3, y3 in ipairs(ed3.k) do
              local ia3, id3 = info_of(A, x3), info_of(D, y3)
              local r = result_of(ia3, id3)
              if not r and retreat_at and ia3.inb <= retreat_at then r = RETREAT end
              add(x3, y3, r, p * ea3.p[i3] * ed3.p[j3])
            end
          end
        end
      end
    end
    return out
  end

  --- n battles with keel's dice, the same rules and policies: {p = {[result] = share}, n=, counts=}.
  --- Each firing group (kind and value) rolls through dice:histogram, one call per group and step.
  function E.simulate(spec, n, seed)
    local keel = require "keel"
    local A, D, retreat_at = setup(E, spec, 2)
    local dice = keel.dice.new(seed or 1)
    local hist = { stream = "montecarlo" }
    local fires = { by_sig = {} }
    local function roll(f)
      if not f then return 0, 0, 0 end
      local h = { 0, 0, 0 }
      for _, g in ipairs(f.groups) do
        local counts = dice:histogram("1d6", g[3], hist)
        local hits = 0
        for face = 1, g[2] do hits = hits + (counts[face] or 0) end
        h[g[1]] = h[g[1]] + hits
      end
      return h[1], h[2], h[3]
    end
    local tally = { 0, 0, 0, 0, 0 }
    for _ = 1, n do
      local xa, xd = A.x0, D.x0
      local ia, id = info_of(A, xa), info_of(D, xd)
      local r = result_of(ia, id)
      while not r do
        local a_ss, d_ss = not id.frig, not ia.frig
        xa, xd = a_ss and ia.sub or xa, d_ss and id.sub or xd
        ia, id = info_of(A, xa), info_of(D, xd)
        local fa = a_ss and fire_of(A, ia, fires, true) or nil
        local fd = d_ss and fire_of(D, id, fires, true) or nil
        local a1, a2, a3 = roll(fa)
        local d1, d2, d3 = roll(fd)
        xd = assign(D, xd, a1, a2, a3)
        xa = assign(A, xa, d1, d2, d3)
        ia, id = info_of(A, xa), info_of(D, xd)
        if ia.inb == 0 or id.inb == 0 then
          r = result_of(ia, id)
        else
          a1, a2, a3 = roll(fire_of(A, ia, fires, false, a_ss))
          d1, d2, d3 = roll(fire_of(D, id, fires, false, d_ss))
          xd = assign(D, xd, a1, a2, a3)
          xa = assign(A, xa, d1, d2, d3)
          ia, id = info_of(A, xa), info_of(D, xd)
          r = result_of(ia, id)
          if not r and retreat_at and ia.inb <= retreat_at then r = RETREAT end
        end
      end
      tally[r] = tally[r] + 1
    end
    local p, counts = {}, {}
    for i, name in ipairs(M.RESULTS) do p[name] = tally[i] / n; counts[name] = tally[i] end
    return { p = p, n = n, counts = counts }
  end

  --- The exact hit distribution of one of the model's hit questions (model.hits[name]):
  --- keel.odds.hits_mixed over the force's values. role "defender" reads defense values.
  function E.hits(name, force, role)
    local q = model.hits[name]
    if not q then error(("no hit question '%s'"):format(tostring(name)), 2) end
    local f, why = M.parse_force(model, force)
    if not f then error(why, 2) end
    local th = {}
    for _, item in ipairs(f) do
      local v = q.values[item.type]
      if v == nil then error(("only %s, not %s"):format(q.only, item.type), 2) end
      if v == "attack" then
        local d = model.units[item.type]
        v = role == "defender" and d.defense or d.attack
      end
      for _ = 1, item.n or 1 do th[#th + 1] = v end
    end
    if #th > dice_expr.max_dice(6) then
      error(dice_expr.too_many(type(force) == "string" and force or "the force", #th, 6), 0)
    end
    return kodds.hits_mixed(th, 6)
  end

  --- Lines of a battle's odds, as `keel odds FAMILY:battle` prints them (opts.top: outcomes shown).
  function E.format(r, opts)
    opts = opts or {}
    local out = {}
    out[#out + 1] = ("Sea battle, exact odds (%s rules; %d battle states)"):format(model.family or "the family's", r.states)
    out[#out + 1] = ("  attacker (%s): %s"):format(r.attacker.side, side_text(r.attacker, r.attacker.init))
    out[#out + 1] = ("    casualty order: %s"):format(concat(r.attacker_order, ", "))
    out[#out + 1] = ("  defender (%s): %s"):format(r.defender.side, side_text(r.defender, r.defender.init))
    out[#out + 1] = ("    casualty order: %s"):format(concat(r.defender_order, ", "))
    for _, name in ipairs(M.RESULTS) do
      if r.p[name] > 0 or name == "attacker wins" or name == "defender holds" then
        out[#out + 1] = ("  %-26s %s"):format(name, pct(r.p[name]))
      end
    end
    out[#out + 1] = ("  expected rounds            %10.4f"):format(r.rounds)
    for _, role in ipairs { "attacker", "defender" } do
      local L = r.losses[role]
      local types = {}
      for t, x in pairs(L.by_type) do if x > 1e-12 then types[#types + 1] = t end end
      sort(types)
      local parts = {}
      for _, t in ipairs(types) do parts[#parts + 1] = ("%s %.4f"):format(t, L.by_type[t]) end
      out[#out + 1] = ("  expected %s losses: %.4f units, cost %.4f (%s)"):format(role, L.units, L.cost,
        #parts > 0 and concat(parts, ", ") or "none")
    end
    out[#out + 1] = "  most likely outcomes (survivors):"
    for i = 1, math.min(opts.top or 8, #r.outcomes) do
      local o = r.outcomes[i]
      out[#out + 1] = ("  %s  %s: attacker %s; defender %s"):format(pct(o.p), o.result, o.attacker, o.defender)
    end
    return concat(out, "\n")
  end

  function E.format_hits(o, title)
    local out = { title }
    out[#out + 1] = ("  %4s  %9s  %s"):format("hits", "chance", "exact")
    for _, r in ipairs(o.rows) do
      out[#out + 1] = ("  %4d  %s  %s"):format(r.hits, pct(r.count / o.den), kodds.format_fraction(r.count, o.den))
    end
    return concat(out, "\n")
  end

  --- A casualty policy from option text: a name (model.policies), or entries
  --- "damage:cruiser,destroyer,cruiser", with a submerge choice and a retreat threshold.
  function E.policy_from_text(v, sub, retreat_at)
    local default = model.policies[1]
    if v == nil and sub == nil and retreat_at == nil then return default end
    local order = v or default
    local named = false
    for _, n in ipairs(model.policies) do if n == order then named = true end end
    if not named then
      local list = {}
      for e in order:gmatch("[^,%s]+") do list[#list + 1] = e end
      order = list
    end
    return { order = order, submerge = sub, retreat_at = retreat_at }
  end

  return E
end

-- ---- the engine of a rule set -----------------------------------------------------------------------

--- The engine for a rule set whose rules answer `battle_model`, `casualty_ranks` and
--- `casualty_policy_problem` (nil and why when they do not). Values given as
--- {rule=, value=} in the model's hit questions are read from those rules' values.
---@param set table a rule set (keel.rules)
---@return table|nil engine, string? why
function M.for_set(set)
  if not (set.queries and set.queries.battle_model) then
    return nil, "its rules describe no battle (no rule answers the query battle_model)"
  end
  local game = require("keel.game").new { seed = 0, journal = false }
  local model = set:query(game, "battle_model")
  for _, q in pairs(model.hits or {}) do
    for t, v in pairs(q.values) do
      if type(v) == "table" then
        local r = set.rules[v.rule]
        if not r then error(("battle model: no rule '%s' for %s's value"):format(tostring(v.rule), t), 2) end
        q.values[t] = r.values[v.value]
      end
    end
  end
  model.hits = model.hits or {}
  return M.new(model,
    function(types, side, order) return set:query(game, "casualty_ranks", types, side, order) end,
    function(types, policy) return set:query(game, "casualty_policy_problem", types, policy) end)
end

-- ---- the questions `keel odds FAMILY:QUESTION` asks of such a rule set ----------------------

-- an error raised in the engine, without its file and line (the message names the input)
local function plain(ok, r)
  if not ok then error((tostring(r):gsub("^[^:]*:%d+: ", "")), 0) end
  return r
end

--- The odds questions of a rule set whose rules describe its battle (nil and why when they
--- do not): {battle = {summary=, usage=, options=, run = function(opts) -> text}, and one
--- per hit question of the model}, as keel.cli.odds asks them.
---@param set table a rule set (keel.rules)
---@return table|nil questions, string? why
function M.questions(set)
  local E, why = M.for_set(set)
  if not E then return nil, why end
  local model = E.model
  local fam = model.family or "FAMILY"
  local qs = {}
  qs.battle = {
    summary = "The exact outcome distribution of a battle under the " .. fam .. " rules:\n" ..
      "  --attacker FORCE, --vs FORCE   forces as \"2 submarine, cruiser*, carrier[fighter,fighter]\"\n" ..
      "                  (* a damaged capital ship; brackets: what a ship carries)\n" ..
      "  --policy P, --attacker-policy P, --defender-policy P   casualty order: " .. concat(model.policies, ", ") ..
      ",\n                  or entries \"damage:cruiser,destroyer,cruiser,...\"\n" ..
      "  --sides A,D      the sides, for the costs (default " .. model.sides[2] .. "," .. model.sides[1] .. ")\n" ..
      "  --submerge first|alone   --retreat-at N (the attacker's)   --top N (outcomes shown)",
    usage = "keel odds " .. fam .. ":battle --attacker FORCE --vs FORCE [--policy P] [--sides A,D] "
      .. "[--submerge first|alone] [--retreat-at N] [--top N]",
    options = { attacker = "value", vs = "value", policy = "value", ["attacker-policy"] = "value",
                ["defender-policy"] = "value", sides = "value", submerge = "value", ["retreat-at"] = "value",
                top = "value" },
    run = function(opts)
      if not (opts.attacker and opts.vs) then error(fam .. ":battle needs --attacker FORCE and --vs FORCE", 0) end
      local aside, dside = model.sides[2], model.sides[1]
      if opts.sides then
        aside, dside = opts.sides:match("^%s*([%w_]+)%s*,%s*([%w_]+)%s*$")
        if not aside then error("--sides ATTACKER_SIDE,DEFENDER_SIDE (" .. concat(model.sides, " or ") .. ")", 0) end
      end
      local retreat_at = opts["retreat-at"] and tointeger(tonumber(opts["retreat-at"]))
      if opts["retreat-at"] and not retreat_at then error("--retreat-at needs an integer", 0) end
      local sub = opts.submerge
      if sub and sub ~= "first" and sub ~= "alone" then error("--submerge first|alone", 0) end
      local spec = {
        attacker = opts.attacker, defender = opts.vs, attacker_side = aside, defender_side = dside,
        attacker_policy = E.policy_from_text(opts["attacker-policy"] or opts.policy, sub, retreat_at),
        defender_policy = E.policy_from_text(opts["defender-policy"] or opts.policy, sub, nil),
      }
      local r = plain(pcall(E.battle, spec))
      return E.format(r, { top = opts.top and tonumber(opts.top) or 8 })
    end,
  }
  for _, name in ipairs(sorted_keys(model.hits)) do
    local q = model.hits[name]
    local options = { [q.option] = "value" }
    if q.flag then options[q.flag] = "flag" end
    qs[name] = {
      summary = q.summary, usage = q.usage, options = options,
      run = function(opts)
        local force = opts[q.option]
        if not force then error(("%s:%s needs --%s FORCE"):format(fam, name, q.option), 0) end
        local role = (q.flag and opts[q.flag]) and "defender" or "attacker"
        local o = plain(pcall(E.hits, name, force, role))
        return E.format_hits(o, q.title:format(force, role))
      end,
    }
  end
  return qs
end

--- The odds questions of a rule family, asked of its rule set (`keel odds FAMILY:QUESTION`):
--- M.questions of the set when its rules describe its battle; else the family may keep
--- scripts/FAMILY/odds.lua (trusted host code beside its manifest) returning
--- {QUESTION = {summary=, usage=, options = {name = "value"|"flag"}, run = function(opts) -> text}}.
---@param fam string
---@return table questions
function M.family_questions(fam)
  for _, f in ipairs(require("keel.registry").family_names()) do
    if f == fam then
      local qs = M.questions(require("keel.rules").load { families = { fam } })
      if qs then return qs end
    end
  end
  local path = require("keel").script_dir .. "/" .. fam .. "/odds.lua"
  local chunk = loadfile(path, "t")
  if not chunk then error(("no odds questions for family '%s' (%s)"):format(fam, path), 0) end
  return chunk()
end

local opened = {}

--- The engine for rule families (opened once per process): M.open { families = {...} }.
---@param opts table {families = {name, ...}}
---@return table engine
function M.open(opts)
  local key = concat(opts.families, ",")
  if opened[key] then return opened[key] end
  local set = require("keel.rules").load { families = opts.families }
  local E, why = M.for_set(set)
  if not E then error(key .. ": " .. why, 2) end
  E.model.family = E.model.family or key
  opened[key] = E
  return E
end

return M

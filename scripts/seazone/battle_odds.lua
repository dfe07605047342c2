--- seazone.battle_odds — the exact outcome distribution of a sea battle under the
-- sea-zone family's rules (scripts/seazone: the General Combat stand-in and
-- the unit characteristics), for two given forces and declared casualty
-- policies. Not a Monte Carlo estimate: a dynamic program over battle
-- states, each round's transitions built from the per-step hit
-- distributions (one die per firing unit, hitting on its value or less).
--
--   local odds = require "seazone.battle_odds"    (keel odds seazone:battle: scripts/seazone/odds.lua)
--   local r = odds.battle { attacker = "2 submarine, cruiser", defender = "carrier[fighter,fighter], frigate",
--                           attacker_side = "Opfor", defender_side = "Allies",
--                           attacker_policy = "cheapest", defender_policy = "keep_carriers" }
--   r.p["attacker wins"], r.p["defender holds"], r.outcomes[1], r.losses.attacker.cost
--
-- What it models is exactly what the rule set plays (doc/seazone.md): step 2
-- Surprise Strike for each side whose submarines face no enemy frigate
-- (casualties removed at once; a side wiped out ends the battle), step 3
-- attacking units fire (the defender's casualties still fire in step 4),
-- step 4 defending units fire, end of round: one side gone, neither able to
-- hit the other, or the attacker's declared retreat. Submarine hits never go
-- to air units; air units' hits go to submarines only with a frigate of
-- theirs in the battle; an undamaged capital ship's first hit damages it; a
-- defending undamaged carrier's planes defend in the air, a damaged one's are
-- cargo; cargo is lost with its ship. Each side assigns as many hits as can
-- be assigned, taking casualties in its policy's order (the same procedure as
-- general-combat's assign_policy). Probabilities are doubles, exact up to
-- rounding: tests compare them with hand-computed fractions.
local kodds = require "keel.odds"
local dice_expr = require "keel.dice_expr"

local M = {}

-- The bounds of exact odds: every input is answered or refused, within
-- seconds, before the work or the memory grows with it.
M.MAX_UNITS = 100          -- units of one force (cargo counted), for a battle, a strike or a bombardment
M.MAX_WORK = 1000000       -- battle positions and transitions one battle may weigh (about 3 s)

local type, ipairs, pairs, tostring, error = type, ipairs, pairs, tostring, error
local concat, sort = table.concat, table.sort

-- ---- unit data (the family's tables: one owner of the numbers) -----------------------------

-- the family's tables, asked of its rule set (opened once)
local family_set
local function family_table(name)
  if not family_set then family_set = require("keel.rules").load { families = { "seazone" } } end
  return family_set:table(name)
end

local data_cache = {}
local function unit_data(t)
  local d = data_cache[t]
  if d then return d end
  for _, row in ipairs(family_table("sea_units").rows) do
    if row.key == t then
      d = { class = "sea", attack = row.attack.value, defense = row.defense.value, hits = row.hits.value,
            cost = { Allies = row.cost_allies.value, Opfor = row.cost_opfor.value } }
    end
  end
  for _, row in ipairs(family_table("other_units").rows) do
    if row.key == t then
      d = { class = row.class.code, attack = row.attack.value, defense = row.defense.value, hits = 1,
            cost = { Allies = row.cost_allies.value, Opfor = row.cost_opfor.value } }
    end
  end
  data_cache[t] = d
  return d
end
M.unit_data = unit_data

-- ---- forces ------------------------------------------------------------------------------------

local ALIASES = { sub = "submarine", subs = "submarine", cv = "carrier", ca = "cruiser", dd = "destroyer",
                  ff = "frigate", ss = "submarine", lha = "assault_ship", ftr = "fighter", heli = "helicopter",
                  bomber = "strategic_bomber", inf = "infantry" }

local function type_of(word)
  local w = word:lower()
  w = ALIASES[w] or w
  if unit_data(w) then return w end
  local singular = w:gsub("s$", "")
  if unit_data(singular) then return singular end
  return nil
end

--- A force from text: "2 submarine, cruiser*, carrier[fighter,fighter], destroyer" (a `*`
--- marks a damaged capital ship; brackets list what a carrier or assault ship carries), or a
--- list of {type=, damaged=, cargo={...}, n=}. Returns the list, or nil and why.
function M.parse_force(spec)
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
      local t = type_of(word)
      if not t then return nil, ("no unit type '%s'"):format(word) end
      local cargo = {}
      if rest ~= "" then
        local inside = rest:match("^%[(.*)%]$")
        if not inside then return nil, ("cannot read '%s' after %s"):format(rest, word) end
        for c in inside:gmatch("[^,%s]+") do
          local ct = type_of(c)
          if not ct then return nil, ("no unit type '%s'"):format(c) end
          cargo[#cargo + 1] = ct
        end
      end
      if star == "*" and unit_data(t).hits < 2 then return nil, ("%s is not a capital ship: it cannot be damaged"):format(t) end
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
      out[#out + 1] = { type = t, damaged = star == "*", cargo = cargo, n = math.tointeger(tonumber(count)) }
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

-- the units of one side as battle classes, the initial counts
local function build_side(force, role, side)
  local S = { role = role, side = side, classes = {}, by_key = {}, init = {} }
  local function add_class(t, damaged, cargo, submerged)
    local key = class_key(t, damaged, cargo, submerged)
    local c = S.by_key[key]
    if c then return c end
    local d = unit_data(t)
    local cost, units = d.cost[side] or 0, 1
    for _, x in ipairs(cargo) do cost = cost + (unit_data(x).cost[side] or 0); units = units + 1 end
    c = { key = key, type = t, damaged = damaged, cargo = cargo, submerged = submerged, index = #S.classes + 1,
          capital = d.hits >= 2, kind = t == "submarine" and "sub" or (d.class == "air" and "air" or "sea"),
          value = role == "attacker" and d.attack or d.defense, cost = cost, units = units,
          own_cost = d.cost[side] or 0 }
    c.cap = (c.capital and not damaged) and 2 or 1
    S.classes[c.index] = c
    S.by_key[key] = c
    return c
  end
  for _, item in ipairs(force) do
    for _ = 1, item.n or 1 do
      local cargo = item.cargo or {}
      local d = unit_data(item.type)
      if not d then error("no unit type " .. tostring(item.type), 3) end
      if role == "defender" and item.type == "carrier" and not item.damaged then
        -- an undamaged defending carrier's aircraft defend in the air (air defense)
        local c = add_class("carrier", false, {}, false)
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
  -- the classes a class can become: damaged (capital ships), submerged (submarines)
  local n = #S.classes
  for i = 1, n do
    local c = S.classes[i]
    if c.capital and not c.damaged then c.to_damaged = add_class(c.type, true, c.cargo, false).index end
    if c.kind == "sub" then c.to_submerged = add_class(c.type, c.damaged, c.cargo, true).index end
  end
  for i = 1, #S.classes do S.init[i] = S.init[i] or 0 end
  -- radices: a class never holds more units than start in it or can flow into it
  -- (an undamaged capital ship's class into its damaged one, a submarine's into the submerged)
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
      error("seazone.odds: too many kinds of units on one side for the state encoding", 3)
    end
    m = m * (most[i] + 1)
  end
  S.size = m
  return S
end

local function encode(S, counts)
  local x = 0
  for i = 1, #S.classes do x = x + counts[i] * S.mult[i] end
  return x
end

local function decode(S, x)
  local counts = {}
  for i = 1, #S.classes do
    counts[i] = (x // S.mult[i]) % S.radix[i]
  end
  return counts
end

-- ---- policies (the same lists general-combat.declare_policy makes) ------------------------------

local NAMED = { cheapest = true, keep_carriers = true }

local function order_of(policy)
  if type(policy) == "string" then return policy end
  if type(policy) == "table" then return policy.order end
  return nil
end

-- the entries of a policy for the types on a side (in battle: cargo is never a casualty)
local function policy_list(S, counts, order)
  if type(order) == "table" then return order end
  local types, seen = {}, {}
  for i, c in ipairs(S.classes) do
    if counts[i] > 0 and not c.submerged and not seen[c.type] then seen[c.type] = true; types[#types + 1] = c.type end
  end
  local side = S.side
  local function cost(t) return unit_data(t).cost[side] or 0 end
  sort(types, function(a, b)
    if cost(a) ~= cost(b) then return cost(a) < cost(b) end
    return a < b
  end)
  local list, last = {}, {}
  for _, t in ipairs(types) do
    if unit_data(t).hits >= 2 then
      if order == "keep_carriers" and t == "carrier" then last[#last + 1] = "damage:" .. t
      else list[#list + 1] = "damage:" .. t end
    end
  end
  for _, t in ipairs(types) do
    if order == "keep_carriers" and t == "carrier" then last[#last + 1] = t else list[#list + 1] = t end
  end
  for _, e in ipairs(last) do list[#list + 1] = e end
  return list
end

local function check_policy(S, policy)
  if policy == nil then return "a casualty policy is needed (cheapest, keep_carriers, or { order = {...} })" end
  local order = order_of(policy)
  if type(order) == "string" then
    if not NAMED[order] then return ("no casualty policy named '%s' (cheapest, keep_carriers)"):format(order) end
    return nil
  end
  if type(order) ~= "table" then return "a casualty policy needs order = a list or a name" end
  local named = {}
  for i, e in ipairs(order) do
    local soak, t = tostring(e):match("^(damage:)(.+)$")
    t = t or tostring(e)
    if not unit_data(t) then return ("policy entry %d: no unit type '%s'"):format(i, t) end
    if soak and unit_data(t).hits < 2 then return ("policy entry %d: %s is not a capital ship"):format(i, t) end
    if not soak then named[t] = true end
  end
  for i, c in ipairs(S.classes) do
    if S.init[i] > 0 and not named[c.type] then
      return ("the %s's casualty policy does not name %s"):format(S.role, c.type)
    end
  end
  if type(policy) == "table" and policy.submerge ~= nil and policy.submerge ~= "first" and policy.submerge ~= "alone" then
    return "submerge = \"first\" or \"alone\""
  end
  return nil
end

-- each class's place in the casualty order: smaller first (rank, damaged first, cargo, key)
local function set_preference(S, policy)
  local list = policy_list(S, S.init, order_of(policy))
  local soak, loss = {}, {}
  for i, e in ipairs(list) do
    local s, t = tostring(e):match("^(damage:)(.+)$")
    if s then soak[t] = soak[t] or i else loss[e] = loss[e] or i end
  end
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
  S.list = list
  S.submerge = type(policy) == "table" and policy.submerge or nil
end

-- ---- one side's view of a state ----------------------------------------------------------------

local function in_battle(S, counts)
  local n = 0
  for i, c in ipairs(S.classes) do if not c.submerged then n = n + counts[i] end end
  return n
end

local function has_kind(S, counts, pred)
  for i, c in ipairs(S.classes) do
    if counts[i] > 0 and not c.submerged and pred(c) then return true end
  end
  return false
end

local function has_frigate(S, counts) return has_kind(S, counts, function(c) return c.type == "frigate" end) end

-- max hits assignable: hits h[1] (no air), h[2] (no submarines), h[3] (any)
local function maxmatch(S, counts, h1, h2, h3)
  local csub, cair, csea = 0, 0, 0
  for i, c in ipairs(S.classes) do
    local n = counts[i]
    if n > 0 and not c.submerged then
      if c.kind == "sub" then csub = csub + n * c.cap
      elseif c.kind == "air" then cair = cair + n * c.cap
      else csea = csea + n * c.cap end
    end
  end
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

local function eligible(kind, c)
  if kind == 1 then return c.kind ~= "air" end
  if kind == 2 then return c.kind ~= "sub" end
  return true
end

-- the side's counts after taking hits (h1, h2, h3) by its casualty order; cached
local function assign(S, x, h1, h2, h3)
  local memo = S.assign_memo[x]
  if not memo then memo = {}; S.assign_memo[x] = memo end
  local key = (h1 << 20) | (h2 << 10) | h3
  local hit = memo[key]
  if hit then return hit end
  local counts = decode(S, x)
  local h = { h1, h2, h3 }
  while true do
    local m = maxmatch(S, counts, h[1], h[2], h[3])
    if m == 0 then break end
    local done = false
    for _, ci in ipairs(S.pref) do
      if counts[ci] > 0 then
        local c = S.classes[ci]
        for kind = 1, 3 do
          if h[kind] > 0 and eligible(kind, c) then
            h[kind] = h[kind] - 1
            counts[ci] = counts[ci] - 1
            if c.to_damaged then counts[c.to_damaged] = counts[c.to_damaged] + 1 end
            if maxmatch(S, counts, h[1], h[2], h[3]) == m - 1 then done = true break end
            if c.to_damaged then counts[c.to_damaged] = counts[c.to_damaged] - 1 end
            counts[ci] = counts[ci] + 1
            h[kind] = h[kind] + 1
          end
        end
      end
      if done then break end
    end
    if not done then break end
  end
  hit = encode(S, counts)
  memo[key] = hit
  return hit
end
M._assign = assign

-- ---- hit distributions ---------------------------------------------------------------------------

-- P(k hits) for dice hitting with probabilities ps (Poisson binomial)
local function poisson_binomial(ps)
  local d = { [0] = 1.0 }
  for i, p in ipairs(ps) do
    local nd = {}
    for k = 0, i do
      nd[k] = (d[k] or 0) * (1 - p) + (d[k - 1] or 0) * p
    end
    d = nd
  end
  return d, #ps
end

-- joint distribution {h1, h2, h3, p} of the hits of a firing list {kind, value} per die
local function fire_dist(dice, memo)
  local sig = {}
  for i, d in ipairs(dice) do sig[i] = d[1] .. ":" .. d[2] end
  sort(sig)
  local key = concat(sig, ",")
  local hit = memo[key]
  if hit then return hit end
  local ps = { {}, {}, {} }
  for _, d in ipairs(dice) do
    local l = ps[d[1]]
    l[#l + 1] = d[2] / 6
  end
  local d1, n1 = poisson_binomial(ps[1])
  local d2, n2 = poisson_binomial(ps[2])
  local d3, n3 = poisson_binomial(ps[3])
  local out = {}
  for a = 0, n1 do
    for b = 0, n2 do
      for c = 0, n3 do
        local p = d1[a] * d2[b] * d3[c]
        if p > 0 then out[#out + 1] = { a, b, c, p } end
      end
    end
  end
  memo[key] = out
  return out
end

-- the dice a side rolls: strikers (step 2) or the others (steps 3 and 4); each {kind, value}
local function dice_of(S, counts, step2, ss_side, friendly_frigate)
  local out = {}
  for i, c in ipairs(S.classes) do
    local n = counts[i]
    if n > 0 and not c.submerged then
      local rolls
      if step2 then rolls = c.kind == "sub" and ss_side
      else rolls = c.value > 0 and not (c.kind == "sub" and ss_side) end
      if rolls then
        local v = c.value
        if c.kind == "sub" and v <= 0 then v = 0 end
        if v > 0 then
          local kind = c.kind == "sub" and 1 or ((c.kind == "air" and not friendly_frigate) and 2 or 3)
          for _ = 1, n do out[#out + 1] = { kind, v } end
        end
      end
    end
  end
  return out
end

-- can side X (counts x) hit side Y (counts y)?
local function can_hurt(X, x, Y, y)
  local y_sea = has_kind(Y, y, function(c) return c.kind ~= "air" end)
  local y_nonsub = has_kind(Y, y, function(c) return c.kind ~= "sub" end)
  local y_sub = has_kind(Y, y, function(c) return c.kind == "sub" end)
  local frig = has_frigate(X, x)
  for i, c in ipairs(X.classes) do
    if x[i] > 0 and not c.submerged then
      if c.kind == "sub" then
        if y_sea then return true end
      elseif c.value > 0 then
        if c.kind == "air" then
          if y_nonsub or (y_sub and frig) then return true end
        elseif y_sea or y_nonsub then
          return true
        end
      end
    end
  end
  return false
end

-- the result at the end of a round (or before the first): nil when the battle goes on
local function result_of(A, a, D, d)
  local na, nd = in_battle(A, a), in_battle(D, d)
  if na == 0 and nd == 0 then return "both destroyed" end
  if na == 0 then return "defender holds" end
  if nd == 0 then return "attacker wins" end
  if not can_hurt(A, a, D, d) and not can_hurt(D, d, A, a) then return "no side can hit the other" end
  return nil
end

-- submarines that submerge at step 2 (policy), as new counts
local function submerge(S, counts)
  if not S.submerge then return counts end
  local alone = true
  for i, c in ipairs(S.classes) do
    if counts[i] > 0 and not c.submerged and c.kind ~= "sub" then alone = false end
  end
  if S.submerge == "alone" and not alone then return counts end
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

-- ---- one round ----------------------------------------------------------------------------------

-- the memo of one battle: the hit distributions met so far (fire), and the
-- work weighed, which may not pass `limit` (M.MAX_WORK)
local function new_memo(limit, what)
  limit = limit or M.MAX_WORK
  local m = { fire = {}, work = 0 }
  function m.spend(n)
    m.work = m.work + n
    if m.work > limit then
      error(("%s: more than %d battle positions and transitions to weigh, the limit of exact battle odds "
        .. "(fewer units, or a Monte Carlo estimate)"):format(what or "the battle", limit), 0)
    end
  end
  return m
end

-- both sides fire at once (dice_a at D's state xd, dice_d at A's state xa): the distributions
-- of A's and D's next states, {[x] = p}, and their keys in order
local function exchange(A, D, xa, xd, dice_a, dice_d, fmemo)
  local fa, fd = fire_dist(dice_a, fmemo.fire), fire_dist(dice_d, fmemo.fire)
  fmemo.spend(#fa + #fd)
  local on_d, on_a = {}, {}
  for _, o in ipairs(fa) do
    local x = assign(D, xd, o[1], o[2], o[3])
    on_d[x] = (on_d[x] or 0) + o[4]
  end
  for _, o in ipairs(fd) do
    local x = assign(A, xa, o[1], o[2], o[3])
    on_a[x] = (on_a[x] or 0) + o[4]
  end
  local ka, kd = {}, {}
  for x in pairs(on_a) do ka[#ka + 1] = x end
  for x in pairs(on_d) do kd[#kd + 1] = x end
  sort(ka); sort(kd)
  return on_a, on_d, ka, kd
end

-- the outcomes of one round from (xa, xd): list of {xa', xd', result|nil, p}
local function round(A, D, xa, xd, fmemo, retreat_at)
  local a0, d0 = decode(A, xa), decode(D, xd)
  -- step 2: a side's submarines strike unless an enemy frigate is in the battle
  local a_ss = not has_frigate(D, d0)
  local d_ss = not has_frigate(A, a0)
  local a1c = a_ss and submerge(A, a0) or a0
  local d1c = d_ss and submerge(D, d0) or d0
  local xa1, xd1 = encode(A, a1c), encode(D, d1c)
  local ss_a = dice_of(A, a1c, true, a_ss, false)
  local ss_d = dice_of(D, d1c, true, d_ss, false)
  local mids = {}   -- {xa, xd, p} after step 2
  if #ss_a == 0 and #ss_d == 0 then
    mids[1] = { xa1, xd1, 1.0 }
  else
    local on_a, on_d, ka, kd = exchange(A, D, xa1, xd1, ss_a, ss_d, fmemo)
    for _, x in ipairs(ka) do
      for _, y in ipairs(kd) do mids[#mids + 1] = { x, y, on_a[x] * on_d[y] } end
    end
  end
  local out = {}
  for _, m in ipairs(mids) do
    local a1, d1 = decode(A, m[1]), decode(D, m[2])
    if in_battle(A, a1) == 0 or in_battle(D, d1) == 0 then
      out[#out + 1] = { m[1], m[2], result_of(A, a1, D, d1), m[3] }
    else
      -- steps 3 and 4: each side fires at the other's state after step 2
      local on_a, on_d, ka, kd = exchange(A, D, m[1], m[2], dice_of(A, a1, false, a_ss, has_frigate(A, a1)),
        dice_of(D, d1, false, d_ss, has_frigate(D, d1)), fmemo)
      for _, x in ipairs(ka) do
        local a2 = decode(A, x)
        for _, y in ipairs(kd) do
          local d2 = decode(D, y)
          local r = result_of(A, a2, D, d2)
          if not r and retreat_at and in_battle(A, a2) <= retreat_at then r = "attacker retreats" end
          out[#out + 1] = { x, y, r, m[3] * on_a[x] * on_d[y] }
        end
        fmemo.spend(#kd)
      end
    end
  end
  return out
end

-- remaining hit capacity in the battle: every transition lowers it (or is a self-loop)
local function potential(S, counts)
  local n = 0
  for i, c in ipairs(S.classes) do
    if not c.submerged then n = n + counts[i] * c.cap end
  end
  return n
end

-- ---- the battle --------------------------------------------------------------------------------

M.RESULTS = { "attacker wins", "defender holds", "both destroyed", "no side can hit the other", "attacker retreats" }

local function side_text(S, counts)
  local parts = {}
  for i, c in ipairs(S.classes) do
    if counts[i] > 0 then
      parts[#parts + 1] = (counts[i] > 1 and (counts[i] .. " ") or "") .. c.key:gsub("~$", " (submerged)")
    end
  end
  return #parts > 0 and concat(parts, ", ") or "nothing"
end

--- The exact odds of a sea battle.
---@param spec table {attacker=, defender= (force text or list), attacker_side=, defender_side= ("Allies"|"Opfor"),
---   max_work= (the work the battle may weigh, default M.MAX_WORK; past it, an error naming the limit),
---   attacker_policy=, defender_policy= (a name or {order=, submerge=, retreat_at=}), policy= (both)}
---@return table r {p = {[result] = probability}, outcomes = { {p=, result=, attacker=text, defender=text} } (most
---   likely first), losses = {attacker = {units=, cost=, by_type={}}, defender = {...}}, states=, rounds=}
-- the two sides of a battle spec, ready to play: A, D, the attacker's retreat threshold
local function setup(spec, level)
  local fa, why = M.parse_force(spec.attacker)
  if not fa then error("attacker: " .. why, level + 1) end
  local fd, why2 = M.parse_force(spec.defender)
  if not fd then error("defender: " .. why2, level + 1) end
  local aside = spec.attacker_side or "Opfor"
  local dside = spec.defender_side or (aside == "Opfor" and "Allies" or "Opfor")
  local A = build_side(fa, "attacker", aside)
  local D = build_side(fd, "defender", dside)
  local ap, dp = spec.attacker_policy or spec.policy, spec.defender_policy or spec.policy
  local bad = check_policy(A, ap) or check_policy(D, dp)
  if bad then error(bad, level + 1) end
  set_preference(A, ap)
  set_preference(D, dp)
  A.assign_memo, D.assign_memo = {}, {}
  return A, D, type(ap) == "table" and ap.retreat_at or nil
end

local function keys_of(S, counts)
  local out = {}
  for i, c in ipairs(S.classes) do
    for _ = 1, counts[i] do out[#out + 1] = c.key end
  end
  sort(out)
  return out
end

--- The outcomes of the first round alone: { {p=, result= (nil: the battle goes on),
--- attacker = {class keys}, defender = {class keys}} } (the tests play the rule set's
--- battle round against it, die by die).
function M.first_round(spec)
  local A, D, retreat_at = setup(spec, 2)
  local out = {}
  for _, o in ipairs(round(A, D, encode(A, A.init), encode(D, D.init), new_memo(spec.max_work), retreat_at)) do
    out[#out + 1] = { p = o[4], result = o[3], attacker = keys_of(A, decode(A, o[1])), defender = keys_of(D, decode(D, o[2])) }
  end
  return out
end

function M.battle(spec)
  local A, D, retreat_at = setup(spec, 2)
  local fmemo = new_memo(spec.max_work, type(spec.attacker) == "string" and type(spec.defender) == "string"
    and ("%s against %s"):format(spec.attacker, spec.defender) or nil)
  local terminal = {}     -- "xa|xd|result" -> p
  local start_a, start_d = encode(A, A.init), encode(D, D.init)
  local buckets, maxpot = {}, 0
  local function push(xa, xd, p)
    local pot = potential(A, decode(A, xa)) + potential(D, decode(D, xd))
    local b = buckets[pot]
    if not b then b = {}; buckets[pot] = b end
    local k = xa * D.size + xd
    b[k] = (b[k] or 0) + p
    if pot > maxpot then maxpot = pot end
  end
  local function finish(xa, xd, r, p)
    local k = xa .. "|" .. xd .. "|" .. r
    terminal[k] = (terminal[k] or 0) + p
  end
  local r0 = result_of(A, A.init, D, D.init)
  if r0 then finish(start_a, start_d, r0, 1.0) else push(start_a, start_d, 1.0) end
  local states, rounds = 0, 0.0
  for pot = maxpot, 0, -1 do
    local b = buckets[pot]
    if b then
      local keys = {}
      for k in pairs(b) do keys[#keys + 1] = k end
      sort(keys)
      for _, k in ipairs(keys) do
        local mass = b[k]
        states = states + 1
        local xa, xd = k // D.size, k % D.size
        local outs = round(A, D, xa, xd, fmemo, retreat_at)
        local stay = 0
        for _, o in ipairs(outs) do
          if o[3] == nil and o[1] == xa and o[2] == xd then stay = stay + o[4] end
        end
        if stay >= 1 - 1e-15 then
          finish(xa, xd, "no side can hit the other", mass)
        else
          local scale = mass / (1 - stay)
          rounds = rounds + scale      -- expected rounds: each visit lasts 1/(1-stay) rounds
          for _, o in ipairs(outs) do
            if not (o[3] == nil and o[1] == xa and o[2] == xd) then
              local p = o[4] * scale
              if o[3] then finish(o[1], o[2], o[3], p) else push(o[1], o[2], p) end
            end
          end
        end
      end
      buckets[pot] = nil
    end
  end
  -- results, outcomes and losses
  local res = { p = {}, outcomes = {}, states = states, rounds = rounds, attacker = A, defender = D,
                attacker_order = A.list, defender_order = D.list }
  for _, r in ipairs(M.RESULTS) do res.p[r] = 0.0 end
  local losses = { attacker = { units = 0, cost = 0, by_type = {} }, defender = { units = 0, cost = 0, by_type = {} } }
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
    for t, n in pairs(init_type) do L.by_type[t] = (L.by_type[t] or 0) + p * (n - (left_type[t] or 0)) end
  end
  local tkeys = {}
  for k in pairs(terminal) do tkeys[#tkeys + 1] = k end
  sort(tkeys)
  for _, k in ipairs(tkeys) do
    local p = terminal[k]
    local xa, xd, r = k:match("^(%d+)|(%d+)|(.*)$")
    local a, d = decode(A, math.tointeger(tonumber(xa))), decode(D, math.tointeger(tonumber(xd)))
    res.p[r] = res.p[r] + p
    res.outcomes[#res.outcomes + 1] = { p = p, result = r, attacker = side_text(A, a), defender = side_text(D, d),
                                        attacker_counts = a, defender_counts = d }
    lose(losses.attacker, A, a, p)
    lose(losses.defender, D, d, p)
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

-- ---- single-step distributions (exact fractions) ---------------------------------------------------

--- The exact hit distribution of a Surprise Strike by these submarines (attacking or
--- defending): keel.odds.hits_mixed over their values.
---@param force string|table e.g. "3 submarine"
---@param role? string "attacker" (default) or "defender"
function M.surprise_strike(force, role)
  local f = assert(M.parse_force(force))
  local th = {}
  for _, item in ipairs(f) do
    if item.type ~= "submarine" then error("only submarines make a Surprise Strike, not " .. item.type, 2) end
    local d = unit_data(item.type)
    for _ = 1, item.n or 1 do th[#th + 1] = (role == "defender") and d.defense or d.attack end
  end
  if #th > dice_expr.max_dice(6) then error(dice_expr.too_many(type(force) == "string" and force or "the force", #th, 6), 0) end
  return kodds.hits_mixed(th, 6)
end

--- The exact hit distribution of an offshore bombardment: cruisers hit on 4 or less,
--- destroyers on 3 or less (units.cruisers/destroyers.offshore-bombardment).
M.BOMBARD = { cruiser = 4, destroyer = 3 }
function M.bombardment(force)
  local f = assert(M.parse_force(force))
  local th = {}
  for _, item in ipairs(f) do
    local v = M.BOMBARD[item.type]
    if not v then error("only cruisers and destroyers bombard, not " .. item.type, 2) end
    for _ = 1, item.n or 1 do th[#th + 1] = v end
  end
  if #th > dice_expr.max_dice(6) then error(dice_expr.too_many(type(force) == "string" and force or "the force", #th, 6), 0) end
  return kodds.hits_mixed(th, 6)
end

-- ---- Monte Carlo (the reference the exact odds are compared with) ----------------------------------

--- n battles with keel's dice, the same rules and policies: {p = {[result] = share}, n=}.
--- Each firing group rolls through dice:histogram (one call per group and step).
function M.simulate(spec, n, seed)
  local keel = require "keel"
  local A, D, retreat_at = setup(spec, 2)
  local dice = keel.dice.new(seed or 1)
  local hist = { stream = "montecarlo" }
  -- hits of a firing list, by kind
  local function roll(list)
    local groups = {}
    for _, d in ipairs(list) do
      local k = d[1] * 16 + d[2]
      groups[k] = (groups[k] or 0) + 1
    end
    local h = { 0, 0, 0 }
    local ks = {}
    for k in pairs(groups) do ks[#ks + 1] = k end
    sort(ks)
    for _, k in ipairs(ks) do
      local kind, v = k // 16, k % 16
      local counts = dice:histogram("1d6", groups[k], hist)
      local hits = 0
      for f = 1, v do hits = hits + (counts[f] or 0) end
      h[kind] = h[kind] + hits
    end
    return h
  end
  local tally = {}
  for _, r in ipairs(M.RESULTS) do tally[r] = 0 end
  for _ = 1, n do
    local xa, xd = encode(A, A.init), encode(D, D.init)
    local r = result_of(A, A.init, D, D.init)
    while not r do
      local a0, d0 = decode(A, xa), decode(D, xd)
      local a_ss, d_ss = not has_frigate(D, d0), not has_frigate(A, a0)
      local a1 = a_ss and submerge(A, a0) or a0
      local d1 = d_ss and submerge(D, d0) or d0
      xa, xd = encode(A, a1), encode(D, d1)
      local ha, hd = roll(dice_of(A, a1, true, a_ss, false)), roll(dice_of(D, d1, true, d_ss, false))
      xd = assign(D, xd, ha[1], ha[2], ha[3])
      xa = assign(A, xa, hd[1], hd[2], hd[3])
      a1, d1 = decode(A, xa), decode(D, xd)
      if in_battle(A, a1) == 0 or in_battle(D, d1) == 0 then
        r = result_of(A, a1, D, d1)
      else
        ha = roll(dice_of(A, a1, false, a_ss, has_frigate(A, a1)))
        hd = roll(dice_of(D, d1, false, d_ss, has_frigate(D, d1)))
        xd = assign(D, xd, ha[1], ha[2], ha[3])
        xa = assign(A, xa, hd[1], hd[2], hd[3])
        local a2, d2 = decode(A, xa), decode(D, xd)
        r = result_of(A, a2, D, d2)
        if not r and retreat_at and in_battle(A, a2) <= retreat_at then r = "attacker retreats" end
      end
    end
    tally[r] = tally[r] + 1
  end
  local p = {}
  for _, r in ipairs(M.RESULTS) do p[r] = tally[r] / n end
  return { p = p, n = n, counts = tally }
end

-- ---- text (keel odds seazone:battle) ------------------------------------------------------------------------

local function pct(p) return ("%9.4f%%"):format(100 * p) end

--- Lines of a battle's odds, as `keel odds seazone:battle` prints them (opts.top: outcomes shown).
function M.format(r, opts)
  opts = opts or {}
  local out = {}
  out[#out + 1] = ("Sea battle, exact odds (seazone rules; %d battle states)"):format(r.states)
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

function M.format_hits(o, title)
  local out = { title }
  out[#out + 1] = ("  %4s  %9s  %s"):format("hits", "chance", "exact")
  for _, r in ipairs(o.rows) do
    out[#out + 1] = ("  %4d  %s  %s"):format(r.hits, pct(r.count / o.den), kodds.format_fraction(r.count, o.den))
  end
  return concat(out, "\n")
end

-- ---- options as `keel odds seazone:battle` takes them -----------------------------------------

--- A casualty policy from option text: a name (cheapest, keep_carriers), or entries
--- "damage:cruiser,destroyer,cruiser", with a submerge choice and a retreat threshold.
function M.policy_from_text(v, sub, retreat_at)
  if v == nil and sub == nil and retreat_at == nil then return "cheapest" end
  local order = v or "cheapest"
  if not NAMED[order] then
    local list = {}
    for e in order:gmatch("[^,%s]+") do list[#list + 1] = e end
    order = list
  end
  return { order = order, submerge = sub, retreat_at = retreat_at }
end

return M

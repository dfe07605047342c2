--- keel.lab_pairs — the paired comparisons of a study with two sides
-- (keel.lab): game i of the base and game i of the variant start from the
-- same seed (and, with players, the same players in the same seats), so
-- each pair of games is compared with itself. What is kept is again
-- sufficient statistics that slices merge exactly:
--
--   pairs = { n = pairs of completed games,
--             met = { [order] = {b, c} },              -- yes/no: expectations met
--             cat = { [outcome] = { [value] = {b, c} } },  -- yes/no: the outcome took this value
--             num = { [outcome] = { [difference] = count } } }  -- numbers: variant - base
--
-- where b counts the pairs yes on the base only and c those yes on the
-- variant only (the pairs that agree say nothing about a difference).
-- M.report turns them into tests: McNemar (the exact binomial on b + c)
-- for every yes/no, the Wilcoxon signed-rank test (and the paired t
-- interval) for every number, Holm's adjustment over all of them.
local json = require "keel.json"
local stats = require "keel.stats"
local sorted_keys = require("keel.keys").sorted

local type, ipairs, pairs, tostring, error = type, ipairs, pairs, tostring, error

local M = {}

--- An empty record of pairs.
function M.new() return { n = 0, met = {}, cat = {}, num = {} } end

--- The key of an outcome's value: the value as JSON ("null" for none).
function M.value_key(v)
  if v == nil then return "null" end
  return json.encode(v)
end
local value_key = M.value_key

local function yes_no(t, key, a, b)
  if a == b then return end
  local e = t[key]
  if not e then e = { 0, 0 }; t[key] = e end
  if a then e[1] = e[1] + 1 else e[2] = e[2] + 1 end
end

--- Count one pair: the records (keel.lab_game.play, both ok) of game i on
--- the base (a) and on the variant (b).
---@param pairs_ table from M.new
---@param outcomes table[] the study's outcome defs
function M.add(pairs_, outcomes, a, b)
  pairs_.n = pairs_.n + 1
  for i = 1, math.max(#a.met, #b.met) do
    yes_no(pairs_.met, tostring(i), a.met:sub(i, i) == "1", b.met:sub(i, i) == "1")
  end
  for _, d in ipairs(outcomes) do
    local va, vb = a.outcomes[d.name], b.outcomes[d.name]
    if type(va) == "number" and type(vb) == "number" then
      local h = pairs_.num[d.name]
      if not h then h = {}; pairs_.num[d.name] = h end
      local k = value_key(vb - va)
      h[k] = (h[k] or 0) + 1
    end
    local ka, kb = value_key(va), value_key(vb)
    if ka ~= kb then
      local t = pairs_.cat[d.name]
      if not t then t = {}; pairs_.cat[d.name] = t end
      yes_no(t, ka, true, false)   -- the base's value: yes on the base only
      yes_no(t, kb, false, true)   -- the variant's: yes on the variant only
    end
  end
end

--- Add pairs `b` into `a` (a merge of slices).
function M.merge(a, b)
  a.n = a.n + b.n
  for key, e in pairs(b.met) do   -- sums: the order is of no account
    local o = a.met[key] or { 0, 0 }
    a.met[key] = o
    o[1], o[2] = o[1] + e[1], o[2] + e[2]
  end
  for name, t in pairs(b.cat) do
    local ot = a.cat[name] or {}
    a.cat[name] = ot
    for key, e in pairs(t) do
      local o = ot[key] or { 0, 0 }
      ot[key] = o
      o[1], o[2] = o[1] + e[1], o[2] + e[2]
    end
  end
  for name, h in pairs(b.num) do
    local oh = a.num[name] or {}
    a.num[name] = oh
    for key, c in pairs(h) do oh[key] = (oh[key] or 0) + c end
  end
  return a
end

local function whole(v) return math.type(v) == "integer" and v >= 0 end

--- Check pairs read back; raises "WHERE: what is wrong". At most `most` pairs.
function M.check(p, most, where)
  local function bad(what, ...) error(("%s: pairs: " .. what):format(where, ...), 0) end
  if type(p) ~= "table" or not whole(p.n) then bad("\"n\" wants the number of pairs") end
  if p.n > most then bad("%d pairs, but only %d games completed on a side", p.n, most) end
  local function bc(e, what)
    if type(e) ~= "table" or not whole(e[1]) or not whole(e[2]) or e[1] + e[2] > p.n then
      bad("%s wants [b, c]: pairs that differ, at most the %d pairs", what, p.n)
    end
  end
  for _, f in ipairs { "met", "cat", "num" } do
    if type(p[f]) ~= "table" then bad("no \"%s\"", f) end
  end
  for key, e in pairs(p.met) do bc(e, "met " .. tostring(key)) end
  for name, t in pairs(p.cat) do
    if type(t) ~= "table" then bad("cat %s wants an object", tostring(name)) end
    for key, e in pairs(t) do bc(e, ("cat %s %s"):format(tostring(name), tostring(key))) end
  end
  for name, h in pairs(p.num) do
    if type(h) ~= "table" then bad("num %s wants a histogram", tostring(name)) end
    local n = 0
    for key, c in pairs(h) do
      if not whole(c) or type(tonumber(key)) ~= "number" then bad("num %s: a count per difference", tostring(name)) end
      n = n + c
    end
    if n > p.n then bad("num %s counts %d pairs of %d", tostring(name), n, p.n) end
  end
  return p
end

-- a number's histogram (text keys) as numbers -> counts, with n, sum, sumsq in value order
local function numeric(h)
  local counts, keys = {}, {}
  for key, c in pairs(h) do   -- gathered, then summed in value order below
    local x = tonumber(key)
    if counts[x] == nil then keys[#keys + 1] = x end
    counts[x] = (counts[x] or 0) + c
  end
  table.sort(keys)
  local n, sum, sumsq = 0, 0, 0
  for _, x in ipairs(keys) do
    local c = counts[x]
    n, sum, sumsq = n + c, sum + c * x, sumsq + c * x * x
  end
  return counts, n, sum, sumsq
end

local R = stats.round

--- The paired comparisons of a study: a list of entries, each a yes/no
--- ({what, value, b, c, diff, lo, hi, p, test}) or a number ({what, n,
--- mean, lo, hi, w, p, p_t, test}), every p also adjusted by Holm over
--- the whole list (p_holm) and `significant` at stats.ALPHA after it.
--- Yes/no entries only where some pair differs.
---@param study table
---@return table[] entries, integer comparisons
function M.report(study)
  local p = study.pairs
  local out = {}
  if not p or p.n == 0 then return out, 0 end
  local n = p.n
  local function yes_no_entry(what, value, e)
    local d, lo, hi, pv = stats.mcnemar(n, e[1], e[2])
    out[#out + 1] = { what = what, value = value, b = e[1], c = e[2], diff = R(d), lo = R(lo), hi = R(hi), p = pv,
                      test = "McNemar (exact binomial on the pairs that differ)" }
  end
  for i, o in ipairs(study.orders or {}) do
    local e = p.met[tostring(i)]
    if e then yes_no_entry(("order %d met: %s"):format(i, o.text), nil, e) end
  end
  for _, d in ipairs(study.outcomes or {}) do
    local h = p.num[d.name]
    if h then
      local counts, m, sum, sumsq = numeric(h)
      local mean, lo, hi, _, _, pt = stats.paired_t(m, sum, sumsq)
      local w, nz, pw, how = stats.signed_rank(counts)
      out[#out + 1] = { what = d.name, n = m, nonzero = nz, mean = R(mean), lo = R(lo), hi = R(hi), w = R(w),
                        p = pw, p_t = R(pt), test = "Wilcoxon signed rank (" .. how .. "); interval: paired t" }
    else
      local t = p.cat[d.name]
      if t then
        for _, key in ipairs(sorted_keys(t)) do
          local v = json.decode(key)
          if v == json.null then v = nil end
          yes_no_entry(d.name, v, t[key])
        end
      end
    end
  end
  local ps = {}
  for i, e in ipairs(out) do ps[i] = e.p end
  local adj = stats.holm(ps)
  for i, e in ipairs(out) do
    e.p_holm = R(adj[i])
    e.significant = adj[i] < stats.ALPHA
    e.p = R(e.p)
  end
  return out, #out
end

return M

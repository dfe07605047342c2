--- keel.lab_report — a study's report (keel.lab.report) as a table for the
-- terminal and as an SVG chart of the outcome distributions, the sides of
-- the study side by side.
--
--   local lab_report = require "keel.lab_report"
--   io.write(lab_report.text(study))
--   local svg = lab_report.svg(study)
-- luacheck: max line length 160
local lab = require "keel.lab"
local json = require "keel.json"

local fmt, concat = string.format, table.concat
local ipairs, tostring, type = ipairs, tostring, type
local max, min, floor = math.max, math.min, math.floor

local M = {}

--- The colours of the sides (base, variant) in the SVG.
M.COLORS = { "#4c72b0", "#dd8452" }

local function side_label(s)
  if #s.variants == 0 then return "the scenario as it is" end
  return "+ " .. concat(s.variants, " + ")
end

local function cut(s, n)
  s = tostring(s)
  if #s <= n then return s end
  return s:sub(1, n - 3) .. "..."
end

local function pct(x) return x and fmt("%.1f", 100 * x) or "-" end

local function rate_text(e)
  if not e.rate then return "-" end
  return fmt("%5s [%s, %s]", pct(e.rate), pct(e.lo), pct(e.hi))
end

local function num(x)
  if x == nil then return "-" end
  if math.type(x) == "integer" then return tostring(x) end
  return fmt("%.2f", x)
end

local function mean_text(e)
  if not e.mean then return "-" end
  if not e.lo then return num(e.mean) end
  return fmt("%s [%s, %s]", num(e.mean), num(e.lo), num(e.hi))
end

local function p_text(p)
  if p == nil then return "" end
  if p < 0.0001 then return "p<0.0001" end
  return fmt("p=%.4f", p)
end

local function diff_text(d, as_pct)
  if not d then return "" end
  local delta = as_pct and fmt("%+.1f", 100 * d.delta) or fmt("%+.2f", d.delta)
  return fmt("%s %s %s", delta, d.significant and "*" or " ", p_text(d.p))
end

local function value_text(v)
  if v == nil then return "(none)" end
  if type(v) == "string" then return v end
  return json.encode(v)
end

--- The report as text: one column per side, and the difference with two.
---@param study table
---@return string
function M.text(study)
  local rep = lab.report(study)
  local sides = study.sides
  local two = #sides == 2
  local L = {}
  local function add(...) L[#L + 1] = fmt(...) end
  -- a section's rows are laid out when it ends: each column as wide as its widest cell
  local pending
  local function row(label, cols, diff)
    pending[#pending + 1] = { cut(label, 48), cols, two and diff or nil }
  end
  local function flush()
    if not pending then return end
    if #pending == 1 then pending = nil return end   -- the column names alone: nothing to list
    local lw, cw = 0, {}
    for _, r in ipairs(pending) do
      lw = max(lw, #r[1])
      for k, c in ipairs(r[2]) do cw[k] = max(cw[k] or 0, #c) end
    end
    for _, r in ipairs(pending) do
      local parts = { "  ", r[1], (" "):rep(lw - #r[1] + 2) }
      for k, c in ipairs(r[2]) do parts[#parts + 1] = c .. (" "):rep(cw[k] - #c + 3) end
      if r[3] then parts[#parts + 1] = r[3] end
      L[#L + 1] = (concat(parts):gsub("%s+$", ""))
    end
    pending = nil
  end
  local function header(title)
    flush()
    L[#L + 1] = ""
    L[#L + 1] = title
    pending = {}
    local names = {}
    for k, s in ipairs(sides) do names[k] = s.name end
    row("", names, "difference")
  end

  add("keel lab: %s", study.scenario.name or study.scenario.file)
  add("  scenario %s, %d game(s)%s%s, master seed %d", study.scenario.file, study.games, #sides > 1 and " on each side" or "",
    lab.is_complete(study) and "" or fmt(" (shard(s) %s of %d)", concat(study.have, ","), study.shards), study.master)
  add("  seeds: %s", lab.SEEDS)
  if study.mode == "players" then
    local seats = {}
    for i, x in ipairs(study.seats or {}) do seats[i] = fmt("%s = %s", x.side, x.spec) end
    add("  played to the end by players: %s%s", concat(seats, ", "),
      study.swap and "; every seed twice, the second time with the seats swapped" or "")
  else
    add("  scripted: every game plays the scenario's orders")
  end
  for _, s in ipairs(sides) do
    add("  %-8s %-44s %d played, %d completed, %d failed", s.name, cut(side_label(s), 44), s.played, s.completed, #s.failures)
  end
  add("  [95%% intervals: Wilson for rates, normal for means%s]",
    two and "; difference = variant - base, * where p < 0.05 (two-proportion z-test for rates, Welch's t-test for means)" or "")

  if study.mode ~= "players" then
    header("expectations met (% of completed games)")
    local always = {}
    for _, e in ipairs(rep.expectations) do
      local all = true
      for _, s in ipairs(e.sides) do if s.count ~= s.n then all = false end end
      if all then
        always[#always + 1] = e.order
      else
        local cols = {}
        for k, s in ipairs(e.sides) do cols[k] = rate_text(s) end
        row(fmt("%d %s", e.order, e.text), cols, diff_text(e.diff, true))
      end
    end
    flush()
    if #always > 0 then
      add("  %s: met in every game%s", #always == #rep.expectations and "every order" or
        ("order(s) " .. concat(always, ", ")), #sides > 1 and " on every side" or "")
    end
  end

  if #rep.outcomes > 0 then
    header("outcomes (mean [95% CI] of numbers; % of games for each value)")
    for _, o in ipairs(rep.outcomes) do
      if o.numeric then
        local cols = {}
        for k, s in ipairs(o.sides) do cols[k] = mean_text(s) end
        row(o.title ~= o.name and fmt("%s: %s", o.name, o.title) or o.name, cols, diff_text(o.diff))
      else
        row(o.title ~= o.name and fmt("%s: %s", o.name, o.title) or o.name, {}, nil)
      end
      for _, v in ipairs(o.distribution) do
        local cols = {}
        for k, s in ipairs(v.sides) do cols[k] = rate_text(s) end
        row("    " .. value_text(v.value), cols, diff_text(v.diff, true))
      end
    end
  end

  local never = {}
  for _, o in ipairs(rep.outcomes) do if o.never then never[#never + 1] = o.name end end
  if #never > 0 then
    flush()
    add("  never written by any game: %s (what they read was never set: check the outcome)", concat(never, ", "))
  end

  if rep.paired and #rep.paired > 0 then
    flush()
    L[#L + 1] = ""
    add("paired comparisons (game i of both sides from the same seed): variant - base")
    add("  [McNemar's exact test for yes/no, Wilcoxon's signed-rank test for numbers (interval: paired t);")
    add("   p adjusted by Holm over the %d comparisons below, * where the adjusted p < 0.05]", rep.comparisons)
    pending = {}
    for _, e in ipairs(rep.paired) do
      local label = e.b ~= nil and fmt("%s = %s", e.what, value_text(e.value)) or e.what
      if e.b == nil then
        pending[#pending + 1] = { cut(label, 48), { fmt("%s [%s, %s]", num(e.mean), num(e.lo), num(e.hi)),
          fmt("%d pairs, %d differ", e.n, e.nonzero or 0) }, fmt("%s %s  Holm %s", e.significant and "*" or " ",
          p_text(e.p), p_text(e.p_holm)) }
      else
        pending[#pending + 1] = { cut(label, 48), { fmt("%+.1f [%+.1f, %+.1f]", 100 * e.diff, 100 * e.lo, 100 * e.hi),
          fmt("%d base only, %d variant only", e.b, e.c) }, fmt("%s %s  Holm %s", e.significant and "*" or " ",
          p_text(e.p), p_text(e.p_holm)) }
      end
    end
    table.insert(pending, 1, { "", { "difference", "pairs" }, "" })
    flush()
  end
  local sq = rep.sequential
  if sq then
    L[#L + 1] = ""
    add("sequential test (Wald's SPRT on the pairs that differ in %s; p1 %.2f, alpha %.2f, beta %.2f):", sq.watch,
      sq.p1, sq.alpha, sq.beta)
    add("  %s after %d of at most %d games (%d pairs: %d base only, %d variant only)",
      sq.decided == "effect" and "an effect: decided" or sq.decided == "none" and "no effect: decided" or "not decided",
      sq.games, sq.max, sq.pairs, sq.b, sq.c)
    if sq.fixed_games then
      add("  a fixed-size study of the same power: about %d games (%d differing pairs at the rate seen); %s",
        sq.fixed_games, sq.fixed_discordant, sq.saved >= 0 and fmt("%d saved", sq.saved) or fmt("%d more played", -sq.saved))
    end
  end

  for _, what in ipairs { { "rules", "rules fired (times per game, mean [95% CI]; % of games)" },
                          { "rows", "table rows (times per game, mean [95% CI]; % of games)" } } do
    local list = rep[what[1]]
    if #list > 0 then
      header(what[2])
      for _, e in ipairs(list) do
        local cols = {}
        for k, s in ipairs(e.sides) do
          cols[k] = s.absent and "(not in its rules)" or fmt("%s %s%%", mean_text(s), pct(s.games.rate))
        end
        local d = ""
        if e.diff then
          local m, g = e.diff.mean, e.diff.games
          d = fmt("%s %s %s", m and fmt("%+.2f", m.delta) or "+0.00", e.diff.significant and "*" or " ",
            p_text(math.min(m and m.p or 1, g and g.p or 1)))
        end
        row(e.key, cols, d)
      end
    end
  end

  flush()
  local any = false
  for k, s in ipairs(sides) do
    if #s.failures > 0 then
      if not any then L[#L + 1] = ""; L[#L + 1] = "failed games (each replays alone with the command below it)"; any = true end
      for i, f in ipairs(s.failures) do
        if i > 20 then add("  %s: %d more in the JSON report", s.name, #s.failures - 20) break end
        add("  %s game %d, seed %d: %s%s: %s", s.name, f.game, f.seed, f.kind,
          f.order > 0 and fmt(" in order %d", f.order) or "", cut(f.message, 120))
        add("    %s", lab.replay_command(study, k, f.seed, f.game))
      end
    end
  end
  L[#L + 1] = ""
  return concat(L, "\n")
end

-- ---- SVG -------------------------------------------------------------------------------

local function esc(s) return require("keel.render").esc(s) end

-- The bars of one outcome: {label, {rate, lo, hi} per side}; numbers with
-- more distinct values than `bins` go into equal bins.
local function bars_of(o, nsides, bins)
  local list = {}
  local dist = o.distribution
  if o.numeric and #dist > bins then
    local lo, hi = dist[1].value, dist[#dist].value
    local width = (hi - lo) / bins
    for b = 1, bins do
      local a = lo + (b - 1) * width
      list[b] = { label = fmt("%.4g-%.4g", a, a + width), counts = {}, n = {} }
      for k = 1, nsides do list[b].counts[k], list[b].n[k] = 0, 0 end
    end
    for _, v in ipairs(dist) do
      local b = min(bins, floor((v.value - lo) / width) + 1)
      for k, s in ipairs(v.sides) do
        list[b].counts[k] = list[b].counts[k] + s.count
        list[b].n[k] = s.n
      end
    end
    for _, bar in ipairs(list) do
      bar.sides = {}
      for k = 1, nsides do
        local n = bar.n[k]
        local lo_, hi_ = require("keel.stats").wilson(bar.counts[k], n)
        bar.sides[k] = { rate = n > 0 and bar.counts[k] / n or nil, lo = lo_, hi = hi_ }
      end
    end
    return list
  end
  for i, v in ipairs(dist) do list[i] = { label = value_text(v.value), sides = v.sides } end
  return list
end

--- The distributions of the outcomes, the expectations not always met and
--- the rows of each table that came up, as an SVG chart: one panel each,
--- the sides' bars side by side, each with its 95% interval.
---@param study table
---@return string
function M.svg(study)
  local rep = lab.report(study)
  local sides = study.sides
  local panels = {}
  for _, o in ipairs(rep.outcomes) do
    local sub = {}
    if o.numeric then
      for k, s in ipairs(o.sides) do sub[#sub + 1] = fmt("%s mean %s", sides[k].name, mean_text(s)) end
    end
    panels[#panels + 1] = { title = fmt("%s: %s", o.name, o.title), sub = concat(sub, "   "), bars = bars_of(o, #sides, 24) }
  end
  local missed = {}
  for _, e in ipairs(rep.expectations) do
    local all = true
    for _, s in ipairs(e.sides) do if s.count ~= s.n then all = false end end
    if not all then missed[#missed + 1] = { label = tostring(e.order), sides = e.sides } end
  end
  if #missed > 0 then
    panels[#panels + 1] = { title = "expectations met, by order (orders met in every game left out)", bars = missed }
  end
  -- each table that came up: the share of games each of its rows came up in
  local by_table, names = {}, {}
  for _, e in ipairs(rep.rows) do
    local name, rest = e.key:match("^(%S+) (.*)$")
    if not by_table[name] then by_table[name] = {}; names[#names + 1] = name end
    local sides_ = {}
    for k, sd in ipairs(e.sides) do sides_[k] = sd.games end
    by_table[name][#by_table[name] + 1] = { label = rest, sides = sides_ }
  end
  for _, name in ipairs(names) do
    panels[#panels + 1] = { title = "table " .. name .. ": games in which each row came up", bars = by_table[name] }
  end
  local PW, PH, COLS = 520, 260, 2
  local ncols = min(COLS, max(1, #panels))
  local nrows = max(1, floor((#panels + ncols - 1) / ncols))
  local W, top = ncols * PW + 20, 70
  local H = top + nrows * PH + 10
  local out = {}
  local function add(...) for i = 1, select("#", ...) do out[#out + 1] = select(i, ...) end end
  add(fmt('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif">\n', W, H, W, H))
  add(fmt('<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>\n', W, H))
  add(fmt('<text x="10" y="22" font-size="16" font-weight="bold">%s</text>\n',
    esc(fmt("keel lab: %s — %d game(s), master seed %d", study.scenario.name or study.scenario.file, study.games, study.master))))
  for k, s in ipairs(sides) do
    local x = 10 + (k - 1) * 480
    add(fmt('<rect x="%d" y="34" width="14" height="14" fill="%s"/>', x, M.COLORS[k] or "#888888"))
    add(fmt('<text x="%d" y="46" font-size="12">%s</text>\n', x + 20,
      esc(fmt("%s: %s (%d completed, %d failed)", s.name, cut(side_label(s), 40), s.completed, #s.failures))))
  end
  add(fmt('<text x="10" y="62" font-size="10" fill="#555555">%s</text>\n',
    esc("% of completed games; whiskers: 95% Wilson intervals")))
  if #panels == 0 then
    add(fmt('<text x="10" y="%d" font-size="12">%s</text>\n', top + 20,
      esc("the scenario names no outcomes (outcomes = { ... }, doc/guide.md) and met every expectation")))
  end
  for i, p in ipairs(panels) do
    local px = 10 + ((i - 1) % ncols) * PW
    local py = top + floor((i - 1) / ncols) * PH
    local x0, y0, w, h = px + 40, py + 34, PW - 60, PH - 90
    add(fmt('<g class="panel">\n<text x="%d" y="%d" font-size="13" font-weight="bold">%s</text>\n', px, py + 14, esc(cut(p.title, 70))))
    if p.sub and p.sub ~= "" then add(fmt('<text x="%d" y="%d" font-size="10" fill="#333333">%s</text>\n', px, py + 27, esc(cut(p.sub, 90)))) end
    for _, g in ipairs { 0, 25, 50, 75, 100 } do
      local y = y0 + h - h * g / 100
      add(fmt('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#dddddd"/><text x="%d" y="%.1f" font-size="9" text-anchor="end">%d%%</text>\n',
        x0, y, x0 + w, y, x0 - 4, y + 3, g))
    end
    local nb = max(1, #p.bars)
    local slot = min(w / nb, 140)
    local bw = slot * 0.8 / #sides
    for b, bar in ipairs(p.bars) do
      local sx = x0 + (b - 1) * slot + slot * 0.1
      for k, s in ipairs(bar.sides) do
        local x = sx + (k - 1) * bw
        local r = s.rate or 0
        add(fmt('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>\n', x, y0 + h - h * r, bw, h * r,
          M.COLORS[k] or "#888888", esc(fmt("%s %s: %s%%", sides[k].name, bar.label, pct(s.rate)))))
        if s.lo and s.hi then
          local cx = x + bw / 2
          add(fmt('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#222222"/>\n', cx, y0 + h - h * s.lo, cx, y0 + h - h * s.hi))
        end
      end
      local lx, ly = sx + slot * 0.4, y0 + h + 12
      if nb > 6 then
        add(fmt('<text x="%.1f" y="%.1f" font-size="9" text-anchor="end" transform="rotate(-40 %.1f %.1f)">%s</text>\n',
          lx, ly, lx, ly, esc(cut(bar.label, 18))))
      else
        add(fmt('<text x="%.1f" y="%.1f" font-size="10" text-anchor="middle">%s</text>\n', lx, ly, esc(cut(bar.label, 24))))
      end
    end
    add(fmt('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333333"/>\n</g>\n', x0, y0 + h, x0 + w, y0 + h))
  end
  add("</svg>\n")
  return concat(out)
end

return M

--- bench/lib.lua — timing helpers for keel's benchmarks (not for rules:
-- benchmarks may read the clock; rules never do).
local M = {}

--- Run fn(n) with n growing until it takes at least `min_s` seconds;
--- return seconds per iteration.
---@param fn fun(n: integer)
---@param min_s? number
function M.time(fn, min_s)
  min_s = min_s or 0.2
  local n = 1
  while true do
    local t0 = os.clock()
    fn(n)
    local dt = os.clock() - t0
    if dt >= min_s then return dt / n end
    n = n * (dt < min_s / 10 and 10 or 2)
  end
end

local units = { { 1e-9, "ns" }, { 1e-6, "µs" }, { 1e-3, "ms" }, { 1, "s" } }
function M.fmt_time(s)
  local u = units[1]
  for _, cand in ipairs(units) do if s >= cand[1] then u = cand end end
  return ("%.1f %s"):format(s / u[1], u[2])
end

--- Print one comparison line: keel's seconds per op beside a reference's.
function M.compare(what, keel_s, ref_name, ref_s)
  local ratio = ref_s / keel_s
  print(("%-44s keel %10s | %s %10s | ratio " .. (ratio < 0.1 and "%.4fx" or "%.2fx")):format(what .. ":",
    M.fmt_time(keel_s), ref_name, M.fmt_time(ref_s), ratio))
end

return M

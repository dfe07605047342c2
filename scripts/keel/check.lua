--- keel.check — `keel check PATH...`: what an author runs before sharing a
-- mod. Each PATH is a rule family (a folder holding manifest.lua), a
-- variant (a file that begins with `variant { ... }`) or a scenario (any
-- other .lua file); each is loaded in the sandbox as `keel run` loads it,
-- and every problem found is one line "file:line: what is wrong":
--
--   * what loading refuses: an unknown event, a variant that changes a rule
--     id or a table row the rule set does not have, a table row that does
--     not parse, a scenario field ... (the first mistake of each file: a
--     family's rule and table files are loaded one by one, so a mistake in
--     one does not hide those of the others);
--   * what loads but will not play well: an action without a `side` (who
--     may take it), a required parameter without a `domain` in an action a
--     player takes (a user interface, and keel play's players, have no
--     values to offer), a rule or table whose title says it is a stand-in
--     without `standin` naming the chapter it stands in for;
--   * a family's tests (its tests/*.lua scenarios) and a scenario's orders:
--     each expectation not met, with the order's line;
--   * luacheck's warnings, with keel's stds (keel.luacheck_stds), when
--     luacheck is installed.
--
-- Only families outside keel's own scripts folder are checked for the
-- second kind (keel's own are checked by its tests).
local keel = require "keel"
local errors = require "keel.errors"
local sorted_keys = require("keel.keys").sorted

local M = {}

local concat = table.concat

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() return true end
  return false
end

local function dir_of(path) return path:match("^(.*)/[^/]*$") or "." end
local function strip_slash(p) return (#p > 1 and p:gsub("/+$", "")) or p end

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

--- The kind of a PATH: "family" (a folder with manifest.lua), "variant",
--- "scenario", or nil and why.
---@param path string
---@return string|nil kind, string? why
function M.kind(path)
  if exists(path .. "/manifest.lua") then return "family" end
  local text = read(path)
  if not text then
    return nil, ("%s: no such file, and no rule family (a folder holding manifest.lua)"):format(path)
  end
  -- a variant file begins with variant { ... } (after comments)
  local body = text:gsub("%-%-%[(=*)%[.-%]%1%]", ""):gsub("%-%-[^\n]*", "")
  if body:match("^%s*variant%s*[{(]") then return "variant" end
  return "scenario"
end

-- The line where `key = ` first appears in a file (a best effort for
-- messages that name a manifest's field), else 1.
local function line_of(file, key)
  local text = read(file)
  if not text then return 1 end
  local n = 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    if key and line:match("%f[%w_]" .. key:gsub("%p", "%%%0") .. "%s*=") then return n end
  end
  return 1
end

--- A checker: problems found so far, each { file =, line =, text = }.
local Checker = {}
Checker.__index = Checker

---@return table checker
function M.new()
  return setmetatable({ problems = {}, seen = {}, luacheck = { family = {}, variant = {}, scenario = {} } }, Checker)
end

-- Add a problem; `e` an error raised by keel (its message names the file
-- and line), else `file` and `key` place it.
function Checker:error(e, file, key)
  local msg = errors.get_message(e):match("^[^\n]*")   -- no traceback
  local f, l, text = msg:match("^([^\n:]+):(%d+):%d+: (.*)$")   -- file:line:column: (a table file)
  if f then l = tonumber(l) else f, l, text = errors.parse(msg) end
  if not f then
    -- "path: what" (a manifest's or scenario's message naming its file)
    local named, rest = msg:match("^([^:\n]+%.lua): (.*)$")
    if named then f, text = named, rest else f, text = file, msg end
    l = line_of(f or file, key or (text and text:match("^([%w_]+) must")))
  end
  self:add(f or file or "?", l or 1, text)
end

function Checker:add(file, line, text)
  file = file:gsub("^%./", "")
  local key = ("%s:%d: %s"):format(file, line, text)
  if self.seen[key] then return end   -- a family checked on its own and through a scenario
  self.seen[key] = true
  self.problems[#self.problems + 1] = { file = file, line = line, text = text }
end

-- ---- what loads but will not play well -------------------------------------------------

local SIDE_WORDS = '"phasing", "other", "any", "scenario" or a side\'s name'

local function fn_line(fn, fallback)
  if type(fn) ~= "function" then return fallback end
  local info = debug.getinfo(fn, "S")
  return info.linedefined > 0 and info.linedefined or fallback
end

local function is_standin_title(s) return type(s) == "string" and s:lower():find("stand%-?in") ~= nil end

-- The rules and tables of the families in `own` (name -> true).
function Checker:lint(set, own)
  for _, id in ipairs(set.order) do
    local r = set.rules[id]
    if own[r.family] then self:lint_rule(r) end
  end
  for _, r in ipairs(set.plumbing) do
    if own[r.family] then self:lint_rule(r) end
  end
  for _, name in ipairs(set.family_order) do
    if own[name] then
      local fam = set.families[name]
      for _, tname in ipairs(sorted_keys(fam.tables)) do
        local t = fam.tables[tname]
        if is_standin_title(t.title) and not t.standin then
          local file, line = fam.dir .. "/manifest.lua", line_of(fam.dir .. "/manifest.lua", "tables")
          for _, f in ipairs(fam.table_files) do
            local n = 0
            for l in ((read(fam.dir .. "/tables/" .. f) or "") .. "\n"):gmatch("([^\n]*)\n") do
              n = n + 1
              if l:match("^%s*table%s+" .. tname:gsub("%p", "%%%0") .. "%s*$") then file, line = fam.dir .. "/tables/" .. f, n end
            end
          end
          self:add(file, line, ("table %s: its title says it is a stand-in: a `standin` line names the chapter it "
            .. "stands in for"):format(tname))
        end
      end
    end
  end
end

function Checker:lint_rule(r)
  local who = r.id and ("rule " .. r.id) or ("rule of " .. tostring(r.family))
  if is_standin_title(r.title) and not r.standin then
    self:add(r.file, r.line, ("%s: its title says it is a stand-in: standin = \"the chapter\" names what it "
      .. "stands in for"):format(who))
  end
  for _, name in ipairs(sorted_keys(r.actions)) do
    local a = r.actions[name]
    local line = fn_line(a.legal, fn_line(a.effect, r.line))
    if a.side == nil then
      self:add(r.file, line, ("%s: action %s has no side: say who may take it (side = %s)"):format(
        who, name, SIDE_WORDS))
    end
    if a.side ~= "scenario" then
      for _, pname in ipairs(sorted_keys(a.params)) do
        local p = a.params[pname]
        if not p.domain and not p.optional then
          self:add(r.file, line, ("%s: action %s: parameter '%s' (%s) has no domain: a player's interface has no "
            .. "values to offer (params = { %s = { type = %q, domain = function(ctx, p, side) ... end } })"):format(
            who, name, pname, p.type, pname, p.type))
        end
      end
    end
  end
end

-- ---- each kind ------------------------------------------------------------------------

local function is_keels(dir)
  local root = keel.script_dir .. "/"
  return dir:sub(1, #root) == root
end

-- A family checked file by file: a mistake in one rule or table file is
-- reported and the next file is loaded all the same.
function Checker:family(dir, opts)
  dir = strip_slash(dir)
  local name = dir:match("([^/]+)$")
  local parent = dir_of(dir)
  local path = { parent }
  for _, p in ipairs(opts.path or {}) do path[#path + 1] = p end
  local rules = require "keel.rules"
  local set = rules.new { path = path }
  local base_rule_file, base_tables = set._load_rule_file, set._load_tables
  set._load_rule_file = function(s, fam, file)
    if not exists(file) then
      local manifest = fam.dir .. "/manifest.lua"
      return self:add(manifest, line_of(manifest, "files"), ("files: no file %s in %s"):format(
        file:sub(#fam.dir + 2), fam.dir))
    end
    local ok, e = pcall(base_rule_file, s, fam, file)
    if not ok then self:error(e, file) end
  end
  set._load_tables = function(s, fam)
    local all = fam.table_files
    for _, f in ipairs(all) do
      fam.table_files = { f }
      local ok, e = pcall(base_tables, s, fam)
      if not ok then self:error(e, fam.dir .. "/tables/" .. f) end
    end
    fam.table_files = all
  end
  local ok, e = pcall(set.load_family, set, name)
  if not ok then self:error(e, dir .. "/manifest.lua") end
  local own = {}
  for _, n in ipairs(set.family_order) do
    local fam = set.families[n]
    if not is_keels(fam.dir) then own[n] = true end
    if not is_keels(fam.dir) then
      local files = self.luacheck.family
      files[#files + 1] = fam.dir .. "/manifest.lua"
      for _, f in ipairs(fam.files) do files[#files + 1] = fam.dir .. "/" .. f end
    end
  end
  if ok then
    local fok, fe = pcall(set.finalize, set)
    if not fok then self:error(fe, dir .. "/manifest.lua") end
    self:lint(set, own)
  end
  -- the family's tests: tests/*.lua, each a scenario whose orders carry expectations
  local p = io.popen("ls -1 '" .. (dir .. "/tests"):gsub("'", "'\\''") .. "' 2>/dev/null")
  if p then
    local tests = {}
    for f in p:lines() do if f:match("%.lua$") then tests[#tests + 1] = dir .. "/tests/" .. f end end
    p:close()
    table.sort(tests)
    for _, t in ipairs(tests) do self:scenario(t, opts) end
  end
end

function Checker:variant(file, opts)
  local rules = require "keel.rules"
  local path = { dir_of(file) }
  for _, p in ipairs(opts.path or {}) do path[#path + 1] = p end
  self.luacheck.variant[#self.luacheck.variant + 1] = file
  local ok, set = pcall(rules.load, { variants = { file }, path = path })
  if not ok then return self:error(set, file) end
  -- the rules the variant adds or replaces are its own: lint those
  for _, id in ipairs(set.order) do
    local r = set.rules[id]
    if r.file == file then self:lint_rule(r) end
  end
end

function Checker:scenario(file, opts)
  local scenario = require "keel.scenario"
  self.luacheck.scenario[#self.luacheck.scenario + 1] = file
  local ok, spec = pcall(scenario.load, file)
  if not ok then return self:error(spec, file) end
  local sok, run = pcall(scenario.start, spec, { path = opts.path })
  if not sok then return self:error(run, file) end
  -- the families the scenario brings from its own folders
  local own = {}
  for _, n in ipairs(run.set.family_order) do
    if not is_keels(run.set.families[n].dir) then own[n] = true end
  end
  self:lint(run.set, own)
  for i, order in ipairs(spec.orders or {}) do
    local pok, outcome, problems = pcall(run.play, run, i, order)
    local line = spec.lines and spec.lines["orders." .. i] or spec.line or 1
    if not pok then
      self:add(file, line, ("orders[%d]: %s"):format(i, errors.get_message(outcome):match("^[^\n]*")))
      break
    end
    for _, why in ipairs(problems) do
      self:add(file, line, ("orders[%d] (%s): %s"):format(i, tostring(order[1] or order.event or "check"), why))
    end
    -- the orders after one that went otherwise than expected play another game: not checked
    if #problems > 0 then break end
  end
end

-- ---- luacheck --------------------------------------------------------------------------

local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

--- Whether luacheck is on the PATH.
---@return boolean
function M.have_luacheck()
  local p = io.popen("command -v luacheck 2>/dev/null")
  local out = p and p:read("a") or ""
  if p then p:close() end
  return out:match("%S") ~= nil
end

-- luacheck each kind of file with its std; its warnings are problems.
function Checker:run_luacheck()
  local stds = keel.script_dir .. "/keel/luacheck_stds.lua"
  local cfg = os.tmpname()
  local f = assert(io.open(cfg, "w"))
  f:write(("dofile(%q).define(stds)\nmax_line_length = 120\n"):format(stds))
  f:close()
  local std = require("keel.luacheck_stds").std
  for _, kind in ipairs { "family", "variant", "scenario" } do
    local files = self.luacheck[kind]
    if #files > 0 then
      local q, once = {}, {}
      for _, file in ipairs(files) do
        if not once[file] then once[file] = true; q[#q + 1] = quote(file) end
      end
      local cmd = ("luacheck --no-color --codes --formatter plain --config %s --std %s -- %s 2>&1"):format(
        quote(cfg), std[kind], concat(q, " "))
      local p = io.popen(cmd)
      for line in p:lines() do
        local file, l, text = line:match("^(.-):(%d+):%d+: (.*)$")
        if file then self:add(file, tonumber(l), "luacheck: " .. text)
        elseif line:match("%S") then self:add(files[1], 1, "luacheck: " .. line) end
      end
      p:close()
    end
  end
  os.remove(cfg)
end

--- Check each path; print each problem on a line and a closing line; the
--- exit status (0 clean, 1 a problem).
---@param paths string[]
---@param opts {path?: string[], luacheck?: boolean, cpu?: number}
---@return integer status
function M.main(paths, opts)
  opts = opts or {}
  if opts.cpu then keel.sandbox.limits { cpu = opts.cpu } end
  local c = M.new()
  for _, path in ipairs(paths) do
    path = strip_slash(path)
    local kind, why = M.kind(path)
    if not kind then c:add(path, 1, why) else c[kind](c, path, opts) end
  end
  local linted = "luacheck: not run (--no-luacheck)"
  if opts.luacheck ~= false and not M.have_luacheck() then
    linted = "luacheck: not installed, skipped (Debian: lua-check)"
  elseif opts.luacheck ~= false then
    c:run_luacheck()
    linted = "luacheck: run"
  end
  for _, p in ipairs(c.problems) do io.write(("%s:%d: %s\n"):format(p.file, p.line, p.text)) end
  if #c.problems > 0 then
    io.write(("keel check: %d problem(s); %s\n"):format(#c.problems, linted))
    return 1
  end
  io.write(("keel check: %s: no problems; %s\n"):format(concat(paths, " "), linted))
  return 0
end

return M

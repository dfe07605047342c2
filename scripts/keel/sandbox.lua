--- keel.sandbox (Lua side): the environments rule and scenario scripts run in.
--
-- An environment is built from an allow-list, never by removing things from
-- _G. Each script gets a table of its own; the libraries in it (string,
-- table, math, utf8, coroutine, keel) are read-only proxies shared by every
-- script, so no script can change another's globals or the builtins.
--
--   local sandbox = require "keel.sandbox"
--   local env = sandbox.env { name = "rules/damage.lua", extra = { rule = rule } }
--   local chunk = assert(sandbox.loadfile("scripts/toy27/damage.lua", env))
--
-- Names that are left out on purpose (io, os, debug, package, require,
-- dofile, loadfile, collectgarbage, string.dump, math.random) raise an error
-- that says why when a script touches them. The limits (CPU, instruction
-- budget, memory, string sizes, pattern complexity) are the C side:
-- keel.sandbox.limits / protect (kernel/l_sandbox.c).
local keel = require "keel"

local C = keel.sandbox
local strlib = keel.strlib

local M = {}

local real_load, real_type, real_error = load, type, error
local real_setmetatable, real_rawset, real_rawget = setmetatable, rawset, rawget
local real_select, real_tostring = select, strlib.tostring
local real_getmetatable, raw_getmetatable = getmetatable, debug.getmetatable
local io_write = io.write

-- Kernel code (scripts/keel/) may finish its cleanup after a stop; script
-- code may not run at all until the action has unwound.
C.trust("@" .. keel.script_dir .. "/keel/")
strlib.lock()

--- Why each left-out global is left out.
M.forbidden = {
  io = "io is not available in keel scripts: rules do not read or write files",
  os = "os is not available in keel scripts: rules must not depend on the clock or the system",
  debug = "debug is not available in keel scripts: it reaches into other scripts and the kernel",
  package = "package is not available in keel scripts: a rule family lists its files in its manifest",
  require = "require is not available in keel scripts: a rule family lists its files in its manifest",
  dofile = "dofile is not available in keel scripts: rule files are loaded by the kernel",
  loadfile = "loadfile is not available in keel scripts: rule files are loaded by the kernel",
  collectgarbage = "collectgarbage is not available in keel scripts: memory is the kernel's business",
  loadstring = "loadstring is not available in keel scripts: use load (text chunks only)",
  setfenv = "setfenv does not exist in Lua 5.4, and environments are fixed in keel scripts",
  getfenv = "getfenv does not exist in Lua 5.4, and environments are fixed in keel scripts",
  module = "module does not exist in Lua 5.4",
  newproxy = "newproxy is not available in keel scripts",
}

local function refuse(msg)
  return function() real_error(msg, 2) end
end

local DICE = "roll the kernel's dice instead (ctx:roll(\"1d6\") in a rule): " ..
             "every roll is journaled with the rule that asked for it"

-- ---- pairs and next in keel's order of keys ------------------------------------------
--
-- Lua 5.4 seeds its string hash per process, so the stock pairs() and next()
-- visit a table's string keys in an order that changes from one process to
-- the next: a rule rolling dice in that order would journal differently on
-- every run and its replay would diverge. Scripts get pairs and next that
-- visit keys in keel's order of keys (keel.keys: numbers, then strings by
-- byte, then false, true), the same in every process; a key with no such
-- order (a table, a function) is refused when met.
local raw_next, sort = next, table.sort
local ORDERED = { number = true, string = true, boolean = true }

local function no_order(k, what, level)
  real_error(("%s: a table with a key of type %s has no order that is the same in every process " ..
    "(keel scripts iterate tables keyed by numbers, strings or booleans; keep other keys in a list)")
    :format(what, real_type(k)), level + 1)
end

-- The keys of t in keel's order, and how many. Each kind is sorted with
-- Lua's own < (no comparator called from Lua), then numbers, strings,
-- false, true are put one after the other.
local function ordered_keys(t, what, level)
  local ks, n = {}, 0
  local nums, nn, has_false, has_true
  local k = raw_next(t)
  while k ~= nil do
    local tk = real_type(k)
    if tk == "string" then
      n = n + 1
      ks[n] = k
    elseif tk == "number" then
      nn = (nn or 0) + 1
      nums = nums or {}
      nums[nn] = k
    elseif tk == "boolean" then
      if k then has_true = true else has_false = true end
    else
      no_order(k, what, level + 1)
    end
    k = raw_next(t, k)
  end
  if n > 1 then sort(ks) end
  if nums or has_false or has_true then
    local all, m = nums or {}, nn or 0
    if m > 1 then sort(all) end
    for i = 1, n do all[m + i] = ks[i] end
    m = m + n
    if has_false then m = m + 1; all[m] = false end
    if has_true then m = m + 1; all[m] = true end
    return all, m
  end
  return ks, n
end

-- An iterator over t's keys in keel's order (a snapshot of the keys; a key
-- set to nil on the way is skipped, as Lua allows; one added is not seen).
local function ordered_iter(t, what, level)
  local ks, n = ordered_keys(t, what, level + 1)
  local i = 0
  return function()
    while i < n do
      i = i + 1
      local k = ks[i]
      local v = real_rawget(t, k)
      if v ~= nil then return k, v end
    end
    return nil
  end
end

local function safe_pairs(t)
  local mt = raw_getmetatable(t)
  local mp = real_type(mt) == "table" and real_rawget(mt, "__pairs")
  if mp then
    local f, st, init = mp(t)
    return f, st, init
  end
  if real_type(t) ~= "table" then
    real_error(("bad argument #1 to 'for iterator' (table expected, got %s)"):format(real_type(t)), 2)
  end
  return ordered_iter(t, "pairs", 2), t, nil
end

-- next(t, k): the key after k in keel's order. next(t) scans t for its
-- first key; a traversal (next(t, k) with k the key it gave last) goes on
-- along a snapshot of t's keys made when it took its second step: adding
-- keys during a traversal is undefined in Lua, so one cannot tell.
local walks = real_setmetatable({}, { __mode = "k" })   -- t -> { keys, position of each key, n }

local function first_key(t)
  local best, rb
  local key = raw_next(t)
  while key ~= nil do
    local tk = real_type(key)
    local rk = tk == "number" and 1 or tk == "string" and 2 or tk == "boolean" and 3
    if not rk then no_order(key, "next", 3) end
    if best == nil or rk < rb or (rk == rb and (rk == 3 and key == false or rk ~= 3 and key < best)) then
      best, rb = key, rk
    end
    key = raw_next(t, key)
  end
  return best
end

local function safe_next(t, k)
  if real_type(t) ~= "table" then
    real_error(("bad argument #1 to 'next' (table expected, got %s)"):format(real_type(t)), 2)
  end
  if raw_next(t) == nil then return nil end
  local key
  if k == nil then   -- a new traversal: the next step takes a fresh snapshot
    walks[t] = nil
    key = first_key(t)
  else
    local w = walks[t]
    local i = w and w.pos[k]
    if not i then
      local ks, n = ordered_keys(t, "next", 2)
      local pos = {}
      for j = 1, n do pos[ks[j]] = j end
      w = { keys = ks, pos = pos, n = n }
      walks[t] = w
      i = pos[k]
      if not i then
        if not ORDERED[real_type(k)] then no_order(k, "next", 2) end
        real_error("invalid key to 'next'", 2)
      end
    end
    repeat
      i = i + 1
      key = w.keys[i]
    until key == nil or real_rawget(t, key) ~= nil
    if key == nil then walks[t] = nil end
  end
  if key == nil then return nil end
  return key, real_rawget(t, key)
end
M.pairs, M.next = safe_pairs, safe_next

--- Read-only proxies, one per real table, shared by every script.
--
-- A proxy reads through a shadow table (its metatable's __index, so that a
-- read is a table lookup, never a call): on a key's first read the shadow
-- takes the real table's value, a table as its own proxy, and keeps it;
-- at the first read of a key a plain table lacks, the shadow takes all its
-- keys (so absent keys cost no call either). So a proxy shows each key as
-- it was when first read, or when an absent key was first read: wrap only
-- tables that no longer change (hand out a copy of one that does).
local proxies = real_setmetatable({}, { __mode = "k" })     -- real table -> proxy
local protected = real_setmetatable({}, { __mode = "k" })   -- proxy -> name
local real_of = real_setmetatable({}, { __mode = "k" })     -- proxy, shadow -> real table
local name_of = real_setmetatable({}, { __mode = "k" })     -- shadow -> name

local readonly

-- A shadow takes every key of its (plain) table at the first read of a key
-- the table lacks, and stops missing: later reads of absent keys are table
-- lookups too, never a call.
local function fill(s, t)
  local name = name_of[s]
  local k, v = raw_next(t)
  while k ~= nil do
    if real_rawget(s, k) == nil then
      if real_type(v) == "table" then v = proxies[v] or readonly(v, name .. "." .. real_tostring(k)) end
      real_rawset(s, k, v)
    end
    k, v = raw_next(t, k)
  end
  real_setmetatable(s, nil)
end

-- a shadow's miss: the real value (a table as its proxy), kept
local shadow_mt = {
  __index = function(s, k)
    local t = real_of[s]
    local v = t[k]
    if v == nil then
      if raw_getmetatable(t) == nil then fill(s, t) end
      return nil
    end
    if real_type(v) == "table" then v = proxies[v] or readonly(v, name_of[s] .. "." .. real_tostring(k)) end
    real_rawset(s, k, v)
    return v
  end,
}

local function ro_newindex(p, k)
  local name = protected[p]
  real_error(("%s is read-only: scripts cannot change %s.%s"):format(name, name, real_tostring(k)), 2)
end
local function ro_pairs(p)
  local t, name = real_of[p], protected[p]
  local iter = ordered_iter(t, "pairs", 2)   -- keel's order of keys, as pairs() in scripts
  return function()
    local nk, nv = iter()
    if real_type(nv) == "table" then nv = readonly(nv, name .. "." .. real_tostring(nk)) end
    return nk, nv
  end, p, nil
end
local function ro_len(p) return #real_of[p] end
local function ro_tostring(p) return protected[p] .. " (read-only)" end

local base_mts = real_setmetatable({}, { __mode = "k" })   -- base -> { __index = base }

--- opts.base: a table of values (functions) the proxy shows besides t's own
--- keys, read as they are (a shared method table: ctx); t's keys are then
--- taken at once, and a key neither has reads nil without a call. pairs
--- and # see t's own keys only.
---@param t table the real table
---@param name string how error messages name it ("string", "keel.hex")
---@param base? table
---@return table proxy
function readonly(t, name, base)
  if protected[t] then return t end
  local p = proxies[t]
  if p then return p end
  p = {}
  local shadow = {}
  real_of[shadow], name_of[shadow] = t, name
  if base then
    fill(shadow, t)
    local bmt = base_mts[base]
    if not bmt then bmt = { __index = base }; base_mts[base] = bmt end
    real_setmetatable(shadow, bmt)
  else
    real_setmetatable(shadow, shadow_mt)
  end
  local mt = {
    __index = shadow,
    __newindex = ro_newindex,
    __pairs = ro_pairs,
    __len = ro_len,
    __metatable = name .. " is read-only",
    __tostring = ro_tostring,
  }
  local tmt = real_getmetatable(t)
  if real_type(tmt) == "table" and real_rawget(tmt, "__call") then   -- a callable module: keel.grid { ... }
    mt.__call = function(_, ...) return t(...) end
  end
  -- a value with a text of its own (a table cell: its text, doc/tables.md)
  -- gives that text back, not the proxy's name
  if real_type(tmt) == "table" and real_type(real_rawget(tmt, "__tostring")) == "function" then
    local tostr = real_rawget(tmt, "__tostring")
    mt.__tostring = function() return tostr(t) end
  end
  real_setmetatable(p, mt)
  proxies[t] = p
  protected[p] = name
  real_of[p] = t
  return p
end
M.readonly = readonly

-- the metatables of sealed tables: one per base and name
local seal_mts = real_setmetatable({}, { __mode = "k" })   -- base (or seal_mts) -> name -> mt

--- Seal t itself (no proxy): a key t lacks reads as base's (when given) or
--- nil, and cannot be added (an error names `name`); rawset refuses. A key
--- t has is a plain read, and can be set again by code that holds t: seal
--- only a table made for one holder (a ctx: one per rule and rule set), whose
--- values are already safe to hand out (functions, read-only proxies,
--- strings, numbers, booleans). The cheap form of readonly(t, name, base)
--- for what rule code reads on every line. Returns t.
---@param t table
---@param name string how error messages name it
---@param base? table
---@return table t
function M.seal(t, name, base)
  local k, v = raw_next(t)
  while k ~= nil do
    if real_type(v) == "table" and not protected[v] then
      real_error(("sandbox.seal: %s.%s is a table that is not read-only"):format(name, real_tostring(k)), 2)
    end
    k, v = raw_next(t, k)
  end
  local by_name = seal_mts[base or seal_mts]
  if not by_name then by_name = {}; seal_mts[base or seal_mts] = by_name end
  local mt = by_name[name]
  if not mt then
    mt = { __index = base, __newindex = ro_newindex, __metatable = name .. " is read-only",
           __tostring = ro_tostring }
    by_name[name] = mt
  end
  protected[t] = name
  return real_setmetatable(t, mt)
end

--- Is t one of the shared read-only tables?
function M.is_protected(t) return protected[t] ~= nil end

local function copy(t, drop)
  local out = {}
  for k, v in pairs(t) do
    if not (drop and drop[k]) then out[k] = v end
  end
  return out
end

-- the libraries, as scripts see them
local lib_string = copy(strlib.string)
lib_string.dump = refuse("string.dump is not available in keel scripts: " ..
                         "binary chunks cannot be loaded anyway")
local lib_math = copy(math, { random = true, randomseed = true })
lib_math.random = refuse("math.random is not available in keel scripts: " .. DICE)
lib_math.randomseed = refuse("math.randomseed is not available in keel scripts: " .. DICE)
local lib_table = copy(table)
local lib_utf8 = copy(utf8)
local lib_coroutine = copy(C.coroutine)

-- ---- where a script may catch an error ----------------------------------------------
--
-- M.catching[1] > 0 while script code runs that may catch an error raised
-- deeper down before it reaches kernel code: inside a script's pcall
-- (C.pcall counts) or xpcall, or inside a coroutine's body (resume and wrap
-- end at an error). keel.rules answers a query between rules without a
-- protected call of its own only where no script can catch in between
-- (the rule call that encloses it unwinds both on an error); elsewhere it
-- protects each call. A body that ends by an error (or a pcall left
-- suspended) leaves its count up: calls are protected, as before, until
-- the outermost entry point resets the count (M.reset_catching).
local catching = C.catching
M.catching = catching
catching.co = 0   -- coroutine bodies running (counted in [1] too)

--- Forget the counts: no script code runs (an entry point has ended).
function M.reset_catching() catching[1], catching.co = 0, 0 end

local function uncaught(...)
  catching[1] = catching[1] - 1
  return ...
end

local co_create, co_wrap, co_yield = lib_coroutine.create, lib_coroutine.wrap, lib_coroutine.yield
local function body_done(...)
  catching[1], catching.co = catching[1] - 1, catching.co - 1
  return ...
end
local function body_of(what, ...)
  local f = ...
  if real_type(f) ~= "function" then
    real_error(("bad argument #1 to '%s' (function expected, got %s)"):format(what,
      real_select("#", ...) == 0 and "no value" or real_type(f)), 3)
  end
  return function(...)
    catching[1], catching.co = catching[1] + 1, catching.co + 1
    return body_done(f(...))
  end
end
local function resumed(...)
  catching[1], catching.co = catching[1] + 1, catching.co + 1
  return ...
end
lib_coroutine.create = function(...) return co_create(body_of("create", ...)) end
lib_coroutine.wrap = function(...) return co_wrap(body_of("wrap", ...)) end
lib_coroutine.yield = function(...)
  if catching.co <= 0 then return co_yield(...) end   -- not in a body: yield says why
  catching[1], catching.co = catching[1] - 1, catching.co - 1
  return resumed(co_yield(...))
end

--- The parts of the keel module scripts may use (pure functions, no files).
M.api_modules = { "hex", "grid", "seaboxes", "areas" }

-- one table (so one read-only proxy) for every script, made again only if
-- the list of modules changes
local api, api_key
local function keel_api()
  local key = table.concat(M.api_modules, ",")
  if key ~= api_key then
    api, api_key = { version = keel.version }, key
    for _, name in ipairs(M.api_modules) do
      if keel[name] ~= nil then api[name] = keel[name] end
    end
  end
  return api
end

-- The metatables scripts set (setmetatable below): the only ones getmetatable
-- gives back. Weak: a metatable no script holds any more goes.
local script_mts = real_setmetatable({}, { __mode = "k" })

local function safe_setmetatable(t, mt)
  if real_type(t) ~= "table" then
    real_error(("bad argument #1 to 'setmetatable' (table expected, got %s)"):format(real_type(t)), 2)
  end
  if protected[t] then
    real_error(("setmetatable: %s is read-only"):format(protected[t]), 2)
  end
  if real_type(mt) == "table" and real_rawget(mt, "__gc") ~= nil then
    real_error("setmetatable: __gc is not allowed in keel scripts " ..
               "(finalizers run outside the limits of an action)", 2)
  end
  local r = real_setmetatable(t, mt)
  if real_type(mt) == "table" then script_mts[mt] = true end
  return r
end

-- An error raised by the stop hook calls message handlers with hooks off;
-- so once an action is stopping, a script's handler is not called at all.
local stopping, real_xpcall = C.stopping, xpcall
local function safe_xpcall(f, handler, ...)
  if real_type(handler) ~= "function" then
    real_error(("bad argument #2 to 'xpcall' (function expected, got %s)"):format(real_type(handler)), 2)
  end
  catching[1] = catching[1] + 1
  return uncaught(real_xpcall(f, function(e)
    if stopping() then return e end
    return handler(e)
  end, ...))
end

--- What getmetatable gives a script: a metatable a script set (as Lua
--- gives it: its __metatable field when it has one), never one of the
--- kernel's (keel objects, keel's error and result types, the string
--- metatable, library proxies): those are shared by every script and the
--- kernel, and a script that could change one could reach every later
--- game in the process.
local LOCKED = "the metatable of a keel object is locked"
local function safe_getmetatable(v)
  local mt = raw_getmetatable(v)
  if mt == nil then return nil end
  if script_mts[mt] then return real_getmetatable(v) end
  local field = real_type(mt) == "table" and real_rawget(mt, "__metatable")
  if real_type(field) == "string" then return field end
  return LOCKED
end
M.getmetatable = safe_getmetatable

local function safe_rawset(t, k, v)
  if protected[t] then
    real_error(("rawset: %s is read-only"):format(protected[t]), 2)
  end
  return real_rawset(t, k, v)
end

--- Turn a script's chunk name into one that can never pass for a file of
--- the kernel (a '=' name is shown as is and is never trusted).
local function load_name(chunkname, chunk)
  if chunkname == nil then
    local first = real_type(chunk) == "string" and chunk:match("^[^\n]*") or "?"
    return "=[load] " .. first:sub(1, 40)
  end
  return "=[load] " .. real_tostring(chunkname):gsub("^[@=]", ""):sub(1, 60)
end

local function make_load(env)
  return function(chunk, chunkname, mode, fenv)
    if real_type(chunk) == "function" then   -- a reader: gather the pieces
      local parts, n = {}, 0
      while true do
        local piece = chunk()
        if piece == nil or piece == "" then break end
        if real_type(piece) ~= "string" then
          real_error("load: the reader function must return strings", 2)
        end
        parts[#parts + 1] = piece
        n = n + #piece
        if n > 16 * 1024 * 1024 then real_error("load: chunk too large", 2) end
      end
      chunk = table.concat(parts)
    elseif real_type(chunk) ~= "string" then
      real_error("load: a string of Lua source expected", 2)
    end
    if chunk:byte(1) == 27 then
      return nil, "load: binary chunks are not allowed in keel scripts (text only)"
    end
    if mode ~= nil and mode ~= "t" then
      return nil, "load: only text chunks are allowed in keel scripts (mode must be 't')"
    end
    if fenv == nil then fenv = env end
    return real_load(chunk, load_name(chunkname, chunk), "t", fenv)
  end
end

local function default_print(...)
  local n = real_select("#", ...)
  local parts = {}
  for i = 1, n do parts[i] = real_tostring((real_select(i, ...))) end
  io_write(table.concat(parts, "\t"), "\n")
end

-- Globals every script shares: builtins that cannot reach outside.
local shared = {
  assert = assert, error = error, ipairs = ipairs, next = safe_next, pairs = safe_pairs,
  pcall = C.pcall, select = select, tonumber = tonumber, type = type,
  xpcall = safe_xpcall, rawequal = rawequal, rawlen = rawlen, rawget = rawget,
  getmetatable = safe_getmetatable,
  tostring = real_tostring,
  setmetatable = safe_setmetatable,
  rawset = safe_rawset,
  _VERSION = _VERSION,
  string = readonly(lib_string, "string"),
  table = readonly(lib_table, "table"),
  math = readonly(lib_math, "math"),
  utf8 = readonly(lib_utf8, "utf8"),
  coroutine = readonly(lib_coroutine, "coroutine"),
}

local env_mt = {
  __index = function(_, k)
    local why = M.forbidden[k]
    if why then real_error(why, 2) end
    return nil
  end,
  __metatable = "the environment of a keel script is locked",
}

--- A fresh environment for one script.
---@param opts? {extra?: table, print?: fun(...), keel?: table}
---@return table env
-- An environment's own table with the shared globals in it, made by one
-- table constructor (sized once: no rehash as it fills), generated here
-- from `shared`'s names (sorted: the same code in every process), with
-- slots for the names M.env sets next.
local new_env_table
do
  local names = {}
  for k in pairs(shared) do names[#names + 1] = k end
  table.sort(names)
  local fields = {}
  for i, k in ipairs(names) do fields[i] = ("%s = s.%s"):format(k, k) end
  for _, k in ipairs { "keel", "print", "load", "_G" } do fields[#fields + 1] = k .. " = false" end
  new_env_table = real_load("local s = ...\nreturn function() return { " .. table.concat(fields, ", ") ..
    " } end", "=keel.sandbox (environment)", "t", {})(shared)
end

function M.env(opts)
  opts = opts or {}
  local env = new_env_table()
  env.keel = readonly(opts.keel or keel_api(), "keel")
  env.print = opts.print or default_print
  env.load = make_load(env)
  env._G = env
  if opts.extra then
    for k, v in pairs(opts.extra) do env[k] = v end
  end
  return real_setmetatable(env, env_mt)
end

--- Load a text chunk into an environment (nil, message on a syntax error).
---@param text string
---@param chunkname string "@path" for files
---@param env table
---@return function|nil, string|nil
function M.load(text, chunkname, env)
  local name = chunkname:gsub("^[@=]", "")
  if text:byte(1) == 27 then
    return nil, name .. ": binary chunks are not allowed in keel scripts"
  end
  local fn, err = real_load(text, chunkname, "t", env)
  -- the parser's "C stack overflow" (a source nested too deep) has no place
  if not fn and err:sub(1, #name + 1) ~= name .. ":" then
    err = name .. ": cannot load: " .. err .. (err:find("C stack overflow", 1, true)
      and " (the source nests tables, functions or expressions too deep)" or "")
  end
  return fn, err
end

--- Read and load a script file into an environment.
---@param path string
---@param env table
---@return function|nil, string|nil
function M.loadfile(path, env)
  local text, err = keel.file.read(path)
  if not text then return nil, err end
  return M.load(text, "@" .. path, env)
end

-- ---- data a script made, read by kernel code outside an action -------------------

local MAX_DEPTH, MAX_VALUES = 32, 100000
M.PLAIN_MAX_DEPTH, M.PLAIN_MAX_VALUES = MAX_DEPTH, MAX_VALUES

local function show(v)
  local tv = real_type(v)
  if tv == "string" then
    if #v > 40 then v = v:sub(1, 40) .. "..." end
    return (("%q"):format(v):gsub("\\\n", "\\n"))
  elseif tv == "number" then
    if v ~= v then return "nan" end
    if v == math.huge then return "inf" end
    if v == -math.huge then return "-inf" end
    return real_tostring(v)
  elseif tv == "boolean" or tv == "nil" then
    return real_tostring(v)
  end
  return "a " .. tv
end
--- A value as a message shows it: never through tostring on a table (a
--- script's __tostring could loop; a plain table would print an address).
M.show = show

-- path: the keys down to v, one array shared by the whole copy (pushed and
-- popped on the way down and up); bad gets a copy of it
local function copy_plain(v, path, depth, count, bad)
  local tv = real_type(v)
  if tv == "string" or tv == "boolean" then return v end
  if tv == "number" then
    if v ~= v or v == math.huge or v == -math.huge then
      bad({ table.unpack(path, 1, depth) }, "a finite number expected, got " .. show(v))
    end
    return v
  end
  if tv ~= "table" then
    bad({ table.unpack(path, 1, depth) },
      "plain data expected (strings, numbers, booleans and tables of them), got " .. show(v))
  end
  if depth >= MAX_DEPTH then
    bad({ table.unpack(path, 1, depth) }, ("tables nested more than %d deep (or a cycle)"):format(MAX_DEPTH))
  end
  local out = {}
  local k, x = raw_next(v)
  while k ~= nil do
    count[1] = count[1] + 1
    if count[1] > MAX_VALUES then bad({}, ("more than %d values"):format(MAX_VALUES)) end
    if real_type(k) ~= "string" and math.type(k) ~= "integer" then
      bad({ table.unpack(path, 1, depth) }, "keys must be names or whole numbers, got " .. show(k))
    end
    path[depth + 1] = k
    out[k] = copy_plain(x, path, depth + 1, count, bad)
    k, x = raw_next(v, k)
  end
  path[depth + 1] = nil
  return out
end

--- A plain copy of data a script made, read raw (next and rawget: none of
--- the script's metamethods runs, as none may outside an action's limits).
--- Plain data only: strings, finite numbers, booleans, and tables of them
--- keyed by names or whole numbers, at most 32 deep and 100,000 values. On
--- anything else bad(path, what) is called (path: the keys down to the
--- value), which must raise; without it, raises "a.b[2]: what".
---@param v any
---@param bad? fun(path: any[], what: string)
---@return any copy
function M.plain(v, bad)
  bad = bad or function(path, what)
    local parts = {}
    for i, k in ipairs(path) do
      parts[i] = math.type(k) == "integer" and ("[" .. k .. "]") or ((i > 1 and "." or "") .. real_tostring(k))
    end
    real_error((#parts > 0 and (table.concat(parts) .. ": ") or "") .. what, 0)
  end
  return copy_plain(v, {}, 0, { 0 }, bad)
end

-- The C side, so that one require gives the whole sandbox.
M.protect = C.protect
M.xprotect = C.xprotect
M.limits = C.limits
M.usage = C.usage
M.stopping = C.stopping
M.new = C.new
M.tostring = real_tostring

return M

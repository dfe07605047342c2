-- tools/check_stack_tags.lua — check the stack tag above every Lua-facing C
-- function against the function's body.
--
--   lua5.4 tools/check_stack_tags.lua kernel/l_*.c kernel/main.c
--
-- A Lua-facing function is one of type lua_CFunction: `int name(lua_State *L)`.
-- Each must have, in the comment right above it, a tag in the Lua manual's
-- form `[-a, +b, x]`:
--   a   how many arguments it takes: a number, alternatives `2|3`, or `?`,
--       `n`, `(n+1)` when it takes any number;
--   b   how many results it returns: a number, alternatives `1|2` or `(0|1)`,
--       or `?`;
--   x   `-` raises nothing, `m` may raise only out-of-memory errors, `e` (or
--       `v`) may raise any error.
-- What is checked, reading the body and (transitively) every function it
-- calls in the files given:
--   * every `return N;` (and every N a called helper returns, or a ternary's
--     branches) is one of b's numbers;
--   * the highest argument index the body reads (luaL_check*/opt*(L, 2),
--     lua_to*(L, 3), lua_settop(L, 2), and helpers called with an index,
--     `unit_arg(L, st, 2)`, counting `arg + 1` inside them) is a's highest
--     number, when a is fixed;
--   * x is at least what the body can raise: `e` when it calls luaL_check*,
--     luaL_error, lua_getfield and the like, `m` when it allocates
--     (lua_pushstring, lua_createtable, lua_newuserdatauv, ...).
-- Prints a line per mismatch and ends with "N passed, N failed" (one per
-- function); exits 1 on any failure.

-- ---- reading C -------------------------------------------------------------

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

-- The text with comments, string and character literals blanked (newlines
-- kept), so that braces, parentheses and calls can be found by position.
local function blank(src)
  local out, i, n = {}, 1, #src
  local function keep_nl(s) return (s:gsub("[^\n]", " ")) end
  while i <= n do
    local c, c2 = src:sub(i, i), src:sub(i, i + 1)
    if c2 == "/*" then
      local j = src:find("*/", i + 2, true) or n - 1
      out[#out + 1] = keep_nl(src:sub(i, j + 1)); i = j + 2
    elseif c2 == "//" then
      local j = src:find("\n", i, true) or n + 1
      out[#out + 1] = keep_nl(src:sub(i, j - 1)); i = j
    elseif c == '"' or c == "'" then
      local j = i + 1
      while j <= n and src:sub(j, j) ~= c do
        if src:sub(j, j) == "\\" then j = j + 1 end
        j = j + 1
      end
      out[#out + 1] = c .. keep_nl(src:sub(i + 1, j - 1)) .. c; i = j + 1
    else
      out[#out + 1] = c; i = i + 1
    end
  end
  return table.concat(out)
end

-- Index of the bracket closing the one at i (code already blanked).
local function closing(code, i)
  local open, close = code:sub(i, i), ({ ["("] = ")", ["{"] = "}", ["["] = "]" })[code:sub(i, i)]
  local depth = 0
  for j = i, #code do
    local c = code:sub(j, j)
    if c == open then depth = depth + 1
    elseif c == close then
      depth = depth - 1
      if depth == 0 then return j end
    end
  end
  return #code
end

-- Split an argument list at top-level commas.
local function split_args(s)
  local args, depth, start = {}, 0, 1
  for j = 1, #s do
    local c = s:sub(j, j)
    if c == "(" or c == "[" or c == "{" then depth = depth + 1
    elseif c == ")" or c == "]" or c == "}" then depth = depth - 1
    elseif c == "," and depth == 0 then
      args[#args + 1] = s:sub(start, j - 1):match("^%s*(.-)%s*$"); start = j + 1
    end
  end
  local last = s:sub(start):match("^%s*(.-)%s*$")
  if last ~= "" or #args > 0 then args[#args + 1] = last end
  return args
end

local keywords = { ["if"] = true, ["while"] = true, ["for"] = true, ["switch"] = true, ["return"] = true,
                   ["sizeof"] = true, ["case"] = true, ["do"] = true, ["else"] = true }

-- Every call in code: { name, args = {...}, at = position }.
local function calls_in(code)
  local out, pos = {}, 1
  while true do
    local s, e, name = code:find("([%a_][%w_]*)%s*%(", pos)
    if not s then break end
    if not keywords[name] and not code:sub(s - 1, s - 1):match("[%w_]") then
      local close = closing(code, e)
      out[#out + 1] = { name = name, args = split_args(code:sub(e + 1, close - 1)), at = s }
    end
    pos = e + 1
  end
  return out
end

-- ---- the functions of the files ----------------------------------------------

local funcs, by_file_name, global_name = {}, {}, {}

local function line_of(s, pos) local _, k = s:sub(1, pos):gsub("\n", ""); return k + 1 end

-- The comment block ending on the line just above `line` (1-based), or nil.
local function comment_above(lines, line)
  local j = line - 1
  if j < 1 or not lines[j]:match("%*/%s*$") then return nil end
  local k = j
  while k >= 1 and not lines[k]:find("/*", 1, true) do k = k - 1 end
  if k < 1 then return nil end
  return table.concat(lines, "\n", k, j)
end

-- The function-like macros a file defines: name -> { params, body }.
local function parse_macros(code)
  local macros, pos = {}, 1
  while true do
    local s, e, name, params = code:find("\n#define ([%a_][%w_]*)(%b())", pos)
    if not s then break end
    local body_end = e
    repeat   -- continuation lines
      local nl = code:find("\n", body_end + 1, true) or #code + 1
      local cont = code:sub(body_end + 1, nl - 1):match("\\%s*$")
      body_end = cont and nl or nl - 1
    until not cont
    macros[name] = { params = split_args(params:sub(2, -2)),
                     body = (code:sub(e + 1, body_end):gsub("\\%s*\n", " ")) }
    pos = body_end
  end
  return macros
end

-- text with the macros' invocations replaced by their bodies (so that
-- HEX_ARG(L, b, 2, h) reads as what it does), macros in macros included.
local function expand(macros, text)
  for _ = 1, 4 do
    local any = false
    for name, m in pairs(macros) do
      text = text:gsub("(%f[%w_]" .. name .. ")%s*(%b())", function(_, args)
        any = true
        local vals = split_args(args:sub(2, -2))
        local body = m.body
        for i, q in ipairs(m.params) do
          body = body:gsub("%f[%w_]" .. q .. "%f[^%w_]", ((vals[i] or ""):gsub("%%", "%%%%")))
        end
        return " " .. body .. " "
      end)
    end
    if not any then break end
  end
  return text
end

local function scan(path)
  local src = read(path)
  local code = blank(src)
  local lines = {}
  for l in (src .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = l end
  by_file_name[path] = {}
  local macros = parse_macros(code)
  local pos = 1
  while true do
    -- a definition starts at column 0 with a type and a name, then (params) {
    local s, e, head, name = code:find("\n([%a_][%w_ %*]-)([%a_][%w_]*)%s*%(", pos)
    if not s then break end
    pos = e
    if not head:match("^%s*typedef") and not head:match("=") then
      local close = closing(code, e)
      local after = code:match("^%s*(.)", close + 1)
      if after == "{" then
        local ob = code:find("{", close + 1, true)
        local cb = closing(code, ob)
        local params = code:sub(e + 1, close - 1):gsub("%s+", " "):match("^%s*(.-)%s*$")
        local line = line_of(src, s + 1)
        local f = {
          file = path, line = line, name = name, static = head:match("static") ~= nil,
          lua_facing = head:gsub("static", ""):gsub("inline", ""):match("^%s*int%s*$") ~= nil
                       and params:gsub("%s", "") == "lua_State*L",
          params = {}, body = expand(macros, code:sub(ob, cb)), tag = comment_above(lines, line),
          fixed = {}, pidx = {}, level = 0, rets = {}, rets_unknown = false, variadic = false,
        }
        for i, p in ipairs(split_args(params)) do f.params[i] = p:match("([%a_][%w_]*)%s*$") end
        funcs[#funcs + 1] = f
        by_file_name[path][name] = f
        if not f.static then global_name[name] = f end
        pos = cb
      end
    end
  end
end

-- ---- what the Lua API does -----------------------------------------------------

local LEVEL = { ["-"] = 0, m = 1, e = 2, v = 2 }
local LEVEL_NAME = { [0] = "-", "m", "e" }

local raises = {}
for n in ([[luaL_error luaL_argerror luaL_typeerror luaL_argcheck luaL_argexpected lua_error luaL_len
  luaL_tolstring luaL_callmeta luaL_getsubtable luaL_requiref lua_call lua_callk lua_getfield lua_setfield
  lua_gettable lua_settable lua_geti lua_seti lua_next lua_concat lua_arith lua_compare lua_len
  lua_getglobal lua_setglobal lua_toclose luaL_dostring luaL_dofile]]):gmatch("%S+") do raises[n] = true end
local noreturn = { luaL_error = true, luaL_argerror = true, luaL_typeerror = true, lua_error = true }
local allocates = {}
for n in ([[lua_pushstring lua_pushlstring lua_pushfstring lua_pushvfstring lua_pushliteral lua_pushcfunction
  lua_pushcclosure lua_createtable lua_newtable lua_newuserdatauv lua_newuserdata lua_newthread
  luaL_newmetatable luaL_newlib luaL_newlibtable luaL_setfuncs lua_rawset lua_rawseti lua_rawsetp
  lua_tolstring lua_tostring luaL_testudata luaL_getmetafield luaL_ref luaL_traceback luaL_gsub
  luaL_prepbuffsize luaL_addlstring luaL_addstring luaL_addvalue luaL_pushresult luaL_pushresultsize
  luaL_buffinitsize luaL_addgsub lua_pcall lua_pcallk luaL_loadbufferx luaL_loadbuffer luaL_loadstring
  lua_load lua_dump]]):gmatch("%S+") do allocates[n] = true end

local function api_level(name)
  if raises[name] or (name:match("^luaL_check") or name:match("^luaL_opt")) then return 2 end
  if allocates[name] then return 1 end
  return 0
end

-- Argument positions (1 = L) of a Lua API function that are stack indices.
local function api_index_args(name)
  if name == "luaL_checkstack" or name == "luaL_checkversion" or name == "luaL_checkversion_" then return {} end
  if name == "lua_copy" or name == "lua_compare" or name == "lua_rawequal" then return { 2, 3 } end
  if name == "luaL_argcheck" or name == "luaL_argexpected" then return { 3 } end
  if name:match("^luaL_check") or name:match("^luaL_opt") or name:match("^lua_to") or name:match("^lua_is")
     or name == "lua_type" or name == "lua_settop" or name == "lua_absindex" or name == "lua_rawlen"
     or name == "lua_len" or name == "luaL_len" or name == "lua_next" or name == "lua_rawget"
     or name == "lua_rawgeti" or name == "lua_rawgetp" or name == "lua_rawset" or name == "lua_rawseti"
     or name == "lua_rawsetp" or name == "lua_getfield" or name == "lua_setfield" or name == "lua_geti"
     or name == "lua_seti" or name == "lua_gettable" or name == "lua_settable" or name == "lua_getmetatable"
     or name == "lua_setmetatable" or name == "lua_getiuservalue" or name == "lua_setiuservalue"
     or name == "lua_pushvalue" or name == "lua_insert" or name == "lua_remove" or name == "lua_replace"
     or name == "lua_rotate" or name == "luaL_argerror" or name == "luaL_typeerror"
     or name == "luaL_testudata" or name == "luaL_tolstring" or name == "luaL_getmetafield"
     or name == "luaL_callmeta" or name == "luaL_getsubtable" then
    return { 2 }
  end
  return {}
end

-- ---- summaries, to a fixed point ---------------------------------------------------

local function callee(f, name)
  return by_file_name[f.file][name] or global_name[name]
end

-- An index expression: a positive literal, or a parameter (plus a literal).
local function index_expr(f, expr)
  local n = expr:match("^(%d+)$")
  if n then return "fixed", tonumber(n) end
  local p, plus = expr:match("^([%a_][%w_]*)%s*%+%s*(%d+)$")
  p = p or expr:match("^([%a_][%w_]*)$")
  if p then
    for i, q in ipairs(f.params) do if q == p then return "param", i, tonumber(plus or 0) end end
  end
end

local function add(set, v) if not set[v] then set[v] = true; return true end return false end

-- The results an expression returns: a set, and whether some are unknown.
local function returns_of(f, expr, rets)
  expr = expr:match("^%s*(.-)%s*$")
  local n = expr:match("^%(?%s*(%d+)%s*%)?$")
  if n then return add(rets.set, tonumber(n)) end
  -- a ternary at depth 0
  local depth = 0
  for j = 1, #expr do
    local c = expr:sub(j, j)
    if c == "(" then depth = depth + 1 elseif c == ")" then depth = depth - 1
    elseif c == "?" and depth == 0 then
      local rest = expr:sub(j + 1)
      local d2 = 0
      for k = 1, #rest do
        local c2 = rest:sub(k, k)
        if c2 == "(" then d2 = d2 + 1 elseif c2 == ")" then d2 = d2 - 1
        elseif c2 == ":" and d2 == 0 then
          local a = returns_of(f, rest:sub(1, k - 1), rets)
          local b = returns_of(f, rest:sub(k + 1), rets)
          return a or b
        end
      end
    end
  end
  local name = expr:match("^([%a_][%w_]*)%s*%b()$")
  if name then
    if noreturn[name] then return false end   -- raises: no results
    local g = callee(f, name)
    if g then
      local changed = false
      for v in pairs(g.rets) do changed = add(rets.set, v) or changed end
      if g.rets_unknown and not rets.unknown then rets.unknown = true; changed = true end
      return changed
    end
  end
  if not rets.unknown then rets.unknown = true; return true end
  return false
end

local function summarize(f)
  local changed = false
  for _, c in ipairs(calls_in(f.body)) do
    local g = callee(f, c.name)
    local lvl = g and g.level or api_level(c.name)
    if lvl > f.level then f.level = lvl; changed = true end
    if c.name == "lua_gettop" and not f.variadic then f.variadic = true; changed = true end
    local positions = {}
    if g then
      for v in pairs(g.fixed) do changed = add(f.fixed, v) or changed end
      if g.variadic and not f.variadic then f.variadic = true; changed = true end
      for p, offsets in pairs(g.pidx) do positions[#positions + 1] = { p, offsets } end
    else
      for _, p in ipairs(api_index_args(c.name)) do positions[#positions + 1] = { p, { [0] = true } } end
    end
    for _, po in ipairs(positions) do
      local arg = c.args[po[1]]
      if arg then
        local kind, a, b = index_expr(f, arg)
        for off in pairs(po[2]) do
          if kind == "fixed" and a + off > 0 then changed = add(f.fixed, a + off) or changed
          elseif kind == "param" then
            f.pidx[a] = f.pidx[a] or {}
            changed = add(f.pidx[a], b + off) or changed
          end
        end
      end
    end
  end
  local rets = { set = f.rets, unknown = f.rets_unknown }
  for expr in f.body:gmatch("[^%w_]return%s+([^;]+);") do changed = returns_of(f, expr, rets) or changed end
  f.rets_unknown = rets.unknown
  return changed
end

-- ---- the tags ------------------------------------------------------------------------

local function numbers(s)
  s = s:gsub("^%((.*)%)$", "%1")
  local out = {}
  for part in s:gmatch("[^|]+") do
    local n = tonumber(part:match("^%s*(%d+)%s*$"))
    if not n then return nil end   -- ?, n, (n+1): any number
    out[#out + 1] = n
  end
  return out
end

local function check(f)
  local problems = {}
  local tag = f.tag and f.tag:match("%[(%-[^%]]-)%]")
  if not tag then return { "no stack tag [-a, +b, x] in the comment right above it" } end
  local a, b, x = tag:match("^%-%s*([^,]+),%s*%+%s*([^,]+),%s*(.-)%s*$")
  if not a or not LEVEL[x] then return { ("malformed stack tag [%s]"):format(tag) } end
  local bs = numbers(b)
  if bs then
    local allowed = {}
    for _, n in ipairs(bs) do allowed[n] = true end
    local bad = {}
    for v in pairs(f.rets) do if not allowed[v] then bad[#bad + 1] = v end end
    table.sort(bad)
    if #bad > 0 then
      problems[#problems + 1] = ("tag says +%s but it returns %s"):format(b, table.concat(bad, ", "))
    end
  end
  local as = numbers(a)
  if as and not f.variadic then
    local want = math.max(table.unpack(as))
    local got = 0
    for v in pairs(f.fixed) do if v > got then got = v end end
    if got ~= want then
      problems[#problems + 1] = ("tag says -%s but it reads arguments up to %d"):format(a, got)
    end
  end
  if LEVEL[x] < f.level then
    problems[#problems + 1] = ("tag says '%s' but it can raise %s"):format(x,
      f.level == 2 and "errors (e)" or "memory errors (m)")
  end
  return problems
end

-- ---- main -----------------------------------------------------------------------------

local paths = { ... }
local suggest = paths[1] == "--suggest"
if suggest then table.remove(paths, 1) end
if #paths == 0 then
  io.stderr:write("usage: lua5.4 tools/check_stack_tags.lua FILE.c ...\n")
  os.exit(2)
end
for _, p in ipairs(paths) do scan(p) end
for _ = 1, 50 do
  local changed = false
  for _, f in ipairs(funcs) do changed = summarize(f) or changed end
  if not changed then break end
end
local pass, fail = 0, 0
for _, f in ipairs(funcs) do
  if f.lua_facing then
    local problems = check(f)
    if suggest and #problems > 0 then
      local maxi, rets = 0, {}
      for v in pairs(f.fixed) do if v > maxi then maxi = v end end
      for v in pairs(f.rets) do rets[#rets + 1] = v end
      table.sort(rets)
      print(("SUGGEST\t%s\t%d\t%s\t[-%s, +%s%s, %s]"):format(f.file, f.line, f.name,
        f.variadic and "?" or tostring(maxi), #rets > 0 and table.concat(rets, "|") or "0",
        f.rets_unknown and "|?" or "", LEVEL_NAME[f.level]))
    end
    if #problems == 0 then pass = pass + 1
    else
      fail = fail + 1
      for _, p in ipairs(problems) do print(("%s:%d: %s: %s"):format(f.file, f.line, f.name, p)) end
    end
  end
end
print(("%d passed, %d failed"):format(pass, fail))
os.exit(fail == 0 and 0 or 1)

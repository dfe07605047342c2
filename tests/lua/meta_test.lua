-- tests/lua/meta_test.lua — the LuaLS `---@meta` files (scripts/keel/meta/)
-- against the bindings: every C function the bindings register, in each
-- module (keel.hex, keel.state ...) and each class (keel.State, keel.Board
-- ...), is declared in a meta file, and every name a meta file declares for
-- them is there; and one @param or @return per line, as LuaLS reads them.
-- And doc/api/ against the bindings too: every C function and method is
-- named there, and every function a binding module's section lists exists.
local t = require "keel.testing"
local keel = require "keel"

local META = "scripts/keel/meta/"

local function meta_files()
  local p = assert(io.popen("ls " .. META .. "*.d.lua"))
  local out = {}
  for f in p:lines() do out[#out + 1] = f end
  p:close()
  return out
end

-- Parse the meta files: class name -> {names = {name = "function"|"field"},
-- file}; and the `keel` class's fields (module name -> class name).
local function parse()
  local classes, modules = {}, {}
  local function class(name, file)
    classes[name] = classes[name] or { names = {}, file = file }
    return classes[name]
  end
  for _, file in ipairs(meta_files()) do
    local bound = {}         -- local name -> class name (this file)
    local current             -- the class whose ---@field lines follow
    local pending             -- the class a `local X = {}` right after binds
    for line in io.lines(file) do
      local cname = line:match("^%-%-%-@class%s+([%w_%.]+)")
      if cname then
        current, pending = cname, cname
        class(cname, file)
      else
        local field, ftype = line:match("^%-%-%-@field%s+([%w_]+)%??%s+([%w_%.]+)")
        if field and current then
          class(current, file).names[field] = "field"
          if current == "keel" then modules[field] = ftype end
        elseif not line:match("^%-%-%-") then
          current = nil
          local lname = line:match("^local%s+([%w_]+)%s*=%s*{}")
          if lname and pending then bound[lname] = pending end
          pending = nil
          local owner, fname = line:match("^function%s+([%w_]+)[%.:]([%w_]+)%s*%(")
          if not owner then owner, fname = line:match("^([%w_]+)%.([%w_]+)%s*=") end   -- hex.disk = hex.spiral
          if owner and bound[owner] then class(bound[owner], file).names[fname] = "function" end
        end
      end
    end
  end
  return classes, modules
end

-- The C functions of a table, by name.
local function c_functions(tbl)
  local out = {}
  for name, f in pairs(tbl) do
    if type(f) == "function" and debug.getinfo(f, "S").what == "C" then out[name] = true end
  end
  return out
end

local function sorted(set)
  local out = {}
  for k in pairs(set) do if type(k) == "string" then out[#out + 1] = k end end
  table.sort(out)
  return out
end

t.test("meta: every C function of every binding module is declared, and every declared name exists", function()
  local classes, modules = parse()
  local checked, problems = 0, {}
  for _, m in ipairs(sorted(keel)) do
    local tbl = keel[m]
    if type(tbl) == "table" then
      local cname = modules[m] or (classes["keel." .. m .. "lib"] and "keel." .. m .. "lib") or "keel." .. m
      local decl = classes[cname]
      t.ok(decl, ("keel.%s: a meta class (%s) declares it"):format(m, cname))
      local missing, extra = {}, {}
      for _, name in ipairs(sorted(c_functions(tbl))) do
        if not decl.names[name] then missing[#missing + 1] = name end
      end
      -- a module's Lua side may add to it (require "keel.sandbox": env, load ...)
      local ok, lua_side = pcall(require, "keel." .. m)
      if not ok or type(lua_side) ~= "table" then lua_side = {} end
      for _, name in ipairs(sorted(decl.names)) do
        if tbl[name] == nil and lua_side[name] == nil then extra[#extra + 1] = name end
      end
      if #missing > 0 then
        problems[#problems + 1] = ("keel.%s: C functions not in %s (%s): %s"):format(m, cname, decl.file,
          table.concat(missing, " "))
      end
      if #extra > 0 then
        problems[#problems + 1] = ("keel.%s: %s declares what the binding has not: %s"):format(m, cname,
          table.concat(extra, " "))
      end
      checked = checked + 1
    end
  end
  t.eq(problems, {})
  t.ok(checked >= 10, "the modules: " .. checked)
end)

t.test("meta: every method of every binding class is declared, and every declared method exists", function()
  local classes = parse()
  local checked, problems = 0, {}
  for _, name in ipairs(sorted(debug.getregistry())) do
    local mt = debug.getregistry()[name]
    if type(name) == "string" and name:match("^keel%.") and type(mt) == "table" and type(mt.__index) == "table"
        and next(mt.__index) ~= nil then
      local decl = classes[name]
      t.ok(decl, name .. ": a meta class of that name declares it")
      local missing, extra = {}, {}
      for _, m in ipairs(sorted(c_functions(mt.__index))) do
        if not decl.names[m] then missing[#missing + 1] = m end
      end
      for _, m in ipairs(sorted(decl.names)) do
        if mt.__index[m] == nil then extra[#extra + 1] = m end
      end
      if #missing > 0 then
        problems[#problems + 1] = ("%s: C methods not in %s: %s"):format(name, decl.file, table.concat(missing, " "))
      end
      if #extra > 0 then
        problems[#problems + 1] = ("%s: %s declares what the binding has not: %s"):format(name, decl.file,
          table.concat(extra, " "))
      end
      checked = checked + 1
    end
  end
  t.eq(problems, {})
  t.ok(checked >= 10, "the classes: " .. checked)
end)

t.test("meta: one @param or @return per line (LuaLS reads a second one as a comment)", function()
  local bad = {}
  for _, file in ipairs(meta_files()) do
    local n = 0
    for line in io.lines(file) do
      n = n + 1
      if line:match("^%-%-%-@") and line:match("%s@param%s") or line:match("^%-%-%-@.-%s@return%s") then
        bad[#bad + 1] = file .. ":" .. n .. ": " .. line
      end
    end
  end
  t.eq(bad, {})
end)

t.test("docs: doc/api/events.md gives every kernel event its payload", function()
  local doc = t.read_file("doc/api/events.md")
  local missing = {}
  for _, ev in ipairs(require("keel.registry").events) do
    if not doc:find("\n| `" .. ev .. "` | `{", 1, true) then missing[#missing + 1] = ev end
  end
  t.eq(missing, {})
end)

-- doc/api/*.md, all of it
local function api_docs()
  local p = assert(io.popen("ls doc/api/*.md"))
  local parts = {}
  for f in p:lines() do parts[#parts + 1] = t.read_file(f) end
  p:close()
  return table.concat(parts, "\n")
end

-- a name the API docs give as a function or method: `name(`, .name(, :name(, `name`
local function documented(doc, name)
  local q = name:gsub("%p", "%%%0")
  return doc:find("[`%.:%s]" .. q .. "%(") or doc:find("`" .. q .. "`", 1, true) or doc:find("[`%.:]" .. q .. "[`%s,/]")
end

t.test("docs: doc/api/ describes every C function and method the bindings register", function()
  local doc = api_docs()
  local missing = {}
  for _, m in ipairs(sorted(keel)) do
    if type(keel[m]) == "table" then
      for _, name in ipairs(sorted(c_functions(keel[m]))) do
        if not documented(doc, name) then missing[#missing + 1] = "keel." .. m .. "." .. name end
      end
    end
  end
  local reg = debug.getregistry()
  for _, cname in ipairs(sorted(reg)) do
    local mt = reg[cname]
    if cname:match("^keel%.") and type(mt) == "table" and type(mt.__index) == "table" then
      for _, name in ipairs(sorted(c_functions(mt.__index))) do
        if not documented(doc, name) then missing[#missing + 1] = cname .. ":" .. name end
      end
    end
  end
  t.eq(missing, {}, "C functions doc/api/ does not name")
end)

t.test("docs: every function doc/api/ lists under a binding module's heading exists in it", function()
  -- the tables of a `## \`keel.X\`` section: their first cells name functions of keel.X
  local p = assert(io.popen("ls doc/api/*.md"))
  local files = {}
  for f in p:lines() do files[#files + 1] = f end
  p:close()
  local bad, checked = {}, 0
  for _, f in ipairs(files) do
    local module
    local n = 0
    for line in io.lines(f) do
      n = n + 1
      local heading = line:match("^##%s")
      if heading then
        local m = line:match("^##%s+`keel%.([%w_]+)`")
        module = m and type(keel[m]) == "table" and m or nil
      elseif module and line:match("^| `") then
        local first = line:match("^| ([^|]*) |")
        for call in first:gmatch("`([^`]+)`") do
          local name = call:match("^([%a_][%w_]*)%(") or call:match("^keel%." .. module .. "%.([%a_][%w_]*)%(")
          if name and name ~= "require" then   -- `require("keel").tables.x(...)`: the C half, named whole
            checked = checked + 1
            local ok, lua_side = pcall(require, "keel." .. module)
            if keel[module][name] == nil and not (ok and type(lua_side) == "table" and lua_side[name] ~= nil) then
              bad[#bad + 1] = ("%s:%d: keel.%s has no %s"):format(f, n, module, name)
            end
          end
        end
      end
    end
  end
  t.eq(bad, {})
  t.ok(checked >= 50, "functions checked: " .. checked)
end)

--- keel.errors — keel's error objects, and the one parser of Lua's
-- "file:line: message" text.
--
--   local errors = require "keel.errors"
--   local ok, e = xpcall(fn, function(x) return errors.from(x, "27.A.3", true) end)
--   if not ok then print(errors.format(e)) end   --> file:line: rule 27.A.3: ...
--
-- An error is a table with the fields message ("file:line: rule ID: text"),
-- rule, file, line, reason (the text alone), traceback (the script frames,
-- "file:line: in function 'name'") and, for a failed entry point of a rule
-- set, kind ("error", "cpu", "budget", "memory"). Scripts may catch one
-- (pcall around ctx:emit or ctx:query); its metatable is keel's own and
-- locked: `getmetatable` on it gives a string, no script can change or
-- replace it, and nothing in an error leads back to it.
local keel = require "keel"

local type, tonumber, rawget, rawset, setmetatable, error =
  type, tonumber, rawget, rawset, setmetatable, error
local concat = table.concat
local getinfo, real_getmetatable = debug.getinfo, debug.getmetatable
local stop_message = keel.sandbox.stop_message

local M = {}

-- ---- the parser ------------------------------------------------------------------

--- Split Lua's "file:line: text" (the form error() and the loader give).
---@param msg string
---@return string|nil file, integer|nil line, string text  (file and line nil when msg has no position)
function M.parse(msg)
  local file, lnum, text = msg:match("^([^\n]-):(%d+): (.*)$")
  if not file then return nil, nil, msg end
  return file, tonumber(lnum), text
end

--- The message of anything raised, without calling any of its metamethods
--- (a script's error object could have a __tostring that never returns).
---@param e any
---@return string
function M.get_message(e)
  if type(e) == "string" then return e end
  if type(e) == "table" then
    local m = rawget(e, "message")
    if type(m) == "string" then return m end
    return "(error object is a table)"
  end
  return "(error object is a " .. type(e) .. ")"
end

-- ---- the error type ----------------------------------------------------------------

-- No __index: an error has fields only, so reading a missing one gives nil
-- and never the metatable. __metatable hides and protects it.
local Error = setmetatable({
  __tostring = function(e) return M.get_message(e) end,
  __metatable = "the metatable of a keel error is locked",
}, {
  __newindex = function() error("the metatable of a keel error is locked", 2) end,
  __metatable = "the metatable of a keel error is locked",
})

--- Is v a keel error?
---@param v any
---@return boolean
function M.is_error(v) return real_getmetatable(v) == Error end

-- ---- where an error happened ---------------------------------------------------------

local KEEL_DIR = "@" .. keel.script_dir .. "/keel/"

-- A chunk of a script (a rule, scenario or variant file, a host script, a
-- chunk made by a script's load), not a file of keel's own Lua.
local function is_script_source(src)
  if src:sub(1, 7) == "=[load]" then return true end
  return src:sub(1, 1) == "@" and src:sub(1, #KEEL_DIR) ~= KEEL_DIR
end

-- Walk the stack from the caller of M.from up to stop_fn: the frames of
-- scripts only, as "file:line: in function 'name'" (keel's own frames in
-- between, message handlers included, are skipped).
local function script_frames(stop_fn)
  local out = {}
  for lv = 3, 90 do
    local info = getinfo(lv, "Slnf")
    if not info or info.func == stop_fn then break end
    if is_script_source(info.source) and (info.currentline or 0) > 0 then
      local what = info.name and ("function '" .. info.name .. "'")
        or (info.what == "main" and "main chunk")
        or ("function <%s:%d>"):format(info.short_src, info.linedefined)
      out[#out + 1] = ("%s:%d: in %s"):format(info.short_src, info.currentline, what)
    end
  end
  return out
end

--- A keel error from anything raised: e itself when it is one, else an
--- error whose message is "file:line: rule ID: text". The position is the
--- one in the message, or (with `trace`, from a message handler) the first
--- script frame when the message has none or points into keel's own Lua.
--- A message that starts "rule ID: " names the rule.
---@param e any what was raised
---@param rule? string the rule in force
---@param trace? boolean collect the script frames (call from a message handler)
---@param stop_fn? function the entry point: frames above it are not the script's
---@return table error
function M.from(e, rule, trace, stop_fn)
  if M.is_error(e) then return e end
  local file, line, text = M.parse(M.get_message(e))
  -- once the action is stopping (CPU, budget, memory), that is what every
  -- error of it says (Lua's bare "not enough memory", a script's error
  -- raised after a refusal it caught): where it stopped and the limit
  local stop = stop_message()
  if stop then file, line, text = M.parse(stop) end
  local frames = trace and script_frames(stop_fn) or {}
  -- a position inside the kernel's own Lua says less than the script's line
  if file and file:match("keel/[%w_/]+%.lua$") and frames[1] then file = nil end
  if not file and frames[1] then
    file, line = M.parse(frames[1])
  end
  if text == "not enough memory" then text = "memory limit exceeded (Lua: not enough memory)" end
  local rid, rest = text:match("^rule ([%w][%w%._%-]*): (.*)$")
  if rid then rule, text = rid, rest end
  local where = file and (file .. ":" .. line .. ": ") or ""
  return setmetatable({
    message = where .. (rule and ("rule " .. rule .. ": ") or "") .. text,
    rule = rule, file = file, line = line, reason = text, traceback = frames,
  }, Error)
end

--- Record on an error how its entry point failed ("error", "cpu", "budget", "memory").
---@param e table a keel error
---@param kind string
function M.set_kind(e, kind) rawset(e, "kind", kind) end

--- How a failure raised by a rule set's entry point (emit, query, act)
--- failed: "error", "cpu", "budget" or "memory".
---@param err any
---@return string
function M.get_kind(err)
  local k = type(err) == "table" and rawget(err, "kind")
  return type(k) == "string" and k or "error"
end

--- The text a person sees: the message, then the script frames.
---@param err any
---@return string
function M.format(err)
  local msg = M.get_message(err)
  local tb = type(err) == "table" and rawget(err, "traceback")
  if type(tb) ~= "table" then return msg end
  local lines = {}
  for i = 1, 64 do
    local l = rawget(tb, i)
    if type(l) ~= "string" then break end
    lines[i] = l
  end
  if #lines == 0 then return msg end
  return msg .. "\nscript traceback:\n  " .. concat(lines, "\n  ")
end

return M

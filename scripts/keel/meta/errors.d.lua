---@meta keel.errors
-- LuaLS definitions for keel.errors (scripts/keel/errors.lua).

---@class keel.Error
---@field message string "file:line: rule ID: reason"
---@field rule string?
---@field file string?
---@field line integer?
---@field reason string
---@field traceback string[] the script frames, "file:line: in function 'name'"
---@field kind? "error"|"cpu"|"budget"|"memory" how a rule set's entry point failed

---@class keel.errorslib
local errorslib = {}
---@param msg string
---@return string|nil file, integer|nil line, string text
function errorslib.parse(msg) end
---@param e any
---@return string
function errorslib.get_message(e) end
---@param v any
---@return boolean
function errorslib.is_error(v) end
---@param e any
---@param rule? string
---@param trace? boolean
---@param stop_fn? function
---@return keel.Error
function errorslib.from(e, rule, trace, stop_fn) end
---@param e keel.Error
---@param kind string
function errorslib.set_kind(e, kind) end
---@param err any
---@return string
function errorslib.get_kind(err) end
---@param err any
---@return string
function errorslib.format(err) end

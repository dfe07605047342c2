---@meta keel.sandbox
-- LuaLS definitions for keel.sandbox (kernel/l_sandbox.c and
-- scripts/keel/sandbox.lua) and keel.strlib (kernel/l_strlib.c).

---@class keel.SandboxLimits
---@field cpu? number seconds one action may run (0/false: off)
---@field budget? integer instructions one action may run (0/false: off)
---@field memory? integer bytes the state may use (states made by new only)
---@field string? integer bytes string.rep / gsub may build
---@field pattern_steps? integer steps of one pattern call
---@field pattern_per_byte? integer and more steps per subject byte

---@class keel.sandboxlib
---@field coroutine table resume/wrap/close that follow the running thread
---@field forbidden table<string, string> left-out globals and why
---@field api_modules string[]
---@field catching {[1]: integer, co: integer} where a script may catch an error: [1] script pcalls, xpcalls and coroutine bodies running
local sandbox = {}
--- Run fn as one action under the limits.
---@return boolean ok, any ... results, or error and kind ("error"|"cpu"|"budget"|"memory")
function sandbox.protect(fn, ...) end
---@return boolean ok, any ...
function sandbox.xprotect(fn, handler, ...) end
--- Lua's pcall (scripts' pcall), counting in sandbox.catching[1] while it runs.
---@return boolean ok, any ...
function sandbox.pcall(fn, ...) end
--- Zero sandbox.catching (an entry point has ended).
function sandbox.reset_catching() end
---@param t? keel.SandboxLimits
---@return keel.SandboxLimits before
function sandbox.limits(t) end
---@return {memory: integer, memory_peak?: integer, instructions: integer, own_state: boolean}
function sandbox.usage() end
---@return string|nil kind
function sandbox.stopping() end
--- While an action is stopping (or ran out of memory): "file:line: <the stop's text>".
---@return string|nil message
function sandbox.stop_message() end
---@param prefix string
function sandbox.trust(prefix) end
---@param name string
---@param state keel.State
function sandbox.keep(name, state) end
---@param name string
---@return keel.State|nil
function sandbox.kept(name) end
---@param opts? keel.SandboxLimits
---@return keel.Sandbox
function sandbox.new(opts) end
--- A fresh environment for one script (scripts/keel/sandbox.lua).
---@param opts? {extra?: table, print?: function, keel?: table}
---@return table
function sandbox.env(opts) end
---@return function|nil, string?
function sandbox.load(text, chunkname, env) end
---@return function|nil, string?
function sandbox.loadfile(path, env) end
--- A read-only proxy of t (one per table), shown as each key was when first
--- read (or when an absent key was first read: then all of them); base: a
--- table the proxy also shows (a ctx's shared methods).
---@param t table
---@param name string
---@param base? table
---@return table proxy
function sandbox.readonly(t, name, base) end
---@return boolean
function sandbox.is_protected(t) end
---@return string
function sandbox.tostring(v) end

---@class keel.Sandbox
local Sandbox = {}
---@return boolean ok, any ...
function Sandbox:call(module, fname, ...) end
---@return boolean ok, any ...
function Sandbox:eval(source, chunkname, ...) end
function Sandbox:reset() end
---@return table
function Sandbox:usage() end
---@param t? keel.SandboxLimits
---@return keel.SandboxLimits
function Sandbox:limits(t) end
function Sandbox:close() end

---@class keel.strlib
---@field string table the bounded string library
---@field locked_message string
local strlib = {}
function strlib.find(s, pattern, init, plain) end
function strlib.match(s, pattern, init) end
function strlib.gmatch(s, pattern, init) end
function strlib.gsub(s, pattern, repl, n) end
function strlib.rep(s, n, sep) end
function strlib.format(fmt, ...) end
---@return string
function strlib.tostring(v) end
--- Forget the ids tostring gave: the next table or function it sees is #1
--- again (keel.lab_game, before each game of a study).
function strlib.reset_ids() end
function strlib.lock() end

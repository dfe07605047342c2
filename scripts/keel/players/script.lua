--- keel.players.script — a designer's player: a Lua file run in the sandbox
-- (as rule files and variants are), its decision under the CPU limit of
-- one action and the memory limit of the game's sandbox state.
--
--   -- my_player.lua
--   return {
--     name = "first offered",
--     decide = function(info)
--       -- info.side, info.view (set:view_for), info.actions
--       -- (set:legal_actions: each with its params' domains), info.status
--       -- (set:status), info.random(n) (a uniform 1..n from the player's
--       -- seeded stream)
--       for _, a in ipairs(info.actions) do
--         if a.available and a.name ~= "end_phase" and #a.free == 0 then ... return a.name, params end
--       end
--       return "end_phase", {}
--     end,
--   }
--
-- The file sees what a side sees: its view, the orders offered to it, the
-- status — never the game itself. The order it returns is checked
-- (set:check) before it is given; a refused one, a failure or a limit
-- reached is an error naming the file. Guide: doc/guide.md ("A player of
-- your own").
local keel = require "keel"
local sandbox = require "keel.sandbox"
local errors = require "keel.errors"
local player = require "keel.player"

local M = {}

-- run fn(...) as one action under the sandbox's limits: results, or raise
-- "path: what" naming the kind of failure
local function protected(path, what, fn, ...)
  local res = table.pack(keel.sandbox.protect(fn, ...))
  sandbox.reset_catching()
  if not res[1] then
    local kind = res[3]
    error(("%s: %s: %s%s"):format(path, what, errors.format(res[2]),
      (kind == "cpu" or kind == "budget") and " (the CPU limit of a decision: --cpu)"
        or kind == "memory" and " (out of memory: --memory)" or ""), 0)
  end
  return table.unpack(res, 2, res.n)
end

function M.init(self, options)
  local ok, why = player.check_options(options, {})
  if not ok then return nil, why end
  local path = self.path
  local env = sandbox.env()
  local fn, err = sandbox.loadfile(path, env)
  if not fn then return nil, err end
  local lok, t = pcall(protected, path, "loading", fn)
  if not lok then return nil, t end
  if type(t) == "function" then t = { decide = t } end
  if type(t) ~= "table" or type(rawget(t, "decide")) ~= "function" then
    return nil, ("%s: a player file returns { decide = function(info) ... end } (got %s)"):format(path,
      sandbox.show(t))
  end
  self.script = { decide = rawget(t, "decide"), name = rawget(t, "name") }
  return true
end

function M.decide(self, set, game, side)
  local info = {
    side = side,
    view = set:view_for(game, side),
    actions = set:legal_actions(game, side),
    status = set:status(game),
  }
  local dice = self.dice
  info.random = function(n)
    if math.type(n) ~= "integer" or n < 1 then error("random(n): a whole number n >= 1 expected", 2) end
    return dice:range(n)
  end
  local name, params = protected(self.path, "decide", self.script.decide, info)
  if type(name) ~= "string" then
    error(("%s: decide returned %s; an action's name expected"):format(self.path, sandbox.show(name)), 0)
  end
  if params ~= nil and type(params) ~= "table" then
    error(("%s: decide returned %s for %s's parameters; a table expected"):format(self.path, sandbox.show(params),
      name), 0)
  end
  -- a plain copy (read raw: what the script made runs no code of its own here)
  params = params and sandbox.plain(params, function(_, what)
    error(("%s: the parameters of %s: %s"):format(self.path, name, what), 0)
  end) or {}
  local why = set:may(game, name, side) or set:check(game, name, params)
  if why then error(("%s: decide gave %s, which is refused: %s"):format(self.path, name, errors.format(why)), 0) end
  return name, params
end

return M

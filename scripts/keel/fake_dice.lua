--- keel.fake_dice — a small stand-in with the contract of keel.dice, used
-- by keel.game only while kernel/dice.c (keel.dice) has not landed. Same
-- methods: new(seed), d:roll(expr, opts) -> total, record; d:range(n, opts);
-- d:on_roll(fn); d:force(...); d:save_state() -> text; d:load_state(text).
-- Streams are independent splitmix64 generators keyed by name.
local M = {}
local Dice = {}
Dice.__index = Dice

local function mix(x)
  x = (x ~ (x >> 30)) * -4658895280553007687
  x = (x ~ (x >> 27)) * -7723592293110705685
  return x ~ (x >> 31)
end

local function name_seed(seed, name)
  local h = seed
  for i = 1, #name do h = mix(h ~ name:byte(i)) end
  return h
end

---@param seed integer
function M.new(seed)
  return setmetatable({ seed = math.tointeger(seed) or 0, streams = {}, n = 0, forced = {}, hooks = {} }, Dice)
end

function Dice:_next(stream, faces)
  local s = self.streams[stream] or name_seed(self.seed, stream)
  s = s + -7046029254386353131          -- 0x9e3779b97f4a7c15
  self.streams[stream] = s
  return (mix(s) >> 1) % faces + 1
end

local function parse(expr)
  local n, f, mod = expr:match("^(%d*)d(%d+)([+-]?%d*)$")
  if not f then error(("dice: bad expression '%s'"):format(tostring(expr)), 3) end
  return tonumber(n ~= "" and n or "1"), tonumber(f), tonumber(mod ~= "" and mod or "0")
end

--- Queue faces to come out next (tests).
function Dice:force(...)
  for _, v in ipairs({ ... }) do self.forced[#self.forced + 1] = v end
end

function Dice:roll(expr, opts)
  opts = opts or {}
  local count, faces, mod = parse(expr)
  local stream = opts.stream or "main"
  local rec = { stream = stream, expr = expr, faces = {}, modifier = mod, rule = opts.rule,
                reason = opts.reason, forced = false }
  local total = mod
  for i = 1, count do
    local v
    if #self.forced > 0 then v = table.remove(self.forced, 1); rec.forced = true
    else v = self:_next(stream, faces) end
    rec.faces[i] = v
    total = total + v
  end
  self.n = self.n + 1
  rec.total, rec.n = total, self.n
  for _, fn in ipairs(self.hooks) do fn(rec) end
  return total, rec
end

function Dice:range(n, opts)
  return self:roll("1d" .. math.tointeger(n), opts)
end

function Dice:on_roll(fn) self.hooks[#self.hooks + 1] = fn end

function Dice:save_state()
  local names = {}
  for k in pairs(self.streams) do names[#names + 1] = k end
  table.sort(names)
  local parts = { "fake-dice 1", tostring(self.seed), tostring(self.n) }
  for _, k in ipairs(names) do parts[#parts + 1] = ("%s=%d"):format(k, self.streams[k]) end
  return table.concat(parts, " ")
end

function Dice:load_state(text)
  local words = {}
  for w in tostring(text):gmatch("%S+") do words[#words + 1] = w end
  if words[1] ~= "fake-dice" or words[2] ~= "1" then error("dice: not a dice state", 2) end
  local seed, n = math.tointeger(tonumber(words[3])), math.tointeger(tonumber(words[4]))
  if not seed or not n then error("dice: damaged dice state", 2) end
  local streams = {}
  for i = 5, #words do
    local k, v = words[i]:match("^([^=]+)=(%-?%d+)$")
    if not k then error("dice: damaged dice state", 2) end
    streams[k] = math.tointeger(tonumber(v))
  end
  self.seed, self.n, self.streams, self.forced = seed, n, streams, {}
end

return M

-- Family plumbing (no rule id): keyed values for the data Rule 37's areas
-- share — records of landings, plans and capture times, the theatre SP
-- pools — as maps from a small key tuple to a value.
--
-- STAND-IN. The game state is getting a keyed-values primitive (maps from a
-- key tuple to a value, journaled, undone, hashed and saved); until it is
-- here, this one helper keeps each entry as a game-wide value named
-- "<map>:<key1>:<key2>..." (the shape of the family's `vp:<side>`). Every
-- rule reaches the data only through the helper, so switching to the
-- primitive changes this file alone.
--
--   local kv = ctx:query("keyed")
--   kv.set(ctx.game, "landing", { 3, "hex" }, hex)
--   kv.get(ctx.game, "landing", { 3, "hex" })      --> hex
--   kv.get(ctx.game, "sp_pool", "Allied")          --> a key may be a single value
--   local id = kv.next(ctx.game, "landing")        --> 1, 2, 3 ... (kv.count gives the last)
--
-- The functions run with the caller's rule in force, so each change is
-- journaled under the rule that makes it.

local name_of   -- helper, below the plumbing rule

local function get(game, map, key) return game:global(name_of(map, key)) end

local function set(game, map, key, value)
  local n = name_of(map, key)
  if game:global(n) ~= value then game:set_global(n, value) end
end

local function count(game, map) return game:global(name_of(map, "count")) or 0 end

local function next_id(game, map)
  local n = count(game, map) + 1
  game:set_global(name_of(map, "count"), n)
  return n
end

local HELPER = { get = get, set = set, count = count, next = next_id }

rule {
  title = "keyed values (stand-in until the state has them)",
  queries = {
    --- keyed() -> { get, set, count, next }: the one helper for keyed data
    keyed = function() return HELPER end,
  },
}

-- ---- helper -------------------------------------------------------------------------

-- "<map>:<k1>:<k2>..." (keys: strings, integers or booleans)
function name_of(map, key)
  if type(key) ~= "table" then key = { key } end
  local parts = { map }
  for i, k in ipairs(key) do
    local t = type(k)
    if t ~= "string" and math.type(k) ~= "integer" and t ~= "boolean" then
      error(("keyed %s: key %d must be a string, an integer or a boolean, got %s"):format(map, i, t), 3)
    end
    parts[#parts + 1] = tostring(k)
  end
  return table.concat(parts, ":")
end

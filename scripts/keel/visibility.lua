--- keel.visibility — what one side may see of a game: its view for a user
-- interface (keel serve). The kernel knows units, groups, places and the
-- status lines the families declare; what a side may not know is the rule
-- families' to say, through two queries a rule may answer:
--
--   group_visibility(side, group) -> "full" | "unknown" | "hidden" [, facts]
--   unit_visibility(side, unit)   -> "full" | "unknown" | "hidden" [, facts]
--
-- "full" (also the answer when no rule answers the query): everything the
-- state holds. "unknown": the counter is there, nothing else is told — the
-- side of its units and where they are, and the `facts` the rules say the
-- side has learnt (plain values: a search's revealed TF count). A group
-- seen so hides its units. "hidden": not in the view at all. A unit in a
-- group the side does not see in full, or aboard a carrier it does not see
-- in full, is not listed on its own. navgroup answers group_visibility from
-- 32.B (doc/navgroup.md "What a side sees").
--
-- Game-wide values: only the status lines the families declare (keel
-- counter's merge of their `view.status`), never the rest of the globals
-- (rules keep private bookkeeping there). Entry point: set:view_for.
local sorted_keys = require("keel.keys").sorted

local type, ipairs, pairs, tostring, error = type, ipairs, pairs, tostring, error

local M = {}

--- The answers a visibility query may give.
M.LEVELS = { full = true, unknown = true, hidden = true }

local PLAIN = { string = true, number = true, boolean = true }

-- Ask a visibility query when a rule answers it: level, facts.
local function ask(set, game, query, side, id)
  if not set.queries[query] then return "full" end
  local level, facts = set:_query(game, query, side, id)
  if level == nil then level = "full" end
  if not M.LEVELS[level] then
    error(("query %s(%s, %s) answered %s; \"full\", \"unknown\" or \"hidden\" expected"):format(query,
      tostring(side), tostring(id), tostring(level)), 0)
  end
  local plain
  if type(facts) == "table" then
    plain = {}
    for _, k in ipairs(sorted_keys(facts)) do
      if type(k) == "string" and PLAIN[type(facts[k])] then plain[k] = facts[k] end
    end
  end
  return level, plain
end

-- Where a unit or a group marker is: loc, where, and the hex label when a board has it.
local function place(game, loc, where)
  local out = { loc = loc }
  if loc == "hex" or loc == "port" then
    out.hex = where
    if game.board and game.board:contains(where) then out.at = game.board:format(where) end
  elseif loc == "unit" then
    out.aboard = where
  elseif loc ~= "off" and loc ~= "dead" then
    out.where = where
  end
  return out
end

local function merge(into, t)
  for k, v in pairs(t) do into[k] = v end
  return into
end

--- The view of `side`: {side, units = {...}, groups = {...}, status = {...}}
--- (doc/protocol.md "view"). Runs inside the set's entry point.
---@param set table
---@param game table
---@param side string
---@return table
function M.view(set, game, side)
  local st = game.state
  local unit_seen = {}       -- unit id -> false when it may not be listed on its own
  local groups = {}
  for g = 1, st:count_groups() do
    local members = st:group_units(g)
    if #members > 0 then
      local level, facts = ask(set, game, "group_visibility", side, g)
      if level ~= "full" then
        for _, u in ipairs(members) do unit_seen[u] = false end
      end
      if level == "full" then
        groups[#groups + 1] = { id = g, known = true, name = st:group_get_name(g), units = members,
                                values = st:group_values(g) }
      elseif level == "unknown" then
        local first = members[1]
        local kind, where = st:get(first, "loc")
        groups[#groups + 1] = merge({ id = g, known = false, side = st:get(first, "side"), facts = facts },
          place(game, kind, where))
      end
    end
  end
  -- each unit's own level, then: aboard a carrier not seen in full, not listed
  local level_of, facts_of = {}, {}
  for id = 1, st:count_units() do
    if unit_seen[id] == false then
      level_of[id] = "hidden"
    else
      level_of[id], facts_of[id] = ask(set, game, "unit_visibility", side, id)
    end
  end
  local function listed(id, depth)
    local kind, where = st:get(id, "loc")
    if kind == "unit" then
      if depth > 64 or level_of[where] ~= "full" then return false end
      return listed(where, depth + 1)
    end
    return true
  end
  local units = {}
  for id = 1, st:count_units() do
    local level = level_of[id]
    if level ~= "hidden" and listed(id, 0) then
      local kind, where = st:get(id, "loc")
      if level == "full" then
        local u = game:get_unit(id)
        units[#units + 1] = merge({ id = id, known = true, name = u.name, type = u.type, side = u.side,
          face = u.face, hits = u.hits, points = u.points, values = u.values, markers = u.markers },
          place(game, kind, where))
      else
        units[#units + 1] = merge({ id = id, known = false, side = st:get(id, "side"), facts = facts_of[id] },
          place(game, kind, where))
      end
    end
  end
  local status = require("keel.counter").status_lines(set:view().status, st)
  return { side = side, units = units, groups = groups, status = status }
end

return M

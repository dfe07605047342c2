-- scripts/navgroup/search.lua — 32.B NAVAL SEARCHES (004_0e2364863b8db0db.txt).
--
-- When a phasing naval group enters a hex or spends MPs, each contact rule
-- (32.B.1-32.B.6) says whether it calls for a search there; 32.B then rolls
-- once on the NAVAL SEARCH TABLE with every modifier computed from the game,
-- unless this step's best modifier so far is not beaten (the re-search
-- sentence of 32.B), and applies the result. doc/navgroup.md "Searches" says
-- what a scenario supplies (air units, airbases, danger zones, ZOCs ...).
--
-- State kept (all journaled):
--   global `search_segment`      the naval movement segment counter (32.B bars
--                                last "the current naval movement segment")
--   moving group: `found`, `search_seg`/`search_best` (best modifier rolled
--                 this segment), `search_f` (segment of an F result),
--                 `revealed_tfs`, `declared_cargo`(_low/_high)
--   searching group: `search_barred` (segment of a D or F* result)
--   air unit: markers `X` / `Inop`; keyed value `no_search` {unit, group}
--             (an F result: the unit never searches for that group again)
-- What a scenario supplies (other chapters), as keyed values by side and hex
-- (hex ids): `zoc` / `zoc_other` {side, hex} = level, `danger_zone` {side,
-- hex} = true, `blockade` {side, hex} = level, `protected_waters` {hex} =
-- true; port interdiction is 32.A.3's (query `pi_level`).
--
-- The rules come first, in rulebook order; the helpers they share follow them.

local consider, build_info, contacts_for, party_of, modifiers, zoc_levels   -- 32.B's machinery (below)
local label, side_units, unit_hex, dist, zone_of, is_air, air_in_range, blockade_level, has_searcher,
  cds_ports_in_range, activate_on_success, activate_on_contact              -- shared reads and activations (below)

-- ---- 32.B ---------------------------------------------------------------------------

rule {
  id = "32.B", title = "Naval searches",
  standin = { port_sizes = "the operational port size (another chapter)" },
  values = {
    -- the contact rules asked, in order (32.B.1 ... 32.B.6)
    contacts = { "contact_danger_zone", "contact_air_mission", "contact_port_interdiction",
                 "contact_ground_units", "contact_cd_port", "contact_proximity" },
    sides = { "Allied", "Axis" },
    -- air missions (another chapter): the `mission` value of an air unit
    missions = { patrol = "naval patrol", strike = "naval strike", escort = "naval air escort" },
    search_missions = { ["naval patrol"] = true, ["naval strike"] = true },
    airbase_distance_per = 5,          -- "each 5 hexes from the furthest enemy airbase"
    naval_base_range = 10,             -- "naval base is within 10 hexes"
    naval_base_tag = "naval_base",     -- board tag of a naval base (another chapter)
    major_ports = { major = true, great = true },
    -- port size as a number, for range and modifier: not in Rule 32 — a
    -- stand-in ordinal a scenario or variant replaces (set_values)
    port_sizes = { minor = 1, standard = 2, medium = 2, major = 3, great = 4 },
    tf_types = { TF = true },          -- "TF size": the TFs in the group
    cargo_types = { NT = true, LC = true, LB = true },   -- "the combined total of NTS, LCs, and LBs"
    friendly = "searcher",             -- whose "friendly owned" hex/port/base: "searcher" | "phasing"
    reveal_on_great_success = false,   -- S* does not say the TFs are revealed
    found_modifier = 1,
    step_marker = "step",              -- "-N Step" markers: `step` with count N (the contract)
  },
  on = {
    naval_step_start = function(ctx, _)
      local g = ctx.game
      g:set_global("search_segment", (g:get_global("search_segment") or 0) + 1)
      for _, gid in ipairs(g:groups()) do
        if g:group_get_value(gid, "found") then g:group_set_value(gid, "found", false) end
      end
    end,
    group_enters_hex = function(ctx, ev) consider(ctx, ev, "enter") end,
    -- the move action spends an entry's MPs (mp_spent, activity "enter")
    -- before group_enters_hex: those MPs are spent entering the hex, so
    -- their look sees the entering contacts (32.B.1, 32.B.5) too
    mp_spent = function(ctx, ev) consider(ctx, ev, ev.activity == "enter" and "enter" or "spend") end,
  },
  queries = {
    search_enemy_side = function(ctx, side)
      for _, s in ipairs(ctx.rule.values.sides) do if s ~= side then return s end end
    end,
    search_port_sizes = function(ctx) return ctx.rule.values.port_sizes end,
    search_values = function(ctx) return ctx.rule.values end,
    -- ZOC is another chapter: the level (1 partial, 2 full, 3 double or more)
    -- `side` exerts in `hex` from ground/air units, and from other units.
    search_zoc = function(ctx, side, hex) return zoc_levels(ctx.game, side, hex) end,
    -- protected waters (another chapter): keyed value `protected_waters` {hex}, or the board tag
    search_protected_waters = function(ctx, hex)
      local g = ctx.game
      return g:get_keyed("protected_waters", hex) == true
        or (g.board ~= nil and g.board:has_tag(hex, "protected_waters"))
    end,
    -- The figure the phasing player declares for NT+LC+LB (within 50%):
    -- the true total unless a scenario answers otherwise.
    search_declared_cargo = function(_, _, total) return total end,
    -- What `side` sees of a naval group (keel.visibility): its own in full;
    -- another side's only when the group value `known` says so, else an
    -- unknown counter with what a search revealed (S: the number of TFs and
    -- the declared NT+LC+LB figure — never the true figure's bounds).
    group_visibility = function(ctx, side, gid)
      local g = ctx.game
      if side == nil or ctx:query("group_side", gid) == side or not ctx:query("naval_group", gid)
        or g:group_get_value(gid, "known") == true then
        return "full"
      end
      return "unknown", { found = g:group_get_value(gid, "found") == true, tfs = g:group_get_value(gid, "revealed_tfs"),
                          cargo = g:group_get_value(gid, "declared_cargo") }
    end,
    -- For tests and tools: the contacts and modifiers a search would use.
    search_modifiers = function(ctx, ev, event)
      local info = build_info(ctx, ev, event or "enter")
      local contacts = contacts_for(ctx, info)
      local party = party_of(contacts)
      local m = modifiers(ctx, info, party)
      return m, ctx:table("naval_search"):modifiers_for(m), party.kinds
    end,
  },
}

-- ---- contact rules ------------------------------------------------------------------
-- Each answers a query with a contact ({kind=, searcher=, patrol=, air=}) or nil.

rule {
  id = "32.B.1", title = "Danger zone contact",
  values = { tag = "danger_zone" },
  queries = {
    -- an enemy danger zone: board tag `danger_zone_<side>` or keyed value `danger_zone` {side, hex}
    contact_danger_zone = function(ctx, info)
      if info.event ~= "enter" then return nil end
      local g = ctx.game
      if g:get_keyed("danger_zone", { info.enemy, info.hex }) == true
        or (g.board and g.board:has_tag(info.hex, ctx.rule.values.tag .. "_" .. info.enemy)) then
        return { kind = "danger zone", rule = "32.B.1" }
      end
    end,
  },
  on = { naval_search = function(ctx, ev) activate_on_success(ctx, ev, "danger zone", "32.B.1 danger zone contact") end },
}

rule {
  id = "32.B.2", title = "Naval patrol/naval strike contact",
  queries = {
    contact_air_mission = function(ctx, info)
      local g = ctx.game
      local v = ctx:query("search_values")
      local air = air_in_range(g, info.enemy, v.search_missions, info.hex, info.group)
      if #air == 0 then return nil end
      local patrol = {}
      for _, u in ipairs(air) do
        if g:get_value(u, "mission") == v.missions.patrol then patrol[#patrol + 1] = u end
      end
      return { kind = "naval patrol/strike", air = air, patrol = patrol, rule = "32.B.2" }
    end,
  },
  on = { naval_search = function(ctx, ev) activate_on_success(ctx, ev, "naval patrol/strike", "32.B.2 air contact") end },
}

rule {
  id = "32.B.3", title = "Port interdiction/blockade contact",
  queries = {
    contact_port_interdiction = function(ctx, info)
      local g = ctx.game
      local pi, bl = ctx:query("pi_level", info.side, info.hex), blockade_level(g, info.hex, info.enemy)
      if pi > 0 then return { kind = "port interdiction", rule = "32.B.3" } end
      if bl > 0 then return { kind = "blockade", rule = "32.B.3" } end
    end,
  },
  on = { search_contact = function(ctx, ev)
    activate_on_contact(ctx, ev, "32.B.3", function(c) return "32.B.3 " .. c.kind end)
  end },
}

rule {
  id = "32.B.4", title = "Enemy ground unit contact",
  -- not ground units: naval units (and CDs) and air units
  values = { naval_types = { TF = true, CG = true, NT = true, LC = true, LB = true, SUB = true, RF = true, CD = true } },
  queries = {
    contact_ground_units = function(ctx, info)
      local g, naval = ctx.game, ctx.rule.values.naval_types
      local units, types = side_units(g, info.enemy)
      for i = 1, #units do
        local u = units[i]
        if not naval[types[u]] and not is_air(g, u) then
          local h = unit_hex(g, u)
          if h and dist(h, info.hex) <= 1 then
            return { kind = "enemy ground units", unit = u, rule = "32.B.4" }
          end
        end
      end
    end,
  },
  on = { search_contact = function(ctx, ev) activate_on_contact(ctx, ev, "32.B.4", "32.B.4 enemy ground unit") end },
}

rule {
  id = "32.B.5", title = "CD/port search roll",
  values = { activation_zone = "any" },  -- "any reserve naval groups in port" (no sea zone named)
  queries = {
    contact_cd_port = function(ctx, info)
      if info.event ~= "enter" then return nil end
      local l = cds_ports_in_range(ctx, info.enemy, info.hex)
      if #l == 0 then return nil end
      local here = false
      for _, c in ipairs(l) do if c.hex == info.hex then here = true end end
      return { kind = "CD/port range", here = here, rule = "32.B.5" }
    end,
  },
  -- only when the group enters the hex of the enemy port or CD
  on = { search_contact = function(ctx, ev)
    activate_on_contact(ctx, ev, "32.B.5", "32.B.5 enemy port/CD hex", function(c)
      if not c.here then return false end
      local z = ctx.rule.values.activation_zone
      return z == "any" and "any" or zone_of(ctx.game, ev.hex)
    end)
  end },
}

rule {
  id = "32.B.6", title = "Proximity of enemy naval units",
  values = { range = { combat = 15, submarine = 15, mixed = 10, cargo = 5 }, no_search_types = { RF = true } },
  queries = {
    contact_proximity = function(ctx, info)
      local g, v = ctx.game, ctx.rule.values
      if g:group_get_value(info.group, "search_f") == info.segment then return nil end  -- F result
      local best, best_d
      for _, sg in ipairs(ctx:query("groups_on_board")) do   -- only they have a hex
        -- an enemy group not barred this segment, with a unit that may search
        -- (the cheap tests first: most groups fail the side)
        if sg ~= info.group and ctx:query("group_side", sg) == info.enemy
          and g:group_get_value(sg, "search_barred") ~= info.segment and has_searcher(g, sg, v.no_search_types) then
          local range = v.range[ctx:query("group_kind", sg)]
          local h = ctx:query("group_hex", sg)
          if range and h then
            local d = ctx:query("sea_distance", h, info.hex, range)
            if d and d <= range and (not best_d or d < best_d) then best, best_d = sg, d end
          end
        end
      end
      if best then return { kind = "proximity", searcher = best, distance = best_d, rule = "32.B.6" } end
    end,
  },
}

-- ---- helpers: reads of the game shared by the rules ---------------------------------

function label(g, hex)
  local b = g.board
  return b and b:format(hex) or tostring(hex)
end

-- The units of `side` (id order) and their types, as the state stands (the
-- kernel's index gives the side's units): one list serves every walk of a
-- look (the contact rules, the modifiers), and is asked again only when the
-- state has changed (its version). The lists are never handed out.
local censuses = setmetatable({}, { __mode = "k" })   -- ctx.game -> { version =, [side] = ids, type = {} }
function side_units(g, side)
  local version = g:get_version()
  local c = censuses[g]
  if not c or c.version ~= version then
    c = { version = version, by_side = {}, type = {} }
    censuses[g] = c
  end
  local l = c.by_side[side == nil and false or side]
  if not l then
    if side == nil then   -- the units of no side (the index knows sides only)
      l = g:units(function(_, u) return g:get(u, "side") == nil end)
    else
      l = g:units { side = side }
    end
    for i = 1, #l do c.type[l[i]] = g:get(l[i], "type") end
    c.by_side[side == nil and false or side] = l
  end
  return l, c.type
end

function unit_hex(g, u)
  local kind, where = g:get(u, "loc")
  if kind == "hex" or kind == "port" then return where, kind end
end

function dist(a, b) return keel.hex.distance(a, b) end

function zone_of(g, hex)
  return g.board and g.board:get_zone(hex) or nil
end

-- An air unit, for these rules: a unit with a `mission` value or `air = true`.
function is_air(g, u)
  return g:get_value(u, "mission") ~= nil or g:get_value(u, "air") == true
end

local function can_search(g, u, gid)
  return g:get_marker(u, "X") == 0 and g:get_marker(u, "Inop") == 0
    and not (gid and g:get_keyed("no_search", { u, gid }))
end

-- Air units of `side` flying one of `missions` (a set) whose range reaches
-- `hex` from their airbase (the hex they are at), able to search for `gid`;
-- in unit id order.
function air_in_range(g, side, missions, hex, gid)
  local out, units = {}, (side_units(g, side))
  for i = 1, #units do
    local u = units[i]
    if missions[g:get_value(u, "mission") or ""] then
      local base = unit_hex(g, u)
      local range = g:get_value(u, "range") or 0
      if base and dist(base, hex) <= range and can_search(g, u, gid) then out[#out + 1] = u end
    end
  end
  return out
end

-- Distinct airbases of `units`, nearest to `hex` first (then hex id).
local function airbases(g, units, hex)
  if #units == 0 then return {} end   -- (most searches use no patrol)
  local seen, out = {}, {}
  for _, u in ipairs(units) do
    local b = unit_hex(g, u)
    if b and not seen[b] then seen[b] = true; out[#out + 1] = b end
  end
  table.sort(out, function(a, b)
    local da, db = dist(a, hex), dist(b, hex)
    if da ~= db then return da < db end
    return a < b
  end)
  return out
end

-- The BLOCKADE level `enemy` has in a hex (another chapter): keyed value
-- `blockade` {side, hex}.
function blockade_level(g, hex, enemy)
  return enemy and g:get_keyed("blockade", { enemy, hex }) or 0
end

-- Coast defences on the board, listed once per board (hex order).
local cd_cache = setmetatable({}, { __mode = "k" })
local function board_cds(b)
  local l = cd_cache[b]
  if not l then l = b:cds(); cd_cache[b] = l end
  return l
end

-- The board's ports (hex order), listed once per board.
local port_cache = setmetatable({}, { __mode = "k" })
local function board_ports(b)
  local l = port_cache[b]
  if not l then
    l = {}
    for i, p in ipairs(b:ports()) do l[i] = { hex = p.hex, size = p.size } end
    port_cache[b] = l
  end
  return l
end

-- The board's CDs and ports whose range (CD strength, port size as `sizes`
-- numbers it) reaches `hex`, in the order of board_cds then board_ports:
-- worked out once per board, sizes and hex (neither the board nor a values
-- table changes; a variant's values are another table).
local in_reach = setmetatable({}, { __mode = "k" })
local function board_in_reach(b, sizes, hex)
  local by_sizes = in_reach[b]
  if not by_sizes then by_sizes = setmetatable({}, { __mode = "k" }); in_reach[b] = by_sizes end
  local by_hex = by_sizes[sizes]
  if not by_hex then by_hex = {}; by_sizes[sizes] = by_hex end
  local l = by_hex[hex]
  if not l then
    l = {}
    for _, c in ipairs(board_cds(b)) do
      if dist(c.hex, hex) <= c.level then l[#l + 1] = { hex = c.hex, level = c.level, what = "CD" } end
    end
    for _, p in ipairs(board_ports(b)) do
      local n = sizes[p.size] or 0
      if dist(p.hex, hex) <= n then l[#l + 1] = { hex = p.hex, level = n, what = "port" } end
    end
    by_hex[hex] = l
  end
  return l
end

-- Enemy CDs and ports whose range (CD strength, port size) reaches `hex`
-- (32.B.5): { {hex=, level=, what="CD"|"port"} ... }, read only (the board's
-- entries are board_in_reach's own).
function cds_ports_in_range(ctx, enemy, hex)
  local g = ctx.game
  local out = {}
  if g.board then
    for _, c in ipairs(board_in_reach(g.board, ctx:query("search_port_sizes"), hex)) do
      if g:get_owner(c.hex) == enemy then out[#out + 1] = c end
    end
  end
  local units, types = side_units(g, enemy)
  for i = 1, #units do
    local u = units[i]
    if types[u] == "CD" then
      local h, lv = unit_hex(g, u), g:get_value(u, "cd") or g:get_value(u, "strength") or 0
      if h and lv > 0 and dist(h, hex) <= lv then out[#out + 1] = { hex = h, level = lv, what = "CD" } end
    end
  end
  return out
end

-- Whether a group has a unit whose type is not in `excluded` (a set).
function has_searcher(g, gid, excluded)
  for _, u in ipairs(g:group_units(gid)) do
    if not excluded[g:get(u, "type")] then return true end
  end
  return false
end

local function group_units_of_type(g, gid, types)
  local n = 0
  for _, u in ipairs(g:group_units(gid)) do
    if types[g:get(u, "type")] then n = n + 1 end
  end
  return n
end

-- ZOC is another chapter: the levels (1 partial, 2 full, 3 double or more)
-- `side` exerts in `hex` from ground/air units and from other units, as a
-- scenario supplies them: keyed values `zoc` and `zoc_other` {side, hex}.
function zoc_levels(g, side, hex)
  return g:get_keyed("zoc", { side, hex }) or 0, g:get_keyed("zoc_other", { side, hex }) or 0
end

-- ---- helpers: 32.B's machinery, and the activations of the contact rules ------------

-- Reserve groups of `side` in port (in `zone`, or anywhere for "any") that
-- are not yet activated: activate them and emit `reserves_activated`.
local function activate(ctx, side, zone, why)
  local g = ctx.game
  local done = {}
  for _, gid in ipairs(g:groups()) do
    if g:group_get_value(gid, "reserve") == true and not g:group_get_value(gid, "activated")
      and #g:group_units(gid) > 0 and ctx:query("group_side", gid) == side then
      local h = ctx:query("group_hex", gid)
      local in_port = g:group_get_value(gid, "in_port")
      if in_port == nil then
        local _, kind = unit_hex(g, g:group_units(gid)[1])
        in_port = kind == "port"
      end
      if h and in_port and (zone == "any" or zone_of(g, h) == zone) then
        g:group_set_value(gid, "activated", true)
        done[#done + 1] = gid
      end
    end
  end
  if #done > 0 then
    local names = {}
    for _, gid in ipairs(done) do names[#names + 1] = g:group_get_name(gid) end
    ctx:say("%s: %s reserves in port activated (%s): %s", why, side,
      zone == "any" and "any sea zone" or "sea zone " .. tostring(zone), table.concat(names, ", "))
    ctx:emit("reserves_activated", { side = side, zone = zone, groups = done, rule = ctx.rule.id })
  end
  return done
end

-- The searching party of a set of contacts: the searching naval group (if
-- any), the patrol air units used, and every air unit in range (patrol or
-- strike) for the attacks.
function party_of(contacts)
  local p = { patrol = {}, air = {}, kinds = {} }
  for _, c in ipairs(contacts) do
    p.kinds[#p.kinds + 1] = c.kind
    if c.searcher then p.group = c.searcher end
    if c.patrol then p.patrol = c.patrol end
    if c.air then p.air = c.air end
  end
  return p
end

-- Every modifier of the NAVAL SEARCH TABLE, by the table's names: worked out
-- first, then made into one table (made at its size: no growing it field by
-- field).
function modifiers(ctx, info, party)
  local g, v = ctx.game, ctx.rule.values
  local hex, gid, enemy = info.hex, info.group, info.enemy
  -- "-# each 5 hexes from the furthest enemy airbase flying naval patrol whose air units are used"
  local far = 0
  for _, b in ipairs(airbases(g, party.patrol, hex)) do far = math.max(far, dist(b, hex)) end
  local sea = g:get_global("sea")
  -- "-1 for each air unit on naval air escort up to ... air units on naval air patrol"
  local escorts = 0
  for _, u in ipairs((side_units(g, info.side))) do
    if g:get_value(u, "mission") == v.missions.escort
      and g:get_value(u, "escort") == gid and can_search(g, u) then escorts = escorts + 1 end
  end
  local night = info.night
  if night == nil then night = g:get_global("night") == true end
  -- "friendly owned": the searching side's (values.friendly = "searcher"), or the phasing side's
  local friend = v.friendly == "phasing" and info.side or enemy
  local b = g.board
  local coastal = b ~= nil and b:get_terrain(hex) == "coastal" and g:get_owner(hex) == friend
  local port = b and b:get_port(hex)
  local major_port = port ~= nil and v.major_ports[port.size] == true and g:get_owner(hex) == friend
  local naval_base = false
  if b then
    for _, nb in ipairs(b:tagged(v.naval_base_tag)) do
      if g:get_owner(nb) == friend and dist(nb, hex) <= v.naval_base_range then naval_base = true end
    end
  end
  -- ZOC (another chapter): levels a scenario supplies; protected waters negate non-air non-ground ZOC
  local ground_air, other = ctx:query("search_zoc", enemy, hex)
  if ctx:query("search_protected_waters", hex) then other = 0 end
  local zoc = math.max(ground_air or 0, other or 0)
  local found = g:group_get_value(gid, "found") == true
  local kind = ctx:query("group_kind", gid)
  local pi, blockade = ctx:query("pi_level", info.side, hex), blockade_level(g, hex, enemy)
  local ps, cd = 0, 0
  for _, c in ipairs(cds_ports_in_range(ctx, enemy, hex)) do
    if c.what == "port" then ps = math.max(ps, c.level) else cd = math.max(cd, c.level) end
  end
  return {
    airbase_distance = far // v.airbase_distance_per,
    stormy_seas = sea == "stormy", rough_seas = sea == "rough",
    air_escort = math.min(escorts, #party.patrol),
    night = night,
    did_not_leave_hex = info.left_hex == false,
    friendly_coastal_hex = coastal, friendly_major_port = major_port, naval_base_within_10 = naval_base,
    enemy_partial_zoc = zoc == 1, enemy_full_zoc = zoc == 2, enemy_double_zoc = zoc >= 3,
    air_patrol = #party.patrol,
    previously_found = found,
    mixed_group = kind == "mixed", cargo_group = kind == "cargo",
    port_interdiction = pi, blockade = blockade,
    port_size = ps, cd_level = cd,
    tf_size = group_units_of_type(g, gid, v.tf_types) // 4,
  }
end

-- The contacts at this hex for this event, from the contact rules in order.
function contacts_for(ctx, info)
  local out, queries = {}, ctx.rule.values.contacts
  for i = 1, #queries do
    local c = ctx:query(queries[i], info)
    if c then out[#out + 1] = c end
  end
  return out
end

-- Where a look is (the event's hex, else the group's) and in which segment.
local function look_at(ctx, ev)
  return ev.to or ev.hex or ctx:query("group_hex", ev.group), ctx.game:get_global("search_segment") or 0
end

-- What the contact rules and modifiers read of a look; `hex` and `segment`
-- as look_at gives them when the caller has them already.
function build_info(ctx, ev, event, hex, segment)
  if hex == nil then hex, segment = look_at(ctx, ev) end
  local gid = ev.group
  local side = ctx:query("group_side", gid)
  return {
    group = gid, side = side, enemy = ctx:query("search_enemy_side", side),
    hex = hex, from = ev.from, event = event, left_hex = ev.left_hex, night = ev.night, segment = segment,
  }
end

local function most_distant_airbase(g, party, hex)
  local bases = airbases(g, party.patrol, hex)
  return bases[#bases]
end

-- All air units of a side at an airbase.
local function air_at(g, side, base)
  local out = {}
  for _, u in ipairs((side_units(g, side))) do
    if is_air(g, u) and unit_hex(g, u) == base then out[#out + 1] = u end
  end
  return out
end

local function step_marker(ctx, sg, n)
  local g = ctx.game
  for _, u in ipairs(g:group_units(sg)) do g:add_marker(u, ctx.rule.values.step_marker, n) end
end

-- 32.B Results: D, F*, F, S, S*.
local function apply_result(ctx, info, party, code)
  local g, v = ctx.game, ctx.rule.values
  local gid, hex, seg, enemy = info.group, info.hex, info.segment, info.enemy
  local far = most_distant_airbase(g, party, hex)
  if code == "D" or code == "F*" then
    local n, mk = 2, "X"
    if code == "F*" then n, mk = 1, "Inop" end
    if party.group then
      step_marker(ctx, party.group, n)
      g:group_set_value(party.group, "search_barred", seg)
      ctx:say("%s: searching group %s gets a \"-%d Step\" marker and searches no more this segment",
        code, g:group_get_name(party.group), n)
    end
    if far then
      for _, u in ipairs(air_at(g, enemy, far)) do g:add_marker(u, mk, 1) end
      ctx:say("%s: air units at %s (the most distant airbase) get \"%s\"", code, label(g, far), mk)
    end
  elseif code == "F" then
    g:group_set_value(gid, "search_f", seg)
    ctx:say("F: the non-phasing naval groups may not search for %s again this segment", g:group_get_name(gid))
    if far then
      for _, u in ipairs(air_at(g, enemy, far)) do g:set_keyed("no_search", { u, gid }, true) end
      ctx:say("F: air units at %s (the most distant airbase) may not search for %s again", label(g, far),
        g:group_get_name(gid))
    end
  else -- S, S*
    g:group_set_value(gid, "found", true)
    ctx:say("%s: %s is found", code, g:group_get_name(gid))
    local great = code == "S*"
    activate(ctx, enemy, great and "any" or zone_of(g, hex), code)
    if not great or v.reveal_on_great_success then
      local tfs = group_units_of_type(g, gid, v.tf_types)
      local cargo = group_units_of_type(g, gid, v.cargo_types)
      local declared = ctx:query("search_declared_cargo", gid, cargo)
      local low, high = cargo * 0.5, cargo * 1.5  -- "No rounding permitted."
      if type(declared) ~= "number" or declared < low or declared > high then
        error(("declared cargo %s is not within 50%% of %d"):format(tostring(declared), cargo))
      end
      g:group_set_value(gid, "revealed_tfs", tfs)
      g:group_set_value(gid, "declared_cargo", declared)
      g:group_set_value(gid, "declared_cargo_low", low)
      g:group_set_value(gid, "declared_cargo_high", high)
      ctx:say("%s: %d TF(s) revealed; NT+LC+LB declared as %g (true total within %g..%g)",
        code, tfs, declared, low, high)
    end
    if not great then
      -- "Air units from one airbase may attempt to attack the naval group."
      local bases = airbases(g, party.air, hex)
      if #bases > 0 then
        ctx:emit("search_air_attack", { group = gid, hex = hex, result = code, airbases = { bases[1] },
          choices = bases, units = air_at(g, enemy, bases[1]) })
      end
    else
      local bases = airbases(g, party.patrol, hex)
      if #bases > 0 then
        ctx:emit("search_air_attack", { group = gid, hex = hex, result = code, airbases = bases,
          units = party.patrol })
      end
      -- "Air units from another airbase within range may join the attack by
      -- making a search roll resulting in a success. If another great success
      -- is rolled, continue to roll for more airbases."
      local searching = {}
      for _, b in ipairs(bases) do searching[b] = true end
      local others = {}
      for _, b in ipairs(airbases(g, air_in_range(g, enemy, v.search_missions, hex, gid), hex)) do
        if not searching[b] then others[#others + 1] = b end
      end
      for _, b in ipairs(others) do
        local units = {}
        for _, u in ipairs(air_at(g, enemy, b)) do
          if g:get_value(u, "mission") == v.missions.patrol and can_search(g, u, gid) then units[#units + 1] = u end
        end
        local mods = modifiers(ctx, info, { patrol = units, air = units })
        local r = ctx:resolve("naval_search", mods, { reason = "airbase " .. label(g, b) .. " joins the attack" })
        if r.code ~= "S" and r.code ~= "S*" then
          ctx:say("airbase %s does not join (%s)", label(g, b), r.code)
          break
        end
        ctx:emit("search_air_attack", { group = gid, hex = hex, result = r.code, airbases = { b },
          units = air_at(g, enemy, b), joined = true })
        if r.code ~= "S*" then break end
      end
    end
  end
end

function consider(ctx, ev, event)
  local g, v = ctx.game, ctx.rule.values
  if ev.reacting then return end
  local gid = ev.group
  local hex, seg = look_at(ctx, ev)
  -- entering a hex fires both group_enters_hex and mp_spent: one look per
  -- expenditure (asked first, as it only reads: most repeats end here)
  local same_hex = g:group_get_value(gid, "search_look_seg") == seg and g:group_get_value(gid, "search_look_hex") == hex
  if same_hex and g:group_get_value(gid, "search_look_spent") == ev.spent then return end
  local info = build_info(ctx, ev, event, hex, seg)
  local phasing = g:get_global("phasing") or info.side
  if info.side ~= phasing or info.enemy == nil then return end  -- a side not in values.sides: no enemy
  g:group_set_value(gid, "search_look_seg", seg)
  g:group_set_value(gid, "search_look_hex", info.hex)
  g:group_set_value(gid, "search_look_spent", ev.spent)

  local contacts = contacts_for(ctx, info)
  if #contacts == 0 then return end
  ctx:emit("search_contact", { group = gid, hex = info.hex, side = info.enemy, event = event, contacts = contacts })
  local party = party_of(contacts)
  local mods = modifiers(ctx, info, party)
  local tbl = ctx:table("naval_search")
  local total = tbl:sum_modifiers(mods)
  -- the found modifier is not a change "due to the naval group's movement"
  local cmp = total - (mods.previously_found and v.found_modifier or 0)
  if g:group_get_value(gid, "search_seg") == seg then
    local best = g:group_get_value(gid, "search_best")
    if cmp <= best then
      -- said once for a hex the group comes to, not again for each MP it spends there
      if not same_hex then
        ctx:say("no new search for %s at %s: modifier %+d is not above this step's best, %+d", g:group_get_name(gid),
          label(g, info.hex), cmp, best)
      end
      return
    end
  end
  g:group_set_value(gid, "search_seg", seg)
  g:group_set_value(gid, "search_best", cmp)
  local kinds = table.concat(party.kinds, ", ")
  ctx:say("search for %s at %s (contact: %s%s)", g:group_get_name(gid), label(g, info.hex), kinds,
    party.group and ("; searching group: " .. g:group_get_name(party.group)) or "")
  local result = ctx:resolve("naval_search", mods, { reason = ("search for %s at %s (%s)"):format(
    g:group_get_name(gid), label(g, info.hex), kinds) })
  apply_result(ctx, info, party, result.code)
  ctx:emit("naval_search", { group = gid, hex = info.hex, searcher = party.group, contact = kinds,
    modifier = total, result = result.code, side = info.enemy, kinds = party.kinds })
end

-- A `naval_search` handler (32.B.1, 32.B.2): on an S or S* result with a
-- contact of `kind`, activate the searching side's reserves in port in the
-- search hex's sea zone.
function activate_on_success(ctx, ev, kind, why)
  if ev.result ~= "S" and ev.result ~= "S*" then return end
  for _, k in ipairs(ev.kinds) do
    if k == kind then activate(ctx, ev.side, zone_of(ctx.game, ev.hex), why) end
  end
end

-- A `search_contact` handler (32.B.3-32.B.5: whatever the roll): for each
-- contact of rule `id`, activate the searching side's reserves in port in
-- `zone(c)` (false: none; default the search hex's sea zone). `why` is the
-- narration's reason, or a function of the contact giving it.
function activate_on_contact(ctx, ev, id, why, zone)
  for _, c in ipairs(ev.contacts) do
    if c.rule == id then
      local z
      if zone then z = zone(c) else z = zone_of(ctx.game, ev.hex) end
      if z ~= false then activate(ctx, ev.side, z, type(why) == "function" and why(c) or why) end
    end
  end
end

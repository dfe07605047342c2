--- seazone.odds — the questions `keel odds` answers for the sea-zone family
-- (002_37d6fae90ae806a5.txt): keel odds seazone:battle | seazone:surprise_strike
-- | seazone:bombard [OPTIONS]. Trusted host code; the arithmetic is
-- seazone.battle_odds (the exact battle model, doc/seazone.md), its numbers
-- the family's tables.
local M = {}

local function odds() return require "seazone.battle_odds" end

M.battle = {
  summary = "The exact outcome distribution of a sea battle under the seazone rules:\n" ..
    "  --attacker FORCE, --vs FORCE   forces as \"2 submarine, cruiser*, carrier[fighter,fighter]\"\n" ..
    "                  (* a damaged capital ship; brackets: what a carrier or assault ship carries)\n" ..
    "  --policy P, --attacker-policy P, --defender-policy P   casualty order: cheapest,\n" ..
    "                  keep_carriers, or entries \"damage:cruiser,destroyer,cruiser,...\"\n" ..
    "  --sides A,D      the sides, for the costs (default Opfor,Allies)\n" ..
    "  --submerge first|alone   --retreat-at N (the attacker's)   --top N (outcomes shown)",
  usage = "keel odds seazone:battle --attacker FORCE --vs FORCE [--policy P] [--sides A,D] [--submerge first|alone] "
    .. "[--retreat-at N] [--top N]",
  options = { attacker = "value", vs = "value", policy = "value", ["attacker-policy"] = "value",
              ["defender-policy"] = "value", sides = "value", submerge = "value", ["retreat-at"] = "value", top = "value" },
  run = function(opts)
    local o = odds()
    if not (opts.attacker and opts.vs) then error("seazone:battle needs --attacker FORCE and --vs FORCE", 0) end
    local aside, dside = "Opfor", "Allies"
    if opts.sides then
      aside, dside = opts.sides:match("^%s*([%w_]+)%s*,%s*([%w_]+)%s*$")
      if not aside then error("--sides ATTACKER_SIDE,DEFENDER_SIDE (Allies or Opfor)", 0) end
    end
    local retreat_at = opts["retreat-at"] and math.tointeger(tonumber(opts["retreat-at"]))
    if opts["retreat-at"] and not retreat_at then error("--retreat-at needs an integer", 0) end
    local sub = opts.submerge
    if sub and sub ~= "first" and sub ~= "alone" then error("--submerge first|alone", 0) end
    local spec = {
      attacker = opts.attacker, defender = opts.vs, attacker_side = aside, defender_side = dside,
      attacker_policy = o.policy_from_text(opts["attacker-policy"] or opts.policy, sub, retreat_at),
      defender_policy = o.policy_from_text(opts["defender-policy"] or opts.policy, sub, nil),
    }
    local ok, r = pcall(o.battle, spec)
    if not ok then error((tostring(r):gsub("^[^:]*:%d+: ", "")), 0) end
    return o.format(r, { top = opts.top and tonumber(opts.top) or 8 })
  end,
}

M.surprise_strike = {
  summary = "The exact hits of submarines' Surprise Strike (units.submarines.surprise-strike):\n" ..
    "  --subs FORCE    e.g. \"3 submarine\"   --defending: at their defense value",
  usage = "keel odds seazone:surprise_strike --subs FORCE [--defending]",
  options = { subs = "value", defending = "flag" },
  run = function(opts)
    if not opts.subs then error("seazone:surprise_strike needs --subs FORCE", 0) end
    local role = opts.defending and "defender" or "attacker"
    local o = odds()
    local ok, r = pcall(o.surprise_strike, opts.subs, role)
    if not ok then error((tostring(r):gsub("^[^:]*:%d+: ", "")), 0) end
    return o.format_hits(r, ("Surprise Strike of %s (%s) — hits:"):format(opts.subs, role))
  end,
}

M.bombard = {
  summary = "The exact hits of an offshore bombardment (cruisers hit on 4 or less, destroyers on 3 or less):\n" ..
    "  --ships FORCE   e.g. \"2 cruiser, destroyer\"",
  usage = "keel odds seazone:bombard --ships FORCE",
  options = { ships = "value" },
  run = function(opts)
    if not opts.ships then error("seazone:bombard needs --ships FORCE", 0) end
    local o = odds()
    local ok, r = pcall(o.bombardment, opts.ships)
    if not ok then error((tostring(r):gsub("^[^:]*:%d+: ", "")), 0) end
    return o.format_hits(r, ("Offshore bombardment by %s (cruisers hit on 4 or less, destroyers on 3 or less) — hits:")
      :format(opts.ships))
  end,
}

return M

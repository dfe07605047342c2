-- The campaign's house rules as a variant of the seabox family
-- (scripts/seabox/variants/campaign_001.lua) over the stand-ins of the
-- chapters they change (scripts/seabox/other_chapters.lua): what `keel
-- rules --variant` shows, and scenarios/seabox_house_rules.lua played with
-- and without the variant.
local t = require "keel.testing"
local scenario = require "keel.scenario"

local VARIANT = "scripts/seabox/variants/campaign_001.lua"
local SCENARIO = "scenarios/seabox_house_rules.lua"

-- the family's rule set with the scenario's game turn (the family's
-- sequence of play names no sides: a scenario does), with or without the variant
local function rule_set(with_variant)
  local spec = scenario.load(SCENARIO)
  if not with_variant then spec.variants = {} end
  return scenario.rule_set(spec)
end

t.test("house rules: the cited chapters are stand-ins that say so", function()
  local set = rule_set(false)
  for _, id in ipairs({ "35", "28B", "34A2", "36C", "divisions", "usa_organisation", "ground_combat", "contingents",
                        "east_transfers", "victory" }) do
    local r = set:rule(id)
    t.ok(r, id)
    t.ok(r.title:find("stand-in", 1, true), id .. ": " .. r.title)
    t.ok(r.file:find("scripts/seabox/other_chapters.lua", 1, true), id)
  end
end)

t.test("house rules: one variant disables the USA organisation and contingents stand-ins and replaces the East transfers", function()
  local set = rule_set(true)
  t.eq(set:rule("usa_organisation").disabled, true)
  t.eq(set:rule("contingents").disabled, true)
  t.eq(set:rule("east_transfers").origin, "campaign 001 house rules")
  t.eq(set:rule("east_transfers").title, "Transfers to the East cancelled (house rule 3)")
  t.eq(#set.conflicts, 0)
  local status, out = t.sh(t.keel_bin .. " rules seabox --variant " .. VARIANT)
  t.eq(status, 0, out)
  t.ok(out:find("usa_organisation USA organisation problems (stand-in)", 1, true), out)
  t.ok(out:find("disabled by 'campaign 001 house rules' (scripts/seabox/variants/campaign_001.lua:16): house rule 1", 1, true), out)
  t.ok(out:find("disabled by 'campaign 001 house rules' (scripts/seabox/variants/campaign_001.lua:20): house rule 2", 1, true), out)
  t.ok(out:find("replaced by 'campaign 001 house rules' (scripts/seabox/variants/campaign_001.lua:24)", 1, true), out)
  t.ok(out:find("27 rules (25 active, 2 disabled), 1 variant(s), 0 conflict(s)", 1, true), out)
  local _, base = t.sh(t.keel_bin .. " rules seabox")
  t.ok(not base:find("DISABLED", 1, true))
end)

local function play(with_variant)
  local spec = scenario.load(SCENARIO)
  if not with_variant then spec.variants = {} end
  local run = scenario.start(spec)
  local outcomes, problems = {}, {}
  for i, order in ipairs(spec.orders) do
    outcomes[i], problems[i] = run:play(i, order)
  end
  return run, outcomes, problems
end

t.test("house rules: the scenario with and without the variant: the journals show the difference", function()
  local camp, co, cp = play(true)
  local base, bo = play(false)
  for i = 1, #co do t.eq(cp[i], {}, "as the campaign played it, order " .. i .. ": " .. tostring(co[i].message)) end
  t.eq(camp.game:result().winner, "Allied")
  t.eq(camp.game:result().scores, { Allied = 4, Axis = 3 }, "3 RE in stacks and the fighter group against the panzer division")
  t.eq(base.game:result().scores, { Allied = 2, Axis = 0 }, "one stack, no support; the panzer division has left")
  local g, b = camp.game, base.game
  -- house rule 1: the one-time DRM and the assembly of US divisions
  t.eq({ g:get_global("usa_drm"), b:get_global("usa_drm") }, { nil, -1 })
  t.eq(bo[1].kind, "vetoed")
  t.ok(bo[1].message:find("USA organisation problems (stand-in): US divisions cannot assemble before turn 3", 1, true), bo[4].message)
  t.eq({ g:get(camp.units["US 1st Inf Div"], "loc") }, { "hex", camp.board:hex("15B:2408") })
  t.eq(b:get(base.units["US 1st Inf Div"], "loc"), "off")
  -- house rule 2: contingents limit neither stacks nor air support
  t.ok(bo[8].ok, "a one-contingent stack either way")
  t.eq({ bo[9].kind, bo[10].kind }, { "vetoed", "vetoed" })
  t.ok(bo[9].message:find("contingents (stand-in): a combination stack is of one contingent; Br 4th Armd bde is British, US 1st Armd regt is US", 1, true))
  t.ok(bo[10].message:find("contingents (stand-in): US 33rd FG (US) may support only its own contingent, not British", 1, true))
  -- house rule 3: the panzer division stays in the West
  t.eq(g:get(camp.units["1st SS Pz Div"], "loc"), "hex")
  t.eq(b:get(base.units["1st SS Pz Div"], "loc"), "off")
  t.eq({ g:get_global("east_transfers_cancelled"), b:get_global("east_transfers_cancelled") }, { 1, nil })
  -- in the journals
  local jc, jb = g:journal_text(), b:journal_text()
  t.ok(jb:find('"key":"usa_drm"', 1, true) and not jc:find('"key":"usa_drm"', 1, true))
  t.ok(jc:find('"key":"east_transfers_cancelled"', 1, true) and not jb:find('"key":"east_transfers_cancelled"', 1, true))
  t.ok(jc:find('"path":"scripts/seabox/variants/campaign_001.lua"', 1, true), "the variant file is declared in the journal")
  t.ok(g:hash_hex() ~= b:hash_hex())
end)

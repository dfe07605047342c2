-- tests/lua/view_test.lua — keel view (scripts/keel/cli/view.lua,
-- scripts/keel/view.lua): the page it writes, checked without a browser:
-- self-contained, the steps and what each shows, errors. The page in a real
-- browser: tests/browser/view_test.lua.
-- luacheck: max line length 160
local t = require "keel.testing"
local json = require "keel.json"
local keel_bin, sh = t.keel_bin, t.sh

local dir = t.tmpdir()

-- play a scenario with a journal, then view it; returns the page
local function view_of(scenario, name)
  local journal = dir .. "/" .. name .. ".jsonl"
  local html = dir .. "/" .. name .. ".html"
  local st, out = sh(("%s run %s --quiet --journal %s"):format(keel_bin, scenario, journal))
  assert(st == 0, out)
  st, out = sh(("%s view %s -o %s"):format(keel_bin, journal, html))
  assert(st == 0, out)
  assert(out == "", out)
  return t.read_file(html), journal
end

-- the page's data, and the state at every step (the page's own rule: each
-- step's units, globals and keyed maps over the step before)
local function data_of(html)
  local text = html:match('<script type="application/json" id="keel%-data">(.-)</script>')
  assert(text, "no data in the page")
  local data = assert(json.decode(text))
  local states, units, globals, keyed, owners = {}, {}, {}, {}, 1
  for i, s in ipairs(data.steps) do
    for id, u in pairs(s.units) do units[tonumber(id)] = u end
    for k, v in pairs(s.globals) do if v == json.null then globals[k] = nil else globals[k] = v end end
    for map, entries in pairs(s.keyed or {}) do keyed[map] = entries end
    owners = s.owners or owners
    local copy_u, copy_g, copy_k = {}, {}, {}
    for k, v in pairs(units) do copy_u[k] = v end
    for k, v in pairs(globals) do copy_g[k] = v end
    for k, v in pairs(keyed) do copy_k[k] = v end
    states[i - 1] = { units = copy_u, globals = copy_g, keyed = copy_k, owners = owners }
  end
  return data, states
end

local function at(state, label)
  local names = {}
  for id = 1, 100 do
    local u = state.units[id]
    if u and u.hex == label then names[#names + 1] = u.name end
  end
  return table.concat(names, ",")
end

local suez, suez_journal = view_of("scenarios/suez_1942.lua", "suez")
local data, states = data_of(suez)

t.test("view-1: keel view writes one self-contained page: no server, no network, nothing fetched", function()
  t.ok(suez:sub(1, 15) == "<!DOCTYPE html>", "an HTML5 page")
  t.ok(suez:find("</html>\n$"), "complete")
  for url in suez:gmatch("https?://[^\"'%s)<>]+") do
    t.ok(url == "http://www.w3.org/2000/svg", "only the SVG namespace, got " .. url)
  end
  t.eq(suez:find("<link", 1, true), nil)
  t.eq(suez:find(" src=", 1, true), nil)
  t.eq(suez:find("@import", 1, true), nil)
  t.eq(suez:find("fetch(", 1, true), nil)
  t.eq(suez:find("XMLHttpRequest", 1, true), nil)
  t.ok(suez:find('<g id="terrain"', 1, true), "the board as keel render draws it")
  t.ok(suez:find("<script>\n", 1, true) and suez:find("<style>\n", 1, true), "script and style inline")
  local _, scripts = suez:gsub("<script", "")
  t.eq(scripts, 2, "the data and the viewer's script")
end)

t.test("view-2: a step for the setup and each action of the showcase, titled with names, not ids", function()
  t.eq(#data.steps, 43)
  t.eq(data.steps[1].kind, "setup")
  t.eq(data.steps[2].title, "start_game")
  t.eq(data.steps[3].title, "end_phase")
  t.eq(data.steps[4].title, 'move group="Regia" path=["19A:3407", "19A:3408", "19A:3409", "19A:3410", "19A:3411", "19A:3412"]')
  t.eq(data.steps[5].rule, "32.C")
  t.eq(data.steps[12].title, 'split group="Convoy" name="Convoy B" units=["Convoy WS-2"]')
  t.eq(data.steps[21].title, 'advance to=19A:3014 unit="Afrika Korps"')
  t.eq(data.name, "Suez, 1942: Rule 32 in the Eastern Mediterranean")
  t.eq(data.seed, 32)
end)

t.test("view-3: the narration is keel run's, line for line; rolls with their modifiers and the table row", function()
  local _, run_out = sh(keel_bin .. " run scenarios/suez_1942.lua")
  local lines = {}
  for _, l in ipairs(data.steps[4].lines) do lines[#lines + 1] = l.t end
  local block = table.concat(lines, "\n")
  t.ok(run_out:find(block, 1, true), "step 3's narration appears in keel run's output as it is")
  local found
  for _, l in ipairs(data.steps[4].lines) do
    if l.k == "table" and l.t:find("rolled 11 (5+6) +3 port_size = 14 -> 14+: S*", 1, true) then found = l end
  end
  t.ok(found, "the search roll: its dice, modifier and the row it hit")
  t.eq(found and found.r, "32.B")
end)

t.test("view-4: what each step shows: counters at hexes, the canal, victory points, paths, hexes that changed hands", function()
  t.eq(at(states[0], "19A:3406"), "Littorio,Trento")
  t.eq(states[0].units[4].loc, "port")
  t.eq(at(states[3], "19A:3412"), "Littorio,Trento")
  t.eq(at(states[5], "19A:3411"), "Warspite")
  t.eq(at(states[7], "19A:3413"), "Littorio,Trento,Convoy WS-1,Convoy WS-2")
  t.eq(states[0].globals.suez, nil)
  t.eq(states[1].globals.suez, "open")
  t.eq(states[22].globals.suez, "temporarily closed")
  t.eq(states[30].globals.suez, "open")
  t.eq(states[39].globals.suez, "permanently closed")
  t.eq(states[38].keyed.vp, { { { "Allied" }, 40 } })
  t.eq(states[39].keyed.vp, { { { "Allied" }, 15 } })
  t.eq(#states[39].keyed.naval_combat, 8, "the status panel's count of naval combats")
  t.eq(states[4].units[4].values.reacting, true, "32.C: Warspite reacts")
  t.eq(states[5].units[4].markers.step, 1, "32.C: its -1 Step marker")
  local path3 = data.svgs[data.steps[4].paths]
  t.eq(select(2, path3:gsub("<polyline", "")), 1, "Regia's two TFs moved together: one path")
  t.ok(path3:find('class="move-path"', 1, true))
  t.eq(data.svgs[data.steps[10].paths], "", "a pass moves nothing")
  local owners = data.svgs[states[42].owners]
  t.ok(owners:find('data-hex="19A:3513"', 1, true) and owners:find('data-hex="19A:3514"', 1, true), "two hexes changed hands")
  t.eq(data.svgs[states[30].owners], "")
  for _, k in ipairs { "suez", "vp", "phasing", "sea" } do
    local found = false
    for _, s in ipairs(data.spec.status) do if s.key == k or s.keyed == k then found = true end end
    t.ok(found, "navgroup declares status " .. k)
  end
end)

t.test("view-5: counters as keel.counter draws them, one per appearance", function()
  local u = states[5].units[4]
  local svg = data.counters[u.c]
  t.ok(svg:find(">Warspite<", 1, true) and svg:find(">%-1 Step<") and svg:find(">React<", 1, true), svg)
  t.ok(svg:find('data-unit="4"', 1, true))
  t.ok(data.counter_w > 40 and data.hexes["19A:3412"], "counter size and hex centres")
  local seen = {}
  for _, c in ipairs(data.counters) do
    t.ok(not seen[c], "no counter twice")
    seen[c] = true
  end
end)

t.test("view-6: another family's journal (toy27 under a campaign's variants), and --size", function()
  local journal = dir .. "/convoy.jsonl"
  t.eq((sh(("%s run tests/scenarios/convoy_crete.lua --quiet --journal %s"):format(keel_bin, journal))), 0)
  local st, html = sh(("%s view --size 30 %s"):format(keel_bin, journal))
  t.eq(st, 0)
  local d, s = data_of(html)
  t.eq(d.size, 30)
  t.eq(#d.steps, 7, "six orders played, one expected to fail (not journaled as an action)")
  local last = s[#d.steps - 1]
  t.eq(last.units[1].name, "Warspite")
  t.ok(last.units[1].hits > 0, "bombed")
  t.ok(d.counters[last.units[1].c]:find('class="hits"', 1, true), "the counter shows its hits")
  t.eq(last.units[3].loc, "dead", "the convoy sank")
end)

t.test("view-7: bad input: exit 2 for misuse, 1 for a journal that cannot be shown; nothing written", function()
  local st, out = sh(keel_bin .. " view")
  t.eq(st, 2)
  t.ok(out:find("view needs one JOURNAL", 1, true), out)
  st, out = sh(keel_bin .. " view " .. suez_journal .. " --size 5")
  t.eq(st, 2)
  t.ok(out:find("--size must be a number from 12 to 120", 1, true), out)
  st, out = sh(keel_bin .. " view " .. dir .. "/missing.jsonl -o " .. dir .. "/missing.html")
  t.eq(st, 1)
  t.ok(out:find("missing.jsonl", 1, true), out)
  t.eq(io.open(dir .. "/missing.html"), nil)
  -- a journal whose recorded state differs from what the game gives: refused, named
  local text = t.read_file(suez_journal)
  local bad = text:gsub('("ev":"end","action":4,"hash":")%x+', "%10000000000000000")
  local f = assert(io.open(dir .. "/bad.jsonl", "w"))
  f:write(bad)
  f:close()
  st, out = sh(keel_bin .. " view " .. dir .. "/bad.jsonl -o " .. dir .. "/bad.html")
  t.eq(st, 1)
  t.ok(out:find("replay diverges at action 4 'react'", 1, true), out)
  t.eq(io.open(dir .. "/bad.html"), nil)
  f = assert(io.open(dir .. "/junk.jsonl", "w"))
  f:write("hello\n")
  f:close()
  st, out = sh(keel_bin .. " view " .. dir .. "/junk.jsonl")
  t.eq(st, 1)
  t.ok(out:find("junk.jsonl:1: not a journal event", 1, true), out)
end)

t.test("view-9: cargo: the carrier's counter counts what it carries; the cargo moves with it", function()
  local html = view_of("tests/scenarios/view_cargo.lua", "cargo")
  local d, s = data_of(html)
  t.eq(#d.steps, 2)
  t.eq(s[1].units[1].hex, "15B:2508")
  t.eq(s[1].units[1].cargo, 2)
  t.eq(s[1].units[2].carrier, 1)
  t.eq(s[1].units[2].hex, nil)
  t.ok(d.counters[s[1].units[1].c]:find(">%+2<"), "+2 on Illustrious")
end)

t.test("view-10: a journal with undo, redo and a failed order, on a game without a map", function()
  local journal = dir .. "/probe.jsonl"
  local st0, out0 = sh(("%s script tests/lua/data/state/orders.lua tests/scenarios/journal_probe.lua %s"):format(keel_bin, journal))
  t.eq(st0, 0, out0)
  local st, html = sh(("%s view %s"):format(keel_bin, journal))
  t.eq(st, 0)
  t.ok(html:find("this game has no map", 1, true))
  local d, s = data_of(html)
  local kinds = {}
  for i, step in ipairs(d.steps) do kinds[i] = step.kind end
  t.eq(table.concat(kinds, " "), "setup action action action rollback action undo redo action action action")
  t.ok(d.steps[5].title:find("^illegal %(failed: "), d.steps[5].title)
  t.eq(d.steps[7].title, "undo 2")
  t.ok(s[3].units[1].where ~= s[2].units[1].where, "step 3 moves Warspite")
  t.eq(s[6].units[1].where, s[2].units[1].where, "undo 2 takes the move back")
  t.eq(s[6].units[1].markers.dg, s[2].units[1].markers.dg)
  t.eq(s[7].units[1].where, s[3].units[1].where, "redo 1 plays it again")
  t.eq(s[0].units[3].carrier, 2, "Swordfish aboard Illustrious")
end)

t.test("view-8: the page's JSON cannot end its script element", function()
  local view = require "keel.view"
  t.eq(view.script_json({ s = "</script><!--" }), '{"s":"\\u003c/script>\\u003c!--"}')
  t.eq(json.decode(view.script_json({ s = "</script>" })).s, "</script>")
end)

os.execute("rm -rf " .. dir)

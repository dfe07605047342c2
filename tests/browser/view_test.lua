-- tests/browser/view_test.lua — keel view's page in a real browser: Debian's
-- chromium, headless, driven over the DevTools protocol (tests/browser/cdp.lua).
-- The showcase's journal is stepped through with the keyboard, the timeline,
-- the mouse; at given steps the test reads what the page shows (the counters
-- at a hex, the canal's status, the narration) and keeps screenshots in
-- build/view_test/. tests/run.sh runs it once (`make test`); it skips, saying
-- so, only when no chromium is installed.
--   bin/keel script tests/lua/run.lua tests/browser/view_test.lua
-- luacheck: max line length 160
local t = require "keel.testing"
local json = require "keel.json"
local cdp = dofile("tests/browser/cdp.lua")
local keel_bin, sh = t.keel_bin, t.sh

if not cdp.find() then
  io.write("skip browser tests: chromium is not installed (make deps installs it)\n")
  return
end

local OUT = "build/view_test"
os.execute("mkdir -p " .. OUT)
local cwd = t.cwd()

local st, out = sh(("%s run scenarios/suez_1942.lua --quiet --journal %s/suez.jsonl"):format(keel_bin, OUT))
assert(st == 0, out)
st, out = sh(("%s view %s/suez.jsonl -o %s/suez.html"):format(keel_bin, OUT, OUT))
assert(st == 0, out)

local browser, why = cdp.launch { log = OUT .. "/chromium.log" }
t.test("browser-0: headless chromium answers over the DevTools protocol", function()
  t.ok(browser, why)
  io.write("  ", tostring(browser and browser.version), "\n")
end)
if not browser then return end

local W, H = 1400, 900
local page = browser:open("file://" .. cwd .. "/" .. OUT .. "/suez.html", { width = W, height = H })
local loaded = pcall(page.wait, page, "document.body && document.body.dataset.ready === '1'", 30)

-- what the page shows
local function js_string(s) return json.encode(s) end
local function step() return tonumber(page:eval("document.body.dataset.step")) end
-- the designations printed on the counters of the stack at a hex, bottom to top
local function counters_at(hex)
  return page:eval(([[(() => {
    const s = document.querySelector('#counters .stack[data-hex=' + JSON.stringify(%s) + ']');
    if (!s) return "";
    return [...s.querySelectorAll(':scope > .slot > .counter')].map(c => c.querySelector('text').textContent).join(',');
  })()]]):format(js_string(hex)))
end
local function stack_count(hex)
  return page:eval(([[(() => {
    const b = document.querySelector('#counters .stack[data-hex=' + JSON.stringify(%s) + '] .stack-count text');
    return b ? b.textContent : null; })()]]):format(js_string(hex)))
end
local function status(key)
  return page:eval(([[(() => {
    const r = document.querySelector('#status tr[data-key=' + JSON.stringify(%s) + ']');
    return r ? r.querySelector('th').textContent + ': ' + r.querySelector('td').textContent : null; })()]]):format(js_string(key)))
end
local function narration() return page:eval("document.getElementById('lines').innerText") end
local function step_title() return page:eval("document.getElementById('step-title').innerText") end
-- the centre of an element on the screen (CSS px), or nil when it is not shown
local function centre(selector)
  return page:eval(([[(() => {
    const e = document.querySelector(%s);
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return r.width > 0 ? [r.left + r.width / 2, r.top + r.height / 2] : null; })()]]):format(js_string(selector)))
end
local function inside_board(selector)
  return page:eval(([[(() => {
    const e = document.querySelector(%s), b = document.getElementById('board');
    if (!e) return false;
    const r = e.getBoundingClientRect(), q = b.getBoundingClientRect();
    return r.left >= q.left && r.right <= q.right && r.top >= q.top && r.bottom <= q.bottom; })()]]):format(js_string(selector)))
end
local function view_box() return page:eval("document.querySelector('#board svg').getAttribute('viewBox')") end

t.test("browser-1: the page opens from disk at the setup; Regia's two TFs stacked at 19A:3406, Warspite in port", function()
  t.ok(loaded, "the viewer's script ran (body data-ready)")
  t.eq(step(), 0)
  t.eq(page:eval("document.getElementById('step-label').textContent"), "step 0 of 42")
  t.eq(counters_at("19A:3406"), "Littorio,Trento")
  t.eq(stack_count("19A:3406"), "2", "the stack shows its count")
  t.eq(counters_at("19A:2812"), "Warspite")
  t.eq(status("suez"), nil, "no canal status before game_start")
  t.eq(status("phasing"), nil, "no phasing player before the game starts (start_game, step 1)")
  t.ok(narration():find("after the scenario's setup", 1, true))
end)

t.test("browser-2: arrow keys step; step 3 shows Regia's move, its path, and the search rolls with the rows they hit", function()
  for _ = 1, 3 do page:key("ArrowRight") end
  t.eq(step(), 3)
  t.ok(step_title():find('move group="Regia" path=["19A:3407"', 1, true), step_title())
  t.eq(counters_at("19A:3406"), "")
  t.eq(counters_at("19A:3412"), "Littorio,Trento")
  local text = narration()
  t.ok(text:find("naval_search (rule 32.B): rolled 11 (5+6) +3 port_size = 14 -> 14+: S*", 1, true), text)
  t.ok(text:find("32.B: S*: Regia is found", 1, true), text)
  t.eq(text:find("search_look_hex", 1, true), nil, "changes of state hidden by default")
  t.eq(page:eval("document.querySelectorAll('#moves polyline').length"), 1, "the moving group's path")
  t.ok(inside_board('#counters .stack[data-hex="19A:3412"]'), "the view follows the action: the stack is on screen")
  t.eq(status("search_segment"), "naval step: 1")
  t.eq(status("naval_combat#"), "naval combats: 3", "a keyed map's count (32.D's records)")
  page:screenshot(OUT .. "/suez_step03.png")
  page:key("ArrowLeft")
  t.eq(step(), 2)
  t.eq(counters_at("19A:3406"), "Littorio,Trento")
  t.eq(page:eval("document.querySelectorAll('#moves polyline').length"), 0)
  -- the state changes on request
  page:key("ArrowRight")
  page:eval("document.getElementById('show-changes').click()")
  t.ok(narration():find("search_look_hex: 19A:3407 -> 19A:3408", 1, true), "listed when asked for")
  page:eval("document.getElementById('show-changes').click()")
end)

t.test("browser-3: the Suez Canal through the game: open, temporarily closed, reopened, permanently closed; 25 VP lost", function()
  page:eval("document.querySelectorAll('#timeline-list li')[1].click()")
  t.eq(step(), 1)
  t.eq(status("suez"), "Suez Canal: open")
  t.eq(status("phasing"), "phasing player: Axis")
  page:eval("document.querySelectorAll('#timeline-list li')[22].click()")
  t.eq(step(), 22)
  t.eq(step_title(), "close_suez (rule 32.A.6.a)")
  t.eq(status("suez"), "Suez Canal: temporarily closed")
  t.ok(narration():find("32.A.6.a: the Allied player temporarily closes the Suez Canal", 1, true), narration())
  t.eq(page:eval([[document.querySelector('#status tr[data-key="suez"]').classList.contains('changed')]]), true,
    "marked as changed in this step")
  page:key("End")
  t.eq(step(), 42)
  t.eq(status("suez"), "Suez Canal: permanently closed")
  t.eq(status("vp[Allied]"), "victory points (Allied): 15")
  t.ok(narration():find("the game is over: Axis wins", 1, true), narration())
  t.eq(page:eval([[[...document.querySelectorAll('#changed-hands polygon')].map(p => p.dataset.hex).sort().join(',')]]),
    "19A:3513,19A:3514", "the hexes the Axis took")
  page:screenshot(OUT .. "/suez_step42.png")
  page:eval("keelView.show(39)")   -- the Allied initial phase of turn 4
  t.ok(narration():find("the Suez Canal is permanently closed (19A:3513/3514 is Axis-owned)", 1, true), narration())
  page:eval("keelView.show(38)")   -- before it
  t.eq(step(), 38)
  t.eq(status("suez"), "Suez Canal: open")
  t.eq(status("vp[Allied]"), "victory points (Allied): 40")
  page:key("Home")
  t.eq(step(), 0)
end)

t.test("browser-4: a stack spreads under the mouse; a click shows the unit; 32.C's marks on Warspite", function()
  page:eval("keelView.show(7)")
  t.eq(counters_at("19A:3413"), "Convoy WS-1,Convoy WS-2,Littorio,Trento")
  local sel = '#counters .stack[data-hex="19A:3413"]'
  local c = centre(sel .. " .slot:last-child .counter")
  t.ok(c, "the stack is on screen")
  page:hover(c[1], c[2])
  t.eq(page:eval(("document.querySelector(%s).classList.contains('spread')"):format(js_string(sel))), true)
  local xs = page:eval(([[[...document.querySelectorAll(%s + ' > .slot')].map(s => s.getBoundingClientRect().left)]]):format(js_string(sel)))
  t.eq(#xs, 4)
  for i = 2, #xs do t.ok(xs[i] - xs[i - 1] > 30, "counters side by side, not stacked") end
  local first = centre(sel .. " > .slot:first-child .counter")
  page:click(first[1], first[2])
  t.ok(page:eval("document.getElementById('unit-info').innerText"):find("Convoy WS-1", 1, true))
  page:hover(5, H - 5)
  page:eval("keelView.show(5)")
  local w = page:eval([[[...document.querySelectorAll('#counters .stack[data-hex="19A:3411"] .counter .mark text')].map(t => t.textContent).join(',')]])
  t.eq(w, "-1 Step,React", "Warspite's -1 Step marker and its reacting mark")
end)

t.test("browser-5: zoom (keys, wheel, buttons) and pan", function()
  local function width() return tonumber(view_box():match("^%S+ %S+ (%S+)")) end
  local w0 = width()
  page:key("+")
  t.ok(width() < w0, "'+' zooms in")
  page:call("Input.dispatchMouseEvent", { type = "mouseWheel", x = 400, y = 400, deltaX = 0, deltaY = 300 })
  page:wait("true")
  local w1 = width()
  page:call("Input.dispatchMouseEvent", { type = "mouseWheel", x = 400, y = 400, deltaX = 0, deltaY = 300 })
  page:wait("true")
  t.ok(width() > w1, "the wheel zooms out")
  page:eval("document.getElementById('fit-map').click()")
  local full = page:eval("document.querySelector('#board svg').getAttribute('viewBox')")
  t.ok(width() >= 3000, "the whole map: " .. full)
  local x0 = tonumber(view_box():match("^(%S+)"))
  page:call("Input.dispatchMouseEvent", { type = "mousePressed", x = 300, y = 300, button = "left", clickCount = 1 })
  page:call("Input.dispatchMouseEvent", { type = "mouseMoved", x = 200, y = 300, button = "left" })
  page:call("Input.dispatchMouseEvent", { type = "mouseReleased", x = 200, y = 300, button = "left", clickCount = 1 })
  t.ok(tonumber(view_box():match("^(%S+)")) > x0, "dragging left moves the view right")
  page:eval("document.getElementById('fit-action').click()")
end)

t.test("browser-6: no script errors, nothing fetched from the network; a screenshot of a real board", function()
  t.eq(#page:events("Runtime.exceptionThrown"), 0, "exceptions: " ..
    json.encode(page:events("Runtime.exceptionThrown")):sub(1, 400))
  for _, r in ipairs(page:events("Network.requestWillBeSent")) do
    local url = r.request.url
    t.ok(url:match("^file:") or url:match("^data:") or url == "about:blank", "fetched " .. url)
  end
  -- step 7, Regia's stack pinned open by a click on its top counter: the picture doc/viewer-suez.png copies
  page:eval("keelView.show(7)")
  local top = centre('#counters .stack[data-hex="19A:3413"] > .slot:last-child .counter')
  page:click(top[1], top[2])
  page:hover(5, H - 5)
  t.eq(page:eval([[document.querySelector('#counters .stack[data-hex="19A:3413"]').classList.contains('spread')]]), true,
    "a click pins the stack open")
  local png = page:screenshot(OUT .. "/suez_step07.png")
  t.eq(png:sub(1, 8), "\137PNG\r\n\26\n")
  t.eq({ string.unpack(">I4I4", png, 17) }, { W, H, 25 })
  t.ok(#png > 100000, ("a screenshot of %d bytes (a blank page is a few KB)"):format(#png))
  io.write(("  screenshots in %s/: suez_step03.png, suez_step07.png, suez_step42.png\n"):format(OUT))
end)

t.test("browser-7: cargo on request; a game without a map lists its units off the board", function()
  st, out = sh(("%s run tests/scenarios/view_cargo.lua --quiet --journal %s/cargo.jsonl && %s view %s/cargo.jsonl -o %s/cargo.html")
    :format(keel_bin, OUT, keel_bin, OUT, OUT))
  t.eq(st, 0, out)
  local p = browser:open("file://" .. cwd .. "/" .. OUT .. "/cargo.html#step=1", { width = W, height = H })
  p:wait("document.body && document.body.dataset.ready === '1'")
  local function carried()
    return p:eval("[...document.querySelectorAll('#counters .counter.carried')].map(c => c.querySelector('text').textContent).join(',')")
  end
  t.eq(carried(), "", "cargo hidden until asked for")
  t.ok(p:eval([[document.querySelector('#counters .stack[data-hex="15B:2508"] .cargo text').textContent]]) == "+2",
    "the carrier's +2")
  p:eval("document.getElementById('show-cargo').click()")
  t.eq(carried(), "Swordfish,Fulmar")
  local below = p:eval([[(() => {
    const c = document.querySelector('#counters .stack[data-hex="15B:2508"] .slot > .counter').getBoundingClientRect();
    return [...document.querySelectorAll('#counters .counter.carried')].every(e => e.getBoundingClientRect().top > c.top + c.height / 2); })()]])
  t.eq(below, true, "drawn below their carrier")
  p:key("ArrowLeft")
  t.eq(carried(), "Swordfish,Fulmar", "and at the setup too")
  t.eq(#p:events("Runtime.exceptionThrown"), 0)
  -- the journal_probe game: no map, undo, redo, a failed order
  st, out = sh(("%s script tests/lua/data/state/orders.lua tests/scenarios/journal_probe.lua %s/probe.jsonl && %s view %s/probe.jsonl -o %s/probe.html")
    :format(keel_bin, OUT, keel_bin, OUT, OUT))
  t.eq(st, 0, out)
  local q = browser:open("file://" .. cwd .. "/" .. OUT .. "/probe.html", { width = W, height = H })
  q:wait("document.body && document.body.dataset.ready === '1'")
  local list = q:eval("document.getElementById('offboard-list').innerText")
  t.ok(list:find("Swordfish (Allied air): carried by Illustrious", 1, true), list)
  t.ok(list:find("Warspite (Allied BB): hex 4294967299", 1, true), list)
  q:eval("keelView.show(6)")
  t.eq(q:eval("document.getElementById('step-title').innerText"), "undo 2")
  t.eq(#q:events("Runtime.exceptionThrown"), 0)
end)

t.test("browser-8: place names stay readable over the counters; a name moves clear of a stack", function()
  page:eval("keelView.show(0)")
  -- Warspite in port at Alexandria (19A:2812): the name moved below the counter, and on top
  local got = page:eval([[(() => {
    const t = document.querySelector('#places text[data-hex="19A:2812"][text-anchor]');
    if (!t) return "no text";
    const r = t.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return (t.getAttribute('transform') || 'none') + '|' + (hit === t ? 'the name' : (hit ? hit.tagName : 'nothing'));
  })()]])
  t.ok(got:match("^translate%(0%.0,[%d.]+%)|the name$"), got)
  t.eq(page:eval("document.querySelector('#counters').compareDocumentPosition(document.querySelector('#places'))"), 4,
    "the names come after the counters")
  -- a hex no stack covers keeps its name where the map has it
  t.eq(page:eval([[document.querySelector('#places text[data-hex="19A:3216"]').getAttribute('transform')]]), nil)
  -- a stack spread under the mouse: Port Said's name and CD level step aside, and come back
  page:eval("keelView.show(4)")
  -- (an earlier test may have pinned this stack open: a click closes it)
  page:eval([[(() => { const s = document.querySelector('#counters .stack[data-hex="19A:3413"]');
    if (s.classList.contains('spread')) s.dispatchEvent(new MouseEvent('click', { bubbles: true })); })()]])
  local seen = [[(() => [...document.querySelectorAll('#places text[data-hex="19A:3413"]')]
    .map(t => getComputedStyle(t).visibility).join(','))()]]
  t.eq(page:eval(seen), "visible,visible")
  page:eval([[document.querySelector('#counters .stack[data-hex="19A:3413"]').dispatchEvent(new MouseEvent('mouseenter'))]])
  t.eq(page:eval(seen), "hidden,hidden")
  page:eval([[document.querySelector('#counters .stack[data-hex="19A:3413"]').dispatchEvent(new MouseEvent('mouseleave'))]])
  t.eq(page:eval(seen), "visible,visible")
end)

browser:close()

-- tests/browser/view_markup_test.lua — keel view's page shows every text a
-- game gives it as text and runs none of it (view-markup-1). The scenario
-- tests/scenarios/view_markup.lua and its probe family tests/families/
-- view_markup put markup that would run script (an <img onerror>, an <svg
-- onload>) in every field the page shows: the scenario, unit, group and
-- side names, a type's code and title, the narration, a rule's title, status
-- labels and values (globals and keyed), a unit's values, the owner of a hex
-- that changed hands, a table's rows. Each piece calls
-- keel_markup_ran('<where>') if it runs. Chromium, headless, over the
-- DevTools protocol (tests/browser/cdp.lua); skipped, saying so, without it.
--   bin/keel script tests/lua/run.lua tests/browser/view_markup_test.lua
-- luacheck: max line length 160
local t = require "keel.testing"
local json = require "keel.json"
local cdp = dofile("tests/browser/cdp.lua")
local keel_bin, sh = t.keel_bin, t.sh

if not cdp.find() then
  io.write("skip browser tests: chromium is not installed (make deps installs it)\n")
  return
end

local OUT = "build/view_markup_test"
os.execute("mkdir -p " .. OUT)
local st, out = sh(("%s run tests/scenarios/view_markup.lua --quiet --journal %s/markup.jsonl"):format(keel_bin, OUT))
assert(st == 0, out)
st, out = sh(("%s view %s/markup.jsonl -o %s/markup.html"):format(keel_bin, OUT, OUT))
assert(st == 0, out)

local browser, why = cdp.launch { log = OUT .. "/chromium.log" }
t.test("view-markup-0: headless chromium answers over the DevTools protocol", function()
  t.ok(browser, why)
end)
if not browser then return end

-- the page, with keel_markup_ran defined before any of its scripts: a piece
-- of markup that runs is recorded (and one that runs without it throws,
-- which is recorded too, as an exception)
local page = browser:open("about:blank")
page:call("Page.addScriptToEvaluateOnNewDocument", { source =
  "window.keel_markup_ran = (where) => { (window.keel_markup_runs = window.keel_markup_runs || []).push(where); };" })
page:call("Page.navigate", { url = "file://" .. t.cwd() .. "/" .. OUT .. "/markup.html" })
local loaded = pcall(page.wait, page, "document.body && document.body.dataset.ready === '1'", 30)

-- every step shown, every panel filled: each counter selected, each stack
-- spread, the state changes and the cargo listed
local VISIT = [[(() => {
  document.getElementById('show-changes').click();
  document.getElementById('show-cargo').click();
  const texts = [];
  for (let i = 0; i < keelView.count; i++) {
    keelView.show(i);
    for (const s of document.querySelectorAll('#counters .stack')) s.dispatchEvent(new MouseEvent('mouseenter'));
    for (const c of document.querySelectorAll('#counters .counter[data-unit]')) {
      c.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      texts.push(document.getElementById('unit-info').innerText);
    }
    for (const li of document.querySelectorAll('#offboard-list li')) li.click();
    texts.push(document.body.innerText);
    texts.push([...document.querySelectorAll('#board svg title, #board svg text')].map((e) => e.textContent).join('\n'));
  }
  return texts.join('\n');
})()]]

t.test("view-markup-1: markup in every field the page shows is shown as text and never runs", function()
  t.ok(loaded, "the page is ready")
  local text = page:eval(VISIT)
  os.execute("sleep 1")   -- an image that failed to load reports it a moment later
  t.eq(page:eval("window.keel_markup_runs || null"), nil, "no piece of markup ran")
  t.eq(#page:events("Runtime.exceptionThrown"), 0, "no script error (a handler run without keel_markup_ran)")
  local fetched = {}
  for _, e in ipairs(page:events("Network.requestWillBeSent")) do
    if not e.request.url:find("markup%.html$") then fetched[#fetched + 1] = e.request.url end
  end
  t.eq(fetched, {}, "no image of the markup was fetched")
  t.eq(page:eval([[document.querySelectorAll('img, foreignObject, iframe, script:not([type]), [onerror], [onload]').length]]), 1,
    "no element made of the markup (the one script is the page's own)")
  -- each field is there, as the text it is
  for _, where in ipairs { "scenario name", "unit name", "group name", "side", "type code", "type title", "narration",
                           "rule title", "status label", "status value", "keyed label", "keyed key", "keyed value",
                           "unit value", "owner side", "table row" } do
    t.ok(text:find(("<img src=x onerror=\"keel_markup_ran('%s')\">"):format(where), 1, true), where .. " is shown as text")
  end
  page:screenshot(OUT .. "/markup.png")
end)

t.test("view-markup-2: the hex that changed hands names its new owner, markup and all, in its tooltip", function()
  local title = page:eval([[(() => { const e = document.querySelector('#changed-hands polygon title');
    return e ? e.textContent : null; })()]])
  t.ok(title and title:find("owned by <img src=x onerror=\"keel_markup_ran('owner side')\">", 1, true), tostring(title))
  t.eq(page:eval("document.querySelectorAll('#changed-hands polygon').length"), 1, json.encode(title))
end)

browser:close()

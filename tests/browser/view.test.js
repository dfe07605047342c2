// tests/browser/view.test.js — keel view's replay page in a real browser
// (Debian's chromium through playwright-core). The showcase's journal is
// stepped through with the keyboard, the timeline, the mouse; at given
// steps the test reads what the page shows (the counters at a hex, the
// canal's status, the narration) and keeps screenshots in build/browser/.
// view-markup: markup in every field the page shows is shown as text and
// never runs (tests/scenarios/view_markup.lua).
//   node tests/browser/view.test.js        (tests/run.sh runs it in make test)
"use strict";
const fs = require("fs");
const path = require("path");
const { ROOT, OUT, launch, page, test, run, eq, ok, keel } = require("./lib.js");

const W = 1400, H = 900;
let browser, p;
const errors = [];
const fetched = [];
const url = (f) => "file://" + path.join(OUT, f);
const ev = (expr) => p.evaluate(expr);
const js = (s) => JSON.stringify(s);

const step = async () => Number(await ev("document.body.dataset.step"));
const countersAt = (hex) => ev(`(() => {
  const s = document.querySelector('#counters .stack[data-hex=' + ${js(js(hex))} + ']');
  if (!s) return "";
  return [...s.querySelectorAll(':scope > .slot > .counter')].map(c => c.querySelector('text').textContent).join(',');
})()`);
const stackCount = (hex) => ev(`(() => {
  const b = document.querySelector('#counters .stack[data-hex=' + ${js(js(hex))} + '] .stack-count text');
  return b ? b.textContent : null; })()`);
const status = (key) => ev(`(() => {
  const r = document.querySelector('#status tr[data-key=' + ${js(js(key))} + ']');
  return r ? r.querySelector('th').textContent + ': ' + r.querySelector('td').textContent : null; })()`);
const narration = () => ev("document.getElementById('lines').innerText");
const stepTitle = () => ev("document.getElementById('step-title').innerText");
const centre = (sel) => ev(`(() => {
  const e = document.querySelector(${js(sel)});
  if (!e) return null;
  const r = e.getBoundingClientRect();
  return r.width > 0 ? [r.left + r.width / 2, r.top + r.height / 2] : null; })()`);
const insideBoard = (sel) => ev(`(() => {
  const e = document.querySelector(${js(sel)}), b = document.getElementById('board');
  if (!e) return false;
  const r = e.getBoundingClientRect(), q = b.getBoundingClientRect();
  return r.left >= q.left && r.right <= q.right && r.top >= q.top && r.bottom <= q.bottom; })()`);
const viewBox = () => ev("document.querySelector('#board svg').getAttribute('viewBox')");
const find = (text, s) => typeof text === "string" && text.includes(s);

test("browser-1: the page opens from disk at the setup; Regia's two TFs stacked at 19A:3406, Warspite in port", async () => {
  eq(await step(), 0);
  eq(await ev("document.getElementById('step-label').textContent"), "step 0 of 42");
  eq(await countersAt("19A:3406"), "Littorio,Trento");
  eq(await stackCount("19A:3406"), "2", "the stack shows its count");
  eq(await countersAt("19A:2812"), "Warspite");
  eq(await status("suez"), null, "no canal status before game_start");
  eq(await status("phasing"), null, "no phasing player before the game starts");
  ok(find(await narration(), "after the scenario's setup"));
});

test("browser-2: arrow keys step; step 3 shows Regia's move, its path, and the search rolls with the rows they hit", async () => {
  for (let i = 0; i < 3; i++) await p.keyboard.press("ArrowRight");
  eq(await step(), 3);
  ok(find(await stepTitle(), 'move group="Regia" path=["19A:3407"'), await stepTitle());
  eq(await countersAt("19A:3406"), "");
  eq(await countersAt("19A:3412"), "Littorio,Trento");
  const text = await narration();
  ok(find(text, "naval_search (rule 32.B): rolled 11 (5+6) +3 port_size = 14 -> 14+: S*"), text);
  ok(find(text, "32.B: S*: Regia is found"), text);
  ok(!find(text, "search_look_hex"), "changes of state hidden by default");
  eq(await ev("document.querySelectorAll('#moves polyline').length"), 1, "the moving group's path");
  ok(await insideBoard('#counters .stack[data-hex="19A:3412"]'), "the view follows the action: the stack is on screen");
  eq(await status("search_segment"), "naval step: 1");
  eq(await status("naval_combat#"), "naval combats: 3", "a keyed map's count (32.D's records)");
  await p.screenshot({ path: path.join(OUT, "suez_step03.png") });
  await p.keyboard.press("ArrowLeft");
  eq(await step(), 2);
  eq(await countersAt("19A:3406"), "Littorio,Trento");
  eq(await ev("document.querySelectorAll('#moves polyline').length"), 0);
  await p.keyboard.press("ArrowRight");
  await ev("document.getElementById('show-changes').click()");
  ok(find(await narration(), "search_look_hex: 19A:3407 -> 19A:3408"), "listed when asked for");
  await ev("document.getElementById('show-changes').click()");
});

test("browser-3: the Suez Canal through the game: open, temporarily closed, reopened, permanently closed; 25 VP lost", async () => {
  await ev("document.querySelectorAll('#timeline-list li')[1].click()");
  eq(await step(), 1);
  eq(await status("suez"), "Suez Canal: open");
  eq(await status("phasing"), "phasing player: Axis");
  await ev("document.querySelectorAll('#timeline-list li')[22].click()");
  eq(await step(), 22);
  eq(await stepTitle(), "close_suez (rule 32.A.6.a)");
  eq(await status("suez"), "Suez Canal: temporarily closed");
  ok(find(await narration(), "32.A.6.a: the Allied player temporarily closes the Suez Canal"), await narration());
  eq(await ev(`document.querySelector('#status tr[data-key="suez"]').classList.contains('changed')`), true, "marked as changed");
  await p.keyboard.press("End");
  eq(await step(), 42);
  eq(await status("suez"), "Suez Canal: permanently closed");
  eq(await status("vp[Allied]"), "victory points (Allied): 15");
  ok(find(await narration(), "the game is over: Axis wins"), await narration());
  eq(await ev(`[...document.querySelectorAll('#changed-hands polygon')].map(p => p.dataset.hex).sort().join(',')`),
    "19A:3513,19A:3514", "the hexes the Axis took");
  await p.screenshot({ path: path.join(OUT, "suez_step42.png") });
  await ev("keelView.show(39)");
  ok(find(await narration(), "the Suez Canal is permanently closed (19A:3513/3514 is Axis-owned)"), await narration());
  await ev("keelView.show(38)");
  eq(await status("suez"), "Suez Canal: open");
  eq(await status("vp[Allied]"), "victory points (Allied): 40");
  await p.keyboard.press("Home");
  eq(await step(), 0);
});

test("browser-4: a stack spreads under the mouse; a click shows the unit; 32.C's marks on Warspite", async () => {
  await ev("keelView.show(7)");
  eq(await countersAt("19A:3413"), "Convoy WS-1,Convoy WS-2,Littorio,Trento");
  const sel = '#counters .stack[data-hex="19A:3413"]';
  const c = await centre(sel + " .slot:last-child .counter");
  ok(c, "the stack is on screen");
  await p.mouse.move(c[0], c[1]);
  eq(await ev(`document.querySelector(${js(sel)}).classList.contains('spread')`), true);
  const xs = await ev(`[...document.querySelectorAll(${js(sel + " > .slot")})].map(s => s.getBoundingClientRect().left)`);
  eq(xs.length, 4);
  for (let i = 1; i < xs.length; i++) ok(xs[i] - xs[i - 1] > 30, "counters side by side, not stacked");
  const first = await centre(sel + " > .slot:first-child .counter");
  await p.mouse.click(first[0], first[1]);
  ok(find(await ev("document.getElementById('unit-info').innerText"), "Convoy WS-1"));
  await p.mouse.move(5, H - 5);
  await ev("keelView.show(5)");
  eq(await ev(`[...document.querySelectorAll('#counters .stack[data-hex="19A:3411"] .counter .mark text')].map(t => t.textContent).join(',')`),
    "-1 Step,React", "Warspite's -1 Step marker and its reacting mark");
});

test("browser-5: zoom (keys, wheel, buttons) and pan", async () => {
  const width = async () => Number((await viewBox()).split(" ")[2]);
  const w0 = await width();
  await p.keyboard.press("+");
  ok(await width() < w0, "'+' zooms in");
  await p.mouse.move(400, 400);
  await p.mouse.wheel(0, 300);
  const w1 = await width();
  await p.mouse.wheel(0, 300);
  await p.waitForTimeout(50);
  ok(await width() > w1, "the wheel zooms out");
  await ev("document.getElementById('fit-map').click()");
  ok(await width() >= 3000, "the whole map: " + (await viewBox()));
  const x0 = Number((await viewBox()).split(" ")[0]);
  await p.mouse.move(300, 300);
  await p.mouse.down();
  await p.mouse.move(200, 300);
  await p.mouse.up();
  ok(Number((await viewBox()).split(" ")[0]) > x0, "dragging left moves the view right");
  await ev("document.getElementById('fit-action').click()");
});

test("browser-6: no script errors, nothing fetched from the network; a screenshot of a real board", async () => {
  eq(errors, [], "console errors and exceptions");
  for (const u of fetched) ok(/^(file:|data:|about:blank)/.test(u), "fetched " + u);
  await ev("keelView.show(7)");
  const top = await centre('#counters .stack[data-hex="19A:3413"] > .slot:last-child .counter');
  await p.mouse.click(top[0], top[1]);
  await p.mouse.move(5, H - 5);
  eq(await ev(`document.querySelector('#counters .stack[data-hex="19A:3413"]').classList.contains('spread')`), true,
    "a click pins the stack open");
  const png = await p.screenshot({ path: path.join(OUT, "suez_step07.png") });
  eq(png.subarray(0, 8).toString("binary"), "\x89PNG\r\n\x1a\n");
  eq([png.readUInt32BE(16), png.readUInt32BE(20)], [W, H]);
  ok(png.length > 100000, `a screenshot of ${png.length} bytes (a blank page is a few KB)`);
});

test("browser-7: cargo on request; a game without a map lists its units off the board", async () => {
  keel(["run", "tests/scenarios/view_cargo.lua", "--quiet", "--journal", path.join(OUT, "cargo.jsonl")]);
  keel(["view", path.join(OUT, "cargo.jsonl"), "-o", path.join(OUT, "cargo.html")]);
  const q = await page(await browser.newContext({ viewport: { width: W, height: H } }), errors);
  await q.goto(url("cargo.html") + "#step=1");
  await q.waitForSelector("body[data-ready='1']");
  const carried = () => q.evaluate("[...document.querySelectorAll('#counters .counter.carried')].map(c => c.querySelector('text').textContent).join(',')");
  eq(await carried(), "", "cargo hidden until asked for");
  eq(await q.evaluate(`document.querySelector('#counters .stack[data-hex="15B:2508"] .cargo text').textContent`), "+2", "the carrier's +2");
  await q.evaluate("document.getElementById('show-cargo').click()");
  eq(await carried(), "Swordfish,Fulmar");
  eq(await q.evaluate(`(() => {
    const c = document.querySelector('#counters .stack[data-hex="15B:2508"] .slot > .counter').getBoundingClientRect();
    return [...document.querySelectorAll('#counters .counter.carried')].every(e => e.getBoundingClientRect().top > c.top + c.height / 2); })()`),
    true, "drawn below their carrier");
  await q.keyboard.press("ArrowLeft");
  eq(await carried(), "Swordfish,Fulmar", "and at the setup too");
  keel(["script", "tests/lua/data/state/orders.lua", "tests/scenarios/journal_probe.lua", path.join(OUT, "probe.jsonl")]);
  keel(["view", path.join(OUT, "probe.jsonl"), "-o", path.join(OUT, "probe.html")]);
  await q.goto(url("probe.html"));
  await q.waitForSelector("body[data-ready='1']");
  const list = await q.evaluate("document.getElementById('offboard-list').innerText");
  ok(find(list, "Swordfish (Allied air): carried by Illustrious"), list);
  ok(find(list, "Warspite (Allied BB): hex 4294967299"), list);
  await q.evaluate("keelView.show(6)");
  eq(await q.evaluate("document.getElementById('step-title').innerText"), "undo 2");
  eq(errors, []);
});

test("browser-8: place names stay readable over the counters; a name moves clear of a stack", async () => {
  await ev("keelView.show(0)");
  const got = await ev(`(() => {
    const t = document.querySelector('#places text[data-hex="19A:2812"][text-anchor]');
    if (!t) return "no text";
    const r = t.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return (t.getAttribute('transform') || 'none') + '|' + (hit === t ? 'the name' : (hit ? hit.tagName : 'nothing'));
  })()`);
  ok(/^translate\(0\.0,[\d.]+\)\|the name$/.test(got), got);
  eq(await ev("document.querySelector('#counters').compareDocumentPosition(document.querySelector('#places'))"), 4,
    "the names come after the counters");
  eq(await ev(`document.querySelector('#places text[data-hex="19A:3216"]').getAttribute('transform')`), null);
  await ev("keelView.show(4)");
  await ev(`(() => { const s = document.querySelector('#counters .stack[data-hex="19A:3413"]');
    if (s.classList.contains('spread')) s.dispatchEvent(new MouseEvent('click', { bubbles: true })); })()`);
  const seen = `[...document.querySelectorAll('#places text[data-hex="19A:3413"]')].map(t => getComputedStyle(t).visibility).join(',')`;
  eq(await ev(seen), "visible,visible");
  await ev(`document.querySelector('#counters .stack[data-hex="19A:3413"]').dispatchEvent(new MouseEvent('mouseenter'))`);
  eq(await ev(seen), "hidden,hidden");
  await ev(`document.querySelector('#counters .stack[data-hex="19A:3413"]').dispatchEvent(new MouseEvent('mouseleave'))`);
  eq(await ev(seen), "visible,visible");
});

// ---- the viewer's faults of issue 31, each with its regression test ----------------------------
async function viewPage(scenario, name) {
  keel(["run", scenario, "--quiet", "--journal", path.join(OUT, name + ".jsonl")]);
  keel(["view", path.join(OUT, name + ".jsonl"), "-o", path.join(OUT, name + ".html")]);
  const q = await page(await browser.newContext({ viewport: { width: W, height: H } }), errors);
  await q.goto(url(name + ".html"));
  await q.waitForSelector("body[data-ready='1']");
  return q;
}
// every slot of a stack inside the board's rectangle
const stackInside = (q, hex) => q.evaluate((h) => {
  const s = document.querySelector(`#counters .stack[data-hex="${h}"]`), b = document.getElementById("board").getBoundingClientRect();
  return !!s && [...s.querySelectorAll(":scope > .slot > .counter")].every((c) => {
    const r = c.getBoundingClientRect();
    return r.left >= b.left - 0.5 && r.right <= b.right + 0.5 && r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5;
  });
}, hex);

test("view-fault-1: seazone: a status value once cleared is no longer shown, never as [object Object]", async () => {
  const q = await viewPage("scenarios/seazone_trident.lua", "trident");
  const bad = await q.evaluate(`(() => { const out = []; for (let i = 0; i < keelView.count; i++) { keelView.show(i);
    const t = document.getElementById('status-rows').innerText; if (t.includes('[object') || t.includes('{}')) out.push(i + ': ' + t); } return out; })()`);
  eq(bad, [], "steps whose status shows an object");
  await q.evaluate("keelView.show(6)");
  ok(await q.evaluate(`!!document.querySelector('#status tr[data-key="choice_side"]')`), "the casualty choice's side at step 6");
  await q.evaluate("keelView.show(7)");
  eq(await q.evaluate(`!!document.querySelector('#status tr[data-key="choice_side"]')`), false, "cleared at step 7");
  // view-fault-3: the Coastland stack spread at the board's right edge stays on the board
  await q.evaluate("keelView.show(0)");
  const c = await q.evaluate(`(() => { const s = document.querySelector('#counters .stack[data-hex="0-1104"]') ||
    [...document.querySelectorAll('#counters .stack')].sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right)[0];
    const r = s.querySelector('.counter').getBoundingClientRect(); return [s.dataset.hex, r.left + r.width / 2, r.top + r.height / 2]; })()`);
  await q.mouse.move(c[1], c[2]);
  eq(await q.evaluate((h) => document.querySelector(`#counters .stack[data-hex="${h}"]`).classList.contains("spread"), c[0]), true, "spread");
  eq(await stackInside(q, c[0]), true, `the rightmost stack (${c[0]}) spread inside the board`);
  await q.mouse.move(5, H - 5);
  // view-fault-4: each sea zone named once on the board
  const names = await q.evaluate(`[...document.querySelectorAll('#board svg text')].map(t => t.textContent).filter(t => /^SZ \\d+$/.test(t)).sort()`);
  eq(names, ["SZ 1", "SZ 2", "SZ 3", "SZ 4", "SZ 5", "SZ 6"], "each zone's name once");
  // doc/viewer-seazone.png: the Surprise Strike in SZ 5 and the owner's casualty choice
  await q.evaluate("keelView.show(6)");
  await q.screenshot({ path: path.join(OUT, "viewer-seazone.png") });
  await q.context().close();
});

test("view-fault-2: the Crete showcase opens on its units (in Alexandria), not on an empty frame", async () => {
  const q = await viewPage("scenarios/seabox_crete_1941.lua", "crete");
  const shown = await q.evaluate(`[...document.querySelectorAll('#counters .stack')].filter(s => {
    const r = s.getBoundingClientRect(), b = document.getElementById('board').getBoundingClientRect();
    return r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom; }).length`);
  ok(shown > 0, "a stack on screen at the opening");
  await q.context().close();
});

test("view-fault-5: counters leave their hex's number readable; view-fault-6: the controls stay on one line", async () => {
  // Suez at the setup: the number of each hex a stack stands on is the topmost thing where it is drawn
  const covered = await ev(`(() => { keelView.show(0); const out = [];
    const labels = [...document.querySelectorAll('#labels text')];
    for (const s of document.querySelectorAll('#counters .stack')) {
      const cx = Number(s.querySelector('.slot').getAttribute('transform').match(/translate\\(([-\\d.]+)/)[1]);
      const num = s.dataset.hex.replace(/^.*:/, '');
      const t = labels.find(l => l.textContent === num && Math.abs(Number(l.getAttribute('x')) - cx) < 2);
      if (!t) continue;
      const r = t.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height * 0.3);
      if (hit && hit.closest('.counter')) out.push(s.dataset.hex);
    }
    return out; })()`);
  eq(covered, [], "hex numbers under a counter");
  const row = await ev(`(() => { document.getElementById('step-label').textContent = 'step 12345 of 12345';
    const els = [...document.querySelectorAll('#controls .row > *')];
    return els.map(e => Math.round(e.getBoundingClientRect().top)).concat([Math.round(document.getElementById('first').getBoundingClientRect().height)]); })()`);
  const first = row.pop();
  ok(Math.max(...row) - Math.min(...row) <= 8, "one line: " + row.join(","));
  ok(first < 40, "|◀ not wrapped: " + first + " px high");
  await ev("keelView.show(0)");
});

// ---- markup in every field ---------------------------------------------------------------------
const VISIT = `(() => {
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
    texts.push([...document.querySelectorAll('#board svg title, #board svg text')].map((e) => e.textContent).join('\\n'));
  }
  return texts.join('\\n');
})()`;

test("view-markup-1: markup in every field the page shows is shown as text and never runs", async () => {
  keel(["run", "tests/scenarios/view_markup.lua", "--quiet", "--journal", path.join(OUT, "markup.jsonl")]);
  keel(["view", path.join(OUT, "markup.jsonl"), "-o", path.join(OUT, "markup.html")]);
  const ctx = await browser.newContext({ viewport: { width: W, height: H } });
  await ctx.addInitScript("window.keel_markup_ran = (where) => { (window.keel_markup_runs = window.keel_markup_runs || []).push(where); };");
  const own = [];
  const q = await page(ctx, own);
  const requests = [];
  q.on("request", (r) => { if (!/markup\.html$/.test(r.url())) requests.push(r.url()); });
  await q.goto(url("markup.html"));
  await q.waitForSelector("body[data-ready='1']");
  const text = await q.evaluate(VISIT);
  await q.waitForTimeout(1000);   // an image that failed to load reports it a moment later
  eq(await q.evaluate("window.keel_markup_runs || null"), null, "no piece of markup ran");
  eq(own, [], "no script error (a handler run without keel_markup_ran)");
  eq(requests, [], "no image of the markup was fetched");
  eq(await q.evaluate("document.querySelectorAll('img, foreignObject, iframe, script:not([type]), [onerror], [onload]').length"), 1,
    "no element made of the markup (the one script is the page's own)");
  for (const where of ["scenario name", "unit name", "group name", "side", "type code", "type title", "narration",
    "rule title", "status label", "status value", "keyed label", "keyed key", "keyed value",
    "unit value", "owner side", "table row"]) {
    ok(find(text, `<img src=x onerror="keel_markup_ran('${where}')">`), where + " is shown as text");
  }
  const title = await q.evaluate(`(() => { const e = document.querySelector('#changed-hands polygon title'); return e ? e.textContent : null; })()`);
  ok(find(title, `owned by <img src=x onerror="keel_markup_ran('owner side')">`), "the owner in the tooltip: " + title);
  eq(await q.evaluate("document.querySelectorAll('#changed-hands polygon').length"), 1);
  await q.screenshot({ path: path.join(OUT, "markup.png") });
  await ctx.close();
});

run(async () => {
  keel(["run", "scenarios/suez_1942.lua", "--quiet", "--journal", path.join(OUT, "suez.jsonl")]);
  keel(["view", path.join(OUT, "suez.jsonl"), "-o", path.join(OUT, "suez.html")]);
  browser = await launch();
  p = await page(await browser.newContext({ viewport: { width: W, height: H } }), errors);
  p.on("request", (r) => fetched.push(r.url()));
  await p.goto(url("suez.html"));
  await p.waitForSelector("body[data-ready='1']", { timeout: 30000 });
  void fs; void ROOT;
  return { teardown: () => browser.close() };
});

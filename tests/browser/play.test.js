// tests/browser/play.test.js — the play page of `keel serve --http` in a
// real browser (Debian's chromium through playwright-core): a showcase
// played entirely by clicks writes keel run's journal byte for byte; two
// seats in two browser contexts, one blind to the other's hidden groups
// and unable to order for it; a refused order leaves the board as it was;
// a game against random to its end; no console errors. Screenshots in
// build/browser/ (doc/play-*.png are copies).
//   node tests/browser/play.test.js        (tests/run.sh runs it in make test)
"use strict";
const fs = require("fs");
const path = require("path");
const { OUT, launch, page, test, run, eq, ok, keel, serve } = require("./lib.js");

const W = 1400, H = 900;
const errors = [];   // console errors and exceptions of every page

// ---- driving the page by clicks ------------------------------------------------------------
const refreshes = async (p) => Number((await p.getAttribute("body", "data-refreshes")) || 0);
async function settled(p, before) {
  await p.waitForFunction((n) => Number(document.body.dataset.refreshes || 0) > n, before, { timeout: 20000 });
}
async function ready(p) { await p.waitForSelector("body[data-refreshes]", { timeout: 20000 }); }

// click an element of the board when it is on screen inside the board, else say so
async function clickOnBoard(p, selector) {
  const h = await p.$(selector);
  if (!h) return false;
  const box = await h.boundingBox();
  const b = await (await p.$("#board")).boundingBox();
  if (!box || box.x < b.x + 50 || box.y < b.y || box.x + box.width > b.x + b.width || box.y + box.height > b.y + b.height) return false;
  await p.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  return true;
}
// mark the builder's candidate button for a value (by its value, else its label) and click it
async function clickCandidate(p, v) {
  const found = await p.evaluate((want) => {
    document.querySelectorAll("[data-pick]").forEach((e) => e.removeAttribute("data-pick"));
    const bs = [...document.querySelectorAll("#builder .cands button")];
    const b = bs.find((x) => x.dataset.value === JSON.stringify(want)) || bs.find((x) => x.dataset.label === String(want));
    if (b) b.dataset.pick = "1";
    return bs.map((x) => x.dataset.label || x.dataset.value).join(" | ");
  }, v);
  const b = await p.$("[data-pick='1']");
  if (!b) throw new Error(`no candidate ${JSON.stringify(v)} among ${found}`);
  await b.click();
}

const stats = { board: 0, list: 0, orders: 0, ms: [] };

// play one scenario order through the page's controls
async function playByClicks(p, o) {
  const t0 = Date.now();
  let before = await refreshes(p);
  if ((await p.getAttribute("body", "data-side")) !== o.by) {
    await p.selectOption("#act-as", o.by);
    await settled(p, before);
    before = await refreshes(p);
  }
  const button = await p.$(`#buttons button[data-action="${o.name}"]`);
  if (button) {
    await button.click();
  } else {
    await p.click(`#actions button[data-action="${o.name}"]`);
    for (let guard = 0; guard < 40; guard++) {
      if (!(await p.$("#builder:not([hidden])"))) break;
      const param = await p.getAttribute("#builder", "data-param");
      const kind = await p.getAttribute("#builder", "data-kind");
      const v = o.params[param];
      if (v === undefined) { await p.click("#builder button.omit"); continue; }
      if (kind === "path") {
        if (o.shot) { await p.mouse.move(5, H - 5); await p.screenshot({ path: o.shot }); }
        for (const place of v) {
          if (await clickOnBoard(p, `#targets .target[data-place="${place}"]`)) stats.board++;
          else { await clickCandidate(p, place); stats.list++; }
        }
        if ((await p.$("#builder:not([hidden])")) && (await p.getAttribute("#builder", "data-param")) === param) {
          await p.click("#builder button.done");
        }
      } else if (kind === "units") {
        for (const name of v) { await clickCandidate(p, name); stats.list++; }
        await p.click("#builder button.done");
      } else if (kind === "free") {
        await p.fill("#free-value", typeof v === "string" ? v : JSON.stringify(v));
        await p.click("#builder button.done");
      } else if (typeof v === "string" && await clickOnBoard(p, `#targets .target[data-place="${v}"]`)) {
        stats.board++;
      } else {
        await clickCandidate(p, v);
        stats.list++;
      }
    }
  }
  await settled(p, before);
  stats.orders++;
  stats.ms.push(Date.now() - t0);
  const msg = await p.$("#message:not([hidden])");
  if (msg) throw new Error(`${o.by}: ${o.name} ${JSON.stringify(o.params)} refused: ${await msg.textContent()}`);
}

let browser;

test("play-1: seazone_trident played by clicks in the hot seat gives keel run's journal byte for byte", async () => {
  const scenario = "scenarios/seazone_trident.lua";
  const journal = path.join(OUT, "trident_run.jsonl");
  keel(["run", scenario, "--quiet", "--journal", journal]);
  const orders = keel(["script", "tests/browser/orders.lua", scenario]).trim().split("\n").map((l) => JSON.parse(l));
  const srv = await serve([scenario]);
  try {
    const ctx = await browser.newContext({ viewport: { width: W, height: H } });
    const p = await page(ctx, errors);
    await p.goto(srv.urls["hot seat, every side on one page"]);
    await ready(p);
    ok((await p.textContent("#title")).length > 0, "the scenario's name");
    let played = 0;
    for (const o of orders) {
      if (o.skip) continue;
      // the picture of doc/play-seazone.png: Wasp's move, the sea zones it may reach and their cost
      if (o.name === "move" && o.params.units && o.params.units[0] === "Wasp") o.shot = path.join(OUT, "play-seazone.png");
      try {
        await playByClicks(p, o);
      } catch (e) {
        throw new Error(`order ${played + 1} (${o.by}: ${o.name} ${JSON.stringify(o.params)}): ${e.message.split("\n")[0]}; ` +
          `builder: ${await p.$eval("#builder", (b) => b.innerText.replace(/\s+/g, " "))}`);
      }
      played++;
    }
    const st = await p.evaluate(() => keelPlay.send({ op: "status" }));
    eq(st.over, true, "the game is over");
    ok(await p.isVisible("#result"), "the result shown");
    const text = (await p.evaluate(() => keelPlay.send({ op: "journal" }))).text;
    fs.writeFileSync(path.join(OUT, "trident_clicks.jsonl"), text);
    eq(text === fs.readFileSync(journal, "utf8"), true, "the journal of the clicks is keel run's, byte for byte");
    ok(stats.board > 10, `places clicked on the board: ${stats.board} (from lists: ${stats.list})`);
    const ms = stats.ms.slice().sort((a, b) => a - b);
    console.log(`  ${played} orders by clicks: ${stats.board} places clicked on the board, ${stats.list} values from lists; ` +
      `per order (first click to board updated) median ${ms[ms.length >> 1]} ms, max ${ms[ms.length - 1]} ms`);
    await ctx.close();
  } finally { srv.stop(); }
});

test("play-2: two seats in two browser contexts: the Allies see no hidden Axis group and cannot order for the Axis", async () => {
  const srv = await serve(["--seat", "Axis", "--seat", "Allied", "scenarios/suez_1942.lua"]);
  try {
    const ca = await browser.newContext({ viewport: { width: W, height: H } });
    const cb = await browser.newContext({ viewport: { width: W, height: H } });
    const axis = await page(ca, errors), allied = await page(cb, errors);
    await axis.goto(srv.urls["Axis's seat"]);
    await allied.goto(srv.urls["Allied's seat"]);
    await ready(axis);
    await ready(allied);
    eq(await axis.textContent("#seat"), "your seat: Axis");
    eq(await allied.textContent("#seat"), "your seat: Allied");
    const names = (p) => p.$$eval("#counters .counter[data-name]", (cs) => cs.map((c) => c.dataset.name).sort());
    ok((await names(axis)).includes("Littorio"), "the Axis sees its battleship");
    ok(!(await names(allied)).includes("Littorio"), "the Allies do not: " + (await names(allied)).join(","));
    ok((await allied.$$("#counters .counter[data-group]")).length >= 1, "a marker of an unknown group instead");
    ok(!(await allied.content()).includes("Littorio"), "nowhere on the Allied page");
    eq(await allied.$$eval("#actions button, #buttons button", (b) => b.length), 0, "no orders while the Axis decides");
    ok((await allied.textContent("#to-act")).includes("waiting"), "the Allies wait");
    // the Allied seat's connection refuses an order for the Axis
    const forged = await allied.evaluate(() => keelPlay.send({ op: "order", action: "end_phase", side: "Axis" }));
    eq(forged.error.kind, "seat", "an order for the other side is refused");
    const peek = await allied.evaluate(() => keelPlay.send({ op: "view", side: "Axis" }));
    eq(peek.error.kind, "seat", "and so is the other side's view");
    // the Axis ends its phase by a click; the Allied page follows
    const before = await refreshes(allied), beforeAxis = await refreshes(axis);
    await axis.click('#buttons button[data-action="end_phase"]');
    await settled(allied, before);
    await settled(axis, beforeAxis);
    eq(await allied.getAttribute("body", "data-hash"), await axis.getAttribute("body", "data-hash"), "both pages at the new state");
    ok((await allied.textContent("#log-lines")).includes("Axis: end_phase"), "the Allied log tells the Axis order");
    await axis.screenshot({ path: path.join(OUT, "play-seat-axis.png") });
    await allied.screenshot({ path: path.join(OUT, "play-seat-allied.png") });
    await ca.close();
    await cb.close();
  } finally { srv.stop(); }
});

test("play-3: a refused order shows its rule and reason; the board is as it was", async () => {
  const srv = await serve(["scenarios/suez_1942.lua"]);
  try {
    const ctx = await browser.newContext({ viewport: { width: W, height: H } });
    const p = await page(ctx, errors);
    await p.goto(srv.urls["hot seat, every side on one page"]);
    await ready(p);
    const board = () => p.$eval("#counters", (g) => g.innerHTML);
    const hash = await p.getAttribute("body", "data-hash");
    const drawn = await board();
    // 37.C: a capacity increase of 0 REs (its parameters are typed: the rules list no candidates)
    const increase = async (re) => {
      const before = await refreshes(p);
      await p.click('#actions button[data-action="increase_capacity"]');
      eq(await p.getAttribute("#builder", "data-kind"), "free");
      eq(await p.getAttribute("#builder", "data-param"), "re");
      await p.fill("#free-value", String(re));
      await p.click("#builder button.done");
      await clickCandidate(p, "Axis");
      await p.fill("#free-value", "3");
      await p.click("#builder button.done");
      await settled(p, before);
    };
    await increase(0);
    ok(await p.isVisible("#message"), "a refusal is shown");
    eq(await p.textContent("#message"), "rule 37.C: 37.C: an increase is of one RE or more");
    eq(await p.getAttribute("body", "data-hash"), hash, "the state is as it was");
    eq(await board(), drawn, "and the board");
    ok((await p.textContent("#log-lines")).includes("refused"), "the log says so");
    await p.screenshot({ path: path.join(OUT, "play-refused.png") });
    // with one RE it is played, narrated; undo takes it back
    await increase(1);
    ok(!(await p.isVisible("#message")), "played");
    ok((await p.textContent("#log-lines")).includes("designates 1 REs"), "narrated in the log");
    ok((await p.getAttribute("body", "data-hash")) !== hash, "a new state");
    const before = await refreshes(p);
    await p.click("#undo");
    await settled(p, before);
    eq(await p.getAttribute("body", "data-hash"), hash, "undo: the state before it");
    await ctx.close();
  } finally { srv.stop(); }
});

test("play-4: one browser against random: the person clicks, the bot answers, to the game's end", async () => {
  const srv = await serve(["--seat", "Allied", "--seat", "Axis=random", "scenarios/suez_1942.lua"]);
  try {
    const ctx = await browser.newContext({ viewport: { width: W, height: H } });
    const p = await page(ctx, errors);
    await p.goto(srv.urls["Allied's seat"]);
    await ready(p);
    let clicks = 0;
    for (let i = 0; i < 200; i++) {
      // the bot's orders come as updates: wait for the Allies' decision, or the end
      await p.waitForFunction(() => document.body.dataset.over === "true" ||
        document.querySelector('#buttons button[data-action="end_phase"]'), null, { timeout: 30000 });
      if ((await p.getAttribute("body", "data-over")) === "true") break;
      const b = await refreshes(p);
      await p.click('#buttons button[data-action="end_phase"]');
      await settled(p, b);
      clicks++;
    }
    eq(await p.getAttribute("body", "data-over"), "true", "the game ended");
    ok(await p.isVisible("#result"), "its result shown: " + (await p.textContent("#result")));
    ok((await p.textContent("#log-lines")).includes("Axis:"), "the bot's orders in the log");
    ok(clicks > 3, `${clicks} clicks`);
    await p.screenshot({ path: path.join(OUT, "play-vs-random.png") });
    await ctx.close();
  } finally { srv.stop(); }
});

test("play-5: no console errors or exceptions on any page", async () => {
  eq(errors, [], "console errors");
});

run(async () => {
  browser = await launch();
  return { teardown: () => browser.close() };
});

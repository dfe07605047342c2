// tests/browser/lib.js — what the browser tests share: Debian's chromium
// driven by playwright-core (npm; no browser download: executablePath),
// a small runner printing "ok NAME" / "FAIL NAME" and "N passed, N failed"
// (the line tests/run.sh adds up), keel commands, and `keel serve --http`
// started on a free port.
"use strict";
const fs = require("fs");
const path = require("path");
const { spawn, execFileSync } = require("child_process");

const ROOT = path.resolve(__dirname, "../..");
const KEEL = path.resolve(ROOT, process.env.KEEL_BIN || "bin/keel");
const OUT = path.join(ROOT, "build/browser");
fs.mkdirSync(OUT, { recursive: true });

function chromiumPath() {
  for (const p of [process.env.CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"]) {
    if (p && fs.existsSync(p)) return p;
  }
  return null;
}

// playwright-core, or null (the tests then skip, saying so)
function playwright() {
  try { return require("playwright-core"); } catch (e) { return null; }
}

async function launch() {
  const { chromium } = playwright();
  return chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox", "--disable-gpu"] });
}

// a page that records its console errors and uncaught exceptions in `errors`
async function page(context, errors, opts) {
  const p = await context.newPage(opts);
  p.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
  p.on("pageerror", (e) => errors.push(`exception: ${e.message}`));
  return p;
}

let passed = 0, failed = 0;
const tests = [];
function test(name, fn) { tests.push([name, fn]); }
class Failure extends Error {}
function eq(got, want, what) {
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Failure(`${what ? what + ": " : ""}got ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
}
function ok(v, what) { if (!v) throw new Failure(`${what || "expected true"}, got ${JSON.stringify(v)}`); }

async function run(setup) {
  if (!chromiumPath()) { console.log("skip browser tests: chromium is not installed (make deps installs it)"); return; }
  if (!playwright()) { console.log("skip browser tests: playwright-core is not installed (make deps runs npm ci)"); return; }
  const ctx = setup ? await setup() : {};
  for (const [name, fn] of tests) {
    const t0 = Date.now();
    try {
      await fn(ctx);
      passed++;
      console.log(`ok ${name} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${name}\n  ${(e && e.stack) || e}`);
    }
  }
  if (ctx.teardown) await ctx.teardown();
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

function keel(args, opts) {
  return execFileSync(KEEL, args, Object.assign({ cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }, opts || {}));
}

// `keel serve --http --port 0 ARGS`: resolves when it has printed its URLs
function serve(args) {
  return new Promise((resolve, reject) => {
    const games = fs.mkdtempSync(path.join(OUT, "games-"));
    const child = spawn(KEEL, ["serve", "--http", "--port", "0", "--games", games].concat(args), { cwd: ROOT });
    let out = "", err = "";
    const srv = { child, urls: {}, games, stop: () => child.kill("SIGTERM"), err: () => err };
    const timer = setTimeout(() => reject(new Error(`keel serve did not start: ${out} ${err}`)), 15000);
    child.stderr.on("data", (d) => { err += d; });
    child.stdout.on("data", (d) => {
      out += d;
      for (const m of out.matchAll(/keel serve: ([^\n]*?): (http:\/\/\S+)/g)) srv.urls[m[1]] = m[2];
      const persons = args.filter((a, i) => args[i - 1] === "--seat" && !a.includes("=")).length;
      if (/listening on/.test(out) && Object.keys(srv.urls).length >= Math.max(1, persons)) {
        clearTimeout(timer);
        srv.out = out;
        resolve(srv);
      }
    });
    child.on("exit", (code) => { clearTimeout(timer); if (!srv.out) reject(new Error(`keel serve exited ${code}: ${err}`)); });
  });
}

module.exports = { ROOT, OUT, KEEL, launch, page, test, run, eq, ok, keel, serve, chromiumPath, playwright };

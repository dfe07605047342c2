// keel serve --http: the play page's behaviour (inlined into the page).
//
// One client for every rule family: it speaks keel serve's protocol
// (doc/protocol.md) over the WebSocket /ws, draws the board and the
// counters the server sends (keel.render, keel.counter: the `board`
// request, `view` with counters), and builds orders from the offered
// actions — each parameter's candidates shown where they are: places
// highlighted on the board with their cost, paths clicked place by place,
// units and groups picked on the board or from a list, other values from
// a list. An order is sent when it is complete; a refusal shows its rule
// and reason. doc/viewer.md ("The play page") describes it.
(function () {
  "use strict";
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const list = (v) => (Array.isArray(v) ? v : []);
  const obj = (v) => (v && typeof v === "object" && !Array.isArray(v) ? v : {});
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const token = new URLSearchParams(location.search).get("token") || "";

  // ---- the connection ------------------------------------------------------------------
  let ws = null;
  let nextId = 1;
  const pending = new Map();
  function send(req) {
    return new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      ws.send(JSON.stringify(Object.assign({ id }, req)));
    });
  }

  // ---- what the page knows ---------------------------------------------------------------
  const S = {
    table: null,      // hello's table: seat, seats, scenarios
    board: null,      // the board request's answer
    status: null, view: null, actions: null,
    side: null,       // whose view is shown and who orders (the seat's, or the side to decide)
    selected: null,   // a unit id
    pinned: null,     // a place whose stack stays open
    builder: null,    // the order being built
    busy: false,
  };
  let refreshing = 0, refreshCount = 0;

  // ---- the board -----------------------------------------------------------------------
  let svg = null, full = [0, 0, 1000, 1000], vb = full.slice();
  let countersLayer, targetsLayer, routeLayer, ownersLayer, W = 40;
  const templates = new Map();
  function el(name, attrs) {
    const e = document.createElementNS(SVGNS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  }
  function setView(x, y, w, h) {
    vb = [x, y, w, h];
    svg.setAttribute("viewBox", vb.map((v) => v.toFixed(1)).join(" "));
  }
  function fitBox(x0, y0, x1, y1, pad) {
    const r = $("board").getBoundingClientRect();
    const aspect = r.width > 0 && r.height > 0 ? r.width / r.height : 1.4;
    let w = x1 - x0 + 2 * pad, h = y1 - y0 + 2 * pad;
    if (w / h < aspect) w = h * aspect; else h = w / aspect;
    setView((x0 + x1) / 2 - w / 2, (y0 + y1) / 2 - h / 2, w, h);
  }
  function placeXY(p) { return S.board && S.board.places ? S.board.places[p] : undefined; }
  function fitUnits() {
    if (!svg) return;
    let b = null;
    for (const u of list(S.view && S.view.units).concat(list(S.view && S.view.groups))) {
      const p = u.place && placeXY(u.place);
      if (!p) continue;
      b = b ? [Math.min(b[0], p[0]), Math.min(b[1], p[1]), Math.max(b[2], p[0]), Math.max(b[3], p[1])] : [p[0], p[1], p[0], p[1]];
    }
    if (!b) { fitBox(full[0], full[1], full[0] + full[2], full[1] + full[3], 0); return; }
    fitBox(b[0], b[1], b[2], b[3], S.board.size * 3);
    const r = $("board").getBoundingClientRect();
    const MAX_PX = 90;   // a few units close together: counters not larger than this
    if (r.width > 0 && W * r.width / vb[2] > MAX_PX) {
      const w = W * r.width / MAX_PX, h = w * r.height / r.width;
      setView((b[0] + b[2]) / 2 - w / 2, (b[1] + b[3]) / 2 - h / 2, w, h);
    }
  }
  function zoom(f) {
    const w = Math.min(Math.max(vb[2] / f, S.board.size * 2), full[2] * 3), h = vb[3] * (w / vb[2]);
    setView(vb[0] + (vb[2] - w) / 2, vb[1] + (vb[3] - h) / 2, w, h);
  }

  function drawBoard() {
    const holder = $("board-svg");
    templates.clear();
    if (!S.board.svg) {
      holder.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300"><text x="20" y="40">this game has no map: its units are listed off the board</text></svg>';
    } else {
      holder.innerHTML = S.board.svg;
    }
    svg = holder.querySelector("svg");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    full = (svg.getAttribute("viewBox") || "0 0 1000 1000").split(/[ ,]+/).map(Number);
    vb = full.slice();
    W = S.board.counter_w;
    ownersLayer = el("g", { id: "changed-hands" });
    routeLayer = el("g", { id: "route" });
    countersLayer = el("g", { id: "counters" });
    targetsLayer = el("g", { id: "targets" });
    svg.append(ownersLayer, routeLayer, countersLayer, targetsLayer);
    const places = svg.querySelector("#places");
    if (places) svg.insertBefore(places, targetsLayer);
  }

  function counterNode(text) {
    if (!templates.has(text)) {
      const g = el("g");
      g.innerHTML = text;
      templates.set(text, g.firstElementChild);
    }
    return templates.get(text).cloneNode(true);
  }

  // units by place, in id order
  function stacks() {
    const out = new Map();
    for (const u of list(S.view && S.view.units)) {
      if (!u.place || !placeXY(u.place) || !u.svg) continue;
      if (!out.has(u.place)) out.set(u.place, []);
      out.get(u.place).push(u);
    }
    // a group the side does not know: one counter, "?"
    for (const g of list(S.view && S.view.groups)) {
      if (g.known || !g.place || !placeXY(g.place) || !g.svg) continue;
      if (!out.has(g.place)) out.set(g.place, []);
      out.get(g.place).push({ id: `g${g.id}`, svg: g.svg, known: false, side: g.side, place: g.place, group: g.id, facts: g.facts });
    }
    return out;
  }

  function layoutStack(g, spread) {
    const slots = g.querySelectorAll(":scope > .slot");
    const [cx, cy0] = placeXY(g.dataset.place);
    const cy = cy0 + S.board.size * 0.2;   // below the centre: the hex number stays readable
    const n = slots.length, perRow = Math.min(n, 5);
    slots.forEach((slot, i) => {
      let x, y;
      if (spread && n > 1) {
        const row = Math.floor(i / perRow), col = i % perRow;
        x = cx + (col - (perRow - 1) / 2) * W * 1.12;
        y = cy + (row - (Math.ceil(n / perRow) - 1) / 2) * W * 1.3;
      } else {
        x = cx + i * W * 0.12;
        y = cy - i * W * 0.12;
      }
      slot.setAttribute("transform", `translate(${x.toFixed(1)},${y.toFixed(1)})`);
    });
    g.classList.toggle("spread", !!spread && n > 1);
    if (spread && countersLayer.lastChild !== g) countersLayer.appendChild(g);
  }

  // a hex polygon around a place (for the hexes that changed hands and the candidates)
  function hexPoints(xy, f) {
    const s = S.board.size, pts = [];
    for (let i = 0; i < 6; i++) {
      const ang = Math.PI / 180 * (60 * i + (S.board.pointy ? 30 : 0));
      pts.push(`${(xy[0] + s * f * Math.cos(ang)).toFixed(1)},${(xy[1] + s * f * Math.sin(ang)).toFixed(1)}`);
    }
    return pts.join(" ");
  }
  // the hexes that changed hands since the board was drawn, in their new owner's colour
  function drawOwners() {
    if (!ownersLayer) return;
    ownersLayer.replaceChildren();
    for (const o of list(S.view && S.view.owners)) {
      const xy = placeXY(o.place);
      if (!xy) continue;
      const poly = el("polygon", { points: hexPoints(xy, 1), fill: o.color, "fill-opacity": "0.35", stroke: o.color,
        "stroke-width": (S.board.size * 0.08).toFixed(1), "data-hex": o.place });
      const t = el("title");
      t.textContent = `${o.place}: ${o.side ? "owned by " + o.side : "no owner"}`;
      poly.appendChild(t);
      ownersLayer.appendChild(poly);
    }
  }

  function drawCounters() {
    if (!countersLayer) return;
    countersLayer.replaceChildren();
    const marks = candidateUnits();
    for (const [place, units] of stacks()) {
      const g = el("g", { class: "stack", "data-place": place, "data-count": units.length });
      units.forEach((u, i) => {
        const slot = el("g", { class: "slot" });
        const node = counterNode(u.svg);
        node.setAttribute("data-name", u.known ? u.name : "?");
        if (u.group) node.setAttribute("data-group", String(u.group)); else node.setAttribute("data-unit", String(u.id));
        if (u.id === S.selected) node.classList.add("selected");
        if (marks.cand.has(u.id)) node.classList.add("candidate");
        if (marks.chosen.has(u.id)) node.classList.add("chosen");
        slot.appendChild(node);
        if (i === units.length - 1 && units.length > 1 && S.board.badge) {
          const b = counterNode(S.board.badge);
          const t = b.querySelector("text");
          if (t) t.textContent = String(units.length);
          slot.appendChild(b);
        }
        g.appendChild(slot);
      });
      g.addEventListener("mouseenter", () => layoutStack(g, true));
      g.addEventListener("mouseleave", () => { if (S.pinned !== place) layoutStack(g, false); });
      g.addEventListener("click", (ev) => {
        ev.stopPropagation();
        const c = ev.target.closest(".counter");
        const spread = g.classList.contains("spread") && g.matches(":hover") ? true : S.pinned === place;
        if (c && c.dataset.unit && (units.length === 1 || spread || S.pinned === place)) clickUnit(Number(c.dataset.unit));
        else if (c && c.dataset.group) clickGroup(Number(c.dataset.group));
        if (units.length > 1) {
          S.pinned = S.pinned === place ? null : place;
          layoutStack(g, S.pinned === place || g.matches(":hover"));
        }
      });
      countersLayer.appendChild(g);
      layoutStack(g, S.pinned === place);
    }
  }

  // ---- panels --------------------------------------------------------------------------
  function fmt(v) {
    if (v === true) return "yes";
    if (v === false) return "no";
    if (v === null || v === undefined) return "none";
    if (typeof v === "object") return Object.keys(v).length === 0 ? "none" : JSON.stringify(v);
    return String(v);
  }

  function drawStatus() {
    const st = S.status || {};
    const parts = [];
    if (st.turn !== undefined) parts.push(`turn ${st.turn}${st.turns ? " of " + st.turns : ""}`);
    if (st.phasing) parts.push(`${st.phasing}'s player turn`);
    if (st.power) parts.push(st.power);
    if (st.phase) parts.push(`phase: ${st.phase}`);
    if (st.step) parts.push(`step: ${st.step}`);
    $("turn-line").textContent = st.started === false ? "the game has not started" : parts.join(" · ");
    const active = list(st.active);
    const toAct = $("to-act");
    toAct.classList.toggle("mine", !st.over && active.includes(S.side) && (!S.table || !S.table.side || S.table.side === S.side));
    if (st.over) toAct.textContent = "the game is over";
    else if (active.length === 0) toAct.textContent = "no side is to decide";
    else {
      const w = st.window ? ` (${st.window.title || st.window.rule || "a window"})` : "";
      const mine = S.table && S.table.side ? (active.includes(S.table.side) ? " — your decision" : " — waiting") : "";
      toAct.textContent = `to decide: ${active.join(", ")}${w}${mine}`;
      // the hot seat, two sides to decide: whose orders this page gives
      if (S.table && S.table.hot_seat && active.length > 1) {
        const sel = document.createElement("select");
        sel.id = "act-as";
        sel.setAttribute("aria-label", "act as");
        for (const a of active) { const o = document.createElement("option"); o.value = a; o.textContent = `act as ${a}`; sel.appendChild(o); }
        sel.value = S.side;
        sel.addEventListener("change", () => { S.actAs = sel.value; S.builder = null; refresh(); });
        toAct.append(" ", sel);
      }
    }
    const res = $("result");
    if (st.over && st.result) {
      res.hidden = false;
      const scores = Object.entries(obj(st.result.scores)).map(([k, v]) => `${k} ${v}`).join(", ");
      res.textContent = `${st.result.winner ? st.result.winner + " wins" : "no winner"}${st.result.reason ? ": " + st.result.reason : ""}${scores ? " (" + scores + ")" : ""}`;
    } else res.hidden = true;
    const tbody = $("status-rows");
    tbody.replaceChildren();
    for (const s of list(S.view && S.view.status)) {
      const tr = document.createElement("tr");
      tr.dataset.key = s.key;
      const th = document.createElement("th"); th.textContent = s.label;
      const td = document.createElement("td"); td.textContent = fmt(s.value);
      tr.append(th, td);
      tbody.appendChild(tr);
    }
  }

  function unitById(id) { return list(S.view && S.view.units).find((u) => u.id === id); }
  function whereText(u) {
    if (u.loc === "unit") { const c = unitById(u.aboard); return `aboard ${c && c.known ? c.name : "unit " + u.aboard}`; }
    if (u.place) return `at ${u.place}`;
    return { off: "off the map", dead: "eliminated" }[u.loc] || `${u.loc}${u.where !== undefined ? " " + u.where : ""}`;
  }
  function drawUnit() {
    const box = $("unit-info");
    const u = S.selected !== null ? unitById(S.selected) : null;
    if (!u) { box.textContent = "Click a counter to see its unit."; return; }
    const rows = u.known
      ? [["name", u.name], ["side", u.side], ["type", u.type], ["where", whereText(u)], ["face", u.face], ["hits", u.hits], ["points", u.points]]
      : [["unit", "not known to you"], ["side", u.side], ["where", whereText(u)]];
    const groups = list(S.view.groups).filter((g) => g.known && list(g.units).includes(u.id)).map((g) => g.name);
    if (groups.length) rows.push(["groups", groups.join(", ")]);
    for (const [k, v] of Object.entries(obj(u.values)).sort()) rows.push([`value ${k}`, fmt(v)]);
    for (const [k, v] of Object.entries(obj(u.markers)).sort()) rows.push([`marker ${k}`, fmt(v)]);
    for (const [k, v] of Object.entries(obj(u.facts)).sort()) rows.push([`known: ${k}`, fmt(v)]);
    const dl = document.createElement("dl");
    for (const [k, v] of rows) {
      const dt = document.createElement("dt"); dt.textContent = k;
      const dd = document.createElement("dd"); dd.textContent = fmt(v);
      dl.append(dt, dd);
    }
    box.replaceChildren(dl);
  }
  function drawOffboard() {
    const ul = $("offboard-list");
    ul.replaceChildren();
    let n = 0;
    for (const u of list(S.view && S.view.units)) {
      if (u.place && placeXY(u.place)) continue;
      const li = document.createElement("li");
      li.dataset.unit = String(u.id);
      li.textContent = `${u.known ? u.name : "?"} (${u.side || "?"}${u.known ? " " + u.type : ""}): ${whereText(u)}`;
      li.addEventListener("click", () => clickUnit(u.id));
      ul.appendChild(li);
      n++;
    }
    $("offboard").hidden = n === 0;
  }

  function log(head, lines, cls) {
    const box = $("log-lines");
    const d = document.createElement("div");
    d.className = "order" + (cls ? " " + cls : "");
    d.textContent = head;
    box.appendChild(d);
    for (const l of list(lines)) {
      const x = document.createElement("div");
      x.className = `line n-${l.kind}`;
      if (l.rule) x.dataset.rule = l.rule;
      x.textContent = String(l.text).replace(/^ {4}/, "");
      box.appendChild(x);
    }
    box.scrollTop = box.scrollHeight;
  }
  function message(text, rule) {
    const m = $("message");
    if (!text) { m.hidden = true; m.replaceChildren(); return; }
    m.hidden = false;
    m.replaceChildren();
    if (rule) {
      const r = document.createElement("span");
      r.className = "rule";
      r.textContent = `rule ${rule}: `;
      m.appendChild(r);
    }
    m.appendChild(document.createTextNode(text));
  }

  // ---- orders --------------------------------------------------------------------------
  const available = () => list(S.actions && S.actions.actions).filter((a) => a.available);
  function depsLeftOut(p, b) { return list(p.depends).some((d) => b.omitted.has(d)); }
  // a parameter's candidates for the values chosen so far: {domain, sets, any_set, omit} or null (no domain)
  function candidates(a, p, b) {
    let c = null;
    if (p.domain) c = { domain: list(p.domain), sets: p.sets, any_set: p.any_set, omit: p.omit, max: p.max };
    else if (p.choices) {
      c = { domain: [], omit: true };
      for (const ch of list(p.choices)) {
        const given = obj(ch.given);
        const ok = list(p.depends).every((d) => (d in given ? same(given[d], b.values[d]) : b.omitted.has(d) || !(d in b.values)));
        if (ok) { c = { domain: list(ch.domain), sets: ch.sets, any_set: ch.any_set, omit: ch.omit, max: p.max }; break; }
      }
    } else return null;
    if (depsLeftOut(p, b) && !p.choices) c = { domain: [], omit: true };
    // the legal orders, when listed: only values that some order with the choices so far takes
    if (a.orders) {
      const fits = list(a.orders).filter((o) => Object.keys(b.values).every((k) => same(o[k], b.values[k]))
        && [...b.omitted].every((k) => !(k in o)));
      c.domain = c.domain.filter((cand) => p.type === "units"
        ? fits.some((o) => list(o[p.name]).some((x) => same(x, cand.value)))
        : fits.some((o) => same(o[p.name], cand.value)));
      if (c.sets) c.sets = list(c.sets).filter((s) => fits.some((o) => same(o[p.name], s)));
      c.omit = fits.some((o) => !(p.name in o));
    }
    return c;
  }
  const SCALAR = { string: true, integer: true, number: true, boolean: true, side: true };
  const isPath = (c) => c && c.domain.length > 0 && c.domain.every((x) => Array.isArray(x.value) && x.value.every((v) => typeof v === "string"));

  // the parameter being asked, or null when the order is complete
  function currentParam() {
    const b = S.builder;
    for (const p of b.action.params) {
      if (p.name in b.values || b.omitted.has(p.name)) continue;
      const c = candidates(b.action, p, b);
      if (c === null) {   // no domain: a value typed (or left out); an optional table or any left out
        if (p.optional && !SCALAR[p.type]) { b.omitted.add(p.name); continue; }
        return { p, c: null };
      }
      if (c.domain.length === 0 && c.omit) { b.omitted.add(p.name); continue; }
      return { p, c };
    }
    return null;
  }

  function startOrder(action, preset) {
    S.builder = { action, values: {}, omitted: new Set(), picks: [], path: [] };
    message(null);
    if (preset) {
      const p = action.params[0];
      const c = candidates(action, p, S.builder);
      if (c && p.type === "units") S.builder.picks = [preset];
      else if (c) S.builder.values[p.name] = preset;
    }
    step();
  }
  function cancelOrder() { S.builder = null; render(); }

  function choose(name, value) {
    if (!S.builder) return;
    S.builder.values[name] = value;
    S.builder.picks = [];
    S.builder.path = [];
    step();
  }
  function omit(name) { if (!S.builder) return; S.builder.omitted.add(name); S.builder.picks = []; S.builder.path = []; step(); }

  function step() {
    if (!S.builder) return;
    const cur = currentParam();
    if (cur === null) { submit(); return; }
    render();
  }

  async function submit() {
    const b = S.builder;
    const params = {};
    for (const [k, v] of Object.entries(b.values)) params[k] = v;
    const req = { op: "order", action: b.action.name, params };
    if (b.action.side && !(S.table && S.table.side)) req.side = b.action.side;
    S.builder = null;
    drawBuilder();   // the order is sent: its controls go
    drawActions();
    await order(req);
  }

  async function order(req) {
    if (S.busy) return;
    S.busy = true;
    const before = S.status && S.status.hash;
    const r = await send(req);
    S.busy = false;
    const what = `${req.side || S.side || ""}: ${req.action}${Object.keys(obj(req.params)).length ? " " + JSON.stringify(req.params) : ""}`;
    if (r.ok) {
      message(null);
      log(what, r.narration);
    } else {
      const e = r.error || {};
      message(e.reason || e.message || "refused", e.rule);
      log(`${what} — refused: ${e.message || ""}`, r.narration, "refused");
      document.body.dataset.refusedUnchanged = String(r.hash === before);
    }
    await refresh();
  }

  // units the current parameter offers (to mark on the board), and those picked
  function candidateUnits() {
    const out = { cand: new Set(), chosen: new Set() };
    if (!S.builder) return out;
    const cur = currentParamSafe();
    if (!cur || !cur.c) return out;
    const { p, c } = cur;
    for (const x of c.domain) {
      if (p.type === "unit" || p.type === "units") out.cand.add(x.value);
      if (p.type === "group") {
        const g = list(S.view.groups).find((gg) => gg.id === x.value && gg.known);
        if (g) list(g.units).forEach((u) => out.cand.add(u));
      }
    }
    for (const u of S.builder.picks) out.chosen.add(u);
    return out;
  }
  function currentParamSafe() { try { return currentParam(); } catch (e) { return null; } }

  // a unit clicked on the board or in the list
  function clickUnit(id) {
    S.selected = id;
    const cur = S.builder ? currentParam() : null;
    if (cur && cur.c) {
      const { p, c } = cur;
      if (p.type === "unit" && c.domain.some((x) => x.value === id)) { choose(p.name, id); return; }
      if (p.type === "units" && c.domain.some((x) => x.value === id)) { togglePick(p, c, id); return; }
      if (p.type === "group") {
        const gs = c.domain.filter((x) => { const g = list(S.view.groups).find((gg) => gg.id === x.value); return g && list(g.units).includes(id); });
        if (gs.length === 1) { choose(p.name, gs[0].value); return; }
      }
    }
    render();
  }
  // a group the side does not know, clicked: a candidate of a group parameter (a search's target), or its facts
  function clickGroup(gid) {
    const cur = S.builder ? currentParam() : null;
    if (cur && cur.c && cur.p.type === "group" && cur.c.domain.some((x) => x.value === gid)) { choose(cur.p.name, gid); return; }
    S.selected = null;
    const g = list(S.view.groups).find((x) => x.id === gid);
    const box = $("unit-info");
    box.textContent = `an enemy group of ${g ? g.side : "?"} at ${g ? g.at || g.place : "?"}, not known to you` +
      (g && g.facts && Object.keys(obj(g.facts)).length ? `; known: ${JSON.stringify(g.facts)}` : "");
  }
  function togglePick(p, c, id) {
    const b = S.builder;
    b.picks = b.picks.includes(id) ? b.picks.filter((x) => x !== id) : b.picks.concat([id]);
    const order = c.domain.map((x) => x.value);
    b.picks.sort((x, y) => order.indexOf(x) - order.indexOf(y));
    render();
  }
  function setOK(c, picks) {
    if (picks.length === 0) return false;
    if (c.sets) return list(c.sets).some((s) => same(s, picks));
    if (c.any_set) return !c.max || picks.length <= c.max;
    return true;
  }

  // a place the current parameter offers, clicked on the board
  function clickPlace(key) {
    const cur = currentParam();
    if (!cur || !cur.c) return;
    const { p, c } = cur;
    if (isPath(c)) { extendPath(c, key); return; }
    const cand = c.domain.find((x) => x.value === key || x.label === key);
    if (cand) choose(p.name, cand.value);
  }
  function pathNext(c) {
    const b = S.builder, n = b.path.length;
    const fitting = c.domain.filter((x) => same(x.value.slice(0, n), b.path));
    const next = new Map();
    for (const x of fitting) if (x.value.length > n && !next.has(x.value[n])) next.set(x.value[n], x);
    return { fitting, next, done: fitting.find((x) => x.value.length === n) };
  }
  function extendPath(c, key) {
    const b = S.builder, cur = currentParam();
    const { next } = pathNext(c);
    if (!next.has(key)) return;
    b.path = b.path.concat([key]);
    const after = pathNext(c);
    if (after.done && after.next.size === 0) { choose(cur.p.name, after.done.value); return; }
    render();
  }

  function button(text, attrs, onclick) {
    const bt = document.createElement("button");
    bt.textContent = text;
    for (const [k, v] of Object.entries(attrs || {})) bt.setAttribute(k, v);
    bt.addEventListener("click", onclick);
    return bt;
  }
  function candText(p, x) {
    let t = x.label !== undefined ? String(x.label) : (typeof x.value === "string" ? x.value : JSON.stringify(x.value));
    if (p.type === "group" || p.type === "unit") t = x.label !== undefined ? String(x.label) : `#${x.value}`;
    if (x.cost !== undefined) t += ` (${x.cost})`;
    return t;
  }

  function drawBuilder() {
    const box = $("builder");
    targetsLayer && targetsLayer.replaceChildren();
    routeLayer && routeLayer.replaceChildren();
    if (!S.builder) { box.hidden = true; box.replaceChildren(); return; }
    const b = S.builder, a = b.action;
    box.hidden = false;
    box.replaceChildren();
    const head = document.createElement("div");
    head.className = "head";
    head.textContent = `${a.name}${a.title ? " — " + a.title : ""}${a.rule ? " (rule " + a.rule + ")" : ""}`;
    box.appendChild(head);
    const chosen = document.createElement("div");
    chosen.className = "chosen";
    chosen.textContent = Object.entries(b.values).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).concat([...b.omitted].map((k) => `${k} left out`)).join("; ");
    box.appendChild(chosen);
    const cur = currentParam();
    if (!cur) return;
    const { p, c } = cur;
    box.dataset.param = p.name;
    box.dataset.kind = c === null ? "free" : isPath(c) ? "path" : p.type === "units" ? "units" : "list";
    const q = document.createElement("div");
    q.className = "param";
    const cands = document.createElement("div");
    cands.className = "cands";
    const tools = document.createElement("div");
    tools.className = "row";
    if (c === null) {
      q.textContent = `${p.name}${p.title ? " (" + p.title + ")" : ""}: type a value (${p.type})`;
      const input = document.createElement("input");
      input.id = "free-value";
      cands.appendChild(input);
      tools.appendChild(button("set", { class: "done" }, () => {
        let v = input.value;
        try { v = JSON.parse(v); } catch (e) { /* a string */ }
        choose(p.name, v);
      }));
    } else if (isPath(c)) {
      const { next, done } = pathNext(c);
      q.textContent = `${p.name}: click the next place of the path${b.path.length ? " (so far " + b.path.join(" → ") + ")" : ""}`;
      for (const [key, x] of next) {
        const cost = c.domain.filter((y) => same(y.value, b.path.concat([key]))).map((y) => y.cost).find((v) => v !== undefined);
        cands.appendChild(button(key + (cost !== undefined ? ` (${cost})` : ""), { "data-value": JSON.stringify(key) }, () => extendPath(c, key)));
        mark(key, cost !== undefined ? cost : "", () => extendPath(c, key));
        void x;
      }
      drawRoute(b.path);
      if (done) tools.appendChild(button("done", { class: "done" }, () => choose(p.name, done.value)));
      if (b.path.length) tools.appendChild(button("back", {}, () => { b.path = b.path.slice(0, -1); render(); }));
    } else if (p.type === "units") {
      q.textContent = `${p.name}: pick ${c.sets ? "one of the sets" : "units"} on the board or here`;
      for (const x of c.domain) {
        const bt = button(candText(p, x), { "data-value": JSON.stringify(x.value), "data-label": x.label !== undefined ? String(x.label) : "" }, () => togglePick(p, c, x.value));
        if (b.picks.includes(x.value)) bt.classList.add("on");
        cands.appendChild(bt);
      }
      const ok = setOK(c, b.picks);
      const d = button("done", { class: "done" }, () => choose(p.name, b.picks.slice()));
      d.disabled = !ok;
      tools.appendChild(d);
    } else {
      q.textContent = `${p.name}${p.title ? " (" + p.title + ")" : ""}: ${p.type === "unit" || p.type === "group" ? "pick on the board or here" : "choose"}`;
      for (const x of c.domain) {
        cands.appendChild(button(candText(p, x), { "data-value": JSON.stringify(x.value), "data-label": x.label !== undefined ? String(x.label) : "" }, () => choose(p.name, x.value)));
        const key = typeof x.value === "string" && placeXY(x.value) ? x.value : (typeof x.label === "string" && placeXY(x.label) ? x.label : null);
        if (key && p.type !== "unit" && p.type !== "group") mark(key, x.cost !== undefined ? x.cost : "", () => choose(p.name, x.value));
      }
    }
    if ((c && c.omit) || (c === null && p.optional)) tools.appendChild(button("leave out", { class: "omit" }, () => omit(p.name)));
    tools.appendChild(button("cancel", { class: "cancel" }, cancelOrder));
    box.append(q, cands, tools);
  }

  // a candidate place on the board: the hex outlined (a circle for an area), its cost
  function mark(key, cost, onclick) {
    if (!targetsLayer) return;
    const xy = placeXY(key);
    if (!xy) return;
    const g = el("g", { class: "target", "data-place": key });
    const s = S.board.size;
    if (/^[^ ]*:/.test(key) || /^\d+$/.test(key)) {
      g.appendChild(el("polygon", { points: hexPoints(xy, 0.92) }));
    } else {
      g.appendChild(el("circle", { cx: xy[0], cy: xy[1], r: s * 0.9 }));
    }
    if (cost !== "") {
      const t = el("text", { x: xy[0], y: xy[1] + s * 0.55, "text-anchor": "middle" });
      t.textContent = String(cost);
      g.appendChild(t);
    }
    g.addEventListener("click", (ev) => { ev.stopPropagation(); onclick(); });
    targetsLayer.appendChild(g);
  }
  function drawRoute(path) {
    if (!routeLayer || path.length === 0) return;
    const b = S.builder;
    const first = b && Object.values(b.values).map((v) => unitAnchor(v)).find((x) => x);
    const pts = (first ? [first] : []).concat(path.map(placeXY).filter((x) => x));
    if (pts.length < 2) return;
    routeLayer.appendChild(el("polyline", { points: pts.map((p) => p.join(",")).join(" ") }));
  }
  function unitAnchor(v) {
    const ids = Array.isArray(v) ? v : [v];
    for (const id of ids) {
      const u = unitById(id);
      if (u && u.place && placeXY(u.place)) return placeXY(u.place);
      const g = list(S.view && S.view.groups).find((gg) => gg.id === id);
      if (g && g.known) for (const m of list(g.units)) { const x = unitById(m); if (x && x.place && placeXY(x.place)) return placeXY(x.place); }
      if (g && g.at && placeXY(g.at)) return placeXY(g.at);
    }
    return null;
  }

  // the actions: buttons for those without parameters; the rest start an order
  function drawActions() {
    const acts = $("actions"), buttons = $("buttons"), forUnit = $("unit-actions");
    acts.replaceChildren(); buttons.replaceChildren(); forUnit.replaceChildren();
    if (S.builder || !S.actions) return;
    for (const a of available()) {
      const attrs = { "data-action": a.name, title: `${a.title || a.name}${a.rule ? " (rule " + a.rule + ")" : ""}` };
      if (a.params.length === 0) {
        buttons.appendChild(button(a.name.replace(/_/g, " "), attrs, () => order({ op: "order", action: a.name, params: {}, side: S.table && S.table.side ? undefined : a.side })));
      } else {
        const bt = button(a.name.replace(/_/g, " "), attrs, () => startOrder(a));
        bt.classList.add("action");
        acts.appendChild(bt);
      }
    }
    // the selected unit's actions: those whose first parameter offers it (or its group)
    const u = S.selected !== null ? unitById(S.selected) : null;
    if (!u) return;
    const groups = list(S.view.groups).filter((g) => g.known && list(g.units).includes(u.id)).map((g) => g.id);
    for (const a of available()) {
      const p = a.params[0];
      if (!p || !p.domain) continue;
      let v;
      if ((p.type === "unit" || p.type === "units") && list(p.domain).some((x) => x.value === u.id)) v = u.id;
      else if (p.type === "group") { const x = list(p.domain).find((c) => groups.includes(c.value)); if (x) v = x.value; }
      if (v === undefined) continue;
      forUnit.appendChild(button(a.name.replace(/_/g, " "), { "data-unit-action": a.name }, () => startOrder(a, v)));
    }
    forUnit.dataset.for = forUnit.children.length ? `${u.known ? u.name : "this unit"}:` : "";
  }

  function render() {
    drawStatus();
    drawBuilder();
    drawOwners();
    drawCounters();
    drawUnit();
    drawOffboard();
    drawActions();
    const hot = S.table && S.table.hot_seat;
    $("undo").hidden = !hot;
    $("undo").disabled = S.busy;
  }

  // ---- the game's state, asked again after every change ---------------------------------
  function mySide() {
    if (S.table && S.table.side) return S.table.side;
    const active = list(S.status && S.status.active);
    if (S.actAs && active.includes(S.actAs)) return S.actAs;
    if (active.length) return active[0];
    return S.side || list(S.game && S.game.sides)[0] || null;
  }
  async function refresh() {
    const n = ++refreshing;
    const status = await send({ op: "status" });
    if (!status.ok) { showOpen(status); return; }
    S.status = status;
    S.side = mySide();
    const view = S.side ? await send({ op: "view", side: S.side, counters: true }) : null;
    const canAct = !status.over && list(status.active).includes(S.side);
    const actions = canAct ? await send({ op: "actions", side: S.side }) : null;
    if (n !== refreshing) return;
    S.view = view && view.ok ? view : { units: [], groups: [], status: [] };
    S.actions = actions && actions.ok ? actions : null;
    if (S.builder && (!S.actions || !S.actions.actions.some((a) => a.name === S.builder.action.name && a.available))) S.builder = null;
    if (S.builder) S.builder.action = S.actions.actions.find((a) => a.name === S.builder.action.name);
    render();
    document.body.dataset.hash = status.hash || "";
    document.body.dataset.ready = "1";
    document.body.dataset.side = S.side || "";
    document.body.dataset.over = String(!!status.over);
    document.body.dataset.refreshes = String(++refreshCount);
  }
  function showOpen(status) {
    const hot = S.table && S.table.hot_seat;
    $("open-game").hidden = !hot;
    $("turn-line").textContent = status.error ? status.error.message : "";
    document.body.dataset.ready = "1";
  }
  async function openGame(reply) {
    S.game = reply.game;
    $("title").textContent = reply.game.name || reply.game.scenario || "keel";
    document.title = `${$("title").textContent} — keel play`;
    $("open-game").hidden = true;
    const b = await send({ op: "board" });
    S.board = b.ok ? b.board : { svg: false, places: {}, size: 44, counter_w: 40 };
    S.builder = null; S.selected = null; S.pinned = null;
    drawBoard();
    await refresh();
    fitUnits();
  }

  function onUpdate(m) {
    if (m.reopened) { start(); return; }
    const who = m.side ? `${m.side}: ${m.action || "an order"}` : (m.action || "the game changed");
    log(who, m.narration);
    refresh();
  }

  async function start() {
    const hello = await send({ op: "hello" });
    S.table = hello.table || { hot_seat: true, scenarios: [] };
    $("seat").textContent = S.table.side ? `your seat: ${S.table.side}` : (S.table.hot_seat ? "hot seat: every side on this page" : "");
    const sel = $("scenario-list");
    sel.replaceChildren();
    for (const n of list(S.table.scenarios)) { const o = document.createElement("option"); o.value = n; o.textContent = n; sel.appendChild(o); }
    const st = await send({ op: "status" });
    if (!st.ok || !S.table.game) { showOpen(st); return; }
    await openGame({ game: S.table.game });
  }

  function connect() {
    if (!token) {
      $("conn").textContent = "no token: open the address keel serve printed";
      $("conn").classList.add("down");
      document.body.dataset.ready = "1";
      return;
    }
    ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?token=${encodeURIComponent(token)}`);
    ws.addEventListener("open", () => { $("conn").textContent = "connected"; start(); });
    ws.addEventListener("close", () => { $("conn").textContent = "disconnected: reload the page"; $("conn").classList.add("down"); });
    ws.addEventListener("message", (ev) => {
      const m = JSON.parse(ev.data);
      if (m.op === "update" && m.id === undefined) { onUpdate(m); return; }
      const r = pending.get(m.id);
      if (r) { pending.delete(m.id); r(m); }
    });
  }

  // ---- controls ------------------------------------------------------------------------
  $("open").addEventListener("click", async () => {
    const r = await send({ op: "open", scenario: $("scenario-list").value });
    if (!r.ok) { message(r.error.message); return; }
    await openGame(r);
  });
  $("undo").addEventListener("click", async () => {
    const r = await send({ op: "undo" });
    if (!r.ok) message(r.error.message); else { message(null); log("undo", []); }
    await refresh();
  });
  $("zoom-in").addEventListener("click", () => zoom(1.25));
  $("zoom-out").addEventListener("click", () => zoom(1 / 1.25));
  $("fit-units").addEventListener("click", fitUnits);
  $("fit-map").addEventListener("click", () => fitBox(full[0], full[1], full[0] + full[2], full[1] + full[3], 0));
  const board = $("board");
  board.addEventListener("wheel", (ev) => { if (!svg) return; ev.preventDefault(); zoom(ev.deltaY < 0 ? 1.2 : 1 / 1.2); }, { passive: false });
  let drag = null;
  board.addEventListener("pointerdown", (ev) => {
    if (!svg || ev.target.closest(".stack") || ev.target.closest(".target") || ev.target.closest("button")) return;
    drag = { x: ev.clientX, y: ev.clientY, vb: vb.slice(), moved: false };
  });
  board.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    if (!drag.moved && Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) < 4) return;
    drag.moved = true;
    board.classList.add("panning");
    const r = board.getBoundingClientRect();
    const s = Math.max(drag.vb[2] / r.width, drag.vb[3] / r.height);
    setView(drag.vb[0] - (ev.clientX - drag.x) * s, drag.vb[1] - (ev.clientY - drag.y) * s, drag.vb[2], drag.vb[3]);
  });
  const endDrag = () => { drag = null; board.classList.remove("panning"); };
  board.addEventListener("pointerup", endDrag);
  board.addEventListener("pointercancel", endDrag);
  board.addEventListener("click", (ev) => {
    if (!ev.target.closest(".stack") && S.pinned !== null) { S.pinned = null; drawCounters(); }
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    if (ev.key === "Escape" && S.builder) cancelOrder();
    else if (ev.key === "+" || ev.key === "=") { if (svg) zoom(1.25); }
    else if (ev.key === "-") { if (svg) zoom(1 / 1.25); }
  });

  // the page's API, for scripts and tests
  window.keelPlay = { state: S, send, refresh, clickPlace, clickUnit };
  connect();
})();

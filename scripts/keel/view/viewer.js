// keel view: the page's behaviour (inlined into every page keel view writes).
//
// It draws nothing itself: the board, the counters, the paths and the
// hexes that changed hands arrive as SVG made by keel's renderer
// (scripts/keel/render.lua, counter.lua); this script places counters on
// hexes, stacks and spreads them, steps through the game, and zooms and
// pans. The data: scripts/keel/cli/view.lua (M.collect); doc/viewer.md.
(function () {
  "use strict";
  const SVGNS = "http://www.w3.org/2000/svg";
  const data = JSON.parse(document.getElementById("keel-data").textContent);
  // JSON from Lua writes an empty list as {}: lists are read through this
  const list = (v) => (Array.isArray(v) ? v : []);
  const steps = data.steps;
  const W = data.counter_w;
  const board = document.getElementById("board");
  const svg = board.querySelector("svg");
  const $ = (id) => document.getElementById(id);

  // ---- the state at every step, from the first step's records and each step's changes
  const states = [];
  steps.forEach((s, i) => {
    const prev = i > 0 ? states[i - 1] : { units: {}, globals: {}, keyed: {}, owners: 1 };
    const units = Object.assign({}, prev.units, s.units || {});
    const globals = Object.assign({}, prev.globals);
    for (const [k, v] of Object.entries(s.globals || {})) {
      if (v === null) delete globals[k]; else globals[k] = v;
    }
    // keyed maps the status panel shows: a map's whole list of [key parts, value] when it changed
    const keyed = Object.assign({}, prev.keyed, s.keyed || {});
    states.push({ units, globals, keyed, owners: s.owners || prev.owners });
  });

  // ---- layers over the board
  function el(name, attrs) {
    const e = document.createElementNS(SVGNS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  }
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  const full = (svg.getAttribute("viewBox") || "0 0 1000 1000").split(/[ ,]+/).map(Number);
  const layer = (id) => { const g = el("g", { id }); svg.appendChild(g); return g; };
  const ownersLayer = layer("changed-hands");
  const pathsLayer = layer("moves");
  const countersLayer = layer("counters");
  // place names and CD levels stay over the counters (keel.render's places layer)
  const placesLayer = svg.querySelector("#places");
  if (placesLayer) svg.insertBefore(placesLayer, countersLayer.nextSibling);
  const placeTexts = placesLayer ? Array.from(placesLayer.querySelectorAll("text[data-hex]")) : [];

  const templates = [];   // counter SVG text -> a parsed node, made once
  function counterNode(c) {
    if (!templates[c]) {
      const g = el("g");
      g.innerHTML = data.counters[c - 1];
      templates[c] = g.firstElementChild;
    }
    return templates[c].cloneNode(true);
  }
  const badgeHolder = el("g");
  badgeHolder.innerHTML = data.badge;
  const badgeTemplate = badgeHolder.firstElementChild;

  // ---- what is shown
  let cur = 0;
  let selected = null;        // a unit id
  let pinned = null;          // a hex whose stack stays spread
  let showCargo = false;

  // units by hex, in id order but those that changed in this step on top
  function stacksOf(state, step) {
    const stacks = new Map();
    const moved = step && step.units ? step.units : {};
    const ids = Object.keys(state.units).map(Number)
      .sort((a, b) => ((a in moved) - (b in moved)) || a - b);
    for (const id of ids) {
      const u = state.units[id];
      if (!u.hex || !data.hexes[u.hex]) continue;
      if (!stacks.has(u.hex)) stacks.set(u.hex, []);
      stacks.get(u.hex).push(id);
    }
    return stacks;
  }

  function cargoOf(state, id) {
    return Object.values(state.units).filter((u) => u.carrier === id).sort((a, b) => a.id - b.id);
  }

  // a stack stands a little below its hex's centre: the hex number above it stays readable
  const STACK_DY = data.size * 0.2;
  function layoutStack(g, spread) {
    const slots = g.querySelectorAll(":scope > .slot");
    const [cx, cy0] = data.hexes[g.dataset.hex];
    const cy = cy0 + STACK_DY;
    const n = slots.length;
    const perRow = Math.min(n, 5), rows = Math.ceil(n / perRow);
    // a spread stack is kept inside the view (a stack at the board's edge is not clipped)
    let sx = 0, sy = 0;
    if (spread && n > 1) {
      const hw = ((perRow - 1) / 2) * W * 1.12 + W / 2, hh = ((rows - 1) / 2) * W * 1.3 + W / 2;
      if (cx + hw > vb[0] + vb[2]) sx = vb[0] + vb[2] - (cx + hw);
      if (cx - hw + sx < vb[0]) sx = vb[0] - (cx - hw);
      if (cy + hh > vb[1] + vb[3]) sy = vb[1] + vb[3] - (cy + hh);
      if (cy - hh + sy < vb[1]) sy = vb[1] - (cy - hh);
    }
    slots.forEach((slot, i) => {
      let x, y;
      if (spread && n > 1) {
        const row = Math.floor(i / perRow), col = i % perRow;
        x = cx + sx + (col - (perRow - 1) / 2) * W * 1.12;
        y = cy + sy + (row - (rows - 1) / 2) * W * 1.3;
      } else {
        x = cx + i * W * 0.12;
        y = cy - i * W * 0.12;
      }
      slot.setAttribute("transform", `translate(${x.toFixed(1)},${y.toFixed(1)})`);
    });
    g.classList.toggle("spread", !!spread && n > 1);
    // a spread stack is looked at: the hex's words step aside until it closes
    for (const t of placeTexts) {
      if (t.dataset.hex === g.dataset.hex) t.style.visibility = spread && n > 1 ? "hidden" : "";
    }
    // on top of its neighbours (moved only when it is not: a moved node loses its click)
    if (spread && countersLayer.lastChild !== g) countersLayer.appendChild(g);
  }

  function drawCounters(state) {
    countersLayer.replaceChildren();
    const stacks = stacksOf(state, steps[cur]);
    for (const [hex, ids] of stacks) {
      const g = el("g", { class: "stack", "data-hex": hex, "data-count": ids.length });
      ids.forEach((id, i) => {
        const u = state.units[id];
        const slot = el("g", { class: "slot" });
        const node = counterNode(u.c);
        node.setAttribute("data-name", u.name);
        if (id === selected) node.classList.add("selected");
        slot.appendChild(node);
        if (showCargo) {
          const cargo = cargoOf(state, id);
          const row = el("g", { class: "cargo-row" });
          cargo.forEach((c, j) => {
            const t = el("g", { transform: `translate(${((j - (cargo.length - 1) / 2) * W * 0.62).toFixed(1)},${(W * 0.95).toFixed(1)}) scale(0.55)` });
            const cn = counterNode(c.c);
            cn.setAttribute("data-name", c.name);
            cn.classList.add("carried");
            t.appendChild(cn);
            row.appendChild(t);
          });
          slot.appendChild(row);
        }
        if (i === ids.length - 1 && ids.length > 1) {
          const b = badgeTemplate.cloneNode(true);
          b.querySelector("text").textContent = String(ids.length);
          slot.appendChild(b);
        }
        g.appendChild(slot);
      });
      g.addEventListener("mouseenter", () => layoutStack(g, true));
      g.addEventListener("mouseleave", () => { if (pinned !== hex) layoutStack(g, false); });
      g.addEventListener("click", (ev) => {
        const c = ev.target.closest(".counter");
        if (c && c.dataset.unit) selectUnit(Number(c.dataset.unit));
        pinned = pinned === hex ? null : hex;
        layoutStack(g, pinned === hex || g.matches(":hover"));
        ev.stopPropagation();
      });
      countersLayer.appendChild(g);
      layoutStack(g, pinned === hex);
    }
    // a name or CD level a stack covers moves clear of it, and back when it leaves
    for (const t of placeTexts) {
      if (stacks.has(t.dataset.hex)) {
        const [dx, dy] = t.dataset.covered.split(",").map(Number);
        t.setAttribute("transform", `translate(${dx.toFixed(1)},${(dy > 0 ? dy + STACK_DY : dy).toFixed(1)})`);
      }
      else t.removeAttribute("transform");
    }
  }

  // ---- the panels
  function fmtValue(v) {
    if (v === true) return "yes";
    if (v === false) return "no";
    if (v === null || v === undefined) return "none";
    return String(v);
  }

  function statusRows(state, step) {
    const rows = [];   // [data-key, label, value, changed in this step]
    const keys = Object.keys(state.globals).sort();
    const globalChanged = (k) => !!(step.globals && k in step.globals && cur > 0);
    const prev = cur > 0 ? states[cur - 1] : null;
    const fill = (label, rest) => (label.includes("%s") ? label.replace("%s", rest) : `${label} ${rest}`);
    for (const s of list(data.spec.status)) {
      if (s.keyed) {
        // a keyed map: how many keys (count), or a row per key (%s: the key's parts)
        const entries = list(state.keyed[s.keyed]);
        const changed = !!(step.keyed && s.keyed in step.keyed && cur > 0);
        if (s.count) {
          if (entries.length > 0) rows.push([`${s.keyed}#`, s.label, entries.length, changed]);
          continue;
        }
        const before = new Map(list(prev && prev.keyed[s.keyed]).map(([key, v]) => [JSON.stringify(key), v]));
        for (const [key, v] of entries) {
          const parts = list(key);
          const was = before.get(JSON.stringify(parts));
          rows.push([`${s.keyed}[${parts.join(",")}]`, fill(s.label, parts.join(" ")), v, changed && was !== v]);
        }
      } else if (s.key.endsWith("*")) {
        const prefix = s.key.slice(0, -1);
        for (const k of keys) {
          if (k.startsWith(prefix)) rows.push([k, fill(s.label, k.slice(prefix.length)), state.globals[k], globalChanged(k)]);
        }
      } else if (s.key in state.globals) {
        rows.push([s.key, s.label, state.globals[s.key], globalChanged(s.key)]);
      }
    }
    const tbody = $("status-rows");
    tbody.replaceChildren();
    for (const [k, label, value, changed] of rows) {
      const tr = document.createElement("tr");
      tr.dataset.key = k;
      if (changed) tr.classList.add("changed");
      const th = document.createElement("th");
      th.textContent = label;
      const td = document.createElement("td");
      td.className = "v";
      td.textContent = fmtValue(value);
      tr.append(th, td);
      tbody.appendChild(tr);
    }
    if (rows.length === 0) {
      const tr = document.createElement("tr");
      tr.innerHTML = "<th>no status declared or set</th><td></td>";
      tbody.appendChild(tr);
    }
  }

  function narration(step) {
    const title = $("step-title");
    title.textContent = step.title;
    if (step.rule) {
      const r = document.createElement("span");
      r.className = "rule";
      r.textContent = ` (rule ${step.rule})`;
      title.appendChild(r);
    }
    const box = $("lines");
    box.replaceChildren();
    const all = list(step.lines);
    // a rule that fired and then only changed state is listed with the changes
    const changesOnly = (i) => {
      for (let j = i + 1; j < all.length && all[j].k !== "fire" && all[j].k !== "action"; j++) {
        if (all[j].k !== "change" && all[j].r === all[i].r) return false;
      }
      return true;
    };
    all.forEach((l, i) => {
      const d = document.createElement("div");
      d.className = `line n-${l.k === "fire" && changesOnly(i) ? "change" : l.k}`;
      if (l.r) d.dataset.rule = l.r;
      d.textContent = l.t.replace(/^ {4}/, "");
      box.appendChild(d);
    });
    const lines = all;
    const told = lines.filter((l) => l.k !== "change").length;
    if (told === 0) {
      const d = document.createElement("div");
      d.className = "empty";
      d.textContent = cur === 0 ? "the position after the scenario's setup"
        : lines.length > 0 ? `${lines.length} change${lines.length > 1 ? "s" : ""} of state (tick "state changes" to list them)`
        : "no rule narrated anything";
      box.prepend(d);
    }
  }

  const LOC_WORDS = { off: "off the map", dead: "eliminated" };
  function whereText(state, u) {
    if (u.carrier) return `carried by ${(state.units[u.carrier] || {}).name || "unit " + u.carrier}`;
    if (u.loc === "port" && u.hex) return `in port at ${u.hex}`;
    if (u.loc === "hex" && u.hex) return `at ${u.hex}`;
    if ((u.loc === "box" || u.loc === "zone") && u.hex) return `in sea ${u.hex}`;
    return LOC_WORDS[u.loc] || (u.loc + (u.where !== undefined ? ` ${u.where}` : ""));
  }

  // the units that are on no drawn place: off the map, eliminated, or every unit of a game without a map
  function offBoard(state) {
    const box = $("offboard-list");
    box.replaceChildren();
    const ids = Object.keys(state.units).map(Number).sort((a, b) => a - b);
    let n = 0;
    for (const id of ids) {
      const u = state.units[id];
      const onBoard = (v) => v && v.hex && data.hexes[v.hex];
      if (onBoard(u) || (u.carrier && onBoard(state.units[u.carrier]))) continue;   // drawn (cargo with its carrier)
      const li = document.createElement("li");
      li.dataset.unit = String(id);
      li.textContent = `${u.name} (${u.side || "?"} ${u.type || "?"}): ${whereText(state, u)}`;
      if (u.hits) li.textContent += `, ${u.hits} hit${u.hits > 1 ? "s" : ""}`;
      li.addEventListener("click", () => selectUnit(id));
      box.appendChild(li);
      n++;
    }
    $("offboard").hidden = n === 0;
  }

  function selectUnit(id) {
    selected = id;
    countersLayer.querySelectorAll(".counter.selected").forEach((c) => c.classList.remove("selected"));
    countersLayer.querySelectorAll(`.counter[data-unit="${id}"]`).forEach((c) => c.classList.add("selected"));
    unitPanel(states[cur]);
  }

  function unitPanel(state) {
    const box = $("unit-info");
    const u = selected !== null ? state.units[selected] : null;
    if (!u) { box.textContent = "Click a counter to see its unit."; return; }
    const where = whereText(state, u);
    const rows = [["name", u.name], ["unit", `${u.id}`], ["side", u.side], ["type", u.type +
      (data.spec.types[u.type] && data.spec.types[u.type].title ? ` (${data.spec.types[u.type].title})` : "")],
      ["where", where], ["face", u.face], ["hits", u.hits], ["points", u.points]];
    if (list(u.groups).length) rows.push(["groups", list(u.groups).join(", ")]);
    for (const k of Object.keys(u.values).sort()) rows.push([`value ${k}`, fmtValue(u.values[k])]);
    for (const k of Object.keys(u.markers).sort()) rows.push([`marker ${k}`, u.markers[k]]);
    const cargo = cargoOf(state, u.id);
    if (cargo.length) rows.push(["cargo", cargo.map((c) => c.name).join(", ")]);
    const dl = document.createElement("dl");
    for (const [k, v] of rows) {
      const dt = document.createElement("dt"); dt.textContent = k;
      const dd = document.createElement("dd"); dd.textContent = fmtValue(v);
      dl.append(dt, dd);
    }
    box.replaceChildren(dl);
  }

  // ---- stepping
  function show(i, opts) {
    i = Math.max(0, Math.min(steps.length - 1, i));
    cur = i;
    const step = steps[i], state = states[i];
    ownersLayer.innerHTML = data.svgs[state.owners - 1] || "";
    pathsLayer.innerHTML = data.svgs[(step.paths || 1) - 1] || "";
    drawCounters(state);
    statusRows(state, step);
    offBoard(state);
    narration(step);
    unitPanel(state);
    $("slider").value = String(i);
    $("step-label").textContent = `step ${i} of ${steps.length - 1}`;
    $("prev").disabled = i === 0;
    $("next").disabled = i === steps.length - 1;
    const items = $("timeline-list").children;
    for (let k = 0; k < items.length; k++) items[k].classList.toggle("current", k === i);
    const tl = $("timeline-list"), item = items[i];   // scroll the list only, not the page
    if (item && (item.offsetTop < tl.scrollTop || item.offsetTop + item.offsetHeight > tl.scrollTop + tl.clientHeight)) {
      tl.scrollTop = item.offsetTop - tl.clientHeight / 2;
    }
    if ($("follow").checked && !(opts && opts.noFollow)) follow(step);
    history.replaceState(null, "", `#step=${i}`);
    document.body.dataset.step = String(i);
  }

  // ---- zoom and pan (the SVG viewBox)
  let vb = full.slice();
  function setView(x, y, w, h) {
    vb = [x, y, w, h];
    svg.setAttribute("viewBox", vb.map((v) => v.toFixed(1)).join(" "));
  }
  function fitBox(x0, y0, x1, y1, pad) {
    const r = board.getBoundingClientRect();
    const aspect = r.width > 0 && r.height > 0 ? r.width / r.height : 1.4;
    let w = x1 - x0 + 2 * pad, h = y1 - y0 + 2 * pad;
    if (w / h < aspect) w = h * aspect; else h = w / aspect;
    setView((x0 + x1) / 2 - w / 2, (y0 + y1) / 2 - h / 2, w, h);
  }
  function bbox(labels) {
    let b = null;
    for (const l of labels) {
      const p = data.hexes[l];
      if (!p) continue;
      b = b ? [Math.min(b[0], p[0]), Math.min(b[1], p[1]), Math.max(b[2], p[0]), Math.max(b[3], p[1])] : [p[0], p[1], p[0], p[1]];
    }
    return b;
  }
  function actionLabels() {
    const ls = new Set();
    for (const st of states) for (const u of Object.values(st.units)) if (u.hex) ls.add(u.hex);
    return ls;
  }
  // Frame every hex a unit stands on in the game; when that would make the
  // counters smaller than MIN_PX on screen, centre on where the game moves
  // (the median of the hexes moves went through) at that size instead; never show
  // them larger than MAX_PX.
  const MIN_PX = 60, MAX_PX = 96;
  function fitAction() {
    const labels = actionLabels();
    const b = bbox(labels);
    if (!b) { fitBox(full[0], full[1], full[0] + full[2], full[1] + full[3], 0); return; }
    fitBox(b[0], b[1], b[2], b[3], data.size * 3);
    const r = board.getBoundingClientRect();
    if (r.width <= 0) return;
    if (W * r.width / vb[2] > MAX_PX) {   // a few units close together: not larger than MAX_PX
      const w = W * r.width / MAX_PX, h = w * r.height / r.width;
      setView((b[0] + b[2]) / 2 - w / 2, (b[1] + b[3]) / 2 - h / 2, w, h);
      return;
    }
    if (W * r.width / vb[2] >= MIN_PX) return;
    // the hexes moves went through, or else where units stand
    const xs = [], ys = [];
    const add = (l) => { const p = l && data.hexes[l]; if (p) { xs.push(p[0]); ys.push(p[1]); } };
    for (const st of steps) list(st.moved).forEach(add);
    if (xs.length === 0) for (const st of states) for (const u of Object.values(st.units)) add(u.hex);
    xs.sort((p, q) => p - q);
    ys.sort((p, q) => p - q);
    const cx = xs[xs.length >> 1], cy = ys[ys.length >> 1];
    const w = W * r.width / MIN_PX, h = w * r.height / r.width;
    setView(cx - w / 2, cy - h / 2, w, h);
  }
  // bring what moved in this step into view (the view moves only when it must)
  function follow(step) {
    const labels = list(step.moved).slice();
    for (const u of Object.values(step.units || {})) if (u.hex) labels.push(u.hex);
    const b = bbox(labels);
    if (!b) return;
    const m = data.size;
    if (b[0] - m >= vb[0] && b[2] + m <= vb[0] + vb[2] && b[1] - m >= vb[1] && b[3] + m <= vb[1] + vb[3]) return;
    if (b[2] - b[0] + 4 * m > vb[2] || b[3] - b[1] + 4 * m > vb[3]) { fitBox(b[0], b[1], b[2], b[3], 2 * m); return; }
    setView((b[0] + b[2]) / 2 - vb[2] / 2, (b[1] + b[3]) / 2 - vb[3] / 2, vb[2], vb[3]);
  }
  function zoom(f, px, py) {
    const r = board.getBoundingClientRect();
    const pt = svg.createSVGPoint();
    pt.x = px === undefined ? r.left + r.width / 2 : px;
    pt.y = py === undefined ? r.top + r.height / 2 : py;
    const m = svg.getScreenCTM();
    const p = m ? pt.matrixTransform(m.inverse()) : { x: vb[0] + vb[2] / 2, y: vb[1] + vb[3] / 2 };
    const w = Math.min(Math.max(vb[2] / f, data.size * 2), full[2] * 3);
    const h = vb[3] * (w / vb[2]);
    setView(p.x - (p.x - vb[0]) * (w / vb[2]), p.y - (p.y - vb[1]) * (h / vb[3]), w, h);
  }
  board.addEventListener("wheel", (ev) => { ev.preventDefault(); zoom(ev.deltaY < 0 ? 1.2 : 1 / 1.2, ev.clientX, ev.clientY); }, { passive: false });
  let drag = null;
  board.addEventListener("pointerdown", (ev) => {
    if (ev.target.closest(".stack") || ev.target.closest("button")) return;
    drag = { x: ev.clientX, y: ev.clientY, vb: vb.slice() };
    board.classList.add("panning");
    board.setPointerCapture(ev.pointerId);
  });
  board.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const r = board.getBoundingClientRect();
    const s = Math.max(drag.vb[2] / r.width, drag.vb[3] / r.height);
    setView(drag.vb[0] - (ev.clientX - drag.x) * s, drag.vb[1] - (ev.clientY - drag.y) * s, drag.vb[2], drag.vb[3]);
  });
  const endDrag = () => { drag = null; board.classList.remove("panning"); };
  board.addEventListener("pointerup", endDrag);
  board.addEventListener("pointercancel", endDrag);
  board.addEventListener("click", (ev) => {
    if (!ev.target.closest(".stack") && pinned !== null) { pinned = null; drawCounters(states[cur]); }
  });

  // ---- controls
  const timeline = $("timeline-list");
  steps.forEach((s, i) => {
    const li = document.createElement("li");
    const n = document.createElement("span");
    n.className = "n";
    n.textContent = String(i);
    li.append(n, document.createTextNode(s.title));
    li.title = s.title;
    li.addEventListener("click", () => show(i));
    timeline.appendChild(li);
  });
  $("slider").max = String(steps.length - 1);
  $("slider").addEventListener("input", (ev) => show(Number(ev.target.value), { noScroll: false }));
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(cur - 1));
  $("next").addEventListener("click", () => show(cur + 1));
  $("last").addEventListener("click", () => show(steps.length - 1));
  $("zoom-in").addEventListener("click", () => zoom(1.25));
  $("zoom-out").addEventListener("click", () => zoom(1 / 1.25));
  $("fit-action").addEventListener("click", fitAction);
  $("fit-map").addEventListener("click", () => fitBox(full[0], full[1], full[0] + full[2], full[1] + full[3], 0));
  $("show-cargo").addEventListener("change", (ev) => { showCargo = ev.target.checked; drawCounters(states[cur]); });
  const showChanges = () => $("narration").classList.toggle("hide-changes", !$("show-changes").checked);
  $("show-changes").addEventListener("change", showChanges);
  showChanges();
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement && ev.target.type !== "checkbox" && ev.target.type !== "range") return;
    const k = ev.key;
    if (k === "ArrowRight" || k === "ArrowDown") show(cur + 1);
    else if (k === "ArrowLeft" || k === "ArrowUp") show(cur - 1);
    else if (k === "PageDown") show(cur + 10);
    else if (k === "PageUp") show(cur - 10);
    else if (k === "Home") show(0);
    else if (k === "End") show(steps.length - 1);
    else if (k === "+" || k === "=") zoom(1.25);
    else if (k === "-") zoom(1 / 1.25);
    else return;
    ev.preventDefault();
  });
  window.addEventListener("hashchange", () => {
    const m = /step=(\d+)/.exec(location.hash);
    if (m && Number(m[1]) !== cur) show(Number(m[1]));
  });

  // the page's API, for scripts and tests: step, and what is shown
  window.keelView = { show, step: () => cur, count: steps.length, zoom, fitAction };

  fitAction();
  // the opening frame shows where the units stand at the setup, when the
  // game's moves are elsewhere (the Crete convoy waits in Alexandria)
  const atSetup = bbox(Object.values(states[0].units).map((u) => u.hex).filter(Boolean));
  if (atSetup && !(atSetup[2] >= vb[0] && atSetup[0] <= vb[0] + vb[2] && atSetup[3] >= vb[1] && atSetup[1] <= vb[1] + vb[3])) {
    fitBox(atSetup[0], atSetup[1], atSetup[2], atSetup[3], data.size * 3);
  }
  const m = /step=(\d+)/.exec(location.hash);
  show(m ? Number(m[1]) : 0, { noFollow: true });
  document.body.dataset.ready = "1";
})();

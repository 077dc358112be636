// The arena's replay viewer: draws one game from the data the Go package
// embeds in the page (package viewer, data.go: positions as deltas of
// views). No network, no external files; every string from the replay
// reaches the page as text (textContent), never as markup.
(function () {
  "use strict";

  const t0 = performance.now();
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const parseMs = performance.now() - t0;
  const N = D.frames.length; // positions: 0 is the start, p the state after move p-1
  const seats = D.bots.length;
  const onePage = D.for >= 0;

  // ---- positions ---------------------------------------------------------

  // apply returns the view fields after delta d (0: unchanged).
  function apply(prev, d) {
    if (!d) return prev;
    const next = Object.assign({}, prev);
    if (d.s) Object.assign(next, d.s);
    if (d.a) for (const k in d.a) next[k] = (prev[k] || []).concat(d.a[k]);
    if (d.d) for (const k of d.d) delete next[k];
    return next;
  }

  // States are arrays of field objects, the public view first, then the
  // stored seats' parts. Checkpoints every EVERY positions make a jump
  // cost at most EVERY deltas; stepping on from the shown state costs one.
  const EVERY = 64;
  const checkpoints = new Map();
  let shownPos = -1;
  let shownState = null;

  function step(state, pos) {
    const f = D.frames[pos];
    return state.map((v, i) => apply(v, f[i]));
  }

  function stateAt(pos) {
    if (pos === shownPos) return shownState;
    let at, st;
    if (shownState && pos > shownPos && pos - shownPos <= EVERY) {
      at = shownPos;
      st = shownState;
    } else {
      at = Math.floor(pos / EVERY) * EVERY;
      while (at > 0 && !checkpoints.has(at)) at -= EVERY;
      st = checkpoints.get(at);
      if (!st) {
        st = step(D.frames[0].map(() => ({})), 0);
        checkpoints.set(0, st);
      }
    }
    while (at < pos) {
      at++;
      st = step(st, at);
      if (at % EVERY === 0 && !checkpoints.has(at)) checkpoints.set(at, st);
    }
    return st;
  }

  // viewOf is the view of seat (-1: public) in state, null if not stored.
  function viewOf(state, seat) {
    if (seat < 0) return state[0];
    const i = D.stored.indexOf(seat);
    if (i < 0) return null;
    const part = state[1 + i];
    const v = Object.assign({}, state[0], part);
    // A seat's "events" are only those the public view lacks (data.go).
    if (part.events) v.events = (state[0].events || []).concat(part.events);
    for (const k of v["$absent"] || []) delete v[k];
    delete v["$absent"];
    return v;
  }

  // The game's drawing (draw.js, before this script in the page).
  const { el, seatName, renderJSON, renderers } = arenaDraw(D.bots);

  function us(n) {
    if (n >= 1e6) return (n / 1e6).toFixed(n >= 1e7 ? 1 : 2) + " s";
    if (n >= 1000) return (n / 1000).toFixed(n >= 1e4 ? 0 : 1) + " ms";
    return n + " µs";
  }

  // ---- the page ----------------------------------------------------------

  const modeSel = el("select", { id: "view", title: "whose view (v)" });
  if (!onePage) modeSel.append(el("option", { value: "all", text: "every seat, all hands" }));
  modeSel.append(el("option", { value: "public", text: "public view" }));
  for (const s of D.stored) modeSel.append(el("option", { value: "seat" + s, text: "as " + seatName(s) + " saw it" }));
  modeSel.value = onePage ? "seat" + D.for : "all";

  const speedSel = el("select", { id: "speed", title: "speed (+/-)" });
  for (const [ms, label] of [[1000, "1 move/s"], [500, "2 moves/s"], [250, "4 moves/s"], [100, "10 moves/s"], [40, "25 moves/s"], [10, "100 moves/s"]]) {
    speedSel.append(el("option", { value: ms, text: label }));
  }
  speedSel.value = "250";

  const btn = (id, text, title) => el("button", { id, type: "button", title, text });
  const bFirst = btn("first", "|◀", "start (Home)");
  const bPrev = btn("prev", "◀", "back (←)");
  const bPlay = btn("play", "▶ play", "play / pause (space)");
  const bNext = btn("next", "▶", "forward (→)");
  const bLast = btn("last", "▶|", "end (End)");
  const jump = el("input", { id: "jump", type: "number", min: 0, max: N - 1, value: 0, title: "go to ply (g, Enter)" });
  const scrub = el("input", { id: "scrub", type: "range", min: 0, max: N - 1, value: 0, title: "position" });
  const posText = el("span", { id: "pos" });

  const title = el("h1", { id: "title" }, D.game + " " + (D.game_id || ""), " ",
    el("span", { class: "bots" }, D.bots.map((b, i) => i + ": " + b).join("  ·  ")));
  const meta = [];
  if (D.match) meta.push("match " + D.match);
  if (D.seed) meta.push("seed " + D.seed);
  if (D.started) meta.push("started " + D.started);
  if (D.arena) meta.push("arena " + D.arena);
  const opts = Object.keys(D.options || {}).sort().map((k) => k + "=" + D.options[k]).join(" ");
  if (opts) meta.push("options " + opts);
  if (onePage) meta.push("written for " + seatName(D.for) + ": the other seats' hidden cards and decisions are not in this file");

  const board = el("div", { id: "board" });
  const status = el("div", { id: "status" });
  const movesList = el("ol", { id: "moves" });
  const outcome = el("div", { id: "outcome" });

  document.body.append(
    el("header", null, title, el("div", { id: "meta", text: meta.join("  ·  ") })),
    el("nav", { id: "controls" }, bFirst, bPrev, bPlay, bNext, bLast, posText, scrub,
      el("label", null, "ply ", jump), speedSel, el("label", null, "view ", modeSel),
      el("span", { class: "keys", text: "keys: ← → Home End space g v + −" })),
    el("main", null,
      el("section", { id: "table" }, status, board),
      el("aside", null, outcome, el("h2", { text: "moves" }), movesList)),
  );

  // ---- outcome and moves (always visible) --------------------------------

  // The outcome (who won, and why) shows at the last ply only, where the
  // game ended: before it, a line says where it is, so a game watched
  // from the start keeps its end.
  const result = el("div", { id: "result" });
  const later = el("div", { id: "outcome-later", class: "dim", text: "shown at the end of the game, ply " + (N - 1) + " (End)" });
  (function drawOutcome() {
    const r = D.result;
    outcome.append(el("h2", { text: "outcome" }), later, result);
    result.append(el("div", { id: "reason", text: r.reason || "-" }));
    const forfeit = {};
    for (const f of r.forfeits || []) forfeit[f.seat] = f;
    const tb = el("table", { id: "ranks" }, el("tr", null, el("th", { text: "rank" }), el("th", { text: "score" }), el("th", { text: "seat" })));
    const order = [...Array(seats).keys()].sort((a, b) => (r.ranks[a] || 0) - (r.ranks[b] || 0));
    for (const s of order) {
      const f = forfeit[s];
      tb.append(el("tr", { "data-seat": s },
        el("td", { text: r.ranks[s] }), el("td", { text: r.scores[s] }),
        el("td", null, seatName(s), f ? el("span", { class: "forfeit", text: " forfeit: " + f.reason + (f.detail ? " (" + f.detail + ")" : "") }) : null)));
    }
    result.append(tb);
    if (r.plies) result.append(el("div", { class: "dim", text: r.plies + " plies" }));
  })();

  // The move list of a long game (tens of thousands of entries) is built
  // in slices after the first position is drawn, so the page paints at
  // once and stays responsive; body[data-moves="1"] once it is complete.
  const moveItems = new Array(N); // moveItems[p]: the list item that leads to position p
  const noteText = (n) => "! " + n.type + ": " + seatName(n.seat) + " " + n.reason + (n.detail ? ": " + n.detail : "");
  function moveItem(p) {
    if (p === 0) return el("li", { class: "move", "data-pos": 0 }, el("span", { class: "n", text: "0" }), el("span", { class: "who", text: "start" }));
    const m = D.moves[p - 1];
    return el("li", { class: "move", "data-pos": p },
      el("span", { class: "n", text: p }), el("span", { class: "who", text: seatName(m.seat) }), " ",
      el("span", { class: "act", text: m.text }), " ",
      el("span", { class: "think", text: us(m.think_us) }),
      m.referee ? el("span", { class: "ref", text: " by referee" }) : null,
      botNote(m));
  }
  // botNote is what the bot said with move m, as text (a note is the bot's,
  // untrusted: never markup), or null.
  function botNote(m) {
    if (m.note !== undefined) return el("div", { class: "bot-note", text: typeof m.note === "string" ? m.note : JSON.stringify(m.note) });
    if (m.note_dropped) return el("div", { class: "bot-note dropped", text: "note dropped: " + m.note_dropped });
    return null;
  }
  const SLICE = 500;
  let listed = 0; // positions listed so far
  let notesListed = 0;
  function listMoves() {
    const frag = document.createDocumentFragment();
    const until = Math.min(N, listed + SLICE);
    for (; listed < until; listed++) {
      while (notesListed < D.notes.length && D.notes[notesListed].pos < listed) {
        frag.append(el("li", { class: "note " + D.notes[notesListed].type }, noteText(D.notes[notesListed++])));
      }
      moveItems[listed] = frag.appendChild(moveItem(listed));
    }
    if (listed === N) {
      for (; notesListed < D.notes.length; notesListed++) {
        frag.append(el("li", { class: "note " + D.notes[notesListed].type }, noteText(D.notes[notesListed])));
      }
    }
    movesList.append(frag);
    if (pos < listed) markMove(pos);
    if (listed < N) setTimeout(listMoves, 0);
    else document.body.dataset.moves = "1";
  }
  movesList.addEventListener("click", (e) => {
    const li = e.target.closest("li.move");
    if (li) { stop(); show(+li.dataset.pos); }
  });
  function markMove(p) {
    const old = movesList.querySelector("li.current");
    if (old) old.classList.remove("current");
    const li = moveItems[p];
    if (!li) return;
    li.classList.add("current");
    // Only the list scrolls to the move: scrollIntoView would scroll the
    // page too, and a link to a ply (#ply=60) would open with the title
    // scrolled away under the toolbar.
    const box = li.getBoundingClientRect(), list = movesList.getBoundingClientRect();
    const top = list.top + movesList.clientTop, bottom = top + movesList.clientHeight;
    if (box.top < top) movesList.scrollTop -= top - box.top;
    else if (box.bottom > bottom) movesList.scrollTop += box.bottom - bottom;
  }

  // ---- drawing the position ----------------------------------------------

  // seatsShown is, for the current mode, the seat whose view is drawn
  // (-1 public) and which seats' private views are open.
  function modeInfo() {
    const v = modeSel.value;
    if (v === "all") return { viewer: -1, open: D.stored.slice(), all: true };
    if (v === "public") return { viewer: -1, open: [], all: false };
    const s = +v.slice(4);
    return { viewer: s, open: [s], all: false };
  }

  let pos = 0;

  function show(p) {
    p = Math.max(0, Math.min(N - 1, p | 0));
    const state = stateAt(p);
    shownPos = p;
    shownState = state;
    pos = p;
    const mi = modeInfo();
    const pub = viewOf(state, -1);
    const views = new Array(seats).fill(null);
    for (const s of mi.open) views[s] = viewOf(state, s);
    const ctx = { pub, views, viewer: mi.viewer, all: mi.all, main: mi.viewer >= 0 ? views[mi.viewer] : pub, pos: p };
    const draw = renderers[D.game] || renderJSON;
    board.replaceChildren(draw(ctx));
    drawStatus(p);
    result.hidden = p !== N - 1;
    later.hidden = !result.hidden;
    posText.textContent = "ply " + p + " / " + (N - 1);
    jump.value = p;
    scrub.value = p;
    markMove(p);
    document.body.dataset.pos = p;
  }

  function drawStatus(p) {
    status.replaceChildren();
    if (p === 0) {
      status.append(el("span", { id: "last-move", text: "start of the game" }));
    } else {
      const m = D.moves[p - 1];
      status.append(el("span", { id: "last-move" }, "ply " + p + ": " + seatName(m.seat) + " played ",
        el("b", { text: m.text }), " in " + us(m.think_us) + (m.referee ? " (by the referee)" : "")));
      const said = botNote(m);
      if (said) status.append(said);
    }
    for (const n of D.notes) {
      if (n.pos === p - 1 || (p === N - 1 && n.pos >= p)) {
        status.append(el("div", { class: "note " + n.type, text: n.type + ": " + seatName(n.seat) + " " + n.reason + (n.detail ? ": " + n.detail : "") }));
      }
    }
    if (p === N - 1) status.append(el("div", { id: "final", text: "game over: " + (D.result.reason || "-") }));
  }

  // ---- controls -----------------------------------------------------------

  let timer = null;
  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    bPlay.textContent = "▶ play";
    document.body.dataset.playing = "";
  }
  function play() {
    if (timer) return stop();
    if (pos >= N - 1) show(0);
    bPlay.textContent = "⏸ pause";
    document.body.dataset.playing = "1";
    timer = setInterval(() => {
      if (pos >= N - 1) return stop();
      show(pos + 1);
    }, +speedSel.value);
  }
  function speed(by) {
    const i = Math.max(0, Math.min(speedSel.options.length - 1, speedSel.selectedIndex + by));
    speedSel.selectedIndex = i;
    if (timer) { stop(); play(); }
  }

  bFirst.addEventListener("click", () => { stop(); show(0); });
  bPrev.addEventListener("click", () => { stop(); show(pos - 1); });
  bNext.addEventListener("click", () => { stop(); show(pos + 1); });
  bLast.addEventListener("click", () => { stop(); show(N - 1); });
  bPlay.addEventListener("click", play);
  speedSel.addEventListener("change", () => { if (timer) { stop(); play(); } });
  modeSel.addEventListener("change", () => show(pos));
  scrub.addEventListener("input", () => { stop(); show(+scrub.value); });
  jump.addEventListener("change", () => { stop(); show(+jump.value); });
  jump.addEventListener("keydown", (e) => { if (e.key === "Enter") { stop(); show(+jump.value); jump.blur(); } });

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    switch (e.key) {
      case "ArrowRight": stop(); show(pos + 1); break;
      case "ArrowLeft": stop(); show(pos - 1); break;
      case "Home": stop(); show(0); break;
      case "End": stop(); show(N - 1); break;
      case " ": play(); break;
      case "+": case "=": speed(1); break;
      case "-": speed(-1); break;
      case "g": jump.focus(); jump.select(); break;
      case "v": modeSel.focus(); break;
      default: return;
    }
    e.preventDefault();
  });

  // A link may name a position and a view: page.html#ply=40&view=seat1.
  function fromHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    const v = h.get("view");
    if (v && [...modeSel.options].some((o) => o.value === v)) modeSel.value = v;
    const p = h.get("ply");
    return p === null ? 0 : +p;
  }
  window.addEventListener("hashchange", () => show(fromHash()));

  show(fromHash());
  listMoves();
  document.body.dataset.ready = "1";
  window.viewerTimings = { parseMs, readyMs: performance.now() - t0, positions: N };
})();

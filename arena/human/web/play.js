// The page of a person's seat (arena play --web): the game drawn as the
// replay viewer draws it (draw.js, before this script), from the seat's
// own views only, as the server's feed sends them; the person's move
// taken by a click on a card, a square or a listed choice (only legal
// actions are offered). No network but this page's server; every string
// from the game reaches the page as text, never as markup.
(function () {
  "use strict";

  const base = location.pathname.replace(/[^/]*$/, ""); // "/KEY/"
  let draw = arenaDraw([]);
  const el = draw.el;

  // ---- the page ----------------------------------------------------------

  const title = el("h1", { id: "title", text: "arena play" });
  const players = el("span", { class: "bots", id: "players" });
  const statusLine = el("span", { id: "state", text: "connecting…" });
  const clock = el("span", { id: "clock" });
  const leaveBtn = el("button", { id: "leave", type: "button", text: "leave the game", title: "a forfeit, as q at the terminal" });
  const board = el("div", { id: "board" });
  const ask = el("div", { id: "ask" });
  const choices = el("div", { id: "choices" });
  const log = el("ol", { id: "log" });
  const results = el("div", { id: "results" });
  document.body.append(
    el("header", null, el("div", null, title, " ", players)),
    el("nav", { id: "controls" }, statusLine, clock, leaveBtn),
    el("main", null,
      el("section", { id: "table" }, el("div", { id: "status" }, ask, choices), board),
      el("aside", null, el("div", { id: "outcome" }, el("h2", { text: "results" }), results),
        el("h2", { text: "what happened" }), log)));

  // ---- what the page knows ----------------------------------------------

  let hello = null; // the game's hello: game, seat, players, timed
  let view = null; // the seat's last view
  let turn = null; // the turn waiting for the person: id, legal, texts, move_ms
  let sent = false; // the person's move for turn is on its way
  let sel = null; // Banqi: the square whose piece is picked up
  let picking = null; // indices of the legal actions a click left to choose from
  let clockEnd = 0;
  let lastSeen = ""; // Banqi: the last move logged

  function say(text, cls) {
    log.append(el("li", { class: cls || "", text }));
    while (log.children.length > 500) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  }

  // logView says what the others did, from the seat's view: Uno's and
  // Boon's events since the seat's last decision, Banqi's last move.
  function logView(v) {
    if (!hello || !v) return;
    if (hello.game === "banqi") {
      if (v.last && v.last !== lastSeen) say("last move: " + v.last);
      lastSeen = v.last || "";
      return;
    }
    const text = hello.game === "boon" ? draw.boonEvent : draw.unoEvent;
    for (const e of v.events || []) say(text(e), "event");
  }

  // ---- drawing -----------------------------------------------------------

  function redraw() {
    document.body.dataset.state = !hello ? "" : turn ? (sent ? "sent" : "turn") : hello.over ? "over" : "wait";
    document.body.dataset.turn = turn ? turn.id : "";
    leaveBtn.hidden = !hello || hello.over;
    if (!hello || !view) {
      board.replaceChildren();
      choices.replaceChildren();
      return;
    }
    const me = hello.seat;
    const views = hello.players.map((_, s) => (s === me ? view : null));
    const ctx = { pub: view, views, viewer: me, all: false, main: view, pos: 0 };
    const render = draw.renderers[hello.game] || draw.renderJSON;
    board.replaceChildren(render(ctx));
    drawChoices();
    if (turn && !sent) clickable();
  }

  function drawChoices() {
    choices.replaceChildren();
    if (!turn) {
      ask.textContent = hello.over ? "the game is over" : "waiting for the others…";
      return;
    }
    if (sent) {
      ask.textContent = "your move is sent…";
      return;
    }
    ask.textContent = picking ? "choose one:" : "your move: click a highlighted card or square, or a choice";
    const shown = picking || turn.legal.map((_, i) => i);
    for (const i of shown) {
      const b = el("button", { type: "button", class: "choice", "data-index": i, text: turn.texts[i] });
      b.addEventListener("click", () => submit(i));
      choices.append(b);
    }
    if (picking) {
      const all = el("button", { type: "button", class: "all", text: "every choice" });
      all.addEventListener("click", () => { picking = null; redraw(); });
      choices.append(all);
    }
  }

  // clickable marks the board's elements that stand for legal actions
  // (class "legal") and makes them take the move.
  function clickable() {
    const acts = turn.legal;
    if (hello.game === "banqi") return banqiClicks(acts);
    const hand = board.querySelector("#seat-" + hello.seat + " .hand");
    if (!hand) return;
    for (const card of hand.querySelectorAll("[data-card]")) {
      const c = card.dataset.card;
      const idx = [];
      acts.forEach((a, i) => { if (a.card === c && (a.type === "play" || a.type === "bury" || a.type === "jump")) idx.push(i); });
      if (!idx.length) { card.classList.add("unplayable"); continue; }
      on(card, () => choose(idx));
    }
  }

  // choose takes the one action of a click, or lists the several it may
  // mean (a Wild's colours, a 7's targets) to pick from; a play that
  // leaves one card is made with the call when both are listed.
  function choose(idx) {
    const called = idx.filter((i) => turn.legal[i].uno);
    if (called.length === 1 && idx.length === 2) idx = called;
    if (idx.length === 1) return submit(idx[0]);
    picking = idx;
    redraw();
  }

  function banqiClicks(acts) {
    const flips = new Map(), from = new Map();
    acts.forEach((a, i) => {
      if (a.type === "flip") flips.set(a.square, i);
      else if (a.from) {
        if (!from.has(a.from)) from.set(a.from, []);
        from.get(a.from).push({ to: a.to, i });
      }
    });
    const targets = new Map();
    if (sel) for (const m of from.get(sel) || []) targets.set(m.to, m.i);
    for (const cell of board.querySelectorAll("[data-square]")) {
      const sq = cell.dataset.square;
      if (targets.has(sq)) {
        cell.classList.add("target");
        on(cell, () => submit(targets.get(sq)));
      } else if (sq === sel) {
        cell.classList.add("selected");
        on(cell, () => { sel = null; redraw(); });
      } else if (flips.has(sq)) {
        on(cell, () => submit(flips.get(sq)));
      } else if (from.has(sq)) {
        on(cell, () => { sel = sq; redraw(); });
      }
    }
  }

  function on(elem, fn) {
    elem.classList.add("legal");
    elem.tabIndex = 0;
    elem.addEventListener("click", fn);
    elem.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(); } });
  }

  function submit(i) {
    if (!turn || sent) return;
    sent = true;
    const t = turn;
    redraw();
    fetch(base + "act", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ id: t.id, index: i }) })
      .then((r) => (r.ok ? null : r.text()))
      .catch((e) => String(e))
      .then((problem) => {
        if (problem === null || turn !== t) return;
        sent = false;
        say("not taken: " + problem, "problem");
        redraw();
      });
  }

  leaveBtn.addEventListener("click", () => {
    if (!confirm("Leave the game? It counts as a forfeit.")) return;
    fetch(base + "leave", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
  });

  // ---- the clock ---------------------------------------------------------

  function tick() {
    if (!turn || sent) { clock.textContent = ""; return; }
    const left = (clockEnd - performance.now()) / 1000;
    if (left > 0) clock.textContent = "your clock: " + left.toFixed(1) + " s" + (hello.timed ? "" : " (not enforced: arena play --timed plays on it)");
    else clock.textContent = hello.timed ? "your clock: out of time" : "no limit: take your time";
    clock.className = left < 5 && hello.timed ? "low" : "";
  }
  setInterval(tick, 100);

  // ---- the feed ----------------------------------------------------------

  function reset() {
    hello = view = turn = null;
    sent = false;
    log.replaceChildren();
    results.replaceChildren();
  }

  const handlers = {
    hello(m) {
      hello = m;
      hello.over = false;
      draw = arenaDraw(m.players);
      view = turn = null;
      sel = picking = null;
      lastSeen = "";
      title.textContent = m.game + " " + m.game_id;
      players.textContent = m.players.map((p, s) => s + ": " + (s === m.seat ? p + " (you)" : p)).join("  ·  ");
      say("game " + m.game_id + " begins: you are seat " + m.seat + " of " + m.players.length, "game");
    },
    turn(m) {
      view = m.view;
      logView(view);
      turn = m;
      sent = false;
      sel = picking = null;
      clockEnd = performance.now() + m.move_ms;
    },
    chosen(m) {
      if (turn && turn.id === m.id) say("you played " + turn.texts[m.index], "mine");
      turn = null;
    },
    timeout() { say("you ran out of time: the referee's rule for a timeout applies", "problem"); turn = null; },
    left() { say("you left the game", "problem"); turn = null; },
    end(m) {
      view = m.view;
      logView(view);
      turn = null;
      if (hello) hello.over = true;
      say("game over: " + m.reason, "game");
    },
    result(m) { results.append(el("div", { class: "result", "data-game": m.game_id }, ...m.lines.map((l) => el("div", { text: l })))); },
    say(m) { results.append(el("div", { class: "said" }, ...m.lines.map((l) => el("div", { text: l })))); },
    bye() { say("the match is over", "game"); },
  };

  const feed = new EventSource(base + "events");
  feed.addEventListener("open", () => { statusLine.textContent = "connected"; });
  feed.addEventListener("error", () => { statusLine.textContent = "reconnecting…"; });
  feed.addEventListener("reset", () => { reset(); redraw(); });
  feed.addEventListener("closed", () => { feed.close(); statusLine.textContent = "the arena has stopped: nothing more will come"; turn = null; redraw(); });
  feed.addEventListener("message", (e) => {
    const m = JSON.parse(e.data);
    const h = handlers[m.type];
    if (h) h(m);
    statusLine.textContent = turn ? "your turn" : hello && hello.over ? "game over" : "waiting";
    redraw();
  });
  document.body.dataset.ready = "1";
})();

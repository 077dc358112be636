// The drawing of one view of a game, shared by the replay viewer
// (viewer.js) and the page of a person's seat (arena play --web, package
// arena/human/web): the Uno, Bounce and Boon tables with their cards, the
// Banqi board. arenaDraw(bots) returns the drawing functions for a game
// whose seats are played by bots (their names, in seat order). A
// renderer draws ctx.main (the view shown), with ctx.views[s] the views
// of the seats whose hands are open (null for the others) and
// ctx.viewer the seat the view is drawn for (-1: the public). Every
// string from the game reaches the page as text (textContent), never as
// markup.
function arenaDraw(bots) {
  "use strict";

  const seats = bots.length;
  // ---- small DOM helpers -------------------------------------------------

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    if (attrs) {
      for (const k in attrs) {
        if (attrs[k] === undefined || attrs[k] === null || attrs[k] === false) continue;
        if (k === "class") e.className = attrs[k];
        else if (k === "text") e.textContent = attrs[k];
        else e.setAttribute(k, attrs[k]);
      }
    }
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      e.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    }
    return e;
  }

  function seatName(s) {
    if (s >= 0 && s < seats) return "seat " + s + " (" + bots[s] + ")";
    return "seat " + s;
  }

  function renderJSON(ctx) {
    return el("pre", { class: "json", text: JSON.stringify(ctx.main, null, 1) });
  }

  // ---- Uno ----------------------------------------------------------------

  const unoColour = { R: "red", Y: "yellow", G: "green", B: "blue" };
  function unoFace(c) {
    if (c === "W") return "W";
    if (c === "WD4") return "+4";
    const f = c.slice(1);
    return { S: "⊘", R: "⇄", D2: "+2" }[f] || f;
  }
  function unoCard(c, big) {
    const col = c[0] === "W" ? "wild" : unoColour[c[0]];
    return el("span", { class: "card uno-card " + col + (big ? " big" : ""), "data-card": c, title: c, text: unoFace(c) });
  }
  function unoEvent(e) {
    let s = seatName(e.seat) + " " + e.type;
    if (e.type === "reshuffle" || e.type === "deal") s = e.type + (e.n ? " " + e.n : "");
    if (e.card) s += " " + e.card;
    if (e.colour) s += " (" + e.colour + ")";
    if (e.target !== undefined && e.target !== null) s += " → seat " + e.target;
    if (e.n && e.type !== "reshuffle" && e.type !== "deal") s += " " + e.n;
    if (e.why) s += " [" + e.why + "]";
    if (e.uno) s += " uno!";
    if (e.cards) s += ": " + e.cards.join(" ");
    return s;
  }

  function renderUno(ctx) {
    const v = ctx.main;
    const root = el("div", { class: "uno" });
    const dir = v.direction === -1 ? "↺ counter-clockwise" : "↻ clockwise";
    root.append(el("div", { class: "uno-center" },
      el("div", { class: "pile" }, el("div", { class: "label", text: "top" }), el("div", { id: "top", "data-card": v.top }, unoCard(v.top, true))),
      el("div", { class: "facts" },
        el("div", null, "colour ", el("span", { id: "colour", class: "swatch " + (v.colour || "none"), text: v.colour || "none" })),
        el("div", null, "direction ", el("span", { id: "direction", text: dir })),
        el("div", null, "draw pile ", el("span", { id: "draw-pile", text: v.draw_pile })),
        el("div", null, "discard ", el("span", { id: "discard", text: (v.discard || []).length })),
        el("div", null, "hand ", el("span", { id: "hand-no", text: v.hand_no }), ", dealer " + seatName(v.dealer)),
        el("div", null, "to move ", el("span", { id: "to-move", text: v.over ? "-" : seatName(v.to_move) })))));
    const ring = el("div", { class: "seats" });
    for (let s = 0; s < seats; s++) {
      const sv = ctx.views[s];
      const hand = el("div", { class: "hand" });
      if (sv && sv.hand) {
        for (const c of sv.hand) hand.append(unoCard(c));
      } else {
        hand.append(el("span", { class: "backs", text: "🂠 × " + v.counts[s] }));
      }
      const out = (v.finished || []).indexOf(s) >= 0;
      ring.append(el("div", { class: "seat" + (s === v.to_move && !v.over ? " to-move" : "") + (s === ctx.viewer ? " viewer" : ""), id: "seat-" + s, "data-seat": s },
        el("div", { class: "seat-head" }, el("b", { text: seatName(s) }),
          el("span", { class: "count", text: v.counts[s] + " cards" }),
          el("span", { class: "score", text: v.scores[s] + " points" }), out ? el("span", { class: "out", text: "out" }) : null),
        hand));
    }
    root.append(ring);
    if (v.decision && ctx.viewer >= 0) {
      const d = v.decision;
      root.append(el("div", { class: "decision", id: "decision", text: "asked: " + d.kind + (d.card ? " " + d.card : "") + (d.pending ? ", " + d.pending + " pending" : "") }));
    }
    const evs = (v.events || []).map(unoEvent);
    root.append(el("div", { class: "events", id: "events" }, el("span", { class: "label", text: ctx.viewer >= 0 ? "events since " + seatName(ctx.viewer) + "'s last decision: " : "last: " }), evs.join(" · ") || "-"));
    if (v.hands && v.hands.length) {
      const hs = el("div", { class: "hands-done", id: "hands-done" }, el("span", { class: "label", text: "hands: " }));
      for (const h of v.hands) hs.append(el("span", { text: "#" + h.hand + " " + seatName(h.winner) + " (" + h.points.join(" ") + ")  " }));
      root.append(hs);
    }
    return root;
  }

  // ---- Boon ---------------------------------------------------------------

  function boonCard(c) {
    const suit = c.startsWith("Au") ? "Au" : c[0];
    return el("span", { class: "card boon-card s-" + suit, "data-card": c, title: c, text: c });
  }
  function cards(list, cls, id) {
    const d = el("span", { class: "cards " + (cls || ""), id });
    for (const c of list || []) d.append(boonCard(c));
    return d;
  }
  function trickLine(t, id) {
    const d = el("div", { class: "trick", id });
    (t.cards || []).forEach((c, i) => {
      const s = (t.leader + i) % seats;
      d.append(el("span", { class: "played" + (s === t.winner ? " winning" : ""), "data-seat": s }, boonCard(c), el("small", { text: "seat " + s })));
    });
    return d;
  }

  function boonEvent(e) {
    return (e.seat >= 0 ? seatName(e.seat) + " " : "") + e.type + (e.card ? " " + e.card : "");
  }

  function renderBoon(ctx) {
    const v = ctx.main;
    const root = el("div", { class: "boon" });
    root.append(el("div", { class: "facts" },
      el("div", null, "round ", el("span", { id: "round", text: v.round }), ", dealer " + seatName(v.dealer) + ", phase ", el("span", { id: "phase", text: v.phase })),
      el("div", null, "mode ", el("span", { id: "mode", text: v.mode }), ", picker ", el("span", { id: "picker", text: v.picker >= 0 ? seatName(v.picker) : "none" })),
      el("div", null, "the Boon: ", v.boon ? cards(v.boon, "", "boon") : el("span", { id: "boon", text: v.boon_size + " cards face down" }),
        v.buried ? el("span", null, "  buried: ", cards(v.buried, "", "buried")) : null),
      el("div", null, "to move ", el("span", { id: "to-move", text: v.to_move >= 0 ? seatName(v.to_move) : "-" }), ctx.viewer >= 0 && v.decision !== "wait" && v.decision !== "none" ? " (asked: " + v.decision + ")" : "")));
    const ring = el("div", { class: "seats" });
    for (let s = 0; s < seats; s++) {
      const sv = ctx.views[s];
      let role = "";
      if (v.picker === s) role = "picker";
      else if (v.picker >= 0) role = "defender";
      const hand = el("div", { class: "hand" });
      if (sv && sv.hand) for (const c of sv.hand) hand.append(boonCard(c));
      else hand.append(el("span", { class: "backs", text: "🂠 × " + v.hand_sizes[s] }));
      const extra = [];
      if (sv && sv.boon && ctx.viewer !== s) extra.push(el("div", { class: "dim" }, "Boon: ", cards(sv.boon)));
      if (sv && sv.buried && ctx.viewer !== s) extra.push(el("div", { class: "dim" }, "buried: ", cards(sv.buried)));
      ring.append(el("div", { class: "seat" + (s === v.to_move ? " to-move" : "") + (s === ctx.viewer ? " viewer" : ""), id: "seat-" + s, "data-seat": s },
        el("div", { class: "seat-head" }, el("b", { text: seatName(s) }), role ? el("span", { class: "role", text: role }) : null,
          el("span", { class: "vc", text: v.vc[s] + " VC" }),
          el("span", { text: v.tricks_won[s] + " tricks, " + v.trick_points[s] + " points" })),
        hand, ...extra));
    }
    root.append(ring);
    root.append(el("div", { class: "current-trick" }, el("span", { class: "label", text: "trick " + v.trick_no + (v.trick.led ? " (led " + v.trick.led + ")" : "") + ": " }),
      trickLine(v.trick, "trick"), v.trick.winner >= 0 ? el("span", { class: "dim", text: "winning: seat " + v.trick.winner }) : null));
    // The last trick taken: a round's last one reaches the views through
    // the events only (the next round is dealt at once).
    let won = null;
    for (const e of v.events || []) if (e.type === "trick") won = e.seat;
    const done = v.tricks || [];
    if (won === null && done.length) won = done[done.length - 1].winner;
    root.append(el("div", null, el("span", { class: "label", text: "last trick won by: " }), el("span", { id: "trick-winner", text: won === null ? "-" : seatName(won) })));
    if (done.length) {
      const list = el("div", { class: "tricks", id: "tricks" });
      done.forEach((t, i) => list.append(el("div", null, el("span", { class: "label", text: "trick " + (i + 1) + " → seat " + t.winner + " (" + t.points + "): " }), trickLine(t))));
      root.append(list);
    }
    if (v.last_round) root.append(el("div", { id: "last-round", class: "summary", text: v.last_round.summary }));
    const evs = (v.events || []).map(boonEvent);
    root.append(el("div", { class: "events", id: "events" }, el("span", { class: "label", text: "events: " }), evs.join(" · ") || "-"));
    return root;
  }

  // ---- Banqi --------------------------------------------------------------

  const banqiChar = { K: "帥", G: "仕", M: "相", R: "俥", N: "傌", C: "炮", P: "兵", k: "將", g: "士", m: "象", r: "車", n: "馬", c: "砲", p: "卒" };
  const banqiName = { k: "King", g: "Guard", m: "Minister", r: "Rook", n: "Knight", c: "Cannon", p: "Pawn" };
  // Without a CJK font the characters would be empty boxes: then the
  // pieces show their letters only.
  const hasHan = (function () {
    const c = document.createElement("canvas").getContext("2d");
    if (!c) return false;
    const ink = (ch) => {
      c.clearRect(0, 0, 40, 40);
      c.font = "30px serif";
      c.fillText(ch, 2, 32);
      return Array.from(c.getImageData(0, 0, 40, 40).data).join(",");
    };
    return ink("帥") !== ink("\u{10FFFD}");
  })();
  function banqiPiece(l) {
    const red = l === l.toUpperCase();
    return el("span", { class: "piece " + (red ? "red" : "black") + (hasHan ? "" : " letters"), "data-piece": l, title: (red ? "red " : "black ") + banqiName[l.toLowerCase()] + " (" + l + ")" },
      hasHan ? el("span", { class: "han", text: banqiChar[l] }) : null, el("span", { class: "letter", text: l }));
  }

  function renderBanqi(ctx) {
    const v = ctx.main;
    const root = el("div", { class: "banqi" });
    const lastSquares = new Set((v.last || "").match(/[a-d][1-8]/g) || []);
    const grid = el("div", { class: "grid", id: "banqi-board" });
    grid.append(el("span", { class: "coord" }));
    for (const f of "abcd") grid.append(el("span", { class: "coord", text: f }));
    v.board.forEach((row, i) => {
      const rank = 8 - i;
      grid.append(el("span", { class: "coord", text: rank }));
      for (let c = 0; c < 4; c++) {
        const sq = "abcd"[c] + rank;
        const l = row[c];
        const cell = el("div", { class: "sq" + (lastSquares.has(sq) ? " last" : "") + (v.chain === sq ? " chain" : ""), id: "sq-" + sq, "data-square": sq, "data-piece": l, title: sq });
        if (l === "X") cell.append(el("span", { class: "piece down", title: "face down", text: "?" }));
        else if (l !== "-") cell.append(banqiPiece(l));
        grid.append(cell);
      }
    });
    root.append(grid);
    const side = el("div", { class: "facts" });
    for (let s = 0; s < 2; s++) {
      side.append(el("div", { class: "seat" + (s === v.to_move ? " to-move" : ""), id: "seat-" + s, "data-seat": s },
        el("b", { text: seatName(s) }), ": ", el("span", { class: "colour", text: v.colours[s] || "no colour yet" })));
    }
    const capt = (colour) => {
      const d = el("span", { class: "captured", id: "captured-" + colour });
      for (const l of v.captured[colour]) d.append(banqiPiece(l));
      return d;
    };
    side.append(
      el("div", null, "to move: ", el("span", { id: "to-move", text: seatName(v.to_move) })),
      el("div", null, "last: ", el("span", { id: "banqi-last", text: v.last || "-" })),
      el("div", null, "captured red: ", capt("red")),
      el("div", null, "captured black: ", capt("black")),
      el("div", { class: "dim", text: "face down: red " + v.facedown.red.length + ", black " + v.facedown.black.length }),
      el("div", { class: "dim", text: "ply " + v.ply + ", " + v.plies_since_progress + " since flip or capture, position seen " + v.repeats + "×" }));
    if (v.chain) side.append(el("div", { text: "capture chain from " + v.chain }));
    root.append(side);
    return root;
  }

  const renderers = { uno: renderUno, bounce: renderUno, boon: renderBoon, banqi: renderBanqi };

  return { el, seatName, renderJSON, renderers, unoEvent, boonEvent, unoCard, boonCard, banqiPiece };
}

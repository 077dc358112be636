// decode.js: reads turn lines of one game (argv[2]) on stdin and prints,
// per line, what the SDK's typed helpers decode from it, for
// TestDecodeRealViews to compare with the engine's state.
'use strict';
const arenabot = require('../arenabot.js');

const game = process.argv[2];
const out = [];

// Square names built here, not taken from arenabot.banqi.SQUARES.
const names = [];
for (const f of 'abcd') for (let r = 1; r <= 8; r++) names.push(f + r);

function code(p) {
  if (p === null) return null;
  if (p.faceDown) return 'X';
  if (p.empty) return '-';
  return p.colour[0] + ':' + p.kind;
}

function banqiTurn(t) {
  const b = arenabot.banqi.board(t.view);
  const at = {};
  for (const n of names) {
    const p = b.pieceAt(n);
    if (p.square !== n || b.squares[p.index] !== p || b.pieceAt(p.index) !== p) throw new Error('pieceAt ' + n);
    at[n] = code(p);
  }
  return {
    at,
    pieces: b.pieces().length,
    mine: b.mine().length,
    theirs: b.theirs().length,
    faceDown: b.faceDown().length,
    empty: b.empty().length,
    kings: b.pieces({ kind: 'king' }).length,
    toMove: b.toMove,
    seat: b.seat,
    myColour: b.myColour,
    sideToMove: b.sideToMove,
    chain: b.chain,
    captured: { red: b.captured.red.map((p) => p.colour + ':' + p.kind), black: b.captured.black.map((p) => p.colour + ':' + p.kind) },
    hidden: { red: b.hidden.red.length, black: b.hidden.black.length },
    actions: b.actions(t.legal).map((a) => [a.type, a.square || a.from, a.to, code(a.piece), code(a.target), arenabot.indexOf(a, t.legal) === a.index]),
  };
}

function unoCard(c) {
  return c === null ? null : [c.code, c.colour, c.kind, c.value, c.wild, c.points];
}

function unoTurn(t) {
  const u = arenabot.uno.table(t.view);
  return {
    seat: u.seat,
    hand: u.hand.map(unoCard),
    top: unoCard(u.top),
    colour: u.colour,
    direction: u.direction,
    toMove: u.toMove,
    counts: u.counts,
    others: u.others.map((o) => [o.seat, o.count]),
    drawPile: u.drawPile,
    discard: u.discard.length,
    topIsLastDiscard: u.discard.length > 0 && u.discard[u.discard.length - 1] === u.top,
    decision: u.decision && [u.decision.kind, u.decision.card && u.decision.card.code, u.decision.pending],
    actions: u.actionsOf(t.legal).map((a) => [a.type, a.card && a.card.code, a.colour, a.target, a.uno]),
  };
}

function boonCard(c) {
  return [c.code, c.suit, c.rank, c.points, c.trump];
}

function boonTurn(t) {
  const b = arenabot.boon.table(t.view);
  // The trick's winner by the SDK's own rule, from the cards.
  let best = null;
  let winner = -1;
  for (const { seat, card } of b.trick.cards) {
    if (arenabot.boon.beats(card, best)) {
      best = card;
      winner = seat;
    }
  }
  return {
    seat: b.seat,
    hand: b.hand.map(boonCard),
    handPoints: arenabot.boon.points(b.hand),
    picker: b.picker,
    isPicker: b.isPicker,
    mode: b.mode,
    phase: b.phase,
    vc: b.vc,
    toMove: b.toMove,
    myTurn: b.myTurn(),
    handSizes: b.handSizes,
    boon: b.boon && b.boon.map((c) => c.code),
    trick: [b.trick.leader, b.trick.ledSuit, b.trick.cards.map((c) => [c.seat, c.card.code]), b.trick.winner, b.trick.winningCard && b.trick.winningCard.code],
    trickWinnerByBeats: winner,
    tricks: b.tricks.length,
    actions: b.actionsOf(t.legal).map((a) => [a.type, a.card && a.card.code]),
  };
}

function special(msg) {
  switch (msg.type) {
    case 'x_cantake': {
      const kinds = arenabot.banqi.KINDS.map((k) => k.kind);
      return ['taiwan', 'hk'].map((r) => kinds.map((a) => kinds.map((t) => arenabot.banqi.canTake(a, t, r))));
    }
    case 'x_beats': {
      const cards = msg.cards;
      return cards.map((c) => cards.map((best) => arenabot.boon.beats(c, best)));
    }
    case 'x_random': {
      const r = new arenabot.Random(msg.bigint ? BigInt(msg.seed) : msg.seed, msg.stream);
      const v = [];
      for (let i = 0; i < msg.n; i++) v.push(r.random());
      return v;
    }
  }
  return null;
}

const decode = { banqi: banqiTurn, uno: unoTurn, bounce: unoTurn, boon: boonTurn }[game];
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buf += chunk;
  let nl;
  while ((nl = buf.indexOf('\n')) >= 0) {
    const msg = JSON.parse(buf.slice(0, nl));
    buf = buf.slice(nl + 1);
    out.push(JSON.stringify(msg.type === 'turn' ? decode(msg) : special(msg)));
    if (out.length >= 256) process.stdout.write(out.splice(0).join('\n') + '\n');
  }
});
process.stdin.on('end', () => {
  if (out.length) process.stdout.write(out.join('\n') + '\n');
});

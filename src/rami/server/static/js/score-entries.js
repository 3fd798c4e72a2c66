// A deal being entered (a draft, as the page's buttons hold it) and the ledger entry
// the server's API takes (docs/score.md), both ways. Only the shapes: the server
// checks and scores every entry.

export function emptyMarriage(doc) {
  return {
    tiplu: null,
    finisher: null,
    rows: doc.players.map(() => ({ status: "unseen", mode: "number", maal: "", cards: [], exposed: [], hand: "" })),
  };
}

export function emptyTunisian(doc, out) {
  return {
    winner: null,
    rows: doc.players.map((_, i) => ({ state: out[i] ? "gone" : "opened", mode: "number", points: "", hand: [] })),
  };
}

// An empty box is 0; anything else goes to the server as typed (it says what is wrong).
function numberOrRaw(text) {
  if (text === "" || text === null || text === undefined) return 0;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

export function entryOf(doc, d, indian) {
  if (doc.game === "marriage") {
    return {
      tiplu: d.tiplu,
      finisher: d.finisher === null ? null : doc.players[d.finisher],
      players: d.rows.map((r, i) => {
        const e = { seen: r.status !== "unseen" };
        if (e.seen) e.qualified = r.status;
        if (r.mode === "number") e.maal = numberOrRaw(r.maal);
        else {
          const cards = [...r.cards, ...r.exposed.flatMap((c) => [c, c, c])];
          if (cards.length) e.cards = cards;
          if (r.exposed.length) e.exposed_tunnelas = [...r.exposed];
        }
        if (indian && i !== d.finisher) e.hand_points = numberOrRaw(r.hand);
        return e;
      }),
    };
  }
  return {
    winner: d.winner === null ? null : doc.players[d.winner],
    players: d.rows.map((r) => {
      if (r.state === "gone") return null;
      if (r.state === "won") return {};
      if (r.state === "unopened") return { opened: false };
      if (r.mode === "number") return { opened: true, points: numberOrRaw(r.points) };
      return { opened: true, hand: [...r.hand] };
    }),
  };
}

export function draftOf(doc, entry, out) {
  if (doc.game === "marriage") {
    const finisher = entry.finisher === null || entry.finisher === undefined ? null : doc.players.indexOf(entry.finisher);
    return {
      tiplu: entry.tiplu ?? null,
      finisher: finisher < 0 ? null : finisher,
      rows: entry.players.map((e) => {
        const exposed = [...(e.exposed_tunnelas || [])];
        const cards = [...(e.cards || [])];
        for (const c of exposed) for (let k = 0; k < 3; k++) cards.splice(cards.indexOf(c), 1);
        return {
          status: e.seen ? e.qualified || "melds" : "unseen",
          mode: cards.length || exposed.length ? "cards" : "number",
          maal: "maal" in e ? String(e.maal) : "",
          cards,
          exposed,
          hand: e.hand_points === undefined ? "" : String(e.hand_points),
        };
      }),
    };
  }
  const winner = entry.winner === null || entry.winner === undefined ? null : doc.players.indexOf(entry.winner);
  return {
    winner: winner < 0 ? null : winner,
    rows: entry.players.map((e, i) => {
      if (out[i]) return { state: "gone", mode: "number", points: "", hand: [] };
      if (i === winner) return { state: "won", mode: "number", points: "", hand: [] };
      if (!e || e.opened === false) return { state: "unopened", mode: "number", points: "", hand: [] };
      if ("points" in e) return { state: "opened", mode: "number", points: String(e.points), hand: [] };
      return { state: "opened", mode: "cards", points: "", hand: [...(e.hand || [])] };
    }),
  };
}

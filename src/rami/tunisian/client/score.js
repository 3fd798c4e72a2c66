// Tunisian rami in the scorekeeper (/score): the deal's entry form and what a computed
// deal shows. The generic score.js loads this module from the URL /api/games gives
// (``WebHooks.client``) and calls these hooks with its kit (the ledger ``doc``, the
// ``draft`` being entered, DOM and string helpers); the server scores every entry (T-10).

// A fresh deal: everyone still in has opened, nobody went out; ``out`` marks the
// players eliminated before it (T-13).
export function emptyDraft(doc, out) {
  return {
    winner: null,
    rows: doc.players.map((_, i) => ({ state: out[i] ? "gone" : "opened", mode: "number", points: "", hand: [] })),
  };
}

// Whether a field is still to fill before the server can score the draft (presence only,
// no rules): an opened player's points or cards left.
export function incomplete(kit, d) {
  return d.rows.some((r) => r.state === "opened" && (r.mode === "number" ? r.points === "" : !r.hand.length));
}

// The draft as the ledger entry the API takes.
export function entryOf(kit, d) {
  const { doc, numberOrRaw } = kit;
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

// A saved entry back as a draft, to edit it.
export function draftOf(kit, entry, out) {
  const { doc } = kit;
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

// A computed deal opened from the table: who went out (T-9).
export function dealDetail(kit, entry) {
  const { h, st } = kit;
  const w = entry.winner;
  return [h("p", {}, w ? st("went_out_by", { name: w }) : st("nobody_went_out"))];
}

// The entry form: per player went out / opened (points or cards left) / not opened.
export function renderEntry(kit) {
  const { $, h, chip, segButton, cardElement, openPad, st, numberField, redraw, doc, draft } = kit;
  $("tiplu-row").replaceChildren();
  $("rows").replaceChildren(
    ...draft.rows.map((r, i) => {
      const name = doc.players[i];
      if (r.state === "gone") {
        return h("div", { class: "player-row gone", dataset: { player: name } }, h("strong", {}, name), " ", h("span", { class: "badge", text: st("out") }));
      }
      const set = (state) => {
        if (state === "won") {
          for (const other of draft.rows) if (other.state === "won") other.state = "opened";
          draft.winner = i;
        } else if (draft.winner === i) draft.winner = null;
        r.state = state;
        redraw();
      };
      const states = h(
        "div",
        { class: "seg", role: "group", "aria-label": name },
        segButton(st("went_out"), r.state === "won", () => set("won"), { dataset: { state: "won" } }),
        segButton(st("opened"), r.state === "opened", () => set("opened"), { dataset: { state: "opened" } }),
        segButton(st("not_opened"), r.state === "unopened", () => set("unopened"), { dataset: { state: "unopened" } }),
      );
      let body = null;
      if (r.state === "opened") {
        const mode = h(
          "div",
          { class: "seg", role: "group", "aria-label": st("points") },
          segButton(st("as_number"), r.mode === "number", () => { r.mode = "number"; redraw(); }, { dataset: { mode: "number" } }),
          segButton(st("by_cards"), r.mode === "cards", () => { r.mode = "cards"; redraw(); }, { dataset: { mode: "cards" } }),
        );
        let inner;
        if (r.mode === "number") inner = numberField(st("points"), r.points, (v) => { r.points = v; }, `points-${i}`);
        else {
          inner = h(
            "div",
            {},
            h("button", {
              type: "button",
              class: "big tap-cards",
              text: st("tap_cards"),
              onclick: () =>
                openPad({ title: st("cards_left", { name }), many: true, joker: true, chosen: r.hand, onDone: (cards) => { r.hand = cards; redraw(); } }),
            }),
            h("div", { class: "chips" }, ...r.hand.map((c, k) => chip(cardElement(c, { small: true }), () => { r.hand.splice(k, 1); redraw(); }, st("remove")))),
          );
        }
        body = h("div", {}, mode, inner);
      }
      return h(
        "div",
        { class: `player-row${r.state === "won" ? " finished" : ""}`, dataset: { player: name } },
        h("div", { class: "row between" }, h("strong", { class: "who" }, name), h("span", { class: "net", id: `net-${i}` })),
        states,
        body,
      );
    }),
  );
  $("finish-row").replaceChildren(
    segButton(st("nobody_went_out"), draft.winner === null, () => {
      draft.winner = null;
      for (const r of draft.rows) if (r.state === "won") r.state = "opened";
      redraw();
    }, { dataset: { finisher: "" } }),
  );
}


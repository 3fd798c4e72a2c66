// Marriage in the scorekeeper (/score): the deal's entry form and what a computed deal
// shows. The generic score.js loads this module from the URL /api/games gives
// (``WebHooks.client``) and calls these hooks with its kit (the ledger ``doc``, the
// ``draft`` being entered, the rules ``flags``, DOM and string helpers); the page holds
// no rules: the server scores every entry (docs/score.md).

const maalInfo = new Map(); // "preset|tiplu" -> the maal cards the server lists (M-12)
const maalTried = new Set(); // asked once; offline, asked again when back online

// A fresh deal: nobody seen, nothing counted, nobody finished.
export function emptyDraft(doc) {
  return {
    tiplu: null,
    finisher: null,
    rows: doc.players.map(() => ({ status: "unseen", mode: "number", maal: "", cards: [], exposed: [], hand: "" })),
  };
}

// Whether a field is still to fill before the server can score the draft (presence only,
// no rules): a seen player needs the tiplu named.
export function incomplete(kit, d) {
  return !d.tiplu && d.rows.some((r) => r.status !== "unseen");
}

// The draft as the ledger entry the API takes; hand points only where scoring is indian (M-15).
export function entryOf(kit, d) {
  const { doc, flags, numberOrRaw } = kit;
  const handPoints = flags.scoring === "indian";
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
      if (handPoints && i !== d.finisher) e.hand_points = numberOrRaw(r.hand);
      return e;
    }),
  };
}

// A saved entry back as a draft, to edit it.
export function draftOf(kit, entry) {
  const { doc } = kit;
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

// A computed deal opened from the table: who finished, each maal, who pays whom (M-13).
export function dealDetail(kit, entry, deal) {
  const { h, st, num } = kit;
  return [
    h("p", {}, entry.finisher ? st("finished_by", { name: entry.finisher }) : st("nobody_finished")),
    h(
      "ul",
      { class: "maal-list" },
      ...deal.result.players.map((p) =>
        h("li", {}, h("strong", {}, p.name), ` ${st("maal_is", { n: num(p.maal) })}`, p.maal_items.length ? h("span", { class: "muted small" }, ` (${p.maal_items.join("; ")})`) : null),
      ),
    ),
    h("h4", { text: st("who_pays") }),
    h(
      "ul",
      { class: "pairs" },
      ...(deal.result.pairs.length ? deal.result.pairs.map((p) => h("li", {}, st("pays", { from: p.from, to: p.to, n: num(p.points) }))) : [h("li", { text: st("nobody_pays") })]),
    ),
  ];
}

// Back online: the maal cards not fetched offline are asked again.
export function online() {
  maalTried.clear();
}

// The entry form: tiplu once, then per player seen / maal / (indian) hand points, then
// who finished.
export function renderEntry(kit) {
  const { $, h, chip, segButton, cardElement, openPad, st, numberField, redraw, presetOf, doc, draft, flags } = kit;
  const indian = flags.scoring === "indian";
  const tiplu = draft.tiplu;
  $("tiplu-row").replaceChildren(
    h("span", { class: "label", text: st("tiplu") }),
    h(
      "button",
      {
        type: "button",
        class: "big tiplu-btn",
        id: "tiplu-btn",
        onclick: () =>
          openPad({
            title: st("pick_tiplu"),
            onDone: async (cards) => {
              draft.tiplu = cards[0];
              await loadMaal(kit, draft.tiplu);
              redraw();
            },
          }),
      },
      tiplu ? cardElement(tiplu, { small: true }) : st("tap_to_pick"),
    ),
    tiplu ? h("button", { type: "button", class: "small", text: st("clear"), onclick: () => { draft.tiplu = null; redraw(); } }) : "",
  );
  const info = tiplu ? maalInfo.get(`${presetOf(doc)}|${tiplu}`) : null;
  if (tiplu && !info && !maalTried.has(`${presetOf(doc)}|${tiplu}`)) {
    loadMaal(kit, tiplu).then(() => kit.draft.tiplu === tiplu && maalInfo.has(`${presetOf(doc)}|${tiplu}`) && redraw());
  }
  $("rows").replaceChildren(
    ...draft.rows.map((r, i) => {
      const name = doc.players[i];
      const status = h(
        "div",
        { class: "seg", role: "group", "aria-label": st("seen_q") },
        segButton(st("unseen"), r.status === "unseen", () => { r.status = "unseen"; redraw(); }, { dataset: { status: "unseen" } }),
        segButton(st("seen"), r.status === "melds", () => { r.status = "melds"; redraw(); }, { dataset: { status: "melds" } }),
        flags.dublees ? segButton(st("dublees"), r.status === "dublees", () => { r.status = "dublees"; redraw(); }, { dataset: { status: "dublees" } }) : null,
      );
      const mode = h(
        "div",
        { class: "seg", role: "group", "aria-label": st("maal") },
        segButton(st("as_number"), r.mode === "number", () => { r.mode = "number"; redraw(); }, { dataset: { mode: "number" } }),
        segButton(st("by_cards"), r.mode === "cards", () => { r.mode = "cards"; redraw(); }, { dataset: { mode: "cards" } }),
      );
      let maalBox;
      if (r.mode === "number") {
        maalBox = numberField(st("maal"), r.maal, (v) => { r.maal = v; }, `maal-${i}`);
      } else if (!tiplu) {
        maalBox = h("p", { class: "muted", text: st("pick_tiplu_first") });
      } else {
        const taps = info
          ? info.maal.map((m) =>
              h(
                "button",
                {
                  type: "button",
                  class: "tap",
                  dataset: { kind: m.kind },
                  "aria-label": `${st(m.kind)} ${m.card}`,
                  onclick: () => { r.cards.push(m.card); redraw(); },
                },
                cardElement(m.card, { small: true }),
                h("span", { class: "tap-label", text: st(m.kind) }),
              ),
            )
          : [];
        if (info && info.tunnela_bonus) {
          taps.push(
            h(
              "button",
              {
                type: "button",
                class: "tap",
                dataset: { kind: "tunnela" },
                onclick: () => openPad({ title: st("pick_tunnela"), onDone: (cards) => { r.exposed.push(cards[0]); redraw(); } }),
              },
              h("span", { class: "tap-label", text: st("tunnela") }),
            ),
          );
        }
        const chips = [
          ...r.cards.map((c, k) => chip(cardElement(c, { small: true }), () => { r.cards.splice(k, 1); redraw(); }, st("remove"))),
          ...r.exposed.map((c, k) => chip(h("span", {}, `${st("tunnela")} `, cardElement(c, { small: true })), () => { r.exposed.splice(k, 1); redraw(); }, st("remove"))),
        ];
        maalBox = h("div", {}, h("div", { class: "taps" }, ...taps), h("div", { class: "chips", "aria-label": st("tapped") }, ...chips));
      }
      const finished = draft.finisher === i;
      const block = h(
        "div",
        { class: `player-row${finished ? " finished" : ""}`, dataset: { player: name } },
        h(
          "div",
          { class: "row between" },
          h("strong", { class: "who" }, name),
          h("span", { class: "net", id: `net-${i}` }),
        ),
        status,
        r.status === "unseen" && !flags.unseen_maal_counts && !indian ? null : mode,
        r.status === "unseen" && !flags.unseen_maal_counts && !indian ? null : maalBox,
        indian && !finished ? numberField(st("hand_points"), r.hand, (v) => { r.hand = v; }, `hand-${i}`) : null,
      );
      return block;
    }),
  );
  $("finish-row").replaceChildren(
    h("span", { class: "label", text: st("who_finished") }),
    ...doc.players.map((n, i) =>
      segButton(n, draft.finisher === i, () => { draft.finisher = draft.finisher === i ? null : i; redraw(); }, { dataset: { finisher: n } }),
    ),
    segButton(st("nobody"), draft.finisher === null, () => { draft.finisher = null; redraw(); }, { dataset: { finisher: "" } }),
  );
}

async function loadMaal(kit, tiplu) {
  const { $, api, ApiError, showError, presetOf, doc } = kit;
  const key = `${presetOf(doc)}|${tiplu}`;
  if (maalInfo.has(key)) return;
  maalTried.add(key);
  try {
    const info = await api(`/api/score/marriage/maal-cards?tiplu=${encodeURIComponent(tiplu)}&rules=${encodeURIComponent(presetOf(doc))}`);
    maalInfo.set(key, info);
  } catch (err) {
    if (err instanceof ApiError) showError($("deal-error"), err.message);
    // offline: the pad comes back with the connection; a number can be typed meanwhile
  }
}


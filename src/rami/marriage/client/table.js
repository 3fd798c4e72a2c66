// Marriage on the table page: what only this game shows. The generic table.js loads this
// module from the URL /api/games gives (``WebHooks.client``) and calls these hooks with
// its kit (el, t, cardRow, cardElement, cardName, nameOf, wildMarks, resultTable, signed,
// state); it never names the game itself.

// Beside the seat's card count: seen or not (M-6), and the dublee path (M-9).
export function seatFacts(kit, info) {
  const { el, t } = kit;
  const out = [el("span", `mark ${info.seen ? "seen" : "unseen"}`, t(info.seen ? "seen" : "unseen"))];
  if (info.path === "dublees") out.push(el("span", "badge", t("path_dublees")));
  return out;
}

// The seat's shown melds, exposed tunnelas and dublees.
export function seatGroups(kit, info) {
  const { cardRow, wildMarks } = kit;
  const out = [];
  for (const m of info.melds || []) out.push(cardRow(m, { marks: wildMarks }));
  for (const c of info.exposed_tunnelas || []) out.push(cardRow([c, c, c], { marks: wildMarks }));
  for (const c of info.dublees || []) out.push(cardRow([c, c], { marks: wildMarks }));
  return out;
}

// The box beside the pile, under its label: the tiplu and its wild cards once this seat
// may see them (M-7), else a card back.
export const wildLabel = "tiplu";

export function wildBox(kit, view) {
  const { el, t, cardElement, cardName } = kit;
  if (view.tiplu) {
    const wilds = el("div", "wilds small");
    wilds.textContent = t("wild_list", { cards: (view.wild_cards || []).map(cardName).join(", ") });
    return [cardElement(view.tiplu, { small: true, marks: ["wild"] }), wilds];
  }
  const back = cardElement("JK", { small: true });
  back.className = "card small back";
  back.replaceChildren();
  back.setAttribute("aria-label", t(view.tiplu_picked ? "tiplu_hidden" : "tiplu_not_picked"));
  return [back];
}

// My own box: seen or not, my maal so far, the wild cards by name, my shown groups.
export function meFacts(kit, me, info) {
  const { el, t, cardRow, state } = kit;
  const parts = [el("span", `mark ${info.seen ? "seen" : "unseen"}`, t(info.seen ? "seen" : "unseen"))];
  if (state.aids?.maal !== undefined && state.aids.maal !== null) parts.push(el("span", "fact", t("maal_now", { n: state.aids.maal })));
  if (state.aids?.wild_names) {
    for (const w of state.aids.wild_names) {
      const fact = el("span", "fact wild-name", `${w.name === "joker" ? t("joker") : w.name}: `);
      fact.append(cardRow(w.cards, { marks: () => ["wild"] }));
      parts.push(fact);
    }
  }
  const groups = el("div", "groups");
  groups.append(...seatGroups(kit, info));
  if (groups.childElementCount) parts.push(groups);
  return parts;
}

// "finished by …" (M-8).
export const resultSummary = "finished_by";

// The deal's result: tiplu, the finishing groups, each player's maal and net (M-13).
export function resultBody(kit, details, result, body) {
  const { el, t, cardRow, cardElement, nameOf, resultTable, signed, state } = kit;
  if (details.tiplu) {
    const p = el("p", "", "tiplu: ");
    p.append(cardElement(details.tiplu, { small: true }));
    body.push(p);
  }
  if (details.finish) {
    const p = el("div", "groups");
    for (const g of details.finish.groups || []) p.append(cardRow(g));
    body.push(p);
  }
  const players = details.players || [];
  const handPoints = players.some((p) => p.card_points !== undefined);
  const parts = (state.aids?.settlement || []).length > 0; // fees and maal differences (M-13)
  const rows = players.map((p) => {
    const who = el("span", "", nameOf(p.seat) + " ");
    who.append(el("span", `mark ${p.seen ? "seen" : "unseen"}`, t(p.seen ? "seen" : "unseen")));
    const maal = el("span", "maal", String(p.maal));
    maal.dataset.seat = String(p.seat);
    if ((p.maal_items || []).length) {
      const items = el("ul", "items small");
      for (const item of p.maal_items) items.append(el("li", "", item));
      maal.append(items);
    }
    const cells = [who, maal];
    if (handPoints) cells.push(p.card_points);
    const split = (state.aids?.settlement || []).find((x) => x.seat === p.seat);
    if (parts) cells.push(split ? signed(split.fees) : "", split ? signed(split.maal_part) : "");
    const net = el("span", "net", signed(p.net));
    net.dataset.seat = String(p.seat);
    cells.push(net);
    return cells;
  });
  const headers = [t("player"), "maal"];
  if (handPoints) headers.push(t("card_points"));
  if (parts) headers.push(t("fees"), t("maal_difference"));
  headers.push(t("settlement"));
  if (!rows.length) result.scores.forEach((x, i) => rows.push([nameOf(i), "", x]));
  body.push(resultTable(headers, rows, "result-table"));
  const fees = [];
  for (const key of ["seen_fee", "unseen_fee", "dublee_bonus"]) {
    const v = state.view.rules?.[key];
    if (v !== undefined && v !== null) fees.push(`${t(`opt_${key}`)}: ${v}`);
  }
  if (fees.length) body.push(el("p", "muted small", fees.join(" · ")));
}

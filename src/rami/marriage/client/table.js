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

// The deal's result (M-8 … M-15): the tiplu, each hand as the engine scored it, the maal
// or value items, how each net is made (fees and maal differences, or card points and
// value difference), and who pays whom. Every figure is the server's (``aids.deal_end``:
// the scorekeeper's functions, the same as ``rami score``); this page only lays them out.
export function resultBody(kit, details, result, body) {
  const { el, t, cardElement, nameOf, resultTable, signed } = kit;
  const shown = kit.shown || { aids: kit.state.aids || {}, rules: kit.state.view.rules };
  const end = shown.aids?.deal_end;
  const rules = shown.rules || {};
  if (details.tiplu) {
    const p = el("p", "", "tiplu: ");
    p.append(cardElement(details.tiplu, { small: true }));
    body.push(p);
  }
  const indian = end ? end.scoring === "indian" : rules.scoring === "indian";
  if (end?.finish_kind === "dublees" && result.winner !== null) {
    body.push(el("p", "finish-kind strong", t("dublee_finish", { name: nameOf(result.winner), bonus: end.fees?.dublee_bonus ?? 0 })));
  }
  const players = details.players || [];
  const bySeat = new Map((end?.seats || []).map((x) => [x.seat, x]));
  const rows = players.map((p) => {
    const line = bySeat.get(p.seat);
    const who = el("span", "", nameOf(p.seat) + " ");
    who.append(el("span", `mark ${p.seen ? "seen" : "unseen"}`, t(p.seen ? "seen" : "unseen")));
    const maal = el("span", "maal", String(line ? line.maal : p.maal));
    maal.dataset.seat = String(p.seat);
    const items = line ? line.maal_items : p.maal_items || [];
    if (items.length) {
      const list = el("ul", "items small");
      // worded from the server's codes (maal_parts) in the page's language
      const parts = line?.maal_parts || [];
      items.forEach((item, i) => {
        const part = parts[i];
        const text = part ? t(`maal_item_${part.kind}`, { cards: part.cards.join(" "), points: part.points }) : item;
        const li = el("li", "", text.startsWith("maal_item_") ? item : text);
        if (part) li.dataset.kind = part.kind;
        list.append(li);
      });
      maal.append(list);
    }
    const cells = [who, maal];
    if (indian) cells.push(line ? String(line.card_points) : String(p.card_points ?? ""));
    if (line && !indian) cells.push(signed(line.fees));
    if (line) cells.push(signed(line.maal_part));
    const net = el("span", "net", signed(p.net));
    net.dataset.seat = String(p.seat);
    cells.push(net);
    return cells;
  });
  const headers = [t("player"), indian ? t("value_points") : "maal"];
  if (indian) headers.push(t("card_points"));
  if (end) headers.push(...(indian ? [t("value_difference")] : [t("fees"), t("maal_difference")]));
  headers.push(t("settlement"));
  if (!rows.length) result.scores.forEach((x, i) => rows.push([nameOf(i), "", x]));
  body.push(resultTable(headers, rows, "result-table"));
  if (end) {
    body.push(explain(kit, end, result, indian));
    body.push(payments(kit, end));
    body.push(hands(kit, end, result, shown.live === false ? () => [] : kit.wildMarks));
  }
  const fees = [];
  if (!indian) {
    for (const key of ["seen_fee", "unseen_fee", "dublee_bonus"]) {
      const v = end?.fees?.[key] ?? rules[key];
      if (v !== undefined && v !== null) fees.push(`${t(`opt_${key}`)}: ${v}`);
    }
    if (fees.length) body.push(el("p", "muted small fee-note", `${t("fees_explained")} ${fees.join(" · ")}`));
  } else body.push(el("p", "muted small fee-note", t("indian_explained")));
}

// One line per seat: how the net is made, in words and figures.
function explain(kit, end, result, indian) {
  const { el, t, nameOf, signed } = kit;
  const list = el("ul", "explain small");
  for (const line of end.seats) {
    let text;
    if (indian) {
      const key = line.seat === result.winner ? "explain_indian_finisher" : "explain_indian";
      text = t(key, { net: signed(line.net), received: signed(line.card_part), points: signed(line.card_part), left: line.card_points, value: signed(line.maal_part) });
    } else text = t("explain_nepali", { net: signed(line.net), fees: signed(line.fees), maal: signed(line.maal_part) });
    const li = el("li", "", `${nameOf(line.seat)}: ${text}`);
    li.dataset.seat = String(line.seat);
    list.append(li);
  }
  return list;
}

// Who pays whom (M-13, M-15), each pair once, as the scorekeeper shows it.
function payments(kit, end) {
  const { el, t, nameOf } = kit;
  const wrap = el("div", "payments");
  wrap.append(el("h3", "", t("who_pays_whom")));
  const list = el("ul", "pays");
  for (const p of end.payments) {
    const li = el("li", "", t("pays", { payer: nameOf(p.payer), payee: nameOf(p.payee), n: p.points }));
    li.dataset.payer = String(p.payer);
    li.dataset.payee = String(p.payee);
    li.dataset.points = String(p.points);
    list.append(li);
  }
  if (!end.payments.length) list.append(el("li", "muted", t("nobody_pays")));
  wrap.append(list);
  return wrap;
}

// Every hand as the engine scored it: groups laid or shown (the finisher's final groups
// with their shown melds and dublees), then the cards left in hand.
function hands(kit, end, result, wildMarks) {
  const { el, t, cardRow, nameOf } = kit;
  const wrap = el("div", "end-hands");
  wrap.append(el("h3", "", t("hands_at_end")));
  for (const line of end.seats) {
    const box = el("div", "end-hand");
    box.dataset.seat = String(line.seat);
    const head = el("strong", "small", nameOf(line.seat));
    if (line.seat === result.winner) head.append(" · ", t(end.finish_kind === "dublees" ? "finished_dublees" : "finished_melds"));
    box.append(head);
    const groups = el("div", "groups");
    for (const g of line.groups) groups.append(cardRow(g, { marks: wildMarks }));
    if (line.groups.length) box.append(groups);
    if (line.left.length) {
      const left = el("div", "left-cards");
      left.append(el("span", "muted small", `${t("cards_left_n", { n: line.left.length })}: `));
      for (const g of line.left_groups || [line.left]) left.append(cardRow(g, { marks: wildMarks }));
      box.append(left);
    }
    wrap.append(box);
  }
  return wrap;
}

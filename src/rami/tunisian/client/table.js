// Tunisian rami on the table page: what only this game shows. The generic table.js loads
// this module from the URL /api/games gives (``WebHooks.client``) and calls these hooks
// with its kit (el, t, cardRow, nameOf, resultTable, stagedValue, state).

// Beside the seat's card count: out of the game (T-13), opened and with what (T-6).
export function seatFacts(kit, info) {
  const { el, t } = kit;
  const out = [];
  if (info.active === false) out.push(el("span", "badge", t("eliminated")));
  out.push(el("span", "badge", info.opened ? t("opened_with", { value: info.opening_value }) : t("not_opened")));
  return out;
}

// The melds on the table (T-7) have a box of their own.
export const tableMelds = true;

// My own box: the opening threshold and what is staged towards it (T-6), the road to the
// elimination limit, the teams' totals.
export function meFacts(kit, me, info, view) {
  const { el, t, stagedValue } = kit;
  const parts = [];
  const threshold = view.threshold;
  if (info.opened) parts.push(el("span", "fact ok", t("opened_with", { value: info.opening_value })));
  else {
    const staged = stagedValue();
    parts.push(el("span", "fact", t("threshold_now", { threshold })));
    if (staged) parts.push(el("span", `fact ${staged >= threshold ? "ok" : ""}`, t(staged >= threshold ? "opening_done" : "staged", { value: staged, threshold })));
  }
  const match = view.match;
  if (match?.totals) parts.push(el("span", "fact", t("road_to", { total: match.totals[me], limit: match.elimination || view.rules?.elimination })));
  if (match?.team_totals) parts.push(el("span", "fact", t("team_totals", { a: match.team_totals[0], b: match.team_totals[1] })));
  return parts;
}

// "… went out" (T-9).
export const resultSummary = "went_out";

// The deal's result (T-9, T-10, T-13): each player's man3a, cards left and points, why
// those points (went out 0; opened: the cards left; not opened: 100), and the totals the
// deal leads to. Every figure is the engine's; the page lays them out.
export function resultBody(kit, details, result, body) {
  const { el, t, cardRow, nameOf, resultTable } = kit;
  const hands = details.hands || [];
  const match = kit.shown?.match || kit.state.view.match;
  const totals = match?.totals || [];
  const rows = result.scores.map((points, s) => {
    const cell = el("span", "points", String(points));
    cell.dataset.seat = String(s);
    let why;
    if (details.active && details.active[s] === false) why = t("eliminated");
    else if (s === result.winner) why = t("why_went_out");
    else if (details.opened?.[s]) why = t("why_cards_left", { n: hands[s]?.length ?? 0 });
    else why = t("why_not_opened");
    const total = totals[s] === undefined ? "" : String(totals[s]);
    return [
      nameOf(s),
      details.opened?.[s] ? t("opened_with", { value: details.opening_values?.[s] ?? "" }) : t("not_opened"),
      cardRow(hands[s] || []),
      el("span", "small why", why),
      cell,
      total,
    ];
  });
  body.push(resultTable([t("player"), "man3a", t("cards_left"), t("why_points"), t("points"), t("total")], rows, "result-table"));
  if (details.team_points) body.push(el("p", "small", t("team_totals", { a: details.team_points[0], b: details.team_points[1] })));
}

// The winner's last card lies face down on the pile (T-9): a card back marked "farcha"
// and who threw it; only its thrower's view names the card, and then it shows beside.
export function pileFaceDown(kit, view) {
  const farcha = view.farcha;
  if (!farcha) return null;
  const { el, t, nameOf, cardElement } = kit;
  const back = el("span", "card back face-down");
  back.setAttribute("role", "img");
  back.setAttribute("aria-label", t("farcha_face_down", { name: nameOf(farcha.seat) }));
  back.append(el("span", "mark", t("farcha_mark")));
  const by = [t("farcha_by", { name: nameOf(farcha.seat) })];
  if (farcha.card) by.push(" ", cardElement(farcha.card, { small: true }));
  return { card: back, by };
}

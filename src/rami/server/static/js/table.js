// The table page. The server is the referee: this page draws the view it receives
// and offers exactly the moves listed in view.legal_actions; it never decides on its
// own what is legal.

import { api, forgetTable, playerName, rememberSeat, savePlayerName, seatOf } from "./api.js";
import {
  actionLabel,
  cardElement,
  cardName,
  cardRow,
  containsAll,
  parseAction,
  rankKey,
  suitKey,
} from "./cards.js";
import { languageSwitcher, pickLanguage, setLanguage, t, translatePage } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "").toUpperCase();
const MAX_BUTTONS = 12;

let mine = seatOf(code);
let state = null; // the last "state" message: {version, seat, table, view}
let handOrder = [];
let selected = new Set();
let sortMode = localStorage.getItem("rami.sort") || "suit";
let socket = null;
let retryDelay = 500;
let messageId = 0;
let lastHint = null;
let gone = false;

// ------------------------------------------------------------------ helpers

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function mySeat() {
  return state ? state.seat : null;
}

function nameOf(seat) {
  if (seat === null || seat === undefined) return "—";
  const info = state?.table.seats[seat];
  const name = info ? info.name : t("seat_n", { n: seat + 1 });
  return seat === mySeat() ? `${name} (${t("you")})` : name;
}

function toast(message) {
  const box = $("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (box.hidden = true), 5000);
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    toast(t("not_connected"));
    return;
  }
  socket.send(JSON.stringify({ id: ++messageId, ...message }));
}

function play(action) {
  selected.clear();
  send({ type: "action", action });
}

// ------------------------------------------------------------------ connection

function setConn(kind) {
  const box = $("conn");
  box.className = `conn ${kind}`;
  box.textContent = t(`conn_${kind}`);
}

function connect() {
  if (gone) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(code)}`);
  setConn("connecting");
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ type: "hello", token: mine?.token || null }));
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    onMessage(message);
  });
  socket.addEventListener("close", (event) => {
    setConn("offline");
    if (event.code === 4404) {
      gone = true;
      $("status").textContent = t("no_such_table", { code });
      return;
    }
    if (event.code === 4403 && mine) {
      forgetTable(code);
      mine = null;
      retryDelay = 0;
    }
    setTimeout(connect, retryDelay);
    retryDelay = Math.min(Math.max(retryDelay * 2, 500), 10000);
  });
}

function reconnect() {
  if (socket) {
    retryDelay = 0;
    socket.close();
  } else connect();
}

function onMessage(message) {
  switch (message.type) {
    case "welcome":
      setConn("online");
      retryDelay = 500;
      if (mine && message.seat !== null) rememberSeat(code, message.seat, mine.token);
      break;
    case "state":
      if (state && message.version < state.version && message.seat === state.seat) return;
      if (state && message.version !== state.version) lastHint = null; // it was for the old position
      state = message;
      render();
      break;
    case "presence":
      if (state) {
        state.table.seats = message.seats;
        state.table.status = message.status;
        render();
      }
      break;
    case "hint":
      lastHint = message;
      renderHint();
      break;
    case "error":
      toast(message.message);
      break;
    default:
      break;
  }
}

// ------------------------------------------------------------------ hand order

function reconcileHand(cards) {
  const left = new Map();
  for (const c of cards) left.set(c, (left.get(c) || 0) + 1);
  const kept = [];
  for (const c of handOrder) {
    const n = left.get(c) || 0;
    if (n) {
      kept.push(c);
      left.set(c, n - 1);
    }
  }
  for (const c of cards) {
    const n = left.get(c) || 0;
    if (n) {
      kept.push(c);
      left.set(c, n - 1);
    }
  }
  const changed = kept.length !== handOrder.length || kept.some((c, i) => c !== handOrder[i]);
  handOrder = kept;
  if (sortMode === "suit") handOrder.sort((a, b) => suitKey(a) - suitKey(b));
  if (sortMode === "rank") handOrder.sort((a, b) => rankKey(a) - rankKey(b));
  if (changed) selected.clear();
}

function setSort(mode) {
  sortMode = mode;
  localStorage.setItem("rami.sort", mode);
  selected.clear();
  if (state) reconcileHand(state.view.hand || []);
  render();
}

function moveCard(from, to) {
  if (from === to || from < 0 || to < 0 || from >= handOrder.length || to >= handOrder.length) return;
  const [card] = handOrder.splice(from, 1);
  handOrder.splice(to, 0, card);
  sortMode = "manual";
  localStorage.setItem("rami.sort", "manual");
  selected.clear();
  render();
}

function legalSet() {
  return new Set(state?.view.legal_actions || []);
}

function discardCard(card) {
  if (legalSet().has(`discard ${card}`)) play(`discard ${card}`);
  else toast(t("cannot_discard", { card: cardName(card) }));
}

// ------------------------------------------------------------------ drawing

function render() {
  if (!state) return;
  const { view, table } = state;
  document.body.dataset.game = table.game;
  document.body.dataset.version = String(state.version);
  document.body.dataset.myTurn = (view.legal_actions || []).length ? "1" : "0";
  document.body.dataset.dealOver = view.result ? "1" : "0";
  document.body.dataset.status = table.status;
  document.title = `rami · ${table.code}`;
  $("title").textContent = `${t(`game_${table.game}`)} · ${t(`preset_${table.game}_${table.preset}`)} · ${table.code}`;
  reconcileHand(view.hand || []);
  renderStatus();
  renderJoin();
  renderSeats();
  renderCenter();
  renderTableMelds();
  renderHand();
  renderActions();
  renderResult();
  renderLedger();
  renderLog();
  renderInvite();
  renderHint();
}

function renderStatus() {
  const { view, table } = state;
  const me = mySeat();
  let text;
  if (table.status === "waiting") text = t("status_waiting_players");
  else if (view.result && view.match?.game_over) text = t("match_over");
  else if (view.result) text = t("deal_over");
  else if (view.to_move === me && me !== null) {
    text = t("your_turn") + " " + t(`phase_${view.game}_${view.phase}`);
    if (view.must_open) text += " " + t("must_open", { threshold: view.threshold });
    if (view.staged_value) text += " " + t("staged", { value: view.staged_value, threshold: view.threshold });
  } else text = t("waiting_for", { name: nameOf(view.to_move) });
  if (me === null && table.status !== "waiting") text = `${t("watching_short")} · ${text}`;
  $("status").textContent = text;
}

function renderJoin() {
  const { table } = state;
  const free = table.seats.filter((s) => s.kind === "human" && !s.claimed);
  const show = mySeat() === null;
  $("join-panel").hidden = !show;
  if (!show) return;
  if (!$("join-name").value) $("join-name").value = playerName();
  const wanted = new URLSearchParams(location.search).get("seat");
  const buttons = free.map((s) => {
    const button = el("button", "primary", t("take_seat", { n: s.seat + 1 }));
    button.type = "button";
    button.dataset.seat = String(s.seat);
    button.addEventListener("click", () => joinSeat(s.seat));
    if (wanted !== null && Number(wanted) === s.seat + 1) button.classList.add("wanted");
    return button;
  });
  if (!buttons.length) buttons.push(el("span", "muted", t("no_free_seat")));
  $("free-seats").replaceChildren(...buttons);
}

async function joinSeat(seat) {
  const name = $("join-name").value.trim();
  savePlayerName(name);
  try {
    const joined = await api(`/api/tables/${code}/join`, { method: "POST", body: { seat, name } });
    rememberSeat(code, joined.seat, joined.token);
    mine = seatOf(code);
    reconnect();
  } catch (err) {
    toast(err.message);
  }
}

function seatBox(seat) {
  const { view, table } = state;
  const info = view.seats[seat];
  const summary = table.seats[seat];
  const box = el("div", "seat-box");
  box.dataset.seat = String(seat);
  if (view.to_move === seat && !view.result) box.classList.add("to-move");
  if (!summary.online) box.classList.add("offline");
  if (info.active === false) box.classList.add("inactive");
  const who = el("div", "who");
  const dot = el("span", "dot");
  dot.title = t(summary.online ? "online" : "offline");
  who.append(dot, el("strong", "", nameOf(seat)));
  if (summary.kind === "bot") who.append(" ", el("small", "badge", t("bot_level", { level: t(`level_${summary.level}`) })));
  if (view.dealer === seat) who.append(" ", el("small", "badge dealer", t("dealer")));
  if (info.team !== undefined && info.team !== null) who.append(" ", el("small", "badge", t("team_n", { n: info.team + 1 })));
  box.append(who);
  const facts = el("div", "facts");
  facts.append(el("span", "count", t("cards_n", { n: info.hand_size })));
  if (view.game === "marriage") {
    const seen = el("span", `mark ${info.seen ? "seen" : "unseen"}`, t(info.seen ? "seen" : "unseen"));
    facts.append(" ", seen);
    if (info.path === "dublees") facts.append(" ", el("span", "badge", t("path_dublees")));
  } else {
    const opened = info.opened ? t("opened_with", { value: info.opening_value ?? "" }) : t("not_opened");
    facts.append(" ", el("span", `mark ${info.opened ? "seen" : "unseen"}`, opened));
    if (info.active === false) facts.append(" ", el("span", "badge", t("eliminated")));
  }
  box.append(facts);
  if (view.game === "marriage") {
    const groups = [];
    for (const t3 of info.exposed_tunnelas || []) groups.push({ cards: [t3, t3, t3], kind: "tunnela" });
    for (const m of info.melds || []) groups.push({ cards: m, kind: "meld" });
    for (const d of info.dublees || []) groups.push({ cards: [d, d], kind: "dublee" });
    if (groups.length) {
      const list = el("div", "groups");
      groups.forEach((g, i) => {
        const row = cardRow(g.cards);
        row.classList.add(g.kind);
        if (view.rules?.table_melding && g.kind === "meld") row.prepend(el("small", "index", `@${i - (info.exposed_tunnelas || []).length}`));
        list.append(row);
      });
      box.append(list);
    }
  }
  return box;
}

function renderSeats() {
  const { view } = state;
  const me = mySeat();
  const n = view.seats.length;
  const order = [];
  for (let k = 1; k <= n; k++) {
    const s = ((me ?? -1) + k) % n;
    if (s !== me) order.push(s);
  }
  $("opponents").replaceChildren(...order.map(seatBox));
  $("me").replaceChildren(...(me === null ? [] : [seatBox(me)]));
  $("hand-box").hidden = me === null;
  $("actions-box").hidden = me === null;
}

function renderCenter() {
  const { view } = state;
  $("stock-count").textContent = t("stock_n", { n: view.stock_size });
  const pile = view.discard_pile || [];
  const cards = pile.map((c, i) => {
    const marks = i === pile.length - 1 ? ["top"] : [];
    return cardElement(c, { small: i !== pile.length - 1, marks });
  });
  if (!cards.length) cards.push(el("span", "muted", t("empty")));
  $("pile").replaceChildren(...cards);
  $("pile").scrollLeft = $("pile").scrollWidth;
  const tiplu = view.tiplu;
  $("tiplu-box").hidden = !tiplu;
  if (tiplu) {
    $("tiplu").replaceChildren(cardElement(tiplu));
    $("wilds").textContent = view.wild_cards ? t("wild_cards", { n: view.wild_cards.length }) : "";
  }
}

function renderTableMelds() {
  const { view } = state;
  const melds = view.table || [];
  $("table-melds-box").hidden = view.game !== "tunisian";
  const items = melds.map((m) => {
    const li = el("li", m.staged ? "staged" : "");
    li.append(el("small", "index", `@${m.index}`), cardRow(m.cards));
    li.append(" ", el("small", "muted", `${nameOf(m.owner)} · ${m.value}${m.staged ? " · " + t("staged_meld") : ""}`));
    return li;
  });
  if (!items.length) items.push(el("li", "muted", t("empty")));
  $("table-melds").replaceChildren(...items);
}

function renderHand() {
  const { view } = state;
  const legal = legalSet();
  const wild = new Set(view.wild_cards || []);
  const focused = document.activeElement?.closest?.("#hand .card");
  const focusIndex = focused ? Number(focused.dataset.index) : -1;
  const buttons = handOrder.map((c, i) => {
    const marks = [];
    if (wild.has(c)) marks.push("wild");
    if (legal.has(`discard ${c}`)) marks.push("discardable");
    if (view.taken === c) marks.push("taken");
    const button = cardElement(c, { tag: "button", marks });
    button.type = "button";
    button.dataset.index = String(i);
    button.setAttribute("aria-pressed", selected.has(i) ? "true" : "false");
    button.draggable = true;
    return button;
  });
  $("hand").replaceChildren(...buttons);
  $("hand").setAttribute("aria-label", t("your_hand_n", { n: handOrder.length }));
  $("sort-suit").setAttribute("aria-pressed", String(sortMode === "suit"));
  $("sort-rank").setAttribute("aria-pressed", String(sortMode === "rank"));
  if (focusIndex >= 0 && buttons.length) buttons[Math.min(focusIndex, buttons.length - 1)].focus();
}

function actionButton(action, extraClass = "") {
  const button = el("button", `action ${extraClass}`.trim());
  button.type = "button";
  button.dataset.action = action.text;
  button.append(actionLabel(action, { meldOwnerName }));
  button.addEventListener("click", () => play(action.text));
  return button;
}

function meldOwnerName(index) {
  const meld = (state.view.table || []).find((m) => m.index === index);
  return meld ? nameOf(meld.owner) : "";
}

function renderActions() {
  const legal = (state.view.legal_actions || []).map(parseAction);
  const chosen = [...selected].sort((a, b) => a - b).map((i) => handOrder[i]);
  const buttons = [];
  for (const a of legal.filter((a) => !a.cards.length)) buttons.push(actionButton(a, "primary"));
  const discards = legal.filter((a) => a.verb === "discard");
  if (chosen.length === 1) {
    const match = discards.find((a) => a.cards[0] === chosen[0]);
    if (match) buttons.push(actionButton(match, "primary"));
  } else if (discards.length) {
    const hint = el("button", "action", t("discard_select"));
    hint.type = "button";
    hint.disabled = true;
    buttons.push(hint);
  }
  const others = legal.filter((a) => a.cards.length && a.verb !== "discard");
  const fitting = chosen.length ? others.filter((a) => containsAll(a.cards, chosen)) : others;
  fitting.sort((a, b) => (a.verb === "finish" ? -1 : 0) - (b.verb === "finish" ? -1 : 0));
  for (const a of fitting.slice(0, MAX_BUTTONS)) buttons.push(actionButton(a));
  $("actions").replaceChildren(...buttons);
  const more = fitting.length - MAX_BUTTONS;
  $("more-note").hidden = more <= 0;
  $("more-note").textContent = more > 0 ? t("more_moves", { n: more }) : "";
  const select = $("all-moves");
  select.replaceChildren(
    ...legal.map((a) => {
      const option = el("option", "", `${t(`verb_${a.verb}`)} ${a.cards.join(" ")}${a.target !== null ? ` @${a.target}` : ""}`);
      option.value = a.text;
      return option;
    }),
  );
  select.disabled = !legal.length;
  $("play-selected").disabled = !legal.length;
  $("hint-button").disabled = mySeat() === null || !!state.view.result;
}

function renderHint() {
  const box = $("hint");
  if (!lastHint) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const parts = [];
  if (lastHint.suggestion) {
    const p = el("p", "", t("hint_suggestion") + " ");
    p.append(actionLabel(lastHint.suggestion, { meldOwnerName }));
    if (legalSet().has(lastHint.suggestion)) {
      const go = el("button", "small", t("play_it"));
      go.type = "button";
      go.dataset.hintAction = lastHint.suggestion;
      go.addEventListener("click", () => play(lastHint.suggestion));
      p.append(" ", go);
    }
    parts.push(p);
  }
  for (const note of lastHint.notes || []) {
    const args = {};
    for (const [k, v] of Object.entries(note)) args[k] = Array.isArray(v) ? v.join(" · ") : v;
    parts.push(el("p", "", t(note.key, args)));
  }
  if (!parts.length) parts.push(el("p", "muted", t("hint_none")));
  box.replaceChildren(...parts);
}

function resultTable(headers, rows) {
  const tableEl = el("table", "grid-table");
  const head = el("tr");
  for (const h of headers) head.append(el("th", "", h));
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const row of rows) {
    const tr = el("tr");
    for (const cell of row) {
      const td = el("td");
      if (cell instanceof Node) td.append(cell);
      else td.textContent = String(cell);
      tr.append(td);
    }
    tbody.append(tr);
  }
  tableEl.append(thead, tbody);
  return tableEl;
}

function renderResult() {
  const { view } = state;
  const result = view.result;
  $("result").hidden = !result;
  if (!result) return;
  const details = result.details || {};
  const body = [];
  const summary = el("p", "");
  if (result.winner !== null && result.winner !== undefined) {
    summary.textContent = t(view.game === "marriage" ? "finished_by" : "went_out", { name: nameOf(result.winner) });
  } else summary.textContent = t("no_finisher");
  body.push(summary);
  if (view.game === "marriage") {
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
    const indian = players.some((p) => p.card_points !== undefined);
    const rows = players.map((p) => {
      const who = el("span", "", nameOf(p.seat) + " ");
      who.append(el("span", `mark ${p.seen ? "seen" : "unseen"}`, t(p.seen ? "seen" : "unseen")));
      const maal = el("span", "", String(p.maal));
      if ((p.maal_items || []).length) {
        const items = el("ul", "items small");
        for (const item of p.maal_items) items.append(el("li", "", item));
        maal.append(items);
      }
      const cells = [who, maal];
      if (indian) cells.push(p.card_points);
      cells.push(p.net > 0 ? `+${p.net}` : String(p.net));
      return cells;
    });
    const headers = [t("player"), "maal"];
    if (indian) headers.push(t("card_points"));
    headers.push(t("settlement"));
    if (!rows.length) result.scores.forEach((x, i) => rows.push([nameOf(i), "", x]));
    body.push(resultTable(headers, rows));
  } else {
    const hands = details.hands || [];
    const rows = result.scores.map((points, s) => [
      nameOf(s),
      details.opened?.[s] ? t("opened_with", { value: details.opening_values?.[s] ?? "" }) : t("not_opened"),
      cardRow(hands[s] || []),
      points,
    ]);
    body.push(resultTable([t("player"), "man3a", t("cards_left"), t("points")], rows));
  }
  $("result-body").replaceChildren(...body);
  const over = view.match?.game_over;
  $("next-deal").hidden = !!over || mySeat() === null;
  if (over) {
    const winners = view.match.winners || [];
    body.push(el("p", "strong", t("match_winner", { names: winners.map(nameOf).join(", ") })));
    $("result-body").replaceChildren(...body);
  }
}

function renderLedger() {
  const { view } = state;
  const match = view.match;
  if (!match) {
    $("ledger-box").hidden = true;
    return;
  }
  $("ledger-box").hidden = false;
  const n = view.seats.length;
  const headers = [t("deal"), ...Array.from({ length: n }, (_, s) => nameOf(s))];
  const rows = (match.deals || []).map((d) => {
    const points = d.points || d.nets || [];
    return [String((d.deal ?? 0) + 1), ...points.map((p) => (view.game === "marriage" && p > 0 ? `+${p}` : String(p)))];
  });
  const totals = match.totals || match.balances || [];
  rows.push([t("total"), ...totals.map((x) => String(x))]);
  const parts = [resultTable(headers, rows)];
  const facts = [];
  if (match.deals_total) facts.push(t("deal_of", { n: (match.deal_number ?? 0) + 1, total: match.deals_total }));
  if (match.elimination) facts.push(t("elimination_at", { n: match.elimination }));
  if (match.team_totals) facts.push(t("team_totals", { a: match.team_totals[0], b: match.team_totals[1] }));
  if (facts.length) parts.push(el("p", "muted small", facts.join(" · ")));
  $("ledger").replaceChildren(...parts);
}

function renderLog() {
  const history = state.view.history || [];
  const items = history
    .slice(-200)
    .reverse()
    .map((entry) => {
      const li = el("li");
      if (entry.move !== undefined) {
        li.append(el("strong", "", nameOf(entry.seat) + ": "), actionLabel(entry.move, { meldOwnerName }));
      } else li.append(el("em", "", entry.event));
      return li;
    });
  $("log").replaceChildren(...items);
}

function renderInvite() {
  const { table } = state;
  $("code").textContent = table.code;
  const link = `${location.origin}/t/${table.code}`;
  $("invite-link").value = link;
  const items = table.seats.map((s) => {
    const li = el("li");
    const kind = s.kind === "bot" ? t("bot_level", { level: t(`level_${s.level}`) }) : s.claimed ? t("taken") : t("free");
    li.append(el("span", "", `${t("seat_n", { n: s.seat + 1 })}: ${s.claimed ? s.name : "—"} (${kind})`));
    if (s.kind === "human" && !s.claimed) {
      const a = el("a", "", t("seat_link"));
      a.href = `${link}?seat=${s.seat + 1}`;
      li.append(" ", a);
    }
    return li;
  });
  $("seat-list").replaceChildren(...items);
  const token = mine?.token;
  $("private-box").hidden = !token || mySeat() === null;
  if (token) $("private-link").value = `${link}#token=${token}`;
  $("start").hidden = !(table.status === "waiting" && mySeat() !== null);
  $("rules-link").href = `/rules/${table.game}/${table.preset}`;
}

// ------------------------------------------------------------------ input

function handCard(event) {
  const card = event.target.closest("#hand .card");
  return card ? Number(card.dataset.index) : -1;
}

function wireHand() {
  const hand = $("hand");
  hand.addEventListener("click", (event) => {
    const i = handCard(event);
    if (i < 0) return;
    if (selected.has(i)) selected.delete(i);
    else selected.add(i);
    renderHand();
    renderActions();
  });
  hand.addEventListener("dblclick", (event) => {
    const i = handCard(event);
    if (i >= 0) discardCard(handOrder[i]);
  });
  hand.addEventListener("keydown", (event) => {
    const i = handCard(event);
    if (i < 0) return;
    const cards = [...hand.querySelectorAll(".card")];
    const rtl = document.documentElement.dir === "rtl";
    const step = event.key === "ArrowRight" ? (rtl ? -1 : 1) : event.key === "ArrowLeft" ? (rtl ? 1 : -1) : 0;
    if (step && event.shiftKey) {
      event.preventDefault();
      moveCard(i, i + step);
      hand.querySelectorAll(".card")[Math.max(0, Math.min(i + step, handOrder.length - 1))]?.focus();
    } else if (step) {
      event.preventDefault();
      cards[(i + step + cards.length) % cards.length]?.focus();
    } else if (event.key === "d" || event.key === "D") {
      event.preventDefault();
      discardCard(handOrder[i]);
    }
  });
  hand.addEventListener("dragstart", (event) => {
    const i = handCard(event);
    if (i < 0) return;
    event.dataTransfer.setData("text/plain", String(i));
    event.dataTransfer.effectAllowed = "move";
  });
  hand.addEventListener("dragover", (event) => event.preventDefault());
  hand.addEventListener("drop", (event) => {
    event.preventDefault();
    const from = Number(event.dataTransfer.getData("text/plain"));
    const to = handCard(event);
    if (Number.isInteger(from) && to >= 0) moveCard(from, to);
  });
  const pile = $("pile-box");
  pile.addEventListener("dragover", (event) => {
    event.preventDefault();
    pile.classList.add("drop");
  });
  pile.addEventListener("dragleave", () => pile.classList.remove("drop"));
  pile.addEventListener("drop", (event) => {
    event.preventDefault();
    pile.classList.remove("drop");
    const from = Number(event.dataTransfer.getData("text/plain"));
    if (Number.isInteger(from) && handOrder[from]) discardCard(handOrder[from]);
  });
}

function copy(input) {
  input.select();
  navigator.clipboard?.writeText(input.value).then(
    () => toast(t("copied")),
    () => document.execCommand && document.execCommand("copy"),
  );
}

async function main() {
  await setLanguage(pickLanguage());
  languageSwitcher($("lang"), () => {
    translatePage();
    if (state) render();
    renderHint();
    setConn(socket && socket.readyState === WebSocket.OPEN ? "online" : "offline");
  });
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("token")) {
    rememberSeat(code, null, fragment.get("token"));
    mine = seatOf(code);
    history.replaceState(null, "", location.pathname + location.search);
  }
  wireHand();
  $("sort-suit").addEventListener("click", () => setSort("suit"));
  $("sort-rank").addEventListener("click", () => setSort("rank"));
  $("play-selected").addEventListener("click", () => {
    const value = $("all-moves").value;
    if (value) play(value);
  });
  $("hint-button").addEventListener("click", () => send({ type: "hint" }));
  $("next-deal").addEventListener("click", () => {
    lastHint = null;
    renderHint();
    send({ type: "next_deal" });
  });
  $("start").addEventListener("click", () => send({ type: "start" }));
  $("copy-link").addEventListener("click", () => copy($("invite-link")));
  connect();
  document.body.dataset.ready = "1";
}

main();

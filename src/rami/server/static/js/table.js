// The table page. The server is the referee: this page draws the view it receives
// and offers exactly the moves listed in view.legal_actions; it never decides on its
// own what is legal. Everything a turn needs fits one screen (see css/table.css).

import { api, forgetTable, playerName, rememberSeat, savePlayerName, seatOf } from "./api.js";
import { actionLabel, cardElement, cardName, cardRow, containsAll, parseAction } from "./cards.js";
import { HandOrder } from "./hand.js";
import { languageSwitcher, levelLabel, pickLanguage, setLanguage, t, translatePage } from "./i18n.js";
import { logEntry } from "./log_text.js";
import { addReplayLink, addReplayPrivacy } from "./replay-link.js";
import { avatar, backsFan, ringTimer } from "./felt.js";
import { animateChanges, settle, snapshot } from "./motion.js";
import { markTerms } from "./terms.js";
import { playSound, setSoundOn, soundOn as soundIsOn, unlock } from "./sound.js";
import { openSocket, solo, tableApi, tableCode, tableHref } from "./transport.js";

const $ = (id) => document.getElementById(id);
const code = tableCode(); // a server table's /t/CODE, or a solo table (transport.js)
const REACTIONS = ["hello", "nice", "oops", "hurry", "thanks", "gg"];
// emoji reactions: keys on the wire (server-validated), the glyph on the page
const EMOJIS = { smile: "😀", laugh: "😂", wow: "😮", sad: "😢", clap: "👏", thumbs_up: "👍" };
const DOUBLE_MS = 380;

let mine = seatOf(code);
let state = null; // the last "state" message: {version, seat, table, view, timer, seat_code}
let hand = null; // HandOrder of my seat
let selected = new Set();
let socket = null;
let retryDelay = 500;
let messageId = 0;
let lastHint = null;
let gone = false;
let drawn = null; // the card I just drew or took (marked until my next move)
let drawnFresh = false; // it arrived with the last state: animate it once
let meldsSeen = new Map(); // table meld index -> its cards, to animate what changed
let wantFocus = null; // where keyboard focus goes after the next render
let lastClick = { index: -1, at: 0 };
let timerEnd = 0;
// The table's invite (from an invite link's #invite=…): a free seat needs it, the public
// code alone only lets one watch. A seated player fetches the shareable link once.
const INVITE_KEY = `rami.invite.${code}`;
let invite = sessionStorage.getItem(INVITE_KEY);
let inviteUrl = null;
let inviteAsked = false;
let timerTick = null;
let wasMyTurn = false;
let resultHidden = false;
let replay = null; // {frames, step}
let tried = null; // the last action sent: a refusal is shown next to it
let kept = null; // the last finished deal's result, shown until this player closes it
let online = false;
let away = null; // what this seat had seen when the connection dropped
const baseTitle = () => `rami · ${code}`;

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

function myTurn() {
  return !!state && (state.view.legal_actions || []).length > 0;
}

function nameOf(seat) {
  if (seat === null || seat === undefined || Number.isNaN(seat)) return "—";
  const info = state?.table.seats[seat];
  const name = info ? info.name : t("seat_n", { n: seat + 1 });
  return seat === mySeat() ? `${name} (${t("you")})` : name;
}

function meldOwnerName(index) {
  const meld = (state?.view.table || []).find((m) => m.index === index);
  return meld ? `(${nameOf(meld.owner)})` : "";
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

function play(action, focus = "actions") {
  selected.clear();
  drawn = null;
  wantFocus = focus;
  tried = action;
  if ($("away")) $("away").hidden = true; // playing again: the summary has been read
  send({ type: "action", action });
}

// ------------------------------------------------------------------ connection

function setConn(kind) {
  const box = $("conn");
  box.className = `conn ${kind}`;
  box.textContent = t(`conn_${kind}`);
  const was = online;
  online = kind === "online";
  if (was && !online && state) away = { version: state.version, deal: state.view.match?.deal_number ?? 0, history: (state.view.history || []).length };
  renderOffline();
}

// Disconnected: a banner says so and the play controls are off until the link is back.
function renderOffline() {
  let banner = $("offline-banner");
  if (!banner) {
    banner = el("div", "banner offline-banner");
    banner.id = "offline-banner";
    banner.setAttribute("role", "alert");
    $("status").before(banner);
  }
  const off = !online && !gone && !!state;
  banner.hidden = !off;
  banner.textContent = off ? t("offline_banner") : "";
  document.body.dataset.offline = off ? "1" : "0";
  for (const b of document.querySelectorAll("#actions button, #play-selected, #all-moves, #hint-button, #sort-group, #next-deal, #rematch")) {
    if (off && !b.disabled) {
      b.disabled = true;
      b.dataset.offline = "1";
    } else if (!off && b.dataset.offline) {
      b.disabled = false;
      delete b.dataset.offline;
    }
  }
  if (!off && state && offlinePending.on) {
    offlinePending.on = false;
    render();
  }
  if (off) offlinePending.on = true;
}
const offlinePending = { on: false };

// Back after a drop or a closed tab: what the others played meanwhile, from the history.
function awaySummary(next) {
  const key = next.seat === null ? null : `rami.seen.${code}.${next.seat}`;
  const deal = next.view.match?.deal_number ?? 0;
  const history = next.view.history || [];
  let since = away;
  away = null;
  if (!since && key && !awaySummary.checked) {
    try {
      since = JSON.parse(localStorage.getItem(key) || "null");
    } catch {
      since = null;
    }
  }
  awaySummary.checked = true;
  if (key) localStorage.setItem(key, JSON.stringify({ version: next.version, deal, history: history.length }));
  if (!since || next.version <= since.version) return;
  const fresh = since.deal === deal ? history.slice(since.history) : history;
  const moves = fresh.filter((e) => e.move !== undefined && e.seat !== next.seat);
  let box = $("away");
  if (!box) {
    box = el("section", "panel notice away");
    box.id = "away";
    box.setAttribute("role", "status");
    $("status").before(box);
  }
  const list = el("ol", "log small");
  list.append(...moves.slice(-8).map((e) => logEntry(e, nameOf, meldOwnerName)));
  const close = el("button", "small", t("close"));
  close.type = "button";
  close.addEventListener("click", () => (box.hidden = true));
  const deals = deal - (since.deal ?? deal);
  const head = el("strong", "", t("while_away", { n: next.version - since.version }));
  const parts = [head];
  if (deals > 0) parts.push(el("p", "small", t("while_away_deals", { n: deals })));
  if (moves.length) parts.push(list);
  parts.push(close);
  box.replaceChildren(...parts);
  box.hidden = false;
}

// Presence: a player who left or came back gets a line everyone sees.
function presenceNotice(before, after) {
  if (!before) return;
  for (const s of after) {
    const old = before.find((x) => x.seat === s.seat);
    if (!old || s.kind !== "human" || !s.claimed || s.seat === mySeat()) continue;
    if (old.online && !s.online) toast(t("player_left", { name: s.name }));
    else if (!old.online && s.online) toast(t("player_back", { name: s.name }));
  }
}

function showNotice(text) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = !text;
}

function connect() {
  if (gone) return;
  socket = openSocket(code);
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
      noTable();
      return;
    }
    if (event.code === 4403 && mine) {
      forgetTable(code);
      mine = null;
      retryDelay = 0;
      toast(t("bad_seat_code"));
    }
    setTimeout(connect, retryDelay);
    retryDelay = Math.min(Math.max(retryDelay * 2, 500), 10000);
  });
}

function noTable() {
  gone = true;
  document.body.dataset.missing = "1";
  for (const id of ["opponents", "opp-left", "opp-right", "center", "me", "hand-box", "actions-box", "status", "join-panel"]) $(id).hidden = true;
  const box = $("notice");
  box.replaceChildren(el("p", "", t("no_such_table", { code })));
  const back = el("a", "button primary", t("back_to_lobby"));
  back.href = "/";
  box.append(back);
  box.hidden = false;
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
      if (state && message.version !== state.version) {
        lastHint = null; // it was for the old position
        lastClick = { index: -1, at: 0 }; // a double-click is two clicks on one position
      }
      noteDrawn(message);
      if (!state || away) awaySummary(message);
      keepResult(message);
      {
        const before = snapshot(); // where cards may fly from (motion.js)
        const prev = state;
        settle();
        state = message;
        render();
        for (const kind of new Set(animateChanges(before, prev, state, parseAction))) playSound(kind);
      }
      if (mySeat() !== null) localStorage.setItem(`rami.seen.${code}.${mySeat()}`, JSON.stringify({ version: state.version, deal: state.view.match?.deal_number ?? 0, history: (state.view.history || []).length }));
      renderOffline();
      break;
    case "presence":
      if (state) {
        presenceNotice(state.table.seats, message.seats);
        state.table.seats = message.seats;
        state.table.status = message.status;
        if (message.timer !== undefined) state.timer = message.timer;
        render();
      }
      break;
    case "hint":
      lastHint = message;
      renderHint();
      break;
    case "arrangement":
      if (hand && Array.isArray(message.groups)) {
        hand.group(message.groups);
        hand.reconcile(state.view.hand || []);
        selected.clear();
        renderHand();
      }
      break;
    case "reaction":
      showReaction(message);
      break;
    case "rematch":
      goRematch(message.code);
      break;
    case "error":
      if (message.code === "illegal" || message.code === "not_your_turn") showRefusal(message);
      else toast(errorText(message));
      break;
    default:
      break;
  }
}

// An error in the interface language; for refusals whose reason only the engine can
// give (illegal, bad_request) its one-line reason follows.
function errorText(message) {
  const key = `err_${message.code}`;
  const text = t(key);
  if (text === key) return message.message;
  return ["illegal", "bad_request"].includes(message.code) ? `${text}: ${message.message}` : text;
}

// A refused move: what was tried, the engine's reason in the player's language when the
// page has words for it (``reason``), else the engine's own line, and the rule id.
function showRefusal(message) {
  const what = tried ? actionLabel(tried, { meldOwnerName }).textContent : "";
  const own = message.reason ? t(`why_${message.reason}`) : null;
  const plain = message.code === "illegal" ? (message.message || "").replace(/\s*\([A-Z]{1,3}-\d+[^()]*\)\s*$/, "") : t(`err_${message.code}`);
  const reason = own && own !== `why_${message.reason}` ? own : plain;
  const rule = message.rule ? ` (${t("rule_id", { rule: message.rule })})` : "";
  const text = what ? t("refused_move", { move: what, reason: reason + rule }) : `${t(`err_${message.code}`)}: ${reason}${rule}`;
  toast(text);
  const box = $("toast");
  box.dataset.rule = message.rule || "";
  tried = null;
}

// The card I just drew or took: the one my hand gained when my last move was draw/take.
function noteDrawn(next) {
  const before = state?.view.hand;
  const after = next.view.hand;
  if (!before || !after || next.seat !== state?.seat) return;
  const last = [...(next.view.history || [])].reverse().find((e) => e.move !== undefined);
  if (!last || last.seat !== next.seat || !/^(draw|take)\b/.test(last.move)) return;
  const left = new Map();
  for (const c of before) left.set(c, (left.get(c) || 0) + 1);
  for (const c of after) {
    const n = left.get(c) || 0;
    if (n) left.set(c, n - 1);
    else {
      drawn = c;
      drawnFresh = true;
      return;
    }
  }
}

// ------------------------------------------------------------------ drawing

function render() {
  if (!state) return;
  const { view, table } = state;
  document.body.dataset.game = table.game;
  document.body.dataset.version = String(state.version);
  document.body.dataset.myTurn = myTurn() ? "1" : "0";
  document.body.dataset.dealOver = view.result ? "1" : "0";
  document.body.dataset.status = table.status;
  document.body.dataset.seated = mySeat() === null ? "0" : "1";
  $("title").textContent = `${t(`game_${table.game}`)} · ${t(`preset_${table.game}_${table.preset}`)} · ${table.code}`;
  if (mySeat() !== null) {
    const key = `rami.hand.${code}.${mySeat()}`;
    if (!hand || hand.key !== key) hand = new HandOrder(key);
    hand.reconcile(view.hand || []);
  }
  const keep = document.activeElement;
  const keepAction = keep?.dataset?.action;
  const inActions = !!keep?.closest?.("#actions-box");
  const inHand = keep?.closest?.("#hand") ? Number(keep.dataset.index) : null;
  renderStatus();
  renderJoin();
  renderSeats();
  renderCenter();
  renderTableMelds();
  renderMe();
  renderHand();
  renderActions();
  renderResult();
  renderLedger();
  renderLog();
  renderInvite();
  renderHint();
  markTerms($("main"), $("result-body"), $("log"));
  restoreFocus(keepAction, inActions, inHand);
  turnCue();
}

// After a move the focus stays with the controls (issue 9), not on the page.
function restoreFocus(keepAction, inActions, inHand) {
  const active = document.activeElement;
  const lost = !active || active === document.body || !document.body.contains(active);
  const target = wantFocus || (lost && inActions ? "actions" : lost && inHand !== null ? "hand" : null);
  if (!target) return;
  wantFocus = null;
  if (!lost && target !== "actions" && target !== "hand") return;
  let node = null;
  if (keepAction) node = document.querySelector(`#actions button[data-action="${CSS.escape(keepAction)}"]`);
  if (!node && target === "hand" && inHand !== null) {
    const cards = $("hand").querySelectorAll(".card");
    node = cards[Math.min(inHand, cards.length - 1)] || null;
  }
  if (!node) node = document.querySelector("#actions button:not([disabled])");
  if (!node) node = $("hand").querySelector(".card");
  if (!node) node = $("hint-button");
  node?.focus({ preventScroll: true });
}

function turnCue() {
  const now = myTurn();
  document.title = now ? `● ${t("your_turn_title")} · ${baseTitle()}` : baseTitle();
  if (now && !wasMyTurn) {
    playSound("turn");
    if (navigator.vibrate) {
      try {
        navigator.vibrate(120);
      } catch {
        /* not allowed before a gesture */
      }
    }
  }
  wasMyTurn = now;
}

function stagedValue() {
  return (state.view.table || []).filter((m) => m.staged).reduce((sum, m) => sum + (m.value || 0), 0);
}

function renderStatus() {
  const { view, table } = state;
  const me = mySeat();
  let text;
  if (table.status === "waiting") text = t("status_waiting_players");
  else if (view.result && view.match?.game_over) text = t("match_over");
  else if (view.result) text = t("deal_n_over", { n: (view.match?.deal_number ?? 0) + 1 });
  else if (view.to_move === me && me !== null) {
    text = t("your_turn") + " " + phaseText(view);
    if (view.must_open) text += " " + t("must_open", { threshold: view.threshold });
  } else text = t("waiting_for", { name: nameOf(view.to_move) });
  if (me === null && table.status !== "waiting") text = `${t("watching_short")} · ${text}`;
  $("status-text").textContent = text;
  const auto = me !== null && table.seats[me]?.auto;
  $("auto-banner").hidden = !auto;
  renderTimer();
}

// What to do now, from the engine's legal actions: when only one verb is legal the status
// says that one (a first round where only Draw is legal, a tunnela exposed: pass on).
function phaseText(view) {
  const base = `phase_${view.game}_${view.phase}`;
  const verbs = [...new Set((view.legal_actions || []).map((a) => parseAction(a).verb))];
  if (verbs.length === 1) {
    const key = `${base}_${verbs[0]}_only`;
    const text = t(key);
    if (text !== key) return text;
  }
  return t(base);
}

function renderTimer() {
  const timer = state?.timer;
  const box = $("timer");
  clearInterval(timerTick);
  if (!timer || state.view.result || timer.seat === null || timer.seat === undefined) {
    box.hidden = true;
    ringTimer($("main"), null);
    return;
  }
  timerEnd = Date.now() + timer.remaining * 1000;
  const tick = () => {
    const left = Math.max(0, Math.ceil((timerEnd - Date.now()) / 1000));
    box.textContent = `⏱ ${left}s`;
    box.classList.toggle("low", left <= 10);
    box.title = t("timer_of", { name: nameOf(timer.seat) });
  };
  box.hidden = false;
  tick();
  timerTick = setInterval(tick, 500);
  ringTimer($("main"), timer.seat, timerEnd, state.table.turn_seconds || timer.remaining);
}

function renderJoin() {
  const { table } = state;
  const free = table.seats.filter((s) => s.kind === "human" && !s.claimed);
  const show = mySeat() === null;
  $("join-panel").hidden = !show;
  if (!show) return;
  // Free seats: a name and a button each; none (a full table): only the seat-code form.
  const nameLabel = $("join-name").closest("label");
  nameLabel.hidden = !free.length;
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
  if (!buttons.length) buttons.push(el("span", "muted", `${t("watching")} ${t("no_free_seat")}`));
  $("free-seats").replaceChildren(...buttons);
}

async function joinSeat(seat) {
  const name = $("join-name").value.trim();
  savePlayerName(name);
  try {
    const body = { seat, name };
    if (invite) body.invite = invite;
    const joined = await api(`/api/tables/${code}/join`, { method: "POST", body });
    rememberSeat(code, joined.seat, joined.token);
    mine = seatOf(code);
    reconnect();
  } catch (err) {
    toast(errorText(err));
  }
}

function playingOrder() {
  const n = state.view.seats.length;
  const me = mySeat();
  const start = me === null ? 0 : me + 1;
  const order = [];
  for (let k = 0; k < n; k++) {
    const s = (start + k) % n;
    if (s !== me) order.push(s);
  }
  return order;
}

function lastDiscards() {
  const out = {};
  for (const e of state.view.history || []) {
    if (e.move === undefined) continue;
    const a = parseAction(e.move);
    if (a.verb === "discard") out[e.seat] = a.cards[0];
    if (a.verb === "finish" && a.cards.length) out[e.seat] = a.cards[a.cards.length - 1];
  }
  return out;
}

// The table's game: its client module (the URL /api/games gives, ``WebHooks.client``)
// and flags. A game without a module gets what every game shares; this file never
// names a game.
const gameKinds = new Map(); // name -> {info, hooks}
// What a game's module gets: the page's helpers and the last state message.
const kit = {
  el, t, cardRow, cardElement, cardName, nameOf, wildMarks, resultTable, signed, stagedValue,
  get state() {
    return state;
  },
  // the finished deal on show ({result, aids, rules, match, deal, live}): it may be an
  // earlier deal than the state's, kept until this player closes it
  get shown() {
    return kept;
  },
};

async function loadGames() {
  const list = await api("/api/games").catch(() => []);
  for (const info of list) {
    const hooks = info.client?.table ? await import(info.client.table).catch(() => ({})) : {};
    gameKinds.set(info.name, { info, hooks });
  }
}

function game() {
  return gameKinds.get(state.view.game) || { info: {}, hooks: {} };
}

function wildMarks(card) {
  return (state.view.wild_cards || []).includes(card) ? ["wild"] : [];
}

function seatFacts(seat, facts) {
  const { view } = state;
  const { hooks } = game();
  if (hooks.seatFacts) facts.append(...hooks.seatFacts(kit, view.seats[seat], view));
}

function seatGroups(seat) {
  const { view } = state;
  const info = view.seats[seat];
  const groups = el("div", "groups");
  const { hooks } = game();
  if (hooks.seatGroups) groups.append(...hooks.seatGroups(kit, info, view));
  return groups;
}

function road(seat) {
  const match = state.view.match;
  if (!match) return null; // a match with an elimination limit (T-13) shows each seat's road
  const limit = match.elimination || state.view.rules?.elimination;
  const total = (match.totals || [])[seat] ?? 0;
  if (!limit) return null;
  const bar = el("span", "road");
  bar.title = t("road_to", { total, limit });
  bar.setAttribute("role", "progressbar");
  bar.setAttribute("aria-valuemin", "0");
  bar.setAttribute("aria-valuemax", String(limit));
  bar.setAttribute("aria-valuenow", String(Math.min(total, limit)));
  bar.setAttribute("aria-label", t("road_to", { total, limit }));
  const fill = el("span");
  fill.style.width = `${Math.min(100, (100 * total) / limit)}%`;
  bar.append(fill);
  return bar;
}

function seatBox(seat, last) {
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
  who.append(avatar(summary.name || nameOf(seat), seat), dot, el("strong", "", nameOf(seat)));
  const myTeam = mySeat() === null ? undefined : view.seats[mySeat()]?.team;
  if (myTeam !== undefined && myTeam !== null && info.team === myTeam) who.append(el("small", "badge partner", t("partner")));
  if (summary.kind === "bot") who.append(el("small", "badge", t("bot_level", { level: levelLabel(summary.level) })));
  if (summary.auto) who.append(el("small", "badge auto", t("auto")));
  if (view.dealer === seat) who.append(el("small", "badge dealer", t("dealer")));
  if (info.team !== undefined && info.team !== null) who.append(el("small", "badge team", t("team_n", { n: info.team + 1 })));
  box.append(who);
  const facts = el("div", "facts");
  const count = el("span", "count");
  count.append(backsFan(info.hand_size), t("cards_n", { n: info.hand_size }));
  facts.append(count);
  seatFacts(seat, facts);
  if (last[seat]) {
    const lastBox = el("span", "last", t("last_discard"));
    lastBox.append(cardElement(last[seat], { small: true }));
    facts.append(lastBox);
  }
  box.append(facts);
  const r = road(seat);
  if (r) box.append(r);
  const groups = seatGroups(seat);
  if (groups.childElementCount) box.append(groups);
  if (summary.kind === "human" && summary.claimed && !summary.online && !summary.auto && mySeat() !== null && table.status === "playing") {
    const give = el("button", "small", t("give_to_bot"));
    give.type = "button";
    give.dataset.autoSeat = String(seat);
    give.addEventListener("click", () => send({ type: "auto", seat }));
    box.append(give);
  }
  return box;
}

// Seats as they sit round a real table, seen from mine at the bottom: with play going
// clockwise the next player sits on my left, counter-clockwise on my right (the rules'
// direction; a game without the option plays counter-clockwise). Positions are physical,
// so they do not flip with right-to-left writing. Wide screens put the nearest seats at
// the sides of the felt.
function renderSeats() {
  const last = lastDiscards();
  const order = playingOrder();
  const clockwise = (state.view.rules?.direction || "counterclockwise") === "clockwise";
  const leftToRight = clockwise ? order : [...order].reverse();
  const wide = window.innerWidth >= 900 && window.innerHeight >= 560 && leftToRight.length >= 2;
  const left = wide ? [leftToRight[0]] : [];
  const right = wide ? [leftToRight[leftToRight.length - 1]] : [];
  const top = wide ? leftToRight.slice(1, -1) : leftToRight;
  $("opp-left").replaceChildren(...left.map((s) => seatBox(s, last)));
  $("opp-right").replaceChildren(...right.map((s) => seatBox(s, last)));
  $("opponents").replaceChildren(...top.map((s) => seatBox(s, last)));
  $("opp-left").hidden = !left.length;
  $("opp-right").hidden = !right.length;
  $("opponents").hidden = !top.length;
  if (order.length) {
    const next = $("main").querySelector(`.seat-box[data-seat="${order[0]}"]`);
    next?.querySelector(".who")?.append(el("small", "badge next", t("plays_next")));
  }
}

function pileThrower(view) {
  const pile = view.discard_pile || [];
  if (!pile.length) return null;
  const top = pile[pile.length - 1];
  // Walk back through the log: each take uncovered the card thrown before it.
  let taken = 0;
  for (const e of [...(view.history || [])].reverse()) {
    if (e.move === undefined) {
      if (e.args && e.args.card === top && e.news === "deal") return taken ? null : "deal";
      continue;
    }
    const a = parseAction(e.move);
    if (a.verb === "take") taken += 1;
    else if (a.verb === "discard" || a.verb === "finish") {
      if (taken) taken -= 1;
      else return a.cards[a.cards.length - 1] === top ? e.seat : null;
    }
  }
  return null;
}

let lastTop = null;
function renderCenter() {
  const { view } = state;
  $("stock-count").textContent = t("stock_n", { n: view.stock_size });
  const pile = view.discard_pile || [];
  const top = pile.length ? pile[pile.length - 1] : null;
  const topBox = $("pile-top");
  if (top) {
    const card = cardElement(top, { marks: wildMarks(top) });
    card.id = "pile-top-card";
    const key = `${pile.length}:${top}`;
    lastTop = key;
    topBox.replaceChildren(card);
  } else {
    topBox.replaceChildren(el("span", "empty"));
    lastTop = "";
  }
  const by = pileThrower(view);
  let byText = "";
  if (top && by === "deal") byText = t("turned_up");
  else if (top && by !== null) byText = t("thrown_by", { name: nameOf(by) });
  else if (!top) byText = t("empty");
  $("pile-by").textContent = byText;
  // older discards, newest first: the strip starts with the most recent in both directions
  let older = pile.slice(0, -1).reverse();
  const down = game().hooks.pileFaceDown?.(kit, view); // a card thrown face down (T-9)
  if (down) {
    down.card.id = "pile-top-card";
    topBox.replaceChildren(down.card);
    $("pile-by").replaceChildren(...down.by);
    older = pile.slice().reverse();
    lastTop = `down:${pile.length}`;
  }
  $("pile").replaceChildren(...older.map((c) => cardElement(c, { small: true, marks: wildMarks(c) })));
  const { hooks } = game(); // the wild-card box beside the pile, for a game with one
  $("tiplu-box").hidden = !hooks.wildBox;
  if (hooks.wildBox) {
    $("wild-label").textContent = hooks.wildLabel || "";
    $("tiplu").replaceChildren(...hooks.wildBox(kit, view));
  }
}

function renderTableMelds() {
  const { view } = state;
  const show = Boolean(game().hooks.tableMelds);
  $("table-melds-box").hidden = !show;
  if (!show) return;
  const before = meldsSeen;
  meldsSeen = new Map();
  const items = (view.table || []).map((m) => {
    const li = el("li", m.staged ? "staged" : "");
    li.dataset.meld = String(m.index);
    const key = m.cards.join(" ");
    const row = cardRow(m.cards);
    meldsSeen.set(m.index, key);
    li.title = `@${m.index}: ${m.value} · ${nameOf(m.owner)}`; // shown when a short screen hides the text
    li.append(el("span", "index", `@${m.index}`), row, el("span", "small", `${m.value} · ${nameOf(m.owner)}`));
    if (m.staged) li.append(el("span", "small badge", t("staged_meld")));
    return li;
  });
  if (!items.length) items.push(el("li", "muted small", t("empty")));
  $("table-melds").replaceChildren(...items);
}

function renderMe() {
  const { view, table } = state;
  const me = mySeat();
  const box = $("me");
  if (me === null || table.status === "waiting") {
    box.replaceChildren();
    box.hidden = me === null;
    return;
  }
  box.hidden = false;
  const parts = [];
  const info = view.seats[me];
  const who = el("strong", "", nameOf(me));
  parts.push(avatar(table.seats[me]?.name || nameOf(me), me), who);
  const team = info.team;
  if (team !== undefined && team !== null) {
    const partners = view.seats.map((x, s) => (s !== me && x.team === team ? nameOf(s) : null)).filter(Boolean);
    if (partners.length) parts.push(el("span", "badge partner", `${t("partner")}: ${partners.join(", ")}`));
  }
  if (view.dealer === me) parts.push(el("span", "badge dealer", t("dealer")));
  const { hooks } = game();
  if (hooks.meFacts) parts.push(...hooks.meFacts(kit, me, info, view));
  box.replaceChildren(...parts);
}

function fanRows(count) {
  const width = $("hand").clientWidth || document.documentElement.clientWidth - 24;
  const cardW = parseFloat(getComputedStyle($("hand")).getPropertyValue("--card-w")) * 16 || 42;
  const full = cardW + 4;
  for (let rows = 1; rows <= 3; rows++) {
    const perRow = Math.ceil(count / rows);
    const step = perRow > 1 ? (width - cardW - (hand?.breaks.size || 0) * 10) / (perRow - 1) : full;
    if (step >= cardW * 0.6 || rows === 3) return { rows, perRow, step: Math.min(full, step) };
  }
  return { rows: 1, perRow: count, step: full };
}

function renderHand() {
  const box = $("hand-box");
  const show = mySeat() !== null && !!state.view.hand;
  box.hidden = !show;
  if (!show) return;
  const cards = hand.cards;
  const legal = new Set(state.view.legal_actions || []);
  $("hand-count").textContent = t("cards_n", { n: cards.length });
  for (const [id, mode] of [["sort-suit", "suit"], ["sort-rank", "rank"], ["sort-group", "group"]]) {
    $(id).classList.toggle("active", hand.mode === mode);
    $(id).setAttribute("aria-pressed", hand.mode === mode ? "true" : "false");
  }
  const { perRow, step } = fanRows(cards.length);
  $("hand").style.setProperty("--step", `${step}px`);
  const rows = [];
  let row = null;
  cards.forEach((c, i) => {
    if (i % perRow === 0) rows.push((row = el("div", "hand-row")));
    const marks = [...wildMarks(c)];
    if (legal.has(`discard ${c}`)) marks.push("discardable");
    if (c === drawn) marks.push("drawn");
    if (hand.breaks.has(i) && i % perRow !== 0) marks.push("gap");
    const card = cardElement(c, { tag: "button", marks });
    card.type = "button";
    card.dataset.index = String(i);
    card.setAttribute("aria-pressed", selected.has(i) ? "true" : "false");
    if (c === drawn) card.setAttribute("aria-description", t("just_drawn"));
    row.append(card);
  });
  $("hand").replaceChildren(...rows);
  drawnFresh = false;
}

function actionButton(a, cls = "") {
  const button = el("button", `action ${cls}`.trim());
  button.type = "button";
  button.dataset.action = a.text;
  button.append(actionLabel(a, { meldOwnerName }));
  button.addEventListener("click", () => play(a.text));
  return button;
}

function maxButtons() {
  return window.innerWidth < 600 || window.innerHeight < 560 ? 4 : 10;
}

function renderActions() {
  const seated = mySeat() !== null && state.table.status !== "waiting";
  $("actions-box").hidden = !seated;
  if (!seated) return;
  const legal = (state.view.legal_actions || []).map(parseAction);
  const chosen = [...selected].sort((a, b) => a - b).map((i) => hand.cards[i]);
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
  const limit = maxButtons();
  for (const a of fitting.slice(0, limit)) buttons.push(actionButton(a));
  $("actions").replaceChildren(...buttons);
  const more = fitting.length - limit;
  $("more-note").hidden = more <= 0;
  $("more-note").textContent = more > 0 ? t("more_moves_short", { n: more }) : "";
  const select = $("all-moves");
  const keepChoice = select.value;
  const none = el("option", "", t("choose_move"));
  none.value = "";
  select.replaceChildren(
    none,
    ...legal.map((a) => {
      const option = el("option", "", `${t(`verb_${a.verb}`)} ${a.cards.join(" ")}${a.target !== null ? ` @${a.target}` : ""}`);
      option.value = a.text;
      return option;
    }),
  );
  if (keepChoice && legal.some((a) => a.text === keepChoice)) select.value = keepChoice;
  else select.value = "";
  select.disabled = !legal.length;
  select.hidden = !legal.length;
  $("play-selected").disabled = !legal.length || !select.value;
  renderFelt(legal);
  $("play-selected").hidden = !legal.length;
  $("hint-button").disabled = !!state.view.result;
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
    if (state && new Set(state.view.legal_actions || []).has(lastHint.suggestion)) {
      const go = el("button", "small", t("play_it"));
      go.type = "button";
      go.dataset.hintAction = lastHint.suggestion;
      go.addEventListener("click", () => play(lastHint.suggestion));
      p.append(" ", go);
    }
    parts.push(p);
  } else if (!myTurn()) parts.push(el("p", "muted", t("hint_not_your_turn")));
  for (const note of lastHint.notes || []) {
    const args = {};
    for (const [k, v] of Object.entries(note)) args[k] = Array.isArray(v) ? v.join(" · ") : v;
    parts.push(el("p", "", t(note.key, args)));
  }
  if (!parts.length) parts.push(el("p", "muted", t("hint_none")));
  box.replaceChildren(...parts);
}

function resultTable(headers, rows, extra = "") {
  const tableEl = el("table", `grid-table ${extra}`.trim());
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

function signed(x) {
  return x > 0 ? `+${x}` : String(x);
}

// The last finished deal stays with this player until they close it, whatever the others
// do: another player's Next deal starts the deal underneath, and the panel stays (with its
// Replay) until this player presses Next deal or Close.
function keepResult(next) {
  const result = next.view.result;
  if (result) {
    const deal = next.view.match?.deal_number ?? 0;
    if (!kept || kept.deal !== deal) resultHidden = false;
    kept = { result, aids: next.aids || {}, rules: next.view.rules, match: next.view.match, deal, live: true };
  } else if (kept) kept.live = false;
}

function renderResult() {
  const shown = kept;
  $("result").hidden = !shown || resultHidden;
  $("result-show").hidden = !shown || !resultHidden;
  if (!shown) return;
  const { result } = shown;
  const details = result.details || {};
  const { hooks } = game();
  const over = shown.match?.game_over;
  $("result-title").textContent = over ? t("match_over_title") : t("deal_n_over", { n: shown.deal + 1 });
  $("result").dataset.deal = String(shown.deal);
  $("result").dataset.live = shown.live ? "1" : "0";
  const body = [];
  if (!shown.live) body.push(el("p", "muted small next-started", t("next_deal_started")));
  const summary = el("p", "");
  if (result.winner !== null && result.winner !== undefined) {
    summary.textContent = t(hooks.resultSummary || "finished_by", { name: nameOf(result.winner) });
  } else summary.textContent = t("no_finisher");
  body.push(summary);
  if (hooks.resultBody) hooks.resultBody(kit, details, result, body);
  else {
    const rows = result.scores.map((points, s) => [nameOf(s), String(points)]);
    body.push(resultTable([t("player"), t("points")], rows, "result-table"));
  }
  if (over) {
    const winners = shown.match.winners || [];
    body.push(el("p", "strong", t("match_winner", { names: winners.map(nameOf).join(", ") })));
  }
  body.push(el("h3", "", t("ledger")), scoreboard());
  $("result-body").replaceChildren(...body);
  $("next-deal").hidden = !!over || mySeat() === null || !shown.live;
  $("rematch").hidden = !over || mySeat() === null;
  let close = $("result-close");
  if (!close) {
    close = el("button", "primary", "");
    close.type = "button";
    close.id = "result-close";
    close.addEventListener("click", closeResult);
    $("next-deal").after(close);
  }
  close.textContent = t("close_result");
  close.hidden = shown.live;
  // The record and the replay link are a server table's (a solo table has no server).
  if (shown.live && !solo) renderRecordLink(body); // the shuffle revealed is the live deal's
}

function closeResult() {
  kept = null;
  resultHidden = false;
  renderResult();
  wantFocus = "actions";
  restoreFocus(null, false, null);
}

// The deal's open record (docs/records.md) and its revealed shuffle, near the result:
// a link to GET /api/tables/{code}/record (finished deals only are shown in full there).
function renderRecordLink(body) {
  let link = $("record-download");
  if (!link) {
    link = el("a", "button", t("download_record"));
    link.id = "record-download";
    link.href = `/api/tables/${encodeURIComponent(code)}/record`;
    link.setAttribute("download", `rami-${code}.rami`);
    link.addEventListener("click", downloadRecord);
    $("replay-button").after(link);
  }
  addReplayLink(code, mine?.token, link, state.table?.shuffle?.deal); // issue 24: /r/{id}
  const shuffle = state.table?.shuffle;
  if (shuffle && shuffle.seed !== null && shuffle.seed !== undefined) {
    const line = el("p", "muted small shuffle-revealed", t("shuffle_revealed", {
      deal: shuffle.deal, seed: shuffle.seed, salt: shuffle.salt, commitment: shuffle.commitment,
    }));
    line.id = "shuffle-revealed";
    line.style.overflowWrap = "anywhere"; // the 64-digit commitment wraps on a phone
    $("result-body").append(line);
  }
}

// A seated player's download carries the seat's token (a link cannot), so that it still
// works when the table's creator keeps the replays private.
async function downloadRecord(event) {
  const token = mine?.token;
  if (!token) return; // a spectator: the plain link
  event.preventDefault();
  const link = event.currentTarget;
  const response = await fetch(link.href, { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) return toast(t("replay_download_failed"));
  const url = URL.createObjectURL(await response.blob());
  const a = el("a");
  a.href = url;
  a.download = link.getAttribute("download");
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function scoreboard() {
  const { view } = state;
  const match = view.match;
  const wrap = el("div", "scoreboard");
  if (!match) return wrap;
  const n = view.seats.length;
  const headers = [t("deal"), ...Array.from({ length: n }, (_, s) => nameOf(s))];
  const seated = mySeat() !== null;
  const rows = (match.deals || []).map((d) => {
    const points = d.points || d.nets || [];
    const row = [String((d.deal ?? 0) + 1), ...points.map((p) => (game().info.signed_points ? signed(p) : String(p)))];
    if (seated) row.push(replayButton(d.deal ?? 0));
    return row;
  });
  const totals = match.totals || match.balances || [];
  rows.push([t("total"), ...totals.map((x) => String(x)), ...(seated ? [""] : [])]);
  if (seated) headers.push(t("replay_short"));
  wrap.append(resultTable(headers, rows));
  const facts = [];
  if (match.deals_total) facts.push(t("deal_of", { n: (match.deal_number ?? 0) + 1, total: match.deals_total }));
  if (match.elimination) facts.push(t("elimination_at", { n: match.elimination }));
  if (match.team_totals) facts.push(t("team_totals", { a: match.team_totals[0], b: match.team_totals[1] }));
  if (facts.length) wrap.append(el("p", "muted small", facts.join(" · ")));
  return wrap;
}

function renderLedger() {
  $("ledger").replaceChildren(scoreboard());
  renderReplay();
}

function renderLog() {
  const history = state.view.history || [];
  const items = history
    .slice(-200)
    .reverse()
    .map((entry) => logEntry(entry, nameOf, meldOwnerName));
  $("log").replaceChildren(...items);
}

function renderInvite() {
  const { table } = state;
  $("code").textContent = table.code;
  const link = `${location.origin}/t/${table.code}`;
  if (!inviteUrl && !inviteAsked && mine?.token && mySeat() !== null) {
    inviteAsked = true;
    api(`/api/tables/${code}/invite`, { token: mine.token })
      .then((got) => {
        inviteUrl = new URL(got.invite_url, location.href).href; // the server may answer a path
        renderInvite();
      })
      .catch(() => {
        inviteAsked = false;
      });
  }
  const [shared, secret] = (inviteUrl || link).split("#");
  const tail = secret ? `#${secret}` : "";
  $("invite-link").value = shared + tail;
  const items = table.seats.map((s) => {
    const li = el("li");
    const kind = s.kind === "bot" ? t("bot_level", { level: levelLabel(s.level) }) : s.claimed ? t("taken") : t("free");
    li.append(el("span", "", `${t("seat_n", { n: s.seat + 1 })}: ${s.claimed ? s.name : "—"} (${kind})`));
    if (s.kind === "human" && !s.claimed) {
      const a = el("a", "", t("seat_link"));
      a.href = `${shared}?seat=${s.seat + 1}${tail}`;
      li.append(" ", a);
    }
    return li;
  });
  $("seat-list").replaceChildren(...items);
  const token = mine?.token;
  $("private-box").hidden = !token || mySeat() === null;
  if (token) $("private-link").value = `${link}#token=${token}`;
  $("seat-code-box").hidden = !state.seat_code;
  $("seat-code").textContent = state.seat_code || "";
  const secs = table.turn_seconds;
  $("timer-setting").textContent = secs ? t("turn_timer_is", { n: secs }) : t("turn_timer_off");
  $("start").hidden = !(table.status === "waiting" && mySeat() !== null);
  $("rules-link").href = `/rules/${table.game}/${table.preset}`;
  if (token && mySeat() !== null && !solo) addReplayPrivacy(code, token, $("invite"));
  // a waiting table opens the invite drawer once, so the creator sees how to invite
  if (table.status === "waiting" && mySeat() !== null && !renderInvite.opened) {
    renderInvite.opened = true;
    openDrawer("invite");
  } else if (table.status !== "waiting" && renderInvite.opened === true) {
    renderInvite.opened = "closed"; // play has started: the table needs the room
    $("invite").hidden = true;
  }
}

// ------------------------------------------------------------------ replay of a finished deal

// Every finished deal of the match replays from the scoreboard.
function replayButton(deal) {
  const b = el("button", "small replay-deal", "▶");
  b.type = "button";
  b.dataset.replayDeal = String(deal);
  b.setAttribute("aria-label", t("replay_deal_n", { n: deal + 1 }));
  b.title = t("replay_deal_n", { n: deal + 1 });
  b.addEventListener("click", () => loadReplay(deal));
  return b;
}

async function loadReplay(which) {
  const match = state.view.match;
  const deal = Number.isInteger(which)
    ? which
    : kept
      ? kept.deal
      : state.view.result
        ? (match?.deal_number ?? 0)
        : Math.max(0, (match?.deal_number ?? 1) - 1);
  try {
    const data = await tableApi(`/api/tables/${code}/replay?deal=${deal}`, { token: mine?.token });
    replay = { frames: data.frames, step: 0, deal };
    resultHidden = true;
    renderResult();
    if ($("ledger-box").hidden) openDrawer("ledger-box");
    renderReplay();
  } catch (err) {
    toast(errorText(err));
  }
}

function renderReplay() {
  const box = $("replay");
  box.hidden = !replay;
  if (!replay) return;
  const frames = replay.frames;
  const step = Math.max(0, Math.min(replay.step, frames.length - 1));
  replay.step = step;
  const frame = frames[step];
  $("replay-step").textContent = t("replay_step", { n: step, total: frames.length - 1, deal: replay.deal + 1 });
  $("replay-step").dataset.step = String(step);
  const move = $("replay-move");
  move.replaceChildren();
  if (frame.seat !== null && frame.move) move.append(el("strong", "", `${nameOf(frame.seat)}: `), actionLabel(frame.move));
  const body = el("div", "hands");
  frame.hands.forEach((cards, s) => {
    const row = el("div");
    row.append(el("strong", "small", `${nameOf(s)} `), cardRow(cards));
    body.append(row);
  });
  const pile = el("div", "small");
  pile.append(t("discard_pile") + ": ");
  if (frame.pile_top) pile.append(cardElement(frame.pile_top, { small: true }));
  body.append(pile);
  $("replay-body").replaceChildren(body);
}

// ------------------------------------------------------------------ talk

// Names and reactions always as text (el() sets textContent): a name like "<b>x</b>" shows as typed.
function showReaction(message) {
  const emoji = EMOJIS[message.key];
  const text = `${nameOf(message.seat)}: ${emoji || t(`react_${message.key}`)}`;
  const bubble = el("div", "bubble", text);
  $("bubbles").append(bubble);
  setTimeout(() => bubble.remove(), 3500);
  const li = el("li", "", text);
  $("talk-log").prepend(li);
}

function renderReactionButtons() {
  $("reaction-buttons").replaceChildren(
    ...REACTIONS.map((key) => {
      const b = el("button", "small", t(`react_${key}`));
      b.type = "button";
      b.dataset.reaction = key;
      b.addEventListener("click", () => send({ type: "react", key }));
      return b;
    }),
    ...Object.entries(EMOJIS).map(([key, glyph]) => {
      const b = el("button", "small emoji", glyph);
      b.type = "button";
      b.dataset.reaction = key;
      b.title = t(`react_${key}`);
      b.setAttribute("aria-label", t(`react_${key}`));
      b.addEventListener("click", () => send({ type: "react", key }));
      return b;
    }),
  );
}

function goRematch(newCode) {
  if (!newCode || goRematch.going) return;
  goRematch.going = true; // the answer and the table's notice both name it: go once
  if (mine?.token) rememberSeat(newCode, mySeat(), mine.token);
  location.href = tableHref(newCode);
}

// ------------------------------------------------------------------ input

// A discard the engine does not list is still sent: its refusal says why (and the rule).
function discardCard(card) {
  if (new Set(state?.view.legal_actions || []).has(`discard ${card}`)) play(`discard ${card}`, "hand");
  else if (mySeat() !== null && state?.table.status === "playing") {
    tried = `discard ${card}`;
    send({ type: "action", action: tried });
  } else toast(t("cannot_discard", { card: cardName(card) }));
}

function handIndex(target) {
  const card = target?.closest?.("#hand .card");
  return card ? Number(card.dataset.index) : -1;
}

function toggleSelected(i) {
  if (selected.has(i)) selected.delete(i);
  else selected.add(i);
  const node = $("hand").querySelector(`.card[data-index="${i}"]`);
  node?.setAttribute("aria-pressed", selected.has(i) ? "true" : "false");
  renderActions();
}

let drag = null;
let suppressClick = false;

function wireHand() {
  const box = $("hand");
  // Selecting updates the card in place (no redraw), so a second click lands on the
  // same card: two clicks on one card within DOUBLE_MS discard it (double-click/-tap).
  box.addEventListener("click", (event) => {
    const i = handIndex(event.target);
    if (i < 0) return;
    if (suppressClick) {
      suppressClick = false;
      return;
    }
    const now = performance.now();
    if (lastClick.index === i && now - lastClick.at < DOUBLE_MS) {
      lastClick = { index: -1, at: 0 };
      selected.delete(i);
      discardCard(hand.cards[i]);
      return;
    }
    lastClick = { index: i, at: now };
    toggleSelected(i);
  });
  box.addEventListener("keydown", (event) => {
    const i = handIndex(event.target);
    if (i < 0) return;
    const cards = [...box.querySelectorAll(".card")];
    const rtl = document.documentElement.dir === "rtl";
    const step = event.key === "ArrowRight" ? (rtl ? -1 : 1) : event.key === "ArrowLeft" ? (rtl ? 1 : -1) : 0;
    if (step && event.shiftKey) {
      event.preventDefault();
      if (hand.move(i, i + step)) {
        selected.clear();
        renderHand();
        renderActions();
      }
      box.querySelectorAll(".card")[Math.max(0, Math.min(i + step, hand.cards.length - 1))]?.focus();
    } else if (step) {
      event.preventDefault();
      cards[(i + step + cards.length) % cards.length]?.focus();
    } else if (event.key === "d" || event.key === "D") {
      event.preventDefault();
      discardCard(hand.cards[i]);
    }
  });
  // Drag to reorder or onto the pile to discard: pointer events (mouse, touch, pen).
  box.addEventListener("pointerdown", (event) => {
    const i = handIndex(event.target);
    if (i < 0 || event.button > 0) return;
    drag = { index: i, x: event.clientX, y: event.clientY, node: event.target.closest(".card"), ghost: null, id: event.pointerId };
  });
  window.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.ghost) {
      if (Math.hypot(dx, dy) < 10) return;
      drag.ghost = drag.node.cloneNode(true);
      drag.ghost.classList.add("drag-ghost");
      document.body.append(drag.ghost);
      drag.node.classList.add("dragging");
    }
    event.preventDefault();
    drag.ghost.style.left = `${event.clientX - 18}px`;
    drag.ghost.style.top = `${event.clientY - 28}px`;
    for (const n of box.querySelectorAll(".drop-before")) n.classList.remove("drop-before");
    const under = document.elementFromPoint(event.clientX, event.clientY);
    under?.closest?.("#hand .card")?.classList.add("drop-before");
    $("pile-box").classList.toggle("drop", !!under?.closest?.("#pile-box"));
  });
  const end = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.ghost) return;
    d.ghost.remove();
    d.node.classList.remove("dragging");
    $("pile-box").classList.remove("drop");
    suppressClick = true;
    setTimeout(() => (suppressClick = false), 50);
    const under = document.elementFromPoint(event.clientX, event.clientY);
    if (under?.closest?.("#pile-box")) {
      discardCard(hand.cards[d.index]);
      return;
    }
    const to = handIndex(under);
    if (to >= 0 && hand.move(d.index, to)) {
      selected.clear();
      renderHand();
      renderActions();
    } else renderHand();
  };
  window.addEventListener("pointerup", end);
  window.addEventListener("pointercancel", end);
}

// Direct play (issue 21): tap the stock to draw, the pile's top to take. Each is live
// only while the server lists that move (view.legal_actions); the page decides nothing.
function feltMove(verb) {
  return (state?.view.legal_actions || []).find((a) => parseAction(a).verb === verb && !parseAction(a).cards.length) || null;
}

function renderFelt(legal) {
  const draw = legal.find((a) => a.verb === "draw" && !a.cards.length);
  const take = legal.find((a) => a.verb === "take" && !a.cards.length);
  const stock = $("stock");
  stock.classList.toggle("playable", !!draw);
  stock.setAttribute("aria-disabled", draw ? "false" : "true");
  stock.setAttribute("aria-label", draw ? `${t("verb_draw")} · ${t("stock_n", { n: state.view.stock_size })}` : t("stock_n", { n: state.view.stock_size }));
  const pile = $("pile-top");
  pile.classList.toggle("playable", !!take);
  if (take) {
    pile.setAttribute("role", "button");
    pile.tabIndex = 0;
    // the name holds the card's own name, so that it contains what is seen (axe: label-content-name-mismatch)
    const card = $("pile-top-card")?.getAttribute("aria-label");
    pile.setAttribute("aria-label", card ? `${t("verb_take")} ${card}` : t("verb_take"));
  } else {
    pile.removeAttribute("role");
    pile.removeAttribute("tabindex");
    pile.removeAttribute("aria-label");
  }
}

function wireFelt() {
  $("stock").addEventListener("click", () => {
    const move = feltMove("draw");
    if (move) play(move, "hand");
  });
  const take = () => {
    const move = feltMove("take");
    if (move) play(move, "hand");
  };
  $("pile-top").addEventListener("click", take);
  $("pile-top").addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      take();
    }
  });
  $("all-moves").addEventListener("change", () => {
    $("play-selected").disabled = !$("all-moves").value;
  });
}

function openDrawer(id) {
  for (const d of document.querySelectorAll(".drawer")) d.hidden = d.id !== id ? true : !d.hidden;
  for (const b of document.querySelectorAll("[data-drawer]")) b.setAttribute("aria-expanded", String(b.dataset.drawer === id && !$(id).hidden));
  if (!$(id).hidden) $(id).querySelector("[data-close]")?.focus({ preventScroll: true });
}

function copy(input) {
  input.select();
  navigator.clipboard?.writeText(input.value).then(
    () => toast(t("copied")),
    () => document.execCommand && document.execCommand("copy"),
  );
}

function copyText(text) {
  navigator.clipboard?.writeText(text).then(
    () => toast(t("copied")),
    () => toast(text),
  );
}

function setSound(on) {
  setSoundOn(on);
  $("sound").setAttribute("aria-pressed", on ? "true" : "false");
}

async function main() {
  await setLanguage(pickLanguage());
  languageSwitcher($("lang"), () => {
    translatePage();
    renderReactionButtons();
    if (state) render();
    if (gone) noTable();
    renderHint();
    setConn(socket && socket.readyState === WebSocket.OPEN ? "online" : "offline");
  });
  document.title = baseTitle();
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("invite")) {
    invite = fragment.get("invite");
    sessionStorage.setItem(INVITE_KEY, invite);
  }
  if (fragment.get("token")) {
    rememberSeat(code, null, fragment.get("token"));
    mine = seatOf(code);
  }
  if (fragment.get("invite") || fragment.get("token")) {
    history.replaceState(null, "", location.pathname + location.search);
  }
  wireHand();
  renderReactionButtons();
  setSound(soundIsOn());
  $("sound").addEventListener("click", () => setSound(!soundIsOn()));
  // browsers start audio only after a gesture
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("keydown", unlock, { once: true });
  wireFelt();
  $("sort-suit").addEventListener("click", () => {
    hand?.sort("suit");
    selected.clear();
    render();
  });
  $("sort-rank").addEventListener("click", () => {
    hand?.sort("rank");
    selected.clear();
    render();
  });
  $("sort-group").addEventListener("click", () => send({ type: "arrange" }));
  $("play-selected").addEventListener("click", () => {
    const value = $("all-moves").value;
    if (value) play(value);
  });
  $("hint-button").addEventListener("click", () => send({ type: "hint" }));
  $("next-deal").addEventListener("click", () => {
    lastHint = null;
    replay = null;
    renderHint();
    wantFocus = "actions";
    if (state?.view.result) send({ type: "next_deal" });
    closeResult();
  });
  $("rematch").addEventListener("click", () => send({ type: "rematch" }));
  $("replay-button").addEventListener("click", () => loadReplay());
  $("result-hide").addEventListener("click", () => {
    resultHidden = true;
    renderResult();
    $("result-show").focus();
  });
  $("result-show").addEventListener("click", () => {
    resultHidden = false;
    renderResult();
    $("next-deal").focus();
  });
  $("replay-prev").addEventListener("click", () => {
    replay.step -= 1;
    renderReplay();
  });
  $("replay-next").addEventListener("click", () => {
    replay.step += 1;
    renderReplay();
  });
  $("replay-end").addEventListener("click", () => {
    replay.step = replay.frames.length - 1;
    renderReplay();
  });
  $("resume").addEventListener("click", () => send({ type: "resume" }));
  for (const b of document.querySelectorAll("[data-drawer]")) b.addEventListener("click", () => openDrawer(b.dataset.drawer));
  for (const b of document.querySelectorAll("[data-close]")) {
    b.addEventListener("click", () => {
      b.closest(".drawer").hidden = true;
      document.querySelector(`[data-drawer="${b.closest(".drawer").id}"]`)?.focus();
    });
  }
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") for (const d of document.querySelectorAll(".drawer")) d.hidden = true;
  });
  $("start").addEventListener("click", () => send({ type: "start" }));
  $("copy-link").addEventListener("click", () => copy($("invite-link")));
  $("copy-private").addEventListener("click", () => copyText($("private-link").value));
  $("seat-code-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const value = $("seat-code-input").value.trim().toUpperCase();
    if (!value) return;
    rememberSeat(code, null, value);
    mine = seatOf(code);
    reconnect();
  });
  window.addEventListener("resize", () => {
    if (!state) return;
    renderSeats();
    renderHand();
  });
  await loadGames();
  connect();
  document.body.dataset.ready = "1";
}

main();

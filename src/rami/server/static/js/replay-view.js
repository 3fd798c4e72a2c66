// The replay page: a finished deal move by move (/r/{id}, or a .rami file opened here),
// from any seat's point of view or with every hand shown, on the table's felt and cards.
// No rules here: the server reads the record and sends every position (GET
// /api/replays/{id}, POST /api/records/check); the shuffle is verified there too.

import { api, ApiError } from "./api.js";
import { actionLabel, cardElement, cardRow } from "./cards.js";
import { languageSwitcher, levelLabel, pickLanguage, setLanguage, t } from "./i18n.js";

const REPLAY_TOKENS = "rami.replays"; // link -> the seat token the table page left here
const REVIEW_JOBS = "rami.reviews"; // "link:deal" -> review job id (survives a reload)

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean); // ["r", link, deal?]
const link = parts[0] === "r" ? decodeURIComponent(parts[1] || "") : null;

const state = {
  data: null, // the replay: seats, deals with frames
  text: null, // a file's record text (a link's comes from the server)
  fileName: null,
  deal: 0, // index in data.deals
  step: 0,
  pov: "all", // "all" or a seat number
  pollTimer: null,
  verdict: null, // the last "Verify this shuffle" answer
};

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function readMap(key) {
  try {
    const found = JSON.parse(localStorage.getItem(key) || "{}");
    return found && typeof found === "object" ? found : {};
  } catch {
    return {};
  }
}

function writeMap(key, map) {
  localStorage.setItem(key, JSON.stringify(map));
}

function myToken() {
  return link ? readMap(REPLAY_TOKENS)[link] || null : null;
}

// A refusal in the interface language where it has a string (err_CODE), else the
// server's one line (a record's error names the line and the rule).
function errorText(error) {
  const key = `err_${error?.code}`;
  const text = error instanceof ApiError ? t(key) : key;
  return text === key ? String(error?.message ?? error) : text;
}

function notice(text) {
  const box = $("replay-notice");
  box.textContent = text || "";
  box.hidden = !text;
}

function nameOf(seat) {
  const info = state.data?.seats?.[seat];
  return info ? info.name || t("seat_n", { n: seat + 1 }) : "?";
}

function currentDeal() {
  return state.data?.deals?.[state.deal] || null;
}

// ------------------------------------------------------------------ loading

async function loadLink() {
  const wanted = Number(parts[2] || 0);
  const query = Number.isInteger(wanted) && wanted > 0 ? `?deal=${wanted}` : "";
  try {
    state.data = await api(`/api/replays/${encodeURIComponent(link)}${query}`, { token: myToken() }).catch((error) => {
      if (query && error.code === "bad_request") return api(`/api/replays/${encodeURIComponent(link)}`, { token: myToken() });
      throw error;
    });
  } catch (error) {
    notice(errorText(error));
    return;
  }
  const index = state.data.deals.findIndex((d) => d.frames);
  state.deal = index >= 0 ? index : Math.max(0, state.data.deals.length - 1);
  $("replay-download").href = `/api/replays/${encodeURIComponent(link)}/record`;
  $("replay-download").setAttribute("download", "rami-replay.rami");
  if (myToken()) {
    // the download link cannot send the token: a private replay's record comes as a blob
    $("replay-download").addEventListener("click", downloadWithToken);
  }
  start();
}

async function downloadWithToken(event) {
  event.preventDefault();
  const response = await fetch($("replay-download").href, { headers: { Authorization: `Bearer ${myToken()}` } });
  if (!response.ok) return notice(t("replay_download_failed"));
  saveBlob(await response.blob(), "rami-replay.rami");
}

function saveBlob(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = el("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function openFile(file) {
  if (!file) return;
  const text = await file.text();
  try {
    state.data = await api("/api/records/check", { method: "POST", body: { text } });
  } catch (error) {
    notice(t("replay_bad_file", { name: file.name, message: error.message }));
    return;
  }
  notice("");
  $("replay-verify").disabled = false;
  $("replay-download").hidden = false;
  state.text = text;
  state.fileName = file.name;
  state.deal = Math.max(0, state.data.deals.findIndex((d) => d.frames));
  start();
}

function start() {
  state.step = 0;
  state.verdict = null;
  $("replay-verdict").hidden = true;
  fillChoices();
  render();
  renderReviewBox();
}

// ------------------------------------------------------------------ rendering

function fillChoices() {
  const { data } = state;
  $("title").textContent = state.fileName
    ? t("replay_of_file", { name: state.fileName })
    : `${data.title} · ${data.preset} · ${data.date || ""}`.replace(/ · $/, "");
  $("replay-deal").replaceChildren(
    ...data.deals.map((d, i) => {
      const option = el("option", "", t("replay_deal_option", { n: d.number }));
      option.value = String(i);
      return option;
    }),
  );
  $("replay-deal").value = String(state.deal);
  const povs = [["all", t("replay_every_hand")], ...data.seats.map((s, i) => [String(i), nameOf(i)])];
  $("replay-pov").replaceChildren(
    ...povs.map(([value, text]) => {
      const option = el("option", "", text);
      option.value = value;
      return option;
    }),
  );
  if (state.pov === "all" && data.my_seat !== null && data.my_seat !== undefined) state.pov = String(data.my_seat);
  $("replay-pov").value = String(state.pov);
  const inPlay = data.in_play || 0;
  $("replay-in-play").hidden = !inPlay;
  $("replay-in-play").textContent = t("replay_in_play", { n: inPlay });
  if (!data.deals.length) notice(t("replay_none"));
}

function moveText(frame, viewer) {
  // what the viewer saw: the whole move with every hand shown or for its own seat,
  // else the move as the table saw it (a stock draw without its card)
  const all = viewer === "all" || Number(viewer) === frame.seat;
  if (!all) return frame.public || frame.move;
  if (frame.card && !frame.move.includes(frame.card)) return `${frame.move} ${frame.card}`;
  return frame.move;
}

function render() {
  const deal = currentDeal();
  const frames = deal?.frames || [];
  const last = Math.max(0, frames.length - 1);
  state.step = Math.min(Math.max(0, state.step), last);
  const slider = $("replay-slider");
  slider.max = String(last);
  slider.value = String(state.step);
  slider.setAttribute("aria-valuetext", t("replay_move_of", { i: state.step, n: last }));
  $("replay-count").textContent = t("replay_move_of", { i: state.step, n: last });
  $("replay-first").disabled = $("replay-prev").disabled = state.step === 0;
  $("replay-next").disabled = $("replay-last").disabled = state.step === last;
  document.body.dataset.step = String(state.step);
  document.body.dataset.steps = String(last);
  for (const id of ["replay-controls", "replay-seats", "replay-felt"]) $(id).hidden = !frames.length;
  if (!deal || !frames.length) {
    $("replay-seats").replaceChildren();
    $("replay-felt").replaceChildren();
    $("replay-result").hidden = true;
    $("replay-move").replaceChildren();
    return;
  }
  const frame = frames[state.step];
  const line = $("replay-move");
  if (frame.move) {
    line.replaceChildren(el("span", "", `${nameOf(frame.seat)}:`), actionLabel(moveText(frame, state.pov)));
  } else {
    line.replaceChildren(el("span", "", t("replay_dealt", { name: nameOf(deal.dealer) })));
  }
  renderSeats(deal, frame);
  renderFelt(frame);
  renderResult(deal, state.step === last);
}

function renderSeats(deal, frame) {
  const boxes = state.data.seats.map((info, s) => {
    const box = el("article", "seat-box");
    if (frame.seat === s) box.classList.add("mover");
    const who = el("div", "who");
    who.append(el("strong", "", nameOf(s)));
    const kind = info.kind === "bot" ? `${t("replay_bot")} · ${levelLabel(info.level)}` : t("replay_human");
    who.append(el("span", "badge", kind));
    if (s === deal.dealer) who.append(el("span", "badge", t("dealer")));
    box.append(who);
    if (!deal.active[s]) {
      box.append(el("p", "muted small", t("replay_out")));
      return box;
    }
    const hand = frame.hands[s] || [];
    const shown = state.pov === "all" || Number(state.pov) === s;
    const cards = el("div", "hand-cards");
    cards.setAttribute("aria-label", t("replay_cards", { n: hand.length }));
    if (shown) for (const c of hand) cards.append(cardElement(c, { small: true }));
    else {
      for (let i = 0; i < hand.length; i += 1) {
        const back = el("span", "card back small");
        back.setAttribute("aria-hidden", "true");
        cards.append(back);
      }
      cards.setAttribute("role", "img");
    }
    box.append(el("div", "facts", t("replay_cards", { n: hand.length })), cards);
    const melds = frame.melds?.[s] || [];
    if (melds.length) {
      const groups = el("div", "groups");
      for (const m of melds) groups.append(cardRow(m));
      box.append(groups);
    }
    return box;
  });
  $("replay-seats").replaceChildren(...boxes);
}

function renderFelt(frame) {
  const felt = [];
  const stock = el("div", "felt-part");
  const back = el("span", "card back");
  back.setAttribute("aria-hidden", "true");
  stock.append(back, el("span", "label", t("replay_stock", { n: frame.stock ?? "?" })));
  felt.push(stock);
  const pile = el("div", "felt-part");
  const top = frame.pile.length ? cardElement(frame.pile[frame.pile.length - 1]) : el("span", "empty");
  const older = frame.pile.slice(0, -1).reverse();
  pile.append(top, el("span", "label", `${t("discard_pile")} (${frame.pile_size})`));
  if (older.length) pile.append(cardRow(older));
  felt.push(pile);
  if (frame.wild) {
    const wild = el("div", "felt-part");
    wild.append(cardElement(frame.wild), el("span", "label", t("replay_wild")));
    felt.push(wild);
  }
  if (frame.table?.length) {
    const melds = el("div", "felt-part table-melds");
    melds.append(el("span", "label", t("table_melds")));
    const list = el("div", "row");
    for (const m of frame.table) {
      const item = el("span", "");
      item.append(cardRow(m.cards));
      if (m.owner !== null && m.owner !== undefined) item.title = nameOf(m.owner);
      list.append(item);
    }
    melds.append(list);
    felt.push(melds);
  }
  $("replay-felt").replaceChildren(...felt);
}

function renderResult(deal, atEnd) {
  const box = $("replay-result");
  box.hidden = !atEnd || !deal.result;
  if (box.hidden) return;
  const body = [];
  const { result } = deal;
  body.push(el("p", "strong", result.winner === null ? t("no_finisher") : t("finished_by", { name: nameOf(result.winner) })));
  const table = el("table");
  const head = el("tr");
  head.append(el("th", "", t("player")), el("th", "", t("points")));
  table.append(head);
  result.points.forEach((p, s) => {
    const row = el("tr");
    row.append(el("td", "", nameOf(s)), el("td", "", state.data.signed && p > 0 ? `+${p}` : String(p)));
    table.append(row);
  });
  body.push(table);
  const lines = el("ul", "lines");
  lines.lang = "en"; // the settlement's details are the record's words
  for (const text of deal.settlement.slice(2)) lines.append(el("li", "", text));
  if (lines.childElementCount) body.push(lines);
  $("replay-result-body").replaceChildren(...body);
}

// Another deal: its positions are fetched when first shown (one deal's can be large).
async function showDeal(index) {
  const deal = state.data.deals[index];
  if (!deal) return;
  if (!deal.frames) {
    try {
      const got = state.text !== null
        ? await api("/api/records/check", { method: "POST", body: { text: state.text, deal: deal.number } })
        : await api(`/api/replays/${encodeURIComponent(link)}?deal=${deal.number}`, { token: myToken() });
      deal.frames = got.deals.find((d) => d.number === deal.number)?.frames || [];
    } catch (error) {
      notice(error.message);
      return;
    }
  }
  state.deal = index;
  state.step = 0;
  render();
  renderReviewBox();
}

function go(step) {
  state.step = step;
  render();
}

// ------------------------------------------------------------------ verify, download

async function verify() {
  const line = $("replay-verdict");
  line.hidden = false;
  line.className = "replay-verdict";
  line.textContent = t("replay_verifying");
  let verdict;
  try {
    verdict = state.text !== null
      ? await api("/api/records/verify", { method: "POST", body: { text: state.text } })
      : await api(`/api/replays/${encodeURIComponent(link)}/verify`, { token: myToken() });
  } catch (error) {
    verdict = { ok: false, message: error.message };
  }
  state.verdict = verdict;
  showVerdict();
  document.body.dataset.verified = verdict.ok ? "ok" : "bad";
}

function showVerdict() {
  const { verdict } = state;
  const line = $("replay-verdict");
  if (!verdict) return;
  line.className = `replay-verdict ${verdict.ok ? "ok" : "bad"}`;
  line.textContent = t(verdict.ok ? "verify_holds" : "verify_fails", { message: verdict.message });
}

function download(event) {
  if (state.text === null) return; // a link: the href serves the record
  event.preventDefault();
  saveBlob(new Blob([state.text], { type: "text/plain;charset=utf-8" }), state.fileName || "rami.rami");
}

// ------------------------------------------------------------------ review

function jobKey() {
  return `${link}:${currentDeal()?.number}`;
}

function renderReviewBox() {
  const seat = state.data?.my_seat;
  const deal = currentDeal();
  const can = link && myToken() && seat !== null && seat !== undefined && deal && deal.active[seat];
  $("review-box").hidden = !can;
  clearTimeout(state.pollTimer);
  $("review-progress").hidden = true;
  $("review-result").replaceChildren();
  $("review-start").disabled = false;
  if (!can) return;
  const job = readMap(REVIEW_JOBS)[jobKey()];
  if (job) poll(job); // a reload finds the review where it was
  else if (location.hash === "#review") {
    history.replaceState(null, "", location.pathname); // once: a reload does not restart it
    startReview(); // the table's "Review my decisions"
  }
}

async function startReview() {
  $("review-start").disabled = true;
  try {
    const job = await api(`/api/replays/${encodeURIComponent(link)}/review`, {
      method: "POST",
      body: { deal: currentDeal().number },
      token: myToken(),
    });
    const jobs = readMap(REVIEW_JOBS);
    jobs[jobKey()] = job.job;
    writeMap(REVIEW_JOBS, jobs);
    showJob(job);
  } catch (error) {
    showProgress(t("review_failed", { message: errorText(error) }));
    $("review-start").disabled = false;
  }
}

async function poll(id) {
  let job;
  try {
    job = await api(`/api/replays/${encodeURIComponent(link)}/review/${encodeURIComponent(id)}`, { token: myToken() });
  } catch {
    const jobs = readMap(REVIEW_JOBS); // gone (the server restarted): start again
    delete jobs[jobKey()];
    writeMap(REVIEW_JOBS, jobs);
    $("review-start").disabled = false;
    return;
  }
  showJob(job);
}

function showProgress(text) {
  $("review-progress").hidden = false;
  $("review-progress").textContent = text;
}

function showJob(job) {
  document.body.dataset.review = job.status;
  if (job.status === "done") {
    $("review-progress").hidden = true;
    $("review-start").disabled = true;
    renderReview(job.review);
    return;
  }
  if (job.status === "failed") {
    showProgress(t("review_failed", { message: job.error }));
    $("review-start").disabled = false;
    return;
  }
  $("review-start").disabled = true;
  showProgress(job.total ? t("review_progress", { done: job.done, total: job.total }) : t("review_queued"));
  state.pollTimer = setTimeout(() => poll(job.job), 700);
}

function renderReview(review) {
  const out = [];
  const n = review.decisions.length;
  out.push(el("p", "strong review-summary", t("review_summary", {
    lost: Number(review.points_lost).toFixed(1),
    n,
    per: n ? (review.points_lost / n).toFixed(2) : "0",
    accuracy: review.accuracy,
  })));
  const wrap = el("div", "review-table");
  const table = el("table");
  const head = el("tr");
  for (const key of ["review_n", "review_move", "review_best", "review_loss", "review_label", "review_why"]) {
    head.append(el("th", "", t(key)));
  }
  table.append(head);
  for (const d of review.decisions) {
    const row = el("tr");
    const label = el("td", `label-${d.label}`, t(`review_label_${d.label}`));
    const move = el("td");
    move.append(actionLabel(d.move));
    const best = el("td");
    best.append(actionLabel(d.best));
    const at = el("td");
    const jump = el("button", "small link", String(d.index + 1));
    jump.type = "button";
    jump.title = t("review_show");
    jump.addEventListener("click", () => {
      // the position the seat decided in, from its own view
      state.pov = String(review.seat);
      $("replay-pov").value = state.pov;
      go(d.index);
      $("replay-controls").scrollIntoView({ block: "start" });
    });
    at.append(jump);
    row.append(
      at,
      move,
      best,
      el("td", "", `${d.loss.toFixed(2)} ± ${d.stderr.toFixed(2)}`),
      label,
      el("td", "small", d.why || ""),
    );
    table.append(row);
  }
  wrap.append(table);
  out.push(wrap);
  $("review-result").replaceChildren(...out);
}

// ------------------------------------------------------------------ wiring

function keys(event) {
  const target = event.target;
  if (target instanceof HTMLSelectElement || (target instanceof HTMLInputElement && target.type !== "range")) return;
  if (target instanceof HTMLInputElement && target.type === "range") return; // the slider steps itself
  // the step bar runs left to right in every language (as the table's seats do)
  if (event.key === "ArrowRight") go(state.step + 1);
  else if (event.key === "ArrowLeft") go(state.step - 1);
  else if (event.key === "Home") go(0);
  else if (event.key === "End") go(Number.MAX_SAFE_INTEGER);
  else return;
  event.preventDefault();
}

function wire() {
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-prev").addEventListener("click", () => go(state.step - 1));
  $("replay-next").addEventListener("click", () => go(state.step + 1));
  $("replay-last").addEventListener("click", () => go(Number.MAX_SAFE_INTEGER));
  $("replay-slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("replay-deal").addEventListener("change", (e) => showDeal(Number(e.target.value)));
  $("replay-pov").addEventListener("change", (e) => {
    state.pov = e.target.value;
    render();
  });
  document.addEventListener("keydown", keys);
  $("replay-verify").addEventListener("click", verify);
  $("replay-download").addEventListener("click", download);
  $("replay-open").addEventListener("click", () => $("replay-file").click());
  $("replay-file").addEventListener("change", (e) => openFile(e.target.files[0]));
  $("review-start").addEventListener("click", startReview);
  document.addEventListener("dragover", (e) => {
    e.preventDefault();
    document.body.classList.add("dragging");
  });
  document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    document.body.classList.remove("dragging");
    openFile(e.dataTransfer?.files?.[0]);
  });
}

async function main() {
  await setLanguage(pickLanguage());
  languageSwitcher($("lang"), () => {
    if (state.data) {
      fillChoices();
      render();
      showVerdict();
    }
  });
  wire();
  if (link) await loadLink();
  else {
    $("title").textContent = t("replay_title");
    $("replay-verify").disabled = true;
    $("replay-download").hidden = true;
    notice(t("replay_pick_file"));
    render();
  }
  document.body.dataset.ready = "1";
}

main();

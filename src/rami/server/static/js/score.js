// The scorekeeper (/score): an evening's ledger for a group playing with real cards.
//
// The page holds no rules. It keeps the entries of every deal (what the players say at
// the table) in the browser, posts the whole ledger to POST /api/score/{game}/ledger on
// every change and shows what the server computed: each deal's nets or points, who pays
// whom, the running totals, eliminations, the winner. A bad entry is answered with one
// line, shown next to the entry, and nothing is saved. Editing or undoing a deal is
// posting the changed ledger again. See docs/score.md.

import { api, ApiError } from "./api.js";
import { cardElement } from "./cards.js";
import { languageSwitcher, pickLanguage, t } from "./i18n.js";
import { language, num, signed, st, useLanguage } from "./score-i18n.js";
import { chip, h, segButton } from "./score-dom.js";
import { openPad, wirePad } from "./score-pad.js";
import * as store from "./score-store.js";
import { scoreApi } from "./transport.js";

const $ = (id) => document.getElementById(id);
const GAMES_KEY = "rami.score.games";

let games = [];
let doc = null; // the ledger's entries: {game, rules|mode, players, first_dealer, deals}
let computed = null; // the server's answer for `doc`
let stale = false; // `doc` holds deals the server has not computed yet (offline)
let draft = null; // the deal being entered
let editing = null; // index of the deal being edited, or null for a new deal
let openDeal = null; // index of the deal whose details are shown
let setupState = { game: null, preset: null, names: ["", "", ""], dealer: 0 }; // null: the registry's first
const gameHooks = new Map(); // game name -> its client module for this page (the URL /api/games gives)
let previewTimer = 0;
let previewSeq = 0;

// ------------------------------------------------------------------ small helpers

// A ledger names its preset under the game's preset label ("rules", "mode"): a name, or
// options with a preset; none is the game's first preset.
function presetOf(d) {
  if (!d) return "";
  const game = gameInfo(d.game);
  const spec = d[game?.preset_label || "rules"];
  if (spec && typeof spec === "object") return spec.preset || "";
  return spec || game?.presets[0]?.name || "";
}

function gameTitle(d) {
  return `${t(`game_${d.game}`)} · ${t(`preset_${d.game}_${presetOf(d)}`)}`;
}

// The ledger's game: its module's hooks (the entry form, a deal's details) and flags.
// A game without a module gets the shared pages only; this file never names a game.
function hooks() {
  return (doc && gameHooks.get(doc.game)) || {};
}

function signedPoints() {
  return Boolean(doc && gameInfo(doc.game)?.signed_points); // nets (+12, -9), not points
}

function higherWins() {
  return Boolean(doc && gameInfo(doc.game)?.higher_wins);
}

// An empty box is 0; anything else goes to the server as typed (it says what is wrong).
function numberOrRaw(text) {
  if (text === "" || text === null || text === undefined) return 0;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

// What the game's module gets: the ledger, the draft, the rules flags and the page's helpers.
const kit = {
  $, h, chip, segButton, cardElement, openPad, st, num, signed, api, ApiError, showError, numberField, redraw, presetOf, numberOrRaw,
  get doc() {
    return doc;
  },
  get draft() {
    return draft;
  },
  get flags() {
    return rulesFlags();
  },
};

function showError(el, message) {
  el.textContent = message || "";
  el.hidden = !message;
  if (el.id === "deal-error") markRows(message);
}

// The deal's error also goes next to the player it names, where the entry was made.
function markRows(message) {
  for (const old of document.querySelectorAll("#rows .row-error")) old.remove();
  if (!message || !doc) return;
  for (const row of document.querySelectorAll("#rows .player-row")) {
    const name = row.dataset.player;
    if (message.includes(`'${name}'`) || message.includes(`player ${name}:`) || message.includes(`player ${name} `)) {
      row.append(h("p", { class: "row-error error", text: message }));
      break;
    }
  }
}

function errorText(err) {
  if (err instanceof ApiError) return err.message;
  return st("offline_error");
}

async function postLedger(d) {
  return scoreApi(`/api/score/${d.game}/ledger`, { method: "POST", body: d }); // transport.js: offline too
}

function rulesFlags() {
  return (computed && computed.rules) || {};
}

// ------------------------------------------------------------------ setup

function gameInfo(name) {
  return games.find((g) => g.name === name) || games[0];
}

function renderSetup() {
  const box = $("game-choice");
  box.replaceChildren(
    ...games.map((g) =>
      segButton(t(`game_${g.name}`), g.name === setupState.game, () => {
        setupState.game = g.name;
        setupState.preset = g.presets[0].name;
        fitNames();
        renderSetup();
        loadOptions();
      }),
    ),
  );
  const game = gameInfo(setupState.game);
  if (!game) return;
  $("preset-choice").replaceChildren(
    ...game.presets.map((p) =>
      segButton(t(`preset_${game.name}_${p.name}`), p.name === setupState.preset, () => {
        setupState.preset = p.name;
        fitNames();
        renderSetup();
        loadOptions();
      }),
    ),
  );
  const counts = presetCounts();
  $("names").replaceChildren(
    ...setupState.names.map((name, i) =>
      h(
        "li",
        {},
        h("input", {
          value: name,
          maxlength: "40",
          autocomplete: "off",
          "aria-label": st("player_n", { n: i + 1 }),
          placeholder: st("player_n", { n: i + 1 }),
          dataset: { seat: String(i) },
          oninput: (e) => {
            setupState.names[i] = e.target.value;
            fillDealer();
          },
        }),
        i > 0
          ? h("button", {
              type: "button",
              class: "icon",
              "aria-label": st("move_up", { n: i + 1 }),
              text: "↑",
              onclick: () => {
                const names = setupState.names;
                [names[i - 1], names[i]] = [names[i], names[i - 1]];
                renderSetup();
              },
            })
          : null,
        counts.length > 1 && setupState.names.length > counts[0]
          ? h("button", {
              type: "button",
              class: "icon",
              "aria-label": st("remove_player", { n: i + 1 }),
              text: "×",
              onclick: () => {
                setupState.names.splice(i, 1);
                renderSetup();
              },
            })
          : null,
      ),
    ),
  );
  $("add-player").hidden = setupState.names.length >= counts[counts.length - 1];
  fillDealer();
}

function presetCounts() {
  const game = gameInfo(setupState.game);
  const preset = game && (game.presets.find((p) => p.name === setupState.preset) || game.presets[0]);
  return preset ? preset.players : [2];
}

function fitNames() {
  const counts = presetCounts();
  const wanted = counts.includes(setupState.names.length)
    ? setupState.names.length
    : counts.includes(3)
      ? 3
      : counts[0];
  while (setupState.names.length < wanted) setupState.names.push("");
  setupState.names.length = wanted;
}

function namesGiven() {
  return setupState.names.map((n, i) => n.trim() || st("player_n", { n: i + 1 }));
}

function fillDealer() {
  const select = $("first-dealer");
  const old = Number(select.value || setupState.dealer);
  select.replaceChildren(...namesGiven().map((n, i) => h("option", { value: String(i) }, n)));
  select.value = String(Math.min(old, setupState.names.length - 1));
}

async function loadOptions() {
  const box = $("options");
  const { game, preset } = setupState;
  box.replaceChildren();
  let summary;
  try {
    summary = await api(`/api/rules/${game}/${preset}`);
  } catch {
    return;
  }
  if (setupState.game !== game || setupState.preset !== preset) return;
  for (const opt of summary.options) {
    let input;
    if (opt.type === "bool") {
      input = h("input", { type: "checkbox" });
      input.checked = Boolean(opt.value);
    } else if (opt.choices) {
      input = h("select", {}, ...opt.choices.map((c) => h("option", { value: String(c) }, String(c))));
      input.value = String(opt.value);
    } else if (opt.type.startsWith("int")) {
      input = h("input", { type: "number", inputmode: "numeric", value: opt.value === null ? "" : String(opt.value) });
    } else {
      input = h("input", { value: String(opt.value ?? "") });
    }
    Object.assign(input.dataset, { option: opt.name, type: opt.type, default: JSON.stringify(opt.default) });
    box.append(h("label", { class: "option" }, h("code", { text: opt.name }), input, h("small", { text: opt.help })));
  }
}

function changedOptions() {
  const out = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    let value;
    if (input.dataset.type === "bool") value = input.checked;
    else if (input.dataset.type.startsWith("int")) value = input.value === "" ? null : Number(input.value);
    else value = input.value;
    if (JSON.stringify(value) !== input.dataset.default) out[input.dataset.option] = value;
  }
  return out;
}

async function startEvening(event) {
  event.preventDefault();
  const options = changedOptions();
  const spec = Object.keys(options).length ? { preset: setupState.preset, ...options } : setupState.preset;
  const fresh = {
    game: setupState.game,
    players: namesGiven(),
    first_dealer: Number($("first-dealer").value) || 0,
    deals: [],
  };
  fresh[gameInfo(setupState.game).preset_label] = spec;
  showError($("setup-error"), "");
  try {
    const result = await postLedger(fresh);
    store.closeCurrent();
    adopt(fresh, result);
  } catch (err) {
    showError($("setup-error"), errorText(err));
  }
}

// Errors belong to the entries they were about: a new or reopened evening starts clean.
function clearErrors() {
  for (const id of ["deal-error", "setup-error", "import-error"]) if ($(id)) showError($(id), "");
}

function adopt(d, result) {
  clearErrors();
  doc = d;
  computed = result;
  stale = false;
  editing = null;
  openDeal = null;
  store.saveCurrent(doc, computed);
  newDraft();
  render();
}

// ------------------------------------------------------------------ drafts

function eliminatedBefore(index) {
  if (!computed || !computed.eliminated) return doc.players.map(() => false); // T-13
  if (index === 0) return doc.players.map(() => false);
  const prev = computed.deals[index - 1];
  return prev ? prev.result.players.map((p) => p.eliminated) : computed.eliminated;
}

function newDraft() {
  editing = null;
  const out = eliminatedBefore(doc.deals.length);
  draft = hooks().emptyDraft ? hooks().emptyDraft(doc, out) : { rows: doc.players.map(() => ({})) };
}

function withDraft() {
  const deals = [...doc.deals];
  const entry = hooks().entryOf ? hooks().entryOf(kit, draft) : {};
  if (editing === null) deals.push(entry);
  else deals[editing] = entry;
  return { ...doc, deals };
}

// ------------------------------------------------------------------ rendering

function render() {
  const active = Boolean(doc);
  $("setup").hidden = active;
  $("standing").hidden = !active;
  $("entry").hidden = !active;
  $("summary").hidden = !active;
  if (!active) {
    renderSetup();
    renderArchive();
    return;
  }
  renderStanding();
  renderEntry();
  renderSummary();
}

function renderArchive() {
  const list = store.archive();
  $("archive-box").hidden = !list.length;
  $("archive").replaceChildren(
    ...list.map((item, i) =>
      h(
        "li",
        {},
        h("span", {}, `${new Date(item.saved).toLocaleDateString(language())} · ${gameTitle(item.doc)} · ${item.doc.players.join(", ")} · ${st("deals_n", { n: item.doc.deals.length })}`),
        " ",
        h("button", {
          type: "button",
          class: "small",
          text: st("open"),
          onclick: async () => {
            const d = store.takeFromArchive(i);
            if (d) await importDoc(d, $("import-error"));
          },
        }),
      ),
    ),
  );
}

function renderStanding() {
  $("standing-title").textContent = gameTitle(doc);
  const result = computed;
  const nets = signedPoints();
  const totals = result ? result.totals : doc.players.map(() => 0);
  const out = result && result.eliminated ? result.eliminated : doc.players.map(() => false);
  const next = result ? result.next_dealer : null;
  const best = result && result.leaders ? Math.max(...totals) : null;
  // nets add up to zero (M-13); points run to an elimination limit (T-13)
  const sumLine = result && result.sum !== undefined ? st("zero_sum", { n: num(result.sum) }) : result && result.limit !== undefined ? st("limit", { n: num(result.limit) }) : "";
  $("zero-sum").textContent = sumLine;
  $("zero-sum").className = result && result.sum === 0 ? "zero ok" : "zero";
  const order = doc.players.map((_, i) => i);
  $("totals").replaceChildren(
    ...order.map((i) => {
      const name = doc.players[i];
      const li = h(
        "li",
        { class: `total${out[i] ? " out" : ""}`, dataset: { player: name } },
        h("span", { class: "who" }, name, next === name ? h("span", { class: "badge dealer", text: st("dealer") }) : null),
        h("span", { class: "amount", dataset: { total: name } }, nets ? signed(totals[i]) : num(totals[i])),
      );
      if (out[i]) li.append(h("span", { class: "badge", text: st("out") }));
      if (best !== null && result.deals.length && totals[i] === best) li.classList.add("lead");
      return li;
    }),
  );
  if (result && result.teams) {
    $("totals").append(
      ...result.teams.map((team) =>
        h("li", { class: "total team" }, h("span", { class: "who" }, team.players.join(" + ")), h("span", { class: "amount" }, num(team.total))),
      ),
    );
  }
  const winner = $("winner");
  if (result && result.game_over) {
    winner.textContent = st("game_won", { name: result.game_winner });
    winner.hidden = false;
  } else winner.hidden = true;
  const pending = $("pending");
  pending.hidden = !stale;
  pending.textContent = stale ? st("pending", { n: doc.deals.length - (result ? result.deals.length : 0) }) : "";
  renderDeals();
  $("undo").disabled = !doc.deals.length;
}

function renderDeals() {
  const table = $("deals");
  const result = computed;
  const nets = signedPoints();
  const head = h("tr", {}, h("th", { scope: "col", text: "#" }), ...doc.players.map((n) => h("th", { scope: "col", text: n })));
  const rows = [];
  const deals = result ? result.deals : [];
  deals.forEach((deal, k) => {
    const cells = deal.result.players.map((p, i) =>
      h(
        "td",
        { class: nets ? (p.net > 0 ? "plus" : p.net < 0 ? "minus" : "") : "" },
        nets ? signed(p.net) : eliminatedBefore(k)[i] ? "—" : num(p.points),
        "",
      ),
    );
    const tr = h(
      "tr",
      {
        class: `deal-row${openDeal === k ? " open" : ""}${editing === k ? " editing" : ""}`,
        tabindex: "0",
        dataset: { deal: String(k + 1) },
        "aria-label": st("deal_n", { n: k + 1 }),
        onclick: () => toggleDeal(k),
        onkeydown: (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            toggleDeal(k);
          }
        },
      },
      h("th", { scope: "row" }, String(k + 1)),
      ...cells,
    );
    rows.push(tr);
  });
  for (let k = deals.length; k < doc.deals.length; k++) {
    rows.push(h("tr", { class: "deal-row pending" }, h("th", { scope: "row" }, String(k + 1)), h("td", { colspan: String(doc.players.length), text: st("not_computed") })));
  }
  const totals = result ? result.totals : doc.players.map(() => 0);
  const foot = h(
    "tr",
    { class: "sum-row" },
    h("th", { scope: "row", text: "Σ" }),
    ...totals.map((v) => h("td", { class: "strong" }, nets ? signed(v) : num(v))),
  );
  table.replaceChildren(h("thead", {}, head), h("tbody", {}, ...rows), h("tfoot", {}, foot));
  renderDetail();
}

function toggleDeal(k) {
  openDeal = openDeal === k ? null : k;
  renderDeals();
}

function renderDetail() {
  const box = $("deal-detail");
  if (openDeal === null || !computed || !computed.deals[openDeal]) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const deal = computed.deals[openDeal];
  const parts = [h("h3", { text: st("deal_n", { n: deal.number }) }), h("p", { class: "muted", text: st("dealer_is", { name: deal.dealer }) })];
  if (hooks().dealDetail) parts.push(...hooks().dealDetail(kit, doc.deals[openDeal], deal));
  parts.push(
    h(
      "p",
      { class: "row" },
      h("button", { type: "button", class: "big", id: "edit-deal", text: st("edit"), onclick: () => startEdit(openDeal) }),
      h("button", { type: "button", class: "big", id: "delete-deal", text: st("delete"), onclick: () => deleteDeal(openDeal) }),
    ),
  );
  box.replaceChildren(...parts);
  box.hidden = false;
}

function startEdit(k) {
  editing = k;
  draft = hooks().draftOf ? hooks().draftOf(kit, doc.deals[k], eliminatedBefore(k)) : draft;
  openDeal = null;
  renderDeals();
  renderEntry();
  $("entry").scrollIntoView({ block: "start" });
}

async function deleteDeal(k) {
  const deals = doc.deals.filter((_, i) => i !== k);
  await commit({ ...doc, deals }, $("deal-error"));
}

async function commit(next, errorEl) {
  showError(errorEl, "");
  try {
    const result = await postLedger(next);
    doc = next;
    computed = result;
    stale = false;
    store.saveCurrent(doc, computed);
    openDeal = null;
    newDraft();
    render();
    return true;
  } catch (err) {
    if (refused(err)) {
      showError(errorEl, err.message);
      if (errorEl.id === "deal-error") showPreview(null);
      return false;
    }
    // offline: keep the entries; the server computes them when it is back
    doc = next;
    stale = true;
    store.saveCurrent(doc, computed);
    clearTimeout(retryTimer);
    retryTimer = setTimeout(recompute, RETRY_MS);
    newDraft();
    render();
    showError($("deal-error"), "");
    return true;
  }
}

function renderEntry() {
  const over = computed && computed.game_over && editing === null; // T-13
  const number = editing === null ? doc.deals.length + 1 : editing + 1;
  $("entry-title").textContent = editing === null ? st("deal_n", { n: number }) : st("edit_deal", { n: number });
  const dealer = editing !== null && computed && computed.deals[editing] ? computed.deals[editing].dealer : computed && computed.next_dealer;
  $("entry-dealer").textContent = dealer ? st("dealer_is", { name: dealer }) : "";
  $("cancel-edit").hidden = editing === null;
  $("save-deal").hidden = Boolean(over);
  $("entry").classList.toggle("over", Boolean(over));
  if (over) {
    $("tiplu-row").replaceChildren();
    $("rows").replaceChildren(h("p", { text: st("game_over_entry") }));
    $("finish-row").replaceChildren();
    $("preview").replaceChildren();
    return;
  }
  if (hooks().renderEntry) hooks().renderEntry(kit);
  else for (const id of ["tiplu-row", "rows", "finish-row"]) $(id).replaceChildren();
  schedulePreview();
}

function redraw() {
  draft.touched = true;
  renderEntry();
}

function numberField(label, value, onChange, id) {
  const input = h("input", {
    type: "number",
    inputmode: "numeric",
    id,
    value,
    placeholder: "0",
    oninput: (e) => {
      onChange(e.target.value);
      draft.touched = true;
      schedulePreview();
    },
  });
  const step = (d) => {
    const n = (Number(input.value) || 0) + d;
    input.value = String(n);
    onChange(input.value);
    draft.touched = true;
    schedulePreview();
  };
  return h(
    "label",
    { class: "number" },
    h("span", { text: label }),
    h(
      "span",
      { class: "stepper" },
      h("button", { type: "button", class: "step", "aria-label": `${label} −1`, onclick: () => step(-1) }, "−"),
      input,
      h("button", { type: "button", class: "step", "aria-label": `${label} +1`, onclick: () => step(1) }, "+"),
    ),
  );
}

// ------------------------------------------------------------------ preview and save

function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(preview, 200);
}

async function preview() {
  if (!doc || !draft) return;
  const seq = ++previewSeq;
  // a draft with a field still to fill (presence only, the game's module says which) is
  // not sent: the server would only refuse it (a 400 in the console each time)
  if (hooks().incomplete?.(kit, draft)) {
    showError($("deal-error"), "");
    showPreview(null);
    return;
  }
  const next = withDraft();
  try {
    const result = await postLedger(next);
    if (seq !== previewSeq) return;
    showError($("deal-error"), "");
    const deal = result.deals[editing === null ? result.deals.length - 1 : editing];
    showPreview(deal);
  } catch (err) {
    if (seq !== previewSeq) return;
    if (err instanceof ApiError && draft.touched) showError($("deal-error"), err.message);
    showPreview(null);
  }
}

function showPreview(deal) {
  doc.players.forEach((_, i) => {
    const el = $(`net-${i}`);
    if (!el) return;
    if (!deal) {
      el.textContent = "";
      return;
    }
    const p = deal.result.players[i];
    el.textContent = signedPoints() ? signed(p.net) : `${num(p.points)} → ${num(p.total)}`;
    el.className = `net${signedPoints() ? (p.net > 0 ? " plus" : p.net < 0 ? " minus" : "") : ""}`;
  });
  const box = $("preview");
  if (!deal || !deal.result.pairs) { // who pays whom, for a game that settles in pairs
    box.replaceChildren();
    return;
  }
  box.replaceChildren(
    h("span", { class: "muted", text: st("who_pays") }),
    h("ul", { class: "pairs" }, ...(deal.result.pairs.length ? deal.result.pairs.map((p) => h("li", {}, st("pays", { from: p.from, to: p.to, n: num(p.points) }))) : [h("li", { text: st("nobody_pays") })])),
  );
}

async function saveDeal() {
  clearTimeout(previewTimer);
  previewSeq++;
  $("save-deal").disabled = true;
  try {
    await commit(withDraft(), $("deal-error"));
  } finally {
    $("save-deal").disabled = false;
  }
}

// ------------------------------------------------------------------ summary, share, import

// The end of the evening: a title, the ranking with totals, the closing lines.
function summaryParts() {
  const r = computed;
  const nets = signedPoints();
  const n = r ? r.deals.length : 0;
  const totals = r ? r.totals : doc.players.map(() => 0);
  const order = doc.players.map((_, i) => i);
  if (higherWins()) order.sort((a, b) => totals[b] - totals[a]);
  else order.sort((a, b) => totals[a] - totals[b]);
  const ranking = order.map((i) => ({
    name: doc.players[i],
    total: nets ? signed(totals[i]) : num(totals[i]),
    out: r && r.eliminated && r.eliminated[i] ? st("out") : "",
  }));
  const tail = [];
  if (r && r.teams) for (const team of r.teams) tail.push(`${team.players.join(" + ")}  ${num(team.total)}`);
  if (r && r.sum !== undefined) tail.push(st("zero_sum", { n: num(r.sum) }));
  if (r && r.game_over) tail.push(st("game_won", { name: r.game_winner }));
  else if (r && r.leaders && r.leaders.length && n) tail.push(st("leader", { name: r.leaders.join(", ") }));
  return {
    title: `rami · ${gameTitle(doc)} · ${new Date().toLocaleDateString(language())}`,
    deals: st("deals_n", { n }),
    ranking,
    tail,
  };
}

// The same as text to share (a chat message).
function summaryText() {
  const { title, deals, ranking, tail } = summaryParts();
  const lines = [title, deals];
  ranking.forEach((p, k) => lines.push(`${k + 1}. ${p.name}  ${p.total}${p.out ? ` (${p.out})` : ""}`));
  return [...lines, ...tail].join("\n");
}

function renderSummary() {
  const { title, deals, ranking, tail } = summaryParts();
  $("summary-text").replaceChildren(
    h("p", { class: "strong" }, title),
    h("p", {}, deals),
    h(
      "ol",
      { class: "ranking" },
      ...ranking.map((p) =>
        h("li", {}, h("bdi", {}, p.name), " ", h("span", { class: "amount" }, p.total), p.out ? h("span", { class: "badge" }, p.out) : null),
      ),
    ),
    ...tail.map((line) => h("p", {}, line)),
  );
}

async function share(text, note) {
  const out = $("share-out");
  out.value = text;
  out.hidden = false;
  let done = false;
  if (navigator.share) {
    try {
      await navigator.share({ text });
      done = true;
    } catch {
      /* the person closed the share sheet */
    }
  }
  if (!done && navigator.clipboard) {
    try {
      await navigator.clipboard.writeText(text);
      done = true;
    } catch {
      /* no permission: the text box below is there to copy from */
    }
  }
  out.select();
  $("share-note").textContent = done ? note : st("copy_below");
  $("share-note").hidden = false;
}

function exportJson() {
  const blob = new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" });
  const a = h("a", { href: URL.createObjectURL(blob), download: `rami-ledger-${new Date().toISOString().slice(0, 10)}.json` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function importDoc(d, errorEl) {
  showError(errorEl, "");
  if (!d || typeof d !== "object" || !d.game) {
    showError(errorEl, st("import_bad"));
    return false;
  }
  try {
    const result = await postLedger(d);
    store.closeCurrent();
    adopt(d, result);
    return true;
  } catch (err) {
    showError(errorEl, errorText(err));
    return false;
  }
}

function parseImport(text) {
  const trimmed = text.trim();
  if (!trimmed) return null;
  try {
    return store.decodeLink(trimmed) || JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

// ------------------------------------------------------------------ start

let retryTimer = 0;
const RETRY_MS = 5000;

// The server said no to these entries (a 4xx other than 429): show why, don't retry.
// No answer, a busy server (429) or a server error (5xx) is worth trying again later.
function refused(err) {
  return err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429;
}

// Whether the entries changed since `sent` was asked about; if so, and they are not
// computed yet, ask about them as they are now.
function superseded(sent) {
  if (sent === doc) return false;
  if (stale) recompute();
  return true;
}

async function recompute() {
  if (!doc) return;
  // An answer is for the entries it was asked about: one that arrives after the entries
  // changed (a request held while offline, answered late) must not stand for the new ones.
  const sent = doc;
  try {
    const result = await postLedger(sent);
    if (superseded(sent)) return;
    computed = result;
    stale = false;
    store.saveCurrent(doc, computed);
  } catch (err) {
    if (superseded(sent)) return;
    const final = refused(err);
    if (final) showError($("deal-error"), err.message);
    stale = !computed || computed.deals.length !== doc.deals.length;
    if (stale && !final) {
      clearTimeout(retryTimer);
      retryTimer = setTimeout(recompute, RETRY_MS);
    }
  }
  render();
}

function netState() {
  const el = $("net-state");
  el.hidden = navigator.onLine;
  el.className = "conn offline";
  el.textContent = st("offline");
}

async function loadGames() {
  try {
    games = await api("/api/games");
    localStorage.setItem(GAMES_KEY, JSON.stringify(games));
  } catch {
    try {
      games = JSON.parse(localStorage.getItem(GAMES_KEY) || "[]");
    } catch {
      games = [];
    }
  }
  // each game's entry form (offline, the service worker has kept it)
  for (const g of games) {
    if (g.client?.score) gameHooks.set(g.name, await import(g.client.score).catch(() => ({})));
  }
  if (games.length && !gameInfo(setupState.game)?.presets.some((p) => p.name === setupState.preset)) {
    setupState.game = games[0].name;
    setupState.preset = games[0].presets[0].name;
  }
}

function wire() {
  $("setup-form").addEventListener("submit", startEvening);
  $("add-player").addEventListener("click", () => {
    setupState.names.push("");
    renderSetup();
    const inputs = $("names").querySelectorAll("input");
    inputs[inputs.length - 1].focus();
  });
  $("setup-cancel").addEventListener("click", () => {
    const saved = store.current();
    if (saved.doc) {
      doc = saved.doc;
      computed = saved.computed;
      newDraft();
      render();
    }
  });
  $("save-deal").addEventListener("click", saveDeal);
  $("cancel-edit").addEventListener("click", () => {
    newDraft();
    showError($("deal-error"), "");
    renderDeals();
    renderEntry();
  });
  $("undo").addEventListener("click", async () => {
    if (!doc.deals.length) return;
    await commit({ ...doc, deals: doc.deals.slice(0, -1) }, $("deal-error"));
  });
  wirePad();
  $("share-text").addEventListener("click", () => share(summaryText(), st("copied")));
  $("share-link").addEventListener("click", () => share(store.encodeLink(doc), st("copied")));
  $("export").addEventListener("click", exportJson);
  $("new-evening").addEventListener("click", () => {
    if (doc) {
      setupState.game = doc.game;
      setupState.preset = presetOf(doc);
      setupState.names = [...doc.players];
    }
    store.closeCurrent();
    doc = null;
    computed = null;
    clearErrors();
    render();
    loadOptions();
  });
  $("import-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const parsed = parseImport(await file.text());
    if (parsed === undefined) showError($("import-error"), st("import_bad"));
    else await importDoc(parsed, $("import-error"));
    e.target.value = "";
  });
  $("import-go").addEventListener("click", async () => {
    const parsed = parseImport($("import-text").value);
    if (parsed === undefined || parsed === null) showError($("import-error"), st("import_bad"));
    else await importDoc(parsed, $("import-error"));
  });
  window.addEventListener("online", () => {
    for (const m of gameHooks.values()) m.online?.();
    netState();
    if (stale) recompute();
  });
  window.addEventListener("offline", netState);
}

function sharedFromLink() {
  let shared = null;
  try {
    shared = store.decodeLink(location.hash);
  } catch {
    shared = null;
  }
  if (!shared) return;
  $("shared-banner").hidden = false;
  $("shared-open").onclick = async () => {
    history.replaceState(null, "", "/score");
    $("shared-banner").hidden = true;
    await importDoc(shared, $("deal-error").hidden ? $("import-error") : $("deal-error"));
  };
  $("shared-ignore").onclick = () => {
    history.replaceState(null, "", "/score");
    $("shared-banner").hidden = true;
  };
}

async function main() {
  await useLanguage(pickLanguage());
  languageSwitcher($("lang"), async () => {
    await useLanguage($("lang").value, true);
    render();
    netState();
  });
  wire();
  netState();
  await loadGames();
  const saved = store.current();
  if (saved.doc) {
    doc = saved.doc;
    computed = saved.computed;
    stale = !computed || computed.deals.length !== doc.deals.length;
    newDraft();
    render();
    recompute();
  } else {
    fitNames();
    render();
    loadOptions();
  }
  sharedFromLink();
  document.body.dataset.ready = "1";
  if ("serviceWorker" in navigator && !("solo" in document.body.dataset)) {
    // (the static site's pages are kept by its own service worker, solo-sw.js)
    navigator.serviceWorker.register("/sw.js", { scope: "/score" }).catch(() => {});
  }
}

main();

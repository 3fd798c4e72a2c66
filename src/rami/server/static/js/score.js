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
import { draftOf, emptyMarriage, emptyTunisian, entryOf } from "./score-entries.js";
import { openPad, wirePad } from "./score-pad.js";
import * as store from "./score-store.js";

const $ = (id) => document.getElementById(id);
const GAMES_KEY = "rami.score.games";

let games = [];
let doc = null; // the ledger's entries: {game, rules|mode, players, first_dealer, deals}
let computed = null; // the server's answer for `doc`
let stale = false; // `doc` holds deals the server has not computed yet (offline)
let draft = null; // the deal being entered
let editing = null; // index of the deal being edited, or null for a new deal
let openDeal = null; // index of the deal whose details are shown
let setupState = { game: "marriage", preset: "nepali", names: ["", "", ""], dealer: 0 };
const maalInfo = new Map();
const maalTried = new Set(); // asked once; offline, asked again when back online
let previewTimer = 0;
let previewSeq = 0;

// ------------------------------------------------------------------ small helpers

function presetOf(d) {
  if (!d) return "";
  const spec = d.game === "tunisian" ? d.mode : d.rules;
  if (spec && typeof spec === "object") return spec.preset || "";
  return spec || (d.game === "tunisian" ? "1v1" : "nepali");
}

function gameTitle(d) {
  return `${t(`game_${d.game}`)} · ${t(`preset_${d.game}_${presetOf(d)}`)}`;
}

function isMarriage() {
  return doc && doc.game === "marriage";
}

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
  return api(`/api/score/${d.game}/ledger`, { method: "POST", body: d });
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
  fresh[setupState.game === "tunisian" ? "mode" : "rules"] = spec;
  showError($("setup-error"), "");
  try {
    const result = await postLedger(fresh);
    store.closeCurrent();
    adopt(fresh, result);
  } catch (err) {
    showError($("setup-error"), errorText(err));
  }
}

function adopt(d, result) {
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
  if (!computed || doc.game !== "tunisian") return doc.players.map(() => false);
  if (index === 0) return doc.players.map(() => false);
  const prev = computed.deals[index - 1];
  return prev ? prev.result.players.map((p) => p.eliminated) : computed.eliminated;
}

function newDraft() {
  editing = null;
  draft = doc.game === "marriage" ? emptyMarriage(doc) : emptyTunisian(doc, eliminatedBefore(doc.deals.length));
}

function withDraft() {
  const deals = [...doc.deals];
  const entry = entryOf(doc, draft, rulesFlags().scoring === "indian");
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
  const marriage = isMarriage();
  const totals = result ? result.totals : doc.players.map(() => 0);
  const out = !marriage && result ? result.eliminated : doc.players.map(() => false);
  const next = result ? result.next_dealer : null;
  const best = marriage ? Math.max(...totals) : null;
  $("zero-sum").textContent = marriage && result ? st("zero_sum", { n: num(result.sum) }) : result ? st("limit", { n: num(result.limit) }) : "";
  $("zero-sum").className = marriage && result && result.sum === 0 ? "zero ok" : "zero";
  const order = doc.players.map((_, i) => i);
  $("totals").replaceChildren(
    ...order.map((i) => {
      const name = doc.players[i];
      const li = h(
        "li",
        { class: `total${out[i] ? " out" : ""}`, dataset: { player: name } },
        h("span", { class: "who" }, name, next === name ? h("span", { class: "badge dealer", text: st("dealer") }) : null),
        h("span", { class: "amount", dataset: { total: name } }, marriage ? signed(totals[i]) : num(totals[i])),
      );
      if (out[i]) li.append(h("span", { class: "badge", text: st("out") }));
      if (marriage && result && result.deals.length && totals[i] === best) li.classList.add("lead");
      return li;
    }),
  );
  if (!marriage && result && result.teams) {
    $("totals").append(
      ...result.teams.map((team) =>
        h("li", { class: "total team" }, h("span", { class: "who" }, team.players.join(" + ")), h("span", { class: "amount" }, num(team.total))),
      ),
    );
  }
  const winner = $("winner");
  if (!marriage && result && result.game_over) {
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
  const marriage = isMarriage();
  const head = h("tr", {}, h("th", { scope: "col", text: "#" }), ...doc.players.map((n) => h("th", { scope: "col", text: n })));
  const rows = [];
  const deals = result ? result.deals : [];
  deals.forEach((deal, k) => {
    const cells = deal.result.players.map((p, i) =>
      h(
        "td",
        { class: marriage ? (p.net > 0 ? "plus" : p.net < 0 ? "minus" : "") : "" },
        marriage ? signed(p.net) : !marriage && eliminatedBefore(k)[i] ? "—" : num(p.points),
        !marriage && deal.result.winner !== undefined ? "" : "",
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
    ...totals.map((v) => h("td", { class: "strong" }, marriage ? signed(v) : num(v))),
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
  const marriage = isMarriage();
  const parts = [h("h3", { text: st("deal_n", { n: deal.number }) }), h("p", { class: "muted", text: st("dealer_is", { name: deal.dealer }) })];
  if (marriage) {
    const entry = doc.deals[openDeal];
    parts.push(h("p", {}, entry.finisher ? st("finished_by", { name: entry.finisher }) : st("nobody_finished")));
    parts.push(
      h(
        "ul",
        { class: "maal-list" },
        ...deal.result.players.map((p) =>
          h("li", {}, h("strong", {}, p.name), ` ${st("maal_is", { n: num(p.maal) })}`, p.maal_items.length ? h("span", { class: "muted small" }, ` (${p.maal_items.join("; ")})`) : null),
        ),
      ),
    );
    parts.push(h("h4", { text: st("who_pays") }));
    parts.push(
      h(
        "ul",
        { class: "pairs" },
        ...(deal.result.pairs.length ? deal.result.pairs.map((p) => h("li", {}, st("pays", { from: p.from, to: p.to, n: num(p.points) }))) : [h("li", { text: st("nobody_pays") })]),
      ),
    );
  } else {
    const w = doc.deals[openDeal].winner;
    parts.push(h("p", {}, w ? st("went_out_by", { name: w }) : st("nobody_went_out")));
  }
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
  draft = draftOf(doc, doc.deals[k], eliminatedBefore(k));
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
    if (err instanceof ApiError) {
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
  const over = !isMarriage() && computed && computed.game_over && editing === null;
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
  if (isMarriage()) renderMarriageEntry();
  else renderTunisianEntry();
  schedulePreview();
}

function redraw() {
  draft.touched = true;
  renderEntry();
}

// Marriage: tiplu once, then per player seen / maal / (indian) hand points, then who finished.
function renderMarriageEntry() {
  const flags = rulesFlags();
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
              await loadMaal(draft.tiplu);
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
    loadMaal(tiplu).then(() => draft.tiplu === tiplu && maalInfo.has(`${presetOf(doc)}|${tiplu}`) && redraw());
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

async function loadMaal(tiplu) {
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

// Tunisian: per player went out / opened (points or cards left) / not opened.
function renderTunisianEntry() {
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

// ------------------------------------------------------------------ preview and save

function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(preview, 200);
}

async function preview() {
  if (!doc || !draft) return;
  const seq = ++previewSeq;
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
    el.textContent = isMarriage() ? signed(p.net) : `${num(p.points)} → ${num(p.total)}`;
    el.className = `net${isMarriage() ? (p.net > 0 ? " plus" : p.net < 0 ? " minus" : "") : ""}`;
  });
  const box = $("preview");
  if (!deal || !isMarriage()) {
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
  const marriage = isMarriage();
  const n = r ? r.deals.length : 0;
  const totals = r ? r.totals : doc.players.map(() => 0);
  const order = doc.players.map((_, i) => i);
  if (marriage) order.sort((a, b) => totals[b] - totals[a]);
  else order.sort((a, b) => totals[a] - totals[b]);
  const ranking = order.map((i) => ({
    name: doc.players[i],
    total: marriage ? signed(totals[i]) : num(totals[i]),
    out: !marriage && r && r.eliminated[i] ? st("out") : "",
  }));
  const tail = [];
  if (r && r.teams) for (const team of r.teams) tail.push(`${team.players.join(" + ")}  ${num(team.total)}`);
  if (marriage && r) tail.push(st("zero_sum", { n: num(r.sum) }));
  if (!marriage && r && r.game_over) tail.push(st("game_won", { name: r.game_winner }));
  else if (marriage && r && r.leaders.length && n) tail.push(st("leader", { name: r.leaders.join(", ") }));
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

async function recompute() {
  if (!doc) return;
  try {
    computed = await postLedger(doc);
    stale = false;
    store.saveCurrent(doc, computed);
  } catch (err) {
    if (err instanceof ApiError) showError($("deal-error"), err.message);
    stale = !computed || computed.deals.length !== doc.deals.length;
    if (stale && !(err instanceof ApiError)) {
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
    maalTried.clear();
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
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/score" }).catch(() => {});
  }
}

main();

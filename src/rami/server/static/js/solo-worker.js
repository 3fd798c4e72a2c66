// The solo table's referee: rami's own engine and bots (rami.solo) on Pyodide, in a
// Web Worker, so the page stays responsive while a bot thinks. It answers the table
// page's WebSocket messages (docs/protocol.md) with the server's answers, plays the
// bots' moves one after another with a short pause, and saves the match in IndexedDB
// after every change (solo-store.js). The offline scorekeeper asks it for ledgers
// ({type: "ledger"}: rami.ledger's calculators, as POST /api/score/G/ledger answers). Everything comes from this origin: Pyodide from
// /solo-assets/pyodide/ and rami as a wheel built from the checkout (make static).

import { loadPyodide } from "/solo-assets/pyodide/pyodide.mjs";
import { dropSolo, loadSolo, saveSolo } from "./solo-store.js";

let table = null; // the Python SoloTable
let config = null;
let driving = false;
let saved = -1; // the version last saved

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function python() {
  const started = performance.now();
  const py = await loadPyodide({ indexURL: "/solo-assets/pyodide/" });
  const wheel = await fetch("/solo-assets/rami.whl");
  if (!wheel.ok) throw new Error(`rami's wheel is missing (${wheel.status}): run make static`);
  py.unpackArchive(await wheel.arrayBuffer(), "zip");
  py.runPython("import rami.solo");
  self.bootMs = performance.now() - started;
  return py;
}

let pyReady = null;

function post(messages) {
  for (const message of messages) self.postMessage(message);
}

// Python's answers as JSON text (what a WebSocket would carry).
function answers(list) {
  const out = list.toJs();
  list.destroy();
  return out;
}

async function save() {
  if (!table) return;
  const version = table.version;
  if (version === saved) return;
  saved = version;
  const doc = table.save_text();
  await saveSolo({
    code: config.code,
    game: config.game,
    preset: config.preset,
    level: config.level,
    doc,
    over: table.is_over,
    deal: table.deal_number,
  }).catch(() => {});
}

async function drive() {
  if (driving) return;
  driving = true;
  try {
    while (table && table.bot_to_move() != null) {
      await sleep(config.delay);
      if (!table || table.bot_to_move() == null) break;
      const started = performance.now();
      const out = answers(table.bot_step_text());
      self.postMessage({ type: "_bot", ms: performance.now() - started });
      post(out);
      await save();
    }
  } finally {
    driving = false;
  }
}

async function open(wanted) {
  config = wanted;
  const py = await (pyReady ||= python());
  const SoloTable = py.pyimport("rami.solo").SoloTable;
  const kept = wanted.fresh ? null : await loadSolo(wanted.code).catch(() => null);
  if (kept && !kept.over && (wanted.seed === null || JSON.parse(kept.doc).seed === wanted.seed)) {
    table?.destroy();
    table = SoloTable.from_text(kept.doc);
  } else {
    table?.destroy();
    table = SoloTable.from_options(JSON.stringify(wanted));
    if (kept) await dropSolo(wanted.code).catch(() => {});
  }
  saved = -1;
  await save();
}

self.addEventListener("message", async (event) => {
  const data = event.data;
  try {
    if (data && typeof data === "object" && data.type === "ledger") {
      const py = await (pyReady ||= python());
      const text = py.pyimport("rami.solo").score_ledger_text(String(data.game), String(data.doc));
      self.postMessage({ type: "_ledger", id: data.id, ...JSON.parse(text) });
      return;
    }
    if (data && typeof data === "object" && data.type === "open") {
      await open(data);
      self.postMessage({ type: "_open", boot_ms: self.bootMs });
      drive();
      return;
    }
    if (typeof data !== "string" || !table) return;
    const out = answers(table.handle_text(data));
    post(out);
    await save();
    drive();
  } catch (err) {
    self.postMessage({ type: "_failed", message: String(err && err.message ? err.message : err).split("\n").filter(Boolean).pop() });
  }
});

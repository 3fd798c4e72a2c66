// The solo table's referee: rami's own engine and bots (rami.solo) on Pyodide, in a
// Web Worker, so the page stays responsive while a bot thinks. It answers the table
// page's WebSocket messages (docs/protocol.md) with the server's answers, plays the
// bots' moves one after another with a short pause, and saves the match in IndexedDB
// after every change (solo-store.js). The offline scorekeeper asks it for ledgers
// ({type: "ledger"}: rami.ledger's calculators, as POST /api/score/G/ledger answers).
// Everything comes from this origin: Pyodide from /solo-assets/pyodide/ and rami as a
// wheel built from the checkout (make static).
//
// A fast start (docs/solo.md): a worker that had to boot Python says so in its "_open";
// the page then starts another worker in the background ({type: "snapshot"}), which boots
// Python, imports rami from its wheel itself (zipimport: the wheel is one file in
// Pyodide's file system), plays a few moves of every game (rami.solo.warm_up) and keeps a
// memory snapshot of that interpreter in the Cache Storage. A later visit restores the
// snapshot instead of booting and writes the wheel file again (1 ms, where unpacking it
// took 0.2 s): Python, rami and its games are ready at once.

import { loadPyodide, version as pyodideVersion } from "/solo-assets/pyodide/pyodide.mjs";
import { dropSolo, loadSolo, saveSolo } from "./solo-store.js";

const PYODIDE = "/solo-assets/pyodide/";
// Pyodide's Emscripten module script (1.2 MB): read and compiled while the wheel and the
// snapshot are read, not after (loadPyodide's createPyodideModule option; it awaits it).
const createPyodideModule = import(`${PYODIDE}pyodide.asm.mjs`).then((module) => module.default);
const WHEEL = "/solo-assets/rami.whl";
const RAMI_ZIP = "/lib/rami.zip"; // the snapshot's sys.path: rami imports from the wheel
// Not named rami-solo-…: the service worker drops those caches when a new build comes.
// One snapshot per Pyodide version and wheel (its key names both), older ones dropped.
const BOOT_CACHE = "rami-boot";

let table = null; // the Python SoloTable
let config = null;
let driving = false;
let saved = -1; // the version last saved

// How this worker started ("boot" or "snapshot", and whether a snapshot can be kept) and
// when its phases ended (ms since the worker began).
const boot = { mode: null, canKeep: false, ms: {} };
const mark = (name) => {
  boot.ms[name] = Math.round(performance.now());
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function theWheel() {
  const response = await fetch(WHEEL);
  if (!response.ok) throw new Error(`rami's wheel is missing (${response.status}): run make static`);
  const wheel = await response.arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", wheel));
  const hex = Array.from(digest.subarray(0, 12), (b) => b.toString(16).padStart(2, "0")).join("");
  return { wheel, key: `/solo-assets/boot-${pyodideVersion}-${hex}.snapshot` };
}

async function bootCache() {
  // no Cache Storage outside a secure context (http:// on another host than localhost)
  if (typeof caches === "undefined") return null;
  return caches.open(BOOT_CACHE).catch(() => null);
}

function useWheel(py, wheel) {
  py.FS.writeFile(RAMI_ZIP, new Uint8Array(wheel));
}

function importRami(py) {
  py.runPython(`import sys\nsys.path.insert(0, "${RAMI_ZIP}")\nimport rami.solo\ndel sys, rami`);
}

async function python() {
  mark("start");
  const [{ wheel, key }, cache] = await Promise.all([theWheel(), bootCache()]);
  const kept = cache ? await cache.match(key).catch(() => null) : null;
  mark("wheel");
  if (kept) {
    try {
      const py = await loadPyodide({
        indexURL: PYODIDE,
        createPyodideModule,
        _loadSnapshot: kept.arrayBuffer(),
      });
      useWheel(py, wheel); // the modules not imported yet come from the same file
      py.runPython("import random\nrandom.seed()\ndel random"); // not the snapshot's state
      mark("ready");
      boot.mode = "snapshot";
      return py;
    } catch {
      await cache.delete(key).catch(() => {}); // a snapshot this Pyodide cannot load
    }
  }
  const py = await loadPyodide({ indexURL: PYODIDE, createPyodideModule });
  mark("pyodide");
  // unpacked: a first import from files is faster than from the zip (0.5 s less here)
  py.unpackArchive(wheel, "zip");
  py.runPython("import rami.solo");
  mark("ready");
  boot.mode = "boot";
  boot.canKeep = Boolean(cache);
  return py;
}

// The background worker's job: boot, warm up, keep the snapshot (nothing else runs here).
async function keepSnapshot() {
  const started = performance.now();
  const [{ wheel, key }, cache] = await Promise.all([theWheel(), bootCache()]);
  if (!cache) return { ok: false, message: "no Cache Storage here" };
  const py = await loadPyodide({
    indexURL: PYODIDE,
    createPyodideModule,
    _makeSnapshot: true,
  });
  useWheel(py, wheel);
  importRami(py);
  py.runPython("import rami.solo\nrami.solo.warm_up()\ndel rami");
  const snapshot = py.makeMemorySnapshot();
  await cache.put(key, new Response(snapshot, { headers: { "content-type": "application/octet-stream" } }));
  for (const old of await cache.keys()) {
    if (new URL(old.url).pathname !== key) await cache.delete(old);
  }
  return { ok: true, bytes: snapshot.byteLength, ms: Math.round(performance.now() - started) };
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
  mark("table");
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
    if (data && typeof data === "object" && data.type === "snapshot") {
      self.postMessage({ type: "_snapshot", ...(await keepSnapshot()) });
      return;
    }
    if (data && typeof data === "object" && data.type === "open") {
      await open(data);
      self.postMessage({ type: "_open", boot: boot.mode, keep: boot.canKeep, marks: boot.ms, origin: performance.timeOrigin });
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

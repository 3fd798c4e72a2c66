// How the table page reaches its referee. On a server table (/t/CODE) that is the
// table's WebSocket; on a solo table (solo.html?game=G&preset=P&level=L[&seed=N], the
// page's <body data-solo>) it is a Web Worker running the same Python engine and bots
// on Pyodide (solo-worker.js, rami.solo). Both speak the WebSocket's messages
// (docs/protocol.md), so the table code is one: a WorkerSocket looks like a WebSocket
// (readyState, send, close, the open/message/close events).

import { api, ApiError } from "./api.js";
import { SOLO_WORKER, soloOptions, startWorker, takeStarted } from "./solo-start.js";

// The solo table the page asks for (null on a server table).
export const solo = (() => {
  if (typeof document === "undefined" || !document.body || !("solo" in document.body.dataset)) return null;
  return soloOptions(location.search);
})();

// The table's code: the solo table's name, or the last part of /t/CODE.
export function tableCode() {
  if (solo) return solo.code.toUpperCase();
  return decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "").toUpperCase();
}

// A socket to the table's referee.
export function openSocket(code) {
  if (solo) return new WorkerSocket(solo);
  const proto = location.protocol === "https:" ? "wss" : "ws";
  return new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(code)}`);
}

// Where a table (a rematch) is played: a new solo match has the same address.
export function tableHref(code) {
  if (!solo) return `/t/${code}`;
  const params = new URLSearchParams(location.search);
  params.delete("seed");
  params.set("new", "1");
  return `${location.pathname}?${params}`;
}

// The HTTP API of a server table; a solo table has none (the replay stays a server's).
export function tableApi(path, options) {
  if (solo) return Promise.reject(new ApiError("bad_request", "not offered at a solo table", 400));
  return api(path, options);
}

// The scorekeeper's API: on the static site (<body data-solo>) a ledger is computed by
// the same worker (rami.ledger on Pyodide), elsewhere by the server.
let scoreWorker = null;
const scoreWaiting = new Map();
let scoreId = 0;

export function scoreApi(path, options = {}) {
  const ledger = /^\/api\/score\/([^/]+)\/ledger$/.exec(path);
  if (!solo || !ledger || options.method !== "POST") return api(path, options);
  if (!scoreWorker) {
    scoreWorker = new Worker(SOLO_WORKER, { type: "module" });
    scoreWorker.addEventListener("message", (event) => {
      const data = event.data;
      const waiting = data && data.type === "_ledger" ? scoreWaiting.get(data.id) : null;
      if (!waiting) return;
      scoreWaiting.delete(data.id);
      if (data.ok) waiting.resolve(data.data);
      else waiting.reject(new ApiError("bad_request", data.message, 400));
    });
  }
  const id = ++scoreId;
  return new Promise((resolve, reject) => {
    scoreWaiting.set(id, { resolve, reject });
    scoreWorker.postMessage({ type: "ledger", id, game: ledger[1], doc: JSON.stringify(options.body) });
  });
}

// Pyodide takes seconds to start: a solo table's worker starts before the page's scripts
// run (solo-start.js) or at the latest as soon as this module loads, while the page loads
// its strings and games; its first answers wait there.
let early = null;
if (solo && typeof Worker !== "undefined") early = takeStarted(solo.code) || startWorker(solo);

function takeEarly() {
  const taken = early;
  early = null;
  return taken;
}

export class WorkerSocket extends EventTarget {
  constructor(config) {
    super();
    this.readyState = 0; // CONNECTING, as WebSocket's
    const started = (config === solo ? takeEarly() : null) || startWorker(config);
    this.worker = started.worker;
    this.worker.addEventListener("error", (event) => this.fail(event.message || "the solo worker failed"));
    setTimeout(() => {
      // after the caller has added its listeners: what came early first, in order
      this.worker.removeEventListener("message", started.hold);
      for (const data of started.held.splice(0)) this.onWorker(data);
      this.worker.addEventListener("message", (event) => this.onWorker(event.data));
    }, 0);
  }

  onWorker(data) {
    if (data && data.type === "_open") {
      this.readyState = 1; // OPEN
      // how the worker started ("snapshot": a later visit's fast start, docs/solo.md)
      if (data.boot) {
        document.body.dataset.soloBoot = data.boot;
        // its phases in ms since this page's navigation (bench/static_app.py prints them)
        const since = (data.origin || performance.timeOrigin) - performance.timeOrigin;
        const marks = Object.entries(data.marks || {}).map(([k, ms]) => [k, Math.round(ms + since)]);
        document.body.dataset.soloBootMarks = JSON.stringify(Object.fromEntries(marks));
      }
      if (solo?.fresh) {
        const params = new URLSearchParams(location.search);
        params.delete("new");
        history.replaceState(null, "", `${location.pathname}?${params}`);
        solo.fresh = false;
      }
      this.dispatchEvent(new Event("open"));
      registerOffline(); // once the worker has what it needs: the cache takes it from there
      if (data.boot === "boot" && data.keep) keepSnapshot();
      return;
    }
    if (data && data.type === "_failed") {
      this.fail(data.message);
      return;
    }
    if (typeof data !== "string") return; // the worker's own notes (_bot: a move's time)
    this.dispatchEvent(new MessageEvent("message", { data }));
  }

  fail(message) {
    this.readyState = 3;
    const text = JSON.stringify({ type: "error", id: null, code: "internal", message });
    this.dispatchEvent(new MessageEvent("message", { data: text }));
  }

  send(text) {
    if (this.readyState === 1) this.worker.postMessage(text);
  }

  close() {
    this.readyState = 3; // CLOSED
    this.worker.terminate();
    this.dispatchEvent(new CloseEvent("close", { code: 1000 }));
  }
}

// A worker that had to boot Python: another one, in the background, keeps a memory
// snapshot for the next visits (solo-worker.js, docs/solo.md). It starts once the service
// worker is active, that is once it keeps the site's files, so that its Pyodide comes from
// the cache and not from the network a second time. The page's <body data-solo-snapshot>
// says when it is kept ("kept") or could not be ("failed").
let snapshotting = false;
function keepSnapshot() {
  if (snapshotting) return;
  snapshotting = true;
  const ready = "serviceWorker" in navigator ? navigator.serviceWorker.ready : Promise.resolve();
  ready.then(() => {
    const maker = new Worker(SOLO_WORKER, { type: "module" });
    const end = (kept) => {
      maker.terminate();
      document.body.dataset.soloSnapshot = kept ? "kept" : "failed";
    };
    maker.addEventListener("message", (event) => {
      const data = event.data;
      if (data && (data.type === "_snapshot" || data.type === "_failed")) end(data.ok === true);
    });
    maker.addEventListener("error", () => end(false));
    maker.postMessage({ type: "snapshot" });
  });
}

// The solo pages work offline once visited: the service worker keeps every file.
export function registerOffline() {
  if (!("serviceWorker" in navigator)) return;
  const scope = document.body.dataset.scope || "/solo"; // "/" where the solo pages are the site
  navigator.serviceWorker.register("/solo-sw.js", { scope }).catch(() => {});
}

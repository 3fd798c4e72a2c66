// A solo table's referee starts as soon as the page's head is read: the solo table page
// (rami.server.solo_site) loads this module with <script type="module" async
// data-solo-start>, which runs before the page's other scripts are even fetched, and
// Pyodide's start is the long pole of the page's (docs/solo.md). transport.js takes the
// worker (takeStarted) with the messages it sent meanwhile. Elsewhere it starts nothing.

const SOLO_LEVELS = ["random", "easy", "medium", "hard"];
export const SOLO_WORKER = "/static/js/solo-worker.js";

// The solo table a page's address asks for (solo.html?game=G&preset=P&level=L[&seed=N]…).
export function soloOptions(search) {
  const params = new URLSearchParams(search);
  const game = params.get("game") || "";
  const preset = params.get("preset") || "";
  const level = SOLO_LEVELS.includes(params.get("level")) ? params.get("level") : "medium";
  const seed = /^\d{1,15}$/.test(params.get("seed") || "") ? Number(params.get("seed")) : null;
  const players = /^\d{1,2}$/.test(params.get("players") || "") ? Number(params.get("players")) : null;
  const delay = /^\d{1,5}$/.test(params.get("delay") || "") ? Number(params.get("delay")) : 500;
  return { game, preset, level, seed, players, delay, fresh: params.get("new") === "1", code: `solo-${game}-${preset}-${level}` };
}

// A worker opening the table `config`; what it says is held until someone takes it.
export function startWorker(config) {
  const worker = new Worker(SOLO_WORKER, { type: "module" });
  const held = [];
  const hold = (event) => held.push(event.data);
  worker.addEventListener("message", hold);
  worker.postMessage({ type: "open", ...config });
  return { worker, held, hold, code: config.code };
}

let started = null;
if (typeof document !== "undefined" && typeof Worker !== "undefined" && document.querySelector("script[data-solo-start]")) {
  started = startWorker(soloOptions(location.search));
}

// The worker started for this page's table (once), or null.
export function takeStarted(code) {
  const taken = started && started.code === code ? started : null;
  started = null;
  return taken;
}

// The scorekeeper's service worker (served at /sw.js, scope /score): once the page has
// been loaded, it opens again without a connection. Pages, scripts, styles, strings and
// the read-only API answers (games, rules, maal cards) are fetched from the network
// when it is there and kept; without it the kept copy is used. Posting a ledger always
// goes to the server (the page keeps the entries and recomputes when it is back).
// Each game's own entry form is a module /api/games names (``client.score``); those
// are kept too, so the worker names no game.

const CACHE = "rami-score-v2";
const LANGS = ["en", "fr", "ar", "ru", "zh", "ne"];
const SHELL = [
  "/score",
  "/static/css/style.css",
  "/static/css/score.css",
  "/static/js/score.js",
  "/static/js/score-i18n.js",
  "/static/js/score-store.js",
  "/static/js/score-dom.js",
  "/static/js/score-pad.js",
  "/static/js/i18n.js",
  "/static/js/api.js",
  "/static/js/cards.js",
  "/api/games",
  ...LANGS.map((l) => `/static/i18n/${l}.json`),
  ...LANGS.map((l) => `/static/i18n/score/${l}.json`),
];

// The games' scorekeeper modules, read from the games list just kept.
async function gameModules() {
  const response = await caches.match("/api/games");
  const games = response ? await response.json() : [];
  return games.map((g) => g.client && g.client.score).filter(Boolean);
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL).then(() => gameModules().then((urls) => cache.addAll(urls))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const key = url.pathname === "/score" ? "/score" : request;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(key, copy));
        }
        return response;
      })
      .catch(() => caches.match(key).then((found) => found || Response.error())),
  );
});

// The app shell's service worker (served at /app-sw.js, scope /): the lobby, table and
// rules pages with their styles, scripts, strings and icons open again without a
// connection once loaded. Network first, the kept copy when offline; the API and the
// table's WebSocket always go to the server. It names no game.

const CACHE = "rami-app-v1";
const LANGS = ["en", "fr", "ar", "ru", "zh", "ne"];
const SHELL = [
  "/",
  "/static/css/style.css",
  "/static/css/table.css",
  "/static/css/felt.css",
  "/static/js/table.js",
  "/static/js/lobby.js",
  "/static/js/api.js",
  "/static/js/cards.js",
  "/static/js/hand.js",
  "/static/js/i18n.js",
  "/static/js/log_text.js",
  "/static/js/options_text.js",
  "/static/js/felt.js",
  "/static/js/motion.js",
  "/static/js/sound.js",
  "/static/js/install.js",
  "/static/icons/icon.svg",
  "/static/icons/icon-192.png",
  "/manifest.webmanifest",
  ...LANGS.map((l) => `/static/i18n/${l}.json`),
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("rami-app-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// Pages: a table's page is the same file for every code, kept once.
function shellKey(url) {
  if (url.pathname.startsWith("/t/")) return "/t/";
  if (url.pathname.startsWith("/rules/")) return "/rules/";
  return url.pathname;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/") || url.pathname.startsWith("/score")) return;
  const key = shellKey(url);
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

// The service worker of solo play (make static writes it to dist/solo-sw.js with the
// site's file list and a version made from the files' contents). It keeps every file of
// the site on the first visit, so later visits load from the cache (nothing from the
// network but a check for a new version) and play works offline. A new build has a new
// version: its files are fetched once and the old cache is dropped.

const VERSION = /*VERSION*/ "dev";
const FILES = /*FILES*/ [];
const CACHE = `rami-solo-${VERSION}`;

// The lobby is the scope itself ("/" for dist/, "/solo" on a server).
const scopePath = new URL(self.registration.scope).pathname;
const LOBBY = scopePath;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      // force-cache: what the page has just fetched comes from the HTTP cache, not again
      .then((cache) => Promise.all([LOBBY, ...FILES].map((url) => cache.add(new Request(url, { cache: "force-cache" })).catch(() => {}))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("rami-solo-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// A page is kept without its query (solo.html?game=… is one page); a folder's page
// (/rules/G/P) under its index (/rules/G/P/).
function keys(url) {
  const path = url.pathname;
  const out = [path];
  if (!path.endsWith("/") && !/\.[a-z0-9]+$/i.test(path)) out.push(`${path}/`);
  if (path.endsWith("/index.html")) out.push(path.slice(0, -"index.html".length));
  return out;
}

async function fromCache(url) {
  for (const key of keys(url)) {
    const found = await caches.match(key, { ignoreSearch: true });
    if (found) return found;
  }
  return null;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  event.respondWith(
    fromCache(url).then(
      (found) =>
        found ||
        fetch(request).then((response) => {
          if (response.ok && !response.redirected) {
            const copy = response.clone();
            caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
          }
          return response;
        }),
    ),
  );
});

// Installing the app (issue 21): registers the app shell's service worker (/app-sw.js).
// The browser offers "Install" from the manifest each page links.
// Solo pages (<body data-solo>, docs/solo.md) have their own worker, /solo-sw.js.
if ("serviceWorker" in navigator && !("solo" in document.body.dataset) && (location.protocol === "https:" || location.hostname === "localhost" || location.hostname === "127.0.0.1")) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/app-sw.js", { scope: "/" }).catch(() => {
      /* no worker: the app still works online */
    });
  });
}

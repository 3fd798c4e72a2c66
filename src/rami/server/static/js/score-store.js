// What the scorekeeper keeps in the browser: the current ledger (its entries, as the
// server's ledger API takes them), the last result the server computed for it (shown
// at once on reload, and offline), and earlier evenings. Also the share link format.

const KEY = "rami.score";
const ARCHIVE_MAX = 20;

function read() {
  try {
    const found = JSON.parse(localStorage.getItem(KEY) || "{}");
    return found && typeof found === "object" ? found : {};
  } catch {
    return {};
  }
}

function write(book) {
  localStorage.setItem(KEY, JSON.stringify(book));
}

export function current() {
  const book = read();
  return { doc: book.doc || null, computed: book.computed || null };
}

export function saveCurrent(doc, computed) {
  const book = read();
  book.doc = doc;
  book.computed = computed;
  book.saved = Date.now();
  write(book);
}

export function archive() {
  const list = read().archive;
  return Array.isArray(list) ? list : [];
}

// Put the current ledger (if it has deals) among the earlier evenings and clear it.
export function closeCurrent() {
  const book = read();
  if (book.doc && Array.isArray(book.doc.deals) && book.doc.deals.length) {
    const list = Array.isArray(book.archive) ? book.archive : [];
    list.unshift({ doc: book.doc, saved: book.saved || Date.now() });
    book.archive = list.slice(0, ARCHIVE_MAX);
  }
  book.doc = null;
  book.computed = null;
  write(book);
}

export function takeFromArchive(index) {
  const book = read();
  const list = Array.isArray(book.archive) ? book.archive : [];
  const [item] = list.splice(index, 1);
  book.archive = list;
  write(book);
  return item ? item.doc : null;
}

// Share links carry the ledger in the fragment (never sent to a server): #ledger=<base64url>.
export function encodeLink(doc) {
  const bytes = new TextEncoder().encode(JSON.stringify(doc));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  const b64 = btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${location.origin}/score#ledger=${b64}`;
}

export function decodeLink(text) {
  const match = /[#&]ledger=([A-Za-z0-9_-]+)/.exec(text);
  if (!match) return null;
  const b64 = match[1].replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "===".slice((b64.length + 3) % 4));
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

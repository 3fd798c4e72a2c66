// Solo matches kept in the browser (IndexedDB "rami-solo", store "tables", one record per
// solo table code): the worker saves the match after every change (rami.solo's to_json,
// its rules, seed and event log) and replays it when the page opens again, so a match
// survives closing the tab. The lobby lists them to resume.

const DB = "rami-solo";
const STORE = "tables";

function openDb() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "code" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run(mode, work) {
  const db = await openDb();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

// {code, game, preset, level, doc, over, deal, saved} or undefined
export function loadSolo(code) {
  return run("readonly", (store) => store.get(code));
}

export function saveSolo(record) {
  return run("readwrite", (store) => store.put({ ...record, saved: Date.now() }));
}

export function dropSolo(code) {
  return run("readwrite", (store) => store.delete(code));
}

export async function allSolo() {
  return (await run("readonly", (store) => store.getAll())) || [];
}

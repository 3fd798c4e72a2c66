// HTTP helpers and what the browser remembers: the player's name and, per table,
// the seat and its secret token (never sent anywhere but this server).

const TABLES_KEY = "rami.tables";
const NAME_KEY = "rami.name";

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = data.error || {};
    let message = error.message;
    if (!message && Array.isArray(data.detail)) {
      message = data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
    }
    throw new ApiError(error.code || "http", message || response.statusText, response.status);
  }
  return data;
}

export function myTables() {
  try {
    const found = JSON.parse(localStorage.getItem(TABLES_KEY) || "{}");
    return found && typeof found === "object" ? found : {};
  } catch {
    return {};
  }
}

export function seatOf(code) {
  return myTables()[code] || null;
}

export function rememberSeat(code, seat, token, extra = {}) {
  const all = myTables();
  all[code] = { ...(all[code] || {}), seat, token, ...extra, saved: Date.now() };
  localStorage.setItem(TABLES_KEY, JSON.stringify(all));
}

export function forgetTable(code) {
  const all = myTables();
  delete all[code];
  localStorage.setItem(TABLES_KEY, JSON.stringify(all));
}

export function playerName() {
  return localStorage.getItem(NAME_KEY) || "";
}

export function savePlayerName(name) {
  if (name) localStorage.setItem(NAME_KEY, name);
}

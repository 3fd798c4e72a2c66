// The table page's part of the replay links (issue 24): at a deal's end, a link to the
// table's replay /r/{id} (the secret id comes from the server, not from the code); for
// the table's creator, the setting that keeps its replays private. The seat's token is
// left in localStorage for the replay page, which offers that seat its own review.

import { api } from "./api.js";
import { t } from "./i18n.js";

const REPLAY_TOKENS = "rami.replays";
const asked = new Map(); // code -> the link's answer (one request per page)

function remember(link, token) {
  if (!token) return;
  let all = {};
  try {
    all = JSON.parse(localStorage.getItem(REPLAY_TOKENS) || "{}") || {};
  } catch {
    all = {};
  }
  all[link] = token;
  localStorage.setItem(REPLAY_TOKENS, JSON.stringify(all));
}

function linkOf(code, token) {
  if (!asked.has(code)) {
    const answer = api(`/api/tables/${encodeURIComponent(code)}/replay-link`, { token }).then((got) => {
      remember(got.link, token);
      return got;
    });
    answer.catch(() => asked.delete(code));
    asked.set(code, answer);
  }
  return asked.get(code);
}

// "Open the replay" after `anchor` (the result panel's buttons); `deal` is 1-based.
export async function addReplayLink(code, token, anchor, deal) {
  const got = await linkOf(code, token).catch(() => null);
  if (!got) return;
  let a = document.getElementById("replay-link");
  if (!a) {
    a = document.createElement("a");
    a.id = "replay-link";
    a.className = "button";
    a.target = "_blank";
    a.rel = "noopener";
    anchor.after(a);
  }
  a.textContent = t("replay_open");
  a.title = t("replay_link");
  a.href = deal ? `${got.url}/${deal}` : got.url;
  if (!token) return; // a seat reviews its own decisions: spectators get no Review button
  let review = document.getElementById("review-link");
  if (!review) {
    review = document.createElement("a");
    review.id = "review-link";
    review.className = "button";
    review.target = "_blank";
    review.rel = "noopener";
    a.after(review);
  }
  review.textContent = t("review_start");
  review.href = `${a.href}#review`;
}

// The creator's "keep replays private" setting, once, at the end of `container`.
export async function addReplayPrivacy(code, token, container) {
  if (!token || document.getElementById("replay-private")) return;
  const got = await linkOf(code, token).catch(() => null);
  if (!got || !got.creator || document.getElementById("replay-private")) return;
  const p = document.createElement("p");
  const label = document.createElement("label");
  const box = document.createElement("input");
  box.type = "checkbox";
  box.id = "replay-private";
  box.checked = got.private;
  const text = document.createElement("span");
  text.textContent = t("replay_private");
  label.style.cssText = "display: flex; flex-direction: row; align-items: center; gap: 0.5rem;";
  box.style.cssText = "min-height: 1.5rem; width: 1.5rem; height: 1.5rem; flex: 0 0 auto; margin: 0;";
  label.append(box, text);
  p.append(label);
  container.append(p);
  box.addEventListener("change", async () => {
    box.disabled = true;
    try {
      const done = await api(`/api/tables/${encodeURIComponent(code)}/replay-privacy`, {
        method: "PUT",
        body: { private: box.checked },
        token,
      });
      box.checked = done.private;
    } catch {
      box.checked = !box.checked;
    }
    box.disabled = false;
  });
}

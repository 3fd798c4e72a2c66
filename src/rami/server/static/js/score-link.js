// The lobby's link to the scorekeeper (/score), in the lobby's language.

import { pickLanguage } from "./i18n.js";

async function label() {
  const link = document.querySelector("[data-score-link]");
  if (!link) return;
  const lang = pickLanguage();
  for (const code of [lang, "en"]) {
    const response = await fetch(`/static/i18n/score/${code}.json`).catch(() => null);
    if (response && response.ok) {
      const strings = await response.json();
      if (strings.lobby_link) {
        link.textContent = strings.lobby_link;
        link.lang = code;
        return;
      }
    }
  }
}

label();
document.getElementById("lang")?.addEventListener("change", () => setTimeout(label, 50));

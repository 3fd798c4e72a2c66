// The lobby of solo play (make static's index.html, rami serve's /solo): choose a game,
// its preset and the bots' level, and play in the browser against bots (solo.html); the
// matches kept in this browser (solo-store.js) are listed to resume. Names no game: the
// list comes from /api/games (a file in dist/, the live API on a server).

import { api } from "./api.js";
import { languageSwitcher, levelLabel, pickLanguage, setLanguage, t, translatePage } from "./i18n.js";
import { allSolo } from "./solo-store.js";
import { registerOffline } from "./transport.js";

const $ = (id) => document.getElementById(id);
const LEVELS = ["random", "easy", "medium", "hard"];
let games = [];

function option(value, text) {
  const node = document.createElement("option");
  node.value = value;
  node.textContent = text;
  return node;
}

function chosen() {
  const game = games.find((g) => g.name === $("game").value) || games[0];
  return { game, preset: $("preset").value || game.presets[0].name, level: $("level").value || "medium" };
}

function tableUrl(game, preset, level, fresh) {
  const params = new URLSearchParams({ game, preset, level });
  if (fresh) params.set("new", "1");
  return `solo.html?${params}`;
}

function fillPresets() {
  const { game } = chosen();
  const keep = $("preset").value;
  $("preset").replaceChildren(...game.presets.map((p) => option(p.name, t(`preset_${game.name}_${p.name}`))));
  if (game.presets.some((p) => p.name === keep)) $("preset").value = keep;
  $("preset-label").textContent = t(game.preset_label === "mode" ? "mode" : "rules_preset");
  $("rules-link").href = `/rules/${game.name}/${$("preset").value}`;
}

function render() {
  const keep = $("game").value;
  $("game").replaceChildren(...games.map((g) => option(g.name, t(`game_${g.name}`))));
  if (keep) $("game").value = keep;
  const level = $("level").value || "medium";
  $("level").replaceChildren(...LEVELS.map((l) => option(l, levelLabel(l))));
  $("level").value = level;
  fillPresets();
  renderSaved();
}

async function renderSaved() {
  const kept = (await allSolo().catch(() => [])).filter((r) => !r.over);
  kept.sort((a, b) => b.saved - a.saved);
  $("saved-empty").hidden = kept.length > 0;
  $("saved-list").replaceChildren(
    ...kept.map((r) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = tableUrl(r.game, r.preset, r.level, false);
      a.textContent = `${t(`game_${r.game}`)} · ${t(`preset_${r.game}_${r.preset}`)} · ${levelLabel(r.level)}`;
      li.append(a, ` ${t("solo_resume", { n: r.deal || 1 })}`);
      return li;
    }),
  );
}

async function main() {
  await setLanguage(pickLanguage());
  languageSwitcher($("lang"), () => {
    translatePage();
    render();
  });
  games = await api("/api/games");
  render();
  $("game").addEventListener("change", fillPresets);
  $("preset").addEventListener("change", fillPresets);
  $("solo-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const { game, preset, level } = chosen();
    location.href = tableUrl(game.name, preset, level, true);
  });
  registerOffline();
  document.body.dataset.ready = "1";
}

main();

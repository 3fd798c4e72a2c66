// The lobby: the player's tables, joining by code, creating a table, the rules pages.

import { api, myTables, playerName, rememberSeat, savePlayerName } from "./api.js";
import { languageSwitcher, levelLabel, pickLanguage, setLanguage, t, translatePage } from "./i18n.js";
import { choiceLabel, optionHelp, optionLabel } from "./options_text.js";

const $ = (id) => document.getElementById(id);
let games = [];

function gameOf(name) {
  return games.find((g) => g.name === name) || games[0];
}

function presetOf(game, name) {
  return game.presets.find((p) => p.name === name) || game.presets[0];
}

function option(value, label) {
  const el = document.createElement("option");
  el.value = value;
  el.textContent = label;
  return el;
}

function presetText(game, preset) {
  return t(`preset_${game.name}_${preset}`);
}

function fillGames(selectedGame, selectedPreset) {
  $("game").replaceChildren(...games.map((g) => option(g.name, t(`game_${g.name}`))));
  $("game").value = gameOf(selectedGame).name;
  fillPresets(selectedPreset);
}

function fillPresets(selected) {
  const game = gameOf($("game").value);
  $("preset-label").textContent = t(game.preset_label === "mode" ? "mode" : "rules_preset");
  $("preset").replaceChildren(...game.presets.map((p) => option(p.name, presetText(game, p.name))));
  $("preset").value = presetOf(game, selected).name;
  fillPlayers();
  loadOptions();
}

function fillPlayers() {
  const game = gameOf($("game").value);
  const preset = presetOf(game, $("preset").value);
  const previous = Number($("players").value);
  $("players").replaceChildren(...preset.players.map((n) => option(String(n), String(n))));
  const fallback = preset.players.includes(4) ? 4 : preset.players[preset.players.length - 1];
  $("players").value = String(preset.players.includes(previous) ? previous : fallback);
  $("players").disabled = preset.players.length === 1;
  fillSeats();
  $("rules-link").href = `/rules/${game.name}/${preset.name}`;
}

// The levels a bot seat may take at this table: the game's, then the shipped learned
// models trained for this preset and seat count (the server judges again on create).
function seatLevels(game, preset, count) {
  const learned = (preset.learned_levels || []).filter((l) => l.players === count).map((l) => l.level);
  return [...game.bot_levels, ...learned];
}

// A bot level's measured strength at this preset (the shipped ladder, docs/bots.md): its
// rating with the 95% interval and its points a deal against medium; "" if not measured.
function strengthText(game, preset, choice) {
  const level = choice.startsWith("bot:") ? choice.slice(4) : "";
  const found = (preset.bot_strength || {})[level];
  if (!found) return "";
  const n = (x) => Number(x).toFixed(1);
  let text = t("bot_strength", { rating: n(found.rating), low: n(found.ci95[0]), high: n(found.ci95[1]) });
  const vs = found.points_vs_medium;
  if (vs && level !== "medium") {
    const signed = (x) => `${x > 0 ? "+" : ""}${n(x)}`;
    const range = vs.ci95 ? ` [${signed(vs.ci95[0])}, ${signed(vs.ci95[1])}]` : "";
    const key = game.higher_wins ? "bot_strength_points" : "bot_strength_points_low";
    text += " · " + t(key, { points: signed(vs.mean) + range });
  }
  return text;
}

function fillSeats() {
  const game = gameOf($("game").value);
  const preset = presetOf(game, $("preset").value);
  const count = Number($("players").value);
  const levels = seatLevels(game, preset, count);
  const old = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  const fallback = `bot:${game.bot_levels.includes("medium") ? "medium" : game.bot_levels[0]}`;
  const items = [];
  for (let i = 0; i < count; i++) {
    const li = document.createElement("li");
    const label = document.createElement("label");
    const span = document.createElement("span");
    span.textContent = t("seat_n", { n: i + 1 });
    label.append(span);
    li.append(label);
    if (i === 0) {
      const you = document.createElement("strong");
      you.textContent = t("you");
      label.append(" ", you);
    } else {
      const select = document.createElement("select");
      select.name = `seat${i}`;
      select.dataset.seat = String(i);
      select.append(option("human", t("seat_friend")));
      for (const level of levels) {
        select.append(option(`bot:${level}`, t("seat_bot", { level: levelLabel(level) })));
      }
      // a choice that does not fit the new table (a learned model) falls back to the default
      const kept = old[i - 1];
      select.value = kept && [...select.options].some((o) => o.value === kept) ? kept : fallback;
      label.append(" ", select);
      const note = document.createElement("small");
      note.className = "bot-strength";
      note.id = `seat-strength-${i}`;
      select.setAttribute("aria-describedby", note.id);
      const show = () => {
        note.textContent = strengthText(game, preset, select.value);
        note.hidden = !note.textContent;
      };
      select.addEventListener("change", show);
      show();
      li.append(note);
    }
    items.push(li);
  }
  $("seats").replaceChildren(...items);
}

async function loadOptions() {
  const game = gameOf($("game").value);
  const preset = $("preset").value;
  const box = $("options");
  box.replaceChildren();
  const summary = await api(`/api/rules/${game.name}/${preset}`);
  if ($("game").value !== game.name || $("preset").value !== preset) return;
  for (const opt of summary.options) {
    if (opt.lobby === false) continue; // the shoe and the hand: each preset's own (no rule varies them)
    const label = document.createElement("label");
    label.className = "option";
    const name = document.createElement("span");
    name.className = "option-name";
    name.textContent = optionLabel(opt.name);
    name.title = opt.name;
    let input;
    if (opt.type === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = Boolean(opt.value);
    } else if (opt.choices) {
      input = document.createElement("select");
      for (const choice of opt.choices) input.append(option(String(choice), choiceLabel(choice)));
      input.value = String(opt.value);
    } else if (opt.type.startsWith("int")) {
      input = document.createElement("input");
      input.type = "number";
      input.min = "0";
      input.value = opt.value === null ? "" : String(opt.value);
    } else {
      input = document.createElement("input");
      input.value = String(opt.value ?? "");
    }
    input.dataset.option = opt.name;
    input.dataset.type = opt.type;
    input.dataset.default = JSON.stringify(opt.default);
    input.id = `opt-${opt.name}`;
    const help = document.createElement("small");
    help.textContent = optionHelp(opt);
    label.append(name, input, help);
    box.append(label);
  }
  box.append(timerOption());
}

// The turn timer is the table's, not the game's: "default" lets the server choose
// (a clock only when other people would wait).
function timerOption() {
  const label = document.createElement("label");
  label.className = "option";
  const name = document.createElement("span");
  name.className = "option-name";
  name.textContent = t("turn_timer");
  const select = document.createElement("select");
  select.id = "turn-seconds";
  select.append(option("default", `${t("timer_seconds", { n: 60 })} (2+)`));
  for (const n of [15, 30, 60, 120, 300]) select.append(option(String(n), t("timer_seconds", { n })));
  select.append(option("off", t("timer_off")));
  const help = document.createElement("small");
  help.textContent = t("turn_timer_help");
  label.append(name, select, help);
  return label;
}

function turnSeconds() {
  const value = $("turn-seconds")?.value || "default";
  if (value === "default") return -1;
  if (value === "off") return null;
  return Number(value);
}

function changedOptions() {
  const out = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    let value;
    if (input.dataset.type === "bool") value = input.checked;
    else if (input.dataset.type.startsWith("int")) value = input.value === "" ? null : Number(input.value);
    else value = input.value;
    if (JSON.stringify(value) !== input.dataset.default) out[input.dataset.option] = value;
  }
  return out;
}

async function createTable(event) {
  event.preventDefault();
  const error = $("create-error");
  error.hidden = true;
  const name = $("name").value.trim();
  savePlayerName(name);
  const seats = [{ kind: "human", name }];
  for (const select of $("seats").querySelectorAll("select")) {
    if (select.value === "human") seats.push({ kind: "human" });
    else seats.push({ kind: "bot", level: select.value.slice(select.value.indexOf(":") + 1) }); // "bot:learned:NAME"
  }
  const body = {
    game: $("game").value,
    preset: $("preset").value,
    options: changedOptions(),
    seats,
    seat: 0,
    name: name || null,
    turn_seconds: turnSeconds(),
  };
  $("create-button").disabled = true;
  try {
    const made = await api("/api/tables", { method: "POST", body });
    rememberSeat(made.code, made.seat, made.token, { game: body.game, preset: body.preset });
    location.href = `/t/${made.code}`;
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
    $("create-button").disabled = false;
  }
}

async function showMyTables() {
  const mine = myTables();
  const codes = Object.keys(mine);
  const list = $("mine-list");
  list.replaceChildren();
  $("mine-empty").hidden = codes.length > 0;
  if (!codes.length) return;
  const found = await api(`/api/tables?codes=${encodeURIComponent(codes.join(","))}`).catch(() => []);
  found.sort((a, b) => b.created_at - a.created_at);
  for (const table of found) {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/t/${table.code}`;
    link.textContent = `${table.code} · ${t(`game_${table.game}`)} · ${table.preset}`;
    const status = document.createElement("span");
    status.className = `status ${table.status}`;
    status.textContent = t(`status_${table.status}`);
    const seat = mine[table.code]?.seat;
    const who = document.createElement("span");
    who.className = "muted";
    if (seat !== null && seat !== undefined) who.textContent = t("your_seat", { n: seat + 1 });
    li.append(link, " ", status, " ", who);
    list.append(li);
  }
}

function showRulesLinks() {
  const items = [];
  for (const game of games) {
    for (const preset of game.presets) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/rules/${game.name}/${preset.name}`;
      a.textContent = `${t(`game_${game.name}`)}: ${presetText(game, preset.name)}`;
      li.append(a);
      items.push(li);
    }
  }
  $("rules-list").replaceChildren(...items);
}

function redraw() {
  const game = $("game").value;
  const preset = $("preset").value;
  translatePage();
  fillGames(game, preset);
  showRulesLinks();
  showMyTables();
}

async function main() {
  await setLanguage(pickLanguage());
  languageSwitcher($("lang"), redraw);
  games = await api("/api/games");
  const params = new URLSearchParams(location.search);
  $("name").value = playerName();
  fillGames(params.get("game"), params.get("preset")); // none named: the registry's first game
  $("game").addEventListener("change", () => fillPresets());
  $("preset").addEventListener("change", () => {
    fillPlayers();
    loadOptions();
  });
  $("players").addEventListener("change", fillSeats);
  $("create-form").addEventListener("submit", createTable);
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = $("join-code").value.trim().toUpperCase();
    if (code) location.href = `/t/${encodeURIComponent(code)}`;
  });
  showRulesLinks();
  showMyTables();
  document.body.dataset.ready = "1";
}

main();

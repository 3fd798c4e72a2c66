// Interface languages: string tables in /static/i18n/<lang>.json, chosen from the
// browser's languages unless the player picked one. Arabic switches the page to
// right-to-left. Game terms (tiplu, jhiplu, poplu, maal, tunnela, dublee, man3a,
// farcha) are left as players say them in every table.

export const LANGUAGES = [
  ["en", "English"],
  ["fr", "Français"],
  ["ar", "العربية"],
  ["ru", "Русский"],
  ["zh", "中文"],
  ["ne", "नेपाली"],
];
const RTL = new Set(["ar"]);
const STORE_KEY = "rami.lang";

let strings = {};
let fallback = {};
let current = "en";

export function pickLanguage() {
  const saved = localStorage.getItem(STORE_KEY);
  const known = new Set(LANGUAGES.map(([code]) => code));
  if (saved && known.has(saved)) return saved;
  for (const lang of navigator.languages || [navigator.language || "en"]) {
    const base = String(lang).toLowerCase().split("-")[0];
    if (known.has(base)) return base;
  }
  return "en";
}

async function loadTable(lang) {
  const response = await fetch(`/static/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`no strings for ${lang}`);
  return response.json();
}

export async function setLanguage(lang, remember = false) {
  if (remember) localStorage.setItem(STORE_KEY, lang);
  if (!Object.keys(fallback).length) fallback = await loadTable("en");
  strings = lang === "en" ? fallback : await loadTable(lang).catch(() => fallback);
  current = lang;
  document.documentElement.lang = lang;
  document.documentElement.dir = RTL.has(lang) ? "rtl" : "ltr";
  translatePage();
}

export function language() {
  return current;
}

// t(key, {name: "Ann"}) fills "{name}" placeholders; an unknown key shows itself.
// A count `n` picks the language's plural form when it has one: "cards_n_one",
// "cards_n_two", "cards_n_few"... (Intl.PluralRules categories), else "cards_n".
export function t(key, args = {}) {
  let text = strings[key] ?? fallback[key] ?? key;
  if (typeof args.n === "number" && strings[key] !== undefined) {
    const form = strings[`${key}_${new Intl.PluralRules(current).select(args.n)}`];
    if (form !== undefined) text = form;
  }
  for (const [name, value] of Object.entries(args)) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

// A bot level in words: "level_NAME", or "learned:MODEL" (a shipped model) as
// "level_learned" with the model's name.
export function levelLabel(level) {
  const text = String(level ?? "");
  if (text.startsWith("learned:")) return t("level_learned", { name: text.slice("learned:".length) });
  return t(`level_${text}`);
}

export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    el.setAttribute("title", t(el.dataset.i18nTitle));
  }
}

// A <select> that switches the language and calls onChange afterwards.
export function languageSwitcher(select, onChange) {
  select.replaceChildren(
    ...LANGUAGES.map(([code, name]) => {
      const option = document.createElement("option");
      option.value = code;
      option.textContent = name;
      option.lang = code;
      return option;
    }),
  );
  select.value = current;
  select.addEventListener("change", async () => {
    await setLanguage(select.value, true);
    if (onChange) onChange();
  });
}

// The scorekeeper's strings: /static/i18n/score/<lang>.json on top of the app's own
// tables (i18n.js picks the language and sets the page direction, right to left in
// Arabic). Elements carry data-s="key" (text) or data-s-label="key" (aria-label).

import { language, setLanguage, t } from "./i18n.js";

let strings = {};
let fallback = {};

async function load(lang) {
  const response = await fetch(`/static/i18n/score/${lang}.json`);
  if (!response.ok) throw new Error(`no score strings for ${lang}`);
  return response.json();
}

export async function useLanguage(lang, remember = false) {
  await setLanguage(lang, remember);
  if (!Object.keys(fallback).length) fallback = await load("en").catch(() => ({}));
  strings = lang === "en" ? fallback : await load(lang).catch(() => fallback);
  translateScore();
}

export { language };

// st("net", {n: 3}): a score string, else an app string, else the key itself.
export function st(key, args = {}) {
  let text = strings[key] ?? fallback[key] ?? t(key);
  for (const [name, value] of Object.entries(args)) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

export function translateScore(root = document) {
  for (const el of root.querySelectorAll("[data-s]")) el.textContent = st(el.dataset.s);
  for (const el of root.querySelectorAll("[data-s-label]")) {
    el.setAttribute("aria-label", st(el.dataset.sLabel));
  }
}

// Numbers with a sign, in the page's language digits where the browser has them.
export function signed(n) {
  const text = new Intl.NumberFormat(language(), { signDisplay: "exceptZero" }).format(n);
  return text;
}

export function num(n) {
  return new Intl.NumberFormat(language()).format(n);
}

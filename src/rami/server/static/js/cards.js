// Drawing cards from their canonical text ("10♣", "Q♥", "JK") and reading action
// texts for labels. No rules here: which moves are legal always comes from the server.

import { t } from "./i18n.js";

const SUITS = "♠♥♦♣";
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUIT_KEYS = ["suit_spades", "suit_hearts", "suit_diamonds", "suit_clubs"];

export function parseCard(text) {
  if (text === "JK") return { rank: 0, suit: -1, text };
  const suit = SUITS.indexOf(text.slice(-1));
  const rank = RANKS.indexOf(text.slice(0, -1)) + 1;
  return { rank, suit, text };
}

export function isCard(word) {
  if (word === "JK") return true;
  const { rank, suit } = parseCard(word);
  return rank > 0 && suit >= 0;
}

export function cardName(text) {
  const { rank, suit } = parseCard(text);
  if (suit < 0) return t("joker");
  return `${RANKS[rank - 1]} ${t(SUIT_KEYS[suit])}`;
}

// Sort keys: by suit then rank (jokers last), or by rank then suit.
export function suitKey(text) {
  const { rank, suit } = parseCard(text);
  return suit < 0 ? 999 : suit * 20 + rank;
}

export function rankKey(text) {
  const { rank, suit } = parseCard(text);
  return suit < 0 ? 999 : rank * 10 + suit;
}

// A card face as an element; `tag` "button" for cards the player can pick.
export function cardElement(text, { tag = "span", small = false, marks = [] } = {}) {
  const { rank, suit } = parseCard(text);
  const el = document.createElement(tag);
  el.className = "card";
  if (small) el.classList.add("small");
  if (suit === 1 || suit === 2) el.classList.add("red");
  if (suit < 0) el.classList.add("joker");
  for (const mark of marks) el.classList.add(mark);
  el.dataset.card = text;
  const rankEl = document.createElement("span");
  rankEl.className = "rank";
  rankEl.textContent = suit < 0 ? "" : RANKS[rank - 1]; // a joker's star is drawn by CSS
  const suitEl = document.createElement("span");
  suitEl.className = "suit";
  suitEl.textContent = suit < 0 ? "JK" : SUITS[suit];
  el.append(rankEl, suitEl);
  // the name contains the visible text (WCAG 2.5.3): a joker shows "JK"
  el.setAttribute("aria-label", suit < 0 ? `${cardName(text)}, JK` : cardName(text));
  if (tag === "span") el.setAttribute("role", "img");
  return el;
}

export function cardRow(cards, { small = true, marks = () => [] } = {}) {
  const row = document.createElement("span");
  row.className = "cards";
  for (const c of cards) row.append(cardElement(c, { small, marks: marks(c) }));
  return row;
}

// "add 8♥ @2" -> {verb: "add", cards: ["8♥"], target: 2}
export function parseAction(text) {
  const words = text.split(/\s+/).filter(Boolean);
  const out = { verb: words[0] || "", cards: [], target: null, text };
  for (const word of words.slice(1)) {
    if (word.startsWith("@")) out.target = Number(word.slice(1));
    else out.cards.push(word);
  }
  return out;
}

// Whether the multiset `part` is inside the multiset `whole`.
export function containsAll(whole, part) {
  const left = new Map();
  for (const c of whole) left.set(c, (left.get(c) || 0) + 1);
  for (const c of part) {
    const n = left.get(c) || 0;
    if (!n) return false;
    left.set(c, n - 1);
  }
  return true;
}

// An action as a label: the verb in the interface language, its cards drawn.
export function actionLabel(action, { meldOwnerName } = {}) {
  const a = typeof action === "string" ? parseAction(action) : action;
  const el = document.createElement("span");
  el.className = "action-label";
  const verb = document.createElement("span");
  verb.textContent = t(`verb_${a.verb}`);
  el.append(verb);
  if (a.cards.length) el.append(" ", cardRow(a.cards));
  if (a.target !== null) {
    const target = document.createElement("span");
    target.className = "target";
    target.textContent = " " + t("on_meld", { n: a.target, owner: meldOwnerName ? meldOwnerName(a.target) : "" });
    el.append(target);
  }
  return el;
}

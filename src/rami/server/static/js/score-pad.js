// The card pad, a sheet at the bottom of the screen: tap a suit, then a rank (and the
// joker when the game has one). One card (a tiplu, a tunnela) closes it; several (the
// cards left in a Tunisian hand) are collected until Done. Card notation (N-1) only.

import { cardElement } from "./cards.js";
import { t } from "./i18n.js";
import { h } from "./score-dom.js";

const $ = (id) => document.getElementById(id);
const SUITS = ["♠", "♥", "♦", "♣"];
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUIT_NAMES = ["suit_spades", "suit_hearts", "suit_diamonds", "suit_clubs"];

let pad = null;

export function openPad({ title, many = false, joker = false, chosen = [], onDone }) {
  pad = { title, many, joker, chosen: [...chosen], suit: null, onDone };
  $("pad").hidden = false;
  renderPad();
  const first = $("pad-suits").querySelector("button");
  if (first) first.focus();
}

function closePad(commit) {
  if (!pad) return;
  const { onDone, chosen } = pad;
  pad = null;
  $("pad").hidden = true;
  if (commit) onDone(chosen);
}

function renderPad() {
  $("pad-title").textContent = pad.title;
  $("pad-chosen").replaceChildren(...pad.chosen.map((c) => cardElement(c, { small: true })));
  $("pad-chosen").hidden = !pad.many;
  $("pad-suits").replaceChildren(
    ...SUITS.map((s, i) =>
      h(
        "button",
        {
          type: "button",
          class: `pad-suit${i === 1 || i === 2 ? " red" : ""}`,
          "aria-pressed": String(pad.suit === s),
          "aria-label": t(SUIT_NAMES[i]),
          dataset: { suit: s },
          onclick: () => {
            pad.suit = s;
            renderPad();
          },
        },
        s,
      ),
    ),
  );
  $("pad-ranks").replaceChildren(
    ...RANKS.map((r) =>
      h(
        "button",
        {
          type: "button",
          class: "pad-rank",
          disabled: pad.suit === null,
          dataset: { rank: r },
          onclick: () => pick(`${r}${pad.suit}`),
        },
        r,
      ),
    ),
  );
  $("pad-joker").hidden = !pad.joker;
  $("pad-back").hidden = !pad.many;
}

function pick(card) {
  if (!pad) return;
  pad.chosen.push(card);
  if (!pad.many) closePad(true);
  else renderPad();
}

export function wirePad() {
  $("pad-done").addEventListener("click", () => closePad(true));
  $("pad-back").addEventListener("click", () => {
    if (pad && pad.chosen.length) {
      pad.chosen.pop();
      renderPad();
    }
  });
  $("pad-joker").addEventListener("click", () => pick("JK"));
  $("pad").addEventListener("keydown", (e) => {
    if (e.key === "Escape") closePad(false);
  });
}

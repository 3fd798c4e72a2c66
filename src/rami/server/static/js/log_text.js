// The move log in the interface language. The engines word their events in English
// with seats numbered from 0 ("seat 2 finishes"); this maps each known wording to a
// string key, with seats replaced by the names the page shows. No rules here: only the
// engines' event texts, read back.

import { actionLabel, cardElement } from "./cards.js";
import { t } from "./i18n.js";

const SEAT = "seat (\\d+)";
const CARD = "(\\S+)";

// [regular expression, string key, names of the captured groups]
const EVENTS = [
  [new RegExp(`^${SEAT} deals; ${CARD} is turned up$`), "ev_deals_turned", ["seat", "card"]],
  [new RegExp(`^${SEAT} deals$`), "ev_deals", ["seat"]],
  [/^the tiplu is picked from the stock$/, "ev_tiplu_picked", []],
  [new RegExp(`^${SEAT} sees the tiplu$`), "ev_sees", ["seat"]],
  [/^the discard pile \((\d+) cards\) is shuffled as the new stock$/, "ev_recycle_shuffled", ["n"]],
  [/^the discard pile \((\d+) cards\) is turned over as the new stock$/, "ev_recycle_turned", ["n"]],
  [/^the deal ends with no finisher \(turn limit\)$/, "ev_no_finisher_turns", []],
  [/^the deal ends with no finisher \(the stock ran out\)$/, "ev_no_finisher_stock", []],
  [new RegExp(`^${SEAT} finishes$`), "ev_finishes", ["seat"]],
  [new RegExp(`^${SEAT} opens with (\\d+) \\(needed (\\d+)\\)$`), "ev_opens", ["seat", "value", "threshold"]],
  [/^the discard pile is shuffled into a new stock of (\d+) cards$/, "ev_restock", ["n"]],
  [/^the deal starts from a set position$/, "ev_position", []],
  [new RegExp(`^${SEAT} goes out$`), "ev_goes_out", ["seat"]],
  [/^the deal ends with no winner: the stock ran out$/, "ev_no_winner_stock", []],
  [/^the deal ends with no winner: the turn cap was reached$/, "ev_no_winner_turns", []],
];

// One log entry as a list of nodes; `nameOf(seat)` gives the names the page shows.
export function logEntry(entry, nameOf, meldOwnerName) {
  const li = document.createElement("li");
  if (entry.move !== undefined) {
    const who = document.createElement("strong");
    who.textContent = `${nameOf(entry.seat)}: `;
    li.append(who, actionLabel(entry.move, { meldOwnerName }));
    return li;
  }
  const em = document.createElement("em");
  em.textContent = eventText(entry.event || "", nameOf);
  li.append(em);
  const card = /is turned up$/.test(entry.event || "") ? /; (\S+) is turned up$/.exec(entry.event)[1] : null;
  if (card) li.append(" ", cardElement(card, { small: true }));
  return li;
}

export function eventText(text, nameOf) {
  for (const [re, key, names] of EVENTS) {
    const m = re.exec(text);
    if (!m) continue;
    const args = {};
    names.forEach((name, i) => {
      const value = m[i + 1];
      args[name] = name === "seat" ? nameOf(Number(value)) : value;
    });
    return t(key, args);
  }
  return text;
}

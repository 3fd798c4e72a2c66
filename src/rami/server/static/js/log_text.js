// The move log in the interface language. A table event comes with its code and its
// words (`entry.code`, `entry.args`: see rami.views.HistoryEntry); its string key is
// "ev_<code>", its placeholders the args, a seat shown by the name the page shows.
// Adding an event: its code and args in the game's view (`event_words`) and the key
// "ev_<code>" in each i18n/*.json; nothing here. No rules and no parsing here: an entry
// without a code (an old record) shows its English `event` as it is.

import { actionLabel, cardElement } from "./cards.js";
import { t } from "./i18n.js";

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
  em.textContent = eventText(entry, nameOf);
  li.append(em);
  const card = entry.code && entry.args ? entry.args.card : undefined;
  if (card) li.append(" ", cardElement(card, { small: true }));
  return li;
}

// An event entry in words: its key "ev_<code>" filled with its args.
export function eventText(entry, nameOf) {
  const key = `ev_${entry.code}`;
  if (!entry.code || t(key) === key) return entry.event || "";
  const args = {};
  for (const [name, value] of Object.entries(entry.args || {})) {
    args[name] = name === "seat" ? nameOf(Number(value)) : value;
  }
  return t(key, args);
}

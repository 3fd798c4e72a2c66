// The player's own arrangement of their hand: the order (by suit, by rank, by hand or
// the engine's grouping) and group breaks, kept per table in localStorage so that it
// survives a reload. Only the order is the page's: which cards exist comes from the view.

import { rankKey, suitKey } from "./cards.js";

export class HandOrder {
  constructor(key) {
    this.key = key;
    this.cards = [];
    this.breaks = new Set(); // indexes that start a new group
    this.mode = "suit";
    try {
      const saved = JSON.parse(localStorage.getItem(key) || "null");
      if (saved && Array.isArray(saved.cards)) {
        this.cards = saved.cards.map(String);
        this.breaks = new Set((saved.breaks || []).map(Number));
        this.mode = String(saved.mode || "suit");
      }
    } catch {
      /* a damaged entry: start again */
    }
  }

  save() {
    localStorage.setItem(this.key, JSON.stringify({ cards: this.cards, breaks: [...this.breaks], mode: this.mode }));
  }

  // Keep the player's order for cards still held, append new ones; returns the cards added.
  reconcile(cards) {
    const left = new Map();
    for (const c of cards) left.set(c, (left.get(c) || 0) + 1);
    const kept = [];
    const keptBreaks = new Set();
    this.cards.forEach((c, i) => {
      const n = left.get(c) || 0;
      if (n) {
        if (this.breaks.has(i) && kept.length) keptBreaks.add(kept.length);
        kept.push(c);
        left.set(c, n - 1);
      }
    });
    const added = [];
    for (const c of cards) {
      const n = left.get(c) || 0;
      if (n) {
        added.push(c);
        left.set(c, n - 1);
      }
    }
    const changed = added.length > 0 || kept.length !== this.cards.length;
    if (added.length && kept.length && this.breaks.size) keptBreaks.add(kept.length);
    this.cards = [...kept, ...added];
    this.breaks = keptBreaks;
    if (this.mode === "suit" || this.mode === "rank") this.sort(this.mode);
    if (changed) this.save();
    return added;
  }

  sort(mode) {
    this.mode = mode;
    const key = mode === "rank" ? rankKey : suitKey;
    this.cards.sort((a, b) => key(a) - key(b));
    this.breaks = new Set();
    this.save();
  }

  // The engine's arrangement: a list of groups (each a list of cards), in order.
  group(groups) {
    const cards = [];
    const breaks = new Set();
    for (const g of groups) {
      if (!g.length) continue;
      if (cards.length) breaks.add(cards.length);
      cards.push(...g);
    }
    this.cards = cards;
    this.breaks = breaks;
    this.mode = "group";
    this.save();
  }

  move(from, to) {
    if (from === to || from < 0 || to < 0 || from >= this.cards.length || to >= this.cards.length) return false;
    const [card] = this.cards.splice(from, 1);
    this.cards.splice(to, 0, card);
    if (this.mode !== "group") this.breaks = new Set();
    this.mode = this.mode === "group" ? "group" : "manual";
    this.save();
    return true;
  }
}

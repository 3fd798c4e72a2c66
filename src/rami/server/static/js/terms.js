// Game terms in the reader's script with the Latin term in a tooltip (issue 21). Each
// language's strings carry a "glossary" ("tiplu=टिप्लु|maal=माल|…", docs/terms.md); the
// strings themselves already use the native forms. markTerms() wraps every native form
// (and any Latin term still shown, e.g. a column heading a game module wrote) in
// <span class="term" title="tiplu">, so a player who learnt the Latin word finds it.
// Languages written in Latin script have no glossary: nothing changes for them.

import { t } from "./i18n.js";

let cached = { source: null, pattern: null, latinOf: null, nativeOf: null };

function glossary() {
  const source = t("glossary");
  if (cached.source === source) return cached;
  const latinOf = new Map();
  const nativeOf = new Map();
  if (source !== "glossary") {
    for (const pair of source.split("|")) {
      const [latin, native] = pair.split("=");
      if (!latin || !native) continue;
      latinOf.set(native, latin);
      nativeOf.set(latin, native);
    }
  }
  const words = [...latinOf.keys(), ...nativeOf.keys()].sort((a, b) => b.length - a.length);
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = escaped.length ? new RegExp(`(?<![\\p{L}\\p{N}_])(${escaped.join("|")})(?![\\p{L}\\p{N}_])`, "gu") : null;
  cached = { source, pattern, latinOf, nativeOf };
  return cached;
}

const SKIP = new Set(["SCRIPT", "STYLE", "OPTION", "SELECT", "TEXTAREA", "INPUT"]);

export function markTerms(...roots) {
  const { pattern, latinOf, nativeOf } = glossary();
  if (!pattern) return;
  for (const root of roots) {
    if (!root) continue;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode(node) {
        const parent = node.parentElement;
        if (!parent || SKIP.has(parent.tagName) || parent.closest(".term")) return NodeFilter.FILTER_REJECT;
        pattern.lastIndex = 0;
        return pattern.test(node.data) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
      },
    });
    const found = [];
    while (walker.nextNode()) found.push(walker.currentNode);
    for (const node of found) {
      const parts = [];
      let last = 0;
      pattern.lastIndex = 0;
      for (const m of node.data.matchAll(pattern)) {
        if (m.index > last) parts.push(node.data.slice(last, m.index));
        const word = m[0];
        const latin = latinOf.get(word) || word;
        const span = document.createElement("span");
        span.className = "term";
        span.title = latin;
        span.textContent = nativeOf.get(word) || word;
        parts.push(span);
        last = m.index + word.length;
      }
      if (last < node.data.length) parts.push(node.data.slice(last));
      node.replaceWith(...parts);
    }
  }
}

// Cards fly (issue 21): the deal, a draw, a take, every discard (a bot's from its seat),
// melds and lay-offs, the wild card turned up. FLIP with the Web Animations API: the page
// is drawn at once in its final state, then each new card element is animated from where
// it came from (a rectangle measured before the redraw) to where it now is. Each flight
// lasts at most 300 ms; a new state finishes the flights still running (interruptible);
// with prefers-reduced-motion nothing moves.

const DURATION = 260;
const DEAL_STAGGER = 180; // the whole deal's spread, so that the last card lands by 440 ms
const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
let running = [];

export function motionAllowed() {
  return !(reduced && reduced.matches);
}

function rectOf(node) {
  if (!node) return null;
  const r = node.getBoundingClientRect();
  return r.width || r.height ? { left: r.left, top: r.top, width: r.width, height: r.height } : null;
}

// Where cards may come from, measured before a redraw.
export function snapshot() {
  const seats = new Map();
  for (const box of document.querySelectorAll(".seat-box[data-seat]")) seats.set(Number(box.dataset.seat), rectOf(box.querySelector(".avatar") || box));
  const hand = new Map();
  for (const card of document.querySelectorAll("#hand .card[data-card]")) {
    const list = hand.get(card.dataset.card) || [];
    list.push(rectOf(card));
    hand.set(card.dataset.card, list);
  }
  return {
    stock: rectOf(document.querySelector("#stock .card.back") || document.getElementById("stock")),
    pile: rectOf(document.querySelector("#pile-top .card") || document.getElementById("pile-top")),
    seats,
    hand,
  };
}

// Finish every flight still in the air: the next state is drawn where the cards are.
export function settle() {
  for (const a of running) {
    try {
      a.finish();
    } catch {
      /* already gone */
    }
  }
  running = [];
}

// Animate `node` from the rectangle `from` to its own place.
export function fly(node, from, delay = 0) {
  if (!node || !from || !motionAllowed() || typeof node.animate !== "function") return null;
  const to = node.getBoundingClientRect();
  if (!to.width && !to.height) return null;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = to.width ? Math.max(0.3, Math.min(2.5, from.width / to.width)) : 1;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return null;
  const animation = node.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, zIndex: 40 },
      { transform: "none", zIndex: 40 },
    ],
    { duration: Math.min(300, DURATION), delay, easing: "cubic-bezier(.2,.7,.3,1)" },
  );
  node.classList.add("in-flight");
  animation.addEventListener("finish", () => node.classList.remove("in-flight"));
  animation.addEventListener("cancel", () => node.classList.remove("in-flight"));
  running.push(animation);
  return animation;
}

// The whole hand dealt from the stock, card after card.
export function deal(cards, from) {
  if (!from) return;
  const list = [...cards];
  list.forEach((node, i) => fly(node, from, list.length > 1 ? (DEAL_STAGGER * i) / (list.length - 1) : 0));
}

function moves(view) {
  return (view?.history || []).filter((e) => e.move !== undefined);
}

function multisetAdded(before, after) {
  const left = new Map();
  for (const c of before || []) left.set(c, (left.get(c) || 0) + 1);
  const added = [];
  for (const c of after || []) {
    const n = left.get(c) || 0;
    if (n) left.set(c, n - 1);
    else added.push(c);
  }
  return added;
}

// After a redraw: what the new state shows that the old one did not, flown from where it
// came from. `parse` reads an action's text (cards.js); the verbs are the protocol's
// (draw, take, discard, finish, ...), never a game's rules. Returns the kinds of moves
// seen, for the sounds.
export function animateChanges(before, prev, next, parse) {
  const kinds = [];
  if (!before || !next) return kinds;
  const view = next.view;
  const me = next.seat;
  const old = prev?.view;
  const sameDeal = old && old.game === view.game && (old.match?.deal_number ?? 0) === (view.match?.deal_number ?? 0) && !old.result === !view.result;
  const oldMoves = sameDeal ? moves(old) : [];
  const fresh = moves(view).slice(oldMoves.length);
  const handNodes = (card) => [...document.querySelectorAll(`#hand .card[data-card="${CSS.escape(card)}"]`)];
  const seatRect = (seat) => before.seats.get(seat) || null;
  // a new deal: every card of my hand comes from the stock
  if (!sameDeal && me !== null && (view.hand || []).length && old && !view.result) {
    deal(document.querySelectorAll("#hand .card"), rectOf(document.querySelector("#stock .card.back")));
    kinds.push("deal");
  } else if (sameDeal && me !== null) {
    const added = multisetAdded(old.hand, view.hand);
    const mineLast = [...fresh].reverse().find((e) => e.seat === me);
    const verb = mineLast ? parse(mineLast.move).verb : "";
    for (const card of added) {
      const nodes = handNodes(card);
      fly(nodes[nodes.length - 1], verb === "take" ? before.pile : before.stock);
    }
    if (added.length) kinds.push(verb === "take" ? "take" : "draw");
  }
  if (!sameDeal) return kinds;
  for (const entry of fresh) {
    const a = parse(entry.move);
    if (entry.seat !== me && (a.verb === "draw" || a.verb === "take")) {
      const backs = document.querySelectorAll(`.seat-box[data-seat="${entry.seat}"] .backs .card`);
      fly(backs[backs.length - 1], a.verb === "take" ? before.pile : before.stock);
      kinds.push(a.verb);
    }
  }
  // the pile's new top: from the hand that threw it
  const last = fresh[fresh.length - 1];
  const top = (view.discard_pile || []).slice(-1)[0];
  const oldTop = (old.discard_pile || []).slice(-1)[0];
  if (last && top && ((view.discard_pile || []).length !== (old.discard_pile || []).length || top !== oldTop)) {
    const a = parse(last.move);
    if ((a.verb === "discard" || a.verb === "finish") && a.cards[a.cards.length - 1] === top) {
      const from = last.seat === me ? (before.hand.get(top) || [])[0] : seatRect(last.seat);
      fly(document.querySelector("#pile-top .card"), from);
      kinds.push("discard");
    }
  }
  // melds laid or added to: the changed meld rows, from the mover
  const mover = last ? last.seat : null;
  const melded = fresh.some((e) => !["draw", "take", "discard", "pass", "finish"].includes(parse(e.move).verb));
  if (melded && mover !== null) {
    const oldMelds = new Map((old.table || []).map((m) => [m.index, m.cards.join(" ")]));
    for (const m of view.table || []) {
      if (oldMelds.get(m.index) === m.cards.join(" ")) continue;
      const row = document.querySelector(`#table-melds li[data-meld="${m.index}"] .cards`);
      const from = mover === me ? (before.hand.get(m.cards[0]) || [])[0] || seatRect(mover) : seatRect(mover);
      fly(row, from);
    }
    kinds.push("meld");
  }
  // the wild card turned up: from the stock
  const faceNow = document.querySelector("#tiplu .card:not(.back)");
  if (faceNow && JSON.stringify(old.wild_cards || []) !== JSON.stringify(view.wild_cards || [])) fly(faceNow, before.stock);
  return kinds;
}

// What the felt shows of each seat besides the game's facts (issue 21): an avatar made
// from the name (no uploads: the initials on a colour hashed from the name), a ring timer
// round it while the seat's clock runs, and its card backs fanned with the count.

// FNV-1a of the name: the same name has the same colour on every device.
function hash(text) {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.codePointAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

// Up to two letters: the first of the first two words ("Bot 2" -> "B2", "Asha" -> "A").
export function initials(name) {
  const words = String(name || "?").trim().split(/\s+/).filter(Boolean);
  const first = (w) => [...w][0] || "";
  const out = words.length > 1 ? first(words[0]) + first(words[1]) : first(words[0] || "?");
  return out.toUpperCase();
}

// A dark hue with white text: lightness 32 % keeps the contrast above 4.5:1 for every hue.
export function avatarColour(name) {
  const hue = hash(String(name || "")) % 360;
  return `hsl(${hue} 55% 32%)`;
}

export function avatar(name, seat) {
  const node = document.createElement("span");
  node.className = "avatar";
  node.dataset.seat = String(seat);
  node.textContent = initials(name);
  node.style.background = avatarColour(name);
  node.setAttribute("aria-hidden", "true");
  return node;
}

// The seat's hidden cards as fanned backs (at most 8 drawn; the count says how many).
export function backsFan(count) {
  const fan = document.createElement("span");
  fan.className = "backs";
  fan.setAttribute("aria-hidden", "true");
  for (let i = 0; i < Math.min(8, Math.max(0, count)); i++) {
    const back = document.createElement("span");
    back.className = "card back";
    fan.append(back);
  }
  return fan;
}

// The ring round the avatar of the seat whose clock runs, filled with the share of the
// time left. Seats are redrawn with every state, so each tick finds the avatar again.
let ringTick = null;
export function ringTimer(root, seat, endsAt, total) {
  clearInterval(ringTick);
  for (const a of root.querySelectorAll(".avatar.timed")) a.classList.remove("timed", "low");
  if (seat === null || seat === undefined || !total) return;
  const tick = () => {
    const left = Math.max(0, endsAt - Date.now()) / 1000;
    for (const target of root.querySelectorAll(`.avatar[data-seat="${seat}"]`)) {
      target.classList.add("timed");
      target.style.setProperty("--ring", String(Math.min(1, left / total)));
      target.classList.toggle("low", left <= 10);
    }
  };
  queueMicrotask(tick); // after the redraw that called it
  ringTick = setInterval(tick, 250);
}

// Building the scorekeeper's elements: h(tag, props, ...children), segmented choices
// (aria-pressed) and removable chips. No rules and no strings here.

export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function segButton(label, pressed, onclick, extra = {}) {
  return h("button", { type: "button", class: "seg-btn", "aria-pressed": String(pressed), onclick, ...extra }, label);
}

export function chip(content, onRemove, label) {
  return h("button", { type: "button", class: "chip", "aria-label": label, onclick: onRemove }, content, h("span", { class: "x", "aria-hidden": "true" }, "×"));
}

// A tiny DOM layer: build elements from plain calls, and keep countdowns ticking.
// No framework and no build step: every screen is a function that returns DOM nodes.

/**
 * Create an element. `attrs` keys: "class", "text", "testid" (data-testid), "on<event>"
 * (listeners), "dataset" (object), boolean attributes as true/false, anything else as an
 * attribute. Children may be nodes, strings, numbers, arrays (flattened), null/false (skipped).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "testid") el.dataset.testid = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else if (key === "value") el.value = value;
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace every child of `el` by `children`. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A span that counts down to `deadline` (a performance.now() time, in ms). */
export function countdown(deadline, attrs = {}) {
  const el = h("span", { class: "countdown", ...attrs, dataset: { deadline: String(deadline) } });
  tickOne(el, performance.now());
  return el;
}

function tickOne(el, now) {
  const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - now) / 1000));
  const text = `${left}s`;
  if (el.textContent !== text) el.textContent = text;
  el.classList.toggle("urgent", left <= 5);
}

/** Update every countdown on the page (called by a timer in app.js). */
export function tickCountdowns() {
  const now = performance.now();
  for (const el of document.querySelectorAll(".countdown[data-deadline]")) tickOne(el, now);
}

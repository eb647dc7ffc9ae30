// The browser's languages: English and German. Doppelkopf and Ursuppe come from German tables,
// so their players expect their own terms (Re/Kontra, Dulle, Fuchs, Karlchen; the Ursuppe
// gene names); everything else follows.
//
// The English text is the key (t("Your hand")); a language that lacks a key shows the English
// text, so a missing translation never blanks a button. Placeholders are {name}. Each game
// module adds its own German table with addTranslations("de", {...}); shared strings live in
// i18n-de.js. The choice comes from localStorage ("gamehall.lang"), else navigator.languages,
// else English; setLang() remembers it and fires "gamehall:lang" on window so screens redraw.

const STORAGE = "gamehall.lang";

/** The languages offered, by code, each named in itself. */
export const LANGUAGES = { en: "English", de: "Deutsch" };

const tables = { en: {}, de: {} };
const scopedTables = { en: {}, de: {} }; // scope -> {English: translated}
let current = initialLanguage();

function initialLanguage() {
  let saved = null;
  try { saved = localStorage.getItem(STORAGE); } catch { /* storage blocked: not remembered */ }
  if (saved && Object.hasOwn(LANGUAGES, saved)) return saved;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const tag of wanted) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (Object.hasOwn(LANGUAGES, base)) return base;
  }
  return "en";
}

/** The current language code ("en" or "de"). */
export function lang() {
  return current;
}

/** Switch the language, remember it, and tell the screens to redraw. */
export function setLang(code) {
  if (!Object.hasOwn(LANGUAGES, code) || code === current) return;
  current = code;
  try { localStorage.setItem(STORAGE, code); } catch { /* not remembered, still switched */ }
  document.documentElement.lang = code;
  translateStatic();
  window.dispatchEvent(new CustomEvent("gamehall:lang", { detail: code }));
}

/**
 * Add translations for `code` (English text -> translated text). With a `scope` (a game id)
 * they apply only to that scope's translator (see scoped()): "Round {n}" is "Spiel {n}" at a
 * Doppelkopf table but "Runde {n}" in Ursuppe.
 */
export function addTranslations(code, entries, scope = "") {
  if (!scope) { Object.assign(tables[code], entries); return; }
  const byScope = scopedTables[code];
  byScope[scope] = Object.assign(byScope[scope] || {}, entries);
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** The text of `key` in the current language, with {placeholders} filled from `params`. */
export function t(key, params = null) {
  const table = tables[current];
  return fill(table && Object.hasOwn(table, key) ? table[key] : key, params);
}

/** A t() for one scope: its own translations first, then the shared ones. */
export function scoped(scope) {
  const translate = (key, params = null) => {
    const own = scopedTables[current][scope];
    return own && Object.hasOwn(own, key) ? fill(own[key], params) : t(key, params);
  };
  translate.n = (n, one, many, params = {}) => translate(n === 1 ? one : many, { n, ...params });
  return translate;
}

/** `one` or `many` (both English keys with {n}) by the count `n`. */
export function tn(n, one, many, params = {}) {
  return t(n === 1 ? one : many, { n, ...params });
}

/** Translate the static page (elements with data-i18n hold their English text there). */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}

/** A <select> that switches the language (for the top bar). */
export function languagePicker() {
  const select = document.createElement("select");
  select.className = "lang small";
  select.dataset.testid = "language";
  select.setAttribute("aria-label", "Language / Sprache");
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.selected = code === current;
    select.appendChild(option);
  }
  select.addEventListener("change", () => setLang(select.value));
  window.addEventListener("gamehall:lang", () => { select.value = current; });
  return select;
}

document.documentElement.lang = current;

// Progress where people wait: a request that may take long shows a status line after a
// moment instead of a silent wait. Creating a word-game room may have to build its
// dictionary's GADDAG first (minutes on a first start without the disk cache), so its create
// request says "Preparing the dictionary…" until the reply comes.

import { t } from "./i18n.js";

const DELAY_MS = 600;

/** What to say while `msg` is pending, or null when it is never slow. */
function waitingText(msg) {
  if (msg.t === "create" && msg.game === "words") return t("Preparing the dictionary…");
  return null;
}

/** Start watching a request; call the returned function when its reply (or refusal) came. */
export function watchRequest(msg) {
  const text = waitingText(msg);
  if (!text) return () => {};
  let shown = null;
  const timer = setTimeout(() => {
    shown = document.createElement("div");
    shown.className = "busy";
    shown.setAttribute("role", "status");
    shown.dataset.testid = "busy";
    shown.textContent = text;
    document.body.appendChild(shown);
  }, DELAY_MS);
  return () => {
    clearTimeout(timer);
    if (shown) shown.remove();
  };
}

// The table of a game that has no browser renderer yet: say so, and show what the view holds
// in plain words, so watching still works.

import { h } from "../ui.js";

export function render(ctx) {
  const title = ctx.game ? ctx.game.title : ctx.view.game;
  return h("div", { class: "card generic-table", testid: "generic-table" },
    h("h3", { text: title }),
    h("p", { text: "This game is not playable in the browser yet. You can chat here, and play it with its own client." }),
    h("details", {},
      h("summary", { text: "What the table shows" }),
      h("pre", { class: "view-dump", text: JSON.stringify(ctx.view, null, 2) })),
  );
}

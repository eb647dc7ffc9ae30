// The browser renderer of each game, by game id. A game without an entry here is shown with
// games/generic.js ("not playable in the browser yet").
//
// Adding a game: write games/<id>.js exporting `render(ctx) -> Node` (and optionally
// `onEvent(app, room, event)` and `showsTimers`), then add one line below.
// ctx: {view, seat, me, info, game, timers: [{key, deadline}], ended, act(action), rerender()}.

export const RENDERERS = {
  aah: () => import("./aah.js"),
  doppelkopf: () => import("./doppelkopf.js"),
  mrjack: () => import("./mrjack.js"),
  ursuppe: () => import("./ursuppe.js"),
  words: () => import("./words.js"),
};

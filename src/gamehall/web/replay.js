// The replay page (/replay/ROOM_ID): a finished room, step by step, as a spectator saw it.
//
// The server rebuilds the room from its log (GET /api/rooms/ID/replay, docs/web-protocol.md
// section 15) and hands over, per log entry, the spectator's events and view. This page draws
// each step with the game's own renderer (games/<id>.js), exactly as a watcher of the live
// table saw it: no seat's hidden information is in the data, so none can show.

import { h, replace } from "./ui.js";
import * as generic from "./games/generic.js";
import { RENDERERS } from "./games/index.js";
import { describeEvent, resultLines } from "./replay-text.js";

const main = document.getElementById("main");
const roomId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

const player = {
  replay: null,
  renderer: generic,
  index: 0,
  timer: 0,
  room: null, // the fake room record renderers keep their own notes in (onEvent)
  built: -1, // the step the room record has seen events up to
};

/** What a renderer may ask of "app" while it draws a replay: nothing can be sent. */
const app = {
  state: { name: "", games: new Map(), rooms: new Map(), current: null },
  run: async () => null,
  request: async () => null,
  showError: () => {},
  renderer: () => player.renderer,
};

async function boot() {
  replace(main, h("p", { class: "muted", text: "Loading the replay…" }));
  let replay;
  try {
    const response = await fetch(`/api/rooms/${encodeURIComponent(roomId)}/replay`);
    const body = await response.json();
    if (!response.ok) throw new Error(body.reason || `HTTP ${response.status}`);
    replay = body;
  } catch (err) {
    replace(main, h("section", { class: "card", testid: "replay-missing" },
      h("h2", { text: "No replay" }),
      h("p", { text: `Room ${roomId}: ${err.message}` }),
      h("p", {}, h("a", { href: "/", text: "Back to the lobby" }))));
    return;
  }
  player.replay = replay;
  if (Object.hasOwn(RENDERERS, replay.game)) {
    try { player.renderer = await RENDERERS[replay.game](); } catch (err) { console.error(err); }
  }
  document.title = `Replay: ${replay.title} · gamehall`;
  build();
  const start = Number(new URLSearchParams(location.search).get("step"));
  go(Number.isInteger(start) && start > 0 ? start : 0);
}

let els = null;

function build() {
  const replay = player.replay;
  const last = replay.steps.length - 1;
  const button = (testid, text, label, onclick) => h("button", { type: "button", testid, "aria-label": label, onclick, text });
  const slider = h("input", { type: "range", min: "0", max: String(last), value: "0", "aria-label": "Step", testid: "replay-slider",
    oninput: () => { stop(); go(Number(slider.value)); } });
  els = {
    slider,
    counter: h("span", { class: "muted", testid: "replay-step", "aria-live": "polite" }),
    play: button("replay-play", "▶ Play", "Play", () => (player.timer ? stop() : play())),
    table: h("section", { class: "table-area", "aria-label": "Table", testid: "table" }),
    log: h("ol", { class: "chat-log", testid: "replay-events", "aria-label": "What happened" }),
    result: h("section", { class: "card result", testid: "replay-result", hidden: true }),
  };
  replace(main, h("div", { class: "room replay", dataset: { room: replay.room_id } },
    h("header", { class: "room-header" },
      h("div", { class: "row spread" },
        h("div", {},
          h("a", { class: "button small", href: "/", testid: "back-to-lobby", text: "← Lobby" }),
          h("h2", { class: "inline", text: replay.title }),
          h("span", { class: "muted", text: ` ${replay.game_title || replay.game} · ` }),
          h("code", { class: "room-id", testid: "room-id", text: replay.room_id })),
        h("div", { class: "controls replay-controls" },
          button("replay-first", "« First", "First step", () => { stop(); go(0); }),
          button("replay-back", "‹ Back", "Back one step", () => { stop(); go(player.index - 1); }),
          els.play,
          button("replay-forward", "Forward ›", "Forward one step", () => { stop(); go(player.index + 1); }),
          button("replay-last", "Last »", "Last step", () => { stop(); go(last); }))),
      h("div", { class: "row" }, els.slider, els.counter)),
    els.result,
    h("div", { class: "room-body" }, els.table,
      h("aside", { class: "side card", "aria-label": "Events" }, h("h2", { text: "This step" }), els.log))));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    if (e.key === "ArrowRight") { stop(); go(player.index + 1); }
    else if (e.key === "ArrowLeft") { stop(); go(player.index - 1); }
  });
}

/** Show step `index` (clamped). */
function go(index) {
  const steps = player.replay.steps;
  index = Math.max(0, Math.min(steps.length - 1, index));
  player.index = index;
  const step = steps[index];
  feedRenderer(index);
  els.slider.value = String(index);
  els.counter.textContent = ` Step ${index} of ${steps.length - 1}${step.kind === "start" ? "" : ` · ${kindText(step, index)}`}`;
  const room = player.room;
  room.view = step.view;
  const info = roomInfo(step);
  room.info = info;
  const ended = index === steps.length - 1 ? { reason: "game_over", text: "finished" } : null;
  const ctx = {
    app, room, view: step.view, seat: null, me: "", info, timers: [],
    game: null, ended, replay: true,
    act: async () => null,
    rerender: () => { if (player.index === index) go(index); },
  };
  try {
    replace(els.table, player.renderer.render(ctx));
  } catch (err) {
    console.error(err);
    replace(els.table, generic.render(ctx));
  }
  const lines = step.events.map((ev) => describeEvent(ev)).filter(Boolean);
  replace(els.log, lines.length ? lines.map((text) => h("li", { class: "line system", text }))
    : h("li", { class: "line muted", text: "Nothing a spectator could see." }));
  showResult(index === steps.length - 1);
  const url = new URL(location.href);
  if (index) url.searchParams.set("step", String(index)); else url.searchParams.delete("step");
  history.replaceState(null, "", url);
}

/** Renderers that keep notes from events (onEvent) see every event up to this step, in order. */
function feedRenderer(index) {
  if (!player.room || index < player.built) {
    player.room = { id: player.replay.room_id, info: null, seat: null, view: null, seq: 0, seen: new Set(), timers: [], log: [], ended: null };
    player.built = -1;
  }
  if (!player.renderer.onEvent) { player.built = index; return; }
  for (let i = player.built + 1; i <= index; i++) {
    for (const ev of player.replay.steps[i].events) {
      try { player.renderer.onEvent(app, player.room, ev); } catch (err) { console.error(err); }
    }
  }
  player.built = index;
}

function roomInfo(step) {
  const replay = player.replay;
  const seats = Object.entries(step.names).map(([seat, name]) => ({ seat: Number(seat), name, away: false }));
  return {
    id: replay.room_id, game: replay.game, title: replay.title, status: "playing", seats,
    max_seats: seats.length, spectators: [], password: false, operator: replay.operator, config: {}, extra: {},
  };
}

function kindText(step, index) {
  const who = step.seat === null ? "" : ` by ${(player.replay.steps[index].names[String(step.seat)] || player.replay.steps[Math.max(0, index - 1)].names[String(step.seat)] || `seat ${step.seat}`)}`;
  const words = { join: "someone sat down", leave: "a seat was left", act: "a move", timeout: "time ran out", start: "the game started", away: "a player lost the connection", back: "a player came back", rename: "a player was renamed" };
  return `${words[step.kind] || step.kind}${step.kind === "act" || step.kind === "away" || step.kind === "back" ? who : ""}`;
}

function showResult(visible) {
  els.result.hidden = !visible;
  if (!visible) return;
  replace(els.result, h("h2", { text: "Result" }), resultLines(player.replay).map((text) => h("p", { text })));
}

function play() {
  if (player.index >= player.replay.steps.length - 1) go(0);
  els.play.textContent = "⏸ Pause";
  player.timer = setInterval(() => {
    if (player.index >= player.replay.steps.length - 1) { stop(); return; }
    go(player.index + 1);
  }, 700);
}

function stop() {
  clearInterval(player.timer);
  player.timer = 0;
  if (els) els.play.textContent = "▶ Play";
}

boot();

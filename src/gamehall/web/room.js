// A room: the generic frame around any game's table (title, seats, start/bots/leave/kick,
// timers, chat), and the game's own renderer (games/<id>.js) in the middle.

import { h, replace, countdown } from "./ui.js";
import { lang, t } from "./i18n.js";

let current = null; // {roomId, root, header, table} — kept while the same room is shown
let panels = []; // live chat panels: {roomId, logEl}

/** The server's longest chat line (hall CHAT_MAX): the box takes as much, and says so. */
export const CHAT_MAX = 1000;

/** A room's id as a link to its own page (/room/ID): what a host passes to `gamehall replay`,
 * and what a player shares. */
export function roomLink(roomId) {
  return h("a", { class: "room-id", href: `/room/${encodeURIComponent(roomId)}`, testid: "room-link", title: t("This room's own address: share it"), text: roomId });
}

export function renderRoom(app, main) {
  const roomId = app.state.current;
  const room = app.state.rooms.get(roomId);
  if (!room) { app.toLobby(); return; }
  if (!current || current.roomId !== roomId || current.root.parentNode !== main || current.lang !== lang()) { // a language switch rebuilds the chat box too
    const header = h("header", { class: "room-header" });
    const table = h("section", { class: "table-area", "aria-label": t("Table"), testid: "table" });
    const side = h("aside", { class: "side card", "aria-label": t("Chat") }, h("h2", { text: t("Chat") }), chatPanel(app, roomId));
    const root = h("div", { class: "room", dataset: { room: roomId } }, header, h("div", { class: "room-body" }, table, side));
    current = { roomId, root, header, table, lang: lang() };
    replace(main, root);
  }
  fillHeader(app, room);
  fillTable(app, room);
}

function fillHeader(app, room) {
  // Redraw only on a real change: a button replaced under the pointer loses its click.
  const shownBy = room.info ? app.renderer(room.info.game).id || "generic" : ""; // see fillTable
  const signature = JSON.stringify([room.info, room.seat, room.ended, room.timers.map((x) => x.key), shownBy, lang(), Boolean(room.confirmLeave)]);
  if (current.headerSignature === signature) return;
  current.headerSignature = signature;
  const info = room.info;
  const game = info ? app.state.games.get(info.game) : null;
  const me = app.state.name;
  const operator = info && info.operator && info.operator.toLowerCase() === me.toLowerCase();
  const waiting = info && info.status === "waiting" && !room.ended;
  const freeSeats = info ? info.max_seats - info.seats.length : 0;
  const run = (msg) => app.run({ room: room.id, ...msg });
  const seatList = info ? info.seats.map((s) => h("li", { class: s.away ? "away" : "" },
    h("span", { text: s.name }),
    s.away ? h("span", { class: "muted", text: ` (${t("away")})` }) : null,
    operator && s.name.toLowerCase() !== me.toLowerCase() && !room.ended
      ? h("button", { type: "button", class: "link small", testid: `kick-${s.seat}`, "aria-label": t("Remove {name}", { name: s.name }), onclick: () => run({ t: "kick", seat: s.seat }), text: t("remove") })
      : null)) : [];
  replace(current.header,
    h("div", { class: "row spread" },
      h("div", {},
        h("button", { type: "button", class: "small", testid: "back-to-lobby", onclick: () => app.toLobby(), text: t("← Lobby") }),
        h("h2", { class: "inline" }, info ? info.title : room.id),
        h("span", { class: "muted" }, game ? ` ${game.title} ` : " "),
        roomLink(room.id),
        room.seat === null && !room.ended ? h("span", { class: "badge", testid: "spectating", text: t("watching") }) : null),
      h("div", { class: "controls" },
        waiting && operator ? h("button", { type: "button", class: "primary", testid: "start-game", onclick: () => run({ t: "start" }), text: t("Start game") }) : null,
        waiting && operator && freeSeats > 0 ? h("button", { type: "button", testid: "add-bot", onclick: () => run({ t: "bots", count: 1 }), text: t("Add a bot") }) : null,
        waiting && operator && freeSeats > 1 ? h("button", { type: "button", testid: "fill-bots", onclick: () => run({ t: "bots", count: freeSeats }), text: t("Fill {n} seats with bots", { n: freeSeats }) }) : null,
        room.ended
          ? h("button", { type: "button", class: "primary", testid: "leave-room", onclick: () => app.toLobby(), text: t("Back to lobby") })
          : h("button", { type: "button", testid: "leave-room", onclick: () => leave(app, room, run), text: room.seat === null ? t("Stop watching") : t("Leave") }))),
    waiting && freeSeats > 0 ? inviteForm(app, room.id) : null,
    info ? h("ul", { class: "seat-chips", "aria-label": "Seats" }, seatList,
      info.spectators.length ? h("li", { class: "muted", text: t("watching: {names}", { names: info.spectators.join(", ") }) }) : null) : null,
    room.timers.length && !(info && app.renderer(info.game).showsTimers) ? h("p", { class: "timers", testid: "timers" },
      room.timers.map((t) => h("span", { class: "timer" }, `Time left (${t.key}): `, countdown(t.deadline, { testid: "timer" })))) : null,
    leaveQuestion(app, room, run),
    room.ended ? h("p", { class: "banner", role: "status", testid: "room-ended", text: room.ended.reason === "game_over" ? t("This game is over.") : t("This room has ended.") }) : null,
  );
}

/** Invite a player by name: anyone online whose protocol carries invitations (the browser,
 * cg clients for Doppelkopf), who then joins in their own client. */
function inviteForm(app, roomId) {
  const name = h("input", { type: "text", maxlength: 32, required: true, placeholder: t("name"), "aria-label": t("Invite a player by name"), testid: "invite-name" });
  return h("form", {
    class: "row invite", testid: "invite-form",
    onsubmit: async (e) => {
      e.preventDefault();
      const who = name.value.trim();
      if (!who) return;
      if (await app.run({ t: "invite", room: roomId, name: who })) {
        name.value = "";
        app.addLog(app.room(roomId).log, { kind: "system", text: t("{name} has been invited.", { name: who }) });
        roomLogChanged(app);
      }
    },
  }, h("span", { class: "muted fine", text: t("Invite a player:") }), name, h("button", { type: "submit", class: "small", testid: "invite-send", text: t("Invite") }));
}

/** Leaving a seat of a running game cannot be undone: ask first, in the header (watching or
 * a room still waiting for players leaves at once). */
function leave(app, room, run) {
  const playing = room.seat !== null && room.info && room.info.status !== "waiting";
  if (!playing) { run({ t: "leave" }); return; }
  room.confirmLeave = true;
  fillHeader(app, room);
}

function leaveQuestion(app, room, run) {
  if (!room.confirmLeave || room.ended) return null;
  const close = () => { room.confirmLeave = false; fillHeader(app, room); };
  return h("div", { class: "banner leave-confirm", role: "alertdialog", "aria-label": t("Leave this game?"), testid: "leave-question" },
    h("strong", { text: t("Leave this game?") }),
    h("span", { text: ` ${t("Your seat is given up for good: you cannot come back to it.")} ` }),
    h("button", { type: "button", class: "primary", testid: "leave-confirm", onclick: () => { room.confirmLeave = false; run({ t: "leave" }); }, text: t("Leave") }),
    h("button", { type: "button", testid: "leave-cancel", onclick: close, text: t("Stay") }));
}

function fillTable(app, room, force = false) {
  if (!room.view) { replace(current.table, h("p", { class: "muted", text: t("Loading the table…") })); return; }
  const signature = JSON.stringify([room.view, room.seat, room.ended, room.timers.map((x) => x.key), lang()]);
  const info = room.info;
  const renderer = app.renderer(info ? info.game : room.view.game);
  // The renderer counts too: after a reload the first view may be drawn by generic.js before
  // the game's own module has loaded.
  if (!force && current.tableSignature === signature && current.tableRenderer === renderer) return;
  current.tableSignature = signature;
  current.tableRenderer = renderer;
  const ctx = {
    app, room, view: room.view, seat: room.seat, me: app.state.name, info, timers: room.timers,
    game: info ? app.state.games.get(info.game) : null,
    ended: room.ended,
    act: (action) => app.act(room, action),
    rerender: () => { if (current && current.roomId === room.id) fillTable(app, room, true); },
  };
  replace(current.table, renderer.render(ctx));
}

// ------------------------------------------------------------------------------ chat

/** A chat panel: the room's chat (or, for roomId null, the hall's) plus private and broadcast lines. */
export function chatPanel(app, roomId) {
  const logEl = h("ol", { class: "chat-log", role: "log", "aria-live": "polite", "aria-label": t("Messages"), testid: "chat-log" });
  const scope = h("select", { "aria-label": t("Send to"), testid: "chat-scope", onchange: () => { to.hidden = scope.value !== "private"; } },
    roomId ? h("option", { value: "room", text: t("Room") }) : null,
    h("option", { value: "broadcast", text: t("Everyone") }),
    h("option", { value: "private", text: t("Private…") }));
  const to = h("input", { type: "text", placeholder: t("name"), "aria-label": t("Private message to"), maxlength: 32, hidden: true, testid: "chat-to", class: "to" });
  const left = h("small", { class: "muted chat-left", testid: "chat-left", "aria-live": "polite" });
  const text = h("input", {
    type: "text", placeholder: t("Say something"), "aria-label": t("Message"), maxlength: CHAT_MAX, required: true, testid: "chat-input",
    oninput: () => {
      const remaining = CHAT_MAX - text.value.length;
      left.textContent = remaining <= 100 ? t("{n} characters left", { n: remaining }) : "";
    },
  });
  const form = h("form", {
    class: "chat-form",
    onsubmit: async (e) => {
      e.preventDefault();
      let line = text.value.trim();
      if (!line) return;
      let kind = scope.value;
      let target = to.value.trim();
      const whisper = /^\/w\s+(\S+)\s+(.+)$/.exec(line); // "/w name text" also whispers
      if (whisper) { kind = "private"; target = whisper[1]; line = whisper[2]; }
      let msg;
      if (kind === "room") msg = { t: "chat", room: roomId, text: line };
      else if (kind === "broadcast") msg = { t: "shout", text: line };
      else {
        if (!target) { to.focus(); return; }
        msg = { t: "whisper", to: target, text: line };
      }
      if (await app.run(msg)) { text.value = ""; left.textContent = ""; }
    },
  }, scope, to, text, h("button", { type: "submit", testid: "chat-send", text: t("Send") }), left);
  panels = panels.filter((p) => p.logEl.isConnected);
  panels.push({ roomId, logEl });
  fillLog(app, roomId, logEl);
  return h("div", { class: "chat" }, logEl, form);
}

/** New chat or log lines arrived: refresh the panels on screen. */
export function roomLogChanged(app) {
  panels = panels.filter((p) => p.logEl.isConnected);
  for (const p of panels) fillLog(app, p.roomId, p.logEl);
}

function fillLog(app, roomId, logEl) {
  const room = roomId ? app.state.rooms.get(roomId) : null;
  const lines = [...(room ? room.log : []), ...app.state.hallLog].sort((a, b) => a.n - b.n).slice(-200);
  const stick = logEl.scrollHeight - logEl.scrollTop - logEl.clientHeight < 40;
  replace(logEl, lines.map(chatLine));
  if (stick) logEl.scrollTop = logEl.scrollHeight;
}

function chatLine(line) {
  if (line.kind === "system" || line.kind === "notice") {
    return h("li", { class: `line ${line.kind}`, text: line.text });
  }
  const prefix = line.kind === "private" ? `${line.sender} → ${line.to}` : line.kind === "broadcast" ? `${line.sender} (to all)` : line.sender;
  return h("li", { class: `line ${line.kind}` }, h("b", { text: `${prefix}: ` }), h("span", { text: line.text }));
}

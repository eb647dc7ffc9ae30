// The lobby: every room of every game, the "create a room" form built from the game's
// settings schema (sent in "welcome"), the rooms we are in, and hall-wide chat.

import { choiceLabel } from "./labels.js";
import { h, replace } from "./ui.js";
import { chatPanel } from "./room.js";

let root = null; // the lobby's DOM, kept between refreshes so the form keeps its input
let roomsBody = null;
let mineEl = null;
let settingsBox = null;
let gameSelect = null;

export function renderLobby(app, main) {
  if (!root || root.parentNode !== main) {
    root = build(app);
    replace(main, root);
  }
  fillRooms(app);
  fillMine(app);
}

function build(app) {
  roomsBody = h("tbody", { testid: "room-list" });
  mineEl = h("div", { class: "mine", testid: "my-rooms" });
  const table = h("table", { class: "rooms" },
    h("caption", { class: "sr-only", text: "Rooms" }),
    h("thead", {}, h("tr", {},
      ["Game", "Room", "Seats", "Status", "Watching", ""].map((text) => h("th", { scope: "col", text })))),
    roomsBody,
  );
  return h("div", { class: "lobby" },
    h("section", { class: "card rooms-card", "aria-labelledby": "rooms-heading" },
      h("div", { class: "row spread" },
        h("h2", { id: "rooms-heading", text: "Rooms" }),
        h("button", { type: "button", testid: "refresh-rooms", onclick: () => app.refreshLobby(), text: "Refresh" })),
      mineEl,
      h("div", { class: "table-scroll" }, table)),
    h("section", { class: "card create-card", "aria-labelledby": "create-heading" },
      h("h2", { id: "create-heading", text: "Create a room" }),
      createForm(app)),
    h("section", { class: "card chat-card", "aria-labelledby": "hall-chat-heading" },
      h("h2", { id: "hall-chat-heading", text: "Hall chat" }),
      chatPanel(app, null)),
  );
}

function fillMine(app) {
  const mine = [...app.state.rooms.values()].filter((r) => r.info && !r.ended);
  replace(mineEl, mine.length === 0 ? null : [
    h("span", { class: "muted", text: "Your rooms: " }),
    mine.map((r) => h("button", { type: "button", class: "primary small", testid: `open-room-${r.id}`, onclick: () => app.openRoom(r.id) },
      `Back to ${r.info.title}`)),
  ]);
}

function fillRooms(app) {
  const rooms = app.state.lobby;
  if (rooms.length === 0) {
    replace(roomsBody, h("tr", {}, h("td", { colspan: 6, class: "muted", text: "No rooms yet: create one." })));
    return;
  }
  replace(roomsBody, rooms.map((room) => roomRow(app, room)));
}

function roomRow(app, room) {
  const game = app.state.games.get(room.game);
  const mine = app.state.rooms.get(room.id);
  const inside = mine && mine.info && !mine.ended;
  const full = room.seats.length >= room.max_seats;
  const ask = async (t) => {
    let password = null;
    if (room.password) {
      password = window.prompt(`Password for ${room.title}`);
      if (password === null) return;
    }
    await app.run({ t, room: room.id, password });
  };
  const statusText = { waiting: "Waiting", playing: "Playing", finished: "Finished" }[room.status] || room.status;
  return h("tr", { testid: "room-row", dataset: { room: room.id, game: room.game } },
    h("td", { text: game ? game.title : room.game }),
    h("td", {},
      room.password ? lockIcon() : null,
      h("span", { class: "room-title", text: room.title })),
    h("td", { title: room.seats.map((s) => s.name).join(", "), dataset: { label: "Seats" }, text: `${room.seats.length}/${room.max_seats}` }),
    h("td", {}, h("span", { class: `status status-${room.status}`, text: statusText })),
    h("td", { dataset: { label: "Watching" }, text: String(room.spectators.length) }),
    h("td", { class: "actions" },
      inside
        ? h("button", { type: "button", class: "primary small", onclick: () => app.openRoom(room.id), text: "Open" })
        : [
            h("button", { type: "button", class: "primary small", testid: "join-room", disabled: full || room.status !== "waiting", onclick: () => ask("join"), text: "Join" }),
            h("button", { type: "button", class: "small", testid: "spectate-room", onclick: () => ask("spectate"), text: "Watch" }),
          ]),
  );
}

function createForm(app) {
  const games = [...app.state.games.values()];
  gameSelect = h("select", { id: "create-game", name: "game", testid: "create-game", onchange: () => fillSettings(app) },
    games.map((g) => h("option", { value: g.id, text: g.title })));
  settingsBox = h("fieldset", { class: "settings" });
  const title = h("input", { id: "create-title", name: "title", type: "text", maxlength: 60, placeholder: "optional", testid: "create-title" });
  const password = h("input", { id: "create-password", name: "password", type: "password", maxlength: 60, placeholder: "optional", autocomplete: "new-password", testid: "create-password" });
  const form = h("form", {
    class: "create", testid: "create-form",
    onsubmit: async (e) => {
      e.preventDefault();
      const settings = readSettings(app);
      if (settings === null) return;
      await app.run({ t: "create", game: gameSelect.value, settings, title: title.value.trim() || null, password: password.value || null });
    },
  },
    h("div", { class: "field" }, h("label", { for: "create-game", text: "Game" }), gameSelect),
    h("div", { class: "field" }, h("label", { for: "create-title", text: "Room name" }), title),
    h("div", { class: "field" }, h("label", { for: "create-password", text: "Password" }), password),
    h("details", {}, h("summary", { text: "Game settings" }), settingsBox),
    h("button", { type: "submit", class: "primary", testid: "create-room", text: "Create and sit down" }),
  );
  fillSettings(app);
  return form;
}

/** One input per setting of the selected game, from its schema. */
function fillSettings(app) {
  const game = app.state.games.get(gameSelect.value);
  if (!game) { replace(settingsBox); return; }
  replace(settingsBox, h("legend", { text: `${game.title} settings` }), game.settings.map(settingField));
}

function settingField(s) {
  const id = `setting-${s.name}`;
  const label = h("label", { for: id, text: s.name.replaceAll("_", " ") });
  const common = { id, name: s.name, dataset: { kind: s.kind, setting: s.name }, title: s.help || null };
  let input;
  if (s.kind === "bool") {
    input = h("input", { ...common, type: "checkbox", checked: s.default === true });
    return h("div", { class: "field check" }, input, label, help(s));
  }
  if (s.kind === "choice") {
    input = h("select", common, s.choices.map((c) => h("option", { value: c, selected: c === s.default, text: choiceLabel(gameSelect.value, s.name, c) })));
  } else if (s.kind === "int" || s.kind === "float") {
    input = h("input", { ...common, type: "number", value: String(s.default), min: s.low ?? null, max: s.high ?? null, step: s.kind === "int" ? "1" : "any", required: true });
  } else if (s.kind === "list") {
    input = h("input", { ...common, type: "text", value: (s.default || []).join(", ") });
  } else {
    input = h("input", { ...common, type: "text", value: s.default ?? "" });
  }
  return h("div", { class: "field" }, label, input, help(s));
}

function help(s) {
  return s.help ? h("small", { class: "muted", text: s.help }) : null;
}

/** The settings that differ from their defaults, typed per the schema; null if invalid. */
function readSettings(app) {
  const game = app.state.games.get(gameSelect.value);
  const out = {};
  for (const s of game.settings) {
    const input = settingsBox.querySelector(`[data-setting="${CSS.escape(s.name)}"]`);
    if (!input) continue;
    let value;
    if (s.kind === "bool") value = input.checked;
    else if (s.kind === "int" || s.kind === "float") {
      if (!input.reportValidity()) return null;
      value = Number(input.value);
    } else if (s.kind === "list") value = input.value.split(",").map((v) => v.trim()).filter(Boolean);
    else value = input.value;
    if (JSON.stringify(value) !== JSON.stringify(s.default)) out[s.name] = value;
  }
  return out;
}

/** A padlock drawn inline (no icon font, no emoji font needed). */
function lockIcon() {
  const span = h("span", { class: "lock", role: "img", "aria-label": "Password required", title: "Password required", testid: "room-lock" });
  span.innerHTML = '<svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true"><rect x="3" y="7" width="10" height="8" rx="1.5" fill="currentColor"/><path d="M5 7V5a3 3 0 0 1 6 0v2" stroke="currentColor" stroke-width="1.8" fill="none"/></svg>';
  return span;
}

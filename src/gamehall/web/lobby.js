// The lobby: every room of every game (kept live by the server's room_created / changed /
// closed messages), the "create a room" form built from the game's settings schema (sent in
// "welcome", grouped as the schema groups them), the rooms we are in, the contests (contest.js),
// the recent finished games with their replays, and hall-wide chat.

import { choiceLabel } from "./labels.js";
import { lang, t } from "./i18n.js";
import { h, replace } from "./ui.js";
import { chatPanel, roomLink } from "./room.js";
import { lobbyContests } from "./contest.js";
import { scoreLine, terminationText, winnersLine } from "./replay-text.js";

let root = null; // the lobby's DOM, kept between refreshes so the form keeps its input
let roomsBody = null;
let mineEl = null;
let settingsBox = null;
let gameSelect = null;
let recentEl = null;
let linkedEl = null;
let contestsEl = null;
let builtIn = ""; // the language the kept DOM was built in: a switch rebuilds it

export function renderLobby(app, main) {
  if (!root || root.parentNode !== main || builtIn !== lang()) {
    builtIn = lang();
    root = build(app);
    replace(main, root);
  }
  fillRooms(app);
  fillMine(app);
  fillRecent(app);
  fillLinked(app);
  fillContests(app);
}

/** The running and recent contests, with links to their pages (hidden while there are none). */
function fillContests(app) {
  const card = lobbyContests(app);
  contestsEl.replaceWith(card);
  contestsEl = card;
}

function build(app) {
  roomsBody = h("tbody", { testid: "room-list" });
  mineEl = h("div", { class: "mine", testid: "my-rooms" });
  recentEl = h("ol", { class: "recent", testid: "recent-games" });
  linkedEl = h("div", { testid: "linked-room" });
  contestsEl = h("section", { testid: "contests-card", hidden: true });
  const table = h("table", { class: "rooms" },
    h("caption", { class: "sr-only", text: t("Rooms") }),
    h("thead", {}, h("tr", {},
      ["Game", "Room", "Seats", "Status", "Watching", ""].map((text) => h("th", { scope: "col", text: text ? t(text) : "" })))),
    roomsBody,
  );
  return h("div", { class: "lobby" },
    linkedEl,
    contestsEl,
    h("section", { class: "card rooms-card", "aria-labelledby": "rooms-heading" },
      h("div", { class: "row spread" },
        h("h2", { id: "rooms-heading", text: t("Rooms") }),
        h("span", { class: "muted fine", text: t("Updated as it happens") })),
      mineEl,
      h("div", { class: "table-scroll" }, table)),
    h("section", { class: "card recent-card", "aria-labelledby": "recent-heading" },
      h("h2", { id: "recent-heading", text: t("Recent games") }),
      recentEl),
    h("section", { class: "card create-card", "aria-labelledby": "create-heading" },
      h("h2", { id: "create-heading", text: t("Create a room") }),
      createForm(app)),
    h("section", { class: "card chat-card", "aria-labelledby": "hall-chat-heading" },
      h("h2", { id: "hall-chat-heading", text: t("Hall chat") }),
      chatPanel(app, null)),
  );
}

function fillMine(app) {
  const mine = [...app.state.rooms.values()].filter((r) => r.info && !r.ended);
  replace(mineEl, mine.length === 0 ? null : [
    h("span", { class: "muted", text: `${t("Your rooms:")} ` }),
    mine.map((r) => h("button", { type: "button", class: "primary small", testid: `open-room-${r.id}`, onclick: () => app.openRoom(r.id) },
      t("Back to {title}", { title: r.info.title }))),
  ]);
}

function fillRooms(app) {
  const rooms = app.state.lobby;
  if (rooms.length === 0) {
    replace(roomsBody, h("tr", {}, h("td", { colspan: 6, class: "muted", text: t("No rooms yet: create one.") })));
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
      password = window.prompt(t("Password for {title}", { title: room.title }));
      if (password === null) return;
    }
    await app.run({ t, room: room.id, password });
  };
  const statusText = t({ waiting: "Waiting", playing: "Playing", finished: "Finished" }[room.status] || room.status);
  return h("tr", { testid: "room-row", dataset: { room: room.id, game: room.game } },
    h("td", { text: game ? game.title : room.game }),
    h("td", {},
      room.password ? lockIcon() : null,
      h("span", { class: "room-title", text: room.title }), " ",
      roomLink(room.id)),
    h("td", { title: room.seats.map((s) => s.name).join(", "), dataset: { label: t("Seats") }, text: `${room.seats.length}/${room.max_seats}` }),
    h("td", {}, h("span", { class: `status status-${room.status}`, text: statusText })),
    h("td", { dataset: { label: t("Watching") }, text: String(room.spectators.length) }),
    h("td", { class: "actions" },
      inside
        ? h("button", { type: "button", class: "primary small", onclick: () => app.openRoom(room.id), text: t("Open") })
        : [
            h("button", { type: "button", class: "primary small", testid: "join-room", disabled: full || room.status !== "waiting", onclick: () => ask("join"), text: t("Join") }),
            h("button", { type: "button", class: "small", testid: "spectate-room", onclick: () => ask("spectate"), text: t("Watch") }),
          ]),
  );
}

function fillRecent(app) {
  const recent = app.state.recent;
  if (recent.length === 0) {
    replace(recentEl, h("li", { class: "muted", text: t("No finished games yet.") }));
    return;
  }
  replace(recentEl, recent.map((game) => {
    const kind = app.state.games.get(game.game);
    const when = game.finished_at ? new Date(game.finished_at * 1000).toLocaleString() : "";
    const played = game.termination !== "closed_by_host" && game.termination !== "aborted";
    return h("li", { testid: "recent-game", dataset: { room: game.id } },
      h("a", { href: `/replay/${encodeURIComponent(game.id)}`, testid: "replay-link", text: `${game.title}` }),
      h("span", { class: "muted", text: ` ${kind ? kind.title : game.game} · ` }),
      h("code", { class: "room-id", text: game.id }),
      h("span", { class: "muted", text: when ? ` · ${when}` : "" }),
      h("div", { class: "fine", text: played ? `${winnersLine(game)} ${scoreLine(game)}` : terminationText(game.termination) }));
  }));
}

/** A room named by the page's address (/room/ID) that we are not in yet: join or watch it. */
function fillLinked(app) {
  const roomId = app.state.linked;
  const room = roomId ? app.state.lobby.find((r) => r.id === roomId) : null;
  if (!room) { replace(linkedEl); return; }
  const ask = async (t) => {
    let password = null;
    if (room.password) {
      password = window.prompt(t("Password for {title}", { title: room.title }));
      if (password === null) return;
    }
    await app.run({ t, room: room.id, password });
  };
  const full = room.seats.length >= room.max_seats;
  replace(linkedEl, h("section", { class: "card banner linked", role: "status" },
    h("span", {}, `${t("You followed a link to")} `, h("b", { text: room.title }), " ", roomLink(room.id), ` (${room.seats.map((s) => s.name).join(", ") || t("nobody seated yet")}). `),
    h("button", { type: "button", class: "primary small", testid: "linked-join", disabled: full || room.status !== "waiting", onclick: () => ask("join"), text: t("Join") }),
    h("button", { type: "button", class: "small", testid: "linked-watch", onclick: () => ask("spectate"), text: t("Watch") }),
    h("button", { type: "button", class: "link small", "aria-label": t("Dismiss"), onclick: () => app.dropLink(), text: "×" })));
}

function createForm(app) {
  const games = [...app.state.games.values()];
  gameSelect = h("select", { id: "create-game", name: "game", testid: "create-game", onchange: () => fillSettings(app) },
    games.map((g) => h("option", { value: g.id, text: g.title })));
  settingsBox = h("fieldset", { class: "settings" });
  const title = h("input", { id: "create-title", name: "title", type: "text", maxlength: 60, placeholder: t("optional"), testid: "create-title" });
  const password = h("input", { id: "create-password", name: "password", type: "password", maxlength: 60, placeholder: t("optional"), autocomplete: "new-password", testid: "create-password" });
  const form = h("form", {
    class: "create", testid: "create-form",
    onsubmit: async (e) => {
      e.preventDefault();
      const settings = readSettings(app);
      if (settings === null) return;
      await app.run({ t: "create", game: gameSelect.value, settings, title: title.value.trim() || null, password: password.value || null });
    },
  },
    h("div", { class: "field" }, h("label", { for: "create-game", text: t("Game") }), gameSelect),
    h("div", { class: "field" }, h("label", { for: "create-title", text: t("Room name") }), title),
    h("div", { class: "field" }, h("label", { for: "create-password", text: t("Password") }), password),
    h("details", {}, h("summary", { text: t("Game settings") }), settingsBox),
    h("button", { type: "submit", class: "primary", testid: "create-room", text: t("Create and sit down") }),
  );
  fillSettings(app);
  return form;
}

/** One input per setting a player chooses, grouped as the game's schema groups them. */
function fillSettings(app) {
  const game = app.state.games.get(gameSelect.value);
  if (!game) { replace(settingsBox); return; }
  const groups = new Map();
  for (const s of game.settings) {
    const group = s.group || "More";
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(s);
  }
  replace(settingsBox, h("legend", { text: t("{game} settings", { game: game.title }) }),
    [...groups].map(([group, settings]) => h("fieldset", { class: "setting-group", testid: "setting-group", dataset: { group } },
      h("legend", { text: t(group) }), settings.map(settingField))));
}

/** A choice in words: the browser's own (translated) labels first (labels.js), then the
 * schema's `choice_labels`, else the value made readable. */
function optionLabel(s, value) {
  const translated = choiceLabel(gameSelect.value, s.name, value);
  if (translated !== String(value)) return translated;
  const labels = s.choice_labels || {};
  if (Object.hasOwn(labels, value)) return labels[value];
  return value === "" ? t("(default)") : String(value).replaceAll("_", " ");
}

function settingField(s) {
  const id = `setting-${s.name}`;
  const label = h("label", { for: id, text: s.label || s.name.replaceAll("_", " ") });
  const common = { id, name: s.name, dataset: { kind: s.kind, setting: s.name }, title: s.help || null };
  let input;
  if (s.kind === "bool") {
    input = h("input", { ...common, type: "checkbox", checked: s.default === true });
    return h("div", { class: "field check" }, input, label, help(s));
  }
  if (s.kind === "choice") {
    input = h("select", common, s.choices.map((c) => h("option", { value: c, selected: c === s.default, text: optionLabel(s, c) })));
  } else if (s.kind === "int" || s.kind === "float") {
    input = h("input", { ...common, type: "number", value: String(s.default), min: s.low ?? null, max: s.high ?? null, step: s.kind === "int" ? "1" : "any", required: true });
  } else if (s.kind === "list" && s.choices.length) {
    // a set of options: one box each (the whole group is the setting)
    const chosen = new Set(s.default || []);
    return h("fieldset", { class: "field options", id, dataset: { kind: "options", setting: s.name } },
      h("legend", { text: s.label || s.name }),
      s.choices.map((c) => h("label", { class: "option" },
        h("input", { type: "checkbox", value: c, checked: chosen.has(c), dataset: { option: c } }), ` ${optionLabel(s, c)}`)),
      help(s));
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
    else if (input.dataset.kind === "options") value = [...input.querySelectorAll("input[data-option]:checked")].map((box) => box.value);
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
  const span = h("span", { class: "lock", role: "img", "aria-label": t("Password required"), title: t("Password required"), testid: "room-lock" });
  span.innerHTML = '<svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true"><rect x="3" y="7" width="10" height="8" rx="1.5" fill="currentColor"/><path d="M5 7V5a3 3 0 0 1 6 0v2" stroke="currentColor" stroke-width="1.8" fill="none"/></svg>';
  return span;
}

// gamehall browser client: boot, protocol messages -> client state, screen switching.
//
// Screens: name entry (login.js), lobby (lobby.js), a room (room.js, which asks the game's
// renderer module games/<game id>.js to draw the table), a contest (contest.js, at
// /contest/ID, shown with or without a login). A game without a renderer module
// gets games/generic.js. Adding a game to the browser: games/<id>.js plus one line in games/index.js.

import { Connection, PROTOCOL_VERSION } from "./net.js";
import { h, replace, tickCountdowns } from "./ui.js";
import { renderLogin } from "./login.js";
import { renderLobby } from "./lobby.js";
import { renderRoom, roomLogChanged } from "./room.js";
import { renderContest } from "./contest.js";
import * as generic from "./games/generic.js";
import { RENDERERS } from "./games/index.js";
import { languagePicker, t, translateStatic } from "./i18n.js";
import { watchRequest } from "./busy.js";
import "./i18n-de.js";

const STORAGE_NAME = "gamehall.name";
const STORAGE_TOKEN = "gamehall.token";
const STORAGE_WATCHING = "gamehall.watching"; // this tab's watched room, to watch again after a reload
const STALE_NOTICE = "The table changed before your move arrived, so it was not played. Here is the table as it is now.";

/** The room a /room/ID address names (a shared link), or null. */
function roomFromPath() {
  const match = /^\/room\/([^/]+)\/?$/.exec(location.pathname);
  return match ? decodeURIComponent(match[1]) : null;
}

/** The contest a /contest/ID address names, or null. */
function contestFromPath() {
  const match = /^\/contest\/([^/]+)\/?$/.exec(location.pathname);
  return match ? decodeURIComponent(match[1]) : null;
}

/** Everything the screens read. Screens never mutate it directly: they call `app` methods. */
const state = {
  name: localStorage.getItem(STORAGE_NAME) || "",
  token: localStorage.getItem(STORAGE_TOKEN) || null,
  status: "closed", // connection: connecting | open | closed
  welcomed: false,
  welcomes: 0, // how often the server said "welcome" on this page (1 + reconnects)
  games: new Map(), // id -> {id, title, settings, actions}
  renderers: new Map(), // game id -> renderer module
  lobby: [], // rooms as listed, kept up to date by the server's room_created/changed/closed
  recent: [], // finished games (GET /api/rooms?finished=1), newest first
  contests: [], // the hall's contests (GET /api/contests), running first
  contest: contestFromPath(), // the contest shown on the contest screen
  linked: roomFromPath(), // a room named by the page's address, not yet opened
  loginError: null, // why the last login failed (shown on the name screen)
  preparing: null, // {what, text} while the server prepares something (a dictionary)
  rooms: new Map(), // room id -> {id, info, seat, view, viewSeq (the view's seq), seq (last event seen), timers, log, ended}
  current: null, // room id shown, or null for the lobby
  hallLog: [], // private/broadcast chat and notices
  screen: "login",
};

let logCounter = 0;
let toastTimer = 0;

const main = document.getElementById("main");
const statusEl = document.getElementById("connection-status");
const toastEl = document.getElementById("toast");

const conn = new Connection(socketUrl(), onMessage, onStatus);

export const app = {
  state,
  connection: conn, // for the browser tests and the devtools console
  request: (msg) => conn.request(msg),

  /** Show a problem to the user (an "error" message, a refused request). */
  showError(err) {
    const text = err && err.reason ? err.reason : String(err);
    const dismiss = () => { toastEl.hidden = true; };
    replace(toastEl, h("span", { text }), h("button", { type: "button", class: "link", "aria-label": "Dismiss", text: "×", onclick: dismiss }));
    toastEl.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(dismiss, 6000);
  },

  /** Run a request; report its refusal. Resolves with the reply or null. */
  async run(msg) {
    const done = watchRequest(msg); // a slow request says what it waits for (busy.js)
    try {
      return await conn.request(msg);
    } catch (err) {
      app.showError(err.code === "stale" ? { reason: t(STALE_NOTICE) } : err);
      return null;
    } finally {
      done();
    }
  },

  /** Play `action` at `room`'s table as the player sees it: the `seq` of the view on screen
   * goes with it, so a move decided on a table the game has since moved past (the turn passed,
   * a timer played) is refused as "stale" instead of played; the fresh view that follows the
   * refusal redraws the table and a short notice says why (docs/web-protocol.md, "Stale
   * actions"). Resolves with the reply or null. */
  act(room, action) {
    const msg = { t: "act", room: room.id, action };
    if (room.viewSeq !== null) msg.seq = room.viewSeq;
    return app.run(msg);
  },

  login(name) {
    state.name = name;
    state.loginError = null;
    localStorage.setItem(STORAGE_NAME, name);
    if (state.status === "open") hello();
    else if (state.status === "closed") conn.open();
  },

  logout() {
    // "bye" releases our seats for good; without a stored token a reload shows the name
    // screen instead of logging in again (the name stays filled in).
    conn.send({ t: "bye" });
    conn.stop();
    localStorage.removeItem(STORAGE_TOKEN);
    state.token = null;
    state.lobby = [];
    state.welcomed = false;
    state.rooms.clear();
    state.current = null;
    show("login");
  },

  openRoom(roomId) {
    state.current = roomId;
    state.linked = null;
    setAddress(`/room/${encodeURIComponent(roomId)}`);
    show("room");
  },

  toLobby() {
    for (const [id, room] of state.rooms) if (room.ended) state.rooms.delete(id);
    state.current = null;
    setAddress("/");
    show("lobby");
    app.loadContests(); // a contest page may have seen them move on
  },

  /** The room list once, after login; from then on the server pushes every change. */
  loadLobby() {
    conn.request({ t: "rooms" }).then((reply) => {
      state.lobby = reply.rooms;
      for (const info of reply.rooms) roomInfoChanged(info);
      if (state.screen === "lobby") render();
    }, () => {});
  },

  /** The finished games of "Recent games" (GET /api/rooms?finished=1). */
  async loadRecent() {
    try {
      const response = await fetch("/api/rooms?finished=1&limit=15");
      if (!response.ok) return;
      state.recent = await response.json();
      if (state.screen === "lobby") render();
    } catch (err) {
      console.warn("gamehall: recent games unavailable", err);
    }
  },

  openContest(contestId) {
    state.contest = contestId;
    setAddress(`/contest/${encodeURIComponent(contestId)}`);
    show("contest");
  },

  /** The lobby's contests (GET /api/contests); asked again when rooms come and go, as a
   * contest's games are rooms. */
  async loadContests() {
    try {
      const response = await fetch("/api/contests");
      if (!response.ok) return;
      state.contests = await response.json();
      if (state.screen === "lobby") render();
    } catch (err) {
      console.warn("gamehall: contests unavailable", err);
    }
  },

  /** Forget a followed link (its banner's close button). */
  dropLink() {
    state.linked = null;
    setAddress("/");
    render();
  },

  renderer(gameId) {
    return state.renderers.get(gameId) || generic;
  },

  /** A room record, created on first mention (events may precede "joined"). */
  room(roomId) {
    let room = state.rooms.get(roomId);
    if (!room) {
      room = { id: roomId, info: null, seat: null, view: null, viewSeq: null, seq: 0, seen: new Set(), timers: [], log: [], ended: null };
      state.rooms.set(roomId, room);
    }
    return room;
  },

  addLog(target, entry) {
    target.push({ n: ++logCounter, ...entry });
    if (target.length > 300) target.splice(0, target.length - 300);
  },
};

function setAddress(path) {
  if (location.pathname !== path) history.pushState(null, "", path);
}

/** A room's lobby entry changed: the rooms we are in show it in their header too. */
function roomInfoChanged(info) {
  const room = state.rooms.get(info.id);
  if (!room || !room.info || room.ended) return false;
  if (JSON.stringify(room.info) === JSON.stringify(info)) return false;
  room.info = info;
  return true;
}

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}

function onStatus(status) {
  const wasOpen = state.status === "open";
  state.status = status;
  statusEl.textContent = t({ connecting: "Connecting…", open: "Connected", closed: "Disconnected" }[status]);
  statusEl.dataset.status = status;
  if (status === "open" && state.name) hello();
  if (status === "closed" && wasOpen) state.welcomed = false;
}

function hello() {
  conn.request({ t: "hello", v: PROTOCOL_VERSION, name: state.name, token: state.token }).catch((err) => {
    if (err.code === "closed") return;
    state.welcomed = false;
    conn.stop(); // no automatic retry with a name the server refused
    state.loginError = err.reason;
    show("login");
  });
}

// ------------------------------------------------------------------------------ messages

function onMessage(msg) {
  const handler = HANDLERS[msg.t];
  if (handler) handler(msg);
}

const HANDLERS = {
  async welcome(msg) {
    state.welcomed = true;
    state.welcomes += 1;
    state.name = msg.name;
    state.token = msg.token;
    localStorage.setItem(STORAGE_NAME, msg.name);
    localStorage.setItem(STORAGE_TOKEN, msg.token);
    state.games = new Map(msg.games.map((g) => [g.id, g]));
    if (state.hallLog.length === 0) {
      for (const line of msg.hall_chat || []) app.addLog(state.hallLog, chatLine(line));
    }
    // After a dropped socket (not a reload) ask each room for the events we missed (chat,
    // notices); the views that follow "welcome" already bring the tables up to date.
    const missed = [...state.rooms.values()].filter((room) => !room.ended && room.seq > 0);
    for (const room of missed) {
      conn.request({ t: "resume", room: room.id, since: room.seq }).catch(() => {
        // Our place there is gone (a lobby seat is not held for a dropped connection).
        state.rooms.delete(room.id);
        if (state.current === room.id) app.toLobby();
      });
    }
    await loadRenderers(msg.games.map((g) => g.id));
    if (state.screen === "login") show(state.current ? "room" : state.contest ? "contest" : "lobby");
    else render();
    app.loadLobby();
    app.loadRecent();
    app.loadContests();
    followLink();
  },

  rooms(msg) {
    state.lobby = msg.rooms;
    if (state.screen === "lobby") render();
  },

  room_created(msg) { lobbyUpsert(msg.room); contestsMayHaveChanged(); },
  room_changed(msg) { lobbyUpsert(msg.room); },

  room_closed(msg) {
    state.lobby = state.lobby.filter((r) => r.id !== msg.room);
    if (msg.finished) app.loadRecent();
    contestsMayHaveChanged();
    if (state.screen === "lobby") render();
  },

  invited(msg) {
    // someone asks us to their table: a line in the hall chat with a link, and a toast
    const info = msg.room;
    app.addLog(state.hallLog, { kind: "notice", text: t("{by} invites you to {title} ({id}): open /room/{id} or find it in the lobby.", { by: msg.by, title: info.title, id: info.id }) });
    roomLogChanged(app);
    const link = h("a", { href: `/room/${encodeURIComponent(info.id)}`, testid: "invitation-link", text: t("Go to {title}", { title: info.title }) });
    replace(toastEl, h("span", { text: `${t("{by} invites you to {title}.", { by: msg.by, title: info.title })} ` }), link);
    toastEl.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toastEl.hidden = true; }, 15000);
  },

  preparing(msg) {
    state.preparing = msg.done ? null : { what: msg.what, text: msg.text };
    showPreparing();
  },

  joined(msg) { entered(msg); },
  spectating(msg) { entered(msg); },

  left(msg) {
    state.rooms.delete(msg.room);
    if (state.current === msg.room) app.toLobby();
  },

  event(msg) {
    const room = app.room(msg.room);
    if (room.seen.has(msg.seq)) return; // already seen (a resume overlapping live events)
    room.seen.add(msg.seq);
    if (room.seen.size > 4096) room.seen = new Set([...room.seen].slice(-2048));
    room.seq = Math.max(room.seq, msg.seq);
    const ev = msg.event;
    const renderer = room.info ? app.renderer(room.info.game) : null;
    // A renderer may show an event its own way (e.g. AAH's "next round in 5 s" as a status
    // line) by returning null from logLine; undefined keeps the default chat line.
    const custom = renderer && renderer.logLine ? renderer.logLine(ev) : undefined;
    const line = custom === undefined ? describeEvent(ev) : custom;
    if (line) {
      app.addLog(room.log, line);
      if (state.current === msg.room) roomLogChanged(app);
    }
    if (renderer && renderer.onEvent) renderer.onEvent(app, room, ev);
  },

  view(msg) {
    const room = app.room(msg.room);
    const now = performance.now();
    room.view = msg.view;
    room.viewSeq = msg.seq; // the state a click on this table is decided on (app.act)
    room.seat = msg.seat;
    room.timers = (msg.timers || []).map((x) => ({ key: x.key, deadline: now + x.seconds_left * 1000 }));
    if (state.current === msg.room && state.screen === "room") render();
  },

  ended(msg) {
    const room = app.room(msg.room);
    room.ended = { reason: msg.reason, text: msg.text };
    room.timers = [];
    if (msg.reason !== "game_over") app.addLog(room.log, { kind: "system", text: endedText(msg) });
    if (state.current === msg.room) { render(); roomLogChanged(app); }
  },

  hall(msg) {
    const ev = msg.event;
    if (ev.type === "ChatSaid") app.addLog(state.hallLog, { kind: ev.scope, sender: ev.sender, to: ev.to, text: ev.text });
    else if (ev.text) app.addLog(state.hallLog, { kind: "notice", text: ev.text });
    roomLogChanged(app);
  },

  error(msg) { app.showError(msg); },

  bye(msg) {
    state.welcomed = false;
    if (msg.reason === "kicked") {
      conn.stop();
      state.rooms.clear();
      state.current = null;
      state.loginError = msg.text || "The host removed you from the hall.";
      show("login");
    } else if (msg.reason === "replaced") {
      conn.stop();
      app.showError({ reason: "You logged in from another tab or device; this one is disconnected." });
    }
  },
};

let contestsTimer = 0;

/** A room came or went: a contest may have moved on. Asked at most once a second. */
function contestsMayHaveChanged() {
  if (contestsTimer || state.screen !== "lobby") return;
  contestsTimer = setTimeout(() => { contestsTimer = 0; app.loadContests(); }, 1000);
}

function lobbyUpsert(info) {
  const at = state.lobby.findIndex((r) => r.id === info.id);
  if (at >= 0) state.lobby[at] = info;
  else state.lobby.push(info);
  const changed = roomInfoChanged(info);
  if (state.screen === "lobby" || (state.screen === "room" && changed && state.current === info.id)) render();
}

/** A page opened at /room/ID: open the room if we are in it; else offer to join or watch it
 * (a finished room's address leads to its replay). */
async function followLink() {
  const roomId = state.linked;
  if (!roomId) return;
  const mine = state.rooms.get(roomId);
  if (mine && mine.info && !mine.ended) { app.openRoom(roomId); return; }
  try {
    const response = await fetch(`/api/rooms/${encodeURIComponent(roomId)}`);
    const body = await response.json();
    if (response.ok && !body.live) { location.assign(`/replay/${encodeURIComponent(roomId)}`); return; }
    if (response.ok && sessionStorage.getItem(STORAGE_WATCHING) === roomId && !body.room.password) {
      // this tab was watching the room before the reload (a watcher's chair is not held)
      if (await app.run({ t: "spectate", room: roomId })) return;
    }
    if (!response.ok) {
      state.linked = null;
      setAddress("/");
      app.showError({ reason: t("There is no room {id}.", { id: roomId }) });
    }
  } catch (err) {
    console.warn("gamehall: cannot look up", roomId, err);
  }
  if (state.screen === "lobby") render();
}

function chatLine(line) {
  if (line.kind === "notice") return { kind: "notice", text: line.text };
  return { kind: line.kind, sender: line.sender, text: line.text };
}

function showPreparing() {
  let el = document.getElementById("preparing");
  if (!state.preparing) { if (el) el.remove(); return; }
  if (!el) {
    el = h("p", { id: "preparing", class: "banner", role: "status", testid: "preparing" });
    main.before(el);
  }
  el.textContent = state.preparing.text;
}

function entered(msg) {
  if (msg.t === "spectating") sessionStorage.setItem(STORAGE_WATCHING, msg.room.id);
  const room = app.room(msg.room.id);
  if (room.info === null) {
    // First entry (joining, or a reload): the room's recent chat, shown once. The events of
    // our own join (our SeatJoined) come before "joined" and are in the log already, so the
    // history goes in front of them (lines are shown in the order of their numbers, so
    // theirs are renumbered); a later "joined" (a reconnection) brings none again.
    const ours = room.log.splice(0);
    for (const line of msg.chat || []) app.addLog(room.log, chatLine(line));
    for (const { n: _shownBefore, ...line } of ours) app.addLog(room.log, line);
  }
  room.info = msg.room;
  room.seat = msg.seat;
  room.ended = null;
  if (state.current === null || state.screen !== "room") app.openRoom(msg.room.id);
  else render();
}

function endedText(msg) {
  const words = {
    game_over: "The game is over.",
    aborted: "The game was stopped.",
    kicked: "You were removed from this room.",
    shutdown: "The server is shutting down.",
    inactive: "You were removed for inactivity.",
  };
  return words[msg.reason] ? t(words[msg.reason]) : t("This room has ended ({why}).", { why: msg.text });
}

/** A log line for a room event, or null if the event is not worth a line. */
function describeEvent(ev) {
  switch (ev.type) {
    case "ChatSaid": return { kind: "room", sender: ev.sender, text: ev.text };
    case "SeatJoined": return { kind: "system", text: t("{name} sat down.", { name: ev.name }) };
    case "SeatLeft": return { kind: "system", text: t("{name} left.", { name: ev.name }) };
    case "SeatAway": return { kind: "system", text: t("{name} lost the connection.", { name: ev.name }) };
    case "SeatBack": return { kind: "system", text: t("{name} is back.", { name: ev.name }) };
    case "SeatRenamed": return { kind: "system", text: `${ev.old} is now ${ev.new}.` };
    case "SpectatorsChanged": return null;
    case "RoomClosed": return null;
    default:
      return typeof ev.text === "string" && ev.text ? { kind: "system", text: ev.text } : null;
  }
}

async function loadRenderers(ids) {
  await Promise.all(ids.filter((id) => Object.hasOwn(RENDERERS, id) && !state.renderers.has(id)).map(async (id) => {
    try {
      state.renderers.set(id, await RENDERERS[id]());
    } catch (err) {
      console.error(`gamehall: the renderer of ${id} failed to load`, err); // generic.js stands in
    }
  }));
}

// ------------------------------------------------------------------------------ screens

function show(screen) {
  state.screen = screen;
  render();
}

function render() {
  document.body.dataset.screen = state.screen;
  document.body.dataset.session = state.welcomed ? "open" : "none"; // a contest page may have none
  if (state.screen === "login") replace(main, renderLogin(app));
  else if (state.screen === "lobby") renderLobby(app, main);
  else if (state.screen === "room") renderRoom(app, main);
  else if (state.screen === "contest") renderContest(app, main);
}

// ------------------------------------------------------------------------------ boot

setInterval(tickCountdowns, 250);
document.getElementById("logout").addEventListener("click", () => app.logout());
window.addEventListener("popstate", () => {
  // the browser's Back/Forward between the lobby and a room we are in
  const roomId = roomFromPath();
  const contestId = contestFromPath();
  if (roomId && state.rooms.has(roomId)) { state.current = roomId; show("room"); }
  else if (contestId) { state.contest = contestId; show("contest"); }
  else if (!roomId && (state.screen === "room" || state.screen === "contest")) { state.current = null; show(state.welcomed ? "lobby" : "login"); }
});
document.getElementById("logout").before(languagePicker());
translateStatic();
window.addEventListener("gamehall:lang", () => {
  statusEl.textContent = t({ connecting: "Connecting…", open: "Connected", closed: "Disconnected" }[state.status] || "Not connected");
  if (state.screen !== "login" || !state.name) render();
});
if (state.contest) { // a contest's page needs no login; a stored session still resumes
  show("contest");
  if (state.name && state.token) conn.open();
} else if (state.name && state.token) { // a stored session: resume it (after "Log out" there is none)
  replace(main, h("p", { class: "muted", text: t("Connecting…") }));
  conn.open();
} else {
  show("login");
}

// The host console (/host): live rooms and their players, close a room, remove a user, a
// notice to the whole hall, and the server's figures as small charts.
//
// Every request carries the operator token (Authorization: Bearer TOKEN); the server answers
// 401 without it. The token is asked for once and kept for this tab only (sessionStorage).

import { h, replace } from "./ui.js";

const STORAGE_TOKEN = "gamehall.operatorToken";
const POLL_MS = 2000;
const HISTORY = 60; // points per chart: two minutes at one poll every two seconds

const main = document.getElementById("main");
const toastEl = document.getElementById("toast");
const logoutButton = document.getElementById("host-logout");

let token = sessionStorage.getItem(STORAGE_TOKEN) || "";
let pollTimer = 0;
let previous = null; // the last figures, for rates and the interval's p99
const series = { connections: [], rooms: [], actions: [], p99: [] };
let view = null;

class Unauthorized extends Error {}

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({}));
  if (response.status === 401) throw new Unauthorized(data.reason || "Unauthorized");
  if (!response.ok) throw new Error(data.reason || `HTTP ${response.status}`);
  return data;
}

function toast(text) {
  replace(toastEl, h("span", { text }));
  toastEl.hidden = false;
  setTimeout(() => { toastEl.hidden = true; }, 5000);
}

function showLogin(reason) {
  clearInterval(pollTimer);
  logoutButton.hidden = true;
  view = null;
  const input = h("input", { id: "token-input", type: "password", required: true, autocomplete: "current-password", testid: "host-token" });
  replace(main, h("form", {
    class: "card login", testid: "host-login",
    onsubmit: (e) => {
      e.preventDefault();
      token = input.value.trim();
      sessionStorage.setItem(STORAGE_TOKEN, token);
      start();
    },
  },
    h("h2", { text: "Host console" }),
    h("p", { class: "muted", text: "The operator token is the one the server was started with (--operator-token, operator_token in the configuration, or GAMEHALL_OPERATOR_TOKEN)." }),
    reason ? h("p", { class: "banner", role: "status", testid: "host-login-error", text: reason }) : null,
    h("label", { for: "token-input", text: "Operator token" }), input,
    h("button", { type: "submit", class: "primary", testid: "host-login-button", text: "Open the console" })));
  queueMicrotask(() => input.focus());
}

function build() {
  const noticeInput = h("input", { type: "text", maxlength: 1000, required: true, placeholder: "A message to everyone", "aria-label": "Notice", testid: "host-notice-input" });
  view = {
    charts: h("div", { class: "host-charts", testid: "host-charts" }),
    rooms: h("tbody", { testid: "host-rooms" }),
    summary: h("p", { class: "muted", testid: "host-summary" }),
  };
  replace(main, h("div", { class: "host" },
    h("section", { class: "card" }, h("h2", { text: "Server" }), view.summary, view.charts),
    h("section", { class: "card" },
      h("h2", { text: "Notice to the whole hall" }),
      h("form", { class: "row", testid: "host-notice",
        onsubmit: async (e) => {
          e.preventDefault();
          try { await api("POST", "/api/host/notice", { text: noticeInput.value }); noticeInput.value = ""; toast("Notice sent."); }
          catch (err) { handle(err); }
        } }, noticeInput, h("button", { type: "submit", class: "primary", testid: "host-notice-send", text: "Send" }))),
    h("section", { class: "card" },
      h("h2", { text: "Rooms" }),
      h("div", { class: "table-scroll" }, h("table", { class: "rooms" },
        h("thead", {}, h("tr", {}, ["Room", "Game", "Status", "Players", "Watching", ""].map((text) => h("th", { scope: "col", text })))),
        view.rooms)))));
}

function handle(err) {
  if (err instanceof Unauthorized) showLogin(err.message);
  else toast(err.message);
}

async function refresh() {
  try {
    const [rooms, figures] = await Promise.all([api("GET", "/api/host/rooms"), api("GET", "/api/host/figures")]);
    if (!view) build();
    logoutButton.hidden = false;
    fillRooms(rooms.rooms);
    addFigures(figures);
  } catch (err) {
    handle(err);
  }
}

function fillRooms(rooms) {
  if (rooms.length === 0) {
    replace(view.rooms, h("tr", {}, h("td", { colspan: 6, class: "muted", text: "No rooms." })));
    return;
  }
  replace(view.rooms, rooms.map((room) => h("tr", { testid: "host-room", dataset: { room: room.id } },
    h("td", {}, h("a", { href: `/room/${encodeURIComponent(room.id)}`, text: room.title }), " ", h("code", { class: "room-id", text: room.id })),
    h("td", { text: room.game }),
    h("td", { text: room.status }),
    h("td", {}, h("ul", { class: "plain" }, room.seats.map((s) => h("li", { testid: "host-player" },
      `${s.name} (${s.bot ? "bot" : s.protocol || "?"}${s.away ? ", away" : ""}) `,
      s.bot ? null : h("button", { type: "button", class: "link small", testid: `host-kick-${s.name}`, text: "remove",
        onclick: async () => {
          if (!window.confirm(`Remove ${s.name} from every room and disconnect them?`)) return;
          try { await api("POST", `/api/host/users/${encodeURIComponent(s.name)}/kick`, {}); toast(`${s.name} removed.`); refresh(); } catch (err) { handle(err); }
        } }))))),
    h("td", { text: room.spectators.join(", ") || "—" }),
    h("td", {}, h("button", { type: "button", class: "small", testid: "host-close", text: "Close",
      onclick: async () => {
        if (!window.confirm(`Close ${room.title} (${room.id}) for everyone?`)) return;
        try { await api("POST", `/api/host/rooms/${encodeURIComponent(room.id)}/close`, {}); toast(`${room.id} closed.`); refresh(); } catch (err) { handle(err); }
      } })))));
}

/** The p99 of the actions between two histogram snapshots, in ms (null: no action). */
function intervalP99(before, now) {
  const counts = now.latency_buckets.map(([bound, count], i) => [bound, count - (before ? before.latency_buckets[i][1] : 0)]);
  const total = counts.reduce((sum, [, c]) => sum + c, 0);
  if (total <= 0) return null;
  let seen = 0;
  for (const [bound, count] of counts) {
    seen += count;
    if (seen >= total * 0.99) return bound === null ? Infinity : bound * 1000;
  }
  return null;
}

function addFigures(figures) {
  const now = performance.now();
  const seconds = previous ? (now - previous.at) / 1000 : 0;
  const actionsPerS = previous && seconds > 0 ? (figures.actions_total - previous.figures.actions_total) / seconds : 0;
  const p99 = intervalP99(previous ? previous.figures : null, figures);
  push(series.connections, figures.connections);
  push(series.rooms, figures.rooms);
  push(series.actions, Math.max(0, actionsPerS));
  push(series.p99, p99 === null || !Number.isFinite(p99) ? 0 : p99);
  const p99Text = (v) => (p99 === null ? "no actions" : !Number.isFinite(p99) ? "> 10 s" : v >= 1 ? v.toFixed(0) : v.toFixed(2));
  previous = { at: now, figures };
  view.summary.textContent = `${figures.users} users online, ${figures.seats} seats taken.`;
  replace(view.charts,
    chart("Connections", series.connections, (v) => String(Math.round(v))),
    chart("Rooms", series.rooms, (v) => String(Math.round(v))),
    chart("Actions/s", series.actions, (v) => v.toFixed(1)),
    chart("p99 latency (ms)", series.p99, p99Text));
}

function push(list, value) {
  list.push(value);
  if (list.length > HISTORY) list.shift();
}

/** A small line chart as inline SVG: no library, scales to the series' maximum. */
function chart(title, values, format) {
  const width = 220;
  const height = 60;
  const max = Math.max(1e-9, ...values);
  const step = width / Math.max(1, HISTORY - 1);
  const offset = (HISTORY - values.length) * step;
  const points = values.map((v, i) => `${(offset + i * step).toFixed(1)},${(height - 2 - (v / max) * (height - 6)).toFixed(1)}`).join(" ");
  const last = values.length ? values[values.length - 1] : 0;
  const figure = h("figure", { class: "host-chart", testid: "host-chart", dataset: { title } },
    h("figcaption", {}, h("span", { text: title }), h("b", { testid: "host-chart-value", text: ` ${format(last)}` })));
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${title}: ${format(last)} now, at most ${format(max)} in the last two minutes`);
  const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
  line.setAttribute("points", points);
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.appendChild(line);
  figure.appendChild(svg);
  return figure;
}

function start() {
  clearInterval(pollTimer);
  replace(main, h("p", { class: "muted", text: "Loading…" }));
  refresh();
  pollTimer = setInterval(refresh, POLL_MS);
}

logoutButton.addEventListener("click", () => {
  sessionStorage.removeItem(STORAGE_TOKEN);
  token = "";
  showLogin(null);
});

if (token) start();
else showLogin(null);

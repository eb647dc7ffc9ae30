// The contest page (/contest/ID) and the lobby's list of contests (issue 14).
//
// A contest is a bot tournament the runner plays on this hall (`gamehall contest run`); after
// each game it publishes a snapshot (docs/web-protocol.md section 15, "Contests"). This page
// shows the latest one: progress, standings with typed losses and ratings, the crosstable, a
// rating chart, and every game with a link to its replay (finished) or to watch it (running).
//
// Live updates poll GET /api/contests/ID every 2 s with If-None-Match (a 304 costs a few
// bytes). Polling rather than a WebSocket push: the page works for a visitor who is not logged
// in (a contest's audience is often just watching), nothing in the web protocol changes, and a
// snapshot changes once per finished game, so 2 s is as live as a push would look.
// Only the organiser (the name the runner gave, logged in here) sees Stop; the server checks
// it again with the session token (the one "welcome" gave), so a hidden button is not the guard.

import { h, replace } from "./ui.js";
import { addTranslations, lang, scoped } from "./i18n.js";
import { scoreChart } from "./games/summary.js";
import { terminationText } from "./replay-text.js";

const POLL_MS = 2000;
const t = scoped("contest"); // this page's German is its own (below), then the shared words

/** The page's state: one contest at a time. */
const page = {
  id: null, // the contest shown
  snapshot: null, // its latest snapshot, or null until the first answer
  etag: null,
  missing: null, // the server's reason when there is no such contest
  chain: null, // the live polling loop's token (one loop at a time; null: none)
  root: null,
  drawn: null, // the snapshot last drawn (a redraw only when it changed)
};

/** Draw the contest page into `main` (called by app.js on every render of this screen). */
export function renderContest(app, main) {
  const id = app.state.contest;
  if (page.id !== id) {
    Object.assign(page, { id, snapshot: null, etag: null, missing: null, drawn: null, chain: null });
  }
  if (!page.root || page.root.parentNode !== main) {
    page.root = h("div", { class: "contest", testid: "contest" });
    replace(main, page.root);
    page.drawn = null;
  }
  draw(app, true);
  if (!page.chain) {
    const chain = {};
    page.chain = chain;
    poll(app, chain);
  }
}

/** Ask for the snapshot, draw it if it changed, and ask again in 2 s while the page is open
 * and the contest runs (a finished contest's snapshot is final). `chain` is this loop's
 * token: a loop whose token is no longer the page's (another contest opened) just ends. */
async function poll(app, chain) {
  const id = page.id;
  if (page.chain !== chain || !showing(app, id)) { if (page.chain === chain) page.chain = null; return; }
  try {
    const headers = page.etag ? { "If-None-Match": page.etag } : {};
    const response = await fetch(`/api/contests/${encodeURIComponent(id)}`, { headers, cache: "no-store" });
    if (page.chain !== chain) return;
    if (response.status === 200) {
      page.snapshot = await response.json();
      page.etag = response.headers.get("ETag");
      page.missing = null;
    } else if (response.status !== 304) {
      const body = await response.json().catch(() => ({}));
      page.missing = body.reason || `HTTP ${response.status}`;
    }
  } catch (err) {
    console.warn("gamehall: contest unavailable", err); // offline for a moment: ask again
  }
  if (page.chain !== chain) return;
  if (showing(app, id)) draw(app, false);
  const over = page.snapshot && page.snapshot.state !== "running";
  if (over || page.missing) page.chain = null;
  else setTimeout(() => poll(app, chain), POLL_MS);
}

function showing(app, id) {
  return app.state.screen === "contest" && app.state.contest === id && page.id === id;
}

function draw(app, always) {
  const key = JSON.stringify([page.snapshot, page.missing, lang(), isOrganiser(app)]);
  if (!always && key === page.drawn) return;
  page.drawn = key;
  const back = h("a", {
    href: "/", class: "small", testid: "contest-back",
    onclick: (e) => { if (app.state.welcomed) { e.preventDefault(); app.toLobby(); } },
  }, t("← Lobby"));
  if (page.missing) {
    replace(page.root, back, h("section", { class: "card", testid: "contest-missing" },
      h("h2", { text: t("No contest") }), h("p", { text: page.missing })));
    return;
  }
  const s = page.snapshot;
  if (!s) { replace(page.root, back, h("p", { class: "muted", text: t("Loading…") })); return; }
  document.title = `${s.title} · gamehall`;
  replace(page.root,
    back,
    header(app, s),
    section("contest-standings", t("Standings"), standingsTable(s)),
    s.crosstable && Object.keys(s.crosstable).length ? section("contest-crosstable", t("Crosstable"), crosstable(s)) : null,
    ratingChart(s),
    section("contest-games", t("Games"), gamesTable(app, s)));
}

function section(testid, title, body) {
  return h("section", { class: "card", testid }, h("h3", { text: title }), h("div", { class: "table-scroll" }, body));
}

// ------------------------------------------------------------------------------ header

function header(app, s) {
  const played = Number(s.played) || 0;
  const total = Math.max(Number(s.total) || 0, played);
  const failures = Number(s.failures) || 0;
  return h("section", { class: "card contest-head", testid: "contest-head", dataset: { state: s.state } },
    h("div", { class: "row spread" },
      h("h2", { testid: "contest-title", text: s.title }),
      h("span", { class: `status status-${s.state}`, testid: "contest-state", text: stateText(s) })),
    h("p", { class: "muted", testid: "contest-facts" },
      [s.game_title || s.game, formatText(s.format), t("organised by {name}", { name: s.organiser })].filter(Boolean).join(" · ")),
    h("progress", { max: String(total || 1), value: String(played), testid: "contest-progress", "aria-label": t("Games played") }),
    h("p", { testid: "contest-progress-text" },
      t("{played} of {total} games played", { played, total }),
      failures ? h("span", { class: "contest-failures", testid: "contest-failures", text: ` · ${t.n(failures, "{n} failure", "{n} failures")}` }) : null),
    stopControl(app, s));
}

function stateText(s) {
  if (s.state === "running" && s.stop_requested) return t("Stopping…");
  return t({ running: "Running", finished: "Finished", stopped: "Stopped" }[s.state] || String(s.state));
}

function formatText(format) {
  if (!format) return null;
  return t({ "round-robin": "Round robin", swiss: "Swiss system", knockout: "Knockout" }[format] || String(format));
}

function isOrganiser(app) {
  const s = page.snapshot;
  return Boolean(s && app.state.welcomed && app.state.token && typeof s.organiser === "string"
    && s.organiser.toLowerCase() === String(app.state.name).toLowerCase());
}

/** Stop, for the organiser of a running contest; "stopping" once asked. */
function stopControl(app, s) {
  if (!isOrganiser(app) || s.state !== "running") return null;
  if (s.stop_requested) return h("p", { class: "muted", testid: "contest-stopping", text: t("The contest stops after the games that are running.") });
  return h("button", { type: "button", class: "danger", testid: "contest-stop", onclick: () => stop(app, s) }, t("Stop the contest"));
}

async function stop(app, s) {
  if (!window.confirm(t("Stop {title}? The games that are running are played to their end; no new game starts.", { title: s.title }))) return;
  try {
    const response = await fetch(`/api/contests/${encodeURIComponent(s.id)}/stop`, {
      method: "POST", headers: { Authorization: `Bearer ${app.state.token}` },
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) { app.showError(body.reason ? body : { reason: `HTTP ${response.status}` }); return; }
    if (page.snapshot && page.snapshot.id === s.id) page.snapshot = { ...page.snapshot, stop_requested: true };
    draw(app, false);
  } catch (err) {
    app.showError({ reason: String(err) });
  }
}

// ------------------------------------------------------------------------------ standings

const REASONS = {
  left: "left",
  disconnected: "disconnected",
  timeout: "hard timeout",
  soft_timeout: "soft timeout",
  rule_violation: "rule violation",
  process_violation: "process violation",
};

/** A standings row's typed losses, {reason: count}: its "forfeits" (the runner's), else a
 * "losses" object. */
function lossesOf(row) {
  for (const losses of [row.forfeits, row.losses]) {
    if (losses && typeof losses === "object" && !Array.isArray(losses)) return losses;
  }
  return {};
}

/** A rating figure, flat in the row (`mu`) or under `rating`. */
function ratingOf(row, key) {
  const value = row.rating && typeof row.rating === "object" ? row.rating[key] : row[key];
  return typeof value === "number" ? value : null;
}

function standingsTable(s) {
  const rows = Array.isArray(s.standings) ? s.standings : [];
  if (rows.length === 0) return h("p", { class: "muted", text: t("No game has finished yet.") });
  const order = Object.keys(REASONS);
  // a column per loss reason that occurred, and for late moves (soft timeouts) if any
  const reasons = [...new Set(rows.flatMap((row) => Object.entries(lossesOf(row)).filter(([, n]) => Number(n) > 0).map(([r]) => r)))]
    .sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  const late = rows.some((row) => Number(row.soft_timeouts) > 0);
  const record = rows.some((row) => typeof row.wins === "number");
  const headings = [["#", ""], [t("Name"), ""], [t("Grade"), ""], [t("Games"), "num"], [t("Points"), "num"],
    record ? [t("W-D-L"), "num"] : null,
    ...reasons.map((r) => [t(REASONS[r] || r.replaceAll("_", " ")), "num"]),
    late ? [t("late moves"), "num"] : null,
    ["μ", "num"], ["σ", "num"], [t("Ordinal"), "num"]].filter(Boolean);
  return h("table", { class: "contest-table", testid: "standings" },
    h("thead", {}, h("tr", {}, headings.map(([text, cls]) => h("th", { scope: "col", class: cls, text })))),
    h("tbody", {}, rows.map((row, i) => h("tr", { testid: "standings-row", dataset: { name: row.name } },
      h("td", { text: String(row.place ?? row.rank ?? i + 1) }),
      h("th", { scope: "row", text: row.name }),
      h("td", { text: row.grade == null ? "–" : String(row.grade) }),
      h("td", { class: "num", text: String(row.games ?? 0) }),
      h("td", { class: "num", testid: "standings-points", text: number(row.points) }),
      record ? h("td", { class: "num", text: `${row.wins ?? 0}-${row.draws ?? 0}-${typeof row.losses === "number" ? row.losses : 0}` }) : null,
      reasons.map((r) => {
        const count = Number(lossesOf(row)[r]) || 0;
        return h("td", { class: count ? "num loss" : "num", dataset: { reason: r }, text: String(count) });
      }),
      late ? h("td", { class: "num", dataset: { reason: "late" }, text: String(row.soft_timeouts || 0) }) : null,
      h("td", { class: "num", text: fixed(ratingOf(row, "mu")) }),
      h("td", { class: "num", text: fixed(ratingOf(row, "sigma")) }),
      h("td", { class: "num", testid: "standings-ordinal", text: fixed(ratingOf(row, "ordinal")) })))));
}

function number(value) {
  return typeof value === "number" ? String(Math.round(value * 100) / 100) : value == null ? "–" : String(value);
}

function fixed(value) {
  return value === null ? "–" : value.toFixed(2);
}

/** Entrant against entrant: `crosstable[row][column]` (points, a score text, or {points}). */
function crosstable(s) {
  const table = s.crosstable;
  const names = [...new Set([...(s.standings || []).map((row) => row.name), ...Object.keys(table)])];
  const cell = (a, b) => {
    if (a === b) return "×";
    const value = (table[a] || {})[b];
    if (value && typeof value === "object") return number(value.points ?? value.score);
    return value === undefined ? "" : number(value);
  };
  return h("table", { class: "contest-table crosstable", testid: "crosstable" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }), names.map((name) => h("th", { scope: "col", class: "num", text: name })))),
    h("tbody", {}, names.map((a) => h("tr", {},
      h("th", { scope: "row", text: a }),
      names.map((b) => h("td", { class: a === b ? "num self" : "num", text: cell(a, b) }))))));
}

/** Each entrant's ordinal after each of its games: {entrant: [[games played, ordinal], ...]}. */
function ratingChart(s) {
  const ratings = s.ratings && typeof s.ratings === "object" ? s.ratings : {};
  const names = Object.keys(ratings).filter((name) => Array.isArray(ratings[name]) && ratings[name].length);
  if (names.length === 0) return null;
  const xs = names.flatMap((name) => ratings[name].map((point) => Number(point[0]))).filter((x) => Number.isInteger(x) && x >= 0);
  if (xs.length === 0) return null;
  const first = Math.min(...xs);
  const most = Math.max(...xs);
  const labels = Array.from({ length: most - first + 1 }, (_, i) => String(first + i));
  const lines = names.map((name) => {
    const values = labels.map(() => null);
    for (const [games, ordinal] of ratings[name]) {
      if (Number.isInteger(games) && games >= first && games <= most && typeof ordinal === "number") values[games - first] = ordinal;
    }
    return { name, values };
  });
  const title = t("Rating (ordinal) after each game");
  return h("section", { class: "card", testid: "rating-chart" },
    h("h3", { text: title }),
    scoreChart({ labels, lines, title, xLabel: t("games played") }));
}

// ------------------------------------------------------------------------------ games

function gamesTable(app, s) {
  const open = new Map((Array.isArray(s.rooms_playing) ? s.rooms_playing : []).map((r) => [r.number, r.room_id]));
  // a game whose room is open is being played, whatever the last snapshot said (the runner
  // publishes after each game's end, and names its room only then)
  const games = (Array.isArray(s.games) ? s.games : []).map((game) => (open.has(game.number) && !isOver(game.state)
    ? { ...game, state: "playing", room_id: game.room_id || open.get(game.number) } : game));
  if (games.length === 0) return h("p", { class: "muted", text: t("No game has started yet.") });
  return h("table", { class: "contest-table", testid: "contest-games-table" },
    h("thead", {}, h("tr", {}, ["#", t("Seats"), t("State"), t("Result"), ""].map((text) => h("th", { scope: "col", text })))),
    h("tbody", {}, games.map((game) => h("tr", { testid: "contest-game", dataset: { number: String(game.number), room: game.room_id || "" } },
      h("td", { text: String(game.number) }),
      h("td", { text: Array.isArray(game.seats) ? game.seats.join(", ") : "" }),
      h("td", {}, h("span", { class: `status status-${gameStatus(game.state)}`, text: gameStateText(game.state) })),
      h("td", { class: "fine", text: resultText(game.result) }),
      h("td", { class: "actions" }, gameLink(app, game))))));
}

function isOver(state) {
  return state === "finished" || state === "failed";
}

function gameStatus(state) {
  return { pending: "waiting", scheduled: "waiting", running: "playing" }[state] || state;
}

function gameStateText(state) {
  const words = { pending: "Scheduled", scheduled: "Scheduled", playing: "Playing", running: "Playing", finished: "Finished", failed: "Failed" };
  return t(words[state] || String(state));
}

/** A finished game's replay, or a running game's table to watch. */
function gameLink(app, game) {
  if (!game.room_id) return null;
  const id = encodeURIComponent(game.room_id);
  if (game.state === "playing" || game.state === "running") {
    return h("a", {
      href: `/room/${id}`, testid: "contest-watch", text: t("Watch"),
      onclick: (e) => { // logged in: watch at once; else the room's page offers to (after a name)
        if (!app.state.welcomed) return;
        e.preventDefault();
        app.run({ t: "spectate", room: game.room_id });
      },
    });
  }
  if (!isOver(game.state)) return null;
  return h("a", { href: `/replay/${id}`, testid: "contest-replay", text: t("Replay") });
}

/** A game's result in one line: the seats best first with their scores and typed forfeits
 * (the runner's GameReport seats), else the fields as they come. */
function resultText(result) {
  if (result === null || result === undefined) return "";
  if (typeof result !== "object") return String(result);
  if (Array.isArray(result.seats)) {
    const seats = [...result.seats].sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99));
    const line = seats.map((seat) => {
      const reason = seat.end && seat.end.reason;
      const name = seat.entrant || seat.login || "?";
      return `${name} ${number(seat.score)}${reason ? ` (${t(REASONS[reason] || reason)})` : ""}`;
    }).join(", ");
    const termination = result.termination && result.termination !== "normal" && result.termination !== "forfeit"
      ? ` · ${terminationText(result.termination)}` : "";
    return line + termination;
  }
  return Object.entries(result)
    .filter(([, value]) => value === null || typeof value !== "object")
    .map(([key, value]) => `${key.replaceAll("_", " ")}: ${value}`).join(", ");
}

// ------------------------------------------------------------------------------ lobby

/** The lobby's contests card (hidden while there are none). */
export function lobbyContests(app) {
  const contests = app.state.contests || [];
  const list = h("ul", { class: "contest-list", testid: "lobby-contests" }, contests.map((c) => {
    return h("li", { testid: "lobby-contest", dataset: { contest: c.id, state: c.state } },
      h("a", {
        href: `/contest/${encodeURIComponent(c.id)}`, testid: "contest-link", text: c.title,
        onclick: (e) => { e.preventDefault(); app.openContest(c.id); },
      }),
      h("span", { class: "muted", text: ` ${c.game_title || c.game} · ` }),
      h("span", { text: t("{played} of {total} games played", { played: c.played ?? 0, total: c.total ?? 0 }) }),
      h("span", { class: `status status-${c.state}`, text: stateText(c) }));
  }));
  return h("section", { class: "card contests-card", "aria-labelledby": "contests-heading", testid: "contests-card", hidden: contests.length === 0 },
    h("h2", { id: "contests-heading", text: t("Contests") }), list);
}

addTranslations("de", {
  "No contest": "Kein Turnier",
  Standings: "Tabelle",
  Crosstable: "Kreuztabelle",
  Games: "Partien",
  "organised by {name}": "veranstaltet von {name}",
  "Games played": "Gespielte Partien",
  "{played} of {total} games played": "{played} von {total} Partien gespielt",
  "{n} failure": "{n} Ausfall",
  "{n} failures": "{n} Ausfälle",
  "Stopping…": "Wird beendet…",
  Running: "Läuft",
  Stopped: "Abgebrochen",
  "Round robin": "Jeder gegen jeden",
  "Swiss system": "Schweizer System",
  Knockout: "K.-o.-System",
  "The contest stops after the games that are running.": "Das Turnier endet nach den laufenden Partien.",
  "Stop the contest": "Turnier beenden",
  "Stop {title}? The games that are running are played to their end; no new game starts.":
    "{title} beenden? Die laufenden Partien werden zu Ende gespielt; keine neue beginnt.",
  left: "verlassen",
  disconnected: "Verbindung verloren",
  "hard timeout": "Zeit überschritten",
  "soft timeout": "zu langsam",
  "rule violation": "Regelverstoß",
  "process violation": "Prozess-Verstoß",
  "late moves": "verspätete Züge",
  "W-D-L": "S-U-N",
  "No game has finished yet.": "Noch keine Partie ist beendet.",
  Name: "Name",
  Grade: "Stufe",
  Points: "Punkte",
  Ordinal: "Ordinalwert",
  "Rating (ordinal) after each game": "Wertung (Ordinalwert) nach jeder Partie",
  "games played": "gespielte Partien",
  "No game has started yet.": "Noch keine Partie hat begonnen.",
  State: "Stand",
  Scheduled: "Geplant",
  Failed: "Fehlgeschlagen",
  Contests: "Turniere",
}, "contest");

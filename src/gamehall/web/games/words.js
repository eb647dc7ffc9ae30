// The word games at the browser table: duplicate (everyone plays the same rack; the master move
// goes on the board), scrabble (turns, exchange, pass) and Boggle (words traced on a 4x4 grid).
//
// Renders the engine's view (rules/words: words_table.py view plus each mode's part); sends
// Moves, ChangeLetters and StartTurn. The board and rack are in words-board.js, the Boggle grid
// in words-boggle.js, the styles in words-style.js.

import { h, countdown } from "../ui.js";
import { boardArea } from "./words-board.js";
import { boggleArea, boggleResults } from "./words-boggle.js";
import { STYLE } from "./words-style.js";
import { gameOverPanel } from "./summary.js";
import { wordsModeTitle } from "../labels.js";
import { addTranslations, scoped } from "../i18n.js";

const t = scoped("words");

export const id = "words";

/** This renderer shows the turn timer itself (the room frame then shows none). */
export const showsTimers = true;

const PLAYING = new Set(["open", "grace"]);
const END_REASONS = {
  bag: "the bag is empty",
  nomove: "the rack has no move left",
  rounds: "every round is played",
  out: "a player used all their tiles",
  passes: "too many turns in a row without a score",
  abandoned: "everyone left",
};

export function render(ctx) {
  installStyle();
  const v = ctx.view;
  const me = v.players.find((p) => p.seat === ctx.seat && p.seated) || null;
  const playing = me !== null && !ctx.ended && PLAYING.has(v.phase);
  let play;
  let rack = null;
  if (v.mode === "boggle") {
    play = boggleArea(ctx, playing);
  } else {
    const canPlay = playing && (v.mode === "duplicate" || v.current === ctx.seat);
    ({ board: play, rack } = boardArea(ctx, { canPlay, scrabble: v.mode === "scrabble" }));
  }
  return h("div", { class: "words", dataset: { mode: v.mode, phase: v.phase } },
    statusLine(ctx, v, me),
    gameOver(ctx, v),
    h("div", { class: "wd-grid" },
      h("div", { class: "wd-play" }, v.state === "waiting" ? waitingNote(v) : play, v.mode === "boggle" ? startRound(ctx, v) : null),
      h("div", { class: "wd-side" },
        v.state === "waiting" ? null : rack,
        scores(ctx, v),
        v.mode === "boggle" ? boggleResults(ctx) : lastTurn(ctx, v),
        v.mode === "duplicate" ? topsHistory(v) : null)));
}

function installStyle() {
  if (document.getElementById("wd-style")) return;
  document.head.appendChild(h("style", { id: "wd-style", text: STYLE }));
}

// ------------------------------------------------------------------------------ status

function nameOf(v, seat) {
  const p = v.players.find((x) => x.seat === seat);
  return p ? p.name : `Seat ${seat}`;
}

function statusText(ctx, v, me) {
  const turn = v.mode === "boggle" ? t("Round {n} of {of}", { n: v.turn, of: v.rounds }) : t("Turn {n}", { n: v.turn });
  switch (v.phase) {
    case "waiting": return t("{mode}: waiting for the operator to start.", { mode: wordsModeTitle(v.mode, v.letters) });
    case "over": return t("Game over.");
    case "pause": return t("{turn} is over. The next turn starts in a moment.", { turn });
    case "wait_start":
      return v.operator === ctx.seat
        ? t("{turn} is over. Start the next round when everyone is ready.", { turn })
        : t("{turn} is over. Waiting for {name} to start the next round.", { turn, name: nameOf(v, v.operator) });
    default: break;
  }
  const grace = v.phase === "grace" ? `${t("Time is up: send your move now.")} ` : "";
  if (!me) return `${turn}. ${grace}${t("You are watching.")}`;
  if (v.mode === "duplicate") {
    return (v.submitted || []).includes(ctx.seat)
      ? `${turn}: ${grace}${t("your move is in. You may replace it until the time is up.")}`
      : `${turn}: ${grace}${t("place the best word you can find with the rack.")}`;
  }
  if (v.mode === "scrabble") {
    return v.current === ctx.seat
      ? `${turn}: ${grace}${t("your turn. Place a word, exchange or pass.")}`
      : `${turn}: ${t("{name} is playing.", { name: nameOf(v, v.current) })}`;
  }
  return `${turn}: ${grace}${t("find words of 3 letters or more on the grid.")}`;
}

function statusLine(ctx, v, me) {
  const timer = ctx.timers.length && !ctx.ended ? ctx.timers[0] : null;
  const kind = timer ? timer.key.split(":")[0] : "";
  const label = t({ turn: "time left", grace: "last seconds", pause: "next turn in" }[kind] || "time");
  const mine = me && PLAYING.has(v.phase) && (v.mode !== "scrabble" || v.current === ctx.seat)
    && !(v.mode === "duplicate" && (v.submitted || []).includes(ctx.seat));
  return h("p", { class: mine ? "wd-status mine" : "wd-status", role: "status", testid: "words-status" },
    h("span", { text: statusText(ctx, v, me) }),
    timer ? h("span", { class: "wd-timer" }, ` · ${label} `, countdown(timer.deadline, { testid: "words-timer" })) : null);
}

function waitingNote(v) {
  const seated = v.players.filter((p) => p.seated).length;
  return h("div", { class: "wd-panel", testid: "words-waiting" },
    h("p", { text: `${seated} player${seated === 1 ? "" : "s"} seated (up to ${v.max_players}). ${v.time_per_turn} seconds a turn.` }),
    h("p", { class: "muted", text: v.mode === "duplicate"
      ? "Duplicate: everyone gets the same rack; each scores their own move, and the best move (the master move) goes on the board."
      : v.mode === "scrabble" ? "Scrabble: take turns; a move scores for its player, and tiles are drawn back up to seven."
        : `Boggle: ${v.rounds} rounds; trace words through touching cells. A word two players find scores for neither.` }));
}

function gameOver(ctx, v) {
  if (v.phase !== "over") return null;
  const ranking = [...v.players].sort((a, b) => b.total - a.total || a.seat - b.seat);
  const top = ranking.length ? ranking[0] : null;
  const why = END_REASONS[v.end_reason] || v.end_reason || "";
  const history = v.history || [];
  const chart = history.length ? {
    labels: history.map((row, i) => (i > 0 && history[i - 1].turn === row.turn ? t("end") : String(row.turn))),
    lines: v.players.map((p) => ({ name: p.name, values: history.map((row) => { const hit = row.totals.find((x) => x[0] === p.seat); return hit ? hit[1] : null; }) })),
    xLabel: v.mode === "boggle" ? "round" : "turn",
  } : null;
  return h("div", { testid: "game-over" },
    gameOverPanel({
      headline: top ? `${top.name} wins with ${top.total} points.` : "Game over.",
      reason: why ? `${wordsModeTitle(v.mode, v.letters)} · the game ended: ${why}.` : wordsModeTitle(v.mode, v.letters),
      standings: ranking.map((p) => ({ name: p.name, score: p.total, me: p.seat === ctx.seat })),
      details: v.mode === "duplicate" ? [h("p", { class: "muted", testid: "summary-master", text: `Master total: ${v.toptotal} (the best possible score, move by move).` })] : [],
      chart,
    }));
}

function startRound(ctx, v) {
  if (v.phase !== "wait_start" || v.operator !== ctx.seat || ctx.ended) return null;
  return h("div", {},
    h("button", { type: "button", class: "primary", testid: "start-turn", onclick: () => ctx.act({ type: "StartTurn" }), text: `Start round ${v.turn + 1}` }));
}

// ------------------------------------------------------------------------------ side panels

function scores(ctx, v) {
  const ranking = [...v.players].sort((a, b) => b.total - a.total || a.seat - b.seat);
  const submitted = new Set(v.submitted || []);
  const rackSizes = v.rack_sizes || {};
  return h("section", { class: "wd-panel", "aria-label": "Scores" },
    h("h3", { text: t("Scores") }),
    h("table", { class: "wd-scores", testid: "words-scores" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", text: t("Player") }),
        h("th", { scope: "col", class: "num", text: t("Last") }),
        h("th", { scope: "col", class: "num", text: t("Total") }))),
      h("tbody", {}, ranking.map((p) => h("tr", {
        class: [p.seat === ctx.seat ? "me" : "", p.seated ? "" : "gone"].join(" ").trim(),
        testid: "score-row", dataset: { seat: String(p.seat) },
      },
        h("td", {},
          p.name,
          p.seat === ctx.seat ? h("span", { class: "muted", text: " (you)" }) : null,
          p.seat === v.operator ? h("span", { class: "badge", title: "Starts the game and the Boggle rounds", text: "operator" }) : null,
          v.mode === "scrabble" && p.seat === v.current && PLAYING.has(v.phase) ? h("span", { class: "badge", text: "to play" }) : null,
          v.mode === "duplicate" && PLAYING.has(v.phase) && submitted.has(p.seat) ? h("span", { class: "done", "aria-label": "has played", title: "has played", text: " ✓" }) : null,
          v.mode === "scrabble" && rackSizes[String(p.seat)] !== undefined ? h("span", { class: "muted", text: ` · ${rackSizes[String(p.seat)]} tiles` }) : null,
          !p.present && p.seated ? h("span", { class: "muted", text: " away" }) : null),
        h("td", { class: "num", text: String(p.last) }),
        h("td", { class: "num", testid: "score-total", text: String(p.total) }))))),
    v.mode === "duplicate" ? h("p", { class: "muted", testid: "toptotal", text: `Master total: ${v.toptotal}` }) : null);
}

const RESULT_TEXT = { ok: "", invalid: "not a word", none: "no move", pass: "pass", exchange: "exchange", timeout: "time ran out" };

function lastTurn(ctx, v) {
  const last = v.last_turn;
  if (!last) return null;
  const heading = v.mode === "duplicate" ? `Turn ${last.turn}: the master move` : `Turn ${last.turn}`;
  const played = last.word && last.word !== "-";
  return h("section", { class: "wd-panel", "aria-label": "Last turn", testid: "last-turn" },
    h("h3", { text: heading }),
    played ? h("p", { class: "wd-master", testid: "master-move" },
      h("span", { text: `${last.ref} ` }),
      h("span", { class: "word", text: last.word }),
      ` · ${last.score} point${last.score === 1 ? "" : "s"}`) : null,
    h("table", { class: "wd-results", testid: "turn-results" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", text: "Player" }),
        h("th", { scope: "col", text: "Move" }),
        h("th", { scope: "col", class: "num", text: "Score" }))),
      h("tbody", {}, last.results.map((r) => h("tr", { testid: "turn-result", dataset: { seat: String(r.seat), status: r.status } },
        h("td", { text: r.seat === ctx.seat ? `${r.name} (you)` : r.name }),
        h("td", { class: `st-${r.status}` },
          r.word && r.word !== "-" ? `${r.ref} ${r.word}` : "",
          RESULT_TEXT[r.status] ? h("span", { text: `${r.word && r.word !== "-" ? " · " : ""}${RESULT_TEXT[r.status]}` }) : null),
        h("td", { class: "num", text: String(r.score) }))))));
}

function topsHistory(v) {
  const tops = v.tops || [];
  if (!tops.length) return null;
  return h("details", { class: "wd-panel" },
    h("summary", { text: `Master moves so far (${tops.length})` }),
    h("ol", { class: "wd-tops", testid: "tops" }, tops.map((top) => h("li", { text: top }))));
}

addTranslations("de", {
  "Round {n} of {of}": "Runde {n} von {of}",
  "Turn {n}": "Zug {n}",
  "{mode}: waiting for the operator to start.": "{mode}: warten, bis der Gastgeber startet.",
  "Game over.": "Spiel vorbei.",
  "{turn} is over. The next turn starts in a moment.": "{turn} ist vorbei. Der nächste Zug beginnt gleich.",
  "{turn} is over. Start the next round when everyone is ready.": "{turn} ist vorbei. Starte die nächste Runde, wenn alle bereit sind.",
  "{turn} is over. Waiting for {name} to start the next round.": "{turn} ist vorbei. Warten, bis {name} die nächste Runde startet.",
  "Time is up: send your move now.": "Die Zeit ist um: schick jetzt deinen Zug.",
  "You are watching.": "Du schaust zu.",
  "your move is in. You may replace it until the time is up.": "dein Zug ist abgegeben. Du kannst ihn bis zum Ende der Zeit ersetzen.",
  "place the best word you can find with the rack.": "lege das beste Wort, das du mit den Steinen findest.",
  "your turn. Place a word, exchange or pass.": "du bist dran. Lege ein Wort, tausche oder passe.",
  "{name} is playing.": "{name} ist dran.",
  "find words of 3 letters or more on the grid.": "finde Wörter mit 3 oder mehr Buchstaben im Raster.",
  "time left": "Zeit",
  "last seconds": "letzte Sekunden",
  "next turn in": "nächster Zug in",
  time: "Zeit",
  Scores: "Punkte",
  Player: "Spieler",
  Last: "Letzter",
  Total: "Gesamt",
  Duplicate: "Duplicate",
  end: "Ende",
}, "words");

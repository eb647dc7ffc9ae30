// The Boggle grid of the word games (used by games/words.js): type a word (its path through the
// grid is found here, only to build the Moves action; the server judges) or click cells one by
// one along a path, then send. The words sent this round, and each round's results.

import { h } from "../ui.js";
import { addTranslations, scoped } from "../i18n.js";

const tr = scoped("words");

const drafts = new Map(); // room id -> {key, path: [[row, col]...], text, input}

/** What a cell reads: "QU" for Q (rules/words/boggle.py cell_text). */
function cellText(glyph) {
  return glyph === "Q" ? "QU" : glyph;
}

function adjacent(a, b) {
  return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1])) === 1;
}

/** A path of cells spelling `text` (a Q cell reads QU, or Q before another letter), or null. */
export function findPath(grid, text) {
  if (!text) return null;
  const rows = grid.length;
  const cols = rows ? grid[0].length : 0;
  const walk = (cell, at, path) => {
    const glyph = grid[cell[0]][cell[1]];
    const options = glyph === "Q" ? ["QU", "Q"] : [glyph];
    for (const piece of options) {
      if (!text.startsWith(piece, at)) continue;
      const next = [...path, cell];
      const end = at + piece.length;
      if (end === text.length) return next;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          const [r, c] = [cell[0] + dr, cell[1] + dc];
          if ((dr || dc) && r >= 0 && c >= 0 && r < rows && c < cols && !next.some(([pr, pc]) => pr === r && pc === c)) {
            const found = walk([r, c], end, next);
            if (found) return found;
          }
        }
      }
    }
    return null;
  };
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const found = walk([r, c], 0, []);
      if (found) return found;
    }
  }
  return null;
}

function draftFor(ctx, grid) {
  const key = `${ctx.view.turn}|${grid.join("")}`;
  let draft = drafts.get(ctx.room.id);
  if (!draft || draft.key !== key) {
    draft = { key, path: [], text: "", note: "", input: draft ? draft.input : null };
    drafts.set(ctx.room.id, draft);
  }
  return draft;
}

/**
 * The grid, the word entry, the words found this round.
 * @param canPlay the round accepts words from this seat
 */
export function boggleArea(ctx, canPlay) {
  const v = ctx.view;
  const grid = v.grid || [];
  const draft = draftFor(ctx, grid);
  const bestPath = showsResults(v) && v.last_turn ? v.last_turn.tiles.map(([r, c]) => [r, c]) : [];
  const best = new Set(bestPath.map(([r, c]) => `${r},${c}`));
  const order = new Map((canPlay ? draft.path : bestPath).map(([r, c], i) => [`${r},${c}`, i + 1]));
  const cells = [];
  grid.forEach((line, row) => [...line].forEach((glyph, col) => {
    const at = order.get(`${row},${col}`);
    const classes = ["wd-cell"];
    if (at && canPlay) classes.push("on");
    if (best.has(`${row},${col}`)) classes.push("best");
    cells.push(h("button", {
      type: "button", class: classes.join(" "), testid: "boggle-cell",
      dataset: { row: String(row), col: String(col), glyph },
      "aria-label": `${tr("{letters}, row {row} column {col}", { letters: cellText(glyph).split("").join(" "), row: row + 1, col: col + 1 })}${at ? `, ${tr("letter {n} of the word", { n: at })}` : ""}`,
      "aria-pressed": canPlay ? String(Boolean(at)) : null,
      disabled: !canPlay,
      onclick: () => { clickCell(draft, grid, [row, col]); ctx.rerender(); },
    }, at ? h("span", { class: "order", "aria-hidden": "true", text: String(at) }) : null, cellText(glyph) === "QU" ? "Qu" : glyph));
  }));
  return h("div", { class: "wd-boggle-area" },
    grid.length ? h("div", { class: "wd-boggle", role: "group", "aria-label": tr("Letter grid"), testid: "boggle-grid", dataset: { rows: grid.join(",") } }, cells) : null,
    canPlay ? wordForm(ctx, grid, draft) : null,
    foundWords(v));
}

function clickCell(draft, grid, cell) {
  const path = draft.path;
  const last = path[path.length - 1];
  const inPath = path.findIndex(([r, c]) => r === cell[0] && c === cell[1]);
  if (last && last[0] === cell[0] && last[1] === cell[1]) path.pop();
  else if (inPath < 0 && (!last || adjacent(last, cell))) path.push(cell);
  else draft.path = [cell];
  draft.text = draft.path.map(([r, c]) => cellText(grid[r][c])).join("");
  draft.note = "";
  if (draft.input) draft.input.value = draft.text;
}

function wordForm(ctx, grid, draft) {
  const hadFocus = draft.input !== null && document.activeElement === draft.input;
  if (!draft.input) {
    draft.input = h("input", {
      type: "text", "aria-label": tr("Word"), testid: "boggle-word", autocomplete: "off", spellcheck: "false",
      maxlength: 16, placeholder: tr("type a word"),
    });
  }
  const input = draft.input;
  input.value = draft.text;
  input.oninput = () => {
    draft.text = input.value.toUpperCase().replace(/[^A-Z]/g, "");
    draft.path = findPath(grid, draft.text) || [];
    draft.note = draft.text && !draft.path.length ? tr("not on the grid") : "";
    ctx.rerender();
  };
  if (hadFocus) queueMicrotask(() => { input.focus(); input.setSelectionRange(input.value.length, input.value.length); });
  const ready = draft.path.length > 0 && draft.text.length >= 3;
  return h("form", {
    class: "wd-wordform",
    onsubmit: async (e) => {
      e.preventDefault();
      if (!ready) return;
      const tiles = draft.path.map(([r, c]) => [r, c, grid[r][c]]);
      const reply = await ctx.act({ type: "Moves", tiles });
      if (reply) { draft.path = []; draft.text = ""; draft.note = ""; input.value = ""; ctx.rerender(); }
    },
  },
    input,
    h("button", { type: "submit", class: "primary", testid: "boggle-send", disabled: !ready, text: tr("Send word") }),
    h("button", { type: "button", testid: "boggle-clear", disabled: !draft.text, onclick: () => { draft.path = []; draft.text = ""; draft.note = ""; input.value = ""; ctx.rerender(); }, text: tr("Clear") }),
    h("span", { class: draft.note ? "bad" : "muted", role: "status", testid: "boggle-note", text: draft.note || (draft.text && draft.text.length < 3 ? tr("at least 3 letters") : "") }));
}

function foundWords(v) {
  const words = v.words || [];
  if (v.phase !== "open" && v.phase !== "grace") return null;
  return h("section", { class: "wd-panel", "aria-label": tr("Your words this round") },
    h("h3", { text: tr("Your words ({n})", { n: words.length }) }),
    words.length ? h("ul", { class: "wd-found", testid: "boggle-found" }, words.map((w) => h("li", { text: w })))
      : h("p", { class: "muted", testid: "boggle-found-empty", text: tr("None yet. Every word counts once; one found by two players scores for nobody.") }));
}

export function showsResults(v) {
  return v.last_turn && ["wait_start", "over", "pause"].includes(v.phase);
}

const STATUS_TEXT = { ok: "", dup: "found by another player too", notword: "not a word" };

/** The last round: the grid's best word and each player's words with their points. */
export function boggleResults(ctx) {
  const v = ctx.view;
  if (!showsResults(v)) return null;
  const names = new Map(v.players.map((p) => [String(p.seat), p.name]));
  const last = v.last_turn;
  return h("section", { class: "wd-panel", "aria-label": tr("Round results"), testid: "round-results" },
    h("h3", { text: tr("Round {n} results", { n: last.turn }) }),
    h("p", { class: "wd-master", testid: "best-word" }, `${tr("Best word on the grid:")} `,
      h("span", { class: "word", text: last.word }), ` (${tr.n(last.score, "{n} point", "{n} points")})`),
    Object.entries(v.last_words || {}).map(([seat, lines]) => h("div", { testid: "round-player", dataset: { seat } },
      h("h4", { text: `${names.get(seat) || tr("Seat {n}", { n: seat })}${Number(seat) === ctx.seat ? ` (${tr("you")})` : ""}: ${lines.reduce((s, l) => s + l.points, 0)}` }),
      lines.length ? h("ul", { class: "wd-found" }, lines.map((l) => h("li", {
        class: `st-${l.status}`, title: STATUS_TEXT[l.status] ? tr(STATUS_TEXT[l.status]) : l.status,
        "aria-label": `${l.word}, ${tr.n(l.points, "{n} point", "{n} points")}${STATUS_TEXT[l.status] ? `, ${tr(STATUS_TEXT[l.status])}` : ""}`,
        text: `${l.word} ${l.points}`,
      }))) : h("p", { class: "muted", text: tr("no words") }))));
}

addTranslations("de", {
  "{letters}, row {row} column {col}": "{letters}, Zeile {row} Spalte {col}",
  "letter {n} of the word": "Buchstabe {n} des Worts",
  "Letter grid": "Buchstabenraster",
  Word: "Wort",
  "type a word": "Wort eintippen",
  "not on the grid": "nicht im Raster",
  "Send word": "Wort schicken",
  Clear: "Löschen",
  "at least 3 letters": "mindestens 3 Buchstaben",
  "Your words this round": "Deine Wörter in dieser Runde",
  "Your words ({n})": "Deine Wörter ({n})",
  "None yet. Every word counts once; one found by two players scores for nobody.": "Noch keins. Jedes Wort zählt einmal; ein Wort, das zwei Spieler finden, zählt für keinen.",
  "Round results": "Rundenergebnis",
  "Round {n} results": "Ergebnis von Runde {n}",
  "Best word on the grid:": "Bestes Wort im Raster:",
  "{n} point": "{n} Punkt",
  "{n} points": "{n} Punkte",
  "Seat {n}": "Platz {n}",
  you: "du",
  "found by another player too": "auch von einem anderen Spieler gefunden",
  "not a word": "kein Wort",
  "no words": "keine Wörter",
}, "words");

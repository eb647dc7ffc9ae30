// The 15x15 board and the rack of duplicate and scrabble (used by games/words.js).
//
// Placing tiles, three ways: drag a rack tile onto a square; click a rack tile then a square;
// or click a square (again to turn the arrow down) and type letters, which come from the rack
// (a letter the rack lacks takes the blank) while the cursor skips filled squares. Backspace
// takes back the last tile, Escape clears, Enter sends. A blank placed by hand asks its letter.
// The server is the referee: the client only gathers the tiles of a Moves action.

import { h } from "../ui.js";
import { addTranslations, scoped } from "../i18n.js";

const tr = scoped("words");

/** The standard board's premium squares (the engine's board.STANDARD): T/D word, t/d letter. */
const PREMIUMS = [
  "T..d...T...d..T",
  ".D...t...t...D.",
  "..D...d.d...D..",
  "d..D...d...D..d",
  "....D.....D....",
  ".t...t...t...t.",
  "..d...d.d...d..",
  "T..d...D...d..T",
  "..d...d.d...d..",
  ".t...t...t...t.",
  "....D.....D....",
  "d..D...d...D..d",
  "..D...d.d...D..",
  ".D...t...t...D.",
  "T..d...T...d..T",
];
const START = [7, 7];
const SIZE = 15;
const PREMIUM_NAMES = { T: "triple word", D: "double word", t: "triple letter", d: "double letter" };
const PREMIUM_SHORT = { T: "TW", D: "DW", t: "TL", d: "DL" };
const ROW_NAMES = "ABCDEFGHIJKLMNO";

/** Tile values of the two letter sets (rules/words/letters.py). */
const VALUES = {
  EN: { A: 1, B: 3, C: 3, D: 2, E: 1, F: 4, G: 2, H: 4, I: 1, J: 8, K: 5, L: 1, M: 3, N: 1, O: 1, P: 3, Q: 10, R: 1, S: 1, T: 1, U: 1, V: 4, W: 4, X: 8, Y: 4, Z: 10 },
  FR: { A: 1, B: 3, C: 3, D: 2, E: 1, F: 4, G: 2, H: 4, I: 1, J: 8, K: 10, L: 1, M: 2, N: 1, O: 1, P: 3, Q: 8, R: 1, S: 1, T: 1, U: 1, V: 4, W: 10, X: 10, Y: 10, Z: 10 },
};

export function squareName(row, col) {
  return `${ROW_NAMES[row]}${col + 1}`;
}

/** The engine's move reference: "H4" across (row letter first), "4H" down. */
function moveRef(row, col, down) {
  return down ? `${col + 1}${ROW_NAMES[row]}` : `${ROW_NAMES[row]}${col + 1}`;
}

export function tileValue(letters, glyph) {
  if (glyph === "?" || glyph !== glyph.toUpperCase()) return 0;
  return (VALUES[letters] || VALUES.EN)[glyph] || 0;
}

// ------------------------------------------------------------------------------ the draft

const drafts = new Map(); // room id -> draft (see draftFor)
let active = null; // {ctx, draft, board, rack, canPlay, send} of the board on screen, for the keys
let keysInstalled = false;

/** The tiles being placed in a room; a new turn, board or rack starts a fresh one. */
function draftFor(ctx, board, rack) {
  const key = `${ctx.view.turn}|${board.join("")}|${rack.join("")}`;
  let draft = drafts.get(ctx.room.id);
  if (!draft || draft.key !== key) {
    draft = { key, tiles: [], cursor: null, picked: null, exchange: null, sent: null };
    drafts.set(ctx.room.id, draft);
  }
  return draft;
}

function draftAt(draft, row, col) {
  return draft.tiles.find((t) => t.row === row && t.col === col) || null;
}

function usedIndexes(draft) {
  return new Set(draft.tiles.map((t) => t.index));
}

function filled(board, draft, row, col) {
  return board[row][col] !== "." || draftAt(draft, row, col) !== null;
}

function place(draft, index, rack, row, col, letter = null) {
  const tile = rack[index];
  const glyph = tile === "?" ? (letter ? letter.toLowerCase() : "?") : tile;
  draft.tiles.push({ row, col, glyph, index });
  draft.picked = null;
  draft.sent = null;
}

/** The cursor moves on past filled squares; it stops at the edge. */
function advance(board, draft) {
  const c = draft.cursor;
  if (!c) return;
  let [row, col] = [c.row, c.col];
  do {
    if (c.down) row += 1; else col += 1;
  } while (row < SIZE && col < SIZE && filled(board, draft, row, col));
  draft.cursor = row < SIZE && col < SIZE ? { row, col, down: c.down } : null;
}

/** The main word the draft spells with the board (a preview; the server judges). */
function preview(board, draft) {
  const tiles = draft.tiles;
  if (!tiles.length || tiles.some((t) => t.glyph === "?")) return null;
  const rows = new Set(tiles.map((t) => t.row));
  const cols = new Set(tiles.map((t) => t.col));
  const letterAt = (row, col) => {
    if (row < 0 || col < 0 || row >= SIZE || col >= SIZE) return null;
    const d = draftAt(draft, row, col);
    if (d) return d.glyph;
    return board[row][col] !== "." ? board[row][col] : null;
  };
  const spell = (down) => {
    const [dr, dc] = down ? [1, 0] : [0, 1];
    let [row, col] = [tiles[0].row, tiles[0].col];
    while (letterAt(row - dr, col - dc)) { row -= dr; col -= dc; }
    const start = [row, col];
    let word = "";
    while (letterAt(row, col)) { word += letterAt(row, col); row += dr; col += dc; }
    const covered = tiles.every((t) => (down ? t.col === start[1] && t.row >= start[0] && t.row < start[0] + word.length
      : t.row === start[0] && t.col >= start[1] && t.col < start[1] + word.length));
    return covered ? { ref: moveRef(start[0], start[1], down), word } : null;
  };
  if (rows.size === 1 && cols.size === 1) {
    const across = spell(false);
    return across && across.word.length > 1 ? across : spell(true);
  }
  if (rows.size === 1) return spell(false);
  if (cols.size === 1) return spell(true);
  return null;
}

// ------------------------------------------------------------------------------ keys

function installKeys() {
  if (keysInstalled) return;
  keysInstalled = true;
  document.addEventListener("keydown", (e) => {
    if (!active || !document.body.contains(document.querySelector(".wd-board"))) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target;
    if (target instanceof HTMLElement && target.closest("input, textarea, select, [contenteditable]")) return;
    if (onKey(active, e.key)) e.preventDefault();
  });
}

function onKey(a, key) {
  const { draft, board, rack, canPlay } = a;
  if (!canPlay) return false;
  if (key === "Escape") { clear(draft); a.ctx.rerender(); return true; }
  if (key === "Enter") { if (draft.tiles.length) a.send(); return draft.tiles.length > 0; }
  if (key === "Backspace") {
    const last = draft.tiles.pop();
    if (!last) return false;
    draft.cursor = { row: last.row, col: last.col, down: draft.cursor ? draft.cursor.down : false };
    draft.sent = null;
    a.ctx.rerender();
    return true;
  }
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (arrows[key]) {
    const c = draft.cursor || { row: START[0], col: START[1], down: false };
    const [dr, dc] = arrows[key];
    draft.cursor = { row: Math.min(SIZE - 1, Math.max(0, c.row + dr)), col: Math.min(SIZE - 1, Math.max(0, c.col + dc)), down: dr !== 0 };
    a.ctx.rerender();
    return true;
  }
  if (!/^[a-zA-Z]$/.test(key) || !draft.cursor) return false;
  const letter = key.toUpperCase();
  const used = usedIndexes(draft);
  let index = rack.findIndex((t, i) => t === letter && !used.has(i));
  if (index < 0) index = rack.findIndex((t, i) => t === "?" && !used.has(i));
  const { row, col } = draft.cursor;
  if (index < 0 || filled(board, draft, row, col)) return true;
  place(draft, index, rack, row, col, letter);
  advance(board, draft);
  a.ctx.rerender();
  return true;
}

function clear(draft) {
  draft.tiles = [];
  draft.picked = null;
  draft.sent = null;
}

// ------------------------------------------------------------------------------ rendering

/**
 * The board and the rack panel (rack, the blank's letter chooser, move controls), to place
 * apart: {board, rack}.
 * @param ctx the renderer context
 * @param opts {canPlay: may place tiles now, scrabble: exchange/pass offered}
 */
export function boardArea(ctx, { canPlay, scrabble }) {
  installKeys();
  const v = ctx.view;
  const board = v.board;
  const rack = v.rack || [];
  const draft = draftFor(ctx, board, rack);
  if (!canPlay) { draft.cursor = null; draft.picked = null; draft.exchange = null; }
  const send = async () => {
    if (!draft.tiles.length || draft.tiles.some((t) => t.glyph === "?")) return;
    const tiles = draft.tiles.map((t) => [t.row, t.col, t.glyph]);
    const shown = preview(board, draft);
    const reply = await ctx.act({ type: "Moves", tiles });
    if (reply) { draft.sent = shown ? `${shown.ref} ${shown.word}` : "your move"; draft.cursor = null; ctx.rerender(); }
  };
  active = { ctx, draft, board, rack, canPlay, send };
  return {
    board: h("div", { class: "wd-boardwrap" }, boardGrid(ctx, v, board, rack, draft, canPlay)),
    rack: rack.length ? h("section", { class: "wd-panel wd-rackpanel", "aria-label": "Your rack" },
      h("h3", { text: v.mode === "duplicate" ? tr("The rack (everyone plays it)") : tr("Your rack") }),
      rackRow(ctx, v, rack, draft, canPlay),
      blankChooser(ctx, draft),
      controls(ctx, v, board, rack, draft, canPlay, scrabble, send)) : null,
  };
}

function boardGrid(ctx, v, board, rack, draft, canPlay) {
  const recent = new Set(((v.last_turn && v.last_turn.tiles) || []).map(([r, c]) => `${r},${c}`));
  const ghost = !draft.tiles.length && Array.isArray(v.submission) ? v.submission : [];
  const ghostAt = new Map(ghost.map(([r, c, g]) => [`${r},${c}`, g]));
  const squares = [];
  for (let row = 0; row < SIZE; row++) {
    for (let col = 0; col < SIZE; col++) {
      squares.push(square(ctx, v, board, rack, draft, canPlay, row, col, recent, ghostAt));
    }
  }
  const grid = h("div", { class: "wd-board", role: "group", "aria-label": "Board, 15 by 15; rows A to O, columns 1 to 15", testid: "words-board" }, squares);
  // Keyboard users keep their place: the squares are rebuilt on each change, so focus follows
  // the cursor square into the new board.
  const focused = document.activeElement;
  if (focused instanceof HTMLElement && focused.closest(".wd-board")) {
    queueMicrotask(() => (grid.querySelector('.wd-sq[tabindex="0"]') || grid.firstChild).focus());
  }
  return grid;
}

function square(ctx, v, board, rack, draft, canPlay, row, col, recent, ghostAt) {
  const name = squareName(row, col);
  const premium = PREMIUMS[row][col];
  const onBoard = board[row][col] !== "." ? board[row][col] : null;
  const mine = draftAt(draft, row, col);
  const ghost = ghostAt.get(`${row},${col}`);
  const glyph = onBoard || (mine && mine.glyph) || ghost || null;
  const isCursor = canPlay && draft.cursor && draft.cursor.row === row && draft.cursor.col === col;
  const classes = ["wd-sq"];
  if (glyph) classes.push("tile");
  else if (premium !== ".") classes.push(`p-${premium}`);
  if (!glyph && row === START[0] && col === START[1]) classes.push("start");
  if (mine) classes.push("draft");
  else if (ghost && !onBoard) classes.push("submitted");
  if (onBoard && recent.has(`${row},${col}`)) classes.push("recent");
  if (glyph && glyph !== glyph.toUpperCase()) classes.push("wd-blanktile");
  if (isCursor) classes.push("cursor");
  const described = glyph
    ? `${name}, ${glyph === "?" ? "blank" : glyph.toUpperCase()}${glyph !== glyph.toUpperCase() ? " (blank)" : ""}${mine ? ", your tile: click to take it back" : ""}`
    : `${name}, ${premium !== "." ? PREMIUM_NAMES[premium] : "empty"}${isCursor ? `, typing ${draft.cursor.down ? "down" : "across"}` : ""}`;
  const click = () => {
    if (!canPlay || onBoard) return;
    if (mine) {
      draft.tiles = draft.tiles.filter((t) => t !== mine);
      draft.cursor = { row, col, down: draft.cursor ? draft.cursor.down : false };
      draft.sent = null;
    } else if (draft.picked !== null) {
      place(draft, draft.picked, rack, row, col);
    } else if (draft.cursor && draft.cursor.row === row && draft.cursor.col === col) {
      draft.cursor = { row, col, down: !draft.cursor.down };
    } else {
      draft.cursor = { row, col, down: false };
    }
    ctx.rerender();
  };
  const droppable = canPlay && !glyph;
  return h("button", {
    type: "button",
    class: classes.join(" "),
    testid: "square",
    dataset: { row: String(row), col: String(col), glyph: glyph || "" },
    "aria-label": described,
    tabindex: isCursor || (!isCursorShown(draft, canPlay) && row === 0 && col === 0) ? "0" : "-1",
    onclick: click,
    ondragover: droppable ? (e) => { e.preventDefault(); e.currentTarget.classList.add("dragover"); } : null,
    ondragleave: droppable ? (e) => e.currentTarget.classList.remove("dragover") : null,
    ondrop: droppable ? (e) => {
      e.preventDefault();
      const index = Number(e.dataTransfer.getData("text/plain"));
      if (Number.isInteger(index) && index >= 0 && index < rack.length && !usedIndexes(draft).has(index)) {
        place(draft, index, rack, row, col);
        ctx.rerender();
      }
    } : null,
  },
    glyph ? [glyph === "?" ? "?" : glyph.toUpperCase(), h("sub", { text: String(tileValue(v.letters, glyph)) })]
      : premium !== "." && !(row === START[0] && col === START[1]) ? PREMIUM_SHORT[premium] : null,
    isCursor ? h("span", { class: "arrow", "aria-hidden": "true", text: draft.cursor.down ? "↓" : "→" }) : null);
}

function isCursorShown(draft, canPlay) {
  return Boolean(canPlay && draft.cursor);
}

function blankChooser(ctx, draft) {
  const pending = draft.tiles.find((t) => t.glyph === "?");
  if (!pending) return null;
  const input = h("input", {
    type: "text", maxlength: 1, "aria-label": `Letter for the blank on ${squareName(pending.row, pending.col)}`,
    testid: "blank-letter", autocomplete: "off",
    oninput: (e) => {
      const letter = e.target.value.trim().toUpperCase();
      if (/^[A-Z]$/.test(letter)) { pending.glyph = letter.toLowerCase(); ctx.rerender(); }
      else e.target.value = "";
    },
  });
  queueMicrotask(() => input.focus());
  return h("div", { class: "wd-blank", role: "group", testid: "blank-chooser" },
    h("label", {}, `The blank on ${squareName(pending.row, pending.col)} stands for: `, input));
}

function rackRow(ctx, v, rack, draft, canPlay) {
  if (!rack.length) return null;
  const used = usedIndexes(draft);
  const exchanging = draft.exchange !== null;
  const tiles = rack.map((tile, index) => {
    const isUsed = used.has(index);
    const classes = ["wd-tile"];
    if (isUsed) classes.push("used");
    if (tile === "?") classes.push("wd-blanktile");
    if (draft.picked === index) classes.push("picked");
    if (exchanging && draft.exchange.has(index)) classes.push("exchange");
    if (!canPlay) classes.push("static");
    const label = `${tile === "?" ? "blank" : tile}${tile === "?" ? "" : `, ${tileValue(v.letters, tile)} points`}`;
    return h("button", {
      type: "button", class: classes.join(" "), testid: "rack-tile",
      dataset: { letter: tile, index: String(index) },
      "aria-label": exchanging ? `${label}: ${draft.exchange.has(index) ? "to exchange" : "keep"}` : label,
      "aria-pressed": canPlay ? String(exchanging ? draft.exchange.has(index) : draft.picked === index) : null,
      disabled: isUsed || !canPlay,
      draggable: canPlay && !exchanging && !isUsed ? "true" : null,
      ondragstart: (e) => { e.dataTransfer.setData("text/plain", String(index)); e.dataTransfer.effectAllowed = "move"; },
      onclick: () => {
        if (exchanging) {
          if (draft.exchange.has(index)) draft.exchange.delete(index); else draft.exchange.add(index);
        } else {
          draft.picked = draft.picked === index ? null : index;
        }
        ctx.rerender();
      },
    }, tile === "?" ? "?" : tile, tile === "?" ? null : h("sub", { text: String(tileValue(v.letters, tile)) }));
  });
  return h("div", { class: "wd-rackrow" },
    h("div", { class: "wd-rack", role: "group", "aria-label": exchanging ? "Your rack: choose the tiles to exchange" : "Rack", testid: "rack" }, tiles),
    h("span", { class: "muted", testid: "bag-count", text: tr("{n} in the bag", { n: v.bag_count }) }));
}

function controls(ctx, v, board, rack, draft, canPlay, scrabble, send) {
  if (!canPlay) return null;
  const shown = preview(board, draft);
  const pendingBlank = draft.tiles.some((t) => t.glyph === "?");
  if (draft.exchange !== null) {
    const chosen = [...draft.exchange].sort((a, b) => a - b).map((i) => rack[i]);
    return h("div", { class: "wd-controls" },
      h("button", {
        type: "button", class: "primary", testid: "exchange-send", disabled: !chosen.length,
        onclick: async () => { if (await ctx.act({ type: "ChangeLetters", letters: chosen })) { draft.exchange = null; ctx.rerender(); } },
        text: chosen.length ? tr.n(chosen.length, "Exchange {n} tile", "Exchange {n} tiles") : tr("Choose tiles to exchange"),
      }),
      h("button", { type: "button", testid: "exchange-cancel", onclick: () => { draft.exchange = null; ctx.rerender(); }, text: tr("Cancel") }));
  }
  return h("div", { class: "wd-controls" },
    h("button", {
      type: "button", class: "primary", testid: "submit-move", disabled: !draft.tiles.length || pendingBlank, onclick: send,
      text: draft.sent && !scrabble ? tr("Send again") : tr("Submit move"),
    }),
    h("button", { type: "button", testid: "clear-move", disabled: !draft.tiles.length, onclick: () => { clear(draft); ctx.rerender(); }, text: tr("Clear") }),
    scrabble ? h("button", {
      type: "button", testid: "exchange-start", disabled: v.bag_count < 7,
      title: v.bag_count < 7 ? tr("The bag holds fewer than 7 tiles") : null,
      onclick: () => { clear(draft); draft.exchange = new Set(); ctx.rerender(); }, text: tr("Exchange…"),
    }) : null,
    scrabble ? h("button", { type: "button", testid: "pass", onclick: () => ctx.act({ type: "Moves", tiles: [] }), text: tr("Pass") }) : null,
    h("span", { class: "wd-preview", testid: "move-preview", role: "status" },
      shown ? `${shown.ref} ${shown.word}` : pendingBlank ? "" : draft.tiles.length ? tr("tiles not in one line") : ""),
    h("p", { class: "muted wd-help", text: tr("Drag a tile onto the board, or click a square (twice for down) and type. Backspace undoes, Enter sends.") }));
}

addTranslations("de", {
  "The rack (everyone plays it)": "Die Steine (alle spielen sie)",
  "Your rack": "Deine Steine",
  "{n} in the bag": "{n} im Beutel",
  "Exchange {n} tile": "{n} Stein tauschen",
  "Exchange {n} tiles": "{n} Steine tauschen",
  "Choose tiles to exchange": "Wähle Steine zum Tauschen",
  Cancel: "Abbrechen",
  "Send again": "Erneut senden",
  "Submit move": "Zug senden",
  Clear: "Leeren",
  "The bag holds fewer than 7 tiles": "Im Beutel sind weniger als 7 Steine",
  "Exchange…": "Tauschen…",
  Pass: "Passen",
  "tiles not in one line": "Steine nicht in einer Linie",
  "Drag a tile onto the board, or click a square (twice for down) and type. Backspace undoes, Enter sends.": "Zieh einen Stein aufs Brett oder klicke ein Feld (zweimal für senkrecht) und tippe. Rücktaste nimmt zurück, Enter sendet.",
}, "words");

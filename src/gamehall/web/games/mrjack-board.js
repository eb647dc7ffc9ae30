// The Mr. Jack in New York board as SVG: our published board (spec mrjack-newyork.md, section
// 10) drawn from its labels alone, with what the engine's view says stands on it.
//
// Hexes are flat-topped in vertical columns; a label "f5" is column f (index 5) and row 5, and
// its doubled row is 2(n-1) in odd-index columns, one more in even ones (10.1), so the centre
// of a hex is (1.5·R·column, √3/2·R·doubled row). Only what never changes is written here
// (the hex kinds, printed buildings and metro, ferry links); tiles, investigation tiles,
// steamers, the informant and the characters all come from `view.board`.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** Hex kinds of the board (10.2) that are not plain streets. */
const PORTS = new Set(["c7", "f2", "h9", "l9", "m1"]);
const QUAYS_EMBARK = new Set(["b5", "d4"]);
const QUAYS_LAND = new Set(["f9", "h2"]);
const LIBERTY = "a1";
const EXIT = "o6";
const FERRIES = [["b5", LIBERTY], ["d4", LIBERTY], [LIBERTY, "f9"], [LIBERTY, "h2"]];

/** Every hex of the board, column by column (84 with Liberty Island). */
const LABELS = [
  "a1", "b5", "b6", "c4", "c5", "c6", "c7", "d4", "d5", "d6", "d7", "d8",
  "e3", "e4", "e5", "e6", "e7", "e8", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9",
  "g2", "g3", "g4", "g5", "g6", "g7", "g8", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9",
  "i2", "i3", "i4", "i5", "i6", "i7", "j2", "j3", "j4", "j5", "j6", "j7",
  "k2", "k3", "k4", "k5", "k6", "k7", "l2", "l3", "l4", "l5", "l6", "l7", "l8", "l9",
  "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9", "o6",
];

/** The character tokens: colour term -> fill, ink and a short readable name. */
export const COLOURS = {
  rot: { fill: "#c62828", ink: "#fff", word: "red" },
  gelb: { fill: "#f9c820", ink: "#222", word: "yellow" },
  braun: { fill: "#7b4a2a", ink: "#fff", word: "brown" },
  gruen: { fill: "#2e7d32", ink: "#fff", word: "green" },
  beige: { fill: "#e3cfa4", ink: "#222", word: "beige" },
  schwarz: { fill: "#1f1f1f", ink: "#fff", word: "black" },
  lila: { fill: "#7b1fa2", ink: "#fff", word: "purple" },
  weiss: { fill: "#fbfbfb", ink: "#222", word: "white" },
};

export const CHARACTERS = {
  callahan: { name: "James H. Callahan", short: "Ca" },
  latimer: { name: "Lewis H. Latimer", short: "La" },
  beach: { name: "Alfred E. Beach", short: "Be" },
  grant: { name: "Mrs. Emma Grant", short: "Gr" },
  cloudrider: { name: "Cloud Rider", short: "CR" },
  eastman: { name: "Monk Eastman", short: "Ea" },
  tumblety: { name: "Francis J. Tumblety", short: "Tu" },
  smith: { name: "Edward Smith", short: "Sm" },
};

const R = 30; // hex circumradius in SVG units
const ROW = (Math.sqrt(3) / 2) * R; // one doubled row
const LIBERTY_AT = { x: 0.2 * R, y: 3.2 * ROW };

function columnIndex(label) { return label.charCodeAt(0) - 97; }
function doubledRow(label) {
  const n = Number(label.slice(1));
  return 2 * (n - 1) + (columnIndex(label) % 2 === 1 ? 0 : 1);
}

/** The centre of a hex in SVG units. */
export function centre(label) {
  if (label === LIBERTY) return LIBERTY_AT;
  return { x: 1.5 * R * columnIndex(label), y: ROW * doubledRow(label) };
}

function hexPoints({ x, y }, radius = R) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    pts.push(`${(x + radius * Math.cos(a)).toFixed(1)},${(y + radius * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

/** Create an SVG element (attributes as in ui.js's h: "class", "text", "testid", "on…"). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") el.textContent = value;
    else if (key === "testid") el.setAttribute("data-testid", value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** What a hex is and holds, in words (its accessible name and tooltip). */
export function describeHex(label, board, characters) {
  const parts = [label];
  if (label === LIBERTY) parts.push("Liberty Island");
  else if (PORTS.has(label)) parts.push(board.steamers.includes(label) ? "port with a steamer" : "port");
  else if (QUAYS_EMBARK.has(label)) parts.push("quay with a ferry to Liberty Island");
  else if (QUAYS_LAND.has(label)) parts.push("landing quay");
  else if (label === EXIT) parts.push("land exit");
  if (board.printed_buildings.includes(label)) parts.push("building");
  if (board.printed_metro.includes(label)) parts.push("metro entrance");
  const tile = board.tiles[label];
  if (tile) parts.push(TILE_WORDS[tile]);
  if (board.investigation.some((pair) => pair.includes(label))) parts.push("investigation tile");
  if (board.informant.hex === label) parts.push(board.informant.talkative ? "the informant" : "the informant (silent)");
  for (const [colour, where] of Object.entries(board.figures)) {
    if (where === label) parts.push(characterName(colour, characters));
  }
  return parts.join(", ");
}

const TILE_WORDS = { metro: "metro entrance", laterne: "gas lamp", haus: "building site", park: "park" };

export function characterName(colour, characters) {
  const key = characters[colour];
  return `${CHARACTERS[key] ? CHARACTERS[key].name : key} (${COLOURS[colour] ? COLOURS[colour].word : colour})`;
}

/**
 * The board as an SVG element.
 * @param {object} opts
 * @param {object} opts.view - the engine's view
 * @param {Map<string, string>} opts.targets - clickable hex -> accessible action text
 * @param {(label: string) => void} opts.onTarget - a target hex was chosen
 * @param {Set<string>} opts.recent - hexes changed by the last activation
 * @param {Set<string>} opts.chosen - hexes already chosen in the open Teilzug
 */
export function boardSvg({ view, targets, onTarget, recent, chosen }) {
  const board = view.board;
  const seen = new Set(view.seen);
  const suspects = new Set(view.suspects);
  const investigation = new Set(board.investigation.flat());
  const xs = LABELS.map((l) => centre(l).x);
  const ys = LABELS.map((l) => centre(l).y);
  const minX = Math.min(...xs) - R * 1.3;
  const minY = Math.min(...ys) - R * 1.3;
  const width = Math.max(...xs) + R * 1.3 - minX;
  const height = Math.max(...ys) + R * 1.3 - minY;
  const svg = s("svg", {
    class: "mj-board",
    viewBox: `${minX.toFixed(0)} ${minY.toFixed(0)} ${width.toFixed(0)} ${height.toFixed(0)}`,
    role: "group",
    "aria-label": "The board",
    testid: "mj-board",
  });
  svg.appendChild(defs());
  svg.appendChild(s("rect", { x: minX, y: minY, width, height, class: "mj-water", rx: 14 }));
  for (const [from, to] of FERRIES) svg.appendChild(ferryPath(from, to));
  for (const pair of board.investigation) {
    const [a, b] = pair.map(centre);
    svg.appendChild(s("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "mj-inv-link" }));
  }
  const layers = { hexes: s("g", {}), figures: s("g", {}) };
  // Highlighted hexes last, so no neighbour is drawn over their outline.
  const raised = (label) => (targets.has(label) ? 2 : recent.has(label) || chosen.has(label) ? 1 : 0);
  for (const label of [...LABELS].sort((a, b) => raised(a) - raised(b))) {
    const target = targets.get(label);
    layers.hexes.appendChild(hexGroup(label, board, view.characters, {
      target, onTarget, investigation, recent: recent.has(label), chosen: chosen.has(label),
    }));
  }
  for (const [colour, where] of Object.entries(board.figures)) {
    layers.figures.appendChild(figure(colour, where, view, {
      seen: seen.has(colour), suspect: suspects.has(colour), target: targets.has(where),
    }));
  }
  svg.append(layers.hexes, layers.figures);
  return svg;
}

function defs() {
  return s("defs", {},
    s("pattern", { id: "mj-site", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { width: 8, height: 8, fill: "#e59a3c" }),
      s("rect", { width: 4, height: 8, fill: "#f3c27b" })),
    s("pattern", { id: "mj-inv", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(-45)" },
      s("rect", { width: 6, height: 6, fill: "#b23b3b" }),
      s("rect", { width: 3, height: 6, fill: "#d35b50" })),
    s("radialGradient", { id: "mj-glow" },
      s("stop", { offset: "0%", "stop-color": "#fff7b0", "stop-opacity": 1 }),
      s("stop", { offset: "100%", "stop-color": "#fff7b0", "stop-opacity": 0 })),
    s("marker", { id: "mj-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" },
      s("path", { d: "M0,0 L10,5 L0,10 z", fill: "#e8f1fb" })));
}

function ferryPath(from, to) {
  const a = centre(from);
  const b = centre(to);
  let cx = (a.x + b.x) / 2;
  let cy = (a.y + b.y) / 2;
  if (to === "h2") { cy = Math.min(a.y, b.y) - 2.2 * R; }
  if (to === "f9") { cx = a.x - 0.6 * R; cy = b.y + 1.5 * R; }
  // Stop short of the hexes so the arrowhead shows on the water.
  const end = shorten(b, { x: cx, y: cy }, R * 0.95);
  const start = shorten(a, { x: cx, y: cy }, R * 0.9);
  return s("path", {
    d: `M${start.x.toFixed(1)},${start.y.toFixed(1)} Q${cx.toFixed(1)},${cy.toFixed(1)} ${end.x.toFixed(1)},${end.y.toFixed(1)}`,
    class: "mj-ferry",
    "marker-end": "url(#mj-arrow)",
  }, s("title", { text: `Ferry ${from} → ${to}` }));
}

function shorten(point, toward, by) {
  const dx = toward.x - point.x;
  const dy = toward.y - point.y;
  const len = Math.hypot(dx, dy) || 1;
  return { x: point.x + (dx / len) * by, y: point.y + (dy / len) * by };
}

function hexClass(label, board, investigation) {
  if (label === LIBERTY) return "liberty";
  if (label === EXIT) return "exit";
  if (PORTS.has(label)) return "port";
  if (QUAYS_EMBARK.has(label) || QUAYS_LAND.has(label)) return "quay";
  if (investigation.has(label)) return "inv";
  if (board.printed_buildings.includes(label)) return "building";
  const tile = board.tiles[label];
  if (tile === "haus") return "site";
  if (tile === "park") return "park";
  return "street";
}

function hexGroup(label, board, characters, { target, onTarget, investigation, recent, chosen }) {
  const c = centre(label);
  const kind = hexClass(label, board, investigation);
  const classes = ["mj-hex", kind, target ? "target" : "", recent ? "recent" : "", chosen ? "chosen" : ""];
  const description = describeHex(label, board, characters);
  const g = s("g", {
    class: classes.filter(Boolean).join(" "),
    "data-hex": label,
    testid: target ? "hex-target" : null,
    role: target ? "button" : null,
    tabindex: target ? 0 : null,
    "aria-label": target ? `${target}: ${description}` : null,
  });
  if (target) {
    g.addEventListener("click", () => onTarget(label));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onTarget(label); }
    });
  }
  g.appendChild(s("title", { text: target ? `${target}: ${description}` : description }));
  if (label === LIBERTY) {
    g.appendChild(s("ellipse", { cx: c.x, cy: c.y, rx: R * 1.05, ry: R * 0.85, class: "mj-hexshape" }));
    g.appendChild(s("path", { d: `M${c.x - 6},${c.y + 8} l6,-22 l6,22 z`, class: "mj-statue" }));
    g.appendChild(s("text", { x: c.x, y: c.y + R * 0.72, class: "mj-caption", text: "Liberty" }));
  } else {
    g.appendChild(s("polygon", { points: hexPoints(c, R - 1), class: "mj-hexshape" }));
  }
  g.append(...hexContent(label, board, c, kind));
  if (label !== LIBERTY) g.appendChild(s("text", { x: c.x, y: c.y - R * 0.58, class: "mj-label", text: label }));
  return g;
}

/** The icons a hex shows for its printed content, tile, steamer and the informant. */
function hexContent(label, board, c, kind) {
  const out = [];
  const tile = board.tiles[label];
  if (kind === "building") {
    out.push(s("path", { d: `M${c.x - 11},${c.y + 10} v-13 l11,-9 l11,9 v13 z`, class: "mj-house" }));
  } else if (kind === "site") {
    out.push(s("text", { x: c.x, y: c.y + 4, class: "mj-caption strong", text: "site" }));
  } else if (kind === "park") {
    out.push(s("rect", { x: c.x - 2, y: c.y + 2, width: 4, height: 9, class: "mj-trunk" }),
      s("circle", { cx: c.x, cy: c.y - 3, r: 9, class: "mj-tree" }));
  } else if (kind === "inv") {
    out.push(s("circle", { cx: c.x - 3, cy: c.y - 3, r: 7, class: "mj-lens" }),
      s("line", { x1: c.x + 2, y1: c.y + 2, x2: c.x + 9, y2: c.y + 9, class: "mj-lens" }));
  } else if (kind === "exit") {
    out.push(s("text", { x: c.x, y: c.y + 4, class: "mj-caption strong", text: "EXIT" }));
  } else if (kind === "port" && !board.steamers.includes(label)) {
    out.push(s("text", { x: c.x, y: c.y + 4, class: "mj-caption", text: "port" }));
  } else if (kind === "quay") {
    out.push(s("text", { x: c.x, y: c.y + R * 0.62, class: "mj-caption", text: "quay" }));
  }
  if (board.printed_metro.includes(label) || tile === "metro") {
    out.push(s("circle", { cx: c.x, cy: c.y, r: 10, class: "mj-metro" }),
      s("text", { x: c.x, y: c.y + 4, class: "mj-metro-m", text: "M" }));
  }
  if (tile === "laterne") {
    out.push(s("circle", { cx: c.x, cy: c.y, r: R * 0.85, fill: "url(#mj-glow)" }),
      s("rect", { x: c.x - 1.5, y: c.y - 2, width: 3, height: 13, class: "mj-post" }),
      s("circle", { cx: c.x, cy: c.y - 5, r: 6, class: "mj-lamp" }));
  }
  if (board.steamers.includes(label)) {
    out.push(s("path", { d: `M${c.x - 15},${c.y + 2} h30 l-6,9 h-18 z`, class: "mj-ship" }),
      s("rect", { x: c.x - 6, y: c.y - 9, width: 7, height: 11, class: "mj-ship" }),
      s("rect", { x: c.x + 3, y: c.y - 5, width: 5, height: 7, class: "mj-ship" }));
  }
  if (board.informant.hex === label) {
    const x = label === LIBERTY ? c.x - R * 0.62 : c.x - R * 0.5;
    const y = label === LIBERTY ? c.y - 2 : c.y + R * 0.35;
    out.push(s("g", { class: board.informant.talkative ? "mj-informant" : "mj-informant silent", testid: "mj-informant" },
      s("circle", { cx: x, cy: y, r: 8 }),
      s("text", { x, y: y + 4, text: "i" })));
  }
  return out;
}

/** A character token: its colour, short name, a yellow halo when seen, faded once cleared,
 * a dashed red ring on Mr. Jack's own view of his character. */
function figure(colour, where, view, { seen, suspect, target }) {
  const c = centre(where);
  const key = view.characters[colour];
  const spec = COLOURS[colour] || { fill: "#888", ink: "#fff" };
  const isJack = view.jack === colour;
  const g = s("g", {
    class: ["mj-figure", suspect ? "suspect" : "cleared", seen ? "seen" : "unseen", target ? "target" : ""].filter(Boolean).join(" "),
    "data-colour": colour,
    testid: "mj-figure",
    "aria-hidden": "true", // the hex under it names it, and takes its clicks (CSS: no pointer events)
  });
  if (seen) g.appendChild(s("circle", { cx: c.x, cy: c.y, r: 19, class: "mj-halo" }));
  g.appendChild(s("circle", { cx: c.x, cy: c.y, r: 14, fill: spec.fill, class: "mj-token" }));
  g.appendChild(s("text", { x: c.x, y: c.y + 4.5, fill: spec.ink, class: "mj-token-text", text: CHARACTERS[key] ? CHARACTERS[key].short : colour.slice(0, 2) }));
  if (!suspect) {
    g.appendChild(s("circle", { cx: c.x + 12, cy: c.y - 11, r: 6.5, class: "mj-cleared-badge" }));
    g.appendChild(s("text", { x: c.x + 12, y: c.y - 8, class: "mj-cleared-mark", text: "✓" }));
  }
  if (view.active === colour && view.phase !== "over") {
    g.appendChild(s("circle", { cx: c.x, cy: c.y, r: 21, class: "mj-active-ring" }));
  }
  if (isJack) {
    g.appendChild(s("circle", { cx: c.x, cy: c.y, r: 17, class: "mj-jack-ring" }));
  }
  return g;
}

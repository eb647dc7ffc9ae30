// Game over, at a glance: the panel every table shows when its game ends (who won and why, the
// final standings, the game's own details) with a score chart over the rounds, drawn as inline
// SVG (no chart library: a few polylines are all it takes).

import { h } from "../ui.js";
import { t } from "../i18n.js";

const SVG = "http://www.w3.org/2000/svg";

/** Dash patterns by player, so lines that run together stay distinguishable. */
const DASHES = ["none", "7 4", "2 4", "10 4 2 4"];

/** Line colours of the chart, one per player (repeats after eight). */
export const PALETTE = ["#2f6f4f", "#b3261e", "#2f6fd0", "#d0a21a", "#7a3fa0", "#0f8b8d", "#c2581b", "#555555"];

/**
 * The game-over panel.
 * headline: the sentence that says who won; reason: why the game ended (optional);
 * standings: [{name, score, me}] best first (score is a number or text);
 * details: extra nodes (a round list, the master total...);
 * chart: {labels: [x label per point], lines: [{name, values: [number per point]}]} or null;
 * scoreLabel: the heading of the score column.
 */
export function gameOverPanel({ headline, reason = null, standings = [], details = [], chart = null, scoreLabel = null }) {
  return h("section", { class: "card game-summary", role: "status", "aria-label": t("Game over"), testid: "game-summary" },
    h("h3", { class: "summary-headline", testid: "summary-headline", text: headline }),
    reason ? h("p", { class: "muted", testid: "summary-reason", text: reason }) : null,
    h("div", { class: "summary-body" },
      standings.length ? h("table", { class: "summary-standings", testid: "summary-standings" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "#" }), h("th", { scope: "col", text: t("Player") }),
          h("th", { scope: "col", class: "num", text: scoreLabel || t("Score") }))),
        h("tbody", {}, standings.map((row, i) => h("tr", { class: row.me ? "me" : "" },
          h("td", { text: String(rank(standings, i)) }),
          h("td", { text: row.name }),
          h("td", { class: "num", text: String(row.score) }))))) : null,
      chart && chart.labels.length ? scoreChart(chart) : null),
    details);
}

/** Standard competition ranking ("1, 1, 3"): equal scores share a place. */
function rank(rows, i) {
  let r = i;
  while (r > 0 && rows[r - 1].score === rows[i].score) r -= 1;
  return r + 1;
}

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children) if (child) el.appendChild(child);
  return el;
}

/** A line chart of each player's score over the rounds, with a legend; `title` names it. */
export function scoreChart({ labels, lines, title = null, xLabel = null }) {
  const width = 480;
  const height = 210;
  const left = 38;
  const right = 10;
  const top = 10;
  const bottom = 30;
  const all = lines.flatMap((line) => line.values).filter((v) => typeof v === "number");
  let lo = Math.min(0, ...all);
  let hi = Math.max(1, ...all);
  if (hi === lo) hi = lo + 1;
  const pad = (hi - lo) * 0.05;
  lo -= lo < 0 ? pad : 0;
  hi += pad;
  const xs = labels.length;
  const x = (i) => left + (xs === 1 ? (width - left - right) / 2 : (i * (width - left - right)) / (xs - 1));
  const y = (v) => top + ((hi - v) * (height - top - bottom)) / (hi - lo);
  const ticks = niceTicks(lo, hi, 5);
  const grid = ticks.map((v) => svg("g", {},
    svg("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: v === 0 ? "axis" : "grid" }),
    text(svg("text", { x: left - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" }), formatTick(v))));
  const every = Math.max(1, Math.ceil(xs / 12));
  const xTicks = labels.map((label, i) => (i % every === 0 || i === xs - 1
    ? text(svg("text", { x: x(i), y: height - bottom + 16, "text-anchor": "middle", class: "tick" }), label)
    : null));
  const paths = lines.map((line, n) => {
    const colour = PALETTE[n % PALETTE.length];
    const points = line.values.map((v, i) => (typeof v === "number" ? `${x(i).toFixed(1)},${y(v).toFixed(1)}` : null)).filter(Boolean);
    return svg("g", { class: "series", "data-name": line.name },
      text(svg("title"), line.name),
      svg("polyline", { points: points.join(" "), fill: "none", stroke: colour, "stroke-width": 2.5, "stroke-linejoin": "round", "stroke-dasharray": DASHES[n % DASHES.length] }),
      ...line.values.map((v, i) => (typeof v === "number" ? svg("circle", { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3, fill: colour }) : null)));
  });
  const chartTitle = title || t("Score over the rounds");
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "score-chart", role: "img", "aria-label": chartTitle, "data-testid": "score-chart" },
    text(svg("title"), chartTitle), ...grid, ...xTicks, ...paths,
    xLabel ? text(svg("text", { x: width - right, y: height - 2, "text-anchor": "end", class: "tick" }), xLabel) : null);
  const legend = h("ul", { class: "chart-legend" }, lines.map((line, n) => h("li", {},
    svg("svg", { class: "swatch", viewBox: "0 0 28 10", width: 28, height: 10, "aria-hidden": "true" },
      svg("line", { x1: 1, x2: 27, y1: 5, y2: 5, stroke: PALETTE[n % PALETTE.length], "stroke-width": 3, "stroke-dasharray": DASHES[n % DASHES.length] })),
    line.name)));
  return h("figure", { class: "chart" }, chart, legend);
}

function text(el, content) {
  el.textContent = String(content);
  return el;
}

function formatTick(v) {
  return Math.abs(v) >= 1000 ? `${Math.round(v / 100) / 10}k` : String(Math.round(v * 10) / 10);
}

/** About `count` round tick values between lo and hi (1, 2 or 5 times a power of ten apart). */
function niceTicks(lo, hi, count) {
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

/** Running totals: [1, 0, 2] -> [1, 1, 3]. */
export function cumulative(values) {
  let sum = 0;
  return values.map((v) => (sum += v));
}

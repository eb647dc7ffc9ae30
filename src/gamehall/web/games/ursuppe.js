// Ursuppe (Primordial Soup) at the browser table: the soup (5x5 board with the nutrients of
// every colour and the amoebas with their damage), the environment card, the players with their
// biopoints, genes and amoebas, the score track, the gene pool, and a panel for every decision of
// every phase: ready, start space, first amoebas, moving (drift, roll, directions, tentacle,
// second step), eating (every meal that fits, parasitism, struggle), defence (flight, defence),
// holding on, gene defects, buying genes (Armor's choice), cell division and aggression.
//
// Renders the engine's view (rules/ursuppe/view.py); the details of the pending request (which
// amoeba, the attacker, the defect to cover) come with the request event, remembered here per
// room. Sends the engine's actions (rules/ursuppe/actions.py) as ActionCodec JSON.

import { h, countdown } from "../ui.js";
import { scoped } from "../i18n.js";
import { gameOverPanel } from "./summary.js";
import { geneName, geneEffect, bpLabel, dpLabel } from "./ursuppe-words.js";

const t = scoped("ursuppe");
const tn = t.n;

export const id = "ursuppe";

/** This renderer shows the request timer itself. */
export const showsTimers = true;

const COLOURS = ["#d33d3d", "#2f6fd0", "#2e9d4b", "#d0a21a"];
const COLOUR_NAMES = ["red", "blue", "green", "yellow"];
const DIRECTIONS = { 1: "West", 2: "North", 3: "East", 4: "South", 5: "Stay" };
const ARROWS = { 1: "←", 2: "↑", 3: "→", 4: "↓", 5: "•" };
const STEPS = { 1: [-1, 0], 2: [0, -1], 3: [1, 0], 4: [0, 1], 5: [0, 0] };
const PHASES = {
  lobby: "Waiting for players",
  bereit: "Getting ready",
  startposition: "Choosing start spaces",
  aufbau: "Placing the first amoebas",
  bewegen_und_fressen: "Phase 1: move and eat",
  umwelt_und_gendefekte: "Phase 2: environment and gene defects",
  gene_kaufen: "Phase 3: buying genes",
  zellteilung: "Phase 4: cell division",
  todesfaelle: "Phase 5: deaths",
  wertung: "Phase 6: scoring",
  beendet: "Game over",
};
const REQUEST_EVENTS = new Set([
  "ZugBereit", "ZugPosition", "ZugAmoebeSetzen", "ZugBewegen", "ZugKlammern", "ZugFressen",
  "ZugAbwehr", "ZugGendefekte", "ZugGenKaufen", "ZugAggression",
]);

const pending = new Map(); // room id -> {request: the last request event for us, dice: [w1, w2] | null}
const forms = new Map(); // room id -> {key, placements, genes, armor, surrender, tentacle}

/** Remember the details of our pending request and the dice we rolled for it. */
export function onEvent(app, room, event) {
  if (REQUEST_EVENTS.has(event.type)) {
    pending.set(room.id, { request: event, dice: null });
  } else if (event.type === "Wuerfel" && event.farbe === room.seat) {
    const entry = pending.get(room.id);
    if (entry) entry.dice = [event.wuerfel1, event.wuerfel2];
  } else if (event.type === "Bewegung" && event.farbe === room.seat) {
    const entry = pending.get(room.id);
    if (entry) entry.dice = null;
  }
}

export function render(ctx) {
  const v = ctx.view;
  const mine = v.seats.find((s) => s.seat === ctx.seat) || null;
  const form = formFor(ctx, v);
  return h("div", { class: "ursuppe", testid: "ursuppe", dataset: { phase: v.phase } },
    statusLine(ctx, v),
    gameOver(ctx, v),
    h("div", { class: "ur-layout" },
      h("div", { class: "ur-main" },
        board(ctx, v, form, mine),
        mine && !ctx.ended && v.my_request ? decision(ctx, v, mine, form) : null),
      h("div", { class: "ur-side" },
        legend(),
        environment(v),
        players(ctx, v),
        scoreTrack(v),
        genePool(v))));
}

// ------------------------------------------------------------------------------ helpers

function colourDot(colour, text = "") {
  return h("span", {
    class: "ur-dot",
    title: t(COLOUR_NAMES[colour]),
    style: `display:inline-block;min-width:1.1em;padding:0 .2em;border-radius:.6em;color:#fff;font-size:.8em;text-align:center;background:${COLOURS[colour]}`,
    text,
  });
}

function nameOf(v, seat) {
  const s = v.seats.find((x) => x.seat === seat);
  return s ? s.name : t("colour {n}", { n: seat });
}

function cubesAt(v, x, y) {
  const f = v.fields.find((c) => c.x === x && c.y === y);
  return f ? f.cubes : null;
}

function amoebasAt(v, x, y) {
  const out = [];
  for (const s of v.seats) for (const a of s.amoebas) if (a.x === x && a.y === y) out.push({ colour: s.seat, ...a });
  return out;
}

function request(ctx) {
  const entry = pending.get(ctx.room.id);
  return entry && entry.request && entry.request.type === eventTypeOf(ctx.view.my_request) ? entry : null;
}

function eventTypeOf(kind) {
  return {
    ZUG_BEREIT: "ZugBereit", ZUG_POSITION: "ZugPosition", ZUG_AMOEBE_SETZEN: "ZugAmoebeSetzen",
    ZUG_BEWEGEN: "ZugBewegen", ZUG_KLAMMERN: "ZugKlammern", ZUG_FRESSEN: "ZugFressen",
    ZUG_ABWEHR: "ZugAbwehr", ZUG_GENDEFEKTE: "ZugGendefekte", ZUG_GEN_KAUFEN: "ZugGenKaufen",
    ZUG_AGGRESSION: "ZugAggression",
  }[kind];
}

function formFor(ctx, v) {
  const key = JSON.stringify([v.my_request, v.round, v.phase]);
  let form = forms.get(ctx.room.id);
  if (!form || form.key !== key) {
    form = { key, placements: [], genes: new Set(), armor: 4, surrender: new Set(), tentacle: null };
    forms.set(ctx.room.id, form);
  }
  return form;
}

function owns(mine, gene) {
  const included = { 3: 16, 13: 18, 1: 17 };
  return mine.genes.includes(gene) || (included[gene] !== undefined && mine.genes.includes(included[gene]));
}

function button(text, testid, onclick, extra = {}) {
  return h("button", { type: "button", class: "small", testid, onclick, text, ...extra });
}

// ------------------------------------------------------------------------------ status

function statusLine(ctx, v) {
  const waiting2 = v.to_move.seats.map((s) => (s === ctx.seat ? t("you") : nameOf(v, s)));
  let text = PHASES[v.phase] ? t(PHASES[v.phase]) : v.phase;
  if (v.phase === "lobby") text = t("Waiting for players: {n} of {max} seated. The game starts when the table is full.", { n: v.seats.length, max: v.players });
  else if (v.phase !== "beendet" && waiting2.length) text += ` · ${t("waiting for {who}", { who: waiting2.join(", ") })}`;
  const timer = ctx.timers.length && !ctx.ended ? ctx.timers[0] : null;
  return h("p", { class: "ur-status", role: "status", testid: "ur-status" },
    v.round ? h("span", { text: `${t("Round {n}", { n: v.round })} · ` }) : null,
    h("span", { text }),
    timer ? h("span", {}, ` · ${t("time left")} `, countdown(timer.deadline, { testid: "ur-timer" })) : null);
}

function gameOver(ctx, v) {
  if (v.phase !== "beendet") return null;
  const best = Math.max(...v.seats.map((s) => s.position));
  const winners = v.seats.filter((s) => s.position === best).map((s) => s.name);
  const standings = [...v.seats].sort((a, b) => b.position - a.position)
    .map((s) => ({ name: s.name, score: s.position, me: s.seat === ctx.seat }));
  const history = v.history || [];
  const chart = history.length ? {
    labels: history.map((row) => String(row.round)),
    lines: v.seats.map((s) => ({ name: s.name, values: history.map((row) => (row.positions.find((p) => p[0] === s.seat) || [0, null])[1]) })),
    xLabel: t("round"),
  } : null;
  const finish = v.ladder_length - v.finish_zone;
  return h("div", { testid: "game-over" },
    gameOverPanel({
      headline: winners.length > 1
        ? t("{names} win at space {n} of the score track.", { names: winners.join(` ${t("and")} `), n: best })
        : t("{names} wins at space {n} of the score track.", { names: winners[0], n: best }),
      reason: best >= finish ? t("A marker reached the finish zone (space {n}).", { n: finish }) : t("The last environment card was played."),
      standings,
      chart,
      scoreLabel: t("Space"),
    }));
}

// ------------------------------------------------------------------------------ the soup

function board(ctx, v, form, mine) {
  const kind = v.my_request;
  const setup = kind === "ZUG_AMOEBE_SETZEN" && v.phase === "aufbau";
  const division = kind === "ZUG_AMOEBE_SETZEN" && v.phase === "zellteilung" && mine !== null;
  const acting = ctx.seat !== null && !ctx.ended;
  const legal = division ? divisionTargets(v, mine, form.placements) : null;
  const rows = v.board.length;
  const cols = v.board[0].length;
  // Coordinates as the texts name them: "(x,y)", x the column, y the row, from 0.
  const cells = [h("div", { class: "ur-coord corner", "aria-hidden": "true" })];
  for (let x = 0; x < cols; x++) cells.push(h("div", { class: "ur-coord", testid: "ur-coord-x", "aria-hidden": "true", text: `x ${x}` }));
  for (let y = 0; y < rows; y++) {
    cells.push(h("div", { class: "ur-coord", testid: "ur-coord-y", "aria-hidden": "true", text: `y ${y}` }));
    for (let x = 0; x < cols; x++) {
      const mark = v.board[y][x];
      if (mark !== ".") {
        cells.push(h("div", {
          class: mark === "C" ? "ur-cell off compass" : "ur-cell off", "aria-label": mark === "C" ? t("compass") : t("not playable"),
          text: mark === "C" ? t("compass") : "",
        }));
        continue;
      }
      const cubes = cubesAt(v, x, y) || [];
      const amoebas = amoebasAt(v, x, y);
      const planned = form.placements.filter((p) => p[1] === x && p[2] === y);
      const isLegal = setup ? amoebas.length === 0 : division ? legal.has(`${x},${y}`) : false;
      const clickable = acting && (isLegal || (division && planned.length > 0));
      const content = [
        h("div", { class: "ur-cubes", "aria-label": t("nutrients") },
          cubes.map((n, c) => h("span", { style: `color:${COLOURS[c]}`, title: t("{n} {colour} nutrients", { n, colour: t(COLOUR_NAMES[c]) }), text: String(n) }))),
        h("div", { class: "ur-amoebas" },
          amoebas.map((a) => colourDot(a.colour, `${a.number}${"✶".repeat(a.damage)}`)),
          planned.map((p) => colourDot(ctx.seat, `+${p[0]}`))),
      ];
      const classes = ["ur-cell"];
      if (isLegal && acting) classes.push("legal");
      if (planned.length) classes.push("planned");
      const attrs = {
        class: classes.join(" "), testid: "ur-field", dataset: { x: String(x), y: String(y), legal: isLegal ? "1" : "0" },
        "aria-label": t("field ({x},{y})", { x, y }) + (isLegal && acting ? ` · ${t("you may place here")}` : ""),
      };
      if (clickable) {
        attrs.onclick = () => {
          if (setup) {
            ctx.act({ type: "AmoebeSetzen", amoebe: freeNumbers(v, ctx.seat, [])[0], x, y });
          } else {
            const at = form.placements.findIndex((p) => p[1] === x && p[2] === y);
            if (at >= 0) form.placements.splice(at, 1);
            else {
              const number = freeNumbers(v, ctx.seat, form.placements)[0];
              if (number !== undefined) form.placements.push([number, x, y]);
            }
            ctx.rerender();
          }
        };
        cells.push(h("button", { type: "button", ...attrs }, content));
      } else {
        cells.push(h("div", attrs, content));
      }
    }
  }
  return h("section", { class: "ur-soup", "aria-label": t("The primordial soup") },
    h("div", { class: "ur-board", testid: "ur-board", style: `grid-template-columns:1.6rem repeat(${cols}, minmax(0, 5.2rem))` }, cells));
}

/**
 * The fields where the next amoeba of a cell division may go (rules/ursuppe/division.py,
 * field_allowed): playable, without an own amoeba (planned ones count), next to an own one
 * unless the player has at most one or owns Spores; none once the BP or the numbers run out.
 */
function divisionTargets(v, mine, placements) {
  const out = new Set();
  const own = new Set([...mine.amoebas.map((a) => `${a.x},${a.y}`), ...placements.map((p) => `${p[1]},${p[2]}`)]);
  const cost = owns(mine, 15) ? 4 : 6;
  const freeFirst = mine.amoebas.length === 0;
  const price = (i) => (freeFirst && i === 0 ? 0 : cost);
  let spent = 0;
  for (let i = 0; i < placements.length; i++) spent += price(i);
  if (spent + price(placements.length) > mine.bp) return out;
  if (freeNumbers(v, mine.seat, placements).length === 0) return out;
  const anywhere = own.size <= 1 || owns(mine, 2);
  for (let y = 0; y < v.board.length; y++) {
    for (let x = 0; x < v.board[0].length; x++) {
      if (v.board[y][x] !== "." || own.has(`${x},${y}`)) continue;
      const next = [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]].some(([nx, ny]) => own.has(`${nx},${ny}`));
      if (anywhere || next) out.add(`${x},${y}`);
    }
  }
  return out;
}

/** Add a placement to the room's planned cell division, as a click on a field does (without
 * the field check: the server has the last word; the browser tests use it to see a refusal). */
export function planDivision(roomId, placement) {
  const form = forms.get(roomId);
  if (form) form.placements.push(placement);
}

function freeNumbers(v, seat, placements) {
  const me = v.seats.find((s) => s.seat === seat);
  const used = new Set([...(me ? me.amoebas.map((a) => a.number) : []), ...placements.map((p) => p[0])]);
  const out = [];
  for (let n = 0; n < v.amoebas_per_colour; n++) if (!used.has(n)) out.push(n);
  return out;
}

// ------------------------------------------------------------------------------ the side panels

/** What the abbreviations mean, once, above the panels that use them. */
function legend() {
  return h("p", { class: "ur-legend muted small", testid: "ur-legend" },
    h("abbr", { title: t("biopoints") }, "BP"), ` = ${t("biopoints: the money of the game (movement, genes, division, defence)")} · `,
    h("abbr", { title: t("damage points") }, "DP"), ` = ${t("damage points of an amoeba (✶ on the board); 2 kill it, 3 with Life Expectancy")}`);
}

function environment(v) {
  const [direction, ozone] = v.card;
  const cards = v.cards_left;
  return h("section", { class: "card", testid: "ur-card", "aria-label": t("Environment card") },
    h("h3", { text: t("Environment") }),
    h("p", {}, `${t("Drift")}: ${ARROWS[direction]} ${DIRECTIONS[direction] === "Stay" ? t("none") : t(DIRECTIONS[direction])} · ${t("ozone layer {n}", { n: ozone })}`,
      h("span", { class: "muted", text: ` · ${tn(cards, "{n} card left", "{n} cards left")}` })));
}

function players(ctx, v) {
  const genes = new Map(v.gene_pool.map((g) => [g.gene, g]));
  return h("section", { class: "card", "aria-label": t("Players") },
    h("h3", { text: t("Players") }),
    h("ul", { testid: "ur-players", class: "ur-players" },
      v.seats.map((s) => h("li", { dataset: { seat: String(s.seat) }, class: s.seat === ctx.seat ? "me" : "" },
        colourDot(s.seat, "\u00a0"), " ",
        h("strong", { text: s.name }), s.seat === ctx.seat ? h("span", { class: "muted", text: ` (${t("you")})` }) : null,
        !s.present || s.left ? h("span", { class: "muted", text: ` ${t("away")}` }) : null,
        h("div", {},
          h("span", { testid: "ur-bp", title: t("biopoints") }, `${s.bp} `, bpLabel()), " · ",
          h("span", { text: t("space {n}", { n: s.position < 0 ? "–" : s.position }) }), " · ",
          h("span", { text: tn(s.amoebas.length, "{n} amoeba", "{n} amoebas") })),
        s.amoebas.length ? h("div", { class: "muted" }, s.amoebas.map((a, i) => [i ? ", " : "",
          t("#{n} at ({x},{y})", { n: a.number, x: a.x, y: a.y }),
          a.damage ? [" ", `${a.damage} `, dpLabel()] : null])) : null,
        h("div", { testid: "ur-genes", class: "ur-genes" }, s.genes.length
          ? s.genes.map((g) => h("span", { class: "badge", title: genes.get(g) ? geneEffect(genes.get(g)) : "", text: genes.get(g) ? geneName(genes.get(g)) : String(g) }))
          : h("span", { class: "muted", text: t("no genes") }))))));
}

function scoreTrack(v) {
  const length = v.ladder_length;
  const finish = length - v.finish_zone;
  const share = (finish / length) * 100;
  return h("section", { class: "card", testid: "ur-track", "aria-label": t("Score track") },
    h("h3", {}, `${t("Score track")} `, h("span", { class: "muted", text: `(${t("the game ends at {n}", { n: finish })})` })),
    h("div", { class: "ur-track", style: `background:linear-gradient(90deg,#eef 0,#eef ${share}%,#fdd ${share}%)` },
      v.seats.filter((s) => s.position >= 0).map((s) => h("span", {
        title: `${s.name}: ${s.position}`,
        style: `left:calc(${Math.min(s.position, length) / length * 100}% - .5em)`,
      }, colourDot(s.seat, String(s.position))))));
}

function genePool(v) {
  return h("details", { class: "card", testid: "ur-gene-pool" },
    h("summary", { text: t("Genes for sale") }),
    h("table", { class: "ur-gene-table" },
      h("thead", {}, h("tr", {}, h("th", { text: "#" }), h("th", { text: t("gene") }), h("th", { text: t("price") }), h("th", { text: t("left") }))),
      h("tbody", {}, v.gene_pool.filter((g) => g.copies > 0).map((g) => h("tr", {},
        h("td", { text: String(g.gene) }),
        h("td", {}, h("div", { testid: "ur-gene-name", text: geneName(g) }), h("div", { class: "muted small", text: geneEffect(g) })),
        h("td", { text: `${g.price} BP` }), h("td", { text: `${g.free}/${g.copies}` }))))));
}

// ------------------------------------------------------------------------------ decisions

function decision(ctx, v, mine, form) {
  const kind = v.my_request;
  const entry = request(ctx);
  const ev = entry ? entry.request : null;
  let body;
  switch (kind) {
    case "ZUG_BEREIT":
      body = [h("p", { text: t("Are you ready?") }), button(t("Ready"), "ur-ready", () => ctx.act({ type: "Bereit" }), { class: "primary" })];
      break;
    case "ZUG_POSITION": {
      const taken = new Set(v.seats.map((s) => s.position));
      body = [h("p", { text: t("Choose your start space on the score track (lower spaces move first in phase 1).") }),
        Array.from({ length: v.players }, (_, p) => p).filter((p) => !taken.has(p))
          .map((p) => button(t("Space {n}", { n: p }), "ur-position", () => ctx.act({ type: "Position", position: p })))];
      break;
    }
    case "ZUG_AMOEBE_SETZEN":
      body = v.phase === "aufbau"
        ? [h("p", { text: t("Click a highlighted (empty) field for your amoeba #{n}.", { n: freeNumbers(v, ctx.seat, [])[0] }) })]
        : divisionPanel(ctx, v, mine, form);
      break;
    case "ZUG_BEWEGEN": body = movePanel(ctx, v, mine, ev, entry, form); break;
    case "ZUG_FRESSEN": body = eatPanel(ctx, v, mine, ev); break;
    case "ZUG_KLAMMERN": body = holdPanel(ctx, v, ev); break;
    case "ZUG_ABWEHR": body = defencePanel(ctx, v, mine, ev, entry); break;
    case "ZUG_GENDEFEKTE": body = defectPanel(ctx, v, mine, ev, form); break;
    case "ZUG_GEN_KAUFEN": body = buyPanel(ctx, v, mine, form); break;
    case "ZUG_AGGRESSION": body = aggressionPanel(ctx, v, mine); break;
    default: body = [h("p", { text: kind })];
  }
  return h("section", { class: "card ur-decision", testid: "ur-decision", dataset: { request: kind }, "aria-label": t("Your decision") },
    h("h3", { text: t("Your move") }), body);
}

/** The amoeba a request is about: from its event, or (after a reload) the first own one. */
function amoebaOf(mine, ev) {
  const number = ev && ev.amoebe !== undefined ? ev.amoebe : mine.amoebas.length ? mine.amoebas[0].number : 0;
  return mine.amoebas.find((a) => a.number === number) || { number, x: -1, y: -1, damage: 0 };
}

function directionButtons(ctx, testid, make, allowed) {
  return h("div", { class: "row" }, [1, 2, 3, 4, 5].map((d) => button(`${ARROWS[d]} ${t(DIRECTIONS[d])}`, testid,
    () => ctx.act(make(d)), { disabled: allowed && !allowed.has(d), dataset: { direction: String(d) } })));
}

function effective(v, amoeba, d) {
  if (d === 5) return 5;
  const [dx, dy] = STEPS[d];
  const x = amoeba.x + dx;
  const y = amoeba.y + dy;
  return y >= 0 && y < v.board.length && x >= 0 && x < v.board[0].length && v.board[y][x] === "." ? d : 5;
}

function movePanel(ctx, v, mine, ev, entry, form) {
  const amoeba = amoebaOf(mine, ev);
  const second = ev && ev.schritt === 2;
  const dice = entry ? entry.dice : null;
  const drift = v.card[0];
  const out = [h("p", { text: second ? t("Move amoeba #{n} at ({x},{y}) again (second step).", { n: amoeba.number, x: amoeba.x, y: amoeba.y }) : t("Move amoeba #{n} at ({x},{y}).", { n: amoeba.number, x: amoeba.x, y: amoeba.y }) })];
  if (dice) {
    const allowed = new Set();
    const faces = owns(mine, 17) ? [1, 2, 3, 4, 5] : owns(mine, 1) ? dice : [dice[0]];
    for (const f of faces) for (const d of f === 6 ? [1, 2, 3, 4, 5] : [f]) allowed.add(effective(v, amoeba, d));
    out.push(h("p", { testid: "ur-dice", text: t("You rolled {a} and {b}.", { a: dice[0], b: dice[1] }) }),
      directionButtons(ctx, "ur-move", (d) => ({ type: "Bewegen", amoebe: amoeba.number, richtung: d }), allowed));
    return out;
  }
  if (!second) {
    const go = effective(v, amoeba, drift);
    out.push(h("p", {}, `${t("Drift with the current:")} `,
      button(`${ARROWS[go]} ${go === 5 ? t("stay (blocked)") : t(DIRECTIONS[go])}`, "ur-drift", () => ctx.act({ type: "Bewegen", amoebe: amoeba.number, richtung: go })),
      owns(mine, 10) && go !== 5 ? button(t("Hold on (stay)"), "ur-hold", () => ctx.act({ type: "Bewegen", amoebe: amoeba.number, richtung: 5 })) : null));
  }
  const cost = second || owns(mine, 8) ? t("free") : "1 BP";
  out.push(h("p", {}, button(t("Roll the dice ({cost})", { cost }), "ur-roll", () => ctx.act({ type: "Wuerfeln" }), { class: "primary" }),
    second ? button(t("No second move"), "ur-no-second", () => ctx.act({ type: "KeineZweiteBewegung", amoebe: amoeba.number })) : null));
  if (owns(mine, 9)) {
    const here = cubesAt(v, amoeba.x, amoeba.y) || [];
    if (!form.tentacle) form.tentacle = here.map(() => 0);
    out.push(h("div", {}, h("span", { text: `${t("Tentacle: carry")} ` }),
      here.map((n, c) => h("input", { type: "number", min: 0, max: n, value: String(form.tentacle[c]), style: "width:3em", "aria-label": `${COLOUR_NAMES[c]} cubes to carry`, oninput: (e) => { form.tentacle[c] = Number(e.target.value) || 0; } })),
      button(t("Carry"), "ur-tentacle", () => ctx.act({ type: "Tentakel", amoebe: amoeba.number, naehrstoffe: form.tentacle }))));
  }
  return out;
}

/** The meal shapes the player's genes allow (note 7.4), as sorted count lists. */
function mealPatterns(players, frugal, substitute) {
  const shape = (xs) => [...xs].filter((n) => n > 0).sort((a, b) => b - a);
  const key = (xs) => xs.join(",");
  const lessOne = (p) => p.flatMap((n, i) => {
    const q = [...p]; q[i] -= 1; const s = shape(q);
    return s.length && s.reduce((a, b) => a + b, 0) >= 1 ? [s] : [];
  });
  const fewerColour = (p) => {
    if (p.length < 2) return [];
    const total = p.reduce((a, b) => a + b, 0) + 1;
    const k = p.length - 1;
    return [shape(Array.from({ length: k }, (_, i) => Math.floor(total / k) + (i < total % k ? 1 : 0)))];
  };
  let found = new Map([[key(players === 4 ? [1, 1, 1] : [2, 1]), players === 4 ? [1, 1, 1] : [2, 1]]]);
  const apply = (fn) => { for (const p of [...found.values()]) for (const q of fn(p)) found.set(key(q), q); };
  if (frugal && substitute) {
    const base = [...found.values()];
    const a = new Map(found); const b = new Map(found);
    found = a; apply(lessOne); apply(fewerColour);
    const first = found; found = b; apply(fewerColour); apply(lessOne);
    for (const [k, p] of first) found.set(k, p);
    for (const p of base) found.set(key(p), p);
  } else {
    if (frugal) apply(lessOne);
    if (substitute) apply(fewerColour);
  }
  return [...found.values()];
}

function permutations(items, k) {
  if (k === 0) return [[]];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)], k - 1).map((rest) => [x, ...rest]));
}

function mealsThatFit(v, seat, cubes, patterns) {
  const others = [...Array(v.players).keys()].filter((c) => c !== seat);
  const seen = new Map();
  for (const p of patterns) {
    for (const colours of permutations(others, p.length)) {
      if (colours.every((c, i) => cubes[c] >= p[i])) {
        const vec = Array(v.players).fill(0);
        colours.forEach((c, i) => { vec[c] = p[i]; });
        seen.set(vec.join(":"), vec);
      }
    }
  }
  return [...seen.values()].sort((a, b) => a.join(":").localeCompare(b.join(":")));
}

function eatPanel(ctx, v, mine, ev) {
  const amoeba = amoebaOf(mine, ev);
  const cubes = cubesAt(v, amoeba.x, amoeba.y) || Array(v.players).fill(0);
  const patterns = mealPatterns(v.players, owns(mine, 12), owns(mine, 6));
  const meals = mealsThatFit(v, ctx.seat, cubes, patterns);
  const out = [h("p", { text: t("Feed amoeba #{n} at ({x},{y}).", { n: amoeba.number, x: amoeba.x, y: amoeba.y }) })];
  if (meals.length) {
    out.push(h("div", { class: "row" }, meals.map((vec) => button(
      vec.map((n, c) => (n ? `${n} ${t(COLOUR_NAMES[c])}` : "")).filter(Boolean).join(" + "), "ur-meal",
      () => ctx.act({ type: "Fressen", amoebe: amoeba.number, naehrstoffe: vec }), { dataset: { meal: vec.join(":") } }))));
  } else {
    out.push(h("p", { class: "muted", text: t("No meal fits here: the amoeba starves (or fights).") }),
      button(t("Starve"), "ur-starve", () => ctx.act({ type: "Fressen", amoebe: amoeba.number, naehrstoffe: Array(v.players).fill(0) })));
  }
  if (owns(mine, 14)) {
    const victims = [...new Set(amoebasAt(v, amoeba.x, amoeba.y).map((a) => a.colour))].filter((c) => c !== ctx.seat);
    out.push(h("div", {}, h("span", { text: `${t("Parasitism against:")} ` }),
      victims.map((c) => button(nameOf(v, c), "ur-parasite", () => ctx.act({ type: "Parasitismus", amoebe: amoeba.number, gegen_farbe: c })))));
  }
  if (owns(mine, 13) && !meals.length) {
    const targets = amoebasAt(v, amoeba.x, amoeba.y).filter((a) => a.colour !== ctx.seat);
    out.push(h("div", {}, h("span", { text: `${t("Struggle for survival (1 BP):")} ` }),
      targets.map((a) => button(t("attack {name} #{n}", { name: nameOf(v, a.colour), n: a.number }), "ur-struggle",
        () => ctx.act({ type: "Ueberlebenskampf", amoebe: amoeba.number, fremde_farbe: a.colour, fremde_amoebe: a.number })))));
  }
  return out;
}

function holdPanel(ctx, v, ev) {
  if (!ev) return [h("p", { text: t("An amoeba leaves your field: hold on to it?") })];
  const action = (type) => ({ type, amoebe: ev.amoebe, mitfahr_farbe: ev.mitfahr_farbe, mitfahr_amoebe: ev.mitfahr_amoebe });
  return [h("p", { text: t("{name}'s amoeba #{n} leaves {dir}. Ride along with your amoeba #{mine}?", { name: nameOf(v, ev.mitfahr_farbe), n: ev.mitfahr_amoebe, dir: t(DIRECTIONS[ev.richtung]), mine: ev.amoebe }) }),
    button(t("Ride along"), "ur-ride", () => ctx.act(action("Klammern"))),
    button(t("Stay"), "ur-no-ride", () => ctx.act(action("NichtKlammern")))];
}

function defencePanel(ctx, v, mine, ev, entry) {
  const number = ev ? ev.amoebe : amoebaOf(mine, null).number;
  const code = ev ? ev.was_darf_sie_tun : 2;
  const amoeba = amoebaOf(mine, ev);
  const out = [h("p", { text: ev ? t("{name}'s amoeba #{n} attacks your amoeba #{mine}.", { name: nameOf(v, ev.angreifende_farbe), n: ev.angreifende_amoebe, mine: number }) : t("Your amoeba #{n} is attacked.", { n: number }) })];
  const dice = entry ? entry.dice : null;
  if (code !== 1) {
    if (dice) {
      const allowed = new Set();
      const faces = owns(mine, 17) ? [1, 2, 3, 4, 5] : owns(mine, 1) ? dice : [dice[0]];
      for (const f of faces) for (const d of f === 6 ? [1, 2, 3, 4, 5] : [f]) allowed.add(effective(v, amoeba, d));
      out.push(h("p", { text: t("You rolled {a} and {b}: flee.", { a: dice[0], b: dice[1] }) }),
        directionButtons(ctx, "ur-flee", (d) => ({ type: "Flucht", amoebe: number, richtung: d }), allowed));
      return out;
    }
    out.push(h("p", {}, button(t("Roll to flee"), "ur-flee-roll", () => ctx.act({ type: "Wuerfeln" })),
      button(t("Don't flee"), "ur-no-flee", () => ctx.act({ type: "KeineFlucht", amoebe: number }))));
  }
  if (code !== 0) {
    out.push(h("p", {}, button(t("Defend (1 BP)"), "ur-defend", () => ctx.act({ type: "Verteidigung", amoebe: number })),
      button(t("Don't defend"), "ur-no-defend", () => ctx.act({ type: "KeineVerteidigung", amoebe: number }))));
  }
  return out;
}

function defectPanel(ctx, v, mine, ev, form) {
  const pool = new Map(v.gene_pool.map((g) => [g.gene, g]));
  const d = ev ? ev.defekt : null;
  return [h("p", { text: t("Gene defects of {d}: surrender genes (each covers its mutation points; Ray Protection covers 4); your BP pay the rest.", { d: d !== null ? d : "?" }) }),
    h("div", {}, mine.genes.map((g) => h("label", { style: "display:block" },
      h("input", { type: "checkbox", testid: "ur-surrender", checked: form.surrender.has(g), onchange: (e) => { if (e.target.checked) form.surrender.add(g); else form.surrender.delete(g); } }),
      ` ${pool.get(g) ? geneName(pool.get(g)) : g}`))),
    button(t("Pay"), "ur-pay", () => ctx.act({ type: "DefektAusgleichen", gene: [...form.surrender].sort((a, b) => a - b) }), { class: "primary" })];
}

function buyPanel(ctx, v, mine, form) {
  const total = () => [...form.genes].reduce((sum, g) => sum + v.gene_pool.find((x) => x.gene === g).price, 0);
  const totalText = () => t("{total} of {bp} BP", { total: total(), bp: mine.bp });
  const totalEl = h("span", { testid: "ur-total", dataset: { total: String(total()) }, text: totalText() });
  const rows = v.gene_pool.filter((g) => g.copies > 0).map((g) => {
    const owned = mine.genes.includes(g.gene);
    return h("label", { class: "ur-buy-row", title: geneEffect(g) },
      h("input", {
        type: "checkbox", testid: "ur-gene", dataset: { gene: String(g.gene), price: String(g.price) }, disabled: owned || g.free <= 0,
        checked: form.genes.has(g.gene),
        onchange: (e) => { if (e.target.checked) form.genes.add(g.gene); else form.genes.delete(g.gene); totalEl.textContent = totalText(); ctx.rerender(); },
      }),
      h("span", {}, ` ${geneName(g)} · ${t("{price} BP, {free} left", { price: g.price, free: g.free })}${owned ? ` – ${t("yours")}` : ""}`,
        h("span", { class: "muted small ur-effect", text: ` ${geneEffect(g)}` })));
  });
  const armorChoice = form.genes.has(19) && mine.genes.includes(4) && mine.genes.includes(5)
    ? h("label", {}, `${t("Armor replaces:")} `,
      h("select", { testid: "ur-armor", onchange: (e) => { form.armor = Number(e.target.value); } },
        h("option", { value: "4", text: geneName(v.gene_pool.find((g) => g.gene === 4)), selected: form.armor === 4 }),
        h("option", { value: "5", text: geneName(v.gene_pool.find((g) => g.gene === 5)), selected: form.armor === 5 })))
    : null;
  const buy = () => ctx.act({ type: "GenKaufen", gene: [...form.genes].sort((a, b) => a - b), panzerung_abgeben: armorChoice ? form.armor : null });
  return [h("p", {}, `${t("Buy genes:")} `, totalEl),
    h("div", { class: "ur-buy-list" }, rows),
    armorChoice,
    h("p", {}, button(t("Buy"), "ur-buy", buy, { class: "primary" }),
      button(t("Buy nothing"), "ur-buy-nothing", () => ctx.act({ type: "GenKaufen", gene: [], panzerung_abgeben: null })))];
}

function divisionPanel(ctx, v, mine, form) {
  const cost = owns(mine, 15) ? 4 : 6;
  const targets = divisionTargets(v, mine, form.placements);
  // A refused block is dropped, so the board shows the real amoebas again (the reason shows
  // as the usual error toast).
  const place = () => Promise.resolve(ctx.act({ type: "AmoebenSetzen", setzungen: form.placements })).then((reply) => {
    if (reply === null) { form.placements.length = 0; ctx.rerender(); }
  });
  return [h("p", { text: mine.amoebas.length === 0
    ? t("Cell division: click highlighted fields to place new amoebas ({cost} BP each, the first one free). You have {bp} BP.", { cost, bp: mine.bp })
    : t("Cell division: click highlighted fields to place new amoebas ({cost} BP each, next to your amoebas). You have {bp} BP.", { cost, bp: mine.bp }) }),
    form.placements.length
      ? h("ul", {}, form.placements.map((p) => h("li", { text: t("#{n} at ({x},{y})", { n: p[0], x: p[1], y: p[2] }) })))
      : h("p", { class: "muted", text: t("Nothing planned yet.") }),
    targets.size === 0 ? h("p", { class: "muted", testid: "ur-no-targets", text: t("No more amoebas fit (BP, free numbers or fields).") }) : null,
    h("p", {},
      button(form.placements.length ? t("Place {n}", { n: form.placements.length }) : t("Place none"), "ur-divide", place, { class: "primary" }),
      form.placements.length ? button(t("Clear"), "ur-divide-clear", () => { form.placements.length = 0; ctx.rerender(); }) : null)];
}

function aggressionPanel(ctx, v, mine) {
  const attacks = [];
  for (const a of mine.amoebas) {
    for (const other of amoebasAt(v, a.x, a.y)) if (other.colour !== ctx.seat) attacks.push([a, other]);
  }
  return [h("p", { text: t("Aggression (1 BP, once a round): attack an amoeba on the field of one of yours?") }),
    attacks.map(([a, other]) => button(t("#{n} attacks {name} #{m}", { n: a.number, name: nameOf(v, other.colour), m: other.number }), "ur-aggression",
      () => ctx.act({ type: "Aggression", amoebe: a.number, gegen_farbe: other.colour, gegen_amoebe: other.number }))),
    button(t("Stay peaceful"), "ur-no-aggression", () => ctx.act({ type: "KeineAggression" }))];
}

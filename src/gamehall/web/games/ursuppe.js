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
    h("div", { style: "display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start" },
      h("div", { style: "flex:0 0 auto" },
        board(ctx, v, form),
        mine && !ctx.ended && v.my_request ? decision(ctx, v, mine, form) : null),
      h("div", { style: "flex:1 1 18rem;min-width:18rem" },
        environment(v),
        players(ctx, v),
        scoreTrack(v),
        genePool(v))));
}

// ------------------------------------------------------------------------------ helpers

function colourDot(colour, text = "") {
  return h("span", {
    class: "ur-dot",
    title: COLOUR_NAMES[colour],
    style: `display:inline-block;min-width:1.1em;padding:0 .2em;border-radius:.6em;color:#fff;font-size:.8em;text-align:center;background:${COLOURS[colour]}`,
    text,
  });
}

function nameOf(v, seat) {
  const s = v.seats.find((x) => x.seat === seat);
  return s ? s.name : `colour ${seat}`;
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
  const waiting = v.to_move.seats.map((s) => (s === ctx.seat ? "you" : nameOf(v, s)));
  let text = PHASES[v.phase] || v.phase;
  if (v.phase === "lobby") text = `Waiting for players: ${v.seats.length} of ${v.players} seated. The game starts when the table is full.`;
  else if (v.phase !== "beendet" && waiting.length) text += ` · waiting for ${waiting.join(", ")}`;
  const timer = ctx.timers.length && !ctx.ended ? ctx.timers[0] : null;
  return h("p", { class: "ur-status", role: "status", testid: "ur-status" },
    v.round ? h("span", { text: `Round ${v.round} · ` }) : null,
    h("span", { text }),
    timer ? h("span", {}, " · time left ", countdown(timer.deadline, { testid: "ur-timer" })) : null);
}

function gameOver(ctx, v) {
  if (v.phase !== "beendet") return null;
  const best = Math.max(...v.seats.map((s) => s.position));
  const winners = v.seats.filter((s) => s.position === best).map((s) => s.name);
  return h("div", { class: "banner win", testid: "game-over", role: "status" },
    h("strong", { text: `${winners.join(" and ")} ${winners.length > 1 ? "win" : "wins"}` }),
    h("span", { text: ` at space ${best} of the score track.` }));
}

// ------------------------------------------------------------------------------ the soup

function board(ctx, v, form) {
  const kind = v.my_request;
  const setup = kind === "ZUG_AMOEBE_SETZEN" && v.phase === "aufbau";
  const division = kind === "ZUG_AMOEBE_SETZEN" && v.phase === "zellteilung";
  const rows = v.board.length;
  const cols = v.board[0].length;
  const cells = [];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const mark = v.board[y][x];
      if (mark !== ".") {
        cells.push(h("div", {
          class: "ur-cell invalid", "aria-label": mark === "C" ? "compass" : "not playable",
          style: `border-radius:.4rem;background:${mark === "C" ? "#e8e2c8" : "#eee"};display:flex;align-items:center;justify-content:center;color:#999`,
          text: mark === "C" ? "compass" : "",
        }));
        continue;
      }
      const cubes = cubesAt(v, x, y) || [];
      const amoebas = amoebasAt(v, x, y);
      const planned = form.placements.filter((p) => p[1] === x && p[2] === y);
      const clickable = ctx.seat !== null && !ctx.ended && (setup ? amoebas.length === 0 : division);
      const content = [
        h("div", { class: "ur-cubes", "aria-label": "nutrients" },
          cubes.map((n, c) => h("span", { style: `color:${COLOURS[c]};font-weight:bold;margin-right:.3em`, title: `${n} ${COLOUR_NAMES[c]} nutrients`, text: String(n) }))),
        h("div", { class: "ur-amoebas" },
          amoebas.map((a) => colourDot(a.colour, `${a.number}${"✶".repeat(a.damage)}`)),
          planned.map((p) => colourDot(ctx.seat, `+${p[0]}`))),
      ];
      const attrs = {
        class: "ur-cell", testid: "ur-field", dataset: { x: String(x), y: String(y) },
        "aria-label": `field ${x} ${y}`,
        style: "border:1px solid #9bb;border-radius:.4rem;background:#e6f4f1;padding:.2rem;min-height:4.2rem;text-align:left;font:inherit",
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
  return h("section", { "aria-label": "The primordial soup" },
    h("div", { testid: "ur-board", style: `display:grid;grid-template-columns:repeat(${cols},5.2rem);gap:.25rem` }, cells));
}

function freeNumbers(v, seat, placements) {
  const me = v.seats.find((s) => s.seat === seat);
  const used = new Set([...(me ? me.amoebas.map((a) => a.number) : []), ...placements.map((p) => p[0])]);
  const out = [];
  for (let n = 0; n < v.amoebas_per_colour; n++) if (!used.has(n)) out.push(n);
  return out;
}

// ------------------------------------------------------------------------------ the side panels

function environment(v) {
  const [direction, ozone] = v.card;
  return h("section", { class: "card", testid: "ur-card", "aria-label": "Environment card" },
    h("h3", { text: "Environment" }),
    h("p", {}, `Drift: ${ARROWS[direction]} ${DIRECTIONS[direction] === "Stay" ? "none" : DIRECTIONS[direction]} · ozone layer ${ozone}`,
      h("span", { class: "muted", text: ` · ${v.cards_left} card${v.cards_left === 1 ? "" : "s"} left` })));
}

function players(ctx, v) {
  const genes = new Map(v.gene_pool.map((g) => [g.gene, g]));
  return h("section", { class: "card", "aria-label": "Players" },
    h("h3", { text: "Players" }),
    h("ul", { testid: "ur-players", style: "list-style:none;padding:0" },
      v.seats.map((s) => h("li", { dataset: { seat: String(s.seat) }, class: s.seat === ctx.seat ? "me" : "", style: "margin-bottom:.5rem" },
        colourDot(s.seat, "\u00a0"), " ",
        h("strong", { text: s.name }), s.seat === ctx.seat ? h("span", { class: "muted", text: " (you)" }) : null,
        !s.present || s.left ? h("span", { class: "muted", text: " away" }) : null,
        h("div", {},
          h("span", { testid: "ur-bp", text: `${s.bp} BP` }), " · ",
          h("span", { text: `space ${s.position < 0 ? "–" : s.position}` }), " · ",
          h("span", { text: `${s.amoebas.length} amoeba${s.amoebas.length === 1 ? "" : "s"}` })),
        s.amoebas.length ? h("div", { class: "muted", text: s.amoebas.map((a) => `#${a.number} at (${a.x},${a.y})${a.damage ? ` ${a.damage} DP` : ""}`).join(", ") }) : null,
        h("div", { testid: "ur-genes" }, s.genes.length
          ? s.genes.map((g) => h("span", { class: "badge", title: genes.get(g) ? genes.get(g).effect : "", style: "margin-right:.25em", text: genes.get(g) ? genes.get(g).name : String(g) }))
          : h("span", { class: "muted", text: "no genes" }))))));
}

function scoreTrack(v) {
  const length = v.ladder_length;
  const finish = length - v.finish_zone;
  return h("section", { class: "card", testid: "ur-track", "aria-label": "Score track" },
    h("h3", {}, "Score track ", h("span", { class: "muted", text: `(the game ends at ${finish})` })),
    h("div", { style: "position:relative;height:1.6rem;background:linear-gradient(90deg,#eef 0,#eef " + (finish / length) * 100 + "%,#fdd " + (finish / length) * 100 + "%);border-radius:.3rem" },
      v.seats.filter((s) => s.position >= 0).map((s) => h("span", {
        title: `${s.name}: ${s.position}`,
        style: `position:absolute;top:.2rem;left:calc(${Math.min(s.position, length) / length * 100}% - .5em);`,
      }, colourDot(s.seat, String(s.position))))));
}

function genePool(v) {
  return h("details", { class: "card", testid: "ur-gene-pool" },
    h("summary", { text: "Genes for sale" }),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", { text: "#" }), h("th", { text: "gene" }), h("th", { text: "price" }), h("th", { text: "left" }))),
      h("tbody", {}, v.gene_pool.filter((g) => g.copies > 0).map((g) => h("tr", { title: g.effect },
        h("td", { text: String(g.gene) }), h("td", { text: g.name }), h("td", { text: `${g.price} BP` }), h("td", { text: `${g.free}/${g.copies}` }))))));
}

// ------------------------------------------------------------------------------ decisions

function decision(ctx, v, mine, form) {
  const kind = v.my_request;
  const entry = request(ctx);
  const ev = entry ? entry.request : null;
  let body;
  switch (kind) {
    case "ZUG_BEREIT":
      body = [h("p", { text: "Are you ready?" }), button("Ready", "ur-ready", () => ctx.act({ type: "Bereit" }), { class: "primary" })];
      break;
    case "ZUG_POSITION": {
      const taken = new Set(v.seats.map((s) => s.position));
      body = [h("p", { text: "Choose your start space on the score track (lower spaces move first in phase 1)." }),
        Array.from({ length: v.players }, (_, p) => p).filter((p) => !taken.has(p))
          .map((p) => button(`Space ${p}`, "ur-position", () => ctx.act({ type: "Position", position: p })))];
      break;
    }
    case "ZUG_AMOEBE_SETZEN":
      body = v.phase === "aufbau"
        ? [h("p", { text: `Click an empty field for your amoeba #${freeNumbers(v, ctx.seat, [])[0]}.` })]
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
  return h("section", { class: "card ur-decision", testid: "ur-decision", dataset: { request: kind }, "aria-label": "Your decision", style: "max-width:27rem" },
    h("h3", { text: "Your move" }), body);
}

/** The amoeba a request is about: from its event, or (after a reload) the first own one. */
function amoebaOf(mine, ev) {
  const number = ev && ev.amoebe !== undefined ? ev.amoebe : mine.amoebas.length ? mine.amoebas[0].number : 0;
  return mine.amoebas.find((a) => a.number === number) || { number, x: -1, y: -1, damage: 0 };
}

function directionButtons(ctx, testid, make, allowed) {
  return h("div", { class: "row" }, [1, 2, 3, 4, 5].map((d) => button(`${ARROWS[d]} ${DIRECTIONS[d]}`, testid,
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
  const out = [h("p", { text: `Move amoeba #${amoeba.number} at (${amoeba.x},${amoeba.y})${second ? " again (second step)" : ""}.` })];
  if (dice) {
    const allowed = new Set();
    const faces = owns(mine, 17) ? [1, 2, 3, 4, 5] : owns(mine, 1) ? dice : [dice[0]];
    for (const f of faces) for (const d of f === 6 ? [1, 2, 3, 4, 5] : [f]) allowed.add(effective(v, amoeba, d));
    out.push(h("p", { testid: "ur-dice", text: `You rolled ${dice[0]} and ${dice[1]}.` }),
      directionButtons(ctx, "ur-move", (d) => ({ type: "Bewegen", amoebe: amoeba.number, richtung: d }), allowed));
    return out;
  }
  if (!second) {
    const go = effective(v, amoeba, drift);
    out.push(h("p", {}, "Drift with the current: ",
      button(`${ARROWS[go]} ${go === 5 ? "stay (blocked)" : DIRECTIONS[go]}`, "ur-drift", () => ctx.act({ type: "Bewegen", amoebe: amoeba.number, richtung: go })),
      owns(mine, 10) && go !== 5 ? button("Hold on (stay)", "ur-hold", () => ctx.act({ type: "Bewegen", amoebe: amoeba.number, richtung: 5 })) : null));
  }
  const cost = second || owns(mine, 8) ? "free" : "1 BP";
  out.push(h("p", {}, button(`Roll the dice (${cost})`, "ur-roll", () => ctx.act({ type: "Wuerfeln" }), { class: "primary" }),
    second ? button("No second move", "ur-no-second", () => ctx.act({ type: "KeineZweiteBewegung", amoebe: amoeba.number })) : null));
  if (owns(mine, 9)) {
    const here = cubesAt(v, amoeba.x, amoeba.y) || [];
    if (!form.tentacle) form.tentacle = here.map(() => 0);
    out.push(h("div", {}, h("span", { text: "Tentacle: carry " }),
      here.map((n, c) => h("input", { type: "number", min: 0, max: n, value: String(form.tentacle[c]), style: "width:3em", "aria-label": `${COLOUR_NAMES[c]} cubes to carry`, oninput: (e) => { form.tentacle[c] = Number(e.target.value) || 0; } })),
      button("Carry", "ur-tentacle", () => ctx.act({ type: "Tentakel", amoebe: amoeba.number, naehrstoffe: form.tentacle }))));
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
  const out = [h("p", { text: `Feed amoeba #${amoeba.number} at (${amoeba.x},${amoeba.y}).` })];
  if (meals.length) {
    out.push(h("div", { class: "row" }, meals.map((vec) => button(
      vec.map((n, c) => (n ? `${n} ${COLOUR_NAMES[c]}` : "")).filter(Boolean).join(" + "), "ur-meal",
      () => ctx.act({ type: "Fressen", amoebe: amoeba.number, naehrstoffe: vec }), { dataset: { meal: vec.join(":") } }))));
  } else {
    out.push(h("p", { class: "muted", text: "No meal fits here: the amoeba starves (or fights)." }),
      button("Starve", "ur-starve", () => ctx.act({ type: "Fressen", amoebe: amoeba.number, naehrstoffe: Array(v.players).fill(0) })));
  }
  if (owns(mine, 14)) {
    const victims = [...new Set(amoebasAt(v, amoeba.x, amoeba.y).map((a) => a.colour))].filter((c) => c !== ctx.seat);
    out.push(h("div", {}, h("span", { text: "Parasitism against: " }),
      victims.map((c) => button(nameOf(v, c), "ur-parasite", () => ctx.act({ type: "Parasitismus", amoebe: amoeba.number, gegen_farbe: c })))));
  }
  if (owns(mine, 13) && !meals.length) {
    const targets = amoebasAt(v, amoeba.x, amoeba.y).filter((a) => a.colour !== ctx.seat);
    out.push(h("div", {}, h("span", { text: "Struggle for survival (1 BP): " }),
      targets.map((a) => button(`attack ${nameOf(v, a.colour)} #${a.number}`, "ur-struggle",
        () => ctx.act({ type: "Ueberlebenskampf", amoebe: amoeba.number, fremde_farbe: a.colour, fremde_amoebe: a.number })))));
  }
  return out;
}

function holdPanel(ctx, v, ev) {
  if (!ev) return [h("p", { text: "An amoeba leaves your field: hold on to it?" })];
  const action = (type) => ({ type, amoebe: ev.amoebe, mitfahr_farbe: ev.mitfahr_farbe, mitfahr_amoebe: ev.mitfahr_amoebe });
  return [h("p", { text: `${nameOf(v, ev.mitfahr_farbe)}'s amoeba #${ev.mitfahr_amoebe} leaves ${DIRECTIONS[ev.richtung]}. Ride along with your amoeba #${ev.amoebe}?` }),
    button("Ride along", "ur-ride", () => ctx.act(action("Klammern"))),
    button("Stay", "ur-no-ride", () => ctx.act(action("NichtKlammern")))];
}

function defencePanel(ctx, v, mine, ev, entry) {
  const number = ev ? ev.amoebe : amoebaOf(mine, null).number;
  const code = ev ? ev.was_darf_sie_tun : 2;
  const amoeba = amoebaOf(mine, ev);
  const out = [h("p", { text: ev ? `${nameOf(v, ev.angreifende_farbe)}'s amoeba #${ev.angreifende_amoebe} attacks your amoeba #${number}.` : `Your amoeba #${number} is attacked.` })];
  const dice = entry ? entry.dice : null;
  if (code !== 1) {
    if (dice) {
      const allowed = new Set();
      const faces = owns(mine, 17) ? [1, 2, 3, 4, 5] : owns(mine, 1) ? dice : [dice[0]];
      for (const f of faces) for (const d of f === 6 ? [1, 2, 3, 4, 5] : [f]) allowed.add(effective(v, amoeba, d));
      out.push(h("p", { text: `You rolled ${dice[0]} and ${dice[1]}: flee.` }),
        directionButtons(ctx, "ur-flee", (d) => ({ type: "Flucht", amoebe: number, richtung: d }), allowed));
      return out;
    }
    out.push(h("p", {}, button("Roll to flee", "ur-flee-roll", () => ctx.act({ type: "Wuerfeln" })),
      button("Don't flee", "ur-no-flee", () => ctx.act({ type: "KeineFlucht", amoebe: number }))));
  }
  if (code !== 0) {
    out.push(h("p", {}, button("Defend (1 BP)", "ur-defend", () => ctx.act({ type: "Verteidigung", amoebe: number })),
      button("Don't defend", "ur-no-defend", () => ctx.act({ type: "KeineVerteidigung", amoebe: number }))));
  }
  return out;
}

function defectPanel(ctx, v, mine, ev, form) {
  const pool = new Map(v.gene_pool.map((g) => [g.gene, g]));
  const d = ev ? ev.defekt : null;
  return [h("p", { text: `Gene defects${d !== null ? ` of ${d}` : ""}: surrender genes (each covers its mutation points; Ray Protection covers 4); your BP pay the rest.` }),
    h("div", {}, mine.genes.map((g) => h("label", { style: "display:block" },
      h("input", { type: "checkbox", testid: "ur-surrender", checked: form.surrender.has(g), onchange: (e) => { if (e.target.checked) form.surrender.add(g); else form.surrender.delete(g); } }),
      ` ${pool.get(g) ? pool.get(g).name : g}`))),
    button("Pay", "ur-pay", () => ctx.act({ type: "DefektAusgleichen", gene: [...form.surrender].sort((a, b) => a - b) }), { class: "primary" })];
}

function buyPanel(ctx, v, mine, form) {
  const total = () => [...form.genes].reduce((sum, g) => sum + v.gene_pool.find((x) => x.gene === g).price, 0);
  const totalEl = h("span", { testid: "ur-total", text: `${total()} of ${mine.bp} BP` });
  const rows = v.gene_pool.filter((g) => g.copies > 0).map((g) => {
    const owned = mine.genes.includes(g.gene);
    return h("label", { style: "display:block", title: g.effect },
      h("input", {
        type: "checkbox", testid: "ur-gene", dataset: { gene: String(g.gene) }, disabled: owned || g.free <= 0,
        checked: form.genes.has(g.gene),
        onchange: (e) => { if (e.target.checked) form.genes.add(g.gene); else form.genes.delete(g.gene); totalEl.textContent = `${total()} of ${mine.bp} BP`; ctx.rerender(); },
      }),
      ` ${g.name} (${g.price} BP, ${g.free} left)${owned ? " – yours" : ""}`);
  });
  const armorChoice = form.genes.has(19) && mine.genes.includes(4) && mine.genes.includes(5)
    ? h("label", {}, "Armor replaces: ",
      h("select", { testid: "ur-armor", onchange: (e) => { form.armor = Number(e.target.value); } },
        h("option", { value: "4", text: "Defense", selected: form.armor === 4 }),
        h("option", { value: "5", text: "Escape", selected: form.armor === 5 })))
    : null;
  const buy = () => ctx.act({ type: "GenKaufen", gene: [...form.genes].sort((a, b) => a - b), panzerung_abgeben: armorChoice ? form.armor : null });
  return [h("p", {}, "Buy genes: ", totalEl),
    h("div", { style: "max-height:16rem;overflow:auto" }, rows),
    armorChoice,
    h("p", {}, button("Buy", "ur-buy", buy, { class: "primary" }),
      button("Buy nothing", "ur-buy-nothing", () => ctx.act({ type: "GenKaufen", gene: [], panzerung_abgeben: null })))];
}

function divisionPanel(ctx, v, mine, form) {
  const cost = owns(mine, 15) ? 4 : 6;
  return [h("p", { text: `Cell division: click fields to place new amoebas (${cost} BP each${mine.amoebas.length === 0 ? ", the first one free" : ""}; next to your amoebas). You have ${mine.bp} BP.` }),
    form.placements.length
      ? h("ul", {}, form.placements.map((p) => h("li", { text: `#${p[0]} at (${p[1]},${p[2]})` })))
      : h("p", { class: "muted", text: "Nothing planned yet." }),
    h("p", {},
      button(form.placements.length ? `Place ${form.placements.length}` : "Place none", "ur-divide", () => ctx.act({ type: "AmoebenSetzen", setzungen: form.placements }), { class: "primary" }),
      form.placements.length ? button("Clear", "ur-divide-clear", () => { form.placements.length = 0; ctx.rerender(); }) : null)];
}

function aggressionPanel(ctx, v, mine) {
  const attacks = [];
  for (const a of mine.amoebas) {
    for (const other of amoebasAt(v, a.x, a.y)) if (other.colour !== ctx.seat) attacks.push([a, other]);
  }
  return [h("p", { text: "Aggression (1 BP, once a round): attack an amoeba on the field of one of yours?" }),
    attacks.map(([a, other]) => button(`#${a.number} attacks ${nameOf(v, other.colour)} #${other.number}`, "ur-aggression",
      () => ctx.act({ type: "Aggression", amoebe: a.number, gegen_farbe: other.colour, gegen_amoebe: other.number }))),
    button("Stay peaceful", "ur-no-aggression", () => ctx.act({ type: "KeineAggression" }))];
}

// Mr. Jack in New York at the browser table: the board (games/mrjack-board.js), the round and
// turn, the witness card, the four character cards of the turn, the step-by-step turn (card,
// then Move / Ability / Skip, then the target hexes the engine offers), suspicion marks, the
// alibi cards you drew, Mr. Jack's identity (shown only to Mr. Jack: the view hides it from
// everybody else until the end), a short log of what happened and the game's end.
//
// Renders the engine's view (rules/mrjack/view.py); legal choices come from the view only
// (`auswahl`, `legal_parts`, `moeglichkeiten`), nothing is computed here. Sends the engine's
// actions (rules/mrjack/actions.py) as ActionCodec JSON: {"type": "aktiv", "farbe": "gelb"}.

import { gameOverPanel } from "./summary.js";
import { addTranslations, scoped } from "../i18n.js";
import { h, countdown } from "../ui.js";
import { boardSvg, characterName, COLOURS, CHARACTERS } from "./mrjack-board.js";
import { STYLE } from "./mrjack-style.js";

export const id = "mrjack";

/** This renderer shows the turn timer itself. */
export const showsTimers = true;

const tr = scoped("mrjack");

const ROLE_WORDS = { mrjack: "Mr. Jack", detektiv: "the detective" };
const ROLE_TITLES = { mrjack: "Mr. Jack", detektiv: "Detective" };
const COLOUR_ORDER = ["rot", "gelb", "braun", "gruen", "beige", "schwarz", "lila", "weiss"];
/** Who picks the four cards of a round (spec 9.2): odd rounds D J J D, even rounds J D D J. */
const PICKERS = { odd: ["detektiv", "mrjack", "mrjack", "detektiv"], even: ["mrjack", "detektiv", "detektiv", "mrjack"] };

/** What each character's ability asks for, step by step (spec section 8). */
const ABILITY_STEPS = {
  callahan: ["Pick an investigation tile (either of its hexes).", "Pick the first hex where it goes.", "Pick the second hex, next to the first."],
  latimer: ["Place a gas lamp on an empty street."],
  beach: ["Open a metro entrance on an empty street."],
  grant: ["Turn a metro, gas-lamp or building-site tile into a park."],
  cloudrider: ["Put a building site on an empty street."],
  eastman: ["Pick another character to move.", "Pick where that character goes."],
  tumblety: ["Pick a character next to Tumblety.", "Pick the character to swap places with it."],
  smith: ["Pick a steamer.", "Pick the free port it sails to."],
};
/** The accessible name of a target hex, per ability and step. */
const ABILITY_TARGETS = {
  callahan: ["Lift this investigation tile", "First new hex of the tile", "Second new hex of the tile"],
  latimer: ["Place a gas lamp here"],
  beach: ["Open a metro entrance here"],
  grant: ["Turn this tile into a park"],
  cloudrider: ["Put a building site here"],
  eastman: ["Move this character", "Move it here"],
  tumblety: ["Swap this character", "Swap with this character"],
  smith: ["Sail this steamer", "Sail to this port"],
};
const ABILITY_SUMMARY = {
  callahan: "moves an investigation tile",
  latimer: "places a gas lamp",
  beach: "opens a metro entrance",
  grant: "turns a tile into a park",
  cloudrider: "places a building site; flies over buildings",
  eastman: "moves another character (his only action)",
  tumblety: "swaps a neighbour with another character",
  smith: "moves a steamer",
};
const TILE_WORDS = { metro: "a metro entrance", laterne: "a gas lamp", haus: "a building site", park: "a park" };

const tables = new Map(); // room id -> per-room client state (see tableState)

function tableState(roomId) {
  let st = tables.get(roomId);
  if (!st) {
    st = { chosen: [], recent: new Set(), resetRecent: false, log: [], accuse: null, resign: false, auswahl: null, policy: "heuristic" };
    tables.set(roomId, st);
  }
  return st;
}

// ------------------------------------------------------------------------------ events

/** Remember the targets chosen in the open Teilzug, the hexes the last activation changed and
 * a short log of the table's happenings. */
export function onEvent(app, room, ev) {
  const st = tableState(room.id);
  const chars = room.view ? room.view.characters : null;
  const who = (colour) => (chars ? characterName(colour, chars) : colour);
  const changed = (...hexes) => {
    if (st.resetRecent) { st.recent.clear(); st.resetRecent = false; }
    for (const hex of hexes) st.recent.add(hex);
  };
  const log = (text) => { st.log.push(text); if (st.log.length > 40) st.log.shift(); };
  switch (ev.type) {
    case "FarbeAktiv": case "AktionAkzeptiert": st.chosen = []; st.accuse = null; break;
    case "KoordinateAkzeptiert": st.chosen.push(ev.koordinate); break;
    case "EndeSpielzug": st.chosen = []; st.resetRecent = true; break;
    case "BeginnRunde": log(`Round ${ev.runde} begins.`); break;
    case "Auswahl": {
      const before = st.auswahl;
      st.auswahl = ev.karten;
      if (before && before.length === ev.karten.length) {
        ev.karten.forEach(([colour, free], i) => {
          if (!free && before[i][0] === colour && before[i][1]) log(`${who(colour)} was played.`);
        });
      }
      break;
    }
    case "UpdateFigur": changed(ev.koordinate); log(`${who(ev.farbe)} → ${ev.koordinate}.`); break;
    case "UpdateArt": changed(ev.koordinate); log(`${ev.koordinate} is now ${TILE_WORDS[ev.art] || ev.art}.`); break;
    case "UpdateSchiff": changed(ev.von, ev.nach); log(`A steamer sailed ${ev.von} → ${ev.nach}.`); break;
    case "UpdateAbsp": changed(ev.alt1, ev.alt2, ev.neu1, ev.neu2); log(`Investigation tile ${ev.alt1}+${ev.alt2} → ${ev.neu1}+${ev.neu2}.`); break;
    case "UpdateSpion": changed(ev.koordinate); log(`The informant moved to ${ev.koordinate}.`); break;
    case "UpdateAlibi": log(`The informant showed you an alibi: ${who(ev.farbe)} is innocent.`); break;
    case "Sichtbar": log(ev.sichtbar ? "The witness saw Mr. Jack." : "The witness did not see Mr. Jack."); break;
    case "UpdateVerdacht": log(ev.verdaechtig ? `${who(ev.farbe)} is a suspect again.` : `${who(ev.farbe)} is cleared.`); break;
    case "EndeSpiel": log(`Game over: Mr. Jack was ${who(ev.farbe)}.`); break;
    default: break;
  }
}

// ------------------------------------------------------------------------------ the table

export function render(ctx) {
  installStyle();
  const v = ctx.view;
  const st = tableState(ctx.room.id);
  const myTurn = ctx.seat !== null && v.to_move === ctx.seat && !ctx.ended;
  if (!myTurn || v.phase !== "ziel") st.accuse = null;
  if (v.phase !== "ziel") st.chosen = [];
  const targets = targetsFor(ctx, v, st, myTurn);
  const onTarget = (label) => chooseTarget(ctx, v, st, label);
  return h("div", { class: "mj", dataset: { phase: v.phase } },
    statusLine(ctx, v, st, myTurn),
    gameOver(ctx, v),
    h("div", { class: "mj-grid" },
      h("div", { class: "mj-boardwrap" },
        h("div", { class: "mj-board-scroll" },
          boardSvg({ view: v, targets, onTarget, recent: st.recent, chosen: new Set(st.chosen) })),
        legend(),
        logPanel(st)),
      h("div", { class: "mj-side" },
        v.phase === "lobby" ? lobbyPanel(ctx, v, st) : null,
        whoPanel(ctx, v),
        turnPanel(ctx, v),
        cardsPanel(ctx, v),
        actionPanel(ctx, v, st, myTurn, targets),
        suspectsPanel(ctx, v),
        resignPanel(ctx, v, st))));
}

function installStyle() {
  if (document.getElementById("mj-style")) return;
  document.head.appendChild(h("style", { id: "mj-style", text: STYLE }));
}

function roleOf(v, seat) {
  const entry = v.seats.find((x) => x.seat === seat);
  return entry ? entry.role : null;
}

function nameOfRole(v, role) {
  const entry = v.seats.find((x) => x.role === role);
  return entry ? entry.name : ROLE_WORDS[role];
}

function activeName(v) {
  return v.active ? characterName(v.active, v.characters) : "";
}

function statusLine(ctx, v, st, myTurn) {
  let text;
  const mover = v.to_move === null ? null : v.seats.find((x) => x.seat === v.to_move);
  const moverText = mover ? `${mover.name} (${ROLE_WORDS[mover.role]})` : "";
  switch (v.phase) {
    case "lobby": text = tr("Waiting for an opponent: the game starts when both roles are taken."); break;
    case "aktiv": text = myTurn ? tr("Your turn: choose one of the character cards (or click its character on the board).") : tr("{who} is choosing a character.", { who: moverText }); break;
    case "aktion": text = myTurn
      ? (v.legal_parts.includes("skip") ? tr("You play {name}: choose Move or Ability, or Skip.", { name: activeName(v) }) : tr("You play {name}: choose Move or Ability.", { name: activeName(v) }))
      : tr("{who} plays {name}.", { who: moverText, name: activeName(v) }); break;
    case "ziel": text = myTurn ? stepPrompt(v, st) : tr("{who} plays {name}.", { who: moverText, name: activeName(v) }); break;
    case "verdacht": text = myTurn ? tr("Round end: click characters to mark or clear them, then press Done.") : tr("The detective is marking suspects."); break;
    case "over": text = tr("The game is over."); break;
    default: text = v.phase;
  }
  const timer = ctx.timers.length && !ctx.ended ? ctx.timers[0] : null;
  return h("p", { class: myTurn ? "mj-status mine" : "mj-status", role: "status", testid: "mj-status" },
    v.round ? h("strong", { text: `${tr("Round {n} of 8 · turn {m} of 4", { n: v.round, m: v.spielzug })} · ` }) : null,
    h("span", { text }),
    timer ? h("span", { class: "mj-timer" }, " · ", countdown(timer.deadline, { testid: "mj-timer" }), ` ${tr("left")}`) : null);
}

/** What the open Teilzug asks for now, in words. */
function stepPrompt(v, st) {
  const key = v.characters[v.active];
  const step = st.chosen.length;
  if (v.part === "bewegen") {
    if (step >= 1) return "The informant showed you an alibi card: now move the informant to an empty street.";
    const detective = v.you === "detektiv" ? " Moving onto another character accuses it." : "";
    return `Move ${activeName(v)}: click a highlighted hex (1 to 3 steps; a metro ride or a ferry counts as one).${detective}`;
  }
  const steps = ABILITY_STEPS[key] || ["Choose a highlighted hex."];
  return `${activeName(v)}'s ability: ${steps[Math.min(step, steps.length - 1)]}`;
}

function gameOver(ctx, v) {
  if (v.phase !== "over" || !v.winner) return null;
  const jack = v.jack ? characterName(v.jack, v.characters) : "unknown";
  const winnerName = nameOfRole(v, v.winner);
  const loser = v.winner === "mrjack" ? "detektiv" : "mrjack";
  const how = {
    accusation: v.winner === "detektiv" ? "The detective caught Mr. Jack." : "The detective accused an innocent person.",
    escape: "Mr. Jack escaped from Manhattan.",
    time: "Mr. Jack stayed hidden for eight rounds.",
    resigned: `${nameOfRole(v, loser)} (${ROLE_WORDS[loser]}) resigned.`,
    left: `${nameOfRole(v, loser)} (${ROLE_WORDS[loser]}) left the game.`,
    timeout: `${nameOfRole(v, loser)} (${ROLE_WORDS[loser]}) ran out of time.`,
  }[v.reason] || "";
  const mine = ctx.seat !== null && roleOf(v, ctx.seat) === v.winner;
  const history = v.suspects_by_round || [];
  const chart = history.length ? {
    labels: ["0", ...history.map((row) => String(row[0]))],
    lines: [{ name: "Suspects left", values: [COLOURS.length, ...history.map((row) => row[1])] }],
    title: "Suspects left after each round",
    xLabel: "round",
  } : null;
  const standings = ["mrjack", "detektiv"].map((role) => ({
    name: `${nameOfRole(v, role)} (${ROLE_WORDS[role]})`, score: role === v.winner ? "won" : "lost", me: ctx.seat !== null && roleOf(v, ctx.seat) === role,
  })).sort((a) => (a.score === "won" ? -1 : 1));
  return h("div", { class: mine ? "mj-over win" : "mj-over", testid: "game-over" },
    gameOverPanel({
      headline: `${ROLE_TITLES[v.winner]} wins (${winnerName}).`,
      reason: `${how} Mr. Jack was ${jack}. ${tn(history.length ? history[history.length - 1][0] : v.round)}`,
      standings,
      chart,
      scoreLabel: "Result",
    }));
}

/** "It took 5 rounds." */
function tn(rounds) {
  return rounds === 1 ? "It took 1 round." : `It took ${rounds} rounds.`;
}

// ------------------------------------------------------------------------------ side panels

function lobbyPanel(ctx, v, st) {
  const mine = ctx.seat === null ? null : roleOf(v, ctx.seat);
  const other = mine === "mrjack" ? "detektiv" : "mrjack";
  const taken = new Set(v.seats.map((x) => x.role));
  const operator = ctx.info && ctx.info.operator && ctx.info.operator.toLowerCase() === ctx.me.toLowerCase();
  return h("section", { class: "mj-panel", "aria-label": "Before the game", testid: "mj-lobby" },
    h("h3", { text: tr("Before the game") }),
    mine ? h("p", {}, "You will play ", h("strong", { testid: "mj-my-role", text: ROLE_WORDS[mine] }), ".") : null,
    mine && !taken.has(other)
      ? h("button", { type: "button", testid: `mj-role-${other}`, onclick: () => ctx.act({ type: "init", spieler: other }), text: `Play ${ROLE_WORDS[other]} instead` })
      : null,
    operator && v.seats.length === 1 ? h("div", { class: "row mj-bots" },
      h("label", {}, "Bot ",
        h("select", { testid: "mj-bot-policy", "aria-label": "Bot strength", onchange: (e) => { st.policy = e.target.value; } },
          ["heuristic", "random"].map((p) => h("option", { value: p, selected: st.policy === p, text: p === "heuristic" ? "thinking" : "random" })))),
      h("button", { type: "button", class: "primary", testid: "mj-add-bot", onclick: () => ctx.app.run({ t: "bots", room: ctx.room.id, count: 1, policy: st.policy }), text: tr("Play against a bot") }))
      : null,
    h("p", { class: "muted", text: "Or wait here: the next player to join this table, in the browser or with a term-protocol client, takes the other role." }));
}

function whoPanel(ctx, v) {
  const mine = ctx.seat === null ? null : roleOf(v, ctx.seat);
  return h("section", { class: "mj-panel", "aria-label": "Players" },
    h("ul", { class: "mj-players" },
      ["mrjack", "detektiv"].map((role) => {
        const entry = v.seats.find((x) => x.role === role);
        const turn = entry && v.to_move === entry.seat;
        return h("li", { class: turn ? "turn" : "", dataset: { role } },
          h("span", { class: `mj-role ${role}`, text: ROLE_TITLES[role] }),
          h("span", { text: entry ? ` ${entry.name}` : " (free)" }),
          entry && entry.seat === ctx.seat ? h("span", { class: "muted", text: " (you)" }) : null,
          turn ? h("span", { class: "badge", text: "to play" }) : null);
      })),
    mine === "mrjack" && v.jack && v.phase !== "over" ? h("p", { class: "mj-secret", testid: "mj-jack-identity" },
      "Secretly, you are ", colourChip(v.jack), h("strong", { text: characterName(v.jack, v.characters) }),
      ". Only you can see this.") : null,
    ctx.seat === null ? h("p", { class: "muted", text: tr("You are watching.") }) : null);
}

function colourChip(colour) {
  const spec = COLOURS[colour] || { fill: "#888" };
  return h("span", { class: "mj-chip", style: `background:${spec.fill}`, "aria-hidden": "true" });
}

function turnPanel(ctx, v) {
  if (v.phase === "lobby") return null;
  const pickers = v.round % 2 === 1 ? PICKERS.odd : PICKERS.even;
  const mine = ctx.seat === null ? null : roleOf(v, ctx.seat);
  return h("section", { class: "mj-panel", "aria-label": "Round and turn" },
    h("ol", { class: "mj-rounds", testid: "mj-round", "aria-label": `Round ${v.round} of 8` },
      Array.from({ length: 8 }, (_, i) => h("li", { class: i + 1 === v.round ? "now" : i + 1 < v.round ? "past" : "", text: String(i + 1) }))),
    h("p", { class: v.witness_seen ? "mj-witness seen" : "mj-witness unseen", testid: "mj-witness" },
      h("strong", { text: `${tr("Witness card:")} ` }),
      v.witness_seen ? tr("Mr. Jack was seen (he cannot escape).") : tr("Mr. Jack was not seen (he may escape this round).")),
    h("ol", { class: "mj-pickers", "aria-label": "Who picks each turn" },
      pickers.map((role, i) => h("li", { class: i + 1 === v.spielzug ? "now" : "", text: `${i + 1}. ${role === mine ? "you" : ROLE_TITLES[role]}` }))));
}

function cardsPanel(ctx, v) {
  if (v.phase === "lobby") return null;
  const canPick = v.phase === "aktiv" && v.to_move === ctx.seat && !ctx.ended;
  return h("section", { class: "mj-panel mj-cards-panel", "aria-label": "Character cards" },
    h("h3", { text: tr("Character cards this turn") }),
    h("ul", { class: "mj-cards", testid: "mj-cards" },
      v.auswahl.map(([colour, free]) => {
        const key = v.characters[colour];
        const active = v.active === colour;
        return h("li", {},
          h("button", {
            type: "button",
            class: ["mj-card", free ? "" : "used", active ? "active" : ""].filter(Boolean).join(" "),
            testid: "mj-card",
            dataset: { colour },
            disabled: !(canPick && free),
            "aria-label": `${characterName(colour, v.characters)}: ${ABILITY_SUMMARY[key] || ""}${free ? "" : " (played)"}`,
            onclick: () => ctx.act({ type: "aktiv", farbe: colour }),
          },
            colourChip(colour),
            h("span", { class: "mj-card-name", text: CHARACTERS[key] ? CHARACTERS[key].name : key }),
            h("span", { class: "mj-card-ability", text: ABILITY_SUMMARY[key] || "" }),
            active ? h("span", { class: "badge", text: "playing" }) : !free ? h("span", { class: "muted", text: " played" }) : null));
      })));
}

/** The clickable hexes: the characters of the free cards while picking, the offered targets of
 * the open Teilzug, or every character while the detective marks suspects; value = the action
 * in words. */
function targetsFor(ctx, v, st, myTurn) {
  const targets = new Map();
  if (!myTurn) return targets;
  const occupant = new Map(Object.entries(v.board.figures).map(([colour, hex]) => [hex, colour]));
  if (v.phase === "verdacht") {
    for (const [hex, colour] of occupant) targets.set(hex, `${v.suspects.includes(colour) ? "Clear" : "Suspect"} ${characterName(colour, v.characters)}`);
    return targets;
  }
  if (v.phase === "aktiv") { // a free card's character may be picked on the board too
    for (const [colour, free] of v.auswahl) {
      if (free) targets.set(v.board.figures[colour], `Play ${characterName(colour, v.characters)}`);
    }
    return targets;
  }
  if (v.phase !== "ziel") return targets;
  const step = st.chosen.length;
  for (const hex of v.moeglichkeiten) {
    let text = "Choose";
    if (v.part === "bewegen" && step === 0) {
      const other = occupant.get(hex);
      if (other && v.you === "detektiv") text = `Accuse ${characterName(other, v.characters)}`;
      else if (/^(c7|f2|h9|l9|m1|o6)$/.test(hex)) text = "Escape";
      else text = `Move ${activeName(v)} here`;
    } else if (v.part === "bewegen") {
      text = "Move the informant here";
    } else {
      const names = ABILITY_TARGETS[v.characters[v.active]] || ["Choose"];
      text = names[Math.min(step, names.length - 1)];
    }
    targets.set(hex, text);
  }
  return targets;
}

function chooseTarget(ctx, v, st, label) {
  if (v.phase === "aktiv") {
    const colour = Object.keys(v.board.figures).find((c) => v.board.figures[c] === label);
    if (colour) ctx.act({ type: "aktiv", farbe: colour });
    return;
  }
  if (v.phase === "verdacht") { ctx.act({ type: "ziel", koordinate: label }); return; }
  const accusing = v.part === "bewegen" && st.chosen.length === 0 && v.you === "detektiv" && Object.values(v.board.figures).includes(label);
  if (accusing) { st.accuse = label; ctx.rerender(); return; }
  ctx.act({ type: "ziel", koordinate: label });
}

function actionPanel(ctx, v, st, myTurn, targets) {
  if (!myTurn || !["aktion", "ziel", "verdacht"].includes(v.phase)) return null;
  const key = v.characters[v.active];
  let body;
  if (v.phase === "aktion") {
    const labels = { bewegen: `Move ${CHARACTERS[key] ? CHARACTERS[key].name : ""}`, faehigkeit: `Ability: ${ABILITY_SUMMARY[key] || ""}`, skip: "Skip the rest" };
    body = h("div", { class: "row" },
      ["bewegen", "faehigkeit", "skip"].filter((part) => v.legal_parts.includes(part)).map((part) =>
        h("button", { type: "button", class: part === "skip" ? "" : "primary", testid: `mj-part-${part}`, onclick: () => ctx.act({ type: "aktion", aktion: part }), text: labels[part] })),
      v.open_parts.length === 1 ? h("span", { class: "muted", text: `Left to do: ${v.open_parts[0] === "bewegen" ? "the move" : "the ability"}.` }) : null);
  } else if (st.accuse) {
    const colour = v.board.figures ? Object.keys(v.board.figures).find((c) => v.board.figures[c] === st.accuse) : null;
    body = h("div", { class: "mj-confirm", role: "alertdialog", "aria-label": "Confirm the accusation" },
      h("p", {}, h("strong", { text: `Accuse ${characterName(colour, v.characters)}?` }), " If that is not Mr. Jack, you lose at once."),
      h("div", { class: "row" },
        h("button", { type: "button", class: "danger", testid: "mj-accuse-confirm", onclick: () => { const hex = st.accuse; st.accuse = null; ctx.act({ type: "ziel", koordinate: hex }); }, text: tr("Accuse") }),
        h("button", { type: "button", testid: "mj-accuse-cancel", onclick: () => { st.accuse = null; ctx.rerender(); }, text: tr("Cancel") })));
  } else {
    body = h("div", {},
      h("p", { class: "muted", text: v.phase === "verdacht" ? "Click a character on the board to toggle its mark." : "Click a highlighted hex on the board, or pick one here:" }),
      h("details", { class: "mj-target-list" },
        h("summary", { text: `${targets.size} choices as a list` }),
        h("div", { class: "mj-target-buttons" },
          [...targets].map(([hex, text]) => h("button", { type: "button", class: "small", testid: "target-button", dataset: { hex }, onclick: () => chooseTarget(ctx, v, st, hex), text: `${hex}: ${text}` })))),
      v.phase === "verdacht" ? h("button", { type: "button", class: "primary", testid: "mj-fertig", onclick: () => ctx.act({ type: "fertig" }), text: tr("Done marking") }) : null);
  }
  return h("section", { class: "mj-panel mj-actions", "aria-label": "Your move", testid: "mj-actions" },
    h("h3", { text: v.phase === "verdacht" ? "Mark suspects" : `Your move: ${activeName(v)}` }), body);
}

function suspectsPanel(ctx, v) {
  if (v.phase === "lobby") return null;
  const seen = new Set(v.seen);
  const suspects = new Set(v.suspects);
  const alibis = new Set(v.alibis);
  return h("section", { class: "mj-panel", "aria-label": "Suspects" },
    h("h3", {}, "Suspects ", h("span", { class: "muted", text: `(${v.suspects.length} left · alibi deck ${v.alibi_deck})` })),
    h("ul", { class: "mj-suspects", testid: "mj-suspects" },
      COLOUR_ORDER.map((colour) => h("li", { class: suspects.has(colour) ? "suspect" : "cleared", dataset: { colour } },
        colourChip(colour),
        h("span", { class: "mj-suspect-name", text: CHARACTERS[v.characters[colour]] ? CHARACTERS[v.characters[colour]].name : colour }),
        h("span", { class: "mj-tags" },
          h("span", { class: suspects.has(colour) ? "tag suspect" : "tag cleared", text: suspects.has(colour) ? "suspect" : "cleared" }),
          h("span", { class: seen.has(colour) ? "tag seen" : "tag", text: seen.has(colour) ? "in sight" : "in the dark" }),
          alibis.has(colour) ? h("span", { class: "tag alibi", testid: "mj-alibi", text: "your alibi card" }) : null,
          v.jack === colour ? h("span", { class: "tag jack", text: "Mr. Jack" }) : null)))));
}

function logPanel(st) {
  if (!st.log.length) return null;
  return h("section", { class: "mj-panel", "aria-label": "What happened" },
    h("h3", { text: "What happened" }),
    h("ol", { class: "mj-log", testid: "mj-log", "aria-live": "polite" }, st.log.slice(-8).map((line) => h("li", { text: line }))));
}

function resignPanel(ctx, v, st) {
  if (ctx.seat === null || ctx.ended || v.phase === "lobby" || v.phase === "over") return null;
  if (!st.resign) {
    return h("p", { class: "mj-resign" }, h("button", { type: "button", class: "small", testid: "mj-resign", onclick: () => { st.resign = true; ctx.rerender(); }, text: "Resign…" }));
  }
  return h("div", { class: "mj-confirm", role: "alertdialog", "aria-label": "Confirm resigning" },
    h("span", { text: "Resign this game? Your opponent wins. " }),
    h("button", { type: "button", class: "danger", testid: "mj-resign-confirm", onclick: () => { st.resign = false; ctx.act({ type: "aufgeben" }); }, text: "Resign" }),
    h("button", { type: "button", testid: "mj-resign-cancel", onclick: () => { st.resign = false; ctx.rerender(); }, text: "Keep playing" }));
}

function legend() {
  const item = (cls, text) => h("li", {}, h("span", { class: `mj-key ${cls}`, "aria-hidden": "true" }), text);
  return h("ul", { class: "mj-legend", "aria-label": "Legend" },
    item("street", "street"), item("building", "building"), item("site", "building site"), item("park", "park"),
    item("metro", "metro"), item("lamp", "gas lamp"), item("inv", "investigation tile"), item("quay", "quay / port"),
    item("halo", "seen character"), item("recent", "changed last turn"), item("target", "you can choose"));
}

addTranslations("de", {
  "Waiting for an opponent: the game starts when both roles are taken.": "Warten auf einen Gegner: das Spiel beginnt, wenn beide Rollen vergeben sind.",
  "Your turn: choose one of the character cards (or click its character on the board).": "Du bist dran: wähle eine Personenkarte (oder klicke die Person auf dem Brett).",
  "{who} is choosing a character.": "{who} wählt eine Person.",
  "You play {name}: choose Move or Ability, or Skip.": "Du spielst {name}: wähle Bewegen oder Fähigkeit, oder Auslassen.",
  "You play {name}: choose Move or Ability.": "Du spielst {name}: wähle Bewegen oder Fähigkeit.",
  "{who} plays {name}.": "{who} spielt {name}.",
  "Round end: click characters to mark or clear them, then press Done.": "Rundenende: klicke Personen, um sie zu markieren oder zu entlasten, dann Fertig.",
  "The detective is marking suspects.": "Der Detektiv markiert Verdächtige.",
  "The game is over.": "Das Spiel ist vorbei.",
  "Round {n} of 8 · turn {m} of 4": "Runde {n} von 8 · Zug {m} von 4",
  left: "übrig",
  "Before the game": "Vor dem Spiel",
  "Play against a bot": "Gegen einen Bot spielen",
  "Witness card:": "Zeugenkarte:",
  "Mr. Jack was seen (he cannot escape).": "Mr. Jack wurde gesehen (er kann nicht fliehen).",
  "Mr. Jack was not seen (he may escape this round).": "Mr. Jack wurde nicht gesehen (er darf diese Runde fliehen).",
  "Character cards this turn": "Personenkarten dieses Zugs",
  Accuse: "Anklagen",
  Cancel: "Abbrechen",
  "Done marking": "Fertig markiert",
  "You are watching.": "Du schaust zu.",
}, "mrjack");

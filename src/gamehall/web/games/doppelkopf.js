// Doppelkopf at the browser table, as a Doppelkopf player expects it: the four seats around
// the trick in a fixed order with you at the bottom (the next player to your left, as the
// cards go clockwise), your hand sorted by the game type's trump order (trumps first), who
// took the last trick, each seat's party and announcements in plain sight, the question you
// are asked as buttons, re/kontra and the denials when the engine says they are legal
// (rebtn_lbl), pigs, the votes after a round, the round result in words, the points history,
// the complaint dialog (dk.misplay=penalize) and the game-over summary with its chart.
//
// Renders the engine's view (rules/doppelkopf/views.py); sends the engine's actions
// (rules/doppelkopf/actions.py) as ActionCodec JSON. Words and German terms: doppelkopf-words.js.

import { h, countdown } from "../ui.js";
import { addTranslations, scoped } from "../i18n.js";

const t = scoped("doppelkopf");
import { announcementName, cardLabel, cardNickname, describeResult, gameTypeName, partyName } from "./doppelkopf-words.js";
import { gameOverPanel } from "./summary.js";

export { cardLabel };

export const id = "doppelkopf";

/** This renderer shows the decision timer itself. */
export const showsTimers = true;

const RED = new Set(["h", "d"]);
const QUESTIONS = {
  reservation: "Any reservation?",
  throw: "Throw in the hand?",
  pigs: "Pigs?",
  superpigs: "Superpigs?",
  poverty: "Poverty?",
  wedding: "Wedding?",
};
const WEDDING_TRICKS = {
  foreign: "the first foreign trick", trump: "the first trump trick", miss: "the first trick missing a suit",
  hearts: "the first hearts trick", spades: "the first spades trick", clubs: "the first clubs trick", diamonds: "the first diamonds trick",
};
const ACCUSATIONS = { wrong_card: "wrong card", wrong_announcement: "wrong announcement", played_early: "played too early", external: "outside interference" };
const END_REASONS = {
  left: "A player left the table.",
  penalty_abort: "A penalty stopped the game.",
  adjourn: "The table voted to adjourn.",
  cancel: "The table voted to cancel the game.",
};
const PLACES = ["bottom", "left", "top", "right"]; // seen from the viewer, clockwise from them
const complaintForms = new Map(); // room id -> {open, accused, kind}

export function render(ctx) {
  const v = ctx.view;
  const r = v.round;
  return h("div", { class: "dk", dataset: { phase: r ? r.phase : "lobby" } },
    statusLine(ctx, v, r),
    v.finished ? gameOver(ctx, v) : null,
    h("div", { class: "dk-grid" },
      h("div", { class: "dk-play" },
        r ? table(ctx, v, r) : h("p", { class: "muted", text: t("Waiting for four players. The game starts when the table is full.") }),
        r ? roundEnd(v, r) : null,
        r && ctx.seat !== null && !ctx.ended ? controls(ctx, v, r) : null,
        r && ctx.seat !== null ? hand(ctx, v, r) : null,
        r && ctx.seat !== null && !ctx.ended ? complaintPanel(ctx, v, r) : null),
      scoreboard(ctx, v)));
}

// ------------------------------------------------------------------------------ helpers

function cardFace(value, extra = {}) {
  const red = value && RED.has(value[0]);
  const nick = cardNickname(value);
  return h("span", { class: red ? "dk-card red" : "dk-card", text: cardLabel(value), title: nick, ...extra });
}

function nameOf(v, seat) {
  const s = v.seats.find((x) => x.seat === seat);
  return s && s.name ? s.name : t("Seat {n}", { n: seat + 1 });
}

function toMoveMe(ctx, v) {
  return ctx.seat !== null && v.to_move.seats.includes(ctx.seat);
}

const pretty = (text) => String(text).replaceAll("_", " ");

/** The party of `seat` as far as this viewer may know it: its own, announced, or the result's. */
function knownParty(ctx, r, seat) {
  if (r.re_seats) return r.re_seats.includes(seat) ? "re" : "kontra";
  if (seat === ctx.seat && r.party) return r.party;
  const said = r.announcements.find((a) => a.seat === seat && a.party);
  if (said) return said.party;
  if (r.soloist === seat && r.phase === "tricks") return "re";
  return null;
}

// ------------------------------------------------------------------------------ status

function statusLine(ctx, v, r) {
  let text;
  if (!v.started) text = t("Waiting for players.");
  else if (v.finished) text = t("The game is over.");
  else if (!r) text = t("The next deal is coming.");
  else {
    const waiting = v.to_move.seats.map((s) => (s === ctx.seat ? t("you") : nameOf(v, s)));
    const who = waiting.length ? waiting.join(", ") : t("nobody");
    switch (r.phase) {
      case "w_for_ready": text = t("Look at your cards. Waiting for {who} to be ready.", { who }); break;
      case "reservations": text = r.asked === ctx.seat ? t("Answer the question below.") : t("Reservations: {who} to answer.", { who }); break;
      case "tricks": text = r.current_player === ctx.seat ? t("Your turn: play a card.") : t("Trick {n}: {who} to play.", { n: r.trick ? r.trick.number : "", who }); break;
      case "end": text = t("The round is over. Continue, or end the game."); break;
      default: text = pretty(r.phase);
    }
    if (r.complaint) text = `${t("A complaint is pending ({kind}).", { kind: t(ACCUSATIONS[r.complaint.kind] || pretty(r.complaint.kind)) })} ${text}`;
  }
  const timer = ctx.timers.length && !ctx.ended ? ctx.timers[0] : null;
  return h("p", { class: "dk-status", role: "status", testid: "dk-status" },
    r ? h("span", { class: "round", text: `${t("Round {n}", { n: r.round })}${r.game_type ? ` · ${gameTypeName(r.game_type)}` : ""} · ` }) : null,
    h("span", { text }),
    timer ? h("span", { class: "dk-timer" }, ` · ${t("time left")} `, countdown(timer.deadline, { testid: "dk-timer" })) : null);
}

function gameOver(ctx, v) {
  const best = Math.max(...v.points);
  const winners = v.seats.filter((s) => v.points[s.seat] === best).map((s) => s.name);
  const standings = v.seats.map((s) => ({ name: s.name, score: v.points[s.seat], me: s.seat === ctx.seat }))
    .sort((a, b) => b.score - a.score);
  const rounds = v.summaries;
  const chart = rounds.length ? {
    labels: ["0", ...rounds.map((row) => String(row.round_num))],
    lines: v.seats.map((s) => ({ name: s.name, values: [0, ...rounds.map((row) => row.points[s.seat])] })),
    xLabel: t("round"),
  } : null;
  const headline = winners.length > 1
    ? t("Game over: {names} lead with {points} points.", { names: winners.join(` ${t("and")} `), points: best })
    : t("Game over: {names} leads with {points} points.", { names: winners[0], points: best });
  return h("div", { class: "banner-wrap", testid: "game-over" },
    gameOverPanel({
      headline,
      reason: `${t.n(rounds.length, "{n} round played.", "{n} rounds played.")}${END_REASONS[v.end_reason] ? ` ${t(END_REASONS[v.end_reason])}` : ""}`,
      standings,
      chart,
      scoreLabel: t("Points"),
    }));
}

// ------------------------------------------------------------------------------ the table

/** The seat shown at `place` (0 bottom = the viewer, then clockwise: left, top, right). */
function seatAt(ctx, place) {
  const base = ctx.seat === null ? 0 : ctx.seat;
  return (base + place) % 4;
}

function table(ctx, v, r) {
  const trick = r.trick;
  const seats = PLACES.map((place, i) => {
    const seat = seatAt(ctx, i);
    const classes = ["dk-seat", `at-${place}`];
    if (seat === ctx.seat) classes.push("me");
    if (r.current_player === seat && r.phase === "tricks") classes.push("turn");
    const party = knownParty(ctx, r, seat);
    const said = r.announcements.filter((a) => a.seat === seat).map((a) => announcementName(a.kind));
    return h("div", { class: classes.join(" "), dataset: { seat: String(seat), place }, testid: "dk-seat" },
      h("div", { class: "dk-seat-name" },
        h("strong", { text: nameOf(v, seat) }),
        seat === ctx.seat ? h("span", { class: "muted", text: ` (${t("you")})` }) : null,
        party ? h("span", { class: `badge party-${party}`, testid: "dk-party", text: partyName(party) }) : null,
        trick && trick.leader === seat ? h("span", { class: "badge", title: t("leads this trick"), text: t("lead") }) : null,
        r.soloist === seat ? h("span", { class: "badge", text: t("soloist") }) : null),
      h("div", { class: "muted small", text: t("{cards} cards · {tricks} tricks · {eyes} eyes", { cards: r.hand_sizes[seat], tricks: r.tricks_won[seat], eyes: r.eyes[seat] }) }),
      said.length ? h("div", { class: "dk-announced", testid: "dk-announced", text: said.join(", ") }) : null);
  });
  const centre = h("div", { class: "dk-trick", "aria-label": t("The trick"), testid: "dk-trick" },
    PLACES.map((place, i) => {
      const seat = seatAt(ctx, i);
      const card = trick && trick.cards[seat];
      return h("div", { class: `dk-slot at-${place}`, testid: "dk-trick-card", dataset: { seat: String(seat) } },
        card ? cardFace(card.value) : null);
    }));
  return h("section", { class: "dk-table", "aria-label": t("The table"), testid: "dk-table" },
    seats, centre, lastTrick(v, r), partiesLine(ctx, v, r));
}

function lastTrick(v, r) {
  if (!r.last_trick) return null;
  const start = r.last_trick_leader ?? 0;
  const order = [0, 1, 2, 3].map((i) => (start + i) % 4);
  return h("p", { class: "dk-last", testid: "dk-last-trick" },
    h("span", { testid: "dk-last-winner", text: t("Last trick, taken by {name}:", { name: nameOf(v, r.last_trick_winner) }) }),
    order.map((seat) => (r.last_trick[seat] ? h("span", { class: seat === r.last_trick_winner ? "dk-last-card won" : "dk-last-card", title: nameOf(v, seat) }, cardFace(r.last_trick[seat])) : null)));
}

/** Parties and announcements in one line: "You are Re · Re: Re, no 90 · Kontra: —". */
function partiesLine(ctx, v, r) {
  if (!["tricks", "end"].includes(r.phase)) return null;
  const mine = ctx.seat !== null ? knownParty(ctx, r, ctx.seat) : null;
  const byParty = (party) => r.announcements.filter((a) => a.party === party).map((a) => announcementName(a.kind));
  const re = byParty("re");
  const kontra = byParty("kontra");
  return h("p", { class: "dk-parties", testid: "dk-parties" },
    ctx.seat !== null ? h("strong", { testid: "dk-my-party", text: mine ? t("You play {party}.", { party: partyName(mine) }) : t("Your party is not settled yet.") }) : null,
    h("span", { text: ` ${t("Re announced: {list}", { list: re.length ? re.join(", ") : "—" })} · ${t("Kontra announced: {list}", { list: kontra.length ? kontra.join(", ") : "—" })}` }));
}

function roundEnd(v, r) {
  if (r.phase !== "end" || !v.summaries.length) return null;
  const row = v.summaries[v.summaries.length - 1];
  const [headline, details] = describeResult(row);
  const parties = r.re_seats ? t("Re: {re} · Kontra: {kontra}", {
    re: r.re_seats.map((s) => nameOf(v, s)).join(", "),
    kontra: [0, 1, 2, 3].filter((s) => !r.re_seats.includes(s)).map((s) => nameOf(v, s)).join(", "),
  }) : null;
  return h("div", { class: "banner", role: "status", testid: "dk-round-result" },
    h("strong", { text: headline }),
    details.length ? h("div", { testid: "dk-result-details", text: details.join(" · ") }) : null,
    parties ? h("div", { class: "small", text: parties }) : null);
}

// ------------------------------------------------------------------------------ controls

function button(label, testid, onclick, primary = false) {
  return h("button", { type: "button", class: primary ? "primary" : "", testid, onclick, text: label });
}

function controls(ctx, v, r) {
  const act = (action) => ctx.act(action);
  const mine = toMoveMe(ctx, v);
  const items = [];
  if (r.phase === "w_for_ready" && !r.ready[ctx.seat]) {
    items.push(button(t("Ready"), "dk-ready", () => act({ type: "Ready" }), true));
  }
  const q = r.question;
  if (q && mine) {
    if (Object.hasOwn(QUESTIONS, q)) {
      items.push(h("span", { text: `${t(QUESTIONS[q])} ` }),
        button(t("No"), "dk-answer-no", () => act({ type: "Answer", question: q, yes: false }), true),
        button(t("Yes"), "dk-answer-yes", () => act({ type: "Answer", question: q, yes: true })));
    } else if (q === "solo") {
      items.push(h("span", { text: `${t("Which solo?")} ` }), button(t("No solo"), "dk-answer-no", () => act({ type: "AnswerSolo", solo: null }), true),
        ...v.rules.solos.map((solo) => button(gameTypeName(solo), "dk-solo", () => act({ type: "AnswerSolo", solo }))));
    } else if (q === "poverty_accept") {
      items.push(h("span", { text: `${t("Take the poverty?")} ` }),
        button(t("Decline"), "dk-answer-no", () => act({ type: "PovertyDecline" }), true),
        button(t("Accept"), "dk-answer-yes", () => act({ type: "PovertyAccept" })));
    } else if (q === "poverty_return_trumps") {
      items.push(h("span", { text: `${t("Trumps among the returned cards:")} ` }),
        ...[0, 1, 2, 3].map((n) => button(String(n), "dk-return-amount", () => act({ type: "PovertyReturn", amount: n }))));
    } else if (q === "wedding_clarification_trick") {
      items.push(h("span", { text: `${t("Which trick finds your partner?")} ` }),
        ...Object.entries(WEDDING_TRICKS).map(([trick, label]) => button(t(label), "dk-wedding", () => act({ type: "WeddingClarification", trick }))));
    } else if (q === "black_sow_solo") {
      items.push(h("span", { text: `${t("Name the solo:")} ` }),
        ...v.rules.solos.map((solo) => button(gameTypeName(solo), "dk-solo", () => act({ type: "BlackSowSolo", solo }))));
    } else if (q === "poverty_trump_choice" || q === "poverty_return_choice") {
      items.push(h("span", { text: t("Choose 3 cards in your hand, then press Pass.") }));
    }
  }
  if (v.to_move.kind === "accusation_vote" && mine) {
    items.push(h("span", { text: `${t("Do you back the accusation?")} ` }),
      button(t("No"), "dk-accusation-no", () => act({ type: "AccusationVote", yes: false })),
      button(t("Yes"), "dk-accusation-yes", () => act({ type: "AccusationVote", yes: true })));
  }
  if (r.phase === "tricks" && !r.complaint) {
    if (r.rebtn_lbl && r.rebtn_lbl !== "none") {
      items.push(button(t("Announce {call}", { call: announcementName(r.rebtn_lbl) }), "dk-announce", () => act({ type: "Announce", kind: r.rebtn_lbl })));
    }
    if (r.pigbtn_lbl && r.pigbtn_lbl !== "none" && r.current_player === ctx.seat) {
      items.push(button(r.pigbtn_lbl === "superpigs" ? t("Call superpigs") : t("Call pigs"), "dk-pigs", () => act({ type: "CallPigs", superpigs: r.pigbtn_lbl === "superpigs" })));
    }
  }
  if (r.phase === "end" && !r.complaint) {
    const voted = (kind) => (v.votes[kind] || []).includes(ctx.seat);
    items.push(button(voted("continue") ? `${t("Next round")} ✓` : t("Next round"), "dk-vote-continue", () => act({ type: "Vote", kind: "continue", yes: true }), true),
      button(voted("end") ? `${t("End the game")} ✓` : t("End the game"), "dk-vote-end", () => act({ type: "Vote", kind: "end", yes: true })));
  }
  if (!items.length) return null;
  return h("div", { class: "row dk-controls", testid: "dk-controls" }, items);
}

// ------------------------------------------------------------------------------ the hand

const passing = new Map(); // room id -> selected card ids for the poverty exchange

function hand(ctx, v, r) {
  const playable = new Set(r.playable);
  const myTurn = r.phase === "tricks" && r.current_player === ctx.seat && !r.complaint;
  const choosing = r.question === "poverty_trump_choice" || r.question === "poverty_return_choice";
  const chosen = passing.get(ctx.room.id) || [];
  const click = (card) => {
    if (choosing) {
      const i = chosen.indexOf(card.id);
      if (i >= 0) chosen.splice(i, 1);
      else if (chosen.length < 3) chosen.push(card.id);
      passing.set(ctx.room.id, chosen);
      ctx.rerender();
    } else {
      ctx.act({ type: "PlayCard", card: card.id });
    }
  };
  // The engine sends the hand sorted (trumps first, by the game type's order; views.py).
  const cards = r.hand.map((card, i) => {
    const classes = ["dk-hand-card"];
    if (chosen.includes(card.id)) classes.push("selected");
    else if (playable.has(card.id) && myTurn) classes.push("playable");
    if (card.trump) classes.push("trump");
    if (card.trump && r.hand[i + 1] && !r.hand[i + 1].trump) classes.push("last-trump");
    return h("li", {},
      h("button", {
        type: "button",
        class: classes.join(" "),
        testid: "dk-card",
        dataset: { cardId: card.id, value: card.value, trump: card.trump ? "1" : "0" },
        disabled: !(choosing || (myTurn && playable.has(card.id))),
        "aria-label": `${cardLabel(card.value)}${card.trump ? ` (${t("trump")})` : ""}`,
        onclick: () => click(card),
      }, cardFace(card.value)));
  });
  const pass = choosing ? button(t("Pass these 3"), "dk-pass", () => {
    passing.set(ctx.room.id, []);
    ctx.act({ type: r.question === "poverty_trump_choice" ? "PassCards" : "ReturnCards", cards: chosen });
  }, true) : null;
  const trumps = r.hand.filter((c) => c.trump).length;
  return h("section", { class: "hand dk-hand-area", "aria-label": t("Your hand") },
    h("div", { class: "row spread" },
      h("h3", {}, t("Your hand"), h("span", { class: "muted small", text: ` · ${t.n(trumps, "{n} trump", "{n} trumps")}` })),
      pass),
    h("ul", { class: "dk-hand", testid: "dk-hand" }, cards));
}

// ------------------------------------------------------------------------------ complaints

function complaintPanel(ctx, v, r) {
  if (v.rules.misplay !== "penalize") return null;
  const c = r.complaint;
  if (c && c.accuser === ctx.seat && c.moves) {
    return h("section", { class: "card dk-complaint", role: "dialog", "aria-label": t("Pick the wrong move"), testid: "dk-complaint" },
      h("h3", { text: t("Which move of {name} was wrong ({kind})?", { name: nameOf(v, c.accused), kind: t(ACCUSATIONS[c.kind] || pretty(c.kind)) }) }),
      h("ul", {}, c.moves.map((m) => h("li", {},
        button(`${m.id}: ${m.type} ${m.type === "card" ? cardLabel(m.data) : pretty(m.data)}`, "dk-complaint-move",
          () => ctx.act({ type: "PickMove", move_id: m.id }))))),
      button(t("Withdraw (you will be penalised)"), "dk-complaint-cancel", () => ctx.act({ type: "CancelAccusation" })));
  }
  if (c || !["reservations", "tricks", "end"].includes(r.phase)) return null;
  const form = complaintForms.get(ctx.room.id) || { open: false, accused: null, kind: "wrong_card" };
  complaintForms.set(ctx.room.id, form);
  if (!form.open) {
    return button(t("Complain…"), "dk-complain", () => { form.open = true; ctx.rerender(); });
  }
  const others = v.seats.filter((s) => s.seat !== ctx.seat);
  if (form.accused === null) form.accused = others[0].seat;
  return h("section", { class: "card dk-complaint", role: "dialog", "aria-label": t("Complaint"), testid: "dk-complaint" },
    h("h3", { text: t("Denounce a wrong move") }),
    h("label", {}, `${t("Who:")} `, h("select", { testid: "dk-complaint-accused", onchange: (e) => { form.accused = Number(e.target.value); } },
      others.map((s) => h("option", { value: String(s.seat), selected: s.seat === form.accused, text: s.name })))),
    h("label", {}, ` ${t("What:")} `, h("select", { testid: "dk-complaint-kind", onchange: (e) => { form.kind = e.target.value; } },
      Object.entries(ACCUSATIONS).map(([k, label]) => h("option", { value: k, selected: k === form.kind, text: t(label) })))),
    h("div", { class: "row" },
      button(t("Accuse"), "dk-complaint-send", () => { form.open = false; ctx.act({ type: "Accuse", accused: form.accused, kind: form.kind }); }, true),
      button(t("Close"), "dk-complaint-close", () => { form.open = false; ctx.rerender(); })));
}

// ------------------------------------------------------------------------------ scores

function scoreboard(ctx, v) {
  return h("section", { class: "scores card dk-scores", "aria-label": t("Points") },
    h("h3", { text: t("Points") }),
    h("ol", { class: "score-list", testid: "scoreboard" },
      v.seats.map((s) => h("li", { class: [s.present ? "" : "away", s.seat === ctx.seat ? "me" : ""].join(" ").trim(), dataset: { seat: String(s.seat) } },
        h("span", { class: "name", text: s.name || "—" }),
        !s.present && s.name ? h("span", { class: "muted", text: ` ${t("away")}` }) : null,
        h("span", { class: "points", testid: "points", text: String(v.points[s.seat]) })))),
    v.summaries.length ? h("div", { class: "dk-history", testid: "dk-history" },
      h("table", { class: "dk-summaries", testid: "dk-summaries" },
        h("thead", {}, h("tr", {}, h("th", { text: "#" }), h("th", { text: t("Game · winner") }),
          ...v.seats.map((s) => h("th", { class: "num", title: s.name || "", text: initials(s.name) })))),
        h("tbody", {}, v.summaries.map((row) => h("tr", { title: describeResult(row).flat().join(" · ") },
          h("td", { text: String(row.round_num) }),
          h("td", {}, gameTypeName(row.game_type), h("span", { class: "muted", text: ` · ${row.winner ? partyName(row.winner) : "—"}` })),
          ...row.point_change.map((p) => h("td", { class: "num", text: p > 0 ? `+${p}` : String(p) }))))))) : null);
}

/** A short column head for a name (the full name is its tooltip). */
function initials(name) {
  if (!name) return "";
  return name.length <= 6 ? name : `${name.slice(0, 5)}…`;
}

addTranslations("de", {
  "Waiting for four players. The game starts when the table is full.": "Warten auf vier Spieler. Das Spiel beginnt, wenn der Tisch voll ist.",
  "Seat {n}": "Platz {n}",
  you: "du",
  nobody: "niemand",
  "Waiting for players.": "Warten auf Spieler.",
  "The game is over.": "Das Spiel ist vorbei.",
  "The next deal is coming.": "Gleich wird neu gegeben.",
  "Look at your cards. Waiting for {who} to be ready.": "Sieh dir deine Karten an. Warten, bis {who} bereit ist.",
  "Answer the question below.": "Beantworte die Frage unten.",
  "Reservations: {who} to answer.": "Vorbehalte: {who} ist gefragt.",
  "Your turn: play a card.": "Du bist dran: spiel eine Karte.",
  "Trick {n}: {who} to play.": "Stich {n}: {who} spielt.",
  "The round is over. Continue, or end the game.": "Das Spiel ist aus. Weiterspielen oder die Runde beenden?",
  "A complaint is pending ({kind}).": "Eine Beschwerde läuft ({kind}).",
  "Round {n}": "Spiel {n}",
  "time left": "Zeit",
  "Game over: {names} lead with {points} points.": "Ende: {names} führen mit {points} Punkten.",
  "Game over: {names} leads with {points} points.": "Ende: {names} führt mit {points} Punkten.",
  and: "und",
  round: "Spiel",
  "{n} rounds played.": "{n} Spiele gespielt.",
  "{n} round played.": "{n} Spiel gespielt.",
  "A player left the table.": "Ein Spieler hat den Tisch verlassen.",
  "A penalty stopped the game.": "Eine Strafe hat das Spiel beendet.",
  "The table voted to adjourn.": "Der Tisch hat für Vertagen gestimmt.",
  "The table voted to cancel the game.": "Der Tisch hat für Abbrechen gestimmt.",
  Points: "Punkte",
  "leads this trick": "spielt in diesem Stich aus",
  lead: "kommt raus",
  soloist: "Solist",
  "{cards} cards · {tricks} tricks · {eyes} eyes": "{cards} Karten · {tricks} Stiche · {eyes} Augen",
  "The trick": "Der Stich",
  "The table": "Der Tisch",
  "Last trick, taken by {name}:": "Letzter Stich, gemacht von {name}:",
  "You play {party}.": "Du spielst {party}.",
  "Your party is not settled yet.": "Deine Partei steht noch nicht fest.",
  "Re announced: {list}": "Re hat angesagt: {list}",
  "Kontra announced: {list}": "Kontra hat angesagt: {list}",
  "Re: {re} · Kontra: {kontra}": "Re: {re} · Kontra: {kontra}",
  Ready: "Bereit",
  No: "Nein",
  Yes: "Ja",
  "Any reservation?": "Vorbehalt?",
  "Throw in the hand?": "Einwerfen?",
  "Pigs?": "Schweine?",
  "Superpigs?": "Superschweine?",
  "Poverty?": "Armut?",
  "Wedding?": "Hochzeit?",
  "Which solo?": "Welches Solo?",
  "No solo": "Kein Solo",
  "Take the poverty?": "Armut mitnehmen?",
  Decline: "Ablehnen",
  Accept: "Annehmen",
  "Trumps among the returned cards:": "Trümpfe unter den zurückgegebenen Karten:",
  "Which trick finds your partner?": "Welcher Stich findet deinen Partner?",
  "the first foreign trick": "der erste fremde Stich",
  "the first trump trick": "der erste Trumpfstich",
  "the first trick missing a suit": "der erste Fehlstich",
  "the first hearts trick": "der erste Herzstich",
  "the first spades trick": "der erste Pikstich",
  "the first clubs trick": "der erste Kreuzstich",
  "the first diamonds trick": "der erste Karostich",
  "Name the solo:": "Nenne das Solo:",
  "Choose 3 cards in your hand, then press Pass.": "Wähle 3 Karten und drücke dann Abgeben.",
  "Do you back the accusation?": "Unterstützt du die Beschwerde?",
  "Announce {call}": "{call} ansagen",
  "Call pigs": "Schweine zeigen",
  "Call superpigs": "Superschweine zeigen",
  "Next round": "Nächstes Spiel",
  "End the game": "Runde beenden",
  "Pass these 3": "Diese 3 abgeben",
  trump: "Trumpf",
  "{n} trumps": "{n} Trümpfe",
  "{n} trump": "{n} Trumpf",
  "Your hand": "Deine Karten",
  "Pick the wrong move": "Wähle den falschen Zug",
  "Which move of {name} was wrong ({kind})?": "Welcher Zug von {name} war falsch ({kind})?",
  "Withdraw (you will be penalised)": "Zurückziehen (du wirst bestraft)",
  "Complain…": "Beschweren…",
  Complaint: "Beschwerde",
  "Denounce a wrong move": "Einen falschen Zug melden",
  "Who:": "Wer:",
  "What:": "Was:",
  Accuse: "Melden",
  Close: "Schließen",
  "wrong card": "falsche Karte",
  "wrong announcement": "falsche Ansage",
  "played too early": "zu früh gespielt",
  "outside interference": "Einmischung von außen",
  away: "weg",
  "Game · winner": "Spiel · Gewinner",
}, "doppelkopf");

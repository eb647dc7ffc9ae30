// Doppelkopf at the browser table: four seats around the trick, your hand (the cards you may
// play are clickable), the question you are asked as buttons, re/kontra and the denials when the
// engine says they are legal (rebtn_lbl), pigs, the votes after a round, the scoreboard with the
// round summaries, and the complaint dialog when the table plays with dk.misplay=penalize.
//
// Renders the engine's view (rules/doppelkopf/views.py); sends the engine's actions
// (rules/doppelkopf/actions.py) as ActionCodec JSON.

import { h, countdown } from "../ui.js";

export const id = "doppelkopf";

/** This renderer shows the decision timer itself. */
export const showsTimers = true;

const SUITS = { c: "♣", s: "♠", h: "♥", d: "♦" };
const RED = new Set(["h", "d"]);
const QUESTIONS = ["reservation", "throw", "pigs", "superpigs", "poverty", "wedding"];
const WEDDING_TRICKS = ["foreign", "trump", "miss", "hearts", "spades", "clubs", "diamonds"];
const ACCUSATIONS = ["wrong_card", "wrong_announcement", "played_early", "external"];
const complaintForms = new Map(); // room id -> {open, accused, kind}

export function render(ctx) {
  const v = ctx.view;
  const r = v.round;
  return h("div", { class: "dk", dataset: { phase: r ? r.phase : "lobby" } },
    statusLine(ctx, v, r),
    v.finished ? gameOver(v) : null,
    h("div", { class: "dk-grid" },
      h("div", { class: "dk-play" },
        r ? table(ctx, v, r) : h("p", { class: "muted", text: "Waiting for four players. The game starts when the table is full." }),
        r ? roundEnd(v, r) : null,
        r && ctx.seat !== null && !ctx.ended ? controls(ctx, v, r) : null,
        r && ctx.seat !== null ? hand(ctx, v, r) : null,
        r && ctx.seat !== null && !ctx.ended ? complaintPanel(ctx, v, r) : null),
      scoreboard(ctx, v)));
}

// ------------------------------------------------------------------------------ helpers

export function cardLabel(value) {
  if (!value) return "?";
  if (value === "j0") return "Joker";
  const suit = SUITS[value[0]] || value[0];
  return suit + value.slice(1).toUpperCase();
}

function cardFace(value, extra = {}) {
  const red = value && RED.has(value[0]);
  return h("span", { class: red ? "dk-card red" : "dk-card", text: cardLabel(value), ...extra });
}

function nameOf(v, seat) {
  const s = v.seats.find((x) => x.seat === seat);
  return s && s.name ? s.name : `Seat ${seat + 1}`;
}

function toMoveMe(ctx, v) {
  return ctx.seat !== null && v.to_move.seats.includes(ctx.seat);
}

const pretty = (text) => String(text).replaceAll("_", " ");

// ------------------------------------------------------------------------------ status

function statusLine(ctx, v, r) {
  let text;
  if (!v.started) text = "Waiting for players.";
  else if (v.finished) text = "The game is over.";
  else if (!r) text = "The next deal is coming.";
  else {
    const waiting = v.to_move.seats.map((s) => (s === ctx.seat ? "you" : nameOf(v, s)));
    const who = waiting.length ? waiting.join(", ") : "nobody";
    switch (r.phase) {
      case "w_for_ready": text = `Look at your cards. Waiting for ${who} to be ready.`; break;
      case "reservations": text = r.asked === ctx.seat ? "Answer the question below." : `Reservations: ${who} to answer.`; break;
      case "tricks": text = r.current_player === ctx.seat ? "Your turn: play a card." : `Trick ${r.trick ? r.trick.number : ""}: ${who} to play.`; break;
      case "end": text = "The round is over. Continue, or end the game."; break;
      default: text = pretty(r.phase);
    }
    if (r.complaint) text = `A complaint is pending (${pretty(r.complaint.kind)}). ` + text;
  }
  const timer = ctx.timers.length && !ctx.ended ? ctx.timers[0] : null;
  return h("p", { class: "dk-status", role: "status", testid: "dk-status" },
    r ? h("span", { class: "round", text: `Round ${r.round}${r.game_type ? ` · ${pretty(r.game_type)}` : ""} · ` }) : null,
    h("span", { text }),
    timer ? h("span", { class: "dk-timer" }, " · time left ", countdown(timer.deadline, { testid: "dk-timer" })) : null);
}

function gameOver(v) {
  const best = Math.max(...v.points);
  const winners = v.seats.filter((s) => v.points[s.seat] === best).map((s) => s.name);
  return h("div", { class: "banner win", role: "status", testid: "game-over" },
    h("strong", { text: `Game over: ${winners.join(" and ")} ${winners.length > 1 ? "lead" : "leads"} with ${best} points.` }),
    v.end_reason && v.end_reason !== "end" ? h("span", { text: ` (${pretty(v.end_reason)})` }) : null);
}

// ------------------------------------------------------------------------------ the table

function table(ctx, v, r) {
  const order = r.player_list;
  const trick = r.trick;
  const announced = (seat) => r.announcements.filter((a) => a.seat === seat).map((a) => a.kind);
  return h("section", { class: "dk-table", "aria-label": "The table", testid: "dk-table" },
    order.map((seat) => {
      const card = trick && trick.cards[seat];
      const classes = ["dk-seat"];
      if (seat === ctx.seat) classes.push("me");
      if (r.current_player === seat && r.phase === "tricks") classes.push("turn");
      return h("div", { class: classes.join(" "), dataset: { seat: String(seat) }, testid: "dk-seat" },
        h("div", { class: "dk-seat-name" },
          h("strong", { text: nameOf(v, seat) }),
          seat === ctx.seat ? h("span", { class: "muted", text: " (you)" }) : null,
          trick && trick.leader === seat ? h("span", { class: "badge", title: "leads this trick", text: "lead" }) : null,
          r.soloist === seat ? h("span", { class: "badge", text: "soloist" }) : null),
        h("div", { class: "muted", text: `${r.hand_sizes[seat]} cards · ${r.tricks_won[seat]} tricks · ${r.eyes[seat]} eyes` }),
        announced(seat).length ? h("div", { class: "dk-announced", testid: "dk-announced", text: announced(seat).map(pretty).join(", ") }) : null,
        h("div", { class: "dk-slot", testid: "dk-trick-card" }, card ? cardFace(card.value) : h("span", { class: "muted", text: "·" })));
    }),
    r.last_trick ? h("p", { class: "muted dk-last" }, "Last trick: ", r.last_trick.map((value) => (value ? cardFace(value) : null))) : null);
}

function roundEnd(v, r) {
  if (r.phase !== "end" || !v.summaries.length) return null;
  const row = v.summaries[v.summaries.length - 1];
  const winner = row.winner ? `${row.winner === "re" ? "Re" : "Kontra"} wins` : "No winner";
  return h("div", { class: "banner", role: "status", testid: "dk-round-result" },
    h("strong", { text: `${winner} (${pretty(row.game_type)}), eyes ${row.eyes.join(":")}.` }),
    row.extras && row.extras.length ? h("span", { text: ` ${row.extras.map(pretty).join(", ")}` }) : null);
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
    items.push(button("Ready", "dk-ready", () => act({ type: "Ready" }), true));
  }
  const q = r.question;
  if (q && mine) {
    if (QUESTIONS.includes(q)) {
      items.push(h("span", { text: `${pretty(q)}? ` }),
        button("No", "dk-answer-no", () => act({ type: "Answer", question: q, yes: false }), true),
        button("Yes", "dk-answer-yes", () => act({ type: "Answer", question: q, yes: true })));
    } else if (q === "solo") {
      items.push(h("span", { text: "Which solo? " }), button("No solo", "dk-answer-no", () => act({ type: "AnswerSolo", solo: null }), true),
        ...v.rules.solos.map((solo) => button(pretty(solo.replace("solo_", "")), "dk-solo", () => act({ type: "AnswerSolo", solo }))));
    } else if (q === "poverty_accept") {
      items.push(h("span", { text: "Take the poverty? " }),
        button("Decline", "dk-answer-no", () => act({ type: "PovertyDecline" }), true),
        button("Accept", "dk-answer-yes", () => act({ type: "PovertyAccept" })));
    } else if (q === "poverty_return_trumps") {
      items.push(h("span", { text: "Trumps among the returned cards: " }),
        ...[0, 1, 2, 3].map((n) => button(String(n), "dk-return-amount", () => act({ type: "PovertyReturn", amount: n }))));
    } else if (q === "wedding_clarification_trick") {
      items.push(h("span", { text: "Which trick finds your partner? " }),
        ...WEDDING_TRICKS.map((trick) => button(pretty(trick), "dk-wedding", () => act({ type: "WeddingClarification", trick }))));
    } else if (q === "black_sow_solo") {
      items.push(h("span", { text: "Name the solo: " }),
        ...v.rules.solos.map((solo) => button(pretty(solo.replace("solo_", "")), "dk-solo", () => act({ type: "BlackSowSolo", solo }))));
    } else if (q === "poverty_trump_choice" || q === "poverty_return_choice") {
      items.push(h("span", { text: "Choose 3 cards in your hand, then press Pass." }));
    }
  }
  if (v.to_move.kind === "accusation_vote" && mine) {
    items.push(h("span", { text: "Do you back the accusation? " }),
      button("No", "dk-accusation-no", () => act({ type: "AccusationVote", yes: false })),
      button("Yes", "dk-accusation-yes", () => act({ type: "AccusationVote", yes: true })));
  }
  if (r.phase === "tricks" && !r.complaint) {
    if (r.rebtn_lbl && r.rebtn_lbl !== "none") {
      items.push(button(`Announce ${pretty(r.rebtn_lbl)}`, "dk-announce", () => act({ type: "Announce", kind: r.rebtn_lbl })));
    }
    if (r.pigbtn_lbl && r.pigbtn_lbl !== "none" && r.current_player === ctx.seat) {
      items.push(button(`Call ${r.pigbtn_lbl}`, "dk-pigs", () => act({ type: "CallPigs", superpigs: r.pigbtn_lbl === "superpigs" })));
    }
  }
  if (r.phase === "end" && !r.complaint) {
    const voted = (kind) => (v.votes[kind] || []).includes(ctx.seat);
    items.push(button(voted("continue") ? "Continue ✓" : "Next round", "dk-vote-continue", () => act({ type: "Vote", kind: "continue", yes: true }), true),
      button(voted("end") ? "End ✓" : "End the game", "dk-vote-end", () => act({ type: "Vote", kind: "end", yes: true })));
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
  const cards = r.hand.map((card) => h("li", {},
    h("button", {
      type: "button",
      class: chosen.includes(card.id) ? "dk-hand-card selected" : playable.has(card.id) && myTurn ? "dk-hand-card playable" : "dk-hand-card",
      testid: "dk-card",
      dataset: { cardId: card.id, value: card.value },
      disabled: !(choosing || (myTurn && playable.has(card.id))),
      "aria-label": cardLabel(card.value),
      onclick: () => click(card),
    }, cardFace(card.value))));
  const pass = choosing ? button("Pass these 3", "dk-pass", () => {
    passing.set(ctx.room.id, []);
    ctx.act({ type: r.question === "poverty_trump_choice" ? "PassCards" : "ReturnCards", cards: chosen });
  }, true) : null;
  return h("section", { class: "hand", "aria-label": "Your hand" },
    h("div", { class: "row spread" }, h("h3", { text: "Your hand" }), pass),
    h("ul", { class: "dk-hand", testid: "dk-hand" }, cards));
}

// ------------------------------------------------------------------------------ complaints

function complaintPanel(ctx, v, r) {
  if (v.rules.misplay !== "penalize") return null;
  const c = r.complaint;
  if (c && c.accuser === ctx.seat && c.moves) {
    return h("section", { class: "card dk-complaint", role: "dialog", "aria-label": "Pick the wrong move", testid: "dk-complaint" },
      h("h3", { text: `Which move of ${nameOf(v, c.accused)} was wrong (${pretty(c.kind)})?` }),
      h("ul", {}, c.moves.map((m) => h("li", {},
        button(`${m.id}: ${m.type} ${m.type === "card" ? cardLabel(m.data) : pretty(m.data)}`, "dk-complaint-move",
          () => ctx.act({ type: "PickMove", move_id: m.id }))))),
      button("Withdraw (you will be penalised)", "dk-complaint-cancel", () => ctx.act({ type: "CancelAccusation" })));
  }
  if (c || !["reservations", "tricks", "end"].includes(r.phase)) return null;
  const form = complaintForms.get(ctx.room.id) || { open: false, accused: null, kind: "wrong_card" };
  complaintForms.set(ctx.room.id, form);
  if (!form.open) {
    return button("Complain…", "dk-complain", () => { form.open = true; ctx.rerender(); });
  }
  const others = v.seats.filter((s) => s.seat !== ctx.seat);
  if (form.accused === null) form.accused = others[0].seat;
  return h("section", { class: "card dk-complaint", role: "dialog", "aria-label": "Complaint", testid: "dk-complaint" },
    h("h3", { text: "Denounce a wrong move" }),
    h("label", {}, "Who: ", h("select", { testid: "dk-complaint-accused", onchange: (e) => { form.accused = Number(e.target.value); } },
      others.map((s) => h("option", { value: String(s.seat), selected: s.seat === form.accused, text: s.name })))),
    h("label", {}, " What: ", h("select", { testid: "dk-complaint-kind", onchange: (e) => { form.kind = e.target.value; } },
      ACCUSATIONS.map((k) => h("option", { value: k, selected: k === form.kind, text: pretty(k) })))),
    h("div", { class: "row" },
      button("Accuse", "dk-complaint-send", () => { form.open = false; ctx.act({ type: "Accuse", accused: form.accused, kind: form.kind }); }, true),
      button("Close", "dk-complaint-close", () => { form.open = false; ctx.rerender(); })));
}

// ------------------------------------------------------------------------------ scores

function scoreboard(ctx, v) {
  return h("section", { class: "scores card", "aria-label": "Scores" },
    h("h3", { text: "Points" }),
    h("ol", { class: "score-list", testid: "scoreboard" },
      v.seats.map((s) => h("li", { class: [s.present ? "" : "away", s.seat === ctx.seat ? "me" : ""].join(" ").trim(), dataset: { seat: String(s.seat) } },
        h("span", { class: "name", text: s.name || "—" }),
        !s.present && s.name ? h("span", { class: "muted", text: " away" }) : null,
        h("span", { class: "points", testid: "points", text: String(v.points[s.seat]) })))),
    v.summaries.length ? h("table", { class: "dk-summaries", testid: "dk-summaries" },
      h("thead", {}, h("tr", {}, h("th", { text: "#" }), h("th", { text: "Game" }), h("th", { text: "Winner" }),
        ...v.seats.map((s) => h("th", { text: s.name || "" })))),
      h("tbody", {}, v.summaries.map((row) => h("tr", {},
        h("td", { text: String(row.round_num) }), h("td", { text: pretty(row.game_type) }), h("td", { text: row.winner || "—" }),
        ...row.point_change.map((p) => h("td", { text: p > 0 ? `+${p}` : String(p) })))))) : null);
}

// Apps Against Humanity at the browser table: the black card with its blanks, your hand (click
// to play; for pick 2/3 select in order, then play), the face-down count, the revealed
// submissions for the Card Czar, scores, the round winner and game over.
//
// Renders the engine's view (see docs/web-protocol.md, section 8); sends Pick and Judge actions.

import { h, countdown } from "../ui.js";
import { addTranslations, scoped } from "../i18n.js";
import { cumulative, gameOverPanel } from "./summary.js";

const t = scoped("aah");

const selections = new Map(); // room id -> {round, ids: [card ids in play order]}
const cardTexts = new Map(); // card id -> text, remembered from our hand (our played cards)

export const id = "aah";

/** This renderer shows the round timer itself (the room frame then shows none). */
export const showsTimers = true;

/** The between-rounds notice ("The next round will begin in 5 seconds.") is the status line's
 * countdown, not a chat line every round. */
export function logLine(ev) {
  if (ev.type === "Broadcast" && ev.topic === "next_round") return null;
  return undefined;
}

export function render(ctx) {
  const v = ctx.view;
  for (const card of v.hand) cardTexts.set(card.id, card.text);
  const me = v.seats.find((s) => s.seat === ctx.seat) || null;
  const iAmCzar = me !== null && v.czar === ctx.seat;
  const selection = currentSelection(ctx, v, iAmCzar);
  return h("div", { class: "aah", dataset: { phase: v.phase } },
    statusLine(ctx, v, me, iAmCzar),
    h("div", { class: "aah-grid" },
      h("div", { class: "aah-play" },
        gameOverBanner(ctx, v),
        h("div", { class: "aah-top" },
          v.black ? blackCard(v.black, blackFill(v, selection)) : null,
          playedArea(ctx, v, iAmCzar) || roundSummary(v)),
        me && !ctx.ended ? hand(ctx, v, me, iAmCzar, selection) : null),
      scoreboard(ctx, v)),
  );
}

// ------------------------------------------------------------------------------ status

function statusLine(ctx, v, me, iAmCzar) {
  const czarName = nameOf(v, v.czar);
  const present = v.seats.filter((s) => s.present).length;
  let text;
  switch (v.phase) {
    case "lobby": text = t("Waiting for players: {n} of at least {min} seated (up to {max}). The game starts by itself once enough players sit down, or press Start.", { n: present, min: v.min_players, max: v.playermax }); break;
    case "waiting": text = t("Waiting for players to reconnect."); break;
    case "pick":
      if (!me) text = t("The players are picking their answers.");
      else if (iAmCzar) text = t("You are the Card Czar this round. Wait while the others pick.");
      else if (me.done) text = t("Your answer is in. Waiting for the others.");
      else text = v.black && v.black.pick > 1 ? t("Pick {n} cards, in order.", { n: v.black.pick }) : t("Pick a card.");
      break;
    case "judge": text = iAmCzar ? t("Choose the funniest answer.") : t("{name} (the Card Czar) is choosing.", { name: czarName }); break;
    case "gap": text = t("The next round will begin shortly."); break;
    case "over": text = t("Game over."); break;
    case "aborted": text = t("The game was stopped: not enough players."); break;
    default: text = v.phase;
  }
  const timer = ctx.timers.length && !ctx.ended ? ctx.timers[0] : null;
  const label = v.phase === "gap" ? t("next round in") : t("time left");
  return h("p", { class: "aah-status", role: "status", testid: "aah-status" },
    v.round ? h("span", { class: "round", text: `${t("Round {n}", { n: v.round })} · ` }) : null,
    h("span", { text }),
    timer ? h("span", { class: "aah-timer" }, ` · ${label} `, countdown(timer.deadline, { testid: "aah-timer" })) : null);
}

function gameOverBanner(ctx, v) {
  if (v.phase !== "over" && v.phase !== "aborted") return null;
  const winner = v.seats.find((s) => s.seat === v.winner);
  const rounds = v.rounds || [];
  const standings = [...v.seats].sort((a, b) => b.points - a.points).map((s) => ({ name: s.name, score: s.points, me: s.seat === ctx.seat }));
  const chart = rounds.length ? {
    labels: ["0", ...rounds.map((r) => String(r.round))],
    lines: v.seats.map((s) => ({ name: s.name, values: [0, ...cumulative(rounds.map((r) => (r.winner === s.seat ? 1 : 0)))] })),
    xLabel: t("round"),
  } : null;
  return h("div", { testid: "game-over" },
    gameOverPanel({
      headline: v.phase === "aborted" ? t("The game was aborted.") : winner
        ? t("{name} wins the game with {n} Awesome Points!", { name: winner.name, n: winner.points }) : t("Game over."),
      reason: v.phase === "aborted" ? t("Not enough players were left.") : t("First to {n} points.", { n: v.points_limit }),
      standings,
      chart,
      scoreLabel: t("Awesome Points"),
    }));
}

/** The last round's result, shown between rounds and at the end. */
function roundSummary(v) {
  const last = v.last_round;
  if (!last || !["gap", "waiting", "over", "aborted"].includes(v.phase)) return null;
  if (last.winner === null || last.winner === undefined) {
    return h("div", { class: "banner void", testid: "round-winner", role: "status", text: t("Nobody won that round.") });
  }
  const winning = last.submissions.find((s) => s.owner === last.winner);
  return h("div", { class: "banner", testid: "round-winner", role: "status" },
    h("strong", { text: t("{name} wins the round", { name: last.winner_name }) }),
    winning ? h("div", { class: "cards small" }, winning.cards.map((c) => whiteCard(c, { winning: true }))) : null);
}

// ------------------------------------------------------------------------------ cards

function blackCard(black, fills) {
  const parts = black.text.split(/_+/);
  const body = [];
  parts.forEach((part, i) => {
    body.push(part);
    if (i < parts.length - 1) {
      let fill = fills[i];
      // "…an answer." before ", and then" reads better without the answer's own full stop.
      if (fill && /^[.,!?;:]/.test(parts[i + 1])) fill = fill.replace(/[.!]$/, "");
      body.push(h("span", { class: fill ? "blank filled" : "blank", text: fill || "\u2003\u2003\u2003" }));
    }
  });
  return h("div", { class: "card-black", testid: "black-card", "aria-label": "Black card" },
    h("p", { class: "card-text" }, body),
    h("p", { class: "card-foot" },
      black.draw > 1 ? h("span", { text: `Draw ${black.draw} · ` }) : null,
      h("span", { testid: "black-pick", text: `Pick ${black.pick}` })));
}

function whiteCard(card, { winning = false } = {}) {
  return h("div", { class: winning ? "card-white winning" : "card-white", dataset: { cardId: String(card.id ?? card.card_id) } },
    h("p", { class: "card-text", text: card.text }));
}

/** The texts in the black card's blanks: between rounds the winning answer, during the pick
 * phase our submission so far and then our selection (a preview). */
function blackFill(v, selection) {
  const last = v.last_round;
  if (v.phase !== "pick" && v.phase !== "judge" && last && last.winner !== null && last.winner !== undefined) {
    const winning = last.submissions.find((s) => s.owner === last.winner);
    return winning ? winning.cards.map((c) => c.text) : [];
  }
  return [...v.my_submission, ...selection].map((cid) => cardTexts.get(cid)).filter(Boolean);
}

// ------------------------------------------------------------------------------ the middle

function playedArea(ctx, v, iAmCzar) {
  if (v.phase === "pick") {
    const done = v.seats.filter((s) => s.done && s.seat !== v.czar).length;
    const waiting = v.seats.filter((s) => s.present && !s.done && s.seat !== v.czar).length;
    return h("div", { class: "played", "aria-label": "Played answers" },
      h("p", { class: "muted", testid: "facedown-count", text: t.n(done, "{n} answer in, {waiting} to come.", "{n} answers in, {waiting} to come.", { waiting }) }),
      h("div", { class: "cards facedown-row", testid: "facedown" },
        Array.from({ length: done }, () => h("div", { class: "card-white facedown", "aria-hidden": "true" }))),
      v.my_submission.length ? h("div", { class: "mine" },
        h("p", { class: "muted", text: t("Your answer:") }),
        h("div", { class: "cards small", testid: "my-submission" },
          v.my_submission.map((cid) => whiteCard({ id: cid, text: cardTexts.get(cid) || `#${cid}` })))) : null);
  }
  if (v.phase === "judge") {
    return h("div", { class: "played", "aria-label": "Answers to judge" },
      h("ol", { class: "submissions", testid: "submissions" },
        v.submissions.map((sub, i) => h("li", { class: "submission", testid: "submission", dataset: { index: String(i) } },
          h("div", { class: "cards" }, sub.cards.map((c) => whiteCard(c))),
          iAmCzar && !ctx.ended
            ? h("button", { type: "button", class: "primary", testid: "judge-button", "aria-label": `Choose answer ${i + 1}: ${sub.cards.map((c) => c.text).join(" / ")}`, onclick: () => ctx.act({ type: "Judge", card_id: sub.cards[0].id }), text: t("Choose this") })
            : null))));
  }
  return null;
}

// ------------------------------------------------------------------------------ the hand

function currentSelection(ctx, v, iAmCzar) {
  let sel = selections.get(ctx.room.id);
  const need = v.black ? v.black.pick - v.my_submission.length : 0;
  if (!sel || sel.round !== v.round || v.phase !== "pick" || iAmCzar || need <= 0) {
    sel = { round: v.round, ids: [] };
    selections.set(ctx.room.id, sel);
  }
  const inHand = new Set(v.hand.map((c) => c.id));
  sel.ids = sel.ids.filter((cid) => inHand.has(cid)).slice(0, Math.max(0, need));
  return sel.ids;
}

function hand(ctx, v, me, iAmCzar, selection) {
  const need = v.phase === "pick" && v.black && !iAmCzar && me.present ? v.black.pick - v.my_submission.length : 0;
  const canPick = need > 0;
  const multi = v.black && v.black.pick > 1;
  const play = (ids) => {
    selections.set(ctx.room.id, { round: v.round, ids: [] });
    ctx.act({ type: "Pick", card_ids: ids });
  };
  const toggle = (cid) => {
    const i = selection.indexOf(cid);
    if (i >= 0) selection.splice(i, 1);
    else if (selection.length < need) selection.push(cid);
    ctx.rerender();
  };
  const cards = v.hand.map((card) => {
    const order = selection.indexOf(card.id);
    return h("li", {},
      h("button", {
        type: "button",
        class: order >= 0 ? "card-white playable selected" : canPick ? "card-white playable" : "card-white",
        testid: "hand-card",
        dataset: { cardId: String(card.id) },
        disabled: !canPick,
        "aria-pressed": multi ? String(order >= 0) : null,
        onclick: () => (multi ? toggle(card.id) : play([card.id])),
      },
        h("span", { class: "card-text", text: card.text }),
        order >= 0 ? h("span", { class: "order", "aria-label": `choice ${order + 1}`, text: String(order + 1) }) : null));
  });
  return h("section", { class: "hand", "aria-label": "Your hand" },
    h("div", { class: "row spread" },
      h("h3", { text: iAmCzar && v.phase === "pick" ? t("Your hand (the Czar does not play this round)") : t("Your hand") }),
      multi && canPick ? h("div", { class: "row" },
        h("button", { type: "button", testid: "clear-selection", disabled: selection.length === 0, onclick: () => { selection.length = 0; ctx.rerender(); }, text: t("Clear") }),
        h("button", { type: "button", class: "primary", testid: "play-cards", disabled: selection.length !== need, onclick: () => play([...selection]), text: t.n(need, "Play {n} card", "Play {n} cards") })) : null),
    h("ul", { class: "cards hand-cards", testid: "hand" }, cards));
}

// ------------------------------------------------------------------------------ scores

function scoreboard(ctx, v) {
  return h("section", { class: "scores card", "aria-label": "Scores" },
    h("h3", {}, `${t("Scores")} `, h("span", { class: "muted", text: `(${t("first to {n}", { n: v.points_limit })})` })),
    h("ol", { class: "score-list", testid: "scoreboard" },
      v.seats.map((s) => h("li", { class: [s.present ? "" : "away", s.seat === ctx.seat ? "me" : ""].join(" ").trim(), dataset: { seat: String(s.seat) } },
        h("span", { class: "name", text: s.name }),
        s.seat === ctx.seat ? h("span", { class: "muted", text: " (you)" }) : null,
        s.czar ? h("span", { class: "badge czar", testid: "czar-badge", title: "Card Czar", text: "Czar" }) : null,
        v.phase === "pick" && s.done && !s.czar ? h("span", { class: "done", "aria-label": "has played", title: "has played", text: "✓" }) : null,
        !s.present ? h("span", { class: "muted", text: " away" }) : null,
        h("span", { class: "points", testid: "points", text: String(s.points) })))),
    roundWinners(v));
}

/** Who won each round so far, latest first (a void round: nobody). */
function roundWinners(v) {
  const rounds = v.rounds || [];
  if (!rounds.length) return null;
  return h("details", { class: "aah-rounds", open: rounds.length <= 8 },
    h("summary", { text: t("Round winners ({n})", { n: rounds.length }) }),
    h("ol", { class: "round-winners", testid: "round-winners", reversed: true },
      [...rounds].reverse().map((r) => h("li", { value: String(r.round), testid: "round-winner-line",
        text: r.winner === null || r.winner === undefined ? t("nobody (void round)") : r.winner_name }))));
}

function nameOf(v, seat) {
  const s = v.seats.find((x) => x.seat === seat);
  return s ? s.name : "The Card Czar";
}

addTranslations("de", {
  "Waiting for players: {n} of at least {min} seated (up to {max}). The game starts by itself once enough players sit down, or press Start.": "Warten auf Spieler: {n} von mindestens {min} (bis {max}). Das Spiel beginnt von selbst, sobald genug sitzen, oder drücke Start.",
  "Waiting for players to reconnect.": "Warten, bis Spieler zurückkommen.",
  "The players are picking their answers.": "Die Spieler wählen ihre Antworten.",
  "You are the Card Czar this round. Wait while the others pick.": "Du bist diese Runde der Card Czar. Warte, bis die anderen gewählt haben.",
  "Your answer is in. Waiting for the others.": "Deine Antwort ist abgegeben. Warten auf die anderen.",
  "Pick {n} cards, in order.": "Wähle {n} Karten, in Reihenfolge.",
  "Pick a card.": "Wähle eine Karte.",
  "Choose the funniest answer.": "Wähle die lustigste Antwort.",
  "{name} (the Card Czar) is choosing.": "{name} (der Card Czar) wählt.",
  "The next round will begin shortly.": "Die nächste Runde beginnt gleich.",
  "Game over.": "Spiel vorbei.",
  "The game was stopped: not enough players.": "Das Spiel wurde beendet: zu wenige Spieler.",
  "next round in": "nächste Runde in",
  "time left": "Zeit",
  "Round {n}": "Runde {n}",
  round: "Runde",
  "The game was aborted.": "Das Spiel wurde abgebrochen.",
  "{name} wins the game with {n} Awesome Points!": "{name} gewinnt mit {n} Awesome Points!",
  "Not enough players were left.": "Es waren zu wenige Spieler übrig.",
  "First to {n} points.": "Wer zuerst {n} Punkte hat.",
  Scores: "Punkte",
  "first to {n}": "Ziel {n}",
  "Round winners ({n})": "Rundensieger ({n})",
  "nobody (void round)": "niemand (ungültige Runde)",
  "Nobody won that round.": "Niemand hat diese Runde gewonnen.",
  "{name} wins the round": "{name} gewinnt die Runde",
  "{n} answer in, {waiting} to come.": "{n} Antwort abgegeben, {waiting} fehlen noch.",
  "{n} answers in, {waiting} to come.": "{n} Antworten abgegeben, {waiting} fehlen noch.",
  "Your answer:": "Deine Antwort:",
  "Choose this": "Diese wählen",
  "Your hand (the Czar does not play this round)": "Deine Karten (der Czar spielt diese Runde nicht)",
  "Your hand": "Deine Karten",
  Clear: "Leeren",
  "Play {n} card": "{n} Karte spielen",
  "Play {n} cards": "{n} Karten spielen",
}, "aah");

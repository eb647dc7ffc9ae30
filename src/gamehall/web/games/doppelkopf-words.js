// Doppelkopf in words: card labels, game types, announcements, extras and the round result
// read as sentences ("Re wins with 151 eyes · no 90 · 2 foxes caught by Kontra"), in English
// and German (Re/Kontra, Dulle, Fuchs, Karlchen), from the engine's codes (rules/doppelkopf:
// scoring.py game_summary codes, cards.py game types).

import { addTranslations, lang, scoped } from "../i18n.js";

const t = scoped("doppelkopf");

const SUITS = { c: "♣", s: "♠", h: "♥", d: "♦" };
const RANKS = {
  en: { j: "J", q: "Q", k: "K", a: "A", 9: "9", 10: "10" },
  de: { j: "B", q: "D", k: "K", a: "A", 9: "9", 10: "10" },
};

/** "♣Q" (English) / "♣D" (German); the joker is "Joker". */
export function cardLabel(value) {
  if (!value) return "?";
  if (value === "j0") return "Joker";
  const suit = SUITS[value[0]] || value[0];
  const ranks = RANKS[lang()] || RANKS.en;
  return suit + (ranks[value.slice(1)] || value.slice(1).toUpperCase());
}

/** The name a player gives a special card (Dulle, Fuchs, Karlchen), or null. */
export function cardNickname(value) {
  return { h10: t("Dulle (♥10)"), da: t("Fox (♦A)"), cj: t("Charlie (♣J)") }[value] || null;
}

const GAME_TYPES = {
  normal: "Normal game",
  wedding: "Wedding",
  poverty: "Poverty",
  ramsch: "Ramsch",
  black_sow: "Black sow",
  silent_wedding: "Normal game",
  ramsch_sw: "Ramsch",
  solo_aces: "Aces solo",
  solo_10s: "Tens solo",
  solo_picture: "Picture solo (J, Q, K)",
  solo_noble_brothel: "Noble brothel (Q, K)",
  solo_monastery: "Monastery (J, K)",
  solo_king: "King solo",
  solo_brothel: "Brothel (J, Q)",
  solo_queen: "Queen solo",
  solo_jack: "Jack solo",
  solo_9s: "Nines solo",
  solo_clubs: "Clubs solo",
  solo_spades: "Spades solo",
  solo_hearts: "Hearts solo",
  solo_diamonds: "Diamonds solo",
  solo_pure_clubs: "Pure clubs solo",
  solo_pure_spades: "Pure spades solo",
  solo_pure_hearts: "Pure hearts solo",
  solo_pure_diamonds: "Pure diamonds solo",
  solo_fleshless: "Fleshless (no trumps)",
  solo_null: "Null solo",
  solo_boneless: "Boneless (null, no trumps)",
  throw: "Thrown in",
  poverty_cancel: "Poverty not taken",
  penalty_abort: "Stopped by a penalty",
};

export function gameTypeName(code) {
  return code ? t(GAME_TYPES[code] || code.replaceAll("_", " ")) : "";
}

const ANNOUNCEMENTS = { re: "Re", kontra: "Kontra", no90: "no 90", no60: "no 60", no30: "no 30", black: "black" };

export function announcementName(kind) {
  return t(ANNOUNCEMENTS[kind] || kind.replaceAll("_", " "));
}

export function partyName(party) {
  return party === "re" ? "Re" : party === "kontra" ? "Kontra" : "";
}

const EXTRAS = {
  fox: ["fox caught", "foxes caught"],
  doppelkopf: ["Doppelkopf (a trick of 40 eyes or more)", "Doppelköpfe (tricks of 40 eyes or more)"],
  charlie: ["Charlie (♣J takes the last trick)", "Charlies"],
  charlie_broken: ["Charlie caught", "Charlies caught"],
  heart_trick: ["heart trick", "heart tricks"],
  sec_black_trick: ["second black trick", "second black tricks"],
  hobgoblin: ["hobgoblin (♠Q catches ♠K)", "hobgoblins"],
  fox_lasttrick: ["fox takes the last trick", "fox takes the last trick"],
  jane: ["Jane (♦Q catches Charlie)", "Janes"],
};

const WINS = { re_win: "Re wins", kontra_win: "Kontra wins", no_win: "Nobody wins" };
const TIERS = { no90: "Under 90 eyes", no60: "under 60", no30: "under 30", black: "black (no trick)" };

/**
 * The round result in words: [headline, [detail phrases]] from a summary row
 * {winner, game_type, eyes: [re, kontra], extras: codes}.
 */
export function describeResult(row) {
  const codes = row.extras || [];
  const win = codes.find((c) => Object.hasOwn(WINS, c));
  const winner = row.winner ? (row.winner === "re" ? "Re" : "Kontra") : null;
  const [reEyes, kontraEyes] = row.eyes || [0, 0];
  let headline;
  if (!win && !row.winner && (row.extras || []).length === 0 && reEyes + kontraEyes === 0) {
    headline = `${gameTypeName(row.game_type)}: ${t("no points")}`;
  } else if (winner) {
    headline = t("{party} wins with {eyes} eyes ({type}).", {
      party: winner, eyes: winner === "Re" ? reEyes : kontraEyes, type: gameTypeName(row.game_type),
    });
  } else {
    headline = t("Nobody wins: Re {re} eyes, Kontra {kontra} ({type}).", { re: reEyes, kontra: kontraEyes, type: gameTypeName(row.game_type) });
  }
  const details = [];
  const calls = codes.filter((c) => c === "re" || c === "kontra").map((c) => t("{call} announced", { call: c === "re" ? "Re" : "Kontra" }));
  if (calls.length) details.push(calls.join(", "));
  const tiers = codes.filter((c) => Object.hasOwn(TIERS, c));
  if (tiers.length) details.push(t("the losers: {tiers}", { tiers: tiers.map((c) => t(TIERS[c])).join(", ") }));
  for (const c of codes) {
    let m;
    if ((m = /^c_(\w+)$/.exec(c))) details.push(t("{call} announced and made", { call: announcementName(m[1]) }));
    else if ((m = /^fc_(\w+)$/.exec(c))) details.push(t("{call} announced but missed", { call: announcementName(m[1]) }));
    else if ((m = /^(\d+)vs_(\w+)$/.exec(c))) details.push(t("{eyes} eyes against {call}", { eyes: m[1], call: announcementName(m[2]) }));
    else if ((m = /^o(\d+)$/.exec(c))) details.push(t("more than {eyes} eyes taken", { eyes: m[1] }));
    else if (c === "cowardice") details.push(t("cowardice: the win counts against the winners"));
  }
  const counted = new Map();
  for (const c of codes) {
    const m = /^([pn])_(\w+)$/.exec(c);
    if (m) counted.set(c, (counted.get(c) || 0) + 1);
  }
  const loser = winner === "Re" ? "Kontra" : winner === "Kontra" ? "Re" : null;
  for (const [code, n] of counted) {
    const [, side, extra] = /^([pn])_(\w+)$/.exec(code);
    const names = EXTRAS[extra] || [extra.replaceAll("_", " "), extra.replaceAll("_", " ")];
    const what = n === 1 ? t(names[0]) : `${n} ${t(names[1])}`;
    // Without a winner the p_ extras are Re's and the n_ extras Kontra's (scoring.py).
    const by = side === "p" ? winner || "Re" : loser || "Kontra";
    details.push(t("{what} for {party}", { what, party: by }));
  }
  return [headline, details];
}

addTranslations("de", {
  "Dulle (♥10)": "Dulle (♥10)",
  "Fox (♦A)": "Fuchs (♦A)",
  "Charlie (♣J)": "Karlchen (♣B)",
  "Normal game": "Normalspiel",
  Wedding: "Hochzeit",
  Poverty: "Armut",
  "Black sow": "Schwarze Sau",
  "Aces solo": "Assesolo",
  "Tens solo": "Zehnersolo",
  "Picture solo (J, Q, K)": "Bildersolo (B, D, K)",
  "Noble brothel (Q, K)": "Edles Bordell (D, K)",
  "Monastery (J, K)": "Kloster (B, K)",
  "King solo": "Königssolo",
  "Brothel (J, Q)": "Bordell (B, D)",
  "Queen solo": "Damensolo",
  "Jack solo": "Bubensolo",
  "Nines solo": "Neunersolo",
  "Clubs solo": "Kreuzsolo",
  "Spades solo": "Piksolo",
  "Hearts solo": "Herzsolo",
  "Diamonds solo": "Karosolo",
  "Pure clubs solo": "Reines Kreuzsolo",
  "Pure spades solo": "Reines Piksolo",
  "Pure hearts solo": "Reines Herzsolo",
  "Pure diamonds solo": "Reines Karosolo",
  "Fleshless (no trumps)": "Fleischloser (ohne Trumpf)",
  "Null solo": "Nullsolo",
  "Boneless (null, no trumps)": "Knochenloser (Null ohne Trumpf)",
  "Thrown in": "Eingeworfen",
  "Poverty not taken": "Armut nicht angenommen",
  "Stopped by a penalty": "Abbruch durch Strafe",
  "no 90": "keine 90",
  "no 60": "keine 60",
  "no 30": "keine 30",
  black: "schwarz",
  "fox caught": "Fuchs gefangen",
  "foxes caught": "Füchse gefangen",
  "Doppelkopf (a trick of 40 eyes or more)": "Doppelkopf (Stich mit 40 Augen oder mehr)",
  "Doppelköpfe (tricks of 40 eyes or more)": "Doppelköpfe (Stiche mit 40 Augen oder mehr)",
  "Charlie (♣J takes the last trick)": "Karlchen (♣B macht den letzten Stich)",
  Charlies: "Karlchen",
  "Charlie caught": "Karlchen gefangen",
  "Charlies caught": "Karlchen gefangen",
  "heart trick": "Herzstich",
  "heart tricks": "Herzstiche",
  "second black trick": "zweiter schwarzer Stich",
  "second black tricks": "zweite schwarze Stiche",
  "hobgoblin (♠Q catches ♠K)": "Klabautermann (♠D fängt ♠K)",
  hobgoblins: "Klabautermänner",
  "fox takes the last trick": "Fuchs macht den letzten Stich",
  "Jane (♦Q catches Charlie)": "Liese (♦D fängt Karlchen)",
  Janes: "Liesen",
  "no points": "keine Punkte",
  "{party} wins with {eyes} eyes ({type}).": "{party} gewinnt mit {eyes} Augen ({type}).",
  "Nobody wins: Re {re} eyes, Kontra {kontra} ({type}).": "Niemand gewinnt: Re {re} Augen, Kontra {kontra} ({type}).",
  "{call} announced": "{call} angesagt",
  "the losers: {tiers}": "die Verlierer: {tiers}",
  "Under 90 eyes": "keine 90",
  "under 60": "keine 60",
  "under 30": "keine 30",
  "black (no trick)": "schwarz (kein Stich)",
  "{call} announced and made": "{call} angesagt und erfüllt",
  "{call} announced but missed": "{call} angesagt, nicht erfüllt",
  "{eyes} eyes against {call}": "{eyes} Augen gegen {call}",
  "more than {eyes} eyes taken": "mehr als {eyes} Augen",
  "cowardice: the win counts against the winners": "Feigheit: der Sieg zählt gegen die Gewinner",
  "{what} for {party}": "{what} für {party}",
}, "doppelkopf");

// Ursuppe in words: the gene names as the English edition (Primordial Soup) calls them, with the
// German wire name beside ("Speed (GESCHWINDIGKEIT)"), their effects in English and German, the
// BP/DP abbreviations explained, and the German table of the renderer's sentences.

import { h } from "../ui.js";
import { addTranslations, lang, scoped } from "../i18n.js";

const t = scoped("ursuppe");

/** Gene number (the wire's "Index Gene") -> [English name, German name]. */
const GENE_NAMES = {
  0: ["Intelligence", "Intelligenz"],
  1: ["Movement I", "Bewegung I"],
  2: ["Spores", "Sporen"],
  3: ["Speed", "Geschwindigkeit"],
  4: ["Defense", "Verteidigung"],
  5: ["Escape", "Flucht"],
  6: ["Substitution", "Ersatzkost"],
  7: ["Ray Protection", "Strahlenschutz"],
  8: ["Streamlining", "Stromlinienform"],
  9: ["Tentacle", "Tentakel"],
  10: ["Holding", "Klammern"],
  11: ["Life Expectancy", "Lebenserwartung"],
  12: ["Frugality", "Genügsamkeit"],
  13: ["Struggle for Survival", "Überlebenskampf"],
  14: ["Parasitism", "Parasitismus"],
  15: ["Division Rate", "Teilungsrate"],
  16: ["Persistence", "Ausdauer"],
  17: ["Movement II", "Bewegung II"],
  18: ["Aggression", "Aggression"],
  19: ["Armor", "Panzerung"],
};

/** A gene as the player reads it: "Speed (GESCHWINDIGKEIT)" in English, "Geschwindigkeit" in German. */
export function geneName(gene) {
  const names = GENE_NAMES[gene.gene];
  if (!names) return gene.name;
  return lang() === "de" ? names[1] : `${names[0]} (${gene.name})`;
}

/** What the gene does, from the engine's English text (rules/ursuppe/genes.py EFFECTS). */
export function geneEffect(gene) {
  return gene.effect ? t(gene.effect) : "";
}

/** "BP", explained on hover. */
export function bpLabel() {
  return h("abbr", { title: t("biopoints") }, "BP");
}

/** "DP", explained on hover. */
export function dpLabel() {
  return h("abbr", { title: t("damage points") }, "DP");
}

addTranslations("de", {
  // gene effects (genes.py EFFECTS)
  "scoring: counts 1 in the gene weight; no effect in play": "Wertung: zählt 1 beim Gengewicht; im Spiel ohne Wirkung",
  "movement: a rolled move may use either die": "Bewegung: ein gewürfelter Zug darf jeden der beiden Würfel nutzen",
  "division: new amoebas may go on any field without an own amoeba": "Teilung: neue Amöben dürfen auf jedes Feld ohne eigene Amöbe",
  "movement/combat: a free, rolled second step after a rolled move or flight": "Bewegung/Kampf: ein freier, gewürfelter zweiter Schritt nach einem gewürfelten Zug oder einer Flucht",
  "combat: when attacked, pay 1 BP and fight with dice": "Kampf: angegriffen 1 BP zahlen und mit Würfeln kämpfen",
  "combat: when attacked, roll and flee like a move": "Kampf: angegriffen würfeln und wie bei einem Zug fliehen",
  "feeding: one colour fewer and one cube more": "Fressen: eine Farbe weniger und ein Würfel mehr",
  "genetics: MP -2, covers 4 when surrendered; scoring: weight 0": "Genetik: MP −2, deckt abgegeben 4; Wertung: Gewicht 0",
  "movement/combat: rolling for a move or flight costs no BP": "Bewegung/Kampf: Würfeln für Zug oder Flucht kostet keine BP",
  "movement: carry up to 2 (3p) or 3 (4p) cubes along on a step": "Bewegung: bis zu 2 (3 Spieler) oder 3 (4 Spieler) Nahrungswürfel mitnehmen",
  "movement: stay instead of drifting; ride along with a leaving amoeba": "Bewegung: liegen bleiben statt treiben; mit einer wegziehenden Amöbe mitfahren",
  "deaths: an amoeba dies at 3 damage points instead of 2": "Tod: eine Amöbe stirbt erst bei 3 statt 2 Schadenspunkten",
  "feeding: one cube less": "Fressen: ein Würfel weniger",
  "combat: a starving amoeba may attack one on its field (1 BP)": "Kampf: eine hungernde Amöbe darf eine auf ihrem Feld angreifen (1 BP)",
  "feeding: one cube less, a neighbour of another colour pays 1 BP": "Fressen: ein Würfel weniger, ein andersfarbiger Nachbar zahlt 1 BP",
  "division: a new amoeba costs 4 BP instead of 6": "Teilung: eine neue Amöbe kostet 4 statt 6 BP",
  "combat: a lost fight is re-rolled once; includes Speed": "Kampf: ein verlorener Kampf wird einmal neu gewürfelt; enthält Geschwindigkeit",
  "movement: after the roll, any direction": "Bewegung: nach dem Wurf jede Richtung",
  "phases: once per round in phase 5, attack a foreign amoeba; includes Struggle": "Phasen: einmal pro Runde in Phase 5 eine fremde Amöbe angreifen; enthält Überlebenskampf",
  "combat: cannot be attacked in phase 1; in phase 5 a hit is one damage point": "Kampf: in Phase 1 nicht angreifbar; in Phase 5 ist ein Treffer ein Schadenspunkt",
  // abbreviations
  biopoints: "Biopunkte",
  "damage points": "Schadenspunkte",
  "biopoints: the money of the game (movement, genes, division, defence)": "Biopunkte: das Geld des Spiels (Bewegung, Gene, Teilung, Verteidigung)",
  "damage points of an amoeba (✶ on the board); 2 kill it, 3 with Life Expectancy": "Schadenspunkte einer Amöbe (✶ auf dem Brett); 2 töten sie, 3 mit Lebenserwartung",
  // phases and status
  "Waiting for players": "Warten auf Spieler",
  "Getting ready": "Vorbereitung",
  "Choosing start spaces": "Startfelder wählen",
  "Placing the first amoebas": "Die ersten Amöben setzen",
  "Phase 1: move and eat": "Phase 1: Bewegung und Nahrungsaufnahme",
  "Phase 2: environment and gene defects": "Phase 2: Umwelt und Gendefekte",
  "Phase 3: buying genes": "Phase 3: Gene kaufen",
  "Phase 4: cell division": "Phase 4: Zellteilung",
  "Phase 5: deaths": "Phase 5: Todesfälle",
  "Phase 6: scoring": "Phase 6: Wertung",
  "Game over": "Spielende",
  "Waiting for players: {n} of {max} seated. The game starts when the table is full.": "Warten auf Spieler: {n} von {max} sitzen. Das Spiel beginnt, wenn der Tisch voll ist.",
  "waiting for {who}": "warten auf {who}",
  "Round {n}": "Runde {n}",
  "time left": "Zeit",
  you: "du",
  away: "weg",
  and: "und",
  round: "Runde",
  "colour {n}": "Farbe {n}",
  red: "rot",
  blue: "blau",
  green: "grün",
  yellow: "gelb",
  "{names} win at space {n} of the score track.": "{names} gewinnen auf Feld {n} der Punkteleiste.",
  "{names} wins at space {n} of the score track.": "{names} gewinnt auf Feld {n} der Punkteleiste.",
  "A marker reached the finish zone (space {n}).": "Ein Stein hat die Zielzone erreicht (Feld {n}).",
  "The last environment card was played.": "Die letzte Umweltkarte ist gespielt.",
  Space: "Feld",
  // the soup
  compass: "Kompass",
  "not playable": "nicht bespielbar",
  nutrients: "Nahrung",
  "{n} {colour} nutrients": "{n} Nahrung {colour}",
  "field ({x},{y})": "Feld ({x},{y})",
  "you may place here": "hier darfst du setzen",
  "The primordial soup": "Die Ursuppe",
  // side panels
  "Environment card": "Umweltkarte",
  Environment: "Umwelt",
  Drift: "Strömung",
  none: "keine",
  West: "West",
  North: "Nord",
  East: "Ost",
  South: "Süd",
  Stay: "Bleiben",
  "ozone layer {n}": "Ozonschicht {n}",
  "{n} card left": "{n} Karte übrig",
  "{n} cards left": "{n} Karten übrig",
  Players: "Spieler",
  "space {n}": "Feld {n}",
  "{n} amoeba": "{n} Amöbe",
  "{n} amoebas": "{n} Amöben",
  "#{n} at ({x},{y})": "#{n} auf ({x},{y})",
  "no genes": "keine Gene",
  "Score track": "Punkteleiste",
  "the game ends at {n}": "das Spiel endet bei {n}",
  "Genes for sale": "Gene zu kaufen",
  gene: "Gen",
  price: "Preis",
  left: "übrig",
  // decisions
  "Are you ready?": "Bist du bereit?",
  Ready: "Bereit",
  "Choose your start space on the score track (lower spaces move first in phase 1).": "Wähle dein Startfeld auf der Punkteleiste (niedrigere Felder ziehen in Phase 1 zuerst).",
  "Space {n}": "Feld {n}",
  "Click a highlighted (empty) field for your amoeba #{n}.": "Klicke ein hervorgehobenes (leeres) Feld für deine Amöbe #{n}.",
  "Your decision": "Deine Entscheidung",
  "Your move": "Du bist dran",
  "Move amoeba #{n} at ({x},{y}).": "Bewege Amöbe #{n} auf ({x},{y}).",
  "Move amoeba #{n} at ({x},{y}) again (second step).": "Bewege Amöbe #{n} auf ({x},{y}) noch einmal (zweiter Schritt).",
  "You rolled {a} and {b}.": "Du hast {a} und {b} gewürfelt.",
  "Drift with the current:": "Mit der Strömung treiben:",
  "stay (blocked)": "bleiben (blockiert)",
  "Hold on (stay)": "Festhalten (bleiben)",
  free: "frei",
  "Roll the dice ({cost})": "Würfeln ({cost})",
  "No second move": "Kein zweiter Zug",
  "Tentacle: carry": "Tentakel: mitnehmen",
  Carry: "Mitnehmen",
  "Feed amoeba #{n} at ({x},{y}).": "Füttere Amöbe #{n} auf ({x},{y}).",
  "No meal fits here: the amoeba starves (or fights).": "Hier passt keine Mahlzeit: die Amöbe hungert (oder kämpft).",
  Starve: "Hungern",
  "Parasitism against:": "Parasitismus gegen:",
  "Struggle for survival (1 BP):": "Überlebenskampf (1 BP):",
  "attack {name} #{n}": "{name} #{n} angreifen",
  "An amoeba leaves your field: hold on to it?": "Eine Amöbe verlässt dein Feld: festhalten?",
  "{name}'s amoeba #{n} leaves {dir}. Ride along with your amoeba #{mine}?": "Amöbe #{n} von {name} zieht nach {dir}. Mit deiner Amöbe #{mine} mitfahren?",
  "Ride along": "Mitfahren",
  "{name}'s amoeba #{n} attacks your amoeba #{mine}.": "Amöbe #{n} von {name} greift deine Amöbe #{mine} an.",
  "Your amoeba #{n} is attacked.": "Deine Amöbe #{n} wird angegriffen.",
  "You rolled {a} and {b}: flee.": "Du hast {a} und {b} gewürfelt: fliehe.",
  "Roll to flee": "Würfeln und fliehen",
  "Don't flee": "Nicht fliehen",
  "Defend (1 BP)": "Verteidigen (1 BP)",
  "Don't defend": "Nicht verteidigen",
  "Gene defects of {d}: surrender genes (each covers its mutation points; Ray Protection covers 4); your BP pay the rest.": "Gendefekte von {d}: gib Gene ab (jedes deckt seine Mutationspunkte; Strahlenschutz deckt 4); den Rest zahlen deine BP.",
  Pay: "Zahlen",
  "{total} of {bp} BP": "{total} von {bp} BP",
  "{price} BP, {free} left": "{price} BP, {free} übrig",
  yours: "deins",
  "Armor replaces:": "Panzerung ersetzt:",
  "Buy genes:": "Gene kaufen:",
  Buy: "Kaufen",
  "Buy nothing": "Nichts kaufen",
  "Cell division: click highlighted fields to place new amoebas ({cost} BP each, the first one free). You have {bp} BP.": "Zellteilung: klicke hervorgehobene Felder für neue Amöben (je {cost} BP, die erste gratis). Du hast {bp} BP.",
  "Cell division: click highlighted fields to place new amoebas ({cost} BP each, next to your amoebas). You have {bp} BP.": "Zellteilung: klicke hervorgehobene Felder für neue Amöben (je {cost} BP, neben deinen Amöben). Du hast {bp} BP.",
  "Nothing planned yet.": "Noch nichts geplant.",
  "No more amoebas fit (BP, free numbers or fields).": "Keine weitere Amöbe passt (BP, freie Nummern oder Felder).",
  "Place {n}": "{n} setzen",
  "Place none": "Keine setzen",
  Clear: "Leeren",
  "Aggression (1 BP, once a round): attack an amoeba on the field of one of yours?": "Aggression (1 BP, einmal pro Runde): eine Amöbe auf dem Feld einer deiner Amöben angreifen?",
  "#{n} attacks {name} #{m}": "#{n} greift {name} #{m} an",
  "Stay peaceful": "Friedlich bleiben",
}, "ursuppe");

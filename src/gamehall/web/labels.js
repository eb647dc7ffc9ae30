// Choice values in words: a settings form shows "Duplicate (English)" for the JDuplicate
// preset code "DupEN" (the value sent stays the code). Keyed by game id and setting name;
// a value without a label is shown as it is.

import { addTranslations, t } from "./i18n.js";

const CHOICES = {
  words: {
    preset: {
      DupEN: "Duplicate (English)",
      fr: "Duplicate (French)",
      ScrEN: "Scrabble (English)",
      ScrFR: "Scrabble (French)",
      BogEN: "Boggle 4×4 (English)",
      BogFR: "Boggle 4×4 (French)",
    },
    mode: { "": "as the game chosen above", duplicate: "Duplicate", scrabble: "Scrabble", boggle: "Boggle" },
    letters: { "": "as the game chosen above", EN: "English tiles", FR: "French tiles" },
  },
};

/** The label of `value` for setting `setting` of game `gameId`, in the current language. */
export function choiceLabel(gameId, setting, value) {
  const labels = CHOICES[gameId] && CHOICES[gameId][setting];
  return labels && Object.hasOwn(labels, value) ? t(labels[value]) : String(value);
}

/** A words table's mode in words ("Duplicate (English)") from its view's mode and letters. */
export function wordsModeTitle(mode, letters) {
  const name = { duplicate: "Duplicate", scrabble: "Scrabble", boggle: "Boggle" }[mode] || mode;
  const language = { EN: "English", FR: "French" }[letters] || letters;
  return `${t(name)} (${t(language)})`;
}

addTranslations("de", {
  "Duplicate (English)": "Duplicate (Englisch)",
  "Duplicate (French)": "Duplicate (Französisch)",
  "Scrabble (English)": "Scrabble (Englisch)",
  "Scrabble (French)": "Scrabble (Französisch)",
  "Boggle 4×4 (English)": "Boggle 4×4 (Englisch)",
  "Boggle 4×4 (French)": "Boggle 4×4 (Französisch)",
  "as the game chosen above": "wie das oben gewählte Spiel",
  "English tiles": "Englische Steine",
  "French tiles": "Französische Steine",
  English: "Englisch",
  French: "Französisch",
});

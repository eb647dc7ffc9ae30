// German for the strings every screen shares (the top bar, the room frame, the game-over
// panel). Each game's own terms live in its module (games/<id>.js). English is the key.

import { addTranslations } from "./i18n.js";

addTranslations("de", {
  // top bar and room frame
  "Log out": "Abmelden",
  "Connecting…": "Verbinde…",
  Connected: "Verbunden",
  Disconnected: "Getrennt",
  "Not connected": "Nicht verbunden",
  "{name} sat down.": "{name} hat Platz genommen.",
  "{name} left.": "{name} ist gegangen.",
  "{name} lost the connection.": "{name} hat die Verbindung verloren.",
  "{name} is back.": "{name} ist zurück.",
  Leave: "Verlassen",
  "Stop watching": "Nicht mehr zusehen",
  "Leave this game?": "Dieses Spiel verlassen?",
  "Your seat is given up for good: you cannot come back to it.": "Dein Platz ist dann endgültig weg: du kannst nicht zurück.",
  Stay: "Bleiben",
  "← Lobby": "← Lobby",
  watching: "schaut zu",
  "Start game": "Spiel starten",
  "Add a bot": "Bot hinzufügen",
  "Fill {n} seats with bots": "{n} Plätze mit Bots füllen",
  "Back to lobby": "Zurück zur Lobby",
  remove: "entfernen",
  away: "weg",
  "watching: {names}": "schauen zu: {names}",
  "This game is over.": "Dieses Spiel ist vorbei.",
  "This room has ended.": "Dieser Raum ist geschlossen.",
  "Loading the table…": "Der Tisch wird geladen…",
  Chat: "Chat",
  // game over (games/summary.js)
  "Game over": "Spielende",
  Player: "Spieler",
  Score: "Punkte",
  "Score over the rounds": "Punkte im Lauf der Runden",
  // preparing a word list
  "Preparing the dictionary…": "Das Wörterbuch wird vorbereitet…",
});

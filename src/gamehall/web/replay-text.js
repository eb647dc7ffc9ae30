// Words for replays and "Recent games": a finished room's result and a step's events.

const TERMINATIONS = {
  normal: "The game was played to its end.",
  resigned: "A player resigned.",
  left: "A player left the game.",
  rule_violation: "A player broke the rules.",
  timeout: "A player ran out of time.",
  aborted: "The game was stopped before its end.",
  abandoned: "Everybody left before the game started.",
  closed_by_host: "The host closed the room.",
};

/** Why a game ended, in words. */
export function terminationText(termination) {
  return TERMINATIONS[termination] || (termination ? `It ended: ${String(termination).replaceAll("_", " ")}.` : "It ended.");
}

/** "ann 8, bob 5, carl 3" (best first) and who won. */
export function scoreLine(result) {
  const names = result.names || {};
  const scores = Object.entries(result.scores || {}).sort((a, b) => b[1] - a[1]);
  return scores.map(([seat, score]) => `${names[seat] || `seat ${seat}`} ${score}`).join(", ");
}

export function winnersLine(result) {
  const names = result.names || {};
  const winners = (result.winners || []).map((seat) => names[String(seat)] || `seat ${seat}`);
  if (winners.length === 0) return "Nobody won.";
  return winners.length === 1 ? `${winners[0]} won.` : `${winners.join(" and ")} won.`;
}

/** The result panel's lines for a replay (or a "Recent games" entry). */
export function resultLines(replay) {
  const result = replay.result || {};
  const lines = [];
  if (result.termination !== "closed_by_host" && result.termination !== "abandoned") lines.push(winnersLine(result));
  const scores = scoreLine(result);
  if (scores) lines.push(`Scores: ${scores}.`);
  lines.push(terminationText(result.termination));
  if (result.reason) lines.push(String(result.reason));
  return lines;
}

/** A line for an event of a replay step (null: not worth a line). */
export function describeEvent(ev) {
  switch (ev.type) {
    case "SeatJoined": return `${ev.name} sat down.`;
    case "SeatLeft": return `${ev.name} left.`;
    case "SeatAway": return `${ev.name} lost the connection.`;
    case "SeatBack": return `${ev.name} is back.`;
    case "SeatRenamed": return `${ev.old} is now ${ev.new}.`;
    default: {
      if (typeof ev.text === "string" && ev.text) return ev.text;
      // "RoundWon" with {seat: 0, name: "ann", points: 2, cards: [...]} -> "Round won: ann, points 2"
      const name = ev.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().replace(/^./, (c) => c.toUpperCase());
      const named = typeof ev.name === "string";
      const fields = Object.entries(ev)
        .filter(([k, v]) => k !== "type" && k !== "name" && v !== null && typeof v !== "object")
        .filter(([k]) => !/(^|_)ids?$/.test(k) && !(named && k === "seat"))
        .map(([k, v]) => `${k.replaceAll("_", " ")} ${v}`);
      const parts = [named ? ev.name : null, ...fields].filter(Boolean);
      return parts.length ? `${name}: ${parts.join(", ")}` : name;
    }
  }
}

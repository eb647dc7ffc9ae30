// The styles of the Mr. Jack table (installed once into <head> by games/mrjack.js), kept with the
// renderer so the shared style sheet stays untouched. Uses the hall's CSS variables.

export const STYLE = `
.mj-status { font-size: 1.05rem; margin: 0 0 .8rem; padding: .5rem .8rem; border-radius: var(--radius); background: var(--card); border: 1px solid var(--line); }
.mj-status.mine { border-color: var(--accent); box-shadow: 0 0 0 2px var(--accent) inset; }
.mj-timer { font-variant-numeric: tabular-nums; color: var(--muted); white-space: nowrap; }
.mj-grid { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
.mj-boardwrap { flex: 3 1 520px; min-width: 0; }
.mj-side { flex: 1 1 17rem; max-width: 26rem; display: flex; flex-direction: column; gap: .7rem; }
.mj-panel { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: .7rem .9rem; }
.mj-panel h3 { margin: .2rem 0 .5rem; }
.mj-board { width: 100%; height: auto; display: block; max-height: 78vh; user-select: none; }
.mj-water { fill: #5b8fb9; }
.mj-ferry { fill: none; stroke: #e8f1fb; stroke-width: 2.5; stroke-dasharray: 7 5; }
.mj-inv-link { stroke: #8f2626; stroke-width: 10; stroke-linecap: round; }
.mj-hexshape { stroke: #6d6252; stroke-width: 1.2; }
.mj-hex.street .mj-hexshape { fill: #efe5cf; }
.mj-hex.building .mj-hexshape { fill: #8c7a66; }
.mj-hex.site .mj-hexshape { fill: url(#mj-site); }
.mj-hex.park .mj-hexshape { fill: #8fca73; }
.mj-hex.inv .mj-hexshape { fill: url(#mj-inv); }
.mj-hex.quay .mj-hexshape { fill: #c9d4da; }
.mj-hex.port .mj-hexshape { fill: #a9cde8; stroke: #2d5d85; stroke-dasharray: 4 3; }
.mj-hex.exit .mj-hexshape { fill: #5fae6a; }
.mj-hex.liberty .mj-hexshape { fill: #9ccf8b; stroke: #3f6f3a; }
.mj-hex.recent .mj-hexshape { stroke: #f28c28; stroke-width: 3.5; }
.mj-hex.chosen .mj-hexshape { stroke: #1565c0; stroke-width: 4; }
.mj-hex.target { cursor: pointer; }
.mj-hex.target .mj-hexshape { stroke: #f5c542; stroke-width: 4.5; filter: drop-shadow(0 0 3px #f5c542); }
.mj-hex.target:hover .mj-hexshape, .mj-hex.target:focus .mj-hexshape { fill: #fff3bf; stroke: #e09b00; }
.mj-hex.target:focus { outline: none; }
.mj-label { font-size: 8.5px; fill: #6d6252; text-anchor: middle; pointer-events: none; }
.mj-hex.building .mj-label, .mj-hex.inv .mj-label { fill: #f3ece0; }
.mj-caption { font-size: 9px; fill: #234; text-anchor: middle; pointer-events: none; }
.mj-caption.strong { font-weight: 700; font-size: 10px; fill: #1b1b1b; }
.mj-house { fill: #5e4d3c; stroke: #3c3024; }
.mj-tree { fill: #2e7d32; }
.mj-trunk { fill: #5d4037; }
.mj-lens { fill: none; stroke: #fff; stroke-width: 2.5; }
.mj-metro { fill: #1e4fa3; stroke: #fff; stroke-width: 1.5; }
.mj-metro-m { fill: #fff; font: 700 12px system-ui, sans-serif; text-anchor: middle; pointer-events: none; }
.mj-post { fill: #333; }
.mj-lamp { fill: #ffd54f; stroke: #8d6e00; stroke-width: 1.2; }
.mj-ship { fill: #263a55; }
.mj-statue { fill: #4f9a8a; }
.mj-informant circle { fill: #fff; stroke: #222; stroke-width: 1.5; }
.mj-informant text { font: italic 700 11px Georgia, serif; text-anchor: middle; fill: #222; }
.mj-informant.silent circle { fill: #bbb; stroke-dasharray: 2 2; }
.mj-figure { pointer-events: none; }
.mj-token { stroke: #222; stroke-width: 1.5; }
.mj-token-text { font: 700 11px system-ui, sans-serif; text-anchor: middle; }
.mj-halo { fill: #fff59d; opacity: .85; stroke: #f9a825; stroke-width: 1.5; }
.mj-figure.cleared .mj-token, .mj-figure.cleared .mj-token-text { opacity: .55; }
.mj-cleared-badge { fill: #2e7d32; stroke: #fff; stroke-width: 1; }
.mj-cleared-mark { fill: #fff; font: 700 9px system-ui, sans-serif; text-anchor: middle; }
.mj-active-ring { fill: none; stroke: #f28c28; stroke-width: 4; }
.mj-jack-ring { fill: none; stroke: #d50000; stroke-width: 2.5; stroke-dasharray: 4 2.5; }
.mj-legend { list-style: none; padding: 0; margin: .5rem 0 .7rem; display: flex; flex-wrap: wrap; gap: .3rem .9rem; font-size: .85rem; color: var(--muted); }
.mj-key { display: inline-block; width: .9rem; height: .9rem; border-radius: 3px; margin-right: .3rem; vertical-align: -2px; border: 1px solid #6d6252; }
.mj-key.street { background: #efe5cf; } .mj-key.building { background: #8c7a66; }
.mj-key.site { background: repeating-linear-gradient(45deg, #e59a3c 0 3px, #f3c27b 3px 6px); }
.mj-key.park { background: #8fca73; } .mj-key.metro { background: #1e4fa3; border-radius: 50%; }
.mj-key.lamp { background: #ffd54f; border-radius: 50%; }
.mj-key.inv { background: repeating-linear-gradient(-45deg, #b23b3b 0 3px, #d35b50 3px 6px); }
.mj-key.quay { background: #a9cde8; } .mj-key.halo { background: #fff59d; border-color: #f9a825; border-radius: 50%; }
.mj-key.target { background: #fff; border: 3px solid #f5c542; }
.mj-key.recent { background: #efe5cf; border: 3px solid #f28c28; }
.mj-players { list-style: none; padding: 0; margin: 0; display: grid; gap: .3rem; }
.mj-players li.turn { font-weight: 600; }
.mj-role { display: inline-block; min-width: 5.5rem; font-size: .8rem; padding: .05rem .45rem; border-radius: 999px; text-align: center; }
.mj-role.mrjack { background: #3b1f2b; color: #fff; }
.mj-role.detektiv { background: #1e3a5f; color: #fff; }
.mj-secret { margin: .6rem 0 0; padding: .45rem .6rem; border-radius: 8px; background: #3b1f2b; color: #fff; }
.mj-chip { display: inline-block; width: .95rem; height: .95rem; border-radius: 50%; border: 1px solid #444; margin-right: .35rem; vertical-align: -2px; flex: 0 0 auto; }
.mj-rounds { list-style: none; padding: 0; margin: 0 0 .5rem; display: flex; gap: .25rem; }
.mj-rounds li { width: 1.8rem; height: 1.8rem; border-radius: 50%; display: grid; place-items: center; border: 1px solid var(--line); font-size: .85rem; }
.mj-rounds li.past { background: var(--line); }
.mj-rounds li.now { background: var(--accent); color: var(--accent-fg); border-color: var(--accent); font-weight: 700; }
.mj-witness { margin: 0 0 .5rem; padding: .35rem .6rem; border-radius: 8px; }
.mj-witness.seen { background: #fff59d; color: #3a3000; }
.mj-witness.unseen { background: #37474f; color: #fff; }
.mj-pickers { list-style: none; padding: 0; margin: 0 0 .5rem; display: flex; gap: .3rem; flex-wrap: wrap; font-size: .85rem; }
.mj-pickers li { padding: .1rem .5rem; border-radius: 999px; border: 1px solid var(--line); }
.mj-pickers li.now { border-color: var(--accent); font-weight: 700; }
.mj-cards { list-style: none; padding: 0; margin: 0; display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: .4rem; }
.mj-card { width: 100%; text-align: left; display: flex; flex-wrap: wrap; align-items: center; gap: .1rem .2rem; padding: .4rem .5rem; }
.mj-card:not(:disabled) { border: 2px solid var(--accent); }
.mj-card.used { text-decoration: line-through; }
.mj-card.active { opacity: 1; border: 2px solid #f28c28; text-decoration: none; }
.mj-card-name { font-weight: 600; }
.mj-card-ability { flex-basis: 100%; font-size: .8rem; color: var(--muted); }
.mj-actions { border-color: var(--accent); }
.mj-target-buttons { display: flex; flex-wrap: wrap; gap: .25rem; margin-top: .4rem; max-height: 10rem; overflow: auto; }
.mj-confirm { padding: .5rem .6rem; border-radius: 8px; background: #fdecea; color: #5a1a12; }
button.danger { background: var(--danger); color: #fff; border-color: var(--danger); }
.mj-suspects { list-style: none; padding: 0; margin: 0; display: grid; gap: .25rem; font-size: .9rem; }
.mj-suspects li { display: flex; align-items: center; flex-wrap: wrap; gap: .2rem; }
.mj-suspect-name { flex: 1 1 auto; }
.mj-suspects li.cleared .mj-suspect-name { color: var(--muted); text-decoration: line-through; }
.mj-tags { margin-left: auto; display: flex; flex-wrap: wrap; gap: .2rem; }
.mj-tags .tag { font-size: .72rem; padding: 0 .4rem; border-radius: 999px; background: var(--line); }
.mj-tags .tag.suspect { background: #f8d7da; color: #721c24; }
.mj-tags .tag.cleared { background: #d4edda; color: #155724; }
.mj-tags .tag.seen { background: #fff59d; color: #3a3000; }
.mj-tags .tag.alibi { background: #cfe2ff; color: #0a3069; }
.mj-tags .tag.jack { background: #3b1f2b; color: #fff; }
.mj-log { margin: 0; padding-left: 1.2rem; font-size: .85rem; }
.mj-resign { margin: 0; }
@media (max-width: 700px) {
  /* On a phone: the cards and the open move first, then the board, then the rest. */
  .mj-grid { flex-direction: column; align-items: stretch; }
  .mj-side { display: contents; }
  .mj-cards-panel { order: -3; }
  .mj-actions { order: -2; }
  .mj-boardwrap { order: -1; flex: 0 0 auto; max-width: calc(100vw - 2.2rem); }
  .mj-card-ability { display: none; }
  .mj-board-scroll { overflow-x: auto; }
  .mj-board { min-width: 600px; }
  .mj-board { max-height: none; }
}
`;

// The styles of the word-game table (installed once into <head> by games/words.js), kept with
// the renderer so the shared style sheet stays untouched. Uses the hall's CSS variables.

export const STYLE = `
.wd-status { font-size: 1.05rem; margin: 0 0 .8rem; padding: .5rem .8rem; border-radius: var(--radius); background: var(--card); border: 1px solid var(--line); }
.wd-status.mine { border-color: var(--accent); box-shadow: 0 0 0 2px var(--accent) inset; }
.wd-timer { font-variant-numeric: tabular-nums; color: var(--muted); white-space: nowrap; }
.wd-grid { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
.wd-play { flex: 0 1 auto; width: min(100%, 40rem, calc(100vh - 17rem)); min-width: min(100%, 20rem); display: flex; flex-direction: column; gap: .7rem; }
.wd-side { flex: 1 1 17rem; max-width: 30rem; display: flex; flex-direction: column; gap: .7rem; min-width: 0; }
.wd-panel { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: .7rem .9rem; }
.wd-panel h3 { margin: .1rem 0 .5rem; }
.wd-panel > p:first-child { margin-top: 0; }
.wd-panel > p:last-child { margin-bottom: 0; }
.wd-board { display: grid; grid-template-columns: repeat(15, minmax(0, 1fr)); grid-template-rows: repeat(15, minmax(0, 1fr)); gap: 2px; width: min(100%, 40rem, calc(100vh - 17rem)); min-width: min(100%, 20rem); aspect-ratio: 1; background: #7d8f7a; padding: 3px; border-radius: 6px; user-select: none; }
.wd-sq { min-height: 0; padding: 0; border: 0; border-radius: 2px; background: #e9e2cc; color: #1d1b18; font-size: clamp(.45rem, 1.3vw, .62rem); font-weight: 600; display: flex; align-items: center; justify-content: center; position: relative; line-height: 1; overflow: hidden; }
.wd-sq.p-T { background: #d9534f; color: #fff; }
.wd-sq.p-D { background: #f2a7a0; }
.wd-sq.p-t { background: #3f7fbf; color: #fff; }
.wd-sq.p-d { background: #a9cfee; }
.wd-sq.start::after { content: "★"; font-size: 1.3em; }
.wd-sq.cursor { outline: 3px solid var(--select); outline-offset: -3px; z-index: 1; }
.wd-sq .arrow { position: absolute; right: 1px; bottom: 0; font-size: .9em; color: #1d1b18; }
.wd-sq.tile, .wd-tile { background: #f6d58e; color: #2b2112; border-radius: 3px; box-shadow: inset 0 -2px 0 #c99d45; }
.wd-sq.tile { font-size: clamp(.8rem, 2.2vw, 1.2rem); }
.wd-sq.tile::after { content: none; }
.wd-sq.draft { background: #ffe9a8; box-shadow: inset 0 0 0 2px var(--accent); cursor: pointer; }
.wd-sq.submitted { background: #fff3c4; box-shadow: inset 0 0 0 2px #9a7b2c; }
.wd-sq.recent { box-shadow: inset 0 0 0 2px #d9534f, inset 0 -2px 0 #c99d45; }
.wd-sq.wd-blanktile, .wd-tile.wd-blanktile { color: #9b3b1b; font-style: italic; }
.wd-sq sub, .wd-tile sub { font-size: .5em; position: absolute; right: 2px; bottom: 1px; font-style: normal; }
.wd-sq.dragover { outline: 3px dashed var(--accent); outline-offset: -3px; }
.wd-rackrow { display: flex; flex-direction: column; gap: .3rem; margin-bottom: .6rem; }
.wd-rack { display: flex; gap: .35rem; flex-wrap: wrap; align-items: center; }
.wd-tile { width: 2.6rem; height: 2.6rem; min-height: 0; padding: 0; border: 0; font-size: 1.35rem; font-weight: 700; position: relative; display: inline-flex; align-items: center; justify-content: center; cursor: grab; }
.wd-tile.used { visibility: hidden; }
.wd-tile.picked { box-shadow: 0 0 0 3px var(--select), inset 0 -2px 0 #c99d45; transform: translateY(-3px); }
.wd-tile.exchange { box-shadow: 0 0 0 3px var(--danger), inset 0 -2px 0 #c99d45; }
.wd-tile.static { cursor: default; }
.wd-controls { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; }
.wd-preview { font-variant-numeric: tabular-nums; }
.wd-blank { margin-bottom: .6rem; display: flex; gap: .5rem; align-items: center; background: var(--select); color: #1d1b18; padding: .4rem .7rem; border-radius: var(--radius); }
.wd-blank input { width: 3rem; text-transform: uppercase; text-align: center; }
.wd-help { font-size: .85rem; margin: 0; }
.wd-scores { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
.wd-scores th, .wd-scores td { text-align: left; padding: .2rem .3rem; border-bottom: 1px solid var(--line); }
.wd-scores td.num, .wd-scores th.num { text-align: right; }
.wd-scores tr.me td { font-weight: 700; }
.wd-scores tr.gone td { color: var(--muted); text-decoration: line-through; }
.wd-results { width: 100%; border-collapse: collapse; font-size: .92rem; }
.wd-results td, .wd-results th { padding: .15rem .3rem; border-bottom: 1px solid var(--line); text-align: left; }
.wd-results td.num { text-align: right; }
.wd-master { font-size: 1.15rem; }
.wd-master .word { font-weight: 800; letter-spacing: .05em; }
.st-invalid, .st-notword, .st-none { color: var(--danger); }
.st-dup { color: var(--muted); text-decoration: line-through; }
.wd-tops { max-height: 14rem; overflow: auto; margin: 0; padding-left: 1.6rem; font-variant-numeric: tabular-nums; }
.wd-boggle { display: grid; grid-template-columns: repeat(4, 1fr); gap: .4rem; width: min(100%, 22rem); aspect-ratio: 1; user-select: none; }
.wd-cell { min-height: 0; padding: 0; font-size: clamp(1.4rem, 6vw, 2.2rem); font-weight: 800; background: #f6d58e; color: #2b2112; border: 0; border-radius: 10px; box-shadow: inset 0 -4px 0 #c99d45; position: relative; }
.wd-cell.on { background: var(--accent); color: var(--accent-fg); box-shadow: inset 0 -4px 0 #1f4d36; }
.wd-cell:disabled, .wd-tile:disabled { opacity: 1; cursor: default; }
.wd-cell.best { background: #f2a7a0; box-shadow: 0 0 0 3px var(--danger), inset 0 -4px 0 #b5584f; }
.wd-cell .order { position: absolute; top: 3px; left: 6px; font-size: .8rem; font-weight: 600; }
.wd-wordform { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; }
.wd-wordform input { text-transform: uppercase; font-size: 1.2rem; width: 12rem; letter-spacing: .08em; }
.wd-wordform .bad { color: var(--danger); }
.wd-found { display: flex; flex-wrap: wrap; gap: .3rem; list-style: none; padding: 0; margin: 0; }
.wd-boggle-area { display: flex; flex-direction: column; gap: .8rem; }
.wd-panel h4 { margin: .6rem 0 .3rem; }
.wd-found li { background: var(--bg); border: 1px solid var(--line); border-radius: 999px; padding: .05rem .55rem; font-size: .9rem; }
@media (max-width: 520px) {
  .wd-board { gap: 1px; padding: 2px; width: 100%; }
  .wd-tile { width: 2.3rem; height: 2.3rem; font-size: 1.15rem; }
  .wd-side { max-width: none; }
  .wd-play { width: 100%; }
}
`;

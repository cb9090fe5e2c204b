// The explorer's one stylesheet, served at /explorer/style.css (no inline styles, so the CSP can forbid them), and
// its icon. Plain CSS: at 900 px and wider a dry run's answer sits beside its form; under 700 px every list turns
// into compact rows of two or three lines (no horizontal scrolling), so a page of 25 stays short on a phone. System
// fonts; light and dark palettes (the reader's setting), every text colour at 4.5:1 or more on its background and
// every form field's border 3:1 or more on the backgrounds around it (WCAG 1.4.11); long dotted or camelCase names
// wrap at the <wbr> the page puts between their words (html.ts breakable), so no table is wider than the page; a
// keyboard focus ring of two colours 10:1 apart (so one of them is 3:1 or more on any background), not shown after
// a mouse click.

/** The tab icon: braces on the accent colour. Served at /explorer/favicon.svg and at /favicon.ico. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0a58ca"/><path d="M13 8c-3 0-3 2-3 4.5S9 16 7 16c2 0 3 1 3 3.5S10 24 13 24M19 8c3 0 3 2 3 4.5s1 3.5 3 3.5c-2 0-3 1-3 3.5S22 24 19 24" fill="none" stroke="#fff" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/></svg>
`;

export const STYLE_CSS = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #fff; --panel: #f6f8fa; --line: #d0d7de; --control-line: #6e7781; --accent: #0a58ca; --bad: #b42318; --ok: #1a7f37;
  --warn: #7a4d00; --note: #fff8c5; --note-line: #d4a72c; --button: #0a58ca; --button-fg: #fff; --ring-in: #1b1f24; --ring-out: #ffbf47; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9da7b3; --bg: #0d1117; --panel: #161b22; --line: #3d444d; --control-line: #768390; --accent: #6cb6ff; --bad: #ff8b80; --ok: #56d364;
    --warn: #f2cc60; --note: #2b2111; --note-line: #9e6a03; --button: #1f6feb; --button-fg: #fff; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, pre:focus-visible, summary:focus-visible {
  outline: 3px solid var(--ring-in); outline-offset: 0; box-shadow: 0 0 0 6px var(--ring-out); }
.skip { position: absolute; left: -999px; }
.skip:focus-visible { left: 8px; top: 8px; background: var(--bg); padding: 4px 8px; z-index: 2; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header { background: var(--panel); border-bottom: 1px solid var(--line); padding: 8px 24px; }
header nav { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 24px; }
.brand { font-weight: 700; text-decoration: none; color: var(--fg); }
.brand-sub { font-weight: 400; color: var(--muted); }
header ul { display: flex; flex-wrap: wrap; gap: 4px 16px; list-style: none; margin: 0; padding: 0; }
header a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
.logout { margin-left: auto; }
form.search { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-top: 8px; }
form.search label[for="q"] { font-weight: 600; }
form.search input { flex: 1 1 260px; min-width: 0; }
/* the domain filter never grows with its longest name (a 72-character domain made it 703 px and squeezed the search box) */
form.search select, form.search input.domain { flex: 0 1 auto; width: auto; max-width: 16em; min-width: 0; }
form.search input.domain { flex-basis: 12em; }
input, select, textarea, button { font: inherit; padding: 6px 8px; border: 1px solid var(--control-line); border-radius: 6px; background: var(--bg); color: var(--fg); }
::placeholder { color: var(--muted); opacity: 1; }
button { background: var(--button); color: var(--button-fg); border-color: var(--button); cursor: pointer; }
main { max-width: 1200px; margin: 0 auto; padding: 12px 24px 48px; }
h1 { font-size: 1.6rem; margin: 8px 0 4px; word-break: break-word; }
h2 { font-size: 1.2rem; margin: 24px 0 8px; }
p { margin: 6px 0; }
/* a long unbroken word (a 300-character name typed into the address, an argument's name in an error) wraps
   instead of widening the page */
main p, main li, main dd { overflow-wrap: anywhere; }
/* a name in a table cell wraps between its words (<wbr>), and anywhere as a last resort, instead of widening the table */
td a, td code { overflow-wrap: anywhere; }
.muted, footer { color: var(--muted); }
footer { border-top: 1px solid var(--line); padding: 8px 24px; font-size: .9rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid var(--line); }
th { background: var(--panel); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.table-wrap { overflow-x: auto; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9rem; }
code { overflow-wrap: anywhere; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 12px; overflow: auto; max-height: 60vh; white-space: pre-wrap; overflow-wrap: anywhere; margin: 8px 0; }
h1 code { font-size: inherit; }
td.time { white-space: nowrap; }
.method { font-weight: 700; font-family: ui-monospace, monospace; }
.lead { font-size: 1.1rem; }
.tabs { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; padding: 0; margin: 12px 0; }
.tabs a { display: inline-block; padding: 4px 12px; border: 1px solid var(--line); border-radius: 999px; text-decoration: none; }
.tabs a[aria-current="page"] { background: var(--button); color: var(--button-fg); border-color: var(--button); }
.tokens { font-weight: 700; }
.badge { display: inline-block; padding: 0 8px; border-radius: 999px; font-size: .85rem; border: 1px solid currentColor; }
.bad { color: var(--bad); }
.ok { color: var(--ok); }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 12px 16px; }
textarea { width: 100%; min-height: 5em; font-family: ui-monospace, monospace; font-size: .9rem; }
.error { color: var(--bad); font-weight: 600; }
.notice { background: var(--note); border: 1px solid var(--note-line); border-radius: 6px; padding: 6px 10px; }
.warn { color: var(--warn); font-weight: 600; }
.tokens.estimate { font-weight: 600; font-style: italic; }
.next-steps { margin: 6px 0; padding-left: 1.4em; }
.prose ul, .prose ol { margin: 6px 0; padding-left: 1.4em; }
pre.curl { white-space: pre-wrap; overflow-wrap: anywhere; }
details { margin: 8px 0; }
details > summary { cursor: pointer; color: var(--accent); }
details.agent, details.why { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; }
details.agent > summary, details.why > summary { font-weight: 600; }
.try-grid { display: grid; gap: 16px; }
.try-form label { font-weight: 600; display: block; margin-bottom: 4px; }
.answer { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; min-width: 0; }
.answer pre { max-height: 40vh; }
.share { font-size: .9rem; }
.pager { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: center; justify-content: center; margin: 16px 0; }
.pager span:not([aria-hidden]) { color: var(--muted); }
.pager .pages { display: flex; flex-wrap: wrap; gap: 4px 10px; list-style: none; margin: 0; padding: 0; }
.pager .pages [aria-current="page"] { font-weight: 700; }
.pager-cap { text-align: center; }
/* minmax(0, 1fr): a value with no break opportunity (uncreate/discreate/…) must not grow its column past the page */
dl.reading { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 16px; margin: 8px 0; }
dl.reading dt { font-weight: 600; color: var(--muted); }
dl.reading dd { margin: 0; }
.signal { white-space: nowrap; }
table.params td.desc { min-width: 16em; }
@media (min-width: 701px) {
  /* names, places and types read whole; the description wraps */
  table.params td.param, table.params td.in, table.params td.type { white-space: nowrap; }
  table.params td.param code, table.params td.type code { overflow-wrap: normal; }
  /* a short example reads whole; a long one (a hash, base64) wraps inside its column instead of squeezing the rest */
  table.params td.example { min-width: 11em; max-width: 18em; }
  table.params td.default { max-width: 12em; }
}
@media (min-width: 900px) {
  .try-grid { grid-template-columns: minmax(0, 5fr) minmax(0, 7fr); align-items: start; }
}
@media (max-width: 700px) {
  header, main { padding-left: 12px; padding-right: 12px; }
  body { font-size: 15px; }
  h1 { font-size: 1.35rem; }
  .brand-sub { display: none; }
  form.search label[for="q"] { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  form.search input { flex-basis: 100%; }
  form.search select, form.search input.domain { flex: 1 1 0; min-width: 0; max-width: none; }
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.stack tr { display: block; border-bottom: 1px solid var(--line); padding: 5px 0; line-height: 1.35; }
  table.stack td { display: block; border: 0; padding: 1px 0; }
  table.stack td:empty { display: none; }
  table.stack td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: var(--muted); }
  table.stack td.num { text-align: left; }
  /* compact rows: the label is the layout, not a word */
  table.results td[data-label]::before, table.domains td[data-label]::before, table.ops td[data-label]::before, table.params td[data-label]::before { content: none; }
  /* rank, score and name; the summary; the domain and what the operation requires, on one line: a long domain name
     ends in an ellipsis (its link's title has it whole) and leaves 9em for what is required, whose list ends in an
     ellipsis too (its title has it whole). Their names' <wbr>s are taken out here: Chromium breaks at a <wbr> even
     under nowrap, and a long name took this line to two or three. A flex row, not a grid: a grid's auto columns
     grew with a long domain name and pushed the name off the row; a fixed table: the page's width, whatever the
     width of a one-line cell. */
  table.results { table-layout: fixed; }
  table.results tr { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 10px; }
  table.results td.rank { order: 1; color: var(--muted); }
  table.results td.score { order: 2; font-variant-numeric: tabular-nums; }
  table.results td.name { order: 3; flex: 1 1 0; min-width: 0; }
  table.results td.summary { order: 4; flex-basis: 100%; min-width: 0; }
  table.results td.domain { order: 5; display: flex; align-items: baseline; column-gap: 6px; flex: 0 1 auto; min-width: 0; max-width: calc(100% - 9em - 11px);
    font-size: .85rem; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  table.results tr:has(td.required:empty) td.domain { max-width: 100%; }
  table.results td.domain a { min-width: 0; overflow: hidden; text-overflow: ellipsis; overflow-wrap: normal; }
  table.results td.domain .badge { flex: none; }
  table.results td.domain wbr, table.results td.required wbr { display: none; }
  table.results td.required { order: 6; flex: 1 1 0; min-width: 9em; font-size: .85rem; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  table.results td.required::before { content: "requires "; font-weight: 400; }
  table.domains tr { display: grid; grid-template-columns: minmax(0, 1fr) auto; column-gap: 10px; }
  table.domains td.count::after { content: " operations"; color: var(--muted); font-size: .85rem; }
  table.domains td.desc { grid-column: 1 / -1; color: var(--muted); font-size: .85rem; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; overflow: hidden; }
  table.ops tr { display: grid; grid-template-columns: minmax(0, 1fr); }
  table.ops td.summary { grid-row: 2; }
  table.ops td.request { grid-row: 3; font-size: .85rem; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  table.ops td.request code { overflow-wrap: normal; }
  table.params tr { display: flex; flex-wrap: wrap; column-gap: 8px; align-items: baseline; }
  table.params td.param, table.params td.in, table.params td.type, table.params td.req { display: inline-block; min-width: 0; max-width: 100%; }
  table.params td.in, table.params td.type { color: var(--muted); font-size: .9rem; }
  table.params td.desc, table.params td.default, table.params td.example, table.params td.from { flex-basis: 100%; min-width: 0; font-size: .9rem; }
  table.params td.default::before { content: "default "; color: var(--muted); font-weight: 400; }
  table.params td.example::before { content: "e.g. "; color: var(--muted); font-weight: 400; }
  table.params td.from::before { content: "from "; color: var(--muted); font-weight: 400; }
  table.queries td.inline { display: inline-block; margin-right: 10px; font-size: .9rem; }
  dl.reading { grid-template-columns: minmax(0, 1fr); }
  dl.reading dd { margin-bottom: 4px; }
  pre, .answer pre { max-height: 35vh; }
}
`;

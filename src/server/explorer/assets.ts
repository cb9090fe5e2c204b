// The explorer's one stylesheet, served at /explorer/style.css (no inline styles, so the CSP can forbid them).
// Plain CSS: readable at 1280 px and on a phone (single column under 700 px), system fonts, visible focus.
export const STYLE_CSS = `
:root { --fg: #1b1f24; --muted: #57606a; --bg: #fff; --panel: #f6f8fa; --line: #d0d7de; --accent: #0a58ca; --bad: #b42318; --ok: #1a7f37; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
a:focus, button:focus, input:focus, select:focus, textarea:focus, pre:focus { outline: 3px solid #ffbf47; outline-offset: 1px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 8px; top: 8px; background: var(--bg); padding: 4px 8px; z-index: 2; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header { background: var(--panel); border-bottom: 1px solid var(--line); padding: 8px 24px; }
header nav { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 24px; }
.brand { font-weight: 700; text-decoration: none; color: var(--fg); }
header ul { display: flex; flex-wrap: wrap; gap: 4px 16px; list-style: none; margin: 0; padding: 0; }
header a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
.logout { margin-left: auto; }
form.search { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-top: 8px; }
form.search label[for="q"] { font-weight: 600; }
form.search input { flex: 1 1 260px; min-width: 0; }
input, select, textarea, button { font: inherit; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
main { max-width: 1200px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 1.6rem; margin: 8px 0 4px; word-break: break-word; }
h2 { font-size: 1.2rem; margin-top: 28px; }
.muted, footer { color: var(--muted); }
footer { border-top: 1px solid var(--line); padding: 8px 24px; font-size: .9rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid var(--line); }
th { background: var(--panel); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.table-wrap { overflow-x: auto; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9rem; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 12px; overflow: auto; max-height: 70vh; white-space: pre-wrap; overflow-wrap: anywhere; }
h1 code { font-size: inherit; }
td.time { white-space: nowrap; }
.method { font-weight: 700; font-family: ui-monospace, monospace; }
.tabs { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; padding: 0; margin: 12px 0; }
.tabs a { display: inline-block; padding: 4px 12px; border: 1px solid var(--line); border-radius: 999px; text-decoration: none; }
.tabs a[aria-current="page"] { background: var(--accent); color: #fff; border-color: var(--accent); }
.tokens { font-weight: 700; }
.badge { display: inline-block; padding: 0 8px; border-radius: 999px; font-size: .85rem; border: 1px solid currentColor; }
.bad { color: var(--bad); }
.ok { color: var(--ok); }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 12px 16px; }
textarea { width: 100%; min-height: 8em; font-family: ui-monospace, monospace; }
.error { color: var(--bad); font-weight: 600; }
@media (max-width: 700px) {
  header, main { padding-left: 12px; padding-right: 12px; }
  body { font-size: 15px; }
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.stack tr { display: block; border-bottom: 1px solid var(--line); padding: 6px 0; }
  table.stack td { display: block; border: 0; padding: 2px 0; }
  table.stack td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: var(--muted); }
  table.stack td.num { text-align: left; }
}
`;

// Pages for addresses the explorer does not have: a `view` it does not know (with the closest views), and the page a
// browser gets for any other path on the server (/robots.txt, /index.html, /explorer), which shows nothing from the
// catalog, so it needs no login. MCP clients never see these: the transport keeps its JSON errors for them.
import { href, html, type Html } from './html.js';
import { notFound, type Page } from './pages.js';
import { standalonePage } from './standalone.js';

/** The views `/?view=` shows, with what each is. */
const VIEWS: Record<string, string> = { import: 'Import report', log: 'Search log' };

/** `/?view=<unknown>`: a 404 that lists the views (there are two: the closest is no better a suggestion). */
export function unknownView(view: string): Page {
  return notFound(
    'Unknown view',
    html`There is no view named <code>${view.slice(0, 100)}</code>.`,
    html`<p id="suggestions">The views are ${Object.entries(VIEWS).map(([v, label], i) => html`${i > 0 ? ' and ' : ''}<a href="${href({ view: v })}">${label}</a> (<code>view=${v}</code>)`)}.</p>`,
  );
}

/** The whole page for a path the server does not have: what it is, and the way to the explorer. */
export function strayPage(pathname: string): Html {
  return standalonePage(
    'Not found',
    html`<p class="error" role="alert">This server has no page at <code>${pathname.slice(0, 200)}</code>.</p>
<p>The catalog explorer is at <a href="/" id="home">/</a>. MCP clients connect to the server's MCP endpoint, not to this address.</p>`,
  );
}

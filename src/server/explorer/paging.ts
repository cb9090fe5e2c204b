// Paging for the explorer's long lists (domains, a domain's operations, search results, the search log): one page
// size for phones and desktops alike, the `offset` query parameter, and the pager links under a list.
import { html, type Html } from './html.js';

/** Rows per page of every list: short enough for a phone, long enough to scan on a desktop. */
export const PAGE_SIZE = 25;

/** The deepest offset accepted (a hand-edited URL cannot ask for more). */
const MAX_OFFSET = 10_000;

/** `offset` from a query string: a whole number from 0, else 0. */
export function parseOffset(raw: string | null): number {
  const n = Math.floor(Number(raw ?? 0));
  return Number.isFinite(n) ? Math.min(MAX_OFFSET, Math.max(0, n)) : 0;
}

/** The rows of one page, and where it starts (an offset past the end shows the last page). */
export function pageOf<T>(items: readonly T[], offset: number): { rows: T[]; offset: number } {
  const start = offset < items.length ? offset : Math.max(0, Math.floor((items.length - 1) / PAGE_SIZE) * PAGE_SIZE);
  return { rows: items.slice(start, start + PAGE_SIZE), offset: start };
}

/** "26–50 of 457" (or "none"). */
export function rangeText(offset: number, shown: number, total: number): string {
  return shown === 0 ? `none of ${total}` : `${offset + 1}–${offset + shown} of ${total}`;
}

/**
 * Previous / next links around the range shown, or nothing when everything fits on one page. `link(offset)` is the
 * page's own URL at another offset.
 */
export function pager(offset: number, shown: number, total: number, link: (offset: number) => string, label: string): Html | '' {
  if (offset === 0 && shown >= total) return '';
  const prev = offset > 0 ? html`<a rel="prev" href="${link(Math.max(0, offset - PAGE_SIZE))}">← Previous</a>` : html`<span class="muted" aria-hidden="true">← Previous</span>`;
  const next = offset + shown < total ? html`<a rel="next" href="${link(offset + PAGE_SIZE)}">Next →</a>` : html`<span class="muted" aria-hidden="true">Next →</span>`;
  return html`<nav class="pager" aria-label="${label}">${prev}<span>${rangeText(offset, shown, total)}</span>${next}</nav>`;
}

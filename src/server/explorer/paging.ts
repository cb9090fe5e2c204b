// Paging for the explorer's long lists (domains, a domain's operations, search results, the search log): one page
// size for phones and desktops alike, the `offset` query parameter, and the pager under a list (previous / next,
// the page numbers around the current one, the first and the last). Offsets stop where search_tools' do; the pager
// never offers a page past that and says how many rows that leaves out.
import { LIMITS } from '../core/names.js';
import { html, type Html } from './html.js';

/** Rows per page of every list: short enough for a phone, long enough to scan on a desktop. */
export const PAGE_SIZE = 25;

/** The deepest offset accepted (a hand-edited URL cannot ask for more): search_tools' own limit. */
export const MAX_OFFSET = LIMITS.offsetMax;

/** How many rows of a list can be paged to: the last page starts at {@link MAX_OFFSET}. */
export const PAGEABLE = MAX_OFFSET + PAGE_SIZE;

/** Page numbers shown on each side of the current one. */
const AROUND = 2;

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

/** The pages to number: the first, the last, and {@link AROUND} on each side of the current one; null is a gap. */
function pageNumbers(current: number, last: number): Array<number | null> {
  const out: Array<number | null> = [];
  for (let p = 1; p <= last; p++) {
    if (p === 1 || p === last || Math.abs(p - current) <= AROUND) out.push(p);
    else if (out[out.length - 1] !== null) out.push(null);
  }
  return out;
}

/**
 * Previous / next links and the page numbers around the range shown, or nothing when everything fits on one page.
 * `link(offset)` is the page's own URL at another offset. A list longer than {@link PAGEABLE} is paged up to there
 * only, and the pager says so, with `narrow` (how this list is made shorter) after it.
 */
export function pager(offset: number, shown: number, total: number, link: (offset: number) => string, label: string, narrow?: Html | string): Html | '' {
  if (offset === 0 && shown >= total) return '';
  const reachable = Math.min(total, PAGEABLE);
  const lastOffset = Math.max(0, Math.floor((reachable - 1) / PAGE_SIZE) * PAGE_SIZE);
  const prev = offset > 0 ? html`<a rel="prev" href="${link(Math.max(0, offset - PAGE_SIZE))}">← Previous</a>` : html`<span class="muted" aria-hidden="true">← Previous</span>`;
  // the next page's offset must be one parseOffset takes, else "Next" would show this page again
  const next =
    offset + shown < total && offset + PAGE_SIZE <= MAX_OFFSET
      ? html`<a rel="next" href="${link(offset + PAGE_SIZE)}">Next →</a>`
      : html`<span class="muted" aria-hidden="true">Next →</span>`;
  const current = Math.floor(offset / PAGE_SIZE) + 1;
  const last = lastOffset / PAGE_SIZE + 1;
  const numbers = pageNumbers(current, last).map((p) =>
    p === null
      ? html`<li aria-hidden="true">…</li>`
      : p === current && offset % PAGE_SIZE === 0
        ? html`<li><a href="${link((p - 1) * PAGE_SIZE)}" aria-current="page">${p}</a></li>`
        : html`<li><a href="${link((p - 1) * PAGE_SIZE)}" aria-label="Page ${p}">${p}</a></li>`,
  );
  const capped =
    total > PAGEABLE
      ? html`<p class="muted pager-cap" id="pager-cap">Pages stop at row ${PAGEABLE.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} (offsets go up to ${MAX_OFFSET.toLocaleString('en-US')}, as for search_tools)${narrow !== undefined ? html`: ${narrow}` : '.'}</p>`
      : '';
  return html`<nav class="pager" aria-label="${label}">${prev}<span>${rangeText(offset, shown, total)}</span><ol class="pages">${numbers}</ol>${next}</nav>${capped}`;
}

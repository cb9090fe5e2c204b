// From the explorer's browser audit: a list longer than the deepest offset the page accepts (search_tools' 10,000) had a
// "Next →" that reloaded the same page forever (results 10,026-12,543 of a six-catalog search were unreachable). The
// pager never offers an offset parseOffset would change, says where the pages stop and how to narrow the list; and it
// numbers the pages around the current one, the first and the last, so a long list can be crossed in one click.
import { describe, expect, test } from 'vitest';
import { LIMITS } from '../../src/server/core/names.js';
import { MAX_OFFSET, PAGE_SIZE, PAGEABLE, pager, parseOffset } from '../../src/server/explorer/paging.js';

const link = (o: number): string => `/?q=get${o > 0 ? `&offset=${o}` : ''}`;

/** The pager's links (offsets by their role), its text and its note, as rendered. */
function read(offset: number, shown: number, total: number): { next?: number; prev?: number; pages: number[]; current?: string; text: string } {
  const out = String(pager(offset, shown, total, link, 'Result pages', 'add words to the search'));
  const offsetOf = (href: string | undefined): number | undefined => (href === undefined ? undefined : Number(/offset=(\d+)/.exec(href)?.[1] ?? 0));
  return {
    next: offsetOf(/<a rel="next" href="([^"]+)"/.exec(out)?.[1]),
    prev: offsetOf(/<a rel="prev" href="([^"]+)"/.exec(out)?.[1]),
    pages: [...out.matchAll(/<li><a href="([^"]+)"/g)].map((m) => offsetOf(m[1]) as number),
    current: /aria-current="page">(\d+)</.exec(out)?.[1],
    text: out.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' '),
  };
}

describe('the pager stops where offsets stop', () => {
  test('the cap is search_tools’ own, and parseOffset keeps to it', () => {
    expect(MAX_OFFSET).toBe(LIMITS.offsetMax);
    expect(parseOffset('99999')).toBe(MAX_OFFSET);
    expect(PAGEABLE).toBe(MAX_OFFSET + PAGE_SIZE);
  });

  test('12,543 results: "Next" up to the page at 10,000, none there, and every link an offset the page shows', () => {
    const total = 12_543;
    expect(read(MAX_OFFSET - PAGE_SIZE, PAGE_SIZE, total).next).toBe(MAX_OFFSET);
    const last = read(MAX_OFFSET, PAGE_SIZE, total);
    expect(last.next).toBeUndefined();
    expect(last.prev).toBe(MAX_OFFSET - PAGE_SIZE);
    expect(last.current).toBe(String(MAX_OFFSET / PAGE_SIZE + 1));
    for (const o of last.pages) expect(parseOffset(String(o)), `page link to ${o}`).toBe(o);
    expect(Math.max(...last.pages)).toBe(MAX_OFFSET);
    expect(last.text).toContain('Pages stop at row 10,025 of 12,543');
    expect(last.text).toContain('add words to the search');
    // an offset off the page grid (typed by hand) near the cap: no "Next" that parseOffset would pull back
    expect(read(MAX_OFFSET - 10, PAGE_SIZE, total).next).toBeUndefined();
  });

  test('a list within the cap says nothing of it, and its last page has no "Next"', () => {
    const at = read(100, 25, 130);
    expect(at.next).toBe(125);
    expect(at.text).not.toContain('Pages stop');
    expect(read(125, 5, 130).next).toBeUndefined();
  });

  test('page numbers: the first, the last and two each side of the current one', () => {
    const middle = read(10 * PAGE_SIZE, PAGE_SIZE, 29 * PAGE_SIZE);
    expect(middle.pages.map((o) => o / PAGE_SIZE + 1)).toEqual([1, 9, 10, 11, 12, 13, 29]);
    expect(middle.current).toBe('11');
    expect(middle.text).toContain('…');
    expect(read(0, PAGE_SIZE, 3 * PAGE_SIZE).pages).toEqual([0, 25, 50]);
  });
});

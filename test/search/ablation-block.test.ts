// The ablation table's block in docs/SEARCH.md (scripts/lib/ablation-block.mjs, written by `npm run search:ablation`):
// its date says when the numbers were measured, so a run that finds the same table keeps the date and leaves the
// file as it is; a changed table or count takes today's date.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/mcp.js';

// a plain .mjs script library: imported by URL so the type checker treats it as an untyped module
let lib: any;
beforeAll(async () => {
  lib = await import(pathToFileURL(join(REPO_ROOT, 'scripts', 'lib', 'ablation-block.mjs')).href);
});

const note = (runs: number) => (date: string) => `Pooled MRR@10 ... (${runs} runs of 9 sets, ${date}); every set's change: ...`;
const TABLE = '| left out | words |\n|---|---|\n| nothing | 0.640 |\n| unit `x` | -0.010 |';
const doc = (body: string) => `# Search\n\ntext\n<!-- ablation:start -->\n${body}\n<!-- ablation:end -->\nafter\n`;
const OLD = doc(`${note(20)('2026-11-28')}\n\n${TABLE}`);

describe('the ablation block', () => {
  it('keeps its date when the table and the counts are the same', () => {
    expect(lib.withAblationBlock(OLD, { note: note(20), table: TABLE, today: '2026-12-01' })).toBe(OLD);
  });

  it('takes today when a number or a count changed', () => {
    const table = TABLE.replace('-0.010', '-0.011');
    expect(lib.withAblationBlock(OLD, { note: note(20), table, today: '2026-12-01' })).toBe(doc(`${note(20)('2026-12-01')}\n\n${table}`));
    expect(lib.withAblationBlock(OLD, { note: note(21), table: TABLE, today: '2026-12-01' })).toBe(doc(`${note(21)('2026-12-01')}\n\n${TABLE}`));
  });

  it('is undefined without its markers', () => {
    expect(lib.withAblationBlock('# Search\n', { note: note(20), table: TABLE, today: '2026-12-01' })).toBeUndefined();
  });

  it("docs/SEARCH.md's block has the shape the script writes: its note, a blank line, the table", () => {
    const text = readFileSync(join(REPO_ROOT, 'docs', 'SEARCH.md'), 'utf8');
    const block = text.slice(text.indexOf(lib.ABLATION_START) + lib.ABLATION_START.length, text.indexOf(lib.ABLATION_END));
    const [, noteLine = '', blank, ...rest] = block.split('\n');
    expect(noteLine).toMatch(/^Pooled MRR@10 .*Written by `npm run search:ablation` \(\d+ runs of \d+ sets, \d{4}-\d{2}-\d{2}\)/);
    expect(blank).toBe('');
    const table = rest.slice(0, -1).join('\n');
    const date = /\d{4}-\d{2}-\d{2}/.exec(noteLine)?.[0] as string;
    expect(lib.withAblationBlock(text, { note: (d: string) => noteLine.replace(date, d), table, today: '2099-01-01' })).toBe(text);
  });
});

// docs/SEARCH.md "Where search stands" quotes single sets (`queries-natural`, `queries-dev`, ...) as the gate measures
// them. A row's "now" column ("same" as the column before, or its own numbers) must be the committed gate baseline's, computed from
// its per-query ranks (the 4-decimal summary line rounds twice: 0.5225198 is stored as 0.5225 and was once quoted .522).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBaseline, runMetrics } from '../../src/search/gate.js';
import { BASELINE_FILE } from '../../src/search/gate-files.js';
import { REPO_ROOT } from '../helpers/mcp.js';

describe('docs/SEARCH.md, where search stands', () => {
  it("a single set's R@1 / R@5 / MRR@10 now (\"same\" or new numbers) is the gate baseline's", () => {
    const baseline = parseBaseline(readFileSync(join(REPO_ROOT, BASELINE_FILE), 'utf8'));
    const text = readFileSync(join(REPO_ROOT, 'docs', 'SEARCH.md'), 'utf8');
    const section = text.slice(text.indexOf('## Where search stands'));
    const rows = [...section.matchAll(/^\| `(queries-[\w-]+)` \((\d+)[^)]*\)(, no domain)? \| ([^|]+) \| ([^|]+) \|/gm)];
    expect(rows.map((r) => r[1])).toEqual(expect.arrayContaining(['queries-natural', 'queries-dev']));
    for (const [, set, count, noDomain, before, now] of rows) {
      const cell = (now as string).trim() === 'same' ? (before as string) : (now as string);
      const runs = noDomain ? [set, `${set} (no domain)`] : [set];
      const quoted = (cell as string).trim().split(', ');
      const measured = runs.map((run) => {
        const queries = baseline.get(run as string);
        expect(queries?.length, `${run}: no run of that name in the baseline`).toBe(Number(count));
        const m = runMetrics(queries ?? []);
        return [m.r1, m.r5, m.mrr].map((x) => x.toFixed(3)).join(' / ');
      });
      expect(quoted, `docs/SEARCH.md quotes ${set} as ${cell}`).toEqual(measured);
    }
  });
});

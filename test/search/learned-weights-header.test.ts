// src/search/weights.ts is written by `npm run learn` (scripts/learn-weights.mjs), and its header says what it was
// learned from. The counts are recomputed here the way the script selects its sets (every
// test/fixtures/search/queries-*.jsonl but tiny, leaving out any set that asks a held-out catalog), so the committed
// file stays what its generator writes: after adding or editing a tuning set, run `npm run learn` and commit the result.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseQueryFile } from '../../src/search/eval.js';
import { REPO_ROOT } from '../helpers/mcp.js';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'search');

describe('src/search/weights.ts', () => {
  it("names the requests, agent calls and APIs of the tuning sets, as `npm run learn` writes them", () => {
    const { heldOut } = JSON.parse(readFileSync(join(FIXTURES, 'specs.json'), 'utf8')) as { heldOut: string[] };
    const held = new Set(heldOut);
    let words = 0;
    let agent = 0;
    const apis = new Set<string>();
    for (const file of readdirSync(FIXTURES).filter((f) => /^queries-.+\.jsonl$/.test(f) && f !== 'queries-tiny.jsonl')) {
      const queries = parseQueryFile(readFileSync(join(FIXTURES, file), 'utf8'), file);
      if (queries.length === 0 || queries.some((q) => held.has(q.catalog))) continue;
      if (file.endsWith('-agent.jsonl')) agent += queries.length;
      else words += queries.length;
      for (const q of queries) apis.add(q.catalog);
    }
    const header = readFileSync(join(REPO_ROOT, 'src', 'search', 'weights.ts'), 'utf8').split('export ')[0] as string;
    const said = /(\d+) requests in the\n\/\/ user's words and (\d+) agent calls on (\d+) APIs/.exec(header);
    expect(said, header).not.toBeNull();
    expect(said?.slice(1).map(Number), 'src/search/weights.ts is not what `npm run learn` writes now: run it and commit the result').toEqual([words, agent, apis.size]);
  });
});

// Numbers the README quotes from a measurement stay the measurement's: tools/list's tokens are the ones of the last
// benchmark run (docs/BENCHMARKS.md, written by `npm run bench`), and Level 2's median describe size is what
// describe_tools answers now (counted as scripts/describe-tokens.mjs and test/server/describe-text.test.ts count it).
// When a run or a change moves them, this fails until the README says the new number.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { describeTools, operationFingerprint } from '../../src/server/core/describe.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { toolNames } from '../../src/server/core/names.js';
import { attachHandles } from '../../src/server/handles.js';
import { Signer } from '../../src/server/signing.js';
import type { Operation } from '../../src/types.js';
import { REPO_ROOT } from '../helpers/mcp.js';

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');
const number = (text: string) => Number(text.replace(/,/g, ''));

describe("README's measured numbers", () => {
  test("tools/list's tokens are those of docs/BENCHMARKS.md's last run", () => {
    const row = /^\| tools\/list \| \*\*([\d,]+)\*\* \(4 tools; server instructions \+([\d,]+)\)/m.exec(read('docs/BENCHMARKS.md'));
    expect(row, 'docs/BENCHMARKS.md: no "| tools/list | **N** (4 tools; server instructions +M)" row (update this test if its form changed)').not.toBeNull();
    const [tools, instructions] = [number(row?.[1] as string), number(row?.[2] as string)];
    const quoted = /\((\d[\d,]*) o200k tokens in the last run, and (\d[\d,]*) more for the server's instructions;/.exec(read('README.md'));
    expect(quoted, 'README.md: no "(N o200k tokens in the last run, and M more for the server\'s instructions;"').not.toBeNull();
    expect({ tools: number(quoted?.[1] as string), instructions: number(quoted?.[2] as string) }, 'README.md quotes another run than docs/BENCHMARKS.md').toEqual({ tools, instructions });
  });

  test("Level 2's median describe size is within 10 tokens of what describe_tools answers now", async () => {
    const { Tiktoken } = await import('js-tiktoken/lite');
    const { default: o200k } = await import('js-tiktoken/ranks/o200k_base');
    const enc = new Tiktoken(o200k);
    // the 40 GitHub operations of the dev set, each described alone at Level 2 with its handle (a fixed key and
    // expiry: the count does not change from run to run)
    const set = loadCatalogSet([]);
    const byOperationId = new Map(set.operations.map((o) => [o.operationId, o.name]));
    const names = [
      ...new Set(
        read('test/fixtures/eval/queries-dev.jsonl')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { catalog: string; expect: string[] })
          .filter((q) => q.catalog === 'github')
          .map((q) => byOperationId.get(q.expect[0] as string) as string),
      ),
    ];
    expect(names).toHaveLength(40);
    const signer = Signer.fromSecret('k'.repeat(64));
    const counts = names
      .map((n) => {
        const { envelope } = describeTools(set, { tool_names: [n] }, toolNames(), { settings: { baseUrls: {}, readOnly: false, env: {} } });
        const withHandle = attachHandles(envelope, () => signer.handle(n, operationFingerprint(set.byName.get(n)?.op as Operation), 'anonymous', Date.UTC(2026, 11, 1)));
        return enc.encode(JSON.stringify(withHandle)).length;
      })
      .sort((a, b) => a - b);
    const median = counts[Math.ceil(counts.length / 2) - 1] as number;
    const quoted = /median ~(\d+) tokens on GitHub/.exec(read('README.md'));
    expect(quoted, 'README.md: no "median ~N tokens on GitHub" for Level 2').not.toBeNull();
    expect(Math.abs(number(quoted?.[1] as string) - median), `README.md quotes ~${quoted?.[1]}; describe_tools' Level-2 median is ${median} now`).toBeLessThanOrEqual(10);
  });
});

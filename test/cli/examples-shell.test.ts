// Every example command `api-catalog describe` prints for GitHub and Stripe, pasted into bash: all of them parse
// (`bash -n`), and run with `api-catalog` as a function that prints its arguments, each gives back exactly the
// operation's name and the example's arguments (an apostrophe in "I'm having a problem" must not end the quote).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exampleCommand, render } from '../../src/cli/describe.js';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { describeTools } from '../../src/server/core/describe.js';
import { toolNames } from '../../src/server/core/names.js';
import { REPO_ROOT } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('ac-examples-');

/** What describe prints on its `example:` lines for every operation of a catalog set. */
function examples(set: CatalogSet): Array<{ name: string; args: unknown; line: string }> {
  const out: Array<{ name: string; args: unknown; line: string }> = [];
  const names = set.catalogs.flatMap((c) => c.operations.map((o) => o.name));
  for (let i = 0; i < names.length; i += 5) {
    const { envelope } = describeTools(set, { tool_names: names.slice(i, i + 5) }, toolNames(), { settings: { baseUrls: {}, readOnly: false, env: {} } });
    if (!envelope.success) throw new Error(envelope.error.message);
    for (const tool of (envelope.value as { tools: Array<Record<string, any>> }).tools) {
      const line = render(tool).split('\n').find((l) => l.startsWith('example: '));
      if (line !== undefined) out.push({ name: tool.name as string, args: tool.example.args, line: line.slice('example: '.length) });
    }
  }
  return out;
}

function bash(script: string, file: string, args: string[] = []): { status: number | null; stdout: string; stderr: string } {
  writeFileSync(join(dir, file), script);
  const r = spawnSync('bash', ['--norc', '--noprofile', ...args, join(dir, file)], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, maxBuffer: 64 << 20 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** bash -n on all the lines, then each line run with api-catalog printing its argv: the words come back intact. */
function checkInBash(list: Array<{ name: string; args: unknown; line: string }>, label: string): void {
  const syntax = bash(list.map((e) => e.line).join('\n') + '\n', `${label}.sh`, ['-n']);
  expect(syntax.stderr, `bash -n found a line that does not parse`).toBe('');
  expect(syntax.status).toBe(0);
  const run = bash(`set -f\napi-catalog() { printf '%s\\0' "$@"; printf '\\1\\0'; }\n${list.map((e) => e.line).join('\n')}\n`, `${label}-run.sh`);
  expect(run.status, run.stderr).toBe(0);
  const got = run.stdout.split('\u0001\u0000').slice(0, -1).map((chunk) => chunk.split('\u0000').slice(0, -1));
  expect(got).toHaveLength(list.length);
  const wrong = list.filter((e, i) => {
    const words = got[i]!;
    return words.length !== 4 || words[0] !== 'call' || words[1] !== e.name || words[2] !== '--args' || JSON.stringify(JSON.parse(words[3]!)) !== JSON.stringify(e.args);
  });
  expect(wrong.map((e) => e.line).slice(0, 5)).toEqual([]);
}

describe('describe examples are shell-safe', () => {
  let github: CatalogSet;
  let stripe: CatalogSet;
  beforeAll(async () => {
    github = loadCatalogSet([]);
    const result = await importSpec(join(REPO_ROOT, 'test', 'fixtures', 'real-specs', 'stripe.json'), { name: 'stripe' });
    writeRegistry(result, dir);
    stripe = loadCatalogSet([join(dir, 'stripe')]);
  }, 120_000);

  it('quotes an apostrophe, and leaves plain words plain', () => {
    expect(exampleCommand('issues/create', { title: 'Found a bug', body: "I'm having a problem" })).toBe(
      `api-catalog call issues/create --args '{"title":"Found a bug","body":"I'\\''m having a problem"}'`,
    );
    expect(exampleCommand('a b', {})).toBe(`api-catalog call 'a b' --args '{}'`);
  });

  it('every GitHub example parses in bash and gives back its arguments', () => {
    const list = examples(github);
    expect(list.length).toBeGreaterThan(500);
    expect(list.some((e) => e.line.includes(`'\\''`)), 'some example holds an apostrophe').toBe(true);
    checkInBash(list, 'github');
  }, 60_000);

  it('every Stripe example parses in bash and gives back its arguments', () => {
    const list = examples(stripe);
    expect(list.length).toBeGreaterThan(100);
    checkInBash(list, 'stripe');
  }, 60_000);
});

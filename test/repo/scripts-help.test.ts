// Every script with a command line (an npm command's, a benchmark's, an experiment's, a docs generator's: every
// scripts/**/*.mjs but the libraries they import) answers --help with what it does and its options, and does
// nothing else: no build, no rewritten file, no hour of mining (learn:mappings once rewrote its table when asked for
// help), no benchmark (bench/rolling.mjs once started Redis, nginx and two replicas). An option a script does not
// take is one line and exit 2, never a stack trace.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../helpers/mcp.js';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const npmScripts = [...new Set(Object.values(pkg.scripts).flatMap((cmd) => [...cmd.matchAll(/node (scripts\/[\w/-]+\.mjs)/g)].map((m) => m[1] as string)))].sort();
/** Modules other scripts import, with no command line of their own: every `lib/` folder, and these. */
const LIBRARIES = new Set(['scripts/docs/serve-http.mjs']);
const every = readdirSync(join(REPO_ROOT, 'scripts'), { recursive: true })
  .map((f) => `scripts/${String(f)}`)
  .filter((f) => f.endsWith('.mjs'))
  .sort();
const scripts = every.filter((f) => !f.split('/').includes('lib') && !LIBRARIES.has(f));
/** Scripts that pass their options on to another command (`api-catalog eval`, the benchmarks they run, `serve --http`). */
const PASS_THROUGH = new Set(['scripts/eval-sets.mjs', 'scripts/bench-eras.mjs', 'scripts/docs/banner.mjs']);

async function node(script: string, arg: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, arg], { cwd: REPO_ROOT, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('the scripts of package.json', () => {
  test('the list holds every script of package.json, and the benchmarks, experiments and docs generators', () => {
    expect(npmScripts).toEqual(expect.arrayContaining(['scripts/docs.mjs', 'scripts/learn-mappings.mjs', 'scripts/search-gate.mjs', 'scripts/build-if-stale.mjs']));
    expect(scripts).toEqual(expect.arrayContaining(npmScripts));
    expect(scripts).toEqual(expect.arrayContaining(['scripts/bench/rolling.mjs', 'scripts/bench/scale.mjs', 'scripts/local-embeddings.mjs', 'scripts/experiments/rerank.mjs', 'scripts/docs/session.mjs']));
  });

  test('a module left out as a library has no command line: it never reads process.argv', () => {
    const libraries = every.filter((f) => !scripts.includes(f));
    expect(libraries.length).toBeGreaterThan(5);
    for (const f of libraries) {
      // usage.mjs reads argv for the scripts that call it: that is its job
      if (f === 'scripts/lib/usage.mjs') continue;
      expect(readFileSync(join(REPO_ROOT, f), 'utf8'), f).not.toMatch(/process\.argv/);
    }
  });

  test.each(scripts)('%s --help: exit 0, says what it does, writes nothing', async (script) => {
    const before = readFileSync(join(REPO_ROOT, 'src', 'search', 'words', 'mined.json'), 'utf8');
    const res = await node(script, '--help');
    expect(res.code, res.stderr).toBe(0);
    const text = res.stdout + res.stderr;
    expect(text.length).toBeGreaterThan(40);
    expect(text).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/); // no stack trace
    expect(text).not.toMatch(/^(build: |postbuild: |search-gate: wrote|learn-mappings: wrote|wrote )/m);
    expect(readFileSync(join(REPO_ROOT, 'src', 'search', 'words', 'mined.json'), 'utf8')).toBe(before);
  });

  test.each(scripts.filter((s) => !PASS_THROUGH.has(s)))('%s --no-such-option: one line, exit 2', async (script) => {
    const res = await node(script, '--no-such-option');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--no-such-option');
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});

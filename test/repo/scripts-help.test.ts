// Every script an npm command runs answers --help with what it does and its options, and does nothing else: no
// build, no rewritten file, no hour of mining (learn:mappings once rewrote its table when asked for help). An
// option a script does not take is one line and exit 2, never a stack trace.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../helpers/mcp.js';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const scripts = [...new Set(Object.values(pkg.scripts).flatMap((cmd) => [...cmd.matchAll(/node (scripts\/[\w/-]+\.mjs)/g)].map((m) => m[1] as string)))].sort();
/** Scripts that pass their options on to another command (`api-catalog eval`, the benchmarks they run). */
const PASS_THROUGH = new Set(['scripts/eval-sets.mjs', 'scripts/bench-eras.mjs']);

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
  test('the list is read from package.json', () => {
    expect(scripts).toEqual(expect.arrayContaining(['scripts/docs.mjs', 'scripts/learn-mappings.mjs', 'scripts/search-gate.mjs', 'scripts/build-if-stale.mjs']));
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

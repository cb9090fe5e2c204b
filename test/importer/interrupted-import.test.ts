// An import stopped in the middle of writing (audit finding 5): Ctrl-C or SIGTERM removes the temporary folder and
// exits 130 / 143 with the registry whole; what a killed import left (SIGKILL, a crash) is swept by the next import
// into the same folder; and a dot-folder is never offered as a catalog. The signals go to the built CLI (build
// first), spawned on a large spec so that the write takes long enough to be caught: the test waits until the
// temporary folder exists (polling the folder), then sends the signal.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/import.js';
import { loadCatalog } from '../../src/registry/catalog.js';
import { runCaptured } from '../helpers/cli.js';
import { builtCli, REPO_ROOT } from '../helpers/mcp.js';
import { runProcess } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';

const STRIPE = join(REPO_ROOT, 'test/fixtures/real-specs/stripe.json');
const THINGS = join(REPO_ROOT, 'test/fixtures/specs/oas30.yaml');
const env = { PATH: process.env.PATH ?? '' };

/** A pid that was just in use and is not any more: a process started and waited for. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid as number;
}

describe('import stopped by a signal while it writes the registry', () => {
  let out = '';
  let before = '';
  beforeAll(async () => {
    out = tempDir('ac-sigint-');
    const first = await runProcess(process.execPath, [builtCli(), 'import', STRIPE, '--name', 'stripe', '--out', out, '--quiet'], { env });
    expect(first.stderr).toBe('');
    before = readFileSync(join(out, 'stripe', 'catalog.json'), 'utf8');
  }, 240_000);

  test.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s: the temporary folder is removed, exit %i, the registry whole', async (signal, code) => {
    const child = spawn(process.execPath, [builtCli(), 'import', STRIPE, '--name', 'stripe', '--out', out, '--title', `Stripe ${signal}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    let ended = false;
    void exited.then(() => (ended = true));
    // Poll the folder (no fixed wait) until the import has made its temporary folder, then send the signal.
    const deadline = Date.now() + 200_000;
    while (!ended && !readdirSync(out).some((e) => e.startsWith('.stripe.tmp-'))) {
      if (Date.now() > deadline) throw new Error(`no temporary folder appeared in ${out}; stderr:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(ended, `the import ended before its temporary folder was seen:\n${stderr}`).toBe(false);
    child.kill(signal);
    const [exitCode, bySignal] = await exited;
    expect(bySignal, stderr).toBeNull(); // ended by its own handler, not killed by the signal
    expect(exitCode).toBe(code);
    expect(readdirSync(out)).toEqual(['stripe']); // nothing left behind
    const last = stderr.trimEnd().split('\n').at(-1) ?? '';
    expect(last).toMatch(new RegExp(`^api-catalog import: interrupted \\(${signal}\\); \\S*stripe (is unchanged|was already written)$`));
    // Node acts on a signal between steps of the write; one that comes as the swap ends finds the registry written
    if (last.endsWith('is unchanged')) expect(readFileSync(join(out, 'stripe', 'catalog.json'), 'utf8')).toBe(before);
    else expect(readFileSync(join(out, 'stripe', 'catalog.json'), 'utf8')).toContain(`"title": "Stripe ${signal}"`);
    expect(loadCatalog(join(out, 'stripe')).operations.length).toBeGreaterThan(400);
  }, 240_000);
});

describe('what a killed import left is swept by the next one, and never listed as a catalog', () => {
  test('temporary and old folders of dead processes go; an old folder whose catalog is gone is put back; a live one stays', async () => {
    const out = tempDir('ac-sweep-');
    const spec = join(tempDir('ac-sweep-spec-'), 'things.yaml');
    cpSync(THINGS, spec);
    expect((await runCaptured(run, [spec, '--out', out, '--quiet'])).code).toBe(0);
    expect((await runCaptured(run, [spec, '--out', out, '--name', 'gone', '--quiet'])).code).toBe(0);
    const dead = await deadPid();
    // killed mid-write: a half-written temporary folder
    mkdirSync(join(out, `.things.tmp-${dead}-mx1abc`, 'operations'), { recursive: true });
    writeFileSync(join(out, `.things.tmp-${dead}-mx1abc`, 'catalog.json'), '{"name":"things"');
    // killed between the two renames of the swap: the catalog folder is only there under its .old- name
    renameSync(join(out, 'gone'), join(out, `.gone.old-${dead}-mx1abc`));
    // an import that is running now (the process that started this test: alive) keeps its folder
    const live = `.things.tmp-${process.ppid}-mx1def`;
    cpSync(join(out, 'things'), join(out, live), { recursive: true });

    // The catalog listing of a registry folder passes over dot-folders (here: a whole catalog in one).
    expect(() => loadCatalog(out)).toThrow(/it holds the catalog things; pass its folder/);

    const r = await runCaptured(run, [spec, '--out', out, '--title', 'Things again']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`import: put back gone from .gone.old-${dead}-mx1abc (an import was stopped in the middle of replacing it)\n`);
    expect(r.stderr).toContain(`import: removed .things.tmp-${dead}-mx1abc (left by an import that was stopped)\n`);
    expect(readdirSync(out).sort()).toEqual([live, 'gone', 'things']);
    expect(loadCatalog(join(out, 'gone')).meta.name).toBe('gone');
    expect(existsSync(join(out, 'things', 'catalog.json'))).toBe(true);
    expect(() => loadCatalog(out)).toThrow(/it holds the catalogs gone, things; pass one folder each/);
  });
});

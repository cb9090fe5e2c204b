// `import --out`: a path the import cannot write into fails before the import runs, in one line that names the path
// and the reason (the built CLI, spawned). Before, `--out /proc/nope` spun forever in Node's recursive mkdir (a
// procfs folder answers ENOENT for any new child) past --timeout, and `--out <a file>` ended in a raw ENOTDIR.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { builtCli } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The built CLI to its exit, killed after `ms` (a spin would otherwise hold the test forever). */
async function cli(args: string[], cwd: string, ms = 20_000): Promise<Exit> {
  const child = spawn(process.execPath, [builtCli(), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' }, timeout: ms });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return { code, signal, stdout, stderr };
}

let dir = '';
let spec = '';
beforeEach(() => {
  dir = tempDir('ac-out-');
  spec = join(dir, 'things.yaml');
  cpSync('test/fixtures/specs/oas30.yaml', spec);
});

describe('import --out that cannot be written', () => {
  it.runIf(process.platform === 'linux')('--out /proc/nope fails fast (no spin), names the path and why, exit 1, never says imported', async () => {
    const started = Date.now();
    // --verbose prints every progress line, the importer's "imported N operations" step included
    const r = await cli(['import', spec, '--out', '/proc/nope', '--timeout', '3', '--verbose'], dir, 15_000);
    expect(r.signal, `killed after ${Date.now() - started} ms:\n${r.stderr}`).toBeNull();
    expect(r.code).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(/imported/);
    // (--verbose adds the stack trace under the line)
    expect(r.stderr.split('\n')[0]).toBe('api-catalog import: cannot create the --out folder /proc/nope: the file system there does not allow new folders (ENOENT)');
    const plain = await cli(['import', spec, '--out', '/proc/nope'], dir, 15_000);
    expect([plain.code, plain.stderr]).toEqual([1, `${r.stderr.split('\n')[0]}\n`]);
  }, 20_000);

  it('--out naming a regular file is a command-line mistake: one line naming it, exit 2, nothing imported', async () => {
    writeFileSync(join(dir, 'reg'), 'not a folder\n');
    const r = await cli(['import', spec, '--out', 'reg'], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('api-catalog import: --out names a file, not a directory: reg\n');
    const below = await cli(['import', spec, '--out', 'reg/sub'], dir);
    expect(below.code).toBe(2);
    expect(below.stderr).toBe(`api-catalog import: --out reg/sub is below a file, not a directory: ${join(dir, 'reg')}\n`);
    expect(readdirSync(dir).sort()).toEqual(['reg', 'things.yaml']);
  });

  it('a missing --out is made (folders one level at a time); progress never says imported before the write', async () => {
    const r = await cli(['import', spec, '--out', 'a/b/reg', '--verbose'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir, 'a', 'b', 'reg', 'things', 'catalog.json'))).toBe(true);
    expect(readdirSync(join(dir, 'a', 'b', 'reg'))).toEqual(['things']); // the probe folder is gone
    expect(r.stderr).toContain('import: found 5 operations in 1 domain\n');
    expect(r.stderr).not.toMatch(/imported/);
    expect(r.stdout).toMatch(/^imported 5 operations in 1 domain from /);
  });

  it('an import that fails leaves no --out folder behind (they are made only when there is something to write)', async () => {
    cpSync('test/fixtures/specs/broken-syntax.yaml', join(dir, 'broken.yaml'));
    const r = await cli(['import', 'broken.yaml', '--out', 'new/reg'], dir);
    expect(r.code).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['broken.yaml', 'things.yaml']); // nor the probe folder
  });
});

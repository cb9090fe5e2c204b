// The next step a first import prints is a command that runs where the user is: `api-catalog` once it is installed,
// `node dist/cli/index.js` in a clone (where `api-catalog` is on no PATH), `npx api-catalog` in a project that
// depends on it. Before, it always said `api-catalog serve`, which a clone's shell does not find.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { selfCommand } from '../../src/cli/self-command.js';
import { REPO_ROOT, builtCli } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

let dir = '';
beforeEach(() => {
  dir = tempDir('ac-next-');
});

/** A folder holding an executable `api-catalog` (what a global install or npm link puts on PATH). */
function binWithCli(...parts: string[]): string {
  const bin = join(dir, ...parts);
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'api-catalog'), '#!/bin/sh\n');
  chmodSync(join(bin, 'api-catalog'), 0o755);
  return bin;
}

describe('selfCommand', () => {
  const entry = join(REPO_ROOT, 'dist', 'cli', 'index.js');

  it('no api-catalog on PATH: node and this package\'s entry, relative from the clone, else absolute', () => {
    expect(selfCommand({ PATH: join(dir, 'empty') }, REPO_ROOT, REPO_ROOT)).toBe('node dist/cli/index.js');
    expect(selfCommand({ PATH: '' }, join(REPO_ROOT, 'dist'), REPO_ROOT)).toBe('node cli/index.js');
    expect(selfCommand({ PATH: '' }, dir, REPO_ROOT)).toBe(`node ${entry}`);
  });

  it('api-catalog on PATH (installed, linked): api-catalog', () => {
    expect(selfCommand({ PATH: [join(dir, 'empty'), binWithCli('global', 'bin')].join(delimiter) }, REPO_ROOT, REPO_ROOT)).toBe('api-catalog');
  });

  it('only in a project\'s node_modules/.bin: npx api-catalog; only in npx\'s temporary install: not counted', () => {
    expect(selfCommand({ PATH: binWithCli('project', 'node_modules', '.bin') }, dir, REPO_ROOT)).toBe('npx api-catalog');
    expect(selfCommand({ PATH: binWithCli('cache', '_npx', 'a1b2', 'node_modules', '.bin') }, dir, REPO_ROOT)).toBe(`node ${entry}`);
  });
});

describe('import: the printed next step runs from where it was printed', () => {
  it('in a shell without api-catalog on PATH, the "or try" search command it prints finds the new catalog', () => {
    cpSync('test/fixtures/specs/oas30.yaml', join(dir, 'things.yaml'));
    const nodeDir = dirname(process.execPath);
    const env = { PATH: nodeDir, HOME: dir };
    const imported = spawnSync(process.execPath, [builtCli(), 'import', 'things.yaml', '--out', 'reg'], { cwd: dir, env, encoding: 'utf8' });
    expect(imported.status, imported.stderr).toBe(0);
    const line = imported.stdout.trimEnd().split('\n').at(-1)!;
    const m = /^serve it: (.+) serve --registry reg\/things {3}\(or try: (.+) search "<request>" --registry reg\/things\)$/.exec(line);
    expect(m, line).not.toBeNull();
    const self = m![1]!;
    expect(m![2]).toBe(self);
    if (spawnSync('sh', ['-c', 'command -v api-catalog'], { env }).status !== 0) expect(self).toBe(`node ${join(REPO_ROOT, 'dist', 'cli', 'index.js')}`);
    const tried = spawnSync('sh', ['-c', `${self} search "list things" --registry reg/things`], { cwd: dir, env, encoding: 'utf8' });
    expect(tried.status, tried.stderr).toBe(0);
    expect(tried.stdout).toMatch(/things_list/);
  });
});

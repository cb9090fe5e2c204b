// The paths `import` reads, writes and prints work from where the user is: the fix command `import --check` prints
// runs there (it was `npm run import -- ...`, which needs a package.json there and reads paths from the package root),
// `npm run import -- <paths>` typed in a subfolder finds them (npm runs the script at the package root), overlay
// diagnostics name the overlay as it was given (not relative to the catalog folder), and `import ""` is a usage error.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, builtCli } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

let dir = '';
beforeEach(() => {
  dir = tempDir('ac-import-paths-');
  cpSync(join(REPO_ROOT, 'test', 'fixtures', 'specs', 'oas30.yaml'), join(dir, 'things.yaml'));
});

// a shell where nothing of npm's is set and no api-catalog is on PATH (a clone, run from elsewhere)
const plainEnv = (): NodeJS.ProcessEnv => ({ PATH: dirname(process.execPath), HOME: dir });

function importCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return spawnSync(process.execPath, [builtCli(), 'import', ...args], { cwd: options.cwd ?? dir, env: options.env ?? plainEnv(), encoding: 'utf8' });
}

const NO_MATCH = 'overlay: 1.0.0\ninfo: { title: t, version: "1" }\nactions:\n  - target: $.paths[\'/nope\'].get\n    update: { x-api-catalog-keywords: [a] }\n';

describe('import --check: the fix command it prints', () => {
  it('runs from where --check ran, in a folder without package.json, and makes the registry current', () => {
    expect(importCli(['things.yaml', '--out', 'reg']).status).toBe(0);
    writeFileSync(join(dir, 'things.yaml'), readFileSync(join(dir, 'things.yaml'), 'utf8').replace('List things', 'List all things'));
    const stale = importCli(['things.yaml', '--out', 'reg', '--check']);
    expect(stale.status).toBe(1);
    const m = /; run `(.+)` and commit the result$/m.exec(stale.stderr);
    expect(m, stale.stderr).not.toBeNull();
    expect(m![1]).toBe(`node ${join(REPO_ROOT, 'dist', 'cli', 'index.js')} import things.yaml --out reg`);
    const fixed = spawnSync('sh', ['-c', m![1]!], { cwd: dir, env: plainEnv(), encoding: 'utf8' });
    expect(fixed.status, fixed.stderr).toBe(0);
    expect(importCli(['things.yaml', '--out', 'reg', '--check']).status).toBe(0);
  });
});

describe('npm run import -- <paths> from a subfolder of the package', () => {
  // what npm sets when `npm run import` is typed in <dir>/sub: the script runs at the package root
  const npmEnv = (from: string, script = 'import'): NodeJS.ProcessEnv => ({
    ...plainEnv(),
    INIT_CWD: from,
    npm_lifecycle_event: script,
    npm_package_json: join(REPO_ROOT, 'package.json'),
  });

  it('reads the spec and --overlay, and writes --out, relative to where it was typed; the messages name them from there', () => {
    const sub = join(dir, 'sub');
    mkdirSync(sub);
    writeFileSync(join(dir, 'ov.yaml'), NO_MATCH);
    const r = importCli(['../things.yaml', '--out', '../reg', '--overlay', '../ov.yaml'], { cwd: REPO_ROOT, env: npmEnv(sub) });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(dir, 'reg', 'things', 'catalog.json'))).toBe(true);
    expect(r.stdout).toMatch(/ into \.\.\/reg\/things in /);
    expect(r.stdout).toContain('OVERLAY_NO_MATCH ../ov.yaml#/actions/0');
    expect(r.stdout).toMatch(/serve it: .* serve --registry \.\.\/reg\/things/);
  });

  it('another package script (paths written in its package.json) keeps the package root as the base', () => {
    const sub = join(dir, 'sub');
    mkdirSync(sub);
    const r = importCli(['../things.yaml', '--out', '../reg'], { cwd: REPO_ROOT, env: npmEnv(sub, 'import-apis') });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot read \.\.\/things\.yaml \(ENOENT\)/);
    expect(existsSync(join(dir, 'reg'))).toBe(false);
  });
});

describe('overlay diagnostics name the overlay as it was given', () => {
  it('in the report and the --strict error; catalog.json keeps the path relative to the catalog folder', () => {
    writeFileSync(join(dir, 'ov-nomatch.yaml'), NO_MATCH);
    const r = importCli(['things.yaml', '--out', 'deep/reg', '--overlay', 'ov-nomatch.yaml']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('  OVERLAY_NO_MATCH ov-nomatch.yaml#/actions/0: overlay action 0');
    const meta = JSON.parse(readFileSync(join(dir, 'deep', 'reg', 'things', 'catalog.json'), 'utf8')) as { overlays: Array<{ path: string }> };
    expect(meta.overlays.map((o) => o.path)).toEqual(['../../../ov-nomatch.yaml']);
    const diagnostics = readFileSync(join(dir, 'deep', 'reg', 'things', 'diagnostics.json'), 'utf8');
    expect(diagnostics).toContain('../../../ov-nomatch.yaml#/actions/0');

    // with --verbose, every warning follows the error line
    const verbose = importCli(['things.yaml', '--out', 'deep/reg', '--overlay', 'ov-nomatch.yaml', '--strict', '--verbose']);
    expect(verbose.status).toBe(1);
    expect(verbose.stderr).toContain('\n  OVERLAY_NO_MATCH ov-nomatch.yaml#/actions/0: ');
    expect(verbose.stderr).not.toContain('../ov-nomatch.yaml');
    // a spec with no warning of its own (a server added: without one it warns SERVER_MISSING): the overlay's is the
    // first, named in the error line
    const points = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'specs', 'oas31.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'points.json'), JSON.stringify({ ...points, servers: [{ url: 'https://points.example.com' }] }));
    const strict = importCli(['points.json', '--out', 'deep/reg', '--overlay', 'ov-nomatch.yaml', '--strict']);
    expect(strict.status).toBe(1);
    expect(strict.stderr).toMatch(/^api-catalog import: --strict and 1 warning\(s\); first: OVERLAY_NO_MATCH at ov-nomatch\.yaml#\/actions\/0: overlay action 0 /m);
  });
});

describe('import ""', () => {
  it('is the usage message with exit 2, as with no spec at all', () => {
    const none = importCli([]);
    const empty = importCli(['']);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toBe(none.stderr);
    expect(empty.stderr).toBe('api-catalog import: give the spec file or http(s) URL, e.g. api-catalog import openapi/github.json\n');
  });
});

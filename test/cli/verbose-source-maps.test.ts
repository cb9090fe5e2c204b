// `--verbose` promises "a stack trace, pointing into src/". Node maps a module's frames only when source maps were on
// before that module loaded, and ES imports load before the importing module's first line runs: the first-hour
// audit found the chunks the entry imported statically (the registry's openCatalog among them) printed as
// dist/cli/chunks/chunk-*.js:3:3866. The entry (src/cli/index.ts) now turns source maps on, then import()s the CLI.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { builtCli } from '../helpers/mcp.js';
import { runProcess } from '../helpers/run.js';

const env = { PATH: process.env.PATH ?? '' };

describe('--verbose stack traces from the built CLI', () => {
  test('every frame of ours points into src/, including the registry code the CLI loads first', async () => {
    const r = await runProcess(process.execPath, [builtCli(), 'search', 'foo', '--registry', '/nonexistent-registry-folder', '--verbose'], { env });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('/nonexistent-registry-folder does not exist');
    const frames = r.stderr.split('\n').filter((l) => /^\s+at /.test(l));
    expect(frames.length).toBeGreaterThan(3);
    // the frame that threw: openCatalog in src/registry/catalog.ts, not a minified name in a chunk
    expect(frames[0]).toMatch(/^\s+at openCatalog \(.*src\/registry\/catalog\.ts:\d+:\d+\)$/);
    expect(frames.filter((f) => /dist\/cli\//.test(f))).toEqual([]);
  });

  test('the bundle\'s entry imports only Node built-ins statically: the CLI comes through import()', () => {
    const entry = readFileSync(builtCli(), 'utf8');
    const staticFrom = [...entry.matchAll(/\bimport\s*(?:[\w*{}\s,$]+\s*from\s*)?["']([^"']+)["']/g)].map((m) => m[1]);
    expect(staticFrom.length).toBeGreaterThan(0);
    expect(staticFrom.filter((s) => !s?.startsWith('node:'))).toEqual([]);
    // the bundle's chunk (tsc's own output, before postbuild replaces it, imports ./main.js the same way)
    expect(entry).toMatch(/await import\(["']\.\/(chunks\/main-[\w-]+|main)\.js["']\)/);
    // the switches come before that import
    expect(entry.indexOf('setSourceMapsEnabled')).toBeLessThan(entry.indexOf('await import('));
    expect(entry.indexOf('enableCompileCache')).toBeLessThan(entry.indexOf('await import('));
  });

  test('--version still reads the package\'s own version from the chunk', async () => {
    const r = await runProcess(process.execPath, [builtCli(), '--version'], { env });
    expect(r.status, r.stderr).toBe(0);
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(r.stdout).toBe(`${pkg.version}\n`);
  });
});

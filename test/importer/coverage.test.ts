// Regression coverage for importer behaviours an audit found untested: operation flags, near-duplicate lint,
// broken refs (unused, in extensions, needed by an operation), progress lines, cookie parameters, path-level
// servers, CLI error output, and an interrupted registry write leaving the previous tree untouched.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { isAppError } from '../../src/errors.js';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import type { ImportResult } from '../../src/importer/index.js';
import type { Operation } from '../../src/types.js';
import { treeSnapshot } from '../helpers/cli.js';
import { builtCli, REPO_ROOT } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

// writeRegistry imports writeFileSync/renameSync from node:fs by name; wrapping them here (pass-through until
// armed) is the only clean way to make the N-th call fail in the middle of a write.
const fsFault = vi.hoisted(() => ({ op: undefined as 'write' | 'rename' | undefined, failAt: 0, calls: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const fault = (op: 'write' | 'rename'): void => {
    if (fsFault.op !== op) return;
    if (++fsFault.calls === fsFault.failAt) {
      throw Object.assign(new Error(`ENOSPC: no space left on device (injected ${op} fault)`), { code: 'ENOSPC' });
    }
  };
  const writeFileSync: typeof actual.writeFileSync = (...args) => {
    fault('write');
    actual.writeFileSync(...args);
  };
  const renameSync: typeof actual.renameSync = (...args) => {
    fault('rename');
    actual.renameSync(...args);
  };
  return { ...actual, default: { ...actual, writeFileSync, renameSync }, writeFileSync, renameSync };
});

const SPECS = join(REPO_ROOT, 'test', 'fixtures', 'specs');
const FLAGS = join(SPECS, 'coverage-flags.yaml');
const REFS = join(SPECS, 'coverage-refs.yaml');
const BAD = join(SPECS, 'coverage-bad.yaml');
const GITHUB = join(REPO_ROOT, 'openapi', 'github.json');

function byId(result: ImportResult, operationId: string): Operation {
  const found = result.operations.find((o) => o.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in ${result.operations.map((o) => o.operationId).join(', ')}`);
  return found;
}

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [builtCli(), 'import', ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let tmp = '';
beforeEach(() => {
  tmp = tempDir('ac-coverage-');
});
afterEach(() => {
  fsFault.op = undefined;
});

describe('operation flags, cookies and servers (coverage-flags.yaml)', () => {
  let r: ImportResult;
  beforeAll(async () => {
    r = await importSpec(FLAGS);
  });

  test('x-destructive: true marks a POST destructive; a plain POST is not', () => {
    expect(byId(r, 'purgeJobs')).toMatchObject({ method: 'post', destructive: true, readOnly: false });
    expect(byId(r, 'createJob')).toMatchObject({ method: 'post', destructive: false, readOnly: false });
  });

  test('deprecated: true is carried; HEAD is read-only and not destructive', () => {
    expect(byId(r, 'oldThing')).toMatchObject({ method: 'get', deprecated: true });
    expect(byId(r, 'headOld')).toMatchObject({ method: 'head', readOnly: true, destructive: false, deprecated: false });
    expect(byId(r, 'createJob').deprecated).toBe(false);
  });

  test('/a/{id} and /a/{key} GET are reported as LINT_NEAR_DUPLICATE naming both', () => {
    const dups = r.diagnostics.filter((d) => d.code === 'LINT_NEAR_DUPLICATE');
    expect(dups).toEqual([
      {
        level: 'warning',
        code: 'LINT_NEAR_DUPLICATE',
        pointer: '#/paths/~1a~1{id}/get',
        message: 'getAById, getAByKey have the same method and path shape (get /a/{}); a router cannot tell them apart',
      },
    ]);
  });

  test('a cookie parameter becomes a cookie binding and a required property', () => {
    const o = byId(r, 'readSession');
    expect(o.bindings).toEqual([{ arg: 'session_id', in: 'cookie', name: 'session_id', required: true }]);
    expect(o.inputSchema.properties.session_id).toEqual({ description: 'The session cookie', type: 'string' });
    expect(o.inputSchema.required).toEqual(['session_id']);
  });

  test('path-level servers apply to the operation; operation-level servers override them', () => {
    expect(byId(r, 'regionalGet').servers).toEqual([{ url: 'https://path.example.com/v2', description: 'path-level server' }]);
    expect(byId(r, 'regionalPut').servers).toEqual([{ url: 'https://op.example.com/v3' }]);
    // Operations without their own or path-level servers use the document's (left empty on the operation).
    expect(byId(r, 'createJob').servers).toEqual([]);
    expect(r.meta.servers).toEqual([{ url: 'https://doc.example.com' }]);
  });
});

describe('broken references (coverage-refs.yaml)', () => {
  let r: ImportResult;
  beforeAll(async () => {
    r = await importSpec(REFS);
  });

  test('an unused broken $ref is REF_BROKEN and a broken $ref inside an x- extension is REF_IN_EXTENSION, with pointers', () => {
    expect(r.diagnostics).toContainEqual({
      level: 'warning',
      code: 'REF_BROKEN',
      pointer: '#/components/schemas/Orphan/properties/ghost',
      message: '$ref "#/components/schemas/DoesNotExist" points nowhere',
    });
    expect(r.diagnostics).toContainEqual({
      level: 'warning',
      code: 'REF_IN_EXTENSION',
      pointer: '#/paths/~1good/get/x-codegen/model',
      message: 'broken $ref "#/components/schemas/NotThere" inside the extension x-codegen; the extension is ignored',
    });
  });

  test('a broken $ref an operation needs skips only that operation, with a warning at the ref', () => {
    expect(r.operations.map((o) => o.operationId)).toEqual(['getGood']);
    expect(byId(r, 'getGood').response).toMatchObject({ status: '200', type: 'object', fields: ['name'] });
    const at = '#/paths/~1needs-missing/post/requestBody/content/application~1json/schema';
    expect(r.diagnostics).toContainEqual({ level: 'warning', code: 'OPERATION_SKIPPED', pointer: at, message: 'POST /needs-missing skipped: $ref "#/components/schemas/Missing" points nowhere' });
    expect(r.diagnostics).toContainEqual({ level: 'warning', code: 'REF_BROKEN', pointer: at, message: '$ref "#/components/schemas/Missing" points nowhere' });
    expect(r.diagnostics.map((d) => d.code).sort()).toEqual(['OPERATION_SKIPPED', 'REF_BROKEN', 'REF_BROKEN', 'REF_IN_EXTENSION']);
  });

  test('strict mode fails on these warnings (library)', async () => {
    const err = await importSpec(REFS, { strict: true }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAppError(err) && err.code).toBe('SPEC_INVALID');
    expect((err as Error).message).toBe(
      'import: --strict and 4 warning(s); first: REF_BROKEN at #/components/schemas/Orphan/properties/ghost: $ref "#/components/schemas/DoesNotExist" points nowhere',
    );
  });

  test('`import --strict` exits 1 with one line and writes nothing; without --strict it imports the usable operation', () => {
    const out = join(tmp, 'reg');
    // --quiet: on a busy machine an import past 500 ms prints progress lines first; the error line is what is tested
    const strict = cli([REFS, '--strict', '--quiet', '--out', out]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe('');
    expect(strict.stderr).toBe(
      'api-catalog import: --strict and 4 warning(s); first: REF_BROKEN at #/components/schemas/Orphan/properties/ghost: $ref "#/components/schemas/DoesNotExist" points nowhere\n',
    );
    expect(existsSync(out)).toBe(false);
    const lax = cli([REFS, '--out', out]);
    expect(lax.code).toBe(0);
    expect(lax.stdout).toMatch(/^imported 1 operation in 1 domain from /);
    expect(lax.stdout).toContain('\n4 warning(s); lint: 0 instruction-like, 0 near-duplicate, 0 no description');
    expect(existsSync(join(out, 'coverage-refs', 'catalog.json'))).toBe(true);
  });
});

describe('CLI errors', () => {
  const expected =
    'api-catalog import: test/fixtures/specs/coverage-bad.yaml is not an OpenAPI document (no `openapi` or `swagger` field); supported versions: Swagger 2.0, OpenAPI 3.0.x and 3.1.x';

  test('without --verbose a bad spec gives exactly one error line and no stack', () => {
    const r = cli(['test/fixtures/specs/coverage-bad.yaml', '--out', join(tmp, 'reg')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${expected}\n`);
  });

  test('with --verbose the same error is followed by a stack trace', () => {
    const r = cli(['test/fixtures/specs/coverage-bad.yaml', '--verbose', '--out', join(tmp, 'reg')]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(expected);
    expect(lines[1]).toMatch(/^AppError: import: test\/fixtures\/specs\/coverage-bad\.yaml is not an OpenAPI document/);
    const frames = lines.filter((l) => /^\s+at /.test(l));
    expect(frames.length).toBeGreaterThanOrEqual(2);
    expect(frames.some((l) => l.includes('detectVersion'))).toBe(true);
  });
});

describe('progress on the GitHub spec', () => {
  const messages: string[] = [];
  let r: ImportResult;
  beforeAll(async () => {
    r = await importSpec(GITHUB, { onProgress: (m) => messages.push(m) });
  }, 120_000);

  test('reports parse, every 250 built operations, schema checks and the summary, in order', () => {
    expect(r.operations).toHaveLength(1223);
    expect(messages[0]).toMatch(/^parsed .*github\.json \(OpenAPI 3\.0\.\d+\)$/);
    const built = messages.filter((m) => m.startsWith('built '));
    expect(built).toEqual(['built 250/1223 operations', 'built 500/1223 operations', 'built 750/1223 operations', 'built 1000/1223 operations']);
    expect(messages).toContain('checked 1000/1223 argument schemas');
    expect(messages.indexOf('built 1000/1223 operations')).toBeLessThan(messages.indexOf('checked 250/1223 argument schemas'));
    // the silent minutes of a large spec are named: linking parameters to their producers comes after the checks
    const matching = messages.indexOf('matching parameters to the operations whose answers give them');
    expect(matching).toBeGreaterThan(messages.indexOf('checked 1000/1223 argument schemas'));
    const linked = Object.values(r.operations).reduce((n, op) => n + Object.keys(op.paramSources ?? {}).length, 0);
    expect(linked).toBeGreaterThan(100);
    expect(messages[matching + 1]).toBe(`matched ${linked} parameter(s) to the operations that give them`);
    expect(messages.at(-1)).toBe(`imported 1223 operations in ${r.meta.domains.length} domains`);
  });
});

describe('an interrupted registry write', () => {
  /** A previous registry and a different import of the same catalog name, so writeRegistry must rewrite it. */
  async function setup(): Promise<{ out: string; before: Record<string, string>; next: ImportResult }> {
    const out = join(tmp, 'reg');
    writeRegistry(await importSpec(FLAGS, { name: 'cov' }), out);
    const before = treeSnapshot(out);
    expect(Object.keys(before).sort()).toEqual(['cov/catalog.json', 'cov/diagnostics.json', 'cov/operations/a.json', 'cov/operations/jobs.json', 'cov/operations/old.json', 'cov/operations/regional.json', 'cov/operations/session.json']);
    return { out, before, next: await importSpec(REFS, { name: 'cov' }) };
  }

  function attempt(next: ImportResult, out: string): unknown {
    try {
      writeRegistry(next, out);
      return undefined;
    } catch (e) {
      return e;
    } finally {
      fsFault.op = undefined;
    }
  }

  test('a failing file write in the temporary tree leaves the previous registry byte-identical and no temp folder', async () => {
    const { out, before, next } = await setup();
    Object.assign(fsFault, { op: 'write', failAt: 2, calls: 0 });
    const err = attempt(next, out);
    expect(isAppError(err) && err.code).toBe('INTERNAL');
    expect((err as Error).message).toMatch(/^import: cannot write the registry under .* \(ENOSPC: no space left on device \(injected write fault\)\); check permissions$/);
    expect(fsFault.calls).toBe(2);
    expect(readdirSync(out)).toEqual(['cov']);
    expect(treeSnapshot(out)).toEqual(before);
    // Without the fault the same write goes through: the fault, not the data, stopped it.
    expect(writeRegistry(next, out).unchanged).toBe(false);
    // (a re-import that changes the registry also records what changed: changes.json)
    expect(Object.keys(treeSnapshot(out)).sort()).toEqual(['cov/catalog.json', 'cov/changes.json', 'cov/diagnostics.json', 'cov/operations/good.json']);
  });

  test('a failing swap (old moved aside, new not moved in) restores the previous registry and cleans up', async () => {
    const { out, before, next } = await setup();
    // Rename 1 moves the old tree aside, rename 2 moves the new tree in: fail that one.
    Object.assign(fsFault, { op: 'rename', failAt: 2, calls: 0 });
    const err = attempt(next, out);
    expect(isAppError(err) && err.code).toBe('INTERNAL');
    expect((err as Error).message).toMatch(/^import: cannot replace .*cov \(ENOSPC: no space left on device \(injected rename fault\)\); the previous registry is unchanged$/);
    expect(fsFault.calls).toBe(3); // the third rename is the rollback
    expect(readdirSync(out)).toEqual(['cov']);
    expect(treeSnapshot(out)).toEqual(before);
  });

  test('an out folder below a file, or where no folder can be made (/proc), is an INTERNAL error naming it; missing parents are made', async () => {
    const r = await importSpec(FLAGS, { name: 'cov' });
    const dir = tempDir('ac-out-');
    try {
      const file = join(dir, 'a-file');
      writeFileSync(file, 'x');
      const below = attempt(r, join(file, 'reg'));
      expect(isAppError(below) && below.code).toBe('INTERNAL');
      expect((below as Error).message).toMatch(/^import: cannot write the registry under .*a-file\/reg \(ENOTDIR/);
      if (process.platform === 'linux') {
        // Node's recursive mkdir spins forever there; one level at a time fails at once
        const proc = attempt(r, '/proc/api-catalog-nope/reg');
        expect(isAppError(proc) && proc.code).toBe('INTERNAL');
        expect((proc as Error).message).toMatch(/cannot write the registry under \/proc\/api-catalog-nope\/reg \(ENOENT/);
      }
      writeRegistry(r, join(dir, 'new', 'deeper'));
      expect(readdirSync(join(dir, 'new', 'deeper'))).toEqual(['cov']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('x- keys inside the Paths and Responses objects are extensions, not names', () => {
  test('refs there are dropped with REF_IN_EXTENSION (not refused or reported broken); the import succeeds', async () => {
    const r = await importSpec(join(SPECS, "extensions-in-maps.yaml"));
    expect(r.operations.map((o) => o.operationId)).toEqual(['listThings']);
    const codes = r.diagnostics.map((d) => [d.code, d.pointer]);
    expect(codes).toEqual(
      expect.arrayContaining([
        ['REF_IN_EXTENSION', '#/paths/x-notes'],
        ['REF_IN_EXTENSION', '#/paths/~1things/get/responses/x-extra'],
      ]),
    );
    expect(r.diagnostics.filter((d) => d.code === 'REF_BROKEN')).toEqual([]);
  });
});

describe('import deadline (RELIABILITY D17)', () => {
  test('an import over its deadline fails with SPEC_TOO_LARGE naming the stage, progress and the flag to raise it', async () => {
    const github = join(REPO_ROOT, 'openapi', 'github.json');
    const err = await importSpec(github, { timeoutMs: 1 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAppError(err) && err.code).toBe('SPEC_TOO_LARGE');
    expect((err as Error).message).toMatch(/^import: gave up on .*github\.json after 0 s while (parsing|building operations \(\d+ of 1223 done\))/);
    expect((err as Error).message).toMatch(/--timeout <seconds>/);
  });

  test('within the deadline nothing changes', async () => {
    const r = await importSpec(join(SPECS, 'oas30.yaml'), { timeoutMs: 60_000 });
    expect(r.operations.length).toBeGreaterThan(0);
  });
});

describe('a spec with many broken operations (RELIABILITY D12)', () => {
  test('the import lists every skipped operation with its pointer, keeps the good one, and the registry records them', async () => {
    const r = await importSpec(join(SPECS, 'fourteen-broken.yaml'));
    expect(r.operations.map((o) => o.operationId)).toEqual(['stillFine']);
    const skipped = r.diagnostics.filter((d) => d.code === 'OPERATION_SKIPPED');
    expect(skipped).toHaveLength(14);
    expect(new Set(skipped.map((d) => d.pointer)).size).toBe(14);
    for (const d of skipped) expect(d.message).toMatch(/^GET \/broken\d+ skipped: .*Missing\d+/);
    const out = tempDir('d12-');
    try {
      writeRegistry(r, out);
      const { loadCatalog } = await import('../../src/registry/catalog.js');
      const catalog = loadCatalog(join(out, r.meta.name));
      expect(catalog.skipped).toHaveLength(14);
      const { buildCatalogSet } = await import('../../src/server/core/catalogs.js');
      const { listDomains } = await import('../../src/server/core/domains.js');
      const { toolNames } = await import('../../src/server/core/names.js');
      const env = listDomains(buildCatalogSet([catalog]), {}, toolNames()) as { success: true; value: Record<string, unknown> };
      expect(env.value.incomplete).toEqual([{ catalog: r.meta.name, skippedOperations: 14 }]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

// Operations that share a stored path (src/importer/paths.ts normalises `/#Action=DeleteVpc` to `POST /`, so every
// ec2 action is `POST /` or `GET /`) are still told apart by the path key the spec wrote (specPathOf): the lint's
// near duplicates and pointers, schema diagnostics' pointers, link targets (operationRef), and a re-import's
// mass-removal guard, which counts a removed action as removed although `POST /` is still there. The progress line of
// a domain split says how it grouped. Checked on Amazon SimpleDB's real spec and on crafted ones.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { run } from '../../src/cli/import.js';
import { importSpec } from '../../src/importer/index.js';
import { removedOperations, type PreviousOperations } from '../../src/importer/write.js';
import type { Operation } from '../../src/types.js';
import { runCaptured, treeSnapshot } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const FIXTURES = resolve(fileURLToPath(import.meta.url), '../../fixtures');
const CRAFTED = join(FIXTURES, 'specs', 'path-keys.json');
const SDB = join(FIXTURES, 'real-specs', 'aws-sdb.json');
const scratch = tempDir('shared-paths-');
const ok = { '200': { description: 'OK' } };

/** Writes a spec of `paths` (OpenAPI 3.0) and returns its file. */
function specOf(name: string, paths: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const file = join(scratch, `${name}.json`);
  writeFileSync(file, JSON.stringify({ openapi: '3.0.3', info: { title: name, version: '1' }, servers: [{ url: 'https://api.example' }], paths, ...extra }));
  return file;
}

/** SimpleDB's spec without the actions named (each `/#Action=<name>` key, GET and POST). */
function sdbWithout(actions: string[], file: string): string {
  const doc = JSON.parse(readFileSync(SDB, 'utf8')) as { paths: Record<string, unknown> };
  for (const a of actions) delete doc.paths[`/#Action=${a}`];
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

/** A catalog's operations as previousOperations reads them back. */
function previous(ops: readonly Operation[], rename: (op: Operation) => Operation = (op) => op): PreviousOperations {
  return new Map(ops.map(rename).map((op) => [op.name, { domain: op.domain, text: JSON.stringify(op), endpoint: `${op.method} ${op.path}`, operationId: op.operationId }]));
}

describe('lint', () => {
  test('operations the spec keeps apart by a #fragment are no near duplicates; pointers name the spec key', async () => {
    const result = await importSpec(CRAFTED, {});
    expect(result.diagnostics.filter((d) => d.code === 'LINT_NEAR_DUPLICATE')).toEqual([]);
    const sdb = await importSpec(SDB, {});
    expect(sdb.diagnostics.filter((d) => d.code === 'LINT_NEAR_DUPLICATE')).toEqual([]);
  });

  test('keys of the same shape still are, and every lint pointer is the key as written', async () => {
    const spec = specOf('dupes', {
      '/items/{a}#x': { get: { operationId: 'getA', summary: 'Get A', responses: ok } },
      '/items/{b}#x': { get: { operationId: 'getB', summary: 'Get B', responses: ok } },
      '/#Action=Bare': { post: { operationId: 'Bare', responses: ok } },
    });
    const result = await importSpec(spec, {});
    const lint = result.diagnostics.filter((d) => d.code.startsWith('LINT_')).map((d) => `${d.code} ${d.pointer}`);
    expect(lint).toEqual(['LINT_NO_DESCRIPTION #/paths/~1#Action=Bare/post', 'LINT_NEAR_DUPLICATE #/paths/~1items~1{a}#x/get']);
    expect(result.diagnostics.find((d) => d.code === 'LINT_NEAR_DUPLICATE')?.message).toContain('(get /items/{}#x)');
  });
});

test('a schema diagnostic points at the key as the spec wrote it', async () => {
  // a negative length: Ajv refuses the schema, so the arguments go unchecked (SCHEMA_UNCOMPILABLE)
  const parameters = [{ name: 'Name', in: 'query', required: true, schema: { type: 'string', minLength: -1 } }];
  const spec = specOf('uncompilable', {
    '/#Action=CreateThing': { get: { operationId: 'CreateThing', summary: 'Create a thing', parameters, responses: ok } },
  });
  const result = await importSpec(spec, {});
  const found = result.diagnostics.filter((d) => d.code === 'SCHEMA_PATTERN_DROPPED' || d.code === 'SCHEMA_UNCOMPILABLE');
  expect(found.map((d) => d.pointer)).toEqual(['#/paths/~1#Action=CreateThing/get']);
});

describe('the progress line of a regrouped catalog says how it grouped', () => {
  test('SimpleDB, all on `/`: by the resource its actions name, not "by path"', async () => {
    const said: string[] = [];
    await importSpec(SDB, { onProgress: (m) => said.push(m) });
    const line = said.find((m) => m.includes('grouped them'));
    expect(line).toBe('domain "default" held 20 of 20 operations: grouped them by the resource their actions name into 4 domains (a map of one domain tells an agent nothing)');
  });

  test('one path per action (one domain per operation) gets its line too', async () => {
    const paths: Record<string, unknown> = {};
    for (const a of ['CreateStream', 'DeleteStream', 'DescribeStream', 'ListStreams', 'UpdateStream', 'CreateChannel', 'DeleteChannel', 'DescribeChannel', 'ListChannels', 'UpdateChannel', 'TagStream', 'UntagStream']) {
      paths[`/${a.charAt(0).toLowerCase()}${a.slice(1)}`] = { post: { operationId: a, summary: a, responses: ok } };
    }
    const said: string[] = [];
    const result = await importSpec(specOf('per-action', paths), { onProgress: (m) => said.push(m) });
    expect(result.meta.domains.map((d) => d.name)).toEqual(['channel', 'stream', 'tag']);
    expect(said.filter((m) => m.includes('grouped them'))).toEqual(['12 operations were in 12 domains, about one each: grouped them by the resource their actions name into 3 domains (a domain per operation is no map)']);
  });

  test('a REST spec split by path still says so', async () => {
    const paths: Record<string, unknown> = {};
    for (const r of ['streams', 'channels', 'tags', 'users', 'teams', 'files', 'notes', 'pages', 'posts', 'tasks']) {
      for (const m of ['get', 'post', 'put', 'delete']) paths[`/v1/${r}/{id}/${m === 'get' ? '' : m}`] = { [m]: { summary: `${m} ${r}`, tags: ['api'], responses: ok } };
    }
    const said: string[] = [];
    await importSpec(specOf('rest', paths), { onProgress: (m) => said.push(m) });
    expect(said.filter((m) => m.includes('grouped them'))).toEqual(['domain "api" held 40 of 40 operations: grouped them by path into 10 domains (a map of one domain tells an agent nothing)']);
  });
});

test("an operationRef link names the spec key and reaches that operation, not another on the same path", async () => {
  const handle = [{ name: 'Action', in: 'query', required: true, schema: { type: 'string' } }, { name: 'handle', in: 'query', required: true, schema: { type: 'string' } }];
  const spec = specOf('links', {
    '/#Action=OpenThing': {
      post: {
        operationId: 'OpenThing',
        summary: 'Open a thing',
        responses: {
          '200': {
            description: 'OK',
            content: { 'application/json': { schema: { type: 'object', properties: { token: { type: 'string' } } } } },
            links: { read: { operationRef: '#/paths/~1%23Action=ReadThing/get', parameters: { handle: '$response.body#/token' } } },
          },
        },
      },
    },
    '/#Action=ReadThing': { get: { operationId: 'ReadThing', summary: 'Read a thing', parameters: handle, responses: ok } },
    '/#Action=DropThing': { get: { operationId: 'DropThing', summary: 'Drop a thing', parameters: handle, responses: ok } },
  });
  const result = await importSpec(spec, {});
  const sources = Object.fromEntries(result.operations.map((op) => [op.name, op.paramSources]));
  expect(sources).toEqual({ OpenThing: undefined, ReadThing: { handle: ['OpenThing'] }, DropThing: undefined });
});

describe('a re-import removes exactly the actions the spec dropped', () => {
  test('removedOperations: one action gone from `/` is removed; renamed ones are not; a catalog stored with the spec keys as paths', async () => {
    const all = await importSpec(SDB, {});
    const fewer = await importSpec(sdbWithout(['DeleteDomain'], join(scratch, 'sdb-1.json')), {});
    expect(removedOperations(fewer, previous(all.operations))).toEqual({ before: 20, removed: ['GET_DeleteDomain', 'POST_DeleteDomain'] });
    // every name changed (a naming rule), one action dropped: that action's operations, found by operationId
    const renamed = previous(all.operations, (op) => ({ ...op, name: `old_${op.name}` }));
    expect(removedOperations(fewer, renamed).removed).toEqual(['old_GET_DeleteDomain', 'old_POST_DeleteDomain']);
    // a catalog written before keys were normalised stored `/#Action=...` as the path: a rename there loses nothing
    const { specPathOf } = await import('../../src/importer/paths.js');
    const stored = previous(all.operations, (op) => ({ ...op, name: `old_${op.name}`, path: specPathOf(op) }));
    expect(removedOperations(all, stored).removed).toEqual([]);
    expect(removedOperations(fewer, stored).removed).toEqual(['old_GET_DeleteDomain', 'old_POST_DeleteDomain']);
  });

  test('import: six of ten actions dropped from `/` trips the mass-removal guard; one dropped is reported as such', async () => {
    const dir = tempDir('shared-paths-cli-');
    const out = join(dir, 'reg');
    const spec = join(dir, 'sdb.json');
    const cli = (args: string[]) => runCaptured(run, args);
    writeFileSync(spec, readFileSync(SDB));
    expect((await cli([spec, '--out', out, '--quiet'])).code).toBe(0);
    const before = treeSnapshot(out);
    sdbWithout(['BatchDeleteAttributes', 'BatchPutAttributes', 'CreateDomain', 'DeleteAttributes', 'DeleteDomain', 'DomainMetadata'], spec);
    const refused = await cli([spec, '--out', out]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('this import would remove 12 of its 20 operations (GET_BatchDeleteAttributes, GET_BatchPutAttributes, GET_CreateDomain, GET_DeleteAttributes, GET_DeleteDomain and 7 more), more than half of them');
    expect(treeSnapshot(out)).toEqual(before);
    sdbWithout(['DeleteDomain'], spec);
    const one = await cli([spec, '--out', out]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/-2 \(GET_DeleteDomain, POST_DeleteDomain\)/);
  });
});

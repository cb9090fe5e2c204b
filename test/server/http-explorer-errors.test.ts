// What a browser gets when a request the explorer answers is refused or fails in the Streamable HTTP transport
// (real servers on 127.0.0.1, real HTTP): a page with the status, the reason in plain words and what to do, with the
// explorer's security headers, where it used to get a bare JSON-RPC error. The catalog changed on disk after it was
// loaded (a re-import) is a 503 page with Retry-After that says to reload in a few seconds; a damaged operations file
// a 500 page that sends the operator to the log, without the file's path; a Host or Origin the server does not
// accept a 403 page naming what to configure (--allow-host / --allow-origin / --public-url); a draining replica a 503
// page. /mcp, and a server without the explorer, keep their JSON-RPC errors.
import { cpSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { fixtureRegistry } from '../helpers/mcp.js';
import { rawHttp, type RawResponse } from '../helpers/raw-http.js';
import { tempDir } from '../helpers/temp.js';

const settings = { baseUrls: {}, readOnly: false, env: {} };
const servers: HttpHandle[] = [];

async function serve(dir: string, explorer = true): Promise<HttpHandle> {
  const h = await serveHttp({ catalogs: loadCatalogSet([dir]), settings, rateLimitPerMinute: 0 }, { port: 0, explorer });
  servers.push(h);
  return h;
}

/** A copy of the petstore registry in a scratch folder. */
function registry(): string {
  const dir = join(tempDir('explorer-errors-'), 'petstore');
  cpSync(fixtureRegistry('petstore'), dir, { recursive: true });
  return dir;
}

/** `file` of `dir` replaced as a re-import does (a new file renamed over it), with `text`. */
function replace(dir: string, file: string, text: string): void {
  const path = join(dir, 'operations', file);
  writeFileSync(`${path}.new`, text);
  renameSync(`${path}.new`, path);
}

const PAGE = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

function expectPage(r: RawResponse, status: number): void {
  expect(r.status, r.body).toBe(status);
  expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(r.headers['content-security-policy']).toMatch(/^default-src 'none'/);
  expect(r.headers['x-frame-options']).toBe('DENY');
  expect(r.headers['cache-control']).toBe('no-store');
  expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.body));
  expect(r.body).toMatch(/^<!doctype html>/);
  expect(r.body).not.toContain('jsonrpc');
}

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('a page that fails while it is built', () => {
  test('the catalog changed on disk after it was loaded (a re-import): 503, Retry-After, "reload it in a few seconds"', async () => {
    const dir = registry();
    const srv = await serve(dir);
    const before = await rawHttp(srv.port, 'GET', '/?domain=store', PAGE);
    expect(before.status, before.body).toBe(200);
    // a re-import rewrote the domain's operations file after the server loaded the registry
    replace(dir, 'pets.json', JSON.stringify([]));
    const r = await rawHttp(srv.port, 'GET', '/?domain=pets', PAGE);
    expectPage(r, 503);
    expect(r.headers['retry-after']).toBe('5');
    expect(r.body).toContain('<h1>Try again in a few seconds</h1>');
    expect(r.body).toContain('The catalog is being reloaded');
    expect(r.body).toContain('reload it in a few seconds');
    expect(r.body).toContain('<a href="/" id="home">');
    // never the server's paths (the log has the message)
    expect(r.body).not.toContain(dir);
    // HEAD: the same status and headers, no body
    const head = await rawHttp(srv.port, 'HEAD', '/?domain=pets', PAGE);
    expect(head.status).toBe(503);
    expect(head.body).toBe('');
  });

  test('a damaged operations file: 500 page that sends the operator to the log, with the error code and not the path', async () => {
    const dir = registry();
    writeFileSync(join(dir, 'operations', 'pets.json'), '[{"name": "pets.list", ');
    const srv = await serve(dir);
    const r = await rawHttp(srv.port, 'GET', '/?domain=pets', PAGE);
    expectPage(r, 500);
    expect(r.headers['retry-after']).toBeUndefined();
    expect(r.body).toContain('<h1>This page could not be built</h1>');
    expect(r.body).toContain('A file of the catalog that this page needs cannot be read, or is damaged.');
    expect(r.body).toContain('re-runs the import of that registry');
    expect(r.body).toContain('<code>REGISTRY_INVALID</code>');
    expect(r.body).not.toContain(dir);
    // an MCP-style request for the same address without asking for HTML still goes to the explorer: a page too
    const plain = await rawHttp(srv.port, 'GET', '/?domain=pets', {});
    expect(plain.status).toBe(500);
    expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});

describe('Host and Origin refusals of explorer requests', () => {
  let srv: HttpHandle;
  let off: HttpHandle;
  beforeAll(async () => {
    srv = await serve(fixtureRegistry('petstore'));
    off = await serve(fixtureRegistry('petstore'), false);
  });

  test('a Host the server does not answer to: a 403 page naming --allow-host and --public-url, the Host escaped', async () => {
    const r = await rawHttp(srv.port, 'GET', '/', { ...PAGE, host: 'catalog.example.com' });
    expectPage(r, 403);
    expect(r.body).toContain('<h1>Forbidden: this address is not allowed</h1>');
    expect(r.body).toContain('<code>Host: catalog.example.com</code>');
    expect(r.body).toContain('<code>--allow-host catalog.example.com</code>');
    expect(r.body).toContain('API_CATALOG_ALLOW_HOSTS');
    expect(r.body).toContain('<code>--public-url https://&lt;that name&gt;/mcp</code>');
    // a hostile Host header is shown escaped, never as markup
    const hostile = await rawHttp(srv.port, 'GET', '/?q=x', { ...PAGE, host: 'a"><b>x' });
    expect(hostile.status).toBe(403);
    expect(hostile.body).not.toContain('<b>x');
  });

  test('a dry-run form posted from another origin: a 403 page naming --allow-origin and --public-url; nothing run', async () => {
    const r = await rawHttp(
      srv.port,
      'POST',
      '/explorer/dry-run',
      { origin: 'https://catalog.example.com', 'content-type': 'application/x-www-form-urlencoded' },
      'tool=pets.list&args=%7B%7D',
    );
    expectPage(r, 403);
    expect(r.body).toContain('<h1>Forbidden: sent from another site</h1>');
    expect(r.body).toContain('a page at <code>https://catalog.example.com</code>');
    expect(r.body).toContain('<code>--allow-origin https://catalog.example.com</code>');
    expect(r.body).toContain('<code>--public-url https://catalog.example.com/mcp</code>');
    expect(r.body).toContain('Nothing was done.');
  });

  test('/mcp, and every request without the explorer, keep the JSON-RPC refusals', async () => {
    const json = 'application/json';
    const mcpHost = await rawHttp(srv.port, 'POST', '/mcp', { host: 'catalog.example.com', 'content-type': json }, '{}');
    expect(mcpHost.status).toBe(403);
    expect(mcpHost.headers['content-type']).toBe(json);
    expect(JSON.parse(mcpHost.body)).toMatchObject({ error: { code: -32000, message: expect.stringContaining('--allow-host') } });
    const mcpOrigin = await rawHttp(srv.port, 'POST', '/mcp', { origin: 'https://catalog.example.com', 'content-type': json }, '{}');
    expect(mcpOrigin.status).toBe(403);
    expect(JSON.parse(mcpOrigin.body)).toMatchObject({ error: { message: expect.stringContaining('--allow-origin') } });
    // a browser opening /mcp through a refused Host is refused as an MCP request (JSON), not as a page
    const mcpPage = await rawHttp(srv.port, 'GET', '/mcp', { ...PAGE, host: 'catalog.example.com' });
    expect(mcpPage.headers['content-type']).toBe(json);
    const offHost = await rawHttp(off.port, 'GET', '/', { ...PAGE, host: 'catalog.example.com' });
    expect(offHost.status).toBe(403);
    expect(offHost.headers['content-type']).toBe(json);
  });
});

test('a replica that is draining: a browser gets a 503 page with Retry-After; /mcp its JSON-RPC 503', async () => {
  const srv = await serve(fixtureRegistry('petstore'));
  srv.drain.start();
  const r = await rawHttp(srv.port, 'GET', '/', PAGE);
  expectPage(r, 503);
  expect(r.headers['retry-after']).toBe('2');
  expect(r.body).toContain('This server is shutting down');
  const mcp = await rawHttp(srv.port, 'POST', '/mcp', { 'content-type': 'application/json' }, '{}');
  expect(mcp.status).toBe(503);
  expect(mcp.headers['content-type']).toBe('application/json');
});

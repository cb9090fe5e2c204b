// Three answers of the HTTP endpoint that a client could not use (audit proto51, defects 3, 9 and 10), on a real
// server over real HTTP:
// - the CORS preflight allows the W3C Trace Context and Baggage headers (traceparent, tracestate, baggage), which
//   OpenTelemetry's fetch instrumentation adds to every request: a page in real Chromium reaches /mcp with them;
// - a POST without a session whose MCP-Protocol-Version names no revision we speak gets -32022 (data.supported,
//   data.requested), _meta or not, instead of a call for the _meta envelope of a revision that does not exist;
// - "Mcp-Session-Id header is required" echoes the request's id (the body was read), so a client can match it.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { CHROMIUM } from '../helpers/explorer.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { modernRpc, rpc } from '../helpers/mcp-raw.js';
import { rawHttp } from '../helpers/raw-http.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/** A page's origin: a plain server on another port (cross-origin to the MCP server, so the browser preflights). */
let pageServer: Server;
let pageOrigin: string;
let srv: HttpHandle;

beforeAll(async () => {
  pageServer = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>otel page</title>');
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  srv = await serveHttp(
    { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 },
    { port: 0, allowOrigins: [pageOrigin] },
  );
});
afterAll(async () => {
  await srv?.close();
  await new Promise((resolve) => pageServer?.close(resolve));
});

describe('CORS: the trace headers of a browser client with OpenTelemetry', () => {
  test('the preflight allows traceparent, tracestate and baggage (beside the MCP headers)', async () => {
    const pre = await rawHttp(srv.port, 'OPTIONS', '/mcp', {
      origin: pageOrigin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,mcp-method,mcp-protocol-version,traceparent,tracestate,baggage',
    });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(pageOrigin);
    const allowed = String(pre.headers['access-control-allow-headers'])
      .split(',')
      .map((h) => h.trim().toLowerCase());
    for (const h of ['traceparent', 'tracestate', 'baggage', 'content-type', 'mcp-method', 'mcp-protocol-version', 'mcp-session-id', 'authorization']) expect(allowed).toContain(h);
  });

  describe('real Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium); .ci/run does`).toBe(true);
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
    });

    test('a page from an allowed origin POSTs a 2026-07-28 tools/list with traceparent, tracestate and baggage: answered', async () => {
      const page = await browser.newPage();
      try {
        await page.goto(`${pageOrigin}/`);
        const answer = await page.evaluate(
          async ({ url, traceparent }) => {
            const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'otel-page', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
            try {
              const r = await fetch(url, {
                method: 'POST',
                headers: {
                  'content-type': 'application/json',
                  accept: 'application/json, text/event-stream',
                  'mcp-protocol-version': '2026-07-28',
                  'mcp-method': 'tools/list',
                  traceparent,
                  tracestate: 'vendor=opaque',
                  baggage: 'userId=alice',
                },
                body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }),
              });
              return { status: r.status, body: await r.text() };
            } catch (err) {
              return { failed: String(err) };
            }
          },
          { url: srv.url, traceparent: TRACEPARENT },
        );
        expect(answer).not.toHaveProperty('failed');
        expect((answer as { status: number }).status).toBe(200);
        const msg = JSON.parse((answer as { body: string }).body) as { result: { tools: unknown[] } };
        expect(msg.result.tools).toHaveLength(4);
      } finally {
        await page.close();
      }
    });
  });
});

describe('refusals without a session', () => {
  const UNSUPPORTED = {
    code: -32022,
    message:
      'Unsupported protocol version "2099-01-01": this server speaks 2026-07-28 (every request carrying its _meta) and, after an initialize handshake, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07',
    data: { supported: ['2026-07-28'], requested: '2099-01-01' },
  };

  test('an MCP-Protocol-Version naming no revision we speak, without _meta: 400 -32022 with its id, as with _meta', async () => {
    const bare = await rpc(srv.url, undefined, { jsonrpc: '2.0', id: 31, method: 'tools/list', params: {} }, { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' });
    expect(bare.status).toBe(400);
    expect(bare.msg).toEqual({ jsonrpc: '2.0', id: 31, error: UNSUPPORTED });
    // the same version in the envelope too: the same answer (the SDK's modern leg)
    const enveloped = await modernRpc(srv.url, 'tools/list', {}, { version: '2099-01-01', id: 32 });
    expect(enveloped.status).toBe(400);
    expect(enveloped.msg).toEqual({ jsonrpc: '2.0', id: 32, error: UNSUPPORTED });
    // server/discover, the opener a 2026-07-28 client sends first, too
    const discover = await rpc(srv.url, undefined, { jsonrpc: '2.0', id: 'd-1', method: 'server/discover', params: {} }, { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'server/discover' });
    expect(discover.status).toBe(400);
    expect(discover.msg).toEqual({ jsonrpc: '2.0', id: 'd-1', error: UNSUPPORTED });
  });

  test('a request with neither a session nor _meta: 400 "Mcp-Session-Id header is required" carrying the request id', async () => {
    const message = 'Bad Request: Mcp-Session-Id header is required (initialize first, or send a 2026-07-28 request with its _meta)';
    for (const [id, method] of [
      [58, 'server/discover'],
      ['ping-7', 'ping'],
      [59, 'tools/list'],
    ] as const) {
      const r = await rpc(srv.url, undefined, { jsonrpc: '2.0', id, method, params: {} });
      expect(r.status, method).toBe(400);
      expect(r.msg, method).toEqual({ jsonrpc: '2.0', id, error: { code: -32000, message } });
    }
  });
});

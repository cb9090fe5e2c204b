// Small HTTP helpers shared by the Streamable HTTP transport's modules: JSON-RPC error bodies for every refusal
// (no HTML, no stack, no path) and the capped body reader. No MCP logic here.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Writes a JSON-RPC error body with the given HTTP status. */
export function sendError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export type BodyResult = { ok: true; text: string } | { ok: false; tooLarge: true } | { ok: false; tooLarge: false };

/** Reads the body up to `max` bytes. Over the cap: drains (up to 8× the cap, then gives up) and reports tooLarge. */
export function readBody(req: IncomingMessage, max: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    let size = 0;
    let over = Number.isFinite(declared) && declared > max;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) over = true;
      if (!over) chunks.push(chunk);
      else if (size > max * 8) {
        req.pause();
        resolve({ ok: false, tooLarge: true });
      }
    });
    req.on('end', () => resolve(over ? { ok: false, tooLarge: true } : { ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => resolve({ ok: false, tooLarge: false }));
  });
}

export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const media = value.split(';')[0]?.trim().toLowerCase();
  return media === 'application/json';
}

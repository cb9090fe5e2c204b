// A recording fake upstream for tests: a node:http server on 127.0.0.1:0 that records every request
// (method, raw url, headers, raw body) and answers with scripted behaviours (echo, status, redirect, stall,
// trickle, reset, gzip bomb, lying content-length, binary, sequences). Test-only; never touches the network.
//
// Usage:
//   const up = await startUpstream();                      // default route: echo
//   up.route('/v1/limited', { kind: 'sequence', steps: [{ kind: 'status', status: 429, headers: { 'retry-after': '1' } }, { kind: 'echo' }] });
//   await fetch(`${up.url}/v1/limited`);
//   up.requests[0].url  // '/v1/limited'  (raw request target, exactly as sent on the wire)
//   up.hits('/v1/limited') // requests whose pathname matches
//   await up.close();
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createGzip } from 'node:zlib';

/** One request as the upstream saw it. */
export interface RecordedRequest {
  method: string;
  /** The raw request target (path + query) exactly as received, e.g. `/v1/users/..%2Fadmin?x=1`. */
  url: string;
  /** `url` without the query. */
  pathname: string;
  /** Lower-cased header names (node's IncomingHttpHeaders). */
  headers: IncomingHttpHeaders;
  /** Header names and values in wire order, original case. */
  rawHeaders: string[];
  /** The raw request body bytes. */
  body: Buffer;
  /** `body` decoded as UTF-8. */
  text: string;
  /** True when the client closed the connection before the response finished (cancellation, timeouts). */
  aborted: boolean;
}

/** A scripted answer. Routes are matched on the exact pathname; unmatched requests get the default (echo). */
export type Behaviour =
  /** 200 JSON `{ method, url, headers, body }` describing the request. */
  | { kind: 'echo'; status?: number; headers?: Record<string, string> }
  /** Any status with headers and a body (objects are sent as JSON). */
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string | Buffer | object }
  /** A redirect to `location` (absolute or relative). */
  | { kind: 'redirect'; status: 301 | 302 | 303 | 307 | 308; location: string }
  /** Accept the request and never answer (until close()). */
  | { kind: 'stall' }
  /** Send 200 headers, then `chunk` every `intervalMs` forever (until the client goes away or close()). */
  | { kind: 'trickle'; intervalMs: number; chunk?: string; contentType?: string }
  /** Destroy the socket without answering. */
  | { kind: 'reset' }
  /** A gzip stream (Content-Encoding: gzip) of `decompressedBytes` zeros; the wire carries ~1/1000 of it. */
  | { kind: 'gzipBomb'; decompressedBytes: number; contentType?: string }
  /** Declare `declared` bytes in Content-Length, send `actual` bytes, then close the socket. */
  | { kind: 'lyingLength'; declared: number; actual: number; contentType?: string }
  /** A binary body of `bytes` bytes (0x00..0xff pattern, or the given data) with `contentType`. */
  | { kind: 'binary'; contentType: string; bytes?: number; data?: Buffer }
  /** Stream a large JSON array of `items` objects (each ~`itemBytes` long), chunked. */
  | { kind: 'bigJson'; items: number; itemBytes?: number }
  /** The n-th request to this route gets steps[n]; the last step repeats. */
  | { kind: 'sequence'; steps: Behaviour[] }
  /** Full control. */
  | { kind: 'handler'; handle: (req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest) => void };

export interface Upstream {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  port: number;
  /** Every request received, in arrival order (recorded once the body has been read). */
  requests: RecordedRequest[];
  /** Script the behaviour for an exact pathname (replaces an earlier one). */
  route(pathname: string, behaviour: Behaviour): void;
  /** The default behaviour for unmatched paths (initially echo). */
  setDefault(behaviour: Behaviour): void;
  /** Requests whose pathname equals `pathname`. */
  hits(pathname: string): RecordedRequest[];
  /** Forget recorded requests and sequence counters (routes stay). */
  clear(): void;
  /** Destroy every open socket and stop listening. */
  close(): Promise<void>;
}

export interface StartUpstreamOptions {
  /** Routes to install at start. */
  routes?: Record<string, Behaviour>;
  defaultBehaviour?: Behaviour;
}

function sendBody(res: ServerResponse, status: number, headers: Record<string, string> = {}, body?: string | Buffer | object): void {
  let payload: Buffer;
  const h: Record<string, string> = { ...headers };
  if (body === undefined) payload = Buffer.alloc(0);
  else if (Buffer.isBuffer(body)) payload = body;
  else if (typeof body === 'string') payload = Buffer.from(body, 'utf8');
  else {
    payload = Buffer.from(JSON.stringify(body), 'utf8');
    if (!Object.keys(h).some((k) => k.toLowerCase() === 'content-type')) h['content-type'] = 'application/json';
  }
  if (!Object.keys(h).some((k) => k.toLowerCase() === 'content-length')) h['content-length'] = String(payload.length);
  res.writeHead(status, h);
  res.end(payload);
}

/** Starts the recording server on 127.0.0.1 with an ephemeral port. */
export async function startUpstream(options: StartUpstreamOptions = {}): Promise<Upstream> {
  const routes = new Map<string, Behaviour>(Object.entries(options.routes ?? {}));
  let fallback: Behaviour = options.defaultBehaviour ?? { kind: 'echo' };
  const counters = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const play = (behaviour: Behaviour, req: IncomingMessage, res: ServerResponse, rec: RecordedRequest, key: string): void => {
    switch (behaviour.kind) {
      case 'echo':
        sendBody(res, behaviour.status ?? 200, behaviour.headers, {
          method: rec.method,
          url: rec.url,
          headers: rec.headers,
          body: rec.text,
        });
        return;
      case 'status':
        sendBody(res, behaviour.status, behaviour.headers, behaviour.body);
        return;
      case 'redirect':
        sendBody(res, behaviour.status, { location: behaviour.location });
        return;
      case 'stall':
        return;
      case 'trickle': {
        res.writeHead(200, { 'content-type': behaviour.contentType ?? 'application/json' });
        res.flushHeaders();
        const t = setInterval(() => {
          if (res.destroyed || res.writableEnded) {
            clearInterval(t);
            timers.delete(t);
            return;
          }
          res.write(behaviour.chunk ?? ' ');
        }, behaviour.intervalMs);
        timers.add(t);
        return;
      }
      case 'reset':
        req.socket.destroy();
        return;
      case 'gzipBomb': {
        res.writeHead(200, { 'content-type': behaviour.contentType ?? 'application/json', 'content-encoding': 'gzip' });
        const gz = createGzip({ level: 9 });
        gz.pipe(res);
        const block = Buffer.alloc(64 * 1024);
        let left = behaviour.decompressedBytes;
        const pump = (): void => {
          while (left > 0) {
            if (res.destroyed) {
              gz.destroy();
              return;
            }
            const n = Math.min(left, block.length);
            left -= n;
            if (!gz.write(n === block.length ? block : block.subarray(0, n))) {
              gz.once('drain', pump);
              return;
            }
          }
          gz.end();
        };
        res.on('close', () => gz.destroy());
        pump();
        return;
      }
      case 'lyingLength': {
        res.writeHead(200, {
          'content-type': behaviour.contentType ?? 'application/json',
          'content-length': String(behaviour.declared),
        });
        // Write straight to the socket so node's own length checks cannot correct the lie.
        res.flushHeaders();
        req.socket.write(Buffer.alloc(behaviour.actual, 0x61), () => req.socket.end());
        return;
      }
      case 'binary': {
        const data =
          behaviour.data ??
          Buffer.from(Array.from({ length: behaviour.bytes ?? 256 }, (_, i) => i % 256));
        sendBody(res, 200, { 'content-type': behaviour.contentType }, data);
        return;
      }
      case 'bigJson': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const pad = 'x'.repeat(Math.max(0, (behaviour.itemBytes ?? 100) - 30));
        let i = 0;
        const pump = (): void => {
          while (i < behaviour.items) {
            if (res.destroyed) return;
            const chunk = `${i === 0 ? '[' : ','}{"id":${i},"pad":"${pad}"}${i === behaviour.items - 1 ? ']' : ''}`;
            i++;
            if (!res.write(chunk)) {
              res.once('drain', pump);
              return;
            }
          }
          if (behaviour.items === 0) res.write('[]');
          res.end();
        };
        pump();
        return;
      }
      case 'sequence': {
        const n = counters.get(key) ?? 0;
        counters.set(key, n + 1);
        const step = behaviour.steps[Math.min(n, behaviour.steps.length - 1)];
        if (step === undefined) {
          sendBody(res, 500, {}, 'empty sequence');
          return;
        }
        play(step, req, res, rec, `${key}#${n}`);
        return;
      }
      case 'handler':
        behaviour.handle(req, res, rec);
        return;
    }
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const body = Buffer.concat(chunks);
      const rec: RecordedRequest = {
        method: req.method ?? 'GET',
        url,
        pathname: q === -1 ? url : url.slice(0, q),
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body,
        text: body.toString('utf8'),
        aborted: false,
      };
      requests.push(rec);
      res.on('close', () => {
        if (!res.writableFinished) rec.aborted = true;
      });
      const behaviour = routes.get(rec.pathname) ?? fallback;
      try {
        play(behaviour, req, res, rec, rec.pathname);
      } catch (err) {
        if (!res.headersSent) sendBody(res, 500, {}, `upstream helper error: ${String(err)}`);
        else res.destroy();
      }
    });
    req.on('error', () => undefined);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // Tests use small keep-alive pools; make sure a stalled server does not keep the process alive on close.
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    route: (pathname, behaviour) => {
      routes.set(pathname, behaviour);
      for (const k of [...counters.keys()]) if (k === pathname || k.startsWith(`${pathname}#`)) counters.delete(k);
    },
    setDefault: (behaviour) => {
      fallback = behaviour;
    },
    hits: (pathname) => requests.filter((r) => r.pathname === pathname),
    clear: () => {
      requests.length = 0;
      counters.clear();
    },
    close: async () => {
      for (const t of timers) clearInterval(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

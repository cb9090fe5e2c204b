// Node <-> fetch adapter for the SDK's web-standard Streamable HTTP transport: a node request becomes a fetch
// Request (the body is passed parsed, never re-read), and a fetch Response (JSON or an SSE stream) is written
// back with backpressure; a client that goes away cancels the stream. No MCP logic here.
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The node request as a fetch Request for the SDK's web-standard transports (the body is passed parsed). With a
 * signal, the SDK aborts the call when it fires (a 2026-07-28 client cancels by closing the connection).
 */
export function toWebRequest(req: IncomingMessage, pathAndQuery: string, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    else headers.set(k, v);
  }
  return new Request(`http://localhost${pathAndQuery}`, { method: req.method ?? 'GET', headers, ...(signal !== undefined ? { signal } : {}) });
}

/** Writes a fetch Response (JSON or an SSE stream) to the node response; a client that goes away cancels the stream. */
export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    headers[k] = v;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const onClose = () => void reader.cancel().catch(() => undefined);
  res.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off('drain', go);
            res.off('close', go);
            resolve();
          };
          res.once('drain', go);
          res.once('close', go);
        });
      }
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    res.off('close', onClose);
  }
}

// The 2026-07-28 leg of the HTTP endpoint: the SDK's createMcpHandler in strict mode (legacy: 'reject'; the
// legacy leg is ours), a fresh server instance per request, no session. The request's principal reaches the
// instance through the handler's pass-through authInfo; describe handles and signed confirmation state carry
// what a session used to, so any replica answers any request. The caller has done every HTTP check.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Logger } from '../../logger.js';
import type { Principal } from '../auth/index.js';
import { createServer, type ServerDeps } from '../create-server.js';
import { UNSUPPORTED_PROTOCOL_VERSION, withAllSupportedVersions } from '../eras.js';
import { toWebRequest, writeWebResponse } from './node-web.js';

export interface ModernLeg {
  serve(req: IncomingMessage, res: ServerResponse, principal: Principal, target: string, parsed: unknown): Promise<void>;
  close(): Promise<void>;
}

/** An UnsupportedProtocolVersionError answer (HTTP 400) rewritten to list every version we speak. */
async function widenVersionError(response: Response): Promise<Response> {
  if (response.status !== 400 || !(response.headers.get('content-type') ?? '').includes('application/json')) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, { status: response.status, headers: response.headers });
  }
  const code = (body as { error?: { code?: unknown } }).error?.code;
  const out = code === UNSUPPORTED_PROTOCOL_VERSION ? JSON.stringify(withAllSupportedVersions(body)) : text;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(out, { status: response.status, headers });
}

/** The modern leg over `deps` (state store, signer and read limit already set). */
export function createModernLeg(deps: ServerDeps, logger: Logger): ModernLeg {
  const handler: McpHttpHandler = createMcpHandler(
    ({ authInfo }) =>
      createServer({
        ...deps,
        era: 'modern',
        stateless: true,
        principal: authInfo?.clientId ?? 'anonymous',
        acceptSessionCredential: true,
      }).server,
    {
      legacy: 'reject',
      // Refusals of malformed 2026-07-28 requests (missing or mismatched Mcp-Method / Mcp-Name, a bad envelope):
      // answered by the SDK with the revision's error; noted here for operators.
      onerror: (error) => logger.log('info', { event: 'mcp_refused', era: 'modern', message: error.message.slice(0, 300) }),
    },
  );
  return {
    async serve(req, res, principal, target, parsed) {
      // A client that goes away cancels its call (the revision's cancellation over HTTP).
      const gone = new AbortController();
      const onClose = () => {
        if (!res.writableFinished) gone.abort();
      };
      res.once('close', onClose);
      try {
        const response = await handler.fetch(toWebRequest(req, target, gone.signal), {
          parsedBody: parsed,
          authInfo: { token: '', clientId: principal.id, scopes: principal.scopes ?? [] },
        });
        await writeWebResponse(res, await widenVersionError(response));
      } finally {
        res.off('close', onClose);
      }
    },
    close: () => handler.close(),
  };
}

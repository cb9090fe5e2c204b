// The 2026-07-28 leg of the HTTP endpoint: the SDK's createMcpHandler in strict mode (legacy: 'reject'; the
// legacy leg is ours), a fresh server instance per request, no session. The request's principal reaches the
// instance through the handler's pass-through authInfo; describe handles and signed confirmation state carry
// what a session used to, so any replica answers any request. The caller has done every HTTP check.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, type McpHttpHandler, type Server } from '@modelcontextprotocol/server';
import type { Logger } from '../../logger.js';
import type { Principal } from '../auth/index.js';
import { createServer, type ServerDeps } from '../create-server.js';
import type { CutOffCalls } from '../ops/cut-off-calls.js';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS, UNSUPPORTED_PROTOCOL_VERSION, withAllSupportedVersions, type Era } from '../eras.js';
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

/**
 * The era a request's headers claim: its MCP-Protocol-Version when it names one we speak, else a legacy session
 * id (Mcp-Session-Id) says legacy; undefined when they say neither.
 */
export function claimedEra(headers: IncomingHttpHeaders): Era | undefined {
  const header = headers['mcp-protocol-version'];
  const version = Array.isArray(header) ? header[0] : header;
  if (version !== undefined && MODERN_PROTOCOL_VERSIONS.includes(version)) return 'modern';
  if (version !== undefined && LEGACY_PROTOCOL_VERSIONS.includes(version)) return 'legacy';
  if (headers['mcp-session-id'] !== undefined) return 'legacy';
  return undefined;
}

/**
 * The modern leg over `deps` (state store, signer and read limit already set). `cutOff`: where each request in
 * flight is tracked, so that one still running when the shutdown grace ends is answered (ops/cut-off-calls.ts).
 */
export function createModernLeg(deps: ServerDeps, logger: Logger, cutOff?: CutOffCalls): ModernLeg {
  // The request being served: its era for the refusal log line (the SDK's onerror is one callback for every
  // request), and its server instance once made (its transport sends a shutdown answer).
  const current = new AsyncLocalStorage<{ era: Era; server?: Server }>();
  const handler: McpHttpHandler = createMcpHandler(
    ({ authInfo }) => {
      const { server } = createServer({
        ...deps,
        era: 'modern',
        stateless: true,
        principal: authInfo?.clientId ?? 'anonymous',
        acceptSessionCredential: true,
      });
      const request = current.getStore();
      if (request !== undefined) request.server = server;
      return server;
    },
    {
      legacy: 'reject',
      // Refusals of malformed 2026-07-28 requests (missing or mismatched Mcp-Method / Mcp-Name, a bad envelope):
      // answered by the SDK with the revision's error; noted here for operators, with the era the request's headers
      // claim (a body that is no JSON-RPC message comes here even from a legacy session).
      onerror: (error) => logger.log('info', { event: 'mcp_refused', era: current.getStore()?.era ?? 'modern', message: error.message.slice(0, 300) }),
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
      const request: { era: Era; server?: Server } = { era: claimedEra(req.headers) ?? 'modern' };
      // the per-request transport frames the answer (JSON, or the last event of an SSE response) and ends it
      const tracked = cutOff?.track(parsed, 'modern', res, (m) => {
        const transport = request.server?.transport;
        if (transport === undefined) throw new Error('no server instance yet, or its exchange is over');
        return transport.send(m);
      });
      const dispatch = () =>
        handler.fetch(toWebRequest(req, target, gone.signal), {
          parsedBody: parsed,
          authInfo: { token: '', clientId: principal.id, scopes: principal.scopes ?? [] },
        });
      try {
        const response = await current.run(request, () => (tracked !== undefined ? tracked.run(dispatch) : dispatch()));
        await writeWebResponse(res, await widenVersionError(response));
      } finally {
        res.off('close', onClose);
        tracked?.untrack();
      }
    },
    close: () => handler.close(),
  };
}

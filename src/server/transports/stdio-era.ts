// The era rules of one stdio connection after its opening message. The SDK's serveStdio classifies only the opening
// message and pins one instance of that era for the life of the process; everything after goes straight through.
// Here each later request is held to the connection's era, and worded as the HTTP leg words the same fault:
// - a 2026-07-28 connection: a malformed envelope gets the SDK classifier's -32602 naming the key (`data.envelope`),
//   the answer the opening request and HTTP give; a request without the envelope gets -32602 naming the missing keys;
//   a version we do not speak gets -32022 (`data.supported`, `data.requested`). "The server accepts or rejects each
//   request independently" (basic/versioning.mdx).
// - a handshake connection: a request whose `_meta` claims a protocol version is refused (-32600), as HTTP refuses a
//   2026-07-28 body inside a legacy session, instead of being served under the handshake's rules with its declared
//   capabilities ignored.
// - an `initialize` on a 2026-07-28 connection (the SDK's refusal, -32022): its message says why and what to do.
// A refused request is not delivered; a refused notification is dropped (nobody waits for an answer to it).
// Only the stdio path (transports/stdio.ts) uses this module.
import type { JSONRPCMessage, Server, Transport } from '@modelcontextprotocol/server';
import { classifyInboundRequest, PROTOCOL_VERSION_META_KEY, ProtocolErrorCode, UnsupportedProtocolVersionError } from '@modelcontextprotocol/server';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS, UNSUPPORTED_PROTOCOL_VERSION, type Era } from '../eras.js';

/** A JSON-RPC error to answer a request with instead of serving it. */
export interface Refusal {
  code: number;
  message: string;
  data?: unknown;
}

type Message = { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };

const MODERN = MODERN_PROTOCOL_VERSIONS[0] as string;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `_meta` object of a message's params, when there is one. */
function metaOf(message: Message): Record<string, unknown> | undefined {
  const meta = isObject(message.params) ? message.params._meta : undefined;
  return isObject(meta) ? meta : undefined;
}

/**
 * Why a message delivered to a 2026-07-28 instance must not be served (undefined: serve it). The envelope checks are
 * the SDK's own classifier, the one its HTTP entry runs, so the words and `data` are HTTP's. A response (an answer of
 * the client) and a notification without a version claim (a cancellation without `_meta`) go through.
 */
export function modernRefusal(message: JSONRPCMessage): Refusal | undefined {
  const m = message as Message;
  if (typeof m.method !== 'string') return undefined;
  const outcome = classifyInboundRequest({ httpMethod: 'POST', body: message });
  if (outcome.kind === 'reject') return { code: outcome.code, message: outcome.message, ...(outcome.data !== undefined ? { data: outcome.data } : {}) };
  if (outcome.kind === 'legacy') {
    if (m.id === undefined) return undefined;
    // What the HTTP leg answers the same request sent with a 2026-07-28 MCP-Protocol-Version header; here the
    // connection's era stands where the header does.
    const asHttp = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: MODERN, body: message });
    const named = asHttp.kind === 'reject' ? (asHttp.data as { envelope?: { missing?: unknown } } | undefined)?.envelope?.missing : undefined;
    const missing = Array.isArray(named) && named.length > 0 ? (named as string[]) : ['_meta'];
    return {
      code: ProtocolErrorCode.InvalidParams,
      message: `Invalid params: this connection speaks protocol revision ${MODERN} (its opening request chose it), but the request is missing the required per-request envelope key(s): ${missing.join(', ')}`,
      data: { envelope: { missing } },
    };
  }
  const requested = metaOf(m)?.[PROTOCOL_VERSION_META_KEY];
  if (typeof requested === 'string' && !MODERN_PROTOCOL_VERSIONS.includes(requested)) {
    const error = new UnsupportedProtocolVersionError({ supported: [...MODERN_PROTOCOL_VERSIONS], requested });
    return { code: error.code, message: error.message, data: error.data };
  }
  return undefined;
}

/**
 * Why a message delivered to a handshake-era instance must not be served: it claims a protocol version in its `_meta`
 * (the SDK's claim rule: the key is present, whatever its value). `negotiated`: the version the connection's last
 * `initialize` settled on, if one did (a connection may open with a request that carries no envelope and no handshake).
 */
export function legacyRefusal(message: JSONRPCMessage, negotiated: string | undefined): Refusal | undefined {
  const m = message as Message;
  const meta = metaOf(m);
  if (typeof m.method !== 'string' || meta === undefined || !(PROTOCOL_VERSION_META_KEY in meta)) return undefined;
  const value = meta[PROTOCOL_VERSION_META_KEY];
  const claimed = (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))).slice(0, 40);
  const connection =
    negotiated !== undefined
      ? `this connection negotiated ${negotiated} with initialize`
      : 'this connection speaks the handshake era (its opening request carried no 2026-07-28 envelope)';
  const body = `the body envelope names protocol version ${claimed} but ${connection}`;
  return {
    code: ProtocolErrorCode.InvalidRequest,
    message:
      `Invalid Request: the connection and the request body disagree: ${body}. On this connection send requests without ` +
      `the _meta key ${PROTOCOL_VERSION_META_KEY}; for ${MODERN}, start a new server process and open it with a ${MODERN} request`,
    data: { mismatch: { connection: negotiated ?? 'handshake', body } },
  };
}

/**
 * The SDK's refusal of an `initialize` on a 2026-07-28 connection (-32022), with a message that says why and what to
 * do; any other message as is. The code and `data` stay the SDK's (`data.supported` lists what this connection's
 * requests may claim).
 */
export function withInitializeRefusal<T>(message: T): T {
  const m = message as { error?: { code?: unknown; message?: unknown; data?: { requested?: unknown } } } | null;
  if (m === null || typeof m !== 'object' || m.error?.code !== UNSUPPORTED_PROTOCOL_VERSION) return message;
  const requested = m.error.data?.requested;
  const asked = typeof requested === 'string' ? ` ${JSON.stringify(requested.slice(0, 40))}` : '';
  const text =
    `Unsupported protocol version${asked} on this connection: it speaks ${MODERN} (every request carrying its _meta), ` +
    `chosen by its opening request, and a stdio connection keeps that era for the life of the server process. The ` +
    `initialize handshake (${LEGACY_PROTOCOL_VERSIONS.join(', ')}) needs a new server process: start one and send ` +
    `initialize as its first message`;
  return { ...m, error: { ...m.error, message: text } } as T;
}

/**
 * Holds every request delivered to `server` (an instance serveStdio pinned for `era`) to the connection's era:
 * refused ones get their error answer and are not delivered. `onerror` sees each refusal (the log's
 * `stdio_bad_message`).
 */
export function checkEachRequest(server: Server, era: Era, onerror?: (error: Error) => void): void {
  const connect = server.connect.bind(server);
  server.connect = async (channel: Transport) => {
    await connect(channel);
    // A handshake connection: the version its last initialize settled on, read from the answer.
    let negotiated: string | undefined;
    const initializes = new Set<unknown>();
    if (era === 'legacy') {
      const send = channel.send.bind(channel);
      channel.send = (message, options) => {
        const answer = message as Message;
        if (answer.method === undefined && initializes.delete(answer.id)) {
          const version = isObject(answer.result) ? answer.result.protocolVersion : undefined;
          if (typeof version === 'string') negotiated = version;
        }
        return send(message, options);
      };
    }
    // The entry's channel calls `onmessage` as it is when a message arrives: wrap what connect() installed.
    const deliver = channel.onmessage;
    channel.onmessage = (message, extra) => {
      const refusal = era === 'modern' ? modernRefusal(message) : legacyRefusal(message, negotiated);
      const { id, method } = message as Message;
      if (refusal === undefined) {
        if (method === 'initialize' && id !== undefined) initializes.add(id);
        deliver?.(message, extra);
        return;
      }
      onerror?.(new Error(`Refused ${id === undefined ? 'a notification' : 'a request'} (${String(method).slice(0, 60)}): ${refusal.message}`));
      if (id === undefined) return;
      void channel
        .send({ jsonrpc: '2.0', id: id as string | number, error: refusal })
        .catch((e: unknown) => onerror?.(e instanceof Error ? e : new Error(String(e))));
    };
  };
}

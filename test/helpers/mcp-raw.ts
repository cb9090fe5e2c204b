// A minimal MCP session over raw fetch, pointed at any URL per request: so a test can send initialize to one
// replica and the next request to another, and see HTTP statuses the SDK client hides. Test-only.
export interface RawSession {
  id: string;
  protocol: string;
}

export interface RpcReply {
  status: number;
  headers: Headers;
  /** The JSON-RPC message (JSON body or the first SSE data event); undefined for 202 and empty bodies. */
  msg?: any;
}

const ACCEPT = 'application/json, text/event-stream';

export async function rpc(url: string, session: RawSession | undefined, body: unknown, extra: Record<string, string> = {}): Promise<RpcReply> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: ACCEPT, ...extra };
  if (session) {
    headers['mcp-session-id'] = session.id;
    headers['mcp-protocol-version'] = session.protocol;
  }
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  let msg: any;
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const line = text.split('\n').find((l) => l.startsWith('data:') && l.length > 6);
    msg = line ? JSON.parse(line.slice(5)) : undefined;
  } else if (text !== '') {
    msg = JSON.parse(text);
  }
  return { status: res.status, headers: res.headers, msg };
}

/** initialize + notifications/initialized (each may go to a different URL). */
export async function openSession(initUrl: string, notifyUrl = initUrl, extra: Record<string, string> = {}): Promise<RawSession> {
  const r = await rpc(initUrl, undefined, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  }, extra);
  if (r.status !== 200) throw new Error(`initialize: HTTP ${r.status} ${JSON.stringify(r.msg)}`);
  const session = { id: r.headers.get('mcp-session-id') as string, protocol: r.msg.result.protocolVersion as string };
  const n = await rpc(notifyUrl, session, { jsonrpc: '2.0', method: 'notifications/initialized' }, extra);
  if (n.status !== 202) throw new Error(`notifications/initialized: HTTP ${n.status} ${JSON.stringify(n.msg)}`);
  return session;
}

let nextId = 100;
/** tools/call; returns the HTTP status and the envelope (structuredContent) when there is one. */
export async function callTool(url: string, session: RawSession, name: string, args: Record<string, unknown>, extra: Record<string, string> = {}): Promise<{ status: number; envelope?: any; isError?: boolean; msg?: any }> {
  const r = await rpc(url, session, { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } }, extra);
  return { status: r.status, envelope: r.msg?.result?.structuredContent, isError: r.msg?.result?.isError, msg: r.msg };
}

export async function deleteSession(url: string, session: RawSession, extra: Record<string, string> = {}): Promise<number> {
  const res = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session.id, 'mcp-protocol-version': session.protocol, ...extra } });
  await res.text();
  return res.status;
}

/**
 * One 2026-07-28 request over raw fetch: the per-request _meta envelope and the standard headers
 * (MCP-Protocol-Version, Mcp-Method, Mcp-Name) a conforming client sends; `override` replaces or drops headers.
 */
export async function modernRpc(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  options: { capabilities?: Record<string, unknown>; version?: string; override?: Record<string, string | undefined>; id?: number; headers?: Record<string, string> } = {},
): Promise<RpcReply> {
  const version = options.version ?? '2026-07-28';
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {},
  };
  const headers: Record<string, string> = { ...options.headers, 'mcp-protocol-version': version, 'mcp-method': method, ...(name !== undefined ? { 'mcp-name': name } : {}) };
  for (const [k, v] of Object.entries(options.override ?? {})) {
    if (v === undefined) delete headers[k.toLowerCase()];
    else headers[k.toLowerCase()] = v;
  }
  return rpc(url, undefined, { jsonrpc: '2.0', id: options.id ?? nextId++, method, params: { ...params, _meta: { ...(params._meta as Record<string, unknown> | undefined), ...meta } } }, headers);
}

/** tools/call in the 2026-07-28 era; returns the HTTP status, the envelope and the whole result (input_required too). */
export async function modernCall(
  url: string,
  name: string,
  args: Record<string, unknown>,
  options: { headers?: Record<string, string>; capabilities?: Record<string, unknown>; inputResponses?: Record<string, unknown>; requestState?: string } = {},
): Promise<{ status: number; envelope?: any; result?: any; msg?: any }> {
  const params: Record<string, unknown> = { name, arguments: args };
  if (options.inputResponses !== undefined) params.inputResponses = options.inputResponses;
  if (options.requestState !== undefined) params.requestState = options.requestState;
  const r = await modernRpc(url, 'tools/call', params, { ...(options.headers ? { headers: options.headers } : {}), ...(options.capabilities ? { capabilities: options.capabilities } : {}) });
  return { status: r.status, envelope: r.msg?.result?.structuredContent, result: r.msg?.result, msg: r.msg };
}

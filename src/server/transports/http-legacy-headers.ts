// The 2026-07-28 standard headers (Mcp-Method, Mcp-Name: SEP-2243) on a legacy request. The SDK checks them against
// the body only on the modern leg; a legacy client has no reason to send them, but one that does (a buggy client or
// proxy) must not have a balancer that routes on them (deploy/haproxy.cfg: the backend that re-sends reads after a
// replica died mid-answer) see a read where the body asks for something else. So a legacy request whose headers,
// when present, disagree with its body gets the answer the modern leg gives: 400, -32020 (HeaderMismatch),
// `data.mismatch` naming the pair. Absent headers are never required of a legacy request.
import type { IncomingHttpHeaders } from 'node:http';
import { isJSONRPCNotification, isJSONRPCRequest } from '@modelcontextprotocol/server';

/** The revision's HeaderMismatch error code (HTTP 400), as the SDK answers it on the modern leg. */
export const HEADER_MISMATCH = -32020;

/** Which body field a method's Mcp-Name header mirrors (the SDK's MCP_NAME_HEADER_SOURCE). */
const NAME_SOURCE: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const BASE64_PREFIX = '=?base64?';
const BASE64_SUFFIX = '?=';
const BASE64_CANONICAL = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A header's value as the SDK compares it: one string (repeated headers joined, as Node joins them), OWS stripped. */
function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  if (raw === undefined) return undefined;
  return (Array.isArray(raw) ? raw.join(', ') : raw).replace(/^[ \t]+|[ \t]+$/g, '');
}

/** An Mcp-Name value: its `=?base64?…?=` form decoded (UTF-8); undefined when that form is malformed. */
function decodeName(value: string): string | undefined {
  if (!(value.startsWith(BASE64_PREFIX) && value.endsWith(BASE64_SUFFIX))) return value;
  const b64 = value.slice(BASE64_PREFIX.length, value.length - BASE64_SUFFIX.length);
  if (!BASE64_CANONICAL.test(b64)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(b64, 'base64'));
  } catch {
    return undefined;
  }
}

export interface HeaderMismatch {
  /** The header's value as received (or what it lacks), cut short. */
  header: string;
  /** What disagrees, in words. */
  body: string;
}

/**
 * How a legacy request's Mcp-Method / Mcp-Name headers disagree with its body (`message`, the parsed POST body);
 * undefined when they agree or are absent. Mcp-Method must name the body's method (a body with none, a response,
 * disagrees); Mcp-Name must name the field its method mirrors (`params.name` of tools/call, `params.uri` of
 * resources/read, ...): one on a body that carries no such value names something the request does not do.
 */
export function legacyHeaderMismatch(headers: IncomingHttpHeaders, message: unknown): HeaderMismatch | undefined {
  const methodHeader = headerValue(headers, 'mcp-method');
  const nameHeader = headerValue(headers, 'mcp-name');
  if (methodHeader === undefined && nameHeader === undefined) return undefined;
  const method = isJSONRPCRequest(message) || isJSONRPCNotification(message) ? message.method : undefined;
  if (methodHeader !== undefined && methodHeader !== method) {
    const said = method === undefined ? 'the body is no JSON-RPC request or notification (it names no method)' : `the body names method ${method}`;
    return { header: methodHeader.slice(0, 100), body: `${said} but the Mcp-Method header names ${methodHeader.slice(0, 100)}` };
  }
  if (nameHeader === undefined) return undefined;
  const decoded = decodeName(nameHeader);
  if (decoded === undefined) return { header: nameHeader.slice(0, 100), body: 'the Mcp-Name header carries an invalid Base64 sentinel value' };
  const field = method !== undefined && Object.hasOwn(NAME_SOURCE, method) ? NAME_SOURCE[method] : undefined;
  const params = isJSONRPCRequest(message) ? (message.params as Record<string, unknown> | undefined) : undefined;
  const value = field !== undefined ? params?.[field] : undefined;
  if (typeof value !== 'string') {
    const what = field === undefined ? `method ${method ?? '(none)'} names nothing an Mcp-Name header mirrors` : `the body carries no params.${field}`;
    return { header: nameHeader.slice(0, 100), body: `${what} but the Mcp-Name header names "${decoded.slice(0, 100)}"` };
  }
  if (decoded !== value) return { header: nameHeader.slice(0, 100), body: `the body carries params.${field}="${value.slice(0, 100)}" but the Mcp-Name header names "${decoded.slice(0, 100)}"` };
  return undefined;
}

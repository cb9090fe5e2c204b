// `server/discover` answered without loading the MCP SDK, for the stdio probe of a v2 client pinned to 2026-07-28
// or in `auto` mode: it spawns a process only to ask this, then disposes of it and spawns the real session. The
// answer is the full server's for the same configuration (test/startup/probe.test.ts compares them), so only a
// request in the probe's exact shape qualifies; anything else is left to the full server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../registry/catalog.js';
import { toolNames } from './core/names.js';
import { workflowText } from './surface.js';

/** The revision a probe may ask about (what the full server's `server/discover` advertises). */
const MODERN_VERSION = '2026-07-28';
const META = 'io.modelcontextprotocol/';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The JSON-RPC answer line (without the newline) to `line` when it is a well-formed 2026-07-28 `server/discover`
 * request as SDK clients send it (protocol version, client info and capabilities in `_meta`, no other params);
 * else undefined. `prefix` is the tool-name prefix the instructions name the tools with; `requireDescribe` whether
 * they say that execute_tool needs a describe first (both as the full server is configured; defaults: '', true).
 */
export function discoverAnswer(line: string, prefix = '', requireDescribe = true): string | undefined {
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(msg) || msg.jsonrpc !== '2.0' || msg.method !== 'server/discover') return undefined;
  const id = msg.id;
  if (!((typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isInteger(id)))) return undefined;
  const params = msg.params;
  if (!isObject(params) || Object.keys(params).some((k) => k !== '_meta') || !isObject(params._meta)) return undefined;
  const meta = params._meta;
  const info = meta[`${META}clientInfo`];
  if (meta[`${META}protocolVersion`] !== MODERN_VERSION || !isObject(meta[`${META}clientCapabilities`])) return undefined;
  if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') return undefined;
  const result = {
    supportedVersions: [MODERN_VERSION],
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
    instructions: workflowText(toolNames(prefix), { requireDescribe }),
    resultType: 'complete',
    ttlMs: 3_600_000,
    cacheScope: 'public',
    _meta: { [`${META}serverInfo`]: { name: 'api-catalog', version: packageVersion() } },
  };
  return JSON.stringify({ result, jsonrpc: '2.0', id });
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

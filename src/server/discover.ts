// `server/discover` answered without loading the MCP SDK, for the stdio probe of a v2 client pinned to 2026-07-28
// or in `auto` mode: it spawns a process only to ask this, then disposes of it and spawns the real session. The
// answer is the full server's for the same configuration (test/startup/probe.test.ts compares them), so only a
// request in the probe's exact shape qualifies, its envelope valid by the rules the full server checks it with (the
// SDK's 2026-07-28 envelope schema, mirrored below for the keys SDK clients send); anything else, an envelope the full
// server would refuse included, is left to the full server, which answers it as it answers any request.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../registry/catalog.js';
import { toolNames } from './core/names.js';
import { workflowText } from './surface.js';

/** The revision a probe may ask about (what the full server's `server/discover` advertises). */
const MODERN_VERSION = '2026-07-28';
const META = 'io.modelcontextprotocol/';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isOptional = (v: unknown, test: (v: unknown) => boolean): boolean => v === undefined || test(v);
const isString = (v: unknown): boolean => typeof v === 'string';
const isBoolean = (v: unknown): boolean => typeof v === 'boolean';
/** Every key of `v` is one of `keys`. */
const only = (v: Record<string, unknown>, keys: readonly string[]): boolean => Object.keys(v).every((k) => keys.includes(k));
/** A JSON object whose every value is a JSON object (the schema's record of objects: `experimental`, `extensions`). */
const isRecordOfObjects = (v: unknown): boolean => isObject(v) && Object.values(v).every(isObject);

const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** `clientInfo` as the schema's Implementation takes it, without `icons` (a client with icons goes to the full server). */
function isClientInfo(v: unknown): boolean {
  if (!isObject(v) || !only(v, ['name', 'version', 'title', 'description', 'websiteUrl'])) return false;
  return Object.values(v).every(isString) && isString(v.name) && isString(v.version);
}

/**
 * `clientCapabilities` as the 2026-07-28 schema takes them, for the capabilities it names (any other key: not here,
 * though the schema would drop it). The full server refuses, with -32602, any value of these that breaks them.
 */
function isClientCapabilities(v: unknown): boolean {
  if (!isObject(v) || !only(v, ['experimental', 'sampling', 'elicitation', 'roots', 'extensions'])) return false;
  const { experimental, sampling, elicitation, roots, extensions } = v;
  return (
    isOptional(experimental, isRecordOfObjects) &&
    isOptional(extensions, isRecordOfObjects) &&
    isOptional(sampling, (s) => isObject(s) && isOptional(s.context, isObject) && isOptional(s.tools, isObject)) &&
    isOptional(roots, (r) => isObject(r) && isOptional(r.listChanged, isBoolean)) &&
    isOptional(elicitation, (e) => isObject(e) && isOptional(e.url, isObject) && isOptional(e.form, (f) => isObject(f) && isOptional(f.applyDefaults, isBoolean)))
  );
}

/** A 2026-07-28 `_meta` envelope the full server accepts, with only the keys SDK clients send. */
function isProbeEnvelope(meta: Record<string, unknown>): boolean {
  return (
    only(meta, [`${META}protocolVersion`, `${META}clientInfo`, `${META}clientCapabilities`, `${META}logLevel`]) &&
    meta[`${META}protocolVersion`] === MODERN_VERSION &&
    isClientInfo(meta[`${META}clientInfo`]) &&
    isClientCapabilities(meta[`${META}clientCapabilities`]) &&
    isOptional(meta[`${META}logLevel`], (l) => typeof l === 'string' && LOG_LEVELS.includes(l))
  );
}

/**
 * The JSON-RPC answer line (without the newline) to `line` when it is a well-formed 2026-07-28 `server/discover`
 * request as SDK clients send it (protocol version, client info and capabilities in `_meta`, perhaps a log level, no
 * other params), with an envelope the full server accepts; else undefined. `prefix` is the tool-name prefix the
 * instructions name the tools with; `requireDescribe` whether they say that execute_tool needs a describe first (both
 * as the full server is configured; defaults: '', true).
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
  if (!isProbeEnvelope(params._meta)) return undefined;
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

// What every MCP server instance of the process shares and need not rebuild: the package version, the SDK's schema
// validator (built on first use), the cache hints of the lists, and the shapes of a tool result.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult, ServerOptions, jsonSchemaValidator } from '@modelcontextprotocol/server';
import type { AppError } from '../errors.js';
import { sha256Hex } from '../crypto.js';
import { packageRoot } from '../registry/catalog.js';
import { fail, type Envelope } from './core/envelope.js';

function packageVersion(): string {
  try {
    // From the package root, not relative to this file: the bundled build moves modules into dist/cli/chunks/.
    return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
/** This package's version (build info in /metrics; the server's implementation version). */
export const SERVER_VERSION = packageVersion();

// The SDK validates elicitation answers with Ajv and would build a new Ajv for every instance at construction;
// one shared instance, built on the first use, keeps start-up and every per-request instance cheap. In the bundle,
// the SDK's own default (imported at load) is replaced by scripts/postbuild.mjs with one that requires Ajv only
// when it is constructed, which this validator never asks for before a schema needs checking.
let sdkAjv: jsonSchemaValidator | undefined;
export const lazySchemaValidator: jsonSchemaValidator = {
  getValidator: (schema) => {
    sdkAjv ??= new (createRequire(import.meta.url)('@modelcontextprotocol/server/validators/ajv') as {
      AjvJsonSchemaValidator: new () => jsonSchemaValidator;
    }).AjvJsonSchemaValidator();
    return sdkAjv.getValidator(schema);
  },
};

/** Our four tools and the resource template are the same for every client: lists are cacheable by anyone for an hour. */
export const CACHE_HINTS: ServerOptions['cacheHints'] = {
  'tools/list': { ttlMs: 3_600_000, cacheScope: 'public' },
  'resources/templates/list': { ttlMs: 3_600_000, cacheScope: 'public' },
  'server/discover': { ttlMs: 3_600_000, cacheScope: 'public' },
  // Stored results are the caller's own, and reading tool_descriptions authorizes: never shared, never reused.
  'resources/list': { ttlMs: 0, cacheScope: 'private' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
};

/** A result that carries the envelope as structuredContent and as JSON text; failures set isError. */
export function toCallToolResult(envelope: Envelope): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(envelope) }],
    structuredContent: envelope as unknown as Record<string, unknown>,
    isError: !envelope.success,
  };
}

/** How long an agent-supplied idempotency key stays claimed at most (longer than any upstream deadline). */
export const IDEMPOTENCY_CLAIM_MS = 5 * 60_000;

/** The state store cannot be reached: fail closed with a retry instruction (RELIABILITY B6). */
export function stateUnavailableEnvelope(tool: string, err: AppError): Envelope {
  return fail(tool, 'STATE_UNAVAILABLE', err.message, 'Nothing was executed. Retry the same call in a few seconds; if it keeps failing, tell the user the server\'s state store (Redis) is down.');
}

/** A short, non-reversible tag of a session id for logs (the id itself is a bearer secret on HTTP). */
export function sessionTag(id: string): string {
  return sha256Hex(id).slice(0, 10);
}

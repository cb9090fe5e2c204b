// What a dry run's shareable address may hold. A dry run has an address (`/?tool=…&args=<json>`) that can be
// bookmarked and sent to someone; it must never carry a credential. Before a dry run is answered, credential-shaped
// values (by pattern, the server's own credential values, and everything under a credential-named argument) are
// replaced, in argument names as in values, and the browser is sent to the cleaned address. Nothing here touches the
// network.
import { secretLookingEnv } from '../../config.js';
import { redactSecretPatterns } from '../../logger.js';
import { resolveRef } from '../../schema/refs.js';
import type { JsonSchema } from '../../types.js';
import type { ExecutionSettings } from '../core/catalogs.js';

/** What replaces a credential in a shared dry-run address. */
export const REDACTED = '[REDACTED]';

/**
 * Argument names whose values are credentials, whatever they look like (`api_key`, `password`, `client_secret`,
 * `private_key`, `passphrase`); tested on the name with camelCase split (`clientSecret` reads as `client_Secret`).
 */
const CREDENTIAL_NAME = /(^|[_-])(authorization|token|secret|password|passwd|passphrase|private[_-]?key|api[_-]?key|apikey|credentials?|cookie)$/i;

/** Whether an argument's name says it holds a credential. */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2'));
}

/**
 * The values of this server's own credentials: every environment variable whose name looks like one, and every
 * variable the config file names as a catalog's credential (those may have any name).
 */
export function serverSecrets(settings: ExecutionSettings): string[] {
  const env = settings.env ?? {};
  const named = Object.values(settings.catalogs ?? {}).flatMap((c) => Object.values(c.credentials ?? {}));
  const values = [...secretLookingEnv(env), ...named.map((n) => (typeof n === 'string' ? env[n] : undefined))];
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.length >= 6))].sort((a, b) => b.length - a.length);
}

/** A value the page itself put in the form (a placeholder, or the spec's own example) and no server secret. */
function isPublic(s: string, key: string | undefined, secrets: readonly string[], allowed: ReadonlySet<string>): boolean {
  return (s === `<${key}>` || allowed.has(s)) && !secrets.some((secret) => s.includes(secret));
}

/** Replaces the server's secrets; then, unless `encoded` (base64 content, see below), credential-shaped text too. */
function cleanString(s: string, secrets: readonly string[], allowed: ReadonlySet<string> = NONE, key?: string, encoded = false): string {
  if (isPublic(s, key, secrets, allowed)) return s;
  let out = s;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return encoded ? out : redactSecretPatterns(out, REDACTED);
}

const NONE: ReadonlySet<string> = new Set();

/** A schema node with its local `$ref`s (`#/$defs/X`, as the registry writes them) followed (execution's resolveRef). */
export function resolvedSchema(schema: JsonSchema | undefined, root: JsonSchema | undefined): Exclude<JsonSchema, boolean> | undefined {
  if (root === undefined || typeof root !== 'object') return undefined;
  return resolveRef(root, schema) as Exclude<JsonSchema, boolean> | undefined;
}

/** The schema of a property or of an array's items, or undefined when the schema does not say. */
function childSchema(schema: Exclude<JsonSchema, boolean> | undefined, key: string | number, root: JsonSchema | undefined): Exclude<JsonSchema, boolean> | undefined {
  if (schema === undefined) return undefined;
  if (typeof key === 'number') return resolvedSchema(schema.items as JsonSchema | undefined, root);
  const props = schema.properties;
  return props !== null && typeof props === 'object' && Object.hasOwn(props, key) ? resolvedSchema((props as Record<string, JsonSchema>)[key], root) : undefined;
}

/**
 * Whether a string argument holds encoded content (a file, an image): OpenAPI's `format: byte`, JSON Schema's
 * `contentEncoding: base64`, or a description that says Base64 (GitHub's file `content`, `sarif`). Such text is
 * long and random-looking by nature, so the token patterns would take it for a credential and the operation could
 * not be dry-run with real data; only the server's own secrets are replaced in it.
 */
function isEncodedContent(schema: Exclude<JsonSchema, boolean> | undefined): boolean {
  if (schema === undefined || (schema.type !== undefined && schema.type !== 'string')) return false;
  return (
    schema.format === 'byte' ||
    (typeof schema.contentEncoding === 'string' && schema.contentEncoding.toLowerCase() === 'base64') ||
    (typeof schema.description === 'string' && /\bbase-?64\b/i.test(schema.description))
  );
}

interface Walk {
  secrets: readonly string[];
  allowed: ReadonlySet<string>;
  /** The operation's input schema (the root for `$ref`s), when known. */
  root: JsonSchema | undefined;
}

/** An argument name as an address may hold it: the server's secrets and credential-shaped text taken out. */
function cleanKey(key: string, w: Walk): string {
  return cleanString(key, w.secrets);
}

/**
 * Everything under a credential-named argument: every non-empty string or number (a PIN, a numeric password, an
 * array of tokens, `{"value": "…"}`) is replaced; booleans and null say nothing and stay. What the page filled in
 * (its placeholder, the spec's examples) stays too.
 */
function redactAll(value: unknown, w: Walk, key: string): unknown {
  if (typeof value === 'string') return value === '' || value === REDACTED || isPublic(value, key, w.secrets, w.allowed) ? value : REDACTED;
  if (typeof value === 'number') return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactAll(v, w, key));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [cleanKey(k, w), redactAll(v, w, k)]));
}

function cleanValue(value: unknown, w: Walk, key: string | undefined, schema: Exclude<JsonSchema, boolean> | undefined): unknown {
  if (typeof value === 'string') return cleanString(value, w.secrets, w.allowed, key, isEncodedContent(schema));
  if (Array.isArray(value)) return value.map((v, i) => cleanValue(v, w, key, childSchema(schema, i, w.root)));
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties, so a `__proto__` key stays a key
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [cleanKey(k, w), isCredentialName(k) ? redactAll(v, w, k) : cleanValue(v, w, k, childSchema(schema, k, w.root))]),
  );
}

/**
 * The arguments text as a shared address may hold it: unchanged when it holds no credential, else with each one
 * replaced by {@link REDACTED} (JSON re-serialized compactly; text that is not JSON is cleaned as text). What the page
 * pre-fills is left alone, so its own example never trips this: a placeholder for the argument's own name
 * (`"access_token": "<access_token>"`) and the strings of the operation's published examples (`allowed`; the spec's
 * sample token, a base64 SARIF file), unless one holds a secret of this server. With the operation's input schema
 * (`inputSchema`), arguments that hold encoded content (base64) are not searched for token patterns.
 */
export function shareableArgs(
  text: string,
  secrets: readonly string[],
  allowed: ReadonlySet<string> = NONE,
  inputSchema?: JsonSchema,
): { text: string; changed: boolean } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const cleaned = cleanString(text, secrets);
    return { text: cleaned, changed: cleaned !== text };
  }
  const cleaned = cleanValue(parsed, { secrets, allowed, root: inputSchema }, undefined, resolvedSchema(inputSchema, inputSchema));
  if (JSON.stringify(cleaned) === JSON.stringify(parsed)) return { text, changed: false };
  return { text: JSON.stringify(cleaned), changed: true };
}

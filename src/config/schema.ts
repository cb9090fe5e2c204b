// The config file as one zod schema: per-catalog sections, the top-level blockPrivateAddresses, and the `serve`
// section generated from SERVE_OPTIONS. Validation, error messages ("<key> <why>") and docs/config.schema.json
// (`npm run config-schema`) all come from it. No I/O here; src/config.ts reads the file.
import * as z from 'zod';
import { closest } from '../did-you-mean.js';
import { SERVE_OPTIONS, type OptionSpec } from './options.js';

/** An environment variable NAME: upper case, digits and `_` (a lower-case token such as `sk_live_…` is refused). */
const ENV_NAME_RE = /^[A-Z_][A-Z0-9_]{0,127}$/;
/** An RFC 9110 field-name token. */
const HEADER_NAME_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
/** Headers the transport or the credentials own; an idempotency header cannot be one of them. */
const RESERVED_IDEMPOTENCY_HEADERS = new Set([
  'authorization', 'proxy-authorization', 'cookie', 'host', 'content-type', 'content-length', 'accept',
  'transfer-encoding', 'connection', 'user-agent',
]);

/** Marks an unknown-key message; formatIssue turns it into "<key> is not a known key (allowed[ in <where>]: …)". */
const UNKNOWN = 'unknown-key:';

/** A closed object: unknown keys are refused listing the allowed ones; a non-object gets `notObject`. */
function closed<S extends z.ZodRawShape>(shape: S, notObject: string) {
  const allowed = Object.keys(shape).join(', ');
  return z.strictObject(shape, { error: (iss) => (iss.code === 'unrecognized_keys' ? `${UNKNOWN}${allowed}` : notObject) });
}

const quoted = (v: string): string => JSON.stringify(v.slice(0, 200));

const baseUrl = z.string({ error: 'must be a string like "https://api.example.com/v1"' }).superRefine((raw, ctx) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    ctx.addIssue({ code: 'custom', message: `${quoted(raw)} is not a URL; give e.g. "https://api.example.com/v1"` });
    return;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') ctx.addIssue({ code: 'custom', message: `must be http(s), got ${url.protocol}` });
  else if (url.username !== '' || url.password !== '') {
    ctx.addIssue({ code: 'custom', message: 'must not carry credentials (user:password@); name the credential env vars under "credentials"' });
  }
});

/** An exact origin, normalized to `scheme://host[:port]` (F9: no userinfo, no path). */
const origin = z
  .string({ error: 'must be a string like "https://uploads.example.com"' })
  .transform((raw, ctx) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: `${quoted(raw)} is not a URL; give an origin like "https://uploads.example.com"` });
      return z.NEVER;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') ctx.addIssue({ code: 'custom', message: `must be http(s), got ${url.protocol}` });
    else if (url.username !== '' || url.password !== '') {
      ctx.addIssue({ code: 'custom', message: 'must not carry userinfo (user:password@); give only scheme://host[:port]' });
    } else if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || /[?#]/.test(raw)) {
      ctx.addIssue({ code: 'custom', message: `${quoted(raw)} must be an origin (scheme://host[:port]) without a path, query or fragment` });
    } else return url.origin;
    return z.NEVER;
  });

// The value is never echoed: if it is not a name it may well be the secret itself.
const envName = z
  .string({
    error:
      'must be the NAME of an environment variable (A-Z, 0-9, _; e.g. "STRIPE_SECRET_KEY"), never the secret itself; the value given is not shown. Put the secret in that environment variable',
  })
  .regex(ENV_NAME_RE, {
    error:
      'must be the NAME of an environment variable (A-Z, 0-9, _; e.g. "STRIPE_SECRET_KEY"), never the secret itself; the value given is not shown. Put the secret in that environment variable',
  });

const idempotencyHeader = z
  .string({ error: 'must be an HTTP header name such as "Idempotency-Key"' })
  .regex(HEADER_NAME_RE, { error: 'must be an HTTP header name such as "Idempotency-Key"' })
  .refine((h) => !RESERVED_IDEMPOTENCY_HEADERS.has(h.toLowerCase()), {
    error: (iss) => `cannot be ${JSON.stringify(iss.input)}: the transport or the credentials own that header`,
  });

const bool = z.boolean({ error: 'must be true or false' });

/** A per-scheme API-key name in `credentials`: `apiKey:<scheme>` (the scheme's name in the API description). */
const API_KEY_SCHEME_KEY_RE = /^apiKey:.{1,200}$/;

/**
 * A catalog's `credentials`: `token`, `apiKey`, `username`, `password`, and `apiKey:<scheme>` for one API-key scheme,
 * each an env var NAME (src/execution/credential-names.ts). Other keys are refused as unknown, like the closed objects'.
 */
const credentialFixed = { token: envName.optional(), apiKey: envName.optional(), username: envName.optional(), password: envName.optional() };
const credentialsSchema = z
  .object(credentialFixed, { error: 'must be an object of environment variable names, e.g. {"token": "STRIPE_SECRET_KEY"}' })
  .catchall(z.unknown())
  .superRefine((value, ctx) => {
    for (const [key, name] of Object.entries(value)) {
      if (Object.hasOwn(credentialFixed, key)) continue;
      if (!API_KEY_SCHEME_KEY_RE.test(key)) {
        ctx.addIssue({ code: 'unrecognized_keys', keys: [key], input: value, message: `${UNKNOWN}${Object.keys(credentialFixed).join(', ')}, apiKey:<scheme>` });
        continue;
      }
      const checked = envName.safeParse(name);
      if (!checked.success) ctx.addIssue({ code: 'custom', path: [key], input: name, message: checked.error.issues[0]?.message ?? 'must be an environment variable name' });
    }
  })
  .meta({
    additionalProperties: { type: 'string', pattern: ENV_NAME_RE.source },
    propertyNames: { anyOf: [{ enum: Object.keys(credentialFixed) }, { pattern: API_KEY_SCHEME_KEY_RE.source }] },
  });

/** One catalog's section. */
export const catalogSectionSchema = closed(
  {
    baseUrl: baseUrl.optional().describe('Upstream base URL (lowest precedence: <CATALOG>_BASE_URL and --base-url win).'),
    credentials: credentialsSchema
      .optional()
      .describe(
        'NAMES of the environment variables holding the credentials (replacing <CATALOG>_TOKEN etc.), never the secrets. "apiKey:<scheme>" names one API-key scheme\'s variable (default <CATALOG>_<SCHEME>_API_KEY where an operation names several API-key schemes; then a lone "apiKey" is refused).',
      ),
    idempotencyHeader: idempotencyHeader.optional().describe('Idempotency header for POST/PATCH when the spec declares none, e.g. Idempotency-Key.'),
    allowedOrigins: z
      .array(origin, { error: 'must be an array of origins like ["https://uploads.example.com"]' })
      .optional()
      .describe("Extra origins an operation's own servers may use (scheme://host[:port])."),
    blockPrivateAddresses: bool.optional().describe('Refuse upstream hosts resolving to private, loopback or link-local addresses.'),
    allowHttpCredentials: bool
      .optional()
      .describe('Send credentials over plain http to hosts other than loopback; default false (refused before connecting).'),
    credentialPrefix: z
      .string({ error: 'must be a string such as "Bearer "' })
      .regex(/^[\x21-\x7e][\x20-\x7e]{0,31}$/, { error: 'must be 1-32 printable ASCII characters starting with a non-space, such as "Bearer "' })
      .optional()
      .describe('Put before an apiKey credential\'s value, e.g. "Bearer " when the spec declares an apiKey in the Authorization header but the API wants a bearer token (SendGrid).'),
  },
  'must be an object',
);

/** Builds the `serve` section (nested closed objects) from the option table's `file` keys. */
function serveSectionSchema(options: readonly OptionSpec[]) {
  interface Node { [key: string]: Node | OptionSpec }
  const root: Node = {};
  for (const o of options) {
    if (o.file === undefined) continue;
    const parts = o.file.split('.').slice(1); // drop the leading `serve`
    let node = root;
    for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Node;
    node[parts.at(-1) as string] = o;
  }
  const build = (node: Node): z.ZodType => {
    const shape: Record<string, z.ZodType> = {};
    for (const [k, v] of Object.entries(node)) {
      if (typeof (v as OptionSpec).help === 'string' && (v as OptionSpec).schema !== undefined) {
        const o = v as OptionSpec;
        const env = o.env !== undefined ? ` Env ${o.env}.` : '';
        const flag = o.flag !== undefined ? ` Flag ${o.flag}.` : '';
        // a default the code computes has no JSON value: the description says it, as --help and the table do
        const computed = o.shownDefault !== undefined && o.default === undefined ? ` Default: ${o.shownDefault}.` : '';
        shape[k] = o.schema.optional().meta({ description: `${o.help}.${flag}${env}${computed}`, ...(o.default !== undefined ? { default: o.default } : {}) });
      } else {
        shape[k] = build(v as Node).optional();
      }
    }
    return closed(shape, 'must be an object');
  };
  return build(root);
}

/** The whole config file. */
export const configFileSchema = closed(
  {
    $schema: z.string({ error: 'must be a string (the path or URL of config.schema.json)' }).optional(),
    catalogs: z
      .record(z.string().regex(/^[a-z0-9_-]{1,64}$/), catalogSectionSchema, { error: 'must be an object keyed by catalog name' })
      .optional()
      .describe('Per-catalog settings, keyed by catalog name (as list_domains shows it).'),
    blockPrivateAddresses: bool.optional().describe('Default of blockPrivateAddresses for every catalog; default false.'),
    serve: serveSectionSchema(SERVE_OPTIONS).optional().describe('serve options; flags and environment variables win over these.'),
  },
  'must be a JSON object like {"catalogs": {"github": {...}}}',
);

export type ConfigFileInput = z.input<typeof configFileSchema>;

/** `catalogs.github.allowedOrigins[1]` from a zod path. */
function keyOf(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out === '' ? '' : '.'}${String(p)}`;
  return out;
}

/** `; did you mean "port"?` for the allowed key (of the comma-separated `allowed`) that `typed` most likely meant, as a mistyped flag gets one (did-you-mean.ts). */
function closeKey(typed: string, allowed: string): string {
  const best = closest(typed, allowed.split(', ').filter(Boolean), 1)[0];
  return best === undefined ? '' : `; did you mean ${JSON.stringify(best)}?`;
}

/** One zod issue as `<key> <why>` (the config file's message style). */
export function formatIssue(issue: z.core.$ZodIssue): { key: string; why: string } {
  const where = keyOf(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const allowed = issue.message.startsWith(UNKNOWN) ? issue.message.slice(UNKNOWN.length) : '';
    const first = String(issue.keys[0] ?? '');
    return { key: where === '' ? first : `${where}.${first}`, why: `is not a known key (allowed${where ? ` in ${where}` : ''}: ${allowed})${closeKey(first, allowed)}` };
  }
  if (issue.code === 'invalid_key' && issue.path[0] === 'catalogs') {
    return { key: `catalogs.${String(issue.path[1] ?? '').slice(0, 80)}`, why: 'is not a catalog name ([a-z0-9_-]); use the name list_domains shows' };
  }
  return { key: where === '' ? '(top level)' : where, why: issue.message };
}

/** The JSON Schema for editors (docs/config.schema.json). */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configFileSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    $schema: schema.$schema,
    title: 'api-catalog config file',
    description:
      'Generated from src/config/schema.ts by `npm run config-schema`; do not edit. Flags and environment variables win over the file; credentials are env var NAMES only.',
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')),
  };
}

// Public types of the execution layer (validate -> build request -> HTTP -> shape result). Plain data only;
// nothing here knows about MCP. The contract is docs/DESIGN.md "Execution"; extend additively only.
import type { ErrorCode } from '../errors.js';
import type { CatalogMeta } from '../types.js';
import type { CheckedFields } from './projection.js';

export interface ExecutionConfig {
  /** servers, securitySchemes, name (credential env var prefix). */
  catalog: CatalogMeta;
  /** Operator override of the base URL (--base-url / env / config); wins over the spec's servers. */
  baseUrl?: string;
  /** Credential source; default process.env. */
  env?: Record<string, string | undefined>;
  /** The caller's upstream credential (HTTP header X-Upstream-Token, read on each request); overrides env for that request. */
  sessionCredential?: string;
  /** The transport reads X-Upstream-Token (HTTP): AUTH_MISSING names the header beside the env vars. */
  sessionHeader?: boolean;
  /** Refuse every operation that does not only read (Operation.readOnly: GET/HEAD that run no write action, unless curated) with READ_ONLY_MODE. */
  readOnly?: boolean;
  /** connectMs default 10 000; totalMs default 30 000 (the whole call: retries, redirects and body). */
  timeouts?: { connectMs?: number; totalMs?: number };
  /** Cap on response bytes after decompression; default 5 MiB. */
  maxResponseBytes?: number;
  /** Approximate token budget for `data` (≈4 characters per token); default 8 000. */
  tokenBudget?: number;
  /**
   * Names of the environment variables holding this catalog's credentials, replacing the defaults
   * `<CATALOG>_TOKEN`, `<CATALOG>_API_KEY`, `<CATALOG>_USERNAME`, `<CATALOG>_PASSWORD` (names only, never values).
   */
  credentials?: CredentialEnvNames;
  /**
   * Idempotency header for POST/PATCH calls of this catalog when the operation documents none (e.g. Stripe's
   * `Idempotency-Key`, which its OpenAPI description does not declare). With it, such calls get one generated
   * key reused by every retry, and are retried like idempotent calls.
   */
  idempotencyHeader?: string;
  /**
   * Extra upstream origins (`https://uploads.example.com`) that an operation's own `servers` entry may point
   * at. Without a match, an operation- or path-level server on another origin than the catalog's is refused
   * (UNSAFE_REQUEST, F7). Compared as parsed origins, never as string prefixes (F9).
   */
  allowedOrigins?: string[];
  /**
   * Refuse upstream hosts that are, or resolve to, private, loopback, link-local or otherwise non-public
   * addresses (checked on the resolved address at connect time, F10). The origin of `baseUrl` is exempt (the
   * operator named it). Default false.
   */
  blockPrivateAddresses?: boolean;
  /**
   * Send credentials over plain `http://` to a host that is not loopback. Default false: such a request is
   * refused (UNSAFE_REQUEST, naming `catalogs.<name>.allowHttpCredentials` and `--allow-http-credentials`)
   * before any connection, because the credential would cross the network unencrypted.
   */
  allowHttpCredentials?: boolean;
  /**
   * Text put before an `apiKey` credential's value (e.g. `"Bearer "` for SendGrid, whose spec declares an
   * apiKey in the Authorization header while the API wants `Authorization: Bearer <key>`). Not added twice
   * when the value already starts with it.
   */
  credentialPrefix?: string;
}

/** Environment variable NAMES for credentials (each optional; unset keys keep the default name). */
export interface CredentialEnvNames {
  /** Bearer token for http bearer, OAuth2 and OpenID Connect schemes (default `<CATALOG>_TOKEN`). */
  token?: string;
  /** API key for the catalog's only apiKey scheme (default `<CATALOG>_API_KEY`). */
  apiKey?: string;
  /** HTTP basic user name (default `<CATALOG>_USERNAME`). */
  username?: string;
  /** HTTP basic password (default `<CATALOG>_PASSWORD`). */
  password?: string;
  /**
   * `apiKey:<scheme>`: the API key of one apiKey scheme. A catalog whose operations use several API keys reads each
   * from its own variable (default `<CATALOG>_<SCHEME>_API_KEY`); `apiKey` then names none of them and is refused.
   */
  [scheme: `apiKey:${string}`]: string | undefined;
}

export type ValidationOutcome = { ok: true; args: Record<string, unknown> } | { ok: false; errors: FieldError[] };

export interface FieldError {
  /** JSON pointer into the arguments, e.g. `/labels/0`; `` for the whole object. */
  path: string;
  message: string;
  /** What the schema expected (a type, the allowed values, or a schema excerpt). */
  expected?: unknown;
  /** A likely fix: the closest enum value, the property name meant, ... */
  suggestion?: string;
}

/** The exact request, for dry runs: secrets redacted. */
export interface PreparedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The body as text, a summary like `<binary 1234 bytes>`, or undefined when there is none. */
  body?: string;
  /** A curl command line reproducing the request (secrets redacted). */
  curl: string;
  /** What the operator should know before sending it (e.g. a credential over plain http). */
  warnings?: string[];
}

export interface TruncationInfo {
  /** Items in the list that was cut (when the cut was on a list). */
  totalItems?: number;
  /** Items kept of that list. */
  kept?: number;
  /** JSON-pointer of the list that was cut (`` for the top level). */
  path?: string;
  /** Size in characters of the untruncated data (or bytes received when the byte cap hit). */
  size: number;
  /** Why: over the token budget, or over maxResponseBytes (then the body itself was cut). */
  reason: 'tokenBudget' | 'maxResponseBytes';
  /** How to narrow the request: the operation's pagination/filter parameters, and `fields` where it can help. */
  hint: string;
}

export interface PaginationHint {
  /** Where the hint came from. */
  source: 'link' | 'cursor';
  hasMore: boolean;
  /** The next page URL from a Link header (redacted). */
  next?: string;
  /** Arguments to pass to the same operation for the next page (only known parameters). */
  nextArgs?: Record<string, unknown>;
}

/**
 * What every outcome says about the wire. `sent`: the request was handed to fetch, so the upstream may have acted
 * on it (false for every refusal before that: validation, credentials, the base URL, the address policy, a
 * cancellation before sending). `upstreamMs` (sent calls only): milliseconds from handing the first attempt to
 * fetch until the response body was read or the sending failed (retries, back-off and redirects included; the
 * request's building and the answer's decoding and shaping are not).
 */
export interface WireFacts {
  sent: boolean;
  upstreamMs?: number;
}

export type ExecutionOutcome = WireFacts &
  (
    | {
        ok: true;
        status: number;
        headers: Record<string, string>;
        data: unknown;
        truncated?: TruncationInfo;
        pagination?: PaginationHint;
        /** The untruncated data (only when truncated), for the server to keep as a resource for a while. */
        full?: unknown;
        /**
         * What the agent must know to read `data` right: `fields` paths that matched nothing in this response
         * (then `data` is what the projection kept, `{}` or `null` when nothing matched, not the API's answer),
         * with the fields the response does have; a `fields` projection that could not be applied (a body cut at
         * maxResponseBytes, JSON too deep to parse); JSON nested deeper than MAX_JSON_DEPTH, kept as text; a charset
         * that could not be decoded. Absent when there is nothing to say.
         */
        warnings?: string[];
        /**
         * The next step, when the usual ones (read the full result, narrow with `fields`, fix the `fields` paths)
         * would mislead or leave something out: a body cut at maxResponseBytes or JSON kept as text (`fields` cannot
         * select from text), a charset read as UTF-8, or more than one of these and the usual cases at once (one
         * sentence each). Absent otherwise.
         */
        instruction?: string;
      }
    | { ok: false; code: ErrorCode; message: string; details?: unknown; instruction: string; status?: number }
  );

/** Per-call options: cancellation, projection, the sent hook; and injection points for tests (fake fetch, sleep, randomness). */
export interface ExecuteOptions {
  /** Cancellation (the MCP request's signal). */
  signal?: AbortSignal;
  /**
   * Projection: dotted paths (`["id", "items.name"]`) or a JMESPath expression string, checked before anything is
   * sent; or what `checkFields` returned for them, which is not checked again.
   */
  fields?: string[] | string | CheckedFields;
  /**
   * Awaited once, just before the request is handed to fetch (from then on the upstream may act on it); a throw
   * (an AppError such as RATE_LIMITED) stops the call with nothing sent.
   */
  onSent?: () => void | Promise<void>;
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Max retries after the first attempt (default 2). */
  maxRetries?: number;
}

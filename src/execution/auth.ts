// Credentials: which environment variables an operation needs (from the catalog's securitySchemes), whether
// they are set, and how to apply them to a request. Values never leave this module except inside the request
// and the Redactor that scrubs them from everything else.
import { AppError } from '../errors.js';
import type { Operation, SecuritySchemeInfo } from '../types.js';
import { credentialParameters } from '../schema/credential-parameters.js';
import { apiKeyVariable, credentialNames, credentialNamesProblem, envPrefix, separateApiKeys, type CredentialNames } from './credential-names.js';
import type { ExecutionConfig } from './types.js';

export { envPrefix } from './credential-names.js';

/** The server's own env vars (API_CATALOG_SIGNING_KEY, API_CATALOG_HTTP_TOKEN, ...): never a catalog's credentials. */
export const SERVER_ENV_PREFIX = 'API_CATALOG_';

/**
 * Whether a catalog of this name would read its default credentials from the server's own variables
 * (`api-catalog-signing` -> API_CATALOG_SIGNING_TOKEN): such a name is refused at import and at load.
 */
export function inServerEnvNamespace(catalogName: string): boolean {
  return `${envPrefix(catalogName)}_`.startsWith(SERVER_ENV_PREFIX);
}

/** The refusal of such a name, with the fix. */
export function serverNamespaceMessage(catalogName: string): string {
  return `catalog name ${JSON.stringify(catalogName)} would read its credentials from the server's own variables (${SERVER_ENV_PREFIX}*); import it under another name (--name)`;
}

type Kind = 'bearer' | 'basic' | 'apiKey' | 'unsupported';

function kindOf(scheme: SecuritySchemeInfo): Kind {
  if (scheme.type === 'apiKey') return 'apiKey';
  if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return 'bearer';
  if (scheme.type === 'http') {
    const s = (scheme.scheme ?? '').toLowerCase();
    if (s === 'bearer') return 'bearer';
    if (s === 'basic') return 'basic';
  }
  return 'unsupported';
}

/** Environment variables the scheme `schemeName` reads, under the names credentialNames resolved. */
export function envVarsFor(schemeName: string, scheme: SecuritySchemeInfo, n: CredentialNames): string[] {
  switch (kindOf(scheme)) {
    case 'bearer':
      return [n.token];
    case 'apiKey':
      return [apiKeyVariable(schemeName, n)];
    case 'basic':
      return [n.username, n.password];
    default:
      return [];
  }
}

/**
 * The pseudo-scheme used when a catalog declares no security at all (GitHub): optional bearer token. Not for an
 * operation that takes its credential as an argument (credentialParameters): it needs none from the server.
 */
export const DEFAULT_BEARER = '(default bearer)';

/** What gets applied to the request. */
export interface AppliedAuth {
  headers: Record<string, string>;
  query: Array<[string, string]>;
  /** Cookie name, value (sent as it is: request.ts checks its characters) and where the value came from. */
  cookies: Array<[name: string, value: string, source: string]>;
  /** Every secret value (for the Redactor). */
  secrets: string[];
  /** Where the applied credentials came from: env var names, or `the session's X-Upstream-Token`. */
  sources: string[];
  /** Query/header/cookie names owned by credentials: arguments cannot set them (G2/G4). */
  reservedQuery: Set<string>;
  reservedHeaders: Set<string>;
  reservedCookies: Set<string>;
}

function emptyAuth(): AppliedAuth {
  return { headers: {}, query: [], cookies: [], secrets: [], sources: [], reservedQuery: new Set(), reservedHeaders: new Set(), reservedCookies: new Set() };
}

function readValue(name: string, config: ExecutionConfig): string | undefined {
  const env = config.env ?? process.env;
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

/** What `AppliedAuth.sources` says for the caller's own token (X-Upstream-Token or X-Upstream-Token-<catalog>). */
export const SESSION_SOURCE = "the session's X-Upstream-Token";

/**
 * The headers that carry a caller's own token to catalog `catalog` (HTTP): its own `X-Upstream-Token-<catalog>`, and
 * the unbound `X-Upstream-Token` only when the server serves that one catalog (src/server/upstream-tokens.ts).
 */
export function sessionHeaders(catalog: string): string {
  return `X-Upstream-Token-${catalog}, or X-Upstream-Token when the server serves only this catalog`;
}

/** Where the session's X-Upstream-Token goes, in words (AUTH_MISSING and the docs say the same). */
const SESSION_RULE =
  "the session's X-Upstream-Token stands for a bearer / OAuth2 / OpenID Connect token, or for the only credential of a requirement whose one scheme is an API key in a header or cookie, or basic (user:password); it is never put into a URL query";

/**
 * Which scheme of one security requirement the session's X-Upstream-Token fills (its index), or -1. The token is
 * one credential, so it fills one scheme: the requirement's bearer / OAuth2 / OpenID Connect scheme, else its only
 * scheme when that is an apiKey in a header or cookie, or basic (`user:password`). Never an apiKey in the query: a
 * URL is written to upstream and proxy access logs, and a client's bearer token used for every scheme went there
 * too when an operation required both (`key` in the query + `bearer`). The requirement's other schemes read their
 * environment variables, as they do for a session without the header.
 */
function sessionSlot(alt: ReadonlyArray<[string, SecuritySchemeInfo]>): number {
  const bearer = alt.findIndex(([, scheme]) => kindOf(scheme) === 'bearer');
  if (bearer >= 0) return bearer;
  if (alt.length !== 1) return -1;
  const only = alt[0]![1];
  const kind = kindOf(only);
  if (kind === 'basic' || (kind === 'apiKey' && only.in !== 'query')) return 0;
  return -1;
}

function hasSession(config: ExecutionConfig): config is ExecutionConfig & { sessionCredential: string } {
  return config.sessionCredential !== undefined && config.sessionCredential !== '';
}

/**
 * The order resolveAuth tries an operation's alternatives in: the description's, except that with a session token
 * the alternatives it fills (sessionSlot) come first: those where it is the bearer / OAuth2 / OpenID Connect token,
 * then those where it is the only credential (an API key in a header or cookie, basic), then the others; the
 * description's order within each. The token is the client's own credential, meant for the scheme that takes a token:
 * before, `[{X-API-Key header}, {bearer}]` sent it as the API key, and `[{}, {bearer}]` (credentials optional) or an
 * earlier alternative complete from the env vars left it unused. It wins over the env vars across alternatives as it
 * does within one requirement.
 */
function tryOrder(alts: Array<Array<[string, SecuritySchemeInfo]>>, config: ExecutionConfig): Array<Array<[string, SecuritySchemeInfo]>> {
  if (!hasSession(config)) return alts;
  const rank = (alt: ReadonlyArray<[string, SecuritySchemeInfo]>): number => {
    const slot = sessionSlot(alt);
    return slot < 0 ? 2 : kindOf(alt[slot]![1]) === 'bearer' ? 0 : 1;
  };
  // Array.prototype.sort is stable: the description's order within a rank
  return [...alts].sort((a, b) => rank(a) - rank(b));
}

/**
 * The credential value(s) for a scheme, or undefined when not available: the session's X-Upstream-Token when
 * `fromSession` (sessionSlot chose this scheme), else the scheme's environment variables.
 */
function credentialFor(schemeName: string, scheme: SecuritySchemeInfo, prefix: CredentialNames, config: ExecutionConfig, fromSession: boolean): string[] | undefined {
  const kind = kindOf(scheme);
  if (kind === 'unsupported') return undefined;
  if (fromSession && hasSession(config)) {
    const session = config.sessionCredential;
    if (kind === 'basic') {
      const i = session.indexOf(':');
      return i > 0 ? [session.slice(0, i), session.slice(i + 1)] : undefined;
    }
    return [session];
  }
  const vals = envVarsFor(schemeName, scheme, prefix).map((n) => readValue(n, config));
  return vals.every((v) => v !== undefined) ? (vals as string[]) : undefined;
}

/** Each scheme of a requirement with its value(s) and where they come from (undefined values: not available). */
function valuesOf(alt: ReadonlyArray<[string, SecuritySchemeInfo]>, prefix: CredentialNames, config: ExecutionConfig) {
  const slot = hasSession(config) ? sessionSlot(alt) : -1;
  return alt.map(([name, scheme], i) => ({
    name,
    scheme,
    fromSession: i === slot,
    values: credentialFor(name, scheme, prefix, config, i === slot),
  }));
}

/** What the credential functions read of an operation: its security, and its arguments where they have them. */
type Secured = Pick<Operation, 'security'> & { bindings?: Operation['bindings'] };

/** The schemes an operation may use, as alternatives of requirement sets; `[]` alternatives = none needed. */
function requirements(op: Secured, config: ExecutionConfig): Array<Array<[string, SecuritySchemeInfo]>> {
  const schemes = config.catalog.securitySchemes ?? {};
  if (op.security.length === 0 && Object.keys(schemes).length === 0) {
    // No security declared anywhere: an optional bearer token (GitHub's description declares none), unless the
    // operation takes its credential as an argument (ListenNotes' required X-ListenAPI-Key header): its API asked
    // for that, and the operator's token would only leak to it (credential-parameters.ts).
    if (credentialParameters(op).length > 0) return [];
    return [[[DEFAULT_BEARER, { type: 'http', scheme: 'bearer' }]], []];
  }
  return op.security.map((req) =>
    Object.keys(req).map((name): [string, SecuritySchemeInfo] => [name, schemes[name] ?? { type: 'mutualTLS' }]),
  );
}

/** The config key that sets an apiKey credential's prefix (named in describe's format line). */
export function credentialPrefixKey(catalogName: string): string {
  return `catalogs.${catalogName}.credentialPrefix`;
}

/**
 * What the env var of a scheme must hold and how it is sent, in one line for describe: a bearer scheme wants
 * the token alone, while an apiKey in the `Authorization` header is sent as it is, so the value must carry the
 * scheme word the API expects (SendGrid: `Bearer <key>`) unless the catalog's `credentialPrefix` adds it.
 */
export function credentialFormat(scheme: SecuritySchemeInfo, config: Pick<ExecutionConfig, 'catalog' | 'credentialPrefix'>): string | undefined {
  const prefix = config.credentialPrefix ?? '';
  switch (kindOf(scheme)) {
    case 'bearer':
      return 'the token alone; sent as "Authorization: Bearer <value>"';
    case 'basic':
      return 'the user name and the password; sent as HTTP Basic ("Authorization: Basic <base64 of user:password>")';
    case 'apiKey': {
      const name = scheme.name ?? 'api_key';
      const where = scheme.in === 'query' ? `query parameter ${name}` : scheme.in === 'cookie' ? `cookie ${name}` : `header "${name}"`;
      if (prefix !== '') return `the key alone; sent as ${where} with the value "${prefix}<value>" (${credentialPrefixKey(config.catalog.name)})`;
      if (scheme.in !== 'query' && scheme.in !== 'cookie' && name.toLowerCase() === 'authorization') {
        return `the whole Authorization header value, sent as it is: include the scheme word the API expects (e.g. "Bearer <key>"), or set ${credentialPrefixKey(config.catalog.name)} (e.g. "Bearer ") in the config file to add it`;
      }
      return `the key alone; sent as ${where}`;
    }
    default:
      return undefined;
  }
}

/**
 * One scheme's credential status (never a value): its env vars, whether a value is available for this request, where
 * it comes from, and what it must hold. The answers' JSON form (list_domains, describe_tools Level 3, AUTH_MISSING's
 * `details.schemes`) is `{ scheme, envVars, set, format?, source? }`.
 */
export interface CredentialStatus {
  scheme: string;
  envVars: string[];
  /** A value is available for this request: from the session's X-Upstream-Token (`source`) or else the env vars. */
  set: boolean;
  /** With `format`: what the env var(s) must hold and how the value is sent. */
  format?: string;
  /** `header`: the session's X-Upstream-Token supplies the value (it wins over the env vars); absent: the env vars do. */
  source?: 'header';
  /**
   * With `envSet` only (the one-line wording, never the JSON): whether the env vars themselves are set. It differs
   * from `set` where the session's token takes the scheme's place: the env vars may be unset, or set and unused.
   */
  envSet?: boolean;
}

/** What a credential status adds: `format` (what each env var must hold), `envSet` (whether the env vars are set). */
export interface CredentialStatusOptions {
  format?: boolean;
  envSet?: boolean;
}

/**
 * The credentials an operation accepts, as the API declares them: alternatives (any one will do), each a list of
 * schemes that are all required together. Never values; with `options.format`, also what each env var must hold.
 * `[]` when it needs none; an alternative `[]` (`{}` in the spec) makes credentials optional. A catalog that
 * declares no security gets the optional default bearer `<CATALOG>_TOKEN`. Where a value comes from is resolveAuth's
 * own choice (valuesOf): `source: "header"` when the session's X-Upstream-Token fills the scheme, so that a token
 * from the header never reads as its env var being set.
 */
export function credentialAlternatives(op: Secured, config: ExecutionConfig, options: CredentialStatusOptions = {}): CredentialStatus[][] {
  const prefix = credentialNames(config);
  return requirements(op, config).map((alt) =>
    valuesOf(alt, prefix, config).map(({ name, scheme, values, fromSession }): CredentialStatus => {
      const set = values !== undefined;
      const format = options.format === true ? credentialFormat(scheme, config) : undefined;
      // the env vars' own state, where the token took the scheme's place (else it is `set`)
      const envSet = options.envSet !== true ? undefined : fromSession ? credentialFor(name, scheme, prefix, config, false) !== undefined : set;
      return {
        scheme: name,
        envVars: envVarsFor(name, scheme, prefix),
        set,
        ...(format !== undefined ? { format } : {}),
        ...(fromSession && set ? { source: 'header' as const } : {}),
        ...(envSet !== undefined ? { envSet } : {}),
      };
    }),
  );
}

/**
 * Which credentials an operation needs and whether they are set (never their values), each scheme once; with
 * `options.format`, also what each env var must hold (describe shows it). A scheme counts as set when some
 * alternative it is part of gives it a value (the session's token may fill it in one and not in another), and as
 * `source: "header"` when the token fills it in one (tryOrder tries those first). For a catalog that declares no
 * security, the optional default bearer `<CATALOG>_TOKEN` is listed. Which schemes go together is
 * credentialAlternatives'.
 */
export function credentialStatus(op: Secured, config: ExecutionConfig, options: CredentialStatusOptions = {}): CredentialStatus[] {
  const seen = new Map<string, CredentialStatus>();
  for (const alt of credentialAlternatives(op, config, options)) {
    for (const s of alt) {
      const known = seen.get(s.scheme);
      if (known === undefined) seen.set(s.scheme, s);
      else if (s.set && (!known.set || (s.source !== undefined && known.source === undefined))) {
        seen.set(s.scheme, { ...known, set: true, ...(s.source !== undefined ? { source: s.source } : {}) });
      }
    }
  }
  return [...seen.values()];
}

/**
 * Picks the first satisfiable security alternative, in tryOrder's order, and returns what to add to the request.
 * Throws AppError AUTH_MISSING (naming the env vars) when an operation requires credentials and none are available.
 */
export function resolveAuth(op: Operation, config: ExecutionConfig): AppliedAuth {
  const problem = credentialNamesProblem(config);
  if (problem !== undefined) throw problem;
  const prefix = credentialNames(config);
  const alts = requirements(op, config);
  if (alts.length === 0) return emptyAuth();
  // Names of every apiKey credential slot this operation knows: reserved even when unset (G2/G4).
  const out = emptyAuth();
  for (const alt of alts) {
    for (const [, scheme] of alt) {
      if (scheme.type !== 'apiKey' || scheme.name === undefined) continue;
      if (scheme.in === 'query') out.reservedQuery.add(scheme.name);
      else if (scheme.in === 'cookie') out.reservedCookies.add(scheme.name);
      else out.reservedHeaders.add(scheme.name.toLowerCase());
    }
  }
  for (const alt of tryOrder(alts, config)) {
    const values = valuesOf(alt, prefix, config);
    if (!values.every((v) => v.values !== undefined)) continue;
    for (const { name: schemeName, scheme, values: found, fromSession } of values) {
      const v = found!;
      const kind = kindOf(scheme);
      const from = fromSession ? [SESSION_SOURCE] : envVarsFor(schemeName, scheme, prefix);
      out.sources.push(...from);
      if (kind === 'bearer') {
        out.headers.authorization = `Bearer ${v[0]!}`;
        out.secrets.push(v[0]!);
      } else if (kind === 'basic') {
        const pair = `${v[0]!}:${v[1]!}`;
        out.headers.authorization = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
        out.secrets.push(v[1]!, pair, Buffer.from(pair, 'utf8').toString('base64'));
      } else if (kind === 'apiKey') {
        const name = scheme.name ?? 'api_key';
        const p = config.credentialPrefix ?? '';
        const value = v[0]!.startsWith(p) ? v[0]! : p + v[0]!;
        if (scheme.in === 'query') out.query.push([name, value]);
        else if (scheme.in === 'cookie') out.cookies.push([name, value, from[0]!]);
        else out.headers[name.toLowerCase()] = value;
        out.secrets.push(v[0]!);
      }
    }
    return out;
  }
  throw authMissing(op, alts, prefix, config);
}

/**
 * AUTH_MISSING for an operation none of whose alternatives is complete: what each alternative needs (the schemes of
 * one all required: `a (A) and b (B)`, in parentheses when there are several alternatives), and which of the
 * variables are not set when some are. Names only, never values.
 */
function authMissing(op: Operation, alts: Array<Array<[string, SecuritySchemeInfo]>>, prefix: CredentialNames, config: ExecutionConfig): AppError {
  const needed = alts
    .map((alt) => {
      const all = alt.map(([name, scheme]) => `${name} (${envVarsFor(name, scheme, prefix).join(' + ') || 'unsupported scheme'})`).join(' and ');
      return alt.length > 1 && alts.length > 1 ? `(${all})` : all;
    })
    .join(' or ');
  const vars = [...new Set(alts.flatMap((alt) => alt.flatMap(([name, scheme]) => envVarsFor(name, scheme, prefix))))];
  const unset = vars.filter((v) => readValue(v, config) === undefined);
  let missing = unset.length === vars.length ? '; none are set' : unset.length > 0 ? `; not set: ${unset.join(', ')}` : '';
  // the session's token in a basic scheme's place but no user:password: that scheme has no value (its env vars are
  // not read instead), which is why every variable may be set and the call still refused
  const unfit = [...new Set(alts.flatMap((alt) => valuesOf(alt, prefix, config).filter((v) => v.fromSession && v.values === undefined).map((v) => v.name)))];
  if (unfit.length > 0) missing += `; the session's X-Upstream-Token takes the place of ${unfit.join(', ')} and is not user:password`;
  // `<CATALOG>_API_KEY` set for a catalog whose API keys each have their own variable (as before they had): say so.
  const own = alts.flatMap((alt) => alt.filter(([, s]) => kindOf(s) === 'apiKey').map(([name, s]) => envVarsFor(name, s, prefix)[0]!));
  if (separateApiKeys(config.catalog) && own.length > 0 && !own.includes(prefix.apiKey) && readValue(prefix.apiKey, config) !== undefined) {
    missing += ` (${prefix.apiKey} is set, but catalog ${config.catalog.name} has several API keys and reads each from its own variable: ${[...new Set(own)].join(', ')})`;
  }
  // A session token that could have been meant for a scheme it is never used for: say so, or the env var the
  // message names reads like the only way.
  const unused = hasSession(config)
    ? `; ${SESSION_RULE}`
    : config.sessionHeader === true
      ? `; or send your own credential with each request in the header ${sessionHeaders(config.catalog.name)} (a bearer token, or the only API key or basic user:password of a requirement)`
      : '';
  return new AppError('AUTH_MISSING', `${op.name}: needs credentials: ${needed}${missing}${unused}`, {
    details: { schemes: credentialStatus(op, config) },
  });
}

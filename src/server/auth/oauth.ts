// JWT access-token validation for the OAuth 2.1 resource-server role: discovers the authorization server's
// metadata (OpenID discovery, else RFC 8414), verifies with `jose` against its JWKS (fetched and cached by
// jwks.ts) and checks issuer, audience (RFC 8707: this server's canonical URL), expiry, allowed algorithms, the
// access-token `typ` (RFC 9068) and a subject. Never logs tokens.
import { errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { checkSecureUrl } from '../../config.js';
import { AppError } from '../../errors.js';
import { IssuerKeys, KeysFetchError } from './jwks.js';

export interface OAuthVerifierOptions {
  /** The authorization server's issuer identifier, e.g. `https://auth.example.com/realms/agents`. */
  issuer: string;
  /** This server's canonical URL (RFC 8707 resource); tokens must carry it in `aud`. */
  resource: string;
  /** Accepted JWS algorithms; default: asymmetric ones only (no `none`, no HS*: the AS signs, we only verify). */
  algorithms?: string[];
  /** Leeway for `exp`/`nbf`/`iat`, seconds; default 30. */
  clockToleranceSec?: number;
  /** Timeout for discovery and JWKS requests; default 5000 ms. */
  fetchTimeoutMs?: number;
  /** Clock (ms since epoch) for the checks; default Date.now. */
  now?: () => number;
  /**
   * How long fetched signing keys are used without asking the issuer again; default 600 s. When the issuer cannot
   * be reached, tokens keep verifying against the cached keys until then; after that OAuth tokens get 503.
   */
  keysMaxAgeMs?: number;
  /**
   * The least time between two fetches of the signing keys (a token with an unknown key id, a down issuer); default
   * 1000 ms. A token with an unknown key id waits for the next fetch (this long at most), then is a 401 if its key
   * is still unknown: no one can make the issuer be asked more often, nor get a 503 with a made-up token.
   */
  keysRefetchIntervalMs?: number;
}

/** The reason for a bearer token that is not even shaped like a JWT (index.ts words it for named tokens too). */
export const NOT_A_JWT = 'the token is not a JWT';

export const DEFAULT_JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** A verified token: who, which scopes, until when. */
export interface VerifiedToken {
  subject: string;
  scopes: string[];
  /** Seconds since epoch. */
  expiresAt: number;
  clientId?: string;
  /** Why the token's `scope` claim could not be read (not a string, nor an array of strings); its scopes then come from `scp`, if any. */
  scopeProblem?: string;
}

export type VerifyResult =
  | { ok: true; token: VerifiedToken }
  /**
   * `invalid`: the token is bad (401 invalid_token). `unavailable`: no token can be checked now (the AS metadata or
   * its signing keys could not be fetched, and none younger than the max age are held: 503).
   */
  | { ok: false; kind: 'invalid' | 'unavailable'; reason: string };

/**
 * Where the AS metadata may live for an issuer: OpenID Connect discovery (path appended) and RFC 8414
 * (well-known inserted before the path; for a path-less issuer both RFC 8414 forms coincide).
 */
export function discoveryUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
  const urls = [`${u.origin}${path}/.well-known/openid-configuration`, `${u.origin}/.well-known/oauth-authorization-server${path}`];
  if (path !== '') urls.push(`${u.origin}/.well-known/openid-configuration${path}`);
  return urls;
}

/** One string for the same issuer written with or without a trailing slash. */
function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

async function fetchJson(url: string, timeoutMs: number): Promise<{ status: number; json?: unknown }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' }, redirect: 'error' });
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    return { status: res.status };
  }
  return { status: res.status, json: await res.json() };
}

/**
 * Why a request to the issuer got no answer, in a few words an operator can act on: fetch (undici) throws a bare
 * `TypeError: fetch failed` and puts the reason in `cause` (ECONNREFUSED, ENOTFOUND, a TLS code such as
 * UNABLE_TO_VERIFY_LEAF_SIGNATURE), so the error's name alone says nothing. URLs only, never a token.
 */
export function fetchFailure(err: unknown): string {
  if (!(err instanceof Error)) return 'error';
  if (err.name === 'TimeoutError' || err.name === 'JWKSTimeout') return 'no answer in time';
  if (err instanceof SyntaxError) return 'the answer is not JSON';
  const cause = (err as { cause?: unknown }).cause;
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && code !== '') return code;
  const text = cause instanceof Error && cause.message !== '' ? cause.message : err.message;
  return (text || err.name).replace(/\s+/g, ' ').slice(0, 160);
}

/** A value's JSON type, in words, for a message (never the value: it comes from the token). */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A scope claim's kind, in words: an array here has an entry that is not a string (one of strings is read). */
function kindOf(value: unknown): string {
  return Array.isArray(value) ? 'an array with an entry that is not a string' : typeOf(value);
}

/**
 * Scopes from RFC 9068 `scope` (space-separated), else the `scp` claim some servers use (an array, or a string). A
 * `scope` array of strings is read like `scp` (Spring Authorization Server issues one). A `scope` of another shape
 * is not understood: `problem` says so, so that a refusal does not send the user to ask the issuer for a scope the
 * token may well carry.
 */
function scopesOf(payload: JWTPayload): { scopes: string[]; problem?: string } {
  const scope = payload.scope;
  if (typeof scope === 'string') return { scopes: scope.split(' ').filter(Boolean) };
  if (Array.isArray(scope) && scope.every((s) => typeof s === 'string')) return { scopes: scope.filter(Boolean) };
  const problem = scope === undefined ? undefined : `the token's scope claim is ${kindOf(scope)}, not a space-separated string or an array of strings`;
  const scp = payload.scp;
  const scopes = Array.isArray(scp) ? scp.filter((s): s is string => typeof s === 'string') : typeof scp === 'string' ? scp.split(' ').filter(Boolean) : [];
  return { scopes, ...(problem !== undefined ? { problem } : {}) };
}

/**
 * The `typ` header values of an access token (RFC 9068 §2.1 `at+jwt`; plain `JWT`, which Keycloak and Entra ID send),
 * compared as RFC 7515 §4.1.9 says: case-insensitively, `application/` implied. No `typ` at all is accepted too
 * (many issuers send none). Any other type is another kind of JWT (RFC 8725 §3.11: a logout token, a security
 * event, a DPoP proof), signed by the same issuer perhaps, but never an access token.
 */
const ACCESS_TOKEN_TYPES = new Set(['at+jwt', 'jwt']);
const ACCEPTED_TYPES = 'at+jwt (or application/at+jwt), JWT, or none';

/** Why the token's `typ` header says it is not an access token; undefined when it may be one. */
function typProblem(typ: unknown): string | undefined {
  if (typ === undefined) return undefined;
  if (typeof typ === 'string' && ACCESS_TOKEN_TYPES.has(typ.toLowerCase().replace(/^application\//, ''))) return undefined;
  // named only when it reads as a media type: the reason goes into a WWW-Authenticate header and a log line
  const seen = typeof typ !== 'string' ? typeOf(typ) : /^[A-Za-z0-9!#$&^_.+/-]{1,64}$/.test(typ) ? typ : 'a value that is not a media type';
  return `the token's typ header is ${seen}, which is not an access token's: accepted are ${ACCEPTED_TYPES}`;
}

/**
 * Why the token names no subject, which it must: its principal is `oauth:<issuer>#<sub>`, so tokens without one
 * would all be one principal (sharing sessions, describe handles and stored results). Undefined when it has one.
 */
function subjectProblem(sub: unknown): string | undefined {
  if (typeof sub === 'string' && sub !== '') return undefined;
  const what = sub === undefined ? 'missing' : sub === '' ? 'empty' : `${typeOf(sub)}, not a string`;
  return `the token has no subject: its sub claim is ${what}; the authorization server must say who the token is for`;
}

/** Fixed, token-free reasons for the jose failures (used in logs and error_description). */
function reasonOf(err: unknown): { kind: 'invalid' | 'unavailable'; reason: string } {
  if (err instanceof joseErrors.JWTExpired) return { kind: 'invalid', reason: 'the token has expired' };
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    const claim = err.claim.replace(/[^a-z_]/gi, '');
    if (claim === 'aud') return { kind: 'invalid', reason: 'the token was issued for another resource (aud)' };
    if (claim === 'iss') return { kind: 'invalid', reason: 'the token was issued by another authorization server (iss)' };
    return { kind: 'invalid', reason: `the token's ${claim} claim is invalid` };
  }
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return { kind: 'invalid', reason: 'the token signature is invalid' };
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return { kind: 'invalid', reason: 'the token signing algorithm is not allowed' };
  if (err instanceof joseErrors.JWKSNoMatchingKey || err instanceof joseErrors.JWKSMultipleMatchingKeys) {
    return { kind: 'invalid', reason: 'no key of the authorization server matches the token' };
  }
  if (err instanceof KeysFetchError) return { kind: 'unavailable', reason: `the authorization server keys could not be fetched (${err.why})` };
  // anything else jose throws is about the token (malformed, a key of the set that does not fit its algorithm)
  return { kind: 'invalid', reason: 'the token is not a valid signed JWT' };
}

/** A check's outcome: a result, or jose's error (reasonOf words it). */
type Checked = VerifyResult | { ok: false; error: unknown };

function settled(c: Checked): VerifyResult {
  return 'error' in c ? { ok: false, ...reasonOf(c.error) } : c;
}

/** Validates JWT access tokens for one issuer and one resource. Discovery runs once and is cached. */
export class OAuthVerifier {
  readonly issuer: string;
  readonly resource: string;
  private readonly algorithms: string[];
  private readonly toleranceSec: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly keysMaxAgeMs: number;
  private readonly refetchIntervalMs: number;
  private keys?: IssuerKeys;
  private pending?: Promise<IssuerKeys>;

  constructor(options: OAuthVerifierOptions) {
    checkSecureUrl('--oauth-issuer', options.issuer);
    this.issuer = options.issuer;
    this.resource = options.resource;
    this.algorithms = options.algorithms ?? DEFAULT_JWT_ALGORITHMS;
    this.toleranceSec = options.clockToleranceSec ?? 30;
    this.timeoutMs = options.fetchTimeoutMs ?? 5000;
    this.now = options.now ?? Date.now;
    this.keysMaxAgeMs = options.keysMaxAgeMs ?? 600_000;
    this.refetchIntervalMs = options.keysRefetchIntervalMs ?? 1000;
  }

  /**
   * Fetches the AS metadata and sets up the key set (fetched on first use). Throws AppError CONFIG_INVALID when no
   * metadata document answers or it names another issuer (RFC 8414 §3.3) or no jwks_uri.
   */
  discover(): Promise<IssuerKeys> {
    if (this.keys) return Promise.resolve(this.keys);
    if (this.pending) return this.pending;
    this.pending = (async () => {
      const tried: string[] = [];
      for (const url of discoveryUrls(this.issuer)) {
        let got: { status: number; json?: unknown };
        try {
          got = await fetchJson(url, this.timeoutMs);
        } catch (err) {
          tried.push(`${url} (${fetchFailure(err)})`);
          continue;
        }
        if (got.json === undefined) {
          tried.push(`${url} (HTTP ${got.status})`);
          continue;
        }
        const meta = got.json as { issuer?: unknown; jwks_uri?: unknown };
        if (typeof meta.issuer !== 'string' || !sameIssuer(meta.issuer, this.issuer)) {
          throw new AppError('CONFIG_INVALID', `oauth: ${url} names issuer ${JSON.stringify(String(meta.issuer).slice(0, 200))}, not ${this.issuer}; check --oauth-issuer`);
        }
        if (typeof meta.jwks_uri !== 'string') throw new AppError('CONFIG_INVALID', `oauth: ${url} has no jwks_uri; the server needs the issuer's signing keys`);
        checkSecureUrl('jwks_uri', meta.jwks_uri);
        this.keys = new IssuerKeys({
          url: new URL(meta.jwks_uri),
          timeoutMs: this.timeoutMs,
          maxAgeMs: this.keysMaxAgeMs,
          refetchIntervalMs: this.refetchIntervalMs,
          describe: fetchFailure,
        });
        return this.keys;
      }
      throw new AppError('CONFIG_INVALID', `oauth: no authorization server metadata for ${this.issuer}; tried ${tried.join(', ')}`);
    })();
    const p = this.pending;
    // A failed discovery is remembered for 5 s, so a down AS is not asked again on every request.
    p.then(
      () => (this.pending = undefined),
      () => setTimeout(() => this.pending === p && (this.pending = undefined), 5000).unref(),
    );
    return p;
  }

  /**
   * Readiness: undefined when the issuer's metadata is known and its signing keys were fetched less than
   * keysMaxAgeMs ago (fetching them now if they are missing or older); else why not, naming the issuer.
   */
  async keysProblem(): Promise<string | undefined> {
    let keys: IssuerKeys;
    try {
      keys = await this.discover();
    } catch (err) {
      return err instanceof AppError ? err.message : `oauth: discovery of ${this.issuer} failed`;
    }
    try {
      await keys.ensureFresh();
      return undefined;
    } catch (err) {
      const why = err instanceof KeysFetchError ? err.why : fetchFailure(err);
      return `oauth: the signing keys of ${this.issuer} could not be fetched (${why}) and none younger than ${Math.round(this.keysMaxAgeMs / 1000)} s are cached; tokens cannot be checked until the issuer answers`;
    }
  }

  /** Verifies one bearer token. Never throws; never includes the token in the result. */
  async verify(token: string): Promise<VerifyResult> {
    if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token)) {
      return { ok: false, kind: 'invalid', reason: NOT_A_JWT };
    }
    let keys: IssuerKeys;
    try {
      keys = await this.discover();
    } catch (err) {
      return { ok: false, kind: 'unavailable', reason: err instanceof AppError ? err.message : 'authorization server discovery failed' };
    }
    const startedAt = performance.now(); // compared with IssuerKeys' fetch starts, on the monotonic clock
    try {
      await keys.ensureFresh();
    } catch (err) {
      // no keys younger than the max age, and the issuer does not give them: no token can be checked (503)
      return { ok: false, ...reasonOf(err) };
    }
    const first = await this.check(token, keys.current as JWTVerifyGetKey);
    if (!('error' in first) || !(first.error instanceof joseErrors.JWKSNoMatchingKey)) return settled(first);
    // An unknown key id: the issuer may have rotated its key since our last fetch, or the token is made up (its
    // claims are not verified: anyone can write them). Either way the keys are fetched again (one fetch at a time,
    // rate-limited) and the token checked once more; still unknown, or the fetch failed, it is a 401.
    try {
      await keys.refetchFor(startedAt);
    } catch (err) {
      const why = err instanceof KeysFetchError ? err.why : fetchFailure(err);
      return { ok: false, kind: 'invalid', reason: `no key of the authorization server matches the token (its keys could not be fetched again: ${why})` };
    }
    return settled(await this.check(token, keys.current as JWTVerifyGetKey));
  }

  /** One jwtVerify against `keys`: the verified token, or jose's error. */
  private async check(token: string, keys: JWTVerifyGetKey): Promise<Checked> {
    try {
      const { payload, protectedHeader } = await jwtVerify(token, keys, {
        issuer: this.issuers(),
        audience: this.audiences(),
        algorithms: this.algorithms,
        clockTolerance: this.toleranceSec,
        currentDate: new Date(this.now()),
        // `sub` is checked below, with a reason that says what is wrong with it
        requiredClaims: ['exp', 'iss', 'aud'],
      });
      // signed by the issuer, for this resource, not expired: now, is it an access token, and whose?
      const refused = typProblem(protectedHeader.typ) ?? subjectProblem(payload.sub);
      if (refused !== undefined) return { ok: false, kind: 'invalid', reason: refused };
      const { scopes, problem } = scopesOf(payload);
      return {
        ok: true,
        token: {
          subject: payload.sub as string,
          scopes,
          expiresAt: payload.exp as number,
          ...(typeof payload.client_id === 'string' ? { clientId: payload.client_id } : {}),
          ...(problem !== undefined ? { scopeProblem: problem } : {}),
        },
      };
    } catch (error) {
      return { ok: false, error };
    }
  }

  /** The `iss` values accepted: the issuer with or without its trailing slash. */
  private issuers(): string[] {
    return [this.issuer, this.issuer.replace(/\/$/, ''), `${this.issuer.replace(/\/$/, '')}/`];
  }

  /** The `aud` values accepted: this resource with or without its trailing slash. */
  private audiences(): string[] {
    const resource = this.resource.replace(/\/$/, '');
    return [resource, `${resource}/`];
  }
}

// Inbound authentication for the Streamable HTTP transport: one `Authenticator` that turns a request into a
// `Principal` (static bearer token, OAuth JWT access token, or anonymous on loopback) and checks the scope a
// JSON-RPC message needs. Answers refusals as ready-to-send HTTP parts; never logs or returns a token.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OAuthProtectedResourceMetadata } from '@modelcontextprotocol/server';
import { toolNames } from '../core/names.js';
import {
  ALL_SCOPES,
  SCOPE_EXECUTE,
  SCOPE_READ,
  bearerChallenge,
  metadataPaths,
  protectedResourceMetadata,
  protectedResourceMetadataUrl,
} from './metadata.js';
import { NOT_A_JWT, OAuthVerifier, type OAuthVerifierOptions } from './oauth.js';
import { tokenPrincipal } from './tokens.js';

export { ALL_SCOPES, SCOPE_EXECUTE, SCOPE_READ, protectedResourceMetadataUrl } from './metadata.js';
export { OAuthVerifier } from './oauth.js';
export { TokenFile, newToken, parseScopes, parseTokenFile, readTokenFile, TOKEN_NAME_RE } from './tokens.js';

/**
 * Who sent a request. `id` is stable per caller (sessions are bound to it): `oauth:<issuer>#<sub>` for a JWT,
 * `token:<name>` for a named token of the --tokens file, `static-token` for API_CATALOG_HTTP_TOKEN, `anonymous`
 * when no authentication is configured (loopback only). `scopes` undefined means unrestricted (static token, anonymous).
 */
export interface Principal {
  id: string;
  scopes?: string[];
  /** OAuth: why the token's `scope` claim could not be read (a 403 says so instead of "ask the issuer for the scope"). */
  scopeProblem?: string;
}

/** A refusal, ready to send: HTTP status, headers (WWW-Authenticate) and a JSON-RPC error body. */
export interface AuthRefusal {
  ok: false;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body's error message (`Forbidden: this request needs the scope …`), for a page to show. */
  message: string;
  /** Short token-free reason for the log line. */
  reason: string;
}

export type AuthResult = { ok: true; principal: Principal } | AuthRefusal;

export interface AuthenticatorOptions {
  /** API_CATALOG_HTTP_TOKEN: a shared secret giving the fixed principal `static-token` with every scope. */
  staticToken?: string;
  /** OAuth resource server: issuer + this server's canonical URL (the `resource`/audience). */
  oauth?: OAuthVerifierOptions;
  /** Named static tokens (`--tokens <file>`): a match is the principal `token:<name>` with that entry's scopes. */
  tokens?: { match(token: string): { name: string; scopes: string[] } | undefined };
  /** Tool-name prefix, to map tools/call names onto scopes. */
  toolPrefix?: string;
  /** The MCP endpoint path on this process (default `/mcp`): PRM is also served suffixed with it behind a proxy. */
  endpointPath?: string;
}

export interface Authenticator {
  /** True when requests must authenticate (static token and/or OAuth). */
  readonly required: boolean;
  /** Authenticates one request from its Authorization header. Never throws. */
  authenticate(req: IncomingMessage): Promise<AuthResult>;
  /** True when `token` is the static API_CATALOG_HTTP_TOKEN (constant time); false when none is configured. */
  verifyStaticToken(token: string): boolean;
  /** The scope check for one parsed JSON-RPC message; undefined when the principal may send it. */
  authorize(principal: Principal, message: unknown): AuthRefusal | undefined;
  /** The PRM document when OAuth is on and `pathname` is one of its well-known paths; else undefined. */
  metadataFor(pathname: string): OAuthProtectedResourceMetadata | undefined;
  /** Answers a PRM request (GET/HEAD/OPTIONS; 405 otherwise) and returns true; false when `pathname` is not PRM. */
  serveMetadata(pathname: string, method: string, res: ServerResponse): boolean;
  /** The PRM URL (OAuth only), for WWW-Authenticate and the start-up banner. */
  readonly resourceMetadataUrl?: string;
  /** OAuth only: discovers the AS now; resolves to an error message when that fails (the server still starts). */
  warmUp(): Promise<string | undefined>;
  /**
   * OAuth only: why the issuer's signing keys are not usable now (readiness); undefined when they are, or without
   * OAuth. `{degraded}` when named or static tokens are configured too: those are still served, so the replica
   * stays ready (an identity-provider outage cuts off only the OAuth clients, which get 503).
   */
  keysProblem(): Promise<string | { degraded: string } | undefined>;
}

/** Fixed-length digest so timingSafeEqual compares equal-length buffers whatever the input length. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

function refusal(status: number, message: string, challenge: string | undefined, reason: string, extra: Record<string, string> = {}): AuthRefusal {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  return { ok: false, status, headers: { ...(challenge !== undefined ? { 'WWW-Authenticate': challenge } : {}), ...extra }, body, message, reason };
}

/**
 * The scope a JSON-RPC message needs: tools/call of a read-only meta-tool and resource reads need
 * `catalog:read`; tools/call of anything else (execute_tool, or an unknown name: fail closed) needs
 * `catalog:execute`; initialize, tools/list, ping and notifications need only a valid token.
 */
export function requiredScope(message: unknown, prefix = ''): string | undefined {
  if (message === null || typeof message !== 'object') return undefined;
  const m = message as { method?: unknown; params?: { name?: unknown } };
  if (m.method === 'tools/call') {
    const names = toolNames(prefix);
    const read = [names.listDomains, names.searchTools, names.describeTools];
    return typeof m.params?.name === 'string' && read.includes(m.params.name) ? SCOPE_READ : SCOPE_EXECUTE;
  }
  if (m.method === 'resources/read' || m.method === 'resources/list' || m.method === 'resources/templates/list') return SCOPE_READ;
  return undefined;
}

/** Builds the request authenticator from the configured methods (none, static token, OAuth, or both). */
export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const tokenDigest = options.staticToken !== undefined ? digest(options.staticToken) : undefined;
  const verifier = options.oauth !== undefined ? new OAuthVerifier(options.oauth) : undefined;
  const prmUrl = verifier !== undefined ? protectedResourceMetadataUrl(verifier.resource) : undefined;
  const prmPaths = verifier !== undefined ? [...metadataPaths(verifier.resource), `/.well-known/oauth-protected-resource${options.endpointPath ?? '/mcp'}`] : [];
  const scopeList = ALL_SCOPES.join(' ');

  /** 401 for a request without (valid) credentials, in the dialect of the configured method. */
  function unauthorized(kind: 'missing' | 'malformed' | 'invalid', reason: string): AuthRefusal {
    if (verifier === undefined) {
      const challenge = kind === 'missing' ? bearerChallenge({}) : bearerChallenge({ error: 'invalid_token' });
      const which = options.tokens !== undefined ? 'a token the server operator gave you' : "the server operator's API_CATALOG_HTTP_TOKEN";
      // A client that already sends a token must learn that this token is the problem (a revoked line, a rotated
      // secret, a typo), not be told to send the header it sends. Never the token itself.
      const problem =
        kind === 'missing'
          ? ''
          : kind === 'malformed'
            ? 'the Authorization header is not "Bearer <token>"; '
            : options.tokens !== undefined
              ? 'the token sent is not accepted (unknown, or revoked by the server operator); '
              : "the token sent is not accepted (it is not the server operator's API_CATALOG_HTTP_TOKEN, which may have been changed); ";
      return refusal(401, `Unauthorized: ${problem}send the header Authorization: Bearer <token> (${which})`, challenge, reason);
    }
    // RFC 6750 §3.1: no error code when the request carried no credentials at all.
    const challenge = bearerChallenge({
      ...(kind === 'missing' ? {} : { error: 'invalid_token' as const, description: reason }),
      scope: scopeList,
      ...(prmUrl !== undefined ? { resourceMetadata: prmUrl } : {}),
    });
    const why = kind === 'missing' ? '' : kind === 'malformed' ? `${reason}; ` : `the token sent is not accepted (${reason}); `;
    return refusal(
      401,
      `Unauthorized: ${why}send the header Authorization: Bearer <access token> issued by ${verifier.issuer} for the resource ${verifier.resource} (metadata: ${prmUrl})`,
      challenge,
      reason,
    );
  }

  function metadataFor(pathname: string): OAuthProtectedResourceMetadata | undefined {
    if (verifier === undefined || !prmPaths.includes(pathname)) return undefined;
    return protectedResourceMetadata(verifier.resource, verifier.issuer);
  }

  return {
    required: tokenDigest !== undefined || verifier !== undefined || options.tokens !== undefined,
    ...(prmUrl !== undefined ? { resourceMetadataUrl: prmUrl } : {}),

    verifyStaticToken(token) {
      return tokenDigest !== undefined && timingSafeEqual(digest(token), tokenDigest);
    },

    async authenticate(req) {
      if (tokenDigest === undefined && verifier === undefined && options.tokens === undefined) return { ok: true, principal: { id: 'anonymous' } };
      const header = req.headers.authorization;
      if (header === undefined || header === '') return unauthorized('missing', 'no Authorization header');
      const m = /^Bearer +([\x21-\x7E]+) *$/i.exec(header);
      if (!m?.[1]) return unauthorized('malformed', 'the Authorization header is not "Bearer <token>"');
      const token = m[1];
      // The static token is checked first (constant time); anything else must be a valid JWT of the issuer.
      if (tokenDigest !== undefined && timingSafeEqual(digest(token), tokenDigest)) return { ok: true, principal: { id: 'static-token' } };
      const named = options.tokens?.match(token);
      if (named !== undefined) return { ok: true, principal: { id: tokenPrincipal(named.name), scopes: named.scopes } };
      if (verifier === undefined) return unauthorized('invalid', 'the token is not one of the configured ones');
      const result = await verifier.verify(token);
      if (result.ok) {
        const { subject, scopes, scopeProblem } = result.token;
        return { ok: true, principal: { id: `oauth:${verifier.issuer}#${subject}`, scopes, ...(scopeProblem !== undefined ? { scopeProblem } : {}) } };
      }
      if (result.kind === 'unavailable') {
        // a 503, not a 401: the token may be good (a client keeps it and retries after Retry-After). Only when no token
        // can be checked at all (the issuer's keys are missing or too old and it does not answer): never for what a
        // token itself claims, which anyone can write.
        const message = `Service Unavailable: the authorization server cannot be reached to check the token (${result.reason}); retry later`;
        return refusal(503, message, undefined, result.reason, { 'Retry-After': '5' });
      }
      // Not a JWT where named or static tokens are configured too: most likely one of those, unknown or revoked.
      const bare = result.reason === NOT_A_JWT && (options.tokens !== undefined || tokenDigest !== undefined);
      return unauthorized('invalid', bare ? `${NOT_A_JWT}, nor a configured token (unknown or revoked)` : result.reason);
    },

    authorize(principal, message) {
      const needed = requiredScope(message, options.toolPrefix);
      if (needed === undefined || principal.scopes === undefined || principal.scopes.includes(needed)) return undefined;
      const challenge = bearerChallenge({
        error: 'insufficient_scope',
        description: `this request needs the scope ${needed}${principal.scopeProblem !== undefined ? `; ${principal.scopeProblem}` : ''}`,
        scope: needed,
        ...(prmUrl !== undefined ? { resourceMetadata: prmUrl } : {}),
      });
      // A named token's scopes are its line of the --tokens file; an OAuth token's come from the issuer, unless its
      // scope claim could not be read: then asking the issuer for the scope would bring the same token again.
      const fix = principal.id.startsWith(tokenPrincipal(''))
        ? `the token ${JSON.stringify(principal.id.slice(tokenPrincipal('').length))} has ${principal.scopes.join(', ')}: ask the server's operator to add ${needed} to its line of the tokens file`
        : principal.scopeProblem !== undefined
          ? `${principal.scopeProblem}, so this server could not read the token's scopes: the authorization server's administrator can issue scope as a space-separated string (RFC 9068)`
          : 'ask the authorization server for a token with it';
      return refusal(403, `Forbidden: this request needs the scope ${needed}; ${fix}`, challenge, `insufficient_scope ${needed}`);
    },

    metadataFor,

    serveMetadata(pathname, method, res) {
      const prm = metadataFor(pathname);
      if (prm === undefined) return false;
      const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS' };
      if (method === 'OPTIONS') {
        res.writeHead(204, cors).end();
      } else if (method !== 'GET' && method !== 'HEAD') {
        const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method Not Allowed' }, id: null });
        res.writeHead(405, { ...cors, Allow: 'GET, HEAD, OPTIONS', 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
      } else {
        const text = JSON.stringify(prm);
        res.writeHead(200, { ...cors, 'Cache-Control': 'public, max-age=3600', 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
        res.end(method === 'GET' ? text : undefined);
      }
      return true;
    },

    async keysProblem() {
      if (verifier === undefined) return undefined;
      const problem = await verifier.keysProblem();
      if (problem === undefined || (tokenDigest === undefined && options.tokens === undefined)) return problem;
      const others = [...(options.tokens !== undefined ? ['named tokens (--tokens)'] : []), ...(tokenDigest !== undefined ? ['the static token (API_CATALOG_HTTP_TOKEN)'] : [])].join(' and ');
      return { degraded: `${problem}; OAuth tokens get 503 meanwhile, ${others} still work` };
    },

    async warmUp() {
      if (verifier === undefined) return undefined;
      try {
        await verifier.discover();
        return undefined;
      } catch (err) {
        return err instanceof Error ? err.message : 'discovery failed';
      }
    },
  };
}

// The public types of the Streamable HTTP transport (http.ts): the options serveHttp takes, the handle it returns
// and the authenticated request an embedding application may hand it. Types only: no code, nothing to start.
import type { IncomingMessage, Server } from 'node:http';
import type { StateStore } from '../../state/index.js';
import type { AuthenticatorOptions, Principal } from '../auth/index.js';
import type { OAuthVerifierOptions } from '../auth/oauth.js';
import type { Drain } from '../ops/drain.js';
import type { OpsMetrics } from '../ops/metrics.js';
import type { Readiness, ReadinessCheck } from '../ops/readiness.js';
import type { RateLimits } from '../session.js';

export interface HttpServeOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** MCP endpoint path; default `/mcp`. */
  path?: string;
  /** Allowed Origin values besides the loopback origins of this port (exact match; `null` only if listed). */
  allowOrigins?: string[];
  /**
   * Bind a non-loopback address on purpose (A6). Needs `authToken`. Host is still checked, against loopback,
   * the bound address and `allowHosts`.
   */
  allowRemote?: boolean;
  /** Extra accepted Host header values: `name` (any port) or `name:port`. */
  allowHosts?: string[];
  /**
   * When set, every /mcp request (except CORS preflight) must carry `Authorization: Bearer <authToken>`;
   * otherwise 401 with `WWW-Authenticate: Bearer`. Compared in constant time; registered as a log secret;
   * never passed to tools (only X-Upstream-Token is read for upstream calls).
   */
  authToken?: string;
  /**
   * OAuth resource server (../auth): JWT access tokens of this issuer for `publicUrl` are accepted besides the
   * static token (either may satisfy allowRemote). Scopes: catalog:read / catalog:execute.
   */
  oauth?: Omit<OAuthVerifierOptions, 'resource'>;
  /** Named static tokens (`--tokens <file>`): each entry's name is a principal with the entry's scopes. */
  tokens?: AuthenticatorOptions['tokens'];
  /**
   * This server's canonical URL as clients reach it (RFC 8707 resource, token audience, PRM `resource`), e.g.
   * `https://mcp.example.com/mcp`. Default: the bound loopback URL; required for OAuth on a non-loopback bind.
   * Its host is accepted as a Host header.
   */
  publicUrl?: string;
  maxBodyBytes?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  maxSessions?: number;
  /**
   * Serve the catalog explorer page at `/` and `/explorer/*` behind the same Host, Origin and auth checks. Default
   * false here (a library user opts in); `serve --http` turns it on unless `--no-explorer`.
   */
  explorer?: boolean;
  /** `GET /metrics` (Prometheus text, same auth as /mcp); absent: no metrics endpoint (404). */
  metrics?: OpsMetrics;
  /** Readiness checks besides the transport's own (catalogs, state store, OAuth keys, draining). */
  readinessChecks?: ReadinessCheck[];
  /** Facts added to the /readyz body (catalog versions, ...). */
  readinessInfo?: () => Record<string, unknown>;
}

/**
 * An incoming request after authentication: the auth step sets `principal` (`static-token`,
 * `anonymous` on loopback without a token, or an authenticator's identity such as a JWT `sub`) before any
 * session handling. Sessions are bound to it (RELIABILITY B4).
 */
export interface AuthenticatedRequest extends IncomingMessage {
  principal?: Principal;
}

export interface HttpHandle {
  /** e.g. `http://127.0.0.1:3333/mcp`. */
  url: string;
  port: number;
  host: string;
  /** The node:http server (timeouts are set on it; for operators and tests). */
  server: Server;
  /** Legacy sessions this process holds a live transport for (created here or rebuilt from the store). */
  sessionCount(): number;
  /** The state store sessions live in (memory unless deps.state is shared). */
  state: StateStore;
  /** The rate limits its sessions and requests apply, per principal (0: unlimited): the defaults filled in. */
  limits: RateLimits;
  /** OAuth only: the canonical URL (token audience) and its Protected Resource Metadata URL. */
  resource?: string;
  resourceMetadataUrl?: string;
  /** What /readyz evaluates (also run in the background so that every change is logged). */
  readiness: Readiness;
  /** Requests in flight and the draining flag. */
  drain: Drain;
  /**
   * Graceful shutdown: unready at once, new requests 503 (Retry-After, Connection: close: nothing was processed,
   * so a balancer may retry them elsewhere), every request in flight finishes for up to `graceMs`; then the
   * listener, the sessions (aborting what is left) and every connection close. Resolves with how it went.
   */
  shutdown(graceMs: number): Promise<{ finished: boolean; abandoned: number }>;
  /** shutdown(0): stops accepting, ends every session (aborting in-flight calls) and closes connections. */
  close(): Promise<void>;
}

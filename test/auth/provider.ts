// A real OpenID provider (`oidc-provider`) on 127.0.0.1:0 for the OAuth tests: client_credentials grant with
// resource indicators (RFC 8707), so it issues RFC 9068 JWT access tokens for a given resource. Its signing key can
// be rotated (a provider with a new key, the old one gone from its JWKS, behind the same address, as an issuer that
// rotates its keys), and a client's tokens can carry the `scope` claim in another shape, as some authorization
// servers issue it. Test-only.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { errors as oidcErrors } from 'oidc-provider';

export interface TestClient {
  id: string;
  secret: string;
  /** Scopes this client may ask for. */
  scope: string;
  /** Access-token lifetime in seconds for this client (default 600). */
  ttl?: number;
  /**
   * How this client's tokens carry their scopes: `string` (RFC 9068, the default), `array` (a JSON array of strings,
   * as Spring Authorization Server issues it) or `number` (a claim no one can read as scopes).
   */
  scopeClaim?: 'string' | 'array' | 'number';
}

export interface TestProvider {
  issuer: string;
  /** Every request the provider received (method + path), to prove discovery and JWKS were fetched. */
  hits: string[];
  /** client_credentials token for `resource` with `scope`; throws with the provider's answer on failure. */
  token(client: TestClient, resource: string, scope: string): Promise<string>;
  /** The key id the provider signs with now. */
  kid(): string;
  /** Replaces the signing key by `next` (made beforehand with nextKey(), so a rotation takes no time); returns its kid. */
  rotate(next: JWK): string;
  /**
   * How GET /jwks answers from now on: an HTTP status (an IdP behind its own proxy, restarting), `not-json` (a 200
   * with an HTML page), or undefined: the provider's own key set again.
   */
  breakJwks(mode: number | 'not-json' | undefined): void;
  close(): Promise<void>;
}

let keyCount = 0;

/** A new RS256 signing key with its own kid. */
export async function nextKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: `k-${++keyCount}-${Date.now()}`, alg: 'RS256', use: 'sig' };
}

/** Resources the provider issues tokens for: loopback URLs, a public name (proxy test) and a foreign resource. */
function knownResource(resource: string): boolean {
  const u = new URL(resource);
  return ['127.0.0.1', 'localhost', 'mcp.example.com', 'other.example'].includes(u.hostname);
}

export async function startProvider(clients: TestClient[]): Promise<TestProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ttlOf = new Map(clients.map((c) => [c.id, c.ttl ?? 600]));
  const shapeOf = new Map(clients.map((c) => [c.id, c.scopeClaim ?? 'string']));
  const build = (jwk: JWK): Provider =>
    new Provider(issuer, {
      jwks: { keys: [jwk] },
      clients: clients.map((c) => ({
        client_id: c.id,
        client_secret: c.secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope: c.scope,
      })),
      scopes: ['catalog:read', 'catalog:execute'],
      ttl: { ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 600 },
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => undefined as unknown as string,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, resource, client) => {
            if (!knownResource(resource)) throw new oidcErrors.InvalidTarget();
            return {
              scope: 'catalog:read catalog:execute',
              audience: resource,
              accessTokenTTL: ttlOf.get(client.clientId) ?? 600,
              accessTokenFormat: 'jwt',
              jwt: { sign: { alg: 'RS256' } },
            };
          },
        },
      },
      formats: {
        customizers: {
          // the provider's own token, its scope claim reshaped before it signs it
          jwt: (_ctx: unknown, token: { clientId?: unknown }, jwt: { payload: Record<string, unknown> }) => {
            const shape = shapeOf.get(String(token.clientId));
            const scope = jwt.payload.scope;
            if (shape === 'array' && typeof scope === 'string') jwt.payload.scope = scope.split(' ');
            if (shape === 'number') jwt.payload.scope = 42;
          },
        },
      },
    });
  let current = await nextKey();
  let callback = build(current).callback();
  const hits: string[] = [];
  let jwksMode: number | 'not-json' | undefined;
  server.on('request', (req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (jwksMode !== undefined && req.url?.startsWith('/jwks')) {
      if (jwksMode === 'not-json') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
      else res.writeHead(jwksMode, { 'content-type': 'text/plain' }).end('unavailable');
      return;
    }
    callback(req, res);
  });
  return {
    issuer,
    hits,
    async token(client, resource, scope) {
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource }),
      });
      const body = (await res.json()) as { access_token?: string };
      if (!res.ok || typeof body.access_token !== 'string') throw new Error(`token request failed: ${res.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    kid: () => current.kid as string,
    breakJwks(mode) {
      jwksMode = mode;
    },
    rotate(next) {
      current = next;
      callback = build(next).callback();
      return next.kid as string;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

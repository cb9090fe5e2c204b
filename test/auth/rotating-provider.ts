// A real OpenID provider (`oidc-provider`) on 127.0.0.1:0 whose signing key can be rotated, and whose JWT access
// tokens can carry the `scope` claim in another shape (as some authorization servers issue it): client_credentials
// with resource indicators (RFC 8707), like ./provider.ts. A rotation swaps in a provider with a new key (new
// `kid`, the old key gone from its JWKS) behind the same address, as an issuer that rotates its keys does. Test-only.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';

export interface RotatingClient {
  id: string;
  secret: string;
  /**
   * How this client's tokens carry their scopes: `string` (RFC 9068, the default), `array` (a JSON array of strings,
   * as Spring Authorization Server issues it) or `number` (a claim no one can read as scopes).
   */
  scopeClaim?: 'string' | 'array' | 'number';
}

export interface RotatingProvider {
  issuer: string;
  /** The key id the provider signs with now. */
  kid(): string;
  /** client_credentials token for `resource` with `scope`; throws with the provider's answer on failure. */
  token(client: RotatingClient, resource: string, scope: string): Promise<string>;
  /** Replaces the signing key by `next` (made beforehand with nextKey(), so a rotation takes no time); returns its kid. */
  rotate(next: JWK): string;
  close(): Promise<void>;
}

let keyCount = 0;

/** A new RS256 signing key with its own kid. */
export async function nextKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: `rot-${++keyCount}-${Date.now()}`, alg: 'RS256', use: 'sig' };
}

export async function startRotatingProvider(clients: RotatingClient[]): Promise<RotatingProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const shapeOf = new Map(clients.map((c) => [c.id, c.scopeClaim ?? 'string']));

  function provider(jwk: JWK): Provider {
    return new Provider(issuer, {
      jwks: { keys: [jwk] },
      clients: clients.map((c) => ({
        client_id: c.id,
        client_secret: c.secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope: 'catalog:read catalog:execute',
      })),
      scopes: ['catalog:read', 'catalog:execute'],
      ttl: { ClientCredentials: () => 600 },
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => undefined as unknown as string,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, resource) => ({
            scope: 'catalog:read catalog:execute',
            audience: resource,
            accessTokenTTL: 600,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          }),
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
  }

  let current = await nextKey();
  let callback = provider(current).callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => callback(req, res));
  return {
    issuer,
    kid: () => current.kid as string,
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
    rotate(next) {
      current = next;
      callback = provider(next).callback();
      return next.kid as string;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The few parts of `oidc-provider` (a devDependency that ships no types) that test/auth/provider.ts uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface ResourceServer {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: 'jwt' | 'opaque';
    jwt?: { sign?: { alg: string } };
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown> & {
      ttl?: { ClientCredentials?: (ctx: unknown, token: { resourceServer?: ResourceServer }) => number };
      features?: Record<string, unknown> & {
        resourceIndicators?: {
          enabled: boolean;
          defaultResource?: (ctx: unknown) => string;
          useGrantedResource?: () => boolean;
          getResourceServerInfo?: (ctx: unknown, resource: string, client: { clientId: string }) => ResourceServer;
        };
      };
    });
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }

  export const errors: { InvalidTarget: new (description?: string) => Error };
}

// How an MCP client is told to authenticate to this server: the one decision the start-up banner (src/cli/serve.ts)
// and the page a browser gets at the MCP endpoint (explorer/standalone.ts) share, so they never disagree. Pure
// wording: no I/O, never a token (the static one is a secret, the tokens file holds only hashes).

/** Which authentication the server accepts. `tokenNames`: the names of the --tokens file (undefined: no file). */
export interface ClientAuthModes {
  staticToken: boolean;
  oauth: boolean;
  tokenNames?: readonly string[];
}

/**
 * The `Authorization` header an MCP client must be configured with, a placeholder where the token goes; undefined
 * when it needs none: no authentication, or OAuth, where a client with OAuth support gets its token itself (401 →
 * the Protected Resource Metadata → the issuer) and a fixed header would only get in its way.
 * `reader`: `operator` (the banner) names the variable and the token names; `anyone` (a page any browser may open
 * before authenticating) says only `<token>`, naming no principal.
 */
export function authorizationPlaceholder(auth: ClientAuthModes, reader: 'operator' | 'anyone' = 'operator'): string | undefined {
  if (auth.oauth) return undefined;
  if (!auth.staticToken && auth.tokenNames === undefined) return undefined;
  if (reader === 'anyone') return 'Bearer <token>';
  const names = auth.tokenNames;
  const named =
    names === undefined
      ? undefined
      : names.length === 0
        ? 'a token from api-catalog token new'
        : names.length === 1
          ? `the token for ${names[0]}`
          : `the token for one of ${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}`;
  if (auth.staticToken) return `Bearer <API_CATALOG_HTTP_TOKEN${named !== undefined ? ` or ${named}` : ''}>`;
  return named !== undefined ? `Bearer <${named.replace(/^the /, '')}>` : undefined;
}

/** One ready-to-paste client configuration: the clients that read it (each with its file) and the JSON. */
export interface ClientConfig {
  clients: Array<{ name: string; file: string }>;
  config: Record<string, unknown>;
}

/**
 * The configurations to paste into each kind of client, for the banner and the /mcp page alike. Cursor and Claude
 * Code read `{"mcpServers": {...}}`; VS Code's mcp.json reads `{"servers": {...}}`. `authorization` (a placeholder
 * from authorizationPlaceholder) never holds a secret.
 */
export function clientConfigs(url: string, authorization?: string): ClientConfig[] {
  const server = { type: 'http', url, ...(authorization !== undefined ? { headers: { Authorization: authorization } } : {}) };
  return [
    {
      clients: [
        { name: 'Cursor', file: '.cursor/mcp.json' },
        { name: 'Claude Code', file: '.mcp.json' },
      ],
      config: { mcpServers: { 'api-catalog': server } },
    },
    { clients: [{ name: 'VS Code', file: '.vscode/mcp.json' }], config: { servers: { 'api-catalog': server } } },
  ];
}
